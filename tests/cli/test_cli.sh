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

[ "$failures" -eq 0 ]
