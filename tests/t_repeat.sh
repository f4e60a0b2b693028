#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_repeat.sh - --repeat: whole-matrix passes, a summary with 95 %
# confidence intervals in the text, every pass and the summary in JSON.
. "$(dirname "$0")/lib.sh"

# These tests check what is printed, not how the rows performed: the load's
# second alone before each row is cut short (test-only).
export INTERBENCH_TEST_SETTLE_MS=100

scratch_dir

ib -c -q -t 0.5 --repeat 3 -W Audio -w None -w Burn --work-dir "$dir" \
	--json "$dir/r.json" >"$dir/out" 2>"$dir/err"
rc=$?

t="--repeat 3 runs the whole matrix three times, in passes"
order=$(grep -P '^(None|Burn)\t' "$dir/out" | head -6 | cut -f1 | tr '\n' ' ')
if [ $rc = 0 ] && [ "$order" = "None Burn None Burn None Burn " ] &&
	[ "$(grep -c '^--- Benchmarking simulated cpu of Audio' "$dir/out")" = 3 ]; then
	pass "$t"
else
	fail "$t" "rc=$rc, rows: $order: $(cat "$dir/err")"
fi

t="the summary gives each row's mean latency with lower <= mean <= upper"
rows=$(sed -n '/^--- Summary of 3 passes: simulated cpu of Audio ---$/,/^$/p' "$dir/out" |
	grep -P '^(None|Burn)\t')
bad=$(printf '%s\n' "$rows" | awk -F'\t' '{
	cell = $2; gsub(/[][,]/, " ", cell)
	n = split(cell, f, " ")		# mean, lower, upper, max, cpu, deadlines, passes, n10%
	# n10% of deadlines met is "-" where every pass met them all: no shortfall to grow by 10 %
	if (n != 8 || f[8] !~ /^[0-9]+\/[0-9]+\/([0-9]+|-)$/ || (f[8] ~ /-$/ && f[6] != 100) || f[1] !~ /^[0-9.]+$/ || f[2] !~ /^[0-9.]+$/ || f[3] !~ /^[0-9.]+$/) {
		print "unparsed: " $0; next
	}
	if (!(f[2] + 0 <= f[1] + 0 && f[1] + 0 <= f[3] + 0)) print "out of order: " $0
	if (f[7] != 3) print "passes: " $0
}' 2>&1)
if [ "$(printf '%s\n' "$rows" | grep -c .)" = 2 ] && [ -z "$bad" ]; then
	pass "$t"
else
	fail "$t" "${bad:-no rows}: $(tail -6 "$dir/out")"
fi

t="JSON holds the 3 passes of every row and their summary"
if ! command -v python3 >/dev/null; then
	skip "$t" "python3 is not installed"
else
	msg=$(py3 - "$dir/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
res = d["results"]
for load in ("None", "Burn"):
    passes = sorted(r["pass"] for r in res if r["load"] == load and r["benchmark"] == "Audio")
    assert passes == [1, 2, 3], f"{load} passes {passes}"
assert d["run"]["repeat"] == 3, d["run"]["repeat"]
summ = {s["load"]: s for s in d["summary"]}
for load in ("None", "Burn"):
    s = summ[load]
    means = [r["latency_ns"]["mean"] for r in res if r["load"] == load]
    assert s["passes"] == 3, s
    assert abs(s["latency_mean_ns"] - sum(means) / 3) <= 1e-6 * s["latency_mean_ns"], s
    assert s["latency_mean_ci95_low_ns"] <= s["latency_mean_ns"] <= s["latency_mean_ci95_high_ns"], s
print("ok")
PY
)
	if [ "$msg" = ok ]; then pass "$t"; else fail "$t" "$msg"; fi
fi
