#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_compare.sh - --compare on fixture logs and CSV files (known numbers, changes,
# alignment, repeats, the fork's logs, the warning on runs apart in several settings, bad
# input, mangled input) and --plot as XML.
. "$(dirname "$0")/lib.sh"

# These tests check what is printed, not how the rows performed: the load's
# second alone before each row is cut short (test-only).
export INTERBENCH_TEST_SETTLE_MS=100

FX=$TOP/tests/fixtures
scratch_dir

# The change from $1 to $2 as --compare prints it: "(+33%)", "(-92%)", "(0%)".
chg() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		p = (b / a - 1) * 100; r = (p < 0) ? -int(-p + 0.5) : int(p + 0.5)
		if (r == 0) print "(0%)"; else if (r > 0) printf "(+%d%%)\n", r; else printf "(%d%%)\n", r }'
}

# The lines of one table: from its "--- NAME" title to the blank line after it.
table() {
	awk -v t="--- $1" 'index($0, t) == 1 { on = 1 } on && $0 == "" { exit } on' "$2"
}

# Field $3 (1: the load, 2: run [1], 3: run [2]) of the row of load $2 in table file $1.
cell() {
	awk -F'|' -v l="$2" -v f="$3" '{ n = $1; sub(/ +$/, "", n) } n == l { print $f; exit }' "$1"
}

squeeze() { tr -s ' ' | sed 's/^ //; s/ $//'; }

