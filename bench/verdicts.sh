#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/verdicts.sh - how often are the verdicts wrong? Repeated A/A runs give
# the share of false verdicts, runs with a known effect the share found; the
# report goes into BENCHMARKS.md (between this script's own markers).
set -u -o pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$TOP/bench/lib.sh"
IB=$TOP/interbench
OUT_MD=$TOP/BENCHMARKS.md
QUICK=0
WRITE=1

usage() {
	cat <<EOF
Usage: bench/verdicts.sh [--quick] [--no-write] [--output FILE] [--interbench PATH]
Measures the verdicts of --vary (about 11 minutes): the false ones in A/A runs
(--vary load-nice=0,0, Audio and Video against None and Burn) and how often a
known effect is found (--vary load-nice=0,19 and --vary slice=default,500,
Audio against Burn); 5 passes of 1 s each.
  --quick            short rows and few runs: checks the harness only
  --no-write         print the report only, leave BENCHMARKS.md alone
  --output FILE      write the report into FILE instead of BENCHMARKS.md
  --interbench PATH  the binary to measure (default: ./interbench)
EOF
}


while [ $# -gt 0 ]; do
	case "$1" in
	--quick) QUICK=1 ;;
	--no-write) WRITE=0 ;;
	--output) [ $# -ge 2 ] || die "--output needs a file"; OUT_MD=$2; shift ;;
	--interbench) [ $# -ge 2 ] || die "--interbench needs a path"; IB=$2; shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done

if [ "$QUICK" = 1 ]; then
	T=0.3 PASSES=5 AA_RUNS=1 POWER_RUNS=2
else
	T=1 PASSES=5 AA_RUNS=3 POWER_RUNS=10
fi
[ -x "$IB" ] || die "$IB not found; run make first"
W=$(mktemp -d "${TMPDIR:-/tmp}/ib-verdicts.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$W"' EXIT
REPORT=$W/report.md
T0=$SECONDS
say() { printf '%s\n' "$*" >>"$REPORT"; }
step() { note "[$((SECONDS - T0)) s] $*"; }

# One run with --vary; its verdicts CSV, or nothing when the run failed.
vary_run() {
	local name=$1
	shift
	rm -f "$W/$name.csv" "$W/$name.verdicts.csv"
	timeout -k 5 900 "$IB" -c -q -t "$T" --repeat "$PASSES" --work-dir "$W" \
		--csv "$W/$name.csv" "$@" >"$W/$name.out" 2>"$W/$name.err" &&
		[ -f "$W/$name.verdicts.csv" ] && cat "$W/$name.verdicts.csv"
}

# A verdicts CSV's cell, metric, verdict (13th) and tested (14th: 0 when the
# number was the same in every pass, nothing to test).
verdicts_of() { awk -F, 'NR > 1 { print $1 "/" $2 " " $3 " " ($14 == "0" ? "untested" : $13) }' "$1"; }
# The p (11th) of each tested verdict: the test's own rate, before the correction.
raw_p() { awk -F, 'NR > 1 && $14 == "1" && $11 != "" { print $11 }' "$1"; }
# "no difference shown" as one word for the table: "none".
short() { sed 's/no difference shown/none/; s/too few passes/too-few/'; }

say "Measured $(date -u '+%Y-%m-%d %H:%M') UTC by \`bench/verdicts.sh\` on $(uname -r), $(nproc) CPUs;"
say "load average at the start $(cut -d' ' -f1 /proc/loadavg)."
say ""

# ---- false positives: A/A ----
: >"$W/aa.all"
: >"$W/aa.p"
aa_done=0
for ((i = 1; i <= AA_RUNS; i++)); do
	step "A/A run $i of $AA_RUNS"
	if vary_run "aa$i" -W Audio -W Video -w None -w Burn --vary load-nice=0,0 >"$W/aa$i.v"; then
		verdicts_of "$W/aa$i.v" >>"$W/aa.all"
		raw_p "$W/aa$i.v" >>"$W/aa.p"
		aa_done=$((aa_done + 1))
	else
		note "A/A run $i failed: $(tail -1 "$W/aa$i.err")"
	fi
done
aa_total=$(grep -c . "$W/aa.all")
aa_flag=$(grep -cE ' (better|worse)$' "$W/aa.all")
aa_few=$(grep -c ' too few passes$' "$W/aa.all")
aa_untested=$(grep -c ' untested$' "$W/aa.all")
say "**False verdicts (A/A).** $aa_done runs of \`--vary load-nice=0,0\` (the same"
say "setting twice), Audio and Video against None and Burn, $PASSES passes of $T s:"
say "$aa_total verdicts (cells x metrics), of which $aa_flag called \`better\` or"
say "\`worse\` ($(awk -v f="$aa_flag" -v n="$aa_total" 'BEGIN { printf "%.1f", n ? 100 * f / n : 0 }') %; target <= 5 %); $aa_untested had nothing to test (the"
say "same value in every pass: 100 % deadlines met), and $aa_few were \`too few passes\`"
say "(5 passes cannot pass Benjamini-Hochberg alone among this many tests; only"
say "several small p together could)."
raw_n=$(grep -c . "$W/aa.p")
raw_low=$(awk '$1 <= 0.05' "$W/aa.p" | grep -c .)
say "Before the correction, the test itself gave p <= 0.05 in $raw_low of the $raw_n"
say "tested A/A comparisons ($(awk -v f="$raw_low" -v n="$raw_n" 'BEGIN { printf "%.1f", n ? 100 * f / n : 0 }') %; an exact test gives at most 5 %)."
if [ "$aa_flag" -gt 0 ]; then
	say "The ones called: $(grep -E ' (better|worse)$' "$W/aa.all" | tr '\n' ';' | sed 's/;$//; s/;/; /g')."
fi
say ""

# ---- power: known effects ----
power() {
	local label=$1 knob=$2 found=0 done=0 dirs=""
	for ((i = 1; i <= POWER_RUNS; i++)); do
		step "$label run $i of $POWER_RUNS"
		if vary_run "p$i" -W Audio -w Burn --vary "$knob" >"$W/p$i.v"; then
			local v
			v=$(verdicts_of "$W/p$i.v" | short | awk '$2 == "mean" { print $3 }')
			# and the medians of A's and B's pass means, in ms
			v="$v $(awk -F, '$3 == "mean" { printf "%.3g/%.3g", $6 / 1e6, $7 / 1e6 }' "$W/p$i.v")"
			done=$((done + 1))
			[ "${v%% *}" = better ] && found=$((found + 1))
			dirs="$dirs${dirs:+, }${v:-none}"
		else
			note "$label run $i failed: $(tail -1 "$W/p$i.err")"
		fi
	done
	say "| \`--vary $knob\` | $done | $found of $done | $dirs |"
}
say "**Known effects (power).** Audio against Burn, $PASSES passes of $T s per"
say "variant; a run finds the effect when its verdict on the mean latency of B"
say "against A is \`better\` (target: in at least 9 of 10 runs):"
say ""
say "| variant B against A | runs | mean latency called better | each run's verdict (median pass mean of A/B, ms) |"
say "|---|---|---|---|"
power "load-nice" load-nice=0,19
power "slice" slice=default,500
say ""
say "Took $((SECONDS - T0)) s."

cat "$REPORT"
if [ "$WRITE" = 1 ]; then
	md_section bench/verdicts.sh "$REPORT" "$OUT_MD" "$W/md.new"
	note "report written into $OUT_MD"
fi
