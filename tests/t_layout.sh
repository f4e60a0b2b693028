#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_layout.sh - the source tree keeps the shape the README's "Source
# layout" describes: sources under src/ in folders, a core that links alone,
# each folder including only the folders below it, no hub header, no file
# or function past its size.
# run-first: a long script (10 s or more beside the others)
. "$(dirname "$0")/lib.sh"

dir=$(scratch)
trap 'rm -rf "$dir"' EXIT
cd "$TOP" || exit 1

# The tracked files when this is a git checkout, else what is on disk.
files() {
	if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$TOP" ls-files
	else
		find . -type f | sed 's|^\./||'
	fi
}
files >"$dir/files"

t="no C file at the top level; C files in four or more folders under src/"
top=$(grep -E '^[^/]+\.[ch]$' "$dir/files" | tr '\n' ' ')
nfold=$(grep -E '^src/[^/]+/[^/]+\.c$' "$dir/files" | cut -d/ -f2 | sort -u | wc -l)
if [ -z "$top" ] && [ "$nfold" -ge 4 ]; then pass "$t ($nfold folders)"
else fail "$t" "at the top: ${top:-none}; $nfold folders under src/"; fi

t="src/core/ compiles with every src/ folder on the include path and links with libc and libm alone"
inc=$(find src -type d -printf '-I%p ')
ok=1 why=""
for f in src/core/*.c; do
	# shellcheck disable=SC2086
	if ! ${CC:-cc} -std=gnu11 -O1 $inc -c "$f" -o "$dir/$(basename "$f" .c).o" 2>"$dir/err"; then
		ok=0 why="$f: $(head -2 "$dir/err" | tr '\n' ' ')"
		break
	fi
done
printf 'int main(void) { return 0; }\n' >"$dir/m.c"
if [ $ok = 1 ] && ! ${CC:-cc} -o "$dir/core" "$dir/m.c" "$dir"/*.o -lm 2>"$dir/err"; then
	ok=0 why=$(grep -oE 'undefined reference to .[A-Za-z_0-9]+' "$dir/err" | sort -u | tr '\n' ' ')
fi
if [ $ok = 1 ]; then pass "$t"; else fail "$t" "$why"; fi

# What each folder may include, besides itself: the folders below it, with
# no exceptions (data flows one way: measure -> row -> run record -> every
# output). The model is what every output reads; the outputs are above it,
# each a folder of one job; the command line (cli/) reads the configuration
# the model describes, the children (child/) measure with it; run/, the
# orchestrator, alone is above them all.
declare -A may=(
	[core]=""
	[lib]="core/"
	[sys]="core/ lib/"
	[task]="core/ lib/ sys/"
	[loads]="core/ lib/ sys/ task/"
	[model]="core/ lib/ sys/ task/ loads/"
	[cli]="core/ lib/ sys/ task/ loads/ model/"
	[child]="core/ lib/ sys/ task/ loads/ model/ cli/"
	[verdicts]="core/ lib/ sys/ task/ loads/ model/"
	[report]="core/ lib/ sys/ task/ loads/ model/ verdicts/"
	[timeline]="core/ lib/ sys/ task/ loads/ model/ verdicts/"
	[plot]="core/ lib/ sys/ task/ loads/ model/ verdicts/"
	[formats]="core/ lib/ sys/ task/ loads/ model/ verdicts/ report/ timeline/ plot/"
	[compare]="core/ lib/ sys/ task/ loads/ model/ verdicts/ report/ timeline/ plot/ formats/"
	[run]="core/ lib/ sys/ task/ loads/ model/ cli/ child/ verdicts/ report/ timeline/ plot/ formats/ compare/"
)
t="each folder includes only what is below it (doc/hacking.md: the layout)"
bad=""
for f in $(grep -E '^src/[^/]+/[^/]+\.[ch]$' "$dir/files"); do
	d=$(cut -d/ -f2 <<<"$f")
	[ -n "${may[$d]+x}" ] || { bad="$bad $f(folder $d is not in the table)"; continue; }
	for h in $(grep -oE '^#include "[^"]+"' "$f" | cut -d'"' -f2); do
		case "$h" in
		"$d"/*) continue ;;
		*/*) ;;
		*) bad="$bad $f:$h(not by folder)"; continue ;;
		esac
		allowed=0
		for a in ${may[$d]}; do
			case "$h" in "$a"*) allowed=1 ;; esac
		done
		[ $allowed = 1 ] || bad="$bad $f:$h"
	done
