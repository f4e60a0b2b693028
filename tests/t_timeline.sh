#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_timeline.sh - --timeline: the Chrome trace event format, a slice per
# wake-up, a known miss at its time, an interrupted run, --timeline-max, bad
# paths, and with --explain as root the CPU tracks. The chains' stage tracks,
# with a stalled stage's stutter and xrun, are checked in t_chains.sh, beside
# the same runs' JSON (alone: an xrun of its own on a busy machine would be
# counted).
# run-first: a long script (15 s or more beside the others)
. "$(dirname "$0")/lib.sh"

# These tests check what is written, not how the rows performed.
export INTERBENCH_TEST_SETTLE_MS=0

scratch_dir

use_json_checker "--timeline"

# Only what the test asked for may be in the directory: no shadow, no temporary.
stray() {
	ls -A "$dir" | grep -v -E "^($1)$" || true
}

# One run for most checks: period 10 of each Video row blocks 30 ms more
# (test-only), so it misses by 20 ms or a little more (its 6.7 ms of work,
# 30 ms, less the 16.7 ms period) and period 11 is dropped.
INTERBENCH_TEST_STALL=10:30 ib -c -q -t 1 -W Video -W Gaming -w None -w Burn --work-dir "$dir" \
	--timeline "$dir/t.json" --json "$dir/r.json" >"$dir/r.txt" 2>&1
rc=$?

t="the timeline is the trace event format: ph, ts, pid, tid on every event; every track named; slices nest; counts stated"
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/r.txt")"
elif ! err=$(tl valid "$dir/t.json"); then
	fail "$t" "$err"
elif [ "$(tl get "$dir/t.json" "(d['otherData']['rows'], d['otherData']['complete'], d['otherData']['dropped_periods'])")" != "(4, True, 0)" ]; then
	fail "$t" "otherData: $(tl get "$dir/t.json" "d['otherData']")"
else
	pass "$t"
fi

t="each row: as many wakeup latency slices as samples, missed deadline and dropped period instants as the JSON counts (Gaming: a work slice per unit)"
if err=$(tl json "$dir/t.json" "$dir/r.json"); then pass "$t"; else fail "$t" "$err"; fi

# Against None (row 1) the task runs at once, so 20 ms and a little (a machine
# busy with other work may add some); against Burn period 10 may be dropped. A
# machine busy enough to drop period 10 itself (the suite's other scripts) gets
# up to two more rows to show it, as root real-time ones (-r), which the rest
# of the suite cannot delay by a period.
t="INTERBENCH_TEST_STALL=10:30: period 10 is a missed deadline at its deadline, by the work's end, 20 ms or more; period 11 dropped"
miss_tl=$dir/t.json
rt=()
is_root && rt=(-r)
for try in 1 2; do
	tl miss "$miss_tl" 1 10 19.99 60 >/dev/null && break
	miss_tl=$dir/again-$try/t.json
	mkdir -p "$dir/again-$try"
	INTERBENCH_TEST_STALL=10:30 ib "${rt[@]}" -c -q -t 1 -W Video -w None \
		--work-dir "$dir/again-$try" --timeline "$miss_tl" >/dev/null 2>&1
done
err=$(tl miss "$miss_tl" 1 10 19.99 60)
ok=$?
rm -rf "$dir"/again-*
if [ $ok = 0 ]; then
	pass "$t"
else
	fail "$t" "$err"
fi

t="rows are processes named by benchmark, load and pass, with their task's thread (no waker: --wake timer), the row's start an instant"
got=$(tl get "$dir/t.json" "sorted(set((e['pid'], e['args']['name']) for e in ev if e['name'] in ('process_name', 'thread_name')))")
want="[(1, 'Video / None pass 1'), (1, 'ib-Video'), (2, 'Video / Burn pass 1'), (2, 'ib-Video'), (3, 'Gaming / None pass 1'), (3, 'ib-Gaming'), (4, 'Gaming / Burn pass 1'), (4, 'ib-Gaming')]"
starts=$(tl get "$dir/t.json" "[e['ts'] == r['args']['start_us'] for e in ev if e['name'] == 'row start' for r in ev if r['name'] == 'process_name' and r['pid'] == e['pid']]")
if [ "$got" != "$want" ]; then
	fail "$t" "$got"
