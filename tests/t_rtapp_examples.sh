#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_rtapp_examples.sh - every example and tutorial file Debian's rt-app ships (examples/,
# tutorial/, merge/, cpufreq_governor_efficiency/, taskset.json) either runs as -W FILE -t 0.3
# -w None, a line per thread, or is refused before anything runs with one line naming the
# file and the key; rt-app's own use cases must run.
. "$(dirname "$0")/lib.sh"

export INTERBENCH_TEST_SETTLE_MS=100
DOC=/usr/share/doc/rt-app

dir=$(scratch)
trap 'rm -rf "$dir"' EXIT

if [ ! -d "$DOC/examples" ]; then
	skip "Debian's rt-app examples" "$DOC/examples is absent (apt install rt-app)"
	exit 0
fi

# rt-app's own use cases, which interbench must run as they are.
must_run() {
	case "$(basename "$1")" in
	mp3-short.json | mp3-long.json | video-short.json | video-long.json | browser-short.json | \
	browser-long.json) return 0 ;;
	esac
	return 1
}

# The threads' lines of its one row: as many as the file's thread objects.
ran_ok() {
	local name=$1 out=$2 n
	n=$(awk -v h="^--- Benchmarking rt-app workload $name in the presence" \
		'$0 ~ h { t = 1; next } t && /^\t/ && !/failed/ { n++ } END { print n + 0 }' "$out")
	[ "$n" -gt 0 ] && ! grep -q $'^None\tfailed' "$out"
}

n=0
while IFS= read -r f; do
	n=$((n + 1))
	name=$(basename "$f")
	t="rt-app example ${f#"$DOC"/}"
	ib -c -q -t 0.3 -W "$f" -w None --work-dir "$dir" >"$dir/out" 2>"$dir/err"
	rc=$?
	if [ $rc = 0 ] && ran_ok "$name" "$dir/out"; then
		pass "$t: runs, a line per thread ($(grep -c $'^\t' "$dir/out"))"
	elif [ $rc = 2 ] && ! must_run "$f" && [ "$(wc -l <"$dir/err")" = 1 ] &&
		grep -qF "$f" "$dir/err" && grep -qE "'[^']+'" "$dir/err"; then
		pass "$t: refused: $(sed "s|^interbench: $f||" "$dir/err" | cut -c1-90)"
	else
		fail "$t" "rc=$rc: $(head -2 "$dir/err") $(sed -n '/^--- Bench/,$p' "$dir/out" | head -3)"
	fi
done < <(find "$DOC/examples" -name '*.json' | sort; [ -f "$DOC/taskset.json" ] && echo "$DOC/taskset.json")

t="nothing of ours left running after $n files"
if no_leftovers 3; then pass "$t"; else fail "$t" "$(leftovers)"; fi
