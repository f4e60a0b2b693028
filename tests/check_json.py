#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/check_json.py - checks interbench's JSON (schema, statistics) and
# compares it with the text table and the CSV. Prints nothing and exits 0
# when all is well, else one line saying what is wrong and exits 1.
#
#   check_json.py schema RUN.json         names, types, internal consistency
#   check_json.py text RUN.json TABLE.txt the table's numbers are the JSON's
#   check_json.py csv RUN.json RUN.csv    the CSV holds the same rows and values
#   check_json.py get RUN.json EXPR       print EXPR, evaluated with d = the JSON
import csv
import json
import math
import re
import sys

STR, INT, NUM, BOOL, LIST, OBJ, NULL = str, int, (int, float), bool, list, dict, type(None)
ISO = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$')
STATS = ('min', 'mean', 'sd', 'max', 'p50', 'p90', 'p99', 'p999')
CSV_FIRST = ('kernel_release,comment,start,pass,realtime,benchmark,load,status,reason,'
             'samples,latency_min_ns,latency_mean_ns,latency_sd_ns,latency_max_ns,'
             'latency_p50_ns,latency_p90_ns,latency_p99_ns,latency_p999_ns,'
             'pct_desired_cpu,pct_deadlines_met,load_intensity,load_intensity_unit').split(',')

SCHEMA = {
    'interbench': {'version': STR},
    'run': {
        'command_line': LIST, 'start': STR, 'end': (STR, NULL), 'seconds_per_row': NUM,
        'work': STR, 'loops_per_ms': (INT, NULL), 'cpu_load': INT, 'realtime': BOOL, 'bench_nice': INT,
        'load_nice': INT, 'comment': (STR, NULL), 'interrupted': BOOL, 'fps': INT,
        'custom_cpu_pct': (INT, NULL), 'custom_interval_us': (INT, NULL),
        'periods': STR, 'period_drift_ns': (INT, NULL), 'wake': STR, 'timer_slack_ns': INT,
    },
    'system': {
        'kernel_release': STR, 'kernel_version': (STR, NULL), 'preemption': (STR, NULL),
        'preemption_source': (STR, NULL), 'hz': (INT, NULL), 'hostname': (STR, NULL),
        'cpu_model': (STR, NULL), 'cpus_online': (INT, NULL), 'cpufreq_governor': (STR, NULL),
        'clocksource': (STR, NULL), 'sched_rt_runtime_us': (INT, NULL),
        'timer_slack_ns': (INT, NULL), 'pm_qos_us': (INT, NULL), 'mem_kib': (INT, NULL),
        'swap_kib': (INT, NULL), 'work_dir_fs': (STR, NULL), 'io_scheduler': (STR, NULL),
        'kernel_cmdline': (STR, NULL), 'cpus_usable': (INT, NULL),
        'memory_limit_bytes': (INT, NULL), 'memory_limit_file': (STR, NULL),
        'work_dir_in_memory': (BOOL, NULL),
    },
}
RESULT = {
    'benchmark': STR, 'load': STR, 'pass': INT, 'status': STR, 'reason': (STR, NULL),
    'samples': (INT, NULL), 'latency_ns': OBJ, 'timer_latency_ns': OBJ, 'histogram': LIST,
    'pct_desired_cpu': (NUM, NULL), 'pct_deadlines_met': (NUM, NULL), 'load_intensity': OBJ,
    'periods': (OBJ, NULL), 'period_ns': (NUM, NULL), 'frame_rate': (NUM, NULL), 'task_cpu_ns': (INT, NULL), 'wall_ns': (INT, NULL),
    'load_stop_ns': (INT, NULL), 'trace_triggered_ns': (INT, NULL),
    'work_ratio': (NUM, NULL), 'loop_speed': (NUM, NULL),
    'load_medium': (STR, NULL),
    'queue_wait_ns': OBJ, 'wake_path_ns': OBJ, 'wakeups_queued': (INT, NULL),
    'sched_latency_ns': OBJ, 'wakeups_kernel_stamped': (INT, NULL),
    'wakeups_cpu_known': (INT, NULL), 'timer_slack_ns': (INT, NULL),
    'wakeups_cross_cpu': (INT, NULL), 'migrations': (INT, NULL), 'ran_instead': (LIST, NULL),
    'ran_instead_lost_events': (BOOL, NULL), 'misses': (LIST, NULL), 'miss_shares': (OBJ, NULL),
}
RAN = {'comm': STR, 'pid': INT, 'prio': INT, 'threads': INT, 'share': NUM, 'preempted': NUM}
MISS = {
    'period': INT, 'at_s': NUM, 'missed_by_ns': INT, 'woke_late_ns': INT, 'cpu': (INT, NULL),
    'waited_ns': INT, 'behind': (OBJ, NULL), 'ran_ns': INT, 'preempted': (INT, NULL),
    'preempted_ns': (INT, NULL), 'preempted_by': (OBJ, NULL), 'blocked_ns': (INT, NULL),
    'traced': BOOL, 'overran': BOOL, 'cut': BOOL,
}
TASK = {'comm': STR, 'pid': INT, 'prio': INT}
# a workload file's thread's own (-W FILE.json): its file, its wake-ups by kind, rt-app's figures
THREAD = {'workload': STR, 'wakeups': OBJ, 'rtapp': (OBJ, NULL)}
WORKLOAD = {'file': STR, 'name': STR, 'sha256': STR, 'size_bytes': INT, 'mtime': STR,
            'thread_objects': INT, 'threads': INT, 'timers': STR, 'scheduling': STR,
            'accepted_without_effect': LIST}
