#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/verdicts.sh - how often are the verdicts wrong, how often do they find an effect, and
# does n10% keep its word? A/A runs give the share of false verdicts, runs with a known
# effect the share found, and a known 10 % effect run at the passes n10% asks for the share
# found then; the report goes into BENCHMARKS.md (between this script's own markers).
set -u -o pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$TOP/bench/lib.sh"

usage() {
	cat <<EOF
Usage: bench/verdicts.sh [--quick] [--sim-only] [--no-write] [--output FILE] [--interbench PATH]
Measures the verdicts' statistics on runs simulated from known laws
(build/bench/verdictsim, a few minutes): does n10% keep its word for counts
(a 10 % higher rate), deadlines (10 % more misses) and latencies, from 5,
10 and 20 passes; does the interval agree with the test under ties; where is
p exact. Then the verdicts of --vary (about 40 minutes):
  - false verdicts: A/A runs (--vary load-nice=0,0), Audio and Video against None
    and Burn, 8 passes of 1 s;
  - power: --vary slice=default,500 and --vary load-nice=0,19, Audio and Video
    against Burn, 5 passes of 2 s, 10 runs each;
  - n10%: Game's frame p99 with --vary fps=60,67 (frames 10 % shorter) against
    Burn, run at the passes a pilot's n10% asks for.
  --quick            short rows and few runs: checks the harness only
  --sim-only         the simulated part alone
$COMMON_USAGE
EOF
}

SIM_ONLY=0
args=()
for a in "$@"; do
	if [ "$a" = --sim-only ]; then SIM_ONLY=1; else args+=("$a"); fi
done
bench_args usage ${args[@]+"${args[@]}"}

if [ "$QUICK" = 1 ]; then
	AA_T=0.3 AA_PASSES=4 AA_RUNS=1 T=0.3 PASSES=3 POWER_RUNS=1 N10_RUNS=1 N10_MAX=4
else
	AA_T=1 AA_PASSES=8 AA_RUNS=5 T=2 PASSES=5 POWER_RUNS=10 N10_RUNS=8 N10_MAX=24
fi
[ -x "$IB" ] || die "$IB not found; run make first"
bench_start verdicts
pct() { awk -v f="$1" -v n="$2" 'BEGIN { printf "%.1f", n ? 100 * f / n : 0 }'; }

# ---- simulated: n10%, the interval, the exact p (its own part of the section) ----
SIM=$TOP/build/bench/verdictsim
[ -x "$SIM" ] || die "$SIM not found; run make build/bench/verdictsim first"
step "simulated runs of known laws"
{
	echo "$(measured_by "bench/verdicts.sh$([ "$SIM_ONLY" = 1 ] && echo ' --sim-only')") Simulated (\`build/bench/verdictsim\`, fixed seeds):"
	echo "for each law, 40 pilots of the passes shown (no change), each pilot's n10% at"
	echo "p <= 0.05, then 400 runs of that many passes with the change (sd 0.02 at 0.8)."
	echo ""
	timeout 1800 "$SIM" || echo "(verdictsim failed)"
} >"$W/sim.md"
cat "$W/sim.md"
if [ "$WRITE" = 1 ]; then
	md_section bench/verdicts.sh "$W/sim.md" "$OUT_MD" "$W/md.sim" simulated
fi
[ "$SIM_ONLY" = 1 ] && exit 0

# One run with --vary of $2 passes of $3 s; its verdicts CSV on stdout, or nothing.
vary_run() {
	local name=$1 passes=$2 t=$3
	shift 3
	rm -f "$W/$name.csv" "$W/$name.verdicts.csv"
	timeout -k 5 1800 "$IB" -c -q -t "$t" --repeat "$passes" --work-dir "$W" \
		--csv "$W/$name.csv" "$@" >"$W/$name.out" 2>"$W/$name.err" &&
		[ -f "$W/$name.verdicts.csv" ] && cat "$W/$name.verdicts.csv"
}

# A verdicts CSV's lines as "cell metric verdict tested p a b n10": by its header's names.
verdict_cols() {
	csv_cols "$1" benchmark load metric verdict tested p a b passes_for_10pct |
		awk -F'\t' '{ gsub(/ /, "_", $3); gsub(/ /, "_", $4)
			print $1 "/" $2, $3, $4, $5, $6, $7, $8, $9 }'
}

say "$(measured_by "bench/verdicts.sh$([ "$QUICK" = 1 ] && echo ' --quick')")"
say ""

# ---- false positives: A/A ----
: >"$W/aa.all"
aa_done=0
for ((i = 1; i <= AA_RUNS; i++)); do
	step "A/A run $i of $AA_RUNS"
	if vary_run "aa$i" "$AA_PASSES" "$AA_T" -W Audio -W Video -w None -w Burn \
		--vary load-nice=0,0 >"$W/aa$i.v"; then
		verdict_cols "$W/aa$i.v" >>"$W/aa.all"
		aa_done=$((aa_done + 1))
	else
		note "A/A run $i failed: $(tail -1 "$W/aa$i.err")"
	fi
