#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_chains_run.sh - Game and AudioGraph in whole runs: every thread and
# process of both chains named while it runs, the chains' own metrics judged
# in --vary's verdict tables, nothing left behind. How they perform is in
# t_chains.sh, alone.
. "$(dirname "$0")/lib.sh"

export INTERBENCH_TEST_SETTLE_MS=0

scratch_dir

use_json_checker "chains"

# While the rows run: every thread and process of both chains, by name.
t="the chains' threads and processes are named while they run"
ib -c -q -t 1 -W Game -W AudioGraph -w None >"$dir/n.txt" 2>"$dir/n.err" &
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

# Two variants alike (load-nice 0 and 0, against None): the chains' own metrics each
# get a verdict line, whatever the verdict.
t="--vary: Game's frame p99 and stutters, AudioGraph's xruns judged in the verdict tables"
ib -c -q -t 0.5 --repeat 2 -W Game -W AudioGraph -w None --vary load-nice=0,0 \
	--json "$dir/v.json" >"$dir/v.txt" 2>"$dir/v.err"
rc=$?
got=$(get "$dir/v.json" 'sorted(set((v["benchmark"], v["metric"]) for v in d["verdicts"]))')
want="[('AudioGraph', 'deadlines'), ('AudioGraph', 'mean'), ('AudioGraph', 'p99'), ('AudioGraph', 'xruns'), ('Game', 'deadlines'), ('Game', 'frame p99'), ('Game', 'mean'), ('Game', 'p99'), ('Game', 'stutters')]"
if [ $rc = 0 ] && [ "$got" = "$want" ] && grep -qE '^None +frame p99 \(ms\) ' "$dir/v.txt" &&
	grep -qE '^None +xruns ' "$dir/v.txt"; then
	pass "$t"
else
	fail "$t" "rc=$rc, verdicts $got: $(tail -2 "$dir/v.err")"
fi
