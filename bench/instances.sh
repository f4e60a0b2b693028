# SPDX-License-Identifier: GPL-2.0-or-later
# bench/instances.sh - the instances section of bench/run.sh (sourced by it): what the
# harness costs per period and per instance as --instances N grows. Written into its own
# part of BENCHMARKS.md.
# shellcheck shell=bash

IN_COUNTS="1 2 4 8"
IN_CHAINS="Game AudioGraph"
IN_CHAIN_COUNTS="1 2 4"
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

# One row of -W $1 -w None --instances $2 (CSV and JSON into $W/in/r.*), polled from /proc
# while it runs: prints "orch_ns wakers_ns wakers_seen", the orchestrator's main thread's
# CPU at its last sample before it exits, and each ib-waker thread's last CPU, summed
# (and each thread named $3, when given, counted with them).
instances_poll() {
	local bench=$1 n=$2 also=${3:-ib-waker} d=$W/in pid sid f comm orch=0 last tid sum=0
	declare -A wk=()
	rm -f "$d/r.csv" "$d/r.json"
	ib $((IN_T + 10)) -q -t "$IN_T" -W "$bench" -w None --instances "$n" --csv "$d/r.csv" \
		--json "$d/r.json" >/dev/null 2>"$d/err" &
	pid=$!
	sid=$(in_sid "/proc/$pid/task/$pid")
	while [ -d "/proc/$pid/task/$pid" ]; do
		last=$(in_thread_ns "/proc/$pid/task/$pid") && [ -n "$last" ] && orch=$last
		for f in /proc/[0-9]*/task/*; do
			{ read -r comm <"$f/comm"; } 2>/dev/null || continue
			[ "$comm" = ib-waker ] || [ "$comm" = "$also" ] || continue
			[ "$(in_sid "$f")" = "$sid" ] || continue
			tid=${f##*/}
			last=$(in_thread_ns "$f") && [ -n "$last" ] && wk[$tid]=$last
		done
		sleep 0.05
	done
	wait "$pid"
	for tid in "${!wk[@]}"; do sum=$((sum + wk[$tid])); done
	echo "$orch $sum ${#wk[@]}"
}

# Audio's row: "N orch_ns wakers_ns periods wakers_seen" into instances.txt.
instances_row() {
	local n=$1 polled
	polled=$(instances_poll Audio "$n")
	csv_cols "$W/in/r.csv" periods_met periods_missed periods_dropped |
		awk -F'\t' -v n="$n" -v p="$polled" \
			'{ split(p, a, " "); printf "%s %s %s %d %d\n", n, a[1], a[2], $1 + $2 + $3, a[3]; exit }' \
			>>"$W/instances.txt"
}

# A chain's row: "CHAIN N orch_ns wakers_ns hops beyond_ns threads_seen" into
# instances-chain.txt. hops: every hop's wake-ups of all copies (JSON's hops' wakeups);
# beyond_ns: the CPU its working threads used beyond their work, task_cpu_ns x
# (1 - 1 / work_ratio). AudioGraph's driver does no work, so task_cpu_ns leaves it out:
# it is polled with the wakers.
instances_chain_row() {
	local chain=$1 n=$2 polled hops also=ib-waker
	[ "$chain" = AudioGraph ] && also=ib-AG-driver
	polled=$(instances_poll "$chain" "$n" "$also")
	hops=$(grep -o '"wakeups": *[0-9]*' "$W/in/r.json" 2>/dev/null |
		awk '{ s += $2 } END { printf "%d", s }')
	csv_cols "$W/in/r.csv" task_cpu_ns work_ratio |
		awk -F'\t' -v c="$chain" -v n="$n" -v p="$polled" -v h="$hops" \
			'{ split(p, a, " "); b = $2 > 0 ? $1 * (1 - 1 / $2) : 0
			   printf "%s %s %s %s %d %.0f %d\n", c, n, a[1], a[2], h, b, a[3]; exit }' \
			>>"$W/instances-chain.txt"
}

instances_run() {
	local n c
	mkdir -p "$W/in"
	: >"$W/instances.txt"
	: >"$W/instances-chain.txt"
	for n in $IN_COUNTS; do
		step "instances: --instances $n"
		instances_row "$n"
	done
	for c in $IN_CHAINS; do
		for n in $IN_CHAIN_COUNTS; do
			step "instances: -W $c --instances $n"
			instances_chain_row "$c" "$n"
		done
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
	echo "set-up; the wakers' is each \`ib-waker\` thread's last sample, summed: none with the"
	echo "default \`--wake timer\`, whose tasks sleep on their own timers. Both are divided by"
	echo "the periods all instances ran (the pooled row's met + missed + dropped, which is"
	echo "periods × N)."
	echo ""
	echo "The chains, per hop: each row is \`-t $IN_T -W CHAIN -w None --instances N\`."
	echo ""
	echo "| chain | N | hops (all instances) | wakers (and drivers) seen | orchestrator and wakers per hop | chain threads beyond their work per hop | harness per hop | ratio to N=1 | target |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk '{ ow = $5 ? ($3 + $4) / $5 : 0; bw = $5 ? $6 / $5 : 0; per = ow + bw
		if ($2 == 1) base[$1] = per
		printf "| %s | %d | %d | %d | %.0f ns | %.0f ns | %.0f ns | %s | ≤ 1.2 |\n",
			$1, $2, $5, $7, ow, bw, per,
			base[$1] ? sprintf("%.2f", per / base[$1]) : "NA" }' "$W/instances-chain.txt"
	echo ""
	echo "A hop is one stamped hand-over (Game: vsync>main, main>job0..2, job>main,"
	echo "main>render, render>comp; AudioGraph: quantum>driver, driver>node0/1,"
	echo "node>mixer, mixer>driver), counted from JSON's \`hops[].wakeups\` summed over"
	echo "the hops of the pooled row. What the chain's threads used beyond their work is"
	echo "\`task_cpu_ns × (1 − 1 / work_ratio)\`: the CPU of every working thread of every"
	echo "copy (the futex and eventfd hand-overs, the stamps, the wake-up split's"
	echo "schedstat reads) less the work they were asked for. AudioGraph's driver does no"
	echo "work, so all its CPU is harness: it is polled from \`/proc\` like the wakers and"
	echo "counted with them. Game's input thread, which samples at 1 kHz and does no work,"
	echo "is the simulated game's and is not counted."
}
