#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_explain.sh - where the latency went in a known missed deadline
# (traced as root, from the records alone without); as root, who ran instead,
# a Burn miss waiting behind a Burn thread, and the private tracefs instance
# (removed at the end, after SIGINT, and when stale). The split in JSON, CSV
# and text, -u, a kernel without schedstat, --no-split and a run without root
# are in t_explain_split.sh.
# run-alone: who had the CPU while the task waited is a share of CPU time that other tests take
. "$(dirname "$0")/lib.sh"

# The load's second alone is cut short (test-only): what is checked is a
# miss's story and who ran instead, not the rows' figures.
export INTERBENCH_TEST_SETTLE_MS=100

scratch_dir

use_json_checker "--explain"

# ---- every missed deadline explained ----

tracefs_dir

# Check that the stall's miss (period 10 of Video, its work blocked 30 ms more)
# is in run $1's JSON ($1.json), text ($1.txt) and CSV ($1.csv) with its
# figures, told by the trace when $2 is 1; prints what is wrong, or nothing.
stall_check() {
	py3 - "$1" "$2" <<'EOF'
import csv, json, re, sys
base, traced = sys.argv[1], sys.argv[2] == '1'
STALL = 30e6
def bad(why):
    print(why)
    sys.exit(0)
def t(ns):  # as the miss lines print a time in ms
    v = ns / 1e6
    return f'{v:.0f}' if v >= 1000 else f'{v:.3g}'
r = json.load(open(base + '.json'))['results'][0]
# the period as it ran: 1/60 s, shortened by the sweep against the tick
P = r['period_ns']
if not 1e9 / 60 * 0.99 <= P <= 1e9 / 60:
    bad(f"period_ns {P}, want 1/60 s less under 1 %")
WORK = 0.4 * P
m = [x for x in r['misses'] or [] if x['period'] == 10]
if not m:
    bad(f"period 10 is not among the misses: {[x['period'] for x in r['misses'] or []]}")
m = m[0]
# its deadline: the end of period 10, 11 periods after the first began (just after the row)
if not 11 * P / 1e9 <= m['at_s'] <= 11 * P / 1e9 + 0.05:
    bad(f"at_s {m['at_s']}, its deadline is 11/60 s after the first period's start")
if m['traced'] != traced or (m['blocked_ns'] is None) == traced:
    bad(f"traced {m['traced']}, blocked_ns {m['blocked_ns']}; want traced {traced}")
# the parts of its time add up to a period and its lateness, to the microseconds kept
parts = sum(m[k] or 0 for k in ('woke_late_ns', 'waited_ns', 'ran_ns', 'preempted_ns',
                                'blocked_ns'))
if abs(parts - P - m['missed_by_ns']) > 5000:
    bad(f"woke + waited + ran + preempted + blocked = {parts} ns, "
        f"not a period + missed by {m['missed_by_ns']}")
# missed by 30 ms + its work - a period, and what the noise added (which the parts name)
if not STALL + WORK - P - 0.5e6 <= m['missed_by_ns'] <= STALL + WORK - P + 15e6:
    bad(f"missed by {m['missed_by_ns']} ns, want about {STALL + WORK - P:.0f}")
if traced and not (STALL <= m['blocked_ns'] <= STALL + 3e6 and
                   0.8 * WORK <= m['ran_ns'] <= 1.1 * WORK):
    bad(f"blocked {m['blocked_ns']} ns (want 30 ms), ran {m['ran_ns']} (want {WORK:.0f})")
if not traced and not STALL + 0.8 * WORK <= m['ran_ns'] <= STALL + 2 * WORK:
    bad(f"ran {m['ran_ns']} ns: want the work and the stall together")
# untraced, a wake-up by the task's own timer has no kernel stamp: its timer's instant stands
head = (f"Video/None pass 1 +{m['at_s']:.3f} s: missed by {t(m['missed_by_ns'])} ms: " +
        ('woke +' if traced else 'its timer +'))
line = [l for l in open(base + '.txt') if l.startswith(head)]
tail = f", blocked {t(m['blocked_ns'])} ms" if traced else ' (not traced: '
if not line or tail not in line[0]:
    bad(f"no line '{head}...{tail}...': {line}")
c = list(csv.DictReader(open(base + '.csv', newline='')))[0]
s = r['miss_shares']
for k in ('queued', 'running', 'preempted', 'blocked'):
    want = '' if s[k] is None else s[k]
    if (c['miss_' + k] and float(c['miss_' + k])) != want:
        bad(f"CSV miss_{k} {c['miss_' + k]!r}, JSON {want!r}")
if c['ran_instead'] and not re.fullmatch(r'.+?:[0-9.e-]+( .+?:[0-9.e-]+)*', c['ran_instead']):
    bad(f"CSV ran_instead {c['ran_instead']!r} is not comm:share text")
if traced and not (s['blocked'] > 0 and abs(sum(s.values()) - 1) < 1e-9):
    bad(f"shares {s}")
EOF
}

