#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_timeline.sh - --timeline: the Chrome trace event format, a slice per
# wake-up, a known miss at its time, an interrupted run, --timeline-max, bad
# paths, and with --explain as root the CPU tracks.
. "$(dirname "$0")/lib.sh"

# These tests check what is written, not how the rows performed.
export INTERBENCH_TEST_SETTLE_MS=0

dir=$(scratch)
trap 'rm -rf "$dir"' EXIT

use_json_checker "--timeline"
tl() { "$PY" "$TOP/tests/check_timeline.py" "$@"; }

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
# busy with other work may add some); against Burn period 10 may be dropped.
t="INTERBENCH_TEST_STALL=10:30: period 10 is a missed deadline at its deadline, by the work's end, 20 ms or more; period 11 dropped"
if err=$(tl miss "$dir/t.json" 1 10 19.99 60); then
	pass "$t"
else
	fail "$t" "$err"
fi

t="rows are processes named by benchmark, load and pass, with their task and waker threads, the row's start an instant"
got=$(tl get "$dir/t.json" "sorted(set((e['pid'], e['args']['name']) for e in ev if e['name'] in ('process_name', 'thread_name')))")
want="[(1, 'Video / None pass 1'), (1, 'ib-Video'), (1, 'ib-waker'), (2, 'Video / Burn pass 1'), (2, 'ib-Video'), (2, 'ib-waker'), (3, 'Gaming / None pass 1'), (3, 'ib-Gaming'), (4, 'Gaming / Burn pass 1'), (4, 'ib-Gaming')]"
starts=$(tl get "$dir/t.json" "[e['ts'] == r['args']['start_us'] for e in ev if e['name'] == 'row start' for r in ev if r['name'] == 'process_name' and r['pid'] == e['pid']]")
if [ "$got" != "$want" ]; then
	fail "$t" "$got"
elif [ "$starts" != "[True, True, True, True]" ]; then
	fail "$t" "row start instants: $starts"
else
	pass "$t"
fi

t="a Burn row has the load's intensity as a counter, a value a second, near the row's"
got=$(tl get "$dir/t.json" "[float(e['args']['CPUs']) for e in ev if e['ph'] == 'C' and e['pid'] == 2]")
row=$(get "$dir/r.json" "d['results'][1]['load_intensity']['value']")
if "$PY" -c "import sys; v = $got; r = float(sys.argv[1]); sys.exit(not (1 <= len(v) <= 2 and all(0.5 * r <= float(x) <= 1.5 * r for x in v)))" "$row"; then
	pass "$t"
else
	fail "$t" "counter $got, the row's $row"
fi

t="SIGINT after the first of 3 rows leaves a valid timeline of that row, interrupted, and no shadow"
"$IB" -c -q -t 1 -W Video -w None -w Video -w Burn --work-dir "$dir" --timeline "$dir/int.json" \
	>"$dir/int.txt" 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ "$(tl get "$dir/int.json" "d['otherData']['rows']" 2>/dev/null)" = 1 ] && break
	sleep 0.05
done
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
"$IB" -c -q -t 1 -W Video -w None -w Video -w Burn --work-dir "$dir" --timeline "$dir/kill.json" \
	>"$dir/kill.txt" 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ "$(tl get "$dir/kill.json" "d['otherData']['rows']" 2>/dev/null)" = 1 ] && break
	sleep 0.05
done
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

t="--timeline-max 1000 over 2 ProAudio rows: at most 1000 events, the oldest periods dropped and counted"
ib -c -q -t 1 -W ProAudio -w None -w Burn --work-dir "$dir" --timeline "$dir/max.json" \
	--timeline-max 1000 >"$dir/max.txt" 2>&1
rc=$?
got=$(tl get "$dir/max.json" "(len(ev), d['otherData']['events'], d['otherData']['dropped_periods'], [e['args']['dropped_periods'] for e in ev if e['name'] == 'process_name'], min(e['args']['period'] for e in ev if e['name'] == 'work' and e['pid'] == 1))" 2>&1)
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/max.txt")"
elif ! err=$(tl valid "$dir/max.json"); then
	fail "$t" "$err"
elif ! "$PY" -c "
n, said, dropped, rows, first = $got
assert n == said <= 1000 and n > 900, 'events'
assert dropped == sum(rows) and all(r > 0 for r in rows), 'dropped'
assert first >= rows[0], 'the oldest are the ones dropped'" 2>/dev/null; then
	fail "$t" "(events, said, dropped, per row, first period kept) $got"
else
	pass "$t"
fi

t="--timeline-max 1000 over a group's row: its two members share the cell's share, at most 1000 events"
ib -c -q -t 3 -W Audio+Video -w None --work-dir "$dir" --timeline "$dir/gmax.json" \
	--timeline-max 1000 >"$dir/gmax.txt" 2>&1