elif [ "$starts" != "[True, True, True, True]" ]; then
	fail "$t" "row start instants: $starts"
else
	pass "$t"
fi

t="--wake timer: each latency slice of a task starts at its period's start, and no row has a waker's track"
if err=$(tl wake "$dir/t.json" timer); then pass "$t"; else fail "$t" "$err"; fi

t="--wake waker: each row has the waker's track, a timer latency slice per wakeup latency slice of the task"
ib -c -q -t 1 -W Video -w None --wake waker --work-dir "$dir" --timeline "$dir/wk.json" \
	>"$dir/wk.txt" 2>&1
rc=$?
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/wk.txt")"
elif ! err=$(tl valid "$dir/wk.json") || ! err=$(tl wake "$dir/wk.json" waker); then
	fail "$t" "$err"
else
	pass "$t"
fi
rm -f "$dir/wk.json" "$dir/wk.txt"

t="a Burn row has the load's intensity as a counter, a value a second, near the row's"
got=$(tl get "$dir/t.json" "[float(e['args']['CPUs']) for e in ev if e['ph'] == 'C' and e['pid'] == 2]")
row=$(get "$dir/r.json" "d['results'][1]['load_intensity']['value']")
if py3 -c "import sys; v = $got; r = float(sys.argv[1]); sys.exit(not (1 <= len(v) <= 2 and all(0.5 * r <= float(x) <= 1.5 * r for x in v)))" "$row"; then
	pass "$t"
else
	fail "$t" "counter $got, the row's $row"
fi

# Start a run of three rows with its timeline in $dir/$1.json (its output in
# $dir/$1.txt), as pid, and wait (5 s at most) until the file holds the first
# row (its header's count, read with grep: a look must be quick, inside the
# second row's second).
start_to_first_row() {
	"$IB" -c -q -t 1 -W Video -w None -w Video -w Burn --work-dir "$dir" \
		--timeline "$dir/$1.json" >"$dir/$1.txt" 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -q '"rows":1,' "$dir/$1.json" 2>/dev/null && break
		sleep 0.05
	done
}