# Run the stall with "$3"... into $dir/$2.* (twice at most: on a busy machine
# other misses may outrank it), checked as told by the trace when $1 is 1;
# why it failed, or "".
stall_run() {
	local i want=$1 m=$dir/$2
	shift 2
	for i in 1 2; do
		rm -f "$m".*
		INTERBENCH_TEST_STALL=10:30 "$@" -c -t 0.5 -W Video -w None --explain \
			--work-dir "$dir" --json "$m.json" --csv "$m.csv" >"$m.txt" 2>"$m.err"
		rc=$?
		why="rc=$rc: $(tail -3 "$m.err")"
		[ $rc = 0 ] && why=$(stall_check "$m" "$want") && [ -z "$why" ] &&
			why=$(chk schema "$m.json") && [ -z "$why" ] && return
	done
}

t="--explain: a known miss (period 10 blocked 30 ms) is explained in text, JSON and CSV"
traced=0
is_root && [ -d "$TR/instances" ] && traced=1
[ $traced = 1 ] && t="$t, traced: blocked 30 ms"
stall_run $traced m ib
if [ -z "$why" ]; then pass "$t"; else fail "$t" "$why"; fi

t="--explain without root: the known miss from the records alone, said to be untraced"
if is_root && command -v setpriv >/dev/null; then
	chmod 777 "$dir"
	stall_run 0 m2 setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		env INTERBENCH_TEST_SETTLE_MS=100 "$IB"
	if [ -z "$why" ]; then pass "$t"; else fail "$t" "$why"; fi
elif is_root; then
	skip "$t" "setpriv is not installed"
else
	skip "$t" "the run above was without root"
fi

# ---- who ran instead: root and tracefs ----

if ! is_root; then
	for t in "Audio vs Burn names a Burn thread first" "the instance is gone after the run" \
		"a Burn miss waited behind a Burn thread" \
		"the instance is gone after SIGINT" "a stale instance is removed by the next run"; do
		skip "--explain as root: $t" "needs root"
	done
	exit 0
fi
if [ ! -d "$TR/instances" ]; then
	skip "--explain as root" "no tracefs instances in $TR"
	exit 0
fi
# Wait up to 5 s for run $1's instance to appear; seen=yes or no.
wait_instance() {
	local i
	seen=no
	for ((i = 0; i < 100; i++)); do
		[ -d "$TR/instances/interbench-$1" ] && { seen=yes; return; }
		sleep 0.05
	done
}

# What is wrong with run $1's instance now that it has ended: nothing, or why.
instance_left() {
	if [ $seen != yes ]; then
		echo "no instance interbench-$1 during the run"
	elif [ -e "$TR/instances/interbench-$1" ]; then
		echo "interbench-$1 is left: $(ls "$TR/instances")"
	fi
}

top_before=$(cat "$TR/set_event" "$TR/trace_clock" "$TR/current_tracer" 2>&1 | md5sum)

