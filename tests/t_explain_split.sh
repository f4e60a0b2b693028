#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_explain_split.sh - where the latency went, as printed: the split in
# JSON, CSV and text, -u, a kernel without schedstat, --no-split, and without
# root the split with one line on why the names are missing. Known misses and
# who ran instead, which need quiet CPUs, are in t_explain.sh.
. "$(dirname "$0")/lib.sh"

# These tests check what is printed, not how the rows performed.
export INTERBENCH_TEST_SETTLE_MS=100

scratch_dir

use_json_checker "--explain"

ib -c -t 0.5 -W Audio -w None -w Burn --explain --work-dir "$dir" --json "$dir/r.json" \
	--csv "$dir/r.csv" >"$dir/r.txt" 2>"$dir/r.err"
rc=$?

# As root with tracefs, a wake-up by the task's own timer is split first at the kernel's stamp.
STAMPED="timer [0-9.]+ mean / [0-9.]+ p99, scheduler [0-9.]+ / [0-9.]+ \(at the kernel's "
STAMPED="${STAMPED}sched_waking, [0-9]+ of [0-9]+ wake-ups\); "

t="--explain: a line per load under the table, in ms"
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/r.err")"
elif ! grep -q '^Where the latency went (ms):$' "$dir/r.txt" ||
	! grep -qE "^None: ($STAMPED)?(queue wait [0-9.]+ mean|no queue wait)" "$dir/r.txt" ||
	! grep -qE '^Burn: .*[0-9.]+ % migrated' "$dir/r.txt"; then
	fail "$t" "$(tail -4 "$dir/r.txt")"
else
	pass "$t"
fi

t="JSON and CSV: queue wait + wake path = the wakeup latency; the CSV has the JSON's values"
if [ ! -r /proc/thread-self/schedstat ]; then
	skip "$t" "this kernel has no /proc/thread-self/schedstat (CONFIG_SCHED_INFO)"
elif [ "$(get "$dir/r.json" "all(r['queue_wait_ns']['mean'] is not None for r in d['results'])")" != True ]; then
	fail "$t" "a result without a split: $(get "$dir/r.json" "[r['queue_wait_ns'] for r in d['results']]")"
elif ! err=$(chk schema "$dir/r.json") || ! err=$(chk csv "$dir/r.json" "$dir/r.csv"); then
	fail "$t" "$err"
else
	pass "$t"
fi

t="-u: no wake-up crosses CPUs and none migrates"
ib -c -u -t 0.5 -W Audio -w None --explain --work-dir "$dir" --json "$dir/u.json" \
	>"$dir/u.txt" 2>&1
got=$(get "$dir/u.json" "[(r['wakeups_cross_cpu'], r['migrations'], r['samples']) for r in d['results']]")
case $got in
"[(0, 0, "[1-9]*")]") pass "$t" ;;
*) fail "$t" "(cross, migrations, samples): $got" ;;
esac

t="a kernel without schedstat gives nulls, not zeros, and says so"
INTERBENCH_TEST_SCHEDSTAT=/nonexistent/schedstat ib -c -t 0.5 -W Audio -w None --explain \
	--work-dir "$dir" --json "$dir/n.json" >"$dir/n.txt" 2>&1
got=$(get "$dir/n.json" "[(set(r['queue_wait_ns'].values()), set(r['wake_path_ns'].values()), r['wakeups_queued'], type(r['wakeups_cross_cpu']).__name__) for r in d['results']]")
# nulls in the JSON (not zeros), and the line under the table says why
want="[({None}, {None}, None, 'int')]"
line="^None: ($STAMPED)?no queue wait / wake path \(the kernel keeps no schedstat\)"
if [ "$got" = "$want" ] && grep -qE "$line" "$dir/n.txt"; then
	pass "$t"
else
	fail "$t" "$got; $(tail -3 "$dir/n.txt")"
fi

t="--no-split: nothing measured, all null; with --explain it is a usage error"
ib -c -t 0.5 -W Audio -w None --no-split --work-dir "$dir" --json "$dir/s.json" >/dev/null 2>&1
got=$(get "$dir/s.json" "[(r['queue_wait_ns']['mean'], r['wakeups_cross_cpu'], r['migrations'], d['run']['split']) for r in d['results']]")
"$IB" --explain --no-split -t 1 >/dev/null 2>"$dir/s.err"
rc=$?
if [ "$got" != "[(None, None, None, False)]" ]; then
	fail "$t" "$got"
elif [ $rc != 2 ] || [ "$(wc -l <"$dir/s.err")" != 1 ]; then
	fail "$t" "rc=$rc: $(cat "$dir/s.err")"
else
	pass "$t"
fi

t="without root, --explain shows the split and says once why the names are missing"
if is_root && command -v setpriv >/dev/null; then
	chmod 777 "$dir"
	setpriv --reuid=65534 --regid=65534 --clear-groups -- env INTERBENCH_TEST_SETTLE_MS=100 \
		"$IB" -l "${LPM:-1000000}" -c -t 0.5 -W Audio -w None -w Burn --explain \
		--work-dir "$dir" >"$dir/p.txt" 2>"$dir/p.err"
	rc=$?
elif is_root; then
	rc=skip
else
	ib -c -t 0.5 -W Audio -w None -w Burn --explain --work-dir "$dir" >"$dir/p.txt" \
		2>"$dir/p.err"
	rc=$?
fi
if [ "$rc" = skip ]; then
	skip "$t" "setpriv is not installed"
elif [ "$rc" != 0 ] || [ "$(grep -c -- "--explain: who ran instead, nor each wake-up's timer part (the kernel's sched_waking), is not shown: it needs root" "$dir/p.err")" != 1 ]; then
	fail "$t" "rc=$rc: $(cat "$dir/p.err")"
elif [ "$(grep -cE '^(None|Burn): queue wait [0-9.]+ mean / [0-9.]+ p99, timer and wake path ' \
	   "$dir/p.txt")" != 2 ] || grep -qE 'ran instead|sched_waking' "$dir/p.txt"; then
	fail "$t" "$(tail -3 "$dir/p.txt")"
else
	pass "$t"
fi
