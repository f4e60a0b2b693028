#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_work.sh - work as CPU time (the default) and as loops: no calibration
# in CPU mode, work_ratio and loop_speed per row, a calibration that is never
# saved unsettled, a starved task that still answers, the log header of each mode.
# run-first: a long script (15 s or more beside the others)
. "$(dirname "$0")/lib.sh"

# These tests check what is printed and how work is counted, not how the rows
# performed: the load's second alone before each row is cut short (test-only).
export INTERBENCH_TEST_SETTLE_MS=${INTERBENCH_TEST_SETTLE_MS:-100}

scratch_dir
rel=$(uname -r)

# The numbers of field $2 in JSON file $1, one a line, in order.
json_nums() { sed -n "s/.*\"$2\": \\([-0-9.e]*\\).*/\\1/p" "$1"; }

t="CPU mode: no calibration, its header, work_ratio and loop_speed in every row"
out=$(timeout 120 "$IB" -c -t 0.3 -W Audio -W Video -W X -w None -w Burn --json "$dir/c.json" \
	--work-dir "$dir" 2>"$dir/err"); rc=$?
ratios=$(json_nums "$dir/c.json" work_ratio | tr '\n' ' ')
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(cat "$dir/err")"
elif grep -qi calibrat "$dir/err" || [ -e "$dir/interbench.loops_per_ms" ]; then
	fail "$t" "it calibrated: $(cat "$dir/err")"
elif ! grep -q '^Using CPU time as work, running every load for 0.3 seconds$' <<<"$out"; then
	fail "$t" "header: $(grep '^Using' <<<"$out")"
elif ! grep -q '"work": "cpu"' "$dir/c.json" || ! grep -q '"loops_per_ms": null' "$dir/c.json"; then
	fail "$t" "run.work or loops_per_ms in the JSON"
elif [ "$(wc -w <<<"$ratios")" != 6 ]; then	# their bound: t_timing.sh, alone
	fail "$t" "work_ratio: $ratios"
elif [ "$(json_nums "$dir/c.json" loop_speed | wc -l)" != 6 ]; then
	fail "$t" "no loop_speed in every row"
else
	pass "$t (work_ratio $ratios)"
fi

t="Gaming: % desired CPU is its CPU time over wall time"
timeout 60 "$IB" -c -t 0.5 -W Gaming -w None --json "$dir/g.json" --work-dir "$dir" >/dev/null 2>&1
pct=$(json_nums "$dir/g.json" pct_desired_cpu)
cpu=$(json_nums "$dir/g.json" task_cpu_ns)
wall=$(json_nums "$dir/g.json" wall_ns)
if awk -v p="$pct" -v c="$cpu" -v w="$wall" 'BEGIN { exit !(w > 0 && p <= 100 && (p - 100 * c / w) ^ 2 < 1) }'; then
	pass "$t ($pct %)"
else
	fail "$t" "$pct %, task CPU $cpu ns over $wall ns"
fi

t="-l N is loops mode as in 0.31: its header, no calibration, run.work loops"
out=$(timeout 60 "$IB" -c -l 1000000 -t 0.5 -W Audio -w None --csv "$dir/l.csv" --work-dir "$dir" 2>"$dir/err"); rc=$?
if [ $rc != 0 ] || grep -qi calibrat "$dir/err" ||
	! grep -q '^Using 1000000 loops per ms, running every load for 0.5 seconds$' <<<"$out"; then
	fail "$t" "rc=$rc: $out $(cat "$dir/err")"
elif ! head -1 "$dir/l.csv" | grep -q ',loop_speed,.*,work,loops_per_ms,' ||
	! grep -q ',loops,1000000,' "$dir/l.csv"; then
	fail "$t" "CSV: $(cat "$dir/l.csv")"
else
	pass "$t"
fi

t="contradictions and a Custom period longer than the row exit 2 with one line"
bad=""
for args in "--work cpu -l 5 -W Audio" "--work cpu -b -W Audio" "--work seconds -W Audio" \
	"-C 20 -I 5000000 -t 1 -W Custom"; do
	# shellcheck disable=SC2086
	"$IB" -c $args -w None --work-dir "$dir" >/dev/null 2>"$dir/err"; rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$dir/err")" = 1 ] || bad="$bad [$args: rc=$rc $(cat "$dir/err")]"
done
if [ -z "$bad" ]; then pass "$t"; else fail "$t" "$bad"; fi

