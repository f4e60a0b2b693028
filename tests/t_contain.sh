#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_contain.sh - containers and shared machines: memory and CPU cgroups,
# one run at a time, tmpfs, exit statuses, --compare keeping runs apart (Ctrl-Z
# is in t_tstp.sh). Cgroup checks skip where no controller can be written.
# run-first: a long script (15 s or more beside the others)
. "$(dirname "$0")/lib.sh"

# The rows are checked for what they say, not for their numbers: the load's
# second alone before each row is cut short (test-only).
export INTERBENCH_TEST_SETTLE_MS=100

top=$(scratch)
cgroups=()
cleanup() {
	local c i
	for c in "${cgroups[@]}"; do
		for i in $(seq 50); do rmdir "$c" 2>/dev/null && break; sleep 0.1; done
	done
	rm -rf "$top"
	[ -n "${shm:-}" ] && rm -rf "$shm"
}
trap cleanup EXIT
rel=$(uname -r)

# ---- cgroups: a child of our own cgroup, so nothing else is moved ----

# make_cgroup CONTROLLER FILE: make a new cgroup under ours in which FILE
# (memory.max, cpu.max, or v1's name for it) can be written, as $cg and
# $cgfile; fail if there is none. Not in a subshell: cleanup must see it.
make_cgroup() {
	local ctl=$1 file=$2 line path mnt dir
	if line=$(grep -E "^[0-9]+:([^:]*,)?$ctl(,[^:]*)?:" /proc/self/cgroup); then
		path=${line#*:*:}
		mnt=$(awk -v c="$ctl" '$0 ~ / - cgroup / { n = split($NF, o, ","); for (i = 1; i <= n; i++) if (o[i] == c) { print $5; exit } }' /proc/self/mountinfo)
		# v1 names the file differently
		case $file in
		memory.max) file=memory.limit_in_bytes ;;
		cpu.max) file=cpu.cfs_quota_us ;;
		esac
	elif line=$(grep '^0::' /proc/self/cgroup); then
		path=${line#0::}
		mnt=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
	fi
	[ -n "$mnt" ] || return 1
	[ "$path" = / ] && path=
	dir="$mnt$path/ib-contain.$$.$ctl"
	mkdir "$dir" 2>/dev/null || return 1
	cgroups+=("$dir")
	[ -w "$dir/$file" ] || return 1
	cg=$dir cgfile=$file
}

# cgroup_for T CONTROLLER FILE: make_cgroup for test T, or say why T skips.
cgroup_for() {
	if ! is_root; then
		skip "$1" "needs root to make a cgroup"
	elif make_cgroup "$2" "$3"; then
		return 0
	else
		skip "$1" "no $2 controller that can be written"
	fi
	return 1
}

# one_cpu T RC OUTPUT: a run's header says -L 1 and 1 usable CPU.
one_cpu() {
	if [ "$2" = 0 ] && printf '%s\n' "$3" | grep -q '^Load set to 1 processors' &&
		printf '%s\n' "$3" | grep -q '^CPUs: [0-9]* online, 1 usable'; then
		pass "$1"
	else
		fail "$1" "rc=$2: $(printf '%s\n' "$3" | grep -E '^(Load set|CPUs)')"
	fi
}

# in_cgroup DIR CMD...: run CMD with its process in the cgroup DIR.
in_cgroup() {
	local dir=$1; shift
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$dir" "$@"
}

# The OOM kills a cgroup has seen: v2 memory.events, v1 memory.oom_control.
oom_kills() {
	cat "$1/memory.events" "$1/memory.oom_control" 2>/dev/null | awk '$1 == "oom_kill" { n = $2 } END { print n + 0 }'
}

# Two of the checks go in the background, each run with a run lock of its own,
# while the others go on; their lines come at the end: this one, and the
# --compare of runs apart in -u.

# memload_in T CGROUP: test T, a Memload row in the memory cgroup CGROUP.
memload_in() {
	local t=$1 cg=$2 d rc kills row
	d=$(mktemp -d "$top/mem.XXXXXX")
	INTERBENCH_TEST_LOCK=$d/lock in_cgroup "$cg" timeout -k 5 120 "$IB" -c -t 2 -W Audio \
		-w Memload --work-dir "$d" --json "$d/r.json" >"$d/out" 2>"$d/err"
	rc=$?
	kills=$(oom_kills "$cg")
	row=$(grep -P '^Memload\t' "$d/out")
	if [ $rc != 0 ] || [ "$kills" != 0 ] || [[ $row == *failed* ]] || [[ $row == *stopped* ]]; then
		fail "$t" "rc=$rc oom_kill=$kills row='$row' $(cat "$d/err")"
	elif ! grep -q '^CPUs: .*memory limit: 1024 MiB (' "$d/out" ||
		! grep -q '"memory_limit_bytes": 1073741824' "$d/r.json"; then
		fail "$t" "the limit is not in the context: $(grep '^CPUs' "$d/out")"
	else
		pass "$t (oom_kill $kills; $(printf '%s' "$row" | grep -o '[0-9.]* MiB/s'))"
	fi
}

