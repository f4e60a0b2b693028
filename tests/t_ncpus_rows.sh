#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_ncpus_rows.sh - --ncpus 1,2: the counts' rows in order, ncpus in JSON and CSV, the
# table by CPU count, the log read back with its counts apart, --dry-run, and the refusals.
# Where the threads may run, seen while they run, is in t_ncpus.sh.
. "$(dirname "$0")/lib.sh"
use_json_checker "--ncpus"

# What the rows are is checked, not how they performed.
export INTERBENCH_TEST_SETTLE_MS=0

scratch_dir

if [ "$(nproc)" -lt 2 ]; then
	skip "--ncpus 1,2" "this machine has fewer than 2 CPUs"
	exit 0
fi

t="--ncpus 1,2: the rows of count 1, then of count 2, each table headed by its count"
ib --ncpus 1,2 -q -t 0.3 -W Audio -W Video -w None -w Burn --work-dir "$dir" \
	--json "$dir/r.json" --csv "$dir/r.csv" >"$dir/two.out" 2>"$dir/two.err"
rc=$?
heads=$(grep '^--- Benchmarking' "$dir/two.out" | sed 's/.*cpu of \([A-Za-z]*\) .*(\(.*\))$/\1 \2/' |
	tr '\n' ',')
if [ $rc = 0 ] && [ "$heads" = "Audio 1 CPU,Video 1 CPU,Audio 2 CPUs,Video 2 CPUs," ]; then
	pass "$t"
else
	fail "$t" "rc=$rc, headings: $heads $(tail -3 "$dir/two.err")"
fi

t="--ncpus 1,2: each JSON result has its ncpus, in the order run"
got=$(py3 -c 'import json, sys
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
	fail "$t" "$table / after it: $(sed -n '/^--- % deadlines met by CPU count ---$/,+8p' \
		"$dir/two.out" | tr '\n' '|') / stderr: $(tail -3 "$dir/two.err")"
fi

t="--ncpus 1,2: the CSV has ncpus; Burn kept about one CPU busy at --ncpus 1"
csv=$(py3 -c 'import csv, sys
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
allowed=$(sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status)
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
