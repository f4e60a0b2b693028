#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t_switch.sh - --vary of what the machine runs: a sysfs file and the I/O
# scheduler (real here), sched_ext schedulers (a stand-in program and state
# directory), a daemon (exec=); each put back after the run, a SIGTERM, and a
# SIGKILL followed by the next run; switching per cell or per pass.
# run-first: about 30 s of rows and program starts
. "$(dirname "$0")/lib.sh"
use_json_checker "--vary of the machine's settings"

export INTERBENCH_TEST_SETTLE_MS=100
dir=$(scratch)
mkdir -p "$dir/bin" "$dir/scx/root"
export PATH="$dir/bin:$PATH" INTERBENCH_SCX_ROOT=$dir/scx INTERBENCH_TEST_SWITCH_S=3

# The disk under the scratch directory, as --vary iosched finds it.
devno=$(stat -c %d "$dir")
disk=$(basename "$(readlink -f "/sys/dev/block/$((devno >> 8 & 0xfff)):$(((devno & 0xff) | (devno >> 12 & 0xfff00)))" 2>/dev/null)")
[ -e "/sys/dev/block/$((devno >> 8 & 0xfff)):$(((devno & 0xff) | (devno >> 12 & 0xfff00)))/partition" ] &&
	disk=$(basename "$(dirname "$(readlink -f "/sys/dev/block/$((devno >> 8 & 0xfff)):$(((devno & 0xff) | (devno >> 12 & 0xfff00)))")")")
sched=/sys/block/$disk/queue/scheduler
chosen() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$sched" 2>/dev/null; }
orig=$(chosen)
cleanup() {
	[ -n "$orig" ] && is_root && echo "$orig" >"$sched" 2>/dev/null
	pkill -KILL -f "sleep 7${$}" 2>/dev/null
	rm -rf "$dir" "$INTERBENCH_TEST_JOURNAL"
}
trap cleanup EXIT

# A stand-in sched_ext scheduler: says its version, enables itself with its
# name in the stand-in state directory, and disables on SIGTERM; with an
# argument, the "kernel" ejects it that many seconds in, as a watchdog would.
cat >"$dir/bin/scx_x" <<'EOF'
#!/bin/bash
root=$INTERBENCH_SCX_ROOT
stop() { echo disabled >"$root/state"; : >"$root/root/ops"; echo "stopped $$" >>"$root/../life"; exit 0; }
trap stop TERM
echo "started $$" >>"$root/../life"
echo "scx_x 1.2.3 starting"
sleep 0.1
echo x >"$root/root/ops"
echo $(($(cat "$root/enable_seq") + 1)) >"$root/enable_seq"
echo enabled >"$root/state"
if [ -n "${1:-}" ]; then
	sleep "$1"
	echo "EXIT: runnable task stall (stand-in watchdog)"
	echo disabled >"$root/state"; : >"$root/root/ops"
	exit 1
fi
while :; do sleep 0.05; done
EOF
# One that never gets enabled.
printf '#!/bin/bash\nexec sleep 60\n' >"$dir/bin/scx_never"
# A daemon that starts a child of its own, then says it is ready; on SIGTERM
# it leaves the child to whoever stops its group.
cat >"$dir/bin/daemon_x" <<'EOF'
#!/bin/bash
trap 'echo stopped >>"$2.life"; exit 0' TERM
echo started >>"$2.life"
sleep "$1" &
touch "$2"
wait
EOF
chmod +x "$dir/bin/"*
echo disabled >"$dir/scx/state"
echo 0 >"$dir/scx/enable_seq"

t="a bad --vary of the machine's settings is one line and exit 2"
usage_errors "--vary sysfs:/etc/passwd=a,b" "--vary sysfs:/sys/../etc/passwd=a,b" \
	"--vary sysfs:/sys/no/such/file=a,b" "--vary-order abba" "--vary-ready 1" \
	"--vary load-nice=0,1 --vary-order sideways" "--vary load-nice=0,1 --vary-ready 1" \
	"--vary iosched=bfq"
[ -z "$bad" ] && pass "$t" || fail "$t" "$bad"

t="--vary-order: per cell (abba, a knob's default) or a whole pass per variant (blocks, a program's)"
out_a=$(ib --dry-run -W Audio -w None -w Burn --vary load-nice=0,5 2>&1)
out_b=$(ib --dry-run -W Audio -w None -w Burn --vary 'exec=none,sleep 1' 2>&1)
out_c=$(ib --dry-run -W Audio -w None -w Burn --vary load-nice=0,5 --vary-order blocks 2>&1)
if has_lines "$out_a" '^Audio: None A, None B, Burn A, Burn B$' '^Variants: .*; their order turns each pass' &&
	has_lines "$out_b" '^Audio: None A, Burn A$' '^Audio: None B, Burn B$' '^Variants: A exec=none, B exec=sleep 1; in blocks' &&
	has_lines "$out_c" '^Audio: None A, Burn A$' '^Audio: None B, Burn B$'; then
	pass "$t"
