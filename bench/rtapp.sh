#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/rtapp.sh - the same rt-app workload measured by rt-app itself and by interbench, side
# by side: Debian's mp3-short and video-short against None and Burn, each tool twice so that
# its run-to-run noise is known, at each of two timer slacks (rt-app's default and 1 ns, the
# same for both tools); per thread with a timer, rt-app's mean wu_lat per timer event beside
# interbench's (its threads on their own timers), and interbench's with 0.31's waker;
# rt-app's share of phases with slack >= 0 beside interbench's deadlines met. The report goes
# into BENCHMARKS.md.
set -u -o pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$TOP/bench/lib.sh"
LOADRUN=$TOP/build/tests/loadrun
RTAPP=$(command -v rt-app || true)
EX=/usr/share/doc/rt-app/examples

usage() {
	cat <<EOF
Usage: bench/rtapp.sh [--quick] [--no-write] [--output FILE] [--interbench PATH] [--rt-app PATH]
Debian's mp3-short and video-short under rt-app and under interbench, against None and
Burn, each tool twice at two timer slacks: 10 s rows (about 8 minutes). Needs root (the files' threads are
niced below 0), rt-app, and build/tests/loadrun (the Burn load beside rt-app).
  --quick            1 s rows: checks the harness only
$COMMON_USAGE
  --rt-app PATH      the rt-app to compare with (default: the one on PATH)
EOF
}

# --rt-app PATH, beside the common options.
own_opt() {
	TOOK=0
	case "$1" in
	--rt-app) [ $# -ge 2 ] || die "--rt-app needs a path"; RTAPP=$2; TOOK=2 ;;
	esac
}
bench_args usage own_opt "$@"

FILES=(mp3-short video-short)
LOADS=(None Burn)
if [ "$QUICK" = 1 ]; then
	T=1
else
	T=10
fi
[ -x "$IB" ] || die "$IB not found; run make first"
[ -x "$LOADRUN" ] || die "$LOADRUN not found; run make build/tests/loadrun"
# What this machine lacks for the comparison skips it (make bench goes on), said once.
skip_all() { note "skipped: $*"; exit 0; }
if [ -z "$RTAPP" ] || [ ! -x "$RTAPP" ]; then
	skip_all "rt-app is not installed (apt install rt-app)"
fi
[ "$(id -u)" = 0 ] || skip_all "it needs root: the files' threads ask for nice levels below 0"
for f in "${FILES[@]}"; do
	[ -f "$EX/$f.json" ] || skip_all "$EX/$f.json is not installed (Debian's rt-app)"
done
bench_start rtapp

# The timer slack of a thread that did not set its own (prctl(2)): rt-app's threads keep it.
DEFAULT_SLACK=$(cat /proc/self/timerslack_ns 2>/dev/null || echo 50000)

# rt-app's ns per loop on this machine, measured once (rt-app takes some 20 s to calibrate):
# every run then starts its phases at once, inside the window of the Burn beside it.
rtapp_calibrate() {
	local d=$W/calib
	mkdir -p "$d" || return 1
	printf '{ "tasks" : { "t" : { "loop" : 1, "run" : 1000 } }, "global" : %s }\n' \
		"{ \"duration\" : 1, \"calibration\" : \"CPU0\", \"logdir\" : \"$d\" }" >"$d/c.json"
	(cd "$d" && timeout -k 5 120 "$RTAPP" "$d/c.json" 2>&1) |
		sed -nE 's/.*pLoad = ([0-9]+)ns.*/\1/p' | head -1
}

# The file $1 as rt-app runs it here: for $T seconds, its logs into $2, its loops at the
# ns per loop measured once, and the lenient forms (a bare "suspend", repeated keys) that
# rt-app leaves to workgen written out by workgen, as rt-app's documentation has it.
rtapp_json() {
	local src=$EX/$1.json
	if [ -n "$WORKGEN" ]; then
		"$WORKGEN" -d -o "$2/$1.wg.json" "$src" >/dev/null 2>&1 || return 1
		src=$2/$1.wg.json
	fi
	sed -E -e "s/\"duration\"[[:space:]]*:[[:space:]]*[0-9]+/\"duration\" : $T/" \
		-e "s|\"logdir\"[[:space:]]*:[[:space:]]*\"[^\"]*\"|\"logdir\" : \"$2\"|" \
		-e "s/\"calibration\"[[:space:]]*:[[:space:]]*(\"[^\"]*\"|[0-9]+)/\"calibration\" : $NSPL/" \
		"$src" >"$2/$1.json"
	grep -q "\"duration\" : $T" "$2/$1.json" && grep -qF "\"logdir\" : \"$2\"" "$2/$1.json" &&
		grep -q "\"calibration\" : $NSPL" "$2/$1.json"
}

