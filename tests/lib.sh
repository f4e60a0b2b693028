# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib.sh - helpers for the end-to-end tests: results, scratch dirs, leftovers.
# Each test prints one line: PASS, FAIL or SKIP, then its name.

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
IB=${IB:-$TOP/interbench}
# one calibration for the whole suite keeps the tests short
LPM=${LPM:-$(cat "${TMPDIR:-/tmp}/ib-tests-lpm" 2>/dev/null)}

pass() { printf 'PASS %s\n' "$1"; }
fail() { printf 'FAIL %s: %s\n' "$1" "$2"; }
skip() { printf 'SKIP %s: %s\n' "$1" "$2"; }

scratch() { mktemp -d "${TMPDIR:-/tmp}/ib-test.XXXXXX"; }

is_root() { [ "$(id -u)" = 0 ]; }

# Our session (tests/run.sh starts each test script in a session of its own),
# so that runs of other test suites on the machine are not counted.
MYSID=$(ps -o sid= -p $$ | tr -d ' ')

# Processes of this test still alive: the orchestrator, bench and load children.
leftovers() {
	local p comm stat sid out=""
	for p in /proc/[0-9]*; do
		read -r comm <"$p/comm" 2>/dev/null || continue
		case "$comm" in
		interbench|ib-*|ibload-*) ;;
		*) continue ;;
		esac
		read -r stat <"$p/stat" 2>/dev/null || continue
		stat=${stat##*) }	# fields after the command name
		sid=$(echo "$stat" | cut -d' ' -f4)
		[ "$sid" = "$MYSID" ] && out="$out ${p#/proc/}:$comm"
	done
	printf '%s' "$out"
}

# The first thread (as /proc/PID/task/TID) whose name is $1, if any.
find_thread() {
	local f comm
	for f in /proc/[0-9]*/task/*/comm; do
		read -r comm <"$f" 2>/dev/null || continue
		[ "$comm" = "$1" ] && { printf '%s' "${f%/comm}"; return 0; }
	done
	return 1
}

# Wait (up to $2 seconds, default 2) until none of our processes is left.
no_leftovers() {
	local i limit=$(( ${1:-2} * 20 ))
	for ((i = 0; i < limit; i++)); do
		[ -z "$(leftovers)" ] && return 0
		sleep 0.05
	done
	return 1
}

# Run interbench with the suite's calibration unless the test sets its own.
ib() {
	if [ -n "$LPM" ]; then
		timeout -k 5 "${IB_TIMEOUT:-120}" "$IB" -l "$LPM" "$@"
	else
		timeout -k 5 "${IB_TIMEOUT:-120}" "$IB" "$@"
	fi
}