else
	fail "$t" "$out_a / $out_b / $out_c"
fi

if ! is_root; then
	skip "the machine's settings varied" "needs root"
	exit 0
fi

t="--vary scx= on a kernel without sched_ext: one line, exit 1 within 1 s, nothing changed"
start=$(date +%s%N)
out=$(INTERBENCH_SCX_ROOT=$dir/noscx ib -c -q -t 0.2 -W Audio -w None --vary scx=none,scx_x --work-dir "$dir" 2>&1)
rc=$?
took=$((($(date +%s%N) - start) / 1000000))
out2=""
[ -e /sys/kernel/sched_ext/state ] || out2=$(INTERBENCH_SCX_ROOT='' ib -c -q -t 0.2 -W Audio -w None --vary scx=none,scx_x --work-dir "$dir" 2>&1)
if [ $rc = 1 ] && [ $took -lt 1000 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
	[[ $out == *"this kernel has no sched_ext"*"nothing was changed" ]] && ! grep -q started "$dir/life" 2>/dev/null &&
	[ ! -e "$INTERBENCH_TEST_JOURNAL/journal" ] && { [ -z "$out2" ] || [[ $out2 == *"no /sys/kernel/sched_ext/state"* ]]; }; then
	pass "$t (${took} ms)"
else
	fail "$t" "rc=$rc in $took ms: $out / $out2"
fi

t="scx=: started, seen enabled with its name, rows measured, stopped, seen disabled, recorded"
ib -q -t 0.3 --repeat 2 -W Audio -w None --vary scx=none,scx_x --work-dir "$dir" \
	--json "$dir/scx.json" --csv "$dir/scx.csv" >"$dir/scx.out" 2>&1
rc=$?
msg=$(py3 - "$dir/scx.json" "$dir/scx.csv" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
got = [(r["variant"], r["variant_value"], bool(r["variant_pid"]), r["variant_sched_ext"], r["status"])
       for r in d["results"]]
want = [("scx=none", None, False, "disabled", "ok"), ("scx=scx_x", "x", True, "enabled: x", "ok"),
        ("scx=scx_x", "x", True, "enabled: x", "ok"), ("scx=none", None, False, "disabled", "ok")]
if got != want:
    print("results:", got)
v = d["run"]["vary"]
if v["switch"] != "blocks" or [x["state"] for x in v["variants"]] != [
        "no scheduler program, sched_ext disabled", "sched_ext enabled: x, version 1.2.3, run as 'scx_x'"]:
    print("run.vary:", v)
rows = list(csv.DictReader(open(sys.argv[2])))
if [r["variant_sched_ext"] for r in rows] != ["disabled", "enabled: x", "enabled: x", "disabled"]:
    print("csv:", [r["variant_sched_ext"] for r in rows])
PY
)
life=$(tr '\n' ' ' <"$dir/life" | sed 's/[0-9]//g')
if [ $rc = 0 ] && [ -z "$msg" ] && [ "$life" = "started  stopped  started  stopped  " ] &&
	[ "$(cat "$dir/scx/state")" = disabled ] && no_leftovers 1 && ! pgrep -f "$dir/bin/scx_x" >/dev/null &&
	has_lines "$(cat "$dir/scx.out")" '^Variant A: no scheduler program, sched_ext disabled$' \
		"^Variant B: sched_ext enabled: x, version 1.2.3, run as 'scx_x'$" '^Switching: a sched_ext scheduler'; then
	pass "$t"
else
	fail "$t" "rc=$rc, life '$life', state $(cat "$dir/scx/state"): $msg $(grep -E '^(Variant|interbench)' "$dir/scx.out")"
fi
grep -E '^(Variants|Switching|Variant [AB])' "$dir/scx.out" >"$dir/scx.header"

t="--compare sets the schedulers side by side, named, and warns that they differ"
out=$(ib --compare "$dir/$(uname -r).log" 2>&1)
out_csv=$(ib --compare "$dir/scx.csv" 2>&1)
if has_lines "$out" "^\[2\] .* B scx=scx_x \(sched_ext enabled: x, version 1.2.3, run as 'scx_x'\): " \
	'^warning: \[2\] ran under sched_ext scheduler x, \[1\] under none' &&
	has_lines "$out_csv" '^\[2\] .* B scx=scx_x \(sched_ext enabled: x\): ' '^warning: \[2\] ran under sched_ext scheduler x'; then
	pass "$t"
else
	fail "$t" "$out / $out_csv"
fi

t="a scheduler ejected mid-row fails that row with the reason; the next variant starts clean"
: >"$dir/life"
ib -c -q -t 1 -W Audio -w None --vary 'scx=scx_x 0.5,none' --work-dir "$dir" --json "$dir/ej.json" >"$dir/ej.out" 2>&1
rc=$?
msg=$(py3 - "$dir/ej.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
got = [(x["variant"], x["status"], x["variant_sched_ext"]) for x in r]
if got != [("scx=scx_x 0.5", "failed", "enabled: x"), ("scx=none", "ok", "disabled")] or \
        "sched_ext ejected x during the row (now disabled): EXIT: runnable task stall (stand-in watchdog)" not in r[0]["reason"]:
    print(got, r[0]["reason"])
PY
)
if [ $rc = 1 ] && [ -z "$msg" ] && [ "$(cat "$dir/scx/state")" = disabled ]; then
	pass "$t"
else
	fail "$t" "rc=$rc: $msg $(tail -3 "$dir/ej.out")"
fi

t="a scheduler that never says enabled stops the run before any row, exit 1, nothing left"
out=$(ib -c -q -t 0.3 -W Audio -w None --vary scx=none,scx_never --work-dir "$dir" 2>&1)
rc=$?
if [ $rc = 1 ] && [[ $out == *"sched_ext did not say enabled with scx_never within 3 s (state: disabled"* ]] &&
	! [[ $out == *None/* ]] && ! pgrep -f "$dir/bin/scx_never" >/dev/null && [ ! -e "$INTERBENCH_TEST_JOURNAL/journal" ]; then
	pass "$t"
else
	fail "$t" "rc=$rc: $out"
fi

t="exec=: the command runs for its variant's cells only, and nothing of it is left"
rm -f "$dir/ready.life"
ib -c -q -t 0.3 --repeat 2 -W Audio -w None --vary "exec=none,daemon_x 7${$}1 $dir/ready" \
	--vary-ready "$dir/ready" --vary-order abba --work-dir "$dir" --json "$dir/ex.json" >"$dir/ex.out" 2>&1
rc=$?
pids=$(py3 -c 'import json, sys; print(" ".join(str(r["variant_pid"]) for r in json.load(open(sys.argv[1]))["results"]))' "$dir/ex.json" 2>&1)
if [ $rc = 0 ] && [[ $pids =~ ^None\ ([0-9]+)\ ([0-9]+)\ None$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] &&
	[ "$(tr '\n' ' ' <"$dir/ready.life")" = "started stopped " ] && ! pgrep -f "sleep 7${$}1" >/dev/null &&
	grep -q "^Variant B: runs 'daemon_x 7${$}1 $dir/ready'$" "$dir/ex.out"; then
	pass "$t"
else
	fail "$t" "rc=$rc, pids $pids, life $(cat "$dir/ready.life" 2>&1): $(grep -E '^(Variant|interbench)' "$dir/ex.out")"
fi

t="exec=: after a SIGKILL of interbench the next run stops what its command left"
setsid timeout -k 5 60 "$IB" -c -q -t 2 --repeat 2 -W Audio -w None --vary "exec=daemon_x 7${$}2 $dir/r2,none" \
	--vary-ready "$dir/r2" --work-dir "$dir" >/dev/null 2>&1 &
kpid=$!
await pgrep -f "sleep 7${$}2" >/dev/null
{ kill -KILL -"$kpid"; wait "$kpid"; } 2>/dev/null
sleep 0.3
left=$(pgrep -f "sleep 7${$}2")
out=$(ib -c -q -t 0.2 -W Audio -w None --work-dir "$dir" 2>&1)
rc=$?
sleep 0.2
if [ -n "$left" ] && [ $rc = 0 ] && [[ $out == *"stopped 1 process of group"* ]] && ! pgrep -f "sleep 7${$}2" >/dev/null; then
	pass "$t"
else
	fail "$t" "left '$left', rc=$rc: $out, still: $(pgrep -fa "sleep 7${$}2")"
fi

if [ -z "$orig" ] || [ ! -w "$sched" ] || ! grep -qw bfq "$sched" || ! grep -qw mq-deadline "$sched"; then
	skip "the I/O scheduler varied" "no writable $sched with mq-deadline and bfq"
	exit 0
fi

t="--vary sysfs:$sched=mq-deadline,bfq -W Audio -w Write --repeat 4: verdicts, each read back, put back"
ib -q -t 0.5 --repeat 4 -W Audio -w Write --file-mib 64 --vary "sysfs:$sched=mq-deadline,bfq" \
	--work-dir "$dir" -m io --json "$dir/io.json" >"$dir/io.out" 2>&1
rc=$?
msg=$(py3 - "$dir/io.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if [x["state"] for x in d["run"]["vary"]["variants"]] != ["reads mq-deadline", "reads bfq"]:
    print("run.vary:", d["run"]["vary"])
got = sorted(set((r["variant"].split("=")[-1], r["variant_value"]) for r in d["results"]))
if got != [("bfq", "bfq"), ("mq-deadline", "mq-deadline")] or len(d["results"]) != 8:
    print("results:", got, len(d["results"]))
if not d["verdicts"]:
    print("no verdicts")
PY
)
if [ $rc = 0 ] && [ -z "$msg" ] && [ "$(chosen)" = "$orig" ] &&
	has_lines "$(cat "$dir/io.out")" '^Variant A: reads mq-deadline$' '^Variant B: reads bfq$' \
		'^Write +mean \(ms\) ' &&
	has_lines "$(tr '\n' ' ' <"$dir/io.out" | tr -s ' ')" \
		"--- Verdicts for Audio: B sysfs:$sched=bfq against A sysfs:$sched=mq-deadline \(passes: 4 and 4\) ---"; then
	pass "$t"
else
	fail "$t" "rc=$rc, now $(chosen): $msg $(grep -E '^(Variant|interbench|---)' "$dir/io.out")"
fi
sed -n '/^--- Verdicts/,/^$/p' "$dir/io.out" >"$dir/io.verdicts"

# The recipe's 6 passes of 2 s shortened, as t_examples shortens the others': 4 of 0.3 s.
t="doc/compare.md's recipe: iosched= under Write and Read, the disk named, verdicts"
out=$(ib -c -t 0.3 --repeat 4 -W Audio -w Write -w Read --file-mib 64 --vary iosched=mq-deadline,bfq \
	--work-dir "$dir" 2>&1)
rc=$?
if [ $rc = 0 ] && [ "$(chosen)" = "$orig" ] &&
	has_lines "$out" "^Switching: $sched, the I/O scheduler of $disk \(the disk under $dir\)" \
		'^Variant B: reads bfq$' '^Variants: A iosched=mq-deadline, B iosched=bfq; their order turns each pass' \
		'^--- Verdicts for Audio: B iosched=bfq against A iosched=mq-deadline \(passes: 4 and 4\) ---$' \
		'^Read +mean \(ms\) '; then
	pass "$t"
else
	fail "$t" "rc=$rc: $(printf '%s\n' "$out" | grep -E '^(Variant|Switching|interbench|---)')"
fi

t="a value the kernel refuses is an error before anything runs, exit 1, nothing changed"
out=$(ib -c -q -t 0.2 -W Audio -w None --vary "sysfs:$sched=bfq,no-such-elevator" --work-dir "$dir" 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$(printf '%s\n' "$out" | grep -c .)" = 1 ] && [[ $out == *"refuses no-such-elevator"* ]] &&
	[ "$(chosen)" = "$orig" ] && [ ! -e "$INTERBENCH_TEST_JOURNAL/journal" ]; then
	pass "$t"
else
	fail "$t" "rc=$rc, now $(chosen): $out"
fi

other=bfq
[ "$orig" = bfq ] && other=kyber
start_io_run() {
	setsid timeout -k 5 60 "$IB" -c -q -t 2 --repeat 2 -W Audio -w None --vary "iosched=$other,$orig" \
		--work-dir "$dir" >"$dir/k.out" 2>&1 &
	kpid=$!
	await find_thread ib-Audio "$kpid" >/dev/null	# past the values' trial, in a row
}

t="SIGTERM mid-run puts the I/O scheduler back"
start_io_run
sleep 0.3
kill -TERM -"$kpid"
wait "$kpid"
rc=$?
if [ $rc = 143 ] && [ "$(chosen)" = "$orig" ] && [ ! -e "$INTERBENCH_TEST_JOURNAL/journal" ]; then
	pass "$t"
else
	fail "$t" "rc=$rc, now $(chosen): $(tail -2 "$dir/k.out")"
fi

t="SIGKILL mid-run, then a plain run: the I/O scheduler back before it runs"
start_io_run
{ kill -KILL -"$kpid"; wait "$kpid"; } 2>/dev/null
was=$(chosen)
out=$(ib -c -q -t 0.2 -W Audio -w None --work-dir "$dir" 2>&1)
rc=$?
if [ "$was" = "$other" ] && [ $rc = 0 ] && [ "$(chosen)" = "$orig" ] && [[ $out == *"queue/scheduler to $orig, left changed by a run that did not end"* ]]; then
	pass "$t"
else
	fail "$t" "was $was, rc=$rc, now $(chosen): $out"
fi

# for the record of a run (a closing note): the verdicts and an scx= header
if [ -n "${SWITCH_SHOW:-}" ]; then
	cat "$dir/io.verdicts" "$dir/scx.header" >"$SWITCH_SHOW"
fi
