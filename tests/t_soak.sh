#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_soak.sh - long unattended runs: the orchestrator's memory does not
# grow with the rows beyond their compact results, and a SIGKILL at any
# moment leaves JSON and CSV whole, holding every row printed (or all but
# the last).
# run-first: a long script (15 s or more beside the others)
. "$(dirname "$0")/lib.sh"

# These tests check memory and files, not how the rows performed: the load's
# second alone before each row is left out (test-only), and the load is None.
export INTERBENCH_TEST_SETTLE_MS=0

scratch_dir

use_json_checker "long runs"

# The two parts go side by side, each run with a run lock of its own: the
# 100 rows' memory is watched in the background while runs are killed.

# ---- memory: VmHWM after the 10th row and at the end of 100 rows ----

# "STATUS ROWS VMHWM_AFTER_10 VMHWM_AT_THE_END STDERR" of a run of 100 rows.
hwm_run() {
	py3 - "$dir/m.csv" "$IB" -c -q -t 0.1 --repeat 100 -W Audio -w None \
		--work-dir "$dir" --json "$dir/m.json" --csv "$dir/m.csv" <<'PY' 2>&1
import subprocess, sys, time
csv, cmd = sys.argv[1], sys.argv[2:]
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, pass_fds=(9,))
def hwm():
    try:
        with open(f'/proc/{p.pid}/status') as f:
            for line in f:
                if line.startswith('VmHWM:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return None
def rows():
    try:
        with open(csv) as f:
            return sum(1 for _ in f) - 1
    except OSError:
        return 0
at10 = last = None
while p.poll() is None:
    h, n = hwm(), rows()
    if h is not None:
        last = h
        if at10 is None and n >= 10:
            at10 = h
    time.sleep(0.02)	# a row is 0.1 s and more: four looks a row at least
print(p.returncode, rows(), at10, last, p.stderr.read().decode().replace('\n', ' '))
PY
}
hwm_run >"$dir/hwm" &
hwm=$!

# ---- SIGKILL at random moments: the files always parse and keep the rows ----

# One try: a run killed after $1 ms; prints what is wrong, nothing when all is well.
kill_try() {
	local d="$dir/kill.$2" pid
	mkdir -p "$d"
	: >"$d/lock"
	INTERBENCH_TEST_LOCK=$d/lock setsid "$IB" -t 0.1 --repeat 40 -W Audio -w None \
		--work-dir "$d" --json "$d/r.json" --csv "$d/r.csv" >/dev/null 2>"$d/err" &
	pid=$!
	echo "$pid" >"$d/pid"
	sleep "$(awk -v ms="$1" 'BEGIN { printf "%.3f", ms / 1000 }')"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	py3 - "$d" <<'PY'
import csv, glob, json, sys
d = sys.argv[1]
logs = glob.glob(d + '/*.log')
printed = sum(1 for l in open(logs[0]) if l.startswith('None\t')) if logs else 0
try:
    j = json.load(open(d + '/r.json'))
except (OSError, ValueError) as e:
    sys.exit(print(f'JSON after {printed} rows: {e}') or 0)
with open(d + '/r.csv', newline='') as f:
    lines = list(csv.reader(f))
nj, nc = len(j['results']), len(lines) - 1
if not (printed - 1 <= nj <= printed and printed - 1 <= nc <= printed and nc <= nj):
    print(f'{printed} rows printed, JSON holds {nj}, CSV {nc}')
elif j['complete'] is not False or j['run']['end'] is not None:
    print(f'a killed run says complete {j["complete"]}, end {j["run"]["end"]}')
elif lines[0][:3] != ['kernel_release', 'comment', 'start'] or any(len(l) != len(lines[0]) for l in lines):
    print('CSV lines of another length than its header')
PY
}

RANDOM=$$
for batch in 0 1; do
	# ten at a time, each with a run lock of its own
	pids=()
	for k in 0 1 2 3 4 5 6 7 8 9; do
		i=$((batch * 10 + k))
		kill_try $((150 + RANDOM % 1800)) "$i" >"$dir/try.$i" &
		pids+=($!)
	done
	wait "${pids[@]}"
done

t="100 rows: peak RSS (VmHWM) grows by at most 8 KiB a row after the 10th"
wait "$hwm"
read -r rc n at10 last err <"$dir/hwm"
if [ "$rc" != 0 ] || [ "$n" != 100 ] || [ -z "$at10" ] || [ "$at10" = None ]; then
	fail "$t" "rc=$rc, $n rows, VmHWM after 10: $at10: $err"
elif [ $(( (last - at10) * 1024 / 90 )) -gt 8192 ]; then
	fail "$t" "VmHWM $at10 KiB after 10 rows, $last KiB at the end: $(( (last - at10) * 1024 / 90 )) bytes a row"
else
	pass "$t ($at10 KiB after 10 rows, $last KiB after 100: $(( (last - at10) * 1024 / 90 )) bytes a row)"
fi

t="SIGKILL at 20 random moments: JSON and CSV parse and hold every printed row (or all but the last)"
bad="" rows=""
for i in $(seq 0 19); do
	[ -s "$dir/try.$i" ] && bad="$bad [$i: $(cat "$dir/try.$i")]"
	n=$(cat "$dir"/kill."$i"/*.log 2>/dev/null | grep -cP '^None\t')
	rows="$rows $n"
	no_leftovers 2 "$(cat "$dir/kill.$i/pid")" || bad="$bad [$i: left:$(leftovers "$(cat "$dir/kill.$i/pid")")]"
done
if [ -n "$bad" ]; then
	fail "$t" "$bad"
else
	pass "$t (rows printed when killed:$rows)"
fi
