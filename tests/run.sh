#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/run.sh - run the unit tests and every end-to-end test; the last line
# is "N passed, N failed, N skipped".
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
export TOP
cd "$TOP" || exit 1
out=$(mktemp "${TMPDIR:-/tmp}/ib-results.XXXXXX")
trap 'rm -f "$out" "${TMPDIR:-/tmp}/ib-tests-lpm"' EXIT

# One calibration for the whole suite (calibration itself has its own test).
"$TOP/interbench" -c -b -t 0.1 -W Audio -w None --work-dir "${TMPDIR:-/tmp}" 2>/dev/null |
	sed -n 's/^Using \([0-9]*\) loops per ms.*/\1/p' >"${TMPDIR:-/tmp}/ib-tests-lpm"
rm -f "${TMPDIR:-/tmp}/interbench.loops_per_ms"

# Run one test program; a crash or a non-zero exit without a FAIL line of its
# own still counts as a failure.
run() {
	local name=$1; shift
	local start=$SECONDS step rc
	step=$(mktemp "${TMPDIR:-/tmp}/ib-step.XXXXXX")
	"$@" >"$step" 2>&1
	rc=$?
	if [ $rc != 0 ] && ! grep -q '^FAIL ' "$step"; then
		echo "FAIL $name: exited with status $rc: $(grep -v -E '^(PASS|SKIP) ' "$step" | tail -3 | tr '\n' ' ')" >>"$step"
	fi
	cat "$step" >>"$out"
	grep -E '^(PASS|FAIL|SKIP) ' "$step"
	rm -f "$step"
	printf '  (%s: %ds)\n' "$name" $((SECONDS - start))
}

run unit timeout 300 "$TOP/tests/unit"
for t in "$TOP"/tests/t_*.sh; do
	[ -n "${TESTS:-}" ] && [[ "$(basename "$t")" != *${TESTS}* ]] && continue
	run "$(basename "$t")" timeout -k 10 600 setsid -w bash "$t"
done

p=$(grep -c '^PASS ' "$out")
f=$(grep -c '^FAIL ' "$out")
s=$(grep -c '^SKIP ' "$out")
if [ "$f" -gt 0 ]; then
	echo "Failures:"
	grep '^FAIL ' "$out"
fi
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
