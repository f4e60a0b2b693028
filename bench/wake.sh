#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/wake.sh - what a wake-up measures: the same periodic task woken by its own timer
# (--wake timer), by 0.31's waker thread (--wake waker) and, as the reference, a plain
# program on its own timer (build/bench/timerref), side by side in one run: under two
# spinning shell loops, and each of Audio, Video and X against Burn. The report goes into
# BENCHMARKS.md (between this script's own markers).
set -u -o pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$TOP/bench/lib.sh"
REF=$TOP/build/bench/timerref
LOADRUN=$TOP/build/tests/loadrun

usage() {
	cat <<EOF
Usage: bench/wake.sh [--quick] [--no-write] [--output FILE] [--interbench PATH]
The same periodic task woken by its own timer, by the waker and by a plain reference
program, interleaved: Custom at 5 % of 50 ms under two spinning shell loops, 10 passes
of 2 s each way; then Audio, Video and X against Burn, 10 passes of 2 s each way, and
the reference in each one's shape beside Burn (about 8 minutes).
  --quick            3 passes of 1 s, Audio only against Burn: checks the harness only
$COMMON_USAGE
EOF
}

bench_args usage "$@"

if [ "$QUICK" = 1 ]; then
	T=1 N=3 HALF=1 BURN_BENCHES=(Audio)
else
	T=2 N=10 HALF=5 BURN_BENCHES=(Audio Video X)
fi
[ -x "$IB" ] || die "$IB not found; run make first"
[ -x "$REF" ] || die "$REF not found; run make build/bench/timerref"
[ -x "$LOADRUN" ] || die "$LOADRUN not found; run make build/tests/loadrun"
bench_start wake
HZ=$(zcat /proc/config.gz 2>/dev/null | sed -n 's/^CONFIG_HZ=//p' | head -1)
TICK_NS=$(awk -v h="${HZ:-250}" 'BEGIN { printf "%d", 1e9 / h }')
SPIN=()
cleanup() {
	[ ${#SPIN[@]} -gt 0 ] && kill "${SPIN[@]}" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

# One interbench pass of $1 (its -W and options, a word each) against load $2 in wake mode
# $3: "mean_ns p99_ns timer_mean_ns" of its first row (the last: the waker's delay, NA in
# timer mode), or "NA NA NA".
ib_pass() {
	local opts load=$2 mode=$3
	read -r -a opts <<<"$1"
	rm -f "$W/p.csv"
	if ! timeout -k 5 $((T + 30)) "$IB" -c -q -t "$T" -W "${opts[@]}" -w "$load" --wake "$mode" \
		--work-dir "$W" --csv "$W/p.csv" >"$W/p.out" 2>"$W/p.err"; then
		note "interbench $1 --wake $mode failed: $(tail -1 "$W/p.err")"
		echo "NA NA NA"
		return
	fi
	csv_cols "$W/p.csv" latency_mean_ns latency_p99_ns timer_mean_ns | head -1 | tr '\t' ' '
}

# One pass of the reference in the shape $1 (its options): "mean_ns p99_ns", or "NA NA".
ref_pass() {
	local opts out
	read -r -a opts <<<"$1"
	out=$(timeout -k 5 $((T + 30)) "$REF" "${opts[@]}" --seconds "$T" --tick-ns "$TICK_NS") ||
		{ note "timerref $1 failed"; echo "NA NA"; return; }
	awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	       print v["mean_ns"], v["p99_ns"] }' <<<"$out"
}

# A variant's passes in file $1 ("mean_ns p99_ns" a line): "means | median | CV | p99s |
# passes with p99 > 2 ms", the means and p99s in µs.
summary() {
	local means p99s med cv over
	means=$(awk '$1 != "NA" { printf "%s%.0f", n++ ? ", " : "", $1 / 1e3 }' "$1")
	p99s=$(awk '$2 != "NA" { printf "%s%.0f", n++ ? ", " : "", $2 / 1e3 }' "$1")
	read -r _ _ _ cv _ med _ < <(cut -d' ' -f1 "$1" | stats)
	over=$(awk '$2 != "NA" && $2 > 2e6 { o++ } $2 != "NA" { n++ } END { printf "%d of %d", o, n }' "$1")
	printf '%s | %s | %s | %s | %s' "$means" "$(us_of "$med")" "$(cv_of "$cv")" "$p99s" "$over"
}
us_of() { awk -v v="$1" 'BEGIN { print v == "NA" ? "NA" : sprintf("%.0f", v / 1e3) }'; }
cv_of() { awk -v v="$1" 'BEGIN { print v == "NA" ? "NA" : sprintf("%.0f %%", v) }'; }
median_of() { cut -d' ' -f1 "$1" | stats | cut -d' ' -f6; }
over_of() { awk '$2 != "NA" && $2 > 2e6 { o++ } END { print o + 0 }' "$1"; }

say "$(measured_by "bench/wake.sh$([ "$QUICK" = 1 ] && echo ' --quick')")"
say ""

# ---- 1. the same task, three ways, under two spinning shell loops ----

CUSTOM="Custom -C 5 -I 50000"
REF_CUSTOM="--period-ns 50000000 --work-pct 5"
for i in 1 2; do
	sh -c 'while :; do :; done' &
	SPIN+=($!)
done
sleep 1
: >"$W/timer" ; : >"$W/waker" ; : >"$W/ref"
for ((i = 1; i <= N; i++)); do
	# each pass in another order, so that a drift of the machine falls on every way alike
	case $((i % 3)) in
	1) order=(timer waker ref) ;;
	2) order=(waker ref timer) ;;
	*) order=(ref timer waker) ;;
	esac
	for way in "${order[@]}"; do
		step "spinners, pass $i/$N: $way"
		if [ "$way" = ref ]; then
			ref_pass "$REF_CUSTOM" >>"$W/ref"
		else
			ib_pass "$CUSTOM" None "$way" >>"$W/$way"
		fi
	done