SHARES = ('queued', 'running', 'preempted', 'blocked')


class Bad(Exception):
    pass


def is_type(v, t):
    ts = t if isinstance(t, tuple) else (t,)
    if isinstance(v, bool):		# bool is an int in Python; not in JSON
        return bool in ts
    return isinstance(v, ts)


def check_names(obj, spec, where):
    if not isinstance(obj, dict):
        raise Bad(f'{where} is not an object')
    for name, t in spec.items():
        if name not in obj:
            raise Bad(f'{where}.{name} missing')
        if not is_type(obj[name], t):
            raise Bad(f'{where}.{name} = {obj[name]!r} has the wrong type')


def bucket_mid(upper):
    """Middle of the log-linear bucket [lower, upper) whose exclusive upper bound is given."""
    top = upper - 1
    if top < 128:
        return float(top)
    width = 1 << (top.bit_length() - 1 - 7)
    return (upper - width + top) / 2.0


def check_latency(lat, where, samples):
    check_names(lat, {s: (NUM, NULL) for s in STATS}, where)
    if not samples:
        if any(lat[s] is not None for s in STATS):
            raise Bad(f'{where} has numbers but no samples')
        return
    v = lat
    if not (v['min'] <= v['mean'] <= v['max']):
        raise Bad(f'{where}: not min <= mean <= max: {v}')
    if not (v['min'] <= v['p50'] <= v['p90'] <= v['p99'] <= v['p999'] <= v['max']):
        raise Bad(f'{where}: percentiles out of order: {v}')
    if v['sd'] < 0:
        raise Bad(f'{where}: negative sd')


def check_histogram(r, where):
    h = r['histogram']
    for pair in h:
        if not (isinstance(pair, list) and len(pair) == 2 and all(is_type(x, INT) for x in pair)
                and pair[1] > 0):
            raise Bad(f'{where}.histogram: bad entry {pair!r}')
    uppers = [p[0] for p in h]
    if uppers != sorted(set(uppers)):
        raise Bad(f'{where}.histogram: bounds not increasing')
    n = sum(p[1] for p in h)
    if n != (r['samples'] or 0):
        raise Bad(f'{where}.histogram sums to {n}, samples {r["samples"]}')
    if not n:
        return
    mean = sum(bucket_mid(u) * c for u, c in h) / n
    want = r['latency_ns']['mean']
    if abs(mean - want) > max(0.02 * want, 1.0):
        raise Bad(f'{where}: histogram mean {mean:.1f} vs mean {want:.1f} (> 2 %)')


