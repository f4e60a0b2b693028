#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_rtapp_engine.sh - the rt-app engine end to end, through build/tests/rtapprun: Debian's
# mp3-short and video-short, a 10 ms timer at 100 wake-ups a second with every deadline met
# and work_ratio near 1, a resume chain, a timer two threads take in turn, the count of timer
# periods against rt-app's own (t_rtapp_engine_run.sh has the rest, which times nothing).
# run-alone: deadlines met and wake-ups counted need the CPUs to themselves
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/rtapp_lib.sh"

# ---- Debian's examples ----

# Its ticks are periods whether it reached them in time or not; a resume that comes while
# AudioOut is still busy is lost, as in rt-app. mp3.decoder is not counted on: its first
# signal is lost if OMXCall is not waiting yet (the file's own race, rt-app's too), and then
# both wait for each other while the others go on.
mp3_ok() {
	rr "$EX/mp3-short.json" 1 && run_ok &&
		within "$(periods AudioTick)" 160 168 &&
		within "$(val AudioTick timer_wakeups)" 150 168 &&
		within "$(val AudioOut resume_wakeups)" 25 34 &&
		within "$(val AudioTrack resume_wakeups)" 25 34
}

t="mp3-short: AudioTick's 6 ms timer 166 times a second, AudioOut and AudioTrack every 5th tick"
[ -f "$EX/mp3-short.json" ] && [ -f "$EX/video-short.json" ] && ahead "$EX/video-short.json" 1
if [ ! -f "$EX/mp3-short.json" ]; then
	skip "$t" "$EX/mp3-short.json is not installed (Debian's rt-app)"
elif twice mp3_ok; then
	pass "$t"
else
	fail "$t" "$(grep -E '^name=(AudioTick|AudioOut|AudioTrack) ' "$dir/out" | cut -c1-160) $(why)"
fi

video_ok() {
	rr "$EX/video-short.json" 1 && run_ok &&
		within "$(periods hwc_eventmon)" 57 61 && within "$(periods waker)" 28 31 &&
		within "$(val DispSync resume_wakeups)" 50 200 &&
		within "$(val NuPlayerRenderer resume_wakeups)" 15 31
}

t="video-short: hwc_eventmon's 16.7 ms and waker's 33.3 ms timers, DispSync resumed"
if [ ! -f "$EX/video-short.json" ]; then
	skip "$t" "$EX/video-short.json is not installed (Debian's rt-app)"
elif twice video_ok; then
	pass "$t"
else
	fail "$t" "$(grep -E '^name=(hwc_eventmon|waker|DispSync|NuPlayerRenderer) ' \
		"$dir/out" | cut -c1-160) $(why)"
fi

# ---- small files with known answers ----

cat >"$dir/t10.json" <<'EOF'
{
	"tasks" : {
		"tick" : {
			"loop" : -1,
			"run" : 1000,
			"timer" : { "ref" : "t10", "period" : 10000 }
		}
	},
	"global" : { "duration" : 1, "calibration" : 100, "log_basename" : "rta" }
}
EOF

cat >"$dir/chain.json" <<'EOF'
{
	"tasks" : {
		"A" : { "loop" : -1, "run" : 1000, "resume" : "B",
			"timer" : { "ref" : "tA", "period" : 10000 } },
		"B" : { "loop" : -1, "suspend" : "B", "run" : 500 }
	}
}
EOF

t10_ok() {
	rr "$dir/t10.json" 1 && run_ok && within "$(val tick timer_wakeups)" 95 101 &&
		[ "$(val tick missed)" = 0 ] && within "$(val tick work_ratio)" 0.95 1.1 &&
		within "$(val tick wake_mean_ns)" 1 2000000
}

t="a 10 ms timer doing 1 ms of run: ~100 wake-ups a second, every deadline met, work_ratio ~1"
ahead "$dir/chain.json" 1
if twice t10_ok; then pass "$t"
else fail "$t" "$(grep '^name=tick' "$dir/out" | cut -c1-300) $(why)"; fi