done
aa_total=$(grep -c . "$W/aa.all")
# tested: counted in the table's correction (not too few passes, not untestable by its ties)
counted() { awk '$4 == 1 && $3 != "too_few_passes"' "$@"; }
aa_tested=$(counted "$W/aa.all" | grep -c .)
aa_few=$(awk '$3 == "too_few_passes"' "$W/aa.all" | grep -c .)
aa_flag=$(counted "$W/aa.all" | awk '$3 == "better" || $3 == "worse"' | grep -c .)
aa_raw=$(counted "$W/aa.all" | awk '$5 != "NA" && $5 <= 0.05' | grep -c .)
say "**False verdicts (A/A).** $aa_done runs of \`--vary load-nice=0,0\` (the same setting"
say "twice), Audio and Video against None and Burn (a table of 4 cells), $AA_PASSES passes of"
say "$AA_T s: $aa_total verdicts (cells x metrics), $aa_tested of them tested, that is counted"
say "in the table's correction ($aa_few had too few passes for this many tests, the others"
say "nothing to test: the same value in every pass, or ties that leave no p small enough,"
say "Tarone's criterion). Called \`better\` or \`worse\`: **$aa_flag of $aa_tested tested"
say "($(pct "$aa_flag" "$aa_tested") %; target ≤ 5 %)**. Before the correction over the table,"
say "the test itself gave p ≤ 0.05 in $aa_raw of the $aa_tested ($(pct "$aa_raw" "$aa_tested") %;"
say "an exact test gives at most 5 %)."
if [ "$aa_flag" -gt 0 ]; then
	say "The ones called: $(counted "$W/aa.all" | awk '$3 == "better" || $3 == "worse" { printf "%s%s %s %s (p %s)", n++ ? "; " : "", $1, $2, $3, $5 }')."
fi
say ""

# ---- power: known effects ----
# The mean's verdict of run $1 and whether it goes the way the medians do: "better 0.28/0.03 ok".
mean_verdict() {
	awk '$2 == "mean" { dir = ($7 < $6) ? "better" : ($7 > $6) ? "worse" : "same"
		way = ($3 == "better" || $3 == "worse") ? ($3 == dir ? "ok" : "WRONG") : ""
		printf "%s %.3g/%.3g %s\n", $3, $6 / 1e6, $7 / 1e6, way }' "$1"
}
power() {
	local bench=$1 knob=$2 found=0 done=0 wrong=0 runs="" v
	for ((i = 1; i <= POWER_RUNS; i++)); do
		step "power: $bench --vary $knob, run $i of $POWER_RUNS"
		if vary_run "p$i" "$PASSES" "$T" -W "$bench" -w Burn --vary "$knob" >"$W/p$i.v"; then
			verdict_cols "$W/p$i.v" >"$W/p$i.cols"
			v=$(mean_verdict "$W/p$i.cols")
			done=$((done + 1))
			case "$v" in
			*" ok") found=$((found + 1)) ;;
			*" WRONG") wrong=$((wrong + 1)) ;;
			esac
			runs="$runs${runs:+, }$(printf '%s' "$v" | sed 's/no_difference_shown/none/; s/too_few_passes/too-few/; s/ ok$//')"
		else
			note "power run $i failed: $(tail -1 "$W/p$i.err")"
		fi
	done
	say "| $bench | \`--vary $knob\` | $done | **$found of $done** | $wrong | $runs |"
}
say "**Known effects (power).** Against Burn, $PASSES passes of $T s per variant, $POWER_RUNS"
say "runs each; a run finds the effect when its verdict on the mean latency is \`better\`"
say "or \`worse\` in the direction its medians show (target: at least 9 of 10 runs; a call"
say "against the medians would be a wrong one):"
say ""
say "| benchmark | variant B against A | runs | mean called, in the medians' direction | called the wrong way | each run: verdict, median pass mean of A/B (ms) |"
say "|---|---|---|---|---|---|"
for bench in Audio Video; do
	power "$bench" slice=default,500
	power "$bench" load-nice=0,19
done
say ""

# ---- n10%: does running as many passes as it asks find the effect? ----
# Game's frames at 67 fps are 10 % shorter than at 60 (60/67 = 0.896): frame p99 is the
# number with a known change. A pilot of PASSES passes says what n10% asks for; against
# Burn first, else (when it asks more than this bench runs) against None.
n10="" n10_load=""
for load in Burn None; do
	step "n10%: the pilot against $load"
	if vary_run pilot "$PASSES" "$T" -W Game -w "$load" --vary fps=60,67 >"$W/pilot.v"; then
		n10=$(verdict_cols "$W/pilot.v" | awk '$2 == "frame_p99" { print $8 }')
	fi
	n10_load=$load
	[[ $n10 =~ ^[0-9]+$ ]] && [ "$n10" -le "$N10_MAX" ] && break
	say "A pilot against $load asked for ${n10:-no number of} passes of Game's frame p99 for a 10 % change."
done
if ! [[ $n10 =~ ^[0-9]+$ ]] || [ "$n10" -gt "$N10_MAX" ]; then
	say "**Is n10% honest?** Not checked: no pilot asked for $N10_MAX passes or fewer."
else
	found=0 done=0
	for ((i = 1; i <= N10_RUNS; i++)); do
		step "n10%: run $i of $N10_RUNS at $n10 passes against $n10_load"
		if vary_run "n$i" "$n10" "$T" -W Game -w "$n10_load" --vary fps=60,67 >"$W/n$i.v"; then
			done=$((done + 1))
			verdict_cols "$W/n$i.v" | awk '$2 == "frame_p99" && $3 == "better"' | grep -q . &&
				found=$((found + 1))
		fi
	done
	say "**Is n10% honest?** Game against $n10_load, \`--vary fps=60,67\` (frames 10 % shorter:"
	say "frame p99 should be called \`better\`). A pilot of $PASSES passes of $T s said n10% ="
	say "$n10 for frame p99; $done runs of $n10 passes each then called it \`better\` in"
	say "**$found of $done** ($(pct "$found" "$done") %; n10% promises at least 80 %)."
fi
bench_finish bench/verdicts.sh
