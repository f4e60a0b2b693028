#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_vary.sh - --vary: variants in balanced order in the table, the log,
# JSON and CSV; verdicts; --compare of a varied run; refusals; a system knob
# journalled and put back after SIGINT, SIGKILL and --restore.
. "$(dirname "$0")/lib.sh"
use_json_checker "--vary"

# What is printed is checked, not how the rows performed (test-only).
export INTERBENCH_TEST_SETTLE_MS=100

dir=$(scratch)
knob=/proc/sys/kernel/timer_migration
orig=$(cat "$knob" 2>/dev/null)
cleanup() {
	[ -n "$orig" ] && is_root && echo "$orig" >"$knob" 2>/dev/null
	rm -rf "$dir" "$INTERBENCH_TEST_JOURNAL"
}
trap cleanup EXIT

ib -q -t 0.3 --repeat 2 -W Audio -w None -w Burn --vary load-nice=0,19 --work-dir "$dir" \
	--json "$dir/v.json" --csv "$dir/v.csv" >"$dir/out" 2>"$dir/err"
rc=$?

t="--vary runs each cell's variants back to back, A B then B A"
order=$(grep -P '^(None|Burn)/[AB] *\t' "$dir/out" | head -8 | cut -f1 | tr -d ' ' | tr '\n' ' ')
if [ $rc = 0 ] && [ "$order" = "None/A None/B Burn/A Burn/B None/B None/A Burn/B Burn/A " ]; then
	pass "$t"
else
	fail "$t" "rc=$rc, rows: $order: $(tail -3 "$dir/err")"
fi