done
if [ -z "$bad" ]; then pass "$t"; else fail "$t" "$bad"; fi

t="no source file over 800 lines, no function over 80"
long=""
for f in $(grep -E '^src/.*\.[ch]$' "$dir/files"); do
	n=$(wc -l <"$f")
	[ "$n" -le 800 ] || long="$long $f($n lines)"
	long="$long$(awk -v f="$f" '/^\{/{s=NR} /^\}/{if(s && NR-s>80) printf " %s:%d(%d lines)", f, s, NR-s; s=0}' "$f")"
done
if [ -z "$long" ]; then pass "$t"; else fail "$t" "$long"; fi

# Each header's function declarations, "HEADER NAME" a line, into $dir/decls, once: a name,
# its parameters, then ";" (attributes between), outside comments, at the top level, once
# lines are joined.
header_decls() {
	[ -s "$dir/decls" ] && return
	"$PY" - $(grep -E '^src/.*\.h$' "$dir/files") >"$dir/decls" <<-'EOF'
	import re, sys
	for path in sys.argv[1:]:
	    s = open(path).read()
	    s = re.sub(r'/\*.*?\*/', ' ', s, flags=re.S)
	    s = re.sub(r'^#.*$', ' ', s, flags=re.M)
	    depth, flat = 0, []
	    for c in s:
	        if c == '{': depth += 1
	        elif c == '}': depth -= 1; continue
	        if depth == 0: flat.append(c)
	    for d in re.findall(r'\b([A-Za-z_]\w*)\s*\([^;(){}]*(?:\([^()]*\)[^;(){}]*)*\)\s*'
	                        r'(?:[A-Z_]+\s*\([^)]*\)\s*)*;', ''.join(flat)):
	        if d not in ('PRINTF', 'ARRAY_SIZE', 'sizeof'):
	            print(path, d)
	EOF
}

t="no header declares more than 40 functions"
PY=$(command -v python3)
if [ -z "$PY" ]; then
	skip "$t" "python3 is not installed"
else
	header_decls
	out=$(awk '{ n[$1]++ } END { for (h in n) { if (n[h] > most) { most = n[h]; mh = h }
			if (n[h] > 40) over = over " " h "(" n[h] ")" }
		print over ? substr(over, 2) : "ok " most " " mh }' "$dir/decls")
	case "$out" in
	ok*) set -- $out; pass "$t (the most: $3, $2)" ;;
	*) fail "$t" "$out" ;;
	esac
fi

t="make leaves nothing at the top level but ./interbench"
stray=$(find "$TOP" -maxdepth 1 \( -name '*.o' -o -name '*.d' -o -name '*.a' \) | tr '\n' ' ')
if [ -z "$stray" ] && [ -d "$TOP/build/core" ]; then pass "$t"
else fail "$t" "${stray:-build/core is missing}"; fi

