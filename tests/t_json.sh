#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_json.sh - the machine-readable output: JSON and CSV against the
# text table, an interrupted run, the run's context, --pm-qos, --trace-above.
# run-first: a long script (10 s or more beside the others)
. "$(dirname "$0")/lib.sh"

# These tests check what is printed, not how the rows performed: the load's
# second alone before each row is cut short (test-only).
export INTERBENCH_TEST_SETTLE_MS=100

dir=$(scratch)
tracing_on=""
cleanup() {
	[ -n "$tracing_on" ] && echo 1 >"$tracing_on"
	rm -rf "$dir"
}
trap cleanup EXIT

use_json_checker "JSON and CSV output"

comment=$'say "hi" \\ back\nnext \xc3\xbcn\xc3\xafc\xc3\xb8d\xc3\xa9 \xe2\x9c\x93'

# One run for most checks: JSON on stdout (the table moves to stderr), CSV in a file.
ib -c -t 0.5 -W Audio -W Gaming -w None -w Burn --work-dir "$dir" --json - \
	--csv "$dir/r.csv" -m "$comment" >"$dir/r.json" 2>"$dir/r.txt"
rc=$?

t="--json -: one JSON document on stdout, the table on stderr"
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/r.txt")"
elif ! grep -q '^--- Benchmarking simulated cpu of Gaming' "$dir/r.txt"; then
	fail "$t" "no table on stderr: $(head -5 "$dir/r.txt")"
elif ! err=$(chk get "$dir/r.json" "len(d['results'])"); then
	fail "$t" "$err"
elif [ "$err" != 4 ]; then
	fail "$t" "$err results, want 4"
else
	pass "$t"
fi

t="JSON: every name present with its type; histogram sums to samples, its mean within 2 %, percentiles ordered"
if err=$(chk schema "$dir/r.json"); then pass "$t"; else fail "$t" "$err"; fi

t="the text table's numbers are the JSON's, in ms"
if err=$(chk text "$dir/r.json" "$dir/r.txt"); then pass "$t"; else fail "$t" "$err"; fi

t="CSV: the fixed first columns, one row per result, the JSON's values"
if err=$(chk csv "$dir/r.json" "$dir/r.csv"); then pass "$t"; else fail "$t" "$err"; fi

t="a comment with quotes, a backslash, a newline and UTF-8 round-trips through JSON"
got=$(IB_COMMENT="$comment" chk get "$dir/r.json" \
	"d['run']['comment'] == __import__('os').environ['IB_COMMENT'] and d['run']['command_line'][-1] == d['run']['comment']")
if [ "$got" = True ]; then pass "$t"; else fail "$t" "comment came back as $(get "$dir/r.json" "repr(d['run']['comment'])")"; fi

t="the header's context line matches the JSON"
line=$(grep '^Preemption: ' "$dir/r.txt")
want=$(get "$dir/r.json" "'Preemption: %s, HZ %s, clocksource: %s, governor: %s, PM QoS: untouched, sched_ext: %s, autogroup: %s' % (
	'%s (%s)' % (d['system']['preemption'], d['system']['preemption_source']) if d['system']['preemption'] else 'unknown',
	d['system']['hz'] or 'unknown', d['system']['clocksource'] or '-', d['system']['cpufreq_governor'] or '-',
	d['system']['sched_ext'] + (': ' + d['system']['sched_ext_ops'] if d['system']['sched_ext_ops'] else ''),
	{True: 'on', False: 'off', None: 'unavailable'}[d['system']['autogroup']])")
if [ -z "$line" ] || [ "$line" != "$want" ]; then
	fail "$t" "'$line', want '$want'"
elif [ "$(grep -A1 '^Benchmarking kernel' "$dir/r.txt" | tail -1)" != "$line" ]; then
	fail "$t" "not right after the 'Benchmarking kernel' line"
else
	pass "$t"
fi

