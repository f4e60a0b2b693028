# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# tests/rtapp_lib.sh - what the rt-app engine's scripts share: the driver (build/tests/rtapprun,
# RUN) and a scratch directory (dir) set up, the script skipped when the driver is not built;
# the driver run, bounded, and its lines read back. Sourced after lib.sh.
# shellcheck disable=SC2034 # EX and MYSID are for the scripts that source this

RUN=$TOP/build/tests/rtapprun
EX=/usr/share/doc/rt-app/examples
MYSID=$(proc_sid /proc/self)

scratch_dir

if [ ! -x "$RUN" ]; then
	skip "rt-app engine" "$RUN is not built (make build/tests/rtapprun)"
	exit 0
fi

# rr FILE SECONDS [OPTIONS...]: the driver's lines into $dir/out, bounded in time; its status.
# A run of FILE started ahead (below) is taken instead, once.
declare -A ahead_pid=()
rr() {
	local f=$1 s=$2 rc
	shift 2
	if [ -n "${ahead_pid[$f]:-}" ]; then
		wait "${ahead_pid[$f]}"
		rc=$?
		unset "ahead_pid[$f]"
		mv -f "$dir/ahead.out" "$dir/out" && mv -f "$dir/ahead.err" "$dir/err"
		return $rc
	fi
	timeout -k 5 60 "$RUN" "$@" "$f" "$s" >"$dir/out" 2>"$dir/err"
}

# ahead FILE SECONDS [OPTIONS...]: start FILE's run now, beside the next one, for the first
# rr of FILE to take (two small files side by side on two CPUs; a retry runs alone). One at
# a time.
ahead() {
	local f=$1 s=$2
	shift 2
	timeout -k 5 60 "$RUN" "$@" "$f" "$s" >"$dir/ahead.out" 2>"$dir/ahead.err" &
	ahead_pid[$f]=$!
}

# val NAME KEY: KEY's value on thread object NAME's line of the last run.
val() {
	awk -v n="name=$1" -v k="$2=" '$1 == n { for (i = 2; i <= NF; i++)
		if (index($i, k) == 1) { print substr($i, length(k) + 1); exit } }' "$dir/out"
}

# within V LO HI: V (a number) is in [LO, HI].
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v + 0 >= lo && v + 0 <= hi) }'
}

# The run's last line, and every thread object ended as the row's end ends it.
run_ok() {
	grep -q '^run status=ok ' "$dir/out" && ! grep '^name=' "$dir/out" | grep -qv ' end=stopped '
}

why() {
	printf '%s' "$(grep -E '^run ' "$dir/out") $(tail -2 "$dir/err" | tr '\n' ' ')"
}

# periods NAME: its timer periods, met or missed.
periods() {
	local m x
	m=$(val "$1" met) x=$(val "$1" missed)
	echo $(( ${m:-0} + ${x:-0} ))
}

# twice CHECK: CHECK (a function) once more if a busy machine spoilt the first try.
twice() {
	"$1" || "$1"
}