# True when python3, nm and the built objects are there; else test $1 is skipped, saying why.
have_objects() {
	if [ -z "$PY" ] || ! command -v nm >/dev/null; then
		skip "$1" "it needs python3 and nm"
	elif ! ls "$TOP"/build/core/*.o >/dev/null 2>&1; then
		skip "$1" "nothing is built under build/"
	else
		return 0
	fi
	return 1
}

# The symbols of every object of the tree's sources (not a stale object's), from one nm:
# "@folder/file.c", then that object's lines.
nm_all() {
	local c objs=()
	[ -s "$dir/nm" ] && return
	for c in $(grep -E '^src/[^/]+/[^/]+\.c$' "$dir/files"); do
		c=$TOP/build/${c#src/}
		objs+=("${c%.c}.o")
	done
	nm "${objs[@]}" 2>/dev/null | awk -v top="$TOP/build/" '
		index($0, top) == 1 && /:$/ { f = substr($0, length(top) + 1); sub(/\.o:$/, ".c", f)
					     print "@" f; next }
		NF { print }' >"$dir/nm"
}

t="no two source files call each other, directly or around a cycle"
if have_objects "$t"; then
	# Each object's defined symbols and the ones it uses: an edge per call
	# (or data reference) to another file; a strongly connected set of two
	# or more files is a cycle.
	nm_all
	out=$("$PY" -c '
import sys, collections
defs, uses, cur = {}, collections.defaultdict(set), None
for line in sys.stdin:
    if line.startswith("@"):
        cur = line[1:].strip()[:-2]
        continue
    p = line.split()
    if len(p) == 3 and p[1] in "TDRBC":
        defs[p[2]] = cur
    elif len(p) == 2 and p[0] == "U":
        uses[cur].add(p[1])
g = {f: {defs[u] for u in us if u in defs and defs[u] != f} for f, us in uses.items()}
index, low, stack, on, cycles = {}, {}, [], set(), []
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on.add(v)
    for w in g.get(v, ()):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: cycles.append(" <-> ".join(sorted(comp)))
for v in sorted(g):
    if v not in index: visit(v)
print("; ".join(cycles))' <"$dir/nm")
	if [ -z "$out" ]; then pass "$t"; else fail "$t" "$out"; fi
fi

# A header is one module's interface: the functions it declares are defined in at most five
# files (the objects' symbols say where).
t="no header declares the functions of more than five .c files"
if have_objects "$t"; then
	nm_all
	awk '/^@/ { f = substr($0, 2); next } $2 == "T" { print $3, f }' "$dir/nm" >"$dir/defs"
	header_decls
	out=$(awk 'NR == FNR { where[$1] = $2; next } ($2 in where) && !seen[$1, where[$2]]++ {
			n[$1]++; files[$1] = files[$1] " " where[$2] }
		END { for (h in n) { if (n[h] > most) { most = n[h]; mh = h }
			if (n[h] > 5) over = over " " h "(" substr(files[h], 2) ")" }
		print over ? substr(over, 2) : "ok " most " " mh }' "$dir/defs" "$dir/decls")
	case "$out" in
	ok*) set -- $out; pass "$t (the most: $3, $2)" ;;
	*) fail "$t" "$out" ;;
	esac
fi

# A benchmark's kind is one ops struct (src/model/kinds.h): what differs between kinds is in
# the kinds' files, so that few places ask which kind a benchmark is. Counted: the names of
# kinds and of their data (an rt-app file's cell or flag, a chain's summary or its kinds, a
# table of threads), in C files outside the kinds' own (src/model/kind*.c, the task's
# chain.c, game.c, audiograph.c, rtapp*.c and core/frames.c) and the registry of
# workloads, src/formats/ included (its JSON reads a chain's words and a file's table name
# from the kinds: result_chain_words(), cell_kind_table_name()).
t="at most 10 places outside the kinds' files ask which kind a benchmark is"
pat='SIM_[A-Z]+|cell_is_rtapp_file|cell_is_workload|WL_RTAPP_FILE|WL_WORKLOAD_FILE|->chain\b'
pat="$pat|CHAIN_(NONE|GAME|AUDIO)|&kind_[a-z]+|TABLE_THREADS"
asks=$(grep -E '^src/[^/]+/[^/]+\.c$' "$dir/files" |
	grep -vE '^src/(model/kind|model/workloads\.c|core/frames\.c)' |
	grep -vE '^src/task/(chain|game|audiograph|rtapp[a-z_]*)\.c$' |
	xargs grep -nE "$pat" | cut -d: -f1,2)
n=$(grep -c . <<<"$asks")
if [ "$n" -le 10 ]; then pass "$t ($n)"; else fail "$t" "$n: $(tr '\n' ' ' <<<"$asks")"; fi
