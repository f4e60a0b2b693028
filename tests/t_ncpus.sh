#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_ncpus.sh - --ncpus: every thread of a row confined to its first N allowed CPUs, seen
# while the row runs, Hack's short-lived members too, and -L following the count. The counts'
# rows, their JSON, CSV, tables and refusals are in t_ncpus_rows.sh.
# run-quiet: it looks at a row's threads while they run, which a busy machine delays past the row
. "$(dirname "$0")/lib.sh"
use_json_checker "--ncpus"

# Where the rows' threads may run is checked, not how they performed.
export INTERBENCH_TEST_SETTLE_MS=0

scratch_dir

allowed=$(sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status)
first=${allowed%%[,-]*}

# Every thread of our session named ib-* or ibload-*, as "comm:cpus" words ("tid@comm:cpus"
# with $1), read by one grep over every thread's status (Hack's members live a round, a
# few ms: a look must be quick), which passes over a thread gone since the list was
# made, as an awk reading the files itself would not.
row_threads() {
	grep -sH -E '^(Name|NSsid|Cpus_allowed_list):' /proc/[0-9]*/task/*/status |
	awk -F'\t' -v sid="$MYSID" -v with_tid="${1:-}" '
		function put() { if (name ~ /^ib(load)?-/ && s == sid && cpus != "")
			print (with_tid != "" ? tid "@" : "") name ":" cpus }
		{ split($1, k, ":") }
		k[1] != file { if (file != "") put(); file = k[1]; name = s = cpus = ""
			n = split(file, p, "/"); tid = p[n - 1] }
		k[2] == "Name" { name = $2 }
		k[2] == "NSsid" { s = $2 }
		k[2] == "Cpus_allowed_list" { cpus = $2 }
		END { if (file != "") put() }' | tr '\n' ' '
}

# The threads of the row running now, once its bench task and load are both up.
sample_row() {
	local seen i
	for ((i = 0; i < 200; i++)); do	# up to 4 s, until the task and the load are up
		seen=$(row_threads)
		grep -q 'ib-Audio:' <<<"$seen" && grep -q "$1:" <<<"$seen" && break
		sleep 0.02
	done
	sleep 0.2	# the load's threads all started
	row_threads
}

t="--ncpus 1: every thread of the bench and load processes may use only CPU $first"
ib --ncpus 1 -c -q -t 1 -W Audio -w Burn --work-dir "$dir" >"$dir/one.out" 2>&1 &
pid=$!
seen=$(sample_row ibload-Burn)
wait $pid; rc=$?
bad=$(tr ' ' '\n' <<<"$seen" | grep -v "^$" | grep -v ":$first\$")
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -2 "$dir/one.out")"
elif ! grep -q 'ib-Audio:' <<<"$seen" || ! grep -q 'ibload-Burn:' <<<"$seen"; then
	fail "$t" "the row's threads were not all seen: $seen"
elif [ -n "$bad" ]; then
	fail "$t" "allowed elsewhere: $(tr '\n' ' ' <<<"$bad")"
else
	pass "$t ($(wc -w <<<"$seen") threads)"
fi
burn1=$(tr ' ' '\n' <<<"$seen" | grep -c '^ibload-Burn:')

t="--ncpus 1: Hack's sender and receiver processes are confined too"
ib --ncpus 1 -c -q -t 3 -W Audio -w Hack --work-dir "$dir" >"$dir/hack.out" 2>&1 &
pid=$!
# Hack's members come and go with its rounds: every thread seen in looks 20 ms apart
# from the start, each once (told apart by its thread id), until members were seen or
# the run ended (a look over /proc is slow on a busy machine: no waiting first).
seen=""
while kill -0 $pid 2>/dev/null; do
	seen="$seen $(row_threads tid)"
	[ "$(tr ' ' '\n' <<<"$seen" | grep '@ibload-Hack:' | sort -u | wc -l)" -ge 3 ] && break
	sleep 0.02
done
seen=$(tr ' ' '\n' <<<"$seen" | sort -u | sed 's/^[0-9]*@//' | tr '\n' ' ')
wait $pid; rc=$?
bad=$(tr ' ' '\n' <<<"$seen" | grep -v "^$" | grep -v ":$first\$")
nh=$(tr ' ' '\n' <<<"$seen" | grep -c '^ibload-Hack:')
if [ $rc != 0 ] || [ "$nh" -lt 3 ] || [ -n "$bad" ]; then
	fail "$t" "rc=$rc, $nh Hack threads, allowed elsewhere: $(tr '\n' ' ' <<<"$bad")"
else
	pass "$t ($nh of them)"
fi

t="-L follows the count: one more Burn thread with --ncpus 1 -L 2 than with --ncpus 1"
ib --ncpus 1 -L 2 -c -q -t 1 -W Audio -w Burn --work-dir "$dir" >"$dir/l2.out" 2>&1 &
pid=$!
seen=$(sample_row ibload-Burn)
wait $pid; rc=$?
burn2=$(tr ' ' '\n' <<<"$seen" | grep -c '^ibload-Burn:')
if [ $rc = 0 ] && [ "$burn2" -eq $((burn1 + 1)) ]; then
	pass "$t ($burn1 and $burn2 threads)"
else
	fail "$t" "rc=$rc: $burn1 threads with --ncpus 1, $burn2 with -L 2"
fi
