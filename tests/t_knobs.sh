#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_knobs.sh - ProAudio, Render and Input, and the scheduling knobs: what
# the kernel shows of the running task, every refusal, and the record of them.
# run-first: a long script (10 s or more beside the others)
. "$(dirname "$0")/lib.sh"

dir=$(scratch)
hogs=""
trap 'for p in $hogs; do kill "$p" 2>/dev/null; done; rm -rf "$dir"' EXIT
export INTERBENCH_TEST_SETTLE_MS=${INTERBENCH_TEST_SETTLE_MS:-100}

t="a plain run's matrix is 0.31's, in 0.31's order"
want="Audio: None, Video, X, Burn, Write, Read, Ring, Compile, Memload, Hack, Net
Video: None, X, Burn, Write, Read, Ring, Compile, Memload, Hack, Net
X: None, Video, Burn, Write, Read, Ring, Compile, Memload, Hack, Net
Gaming: None, Video, X, Burn, Write, Read, Ring, Compile, Memload, Hack, Net
42 rows of 30 s (+1 s each for the load to settle): about 22 minutes"
want_r="Audio: None, Video, X, Burn, Write, Read, Ring, Compile, Memload, Hack, Net
Video: None, X, Burn, Write, Read, Ring, Compile, Memload, Hack, Net
21 rows of 30 s (+1 s each for the load to settle): about 11 minutes"
out=$("$IB" --dry-run 2>&1); out_r=$("$IB" --dry-run -r 2>&1)
if [ "$out" = "$want" ] && [ "$out_r" = "$want_r" ]; then
	pass "$t"
else
	fail "$t" "$(diff <(printf '%s\n' "$want" "$want_r") <(printf '%s\n' "$out" "$out_r") | head -5)"
fi

t="--dry-run says a short plan's length in seconds, a long one's in hours"
short=$("$IB" --dry-run -t 1 -W Audio -w None 2>&1 | tail -1)
long=$("$IB" --dry-run -t 600 --repeat 10 2>&1 | tail -1)
if [ "$short" = "1 row of 1 s (+1 s each for the load to settle): about 2 seconds" ] &&
	[[ $long == *": about 70.2 hours" ]]; then
	pass "$t"
else
	fail "$t" "$short / $long"
fi

t="the new benchmarks run when named, as benchmarks and as loads"
out=$("$IB" --dry-run -W ProAudio -W Render -W Input -w None -w Burn -w ProAudio 2>&1)
if has_lines "$out" '^ProAudio: None, Burn$' '^Render: None, Burn, ProAudio$' \
	'^Input: None, Burn, ProAudio$'; then
	pass "$t"
else
	fail "$t" "$out"
fi

t="-W ProAudio -W Render -W Input -w None -w Burn prints three tables"
out=$(ib -c -t 0.3 -W ProAudio -W Render -W Input -w None -w Burn --work-dir "$dir" 2>"$dir/err"); rc=$?
n=$(printf '%s\n' "$out" | grep -cE '^--- Benchmarking simulated cpu of (ProAudio|Render|Input) in the presence of simulated ---$')
rows=$(printf '%s\n' "$out" | grep -cP '^(None|Burn)\t *[0-9.]+ \+/- ')
if [ $rc = 0 ] && [ "$n" = 3 ] && [ "$rows" = 6 ]; then
	pass "$t"
else
	fail "$t" "rc=$rc, $n tables, $rows rows: $out $(cat "$dir/err")"
fi

