# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# bench/lib.sh - what the benchmark scripts share: their messages, and their
# report written into BENCHMARKS.md between markers of their own.

die() { printf 'bench: %s\n' "$*" >&2; exit 1; }
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