# rt-app's log of each thread with a timer (c_period > 0): "thread phases mean_wu_lat_us
# pct_slack_ge_0", from the lines of its per-thread logs in $1.
rtapp_figures() {
	local log name
	for log in "$1"/*-*-*.log; do
		[ -f "$log" ] || continue
		name=$(basename "$log" .log)
		name=${name#*-}
		name=${name%-*}
		awk -v t="$name" '/^#/ { next } $10 > 0 { n++; wu += $11; met += $8 >= 0 }
			END { if (n) printf "%s\t%d\t%.4g\t%.4g\n", t, n, wu / n, 100 * met / n }' "$log"
	done
}

# rt-app run $3 of file $1 against load $2, its threads' timer slack $4 ns, its figures into
# $W/$1.$2.<rt or rs, for the default slack or not>$3; Burn beside it from loadrun, settled
# 1 s first as interbench's loads are.
rtapp_run() {
	local f=$1 load=$2 r=$3 slack=$4 d=$W/rt.$1.$2.$3.$4 lr="" out=rt
	[ "$slack" = "$DEFAULT_SLACK" ] || out=rs
	if ! mkdir -p "$d" || ! rtapp_json "$f" "$d"; then
		note "$f: no duration or logdir to set"
		return
	fi
	if [ "$load" = Burn ]; then
		"$LOADRUN" --settle-ms 1000 --window-ms $((T * 1000 + 3000)) --cycles 1 -w Burn \
			--work-dir "$W" >"$d/burn.out" 2>&1 &
		lr=$!
		sleep 1
	fi
	# the slack is the shell's, inherited by rt-app and its threads
	if ! (cd "$d" && echo "$slack" >"/proc/$BASHPID/timerslack_ns" &&
		exec timeout -k 5 $((T + 30)) "$RTAPP" "$d/$f.json" >"$d/rt-app.out" 2>&1); then
		note "rt-app $f against $load failed: $(tail -1 "$d/rt-app.out")"
	fi
	[ -n "$lr" ] && wait "$lr"
	rtapp_figures "$d" >"$W/$f.$load.$out$r"
	[ -s "$W/$f.$load.$out$r" ] ||
		note "rt-app $f against $load logged no phase with a timer: $(tail -1 "$d/rt-app.out")"
	[ -n "$lr" ] && [ "$out" = rt ] &&
		sed -nE 's/.*intensity=([0-9.]+) CPUs.*/\1/p' "$d/burn.out" >>"$W/burn.rt"
}

# interbench run $2 of file $1 against every load, kind $3 (ib: its threads on their own
# timers at slack 1 ns, the default; is: at slack $DEFAULT_SLACK; iw: --wake waker), its
# CSV's figures into $W/$1.<load>.<kind>$2: "thread timer_wakeups wu_lat_mean_ns
# latency_mean_ns timer_mean_ns pct_deadlines_met".
ib_run() {
	local f=$1 r=$2 kind=$3 csv=$W/ib.$1.$2.$3.csv l loads=() opts=()

	rm -f "$csv"
	for l in "${LOADS[@]}"; do
		loads+=(-w "$l")
	done
	case $kind in
	is) opts=(--timer-slack "$DEFAULT_SLACK") ;;
	iw) opts=(--wake waker) ;;
	esac
	if ! timeout -k 5 $((4 * T + 60)) "$IB" -c -q -t "$T" -W "$EX/$f.json" "${loads[@]}" \
		"${opts[@]}" --work-dir "$W" --csv "$csv" >"$W/ib.out" 2>"$W/ib.err"; then
		note "interbench $f ($kind) failed: $(tail -1 "$W/ib.err")"
		return
	fi
	for l in "${LOADS[@]}"; do
		csv_cols "$csv" benchmark load timer_wakeups wu_lat_mean_ns latency_mean_ns \
			timer_mean_ns pct_deadlines_met load_intensity |
			awk -F'\t' -v l="$l" '$2 == l && $3 > 0 { print $1 "\t" $3 "\t" $4 "\t" $5 "\t" \
				$6 "\t" $7 }' >"$W/$f.$l.$kind$r"
		[ "$l" = Burn ] && [ "$kind" = ib ] && csv_cols "$csv" load load_intensity |
			awk -F'\t' '$1 == "Burn" { print $2; exit }' >>"$W/burn.ib"
	done
}