# Periods per second counted from the task's wake-ups, against the rate the
# benchmark's definition gives, in wall time. A period whose start passed
# while the task was still busy (a missed deadline) or that was dropped has no
# wake-up of its own, so each of those counts once beside the wake-ups: on a
# shared virtual machine the host can stall the task for milliseconds, and
# that must not read as a wrong period. Up to three attempts, all reported.
rates() {
	ib -c -t 1 ${1:+-B -20} -W ProAudio -W Render -W Input -w None --work-dir "$dir" \
		--json "$dir/rate.json" >/dev/null 2>&1 || { echo "run failed"; return; }
	py3 - "$dir/rate.json" <<'PY'
import json, sys
want = {"ProAudio": 48000 / 128, "Render": 144, "Input": 1000}
bad = []
for r in json.load(open(sys.argv[1]))["results"]:
    p = r["periods"]
    got = (r["samples"] + p["missed"] + p["dropped"]) / (r["wall_ns"] / 1e9)
    if abs(got / want[r["benchmark"]] - 1) > 0.02:
        bad.append("%s %.1f/s (want %.1f)" % (r["benchmark"], got, want[r["benchmark"]]))
print("; ".join(bad) if bad else "ok")
PY
}
t="periods counted from wake-ups: ProAudio's, Render's at --fps 144 and Input's within 2 %"
if ! command -v python3 >/dev/null; then
	skip "$t" "needs python3"
else
	seen=""
	for attempt in 1 2 3; do
		r=$(rates "$(is_root && echo nice)")
		seen="$seen [$r]"
		[ "$r" = ok ] && break
	done
	if [ "$r" = ok ]; then pass "$t (attempts:$seen)"; else fail "$t" "$seen"; fi
fi

# The runs of the --policy and --slice checks go side by side, each with a
# session and a run lock of its own. sched_run NAME WANT ARGS... starts one
# (its output in $dir/sched_out.NAME); sched_look then watches them all, one
# look over /proc at a time: each task's policy and slice as
# /proc/PID/task/TID/sched shows them, read until they are the glob WANT (the
# task sets them as it starts) or its run has ended, in $dir/sched.NAME as
# "policy N se.slice NS ", and " rc=STATUS", the run's, after them.
declare -A sched_sid=() sched_want=()
sched_run() {
	local n=$1
	sched_want[$n]=$2
	shift 2
	: >"$dir/sched.$n"
	INTERBENCH_TEST_LOCK=$dir/lock.$n setsid timeout 30 "$IB" -c -t 2 -W Audio -w None \
		--work-dir "$dir" "$@" >"$dir/sched_out.$n" 2>&1 &
	sched_sid[$n]=$!
}
sched_look() {
	local -A name=() done_=()
	local n f comm sid cur left
	for n in "${!sched_sid[@]}"; do name[${sched_sid[$n]}]=$n; done
	while :; do
		left=0
		for n in "${!sched_sid[@]}"; do
			[ -z "${done_[$n]:-}" ] && kill -0 "${sched_sid[$n]}" 2>/dev/null && left=1
		done
		[ $left = 1 ] || break
		for f in /proc/[0-9]*/task/*; do
			{ read -r comm <"$f/comm"; } 2>/dev/null || continue
			[ "$comm" = ib-Audio ] && sid=$(proc_sid "$f") || continue
			n=${name[$sid]:-}
			[ -n "$n" ] && [ -z "${done_[$n]:-}" ] || continue
			cur=$(awk '$1 == "policy" || $1 == "se.slice" { printf "%s %s ", $1, $3 }' \
				"$f/sched" 2>/dev/null)
			[ -n "$cur" ] || continue
			printf '%s' "$cur" >"$dir/sched.$n"
			# shellcheck disable=SC2053
			[[ $cur == ${sched_want[$n]} ]] && done_[$n]=1
		done
		sleep 0.05
	done
	for n in "${!sched_sid[@]}"; do
		wait "${sched_sid[$n]}"
		printf ' rc=%s' $? >>"$dir/sched.$n"
	done
}
policies=("other:0:" "batch:3:" "idle:5:" "fifo:1:root" "rr:2:root" "deadline:6:root")
slices=("other:0" "batch:3")
for c in "${policies[@]}"; do
	IFS=: read -r pol num need <<<"$c"
	[ -n "$need" ] && ! is_root && continue
	sched_run "$pol" "*policy $num *" --policy "$pol"
done
for c in "${slices[@]}"; do
	IFS=: read -r pol num <<<"$c"
	sched_run "$pol-slice" "*policy $num se.slice 3000000 *" --policy "$pol" --slice 3000
done
sched_look
for c in "${policies[@]}"; do
	IFS=: read -r pol num need <<<"$c"
	t="--policy $pol: the running task is policy $num"
	if [ -n "$need" ] && ! is_root; then
		skip "$t" "needs root"
		continue
	fi
	got=$(cat "$dir/sched.$pol")
	if [[ $got == *"policy $num "*"rc=0" ]]; then pass "$t"; else fail "$t" "$got: $(cat "$dir/sched_out.$pol")"; fi
done
for c in "${slices[@]}"; do
	IFS=: read -r pol num <<<"$c"
	t="--policy $pol --slice 3000: the running task's se.slice is 3000000"
	got=$(cat "$dir/sched.$pol-slice")
	if [[ $got == *"policy $num se.slice 3000000 "*"rc=0" ]]; then
		pass "$t"
	elif grep -q 'did not keep it' "$dir/sched_out.$pol-slice"; then
		skip "$t" "this kernel does not keep a slice (before 6.12)"
	else
		fail "$t" "$got: $(cat "$dir/sched_out.$pol-slice")"
	fi
done

t="--load-policy idle: the load's threads run SCHED_IDLE"
timeout 30 "$IB" -c -t 1 -L 2 -W Audio -w Burn --load-policy idle \
	--work-dir "$dir" >/dev/null 2>&1 &
pid=$!
lpid=$(await find_proc ibload-Burn)
sleep 0.5
pols=$([ -n "$lpid" ] && for s in /proc/"$lpid"/task/*/sched; do
	awk '$1 == "policy" { print $3 }' "$s" 2>/dev/null; done | sort -u | tr '\n' ' ')