t="the header's CPU model and command line lines match the JSON, after the CPUs line"
got=$(grep -A2 '^CPUs: ' "$dir/r.txt" | tail -2)
want=$(get "$dir/r.json" "'CPU model: %s\nKernel command line: %s' % (d['system']['cpu_model'] or 'unknown',
	''.join(' ' if ord(c) < 32 else c for c in d['system']['kernel_cmdline'] or 'unknown'))")
if [ "$got" = "$want" ]; then pass "$t"; else fail "$t" "'$got', want '$want'"; fi

t="system: what the kernel and /proc say"
want="$(uname -r) $(nproc) $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) $(cat /proc/sys/kernel/sched_rt_runtime_us)"
got=$(get "$dir/r.json" "'%s %s %s %s' % tuple(d['system'][k] for k in ('kernel_release', 'cpus_online', 'mem_kib', 'sched_rt_runtime_us'))")
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
gotcs=$(get "$dir/r.json" "d['system']['clocksource'] or ''")
if [ "$got" != "$want" ]; then
	fail "$t" "'$got', want '$want'"
elif [ "$gotcs" != "$cs" ]; then
	fail "$t" "clocksource '$gotcs', want '$cs'"
else
	pass "$t"
fi

# The preemption model as shell tools find it, in the same order of witnesses.
kernel_config() {
	cat "/boot/config-$(uname -r)" 2>/dev/null || zcat /proc/config.gz 2>/dev/null
}
expected_preemption() {
	local v cfg
	uname -v | grep -qw PREEMPT_RT && { echo rt; return; }
	v=$(sed -n 's/.*[[(]\([a-z]*\)[])].*/\1/p' /sys/kernel/debug/sched/preempt 2>/dev/null)
	[ -n "$v" ] && { echo "$v"; return; }
	cfg=$(kernel_config)
	if uname -v | grep -qw PREEMPT_DYNAMIC || printf '%s\n' "$cfg" | grep -qx CONFIG_PREEMPT_DYNAMIC=y; then
		v=$(tr ' ' '\n' </proc/cmdline | sed '/^--$/q' |
			sed -n 's/^preempt=\(none\|voluntary\|full\|lazy\)$/\1/p' | tail -1)
		[ -n "$v" ] && { echo "$v"; return; }
	fi
	for v in _RT:rt _LAZY:lazy :full _VOLUNTARY:voluntary _NONE:none; do
		if printf '%s\n' "$cfg" | grep -qx "CONFIG_PREEMPT${v%%:*}=y"; then
			echo "${v#*:}"
			return
		fi
	done
}

t="system.hz is the kernel config's CONFIG_HZ"
want=$(kernel_config | sed -n 's/^CONFIG_HZ=\([0-9]*\)$/\1/p' | head -1)
got=$(get "$dir/r.json" "d['system']['hz'] or ''")
if [ -z "$want" ]; then
	skip "$t" "no kernel config to tell it here"
elif [ "$got" = "$want" ]; then
	pass "$t ($got)"
else
	fail "$t" "'$got', want '$want'"
fi

t="system.preemption is the model the kernel reports"
want=$(expected_preemption)
got=$(get "$dir/r.json" "d['system']['preemption'] or ''")
if [ -z "$want" ]; then
	skip "$t" "no debugfs, preempt= or kernel config to tell it here"
elif [ "$got" = "$want" ]; then
	pass "$t ($got, from $(get "$dir/r.json" "d['system']['preemption_source']"))"
else
	fail "$t" "'$got', want '$want'"
fi

# Real time (when allowed), --percentiles, and a comment that is not UTF-8.
rt=""
is_root && rt="-r"
ib -c $rt -t 0.5 -W Audio -w None --percentiles --work-dir "$dir" --json "$dir/rt.json" \
	-m $'bad \xff\xfe byte' >"$dir/rt.txt" 2>&1
rc=$?
t="the table equals the JSON in ${rt:+real time (us) and }p99/p99.9 columns"
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/rt.txt")"
elif [ -n "$rt" ] && ! grep -q 'Latency +/- SD (us)' "$dir/rt.txt"; then
	fail "$t" "not in us: $(cat "$dir/rt.txt")"
