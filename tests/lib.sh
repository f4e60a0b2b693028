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

# Each argument, a set of options to --dry-run -W Audio -w None, is one line on stderr and
# exit 2: those that were not, with what they gave, in bad ("" when all were).
usage_errors() {
	local args out rc
	bad=""
	for args; do
		# shellcheck disable=SC2086
		out=$(ib --dry-run -W Audio -w None $args 2>&1)
		rc=$?
		[ $rc = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && [[ $out == interbench:* ]] ||
			bad="$bad [$args: rc=$rc $out]"
	done
}
fail() { printf 'FAIL %s: %s\n' "$1" "$2"; }
skip() { printf 'SKIP %s: %s\n' "$1" "$2"; }

scratch() { mktemp -d "${TMPDIR:-/tmp}/ib-test.XXXXXX"; }

# A scratch directory of the script's own as $dir, removed when the script ends.
scratch_dir() {
	dir=$(scratch) || exit 1
	trap 'rm -rf "$dir"' EXIT
}

is_root() { [ "$(id -u)" = 0 ]; }

# TR: where tracefs is, as --explain finds it. As root, mounted at /sys/kernel/tracing when it
# is not yet (a fresh machine mounts it on first use), as interbench would mount it itself.
tracefs_dir() {
	TR=/sys/kernel/tracing
	if is_root && [ -d "$TR" ] && [ ! -d "$TR/instances" ]; then
		mount -t tracefs nodev "$TR" 2>/dev/null || true
	fi
	[ -d "$TR/instances" ] || TR=/sys/kernel/debug/tracing
}

# host_disturbed: true when a 2 s probe (build/bench/steady, a thread spinning on a fixed
# loop) finds the CPUs taken away for 1 ms or more at once, or a slice charged 5 % or more
# of CPU time its loop did not run: a VM's host at work, which no scheduler setting
# explains. Prints the probe's figures. False without the probe.
host_disturbed() {
	local probe=$TOP/build/bench/steady out
	[ -x "$probe" ] || return 1
	out=$("$probe" 2 2>/dev/null | tail -1)
	echo "${out:-no figures}"
	awk -v s="$out" 'BEGIN { n = split(s, kv, " ")
		for (i = 1; i <= n; i++) { split(kv[i], f, "="); v[f[1]] = f[2] }
		exit !(("max_gap_us" in v) && (v["max_gap_us"] >= 1000 || v["unseen_max_pct"] >= 5)) }'
}

# sanitized: true when interbench is built with AddressSanitizer (.ci/run's last stage),
# whose slowdown makes the harness's own CPU per period several times what it is.
sanitized() { grep -q __asan_init "$TOP/interbench" 2>/dev/null; }

# as_nobody CMD...: CMD without root's privileges (as the user running the tests if not root).
as_nobody() {
	if is_root; then
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			--bounding-set=-all "$@"
	else
		"$@"
	fi
}

# True when we are root and have command $2; else test $1 is skipped, saying why.
root_with() {
	is_root && command -v "$2" >/dev/null && return 0
	skip "$1" "needs root and $2"
	return 1
}

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

# The first thread (as /proc/PID/task/TID) of session $2 (default ours) named $1, if any.
find_thread() {
	local f comm want=${2:-$MYSID}
	for f in /proc/[0-9]*/task/*/comm; do
		{ read -r comm <"$f"; } 2>/dev/null || continue
		[ "$comm" = "$1" ] || continue
		[ "$(proc_sid "${f%/comm}")" = "$want" ] && { printf '%s' "${f%/comm}"; return 0; }
	done
	return 1
}

# The names of the threads of our session that match the glob $1, one a line.
session_threads() {
	local f comm
	for f in /proc/[0-9]*/task/*; do
		{ read -r comm <"$f/comm"; } 2>/dev/null || continue
		# shellcheck disable=SC2053
		[[ $comm == $1 ]] || continue
		[ "$(proc_sid "$f")" = "$MYSID" ] && printf '%s\n' "$comm"
	done
}

# look_until OUT THREAD WANT LOOK ARGS...: ib ARGS in the background, its
# output in OUT; from the moment a thread of ours named THREAD is up, what the
# command LOOK (split into words) prints, asked every 50 ms until it prints
# WANT or the run ends: a busy machine that starts a row's threads late cannot
# make one look miss them. seen is WANT, or the last look before the run
# ended; rc is the run's exit status, and true only when it is 0.
look_until() {
	local out=$1 thread=$2 want=$3 look=$4 pid
	shift 4
	ib "$@" >"$out" 2>&1 &
	pid=$!
	seen=""
	if await find_thread "$thread" >/dev/null; then
		while :; do
			# shellcheck disable=SC2086
			seen=$($look)
			[ "$seen" = "$want" ] && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.05
		done
	fi
	wait $pid
	rc=$?
	[ $rc = 0 ]
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

# Wait up to $3 seconds for a line matching the ERE $2 in file $1; with $4,
# only while process $4 (the one writing it) is alive.
wait_for_line() {
	local i
	for ((i = 0; i < ${3:-20} * 20; i++)); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		[ -z "${4:-}" ] || kill -0 "$4" 2>/dev/null || { grep -qE "$2" "$1" 2>/dev/null; return; }
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

# The python of the checks, PY: the interpreter itself, not a wrapper script
# (pyenv), found once (tests/run.sh exports it). py3 runs it without
# site-packages (-S): the checks use the standard library alone, and a suite
# starts python hundreds of times, where a site's start-up hooks can cost more
# than the check itself.
if [ -z "${PY:-}" ] && command -v python3 >/dev/null; then
	PY=$(python3 -c 'import sys; print(sys.executable)')
fi
py3() { "$PY" -S "$@"; }

# For the scripts that read JSON: end the script, with $1 skipped, when
# python3 is missing; else chk runs tests/check_json.py, get FILE EXPR one
# value, and tl runs tests/check_timeline.py.
use_json_checker() {
	if [ -z "${PY:-}" ]; then
		skip "$1" "python3 is not installed (the tests read the JSON and CSV with it)"
		exit 0
	fi
}
chk() { py3 "$TOP/tests/check_json.py" "$@"; }
get() { chk get "$1" "$2"; }
tl() { py3 "$TOP/tests/check_timeline.py" "$@"; }

# Run interbench, bounded in time.
ib() {
	timeout -k 5 "${IB_TIMEOUT:-120}" "$IB" "$@"
}
