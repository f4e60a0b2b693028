#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_foreign.sh - a foreign load caught: beside a busy loop not of the run, a row's
# foreign_cpu_pct is >= 50, its table row says so and names the loop, the run warns that the
# machine is not idle, and Burn short of its CPUs is marked; without it, under 10.
# run-alone: the CPU that tasks not of the run use is system-wide: other scripts are foreign
. "$(dirname "$0")/lib.sh"

# The load's second alone, and with it the idle check, shortened (test-only): 0.1 s of
# checking still sees a whole CPU's loop.
export INTERBENCH_TEST_SETTLE_MS=400

scratch_dir
use_json_checker "foreign CPU"
cd "$dir" || exit 1

t="beside a busy loop: foreign_cpu_pct >= 50, the row marked with the loop, the run warned"
sh -c 'while :; do :; done' &
loop=$!
sleep 0.3
out=$(ib -c -t 0.5 -W Audio -w None -w Burn --json b.json 2>err)
rc=$?
kill $loop
wait $loop 2>/dev/null
f=$(get b.json "d['results'][0]['foreign_cpu_pct']" 2>/dev/null)
if [ $rc = 0 ] && awk -v f="$f" 'BEGIN { exit !(f >= 50) }' &&
   grep -qE "^None.*\[foreign [0-9]+% CPU, top sh [0-9]+%\]" <<<"$out" &&
   grep -qE "warning: the machine is not idle: tasks not of this run used [0-9]+% of a CPU" err
then
	pass "$t ($f %)"
else
	fail "$t" "rc $rc, foreign $f: $(grep ^None <<<"$out") $(cat err)"
fi

t="beside a busy loop: Burn short of the CPUs its threads could have is marked"
short=$(get b.json "d['results'][1]['load_intensity']['short']" 2>/dev/null)
if [ "$short" = True ] && grep -qE "^Burn.*[[ ]load [0-9.]+ of [0-9.]+ CPUs" <<<"$out"; then
	pass "$t"
else
	fail "$t" "short '$short': $(grep ^Burn <<<"$out")"
fi

# Idle: up to three tries, as another suite on the machine is foreign too.
t="without it: foreign_cpu_pct < 10, no mark, no warning"
for try in 1 2 3; do
	out=$(ib -c -t 1 -W Audio -w None --json i.json 2>err)
	f=$(get i.json "d['results'][0]['foreign_cpu_pct']" 2>/dev/null)
	awk -v f="$f" 'BEGIN { exit !(f < 10) }' && ! grep -q foreign <<<"$out" && break
done
if awk -v f="$f" 'BEGIN { exit !(f < 10) }' && ! grep -q foreign <<<"$out"; then
	pass "$t ($f %, try $try)"
elif host_disturbed >/dev/null; then
	skip "$t" "the host took the CPUs: foreign $f %"
else
	fail "$t" "foreign $f % in three tries: $(grep ^None <<<"$out")"
fi

# A verdict of variants that differ in foreign CPU may be that load's: the busy loop starts
# once A's row has printed, so B's row has it and A's not.
t="--vary: variants apart in foreign CPU are named under the verdicts"
ib -c -t 0.5 -W Audio -w None --vary load-nice=0,0 >v.out 2>v.err &
pid=$!
wait_for_line v.out '^None/A' 20 "$pid"
sh -c 'while :; do :; done' &
loop=$!
wait "$pid"
rc=$?
kill $loop
wait $loop 2>/dev/null
if [ $rc = 0 ] && grep -q '^Foreign CPU differs between variants' v.out &&
   grep -qE '^  Audio under None: A [0-9]+% B [0-9]+%$' v.out; then
	pass "$t ($(grep '^  Audio under None' v.out))"
elif [ $rc = 0 ] && grep -qE '^None/A .*\[foreign' v.out; then
	skip "$t" "A's row was not quiet either: $(grep '^None/' v.out | tr '\n' ' ')"
else
	fail "$t" "rc $rc: $(grep -E '^(None/|Foreign|  Audio)' v.out | tr '\n' ' ')"
fi