wait $pid; rc=$?
if [ $rc = 0 ] && [ "$pols" = "5 " ]; then pass "$t"; else fail "$t" "rc=$rc, policies '$pols'"; fi

# Each refusal: its exit status, one line, and the words that say why.
refuse() {
	local t=$1 want_rc=$2 want=$3 err rc
	shift 3
	err=$("$IB" -c -t 0.5 --work-dir "$dir" "$@" 2>&1 >/dev/null); rc=$?
	if [ $rc = "$want_rc" ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
		printf '%s' "$err" | grep -qF -- "$want"; then
		pass "$t"
	else
		fail "$t" "rc=$rc (want $want_rc), stderr: $err"
	fi
}
refuse "--policy bogus exits 2" 2 "unknown policy 'bogus' (valid: other, batch, idle, fifo, rr, deadline)" --policy bogus
refuse "--load-policy fifo exits 2" 2 "unknown policy 'fifo' (valid: other, batch, idle)" --load-policy fifo
refuse "--slice 99 exits 2" 2 "--slice: '99' is out of range" --slice 99
refuse "--slice with --policy idle exits 2" 2 "not of --policy idle" --slice 3000 --policy idle
refuse "--slice with -r exits 2" 2 "not of --policy fifo" --slice 3000 -r
refuse "--uclamp-min 101 exits 2" 2 "--uclamp-min: '101' is out of range" --uclamp-min 101
refuse "--uclamp-min above --uclamp-max exits 2" 2 "--uclamp-min 80 is above --uclamp-max 20" --uclamp-min 80 --uclamp-max 20
refuse "--policy deadline -W X exits 2" 2 "-W X has no fixed work per period" --policy deadline -W X
refuse "--policy deadline -W Render exits 2" 2 "-W Render has no fixed work per period" --policy deadline -W Render
refuse "--policy deadline -u exits 2" 2 "--policy deadline and -u contradict" --policy deadline -u
refuse "-r --policy batch exits 2" 2 "--policy batch contradicts it" -r --policy batch
refuse "--policy fifo -W Gaming exits 2" 2 "-W Gaming cannot run real time" --policy fifo -W Gaming
refuse "--fps 23 exits 2" 2 "--fps: '23' is out of range" --fps 23 -W Render
refuse "--fps without Render or Game exits 2" 2 "--fps sets Render's and Game's frame rate" --fps 60 -W Audio

t="--uclamp-min on a kernel without CONFIG_UCLAMP_TASK exits 1 with one line"
if ! err=$("$IB" -c -t 0.3 -W Audio -w None --uclamp-min 10 \
	--work-dir "$dir" 2>&1 >/dev/null); then
	refuse "$t" 1 "this kernel has no utilization clamping (CONFIG_UCLAMP_TASK)" -W Audio -w None --uclamp-min 10
else
	skip "$t" "this kernel has utilization clamping"
fi

t="--policy deadline refused by admission control exits 1 naming the limit"
if root_with "$t" chrt; then
	# sleeping deadline tasks that hold most of the bandwidth and use none of it
	for _ in $(seq "$(nproc)"); do
		chrt -d -T 900000000 -P 1000000000 -D 1000000000 0 sleep 10 2>/dev/null &
		hogs="$hogs $!"
	done
	for p in $hogs; do	# each holds its bandwidth once it is a deadline task
		await awk '$1 == "policy" && $3 == 6 { f = 1 } END { exit !f }' "/proc/$p/sched"
	done
	refuse "$t" 1 "admission control refused ProAudio's 833 us every 2666 us: the deadline bandwidth limit is sched_rt_runtime_us=" \
		--policy deadline --period exact -W ProAudio -w None
	for p in $hogs; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	hogs=""
fi

t="the context line names sched_ext's state and autogroup; JSON and CSV carry them"
out=$(ib -c -t 0.3 -W Input -w None --policy batch --load-policy idle --work-dir "$dir" \
	--json "$dir/k.json" --csv "$dir/k.csv" 2>&1); rc=$?
ctx=$(printf '%s\n' "$out" | grep '^Preemption: ')
if [ $rc != 0 ] || ! [[ $ctx =~ sched_ext:\ (unavailable|disabled|enabled|enabling|disabling) ]] ||
	! [[ $ctx =~ autogroup:\ (on|off|unavailable)$ ]]; then
	fail "$t" "rc=$rc: $ctx"
elif ! grep -q '"sched_ext": ' "$dir/k.json" || ! grep -q '"autogroup": ' "$dir/k.json" ||
	! head -1 "$dir/k.csv" | grep -qE ',sched_ext,autogroup(,|$)'; then
	fail "$t" "JSON or CSV lack them: $(head -1 "$dir/k.csv")"
else
	pass "$t"
fi

t="the knobs are in the log header, JSON run and CSV"
line=$(printf '%s\n' "$out" | grep '^Scheduling: ')
if [ "$line" != "Scheduling: policy batch, slice default, uclamp-min default, uclamp-max default, load-policy idle" ]; then
	fail "$t" "log: $line"
elif ! grep -q '"policy": "batch"' "$dir/k.json" || ! grep -q '"load_policy": "idle"' "$dir/k.json" ||
	! grep -q '"slice_us": null' "$dir/k.json"; then
	fail "$t" "JSON run: $(grep -A8 '"policy"' "$dir/k.json")"
elif ! awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 {
	exit !($c["policy"] == "batch" && $c["load_policy"] == "idle" && $c["slice_us"] == "") }' "$dir/k.csv"; then
	fail "$t" "CSV: $(cat "$dir/k.csv")"
else
	pass "$t"
fi

t="--compare never pools runs of other knobs and says what differs"
ib -t 0.3 -W Input -w None -m same --work-dir "$dir" >/dev/null 2>&1
ib -t 0.3 -W Input -w None -m same --slice 3000 --work-dir "$dir" >/dev/null 2>&1
ib -t 0.3 -W Input -w None -m same --slice 3000 --work-dir "$dir" >/dev/null 2>&1
out=$(set -o pipefail; "$IB" --compare "$dir/$(uname -r).log" 2>&1 | tr '\n' ' '); rc=$?
if [ $rc = 0 ] && [[ $out == "Comparing 2 runs"* ]] &&
	[[ $out == *"[1] same (slice default): "*", kernel $(uname -r), "* ]] &&
	[[ $out == *"[2] same (slice 3000 us): "*"2 runs pooled"* ]]; then
	pass "$t"
else
	fail "$t" "rc=$rc: $out"
fi

t="nothing left after the knobs' runs"
if no_leftovers 2; then pass "$t"; else fail "$t" "left:$(leftovers)"; fi