# Run N's line in --compare's output $2, its wrapped lines joined by a space.
run_text() {
	awk -v n="[$1] " 'index($0, n) == 1 { on = 1; printf "%s", $0; next }
		on && /^(\[|warning|$)/ { exit } on { printf " %s", $0 } END { print "" }' "$2"
}

# The header of --compare's output $1 cut a run's line inside a clause:
# a line of a run that follows one not ending in "," (prints the two).
cut_clause() {
	awk '/^Comparing / { on = 1; next } on && /^(warning|$)/ { exit }
		on && !/^\[/ && prev !~ /,$/ { print prev " / " $0; bad = 1 } { prev = $0 }
		END { exit !bad }' "$1"
}

t="0.31 logs: changes of mean and max against the first run"
out=$dir/old.txt
"$IB" --compare "$FX/2.6.12.log" "$FX/2.6.12-RT-V0.7.51-32.log" >"$out" 2>"$dir/err"; rc=$?
table "Audio real time" "$out" >"$dir/audio"
table "Video real time" "$out" >"$dir/video"
want_none="4.00 +/- 0.74 $(chg 3 4) 9.00 $(chg 5 9) 100 100"
want_mem="7.00 +/- 3.8 $(chg 6 7) 25.0 $(chg 299 25) 100 100"
got_none=$(cell "$dir/audio" None 3 | squeeze)
got_mem=$(cell "$dir/video" Memload 3 | squeeze)
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(cat "$dir/err")"
elif [ "$got_none" != "$want_none" ]; then
	fail "$t" "Audio None: '$got_none', want '$want_none'"
elif [ "$got_mem" != "$want_mem" ]; then
	fail "$t" "Video Memload: '$got_mem', want '$want_mem'"
elif [ "$(cell "$dir/video" Memload 2 | squeeze)" != "6.00 +/- 7.8 299 100 100" ]; then
	fail "$t" "Video Memload of [1]: '$(cell "$dir/video" Memload 2)'"
elif ! grep -q '^\[1\] 2\.6\.12: ' "$out" || ! grep -q '^\[2\] 2\.6\.12-RT-V0\.7\.51-32: ' "$out"; then
	fail "$t" "runs not labelled by kernel release: $(head -3 "$out")"
elif [ -n "$(cell "$dir/video" Video 3)" ]; then
	fail "$t" "a Video row in the Video table"
else
	pass "$t"
fi

t="a path of any length: each run's line begins \"[N] label: FILE,\""
deep=$dir/$(printf 'd%.0s' $(seq 120))
mkdir "$deep" && cp "$FX/2.6.12.log" "$FX/2.6.12-RT-V0.7.51-32.log" "$deep/"
"$IB" --compare "$deep/2.6.12.log" "$deep/2.6.12-RT-V0.7.51-32.log" >"$dir/deep.txt" 2>&1
bad=""
for want in "[1] 2.6.12: $deep/2.6.12.log," \
	    "[2] 2.6.12-RT-V0.7.51-32: $deep/2.6.12-RT-V0.7.51-32.log,"; do
	W=$want awk 'index($0, ENVIRON["W"]) == 1 { f = 1 } END { exit !f }' "$dir/deep.txt" ||
		bad="$bad; no line '$want'"
done
if [ -z "$bad" ]; then pass "$t"; else fail "$t" "${bad#; }: $(head -5 "$dir/deep.txt")"; fi

t="a run's line is cut only after a clause's comma, whatever its path's length"
bad=""
for len in $(seq 1 3 60); do
	d=$dir/cut/$(printf 'c%.0s' $(seq "$len"))
	mkdir -p "$d" && cp "$FX/fork-6.6.32.log" "$FX/ours-before.log" "$d/"
	"$IB" --compare "$d/fork-6.6.32.log" "$d/ours-before.log" >"$dir/cut.txt" 2>&1
	cut=$(cut_clause "$dir/cut.txt") && bad="$bad; at a path of $len more: $cut"
done
if [ -z "$bad" ]; then pass "$t"; else fail "$t" "${bad#; }"; fi

# --compare of the files "$@" into $out, its Audio, Video and Gaming tables
# into $dir/audio, $dir/video and $dir/gaming; bad says so if it failed, else
# is empty, for expect_cell and the other checks to add to.
compare_tables() {
	local rc b
	"$IB" --compare "$@" >"$out" 2>"$dir/err"; rc=$?
	for b in Audio Video Gaming; do
		table "$b:" "$out" >"$dir/${b,,}"
	done
	bad=""
	[ $rc = 0 ] || bad="rc=$rc: $(cat "$dir/err")"
}
expect_cell() {		# table load field want
	local got
	got=$(cell "$1" "$2" "$3" | squeeze)
	[ "$got" = "$4" ] || bad="$bad; $(basename "$1") $2 [$(($3 - 1))]: '$got', want '$4'"
}
# The loads of table file $1, in order, each followed by a space.
row_order() { awk -F'|' '/\|/ && ++k > 2 { n = $1; sub(/ +$/, "", n); printf "%s ", n }' "$1"; }

t="our log against our CSV: changes, missing loads and benchmarks, failed rows"
out=$dir/ours.txt
compare_tables "$FX/ours-before.log" "$FX/ours-after.csv"
expect_cell "$dir/audio" None 3 "0.112 +/- 0.025 $(chg 0.100 0.112) 0.450 $(chg 0.500 0.450) 100 100"
expect_cell "$dir/audio" Video 3 "0.0800 +/- 0.010 $(chg 0.05 0.08) 1.00 $(chg 1 1) 100 100"
expect_cell "$dir/audio" Burn 2 "0.200 +/- 0.30 2.00 99.9 99.5"
expect_cell "$dir/audio" Burn 3 "0.150 +/- 0.20 $(chg 0.2 0.15) 3.00 $(chg 2 3) 100 100"
expect_cell "$dir/audio" X 3 "- - - -"
expect_cell "$dir/audio" Ring 2 "- - - -"
expect_cell "$dir/audio" Write 2 "failed"
expect_cell "$dir/audio" Write 3 "0.400 +/- 0.10 0.900 100 100"
expect_cell "$dir/video" None 3 "0.0400 +/- 0.015 $(chg 0.08 0.04) 1.60 $(chg 0.8 1.6) 100 100"
expect_cell "$dir/video" Burn 3 "5.50 +/- 3.0 (x11) 44.0 (x11) 50.0 25.0"
expect_cell "$dir/gaming" Burn 2 "1.00 +/- 2.0 10.0 66.7"
[ -z "$(cell "$dir/gaming" Burn 3)" ] && grep -q 'Not run here: \[2\]\.' "$dir/gaming" ||
	bad="$bad; the Gaming table shows [2], which ran no Gaming"
order=$(row_order "$dir/audio")
[ "$order" = "None Video X Burn Write Ring " ] || bad="$bad; Audio rows in order '$order'"
[ -z "$(cell "$dir/video" X 1)" ] || bad="$bad; a skipped CSV row became a row"
if [ -z "$bad" ]; then pass "$t"; else fail "$t" "${bad#; }"; fi

t="the fork's log: its tables in ms, the median's run-ins, Gaming without %DL, no unnamed row"
out=$dir/fork.txt
compare_tables "$FX/fork-6.6.32.log" "$FX/ours-before.log"
run_text 1 "$out" | grep -q '^\[1\] fork: .*fork-6\.6\.32\.log, kernel 6\.6\.32-fork, 2025-03-14 15:22, 10 s per row, work: loops, periods: exact, wake: waker$' ||
	bad="$bad; run [1] not labelled by its kernel and datestamp: $(run_text 1 "$out")"
expect_cell "$dir/audio" None 2 "0.0032 +/- 0.0015 0.0470 100 100"
expect_cell "$dir/audio" Burn 2 "0.198 +/- 0.10 0.472 100 100"
expect_cell "$dir/audio" Compile 2 "1.21 +/- 4.4 35.5 99.1 97.3"
expect_cell "$dir/gaming" Burn 2 "0.812 +/- 1.5 23.1 55.2"
grep -q '%DL' "$dir/gaming" && bad="$bad; a %DL column in Gaming"
order=$(row_order "$dir/audio")
[ "$order" = "None Video X Burn Write Read Ring Compile Memload " ] || bad="$bad; Audio rows '$order'"
if [ -z "$bad" ]; then pass "$t"; else fail "$t" "${bad#; }"; fi

t="two of the fork's logs: runs of two kernels side by side"
sed 's/^Benchmarking kernel 6\.6\.32-fork /Benchmarking kernel 6.6.33-fork /;
     s/^None\t   3\.2 +\/- 1\.5432 /None\t   6.4 +\/- 1.5432 /' "$FX/fork-6.6.32.log" >"$dir/fork-b.log"
got=$("$IB" --compare "$FX/fork-6.6.32.log" "$dir/fork-b.log" 2>&1); rc=$?
if [ $rc = 0 ] && has_lines "$got" '^\[2\] 6\.6\.33-fork fork: ' \
	'^None +\| 0\.0032 \+/- 0\.0015 +0\.0470 +100 +100 \| 0\.0064 \+/- 0\.0015 \(\+100%\) '; then
	pass "$t"
else
	fail "$t" "rc=$rc: $(printf '%s\n' "$got" | head -12)"
fi

# The warning's lines as one, for grep.
warning() { awk '/^warning: / { w = 1 } w && /^$/ { exit } w' | tr '\n' ' '; }

t="runs apart in kernel, HZ and preemption: --compare warns and names the three"
sed 's/^Benchmarking kernel 6\.18\.0-test /Benchmarking kernel 6.19.0-test /;
     s/^Preemption: voluntary, HZ 250,/Preemption: full, HZ 1000,/' "$FX/ours-before.log" >"$dir/three.log"
w=$("$IB" --compare "$FX/ours-before.log" "$dir/three.log" 2>&1 | warning)
want="warning: [2] differs from [1] in 3 settings, so a change cannot be put down to one of them: kernel release 6.18.0-test / 6.19.0-test, preemption voluntary / full, HZ 250 / 1000"
case "$w" in
"$want"*) pass "$t" ;;
*) fail "$t" "'$w', want '$want...'" ;;
esac

