#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_plot_strip.sh - --plot of a run draws a latency-over-time strip per row: valid XML,
# one strip panel per row with a bin per second, a point per second that had wake-ups on each
# of its p50, p99 and max lines, and the row's wake-ups in its bins.
. "$(dirname "$0")/lib.sh"

# What is checked is the drawing, not how the rows performed: the load's
# second alone before each row is cut short (test-only).
export INTERBENCH_TEST_SETTLE_MS=100

scratch_dir

t="--plot of a run: a strip panel per row, a point per second on its p50, p99 and max lines"
ib -t 2 -W Video -w None -w Burn --plot "$dir/p.svg" -c --csv "$dir/r.csv" \
	--work-dir "$dir" >"$dir/out" 2>"$dir/err"
rc=$?
rows=$(grep -cP '^(None|Burn)\t' "$dir/out")
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(cat "$dir/err")"
elif ! command -v python3 >/dev/null; then
	if ! command -v xmllint >/dev/null; then
		skip "$t" "neither python3 nor xmllint"
	elif xmllint --noout "$dir/p.svg"; then
		skip "$t" "no python3: XML checked with xmllint, strips not counted"
	else
		fail "$t" "xmllint refuses the SVG"
	fi
else
	# Per strip panel "LOAD: BINS bins, POINTS": POINTS "2" when each line has a
	# point per second, else what is wrong. An idle Video wakes 60 times a
	# second; under Burn its periods may overrun into the next, which then has
	# no wake-up, so a second may have none: its lines have a point per
	# second that had any (and so may idle Video's on a machine too busy to give it
	# its 40 %, as under the sanitizers beside other tests). Its bins hold the row's wake-ups (samples), less
	# at most the last, woken after the row's last second.
	got=$(py3 - "$dir/p.svg" "$dir/r.csv" 2>&1 <<'EOF'
import csv, re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
samples = {r["load"]: int(float(r["samples"])) for r in csv.DictReader(open(sys.argv[2]))}
for g in ET.parse(sys.argv[1]).getroot().iter(ns + "g"):
    if g.get("class") != "strip":
        continue
    load, counts = g.get("data-load"), [int(c) for c in g.get("data-counts").split()]
    woke = sum(1 for c in counts if c)
    lines = {p.get("data-q"): len(re.findall(r"[ML]-?[0-9.]+,-?[0-9.]+", p.get("d")))
             for p in g.iter(ns + "path") if p.get("class") == "strip-line"}
    bad = []
    if sorted(lines) != ["max", "p50", "p99"]:
        bad.append("lines %s" % sorted(lines))
    bad += ["%s has %d points, %d seconds woke" % (q, n, woke) for q, n in lines.items()
            if n != woke]
    # idle, every second has Video's wake-ups, unless a machine too busy to give it its
    # 40 % kept it overrunning (the row then has far fewer samples than its 120 periods)
    if load == "None" and woke != len(counts) and samples[load] >= 108:
        bad.append("idle seconds without a wake-up: %s" % counts)
    if not samples[load] - 1 <= sum(counts) <= samples[load]:
        bad.append("%d wake-ups in the bins, %d samples" % (sum(counts), samples[load]))
    print("%s: %s bins, %s" % (load, g.get("data-bins"), "; ".join(bad) or "ok"))
EOF
	)
	want="None: 2 bins, ok
Burn: 2 bins, ok"
	if [ "$rows" != 2 ]; then
		fail "$t" "$rows rows, want 2: $(cat "$dir/out")"
	elif [ "$got" != "$want" ]; then
		fail "$t" "strips: '${got:-none}', want '$want'"
	else
		pass "$t"
	fi
fi

t="--vary --plot: a verdicts panel, the variants' passes against A's"
if ! command -v python3 >/dev/null; then
	skip "$t" "python3 is not installed"
else
	INTERBENCH_TEST_SETTLE_MS=0 "$IB" -c -q -t 0.3 --repeat 2 -W Audio -w None \
		--vary load-nice=0,19 --work-dir "$dir" --plot "$dir/v.svg" >"$dir/v.txt" 2>&1
	rc=$?
	got=$(py3 - "$dir/v.svg" <<'EOF2'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
for g in ET.parse(sys.argv[1]).getroot().iter(ns + "g"):
    if g.get("class") == "verdicts":
        print(g.get("data-bench"), "".join(next(g.iter(ns + "text")).itertext()))
EOF2
	)
	if [ $rc = 0 ] && [ "$got" = "Audio Audio: verdicts, each variant's passes against those of A load-nice=0" ]; then
		pass "$t"
	else
		fail "$t" "rc=$rc, panels: '${got:-none}': $(tail -2 "$dir/v.txt")"
	fi
fi
