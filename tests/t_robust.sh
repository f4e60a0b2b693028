#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_robust.sh - interruptions at any moment, dying and hanging children,
# planted files, no privileges: nothing hangs, nothing is left behind.
# run-first: a long script (15 s or more beside the others)
. "$(dirname "$0")/lib.sh"

# These tests check what is printed, not how the rows performed: the load's
# second alone before each row is cut short (test-only).
export INTERBENCH_TEST_SETTLE_MS=100

top=$(scratch)
trap 'rm -rf "$top"' EXIT
rel=$(uname -r)

# Only our own files may remain: the calibration file and the log.
stray_files() {
	ls -A "$1" | grep -v -E "^(interbench\.loops_per_ms|$rel\.log|out|err)$" || true
}

# interrupt NAME SIGNAL WHO WHEN ARGS...: start a run in a session of its own,
# wait for WHEN (a number of seconds, or a regular expression to see on
# stdout), send SIGNAL to the orchestrator (WHO=proc) or to its whole process
# group as Ctrl-C does (WHO=group), then check what it leaves.
interrupt() {
	local t=$1 sig=$2 who=$3 when=$4; shift 4
	local d pid rc num last
	d=$(mktemp -d "$top/int.XXXXXX")
	setsid "$IB" "$@" --work-dir "$d" >"$d/out" 2>"$d/err" &
	pid=$!
	if [[ $when =~ ^[0-9.]+$ ]]; then
		sleep "$when"
	elif ! wait_for_line "$d/out" "$when" 30 "$pid"; then
		fail "$t" "never saw /$when/: $(tail -3 "$d/out" "$d/err")"
		kill -KILL -- -"$pid" 2>/dev/null; wait $pid
		return
	fi
	if [ "$who" = group ]; then kill -s "$sig" -- -"$pid"; else kill -s "$sig" "$pid"; fi
	wait $pid; rc=$?
	num=$(sig_number "$sig")
	last=$(grep -v '^$' "$d/out" | tail -1)
	if ! no_leftovers 2 "$pid"; then
		fail "$t" "processes left after 2 s:$(leftovers "$pid")"
	elif [ "$rc" != $((128 + num)) ]; then
		fail "$t" "exit status $rc: $(cat "$d/err")"
	elif [[ ! $last =~ ^Interrupted\ by\ signal\ $num\  ]]; then
		fail "$t" "last line of stdout: '$last'"
	elif [ -f "$d/$rel.log" ] && [[ ! $(grep -v '^$' "$d/$rel.log" | tail -1) =~ ^Interrupted ]]; then
		fail "$t" "log does not end with the interruption: $(tail -2 "$d/$rel.log")"
	elif [ -n "$(stray_files "$d")" ]; then
		fail "$t" "files left: $(stray_files "$d")"
	else
		pass "$t"
	fi
}

sig_number() {
	case $1 in
	INT) echo 2 ;; TERM) echo 15 ;; HUP) echo 1 ;; *) kill -l "$1" ;;
	esac
}


interrupt "SIGINT to the process group during calibration" INT group 0.3 \
	-c -b -t 1 -W Audio -w None
# 0.7 s in: past the start and the load's 0.1 s alone, half a second before the row's end
interrupt "SIGTERM to the orchestrator mid-row" TERM proc 0.7 \
	-t 1 -W Audio -w None -w Burn
interrupt "SIGHUP to the orchestrator between rows (log kept)" HUP proc $'^None\t' \
	-t 0.5 -W Audio -w None -w Burn -w X
# 0.5 s in must be inside the settle: the full second of it
INTERBENCH_TEST_SETTLE_MS=1000 \
interrupt "SIGINT to the process group while the load settles" INT group 0.5 \
	-c -t 1 -W Audio -w Burn

