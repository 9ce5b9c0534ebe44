"""Print the header of a safetensors file: its tensors, then its metadata.

    python3 docs/formats/examples/header.py MODEL.safetensors

The file starts with 8 bytes, the header's length N (little-endian), then
N bytes of JSON, then the tensors' data. One line per tensor: its name,
dtype, shape and byte range in the data, in the file's order. Then each
metadata entry, cut at 60 characters.
"""
import json
import struct
import sys

with open(sys.argv[1], "rb") as file:
    (length,) = struct.unpack("<Q", file.read(8))
    header = json.loads(file.read(length))
print(f"header: {length} bytes")
metadata = header.pop("__metadata__", {})
for name, entry in sorted(header.items(), key=lambda item: item[1]["data_offsets"]):
    begin, end = entry["data_offsets"]
    print(f"{name} {entry['dtype']} {entry['shape']} [{begin}, {end})")
for key, value in metadata.items():
    shown = value if len(value) <= 60 else value[:60] + "…"
    print(f"__metadata__.{key}: {shown}")
