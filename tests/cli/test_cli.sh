#!/usr/bin/env bash
# The real attention-cli binary, end to end: streams and exit codes.
# usage: test_cli.sh PATH/TO/attention-cli SOURCE_DIR
set -uo pipefail
cli=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
expect() { # expect WHAT ACTUAL WANTED
  if [ "$2" != "$3" ]; then echo "FAIL: $1: got '$2', wanted '$3'"; failures=$((failures + 1)); else echo "ok: $1"; fi
}

"$cli" trace "$root/web/scenarios/sun-rises.json" >"$tmp/out" 2>"$tmp/err"
expect "trace exits 0" "$?" 0
expect "trace writes nothing on stderr" "$(wc -c <"$tmp/err")" 0
expect "trace writes the trace" "$(head -c 32 "$tmp/out")" '{"version": 1, "id": "sun-rises"'

"$cli" trace - <"$root/web/scenarios/bank-raw.json" >"$tmp/out" 2>"$tmp/err"
expect "trace - reads stdin" "$(head -c 31 "$tmp/out")" '{"version": 1, "id": "bank-raw"'

echo '{"version": 1, "id": "x", "tensors": [], "attention": {}}' | "$cli" trace - >"$tmp/out" 2>"$tmp/err"
expect "invalid exits 2" "$?" 2
expect "invalid writes nothing on stdout" "$(wc -c <"$tmp/out")" 0
expect "invalid writes one line on stderr" "$(wc -l <"$tmp/err")" 1
expect "the line names the place" "$(cat "$tmp/err")" 'attention.x: required'

"$cli" validate "$root/web/scenarios/karpathy-value.json" >"$tmp/out" 2>"$tmp/err"
expect "validate exits 0" "$?" 0
expect "validate says valid" "$(cat "$tmp/out")" 'valid: karpathy-value (B=4, Tq=8, Tkv=8, heads=1, mask=causal)'

"$cli" >"$tmp/out" 2>"$tmp/err"
expect "no arguments exit 64" "$?" 64

# The user must never lose a trace silently: a full disk, a closed stdout.
"$cli" trace "$root/web/scenarios/sun-rises.json" >/dev/full 2>"$tmp/err"
expect "a full disk exits 74" "$?" 74
expect "a full disk is one line" "$(wc -l <"$tmp/err")" 1
"$cli" trace "$root/web/scenarios/sun-rises.json" >&- 2>"$tmp/err"
expect "a closed stdout exits 74" "$?" 74
expect "a closed stdout is one line" "$(wc -l <"$tmp/err")" 1

# Numbers beyond a double used to abort (exit 134) with two lines.
printf '%s' '{"version": 1e999}' | "$cli" validate - >"$tmp/out" 2>"$tmp/err"
expect "1e999 exits 2" "$?" 2
expect "1e999 is one line" "$(cat "$tmp/err")" 'scenario: not valid JSON at line 1, column 13: the number "1e999" is too large for a double'

# Model files (gpt-v1.md section 2): the model trace, a head, validate, and a hostile file.
models="$root/tests/models"
"$cli" model "$models/text-gpt.safetensors" --text "To be" >"$tmp/out" 2>"$tmp/err"
expect "model exits 0" "$?" 0
expect "model writes nothing on stderr" "$(wc -c <"$tmp/err")" 0
expect "model writes the model trace" "$(head -c 40 "$tmp/out")" '{"version":1,"config":{"vocab":81,"lengt'
"$cli" head "$models/hf-f32.safetensors" --tokens 5,1,3 --layer 1 --head 2 >"$tmp/head.json" 2>"$tmp/err"
expect "head exits 0" "$?" 0
"$cli" trace "$tmp/head.json" >"$tmp/out" 2>"$tmp/err"
expect "the head's scenario traces" "$?" 0
"$cli" validate - <"$models/nano-f16-nobias.safetensors" >"$tmp/out" 2>"$tmp/err"
expect "validate reads a model from stdin" "$(cat "$tmp/out")" 'valid: model (layout=nanogpt, V=17, T=12, embed=16, heads=2, layers=2, mlp=4, parameters=7040, tokenizer=ids)'
"$cli" model "$root/tests/fuzz/model/regressions/nan-weight.safetensors" --tokens 0 >"$tmp/out" 2>"$tmp/err"
expect "a NaN weight exits 2" "$?" 2
expect "a NaN weight writes nothing on stdout" "$(wc -c <"$tmp/out")" 0
expect "a NaN weight is named" "$(cat "$tmp/err")" 'transformer.h.0.attn.c_attn.weight: holds a NaN or an infinity (element [2, 3])'
"$cli" model "$models/hf-f32.safetensors" >"$tmp/out" 2>"$tmp/err"
expect "model without tokens exits 64" "$?" 64
"$cli" model "$models/hf-f32.safetensors" --tokens 1 >/dev/full 2>"$tmp/err"
expect "a model trace on a full disk exits 74" "$?" 74

[ "$failures" -eq 0 ]
