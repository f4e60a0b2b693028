#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/run.sh - run the unit tests and every end-to-end test; the last line
# is "N passed, N failed, N skipped".
#
# The unit tests and the end-to-end scripts run side by side, TEST_JOBS at a
# time (default 8: a script spends much of its time waiting on rows; on 2
# CPUs 5 took the suite 122 s, 7 110 s and 8 106 s, and beyond 8 the CPUs
# are the limit. A script that looks at a row's threads looks until it sees
# them, look_until in lib.sh). A script with a line starting "# run-alone:" measures timing, CPU
# shares or system-wide counters that the others would disturb: those run
# afterwards, one at a time, with nothing else of the suite running. One with
# a line starting "# run-quiet:" needs those quiet CPUs too, but neither
# measures timing nor disturbs another such script: those run two at a time,
# after the run-alone ones. Each script's lines are printed together when it
# ends, never interleaved.
# TESTS=pattern runs only the scripts whose name contains it; several
# patterns separated by | run the scripts that match any of them.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
export TOP
cd "$TOP" || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/ib-suite.XXXXXX")
out=$work/results
: >"$out"
: >"$work/took"
trap 'rm -rf "$work"' EXIT
JOBS=${TEST_JOBS:-8}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || JOBS=8
suite_start=$SECONDS

# The tests run interbench as users do, with work in CPU time (no
# calibration); the ones about loops mode ask for it themselves.
unset LPM

# The python of the checks (tests/lib.sh), found once for every script: the
# interpreter itself, not a wrapper script (pyenv).
if [ -z "${PY:-}" ] && command -v python3 >/dev/null; then
	PY=$(python3 -c 'import sys; print(sys.executable)') && export PY
fi

# Run one test program; a crash or a non-zero exit without a FAIL line of its
# own still counts as a failure. Its lines go to the results and to stdout in
# one piece, under a lock, so that programs running side by side do not mix;
# its time goes to $work/took.
run() {
	local name=$1; shift
	local start=$SECONDS step rc
	step=$(mktemp "$work/step.XXXXXX")
	"$@" >"$step" 2>&1
	rc=$?
	# a program that died mid-line (a crash) leaves no newline: its FAIL line starts its own
	[ -s "$step" ] && [ -n "$(tail -c 1 "$step")" ] && echo >>"$step"
	if [ $rc != 0 ] && ! grep -q '^FAIL ' "$step"; then
		echo "FAIL $name: exited with status $rc: $(grep -v -E '^(PASS|SKIP) ' "$step" | tail -3 | tr '\n' ' ')" >>"$step"
	fi
	{
		flock 9
		cat "$step" >>"$out"
		grep -E '^(PASS|FAIL|SKIP) ' "$step"
		printf '  (%s: %ds)\n' "$name" $((SECONDS - start))
		printf '%s %d\n' "${name%% (*}" $((SECONDS - start)) >>"$work/took"
	} 9>>"$work/lock"
	rm -f "$step"
}

# Start a test program in the background once fewer than JOBS are running.
running=0
spawn() {
	if [ "$running" -ge "$JOBS" ]; then
		wait -n
		running=$((running - 1))
	fi
	run "$@" &
	running=$((running + 1))
}

script() { timeout -k 10 600 setsid -w bash "$1"; }

# Whether script $1 is selected by TESTS.
selected() {
	local p pats
	[ -n "${TESTS:-}" ] || return 0
	IFS='|' read -r -a pats <<<"$TESTS"
	for p in "${pats[@]}"; do
		[[ $1 == *"$p"* ]] && return 0
	done
	return 1
}

# The side-by-side programs start longest first, so that the short ones fill
# the gaps at the end instead of a long one starting last and running on
# alone: as long as each took in the last suite (kept in $times, a build
# output); one not timed yet counts as long (30 s) when its script has a line
# starting "# run-first:", else as 10 s.
times=${TEST_TIMES:-$TOP/build/tests/script-times}
declare -A took=()
if [ -r "$times" ]; then
	while read -r n secs; do
		[[ $secs =~ ^[0-9]+$ ]] && took[$n]=$secs
	done <"$times"
fi
alone=() quiet=() order=()
for t in "$TOP"/tests/t_*.sh; do
	n=$(basename "$t")
	selected "$n" || continue
	if grep -q '^# run-alone:' "$t"; then
		alone+=("$t")
	elif grep -q '^# run-quiet:' "$t"; then
		quiet+=("$t")
	elif grep -q '^# run-first:' "$t"; then
		order+=("${took[$n]:-30} $n")
	else
		order+=("${took[$n]:-10} $n")
	fi
done
order+=("${took[unit]:-10} unit" "${took[unit-core]:-10} unit-core")
mapfile -t order < <(printf '%s\n' "${order[@]}" | sort -s -k1,1nr)
for o in "${order[@]}"; do
	n=${o#* }
	case $n in
	unit) spawn unit timeout 300 "$TOP/build/tests/unit" ;;
	unit-core) spawn unit-core timeout 60 "$TOP/build/tests/unit-core" ;;
	*) spawn "$n" script "$TOP/tests/$n" ;;
	esac
done
wait
for t in "${alone[@]}"; do
	run "$(basename "$t") (alone)" script "$t"
done
side=$JOBS running=0 JOBS=2
for t in "${quiet[@]}"; do
	spawn "$(basename "$t") (quiet)" script "$t"
done
wait

# What each took, for the next suite's order: this suite's times over the last ones.
if [ -d "$(dirname "$times")" ]; then
	while read -r n secs; do took[$n]=$secs; done <"$work/took"
	for n in "${!took[@]}"; do	# those of scripts since removed are dropped
		[[ $n == unit* || -e $TOP/tests/$n ]] && printf '%s %s\n' "$n" "${took[$n]}"
	done | sort >"$times.$$" && mv -f "$times.$$" "$times"
fi

p=$(grep -c '^PASS ' "$out")
f=$(grep -c '^FAIL ' "$out")
s=$(grep -c '^SKIP ' "$out")
if [ "$f" -gt 0 ]; then
	echo "Failures:"
	grep '^FAIL ' "$out"
fi
printf '  (suite: %ds, %d at a time, %d quiet two at a time, %d alone)\n' \
	$((SECONDS - suite_start)) "$side" "${#quiet[@]}" "${#alone[@]}"
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
