# SPDX-License-Identifier: GPL-2.0-or-later
# bench/soak.sh - the soak section of bench/run.sh (sourced by it): a long
# unattended run's resources, row by row: peak RSS, open fds, bytes written,
# processes left. Written into its own part of BENCHMARKS.md.
# shellcheck shell=bash

SOAK_T=0.2			# seconds a row
SOAK_SETTLE_MS=100		# the load alone before each row (test-only variable)
if [ "$QUICK" = 1 ]; then SOAK_REP=2; else SOAK_REP=5; fi

# What /proc says of process $1: VmHWM (KiB), wchar (bytes), open fds. The
# wchar of its one thread, not the process's: that one adds the I/O of the
# children it has reaped, the loads' (Write writes tens of MB a row).
soak_sample() {
	local hwm wchar fds
	hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	wchar=$(awk '/^wchar:/ { print $2 }' "/proc/$1/task/$1/io" 2>/dev/null)
	fds=$(find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
	[ -n "$hwm" ] && [ -n "$wchar" ] && printf '%s %s %s\n' "$hwm" "$wchar" "$fds"
}

# The default matrix, -t $SOAK_T --repeat $SOAK_REP, JSON and CSV; one line
# "rows hwm wchar fds" into soak.txt each time the CSV gains a row, and the
# last sample before the orchestrator exits as "end ...".
soak_run() {
	local d=$W/soak pid rows=0 n s last="" i left=""
	mkdir -p "$d"
	step "soak: the default matrix, -t $SOAK_T --repeat $SOAK_REP"
	SOAK_PER_PASS=$("$IB" --dry-run -t "$SOAK_T" 2>/dev/null | sed -n 's/^\([0-9]*\) rows.*/\1/p')
	INTERBENCH_TEST_SETTLE_MS=$SOAK_SETTLE_MS setsid "$IB" -c -q --work-dir "$d" \
		-t "$SOAK_T" --repeat "$SOAK_REP" --json "$d/r.json" --csv "$d/r.csv" \
		>"$d/out" 2>"$d/err" &
	pid=$!
	: >"$W/soak.txt"
	while kill -0 "$pid" 2>/dev/null; do
		n=$(($({ wc -l <"$d/r.csv"; } 2>/dev/null || echo 1) - 1))
		s=$(soak_sample "$pid") && last=$s
		if [ "$n" -gt "$rows" ] && [ -n "$s" ]; then
			echo "$n $s" >>"$W/soak.txt"
			rows=$n
		fi
		sleep 0.02
	done
	wait "$pid"
	SOAK_RC=$?
	echo "end $last" >>"$W/soak.txt"
	for ((i = 0; i < 40; i++)); do	# what is left of the run's session, after up to 2 s
		left=$(ps -e -o sid=,pid=,comm= | awk -v s="$pid" '$1 == s { printf " %s:%s", $2, $3 }')
		[ -z "$left" ] && break
		sleep 0.05
	done
	SOAK_LEFT=$(wc -w <<<"$left")
	SOAK_ROWS=$(($({ wc -l <"$d/r.csv"; } 2>/dev/null || echo 1) - 1))
	SOAK_JSON_BYTES=$(stat -c %s "$d/r.json" 2>/dev/null || echo NA)
	SOAK_CSV_BYTES=$(stat -c %s "$d/r.csv" 2>/dev/null || echo NA)
	SOAK_SHADOWS=$(find "$d" -maxdepth 1 -name '.r.*' | wc -l)
	SOAK_ERR=$(tail -1 "$d/err" 2>/dev/null)
}

# A column ($2: 1 rows, 2 hwm, 3 wchar, 4 fds) of the sample taken at row $1 (or the first
# after it); of the last sample, before the exit.
soak_at() { awk -v r="$1" -v c="$2" '$1 != "end" && $1 >= r { print $c; exit }' "$W/soak.txt"; }
soak_end() { awk -v c="$1" '$1 == "end" { print $c }' "$W/soak.txt"; }

# Per pass (the same rows each time): "pass first-last bytes bytes_a_row" lines.
soak_passes() {
	local p r w r_prev w_prev
	r_prev=$(awk '$1 != "end" { print $1; exit }' "$W/soak.txt")
	w_prev=$(soak_at "$r_prev" 3)
	for ((p = 1; p <= SOAK_REP; p++)); do
		r=$(soak_at $((p * SOAK_PER_PASS)) 1)
		w=$(soak_at $((p * SOAK_PER_PASS)) 3)
		[ -n "$w" ] && [ "$r" -gt "$r_prev" ] || break
		echo "$p $((r_prev + 1)) $r $((w - w_prev)) $(((w - w_prev) / (r - r_prev)))"
		r_prev=$r w_prev=$w
	done
}

# The report: a markdown section on stdout.
soak_report() {
	local at10 hwm_end grow per_row fd10 fd_end fd_max passes first lastp lin
	IB_VER=${IB_VER:-$("$IB" --version 2>/dev/null | head -1)}
	GIT_REV=${GIT_REV:-$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo "?")}
	at10=$(soak_at 10 2)
	hwm_end=$(soak_end 2)
	fd10=$(soak_at 10 4)
	fd_end=$(soak_end 4)
	fd_max=$(awk '$1 != "end" && $4 > m { m = $4 } END { print m + 0 }' "$W/soak.txt")
	grow=$(awk -v a="$at10" -v b="$hwm_end" 'BEGIN { if (a == "" || b == "") print "NA"; else print b - a }')
	per_row=$(awk -v g="$grow" -v n="$SOAK_ROWS" 'BEGIN { if (g == "NA" || n <= 10) print "NA"; else printf "%.0f", g * 1024 / (n - 10) }')
	passes=$(soak_passes)
	first=$(awk '$1 == 1 { print $5 }' <<<"$passes")
	lastp=$(awk '$1 != "end" { v = $5 } END { print v }' <<<"$passes")
	lin=$(awk '$1 != "end" { if (!n++ || $5 < lo) lo = $5; if ($5 > hi) hi = $5 }
		END { if (!n || !lo) print "NA"; else printf "%.2f", hi / lo }' <<<"$passes")
	echo "Measured $DATE by \`bench/run.sh$([ "$QUICK" = 1 ] && echo ' --quick')$([ "${SOAK_ONLY:-0}" = 1 ] && echo ' --soak-only')\` ($IB_VER, $GIT_REV) on $CPU_MODEL, $NCPU CPUs, kernel $KREL."
	echo ""
	echo "\`interbench -c -t $SOAK_T --repeat $SOAK_REP --json r.json --csv r.csv\`, the default matrix"
	echo "($SOAK_PER_PASS rows a pass, $SOAK_ROWS rows in all; exit status $SOAK_RC), with the load's"
	echo "second alone cut to $SOAK_SETTLE_MS ms (\`INTERBENCH_TEST_SETTLE_MS\`): the soak measures the"
	echo "orchestrator, not the rows. Sampled from \`/proc/PID\` each time the CSV gained a row,"
	echo "and last just before it exited."
	echo ""
	echo "| | after row 10 (pass 1) | at the end (last pass) | target | |"
	echo "|---|---|---|---|---|"
	echo "| peak RSS (VmHWM) | $at10 KiB | $hwm_end KiB: +$grow KiB, $per_row bytes a row | ≤ 8 KiB a row | $(verdict "$per_row" le 8192) |"
	echo "| open fds | $fd10 | $fd_end (most seen: $fd_max) | flat | $(verdict "$(awk -v a="$fd10" -v b="$fd_max" 'BEGIN { print (a == "" || b == "") ? "NA" : b - a }')" le 4) |"
	echo "| bytes written a row | $first | $lastp (most / least pass: $lin) | the same each pass (≤ 1.2) | $(verdict "$lin" le 1.2) |"
	echo "| processes left after the exit | | $SOAK_LEFT | 0 | $(verdict "$SOAK_LEFT" le 0) |"
	echo "| files at the end | | JSON $SOAK_JSON_BYTES bytes, CSV $SOAK_CSV_BYTES bytes, $SOAK_SHADOWS hidden left | | |"
	echo ""
	echo "Bytes written by the orchestrator (its thread's \`wchar\`: JSON and CSV, the table on"
	echo "stdout, the children's pipes) in each pass, whose rows are the same: linear in the rows"
	echo "when each pass costs the same (a file rewritten whole after every row would cost more"
	echo "each pass). The end writes both files once more whole, with the summary: their sizes."
	echo ""
	echo "| pass | rows | bytes written | bytes a row |"
	echo "|---|---|---|---|"
	awk '{ printf "| %s | %s–%s | %s | %s |\n", $1, $2, $3, $4, $5 }' <<<"$passes"
	echo "| the end: both files once more whole | | $((SOAK_JSON_BYTES + SOAK_CSV_BYTES)) | |"
	if [ -n "$SOAK_ERR" ]; then
		echo ""
		echo "Its last line on standard error: \`$SOAK_ERR\`"
	fi
	echo ""
}