# compare_u T: test T, --compare of two runs apart in -u.
compare_u() {
	local t=$1 d out rc
	d=$(mktemp -d "$top/cmp.XXXXXX")
	export INTERBENCH_TEST_LOCK=$d/lock
	"$IB" -q -t 0.3 -W Audio -w None -w Burn -m same --work-dir "$d" >/dev/null 2>&1
	"$IB" -q -t 0.3 -W Audio -w None -w Burn -m same -u --work-dir "$d" >/dev/null 2>&1
	out=$("$IB" --compare "$d/$rel.log" 2>&1); rc=$?
	if [ $rc = 0 ] && has_lines "$out" '^Comparing 2 runs' "^\[1\] same, -u 0: [^,]*, kernel $rel," \
		"^\[2\] same, -u 1: [^,]*, kernel $rel," '^  Burn +\[1\] [0-9.]+ CPUs +\[2\] [0-9.]+ CPUs$'; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $out"
	fi
}

later=()
t="a Memload row in a 1 GiB memory cgroup completes with no OOM kill"
if cgroup_for "$t" memory memory.max; then
	echo $((1024 * 1024 * 1024)) >"$cg/$cgfile"
	memload_in "$t" "$cg" >"$top/memload.line" &
	later+=($!)
fi
compare_u "--compare keeps runs with different -u apart and shows the loads' intensity" \
	>"$top/compare_u.line" &
later+=($!)

t="-L defaults to the CPUs a cgroup's quota allows (rounded up)"
if cgroup_for "$t" cpu cpu.max; then
	if [ "$cgfile" = cpu.max ]; then echo "50000 100000" >"$cg/cpu.max"; else echo 50000 >"$cg/$cgfile"; fi
	out=$(in_cgroup "$cg" timeout -k 5 60 "$IB" -c -t 0.3 -W Audio -w None \
		--work-dir "$top" 2>&1)
	one_cpu "$t" $? "$out"
fi

t="-L defaults to the CPUs of our affinity"
if ! command -v taskset >/dev/null; then
	skip "$t" "no taskset"
else
	out=$(taskset -c 0 "$IB" -c -t 0.3 -W Audio -w None --work-dir "$top" 2>&1)
	one_cpu "$t" $? "$out"
fi

# ---- one run at a time ----

t="a second run exits 1 naming the first; --dry-run, --compare, --help need no lock"
d=$(mktemp -d "$top/lock.XXXXXX")
"$IB" -t 1 -W Audio -w None --work-dir "$d" >"$d/out1" 2>"$d/err1" &
pid1=$!
wait_for_line "$d/out1" '^Benchmarking kernel' 20 "$pid1"
"$IB" -c -t 1 -W Audio -w None --work-dir "$top" >"$d/out2" 2>"$d/err2"
rc2=$?
"$IB" --dry-run -t 1 >/dev/null 2>&1; rcd=$?
"$IB" --help >/dev/null 2>&1; rch=$?
"$IB" --compare "$TOP/tests/fixtures/2.6.12.log" >/dev/null 2>&1; rcc=$?
wait $pid1; rc1=$?
if [ $rc2 != 1 ] || [ "$(wc -l <"$d/err2")" != 1 ] || ! grep -q "another interbench run (pid $pid1, started " "$d/err2"; then
	fail "$t" "second run: rc=$rc2: $(cat "$d/err2")"
elif [ $rc1 != 0 ] || [ $rcd != 0 ] || [ $rch != 0 ] || [ $rcc != 0 ]; then
	fail "$t" "first run rc=$rc1, --dry-run $rcd, --help $rch, --compare $rcc: $(cat "$d/err1")"
elif [ -s "$d/out2" ]; then
	fail "$t" "the second run printed: $(head -3 "$d/out2")"
else
	pass "$t"
fi

t="a killed run never blocks the next"
setsid "$IB" -c -t 5 -W Audio -w None --work-dir "$d" >/dev/null 2>&1 &
pid=$!
await find_proc ib-Audio "$pid" >/dev/null	# it holds the lock and has its children
kill -KILL "$pid"; wait $pid 2>/dev/null
out=$("$IB" -c -t 0.3 -W Audio -w None --work-dir "$d" 2>&1); rc=$?
if [ $rc = 0 ] && no_leftovers 2 "$pid"; then
	pass "$t"