# A calibration is saved only when it settled, with what identifies the machine.
t="-b: an unsettled calibration is never saved; a settled one names the machine"
seen=""
for attempt in 1 2; do
	rm -f "$dir/interbench.loops_per_ms"
	timeout 60 "$IB" -c -b -t 0.1 -W Audio -w None --work-dir "$dir" >"$dir/out" 2>"$dir/err"
	if grep -q 'did not settle' "$dir/err"; then
		seen="$seen unsettled"
		[ -e "$dir/interbench.loops_per_ms" ] && { seen="$seen-but-saved"; break; }
	else
		seen="$seen settled"
		break
	fi
done
f=$dir/interbench.loops_per_ms
if [[ $seen == *saved* ]]; then
	fail "$t" "an unsettled calibration was saved"
elif [[ $seen == *" settled" ]] && ! { grep -q '^loops_per_ms [0-9]' "$f" && grep -q '^build ' "$f" &&
	grep -q '^cpufreq_governor ' "$f" && grep -q '^boost ' "$f" && grep -q '^smt ' "$f"; }; then
	fail "$t" "the file: $(cat "$f" 2>/dev/null)"
else
	pass "$t (${seen# })"
fi

t="a saved value is re-checked: one far off, or for another build, is measured again"
if [ ! -f "$f" ]; then
	skip "$t" "no calibration settled on this machine just now"
else
	lpm=$(sed -n 's/^loops_per_ms //p' "$f")
	sed -i "s/^loops_per_ms .*/loops_per_ms $((lpm * 3))/" "$f"
	timeout 60 "$IB" -c --work loops -t 0.1 -W Audio -w None --work-dir "$dir" >/dev/null 2>"$dir/err1"
	sed -i "s/^loops_per_ms .*/loops_per_ms $lpm/; s/^build .*/build 0/" "$f" 2>/dev/null
	timeout 60 "$IB" -c --work loops -t 0.1 -W Audio -w None --work-dir "$dir" >/dev/null 2>"$dir/err2"
	if ! grep -q 'off now.*measuring again' "$dir/err1"; then
		fail "$t" "a value 3 x too high was used: $(cat "$dir/err1")"
	elif ! grep -q '^Calibrating' "$dir/err2"; then
		fail "$t" "another build's value was used"
	else
		pass "$t"
	fi
fi

# A task that gets almost no CPU: nice 19 against three Burn threads on one
# CPU, asked for 1 s of work a second. It stops at the row's end wherever it
# is and shows the little CPU it got; the row does not fail.
t="a starved task answers at the row's end with what it got"
start=$(date +%s%N)
timeout 60 "$IB" -c -u -B 19 -L 3 -C 100 -I 1000000 -t 2 -W Custom -w Burn \
	--json "$dir/s.json" --work-dir "$dir" >"$dir/out" 2>"$dir/err"; rc=$?
secs=$(( ($(date +%s%N) - start) / 1000000000 ))
cpu=$(json_nums "$dir/s.json" pct_desired_cpu)
if [ $rc != 0 ] || grep -q 'failed' "$dir/out"; then
	fail "$t" "rc=$rc: $(cat "$dir/out" "$dir/err")"
elif [ "$secs" -gt 7 ]; then
	fail "$t" "took $secs s for a 2 s row"
elif ! grep -q '"periods": {' "$dir/s.json"; then
	fail "$t" "no accounting in the result"
else
	pass "$t ($secs s, % desired CPU $cpu)"
fi

t="--compare: each run's work mode in its legend, runs of two modes never pooled"
timeout 60 "$IB" -t 0.3 -W Audio -w None -m same --work-dir "$dir" >/dev/null 2>&1
timeout 60 "$IB" -l 1000000 -t 0.3 -W Audio -w None -m same --work-dir "$dir" >/dev/null 2>&1
out=$("$IB" --compare "$dir/$rel.log" 2>&1); rc=$?
if [ $rc != 0 ] || ! grep -q '^Comparing 2 runs' <<<"$out" || ! grep -q 'work: cpu' <<<"$out" ||
	! grep -q 'work: loops' <<<"$out"; then
	fail "$t" "rc=$rc: $out"
else
	pass "$t"
fi

t="nothing left behind"
if no_leftovers 2; then pass "$t"; else fail "$t" "left:$(leftovers)"; fi