t="the header and the log name each variant by its letter"
log=$(ls "$dir"/*.log 2>/dev/null)
line='^Variants: A load-nice=0, B load-nice=19; their order turns each pass'
if grep -qE "$line" "$dir/out" && [ -n "$log" ] && grep -qE "$line" "$log" &&
	[ "$(grep -cP '^(None|Burn)/[AB] *\t' "$log")" -ge 8 ]; then
	pass "$t"
else
	fail "$t" "$(grep -E '^Variants' "$dir/out" "$log")"
fi

t="JSON names each result's variant, its index and the run's variants"
msg=$(py3 - "$dir/v.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
got = [(r["load"], r["pass"], r["variant"], r["variant_index"]) for r in d["results"]]
want = [("None", 1, "load-nice=0", 1), ("None", 1, "load-nice=19", 2),
        ("Burn", 1, "load-nice=0", 1), ("Burn", 1, "load-nice=19", 2),
        ("None", 2, "load-nice=19", 2), ("None", 2, "load-nice=0", 1),
        ("Burn", 2, "load-nice=19", 2), ("Burn", 2, "load-nice=0", 1)]
if got != want:
    print("results:", got)
v = d["run"]["vary"]
if v["knob"] != "load-nice" or [x["variant"] for x in v["variants"]] != ["load-nice=0", "load-nice=19"]:
    print("run.vary:", v)
ver = d["verdicts"]
keys = {"benchmark", "load", "metric", "variant", "baseline", "a", "b", "ratio", "ratio_low",
        "ratio_high", "p", "q", "verdict"}
if len(ver) != 6 or any(not keys <= set(x) for x in ver):
    print("verdicts:", ver[:1])
# 2 passes each can never be significant: every verdict of a number that varied says so,
# with the passes needed; one that did not (100 % deadlines met) is no difference, untested
if any((x["verdict"] != "too few passes" or x["passes_needed"] < 4) if x["tested"] else
       (x["verdict"] != "no difference shown" or x["q"] is not None or x["a"] != x["b"])
       for x in ver):
    print("verdicts with 2 passes:", [(x["verdict"], x["tested"], x["passes_needed"]) for x in ver])
s = [(x["load"], x["variant"], x["passes"]) for x in d["summary"]]
if s != [("None", "load-nice=0", 2), ("None", "load-nice=19", 2), ("Burn", "load-nice=0", 2),
         ("Burn", "load-nice=19", 2)]:
    print("summary:", s)
PY
)
[ -z "$msg" ] && pass "$t" || fail "$t" "$msg"

t="CSV has each row's variant and its index"
msg=$(py3 - "$dir/v.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [(r["load"], r["variant"], r["variant_index"]) for r in rows]
if got[:4] != [("None", "load-nice=0", "1"), ("None", "load-nice=19", "2"),
               ("Burn", "load-nice=0", "1"), ("Burn", "load-nice=19", "2")]:
    print(got)
PY
)
[ -z "$msg" ] && pass "$t" || fail "$t" "$msg"

t="the verdicts table says how many passes a verdict needs, in JSON's words"
need=$(py3 - "$dir/v.json" <<'PY'
import json, sys
v = [x for x in json.load(open(sys.argv[1]))["verdicts"]
     if x["load"] == "Burn" and x["metric"] == "mean"]
if len(v) == 1 and v[0]["verdict"] == "too few passes":
    print(int(v[0]["passes_needed"]))
PY
)
if [ -n "$need" ] &&
	grep -qE '^--- Verdicts for Audio: B load-nice=19 against A load-nice=0 \(passes: 2 and 2\) ---$' "$dir/out" &&
	grep -qE "^Burn +mean \(ms\) .* too few passes \($need\)( |\$)" "$dir/out" &&
	tr '\n' ' ' <"$dir/out" |
	grep -qE 'Benjamini-Hochberg over the (tests \(none here\)|[1-6] tests?) that could reach q <= 0.05 given their ties and passes \(Tarone: [0-6] left out'; then
	pass "$t"
else
	fail "$t" "$(sed -n '/^--- Verdicts/,$p' "$dir/out" | head -8)"
fi

# The README's gate, as the README has it, on this run of 2 passes: no verdict is no pass.
t="the README's CI gate fails on too few passes, passes on verdicts, fails on worse or none"
gate=$(grep -m1 '^\$ jq -e ' "$TOP/README.md" | sed 's/^\$ //')
if ! command -v jq >/dev/null || ! command -v python3 >/dev/null; then
	skip "$t" "jq and python3 are needed"
elif [ -z "$gate" ]; then
	fail "$t" "no '\$ jq -e' line in README.md"
else
	mkdir -p "$dir/gate"
	gate_on() {	# the verdicts JSON made by python expression $1 from v.json: the gate's words
		python3 -c "import json, sys; d = json.load(open(sys.argv[1])); $1
json.dump(d, open(sys.argv[2], 'w'))" "$dir/v.json" "$dir/gate/gate.json" &&
			(cd "$dir/gate" && eval "$gate" 2>&1) | tr '\n' ' '
	}
	few=$(gate_on "pass")
	ok=$(gate_on "[v.update(verdict='no difference shown') for v in d['verdicts']]; d['verdicts'][0]['verdict'] = 'better'")
	worse=$(gate_on "[v.update(verdict='better') for v in d['verdicts']]; d['verdicts'][-1]['verdict'] = 'worse'")
	none=$(gate_on "d['verdicts'] = []")
	if [ "$few" = "false gate: fail " ] && [ "$ok" = "true " ] && [ "$worse" = "false gate: fail " ] &&
		[ "$none" = "false gate: fail " ] && grep -q '"too few passes"' "$dir/v.json"; then
		pass "$t"
	else
		fail "$t" "few '$few' ok '$ok' worse '$worse' none '$none'"
	fi
fi

t="--compare of a varied run's log and CSV sets its variants side by side"
for f in "$log" "$dir/v.csv"; do
	out=$(ib --compare "$f" 2>&1)
	if ! has_lines "$out" '^\[1\] .* A load-nice=0: ' '^\[2\] .* B load-nice=19: ' \
		'^Passes averaged: \[1\] 2, \[2\] 2\.' '^No verdict for Audio: its runs have at most 2 passes'; then
		fail "$t" "$f: $out"
		break
	fi
done
[ "$f" = "$dir/v.csv" ] && [ -n "${out}" ] && has_lines "$out" '^\[2\] .* B load-nice=19: ' && pass "$t"

t="--csv also writes the verdicts beside it, with the columns JSON has"
head=$(head -1 "$dir/v.verdicts.csv" 2>/dev/null)
if [[ $head == benchmark,load,metric,variant,baseline,a,b,ratio,ratio_low,ratio_high,p,q,verdict,* ]] &&
	[ "$(grep -c '^Audio,Burn,mean,B load-nice=19,A load-nice=0,' "$dir/v.verdicts.csv")" = 1 ] &&
	[ "$(grep -c . "$dir/v.verdicts.csv")" = 7 ]; then
	pass "$t"
else
	fail "$t" "$(cat "$dir/v.verdicts.csv" 2>&1 | head -3)"
fi

t="--compare of two runs with 5 passes each gives their verdicts"
mkdir "$dir/two"
for m in one two; do
	ib -q -t 0.2 --repeat 5 -W Audio -w None -m "$m" --work-dir "$dir/two" >/dev/null 2>&1
done
out=$(ib --compare "$dir"/two/*.log 2>&1)
if has_lines "$out" '^--- Verdicts for Audio: B = \[2\] against A = \[1\] \(passes: 5 and 5\) ---$' \
	'^None +mean \(ms\) ' '^None +deadlines % .* 1 +- +no difference shown' \
	'^Verdicts: the passes of each variant'; then
	pass "$t"
else
	fail "$t" "$out"
fi

t="a verdict table and its legend fit in 100 columns"
widest=$({ sed -n '/^--- Verdicts/,$p' "$dir/out"; printf '%s\n' "$out"; } |
	awk '{ if (length($0) > w) { w = length($0); l = $0 } } END { print w ": " l }')
if [ "${widest%%:*}" -le 100 ] && [ "${widest%%:*}" -ge 60 ]; then
	pass "$t"
else
	fail "$t" "$widest"
fi

t="a bad --vary is one line and exit 2"
usage_errors "--vary foo=1,2" "--vary load-nice=0" "--vary load-nice=0,40" "-N 3 --vary load-nice=0,4" \
	"--vary load-nice=" "--vary =1,2" "--vary sched-feature:X=on,maybe" "--vary sysctl:../x=1,2" \
	"--vary load-nice=1,2,3,4,5,6,7,8,9" "--vary fps=60,144"
[ -z "$bad" ] && pass "$t" || fail "$t" "$bad"

t="--dry-run lists each cell's variants"
out=$(ib --dry-run -W Audio -w None --vary slice=default,500 2>&1)
if has_lines "$out" '^Audio: None A, None B$' '^Variants: A slice=default, B slice=500;' '^2 rows of 30 s'; then
	pass "$t"
else
	fail "$t" "$out"
fi

t="--restore with nothing to put back says so, exit 0"
out=$(ib --restore 2>&1)
if [ $? = 0 ] && [[ $out == *"nothing to put back"* ]]; then
	pass "$t"
else
	fail "$t" "$out"
fi

if ! is_root || [ ! -w "$knob" ]; then
	for t in "a knob the kernel refuses" "SIGINT puts a sysctl back" "SIGKILL leaves the journal" \
		"--restore puts it back" "the next run puts it back first"; do
		skip "$t" "needs root and a writable $knob"
	done
	exit 0
fi

t="a knob the kernel refuses, or cannot read, is an error before anything runs, exit 1"
bad=""
for args in "sysctl:kernel.timer_migration=0,2" "sysctl:kernel.no_such_knob=0,1" \
	"sched-feature:NO_SUCH_FEATURE=on,off" "sched-debug:base_slice_ns=default,3000000" "preempt"; do
	out=$(ib -c -q -t 0.2 -W Audio -w None --vary "$args" 2>&1)
	rc=$?
	[ $rc = 1 ] && [ "$(printf '%s\n' "$out" | grep -c .)" = 1 ] && [[ $out == *"--vary "* ]] &&
		[ "$(cat "$knob")" = "$orig" ] && [ ! -e "$INTERBENCH_TEST_JOURNAL/journal" ] ||
		bad="$bad [$args: rc=$rc $out]"
done
[ -z "$bad" ] && pass "$t" || fail "$t" "$bad"

t="--dry-run reads the knob as the run would: an unknown one exits 1, a known one 0"
bad=""
out=$("$IB" --dry-run -W Audio -w None --vary sysctl:kernel.no_such_knob=0,1 2>&1); rc=$?
[ $rc = 1 ] && [ "$(printf '%s\n' "$out" | grep -c .)" = 1 ] &&
	[[ $out == *"cannot read /proc/sys/kernel/no_such_knob"* ]] || bad="$bad [unknown: rc=$rc $out]"
out=$("$IB" --dry-run -W Audio -w None --vary "sysctl:kernel.timer_migration=0,1" 2>&1); rc=$?
[ $rc = 0 ] && [[ $out == *"Variants: A sysctl:kernel.timer_migration=0"* ]] || bad="$bad [known: rc=$rc $out]"
[ "$(cat "$knob")" = "$orig" ] || bad="$bad [the knob changed]"
[ -z "$bad" ] && pass "$t" || fail "$t" "$bad"

t="a debugfs knob that cannot be read says what debugfs needs, as preempt does"
if [ -r /sys/kernel/debug/sched/features ]; then
	skip "$t" "debugfs's sched/features is readable here"
else
	out=$("$IB" --dry-run -W Audio -w None --vary sched-feature:HRTICK=on,off 2>&1); rc=$?
	if [ $rc = 1 ] && [[ $out == *"cannot read /sys/kernel/debug/sched/features"*"(debugfs mounted, and root?)" ]]; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $out"
	fi
fi

t="--vary of a system knob without root is one line and exit 1, the knob untouched"
if ! command -v setpriv >/dev/null; then
	skip "$t" "setpriv (util-linux) is not installed"
else
	mkdir "$dir/nobody" && chmod 777 "$dir/nobody" && chmod 755 "$dir"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups timeout 30 "$IB" -c -q -t 0.2 \
		-W Audio -w None --work-dir "$dir/nobody" --vary "sysctl:kernel.timer_migration=0,1" 2>&1)
	rc=$?
	if [ $rc = 1 ] && [ "$(printf '%s\n' "$out" | grep -c .)" = 1 ] && [[ $out == *"run as root"* ]] &&
		[ "$(cat "$knob")" = "$orig" ]; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $out"
	fi
fi

other=$((1 - orig))
# A run whose first variant is the value the knob does not have now.
start_knob_run() {
	setsid timeout -k 5 60 "$IB" -c -q -t 2 --repeat 2 -W Audio -w None \
		--vary "sysctl:kernel.timer_migration=$other,$orig" >"$dir/k.out" 2>"$dir/k.err" &
	kpid=$!
	for ((i = 0; i < 100; i++)); do
		[ "$(cat "$knob")" = "$other" ] && return 0
		sleep 0.05
	done
	return 1
}

t="SIGINT during a sysctl: variant puts the value back and removes the journal"
start_knob_run
sleep 0.3
kill -INT -"$kpid"
wait "$kpid"
rc=$?
if [ "$(cat "$knob")" = "$orig" ] && [ ! -e "$INTERBENCH_TEST_JOURNAL/journal" ] && [ $rc = 130 ]; then
	pass "$t"
else
	fail "$t" "rc=$rc, knob $(cat "$knob"), journal $(ls "$INTERBENCH_TEST_JOURNAL" 2>&1)"
fi

t="SIGKILL during a sysctl: variant leaves the value and a journal naming the original"
start_knob_run
{ kill -KILL -"$kpid"; wait "$kpid"; } 2>/dev/null
if [ "$(cat "$knob")" = "$other" ] &&
	grep -qP "^$knob\t$orig\$" "$INTERBENCH_TEST_JOURNAL/journal" 2>/dev/null; then
	pass "$t"
else
	fail "$t" "knob $(cat "$knob"), journal: $(cat "$INTERBENCH_TEST_JOURNAL/journal" 2>&1)"
fi

t="--restore puts it back, says so, and removes the journal"
out=$(ib --restore 2>&1)
rc=$?
if [ $rc = 0 ] && [ "$(cat "$knob")" = "$orig" ] && [[ $out == *"put back $knob to $orig"* ]] &&
	[ ! -e "$INTERBENCH_TEST_JOURNAL/journal" ]; then
	pass "$t"
else
	fail "$t" "rc=$rc, knob $(cat "$knob"): $out"
fi

t="after a SIGKILL the next run puts the knob back before anything else"
start_knob_run
{ kill -KILL -"$kpid"; wait "$kpid"; } 2>/dev/null
out=$(ib -c -q -t 0.2 -W Audio -w None 2>&1)
rc=$?
if [ $rc = 0 ] && [ "$(cat "$knob")" = "$orig" ] && [[ $out == *"put back $knob to $orig"* ]]; then
	pass "$t"
else
	fail "$t" "rc=$rc, knob $(cat "$knob"): $(printf '%s\n' "$out" | head -3)"
fi
