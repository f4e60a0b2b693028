#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_burn.sh - -u and -L as the kernel saw them: the CPUs the bench and
# the Burn load may use, how many Burn threads spin, and the CPUs they fill.
# Each is judged from the threads' own account in /proc/PID/task/TID/schedstat
# (CPU time, time waiting to run), so a busy host does not decide the result:
# a Burn thread is runnable all the time however little of a CPU it gets.
. "$(dirname "$0")/lib.sh"

scratch_dir

# burn_check PID SECONDS: sample the threads of load process PID over SECONDS;
# prints "spinners cpus": how many threads were running or waiting to run
# (never asleep) at least 90 % of the wall time, whatever else the host was
# running, and the CPUs the process's CPU time filled (the kernel's account).
burn_check() {
	local lp=$1 secs=$2 th w1 w2 f r1 d1 r2 d2 rest n=0 run=0
	local -A r0 q0
	th=(/proc/"$lp"/task/*)
	w1=$(date +%s%N)
	for f in "${th[@]}"; do
		read -r r1 d1 rest <"$f/schedstat" 2>/dev/null && r0[$f]=$r1 q0[$f]=$d1
	done
	sleep "$secs"
	w2=$(date +%s%N)
	for f in "${th[@]}"; do
		read -r r2 d2 rest <"$f/schedstat" 2>/dev/null || continue
		[ -n "${r0[$f]:-}" ] || continue
		run=$((run + r2 - r0[$f]))
		# runnable (running or waiting) for >= 90 % of the wall time
		[ $(( (r2 - r0[$f] + d2 - q0[$f]) * 10 )) -ge $(( (w2 - w1) * 9 )) ] && n=$((n + 1))
	done
	awk -v n="$n" -v r="$run" -v w="$((w2 - w1))" 'BEGIN { printf "%d %.2f", n, r / w }'
}

# burn_look PID SECONDS WANT: burn_check, and once more if fewer or more than WANT
# threads spun while the load still runs: a machine busy enough to start the Burn
# threads after the first list was read (the row is 3 s with its settling).
burn_look() {
	local got
	got=$(burn_check "$1" "$2")
	if [ "${got%% *}" != "$3" ] && kill -0 "$1" 2>/dev/null; then
		got=$(burn_check "$1" "$2")
	fi
	printf '%s' "$got"
}

t="-u runs the load and the bench on one CPU"
timeout 60 "$IB" -u -c -t 2 -W Audio -w Burn --work-dir "$dir" >"$dir/uout" 2>&1 &
pid=$!
btid=$(await find_thread ib-Audio)
lpid=$(find_proc ibload-Burn)
bcpus=$([ -n "$btid" ] && sed -n 's/^Cpus_allowed_list:\t//p' "$btid/status")
lcpus=$([ -n "$lpid" ] && sed -n 's/^Cpus_allowed_list:\t//p' "/proc/$lpid/status")
ncpu=$(nproc)
read -r nth kcpus <<<"$([ -n "$lpid" ] && burn_look "$lpid" 1 "$ncpu")"
wait $pid; rc=$?
# Two Burn threads (one per online CPU) pinned to one CPU: the kernel gave
# them at most one CPU, and each kept asking for it (running or waiting to
# run, never asleep) however busy the host was; the row reports at most one.
if [ $rc != 0 ] || [ -z "$bcpus" ] || [ "$bcpus" != "$lcpus" ] || [[ $bcpus == *[,-]* ]]; then
	fail "$t" "rc=$rc, bench CPUs '$bcpus', load CPUs '$lcpus'"
elif ! ucpus=$(sed -n 's/^Burn\t.*  \([0-9.]*\) CPUs\(  \[[^]]*\]\)\?$/\1/p' "$dir/uout") || [ -z "$ucpus" ] ||
	! awk -v c="$ucpus" 'BEGIN { exit !(c > 0 && c < 1.2) }'; then
	fail "$t" "Burn on one CPU kept '$ucpus' CPUs busy: $(cat "$dir/uout")"
elif [ "${nth:-0}" != "$ncpu" ] || ! awk -v k="$kcpus" 'BEGIN { exit !(k < 1.2) }'; then
	fail "$t" "schedstat of the load: $nth threads spinning (want $ncpu), $kcpus CPUs"
else
	pass "$t (CPU $bcpus, Burn $ucpus CPUs; schedstat: $nth threads spinning, $kcpus CPUs)"
fi

t="-L sets the number of Burn threads"
ib -c -t 2 -L 1 -W Audio -w Burn --work-dir "$dir" >"$dir/lout" 2>&1 &
pid=$!
lpid=$(await find_proc ibload-Burn)
sleep 0.3
read -r nth kcpus <<<"$([ -n "$lpid" ] && burn_look "$lpid" 1 1)"
wait $pid; rc=$?
cpus=$(sed -n 's/^Burn\t.*  \([0-9.]*\) CPUs\(  \[[^]]*\]\)\?$/\1/p' "$dir/lout")
# One thread: never more than one CPU; it spins (runnable all the time).
if [ $rc != 0 ] || [ -z "$cpus" ] || ! awk -v c="$cpus" 'BEGIN { exit !(c > 0 && c < 1.2) }'; then
	fail "$t" "rc=$rc, -L 1 kept '$cpus' CPUs busy: $(cat "$dir/lout")"
elif [ "${nth:-0}" != 1 ] || ! awk -v k="$kcpus" 'BEGIN { exit !(k < 1.2) }'; then
	fail "$t" "schedstat: $nth threads spinning (want 1), $kcpus CPUs"
else
	pass "$t ($cpus CPUs with -L 1; schedstat: 1 thread spinning, $kcpus CPUs)"
fi

t="nothing left after the Burn runs"
if no_leftovers 2; then pass "$t"; else fail "$t" "left:$(leftovers)"; fi
