#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_examples.sh - every example command of README.md and doc/*.md runs, with short rows,
# and the output it shows keeps its shape: headings, column lines, verdict lines, messages.
#
# An example is a fenced block whose info string is "console". In it, a line that starts
# with "$ " is a command (a trailing "\" joins the next line); the lines after it, up to the
# next command, are what it printed ("..." stands for lines left out). An HTML comment on
# the line before the fence sets the block's options:
#   <!-- example: t=SECONDS -->    -t of its interbench runs (default: T_DEFAULT, below)
#   <!-- example: dry-run -->      its interbench runs get --dry-run: a full run is too long
#   <!-- example: skip: REASON --> not run, and said so
# A block's commands run in order, in a scratch directory of the block's own (so a later
# command reads what an earlier one wrote; blocks run side by side), with a run lock and a
# knob journal of their own. ./interbench there is a copy of the binary (setcap may change
# it), and interbench alone finds it on PATH. sudo is dropped as root; a command that needs
# it is skipped otherwise, with the rest of its block, as is one whose tool is missing.
# -t is shortened, --repeat capped, the load's second alone cut (test-only); make builds
# nothing (-n) and installs into the scratch directory. A command fails when it exits with
# another status than 0 (interbench's 1, what the machine refused, skips) or when a line it
# shows of these kinds is not in what it printed, numbers aside:
#   a heading ("--- ..."), a column line (one starting "Load" or "Bench"), a title ending
#   in ":", a verdict or message line (No verdict, Verdicts:, Variants:, Comparing, Using,
#   Periods:, Scheduling:, Settings:, interbench:, warning:) up to its first number, and an
#   "exit status N" line as it is.
# run-first: a long script (10 s or more beside the others)
. "$(dirname "$0")/lib.sh"

T_DEFAULT=0.1
REPEAT_MAX=5
export INTERBENCH_TEST_SETTLE_MS=0

dir=$(scratch)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"

docs=("$TOP/README.md")
for f in "$TOP"/doc/*.md; do [ -f "$f" ] && docs+=("$f"); done

# extract FILE OUT: each command of FILE's console blocks as OUT/NNN.{cmd,shown,meta};
# meta is "LINE BLOCK OPTIONS", OPTIONS the block's comment less "example:".
extract() {
	awk -v out="$2" '
	function flush() {
		if (n == "") return
		close(out "/" n ".cmd"); close(out "/" n ".shown")
		n = ""
	}
	/^<!-- *example:.*-->[[:space:]]*$/ {
		opt = $0; sub(/^<!-- *example: */, "", opt); sub(/ *-->[[:space:]]*$/, "", opt)
		pend = opt; pline = NR; next
	}
	!inb && /^```console[[:space:]]*$/ {
		inb = 1; blk++; bopt = (pline == NR - 1) ? pend : ""; cont = 0; next
	}
	!inb { next }
	/^```[[:space:]]*$/ { flush(); inb = 0; next }
	cont {
		line = $0; cont = sub(/\\$/, "", line)
		printf " %s", line > (out "/" n ".cmd"); next
	}
	/^\$ / {
		flush(); cnt++; n = sprintf("%03d", cnt)
		line = substr($0, 3); cont = sub(/\\$/, "", line)
		printf "%s", line > (out "/" n ".cmd")
		printf "" > (out "/" n ".shown")
		printf "%d %d %s\n", NR, blk, bopt > (out "/" n ".meta"); close(out "/" n ".meta")
		next
	}
	n != "" { print > (out "/" n ".shown") }
	' "$1"
}

# What a shown line is held to: "= SHAPE" (the whole line, numbers masked), "^ PREFIX" (the
# start of a line, numbers masked), "! LINE" (the whole line as it is), or nothing (a line
# of data, not checked).
norm() { sed -E 's/[[:space:]]+/ /g; s/^ //; s/ $//; s/[0-9]+([.][0-9]+)?/#/g'; }
shape_of() {
	local l=$1 cut
	case $l in
	...*|'') return ;;
	esac
	cut=${l%%...*}
	case $l in
	"exit status "*) printf '! %s\n' "$(sed -E 's/[[:space:]]+/ /g; s/ $//' <<<"$l")"; return ;;
	---*|Load[[:space:]]*|Load|Bench[[:space:]]*|*:) ;;
	"No verdict"*|Verdicts:*|Variants:*|Comparing*|Using*|Periods:*|Scheduling:*|\
	Settings:*|interbench:*|warning:*)
		cut=${cut%%[0-9]*}
		[ "${#cut}" -ge 8 ] && printf '^ %s\n' "$(norm <<<"$cut")"
		return ;;
	*) return ;;
	esac
	if [ "$cut" != "$l" ]; then
		printf '^ %s\n' "$(norm <<<"$cut")"
	else
		printf '= %s\n' "$(norm <<<"$l")"
	fi
}