# kill_child NAME SIGNAL COMM EXPECT: kill the child named COMM during the first
# row of a two-row run; that row must fail with EXPECT, the next row (against
# Video, a light load: it only has to run) must run. The run has a lock of its
# own: the four cases run side by side, each in a session of its own, and most
# of their time is the grace periods' waiting.
kill_child() {
	local t=$1 sig=$2 comm=$3 expect=$4
	local d pid cpid rc start
	d=$(mktemp -d "$top/kill.XXXXXX")
	start=$SECONDS
	INTERBENCH_TEST_LOCK=$d/lock setsid "$IB" -c -t 1.5 -W Audio -w None -w Video --work-dir "$d" \
		>"$d/out" 2>"$d/err" &
	pid=$!
	cpid=$(await find_proc "$comm" "$pid")
	[ -n "$cpid" ] && sleep 0.5 && kill -s "$sig" "$cpid"
	wait $pid; rc=$?
	if [ -z "$cpid" ]; then
		fail "$t" "no $comm process seen"
	elif [ $rc != 1 ]; then
		fail "$t" "exit status $rc, want 1: $(cat "$d/out" "$d/err")"
	elif ! grep -qP "^None\tfailed: $expect" "$d/out"; then
		fail "$t" "no failed None row: $(cat "$d/out")"
	elif ! grep -qP '^Video\t *[0-9.]+ \+/- ' "$d/out"; then
		fail "$t" "the next row did not run: $(cat "$d/out")"
	elif ! no_leftovers 2 "$pid"; then
		fail "$t" "processes left:$(leftovers "$pid")"
	else
		pass "$t ($((SECONDS - start)) s)"
	fi
	# a stopped child left behind would never end by itself
	kill -KILL -- -"$cpid" 2>/dev/null
}

pids=() n=0
for c in "bench process killed mid-row|KILL|ib-Audio|bench process killed by signal 9 \(SIGKILL\)" \
	"load process killed mid-row|KILL|ibload-None|load process killed by signal 9 \(SIGKILL\)" \
	"stopped bench process is killed after the grace period|STOP|ib-Audio|bench process overran its 1.5 s" \
	"stopped load process is killed when it does not answer|STOP|ibload-None|load process did not answer the stop"; do
	IFS='|' read -r name sig comm expect <<<"$c"
	kill_child "$name" "$sig" "$comm" "$expect" >"$top/kill.$n" &
	pids+=($!) n=$((n + 1))
done
wait "${pids[@]}"
cat "$top"/kill.[0-3]

# Planted symlinks: whatever we create, the target must stay untouched.
t="a symlink planted as the log is not followed"
d=$(mktemp -d "$top/link.XXXXXX")
echo precious >"$top/target"
ln -s "$top/target" "$d/$rel.log"
ib -t 0.2 -W Audio -w None --work-dir "$d" >"$d/out" 2>"$d/err"; rc=$?
if [ $rc != 1 ] || [ "$(cat "$top/target")" != precious ] || ! grep -q 'symlink' "$d/err"; then
	fail "$t" "rc=$rc, target: $(cat "$top/target"), stderr: $(cat "$d/err")"
else
	pass "$t"
fi

t="a hard link planted as the log is not written"
d=$(mktemp -d "$top/hard.XXXXXX")
ln "$top/target" "$d/$rel.log"
ib -t 0.2 -W Audio -w None --work-dir "$d" >"$d/out" 2>"$d/err"; rc=$?
if [ $rc != 1 ] || [ "$(cat "$top/target")" != precious ]; then
	fail "$t" "rc=$rc, target: $(cat "$top/target")"
else
	pass "$t"
fi

