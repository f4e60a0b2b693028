#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_tstp.sh - impatient users and stopped machines: Ctrl-Z (SIGTSTP)
# mid-row stops the children and runs the row again after SIGCONT; so does
# SIGSTOP of the orchestrator alone (its SIGCONT tells), and a suspend, a
# paused VM or a wall clock set (simulated: their clocks jump). The load's
# full second alone is kept where signals are timed to land inside the
# measured row.
# run-first: a long script (20 s or more)
. "$(dirname "$0")/lib.sh"

top=$(scratch)
trap 'rm -rf "$top"' EXIT

# ---- Ctrl-Z ----

t="SIGTSTP mid-row stops the children; after SIGCONT the row runs again, exit 0"
d=$(mktemp -d "$top/tstp.XXXXXX")
setsid "$IB" -c -t 3 -W Audio -w None -w Burn --work-dir "$d" \
	--json "$d/r.json" >"$d/out" 2>"$d/err" &
pid=$!
wait_for_line "$d/out" '^Load	' 20
sleep 1.5
kill -TSTP "$pid"
sleep 0.5
states=$(ps -o stat= -s "$pid" | cut -c1 | sort | uniq -c | tr -s ' \n' ' ')
sleep 3.5
kill -CONT "$pid"
wait $pid; rc=$?
# The None row's periods (the first result's): a row run again from its start
# has all 60 of its 3 s, next to none dropped; one that went on across the
# 3.5 s stop would have lost most of them. (Its samples are no measure: on a
# busy machine a period whose work overran has none.)
first_num() { grep -o "\"$1\": [0-9]*" "$d/r.json" | head -1 | grep -o '[0-9]*$'; }
met=$(first_num met) missed=$(first_num missed) dropped=$(first_num dropped)
periods=$(( ${met:-0} + ${missed:-0} + ${dropped:-0} ))
if [ $rc != 0 ] || grep -q failed "$d/out"; then
	fail "$t" "rc=$rc: $(cat "$d/out" "$d/err")"
elif [[ $states != " 3 T " ]]; then
	fail "$t" "while stopped, the states of the run's processes were:$states"
elif [ "$(grep -c 'runs again from its start' "$d/err")" != 1 ]; then
	fail "$t" "stderr: $(cat "$d/err")"
elif ! grep -qP '^Burn\t *[0-9.]+ \+/- ' "$d/out" || [ "$periods" != 60 ] ||
	[ "${dropped:-99}" -ge 10 ]; then
	fail "$t" "incomplete table or a short row ($periods periods, ${dropped:-?} dropped): $(cat "$d/out")"
elif ! no_leftovers 2 "$pid"; then
	fail "$t" "left:$(leftovers "$pid")"
else
	pass "$t ($periods periods in the None row, $dropped dropped)"
fi

t="SIGSTOP of the orchestrator alone for 4 s mid-row: the row runs again, the table is whole, exit 0"
d=$(mktemp -d "$top/stop.XXXXXX")
setsid "$IB" -c -t 2 -W Audio -w None -w Burn --work-dir "$d" --json "$d/r.json" >"$d/out" 2>"$d/err" &
pid=$!
wait_for_line "$d/out" '^Load	' 20
sleep 1.8	# past the load's second alone: into the measured row
kill -STOP "$pid"; sleep 4; kill -CONT "$pid"
wait $pid; rc=$?
met=$(first_num met) missed=$(first_num missed) dropped=$(first_num dropped)
periods=$(( ${met:-0} + ${missed:-0} + ${dropped:-0} ))
if [ $rc != 0 ] || grep -q failed "$d/out"; then
	fail "$t" "rc=$rc: $(cat "$d/out" "$d/err")"
elif [ "$(grep -c 'continued after a stop (SIGCONT): the None row of Audio runs again from its start' "$d/err")" != 1 ]; then
	fail "$t" "stderr: $(cat "$d/err")"
elif ! grep -qP '^Burn\t *[0-9.]+ \+/- ' "$d/out" || [ "$periods" != 40 ]; then
	fail "$t" "incomplete table or a short row ($periods periods): $(cat "$d/out")"
elif ! no_leftovers 2 "$pid"; then
	fail "$t" "left:$(leftovers "$pid")"
else
	pass "$t"
fi

# ---- stops no signal tells of, simulated (test-only): the clocks jump in the first row ----

t="a suspend, a paused VM, a wall clock set mid-row (simulated): the row runs again, exit 0"
declare -A said=([suspend]="the machine was suspended for 5.0 s"
	[pause]="this process did not run for 4.0 s or more (a paused VM?)"
	[wall]="the wall clock moved 30.0 s against the boot clock")
pids=()
for k in suspend:5 pause:4 wall:30; do
	d="$top/jump-${k%%:*}"
	mkdir "$d"
	: >"$d/lock"
	INTERBENCH_TEST_CLOCK_JUMP=$k INTERBENCH_TEST_LOCK=$d/lock INTERBENCH_TEST_SETTLE_MS=100 \
		setsid "$IB" -c -t 1 -W Audio -w None --work-dir "$d" --json "$d/r.json" \
		>"$d/out" 2>"$d/err" &
	pids+=($!)
done
bad=""
for p in "${pids[@]}"; do
	wait "$p" || bad="$bad rc=$?"
done
for k in suspend pause wall; do
	d="$top/jump-$k"
	met=$(first_num met) missed=$(first_num missed) dropped=$(first_num dropped)
	periods=$(( ${met:-0} + ${missed:-0} + ${dropped:-0} ))
	if [ "$(grep -c "^interbench: ${said[$k]}.*: the None row of Audio runs again from its start" "$d/err")" != 1 ]; then
		bad="$bad $k: $(cat "$d/err")"
	elif ! grep -qP '^None\t *[0-9.]+ \+/- ' "$d/out" || [ "$periods" != 20 ]; then
		bad="$bad $k: $periods periods: $(cat "$d/out")"
	fi
done
if [ -z "$bad" ] && no_leftovers 2; then pass "$t"; else fail "$t" "${bad:-left:$(leftovers)}"; fi

t="nothing left behind by the stop checks"
if no_leftovers 2; then pass "$t"; else fail "$t" "left:$(leftovers)"; fi