# check SHOWN REAL: the shown lines that REAL lacks, one per line.
check_shown() {
	local l s want real
	real=$(norm <"$2")
	while IFS= read -r l; do
		s=$(shape_of "$l")
		[ -n "$s" ] || continue
		want=${s#? }
		case $s in
		"= "*) grep -qxF -- "$want" <<<"$real" || printf '%s\n' "$l" ;;
		"! "*) sed -E 's/[[:space:]]+/ /g; s/^ //; s/ $//' "$2" | grep -qxF -- "$want" ||
			printf '%s\n' "$l" ;;
		"^ "*) awk -v w="$want" 'index($0, w) == 1 { f = 1; exit } END { exit !f }' \
			<<<"$real" || printf '%s\n' "$l" ;;
		esac
	done <"$1"
}

# The command as the test runs it, on stdout; or "SKIP reason" for one it cannot run.
rewrite() {
	local c=$1 opts=$2 t=$T_DEFAULT w first f name
	case $opts in *t=*) t=${opts#*t=}; t=${t%% *} ;; esac
	# sudo, after any VAR=value words
	if [[ $c =~ ^(([A-Za-z_][A-Za-z_0-9]*=[^ ]*[[:space:]]+)*)sudo[[:space:]]+(.*)$ ]]; then
		is_root || { echo "SKIP it needs root"; return; }
		c=${BASH_REMATCH[1]}${BASH_REMATCH[3]}
	fi
	first=$(sed -E 's/^([A-Za-z_][A-Za-z_0-9]*=[^ ]*[[:space:]]+)*//' <<<"$c" | awk '{ print $1 }')
	case $first in
	make)
		case " $c " in
		*" test "*|*" check "*) echo "SKIP the test suite itself"; return ;;
		*" bench "*) echo "SKIP make bench takes about 35 minutes"; return ;;
		*" install "*) echo "make -s -C \"$TOP\" install DESTDIR=\"$dir/dest\""; return ;;
		*) echo "make -s -n -C \"$TOP\" interbench >/dev/null"; return ;;
		esac ;;
	tests/*|build/*) echo "SKIP the test suite itself"; return ;;
	docker|podman)
		command -v "$first" >/dev/null || { echo "SKIP $first is not installed"; return; }
		w=$(grep -oE '[a-z0-9./-]+:[a-z0-9.-]+ ' <<<"$c" | grep -v '^/' | head -1 | tr -d ' ')
		"$first" image inspect ${w:-none} >/dev/null 2>&1 ||
			{ echo "SKIP $first has no daemon or no image ${w:-} here (the suite pulls none)"; return; } ;;
	./interbench|interbench) ;;
	*) command -v "$first" >/dev/null || { echo "SKIP $first is not installed"; return; } ;;
	esac
	if runs_ib "$c"; then
		# an rt-app workload file: installed, and read by this build
		for w in $(grep -oE -- '-W[[:space:]]+[^ ]+\.json' <<<"$c" | awk '{ print $2 }'); do
			[ -f "$w" ] || { echo "SKIP $w is not installed (Debian's rt-app)"; return; }
			if "$IB" --dry-run -c -W "$w" -w None 2>&1 | grep -q 'unknown benchmark'; then
				echo "SKIP this build does not read rt-app workload files yet"; return
			fi
		done
		for f in $(grep -oE 'sysctl:[a-z0-9_.]+' <<<"$c"); do
			name=${f#sysctl:}
			[ -e "/proc/sys/${name//.//}" ] || { echo "SKIP the kernel has no $name"; return; }
		done
		c=$(sed -E "s/(^|[[:space:]])(-t|--time)([[:space:]]+|=)[0-9.]+/\\1-t $t/g" <<<"$c")
		c=$(awk -v max="$REPEAT_MAX" '{
			for (i = 1; i < NF; i++) if ($i == "--repeat" && $(i + 1) + 0 > max) $(i + 1) = max
			print }' <<<"$c")
		case $opts in
		*dry-run*) c="$c --dry-run" ;;
		*)
			local own='(-t|--compare|--restore|--dry-run|-h|--help|-V|--version)'
			if ! grep -qE -- "(^|[[:space:]])$own([[:space:]]|\$)" <<<"$c"; then
				c=$(sed -E "s/(^|[[:space:]])((\.\/)?interbench)([[:space:]]|$)/\\1\\2 -t $t\\4/" <<<"$c")
			fi ;;
		esac
	fi
	printf '%s\n' "$c"
}

# Whether command $1 runs interbench (maybe through taskset, setpriv, chrt, nice or env).
runs_ib() {
	local first
	first=$(sed -E 's/^([A-Za-z_][A-Za-z_0-9]*=[^ ]*[[:space:]]+)*//' <<<"$1" | awk '{ print $1 }')
	case $first in
	./interbench|interbench) return 0 ;;
	taskset|setpriv|chrt|nice|env|timeout)
		[[ $1 =~ [[:space:]](\./)?interbench([[:space:]]|$) ]] ;;
	*) return 1 ;;
	esac
}

