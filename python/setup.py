# The version is the project's VERSION, as the built assets carry it
# (scripts/notebook-bundle.mjs writes it into element.json): a package is
# never installed without the page it shows.
import json
import pathlib
import sys

from setuptools import setup

element = pathlib.Path(__file__).parent / "attention_playground" / "assets" / "element.json"
if not element.is_file():
    sys.exit("attention_playground: its page assets are not built; run `make python` in the checkout first")
setup(version=json.loads(element.read_text(encoding="utf-8"))["version"])
