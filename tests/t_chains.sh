#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_chains.sh - Game and AudioGraph end to end: a stalled stage seen in
# its frame and as a stutter, a node's overrun as one xrun at its cycle, every
# thread and process named while it runs, frames on time and no xruns against
# None, work_ratio near 1, nothing left behind.
# run-alone: deadlines met and xruns counted against None need the CPUs to themselves
. "$(dirname "$0")/lib.sh"

export INTERBENCH_TEST_SETTLE_MS=0
MYSID=$(proc_sid /proc/self)

dir=$(scratch)
trap 'rm -rf "$dir"' EXIT

use_json_checker "chains"

# py FILE EXPR: EXPR of the results r (a list), printed; exit status 1 when it is false.
py() {
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
v = eval(sys.argv[2])
print(v)
sys.exit(0 if v else 1)
PYEOF
}

# A row of Game whose render stage takes 40 ms more in frame 30.
t="Game: a stalled render stage is frame 30's frame time and a stutter at frame 30"
INTERBENCH_TEST_STAGE_STALL=render:30:40 ib -c -q -t 1 -W Game -w None --json "$dir/s.json" \
	>"$dir/s.txt" 2>"$dir/s.err"
if ! why=$(py "$dir/s.json" '(r[0]["frame_time_ns"]["max"] >= 40e6,
		30 in r[0]["stutter_frames"], r[0]["stutters"] >= 1) == (True, True, True)'); then
	fail "$t" "$why $(tail -2 "$dir/s.err")"
else pass "$t"; fi

# A node that overruns cycle 100 by 12 ms (> the 5.333 ms quantum): one xrun, at cycle 100.
# The cycle ends some 13 ms in, early in quantum 102, which then has time for its own.
t="AudioGraph: a node overrunning cycle 100 is one xrun, at cycle 100"
for try in 1 2; do
	INTERBENCH_TEST_STAGE_STALL=node0:100:12 ib -c -q -t 2 -W AudioGraph -w None \
		--json "$dir/x.json" >"$dir/x.txt" 2>"$dir/x.err"
	why=$(py "$dir/x.json" '(r[0]["xruns"], r[0]["xrun_cycles"]) == (1, [100])') && break
done
if [ "$why" != True ]; then
	fail "$t" "$(py "$dir/x.json" '(r[0]["xruns"], r[0]["xrun_cycles"])') $(tail -2 "$dir/x.err")"
else pass "$t"; fi

# While the rows run: every thread and process of both chains, by name.
t="the chains' threads and processes are named while they run"
ib -c -q -t 2 -W Game -W AudioGraph -w None >"$dir/n.txt" 2>"$dir/n.err" &
bg=$!
missing=""
for n in ib-Game ib-Game-input ib-Game-job0 ib-Game-job1 ib-Game-job2 ib-Game-render; do
	await find_thread "$n" >/dev/null || missing="$missing $n"
done
await find_proc ib-Game-comp >/dev/null || missing="$missing ib-Game-comp(process)"
for n in ib-AG-driver ib-AG-node0 ib-AG-node1; do
	await find_thread "$n" >/dev/null || missing="$missing $n"
done
for n in ib-AG-client ib-AG-mixer; do
	await find_proc "$n" >/dev/null || missing="$missing $n(process)"
done
wait "$bg"
if [ -n "$missing" ]; then fail "$t" "not seen:$missing"; else pass "$t"; fi

t="nothing of the chains is left after the run"
if no_leftovers 2; then pass "$t"; else fail "$t" "left: $(leftovers)"; fi

# Against None on this machine: frames on time, the frame count, no xruns,
# work_ratio; once more if a busy machine spoilt the first try.
t="against None: Game at --fps 60 meets >= 99 % with fps x seconds frames (3 %), AudioGraph 0 xruns"
for try in 1 2; do
	ib -c -q -t 2 -W Game -W AudioGraph -w None --fps 60 --json "$dir/n.json" \
		>"$dir/o.txt" 2>"$dir/o.err"
	why=$(py "$dir/n.json" '[x["pct_deadlines_met"] >= 99 and abs(x["frames"] - 120) <= 3.6
		if x["benchmark"] == "Game" else x["xruns"] == 0 for x in r] == [True, True]') && break
done
if [ "$why" != True ]; then fail "$t" "$why $(tail -3 "$dir/o.txt")"
else pass "$t"; fi

t="work_ratio over every working thread is ~1 for both chains"
if why=$(py "$dir/n.json" 'all(abs(x["work_ratio"] - 1) < 0.03 for x in r) and len(r) == 2'); then
	pass "$t"
else fail "$t" "$why"; fi

t="the table, the hops under it, and the log read back by --compare"
if ! grep -qE '^Load.*Frame p50 \(ms\) +p99 +max +fps +1% low +Stutters' "$dir/o.txt" ||
	! grep -qE '^Load.*Cycle p50 \(ms\).*DSP mean.*Xruns/min' "$dir/o.txt" ||
	! grep -qE '^None	render>comp +[0-9.]+/' "$dir/o.txt" ||
	! grep -qE '^None	mixer>driver +[0-9.]+/' "$dir/o.txt"; then
	fail "$t" "$(head -c 600 "$dir/o.txt")"
elif ! ib --compare "$dir/o.txt" "$dir/o.txt" >"$dir/c.txt" 2>"$dir/c.err"; then
	fail "$t" "--compare: $(tail -2 "$dir/c.err")"
else pass "$t"; fi

# Two variants alike (load-nice 0 and 0, against None): the chains' own metrics each
# get a verdict line, whatever the verdict.
t="--vary: Game's frame p99 and stutters, AudioGraph's xruns judged in the verdict tables"
ib -c -q -t 0.5 --repeat 2 -W Game -W AudioGraph -w None --vary load-nice=0,0 \
	--json "$dir/v.json" >"$dir/v.txt" 2>"$dir/v.err"
rc=$?
got=$(py "$dir/v.json" 'sorted(set((v["benchmark"], v["metric"]) for v in d["verdicts"]))')
want="[('AudioGraph', 'deadlines'), ('AudioGraph', 'mean'), ('AudioGraph', 'p99'), ('AudioGraph', 'xruns'), ('Game', 'deadlines'), ('Game', 'frame p99'), ('Game', 'mean'), ('Game', 'p99'), ('Game', 'stutters')]"
if [ $rc = 0 ] && [ "$got" = "$want" ] && grep -qE '^None +frame p99 \(ms\) ' "$dir/v.txt" &&
	grep -qE '^None +xruns ' "$dir/v.txt"; then
	pass "$t"
else
	fail "$t" "rc=$rc, verdicts $got: $(tail -2 "$dir/v.err")"
fi