t="SIGINT after the first of 3 rows leaves a valid timeline of that row, interrupted, and no shadow"
start_to_first_row int
kill -INT $pid
wait $pid
rc=$?
got=$(tl get "$dir/int.json" "(d['otherData']['rows'], d['otherData']['interrupted'], d['otherData']['complete'], sorted(set(e['pid'] for e in ev)))" 2>&1)
if [ $rc != 130 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/int.txt")"
elif [ "$got" != "(1, True, False, [1])" ]; then
	fail "$t" "$got"
elif ! err=$(tl valid "$dir/int.json"); then
	fail "$t" "$err"
elif [ -n "$(stray 't.json|r.json|r.txt|int.json|int.txt')" ]; then
	fail "$t" "left: $(stray 't.json|r.json|r.txt|int.json|int.txt')"
else
	pass "$t"
fi

t="SIGKILL after the first of 3 rows: the file at the path is still a valid timeline of that row"
start_to_first_row kill
sleep 0.3
{ kill -KILL $pid; wait $pid; } 2>/dev/null
got=$(tl get "$dir/kill.json" "(d['otherData']['rows'], d['otherData']['complete'])" 2>&1)
if [ "$got" != "(1, False)" ] && [ "$got" != "(2, False)" ]; then
	fail "$t" "$got"
elif ! err=$(tl valid "$dir/kill.json"); then
	fail "$t" "$err"
else
	pass "$t"
fi
# the shadow a SIGKILL leaves (as --json's does), and the children it orphaned
rm -f "$dir"/.kill.json.* "$dir/kill.json" "$dir/kill.txt"
no_leftovers 3

# max_check T NAME NAMES EXPR ASSERTS ARGS...: test T, a run of ib ARGS with
# its timeline in $dir/NAME.json (valid, with --timeline-max in ARGS): the
# Python EXPR of it (tl get), unpacked into NAMES, must pass the Python ASSERTS.
max_check() {
	local t=$1 f=$dir/$2 names=$3 expr=$4 asserts=$5 rc got err
	shift 5
	ib -c -q "$@" --work-dir "$dir" --timeline "$f.json" >"$f.txt" 2>&1
	rc=$?
	got=$(tl get "$f.json" "$expr" 2>&1)
	if [ $rc != 0 ]; then
		fail "$t" "rc=$rc: $(tail -3 "$f.txt")"
	elif ! err=$(tl valid "$f.json"); then
		fail "$t" "$err"
	elif ! py3 -c "$names = $got
$asserts" 2>/dev/null; then
		fail "$t" "($names) $got"
	else
		pass "$t"
	fi
}

max_check "--timeline-max 1000 over 2 ProAudio rows: at most 1000 events, the oldest periods dropped and counted" \
	max "events, said, dropped, per_row, first_kept" \
	"(len(ev), d['otherData']['events'], d['otherData']['dropped_periods'], [e['args']['dropped_periods'] for e in ev if e['name'] == 'process_name'], min(e['args']['period'] for e in ev if e['name'] == 'work' and e['pid'] == 1))" \
	"assert events == said <= 1000 and events > 900, 'events'
assert dropped == sum(per_row) and all(r > 0 for r in per_row), 'dropped'
assert first_kept >= per_row[0], 'the oldest are the ones dropped'" \
	-t 1 -W ProAudio -w None -w Burn --timeline-max 1000

# Input's 1 ms periods, of 5 % work, make some 4500 events a second, past the
# cell's share of 500 however busy the machine is.
max_check "--timeline-max 1000 over a group's row: its two members share the cell's share, at most 1000 events" \
	gmax "events, budget_per_row, dropped" \
	"(len(ev), d['otherData']['budget_per_row'], d['otherData']['dropped_periods'])" \
	"assert events <= 1000 and budget_per_row == 500 and dropped > 0" \
	-t 1 -W Audio+Input -w None --timeline-max 1000

# At 144 frames a second: some 6500 events, past 1000 even where a busy
# machine (the suite's other scripts) slows the frames to a fifth.
max_check "--timeline-max 1000 over a 2 s Game row: at most 1000 events, the oldest frames dropped from every track together, and counted" \
	gm "events, dropped, first_kept, first_stage_kept, work_tracks" \
	"(len(ev), d['otherData']['dropped_periods'], min(e['args']['period'] for e in ev if e['name'] == 'work' and 'period' in e['args']), min(e['args']['frame'] for e in ev if e['name'] == 'work' and 'frame' in e['args']), len({e['tid'] for e in ev if e['name'] == 'work'}))" \
	"assert 900 < events <= 1000 and dropped > 0 and work_tracks == 6
assert first_kept >= dropped and first_stage_kept >= dropped" \
	-t 2 -W Game --fps 144 -w None --timeline-max 1000
rm -f "$dir"/gm.* "$dir"/gmax.*

t="--timeline -: exit 2 with one line"
err=$(ib -c -t 1 -W Video -w None --work-dir "$dir" --timeline - 2>&1 >/dev/null)
rc=$?
if [ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && grep -q -- '--timeline' <<<"$err"; then
	pass "$t"
else
	fail "$t" "rc=$rc: $err"
fi

keep='t.json|r.json|r.txt|int.json|int.txt|max.json|max.txt'
t="--timeline into a missing directory: exit 1 with one line before running, nothing left"
start=$SECONDS
err=$(ib -c -t 5 -W Video -w None --work-dir "$dir" --timeline "$dir/no/such/t.json" 2>&1 >/dev/null)
rc=$?
if [ $rc = 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && grep -q -- '--timeline' <<<"$err" &&
	[ $((SECONDS - start)) -lt 4 ] && [ -z "$(stray "$keep")" ]; then
	pass "$t"
else
	fail "$t" "rc=$rc after $((SECONDS - start)) s: $err; left: $(stray "$keep")"
fi

t="--json that cannot be written after --timeline could: exit 1, no timeline left"
err=$(ib -c -t 5 -W Video -w None --work-dir "$dir" --timeline "$dir/gone.json" \
	--json "$dir/no/such/r.json" 2>&1 >/dev/null)
rc=$?
if [ $rc = 1 ] && [ -z "$(stray "$keep")" ]; then
	pass "$t"
else
	fail "$t" "rc=$rc: $err; left: $(stray "$keep")"
fi

t="--timeline in a directory we may not write: exit 1 with one line, nothing left"
# Root may write anywhere but in /proc, where no file can be made.
if is_root; then ro=/proc; else ro=$dir/ro && mkdir "$ro" && chmod 555 "$ro"; fi
err=$(ib -c -t 5 -W Video -w None --work-dir "$dir" --timeline "$ro/ib-timeline.json" 2>&1 >/dev/null)
rc=$?
if [ $rc = 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [ ! -e "$ro/ib-timeline.json" ] &&
	[ -z "$(find "$ro" -maxdepth 1 -name '.ib-timeline*' 2>/dev/null)" ]; then
	pass "$t: $err"
else
	fail "$t" "rc=$rc: $err"
fi
[ "$ro" = /proc ] || chmod 755 "$ro"

t="--explain as root: who ran instead are slices on CPU tracks of a CPUs process, nested and named"
tracefs_dir
if ! is_root; then
	skip "$t" "needs root"
elif [ ! -d "$TR/instances" ]; then
	skip "$t" "no tracefs instances in $TR"
else
	ib -c -q -t 1 -W Video -w Burn --explain --work-dir "$dir" --timeline "$dir/x.json" \
		>"$dir/x.txt" 2>&1
	rc=$?
	n=$(tl get "$dir/x.json" "len([e for e in ev if e['ph'] == 'X' and e['pid'] == 2])" 2>&1)
	if [ $rc != 0 ]; then
		fail "$t" "rc=$rc: $(tail -3 "$dir/x.txt")"
	elif ! err=$(tl valid "$dir/x.json"); then
		fail "$t" "$err"
	elif [ "$n" = 0 ]; then
		skip "$t" "the row carried no scheduler events of the task to pair"
	elif [ "$(tl get "$dir/x.json" "all(e['args']['name'] == 'CPUs' for e in ev if e['name'] == 'process_name' and e['pid'] == 2)")" != True ]; then
		fail "$t" "pid 2 is not the CPUs process"
	else
		pass "$t ($n slices)"
	fi
fi

t="--explain as root, a group: its CPUs process follows all of the members' rows"
if ! is_root; then
	skip "$t" "needs root"
elif [ ! -d "$TR/instances" ]; then
	skip "$t" "no tracefs instances in $TR"
else
	ib -c -q -t 1 -W Audio+Video -w None --explain --work-dir "$dir" \
		--timeline "$dir/g.json" >"$dir/g.txt" 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		fail "$t" "rc=$rc: $(tail -3 "$dir/g.txt")"
	elif ! err=$(tl valid "$dir/g.json"); then
		fail "$t" "$err"
	elif [ "$(tl get "$dir/g.json" "sorted((e['pid'], e['args']['name'].split(' ')[0]) for e in ev if e['name'] == 'process_name')[:3] in ([(1, 'Audio'), (2, 'Video'), (3, 'CPUs')], [(1, 'Audio'), (2, 'Video')])")" != True ]; then
		fail "$t" "$(tl get "$dir/g.json" "[(e['pid'], e['args']['name']) for e in ev if e['name'] == 'process_name']")"
	else
		pass "$t"
	fi
fi
