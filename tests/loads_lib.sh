# SPDX-License-Identifier: GPL-2.0-or-later
# tests/loads_lib.sh - what the load scripts share, sourced after lib.sh: a
# scratch directory with a cleanup that also unmounts a test tmpfs, and
# helpers to run tests/loadrun and read its lines.
# shellcheck shell=bash
LOADRUN=${LOADRUN:-$TOP/build/tests/loadrun}
dir=$(scratch)
mnt=""
cleanup() {
	[ -n "$mnt" ] && { umount "$mnt" 2>/dev/null; rmdir "$mnt"; }
	rm -rf "$dir"
}
trap cleanup EXIT

# loadrun (work in CPU time), bounded in time
lr() { timeout -k 5 "${LR_TIMEOUT:-120}" "$LOADRUN" "$@"; }

# the value of key=VALUE in a loadrun line
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

# true when the numbers (any notation) satisfy an awk condition
holds() { awk "BEGIN { exit !($1) }" </dev/null 2>/dev/null; }

# files and bytes in a directory: nothing may be left, not even unnamed
# files still open (those show only in the space used, checked on tmpfs)
dir_empty() { [ -z "$(ls -A "$1")" ]; }

# Why something of ours is left (a process, or a file in $dir); empty if nothing.
left_behind() {
	if ! no_leftovers 2; then
		echo "left:$(leftovers)"
	elif ! dir_empty "$dir"; then
		echo "files: $(ls -A "$dir")"
	fi
}