else
	fail "$t" "rc=$rc: $out; left:$(leftovers "$pid")"
fi

# The machine's lock is everybody's: a run elsewhere (another suite, a user's) may hold it
# for a while, so a refused try waits and tries again, for up to 30 s, before it skips,
# naming the holder.
t="the machine's lock file names the run holding it"
d=$(mktemp -d "$top/mlock.XXXXXX")
for _ in $(seq 30); do
	env -u INTERBENCH_TEST_LOCK "$IB" -c -t 0.5 -W Audio -w None --work-dir "$d" \
		>"$d/out" 2>"$d/err" &
	pid=$!
	wait_for_line "$d/out" '^Benchmarking kernel' 20 "$pid"
	lock=$(ls /run/lock/interbench.lock /tmp/interbench.lock 2>/dev/null | head -1)
	content=$(cat "$lock" 2>/dev/null)
	wait $pid; rc=$?
	[ $rc = 1 ] && grep -q 'another interbench run' "$d/err" || break
	sleep 1
done
if [ $rc = 1 ] && grep -q 'another interbench run' "$d/err"; then
	holder=$(grep -oE 'pid [0-9]+' "$d/err" | head -1)
	skip "$t" "for 30 s a run outside this script held it: $holder: $(tr '\0' ' ' \
		</proc/"${holder#pid }"/cmdline 2>/dev/null)"
elif [ $rc = 0 ] && [[ $content == "pid $pid"$'\n'"start "* ]]; then
	pass "$t ($lock)"
else
	fail "$t" "rc=$rc, $lock: '$content' $(cat "$d/err")"
fi

# The lock's holder is the kernel's word (/proc/locks), not the file's: the
# file is anybody's to write, and anybody may flock it.
# A run while "$@" (flock(1) with its command) holds lock file $1: the
# holder's pid in holder, the run's words and status in out and rc. The
# holder runs in a session of its own, so that one kill ends it and its child.
run_while_held() {
	local lock=$1
	shift
	setsid "$@" &
	holder=$!
	for _ in $(seq 50); do grep -q " FLOCK .* $holder " /proc/locks && break; sleep 0.05; done
	out=$(INTERBENCH_TEST_LOCK="$lock" "$IB" -c -t 0.3 -W Audio -w None --work-dir "$d" 2>&1)
	rc=$?
	kill -- -"$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
}

t="a lock held by another program is named from the kernel, not from the file's text"
d=$(mktemp -d "$top/flock.XXXXXX")
printf 'pid 1\nstart 5\n' >"$d/lock"
run_while_held "$d/lock" flock -o "$d/lock" sleep 20
if [ $rc = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] &&
	grep -q "is locked by pid $holder (flock, [^)]*), which is not interbench" <<<"$out" &&
	! grep -q 'pid 1[,)]' <<<"$out"; then
	pass "$t"
else
	fail "$t" "rc=$rc: $out"
fi

t="a lock held by another user's process says whose it is"
if root_with "$t" setpriv; then
	lockf=$(mktemp "${TMPDIR:-/tmp}/ib-userlock.XXXXXX") && chmod 666 "$lockf"
	run_while_held "$lockf" setpriv --reuid=65534 --regid=65534 --clear-groups \
		flock -o "$lockf" sleep 20
	rm -f "$lockf"
	if [ $rc = 1 ] && grep -q "is locked by pid $holder (flock, .*, of user 65534), which is not interbench" <<<"$out"; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $out"
	fi
fi

t="two runs never write one log at once (each with a lock of its own)"
d=$(mktemp -d "$top/log.XXXXXX")
INTERBENCH_TEST_LOCK="$d/lock1" "$IB" -t 1 -W Audio -w None --work-dir "$d" \
	>"$d/out1" 2>&1 &
pid1=$!
wait_for_line "$d/out1" '^Benchmarking kernel' 20 "$pid1"
INTERBENCH_TEST_LOCK="$d/lock2" "$IB" -t 0.3 -W Audio -w None --work-dir "$d" \
	>"$d/out2" 2>"$d/err2"
rc2=$?
wait $pid1; rc1=$?
if [ $rc1 = 0 ] && [ $rc2 = 1 ] && grep -q 'being written by another run' "$d/err2" &&
	[ "$(grep -c '^Benchmarking kernel' "$d/$rel.log")" = 1 ]; then
	pass "$t"
else
	fail "$t" "rc $rc1 and $rc2: $(cat "$d/err2")"
fi

# ---- memory instead of a disk ----

t="Read and Write on tmpfs say they measured memory, and a warning says so"
shm=$(mktemp -d /dev/shm/ib-test.XXXXXX 2>/dev/null)
if [ -z "$shm" ] || [ "$(stat -f -c %T "$shm")" != tmpfs ]; then
	skip "$t" "no tmpfs at /dev/shm"
else
	"$IB" -c -t 0.3 -W Audio -w Write -w Read --file-mib 16 --work-dir "$shm" \
		--json "$top/shm.json" >"$top/shm.out" 2>"$top/shm.err"
	rc=$?
	if [ $rc = 0 ] && grep -qP '^Read\t.*MiB/s \[memory, not a disk\](  \[[^]]*\])?$' "$top/shm.out" &&
		grep -qP '^Write\t.*MiB/s \[memory, not a disk\](  \[[^]]*\])?$' "$top/shm.out" &&
		grep -q 'warning: --work-dir .* is on tmpfs' "$top/shm.err" &&
		[ "$(grep -c '"load_medium": "memory"' "$top/shm.json")" = 2 ] &&
		[ -z "$(ls -A "$shm")" ]; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $(cat "$top/shm.out" "$top/shm.err"); left: $(ls -A "$shm")"
	fi
fi

t="Read checks each drop with mincore: it works on a disk, not on tmpfs"
if [ "$(stat -f -c %T "$top")" = tmpfs ] || [ "$(stat -f -c %T "${shm:-/}")" != tmpfs ]; then
	skip "$t" "the scratch directory is on tmpfs, or there is no tmpfs"
else
	d=$(mktemp -d "$top/disk.XXXXXX")
	"$IB" -c -t 0.3 -W Audio -w Read --file-mib 16 --work-dir "$d" \
		--json "$d/r.json" >"$d/out" 2>&1
	rc=$?
	lr() { "$TOP/build/tests/loadrun" -w Read --file-mib 8 --window-ms 300 --work-dir "$1" 2>&1; }
	on_disk=$(lr "$d") on_shm=$(lr "$shm")
	if [ $rc != 0 ] || ! grep -qP '^Read\t.*MiB/s(  \[[^]]*\])?$' "$d/out" ||
		! grep -q '"load_medium": "disk"' "$d/r.json"; then
		fail "$t" "rc=$rc: $(cat "$d/out")"
	elif [[ $on_disk != *" cached=0 "* ]] || [[ $on_shm != *" cached=1 "* ]]; then
		fail "$t" "disk: $on_disk; tmpfs: $on_shm"
	else
		pass "$t"
	fi
fi

# ---- exit statuses: 2 for the command line, 1 for the machine ----

t="a work directory that is missing or not writable exits 1, not 2"
err=$("$IB" -c -t 1 --work-dir "$top/missing" 2>&1 >/dev/null); rc=$?
rc2=1 err2="not root: skipped"
if is_root && command -v setpriv >/dev/null; then
	d=$(mktemp -d "$top/ro.XXXXXX"); chmod 755 "$d"; chmod 711 "$top"
	err2=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$IB" -c -t 1 \
		--work-dir "$d" 2>&1 >/dev/null); rc2=$?
fi
if [ $rc = 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [ $rc2 = 1 ] &&
	{ ! is_root || printf '%s' "$err2" | grep -q 'cannot write in'; }; then
	pass "$t"
else
	fail "$t" "missing: rc=$rc $err; unwritable: rc=$rc2 $err2"
fi

t="--compare reads pipes and /proc files to their end, and refuses devices"
"$IB" --compare /proc/self/status >/dev/null 2>"$top/c1"; r1=$?
"$IB" --compare <(cat "$TOP/tests/fixtures/2.6.12.log") >"$top/c2" 2>&1; r2=$?
"$IB" --compare /dev/zero >/dev/null 2>"$top/c3"; r3=$?
if [ $r1 = 2 ] && grep -q 'not an interbench log' "$top/c1" && [ $r2 = 0 ] &&
	grep -q '^Comparing 1 run' "$top/c2" && [ $r3 = 2 ] && grep -q 'a device' "$top/c3"; then
	pass "$t"
else
	fail "$t" "/proc: $r1 $(cat "$top/c1"); pipe: $r2; /dev/zero: $r3 $(cat "$top/c3")"
fi

wait "${later[@]}"
cat "$top"/memload.line "$top"/compare_u.line 2>/dev/null

t="nothing left behind by the containment checks"
cleanup
left=$(for c in "${cgroups[@]}"; do [ -d "$c" ] && printf ' %s' "$c"; done)
if no_leftovers 2 && [ -z "$left" ]; then pass "$t"; else fail "$t" "left:$(leftovers)$left"; fi
