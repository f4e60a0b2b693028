#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_wake.sh - --wake and --timer-slack: by default a task sleeps on its own timer with no
# thread of ours beside it, --wake waker runs 0.31's waker, the slack is as asked, and the mode
# is in every output; --compare warns on runs woken otherwise, or with periods of another mode,
# and never pools them.
. "$(dirname "$0")/lib.sh"

# These tests check who runs and what is written, not how the rows performed.
export INTERBENCH_TEST_SETTLE_MS=100

scratch_dir

# The names of the threads of the process that holds our thread named $1, sorted, on one line.
threads_beside() {
	local p t comm
	p=$(find_thread "$1") || return 1
	for t in "${p%/task/*}"/task/*; do
		{ read -r comm <"$t/comm"; } 2>/dev/null && printf '%s\n' "$comm"
	done | sort | tr '\n' ' '
}

# The timer slack of our thread named $1, as the kernel has it (/proc/TID/timerslack_ns).
slack_of() {
	local p
	p=$(find_thread "$1") || return 1
	cat "/proc/${p##*/}/timerslack_ns" 2>/dev/null
}

t="--wake timer, the default: the bench process holds the task's thread alone, and no thread of ours is a waker (a periodic load neither)"
look_until "$dir/a.out" ib-Audio "ib-Audio " "threads_beside ib-Audio" -c -t 1.5 -W Audio -w Video \
	--work-dir "$dir"
beside=$seen wakers=$(session_threads ib-waker)
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/a.out")"
elif [ "$beside" != "ib-Audio " ] || [ -n "$wakers" ]; then
	fail "$t" "threads beside the task: '$beside'; wakers: '$wakers'"
else
	pass "$t"
fi

t="--wake timer: a chain's head on its own timer, its stages (and its input device) its only other threads"
look_until "$dir/g.out" ib-Game "ib-Game ib-Game-input ib-Game-job0 ib-Game-job1 ib-Game-job2 ib-Game-render " \
	"threads_beside ib-Game" -c -t 1.5 -W Game -w None \
	--work-dir "$dir"
case "$seen" in
*ib-waker*|"") fail "$t" "rc=$rc, threads: '$seen'" ;;
"ib-Game ib-Game-input ib-Game-job0 ib-Game-job1 ib-Game-job2 ib-Game-render ") [ $rc = 0 ] && pass "$t" ||
	fail "$t" "rc=$rc: $(tail -3 "$dir/g.out")" ;;
*) fail "$t" "threads beside the head: '$seen'" ;;
esac

t="--wake waker: the bench process holds the task and its waker"
look_until "$dir/w.out" ib-Audio "ib-Audio ib-waker " "threads_beside ib-Audio" -c -t 1.5 -W Audio -w None \
	--wake waker --work-dir "$dir"
if [ $rc = 0 ] && [ "$seen" = "ib-Audio ib-waker " ]; then
	pass "$t"
else
	fail "$t" "rc=$rc, threads: '$seen' $(tail -2 "$dir/w.out")"
fi

t="--timer-slack: the task's timer slack is as asked while it runs (1 ns by default), and each result reads it back"
look_until "$dir/s1.out" ib-Audio 1 "slack_of ib-Audio" -c -t 1 -W Audio -w None \
	--work-dir "$dir" --json "$dir/s1.json"
s1=$seen rc1=$rc
look_until "$dir/s2.out" ib-Audio 50000 "slack_of ib-Audio" -c -t 1 -W Audio -w None \
	--timer-slack 50000 --work-dir "$dir" --json "$dir/s2.json"
s2=$seen rc2=$rc
j1=$(get "$dir/s1.json" "(d['run']['timer_slack_ns'], d['results'][0]['timer_slack_ns'])")
j2=$(get "$dir/s2.json" "(d['run']['timer_slack_ns'], d['results'][0]['timer_slack_ns'])")
if [ $rc1 != 0 ] || [ $rc2 != 0 ]; then
	fail "$t" "rc=$rc1, $rc2: $(tail -2 "$dir/s2.out")"
elif [ "$s1" != 1 ] || [ "$s2" != 50000 ] || [ "$j1" != "(1, 1)" ] || [ "$j2" != "(50000, 50000)" ]; then
	fail "$t" "seen $s1 and $s2 ns; JSON (run, result) $j1 and $j2"
else
	pass "$t"
fi

t="-r: the kernel keeps no timer slack for a real-time task, and the result and header say so"
if ! is_root; then
	skip "$t" "needs root (SCHED_FIFO)"
else
	ib -c -r -t 0.5 -W Audio -w None --work-dir "$dir" --json "$dir/r.json" >"$dir/r.out" 2>&1
	rc=$?
	got=$(get "$dir/r.json" "d['results'][0]['timer_slack_ns']")
	if [ $rc = 0 ] && [ "$got" = 0 ] &&
		grep -q '^Wake-ups: by each task.s own timer (.*slack 1 ns, none for a real-time task)' \
			"$dir/r.out"; then
		pass "$t"
	else
		fail "$t" "rc=$rc, slack $got: $(grep -E '^(Wake-ups|interbench)' "$dir/r.out")"
	fi
