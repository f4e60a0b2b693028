#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_docs.sh - the manual and the completion keep up with --help, and README.md and
# doc/ name no option --help lacks; the progress line shows on a terminal only; make install
# and uninstall. (tests/t_examples.sh runs the examples of README.md and doc/.)
. "$(dirname "$0")/lib.sh"

# These tests check what is printed, not how the rows performed: the load's
# second alone before each row is cut short (test-only).
export INTERBENCH_TEST_SETTLE_MS=100

scratch_dir

t="mandoc -Tlint reports nothing on interbench.8"
if ! command -v mandoc >/dev/null; then
	skip "$t" "mandoc is not installed"
else
	out=$(mandoc -Tlint -W warning "$TOP/interbench.8" 2>&1)
	if [ -z "$out" ]; then pass "$t"; else fail "$t" "$out"; fi
fi

# Every option --help lists, as "--long" and "-s", two on a line ("-h, --help / -V,
# --version") included.
help_options() {
	"$IB" --help | grep -E '^  +(-[A-Za-z], )?--[a-z-]+' |
		sed -E 's/^  +//; s/ {2,}.*//; s| / |\n|g' | grep -oE '^(-[A-Za-z], )?--[a-z-]+' |
		tr -d ' ,' | sed -E 's/^(-[A-Za-z])--/\1 --/' | tr ' ' '\n'
}

t="every option --help lists is in interbench.8 and the completion"
missing=""
n=0
for o in $(help_options); do
	n=$((n + 1))
	grep -qE "Fl ${o#-}( |$)" "$TOP/interbench.8" || missing="$missing man:$o"
	grep -qE -- "(^|[[:space:]\"|])$o([[:space:]|\"]|$)" "$TOP/completion/interbench.bash" ||
		missing="$missing completion:$o"
done
if [ "$n" -lt 40 ]; then
	fail "$t" "only $n options found in --help"
elif [ -n "$missing" ]; then
	fail "$t" "missing:$missing"
else
	pass "$t ($n options)"
fi