elif err=$(chk schema "$dir/rt.json") && err=$(chk text "$dir/rt.json" "$dir/rt.txt"); then
	pass "$t"
else
	fail "$t" "$err"
fi

t="a comment that is not UTF-8 still gives strict UTF-8 JSON (U+FFFD)"
got=$(get "$dir/rt.json" "d['run']['comment'] == 'bad \ufffd\ufffd byte'" 2>&1)
if [ "$got" = True ]; then pass "$t"; else fail "$t" "$got"; fi

t="SIGINT in the 2nd of 3 rows: the JSON keeps the finished row and says interrupted"
"$IB" -c -t 1 -W Audio -w None -w Video -w Burn --work-dir "$dir" \
	--json "$dir/int.json" --csv "$dir/int.csv" >"$dir/int.txt" 2>&1 &
pid=$!
for _ in $(seq 150); do
	[ "$(grep -c '"histogram"' "$dir/int.json" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
got=$(get "$dir/int.json" "(len(d['results']), d['run']['interrupted'], d['results'][0]['load'], d['run']['end'] is not None)" 2>&1)
if [ $rc != 130 ]; then
	fail "$t" "rc=$rc: $(tail -3 "$dir/int.txt")"
elif [ "$got" != "(1, True, 'None', True)" ]; then
	fail "$t" "$got"
elif ! grep -q '^Using CPU time as work, running every load for 1 second$' "$dir/int.txt"; then
	fail "$t" "the header's seconds: $(grep '^Using' "$dir/int.txt")"
elif ! err=$(chk schema "$dir/int.json") || ! err=$(chk csv "$dir/int.json" "$dir/int.csv"); then
	fail "$t" "$err"
elif ! no_leftovers 2; then
	fail "$t" "left:$(leftovers)"
else
	pass "$t"
fi

t="--json into a missing directory: exit 1 with one line, before running"
start=$SECONDS
err=$(ib -c -t 5 -W Audio -w None --work-dir "$dir" --json "$dir/no/such/r.json" 2>&1 >/dev/null)
rc=$?
if [ $rc = 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
	printf '%s' "$err" | grep -q -- '--json' && [ $((SECONDS - start)) -lt 4 ]; then
	pass "$t"
else
	fail "$t" "rc=$rc after $((SECONDS - start)) s: $err"
fi

t="the frame rate recorded is the one that ran: Game alone 60, with Render 144 and 60 per row"
ib -t 0.3 -W Game -w None --work-dir "$dir" --json "$dir/f1.json" --csv "$dir/f1.csv" \
	>"$dir/f1.txt" 2>&1
ib -c -t 0.3 -W Game -W Render -w None --work-dir "$dir" --json "$dir/f2.json" >/dev/null 2>&1
got=$(py3 - "$dir" <<'PYEOF'
import csv, json, sys
d = sys.argv[1]
j1, j2 = json.load(open(d + '/f1.json')), json.load(open(d + '/f2.json'))
c1 = next(csv.DictReader(open(d + '/f1.csv')))
s1 = [l for l in open(d + '/f1.txt') if l.startswith('Settings:')]
print(j1['run']['fps'], c1['fps'], c1['frame_rate'], ' fps=60 ' in (s1[0] if s1 else ''),
      [r['frame_rate'] for r in j1['results']], j2['run']['fps'],
      sorted((r['benchmark'], r['frame_rate']) for r in j2['results']))
PYEOF
)
want="60 60 60 True [60] 144 [('Game', 60), ('Render', 144)]"
if [ "$got" = "$want" ]; then pass "$t"; else fail "$t" "got $got, want $want"; fi

# Without the privilege, --pm-qos and --trace-above must say so and stop.
as_user() {
	if is_root; then
		chmod 711 "$dir"
		mkdir -p "$dir/user" && chmod 777 "$dir/user"
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$IB" \
			-c -t 5 -W Audio -w None --work-dir "$dir/user" "$@"
	else
		ib -c -t 5 -W Audio -w None --work-dir "$dir" "$@"
	fi
}
for opt in "--pm-qos 0" "--trace-above 100"; do
	t="$opt without the privilege: exit 1 with one line naming it"
	if is_root && ! command -v setpriv >/dev/null; then
		skip "$t" "no setpriv to drop root"
		continue
	fi
	err=$(as_user $opt 2>&1 >/dev/null)
	rc=$?
	if [ $rc = 1 ] && [ "$(printf '%s\n' "$err" | grep -vc 'warning: cannot use SCHED_FIFO')" = 1 ] &&
		printf '%s' "$err" | grep -q -- "${opt% *}"; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $err"
	fi
done

t="--pm-qos 0 holds /dev/cpu_dma_latency at 0 during the run and is recorded"
if ! is_root; then
	skip "$t" "needs root for /dev/cpu_dma_latency"
else
	# read once the row's task is up: the run holds it from before its first row
	ib -c -t 1 -W Audio -w None --work-dir "$dir" --pm-qos 0 --json "$dir/qos.json" \
		>"$dir/qos.txt" 2>&1 &
	pid=$!
	await find_thread ib-Audio >/dev/null
	during=$(od -An -td4 -N4 /dev/cpu_dma_latency | tr -d ' ')
	wait $pid
	rc=$?
	got=$(get "$dir/qos.json" "d['system']['pm_qos_us']" 2>&1)
	if [ $rc != 0 ] || [ "$got" != 0 ]; then
		fail "$t" "rc=$rc, pm_qos_us $got: $(tail -3 "$dir/qos.txt")"
	elif [ "$during" != 0 ]; then
		fail "$t" "/dev/cpu_dma_latency read $during during the run"
	elif ! grep -q 'PM QoS: 0 us, ' "$dir/qos.txt"; then
		fail "$t" "header: $(grep '^Preemption' "$dir/qos.txt")"
	else
		pass "$t"
	fi
fi

t="--trace-above 1: a marker in the trace, tracing stopped, the row recorded"
tracefs=""
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -e "$d/trace_marker" ] && { tracefs=$d; break; }
done
if ! is_root; then
	skip "$t" "needs root for tracefs"
elif [ -z "$tracefs" ]; then
	skip "$t" "tracefs is not mounted"
else
	marker='interbench: Audio latency'
	before=$(grep -c "$marker" "$tracefs/trace")
	tracing_on="$tracefs/tracing_on"
	echo 1 >"$tracing_on"
	ib -c -t 0.5 -W Audio -w None --work-dir "$dir" --trace-above 1 --json "$dir/tr.json" \
		>"$dir/tr.txt" 2>"$dir/tr.err"
	rc=$?
	on=$(cat "$tracing_on")
	after=$(grep -c "$marker" "$tracefs/trace")
	echo 1 >"$tracing_on"
	got=$(get "$dir/tr.json" "(d['results'][0]['trace_triggered_ns'] or 0) > 1000")
	if [ $rc != 0 ]; then
		fail "$t" "rc=$rc: $(cat "$dir/tr.err")"
	elif [ "$after" -le "$before" ]; then
		fail "$t" "no new marker in $tracefs/trace ($before before, $after after)"
	elif [ "$on" != 0 ]; then
		fail "$t" "tracing_on is $on after the run"
	elif [ "$got" != True ]; then
		fail "$t" "trace_triggered_ns: $(get "$dir/tr.json" "d['results'][0]['trace_triggered_ns']")"
	elif [ "$(grep -c 'tracing stopped in the None row of Audio' "$dir/tr.err")" != 1 ]; then
		fail "$t" "stderr does not name the row once: $(cat "$dir/tr.err")"
	else
		pass "$t"
	fi
fi

t="nothing left after the JSON runs"
if no_leftovers 2; then pass "$t"; else fail "$t" "left:$(leftovers)"; fi
