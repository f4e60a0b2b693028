#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_fuzz.sh - at least 1000 generated command lines: each exits 2 with
# one line, or is valid; none crashes or hangs. Valid ones are checked with
# --dry-run, and a few of them are run for real, kept short.
# run-first: a long script (15 s or more beside the others)
. "$(dirname "$0")/lib.sh"

# These tests check what is printed, not how the rows performed: the load's
# second alone before each row is cut short (test-only).
export INTERBENCH_TEST_SETTLE_MS=100

scratch_dir
# Fuzzed file arguments (--json 2.5, --plot Video) land here, not in the tree.
cd "$dir" || exit 1
RANDOM=${FUZZ_SEED:-20261129}
N=${FUZZ_COUNT:-1000}

long=$(printf 'A%.0s' $(seq 10240))
# Every option --help documents, so that a new one is fuzzed without editing
# this script: "  -t, --time SECONDS   help" gives -t, --time and --time=
# (the name ends where two spaces begin the help), "      --percentiles
# help" gives --percentiles; two options on a line ("-h, --help / -V, --version")
# are two. Then a few that are no option at all.
help=$("$IB" --help 2>&1 | awk '/^ +-/ { sub(/^ +/, ""); split($0, f, "  "); m = split(f[1], o, " / ")
	for (j = 1; j <= m; j++) print "  " o[j] "  help"; next } { print }')
mapfile -t opts < <(awk '/^ +-/ {
	sub(/^ +/, ""); split($0, f, "  "); n = split(f[1], w, " ")
	i = 1; if (w[1] ~ /^-[^-],$/) { print substr(w[1], 1, 2); i = 2 }
	print w[i]; if (n > i) print w[i] "=" }' <<<"$help")
documented=$(grep -c '^ \+-' <<<"$help")
nlong=$(printf '%s\n' "${opts[@]}" | grep -c '^--[^=]*$')
nshort=$(printf '%s\n' "${opts[@]}" | grep -c '^-[^-]$')
t="the options fuzzed are the ones --help documents"
# 41 documented in 1.x: far fewer means --help's layout changed under the parse.
if [ "$documented" -lt 30 ] || [ "$nlong" != "$documented" ] ||
   [ "$nshort" != "$(grep -c '^ \+-[^-],' <<<"$help")" ]; then
	fail "$t" "$documented documented, parsed $nlong long and $nshort short: ${opts[*]}"
	exit 1
fi
pass "$t ($nlong long, $nshort short)"
opts+=(--bogus -Z --)
vals=("" 0 1 2 -1 -20 19 20 100 101 99 0.5 2.5 .5 5. abc 12abc 1e3 0x10 " 5" "5 " +3 -0
	99999999999999999999 -99999999999999999999 9223372036854775807 nan inf - -- "$long"
	Audio audio Video X x Gaming Custom None none Burn burn NoSuch "" ü "a,b" "%s%n"
	/nonexistent "$dir" 1000 86400 86401 0.09 0.1
	other batch idle fifo rr deadline FIFO cpu loops 23 24 144 100000 100001)

# A random element of array $1, into $2 (no subshell: a thousand vectors are made).
# shellcheck disable=SC2034	# r names the caller's variable
pick() { local -n a=$1 r=$2; r=${a[RANDOM % ${#a[@]}]}; }

gen() {
	local n=$((1 + RANDOM % 6)) i o v
	vec=()
	for ((i = 0; i < n; i++)); do
		pick opts o
		case $((RANDOM % 8)) in
		0) vec+=("$o") ;;				# maybe missing its value
		1) pick vals v; vec+=("$v") ;;			# a stray argument
		2) pick vals v; vec+=("$o$v") ;;		# glued: -t5, --time=5
		*) pick vals v; vec+=("$o" "$v") ;;
		esac
	done
}

# A watchdog for the thousand dry runs, in place of a timeout(1) started with
# each: a run notes "PID SECONDS" in $dir/beat as it starts, and one still
# there 10 s later is killed (its status 137, a hang).
watchdog() {
	local p t
	while sleep 1; do
		read -r p t <"$dir/beat" 2>/dev/null || continue
		[ $((SECONDS - t)) -ge 10 ] && kill -KILL "$p" 2>/dev/null
	done
}
: >"$dir/beat"
watchdog &
dog=$!

bad=0 ran=0 valid=0 errors=0 crashes=""
valid_vecs=()
for ((k = 0; k < N; k++)); do
	gen
	"$IB" --dry-run "${vec[@]}" >"$dir/out" 2>"$dir/err" &
	echo "$! $SECONDS" >"$dir/beat"
	wait $! 2>/dev/null	# not the shell's note of a killed one
	rc=$?
	case $rc in
	0) valid=$((valid + 1))
	   [ ${#valid_vecs[@]} -lt 8 ] && valid_vecs+=("$(printf '%q ' "${vec[@]}")") ;;
	2) IFS= read -r -d '' err <"$dir/err"
	   nl=${err//[!$'\n']/}	# its newlines, as wc -l counts them
	   if [ ${#nl} != 1 ] || [ -s "$dir/out" ]; then
		   bad=$((bad + 1))
		   [ $bad -le 3 ] && crashes="$crashes [not one line: $(printf '%q ' "${vec[@]}" | head -c 200) -> $(head -c 300 "$dir/err")]"
	   fi
	   errors=$((errors + 1)) ;;
	*) bad=$((bad + 1))
	   [ $bad -le 3 ] && crashes="$crashes [rc=$rc: $(printf '%q ' "${vec[@]}" | head -c 200) -> $(head -c 300 "$dir/err")]" ;;
	esac
done
kill "$dog"
wait "$dog" 2>/dev/null
t="$N generated command lines exit 0 or 2 with one line, never crash or hang"
if [ $bad = 0 ]; then
	pass "$t ($errors usage errors, $valid valid)"
else
	fail "$t" "$bad bad:$crashes"
fi

t="valid generated command lines really run (kept short) and leave nothing"
if [ ${#valid_vecs[@]} = 0 ]; then
	skip "$t" "no valid vector generated"
else
	for v in "${valid_vecs[@]}"; do
		eval "vec=($v)"
		# short, and never the default 20-minute matrix: later options win
		timeout -k 2 60 "$IB" "${vec[@]}" -c -t 0.1 --repeat 1 -W Audio -w None -l 3000000 \
			--work-dir "$dir" >"$dir/out" 2>"$dir/err"
		rc=$?
		if [ $rc -ge 3 ] || { [ $rc != 0 ] && [ "$(wc -l <"$dir/err")" -gt 2 ]; }; then
			bad=$((bad + 1))
			crashes="$crashes [rc=$rc: $v -> $(head -c 300 "$dir/err")]"
		fi
		ran=$((ran + 1))
	done
	if [ $bad = 0 ] && no_leftovers 2; then
		pass "$t ($ran runs)"
	else
		fail "$t" "$crashes left:$(leftovers)"
	fi
fi