# B's run is short: it is back in its suspend before A's next resume.
chain_ok() {
	local a
	rr "$dir/chain.json" 1 && run_ok || return 1
	a=$(periods A)
	within "$a" 95 101 && within "$(val B resume_wakeups)" $((a - 3)) $((a + 1)) &&
		within "$(val B wake_mean_ns)" 1 5000000 && within "$(val B wake_max_ns)" 1 1e9 &&
		[ "$(val B timer_wakeups)" = 0 ] && within "$(val B queue_mean_ns)" 0 1e9
}

t="a resume chain A->B: each of A's periods wakes B, whose wake-ups are counted and split"
if twice chain_ok; then pass "$t"
else fail "$t" "$(grep '^name=' "$dir/out" | cut -c1-220) $(why)"; fi

cat >"$dir/share.json" <<'EOF'
{
	"tasks" : {
		"one" : { "loop" : -1, "run" : 1000, "timer" : { "ref" : "T", "period" : 10000 } },
		"two" : { "loop" : -1, "run" : 1000, "timer" : { "ref" : "T", "period" : 10000 } },
		"apart" : { "instance" : 2, "loop" : -1, "run" : 500,
			    "timer" : { "ref" : "unique", "period" : 10000 } },
		"shared" : { "instance" : 2, "loop" : -1, "run" : 500,
			     "timer" : { "ref" : "U", "period" : 10000 } }
	}
}
EOF

# Taking turns, each use comes ~20 ms after the thread's last: a slack near 19 ms, not 9.
share_ok() {
	rr "$dir/share.json" 1 && run_ok &&
		within "$(periods one)" 48 51 && within "$(periods two)" 48 51 &&
		within "$(val one slack_mean_us)" 16000 19100 &&
		within "$(periods apart)" 195 201 && within "$(val apart slack_mean_us)" 6000 9600 &&
		within "$(periods shared)" 97 101
}

t="two threads sharing a timer take its expiries in turn; unique timers do not"
if twice share_ok; then pass "$t"
else fail "$t" "$(grep '^name=' "$dir/out" | cut -c1-200) $(why)"; fi

# ---- against rt-app itself ----

# rtapp_once: rt-app's count of timer periods in $theirs (its log holds a line per run of
# the phase, run + timer: one period each, after a header), $rc its status; ours in $ours.
# The two run side by side: a thread of 10 % of a CPU each, on two CPUs.
rtapp_once() {
	local pid ours_ok
	rm -rf "$dir/log" && mkdir "$dir/log" || return 1
	(cd "$dir/log" && exec timeout -k 5 30 rt-app "$dir/t10-rtapp.json" >"$dir/rtapp.out" 2>&1) &
	pid=$!
	rr "$dir/t10.json" 1 && ours_ok=1
	wait $pid
	rc=$?
	theirs=$(grep -cv '^#' "$dir/log/rta-tick-0.log" 2>/dev/null)
	[ -n "$theirs" ] && [ "$theirs" != 0 ] && [ -n "$ours_ok" ] || return 1
	ours=$(periods tick) && within "$ours" "$(( theirs * 95 / 100 ))" "$(( theirs * 105 / 100 ))"
}

t="rt-app runs the 10 ms timer file 1 s: its log's periods match ours within 5 %"
if ! command -v rt-app >/dev/null; then
	skip "$t" "rt-app is not installed"
else
	sed 's|"log_basename"|"logdir" : "'"$dir/log"'", "log_basename"|' "$dir/t10.json" \
		>"$dir/t10-rtapp.json"
	if twice rtapp_once; then
		pass "$t (rt-app $theirs, ours $ours)"
	elif [ $rc != 0 ] && [ -z "$theirs" ]; then
		skip "$t" "rt-app could not run here (rc=$rc): $(tail -1 "$dir/rtapp.out")"
	elif [ -z "$theirs" ] || [ "$theirs" = 0 ]; then
		fail "$t" "no rt-app log: $(tail -2 "$dir/rtapp.out" | tr '\n' ' ')"
	else
		fail "$t" "rt-app $theirs, ours $ours"
	fi
fi