# Another user's log in the directory (a run with sudo, then one without, or
# the reverse): the run appends to a log of its own, says where, and
# --compare reads both.
t="another user's log: the run writes <release>-<user>.log, says so, and --compare reads both"
if root_with "$t" setpriv; then
	d=$(mktemp -d "$top/owner.XXXXXX")
	chmod 711 "$top"
	chmod 777 "$d"
	nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	ib -t 0.2 -W Audio -w None --work-dir "$d" >/dev/null 2>&1
	"${nobody[@]}" "$IB" -q -t 0.2 -W Audio -w None --work-dir "$d" >"$d/out" 2>"$d/err"; rc=$?
	other=$d/$rel-$(id -nu 65534).log
	mv "$d/$rel.log" "$d/root-first.log"
	"${nobody[@]}" "$IB" -q -t 0.2 -W Audio -w None --work-dir "$d" >/dev/null 2>&1
	ib -t 0.2 -W Audio -w None --work-dir "$d" >"$d/out2" 2>"$d/err2"; rc2=$?
	"$IB" --compare "$d/root-first.log" "$other" "$d/$rel-root.log" >"$d/cmp" 2>&1; rc3=$?
	if [ $rc != 0 ] || [ ! -s "$other" ] || ! grep -q "belongs to another user: this run's log is $other" "$d/err"; then
		fail "$t" "without root after root: rc=$rc, $(ls "$d"), $(cat "$d/err")"
	elif [ $rc2 != 0 ] || [ ! -s "$d/$rel-root.log" ] || [ "$(stat -c %U "$d/$rel.log")" = root ]; then
		fail "$t" "root after another user: rc=$rc2, $(ls -l "$d"), $(cat "$d/err2")"
	elif [ $rc3 != 0 ] || ! grep -q '^\[3\]' "$d/cmp"; then
		fail "$t" "--compare of the three logs: rc=$rc3, $(head -5 "$d/cmp")"
	else
		pass "$t"
	fi
fi

t="-r with CAP_SYS_NICE but no memory lock: exit 1 before any row, naming what is needed"
if ! is_root || ! command -v setpriv >/dev/null; then
	skip "$t" "it needs root and setpriv (util-linux)"
else
	d=$(mktemp -d "$top/memlock.XXXXXX")
	chmod 711 "$top"
	chmod 777 "$d"
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+sys_nice \
		--ambient-caps=+sys_nice "$IB" -c -t 0.2 -r -W Audio -w None --work-dir "$d" \
		>"$d/out" 2>"$d/err"; rc=$?
	if [ $rc = 1 ] && grep -q 'CAP_IPC_LOCK' "$d/err" && ! grep -q 'Benchmarking simulated' "$d/out"; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $(tail -2 "$d/err") $(grep -c . "$d/out") lines out"
	fi
fi

# One run for both: with --work-dir (a relative path) from a directory of its
# own, and a symlink planted at every name it makes there.
d=$(mktemp -d "$top/wd.XXXXXX"); mkdir "$d/cwd" "$d/work"
for n in interbench.loops_per_ms interbench.read interbench.write interbench.loops_per_ms.XXXXXX; do
	ln -s "$top/target" "$d/work/$n"
done
(cd "$d/cwd" && timeout 60 "$IB" -b -t 0.2 -W Audio -w None --work-dir ../work >/dev/null 2>"$d/err"); rc=$?

t="symlinks planted at every name we use leave their targets untouched"
if [ $rc != 0 ] || [ "$(cat "$top/target")" != precious ]; then
	fail "$t" "rc=$rc, target: $(cat "$top/target"): $(cat "$d/err")"
elif ! grep -q 'not saving it' "$d/err" &&	# an unsettled calibration is never saved
	{ [ -L "$d/work/interbench.loops_per_ms" ] || ! grep -q '^loops_per_ms ' "$d/work/interbench.loops_per_ms"; }; then
	fail "$t" "calibration not saved as a file of its own"
else
	pass "$t"
fi

t="--work-dir takes every file; the current directory stays clean"
if [ $rc != 0 ] || [ -n "$(ls -A "$d/cwd")" ] || [ ! -f "$d/work/$rel.log" ] ||
	{ [ ! -f "$d/work/interbench.loops_per_ms" ] && ! grep -q 'not saving it' "$d/err"; }; then
	fail "$t" "rc=$rc, cwd: $(ls -A "$d/cwd"), work: $(ls -A "$d/work")"
else
	pass "$t"
fi

# No privileges: a normal run warns once; -r says what it needs.
d=$(mktemp -d "$top/nopriv.XXXXXX"); chmod 755 "$top"; chmod 777 "$d"
t="unprivileged: a normal run works, its tasks on their own timers with no warning; --wake waker warns once about its wakers"
as_nobody timeout 60 "$IB" -c -t 0.3 -W Audio -w None --work-dir "$d" \
	>"$d/out" 2>"$d/err"; rc=$?