def check_split(r, where):
    """Queue wait + wake path = the wakeup latency, sample by sample, so also in the mean."""
    q, p, lat = r['queue_wait_ns'], r['wake_path_ns'], r['latency_ns']
    split = q.get('mean') is not None
    check_latency(q, where + '.queue_wait_ns', r['samples'] if split else None)
    check_latency(p, where + '.wake_path_ns', r['samples'] if split else None)
    for k in ('wakeups_queued', 'wakeups_cross_cpu', 'migrations', 'wakeups_cpu_known',
              'wakeups_kernel_stamped'):
        if r[k] is not None and not 0 <= r[k] <= (r['samples'] or 0):
            raise Bad(f'{where}.{k} = {r[k]} of {r["samples"]} samples')
    if r['wakeups_cross_cpu'] is not None and not r['wakeups_cross_cpu'] <= r['wakeups_cpu_known']:
        raise Bad(f'{where}: {r["wakeups_cross_cpu"]} cross-CPU wake-ups of '
                  f'{r["wakeups_cpu_known"]} whose CPU is known')
    if split:
        if abs(q['mean'] + p['mean'] - lat['mean']) > 0.002 + 1e-12 * lat['mean']:
            raise Bad(f'{where}: queue wait {q["mean"]} + wake path {p["mean"]} != '
                      f'latency {lat["mean"]}')
        if q['max'] > lat['max'] or p['max'] > lat['max']:
            raise Bad(f'{where}: a part of the latency above its max')
    if r['ran_instead'] is not None:
        for j, t in enumerate(r['ran_instead']):
            check_names(t, RAN, f'{where}.ran_instead[{j}]')
        if sum(t['share'] for t in r['ran_instead']) > 1 + 1e-9:
            raise Bad(f'{where}.ran_instead: shares add up to more than 1')


def check_misses(r, where):
    """Each explained miss: its parts null only untraced; the worst first; shares add up to 1."""
    if r['misses'] is None:
        return
    late = [m['missed_by_ns'] for m in r['misses']]
    if late != sorted(late, reverse=True) or len(late) > 5:
        raise Bad(f'{where}.misses: not the worst five, the most late first: {late}')
    for j, m in enumerate(r['misses']):
        w = f'{where}.misses[{j}]'
        check_names(m, MISS, w)
        for k in ('behind', 'preempted_by'):
            if m[k] is not None:
                check_names(m[k], TASK, f'{w}.{k}')
        if m['traced'] != (m['blocked_ns'] is not None) or m['traced'] != (m['preempted'] is not None):
            raise Bad(f'{w}: traced {m["traced"]} with blocked_ns {m["blocked_ns"]}')
    s = r['miss_shares']
    if s is None:
        return
    check_names(s, {k: (NUM, NULL) for k in SHARES}, where + '.miss_shares')
    if s['running'] is not None and abs(sum(s[k] for k in SHARES) - 1) > 1e-9:
        raise Bad(f'{where}.miss_shares do not add up to 1: {s}')


def check_thread(r, where):
    """A workload file's thread: its wake-ups add up, rt-app's figures only with a timer."""
    check_names(r, THREAD, where)
    w = r['wakeups']
    check_names(w, {'timer': INT, 'resume': INT}, where + '.wakeups')
    if r['status'] == 'ok' and w['timer'] + w['resume'] != (r['samples'] or 0):
        raise Bad(f'{where}: wake-ups {w} do not add up to {r["samples"]} samples')
    if (r['rtapp'] is None) != (r['periods'] is None):
        raise Bad(f'{where}: rt-app figures {r["rtapp"]!r} with periods {r["periods"]!r}')
    if r['rtapp'] is not None:
        check_names(r['rtapp'], {'slack_ns': OBJ, 'wu_lat_ns': OBJ}, where + '.rtapp')
        s = r['rtapp']['slack_ns']
        if s['mean'] is not None and s['min'] > s['mean']:
            raise Bad(f'{where}: slack min {s["min"]} above its mean {s["mean"]}')


WAKE, SLACK = None, None        # the run's --wake and --timer-slack, set by cmd_schema