# Column $3 (1-based) of thread $2's line in file $1, or NA.
col() {
	awk -F'\t' -v t="$2" -v c="$3" '$1 == t { print $c; found = 1; exit }
		END { if (!found) print "NA" }' "$1" 2>/dev/null || echo NA
}

# "a / b", a number per run, with fmt; NA kept.
pair() {
	awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN {
		printf "%s / %s", a == "NA" ? "NA" : sprintf(f, a), b == "NA" ? "NA" : sprintf(f, b) }'
}

# Do the two tools agree: the means of their two runs within the larger of their own
# run-to-run differences? "yes", "no (by X)" or "-".
agree() {
	awk -v a1="$1" -v a2="$2" -v b1="$3" -v b2="$4" 'BEGIN {
		if (a1 == "NA" || a2 == "NA" || b1 == "NA" || b2 == "NA") { print "-"; exit }
		d = (a1 + a2) / 2 - (b1 + b2) / 2; if (d < 0) d = -d
		na = a1 - a2; if (na < 0) na = -na; nb = b1 - b2; if (nb < 0) nb = -nb
		noise = na > nb ? na : nb
		if (d <= noise) print "yes"; else printf "no (%.3g > %.3g)\n", d, noise }'
}

# ns as µs; NA kept.
us() {
	awk -v v="$1" 'BEGIN { print v == "NA" ? "NA" : v / 1e3 }'
}

# The report's lines of file $1 against load $2: one per thread rt-app logged with a timer
# (the files' names have no spaces). Each "agree" under Burn is counted in $W/agree.
report_rows() {
	local f=$1 l=$2 t rw1 rw2 rz1 rz2 iw1 iw2 is1 is2 ik1 ik2 rs1 rs2 id1 id2 a1 a2
	# shellcheck disable=SC2013
	for t in $(cut -f1 "$W/$f.$l.rt1" "$W/$f.$l.rt2" 2>/dev/null | sort -u); do
		rw1=$(col "$W/$f.$l.rt1" "$t" 3) rw2=$(col "$W/$f.$l.rt2" "$t" 3)
		rz1=$(col "$W/$f.$l.rs1" "$t" 3) rz2=$(col "$W/$f.$l.rs2" "$t" 3)
		rs1=$(col "$W/$f.$l.rt1" "$t" 4) rs2=$(col "$W/$f.$l.rt2" "$t" 4)
		iw1=$(us "$(col "$W/$f.$l.ib1" "$t" 3)") iw2=$(us "$(col "$W/$f.$l.ib2" "$t" 3)")
		is1=$(us "$(col "$W/$f.$l.is1" "$t" 3)") is2=$(us "$(col "$W/$f.$l.is2" "$t" 3)")
		ik1=$(us "$(col "$W/$f.$l.iw1" "$t" 3)") ik2=$(us "$(col "$W/$f.$l.iw2" "$t" 3)")
		id1=$(col "$W/$f.$l.ib1" "$t" 6) id2=$(col "$W/$f.$l.ib2" "$t" 6)
		a1=$(agree "$rw1" "$rw2" "$is1" "$is2")
		a2=$(agree "$rz1" "$rz2" "$iw1" "$iw2")
		[ "$l" = Burn ] && printf '%s\n%s\n' "$a1" "$a2" >>"$W/agree"
		say "| $f | $t | $l | $(pair "$rw1" "$rw2" %.0f) | $(pair "$is1" "$is2" %.0f) | $a1 |" \
		    "$(pair "$rz1" "$rz2" %.0f) | $(pair "$iw1" "$iw2" %.0f) | $a2 |" \
		    "$(pair "$ik1" "$ik2" %.0f) |" \
		    "$(pair "$rs1" "$rs2" %.1f) | $(pair "$id1" "$id2" %.1f) |" \
		    "$(agree "$rs1" "$rs2" "$id1" "$id2") |"
	done
}

