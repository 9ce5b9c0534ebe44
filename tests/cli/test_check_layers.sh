#!/usr/bin/env bash
# scripts/check-layers passes on a copy of core/ and fails, naming the file
# and the include, once one include goes up the picture (tensor → training).
# usage: test_check_layers.sh CHECK_LAYERS CORE_DIR
set -u
check=$1 core=$2
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp -r "$core" "$copy/core"
"$check" "$copy/core" > "$copy/ok.txt" || { echo "FAIL: the untouched copy did not pass"; cat "$copy/ok.txt"; exit 1; }
sed -i '1a #include "transformer/model.hpp"' "$copy/core/tensor/matmul.cpp"
if "$check" "$copy/core" > "$copy/bad.txt"; then echo "FAIL: an include from tensor/ to transformer/ passed"; exit 1; fi
grep -q 'core/tensor/matmul.cpp: "transformer/model.hpp" goes against core/README.md' "$copy/bad.txt" ||
  { echo "FAIL: the message does not name the file and the include:"; cat "$copy/bad.txt"; exit 1; }
# lens/ sits above models/ and below cli/: reaching up to the command line is refused too
cp -r "$core" "$copy/core2"
sed -i '1a #include "cli/arguments.hpp"' "$copy/core2/lens/lens.cpp"
if "$check" "$copy/core2" > "$copy/bad2.txt"; then echo "FAIL: an include from lens/ to cli/ passed"; exit 1; fi
grep -q 'core/lens/lens.cpp: "cli/arguments.hpp" goes against core/README.md' "$copy/bad2.txt" ||
  { echo "FAIL: the lens message does not name the file and the include:"; cat "$copy/bad2.txt"; exit 1; }
echo "ok: $(cat "$copy/bad.txt") / $(cat "$copy/bad2.txt")"
