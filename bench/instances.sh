# SPDX-License-Identifier: GPL-2.0-or-later
# bench/instances.sh - the instances section of bench/run.sh (sourced by it): what the
# harness costs per period and per instance as --instances N grows. Written into its own
# part of BENCHMARKS.md.
# shellcheck shell=bash

IN_COUNTS="1 2 4 8"
if [ "$QUICK" = 1 ]; then IN_T=1; else IN_T=3; fi

# A thread's CPU time in ns: schedstat's first field (exact), else utime+stime in ticks.
in_thread_ns() {
	local ss st
	if { read -r ss _ <"$1/schedstat"; } 2>/dev/null && [ -n "$ss" ]; then
		echo "$ss"
	elif st=$(cat "$1/stat" 2>/dev/null); then
		st=${st##*) }
		awk -v t="$(getconf CLK_TCK)" '{ printf "%.0f\n", ($12 + $13) * 1e9 / t }' <<<"$st"
	fi
}

# The session of thread path $1 (/proc/PID/task/TID): its process's, field 6 of stat.
in_sid() {
	local st
	st=$(cat "${1%/task/*}/stat" 2>/dev/null) || return 1
	st=${st##*) }
	awk '{ print $4 }' <<<"$st"
}

# One row of -W Audio -w None --instances $1, polled from /proc while it runs: the
# orchestrator's main thread's CPU at its last sample before it exits, and each ib-waker
# thread's last CPU, summed. "N orch_ns wakers_ns periods" into instances.txt.
instances_row() {
	local n=$1 d=$W/in pid sid f comm orch=0 last tid
	declare -A wk=()
	rm -f "$d/r.csv"
	ib $((IN_T + 10)) -q -t "$IN_T" -W Audio -w None --instances "$n" --csv "$d/r.csv" \
		>/dev/null 2>"$d/err" &
	pid=$!
	sid=$(in_sid "/proc/$pid/task/$pid")
	while [ -d "/proc/$pid/task/$pid" ]; do
		last=$(in_thread_ns "/proc/$pid/task/$pid") && [ -n "$last" ] && orch=$last
		for f in /proc/[0-9]*/task/*; do
			{ read -r comm <"$f/comm"; } 2>/dev/null || continue
			[ "$comm" = ib-waker ] || continue
			[ "$(in_sid "$f")" = "$sid" ] || continue
			tid=${f##*/}
			last=$(in_thread_ns "$f") && [ -n "$last" ] && wk[$tid]=$last
		done
		sleep 0.05
	done
	wait "$pid"
	local sum=0
	for tid in "${!wk[@]}"; do sum=$((sum + wk[$tid])); done
	csv_cols "$d/r.csv" periods_met periods_missed periods_dropped |
		awk -F'\t' -v n="$n" -v o="$orch" -v w="$sum" -v k="${#wk[@]}" \
			'{ printf "%s %s %s %d %d\n", n, o, w, $1 + $2 + $3, k; exit }' >>"$W/instances.txt"
}

instances_run() {
	local n
	mkdir -p "$W/in"
	: >"$W/instances.txt"
	for n in $IN_COUNTS; do
		step "instances: --instances $n"
		instances_row "$n"
	done
}

# The report: a markdown section on stdout.
instances_report() {
	IB_VER=${IB_VER:-$("$IB" --version 2>/dev/null | head -1)}
	GIT_REV=${GIT_REV:-$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo "?")}
	echo "Measured $DATE by \`bench/run.sh$([ "$QUICK" = 1 ] && echo ' --quick')$([ "${IN_ONLY:-0}" = 1 ] && echo ' --instances-only')\` ($IB_VER, $GIT_REV) on $CPU_MODEL, $NCPU CPUs, kernel $KREL."
	echo ""
	echo "| N | periods (all instances) | wakers seen | orchestrator CPU | per period and instance | wakers' CPU | per period and instance | harness per period and instance | ratio to N=1 | target |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk '{ per = $4 ? ($2 + $3) / $4 : 0; if (NR == 1) base = per
		printf "| %d | %d | %d | %.2f ms | %.0f ns | %.2f ms | %.0f ns | %.0f ns | %s | ≤ 1.2 |\n",
			$1, $4, $5, $2 / 1e6, $4 ? $2 / $4 : 0, $3 / 1e6, $4 ? $3 / $4 : 0, per,
			base ? sprintf("%.2f", per / base) : "NA" }' "$W/instances.txt"
	echo ""
	echo "Each row is \`-t $IN_T -W Audio -w None --instances N\`. The orchestrator's CPU is its"
	echo "main thread's (\`/proc/PID/task/PID/schedstat\`, the time on CPU in ns) at the last"
	echo "sample before it exits, polled every 50 ms, so it includes its start and the row's"
	echo "set-up; the wakers' is each \`ib-waker\` thread's last sample, summed. Both are"
	echo "divided by the periods all instances ran (the pooled row's met + missed + dropped,"
	echo "which is periods × N)."
}