# run_block DOC BLOCK: the commands of one block of DOC, in order, in a directory of their
# own; a SKIP line for each not run, and a line "bad: ..." for each that failed.
run_block() {
	local doc=$1 blk=$2 rel=${1#"$TOP"/} ex w meta line b opts cmd run rc missing l
	ex=$dir/ex.$(tr '/.' '__' <<<"$rel")
	w=$ex/wd.$blk
	mkdir -p "$w"
	chmod 755 "$w"
	cp "$IB" "$w/interbench"
	# a run lock of its own, so that blocks run side by side do not wait for each other
	l=$(mktemp "${TMPDIR:-/tmp}/ib-lock.XXXXXX") && chmod 666 "$l" && exec 9<>"$l" && rm -f "$l"
	export INTERBENCH_TEST_JOURNAL=$w/.journal
	for meta in "$ex"/*.meta; do
		read -r line b opts <"$meta"
		[ "$b" = "$blk" ] || continue
		cmd=$(cat "${meta%.meta}.cmd")
		case $opts in
		skip:*) skip "$rel:$line: $cmd" "${opts#skip: }"; return ;;
		esac
		run=$(rewrite "$cmd" "$opts")
		case $run in
		"SKIP "*) skip "$rel:$line: $cmd" "${run#SKIP }"; return ;;
		esac
		(cd "$w" && PATH="$w:$PATH" timeout -k 5 90 bash -c "$run") >"$w/.out" 2>&1 </dev/null
		rc=$?
		if [ $rc = 1 ] && runs_ib "$run" && ! grep -qE '[|;&]' <<<"$run"; then
			skip "$rel:$line: $cmd" "the machine refused: $(grep -E 'interbench:|	failed: ' \
				"$w/.out" | tail -1)"
			return
		elif [ $rc != 0 ] && [[ $cmd == *setcap* ]]; then
			skip "$rel:$line: $cmd" "setcap is not permitted here: $(tail -1 "$w/.out")"
			return
		elif [ $rc != 0 ]; then
			echo "bad: $rel:$line: \`$cmd\` (run as \`$run\`) exited with status $rc:" \
				"$(tail -3 "$w/.out" | tr '\n' ' ')"
			continue
		fi
		echo "ran"
		missing=$(check_shown "${meta%.meta}.shown" "$w/.out")
		[ -z "$missing" ] || echo "bad: $rel:$line: \`$cmd\` printed no line like:" \
			"$(head -3 <<<"$missing" | tr '\n' '|') (it printed: $(head -c 600 "$w/.out" |
			tr '\n' '|'))"
	done
}

t="README.md and doc/ have examples"
total=0
for d in "${docs[@]}"; do
	total=$((total + $(grep -c '^```console' "$d")))
done
if [ "$total" -ge 10 ]; then pass "$t ($total console blocks)"; else fail "$t" "only $total"; fi

# Every block of every file, three at a time: most of a row is spent waiting, and the suite
# runs this in its parallel phase on 2 CPUs.
running=0
for d in "${docs[@]}"; do
	rel=${d#"$TOP"/}
	ex=$dir/ex.$(tr '/.' '__' <<<"$rel")
	mkdir -p "$ex"
	extract "$d" "$ex"
	for b in $(cat "$ex"/*.meta 2>/dev/null | awk '{ print $2 }' | sort -un); do
		if [ "$running" -ge 3 ]; then
			wait -n
			running=$((running - 1))
		fi
		run_block "$d" "$b" >"$ex/result.$b" &
		running=$((running + 1))
	done
done
wait
for d in "${docs[@]}"; do
	rel=${d#"$TOP"/}
	ex=$dir/ex.$(tr '/.' '__' <<<"$rel")
	ls "$ex"/*.meta >/dev/null 2>&1 || continue
	cat "$ex"/result.* | grep '^SKIP '
	ran=$(cat "$ex"/result.* | grep -c '^ran$')
	n=$(ls "$ex"/*.meta | wc -l)
	bad=$(cat "$ex"/result.* | sed -n 's/^bad: /  /p')
	t="$rel: its examples run and print what they show"
	if [ -n "$bad" ]; then
		fail "$t" "
$bad"
	else
		pass "$t ($ran of $n commands run)"
	fi
done
