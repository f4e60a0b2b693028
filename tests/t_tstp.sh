#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_tstp.sh - impatient users: Ctrl-Z (SIGTSTP) mid-row stops the
# children and runs the row again after SIGCONT; SIGSTOP, which cannot be
# caught, still fails the row. The load's full second alone is kept: the
# signals are timed to land inside the measured row.
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

t="SIGSTOP, which cannot be caught, still fails the row"
d=$(mktemp -d "$top/stop.XXXXXX")
setsid "$IB" -c -t 2 -W Audio -w None --work-dir "$d" >"$d/out" 2>"$d/err" &
pid=$!
wait_for_line "$d/out" '^Load	' 20
sleep 1.8	# past the load's second alone: into the measured row
kill -STOP "$pid"; sleep 4; kill -CONT "$pid"
wait $pid; rc=$?
if [ $rc = 1 ] && grep -qP '^None\tfailed: bench process overran' "$d/out" && no_leftovers 2 "$pid"; then
	pass "$t"
else
	fail "$t" "rc=$rc: $(cat "$d/out" "$d/err")"
fi

t="nothing left behind by the stop checks"
if no_leftovers 2; then pass "$t"; else fail "$t" "left:$(leftovers)"; fi