rc=$?
got=$(tl get "$dir/gmax.json" "(len(ev), d['otherData']['budget_per_row'], d['otherData']['dropped_periods'])" 2>&1)
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/gmax.txt")"
elif ! "$PY" -c "
n, budget, dropped = $got
assert n <= 1000 and budget == 500 and dropped > 0" 2>/dev/null; then
	fail "$t" "(events, budget a row, dropped periods) $got"
else
	pass "$t"
fi

# The chains: Game's render stage takes 40 ms more in frame 30 (a stutter
# there, t_chains.sh); AudioGraph's node0 12 ms more in cycle 100 (one xrun,
# at cycle 100; tried twice, as a busy machine may add one of its own).
t="Game: a thread track per stage (ib-Game-job0..2, render, comp), a wakeup latency slice per hop wake-up and a work slice per frame; a stutter instant at frame 30, as many as the JSON's"
INTERBENCH_TEST_STAGE_STALL=render:30:40 ib -c -q -t 2 -W Game -w None --work-dir "$dir" \
	--timeline "$dir/g.json" --json "$dir/g.r.json" >"$dir/g.txt" 2>&1
rc=$?
got=$(tl get "$dir/g.json" "[(e['args']['frame'], e['args']['frame_time_ms'] >= 40, e['args']['frame_time_ms'] > Decimal('2.5') * e['args']['average_of_previous_20_ms']) for e in ev if e['name'] == 'stutter']" 2>&1)
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/g.txt")"
elif ! err=$(tl valid "$dir/g.json") || ! err=$(tl json "$dir/g.json" "$dir/g.r.json") ||
	! err=$(tl stages "$dir/g.json" "$dir/g.r.json"); then
	fail "$t" "$err"
elif ! "$PY" -c "import sys; sys.exit((30, True, True) not in $got)"; then
	fail "$t" "stutters (frame, >= 40 ms, > 2.5 x the average) $got"
else
	pass "$t"
fi

t="AudioGraph: a thread track per stage (ib-AG-node0/1, mixer), slices per wake-up and cycle; an xrun instant at cycle 100, as many as the JSON's"
for try in 1 2; do
	INTERBENCH_TEST_STAGE_STALL=node0:100:12 ib -c -q -t 2 -W AudioGraph -w None \
		--work-dir "$dir" --timeline "$dir/a.json" --json "$dir/a.r.json" >"$dir/a.txt" 2>&1
	rc=$?
	got=$(tl get "$dir/a.json" "[(e['args']['cycle'], e['args'].get('cycle_ms', 0) > e['args']['quantum_ms']) for e in ev if e['name'] == 'xrun']" 2>&1)
	[ "$got" = "[(100, True)]" ] && break
done
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/a.txt")"
elif ! err=$(tl valid "$dir/a.json") || ! err=$(tl json "$dir/a.json" "$dir/a.r.json") ||
	! err=$(tl stages "$dir/a.json" "$dir/a.r.json"); then
	fail "$t" "$err"
elif [ "$got" != "[(100, True)]" ]; then
	fail "$t" "xruns (cycle, cycle > quantum) $got"
else
	pass "$t"
fi

t="--timeline-max 2000 over a 2 s Game row: at most 2000 events, the oldest frames dropped from every track together, and counted"
ib -c -q -t 2 -W Game -w None --work-dir "$dir" --timeline "$dir/gm.json" \
	--timeline-max 2000 >"$dir/gm.txt" 2>&1
rc=$?
got=$(tl get "$dir/gm.json" "(len(ev), d['otherData']['dropped_periods'], min(e['args']['period'] for e in ev if e['name'] == 'work' and 'period' in e['args']), min(e['args']['frame'] for e in ev if e['name'] == 'work' and 'frame' in e['args']), len({e['tid'] for e in ev if e['name'] == 'work'}))" 2>&1)
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/gm.txt")"
elif ! err=$(tl valid "$dir/gm.json"); then
	fail "$t" "$err"
elif ! "$PY" -c "
n, dropped, first, first_stage, tracks = $got
assert 1900 < n <= 2000 and dropped > 0 and tracks == 6
assert first >= dropped and first_stage >= dropped" 2>/dev/null; then
	fail "$t" "(events, dropped, first period kept, first stage frame kept, work tracks) $got"
else
	pass "$t"
fi
rm -f "$dir"/g.* "$dir"/a.* "$dir"/gm.* "$dir"/gmax.*

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
TR=/sys/kernel/tracing
[ -d "$TR/instances" ] || TR=/sys/kernel/debug/tracing
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
