#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_core.sh - the real binary, half a second or less per row: table shape, log,
# real time, exit codes. What takes time or CPU shares is in t_timing.sh.
# run-first: a long script (10 s or more beside the others)
. "$(dirname "$0")/lib.sh"

# These tests check what is printed, not how the rows performed: the load's
# second alone before each row is cut short (test-only).
export INTERBENCH_TEST_SETTLE_MS=100

scratch_dir

t="help and version exit 0"
if "$IB" --help | grep -q -- '--time' && "$IB" -h >/dev/null && "$IB" --version | grep -q '^interbench [0-9]'; then
	pass "$t"
else
	fail "$t" "no usage or version"
fi

t="-t abc exits 2 with one line naming -t"
err=$("$IB" -t abc 2>&1 >/dev/null); rc=$?
if [ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && printf '%s' "$err" | grep -q -- '-t'; then
	pass "$t"
else
	fail "$t" "rc=$rc, stderr: $err"
fi

row_re='^%s\t *[0-9.]+ \+/- [0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  .*$'

t="Audio vs None and Burn: heading and two rows"
out=$(ib -c -t 0.5 -W Audio -w None -w Burn --work-dir "$dir" 2>"$dir/err"); rc=$?
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(cat "$dir/err")"
elif ! printf '%s\n' "$out" | grep -q '^--- Benchmarking simulated cpu of Audio in the presence of simulated ---$'; then
	fail "$t" "no heading: $out"
elif ! printf '%s\n' "$out" | grep -qP '^Load\tLatency \+/- SD \(ms\)  Max Latency   % Desired CPU  % Deadlines Met'; then
	fail "$t" "no column header: $out"
elif ! printf '%s\n' "$out" | grep -qP "$(printf "$row_re" None)"; then
	fail "$t" "no None row: $out"
elif ! printf '%s\n' "$out" | grep -qP "$(printf "$row_re" Burn)" ||
	! printf '%s\n' "$out" | grep -qP '^Burn\t.* CPUs(  \[[^]]*\])?$'; then
	fail "$t" "no Burn row with its intensity: $out"
elif ! printf '%s\n' "$out" | grep -q '^Using CPU time as work, running every load for 0.5 seconds$'; then
	fail "$t" "no header: $out"
else
	pass "$t"
fi

t="no process left after a run"
if no_leftovers 2; then pass "$t"; else fail "$t" "left:$(leftovers)"; fi

t="-c writes no log; the work directory is left clean"
if [ -n "$(ls -A "$dir" | grep -v '^err$')" ]; then
	fail "$t" "left: $(ls -A "$dir")"
else
	pass "$t"
fi

t="the log gets the same table, appended"
rel=$(uname -r)
ib -t 0.5 -W Audio -w None --work-dir "$dir" -m first >"$dir/out1" 2>/dev/null
ib -t 0.5 -W Audio -w None --work-dir "$dir" -m second >"$dir/out2" 2>/dev/null
if [ ! -f "$dir/$rel.log" ]; then
	fail "$t" "no $rel.log"
elif ! cat "$dir/out1" "$dir/out2" | cmp -s - "$dir/$rel.log"; then
	fail "$t" "log differs from stdout: $(diff <(cat "$dir/out1" "$dir/out2") "$dir/$rel.log" | head -5)"
elif [ "$(grep -c '^Comment: ' "$dir/$rel.log")" != 2 ]; then
	fail "$t" "comments missing"
else
	pass "$t"
fi
rm -f "$dir/$rel.log"

t="Gaming has no deadline column; X and Video run as loads"
out=$(ib -c -t 0.5 -W Gaming -w X -w Video --work-dir "$dir" 2>&1); rc=$?
if [ $rc != 0 ] || ! printf '%s\n' "$out" | grep -qP '^Load\tLatency \+/- SD \(ms\)  Max Latency   % Desired CPU  Load intensity$'; then
	fail "$t" "rc=$rc: $out"
elif ! printf '%s\n' "$out" | grep -qP '^X\t.* % CPU(  \[[^]]*\])?$' || ! printf '%s\n' "$out" | grep -qP '^Video\t.* % CPU(  \[[^]]*\])?$'; then
	fail "$t" "load rows: $out"
else
	pass "$t"
fi

t="Custom -C 20 -I 5000 as benchmark and load"
out=$(ib -c -t 0.5 -C 20 -I 5000 -W Custom -W Audio -w None -w Custom --work-dir "$dir" 2>&1); rc=$?
if [ $rc = 0 ] && printf '%s\n' "$out" | grep -q 'simulated cpu of Custom' &&
	printf '%s\n' "$out" | grep -qP '^Custom\t'; then
	pass "$t"
else
	fail "$t" "rc=$rc: $out"
fi

t="-r prints microseconds and real time"
if ! is_root; then
	skip "$t" "needs root for SCHED_FIFO"
else
	out=$(ib -c -r -t 0.5 -W Audio -w None --work-dir "$dir" 2>&1); rc=$?
	if [ $rc = 0 ] && printf '%s\n' "$out" | grep -q 'of Audio real time in the presence' &&
		printf '%s\n' "$out" | grep -q 'Latency +/- SD (us)' &&
		printf '%s\n' "$out" | grep -qP "$(printf "$row_re" None)"; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $out"
	fi
fi

t="nice levels appear in the heading"
out=$(ib -c -t 0.5 -B 5 -N 10 -W Audio -w None --work-dir "$dir" 2>&1)
if printf '%s\n' "$out" | grep -q '^--- Benchmarking simulated cpu of Audio nice 5 in the presence of simulated nice 10 ---$'; then
	pass "$t"
else
	fail "$t" "$out"
fi

t="a benchmark whose only load is itself: no table, said on stderr"
out=$(ib -c -t 0.2 -W Audio -W Video -w Video --work-dir "$dir" 2>"$dir/err"); rc=$?
if [ $rc = 0 ] && grep -q '^--- Benchmarking simulated cpu of Audio ' <<<"$out" &&
	! grep -q 'simulated cpu of Video' <<<"$out" &&
	grep -q '^interbench: warning: Video: no table, as the only load selected is itself' "$dir/err"; then
	pass "$t"
else
	fail "$t" "rc=$rc: $out $(cat "$dir/err")"
fi

t="nothing left after all core runs"
if no_leftovers 2; then pass "$t"; else fail "$t" "left:$(leftovers)"; fi


# The unit program reads its goldens from ./tests/golden: a copy of them here is rewritten,
# never the tree's.
t="GOLDEN_UPDATE=1 rewrites the golden files and fails each check that did, saying so"
mkdir -p "$dir/gu/tests" && cp -r "$TOP/tests/golden" "$TOP/tests/fixtures" "$dir/gu/tests/" &&
	rm -f "$dir/gu/tests/golden/run-a.log"
out=$(cd "$dir/gu" && GOLDEN_UPDATE=1 timeout 120 "$TOP/build/tests/unit" 2>&1)
nre=$(grep -c '^FAIL .* rewritten (GOLDEN_UPDATE=1): read its diff' <<<"$out")
ngold=$(find "$TOP/tests/golden" -type f | wc -l)
if [ "$nre" != "$ngold" ]; then
	fail "$t" "$nre of $ngold rewritten: $(grep -c '^PASS' <<<"$out") passes"
elif ! cmp -s "$dir/gu/tests/golden/run-a.log" "$TOP/tests/golden/run-a.log" ||
	! diff -rq "$dir/gu/tests/golden" "$TOP/tests/golden" >/dev/null; then
	fail "$t" "the rewritten goldens differ from the tree's: $(diff -rq "$dir/gu/tests/golden" "$TOP/tests/golden" | head -3)"
else
	pass "$t ($nre files)"
fi
