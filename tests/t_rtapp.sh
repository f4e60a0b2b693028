#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_rtapp.sh - -W FILE.json end to end: Debian's mp3-short and video-short against None
# and Burn (a line per thread, JSON with each thread's wake-ups and deadlines), --vary
# load-nice with verdicts per thread, the log read back by --compare, the timeline's tracks and
# --instances of a file of our own, and bad workloads: refused before the run with one line, or
# a failed row with its reason, never a hang, nothing left behind.
# run-first: about 25 s of rows
. "$(dirname "$0")/lib.sh"

export INTERBENCH_TEST_SETTLE_MS=100
EX=/usr/share/doc/rt-app/examples

dir=$(scratch)
trap 'rm -rf "$dir"' EXIT
use_json_checker "rt-app workload files"

# The heading, then the column line, a line per load, and the file's threads' lines under each.
table_ok() {
	local out=$1 name=$2 threads=$3 loads=$4 n
	n=$(awk -v h="^--- Benchmarking rt-app workload $name in the presence of simulated ---" \
		'$0 ~ h { t = 1; next } t && /^\t/ { n++ } t && /^$/ { t = 0 } END { print n + 0 }' "$out")
	[ "$n" = $((threads * loads)) ] && grep -q $'^Load\tThread .*Wake-ups: timer / resume' "$out"
}

# Each thread's JSON: its file, its wake-ups by kind adding up, deadlines where it has a timer.
threads_json() {
	"$PY" - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rs = [r for r in d["results"] if r.get("workload") == sys.argv[2]]
ok = d["run"]["workload"]["name"] == sys.argv[2] and len(d["run"]["workload"]["sha256"]) == 64
for r in rs:
    w = r["wakeups"]
    ok &= r["status"] == "ok" and w["timer"] + w["resume"] == r["samples"]
    ok &= (r["rtapp"] is None) == (r["pct_deadlines_met"] is None)
    if r["rtapp"] is not None:
        ok &= r["periods"]["met"] + r["periods"]["missed"] > 0
        ok &= r["rtapp"]["wu_lat_ns"]["mean"] is not None
print(len(rs), ok and any(r["rtapp"] for r in rs))
PY
}

# ---- Debian's examples, as the issue's "done when" runs them (rows of 1 s) ----

