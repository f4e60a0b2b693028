#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_instances.sh - --instances N: the copies running at the same time, their pooled result
# and each one's figures (JSON, CSV, the table's note), the refusals, nothing left behind.
. "$(dirname "$0")/lib.sh"

export INTERBENCH_TEST_SETTLE_MS=0

scratch_dir

# How many threads of our session are named $1 now; "AUDIO VIDEO" for ib-Audio and ib-Video.
count_threads() { session_threads "$1" | wc -l; }
audio_video() { echo "$(count_threads ib-Audio) $(count_threads ib-Video)"; }

t="--instances 2: two ib-Audio threads seen at once in one row"
if ! look_until "$dir/a.out" ib-Audio 2 "count_threads ib-Audio" -c -q -t 1 \
	--instances 2 -W Audio -w None --work-dir "$dir" --json "$dir/a.json" --csv "$dir/a.csv"; then
	fail "$t" "rc=$rc: $(tail -2 "$dir/a.out")"
elif [ "$seen" = 2 ]; then
	pass "$t"
else
	fail "$t" "seen $seen"
fi

t="JSON: instances 2, two instance_results, the pooled samples their sum"
got=$(py3 - "$dir/a.json" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
r = res[0]
ir = r.get("instance_results", [])
print(len(res) == 1 and r.get("instances") == 2 and len(ir) == 2 and
      [i["instance"] for i in ir] == [1, 2] and all(i["samples"] > 0 for i in ir) and
      r["samples"] == sum(i["samples"] for i in ir) and
      r["latency_ns"]["max"] == max(i["latency_max_ns"] for i in ir) and
      r.get("worst_instance") in (1, 2))
PY
)
[ "$got" = True ] && pass "$t" || fail "$t" "$got"

t="CSV: the instances column is 2; the table names the worst instance"
col=$(py3 -c 'import csv, sys
print(" ".join(r["instances"] for r in csv.DictReader(open(sys.argv[1]))))' "$dir/a.csv")
if [ "$col" != 2 ]; then
	fail "$t" "instances column: $col"
elif ! grep -q '^None.*\[worst of 2 instances: #[12], p99 [0-9.]* ms\]$' "$dir/a.out"; then
	fail "$t" "$(grep '^None' "$dir/a.out")"
else
	pass "$t"
fi

t="--instances 2 -W Audio+Video: four bench threads at once"
look_until "$dir/g.out" ib-Video "2 2" audio_video -c -q -t 1 --instances 2 \
	-W Audio+Video -w None --work-dir "$dir"
read -r na nv <<<"$seen"
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -2 "$dir/g.out")"
elif [ "$na" = 2 ] && [ "$nv" = 2 ] &&
	[ "$(grep -c 'worst of 2 instances' "$dir/g.out")" = 2 ]; then
	pass "$t"
else
	fail "$t" "ib-Audio $na, ib-Video $nv: $(grep '^None' "$dir/g.out")"
fi

t="--instances 2 -W Game -W AudioGraph: each chain twice at once, its frames and cycles pooled"
look_until "$dir/c.out" ib-Game-render 2 "count_threads ib-Game-render" -c -q -t 1 \
	--instances 2 -W Game -W AudioGraph -w None --work-dir "$dir" --json "$dir/c.json"
ng=$seen
got=$(py3 - "$dir/c.json" <<'PY'
import json, sys
res = {r["benchmark"]: r for r in json.load(open(sys.argv[1]))["results"]}
g, a = res["Game"], res["AudioGraph"]
gi, ai = g["instance_results"], a["instance_results"]
bad = []
def want(ok, what):
    if not ok:
        bad.append(what)
want(g["instances"] == 2 and len(gi) == 2 and a["instances"] == 2 and len(ai) == 2, "instances")
want(g["frames"] == sum(i["frames"] for i in gi) and all(i["frames"] > 0 for i in gi),
     "frames %s of %s" % (g["frames"], [i["frames"] for i in gi]))
want(g["stutters"] == sum(i["stutters"] for i in gi), "stutters")
want(abs(g["fps"] - sum(i["fps"] for i in gi) / 2) < 0.02 * g["fps"],
     "fps %s of %s" % (g["fps"], [i["fps"] for i in gi]))
want(g["frame_time_ns"]["p99"] >= min(i["frame_time_p99_ns"] for i in gi), "frame p99")
want(a["cycles"] == sum(i["cycles"] for i in ai) and a["xruns"] == sum(i["xruns"] for i in ai),
     "cycles %s xruns %s" % (a["cycles"], a["xruns"]))
for r in (g, a):
    head = r["hops"][0]["wakeups"]
    want(head == r["samples"], "%s head hop %s, samples %s" % (r["benchmark"], head, r["samples"]))
print(" ".join(bad) or "ok")
PY
)
if [ $rc != 0 ]; then
	fail "$t" "rc=$rc: $(tail -2 "$dir/c.out")"
elif [ "$ng" != 2 ]; then
	fail "$t" "ib-Game-render threads seen: $ng"
elif [ "$got" != ok ]; then
	fail "$t" "$got"
elif ! grep -q 'worst of 2 instances: #[12], frame p99 [0-9.]* ms\]$' "$dir/c.out" ||
	! grep -q 'worst of 2 instances: #[12], cycle p99 [0-9.]* ms\]$' "$dir/c.out"; then
	fail "$t" "$(grep '^None' "$dir/c.out")"
else
	pass "$t"
fi

for bad in "--instances 0" "--instances 65" "--instances x"; do
	t="$bad: exit 2, one line"
	out=$(ib -W Audio $bad -t 1 2>&1); rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <<<"$out")" = 1 ]; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $out"
	fi
done

t="nothing left after the runs"
left=$(( $(count_threads ib-Audio) + $(count_threads ib-Video) + $(count_threads ib-waker) +
	$(count_threads ib-Game) + $(count_threads ib-AG-driver) ))
[ "$left" = 0 ] && [ -z "$(ls -A "$dir" | grep -v '\.\(json\|csv\|out\)$')" ] &&
	pass "$t" || fail "$t" "threads: $left; files: $(ls -A "$dir")"
