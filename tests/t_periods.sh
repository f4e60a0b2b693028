#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_periods.sh - --period: by default the wake-ups sweep their phase over the tick (as the
# waker's stamps show), each period's work and share kept, the mode and the period in the log,
# JSON and CSV; --period exact keeps 0.31's periods and their one phase a row.
# run-alone: the spread of the wake-ups' stamps against the tick is read from a real row
. "$(dirname "$0")/lib.sh"
use_json_checker "--period"
export INTERBENCH_TEST_SETTLE_MS=0

scratch_dir

# The tick this kernel runs (CLOCK_MONOTONIC_COARSE's resolution is TICK_NSEC), in ns.
tick=$(py3 -c 'import time; print(round(time.clock_getres(6) * 1e9))')

# Audio for 2 s in each mode: its log, JSON, CSV and timeline under $dir/$m.*. The two
# runs go side by side (each with a run lock and a work directory of its own): a task of
# 5 % of a CPU each, woken by a waker of its own, on a machine with nothing else running.
pids=()
for m in swept exact; do
	mkdir "$dir/$m"
	INTERBENCH_TEST_LOCK=$dir/$m/lock ib -t 2 -W Audio -w None --period "$m" \
		--work-dir "$dir/$m" --json "$dir/$m.json" --csv "$dir/$m.csv" --timeline "$dir/$m.tl" \
		>"$dir/$m.txt" 2>&1 &
	pids+=($!)
done
wait "${pids[@]}"

# What the files say of the mode, the drift and the period as it ran.
t="--period: the log, JSON and CSV say which mode ran, the drift (one tick) and the period"
got=$(py3 - "$dir" "$tick" <<'PYEOF'
import csv, json, sys
d, tick = sys.argv[1], int(sys.argv[2])
out = []
for m, period in (('swept', 50e6 - tick / 40), ('exact', 50e6)):
    j = json.load(open(f'{d}/{m}.json'))
    r = j['results'][0]
    c = next(csv.DictReader(open(f'{d}/{m}.csv')))
    txt = open(f'{d}/{m}.txt').read()
    drift = j['run']['period_drift_ns']
    if j['run']['periods'] != m or c['periods'] != m or f'periods={m}' not in txt:
        out.append(f'{m}: mode {j["run"]["periods"]}/{c["periods"]}')
    if (m == 'swept') != (drift == tick):
        out.append(f'{m}: drift {drift}, tick {tick}')
    if abs(r['period_ns'] - period) > 1 or abs(float(c['period_ns']) - period) > 1:
        out.append(f'{m}: period {r["period_ns"]}, want {period}')
    if sum(r['periods'][k] for k in ('met', 'missed', 'dropped')) != 40:
        out.append(f'{m}: {r["periods"]} is not the 40 periods of a 2 s row')
    if ('Periods: ' + m) not in txt:
        out.append(f'{m}: no Periods: line')
print('; '.join(out) or 'ok')
PYEOF
)
if [ "$got" = ok ]; then pass "$t"; else fail "$t" "$got"; fi

