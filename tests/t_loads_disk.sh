#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_loads_disk.sh - the loads and the disk: Read really reading the disk
# (the device's own count of reads against the load's), and a stop while the
# Read file is made, out within 1 s with nothing left.
# run-quiet: the disk's own count of reads is system-wide; the 8 GiB file's writes would slow the side-by-side scripts
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/loads_lib.sh"

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

# ---- a stop signal while the Read file is being made ----

t="SIGINT while the Read file is filled: out within 1 s, nothing left"
avail=$(( $(stat -f -c '%a * %S' "$dir") / 1048576 ))
if [ "$avail" -lt 16384 ]; then
	skip "$t" "needs 16 GiB free in $dir, has $avail MiB"
else
	"$IB" -c -t 1 -W Audio -w Read --file-mib 8192 --work-dir "$dir" >/dev/null 2>&1 &
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
