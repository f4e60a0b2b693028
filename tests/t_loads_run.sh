#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_loads_run.sh - the loads in whole runs: ENOSPC in a small tmpfs, and
# a run of every load with its intensity.
# run-first: a long script (15 s or more beside the others)
. "$(dirname "$0")/lib.sh"

# The rows are checked for what they print (an intensity, a marked row,
# nothing left), not for how much the load did: the load's second alone
# before each row is cut short (test-only).
export INTERBENCH_TEST_SETTLE_MS=200

. "$(dirname "$0")/loads_lib.sh"

# ---- ENOSPC in a small tmpfs ----

tmpfs_used() { stat -f -c '%b %f' "$1" | awk '{ print $1 - $2 }'; }

mnt=$(mktemp -d "${TMPDIR:-/tmp}/ib-tmpfs.XXXXXX")
why=""
if ! is_root; then
	why="needs root to mount a tmpfs"
elif ! mount -t tmpfs -o size=32m,mode=0700 ibtest "$mnt" 2>"$dir/err"; then
	why="cannot mount a tmpfs: $(cat "$dir/err")"
fi
if [ -n "$why" ]; then
	rmdir "$mnt"
	mnt=""
	for t in "ENOSPC: Write ends with one clear message" "ENOSPC: no room for the Read file" \
		"ENOSPC: a whole run in a 32 MiB work directory"; do
		skip "$t" "$why"
	done
else
	t="ENOSPC: Write ends with one clear message"
	line=$(lr -w Write --file-mib 48 --window-ms 1000 --work-dir "$mnt" 2>/dev/null)
	if [ "$(field status "$line")" != 1 ] || [ "$(field left "$line")" != 0 ] ||
		[ "${line#* reason=}" != "Write load stopped early: write: No space left on device" ]; then
		fail "$t" "$line"
	elif ! holds "$(field stop_ms "$line") <= 1000"; then
		fail "$t" "stop took $(field stop_ms "$line") ms"
	elif [ "$(tmpfs_used "$mnt")" != 0 ] || ! dir_empty "$mnt"; then
		fail "$t" "the tmpfs is not empty: $(tmpfs_used "$mnt") blocks used"
	else
		pass "$t"
	fi

	t="ENOSPC: no room for the Read file"
	# a warning that 48 MiB is more than half the free space may come first
	lr -w Read --file-mib 48 --window-ms 200 --work-dir "$mnt" >/dev/null 2>"$dir/err"; rc=$?
	err=$(grep -v ': warning: ' "$dir/err")
	if [ $rc != 1 ] || [ "$(wc -l <<<"$err")" != 1 ] ||
		! grep -q "cannot make the 48 MiB Read file in $mnt: write: No space left on device" <<<"$err"; then
		fail "$t" "rc=$rc: $err"
	elif [ "$(tmpfs_used "$mnt")" != 0 ] || ! dir_empty "$mnt"; then
		fail "$t" "the tmpfs is not empty"
	else
		pass "$t"
	fi

	t="ENOSPC: a whole run in a 32 MiB work directory"
	auto=$(ib -c -t 0.5 -W Audio -w Write -w Read --work-dir "$mnt" 2>&1); rc1=$?
	full=$(ib -c -t 0.5 -W Audio -w Write -w Read --file-mib 20 --work-dir "$mnt" 2>"$dir/err"); rc2=$?
	err=$(cat "$dir/err")
	ib -c -t 0.5 -W Audio -w Read --file-mib 48 --work-dir "$mnt" >/dev/null 2>"$dir/err"; rc3=$?
	read_err=$(grep -v ': warning: ' "$dir/err")
	# a tmpfs: the rows say that they measured memory
	if [ $rc1 != 0 ] || ! grep -qP '^Write\t.* MiB/s \[memory, not a disk\](  \[[^]]*\])?$' <<<"$auto" ||
		! grep -qP '^Read\t.* MiB/s \[memory, not a disk\](  \[[^]]*\])?$' <<<"$auto"; then
		fail "$t" "sized from free space: rc=$rc1: $auto"
	elif [ $rc2 -ge 2 ] || ! grep -qP '^Write\t.* MiB/s \[memory, not a disk\] \(Write load stopped early: write: No space left on device\)(  \[[^]]*\])?$' <<<"$full" ||
		! grep -qP '^Read\t.* MiB/s \[memory, not a disk\](  \[[^]]*\])?$' <<<"$full"; then
		fail "$t" "--file-mib 20: rc=$rc2: $full $err"
	elif [ $rc3 != 1 ] || [ "$(wc -l <<<"$read_err")" != 1 ] || ! grep -q 'No space left on device' <<<"$read_err"; then
		fail "$t" "--file-mib 48 -w Read: rc=$rc3: $read_err"
	elif [ "$(tmpfs_used "$mnt")" != 0 ] || ! dir_empty "$mnt"; then
		fail "$t" "the tmpfs is not empty: $(ls -A "$mnt")"
	elif ! no_leftovers 2; then
		fail "$t" "left:$(leftovers)"
	else
		pass "$t"
	fi
	umount "$mnt" && rmdir "$mnt" && mnt=""
fi

# ---- Hack: 200 starts and stops ----

# Each stop comes 10 ms into the window, while the first round (some 40 ms of
# messages) is under way.

t="Hack: 200 start/stop cycles, none hangs, nothing left"
start=$SECONDS
out=$(LR_TIMEOUT=150 lr -w Hack --cycles 200 --window-ms 10 --work-dir "$dir" 2>&1); rc=$?
n=$(grep -c '^Hack .* status=0 left=0 ' <<<"$out")
worst=$(sed -n 's/.* stop_ms=\([^ ]*\).*/\1/p' <<<"$out" | sort -g | tail -1)
if [ $rc != 0 ] || [ "$n" != 200 ]; then
	fail "$t" "rc=$rc, $n good cycles of 200: $(grep -v 'status=0 left=0' <<<"$out" | head -3)"
elif ! holds "$worst <= 1000"; then
	fail "$t" "slowest stop $worst ms"
elif ! no_leftovers 2; then
	fail "$t" "left:$(leftovers)"
else
	pass "$t (slowest stop $worst ms, $((SECONDS - start)) s)"
fi

# ---- the whole run: every load, in order, with its intensity ----

# No settle at all: each load's intensity is measured over its row alone.
t="every load in one run: each row has its intensity, nothing left"
out=$(INTERBENCH_TEST_SETTLE_MS=0 IB_TIMEOUT=150 ib -c -t 0.3 -W Audio --work-dir "$dir" \
	2>"$dir/err"); rc=$?
err=$(cat "$dir/err"); rm -f "$dir/err"
rows=$(grep -P '^[A-Za-z]+\t' <<<"$out" | grep -v '^Load' | cut -f1 | tr '\n' ' ')
bad=$(grep -P '^[A-Za-z]+\t' <<<"$out" | grep -v -e '^Load' -e '^None' |
	grep -v -P ' [0-9.e+]+ (MiB/s|msg/s|CPUs|% CPU)(  \[[^]]*\])?$')
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $err $out"
elif [ "$rows" != "None Video X Burn Write Read Ring Compile Memload Hack Net " ]; then
	fail "$t" "rows: $rows"
elif [ -n "$bad" ]; then
	fail "$t" "rows without an intensity: $bad"
elif why=$(left_behind) && [ -n "$why" ]; then
	fail "$t" "$why"
else
	pass "$t"
fi