t="runs apart in the kernel alone: the comparison meant, no warning"
sed 's/^Benchmarking kernel 6\.18\.0-test /Benchmarking kernel 6.19.0-test /' \
	"$FX/ours-before.log" >"$dir/one.log"
out=$("$IB" --compare "$FX/ours-before.log" "$dir/one.log" 2>&1); rc=$?
if [ $rc = 0 ] && ! grep -q '^warning' <<<"$out" && grep -q '^\[2\] 6\.19\.0-test before' <<<"$out"; then
	pass "$t"
else
	fail "$t" "rc=$rc: $(printf '%s\n' "$out" | head -5)"
fi

t="tables aligned: the | of every line of a table at the same columns"
bad=""
for f in "$dir/old.txt" "$dir/ours.txt" "$dir/fork.txt"; do
	r=$(awk '/\|/ { s = ""; for (i = 1; i <= length($0); i++) if (substr($0, i, 1) == "|") s = s " " i
		     if (ref == "") ref = s; else if (s != ref) { print NR ": " $0; exit } next }
		 { ref = "" }' "$f")
	[ -n "$r" ] && bad="$bad $(basename "$f") line $r"
done
if [ -z "$bad" ]; then pass "$t"; else fail "$t" "$bad"; fi

t="two runs fit in 100 columns"
# A path is printed whole, so the fixtures' path counts as the tree's own
# tests/fixtures/ wherever the tree is.
wide=$(cat "$dir/old.txt" "$dir/ours.txt" "$dir/fork.txt" |
	FXP=$FX/ awk '{ p = ENVIRON["FXP"]
			while ((i = index($0, p)))
				$0 = substr($0, 1, i - 1) "tests/fixtures/" substr($0, i + length(p)) }
		      length($0) > 100 { print length($0) ": " $0; exit }')