done
kill "${SPIN[@]}" 2>/dev/null
wait "${SPIN[@]}" 2>/dev/null
SPIN=()

say "### Under two spinning shell loops"
say ""
say "The same task, Custom at 5 % of 50 ms (2.5 ms of thread CPU time a period, swept"
say "against the tick, timer slack 1 ns), under two \`while :; do :; done\` shell loops"
say "at nice 0 started before and running throughout: $N passes of $T s each way, each"
say "pass in another order. *own timer*: \`interbench -W $CUSTOM -w None\` (the"
say "default, \`--wake timer\`); *waker*: the same with \`--wake waker\`; *reference*:"
say "\`build/bench/timerref $REF_CUSTOM\`, a plain program of the same shape that sleeps on"
say "its own \`clock_nanosleep(TIMER_ABSTIME)\`. Latency: from the period's start to the"
say "task running, but for the waker's, which runs from the waker's stamp (its timer's"
say "delay apart, so the waker's figure is the lesser of what its task lived; the row"
say "below it adds the timer's mean back). µs."
say ""
say "| woken by | pass means | median | CV | pass p99s | passes with p99 > 2 ms |"
say "|---|---|---|---|---|---|"
awk '{ print ($1 == "NA" || $3 == "NA") ? "NA NA" : $1 + $3 " NA" }' "$W/waker" >"$W/waker.all"
say "| own timer | $(summary "$W/timer") |"
say "| waker | $(summary "$W/waker") |"
say "| waker, its timer's delay added | $(summary "$W/waker.all") |"
say "| reference | $(summary "$W/ref") |"
say ""
MT=$(median_of "$W/timer") MW=$(median_of "$W/waker") MR=$(median_of "$W/ref")
RT=$(awk -v a="$MT" -v b="$MR" 'BEGIN { print (a == "NA" || b == "NA" || b == 0) ? "NA" : sprintf("%.2f", a / b) }')
RW=$(awk -v a="$MW" -v b="$MR" 'BEGIN { print (a == "NA" || b == "NA" || b == 0) ? "NA" : sprintf("%.2f", a / b) }')
OT=$(over_of "$W/timer") OW=$(over_of "$W/waker") OR=$(over_of "$W/ref")
say "Median pass mean against the reference's: own timer **${RT}×**, waker **${RW}×**."
say "Passes with a p99 above 2 ms: own timer $OT, waker $OW, reference $OR."
say ""
met() { awk -v v="$1" -v l="$2" 'BEGIN { print v == "NA" ? "n/a" : (v <= l ? "met" : "MISSED") }'; }
say "| target | measured | verdict |"
say "|---|---|---|"
say "| own timer: median pass mean within 2× the reference's | ${RT}× | $(met "$RT" 2) |"
say "| own timer: passes with p99 > 2 ms at most the reference's + 2 | $OT against $OR | $(met "$OT" $((OR + 2))) |"
say ""

# ---- 2. Audio, Video and X against Burn: the passes' spread each way ----

# The reference in each benchmark's shape.
ref_shape() {
	case $1 in
	Audio) echo "--period-ns 50000000 --work-pct 5" ;;
	Video) echo "--period-ns 16666667 --work-pct 40" ;;
	X) echo "--x" ;;
	esac
}

for b in "${BURN_BENCHES[@]}"; do
	: >"$W/$b.timer"
	: >"$W/$b.waker"
	: >"$W/$b.ref"
	for mode in timer waker waker timer; do
		step "$b against Burn, --wake $mode, $HALF passes"
		rm -f "$W/r.csv"
		if timeout -k 5 $((HALF * (T + 3) + 60)) "$IB" -c -q -t "$T" --repeat "$HALF" -W "$b" \
			-w Burn --wake "$mode" --work-dir "$W" --csv "$W/r.csv" >"$W/r.out" 2>"$W/r.err"; then
			csv_cols "$W/r.csv" latency_mean_ns latency_p99_ns | tr '\t' ' ' >>"$W/$b.$mode"
		else
			note "$b --wake $mode failed: $(tail -1 "$W/r.err")"
		fi
	done
	step "$b's shape by the reference beside Burn, $N passes"
	"$LOADRUN" --settle-ms 1000 --window-ms $((N * (T * 1000 + 300) + 2000)) --cycles 1 \
		-w Burn --work-dir "$W" >"$W/burn.out" 2>&1 &
	lr=$!
	sleep 1.2
	for ((i = 1; i <= N; i++)); do
		ref_pass "$(ref_shape "$b")" >>"$W/$b.ref"
	done
	wait "$lr"
done

say "### Against Burn: the spread of the passes"
say ""
say "Each benchmark against Burn, $((2 * HALF)) passes of $T s each way, in the order own timer,"
say "waker, waker, own timer ($HALF passes a run); the reference in the benchmark's shape"
say "(Audio: 50 ms at 5 %; Video: 16.7 ms at 40 %; X: frame k of 100 ms needs k % 101 ms)"
say "beside Burn (\`build/tests/loadrun -w Burn\`, the same load, settled 1 s first), $N"
say "passes of $T s. CV: the SD of the pass means over their mean. µs."
say ""
say "| benchmark | woken by | pass means | median | CV | pass p99s | passes with p99 > 2 ms |"
say "|---|---|---|---|---|---|---|"
for b in "${BURN_BENCHES[@]}"; do
	say "| $b | own timer | $(summary "$W/$b.timer") |"
	say "| $b | waker | $(summary "$W/$b.waker") |"
	say "| $b | reference | $(summary "$W/$b.ref") |"
done
bench_finish bench/wake.sh
