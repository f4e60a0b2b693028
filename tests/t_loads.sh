#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_loads.sh - every background load started and stopped on its own
# (tests/loadrun drives the real load process): stop latency, intensity,
# leftovers; Read really reading the disk; Hack restarted 200 times; ENOSPC in
# a small tmpfs; a forced-small Memload; and a whole run of every load.
. "$(dirname "$0")/lib.sh"

LOADRUN=${LOADRUN:-$TOP/tests/loadrun}
dir=$(scratch)
mnt=""
cleanup() {
	[ -n "$mnt" ] && { umount "$mnt" 2>/dev/null; rmdir "$mnt"; }
	rm -rf "$dir"
}
trap cleanup EXIT

if [ -z "$LPM" ]; then
	LPM=$("$IB" -c -b -t 0.1 -W Audio -w None --work-dir "$dir" 2>/dev/null |
		sed -n 's/^Using \([0-9]*\) loops per ms.*/\1/p')
	rm -f "$dir/interbench.loops_per_ms"
fi

# loadrun with the suite's calibration, bounded in time
lr() { timeout -k 5 "${LR_TIMEOUT:-120}" "$LOADRUN" -l "$LPM" "$@"; }

# the value of key=VALUE in a loadrun line
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

# true when the numbers (any notation) satisfy an awk condition
holds() { awk "BEGIN { exit !($1) }" </dev/null 2>/dev/null; }

# files and bytes in a directory: nothing may be left, not even unnamed
# files still open (those show only in the space used, checked on tmpfs)
dir_empty() { [ -z "$(ls -A "$1")" ]; }

# ---- each load alone ----

out=$(lr --window-ms 1000 -C 20 -I 5000 --work-dir "$dir" 2>&1); rc=$?
for name in None Video X Burn Write Read Ring Compile Memload Hack Net Custom; do
	t="$name alone: stops within 1 s, measured its intensity, left nothing"
	line=$(grep "^$name " <<<"$out")
	stop=$(field stop_ms "$line")
	inten=$(field intensity "$line")
	if [ -z "$line" ]; then
		fail "$t" "no line (rc=$rc): $out"
	elif [ "$(field status "$line")" != 0 ] || [ "$(field left "$line")" != 0 ]; then
		fail "$t" "$line"
	elif ! holds "$stop <= 1000"; then
		fail "$t" "stop took $stop ms"
	elif [ "$name" != None ] && ! holds "$inten > 0"; then
		fail "$t" "intensity $inten: $line"
	else
		[ "$name" = None ] && inten="no intensity" ||
			inten=$(sed 's/.* intensity=\([^ ]*\) \(.*\) stop_ms=.*/\1 \2/' <<<"$line")
		pass "$t ($inten, stop $stop ms)"
	fi
done
t="loads alone: no process and no file left"
if ! no_leftovers 2; then
	fail "$t" "left:$(leftovers)"
elif ! dir_empty "$dir"; then
	fail "$t" "files: $(ls -A "$dir")"
else
	pass "$t"
fi

# ---- Read reads the disk, not the page cache ----

t="Read: the disk under the work directory reads >= 80 % of what the load reports"
dev=$(stat -c %d "$dir")
maj=$(( (dev >> 8) & 0xfff )) min=$(( (dev & 0xff) | ((dev >> 12) & 0xfff00) ))
if [ "$maj" = 0 ] || ! awk -v a="$maj" -v b="$min" '$1 == a && $2 == b { f = 1 } END { exit !f }' /proc/diskstats; then
	skip "$t" "no block device backs $dir (device $maj:$min, $(findmnt -n -o FSTYPE -T "$dir" 2>/dev/null))"
else
	line=$(lr -w Read --window-ms 1500 --disk "$maj:$min" --work-dir "$dir" 2>&1)
	disk=$(field disk_mib "$line") said=$(field reported_mib "$line")
	if [ -z "$said" ] || [ "$(field status "$line")" != 0 ]; then
		fail "$t" "$line"
	elif ! holds "$said > 0 && $disk >= 0.8 * $said"; then
		fail "$t" "device read $disk MiB, the load reported $said MiB"
	else
		pass "$t ($disk of $said MiB)"
	fi
fi

# ---- Hack: 200 starts and stops ----

t="Hack: 200 start/stop cycles, none hangs, nothing left"
start=$SECONDS
out=$(LR_TIMEOUT=150 lr -w Hack --cycles 200 --window-ms 50 --work-dir "$dir" 2>&1); rc=$?
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

# ---- Memload, forced small ----