def check_wake(r, where, thread):
    """--wake waker: a timer latency per timer wake-up (the waker's); --wake timer: a timer
    latency and a scheduler's part per wake-up the kernel's sched_waking was traced for,
    adding up to the latency of those; the task's own timer's slack as read back."""
    stamped = r['wakeups_kernel_stamped']
    gaming = r['benchmark'] == 'Gaming'
    if WAKE == 'waker':
        if stamped is not None or r['sched_latency_ns']['mean'] is not None:
            raise Bad(f'{where}: the kernel split in waker mode')
        check_latency(r['timer_latency_ns'], where + '.timer_latency_ns',
                      None if gaming else r['wakeups']['timer'] if thread else r['samples'])
        return
    check_latency(r['timer_latency_ns'], where + '.timer_latency_ns', stamped)
    check_latency(r['sched_latency_ns'], where + '.sched_latency_ns', stamped)
    lat, t, s = r['latency_ns'], r['timer_latency_ns'], r['sched_latency_ns']
    if stamped and stamped == r['samples'] and \
            abs(t['mean'] + s['mean'] - lat['mean']) > 0.002 + 1e-12 * lat['mean']:
        raise Bad(f'{where}: timer {t["mean"]} + scheduler {s["mean"]} != latency {lat["mean"]}')
    slack = r['timer_slack_ns']         # a real-time task's is 0: the kernel keeps none
    timed = r['wakeups']['timer'] if thread else r['samples']
    if r['status'] == 'ok' and not gaming and timed and \
            (slack is None or not 0 <= slack <= SLACK):
        raise Bad(f'{where}: timer_slack_ns {slack}, asked for {SLACK}')


def check_result(r, i):
    where = f'results[{i}]'
    check_names(r, RESULT, where)
    if r['status'] not in ('ok', 'failed', 'skipped'):
        raise Bad(f'{where}.status = {r["status"]!r}')
    thread = 'workload' in r
    if thread:
        check_thread(r, where)
    check_latency(r['latency_ns'], where + '.latency_ns', r['samples'])
    check_wake(r, where, thread)
    check_histogram(r, where)
    check_split(r, where)
    check_misses(r, where)
    check_names(r['load_intensity'], {'value': (NUM, NULL), 'unit': (STR, NULL)},
                where + '.load_intensity')
    gaming = r['benchmark'] == 'Gaming'
    if gaming and (r['pct_deadlines_met'] is not None or r['periods'] is not None):
        raise Bad(f'{where}: Gaming has deadlines or periods')
    if thread and r['periods'] is None:
        if r['pct_deadlines_met'] is not None:
            raise Bad(f'{where}: a thread without a timer has deadlines')
    elif not gaming and r['status'] == 'ok':
        check_names(r['periods'], {'met': INT, 'missed': INT, 'dropped': INT}, where + '.periods')
        if r['pct_deadlines_met'] is None:
            raise Bad(f'{where}: no pct_deadlines_met')


def cmd_schema(d):
    check_names(d, {'interbench': OBJ, 'run': OBJ, 'system': OBJ, 'results': LIST}, 'top')
    for part, spec in SCHEMA.items():
        check_names(d[part], spec, part)
    run = d['run']
    if not all(isinstance(a, str) for a in run['command_line']) or not run['command_line']:
        raise Bad('run.command_line is not a list of strings')
    for t in ('start', 'end'):
        if run[t] is not None and not ISO.match(run[t]):
            raise Bad(f'run.{t} = {run[t]!r} is not ISO 8601 with a zone')
    if run['work'] not in ('cpu', 'loops') or (run['work'] == 'cpu') != (run['loops_per_ms'] is None):
        raise Bad(f'run.work = {run["work"]!r} with loops_per_ms {run["loops_per_ms"]!r}')
    if d['system']['preemption'] not in (None, 'none', 'voluntary', 'full', 'lazy', 'rt'):
        raise Bad(f'system.preemption = {d["system"]["preemption"]!r}')
    if run.get('workload') is not None:
        check_names(run['workload'], WORKLOAD, 'run.workload')
    if run['wake'] not in ('timer', 'waker') or run['timer_slack_ns'] < 1:
        raise Bad(f'run.wake = {run["wake"]!r}, timer_slack_ns {run["timer_slack_ns"]}')
    global WAKE, SLACK
    WAKE, SLACK = run['wake'], run['timer_slack_ns']
    for i, r in enumerate(d['results']):
        check_result(r, i)