fi

# One run of each mode into one log, JSON and CSV each, and the log compared.
mkdir -p "$dir/log"
ib -t 0.3 -W Audio -w None --work-dir "$dir/log" --json "$dir/t.json" --csv "$dir/t.csv" \
	>"$dir/t.out" 2>&1
rct=$?
ib -t 0.3 -W Audio -w None --wake waker --timer-slack 50000 --work-dir "$dir/log" \
	--json "$dir/k.json" --csv "$dir/k.csv" >"$dir/k.out" 2>&1
rck=$?
log=$(ls "$dir"/log/*.log 2>/dev/null | head -1)

t="both modes are recorded in every output: the log's Wake-ups: and Settings: lines, JSON run.wake, the CSV's wake column"
col() { "$PY" -c 'import csv, sys; r = list(csv.DictReader(open(sys.argv[1]))); print(r[0][sys.argv[2]], r[0]["timer_slack_ns"])' "$@"; }
bad=""
[ $rct = 0 ] && [ $rck = 0 ] || bad="$bad; rc=$rct, $rck"
[ -n "$log" ] || bad="$bad; no log"
grep -q "^Wake-ups: by each task's own timer (clock_nanosleep, TIMER_ABSTIME, slack 1 ns): latency from the instant it asked for to its run$" "$log" ||
	bad="$bad; no timer Wake-ups: line"
grep -q '^Wake-ups: by a waker thread, as in 0.31 (SCHED_[A-Z]*.*, timer slack 50000 ns): latency from its stamp' "$log" ||
	bad="$bad; no waker Wake-ups: line"
[ "$(grep -c '^Settings: .* wake=timer timer_slack_ns=1\( \|$\)' "$log")" = 1 ] &&
	[ "$(grep -c '^Settings: .* wake=waker timer_slack_ns=50000\( \|$\)' "$log")" = 1 ] ||
	bad="$bad; Settings: $(grep '^Settings:' "$log" | tr '\n' '|')"
[ "$(get "$dir/t.json" "d['run']['wake']")" = timer ] &&
	[ "$(get "$dir/k.json" "d['run']['wake']")" = waker ] || bad="$bad; JSON run.wake"
[ "$(col "$dir/t.csv" wake)" = "timer 1" ] && [ "$(col "$dir/k.csv" wake)" = "waker 50000" ] ||
	bad="$bad; CSV: $(col "$dir/t.csv" wake), $(col "$dir/k.csv" wake)"
if [ -z "$bad" ]; then pass "$t"; else fail "$t" "${bad#; }"; fi

t="--compare of runs woken otherwise: the legend says how each was woken, one warning line, never pooled"
if [ -z "$log" ]; then
	fail "$t" "no log"
else
	ib --compare "$log" >"$dir/c.out" 2>&1
	rc=$?
	legend=$(tr '\n' ' ' <"$dir/c.out")
	if [ $rc = 0 ] && grep -q '^Comparing 2 runs' "$dir/c.out" &&
		grep -q 'wake: timer' <<<"$legend" && grep -q 'wake: waker' <<<"$legend" &&
		[ "$(grep -c '^warning: \[2\].s tasks were woken by the waker thread' "$dir/c.out")" = 1 ] &&
		grep -q '^--- Audio: latency in ms ---$' "$dir/c.out"; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $(head -8 "$dir/c.out")"
	fi
fi

t="--compare of runs with swept and exact periods: one warning line; runs alike: none"
ib -c -t 0.3 -W Audio -w None --period exact --work-dir "$dir" --csv "$dir/e.csv" >/dev/null 2>&1
ib --compare "$dir/t.csv" "$dir/e.csv" >"$dir/p.out" 2>&1
rc=$?
ib --compare "$dir/t.csv" "$dir/t.csv" >"$dir/same.out" 2>&1
if [ $rc = 0 ] && [ "$(grep -c '^warning: \[2\] ran exact periods, \[1\] swept ones' "$dir/p.out")" = 1 ] &&
	! grep -q 'woken by' "$dir/p.out" && ! grep -qE '^warning: \[2\] (ran|.s tasks)' "$dir/same.out"; then
	pass "$t"
else
	fail "$t" "rc=$rc: $(grep -E '^(warning|\[)' "$dir/p.out" "$dir/same.out")"
fi

t="a wake mode or slack it does not take is exit 2 with one line naming it"
bad=""
for args in "--wake timers" "--wake" "--timer-slack 0" "--timer-slack 2000000000" "--timer-slack 1x"; do
	# shellcheck disable=SC2086
	"$IB" -c -t 1 $args >/dev/null 2>"$dir/e.err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$dir/e.err")" = 1 ] && grep -q -- "${args%% *}" "$dir/e.err" ||
		bad="$bad; $args: rc=$rc $(cat "$dir/e.err")"
done
if [ -z "$bad" ]; then pass "$t"; else fail "$t" "${bad#; }"; fi

t="nothing of ours left running"
if no_leftovers 3; then pass "$t"; else fail "$t" "$(leftovers)"; fi