# The README is a guide and the manual the reference: the README does not list every
# option, but no long option it or doc/ names may be one --help no longer has (a diff in
# doc/hacking.md shows an option to be, and is not counted). These are other programs'
# options that the recipes use: docker's and setpriv's.
others="--rm --cap-add --ulimit --privileged --reuid --regid --clear-groups"
t="README.md and doc/ name only options that --help lists (or other programs' own)"
known=" $(help_options | tr '\n' ' ') $others "
stale=""
for f in "$TOP/README.md" "$TOP"/doc/*.md; do
	[ -f "$f" ] || continue
	for o in $(awk '/^```diff/ { d = 1 } d && /^```$/ { d = 0; next } !d' "$f" |
		grep -oE -- '(^|[^A-Za-z0-9_-])--[a-z][a-z-]*[a-z]' | grep -oE -- '--[a-z-]+' | sort -u); do
		[[ $known == *" $o "* ]] || stale="$stale ${f#"$TOP"/}:$o"
	done
done
if [ -z "$stale" ]; then pass "$t"; else fail "$t" "not in --help:$stale"; fi

t="--help is short and grouped"
h=$("$IB" --help)
if [ "$(printf '%s\n' "$h" | wc -l)" -le 60 ] &&
	printf '%s\n' "$h" | grep -q '^Benchmarks and loads:$' &&
	printf '%s\n' "$h" | grep -q '^Timing:$' &&
	printf '%s\n' "$h" | grep -q '^Scheduling:$' &&
	printf '%s\n' "$h" | grep -q '^Output:$'; then
	pass "$t"
else
	fail "$t" "$(printf '%s\n' "$h" | head -5)"
fi

t="a progress line with an ETA on a terminal"
if ! command -v script >/dev/null; then
	skip "$t" "script(1) is not installed"
else
	script -qec "$IB -c -t 1.5 -W Audio -w None --work-dir $dir" \
		"$dir/typescript" >/dev/null 2>&1
	if grep -q 'ETA [0-9][0-9]:[0-9][0-9]:[0-9][0-9]' "$dir/typescript" &&
		grep -q '\[1/1\] Audio vs None' "$dir/typescript"; then
		pass "$t"
	else
		fail "$t" "$(tr '\r' '\n' <"$dir/typescript" | tail -5)"
	fi
fi

t="no progress line through a pipe, nor with -q on a terminal"
ib -c -t 0.3 -W Audio -w None --work-dir "$dir" >"$dir/out" 2>"$dir/err"
script -qec "$IB -q -c -t 0.3 -W Audio -w None --work-dir $dir" \
	"$dir/typescript2" >/dev/null 2>&1
if grep -q 'ETA' "$dir/out" "$dir/err" "$dir/typescript2" || grep -q $'\r' "$dir/err"; then
	fail "$t" "progress leaked: $(cat "$dir/err")"
else
	pass "$t"
fi

t="make install DESTDIR puts binary, manual and completion in place; uninstall removes them"
dest="$dir/dest"
if ! make -s -C "$TOP" install DESTDIR="$dest" PREFIX=/usr >/dev/null 2>"$dir/err"; then
	fail "$t" "install failed: $(cat "$dir/err")"
elif [ ! -x "$dest/usr/bin/interbench" ] || [ ! -f "$dest/usr/share/man/man8/interbench.8" ] ||
	[ ! -f "$dest/usr/share/bash-completion/completions/interbench" ]; then
	fail "$t" "installed: $(cd "$dest" && find . -type f)"
elif ! make -s -C "$TOP" uninstall DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1 ||
	[ -n "$(find "$dest" -type f)" ]; then
	fail "$t" "left after uninstall: $(cd "$dest" && find . -type f)"
else
	pass "$t"
fi

# Every link and image of README.md, BENCHMARKS.md and doc/ that points into the tree names
# a file git tracks (an ignored file exists here and nowhere else), and an anchor names a
# heading of its file, spelled as GitHub spells it.
slug() { tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9 _-]//g; s/ /-/g'; }
t="the documents' links and images point at tracked files and existing headings"
broken=""
n=0
tracked=$(git -C "$TOP" ls-files 2>/dev/null)
for f in "$TOP/README.md" "$TOP/BENCHMARKS.md" "$TOP"/doc/*.md; do
	[ -f "$f" ] || continue
	d=$(dirname "$f")
	for l in $(awk '/^```/ { c = !c; next } !c' "$f" | grep -oE '\]\([^) ]+\)' | sed -E 's/^\]\(//; s/\)$//'); do
		case $l in http://* | https://* | mailto:*) continue ;; esac
		n=$((n + 1))
		path=${l%%#*}
		anchor=""
		[[ $l == *"#"* ]] && anchor=${l#*#}
		target=$f
		if [ -n "$path" ]; then
			target=$(realpath -m "$d/$path")
			rel=${target#"$TOP"/}
			if [ ! -e "$target" ]; then
				broken="$broken ${f#"$TOP"/}:$l(missing)"
				continue
			elif [ -n "$tracked" ] && [ -f "$target" ] && ! grep -qxF "$rel" <<<"$tracked"; then
				broken="$broken ${f#"$TOP"/}:$l(untracked)"
				continue
			fi
		fi
		if [ -n "$anchor" ] && ! grep -E '^#+ ' "$target" | sed -E 's/^#+ //' | slug |
			grep -qxF "$anchor"; then
			broken="$broken ${f#"$TOP"/}:$l(no heading)"
		fi
	done
done
if [ "$n" -lt 20 ]; then
	fail "$t" "only $n links found"
elif [ -n "$broken" ]; then
	fail "$t" "broken:$broken"
else
	pass "$t ($n links)"
fi

t="the manual's header and footer name interbench and its version, not BSD"
if ! command -v mandoc >/dev/null; then
	skip "$t" "mandoc is not installed"
else
	page=$(mandoc -Tascii "$TOP/interbench.8" | col -b 2>/dev/null)
	[ -n "$page" ] || page=$(mandoc -Tascii "$TOP/interbench.8")
	groff_head=""
	command -v groff >/dev/null && groff_head=$(groff -mandoc -Tascii "$TOP/interbench.8" 2>/dev/null | head -1)
	ver=$("$IB" -V)
	if [[ $page == *BSD* ]] || [[ $groff_head == *BSD* ]]; then
		fail "$t" "$(head -1 <<<"$page") / $groff_head"
	elif [ "$(tail -1 <<<"$page" | awk '{ print $1, $2 }')" != "$ver" ]; then
		fail "$t" "footer '$(tail -1 <<<"$page")', program '$ver'"
	else
		pass "$t"
	fi
fi

# doc/hacking.md shows whole changes as diffs: each must still apply to the tree it ships in.
t="every diff in doc/hacking.md applies to the tree"
mkdir -p "$dir/diffs"
awk -v d="$dir/diffs" '/^```diff/ { on = 1; n++; next } /^```$/ { on = 0 } on { print > (d "/" n ".patch") }' \
	"$TOP/doc/hacking.md"
bad=""
n=0
for p in "$dir"/diffs/*.patch; do
	[ -f "$p" ] || continue
	n=$((n + 1))
	err=$(cd "$TOP" && git apply --check "$p" 2>&1) || bad="$bad [diff $(basename "$p" .patch): $(head -2 <<<"$err" | tr '\n' ' ')]"
done
if [ "$n" -lt 2 ]; then
	fail "$t" "only $n diffs found"
elif [ -n "$bad" ]; then
	fail "$t" "$bad"
else
	pass "$t ($n diffs)"
fi
