#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_tstp.sh - impatient users and stopped machines: Ctrl-Z (SIGTSTP)
# mid-row stops the children and runs the row again after SIGCONT; so does
# SIGSTOP of the orchestrator alone (its SIGCONT tells), and a suspend, a
# paused VM or a wall clock set (simulated: their clocks jump). The load's
# second alone is cut to 0.1 s (test-only): a signal sent 0.5 s after the
# table's header lands inside the measured row.
. "$(dirname "$0")/lib.sh"

export INTERBENCH_TEST_SETTLE_MS=100

top=$(scratch)
trap 'rm -rf "$top"' EXIT

# The periods the first result (the None row) counted in run directory $1's
# JSON: met, missed or dropped ($2).
first_num() { grep -o "\"$2\": [0-9]*" "$1/r.json" | head -1 | grep -o '[0-9]*$'; }

# What is wrong with the run in directory $1 (of session $2, exit status $3)
# whose None row was stopped: a failed row, not one line on stderr matching
# $4, a table without its $5 row or a None row without its 20 periods of 1 s,
# something left; nothing when all is well.
rerun_wrong() {
	local d=$1 pid=$2 rc=$3 note=$4 last=$5 k n periods=0
	for k in met missed dropped; do
		n=$(first_num "$d" "$k")
		periods=$((periods + ${n:-0}))
	done
	if [ "$rc" != 0 ] || grep -q failed "$d/out"; then
		echo "rc=$rc: $(cat "$d/out" "$d/err")"
	elif [ "$(grep -c -- "$note" "$d/err")" != 1 ]; then
		echo "stderr: $(cat "$d/err")"
	elif ! grep -qP "^$last\t *[0-9.]+ \+/- " "$d/out" || [ "$periods" != 20 ]; then
		echo "incomplete table or a short row ($periods periods): $(cat "$d/out")"
	elif ! no_leftovers 2 "$pid"; then
		echo "left:$(leftovers "$pid")"
	fi
}

# Each case runs in a session and with a run lock of its own, side by side
# with the others (most of their time is the stops' waiting); its line goes
# to $top/CASE.line. The row after the stopped one is against Video, a light
# load: it only has to be whole.

# ---- Ctrl-Z ----

tstp_case() {
	local t="SIGTSTP mid-row stops the children; after SIGCONT the row runs again, exit 0"
	local d=$top/tstp pid rc states dropped why
	mkdir "$d"
	INTERBENCH_TEST_LOCK=$d/lock setsid "$IB" -c -t 1 -W Audio -w None -w Video --work-dir "$d" \
		--json "$d/r.json" >"$d/out" 2>"$d/err" &
	pid=$!
	wait_for_line "$d/out" '^Load	' 20 "$pid"
	sleep 0.5
	kill -TSTP "$pid"
	sleep 0.5
	states=$(ps -o stat= -s "$pid" | cut -c1 | sort | uniq -c | tr -s ' \n' ' ')
	sleep 1.5
	kill -CONT "$pid"
	wait $pid; rc=$?
	# A row run again from its start has all 20 of its periods, next to none
	# dropped; one that went on across the 2 s stop would have lost most of
	# them. (Its samples are no measure: on a busy machine a period whose
	# work overran has none.)
	dropped=$(first_num "$d" dropped)
	why=$(rerun_wrong "$d" "$pid" "$rc" 'runs again from its start' Video)
	if [ -z "$why" ] && [[ $states != " 3 T " ]]; then
		why="while stopped, the states of the run's processes were:$states"
	elif [ -z "$why" ] && [ "${dropped:-99}" -ge 10 ]; then
		why="a short row: ${dropped:-?} of its periods dropped: $(cat "$d/out")"
	fi
	if [ -z "$why" ]; then pass "$t (20 periods in the None row, $dropped dropped)"; else fail "$t" "$why"; fi
}

stop_case() {
	local t="SIGSTOP of the orchestrator alone for 4 s mid-row: the row runs again, the table is whole, exit 0"
	local d=$top/stop pid rc why
	mkdir "$d"
	INTERBENCH_TEST_LOCK=$d/lock setsid "$IB" -c -t 1 -W Audio -w None -w Video --work-dir "$d" \
		--json "$d/r.json" >"$d/out" 2>"$d/err" &
	pid=$!
	wait_for_line "$d/out" '^Load	' 20 "$pid"
	sleep 0.5	# past the load's 0.1 s alone: into the measured row
	kill -STOP "$pid"; sleep 4; kill -CONT "$pid"
	wait $pid; rc=$?
	why=$(rerun_wrong "$d" "$pid" "$rc" \
		'continued after a stop (SIGCONT): the None row of Audio runs again from its start' Video)
	if [ -z "$why" ]; then pass "$t"; else fail "$t" "$why"; fi
}

# ---- stops no signal tells of, simulated (test-only): the clocks jump in the first row ----

jump_case() {
	local t="a suspend, a paused VM, a wall clock set mid-row (simulated): the row runs again, exit 0"
	local -A said=([suspend]="the machine was suspended for 5.0 s"
		[pause]="this process did not run for 4.0 s or more (a paused VM?)"
		[wall]="the wall clock moved 30.0 s against the boot clock")
	local k d bad="" pids=() rcs=()
	for k in suspend:5 pause:4 wall:30; do
		d="$top/jump-${k%%:*}"
		mkdir "$d"
		INTERBENCH_TEST_CLOCK_JUMP=$k INTERBENCH_TEST_LOCK=$d/lock \
			setsid "$IB" -c -t 1 -W Audio -w None --work-dir "$d" --json "$d/r.json" \
			>"$d/out" 2>"$d/err" &
		pids+=($!)
	done
	for k in 0 1 2; do
		wait "${pids[$k]}"; rcs+=($?)
	done
	k=0
	for d in suspend pause wall; do
		why=$(rerun_wrong "$top/jump-$d" "${pids[$k]}" "${rcs[$k]}" \
			"^interbench: ${said[$d]}.*: the None row of Audio runs again from its start" None)
		[ -n "$why" ] && bad="$bad $d: $why"
		k=$((k + 1))
	done
	if [ -z "$bad" ]; then pass "$t"; else fail "$t" "$bad"; fi
}

pids=()
for c in tstp stop jump; do
	"${c}_case" >"$top/$c.line" &
	pids+=($!)
done
wait "${pids[@]}"
cat "$top/tstp.line" "$top/stop.line" "$top/jump.line"

t="nothing left behind by the stop checks"
if no_leftovers 2; then pass "$t"; else fail "$t" "left:$(leftovers)"; fi