if [ -z "$wide" ]; then pass "$t"; else fail "$t" "$wide"; fi

t="repeats: changes unmarked, and a line saying how many passes a verdict needs"
out=$dir/rep.txt
"$IB" --compare "$FX/repeat-a.log" "$FX/repeat-b.log" >"$out" 2>"$dir/err"; rc=$?
table "Audio:" "$out" >"$dir/audio"
# [1]: 3 passes of each row; [2]: 3 of None and Burn, 1 of X. No Student-t star
# any more: 3 passes against 3 can never pass the verdicts' bar (3 tests:
# % deadlines met is 100 in every pass, nothing to test).
want_none="0.120 +/- 0.050 (+20%) 0.650 $(chg 0.6 0.65) 100 100"
want_burn="0.270 +/- 0.050 $(chg 0.25 0.27) 2.00 (+100%) 100 100"
want_x="0.500 +/- 0.050 (+400%) 0.900 (+200%) 100 100"
stars=$(awk -F'|' '/\|/ && ++k > 2 { print $3 }' "$dir/audio" | tr -cd '*' | wc -c)
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(cat "$dir/err")"
elif [ "$(cell "$dir/audio" None 3 | squeeze)" != "$want_none" ]; then
	fail "$t" "None: '$(cell "$dir/audio" None 3 | squeeze)', want '$want_none'"
elif [ "$(cell "$dir/audio" Burn 3 | squeeze)" != "$want_burn" ]; then
	fail "$t" "Burn: '$(cell "$dir/audio" Burn 3 | squeeze)', want '$want_burn'"
elif [ "$(cell "$dir/audio" X 3 | squeeze)" != "$want_x" ]; then
	fail "$t" "X: '$(cell "$dir/audio" X 3 | squeeze)', want '$want_x'"
elif [ "$stars" != 0 ]; then
	fail "$t" "$stars marks, want none"
elif ! grep -q 'Passes averaged: \[1\] 3, \[2\] 1-3\.' "$dir/audio" ||
	! tr '\n' ' ' <"$out" | grep -q 'No verdict for Audio: its runs have at most 3 passes of a cell, and with the 3 tests of this comparison a verdict needs 5 of each'; then
	fail "$t" "legend: $(tail -4 "$dir/audio")"
elif ! tr '\n' ' ' <"$out" | grep -q '\[2\] patched: [^[]*kernel 6.18.0-test, [^[]*3 runs pooled'; then
	fail "$t" "the three runs of repeat-b.log not pooled: $(head -3 "$out")"
