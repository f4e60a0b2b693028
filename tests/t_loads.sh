#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_loads.sh - every background load started and stopped on its own
# (tests/loadrun drives the real load process): stop latency, intensity,
# leftovers; a forced-small Memload. Read really reading the disk and a stop
# while the Read file is made are in t_loads_disk.sh; ENOSPC and a whole run
# of every load in t_loads_run.sh.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/loads_lib.sh"

# ---- each load alone ----

# A window of 300 ms: each load is under way (its intensity measured) when it is stopped.
out=$(lr --window-ms 300 -C 20 -I 5000 --work-dir "$dir" 2>&1); rc=$?
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

# ---- Memload, forced small ----

t="Memload --memload-mib 64: stays within 64 MiB, reports its intensity"
lr -w Memload --memload-mib 64 --window-ms 800 --work-dir "$dir" >"$dir/out" 2>&1 &
pid=$!
rss=0
while kill -0 $pid 2>/dev/null; do	# its largest resident size until it ends
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
# resident: most of the 64 MiB (a busy machine may end the window before the last pages are
# touched, and the samples are 50 ms apart), never much more
elif [ "$rss" -lt $(( 48 * 1024 )) ] || [ "$rss" -gt $(( (64 + 48) * 1024 )) ]; then
	fail "$t" "resident $rss kB at most"
else
	pass "$t ($inten MiB/s, ${rss} kB resident)"
fi