as_nobody timeout 60 "$IB" -c -t 0.3 -W Audio -w None --wake waker --work-dir "$d" \
	>"$d/wout" 2>"$d/werr"; wrc=$?
if [ $rc != 0 ] || grep -q 'warning: cannot use SCHED_FIFO' "$d/err" ||
	! grep -qP '^None\t' "$d/out"; then
	fail "$t" "rc=$rc: $(cat "$d/err")"
elif [ $wrc != 0 ] || [ "$(grep -c 'warning: cannot use SCHED_FIFO' "$d/werr")" != 1 ] ||
	! grep -qP '^None\t' "$d/wout"; then
	fail "$t" "--wake waker: rc=$wrc: $(cat "$d/werr")"
else
	pass "$t"
fi
t="unprivileged: -r exits 1 naming what it needs"
as_nobody timeout 60 "$IB" -c -r -t 0.3 -W Audio -w None --work-dir "$d" \
	>"$d/out" 2>"$d/err"; rc=$?
if [ $rc = 1 ] && [ "$(wc -l <"$d/err")" = 1 ] && grep -q 'root' "$d/err" &&
	grep -q 'CAP_SYS_NICE' "$d/err" && grep -q 'RLIMIT_RTPRIO' "$d/err"; then
	pass "$t"
else
	fail "$t" "rc=$rc: $(cat "$d/err")"
fi

t="-r warns once when RT throttling could throttle a task"
if ! is_root; then
	skip "$t" "needs root for -r"
elif [ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = -1 ]; then
	skip "$t" "RT throttling is off on this machine"
else
	d=$(mktemp -d "$top/thr.XXXXXX")
	ib -c -r -C 100 -I 10000 -W Custom -w None -t 0.2 --work-dir "$d" >"$d/out" 2>"$d/err"
	ib -c -r -W Audio -w None -t 0.2 --work-dir "$d" >"$d/out2" 2>"$d/err2"
	if [ "$(grep -c 'sched_rt_runtime_us.*Custom needs more' "$d/err")" = 1 ] &&
		! grep -q sched_rt_runtime_us "$d/err2"; then
		pass "$t"
	else
		fail "$t" "Custom 100 %: $(cat "$d/err"); Audio: $(cat "$d/err2")"
	fi
fi

# A full disk: Write, Read and Compile rows finish or are marked, nothing hangs,
# and the filesystem is empty again afterwards.
t="full disk: Write, Read and Compile in a 64 MiB tmpfs finish or are marked"
if ! is_root; then
	skip "$t" "needs root to mount a tmpfs"
else
	mnt=$(mktemp -d "$top/full.XXXXXX")
	if ! mount -t tmpfs -o size=64m ibfull "$mnt" 2>"$top/merr"; then
		skip "$t" "cannot mount a tmpfs: $(cat "$top/merr")"
	else
		start=$SECONDS
		IB_TIMEOUT=60 ib -c -t 0.5 -W Audio -w Write -w Read -w Compile --file-mib 40 \
			--work-dir "$mnt" >"$top/fout" 2>"$top/ferr"; rc=$?
		used=$(stat -f -c '%b %f' "$mnt" | awk '{ print $1 - $2 }')
		rows=$(grep -cP '^(Write|Read|Compile)\t' "$top/fout")
		marked=$(grep -cP '^(Write|Read|Compile)\t.*(No space left on device|failed: )' "$top/fout")
		if [ $rc -ge 2 ] || [ "$rows" != 3 ]; then
			fail "$t" "rc=$rc, rows=$rows: $(cat "$top/fout" "$top/ferr")"
		elif [ "$marked" = 0 ]; then
			fail "$t" "no row says the disk was full: $(cat "$top/fout")"
		elif [ "$used" != 0 ] || [ -n "$(ls -A "$mnt")" ]; then
			fail "$t" "the tmpfs is not empty: $used blocks, $(ls -A "$mnt")"
		elif ! no_leftovers 2; then
			fail "$t" "left:$(leftovers)"
		else
			pass "$t ($marked of 3 rows marked, $((SECONDS - start)) s)"
		fi
		umount "$mnt"
	fi
	rmdir "$mnt"
fi
