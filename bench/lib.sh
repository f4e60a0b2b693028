# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# bench/lib.sh - what the benchmark scripts share: their messages, and their
# report written into BENCHMARKS.md between markers of their own.

die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

# What the common options (common_opt) set, as the scripts start: TOP is the tree's top.
IB=$TOP/interbench
OUT_MD=$TOP/BENCHMARKS.md
QUICK=0
WRITE=1
note() { printf 'bench: %s\n' "$*" >&2; }

# md_section NAME REPORT FILE SCRATCH [PART]: put REPORT between NAME's markers
# for PART ("generated" unless given) in FILE (appended, with the markers, when
# FILE has none), through SCRATCH.
md_section() {
	local part=${5:-generated}
	local begin="<!-- $1: $part section begins -->" end="<!-- $1: $part section ends -->"
	local report=$2 file=$3 tmp=$4
	if [ ! -f "$file" ] || ! grep -qF "$begin" "$file"; then
		{
			[ -f "$file" ] && cat "$file" && echo
			[ -f "$file" ] || printf '# interbench accuracy and overhead\n\n'
			echo "$begin"
			echo "$end"
		} >"$tmp"
		cat "$tmp" >"$file"
	fi
	awk -v b="$begin" -v e="$end" -v f="$report" '
		$0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
		$0 == e { skip = 0 }
		!skip { print }' "$file" >"$tmp" && cat "$tmp" >"$file"
}

# Columns of a CSV file by header name, tab-separated, one line per data row;
# a column the file lacks prints as NA. Quoted fields may hold commas.
csv_cols() {
	local file=$1; shift
	awk -v want="$*" '
	function split_csv(line, f,    n, i, c, q, cur) {
		n = 0; cur = ""; q = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q) {
				if (c == "\"") {
					if (substr(line, i + 1, 1) == "\"") { cur = cur "\""; i++ }
					else q = 0
				} else cur = cur c
			} else if (c == "\"") q = 1
			else if (c == ",") { f[++n] = cur; cur = "" }
			else cur = cur c
		}
		f[++n] = cur
		return n
	}
	NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i
		  m = split(want, w, " "); next }
	{ split_csv($0, f); line = ""
	  for (i = 1; i <= m; i++) {
		v = (w[i] in col) ? f[col[w[i]]] : "NA"
		if (v == "") v = "NA"
		line = line (i > 1 ? "\t" : "") v
	  }
	  print line }' "$file"
}

# n mean sd cv(%) min median max of the numbers on stdin (NA skipped)
stats() {
	awk '$1 != "NA" && $1 != "" { v[++n] = $1 + 0; s += $1 }
	END {
		if (!n) { print "0 NA NA NA NA NA NA"; exit }
		m = s / n
		for (i = 1; i <= n; i++) q += (v[i] - m) ^ 2
		sd = n > 1 ? sqrt(q / (n - 1)) : 0
		for (i = 2; i <= n; i++) { x = v[i]; j = i - 1
			while (j > 0 && v[j] > x) { v[j + 1] = v[j]; j-- } v[j + 1] = x }
		med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		printf "%d %.10g %.6g %.6g %.10g %.10g %.10g\n", n, m, sd, m ? 100 * sd / m : 0, v[1], med, v[n]
	}'
}

# The options every bench script takes, at "$@": sets QUICK, WRITE, OUT_MD and IB, and TOOK
# to the words used (0: $1 is not one of them, the script's own to read).
common_opt() {
	TOOK=1
	case "$1" in
	--quick) QUICK=1 ;;
	--no-write) WRITE=0 ;;
	--output) [ $# -ge 2 ] || die "--output needs a file"; OUT_MD=$2; TOOK=2 ;;
	--interbench) [ $# -ge 2 ] || die "--interbench needs a path"; IB=$2; TOOK=2 ;;
	*) TOOK=0 ;;
	esac
}

# The lines of the common options, for a script's usage.
COMMON_USAGE='  --no-write         print the report only, leave BENCHMARKS.md alone
  --output FILE      write the report into FILE instead of BENCHMARKS.md
  --interbench PATH  the binary to measure (default: ./interbench)'

# bench_args USAGE [OWN] ARGS...: a script's arguments: the common options, then those the
# function OWN takes (it sets TOOK to the words it used, 0 for none, as common_opt does);
# -h prints its usage (the function USAGE), anything else prints it on stderr, exit 2.
bench_args() {
	local usage=$1 own=:
	shift
	if [ $# -gt 0 ] && [ "$(type -t "$1")" = function ]; then
		own=$1
		shift
	fi
	while [ $# -gt 0 ]; do
		common_opt "$@"
		[ "$TOOK" = 0 ] && [ "$own" != : ] && "$own" "$@"
		if [ "$TOOK" = 0 ]; then
			case "$1" in
			-h|--help) "$usage"; exit 0 ;;
			*) "$usage" >&2; exit 2 ;;
			esac
		fi
		shift "$TOOK"
	done
}

# bench_start NAME: the script's scratch folder $W, removed when it exits, its report
# $REPORT in it, and its clock started; then say LINE adds to the report and step LINE says
# how far the run is.
bench_start() {
	W=$(mktemp -d "${TMPDIR:-/tmp}/ib-$1.XXXXXX") || die "mktemp failed"
	trap 'rm -rf "$W"' EXIT
	REPORT=$W/report.md
	T0=$SECONDS
}
# bench_finish SCRIPT: the report's last line (the time it took), the report printed, and,
# unless --no-write, written into SCRIPT's section of $OUT_MD.
bench_finish() {
	say ""
	say "Took $((SECONDS - T0)) s."
	cat "$REPORT"
	if [ "$WRITE" = 1 ]; then
		md_section "$1" "$REPORT" "$OUT_MD" "$W/md.new"
		note "report written into $OUT_MD"
	fi
}
say() { printf '%s\n' "$*" >>"$REPORT"; }
step() { note "[$((SECONDS - T0)) s] $*"; }

# "Measured DATE by `SCRIPT FLAGS` (version, git revision) on CPU, N CPUs, kernel R.": the
# first line of a report.
measured_by() {
	local ver rev model
	ver=$("$IB" --version 2>/dev/null | head -1)
	rev=$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo "?")
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	echo "Measured $(date -u '+%Y-%m-%d %H:%M') UTC by \`$1\` ($ver, $rev) on ${model:-an unknown CPU}, $(nproc) CPUs, kernel $(uname -r); load average at the start $(cut -d' ' -f1 /proc/loadavg)."
}
