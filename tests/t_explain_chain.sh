#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_explain_chain.sh - --explain per hop of a chain: a known stall of one
# stage (Game's render, AudioGraph's node0) is the miss of its frame or cycle,
# told as that stage's story (blocked for the stall, as root with tracefs), in
# text and JSON; as root, who ran instead at each stage's hop.
# run-alone: the stages' shortest times in a frame, which the blame compares with, need quiet CPUs
. "$(dirname "$0")/lib.sh"

export INTERBENCH_TEST_SETTLE_MS=100

scratch_dir

use_json_checker "--explain of a chain"

tracefs_dir
traced=0
is_root && [ -d "$TR/instances" ] && traced=1

# stall_check NAME STAGE HOP K MS: what is wrong with run NAME's miss of frame
# or cycle K, which stage STAGE (hop HOP) made late by sleeping MS ms; "" when
# nothing. Traced, it was blocked for about MS ms (the sleep's wake-up may
# come a little late: up to 5 ms more).
stall_check() {
	local m=$dir/$1 stage=$2 hop=$3 k=$4 ms=$5 got
	got=$(get "$m.json" "[(x['stage'], x['hop'], x['blocked_ns'], x['traced'])
		for x in d['results'][0]['misses'] if x['period'] == $k]")
	case $got in
	"[('$stage', '$hop', "*) ;;
	*) echo "miss $k: (stage, hop, blocked, traced) $got, want $stage $hop"; return ;;
	esac
	if [ $traced = 1 ] && [ "$(get "$m.json" "[$((ms * 1000000)) <= x['blocked_ns'] <=
		$(((ms + 5) * 1000000)) and x['traced'] for x in d['results'][0]['misses']
		if x['period'] == $k]")" != "[True]" ]; then
		echo "miss $k is not blocked ${ms} ms: $got"
		return
	fi
	if ! grep -qE "missed by [0-9.]+ ms: made late by $stage \($hop\): woke \+[0-9.]+ ms" \
		"$m.txt"; then
		echo "no text line names $stage ($hop): $(grep 'made late' "$m.txt" | head -2)"
		return
	fi
	if [ $traced = 1 ] && ! grep -qE "made late by $stage \($hop\): .*, blocked [0-9.]+ ms" \
		"$m.txt"; then
		echo "its text line says no blocking: $(grep "made late by $stage" "$m.txt")"
		return
	fi
	chk schema "$m.json"
}

# chain_run NAME STALL STAGE HOP K MS BENCH: the run, twice at most (a busy
# machine may make another stage later still); why it failed, or "".
chain_run() {
	local name=$1 stall=$2 stage=$3 hop=$4 k=$5 ms=$6 bench=$7 try rc
	for try in 1 2; do
		INTERBENCH_TEST_STAGE_STALL=$stall ib -c -t 1 -W "$bench" -w None --explain \
			--work-dir "$dir" --json "$dir/$name.json" >"$dir/$name.txt" \
			2>"$dir/$name.err"
		rc=$?
		why="rc=$rc: $(tail -3 "$dir/$name.err")"
		[ $rc = 0 ] && why=$(stall_check "$name" "$stage" "$hop" "$k" "$ms") &&
			[ -z "$why" ] && return
	done
}

t="Game: frame 30's miss, render stalled 20 ms, is made late by ib-Game-render (main>render)"
[ $traced = 1 ] && t="$t, blocked 20 ms"
chain_run g render:30:20 ib-Game-render 'main>render' 30 20 Game
if [ -z "$why" ]; then pass "$t"; else fail "$t" "$why"; fi

t="AudioGraph: cycle 100's xrun, node0 stalled 12 ms, is made late by ib-AG-node0 (driver>node0)"
[ $traced = 1 ] && t="$t, blocked 12 ms"
chain_run a node0:100:12 ib-AG-node0 'driver>node0' 100 12 AudioGraph
if [ -z "$why" ]; then pass "$t"; else fail "$t" "$why"; fi

t="as root: who ran instead at each stage's hop, in the hop lines and JSON's hops"
if [ $traced = 0 ]; then
	skip "$t" "needs root and tracefs instances"
elif [ "$(get "$dir/g.json" "[h['name'] for h in d['results'][0]['hops']
	if h['ran_instead'] is not None and h['thread'].startswith('ib-Game')]")" != \
	"['vsync>main', 'main>job0', 'main>job1', 'main>job2', 'main>render', 'render>comp']" ]; then
	fail "$t" "$(get "$dir/g.json" "[(h['name'], h['thread'], h['ran_instead'])
		for h in d['results'][0]['hops']]")"
elif [ "$(grep -cE '^None	(main>job[012]|main>render|render>comp) .*; ran instead: ' \
	"$dir/g.txt")" != 5 ]; then
	fail "$t" "$(grep -E '^None	' "$dir/g.txt")"
else
	pass "$t"
fi
