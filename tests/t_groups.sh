#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_groups.sh - -W A+B: a group's members running at the same time, its tables and group
# fields (JSON, CSV, the log read back), Desktop's members, the refusals, nothing left behind.
. "$(dirname "$0")/lib.sh"

export INTERBENCH_TEST_SETTLE_MS=0

scratch_dir

# The ib-* threads of our session now, as words.
ib_threads() { session_threads 'ib-*' | sort | tr '\n' ' '; }

t="a group's members run at the same time: ib-Audio, ib-Video and ib-X seen together in one row"
if ! look_until "$dir/g.out" ib-Audio "ib-Audio ib-Video ib-X " ib_threads -c -q -t 2 -W Audio+Video+X \
	-w Burn --work-dir "$dir" --json "$dir/g.json" --csv "$dir/g.csv"; then
	fail "$t" "rc=$rc: $(tail -2 "$dir/g.out")"
elif grep -q ' ib-Audio' <<<" $seen" && grep -q ' ib-Video' <<<" $seen" &&
	grep -q ' ib-X' <<<" $seen"; then
	pass "$t"
else
	fail "$t" "seen: $seen"
fi

t="a group's results: each member's row has group, their measurements overlap in time"
got=$(py3 - "$dir/g.json" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
names = sorted(r["benchmark"] for r in res)
groups = set(r.get("group") for r in res)
walls = [r["wall_ns"] for r in res]
print(names == ["Audio", "Video", "X"] and groups == {"Audio+Video+X"} and
      all(w and w > 1.5e9 for w in walls))
PY
)
[ "$got" = True ] && pass "$t" || fail "$t" "$got"

t="the group's tables: one per member, titled by the group"
n=$(grep -c '^--- Benchmarking simulated cpu of [A-Za-z]* in group Audio+Video+X in the presence' \
	"$dir/g.out")
[ "$n" = 3 ] && pass "$t" || fail "$t" "$n headings: $(grep -- '^---' "$dir/g.out")"

t="CSV has the group column, read back by --compare with the log"
vals=$(py3 -c 'import csv, sys
print(" ".join(sorted(set(r["group"] for r in csv.DictReader(open(sys.argv[1]))))))' "$dir/g.csv")
if [ "$vals" != "Audio+Video+X" ]; then
	fail "$t" "group column: $vals"
elif ! ib --compare "$dir/g.csv" "$dir/g.csv" >"$dir/cmp.out" 2>&1 ||
	! grep -q '^--- Video in group Audio+Video+X' "$dir/cmp.out"; then
	fail "$t" "$(head -5 "$dir/cmp.out")"
else
	pass "$t"
fi

# A pass counts where it has samples: a busy machine can leave a 0.5 s pass of Video
# without one, so a second try.
t="--repeat 2: a summary of each member of the group, titled by it, and each in JSON"
for _ in 1 2; do
	ib -c -q -t 0.5 --repeat 2 -W Audio+Video -w None --work-dir "$dir" --json "$dir/r.json" \
		--csv "$dir/r.csv" >"$dir/r.out" 2>&1; rc=$?
	heads=$(grep -c \
		'^--- Summary of 2 passes: simulated cpu of \(Audio\|Video\) in group Audio+Video ---$' \
		"$dir/r.out")
	got=$(py3 -c 'import json, sys
print(sorted((s["benchmark"], s.get("group"), s["passes"])
	     for s in json.load(open(sys.argv[1]))["summary"]))' "$dir/r.json" 2>&1)
	[ "$got" = "[('Audio', 'Audio+Video', 2), ('Video', 'Audio+Video', 2)]" ] && break
done
if [ $rc = 0 ] && [ "$heads" = 2 ] &&
	[ "$got" = "[('Audio', 'Audio+Video', 2), ('Video', 'Audio+Video', 2)]" ]; then
	pass "$t"
else
	fail "$t" "rc=$rc, $heads headings, JSON $got: $(grep -- '^--- Summary' "$dir/r.out")"
fi

t="--compare's verdicts name a member as Video@Audio+Video, apart from the others"
ib --compare "$dir/r.csv" "$dir/r.csv" >"$dir/rc.out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q '^No verdict for Audio@Audio+Video: ' "$dir/rc.out" &&
	grep -q '^No verdict for Video@Audio+Video: ' "$dir/rc.out"; then
	pass "$t"
else
	fail "$t" "rc=$rc: $(grep -i verdict "$dir/rc.out")"
fi

t="--dry-run: Desktop is Audio+Video+X+Game, not run against its members"
out=$(ib -W Desktop -w None -w Video -w Burn --dry-run 2>&1)
grep -q '^Audio+Video+X+Game: None, Burn$' <<<"$out" && pass "$t" || fail "$t" "$out"

for bad in "-W Audio+Audio" "-W Audio+Nosuch" "-W Audio+" "-W Video+X -w Video -w X"; do
	t="$bad: exit 2, one line"
	out=$(ib $bad -t 1 2>&1); rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <<<"$out")" = 1 ]; then
		pass "$t"
	else
		fail "$t" "rc=$rc: $out"
	fi
done

t="nothing left after the run"
left=$(ib_threads)
[ -z "$left" ] && [ -z "$(ls -A "$dir" | grep -v '\.\(json\|csv\|out\)$')" ] &&
	pass "$t" || fail "$t" "threads: $left; files: $(ls -A "$dir")"