else
	pass "$t"
fi

t="one log holding two comments is two runs"
{ cat "$FX/ours-before.log"; sed 's/^Comment: before$/Comment: after/' "$FX/ours-before.log"; } \
	>"$dir/both.log"
out=$("$IB" --compare "$dir/both.log" 2>&1); rc=$?
if [ $rc = 0 ] && printf '%s\n' "$out" | grep -q '^\[1\] before: ' &&
	printf '%s\n' "$out" | grep -q '^\[2\] after: ' &&
	printf '%s\n' "$out" | grep -q '^None .*| *0.100 +/- 0.020 (0%) *0.500 (0%)'; then
	pass "$t"
else
	fail "$t" "rc=$rc: $out"
fi

t="one log, runs apart by --fps, -C and -I: three groups, labels say how"
for s in "fps=144 custom_cpu_pct=0 custom_interval_us=0" \
	"fps=60 custom_cpu_pct=0 custom_interval_us=0" \
	"fps=144 custom_cpu_pct=20 custom_interval_us=10000" \
	"fps=144 custom_cpu_pct=0 custom_interval_us=0"; do
	sed "s/^Comment: before\$/Settings: $s\n&/" "$FX/ours-before.log"
done >"$dir/tasks.log"
out=$("$IB" --compare "$dir/tasks.log" 2>&1); rc=$?
flat=$(printf '%s\n' "$out" | tr '\n' ' ')
if [ $rc = 0 ] && has_lines "$flat" '\[1\] [^:]*, --fps 144 -C 0 -I 0: [^[]*2 runs' &&
	has_lines "$out" '^Comparing 3 runs' '^\[2\] before, --fps 60 -C 0 -I 0: ' \
		'^\[3\] before, --fps 144 -C 20 -I 10000: '; then
	pass "$t"
else
	fail "$t" "rc=$rc: $(printf '%s\n' "$out" | head -7)"
fi

t="a log of many runs: --runs picks them by index, range, comment or date; rows fit 100 columns"
for c in r1 r2 r3 r4 r5 r6; do sed "s/^Comment: before\$/Comment: $c/" "$FX/ours-before.log"; done \
	>"$dir/many.log"