def decimals(s):
    return len(s.split('.')[1]) if '.' in s else 0


def same_printed(text, value, what, scale=1.0):
    """The printed text is value / scale rounded to the printed digits."""
    if value is None:
        if text != '-':
            raise Bad(f'{what}: text {text}, JSON null')
        return
    v = value / scale
    tol = 0.5 * 10 ** -decimals(text) * (1 + 1e-9) + 1e-12
    if abs(float(text) - v) > tol:
        raise Bad(f'{what}: text {text}, JSON {v!r}')


def same_pct(text, value, what):
    if text == '100':
        if value < 100:
            raise Bad(f'{what}: text 100, JSON {value}')
        return
    if abs(float(text) - value) > 10 ** -decimals(text) + 1e-9:
        raise Bad(f'{what}: text {text}, JSON {value}')


def table_rows(text):
    """(benchmark, load) -> (fields, scale, percentiles) of each row of the table; a workload
    file's thread's, (thread, load) -> its fields, then its load line's intensity."""
    rows, bench, scale, pct, wl, load, inten = {}, None, 1e6, False, False, None, []
    for line in text.splitlines():
        m = re.match(r'^--- Benchmarking (simulated cpu of|rt-app workload) (\S+) ', line)
        if m:
            bench, wl = m.group(2), m.group(1) == 'rt-app workload'
            continue
        if line.startswith('Load\t'):
            scale = 1e3 if '(us)' in line else 1e6
            pct = 'p99.9' in line
            continue
        if not bench or '\t' not in line or 'failed' in line:
            continue
        if wl and line.startswith('\t'):
            f = line.split('  [')[0].split()	# its marks cut
            rows[(f[0], load)] = (f[1:] + inten, scale, pct)
        elif wl:
            load, rest = line.split('\t', 1)
            inten = rest.split()[:1]
        else:
            load, rest = line.split('\t', 1)
            rows[(bench, load)] = (rest.split(), scale, pct)
    return rows


def thread_row(r, f, scale, pct, what):
    """A workload file's thread's line: mean +/- sd, max, timer / resume wake-ups, deadlines."""
    lat = r['latency_ns']
    same_printed(f[0], lat['mean'], what + ' mean', scale)
    same_printed(f[2], lat['sd'], what + ' sd', scale)
    same_printed(f[3], lat['max'], what + ' max', scale)
    if float(f[4]) != r['wakeups']['timer'] or float(f[6]) != r['wakeups']['resume']:
        raise Bad(f'{what}: wake-ups {f[4]} / {f[6]}, JSON {r["wakeups"]}')
    if r['pct_deadlines_met'] is None:
        if f[7] != '-':
            raise Bad(f'{what}: deadlines {f[7]} without a timer')
    else:
        same_pct(f[7], r['pct_deadlines_met'], what + ' % deadlines met')
    i = 8
    if pct:
        same_printed(f[i], lat['p99'], what + ' p99', scale)
        same_printed(f[i + 1], lat['p999'], what + ' p99.9', scale)
        i += 2
    same_printed(f[i], r['load_intensity']['value'], what + ' intensity')


def cmd_text(d, path):
    rows = table_rows(open(path, encoding='utf-8', errors='replace').read())
    if len(rows) != len(d['results']):
        raise Bad(f'{len(rows)} table rows, {len(d["results"])} JSON results')
    for r in d['results']:
        key = (r['benchmark'], r['load'])
        if key not in rows:
            raise Bad(f'no table row for {key}')
        f, scale, pct = rows[key]
        lat, what = r['latency_ns'], '/'.join(key)
        if 'workload' in r:
            thread_row(r, f, scale, pct, what)
            continue
        same_printed(f[0], lat['mean'], what + ' mean', scale)
        same_printed(f[2], lat['sd'], what + ' sd', scale)
        same_printed(f[3], lat['max'], what + ' max', scale)
        same_pct(f[4], r['pct_desired_cpu'], what + ' % desired CPU')
        i = 5
        if r['benchmark'] != 'Gaming':
            same_pct(f[5], r['pct_deadlines_met'], what + ' % deadlines met')
            i = 6
        if pct:
            same_printed(f[i], lat['p99'], what + ' p99', scale)
            same_printed(f[i + 1], lat['p999'], what + ' p99.9', scale)
            i += 2
        same_printed(f[i], r['load_intensity']['value'], what + ' intensity')


