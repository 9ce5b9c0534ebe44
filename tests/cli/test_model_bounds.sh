#!/usr/bin/env bash
# attention-cli on model files whose work or reading is unbounded unless the
# header is checked first (issue 29): standard input read as far as its
# header says, a mask buffer of 64 GiB declared in a sparse file, paths that
# are directories, a model without blocks, a model that cannot be written.
# Each answer in bounded work (CPU seconds, not wall time: a busy machine
# must fail no test), bounded memory and one line.
# usage: test_model_bounds.sh PATH/TO/attention-cli SOURCE_DIR [SANITIZED]
set -uo pipefail
cli=$1 root=$2 sanitized=${3:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
expect() { # expect WHAT ACTUAL WANTED
  if [ "$2" != "$3" ]; then echo "FAIL: $1: got '$2', wanted '$3'"; failures=$((failures + 1)); else echo "ok: $1"; fi
}
# safetensors FILE HEADER: the 8-byte little-endian length and the header (the data follows)
safetensors() {
  local n=${#2} bytes="" i
  for i in 0 1 2 3 4 5 6 7; do bytes+=$(printf '\\x%02x' $(((n >> (8 * i)) & 255))); done
  printf "$bytes" >"$1"
  printf '%s' "$2" >>"$1"
}
models=$root/tests/models

# Standard input: 1.5 GB of zeros, an endless stream, a model followed by
# endless zeros. Refused within a CPU second (ulimit -t counts the process's
# own time, whatever else the machine runs; the wall-clock timeout only
# catches a hang), under 400 MB of address space. ASan reserves terabytes of
# shadow address space, so a sanitized build is held to 600 MB of resident
# memory by ASan itself, with CPU time for its checks.
if [ "$sanitized" = 1 ]; then
  bounded() { (ulimit -t 10; ASAN_OPTIONS="${ASAN_OPTIONS:-}:hard_rss_limit_mb=600" timeout 300 "$cli" "$@") >"$tmp/out" 2>"$tmp/err"; }
else
  bounded() { (ulimit -v 400000; ulimit -t 1; timeout 300 "$cli" "$@") >"$tmp/out" 2>"$tmp/err"; }
fi
head -c 1500000000 /dev/zero | bounded model - --tokens 0
status=("${PIPESTATUS[@]}")
# head could not write it all (SIGPIPE, or EPIPE where that is ignored): the CLI stopped at the header
expect "1.5 GB of zeros on stdin is refused" "$([ "${status[0]}" -ne 0 ] && echo stopped):${status[1]}:$(cat "$tmp/err")" \
  'stopped:2:header: length 0 is not within [2, 8388608] bytes, the limit of a model file'"'"'s header'
yes | bounded model - --tokens 0
expect "an endless stream on stdin is refused at its header length" "${PIPESTATUS[1]}:$(head -c 40 "$tmp/err")" \
  '2:header: length 754645927544294009 is not'
{ cat "$models/nano-f16-nobias.safetensors"; cat /dev/zero; } | bounded model - --tokens 1
expect "a model followed by endless bytes is refused" "${PIPESTATUS[1]}:$(cat "$tmp/err")" \
  '2:model: standard input goes on after the header'"'"'s last tensor (a model file ends there)'
bounded model - --tokens 1 <"$models/nano-f16-nobias.safetensors"
expect "a model on stdin still runs" "$?:$(head -c 12 "$tmp/out")" '0:{"version":1'

# A mask buffer declared at 64 GiB (a sparse file): refused from the header.
safetensors "$tmp/mask.safetensors" '{"wte.weight":{"dtype":"F32","shape":[2,1],"data_offsets":[0,8]},"wpe.weight":{"dtype":"F32","shape":[2,1],"data_offsets":[8,16]},"h.0.attn.bias":{"dtype":"F32","shape":[1,1,131072,131072],"data_offsets":[16,68719476752]},"__metadata__":{"n_head":"1"}}'
truncate -s $(($(stat -c %s "$tmp/mask.safetensors") + 68719476752)) "$tmp/mask.safetensors"
# 2 CPU seconds: reading its 64 GiB would take far more
(ulimit -t 2; timeout 300 "$cli" validate "$tmp/mask.safetensors") >"$tmp/out" 2>"$tmp/err"
expect "a 64 GiB mask buffer is refused at once, naming it" "$?:$(cat "$tmp/err")" \
  '2:h.0.attn.bias: shape [1, 1, 131072, 131072], a mask buffer of at most [1, 1, 2, 2] (wpe.weight'"'"'s 2 positions)'

# A model without blocks, said honestly in config.json: accepted, and it runs.
safetensors "$tmp/blockless.safetensors" '{"wte.weight":{"dtype":"F32","shape":[3,2],"data_offsets":[0,24]},"wpe.weight":{"dtype":"F32","shape":[4,2],"data_offsets":[24,56]},"__metadata__":{"n_head":"1"}}'
head -c 56 /dev/zero >>"$tmp/blockless.safetensors"
echo '{"model_type": "gpt2", "n_layer": 0, "n_embd": 2}' >"$tmp/config.json"
"$cli" model "$tmp/blockless.safetensors" --tokens 0,1,2 --config "$tmp/config.json" >"$tmp/out" 2>"$tmp/err"
expect "n_layer 0 is accepted for a model without blocks" "$?:$(cat "$tmp/err")" '0:'
expect "and it runs: no attention, the logits" "$(head -c 200 "$tmp/out" | grep -o '"attention":{"shape":\[0,1,3,3\]')" \
  '"attention":{"shape":[0,1,3,3]'

# Directories are named as directories; one given as the model is a Hugging
# Face folder (models-v2.md), whose config.json is read first.
mkdir "$tmp/folder"
"$cli" model "$tmp/folder" --tokens 0 >"$tmp/out" 2>"$tmp/err"
expect "a model path that is a directory: a folder without config.json" "$?:$(cat "$tmp/err")" \
  "2:\"$tmp/folder/config.json\": missing (a model folder's config.json)"
"$cli" model "$tmp/blockless.safetensors" --tokens 0 --config "$tmp/folder" >"$tmp/out" 2>"$tmp/err"
expect "a config path that is a directory" "$?:$(cat "$tmp/err")" "2:--config: \"$tmp/folder\": a directory, not a config.json"
"$cli" validate "$tmp/folder" >"$tmp/out" 2>"$tmp/err"
expect "validate on a directory: a folder without config.json" "$?:$(cat "$tmp/err")" \
  "2:\"$tmp/folder/config.json\": missing (a model folder's config.json)"
mkdir "$tmp/corpus.txt"
sed 's/"text": "[^"]*"/"corpus": "corpus.txt"/' "$root/tests/fuzz/training/corpus/small-text.json" >"$tmp/text.json"
"$cli" validate "$tmp/text.json" >"$tmp/out" 2>"$tmp/err"
expect "a corpus that is a directory" "$?:$(cat "$tmp/err")" '2:task.corpus: "corpus.txt": a directory, not a file of text'

# A model that cannot be written stops before any trace is printed.
"$cli" train "$root/tests/fuzz/training/corpus/small-trains.json" --model /dev/full >"$tmp/out" 2>"$tmp/err"
expect "a model on a full disk exits 2 with nothing on stdout" "$?:$(wc -c <"$tmp/out"):$(wc -l <"$tmp/err")" '2:0:1'

[ "$failures" -eq 0 ]