WORKGEN=$(command -v workgen || true)
[ -n "$WORKGEN" ] || note "workgen is not installed: the files go to rt-app as they are"
step "rt-app calibrating its loops on CPU0"
NSPL=$(rtapp_calibrate)
[ -n "$NSPL" ] || die "rt-app printed no ns per loop (pLoad) calibrating on CPU0"
note "rt-app's calibration: $NSPL ns per loop"
: >"$W/burn.rt"
: >"$W/burn.ib"
for r in 1 2; do
	for f in "${FILES[@]}"; do
		for l in "${LOADS[@]}"; do
			step "rt-app $f against $l, run $r"
			rtapp_run "$f" "$l" "$r" "$DEFAULT_SLACK"
			step "rt-app $f against $l, its timer slack 1 ns, run $r"
			rtapp_run "$f" "$l" "$r" 1
		done
		for kind in ib is iw; do
			step "interbench $f against ${LOADS[*]} ($kind), run $r"
			ib_run "$f" "$r" "$kind"
		done
	done
done

say "Measured $(date -u '+%Y-%m-%d %H:%M') UTC by \`bench/rtapp.sh\` on $(uname -r), $(nproc) CPUs,"
version=$(dpkg-query -W -f='${Version}' rt-app 2>/dev/null)
say "rt-app ${version:-of unknown version} ($RTAPP); load average at the start $(cut -d' ' -f1 /proc/loadavg)."
say ""
say "Debian's rt-app examples, $T s a run, under rt-app and under \`interbench -W FILE.json\`"
say "(rt-app's own timing, the file's own scheduling), against None and against Burn (beside"
say "rt-app: \`build/tests/loadrun -w Burn\`, settled 1 s first as interbench's loads are), each"
say "tool twice, its runs interleaved with the other's. rt-app's files go through \`workgen\` (for"
say "video-short's bare \"suspend\"s) and run at the ns per loop measured once ($NSPL ns), so that"
say "every run's phases start at once, inside the Burn beside them. Per thread with a timer (rt-app logs"
say "\`wu_lat\` and \`slack\` per phase with a timer), each run's figure, run 1 / run 2:"
say ""
say "- *wu_lat*: rt-app's mean per timer event, the timer's expiry to the thread running (0 for a"
say "  late one); interbench's is the same figure (its latency of a timer's wake-up, the"
say "  thread on its own timer, by default; 0 for a late use);"
say "- at rt-app's default slack ($DEFAULT_SLACK ns: rt-app leaves its threads' own) against"
say "  interbench at \`--timer-slack $DEFAULT_SLACK\`, and with rt-app's threads' slack at 1 ns"
say "  against interbench's default (1 ns), each pair run beside the others;"
say "- *waker*: interbench with \`--wake waker\` (0.31's design, slack 1 ns): the thread woken by"
say "  its real-time waker, the expiry to the thread running (its waker's timer latency plus"
say "  its wakeup latency);"
say "- *slack >= 0*: rt-app's share of phases that reached their timer by its expiry;"
say "  *deadlines met*: interbench's share of timer periods met, by the same rule (slack 1 ns)."
say ""
say "**Target**: the same workload measured by both agrees within the two tools' run-to-run"
say "noise: the difference of their means is within the larger of their own differences between"
say "run 1 and run 2 (\"agree\": interbench's wu_lat against rt-app's at the same slack, its deadlines"
say "met against rt-app's slack >= 0). Burn's intensity: beside rt-app $(stats <"$W/burn.rt" |
	awk '{ print $2 == "NA" ? "NA" : sprintf("%.2f", $2) }') CPUs, beside interbench $(stats <"$W/burn.ib" |
	awk '{ print $2 == "NA" ? "NA" : sprintf("%.2f", $2) }') CPUs (means)."
say ""
say "| file | thread | load | rt-app wu_lat, slack $DEFAULT_SLACK ns (µs) | interbench, slack $DEFAULT_SLACK ns (µs) | agree | rt-app wu_lat, slack 1 ns (µs) | interbench, slack 1 ns (µs) | agree | interbench with the waker (µs) | rt-app slack >= 0 (%) | interbench deadlines met (%) | agree |"
say "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
: >"$W/agree"
for f in "${FILES[@]}"; do
	for l in "${LOADS[@]}"; do
		report_rows "$f" "$l"
	done
done
say ""
say "Under Burn, interbench's wu_lat agrees with rt-app's at the same slack for" \
    "**$(grep -c '^yes' "$W/agree") of $(grep -c . "$W/agree")** (thread, slack) pairs (target: at least 5 of 6)."
bench_finish bench/rtapp.sh