# The runs below go on the last CPU, away from other runs' -u, which take the first.
pin=()
command -v taskset >/dev/null && pin=(taskset -c "$(($(nproc) - 1))")

# Everything on one CPU with four Burn threads, so that what runs while the
# task waits is the Burn load. Another run's real-time task can still be what
# ran last on a shared machine: a second try, and only two misses in a row fail.
burn_run() {
	"${pin[@]}" "$IB" -l "${LPM:-1000000}" -c -u -L 4 -t 1.5 -W Audio -w Burn --explain \
		--work-dir "$dir" --json "$dir/b.json" >"$dir/b.txt" 2>"$dir/b.err" &
	pid=$!
	wait_instance $pid
	wait $pid
	rc=$?
	left=$(instance_left $pid)
	first=$(get "$dir/b.json" "d['results'][0]['ran_instead'][0]['comm']" 2>&1)
}

t="--explain as root: Audio vs Burn names a Burn thread first; the instance is gone after the run"
burn_run
[ $rc = 0 ] && [ -z "$left" ] && [ "$first" != ibload-Burn ] && burn_run
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/b.err")"
elif [ "$first" != ibload-Burn ]; then
	fail "$t" "first ran instead: $first; $(grep '^Burn:' "$dir/b.txt")"
elif ! grep -qE '^Burn: .*; ran instead: ibload-Burn [0-9.]+ %' "$dir/b.txt"; then
	fail "$t" "$(grep '^Burn:' "$dir/b.txt")"
elif [ -n "$left" ]; then
	fail "$t" "$left"
else
	pass "$t"
fi

t="--explain as root, --wake timer: the kernel's sched_waking splits nearly every wake-up into its timer's and the scheduler's parts, as JSON and the line say"
got=$(py3 - "$dir/b.json" "$dir/b.txt" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
r = d['results'][0]
n, k = r['samples'], r['wakeups_kernel_stamped']
lat, tm, sc = r['latency_ns'], r['timer_latency_ns'], r['sched_latency_ns']
line = [l for l in open(sys.argv[2]) if l.startswith('Burn: ')]
want = re.compile(r"^Burn: timer [0-9.]+ mean / [0-9.]+ p99, scheduler [0-9.]+ / [0-9.]+ "
                  r"\(at the kernel's sched_waking, %s of %s wake-ups\); queue wait " % (k, n))
if d['run']['wake'] != 'timer' or not n or not k or k < 0.9 * n:
    print(f"wake {d['run']['wake']}: {k} of {n} wake-ups stamped")
elif not (0 < tm['mean'] and 0 < sc['mean'] and tm['max'] <= lat['max'] and sc['max'] <= lat['max']
          and tm['mean'] + sc['mean'] <= lat['max']):
    print(f"timer {tm}, scheduler {sc}, latency {lat}")
elif r['wakeups_cpu_known'] is None or r['wakeups_cross_cpu'] is None:
    print(f"the CPUs woken on not known: {r['wakeups_cpu_known']}")
elif not line or not want.match(line[0]):
    print(f"line: {line}")
else:
    print('ok')
EOF
)
if [ "$got" = ok ]; then pass "$t"; else fail "$t" "$got"; fi

# A batch task (no preemption at its wake-up) of 2.5 ms periods and 40 % work
# on one CPU with a Burn thread: woken while the Burn thread has the CPU, it
# waits for the Burn thread's slice to end, and misses when that is more than
# 1.5 ms. On its own timer it is often woken when the CPU is free, so a row
# may miss nothing; other tasks of a shared machine can be what ran last: five
# tries.
miss_run() {
	"${pin[@]}" "$IB" -c -u -L 1 -t 2 -W Custom -C 40 -I 2500 \
		--policy batch -w Burn --explain --work-dir "$dir" --json "$dir/w.json" \
		>"$dir/w.txt" 2>"$dir/w.err"
	rc=$?
}

