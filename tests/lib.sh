# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib.sh - helpers for the end-to-end tests: results, scratch dirs, leftovers.
# Each test prints one line: PASS, FAIL or SKIP, then its name.

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
IB=${IB:-$TOP/interbench}

# interbench allows one run per machine; each test script has a run lock of
# its own instead (an unlinked file on fd 9, gone with the script), so that
# scripts run side by side never wait on each other.
_l=$(mktemp "${TMPDIR:-/tmp}/ib-lock.XXXXXX") && chmod 666 "$_l" && exec 9<>"$_l" && rm -f "$_l" && export INTERBENCH_TEST_LOCK=/proc/self/fd/9

# Likewise a knob journal of its own (--vary sysctl: ...), made only when a
# test writes a system knob, which then removes it.
export INTERBENCH_TEST_JOURNAL=${TMPDIR:-/tmp}/ib-journal.$$

pass() { printf 'PASS %s\n' "$1"; }
fail() { printf 'FAIL %s: %s\n' "$1" "$2"; }
skip() { printf 'SKIP %s: %s\n' "$1" "$2"; }

scratch() { mktemp -d "${TMPDIR:-/tmp}/ib-test.XXXXXX"; }

is_root() { [ "$(id -u)" = 0 ]; }

# Our session (tests/run.sh starts each test script in a session of its own),
# so that runs of other test suites on the machine are not counted.
MYSID=$(ps -o sid= -p $$ | tr -d ' ')

# The session of the process or thread at /proc path $1.
proc_sid() {
	local stat
	{ read -r stat <"$1/stat"; } 2>/dev/null || return 1
	stat=${stat##*) }	# the fields after the command name
	set -- $stat
	printf '%s' "$4"
}

# Processes of this test still alive: the orchestrator, bench and load children
# (of session $1 when given: a run started with setsid).
leftovers() {
	local p comm out="" want=${1:-$MYSID}
	for p in /proc/[0-9]*; do
		{ read -r comm <"$p/comm"; } 2>/dev/null || continue
		case "$comm" in
		interbench|ib-*|ibload-*) ;;
		*) continue ;;
		esac
		[ "$(proc_sid "$p")" = "$want" ] && out="$out ${p#/proc/}:$comm"
	done
	printf '%s' "$out"
}

# The first thread (as /proc/PID/task/TID) of our session named $1, if any.
find_thread() {
	local f comm
	for f in /proc/[0-9]*/task/*/comm; do
		{ read -r comm <"$f"; } 2>/dev/null || continue
		[ "$comm" = "$1" ] || continue
		[ "$(proc_sid "${f%/comm}")" = "$MYSID" ] && { printf '%s' "${f%/comm}"; return 0; }
	done
	return 1
}

# Wait (up to $1 seconds, default 2) until none of our processes (of session
# $2, default ours) is left.
no_leftovers() {
	local i limit=$(( ${1:-2} * 20 ))
	for ((i = 0; i < limit; i++)); do
		[ -z "$(leftovers "${2:-}")" ] && return 0
		sleep 0.05
	done
	return 1
}

# Wait up to $3 seconds for a line matching the ERE $2 in file $1.
wait_for_line() {
	local i
	for ((i = 0; i < ${3:-20} * 20; i++)); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# The pid of the first process of session $2 (default ours) named $1.
find_proc() {
	local p comm want=${2:-$MYSID}
	for p in /proc/[0-9]*; do
		{ read -r comm <"$p/comm"; } 2>/dev/null || continue
		[ "$comm" = "$1" ] || continue
		[ "$(proc_sid "$p")" = "$want" ] && { printf '%s' "${p#/proc/}"; return 0; }
	done
	return 1
}

# Retry the command "$@" (a find_proc or find_thread) for up to 5 s, printing
# what it prints once it succeeds.
await() {
	local i
	for ((i = 0; i < 100; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

# True when each extended regular expression after TEXT matches a line of it.
has_lines() {
	local text=$1 p
	shift
	for p; do
		grep -qE -- "$p" <<<"$text" || return 1
	done
}

# For the scripts that read JSON: end the script, with $1 skipped, when
# python3 is missing; else chk runs tests/check_json.py, get FILE EXPR one value.
use_json_checker() {
	if ! command -v python3 >/dev/null; then
		skip "$1" "python3 is not installed (the tests read the JSON and CSV with it)"
		exit 0
	fi
	# the interpreter itself, not a wrapper script (pyenv): it is started often
	PY=$(python3 -c 'import sys; print(sys.executable)')
}
chk() { "$PY" "$TOP/tests/check_json.py" "$@"; }
get() { chk get "$1" "$2"; }

# Run interbench, bounded in time.
ib() {
	timeout -k 5 "${IB_TIMEOUT:-120}" "$IB" "$@"
}
