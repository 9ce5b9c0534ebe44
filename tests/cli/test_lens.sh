#!/usr/bin/env bash
# attention-cli lens end to end (lens-v1.md): each lens's JSON on standard
# output with exit 0 (its numbers against PyTorch are tests/lens' and
# tests/wasm/lens.test.mjs's, which also checks this binary's text), and
# every bad argument one line naming it, exit 2 (64 for a usage error).
# usage: test_lens.sh PATH/TO/attention-cli SOURCE_DIR
set -uo pipefail
cli=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
expect() { # expect WHAT ACTUAL WANTED
  if [ "$2" != "$3" ]; then echo "FAIL: $1: got '$2', wanted '$3'"; failures=$((failures + 1)); else echo "ok: $1"; fi
}
model=$root/tests/models/hf-f32.safetensors  # V 31, T 24, 2 layers of 3 heads
refused() { # refused WHAT LINE ARGS…: exit 2, nothing on stdout, the one line
  local what=$1 line=$2
  shift 2
  "$cli" lens "$@" >"$tmp/out" 2>"$tmp/err"
  expect "$what exits 2" "$?" 2
  expect "$what writes nothing on stdout" "$(wc -c <"$tmp/out")" 0
  expect "$what is one line" "$(cat "$tmp/err")" "$line"
}

"$cli" lens "$model" --tokens 3,1,4,1 --what scores >"$tmp/out" 2>"$tmp/err"
expect "scores exits 0" "$?" 0
expect "scores writes nothing on stderr" "$(wc -c <"$tmp/err")" 0
expect "scores starts as lens-v1 says" "$(head -c 63 "$tmp/out")" '{"version":1,"lens":"scores","tokens":[3,1,4,1],"induction_toke'
expect "scores is one line" "$(wc -l <"$tmp/out")" 1

"$cli" lens "$model" --tokens 3,1,4 --what ablate --heads 1.2,0.0 --mode mean >"$tmp/out" 2>"$tmp/err"
expect "ablate exits 0" "$?" 0
expect "ablate lists the heads as given" "$(head -c 82 "$tmp/out")" '{"version":1,"lens":"ablate","tokens":[3,1,4],"heads":[[1,2],[0,0]],"mode":"mean",'

"$cli" lens "$root/tests/models-v2/bert-mlm" --tokens 3,1,4 --what ablate --heads 0.1 --position 1 >"$tmp/out" 2>"$tmp/err"
expect "BERT's ablate at a position exits 0" "$?" 0
expect "BERT's loss is null" "$(grep -o '"loss":null' "$tmp/out" | wc -l)" 2

refused "a head that does not exist" '--heads: 2.0 is not a head of this model (2 layers of 3 heads)' \
  "$model" --tokens 3,1,4 --what ablate --heads 0.1,2.0
refused "a head past the layer's heads" '--heads: 0.3 is not a head of this model (2 layers of 3 heads)' \
  "$model" --tokens 3,1,4 --what ablate --heads 0.3
refused "an empty --heads" '--heads: empty; ablate needs at least one head, as L.H (layer.head)' \
  "$model" --tokens 3,1,4 --what ablate --heads ''
refused "ablate without --heads" '--heads: empty; ablate needs at least one head, as L.H (layer.head)' \
  "$model" --tokens 3,1,4 --what ablate
refused "a head not written L.H" '--heads: "1" is not a head; write L.H (layer.head), as 0.1,2.3' \
  "$model" --tokens 3,1,4 --what ablate --heads 1
refused "a position past the tokens" '--position: 3 is outside [0, 3)' \
  "$model" --tokens 3,1,4 --what attribution --position 3
refused "a token past the vocabulary" '--token: 31 is outside [0, 31)' \
  "$model" --tokens 3,1,4 --what attribution --token 31
refused "a negative token" '--token: -1 is outside [0, 31)' "$model" --tokens 3,1,4 --what attribution --token -1
refused "a token that is no number" '--token: "x" is not a token id (0, 1, 2, …)' \
  "$model" --tokens 3,1,4 --what attribution --token x
refused "an unknown --what" '--what: "heads" is not a lens (scores, ablate, logit-lens, attribution)' \
  "$model" --tokens 3,1,4 --what heads
refused "an unknown --mode" '--mode: "half" is not zero or mean' \
  "$model" --tokens 3,1,4 --what ablate --heads 0.0 --mode half
refused "tokens past the vocabulary" '--tokens[1]: 31 is outside [0, 31)' "$model" --tokens 3,31 --what scores
refused "BERT's logit lens" "--what: logit-lens reads a decoder's next-token logits; BERT supports scores and ablate (lens-v1.md)" \
  "$root/tests/models-v2/bert-mlm" --tokens 3,1,4 --what logit-lens
refused "a grouped head that does not exist" '--heads: 0.4 is not a head of this model (2 layers of 4 heads)' \
  "$root/tests/models-v2/llama-gqa" --tokens 3,1,4 --what ablate --heads 0.4

"$cli" lens "$model" --tokens 3,1,4 >"$tmp/out" 2>"$tmp/err"
expect "lens without --what exits 64" "$?" 64
expect "lens without --what says so" "$(head -n 1 "$tmp/err")" 'attention-cli: lens needs --what'

[ "$failures" -eq 0 ]
