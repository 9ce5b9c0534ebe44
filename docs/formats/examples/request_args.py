"""Turn a lens request (JSON, as the page sends it) into attention-cli's options.

    attention-cli lens MODEL $(python3 docs/formats/examples/request_args.py REQUEST.json)

"what" becomes --what, "tokens" --tokens 3,1,4, "heads" --heads L.H,L.H,
"mode" --mode, "position" --position and "token" --token; a field that is
null or absent is left out. Nothing is checked here: the CLI checks it all.
"""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as file:
    request = json.load(file)
options = []
for key, value in request.items():
    if value is None:
        continue
    if key == "tokens":
        value = ",".join(str(t) for t in value)
    elif key == "heads":
        value = ",".join(f"{layer}.{head}" for layer, head in value)
    options += [f"--{key}", str(value)]
print(" ".join(options))