bad=""
all=$("$IB" --compare "$dir/many.log" 2>&1) || bad="$bad; all: $all"
wide=$(printf '%s\n' "$all" | awk 'length > 100' | head -2)
[ -z "$wide" ] || bad="$bad; over 100 columns: $wide"
printf '%s\n' "$all" | grep -q '^     | \[5\] r5 ' || bad="$bad; [5]'s group not wrapped onto a block"
for pick in "r4,r2:[1] r4:[2] r2" "2-3:[1] r2:[2] r3" "6,1:[1] r6:[2] r1" "2026-11-29,r1:[1] r1:[6] r6"; do
	want=${pick#*:}
	out=$("$IB" --compare "$dir/many.log" --runs "${pick%%:*}" 2>&1)
	first=${want%%:*} last=${want##*:}
	printf '%s\n' "$out" | grep -qF "$first: " && printf '%s\n' "$out" | grep -qF "$last: " &&
		[ "$(printf '%s\n' "$out" | grep -c '^\[[0-9]\] r[0-9]: ')" = "${last:1:1}" ] ||
		bad="$bad; --runs ${pick%%:*}: $(printf '%s\n' "$out" | head -4)"
done
err=$("$IB" --compare "$dir/many.log" --runs r1,nosuch 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ $err == *"'nosuch' is no run's"* ]] ||
	bad="$bad; an unknown item: rc=$rc $err"
err=$("$IB" --runs 1 -t 1 2>&1); rc=$?
[ $rc = 2 ] && [[ $err == *"only with --compare"* ]] || bad="$bad; --runs alone: rc=$rc $err"
if [ -z "$bad" ]; then pass "$t"; else fail "$t" "${bad#; }"; fi

# Panels and their series: "title: load/run load/run ..." per panel.
svg_series() {
	if command -v python3 >/dev/null; then
		py3 - "$1" <<'EOF'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
for g in root.iter(ns + "g"):
    if g.get("class") != "panel":
        continue
    title = next(t.text for t in g.iter(ns + "text"))
    s = [p.get("data-load") + "/" + p.get("data-run") for p in g.iter(ns + "polyline")
         if p.get("class") == "series"]
    print(title + ": " + " ".join(s))
EOF
	else
		return 2
	fi
}

t="--compare --plot: XML, a series per load and run in each panel"
"$IB" --compare "$FX/ours-before.log" "$FX/ours-after.csv" --plot "$dir/cmp.svg" >/dev/null 2>"$dir/err"
rc=$?
got=$(svg_series "$dir/cmp.svg" 2>&1); prc=$?
want="Audio: None/1 None/2 Video/1 Video/2 X/1 Burn/1 Burn/2 Write/2 Ring/2
Video: None/1 None/2 Burn/1 Burn/2
Gaming: None/1 Burn/1"
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(cat "$dir/err")"
elif [ $prc = 2 ]; then
	if command -v xmllint >/dev/null; then
		if xmllint --noout "$dir/cmp.svg"; then
			skip "$t" "no python3: XML checked with xmllint, series not counted"
		else
			fail "$t" "xmllint refuses the SVG"
		fi
	else
		skip "$t" "neither python3 nor xmllint"
	fi
elif [ "$got" != "$want" ]; then
	fail "$t" "got: $got"
elif grep -q -E '<script|xlink:href|@import|url\(' "$dir/cmp.svg"; then
	fail "$t" "not self-contained"
else
	pass "$t"
fi

# The verdicts of --compare's text $1 against the verdict panels of its plot
# $2: "ok CELLS MARKED" when the SVG is XML, has the no-verdict line of each
# benchmark the text has one for, a row per cell the text lists, in its order,
# with one interval where the text gives a ratio, and "better" or "worse"
# marked (class, bold word, colour) exactly where the text says so.
svg_verdicts() {
	py3 - "$1" "$2" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
want, nov, bench = [], [], None
for line in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    m = re.match(r"--- Verdicts for (.+?)(?: real time)?: B = (\[\d+\]) against A = \[1\]", line)
    if m:
        bench, run = m.group(1), m.group(2)
        continue
    m = re.match(r"No verdict for (\S+?)(?: real time)?:", line)
    if m:
        nov.append(m.group(1))
    if bench is None or line.startswith("Load "):
        continue
    if not line.strip():
        bench = None
        continue
    v = re.search(r"(better|worse|no difference shown|too few passes \(\d+\))", line)
    f = line.split()
    want.append((bench, f[0], f[1], run, v.group(1), "[" in line))
root = ET.parse(sys.argv[2]).getroot()
got, nov_svg, bad = [], [], []
for p in root.iter(ns + "g"):
    if p.get("class") != "verdicts":
        continue
    b = p.get("data-bench")
    nov_svg += [b for t in p.iter(ns + "text") if t.get("class") == "no-verdict"]
    for g in p.iter(ns + "g"):
        cls = (g.get("class") or "").split()
        if not cls or cls[0] != "verdict":
            continue
        name = "%s %s %s" % (g.get("data-load"), g.get("data-metric"), g.get("data-run"))
        words = " ".join("".join(t.itertext()) for t in g.iter(ns + "text"))
        what = [t for t in g.iter(ns + "text") if t.get("class") == "what"]
        nint = sum(1 for l in g.iter(ns + "line") if l.get("class") == "interval")
        v = g.get("data-verdict")
        got.append((b, g.get("data-load"), g.get("data-metric"), g.get("data-run"),
                    "".join(what[0].itertext()) if what else "", nint == 1))
        if nint > 1:
            bad.append("%s: %d intervals" % (name, nint))
        if v in ("better", "worse"):
            if v not in cls or not what or what[0].get("font-weight") != "bold" or \
               what[0].get("fill") in ("#777777", "#aaaaaa"):
                bad.append("%s: %s not marked" % (name, v))
        elif len(cls) != 1 or re.search(r"\b(better|worse)\b", words):
            bad.append("%s: '%s' marked: %s" % (name, v, words))
if got != want:
    bad.append("rows %s, want %s" % (got, want))
if nov_svg != nov:
    bad.append("no-verdict lines for %s, want %s" % (nov_svg, nov))
marked = sum(1 for w in want if w[4] in ("better", "worse"))
print("; ".join(bad) if bad else "ok %d %d" % (len(want), marked))
EOF
}

t="--compare --plot: the verdicts, an interval per cell, better and worse marked only where the text says"
if ! command -v python3 >/dev/null; then
	skip "$t" "python3 is not installed (it reads the SVG)"
else
	# repeat-a.log's first run, as many times as a verdict needs, with its
	# means set: None worse in [2], Burn better, X alike
	block() {	# comment minute none x burn
		sed -n '1,13p' "$FX/repeat-a.log" | sed "s/^Comment: base\$/Comment: $1/
			s/ at datestamp 2026112911[0-9]*/ at datestamp 20261129$2/
			s/^None\t  0\.100 /None\t  $3 /; s/^X\t  0\.100 /X\t  $4 /
			s/^Burn\t  0\.200 /Burn\t  $5 /"
	}
	k=10
	for v in "0.100 0.100 0.300" "0.102 0.110 0.310" "0.098 0.090 0.290" \
		 "0.101 0.105 0.305" "0.099 0.095 0.295" "0.103 0.100 0.302"; do
		block base $((k++)) $v
	done >"$dir/va.log"
	for v in "0.150 0.101 0.200" "0.152 0.092 0.210" "0.148 0.108 0.190" \
		 "0.151 0.097 0.205" "0.149 0.104 0.195" "0.153 0.099 0.202"; do
		block patched $((k++)) $v
	done >"$dir/vb.log"
	"$IB" --compare "$FX/repeat-a.log" "$FX/repeat-b.log" --plot "$dir/rep.svg" \
		>"$dir/rep-v.txt" 2>"$dir/err"; rc1=$?
	"$IB" --compare "$dir/va.log" "$dir/vb.log" --plot "$dir/v.svg" >"$dir/v.txt" 2>>"$dir/err"
	rc2=$?
	few=$(svg_verdicts "$dir/rep-v.txt" "$dir/rep.svg" 2>&1)
	some=$(svg_verdicts "$dir/v.txt" "$dir/v.svg" 2>&1)
	if [ $rc1 != 0 ] || [ $rc2 != 0 ]; then
		fail "$t" "rc=$rc1, $rc2: $(cat "$dir/err")"
	elif [ "$few" != "ok 0 0" ] || ! grep -q '^No verdict for Audio' "$dir/rep-v.txt"; then
		fail "$t" "repeat fixtures: $few"
	elif [ "$some" != "ok 6 2" ]; then
		fail "$t" "six passes of each: $some"
	else
		pass "$t"
	fi
fi

t="--plot: markup and broken UTF-8 in a comment still give valid XML"
{ printf 'Benchmarking kernel 6.1\xff at datestamp 202601010000\n'
  printf 'Comment: <b>caf\xc3\xa9 & "x" \xed\xa0\x80\n\n'
  sed -n '/^--- Benchmarking simulated cpu of Audio/,/^$/p' "$FX/ours-before.log"; } >"$dir/odd.log"
"$IB" --compare "$dir/odd.log" --plot "$dir/odd.svg" >/dev/null 2>"$dir/err"; rc=$?
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(cat "$dir/err")"
elif command -v python3 >/dev/null; then
	if py3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$dir/odd.svg" \
		2>"$dir/err"; then
		pass "$t"
	else
		fail "$t" "$(tail -1 "$dir/err")"
	fi
elif command -v xmllint >/dev/null; then
	if xmllint --noout "$dir/odd.svg"; then pass "$t"; else fail "$t" "xmllint refuses it"; fi
else
	skip "$t" "neither python3 nor xmllint"
fi

t="a real run: --plot, then before and after in one log compared"
rel=$(uname -r)
ib -q -t 0.3 -W Audio -w None -w Burn -m before --work-dir "$dir" --plot "$dir/run.svg" \
	>/dev/null 2>"$dir/err1"; rc1=$?
ib -q -t 0.3 -W Audio -w None -w Burn -m after --work-dir "$dir" >/dev/null 2>"$dir/err2"; rc2=$?
out=$("$IB" --compare "$dir/$rel.log" 2>&1); rc=$?
got=$(svg_series "$dir/run.svg" 2>&1); prc=$?
if [ $rc1 != 0 ] || [ $rc2 != 0 ]; then
	fail "$t" "runs failed: $(cat "$dir/err1" "$dir/err2")"
elif [ $rc != 0 ] || ! printf '%s\n' "$out" | grep -q "^\[2\] after: [^,]*, kernel $rel, " ||
	! printf '%s\n' "$out" | grep -qE '^Burn +\| .* \+/- .*\| +[0-9.]+ \+/- [0-9.]+ +\((x|n/a|[-+0-9])'; then
	fail "$t" "rc=$rc: $out"
elif [ $prc != 2 ] && [ "$got" != "Audio: None/1 Burn/1" ]; then
	fail "$t" "plot series: $got"
elif ! grep -q "kernel $rel" "$dir/run.svg"; then
	fail "$t" "no kernel release in the plot's title"
else
	pass "$t"
fi

# Bad input: exit 2 and one line on stderr that names the file.
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10' >"$dir/image.png"
: >"$dir/empty.log"
head -c 700 "$FX/ours-before.log" >"$dir/cut-row.log"
head -n 10 "$FX/ours-before.log" >"$dir/no-rows.log"
head -n 8 "$FX/ours-before.log" >"$dir/header-only.log"
for bad in "$dir/missing.log" /etc/passwd "$dir/image.png" "$dir/empty.log" "$dir/cut-row.log" \
	"$dir/no-rows.log" "$dir/header-only.log"; do
	t="bad input $(basename "$bad"): one line, exit 2"
	err=$("$IB" --compare "$FX/2.6.12.log" "$bad" 2>&1 >"$dir/out"); rc=$?
	if [ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
		printf '%s' "$err" | grep -qF "$bad: " && [ ! -s "$dir/out" ]; then
		pass "$t"
	else
		fail "$t" "rc=$rc, stderr: $err"
	fi
done

t="mangled input never crashes: prefixes, flipped bytes (exit 0 or 2)"
# Cut copies of every fixture, and (with python3) copies with a few random bytes changed.
mkdir "$dir/mangled"
for f in "$FX"/*.log "$FX"/*.csv; do
	size=$(stat -c %s "$f")
	for ((len = 0; len <= size; len += size / 16 + 1)); do
		head -c $len "$f" >"$dir/mangled/$(basename "$f").cut$len"
	done
done
if command -v python3 >/dev/null; then
	py3 - "$dir/mangled" "$FX"/*.log "$FX"/*.csv <<'EOF'
import os, random, sys
rnd = random.Random(42)
for path in sys.argv[2:]:
    data = open(path, "rb").read()
    for i in range(12):
        b = bytearray(data)
        for _ in range(1 + i % 4):
            k = rnd.randrange(len(b))
            b[k] = rnd.choice([rnd.randrange(256), ord("\t"), ord("\n"), ord(" "), ord("-")])
        name = os.path.join(sys.argv[1], os.path.basename(path) + ".flip%d" % i)
        open(name, "wb").write(bytes(b))
EOF
fi
bad=""
n=0
for m in "$dir"/mangled/*; do
	"$IB" --compare "$m" --plot "$dir/m.svg" >/dev/null 2>&1
	rc=$?; n=$((n + 1))
	[ $rc = 0 ] || [ $rc = 2 ] || bad="$bad $(basename "$m"): rc=$rc"
done
if [ -z "$bad" ]; then pass "$t ($n inputs)"; else fail "$t" "$bad"; fi
