#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_loads.sh - every background load started and stopped on its own
# (tests/loadrun drives the real load process): stop latency, intensity,
# leftovers; Read really reading the disk; a
# forced-small Memload; a stop while the Read file is made. ENOSPC and a whole
# run of every load are in t_loads_run.sh.
# run-alone: stop times within 1 s, and the disk's own count of reads (system-wide)
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/loads_lib.sh"

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
why=$(left_behind)
if [ -n "$why" ]; then
	fail "$t" "$why"
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
