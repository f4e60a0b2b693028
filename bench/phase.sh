#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/phase.sh - how much does a row's phase against the tick decide its result? Each
# benchmark against Burn, its passes with --period exact and swept side by side in one
# run (ABBA: exact, swept, swept, exact); the CV of the pass means of each; the report
# goes into BENCHMARKS.md (between this script's own markers).
set -u -o pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$TOP/bench/lib.sh"

usage() {
	cat <<EOF
Usage: bench/phase.sh [--quick] [--no-write] [--output FILE] [--interbench PATH]
The pass-to-pass spread of each benchmark against Burn, with exact periods
(0.31's) and with periods swept against the tick (the default), side by side:
10 passes of 2 s each way (about 9 minutes).
  --quick            3 passes of 0.5 s, three benchmarks: checks the harness only
$COMMON_USAGE
EOF
}

bench_args usage "$@"

# Custom at 5 % of 50 ms is Audio's period with the least work: only the period decides.
BENCHES=(Audio Video X ProAudio Render Input "Custom -C 5 -I 50000" Game AudioGraph)
if [ "$QUICK" = 1 ]; then
	T=0.5 HALF=1 BENCHES=(Audio Video "Custom -C 5 -I 50000")
else
	T=2 HALF=5
fi
[ -x "$IB" ] || die "$IB not found; run make first"
bench_start phase

# HALF passes of benchmark $1 (and its options) against Burn in mode $2, appended to
# $W/<name>.<mode> as one pass mean (ns) a line; a chain's frame or cycle p99 beside it.
passes() {
	local name=${1%% *} mode=$2 opts
	read -r -a opts <<<"$1"
	rm -f "$W/run.csv"
	if ! timeout -k 5 600 "$IB" -c -q -t "$T" --repeat "$HALF" -W "${opts[@]}" -w Burn \
		--period "$mode" --work-dir "$W" --csv "$W/run.csv" >"$W/run.out" 2>"$W/run.err"; then
		note "$name --period $mode failed: $(tail -1 "$W/run.err")"
		return
	fi
	csv_cols "$W/run.csv" latency_mean_ns frame_p99_ns cycle_p99_ns >>"$W/$name.$mode"
}

say "$(measured_by "bench/phase.sh$([ "$QUICK" = 1 ] && echo ' --quick')")"
HZ=$(zcat /proc/config.gz 2>/dev/null | sed -n 's/^CONFIG_HZ=//p' | head -1)
say "HZ ${HZ:-unknown}: a swept row's wake-ups step through one tick${HZ:+ ($(awk -v h="$HZ" 'BEGIN { printf "%g ms", 1e3 / h }'))} of phase."
say ""
say "Each benchmark against Burn, $((2 * HALF)) passes of $T s with \`--period exact\` and as"
say "many swept, in the order exact, swept, swept, exact ($HALF passes a run). CV: the SD of"
say "the pass means over their mean; the chains also by their frame or cycle p99."
say ""
say "| benchmark | pass means, exact (µs) | CV exact | pass means, swept (µs) | CV swept |"
say "|---|---|---|---|---|"
for b in "${BENCHES[@]}"; do
	name=${b%% *}
	: >"$W/$name.exact"
	: >"$W/$name.swept"
	for mode in exact swept swept exact; do
		step "$name --period $mode"
		passes "$b" "$mode"
	done
	row="| $name"
	[ "$name" = Custom ] && row="| Custom (5 % of 50 ms)"
	for mode in exact swept; do
		means=$(cut -f1 "$W/$name.$mode" | awk '$1 != "NA" { printf "%s%.0f", n++ ? ", " : "", $1 / 1e3 }')
		cv=$(cut -f1 "$W/$name.$mode" | stats | awk '{ print $4 == "NA" ? "NA" : sprintf("%.0f %%", $4) }')
		chain=$(cut -f2,3 "$W/$name.$mode" | awk -F'\t' '{ print ($1 != "NA" ? $1 : $2) }' |
			stats | awk '$1 > 1 && $4 != "NA" { printf " (p99: %.0f %%)", $4 }')
		row="$row | $means | $cv$chain"
	done
	say "$row |"
done
bench_finish bench/phase.sh