for ex in mp3-short:5 video-short:17; do
	f=${ex%:*} n=${ex#*:}
	t="$f.json against None and Burn: a table with a line per thread, JSON of each thread"
	if [ ! -f "$EX/$f.json" ]; then
		skip "$t" "$EX/$f.json is not installed (Debian's rt-app)"
		continue
	fi
	ib -c -q -t 1 -W "$EX/$f.json" -w None -w Burn --work-dir "$dir" --json "$dir/$f.json" \
		>"$dir/$f.out" 2>"$dir/$f.err"
	rc=$?
	got=$(threads_json "$dir/$f.json" "$f.json" 2>&1)
	if [ $rc = 0 ] && table_ok "$dir/$f.out" "$f.json" "$n" 2 && [ "$got" = "$((2 * n)) True" ] &&
		chk schema "$dir/$f.json" && chk text "$dir/$f.json" "$dir/$f.out"; then
		pass "$t"
	else
		fail "$t" "rc=$rc json: $got $(tail -3 "$dir/$f.err") $(grep -A3 '^--- Bench' "$dir/$f.out")"
	fi
done

# mp3-short's OMXCall waits on a queue that other threads signal: nothing to time from.
t="a thread woken only by other threads' signals is marked, and the footnote says why"
if [ ! -f "$dir/mp3-short.out" ]; then
	skip "$t" "mp3-short.json did not run"
elif [ "$(grep -cP '^\tOMXCall +- \+/- - +- +0 / 0 +-  \[no timed wake-up[],]' "$dir/mp3-short.out")" = 2 ] &&
	grep -q '^\[...\]: .*no timed wake-up: the thread was woken only by other threads' \
		"$dir/mp3-short.out" && ! grep -P '^\tAudioTick .*no timed' "$dir/mp3-short.out"; then
	pass "$t"
else
	fail "$t" "$(grep -P 'OMXCall|^\[' "$dir/mp3-short.out")"
fi

t="--vary load-nice=0,19 on mp3-short.json: verdicts per thread"
if [ ! -f "$EX/mp3-short.json" ]; then
	skip "$t" "$EX/mp3-short.json is not installed (Debian's rt-app)"
else
	mkdir -p "$dir/log"
	ib -q -t 1 -W "$EX/mp3-short.json" -w Burn --vary load-nice=0,19 --repeat 2 \
		--work-dir "$dir/log" --json "$dir/vary.json" >"$dir/vary.out" 2>&1
	if has_lines "$(cat "$dir/vary.out")" \
		'^--- Summary of 2 passes: rt-app workload mp3-short.json ---' \
		'^Burn/B  	AudioTick ' \
		'^--- Verdicts for AudioTick@mp3-short.json: B load-nice=19 against A load-nice=0' \
		'^--- Verdicts for AudioOut@mp3-short.json: ' &&
		[ "$(get "$dir/vary.json" 'sum(1 for v in d["verdicts"] if v.get("workload") ==
		     "mp3-short.json" and v["benchmark"] == "AudioTick" and v["metric"] == "deadlines")')" = 1 ]
	then
		pass "$t"
	else
		fail "$t" "$(grep -E '^(--- |interbench:)' "$dir/vary.out" | head -8)"
	fi
fi

t="the log read back: --compare matches the threads by name, the file's name beside"
log=$(ls "$dir"/log/*.log 2>/dev/null | head -1)
if [ -z "$log" ]; then
	skip "$t" "no log (mp3-short.json is not installed)"
elif ib --compare "$log" >"$dir/cmp.out" 2>&1 &&
	grep -q '^--- AudioTick of rt-app workload mp3-short.json: latency in ms ---' \
		"$dir/cmp.out" &&
	grep -qE '^(--- Verdicts for|No verdict for) AudioTick@mp3-short.json' "$dir/cmp.out"; then
	pass "$t"
else
	fail "$t" "$(head -12 "$dir/cmp.out")"
fi

# ---- a file of our own: needs nothing installed ----

cat >"$dir/own.json" <<'EOF'
{
	"tasks" : {
		"tick" : { "loop" : -1, "run" : 500, "resume" : "tock",
			   "timer" : { "ref" : "t10", "period" : 10000 } },
		"tock" : { "loop" : -1, "suspend" : "tock", "run" : 200 },
		"idle" : { "loop" : -1, "run" : 100, "sleep" : 5000 }
	},
	"global" : { "duration" : 2, "calibration" : "CPU0", "logdir" : "." }
}
EOF

t="a file of our own: 100 timer wake-ups a second, its resumes, the keys without effect noted"
ib -c -q -t 1 -W "$dir/own.json" -w None --instances 2 --timeline "$dir/own.tl" \
	--json "$dir/own.json.out" --work-dir "$dir" >"$dir/own.out" 2>&1
rc=$?
got=$("$PY" - "$dir/own.json.out" "$dir/own.tl" 2>"$dir/own.py.err" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = {x["benchmark"]: x for x in d["results"]}
tl = json.load(open(sys.argv[2]))
ev = tl["traceEvents"] if isinstance(tl, dict) else tl
procs = [e["args"]["name"] for e in ev if e["name"] == "process_name"]
wakes = sum(1 for e in ev if e["name"] in ("latency", "wakeup latency"))  # a timer's, a resume's
# The timer's periods follow the clock: two instances of 100 a second over the row's wall
# time, never more. A thread kept off the CPUs by the tests beside it (their loads can be
# ten CPU hogs on two CPUs) reaches its last uses of the timer after the row ends, a period
# it entered late is no wake-up, and a resume that finds tock still running wakes nothing:
# on a busy machine each falls short, by up to a fifth seen. A period of twice 10 ms would
# give half as many.
t, k = r["tick"], r["tock"]
per = sum(t["periods"].values())
due = 2 * t["wall_ns"] / 10e6
print(0.65 * due <= per <= due + 2 and 0.8 * per <= t["wakeups"]["timer"] <= per,
      0.8 * per <= k["wakeups"]["resume"] <= per + 2,
      r["idle"]["samples"] == 0 and r["idle"]["periods"] is None,
      r["tick"]["instances"] == 2 and len(r["tick"]["instance_results"]) == 2,
      "tick@own.json / None pass 1" in procs and "tock@own.json / None pass 1" in procs,
      wakes >= 0.7 * per)   # the first instance's tick and tock, about one each a period
print("periods", per, "due", round(due, 1), "wakeups", t["wakeups"], k["wakeups"], file=sys.stderr)
PY
)
if [ $rc = 0 ] && [ "$got" = "True True True True True True" ] &&
	grep -q '^Note: .*own.json: accepted without effect: calibration' "$dir/own.out"; then
	pass "$t"
else
	fail "$t" "rc=$rc $got $(cat "$dir/own.py.err") $(grep -E '^(Note|interbench)' "$dir/own.out") $(sed -n '/^--- Bench/,$p' "$dir/own.out" | head -6)"
fi

# ---- bad workloads: one line before the run, exit 2 ----

bad() { printf '%s\n' "$2" >"$dir/$1.json"; }
bad parse '{ "tasks" : { "a" : { "run" : 100, }'
bad resume '{ "tasks" : { "a" : { "loop" : -1, "run" : 100, "resume" : "nobody",
	"timer" : { "ref" : "t", "period" : 10000 } } } }'
bad unlock '{ "tasks" : { "a" : { "loop" : -1, "lock" : "m", "run" : 100,
	"timer" : { "ref" : "t", "period" : 10000 } } } }'
bad order '{ "tasks" : {
	"a" : { "loop" : -1, "lock" : "m1", "lock" : "m2", "unlock" : "m2", "unlock" : "m1", "sleep" : 1000 },
	"b" : { "loop" : -1, "lock" : "m2", "lock" : "m1", "unlock" : "m1", "unlock" : "m2", "sleep" : 1000 } } }'
bad many '{ "tasks" : { "a" : { "instance" : 5000, "loop" : -1, "run" : 100, "sleep" : 10000 } } }'
bad unknown '{ "tasks" : { "a" : { "loop" : -1, "run" : 100, "mem" : 1000 } } }'

for c in "parse:expected" "resume:'resume' of 'nobody'" "unlock:ends holding mutex 'm'" \
	"order:an order that can deadlock" "many:5000 threads" "unknown:'mem' is not supported"; do
	f=${c%%:*} want=${c#*:}
	t="a bad workload ($f) is refused before anything runs: one line naming the file, exit 2"
	start=$SECONDS
	ib -c -t 5 -W "$dir/$f.json" -w None --work-dir "$dir" >"$dir/bad.out" 2>"$dir/bad.err"
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$dir/bad.err")" = 1 ] && grep -qF "$dir/$f.json" "$dir/bad.err" &&
		grep -qF -- "$want" "$dir/bad.err" && [ ! -s "$dir/bad.out" ] &&
		[ $((SECONDS - start)) -le 2 ]; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $(cat "$dir/bad.err") $(head -2 "$dir/bad.out")"
	fi
done

t="a second workload file is refused with one line"
ib -c -W "$dir/own.json" -W "$dir/own.json" >"$dir/bad.out" 2>"$dir/bad.err"
rc=$?
if [ $rc = 2 ] && grep -q 'one workload file per run' "$dir/bad.err"; then pass "$t"
else fail "$t" "rc=$rc: $(cat "$dir/bad.err")"; fi

# ---- bad workloads at run time: a failed row with its reason, exit 1 ----

cat >"$dir/dl.json" <<'EOF'
{
	"tasks" : {
		"holder" : { "loop" : -1, "lock" : "M", "suspend" : "S", "unlock" : "M", "run" : 100 },
		"resumer" : { "loop" : -1, "run" : 200, "lock" : "M", "resume" : "S", "unlock" : "M" }
	}
}
EOF

t="a deadlock the checks cannot see fails a 20 s row within seconds, its reason said, nothing left"
start=$SECONDS
ib -c -t 20 -W "$dir/dl.json" -w None --work-dir "$dir" --json "$dir/dl.out.json" \
	>"$dir/dl.out" 2>&1
rc=$? took=$((SECONDS - start))
if [ $rc = 1 ] && [ $took -le 8 ] &&
	grep -qE $'^None\tfailed: deadlock: .*holder \\(suspend .S., holding .M.\\)' "$dir/dl.out" &&
	grep -qE $'^\tholder +failed$' "$dir/dl.out" &&
	[ "$(get "$dir/dl.out.json" '[r["status"] for r in d["results"]]')" = "['failed', 'failed']" ] &&
	no_leftovers 2; then
	pass "$t"
else
	fail "$t" "rc=$rc after ${took}s: $(sed -n '/^--- Bench/,$p' "$dir/dl.out" | head -4) left:$(leftovers)"
fi

cat >"$dir/fifo.json" <<'EOF'
{ "tasks" : { "a" : { "loop" : -1, "policy" : "SCHED_FIFO", "priority" : 10, "run" : 100,
		      "timer" : { "ref" : "t", "period" : 10000 } } } }
EOF

t="a file asking for SCHED_FIFO without the privilege fails its row with the reason, no hang"
if ! is_root || ! command -v setpriv >/dev/null; then
	skip "$t" "it needs root (to drop to nobody) and setpriv"
else
	chmod 755 "$dir" && chmod 644 "$dir/fifo.json" && mkdir -m 777 "$dir/nobody"
	start=$SECONDS
	setpriv --reuid=65534 --regid=65534 --clear-groups timeout -k 5 60 "$IB" -c -t 5 \
		-W "$dir/fifo.json" -w None --work-dir "$dir/nobody" >"$dir/fifo.out" 2>&1
	rc=$? took=$((SECONDS - start))
	if [ $rc = 1 ] && [ $took -le 4 ] &&
		grep -qE $'^None\tfailed: tasks.a: sched_setattr SCHED_FIFO priority 10: Operation not permitted' \
			"$dir/fifo.out"; then
		pass "$t"
	else
		fail "$t" "rc=$rc after ${took}s: $(tail -3 "$dir/fifo.out")"
	fi
fi

# Workload file $1 as nobody under ulimit -u 80 for -t $2 s against None, and any options
# after; its output in $dir/$3.out.
nobody_limited() {
	local file=$1 secs=$2 out=$3
	shift 3
	setpriv --reuid=65534 --regid=65534 --clear-groups bash -c 'ulimit -u 80 &&
		f=$1 t=$2 w=$3 && shift 3 &&
		exec timeout -k 5 30 "$0" -c -t "$t" -W "$f" -w None --work-dir "$w" "$@"' \
		"$IB" "$file" "$secs" "$dir/nobody" "$@" >"$dir/$out.out" 2>&1
}

cat >"$dir/i100.json" <<'EOF'
{ "tasks" : { "a" : { "instance" : 100, "loop" : -1, "run" : 100, "sleep" : 10000 } } }
EOF

t="an instance count over what RLIMIT_NPROC leaves the user is refused before the run"
if ! is_root || ! command -v setpriv >/dev/null; then
	skip "$t" "it needs root (to drop to nobody with a low limit) and setpriv"
else
	chmod 644 "$dir/i100.json"
	nobody_limited "$dir/i100.json" 5 np
	rc=$?
	if [ $rc = 2 ] && grep -q 'its instances make 100 threads: more than the [0-9]* RLIMIT_NPROC' \
		"$dir/np.out"; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $(tail -2 "$dir/np.out")"
	fi
fi

# 40 threads on one timer under ulimit -u 80: their own timers leave room (80 less 18 of
# ours, the load's and the margin's); with their wakers they would be 80.
cat >"$dir/i40.json" <<'EOF'
{ "tasks" : { "a" : { "instance" : 40, "loop" : -1, "run" : 100,
		      "timer" : { "ref" : "t", "period" : 10000 } } } }
EOF
t="RLIMIT_NPROC counts a waker per timed thread only with --wake waker: 40 on their own timers run"
if ! is_root || ! command -v setpriv >/dev/null; then
	skip "$t" "it needs root (to drop to nobody with a low limit) and setpriv"
else
	chmod 644 "$dir/i40.json"
	nobody_limited "$dir/i40.json" 0.5 np-timer --wake timer
	rc_timer=$?
	nobody_limited "$dir/i40.json" 0.5 np-waker --wake waker
	rc_waker=$?
	if [ "$rc_timer" = 0 ] && [ "$rc_waker" = 2 ] &&
		grep -q 'its instances make 40 threads: more than the [0-9]* RLIMIT_NPROC' \
			"$dir/np-waker.out"; then
		pass "$t"
	else
		fail "$t" "timer: rc=$rc_timer $(tail -1 "$dir/np-timer.out"); waker: rc=$rc_waker $(tail -1 "$dir/np-waker.out")"
	fi
fi

# --slice is the benchmark task's scheduling, so it overrides every thread's, as --policy does.
t="--slice 3000 and --vary slice=3000,5000 set an rt-app thread's se.slice to 3000000"
cat >"$dir/slice.json" <<'EOF'
{ "tasks": { "sliced": { "loop": -1, "run": 1000, "timer": { "ref": "t", "period": 10000 } } } }
EOF
slice_of() { awk '$1 == "se.slice" { print $3 }' "$(find_thread "$1")/sched" 2>/dev/null; }
look_until "$dir/sl1.out" sliced 3000000 "slice_of sliced" -c -q -t 1 -W "$dir/slice.json" \
	-w None --slice 3000 --work-dir "$dir"
s1=$seen rc1=$rc
look_until "$dir/sl2.out" sliced 3000000 "slice_of sliced" -c -q -t 1 -W "$dir/slice.json" \
	-w None --vary slice=3000,5000 --work-dir "$dir"
s2=$seen rc2=$rc
if [ "$rc1" = 0 ] && [ "$s1" = 3000000 ] && [ "$rc2" = 0 ] && [ "$s2" = 3000000 ]; then
	pass "$t"
else
	fail "$t" "--slice: rc=$rc1 se.slice '$s1'; --vary: rc=$rc2 se.slice '$s2' $(tail -2 "$dir/sl2.out")"
fi

t="nothing of ours left running"
if no_leftovers 3; then pass "$t"; else fail "$t" "$(leftovers)"; fi