t="Memload --memload-mib 64: stays within 64 MiB, reports its intensity"
lr -w Memload --memload-mib 64 --window-ms 800 --work-dir "$dir" >"$dir/out" 2>&1 &
pid=$!
rss=0
for _ in $(seq 40); do
	sleep 0.05
	task=$(find_thread ibload-Memload) || continue
	r=$(awk '/^VmRSS:/ { print $2 }' "${task%/task/*}/status" 2>/dev/null)
	[ -n "$r" ] && [ "$r" -gt "$rss" ] && rss=$r
done
wait $pid; rc=$?
line=$(cat "$dir/out"); rm -f "$dir/out"
inten=$(field intensity "$line")
if [ $rc != 0 ] || [ "$(field status "$line")" != 0 ] || ! holds "$inten > 0"; then
	fail "$t" "rc=$rc: $line"
elif [ "$rss" -lt $(( 64 * 1024 )) ] || [ "$rss" -gt $(( (64 + 48) * 1024 )) ]; then
	fail "$t" "resident $rss kB at most"
else
	pass "$t ($inten MiB/s, ${rss} kB resident)"
fi

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
	auto=$(ib -c -t 1 -W Audio -w Write -w Read --work-dir "$mnt" 2>&1); rc1=$?
	full=$(ib -c -t 1 -W Audio -w Write -w Read --file-mib 20 --work-dir "$mnt" 2>"$dir/err"); rc2=$?
	err=$(cat "$dir/err")
	ib -c -t 1 -W Audio -w Read --file-mib 48 --work-dir "$mnt" >/dev/null 2>"$dir/err"; rc3=$?
	read_err=$(grep -v ': warning: ' "$dir/err")
	# a tmpfs: the rows say that they measured memory
	if [ $rc1 != 0 ] || ! grep -qP '^Write\t.* MiB/s \[memory, not a disk\]$' <<<"$auto" || ! grep -qP '^Read\t.* MiB/s \[memory, not a disk\]$' <<<"$auto"; then
		fail "$t" "sized from free space: rc=$rc1: $auto"
	elif [ $rc2 -ge 2 ] || ! grep -qP '^Write\t.* MiB/s \[memory, not a disk\] \(Write load stopped early: write: No space left on device\)$' <<<"$full" ||
		! grep -qP '^Read\t.* MiB/s \[memory, not a disk\]$' <<<"$full"; then
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

# ---- the whole run: every load, in order, with its intensity ----

t="every load in one run: each row has its intensity, nothing left"
out=$(IB_TIMEOUT=150 ib -c -t 1 -W Audio --work-dir "$dir" 2>"$dir/err"); rc=$?
err=$(cat "$dir/err"); rm -f "$dir/err"
rows=$(grep -P '^[A-Za-z]+\t' <<<"$out" | grep -v '^Load' | cut -f1 | tr '\n' ' ')
bad=$(grep -P '^[A-Za-z]+\t' <<<"$out" | grep -v -e '^Load' -e '^None' |
	grep -v -P ' [0-9.e+]+ (MiB/s|msg/s|CPUs|% CPU)$')
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $err $out"
elif [ "$rows" != "None Video X Burn Write Read Ring Compile Memload Hack Net " ]; then
	fail "$t" "rows: $rows"
elif [ -n "$bad" ]; then
	fail "$t" "rows without an intensity: $bad"
elif ! no_leftovers 2; then
	fail "$t" "left:$(leftovers)"
elif ! dir_empty "$dir"; then
	fail "$t" "files: $(ls -A "$dir")"
else
	pass "$t"
fi

# ---- a stop signal while the Read file is being made ----

t="SIGINT while the Read file is filled: out within 1 s, nothing left"
avail=$(( $(stat -f -c '%a * %S' "$dir") / 1048576 ))
if [ "$avail" -lt 16384 ]; then
	skip "$t" "needs 16 GiB free in $dir, has $avail MiB"
else
	"$IB" -l "$LPM" -c -t 1 -W Audio -w Read --file-mib 8192 --work-dir "$dir" >/dev/null 2>&1 &
	pid=$!
	sleep 0.5
	kill -INT $pid
	sent=$(date +%s%N)
	wait $pid; rc=$?
	took=$(( ($(date +%s%N) - sent) / 1000000 ))
	if [ $rc != 130 ]; then
		fail "$t" "rc=$rc"
	elif [ $took -gt 1000 ]; then
		fail "$t" "took $took ms"
	elif ! no_leftovers 2 || ! dir_empty "$dir"; then
		fail "$t" "left:$(leftovers) $(ls -A "$dir")"
	else
		pass "$t ($took ms)"
	fi
fi