t="--explain as root: a Burn miss is explained as waited ... behind a Burn thread"
line='^Custom/Burn pass 1 \+[0-9.]+ s: missed by [0-9.]+ ms: woke \+[0-9.]+ ms( on CPU [0-9]+)?, waited [0-9.]+ ms behind ibload-Burn\[[0-9]+\] \(prio [0-9]+\)'
for try in 1 2 3 4 5; do
	miss_run
	[ $rc = 0 ] && grep -qE "$line" "$dir/w.txt" && break
done
behind=$(get "$dir/w.json" "sorted({m['behind']['comm'] for m in d['results'][0]['misses'] if m['behind']})" 2>&1)
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/w.err")"
elif ! grep -qE "$line" "$dir/w.txt"; then
	fail "$t" "no miss waited behind ibload-Burn: $(grep -A6 '^Missed' "$dir/w.txt")"
elif [[ $behind != *"'ibload-Burn'"* ]]; then
	fail "$t" "JSON's misses were behind $behind"
else
	pass "$t"
fi

# A group on one CPU: each member's task is traced, and one waits behind the
# other's now and then. Other tasks of a shared machine can be what ran: three tries.
group_run() {
	"${pin[@]}" "$IB" -l "${LPM:-1000000}" -c -u -t 1 -W Audio+Video -w None --explain \
		--work-dir "$dir" --json "$dir/g.json" >"$dir/g.txt" 2>"$dir/g.err"
	rc=$?
	names=$(get "$dir/g.json" "' '.join(r['benchmark'] + ':' + (','.join(x['comm'] for x in r['ran_instead']) if r['ran_instead'] is not None else 'untraced') for r in d['results'])" 2>&1)
}

t="--explain as root: every member of a group is traced, and names the other where it held the CPU"
for try in 1 2 3; do
	group_run
	[ $rc = 0 ] && [[ $names == *Audio:*ib-Video* || $names == *Video:*ib-Audio* ]] && break
done
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/g.err")"
elif [[ $names == *untraced* ]] || [ "$(grep -cE '^None: .*; ran instead: ' "$dir/g.txt")" != 2 ] ||
	grep -q 'ran instead: not known' "$dir/g.txt"; then
	fail "$t" "both members should be traced: $names; $(grep '^None:' "$dir/g.txt")"
elif [[ $names != *Audio:*ib-Video* && $names != *Video:*ib-Audio* ]]; then
	fail "$t" "neither member waited behind the other: $names"
else
	pass "$t ($names)"
fi

t="--explain as root: the instance is gone after SIGINT"
setsid "$IB" -l "${LPM:-1000000}" -c -t 5 -W Audio -w None --explain --work-dir "$dir" \
	>"$dir/i.txt" 2>&1 &
pid=$!
wait_for_line "$dir/i.txt" '^Load' 10 "$pid"
wait_instance $pid
kill -INT $pid
wait $pid
rc=$?
left=$(instance_left $pid)
[ $rc != 130 ] && left="rc=$rc: $(tail -3 "$dir/i.txt")"
if [ -z "$left" ]; then pass "$t"; else fail "$t" "$left"; fi

t="--explain as root: a stale instance (of a killed run) is removed by the next run"
dead=$(sh -c 'echo $$')
mkdir "$TR/instances/interbench-$dead" 2>/dev/null
ib -c -t 0.2 -W Audio -w None --explain --work-dir "$dir" >/dev/null 2>&1
if [ -e "$TR/instances/interbench-$dead" ]; then
	rmdir "$TR/instances/interbench-$dead"
	fail "$t" "interbench-$dead is still there"
else
	pass "$t"
fi

t="--explain as root: the top-level trace's events, clock and tracer are untouched"
if [ "$(cat "$TR/set_event" "$TR/trace_clock" "$TR/current_tracer" 2>&1 | md5sum)" = "$top_before" ]; then
	pass "$t"
else
	fail "$t" "set_event, trace_clock or current_tracer changed"
fi
