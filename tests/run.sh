#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/run.sh - run the unit tests and every end-to-end test; the last line
# is "N passed, N failed, N skipped".
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
export TOP
cd "$TOP" || exit 1
out=$(mktemp "${TMPDIR:-/tmp}/ib-results.XXXXXX")
caldir=$(mktemp -d "${TMPDIR:-/tmp}/ib-cal.XXXXXX")
trap 'rm -rf "$out" "$caldir"' EXIT

# One calibration for the whole suite (calibration itself has its own test),
# handed to every test in the environment: suites running side by side on
# one machine never share it.
LPM=$("$TOP/interbench" -c -b -t 0.1 -W Audio -w None --work-dir "$caldir" 2>/dev/null |
	sed -n 's/^Using \([0-9]*\) loops per ms.*/\1/p')
if [ -z "$LPM" ]; then
	echo "FAIL calibration for the suite: interbench -b did not print its loops per ms" | tee -a "$out"
	LPM=1000000
fi
export LPM

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
