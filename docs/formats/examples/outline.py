"""Print the outline of a JSON document read from standard input.

One line per value: its place, then what it holds. A tensor written as
{"shape": [...], "data": [...]} shows its shape. A short list of numbers
shows them all; a long one, its length and first numbers. A list of
objects or lists shows its first two items (or as many as the first
argument says) and how many there are. Numbers are rounded to 4 decimals.

    attention-cli trace scenario.json | python3 docs/formats/examples/outline.py
"""
import json
import sys

SHOWN = int(sys.argv[1]) if len(sys.argv) > 1 else 2  # items of a list of objects or lists
NUMBERS = 4  # numbers of a list of numbers


def number(value):
    if isinstance(value, float):
        return f"{value:.4f}"
    return json.dumps(value)


def is_tensor(value):
    return isinstance(value, dict) and list(value) == ["shape", "data"]


def outline(value, place):
    if is_tensor(value):
        size = len(value["data"])
        print(f"{place}: shape {value['shape']}")
    elif isinstance(value, dict):
        if not value:
            print(f"{place}: {{}}")
        for key, item in value.items():
            outline(item, f"{place}.{key}" if place else key)
    elif isinstance(value, list):
        if all(not isinstance(item, (dict, list)) for item in value):
            shown = ", ".join(number(item) for item in value[:NUMBERS])
            if len(value) <= NUMBERS:
                print(f"{place}: [{shown}]")
            else:
                print(f"{place}: {len(value)} items [{shown}, …]")
            return
        for i, item in enumerate(value[:SHOWN]):
            outline(item, f"{place}[{i}]")
        if len(value) > SHOWN:
            print(f"{place}[…]: {len(value)} items in all")
    else:
        print(f"{place}: {number(value)}")


outline(json.load(sys.stdin), "")
