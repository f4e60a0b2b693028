#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_rtapp_engine_run.sh - the rt-app engine's checks that time nothing, side by side with
# the others: a deadlock the checks cannot see ended with its threads named, threads named
# (and niced by the row) while they run and nothing left after, SCHED_FIFO refused without the
# privilege.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/rtapp_lib.sh"

cat >"$dir/dl.json" <<'EOF'
{
	"tasks" : {
		"holder" : { "loop" : -1, "lock" : "M", "suspend" : "S", "unlock" : "M", "run" : 100 },
		"resumer" : { "loop" : -1, "run" : 200, "lock" : "M", "resume" : "S", "unlock" : "M" }
	}
}
EOF

t="a deadlock the checks cannot see ends a 20 s row within a few seconds, naming the threads"
start=$SECONDS
rr "$dir/dl.json" 20
rc=$? took=$((SECONDS - start))
said="reason=deadlock: .*holder \(suspend 'S', holding 'M'\)"
said="$said.*resumer \(lock 'M', held by holder\)"
if [ $rc = 1 ] && [ $took -le 6 ] && grep -qE "^run status=failed .*$said" "$dir/out" &&
   [ "$(val holder end)" = deadlock ] && [ "$(val resumer end)" = deadlock ]; then
	pass "$t"
else
	fail "$t" "rc=$rc after ${took}s: $(why)"
fi

# ---- names and what is left ----

cat >"$dir/names.json" <<'EOF'
{
	"tasks" : {
		"a_very_long_thread_name" : { "loop" : -1, "run" : 100,
					      "timer" : { "ref" : "t", "period" : 10000 } },
		"short" : { "priority" : -5, "loop" : -1, "sleep" : 10000 }
	}
}
EOF

# The nice of thread $1 (a /proc/PID/task/TID path): stat's 19th field.
nice_of() {
	local stat
	{ read -r stat <"$1/stat"; } 2>/dev/null || return 1
	stat=${stat##*) }
	set -- $stat
	printf '%s' "${17}"
}

t="each thread has the file's name (cut to 15 bytes) and the row's nice while it runs, the timer's thread no waker (its own timer); none is left"
"$RUN" --nice 7 "$dir/names.json" 1.5 >"$dir/n.out" 2>&1 &
bg=$!
missing=""
for n in a_very_long_thr short; do
	await find_thread "$n" >/dev/null || missing="$missing $n"
done
sleep 0.2
for n in a_very_long_thr short; do
	p=$(find_thread "$n") && [ "$(nice_of "$p")" = 7 ] ||
		missing="$missing $n(nice ${p:+$(nice_of "$p")})"
done
find_thread ib-waker >/dev/null && missing="$missing (a waker ran)"
wait $bg
rc=$?
left=""
for n in a_very_long_thr short AudioTick mp3.decoder holder resumer tick rtapprun; do
	find_thread "$n" >/dev/null && left="$left $n"
done
if [ $rc != 0 ] || [ -n "$missing" ] || [ -n "$left" ]; then
	fail "$t" "rc=$rc, not seen:${missing:- none}, left:${left:- none}"
else
	pass "$t"
fi

t="--wake waker: the timer's thread has its waker (ib-waker) while it runs; none is left"
"$RUN" --waker "$dir/names.json" 1 >"$dir/n.out" 2>&1 &
bg=$!
seen=no
await find_thread ib-waker >/dev/null && seen=yes
wait $bg
rc=$?
if [ $rc = 0 ] && [ $seen = yes ] && ! find_thread ib-waker >/dev/null &&
	grep -q '^name=a_very_long_thread_name .* timer_wakeups=[1-9]' "$dir/n.out"; then
	pass "$t"
else
	fail "$t" "rc=$rc, waker seen: $seen, $(head -3 "$dir/n.out")"
fi

# ---- refusals at run time ----

cat >"$dir/fifo.json" <<'EOF2'
{
	"tasks" : {
		"rt" : { "policy" : "SCHED_FIFO", "priority" : 10, "loop" : -1, "run" : 100,
			 "timer" : { "ref" : "t", "period" : 10000 } },
		"other" : { "loop" : -1, "run" : 100, "sleep" : 10000 }
	}
}
EOF2

t="SCHED_FIFO without the privilege fails the run at once, naming the thread and the call"
chmod 755 "$dir" && chmod 644 "$dir/fifo.json"
if ! is_root && [ "$(ulimit -r)" != 0 ]; then
	skip "$t" "this user may use SCHED_FIFO (RLIMIT_RTPRIO $(ulimit -r))"
elif ! is_root || command -v setpriv >/dev/null; then
	start=$SECONDS
	as_nobody timeout -k 5 30 "$RUN" "$dir/fifo.json" 5 >"$dir/out" 2>"$dir/err"
	rc=$? took=$((SECONDS - start))
	said="reason=tasks.rt: sched_setattr SCHED_FIFO priority 10: Operation not permitted"
	if [ $rc = 1 ] && [ $took -le 2 ] && grep -qF "$said (needs root or CAP_SYS_NICE)" "$dir/out" &&
	   [ "$(val rt end)" = failed ] && [ "$(val other end)" = stopped ]; then
		pass "$t"
	else
		fail "$t" "rc=$rc after ${took}s: $(why)"
	fi
else
	skip "$t" "setpriv is not installed (util-linux)"
fi