# The wake-ups (the timeline's latency slices begin at the instant asked for) against the tick, in 8
# bins: swept, the 40 wake-ups fill every bin (5 each but for the stamp's jitter); exact,
# 50 ms is 12.5 ticks at HZ 250 (a whole number at 100 and 1000), so they pile into the
# bins of one or two phases.
t="--period: swept wake-ups cover the tick evenly, exact ones sit at one or two phases"
got=$(py3 - "$dir" "$tick" <<'PYEOF'
import json, sys
d, tick = sys.argv[1], int(sys.argv[2])
def bins(m):
    ev = json.load(open(f'{d}/{m}.tl'))['traceEvents']
    ts = [round(e['ts'] * 1000) for e in ev if e.get('name') in ('latency', 'wakeup latency')]
    b = [0] * 8
    for t in ts:
        b[t % tick * 8 // tick] += 1
    return len(ts), b
out = []
n, b = bins('swept')
if n < 38 or min(b) < 2:
    out.append(f'swept: {n} wake-ups in bins {b}')
n, b = bins('exact')
if n < 38 or sum(sorted(b)[-4:]) < n - 2:
    out.append(f'exact: {n} wake-ups in bins {b}')
print('; '.join(out) or 'ok')
PYEOF
)
if [ "$got" = ok ]; then pass "$t"; else fail "$t" "$got"; fi

t="--period: the CPU each period got is its work either way (work_ratio ~1, 5 % of a CPU)"
got=$(py3 - "$dir" <<'PYEOF'
import json, sys
out = []
for m in ('swept', 'exact'):
    r = json.load(open(f'{sys.argv[1]}/{m}.json'))['results'][0]
    share = r['task_cpu_ns'] / r['wall_ns']
    if not 0.97 <= r['work_ratio'] <= 1.05 or not 0.045 <= share <= 0.056:
        out.append(f'{m}: work_ratio {r["work_ratio"]}, CPU share {share:.4f}')
print('; '.join(out) or 'ok')
PYEOF
)
if [ "$got" = ok ]; then
	pass "$t"
elif probe=$(host_disturbed); then
	skip "$t" "$got: the host took the CPUs away meanwhile (probe: $probe)"
else
	fail "$t" "$got"
fi

t="--period: a mode it does not know is exit 2 with one line naming both"
"$IB" --period random -t 1 >/dev/null 2>"$dir/err"
rc=$?
if [ $rc = 2 ] && [ "$(wc -l <"$dir/err")" = 1 ] && grep -q swept "$dir/err" && grep -q exact "$dir/err"; then
	pass "$t"
else
	fail "$t" "rc=$rc: $(cat "$dir/err")"
fi

# Two members of a group: swept, the second member's periods walk through every phase
# against the first's (Video's three periods are Audio's one, and both sweep the tick alike);
# exact, Audio's 40 wake-ups all fall at one phase of Video's period, the row's first.
t="--period: a group's second member walks through the first's phase; exact, it stays at one"
pids=()
for m in swept exact; do	# side by side, as the two runs above
	INTERBENCH_TEST_LOCK=$dir/$m/lock ib -c -t 2 -W Audio+Video -w None --period "$m" \
		--work-dir "$dir/$m" --timeline "$dir/g-$m.tl" >/dev/null 2>&1 &
	pids+=($!)
done
wait "${pids[@]}"
got=$("$PY" - "$dir" <<'PYEOF'
import bisect, json, sys
def bins(path):
    ev = json.load(open(path))['traceEvents']
    names = {(e['pid'], e['tid']): e['args']['name'] for e in ev if e.get('name') == 'thread_name'}
    wk = {}
    for e in ev:
        if e.get('name') in ('latency', 'wakeup latency'):
            wk.setdefault(names.get((e['pid'], e['tid'])), []).append(round(e['ts'] * 1000))
    a, v, p, b = sorted(wk.get('ib-Audio', [])), sorted(wk.get('ib-Video', [])), 1e9 / 60, [0] * 8
    for t in a:
        i = bisect.bisect_right(v, t) - 1
        if i >= 0:
            b[int((t - v[i]) % p * 8 // p)] += 1
    return len(a), b
out = []
n, b = bins(sys.argv[1] + '/g-swept.tl')
# the bins are of the wake-ups as they came, so a late one of either moves a count to its
# neighbour: swept leaves no bin empty; exact fills two bins and leaves the rest empty
if n < 38 or min(b) < 1:
    out.append(f'swept: {n} wake-ups of Audio in bins {b} of Video\'s period')
n, b = bins(sys.argv[1] + '/g-exact.tl')
if n < 38 or sum(sorted(b)[-2:]) < n - 4:
    out.append(f'exact: {n} wake-ups of Audio in bins {b} of Video\'s period')
print('; '.join(out) or 'ok')
PYEOF
)
if [ "$got" = ok ]; then pass "$t"; else fail "$t" "$got"; fi