def csv_value(s):
    if s == '':
        return None
    try:
        return float(s)
    except ValueError:
        return s


def same(a, b):
    if isinstance(a, float) and isinstance(b, (int, float)) and not isinstance(b, bool):
        return a == b or math.isclose(a, b, rel_tol=1e-12)
    return a == b


def cmd_csv(d, path):
    with open(path, newline='', encoding='utf-8') as f:
        lines = list(csv.reader(f))
    if lines[0][:len(CSV_FIRST)] != CSV_FIRST:
        raise Bad(f'CSV header starts {lines[0][:len(CSV_FIRST)]}')
    rows = [dict(zip(lines[0], line)) for line in lines[1:]]
    if len(rows) != len(d['results']):
        raise Bad(f'{len(rows)} CSV rows, {len(d["results"])} JSON results')
    run, sysinfo = d['run'], d['system']
    for i, (c, r) in enumerate(zip(rows, d['results'])):
        want = {
            'kernel_release': sysinfo['kernel_release'], 'comment': run['comment'] or '',
            'start': run['start'], 'pass': float(r['pass']), 'realtime': float(run['realtime']),
            'benchmark': r['benchmark'], 'load': r['load'], 'status': r['status'],
            'reason': r['reason'], 'samples': r['samples'],
            'pct_desired_cpu': r['pct_desired_cpu'], 'pct_deadlines_met': r['pct_deadlines_met'],
            'load_intensity': r['load_intensity']['value'],
            'load_intensity_unit': r['load_intensity']['unit'],
            'interrupted': float(run['interrupted']),
            'work': run['work'], 'work_ratio': r['work_ratio'], 'loop_speed': r['loop_speed'],
            # run keys: JSON's null without Custom is the CSV's 0
            'fps': float(run['fps']), 'custom_cpu_pct': float(run['custom_cpu_pct'] or 0),
            'custom_interval_us': float(run['custom_interval_us'] or 0),
        }
        # the machine keys, as JSON's system has them (null: the CSV's empty field)
        for k in ('preemption', 'hz', 'clocksource', 'cpufreq_governor', 'cpu_model',
                  'cpus_usable', 'memory_limit_bytes', 'kernel_cmdline'):
            want[k] = sysinfo[k]
        for s in STATS:
            want['latency_%s_ns' % s] = r['latency_ns'][s]
            want['timer_%s_ns' % s] = r['timer_latency_ns'][s]
            want['queue_wait_%s_ns' % s] = r['queue_wait_ns'][s]
            want['wake_path_%s_ns' % s] = r['wake_path_ns'][s]
        for k in ('wakeups_queued', 'wakeups_cross_cpu', 'migrations'):
            want[k] = r[k]
        for k in SHARES:
            want['miss_' + k] = (r['miss_shares'] or {}).get(k)
        ran = r['ran_instead'] or []
        want['ran_instead'] = ' '.join(f"{t['comm']}:{t['share']:.3g}" for t in ran) or None
        for k, v in want.items():
            got = c[k] if k == 'comment' else csv_value(c[k])
            if not same(got, v):
                raise Bad(f'CSV row {i} {k}: {got!r}, JSON {v!r}')


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: check_json.py schema|text|csv|get RUN.json [FILE|EXPR]')
    cmd, path = sys.argv[1], sys.argv[2]
    try:
        with open(path, encoding='utf-8') as f:	# strict: invalid UTF-8 fails here
            d = json.load(f)
        if cmd == 'schema':
            cmd_schema(d)
        elif cmd == 'text':
            cmd_text(d, sys.argv[3])
        elif cmd == 'csv':
            cmd_csv(d, sys.argv[3])
        elif cmd == 'get':
            print(eval(sys.argv[3], {'d': d}))
        else:
            raise Bad(f'unknown command {cmd}')
    except (Bad, ValueError, KeyError, IndexError, TypeError, OSError) as e:
        print(f'{path}: {e}')
        sys.exit(1)


main()
