# SPDX-License-Identifier: GPL-2.0-or-later
# bench/timeline.sh - the timeline section of bench/run.sh (sourced by it): what
# recording each period costs the task, and what --timeline writes. Written into
# its own part of BENCHMARKS.md.
# shellcheck shell=bash

if [ "$QUICK" = 1 ]; then TL_N=2 TL_T=2; else TL_N=5 TL_T=5; fi

# "min–max" of the numbers on stdin, scaled by $1 ("NA" when none).
tl_range() { sort -g | awk -v s="$1" 'NR == 1 { lo = $1 } { hi = $1 } END { if (!NR) print "NA"; else printf "%.4g–%.4g\n", lo / s, hi / s }'; }
# The median of the numbers on stdin ("NA" when none).
tl_median() { sort -g | awk '{ v[++n] = $1 } END { if (!n) print "NA"; else if (n % 2) print v[(n + 1) / 2]; else print (v[n / 2] + v[n / 2 + 1]) / 2 }'; }

# Video against None, -t $TL_T, without and with --timeline, alternated $TL_N
# times: "mode task_cpu_ns_a_period mean_latency_ns" lines into timeline.txt.
timeline_run() {
	local i m d=$W/tl
	mkdir -p "$d"
	: >"$W/timeline.txt"
	TL_REC=$([ -x "$TOP/build/bench/splitcost" ] &&
		timeout --foreground 60 "$TOP/build/bench/splitcost" --record 1000000 2>/dev/null || echo NA NA)
	for ((i = 1; i <= TL_N; i++)); do
		for m in off on; do
			step "timeline cost $i/$TL_N: $m"
			rm -f "$d/r.csv" "$d/t.json"
			# shellcheck disable=SC2046 # one option and its file, or nothing
			ib $((TL_T + 5)) -q -t "$TL_T" -W Video -w None --csv "$d/r.csv" \
				$([ $m = on ] && echo "--timeline $d/t.json") >/dev/null 2>"$d/err"
			csv_cols "$d/r.csv" task_cpu_ns periods_met periods_missed latency_mean_ns |
				awk -F'\t' -v m=$m '$1 != "NA" && $2 + $3 > 0 { printf "%s %.1f %s\n", m, $1 / ($2 + $3), $4; exit }' \
				>>"$W/timeline.txt"
			if [ $m = on ] && [ -f "$d/t.json" ]; then
				TL_BYTES=$(stat -c %s "$d/t.json")
				TL_EVENTS=$(grep -o '"ph":' "$d/t.json" | wc -l)
			fi
		done
	done
}

# The report: a markdown section on stdout.
timeline_report() {
	local cpu_off cpu_on lat_off lat_on rec ref
	read -r rec ref <<<"$TL_REC"
	cpu_off=$(awk '$1 == "off" { print $2 }' "$W/timeline.txt" | tl_median)
	cpu_on=$(awk '$1 == "on" { print $2 }' "$W/timeline.txt" | tl_median)
	lat_off=$(awk '$1 == "off" { print $3 }' "$W/timeline.txt" | tl_median)
	lat_on=$(awk '$1 == "on" { print $3 }' "$W/timeline.txt" | tl_median)
	IB_VER=${IB_VER:-$("$IB" --version 2>/dev/null | head -1)}
	GIT_REV=${GIT_REV:-$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo "?")}
	echo "Measured $DATE by \`bench/run.sh$([ "$QUICK" = 1 ] && echo ' --quick')$([ "${TL_ONLY:-0}" = 1 ] && echo ' --timeline-only')\` ($IB_VER, $GIT_REV) on $CPU_MODEL, $NCPU CPUs, kernel $KREL."
	echo ""
	echo "| | figure | reference, same run | ratio | target | |"
	echo "|---|---|---|---|---|---|"
	echo "| a period's record (\`bench/splitcost --record\`, thread CPU) | $rec ns | getppid(): $ref ns | $(awk -v a="$rec" -v b="$ref" 'BEGIN { if (a == "NA" || !b) print "NA"; else printf "%.3f", a / b }') | under one system call | $(verdict "$(awk -v a="$rec" -v b="$ref" 'BEGIN { if (a == "NA" || !b) print "NA"; else print a / b }')" le 1) |"
	echo "| Video's task CPU a period, with \`--timeline\` (median of $TL_N; range) | $(awk -v v="$cpu_on" 'BEGIN { print v == "NA" ? v : sprintf("%.1f", v / 1000) }') µs ($(awk '$1 == "on" { print $2 }' "$W/timeline.txt" | tl_range 1000)) | without: $(awk -v v="$cpu_off" 'BEGIN { print v == "NA" ? v : sprintf("%.1f", v / 1000) }') µs ($(awk '$1 == "off" { print $2 }' "$W/timeline.txt" | tl_range 1000)) | $(awk -v a="$cpu_on" -v b="$cpu_off" 'BEGIN { if (a == "NA" || b == "NA" || !b) print "NA"; else printf "%.4f", a / b }') | 1 (CPU mode: the work is CPU time) | |"
	echo "| Video's mean wakeup latency, with \`--timeline\` (median of $TL_N; range) | $(awk -v v="$lat_on" 'BEGIN { print v == "NA" ? v : sprintf("%.1f", v / 1000) }') µs ($(awk '$1 == "on" { print $3 }' "$W/timeline.txt" | tl_range 1000)) | without: $(awk -v v="$lat_off" 'BEGIN { print v == "NA" ? v : sprintf("%.1f", v / 1000) }') µs ($(awk '$1 == "off" { print $3 }' "$W/timeline.txt" | tl_range 1000)) | $(awk -v a="$lat_on" -v b="$lat_off" 'BEGIN { if (a == "NA" || b == "NA" || !b) print "NA"; else printf "%.2f", a / b }') | the ranges overlap (noise) | |"
	echo "| one \`-t $TL_T\` row's timeline | ${TL_EVENTS:-NA} events, ${TL_BYTES:-NA} bytes | | $(awk -v a="${TL_BYTES:-NA}" -v b="${TL_EVENTS:-NA}" 'BEGIN { if (a == "NA" || !b) print "NA"; else printf "%.0f bytes an event", a / b }') | | |"
	echo ""
	echo "Rows alternate without and with \`--timeline\` ($TL_N each, \`-t $TL_T -W Video -w None\`)."
	echo "The record is made from stamps the task takes anyway and stored in a ring"
	echo "touched before the row; the file is written by the orchestrator after the row."
	echo ""
}
