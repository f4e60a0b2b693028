#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_load_work.sh - every kind of a load's work reported (Compile's CPUs beside its
# MiB/s), and --load-cmd's Command load: its CPUs and restarts, a command that cannot run,
# a real make -j as the load, and nothing of it left behind.
# run-quiet: a load's CPUs are a share of CPUs that the side-by-side scripts would take
. "$(dirname "$0")/lib.sh"

# The load's second alone before each row is shortened (test-only): the rows' figures are
# the load's own over the row.
export INTERBENCH_TEST_SETTLE_MS=300

scratch_dir
use_json_checker "load work"
cd "$dir" || exit 1
LOOP='sh -c "while :; do :; done"'

# Processes of our session whose command line holds $1 (none left is the point).
ours_running() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(proc_sid "$p")" = "$MYSID" ] || continue
		tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF -- "$1" && printf ' %s' "${p#/proc/}"
	done
}

t="-w Command without --load-cmd: exit 2, one line"
err=$(ib -t 1 -W Audio -w Command 2>&1 >/dev/null)
rc=$?
if [ $rc = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] && grep -q -- "--load-cmd" <<<"$err"; then
	pass "$t"
else
	fail "$t" "rc $rc: $err"
fi

t="Compile's JSON and table carry the CPUs its burning threads kept busy beside its MiB/s"
out=$(ib -c -t 1 -W Audio -w Compile --json c.json --work-dir "$dir" 2>&1)
cpus=$(get c.json "d['results'][0]['load_intensity']['cpus']" 2>/dev/null)
if grep -qE "^Compile.* MiB/s \+ [0-9.]+ CPUs" <<<"$out" &&
   awk -v c="$cpus" 'BEGIN { exit !(c > 0.1 && c <= 2.5) }'; then
	pass "$t"
else
	fail "$t" "cpus '$cpus': $(grep ^Compile <<<"$out")"
fi

# The loop as the load, up to three tries (a busy machine may give it less than half a CPU).
t="--load-cmd's loop as Command: >= 0.5 CPUs, the command in the header, nothing left behind"
for try in 1 2 3; do
	out=$(ib -c -t 1 -W Audio -w Command --load-cmd "$LOOP" --json l.json 2>&1)
	rc=$?
	inten=$(get l.json "d['results'][0]['load_intensity']['value']" 2>/dev/null)
	left=$(ours_running 'while :')
	[ $rc = 0 ] && [ -z "$left" ] && grep -qF "Load command: $LOOP" <<<"$out" &&
		awk -v c="$inten" 'BEGIN { exit !(c >= 0.5) }' && break
done
if [ $rc = 0 ] && [ -z "$left" ] && awk -v c="$inten" 'BEGIN { exit !(c >= 0.5) }'; then
	pass "$t ($inten CPUs, try $try)"
elif [ -z "$left" ] && [ $rc = 0 ] && host_disturbed >/dev/null; then
	skip "$t" "the host took the CPUs: $inten CPUs"
else
	fail "$t" "rc $rc, $inten CPUs, left:$left: $(grep -E '^(Command|Load command)' <<<"$out")"
fi
[ -z "$left" ] || kill $left 2>/dev/null

t="a command that ends is started again, its restarts counted"
ib -c -t 1.5 -W Audio -w Command --load-cmd 'sleep 0.2' --json r.json >/dev/null 2>&1
n=$(get r.json "d['results'][0]['load_intensity']['restarts']" 2>/dev/null)
if awk -v n="$n" 'BEGIN { exit !(n >= 3 && n <= 8) }'; then
	pass "$t ($n)"
else
	fail "$t" "restarts '$n' in 1.5 s of a 0.2 s command"
fi

t="a command that cannot start fails the row, saying why, exit 1"
out=$(ib -c -t 1 -W Audio -w Command --load-cmd 'exec /nonexistent/ib-cmd' 2>&1)
rc=$?
if [ $rc = 1 ] && grep -qE "^Command	failed: .*exit status 127 at once: .*ib-cmd" <<<"$out"; then
	pass "$t"
else
	fail "$t" "rc $rc: $(grep ^Command <<<"$out")"
fi

# The manual's recipe, on interbench's own tree: make -j as the load, killed at the row's end.
t="a real make -j of a source tree as the load: its CPUs, no compiler left behind"
mkdir tree && cp -r "$TOP/src" "$TOP/Makefile" tree/ || exit 1
out=$(ib -c -t 1 -W Audio -w Command --load-cmd "make -s -C $dir/tree -j2 B=$dir/tree/b" 2>&1)
rc=$?
sleep 0.2
left=$(ours_running "$dir/tree")
if [ $rc = 0 ] && [ -z "$left" ] && grep -qE "^Command.* [0-9.]+ CPUs \+ [0-9]+ restarts?" <<<"$out" &&
   ! grep -qE "^Command.* 0 CPUs" <<<"$out"; then
	pass "$t"
else
	fail "$t" "rc $rc, left:$left: $(grep ^Command <<<"$out")"
fi
[ -z "$left" ] || kill $left 2>/dev/null
