#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_ncpus.sh - --ncpus: every thread of a row confined to its first N allowed CPUs, the
# counts' rows in order, ncpus in JSON and CSV, the table by CPU count, -L following the count,
# the log read back with its counts apart, and the refusals.
# run-alone: it looks at a row's threads while they run, which a busy machine delays past the row
. "$(dirname "$0")/lib.sh"
use_json_checker "--ncpus"

# What the rows are and where they ran is checked, not how they performed.
export INTERBENCH_TEST_SETTLE_MS=0

dir=$(scratch)
trap 'rm -rf "$dir"' EXIT

allowed=$(sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status)
first=${allowed%%[,-]*}

# Every thread of our session named ib-* or ibload-*, as "comm:cpus" words ("tid@comm:cpus"
# with $1), read by one awk over every thread's status (Hack's members live a round, a
# few ms: a look must be quick).
row_threads() {
	awk -v sid="$MYSID" -v with_tid="${1:-}" '
		function put() { if (name ~ /^ib(load)?-/ && s == sid && cpus != "")
			print (with_tid != "" ? tid "@" : "") name ":" cpus }
		FNR == 1 { if (NR > 1) put(); name = s = cpus = ""; n = split(FILENAME, p, "/")
			tid = p[n - 1] }
		$1 == "Name:" { name = $2 }
		$1 == "NSsid:" { s = $2 }
		$1 == "Cpus_allowed_list:" { cpus = $2 }
		END { if (NR) put() }' /proc/[0-9]*/task/*/status 2>/dev/null | tr '\n' ' '
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
ib --ncpus 1 -c -q -t 2 -W Audio -w Burn --work-dir "$dir" >"$dir/one.out" 2>&1 &
pid=$!
seen=$(sample_row ibload-Burn)
wait $pid; rc=$?
bad=$(tr ' ' '\n' <<<"$seen" | grep -v "^$" | grep -v ":$first\$")
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -2 "$dir/one.out")"
elif ! grep -q 'ib-Audio:' <<<"$seen" || ! grep -q 'ib-waker:' <<<"$seen" ||
	! grep -q 'ibload-Burn:' <<<"$seen"; then
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
ib --ncpus 1 -L 2 -c -q -t 2 -W Audio -w Burn --work-dir "$dir" >"$dir/l2.out" 2>&1 &
pid=$!
seen=$(sample_row ibload-Burn)
wait $pid; rc=$?
burn2=$(tr ' ' '\n' <<<"$seen" | grep -c '^ibload-Burn:')
if [ $rc = 0 ] && [ "$burn2" -eq $((burn1 + 1)) ]; then
	pass "$t ($burn1 and $burn2 threads)"
else
	fail "$t" "rc=$rc: $burn1 threads with --ncpus 1, $burn2 with -L 2"
fi

if [ "$(nproc)" -lt 2 ]; then
	skip "--ncpus 1,2" "this machine has fewer than 2 CPUs"
	exit 0
fi

t="--ncpus 1,2: the rows of count 1, then of count 2, each table headed by its count"
ib --ncpus 1,2 -q -t 1 -W Audio -W Video -w None -w Burn --work-dir "$dir" \
	--json "$dir/r.json" --csv "$dir/r.csv" >"$dir/two.out" 2>&1
rc=$?
heads=$(grep '^--- Benchmarking' "$dir/two.out" | sed 's/.*cpu of \([A-Za-z]*\) .*(\(.*\))$/\1 \2/' |
	tr '\n' ',')
if [ $rc = 0 ] && [ "$heads" = "Audio 1 CPU,Video 1 CPU,Audio 2 CPUs,Video 2 CPUs," ]; then
	pass "$t"
else
	fail "$t" "rc=$rc, headings: $heads"
fi

t="--ncpus 1,2: each JSON result has its ncpus, in the order run"
got=$("$PY" -c 'import json, sys
print(",".join("%s/%s/%s" % (r["ncpus"], r["benchmark"], r["load"])
	       for r in json.load(open(sys.argv[1]))["results"]))' "$dir/r.json" 2>&1)
want="1/Audio/None,1/Audio/Burn,1/Video/None,1/Video/Burn,2/Audio/None,2/Audio/Burn,2/Video/None,2/Video/Burn"
if [ "$got" = "$want" ]; then pass "$t"; else fail "$t" "$got"; fi

t="--ncpus 1,2: the closing table has a column per count and a line per cell"
table=$(sed -n '/^--- % deadlines met by CPU count ---$/,/^$/p' "$dir/two.out")
if has_lines "$table" '^Bench +Load +1 CPU +2 CPUs$' '^Audio +None( +[0-9.]+){2}$' \
	'^Audio +Burn( +[0-9.]+){2}$' '^Video +None( +[0-9.]+){2}$' '^Video +Burn( +[0-9.]+){2}$' &&
	[ "$(wc -l <<<"$table")" = 6 ]; then
	pass "$t"
else
	fail "$t" "$table"
fi

t="--ncpus 1,2: the CSV has ncpus; Burn kept about one CPU busy at --ncpus 1"
csv=$("$PY" -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
	if r["load"] == "Burn":
		print(r["ncpus"], r["load_intensity"])' "$dir/r.csv" 2>&1)
if awk '$1 == 1 && ($2 <= 0 || $2 > 1.05) { bad = 1 } $1 == 1 { n1++ } $1 == 2 { n2++ }
	END { exit bad || n1 != 2 || n2 != 2 }' <<<"$csv"; then
	pass "$t ($(tr '\n' ' ' <<<"$csv"))"
else
	fail "$t" "$(tr '\n' ' ' <<<"$csv")"
fi

t="--compare keeps the counts apart, from the log and from the CSV"
log=$(ls "$dir"/*.log 2>/dev/null | head -1)
cl=$(ib --compare "$log" 2>&1)
cc=$(ib --compare "$dir/r.csv" 2>&1)
if has_lines "$cl" '^--- Audio on 1 CPU: ' '^--- Audio on 2 CPUs: ' '^--- Video on 2 CPUs: ' &&
	has_lines "$cc" '^--- Audio on 1 CPU: ' '^--- Video on 2 CPUs: '; then
	pass "$t"
else
	fail "$t" "log: $(grep '^---' <<<"$cl" | tr '\n' ' ') csv: $(grep '^---' <<<"$cc" | tr '\n' ' ')"
fi

t="--dry-run lists each count's tables"
out=$(ib --dry-run --ncpus 2,1 -W Audio -w None -w Burn 2>&1)
if has_lines "$out" '^Audio \(2 CPUs\): None, Burn$' '^Audio \(1 CPU\): None, Burn$'; then
	pass "$t"
else
	fail "$t" "$out"
fi

t="bad --ncpus exits 2 with one line"
bad=""
over=$(( $(nproc) + 1 ))
for args in "--ncpus 0" "--ncpus $over" "--ncpus 1,1" "--ncpus x" "--ncpus 1 -u" "--ncpus" \
	"--ncpus 1,,2"; do
	# shellcheck disable=SC2086
	err=$(ib $args -c -q -t 1 -W Audio -w None --work-dir "$dir" 2>&1 >/dev/null)
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] || bad="$bad [$args: rc=$rc '$err']"
done
err=$(ib --ncpus "$over" -c -t 1 -W Audio -w None --work-dir "$dir" 2>&1 >/dev/null)
grep -qF "($allowed" <<<"$err" || grep -qF "CPUs $allowed" <<<"$err" || bad="$bad [no set: $err]"
if [ -z "$bad" ]; then pass "$t ($err)"; else fail "$t" "$bad"; fi
