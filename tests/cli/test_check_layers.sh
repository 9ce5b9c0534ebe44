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
sed -i '1a #include "training/model.hpp"' "$copy/core/tensor/matmul.cpp"
if "$check" "$copy/core" > "$copy/bad.txt"; then echo "FAIL: an include from tensor/ to training/ passed"; exit 1; fi
grep -q 'core/tensor/matmul.cpp: "training/model.hpp" goes against core/README.md' "$copy/bad.txt" ||
  { echo "FAIL: the message does not name the file and the include:"; cat "$copy/bad.txt"; exit 1; }
echo "ok: $(cat "$copy/bad.txt")"
