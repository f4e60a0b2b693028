#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/check_timeline.py - checks a --timeline file against the Chrome trace
# event format and against the run's JSON. Prints nothing and exits 0 when all
# is well, else one line saying what is wrong and exits 1.
#
#   check_timeline.py valid TL.json          the format: fields, names, nesting, counts
#   check_timeline.py json TL.json RUN.json  each row's slices and instants against
#                                            its result: samples, missed, dropped,
#                                            stutters, xruns
#   check_timeline.py stages TL.json RUN.json  each chain row's stage tracks: named by
#                                            their threads, a wakeup latency slice per
#                                            hop wake-up, a work slice per frame or cycle
#   check_timeline.py wake TL.json MODE       each periodic row's wake-ups as --wake MODE
#                                            draws them: timer, a latency slice from
#                                            each period's start, no waker; waker, a
#                                            waker's track of timer latency slices
#   check_timeline.py miss TL.json ROW K MIN MAX   period K of row ROW missed at
#                                            its deadline, by the work's end, by MIN to
#                                            MAX ms; period K+1 dropped
#   check_timeline.py get TL.json EXPR       print EXPR, with d = the file, ev = its events
#
# Numbers are read as Decimal: a ts of µs with three decimals is a whole
# nanosecond, so nesting is checked exactly.
import collections
import json
import sys
from decimal import Decimal


class Bad(Exception):
    pass


def load(path):
    with open(path) as f:
        try:
            return json.load(f, parse_float=Decimal)
        except ValueError as e:
            raise Bad('%s: not JSON: %s' % (path, e))


def events(d):
    if not isinstance(d, dict) or not isinstance(d.get('traceEvents'), list):
        raise Bad('no traceEvents array at the top')
    return d['traceEvents']


def check_fields(ev):
    for i, e in enumerate(ev):
        for k in ('ph', 'ts', 'pid', 'tid', 'name'):
            if k not in e:
                raise Bad('event %d has no %s: %s' % (i, k, e))
        if e['ph'] not in ('X', 'i', 'M', 'C'):
            raise Bad('event %d: ph %r' % (i, e['ph']))
        if e['ph'] == 'X' and not (isinstance(e.get('dur'), (int, Decimal)) and e['dur'] >= 0):
            raise Bad('event %d: an X slice without a dur >= 0: %s' % (i, e))
        if e['ph'] == 'i' and e.get('s') not in ('t', 'p', 'g'):
            raise Bad('event %d: an instant without a scope: %s' % (i, e))
        if e['ph'] == 'M' and e['ts'] != 0:
            raise Bad('event %d: an M event at ts %s' % (i, e['ts']))
        if e['ph'] in ('M', 'C') and not isinstance(e.get('args'), dict):
            raise Bad('event %d: no args: %s' % (i, e))


def check_names(ev):
    named = collections.Counter(e['pid'] for e in ev
                                if e['ph'] == 'M' and e['name'] == 'process_name')
    for pid, n in named.items():
        if n > 1:
            raise Bad('pid %s has %d process_name events: two processes share it' % (pid, n))
    procs = set(named)
    threads = {(e['pid'], e['tid']) for e in ev if e['ph'] == 'M' and e['name'] == 'thread_name'}
    for e in ev:
        if e['pid'] not in procs:
            raise Bad('pid %s has no process_name: %s' % (e['pid'], e))
        if e['ph'] != 'M' and (e['pid'], e['tid']) not in threads:
            raise Bad('pid %s tid %s has no thread_name: %s' % (e['pid'], e['tid'], e))


def check_nesting(ev):
    tracks = collections.defaultdict(list)
    for e in ev:
        if e['ph'] == 'X':
            tracks[(e['pid'], e['tid'])].append(e)
    for key, xs in tracks.items():
        xs.sort(key=lambda e: (e['ts'], -e['dur']))
        stack = []              # the open slices: (end, event)
        for e in xs:
            end = e['ts'] + e['dur']
            while stack and stack[-1][0] <= e['ts']:
                stack.pop()     # ended before this one starts
            if stack and end > stack[-1][0]:
                p = stack[-1][1]
                raise Bad('track %s: %s [%s, %s] sticks out of %s [%s, %s]' % (
                    key, e['name'], e['ts'], end, p['name'], p['ts'], p['ts'] + p['dur']))
            stack.append((end, e))


def rows(ev):
    """Each row's process_name args, by pid."""
    return {e['pid']: e['args'] for e in ev
            if e['ph'] == 'M' and e['name'] == 'process_name' and 'row' in e['args']}


def valid(path):
    d = load(path)
    ev = events(d)
    check_fields(ev)
    check_names(ev)
    check_nesting(ev)
    od = d.get('otherData')
    if d.get('displayTimeUnit') != 'ms' or not isinstance(od, dict):
        raise Bad('no displayTimeUnit "ms" or no otherData')
    if od.get('events') != len(ev):
        raise Bad('otherData says %s events, the file has %d' % (od.get('events'), len(ev)))
    if len(ev) > od['timeline_max']:
        raise Bad('%d events, more than timeline_max %s' % (len(ev), od['timeline_max']))
    per = collections.Counter(e['pid'] for e in ev)
    for pid, a in rows(ev).items():
        if per[pid] > od['budget_per_row']:
            raise Bad('row %s has %d events, over its budget %s' % (pid, per[pid],
                                                                     od['budget_per_row']))
    dropped = sum(a['dropped_periods'] for a in rows(ev).values())
    if od.get('dropped_periods') != dropped:
        raise Bad('otherData says %s periods dropped, the rows %s' % (od.get('dropped_periods'),
                                                                     dropped))


def named(ev, pid, name, ph='X'):
    return [e for e in ev if e['pid'] == pid and e['name'] == name and e['ph'] == ph]


def task_tid(ev, pid):
    """The task's thread: the one with the row's start (None: a row that never started)."""
    starts = named(ev, pid, 'row start', 'i')
    return starts[0]['tid'] if starts else None


def on_task(ev, pid, name, ph='X'):
    tid = task_tid(ev, pid)
    return [e for e in named(ev, pid, name, ph) if tid is None or e['tid'] == tid]


# A chain's stages drawn, by benchmark: the stage's thread and the hop that wakes it.
STAGES = {
    'Game': [('ib-Game-job0', 'main>job0'), ('ib-Game-job1', 'main>job1'),
             ('ib-Game-job2', 'main>job2'), ('ib-Game-render', 'main>render'),
             ('ib-Game-comp', 'render>comp')],
    'AudioGraph': [('ib-AG-node0', 'driver>node0'), ('ib-AG-node1', 'driver>node1'),
                   ('ib-AG-mixer', 'node>mixer')],
}


def stages(path, jpath):
    ev = events(load(path))
    res = load(jpath)['results']
    for pid, r in enumerate(res, 1):
        if r['benchmark'] not in STAGES or rows(ev)[pid]['dropped_periods']:
            continue
        threads = {e['args']['name']: e['tid'] for e in ev
                   if e['pid'] == pid and e['name'] == 'thread_name'}
        hops = {h['name']: h['wakeups'] for h in r['hops']}
        frames = r['frames'] if r['benchmark'] == 'Game' else r['cycles']
        key = 'frame' if r['benchmark'] == 'Game' else 'cycle'
        for comm, hop in STAGES[r['benchmark']]:
            if comm not in threads:
                raise Bad('row %d: no thread track %s: %s' % (pid, comm, sorted(threads)))
            on = [e for e in ev if e['pid'] == pid and e['tid'] == threads[comm]]
            wl = [e for e in on if e['name'] == 'wakeup latency']
            work = [e for e in on if e['name'] == 'work']
            other = {e['name'] for e in on} - {'wakeup latency', 'wake path', 'queue wait',
                                                'work', 'thread_name'}
            if other or any(key not in e['args'] for e in wl + work):
                raise Bad('row %d %s: events %s, or slices without %s' % (pid, comm, other, key))
            if len(wl) != hops[hop] or not frames <= len(work) <= frames + 1:
                raise Bad('row %d %s: %d wakeup latency (hop %s: %d), %d work (%s %d)' % (
                    pid, comm, len(wl), hop, hops[hop], len(work), key, frames))


def against_json(path, jpath):
    ev = events(load(path))
    res = load(jpath)['results']
    info = rows(ev)
    if sorted(info) != list(range(1, len(res) + 1)):
        raise Bad('rows %s in the timeline, %d results' % (sorted(info), len(res)))
    for pid, r in enumerate(res, 1):
        if info[pid]['dropped_periods']:
            continue            # a row cut by the budget: not all its periods are there
        got = (len(on_task(ev, pid, 'wakeup latency')) + len(on_task(ev, pid, 'latency')),
               len(named(ev, pid, 'missed deadline', 'i')),
               len(named(ev, pid, 'dropped period', 'i')),
               len(named(ev, pid, 'stutter', 'i')), len(named(ev, pid, 'xrun', 'i')))
        p = r['periods'] or {'missed': 0, 'dropped': 0}
        want = (r['samples'], p['missed'], p['dropped'], r.get('stutters', 0), r.get('xruns', 0))
        if r['benchmark'] == 'Gaming':
            got = (len(named(ev, pid, 'work')), 0, 0, 0, 0)
        if got != want:
            raise Bad('row %d (%s/%s): (wakeup latency slices, missed, dropped, stutters, '
                      'xruns) %s, the JSON %s' % (pid, r['benchmark'], r['load'], got, want))


def wake(path, mode):
    """--wake timer: each latency slice of a periodic task starts at its period's start
    (first_period_us + k x period_ns, to the µs the file keeps), and no row has a waker's
    track; --wake waker: the task's wakeup latency slices, a waker's track of timer latency
    slices, one each."""
    ev = events(load(path))
    for pid, info in rows(ev).items():
        start = named(ev, pid, 'row start', 'i')
        if not start or 'period_ns' not in start[0]['args']:
            continue
        a = start[0]['args']
        threads = {e['args']['name'] for e in ev if e['pid'] == pid and e['name'] == 'thread_name'}
        lat, wl = on_task(ev, pid, 'latency'), on_task(ev, pid, 'wakeup latency')
        timer = named(ev, pid, 'timer latency')
        if mode == 'timer':
            if wl or timer or 'ib-waker' in threads or not lat:
                raise Bad('row %d: %d latency, %d wakeup latency, %d timer latency slices, '
                          'threads %s' % (pid, len(lat), len(wl), len(timer), sorted(threads)))
            for e in lat:
                want = a['first_period_us'] + e['args']['period'] * Decimal(a['period_ns']) / 1000
                if abs(e['ts'] - want) > Decimal('0.002'):
                    raise Bad('row %d period %d: latency slice at %s, its start %s' % (
                        pid, e['args']['period'], e['ts'], want))
        elif lat or 'ib-waker' not in threads or not wl or len(timer) != len(wl):
            raise Bad('row %d: %d latency, %d wakeup latency, %d timer latency slices, '
                      'threads %s' % (pid, len(lat), len(wl), len(timer), sorted(threads)))


def miss(path, row, k, lo, hi):
    ev = events(load(path))
    start = named(ev, row, 'row start', 'i')[0]['args']
    first, period = start['first_period_us'] * 1000, start['period_ns']
    deadline = first + int(-(-(k + 1) * period // 1))     # ns, rounded up as period_start()
    works = [e for e in named(ev, row, 'work') if e['args']['period'] == k]
    misses = [e for e in named(ev, row, 'missed deadline', 'i') if e['args']['period'] == k]
    if len(works) != 1 or len(misses) != 1:
        raise Bad('period %d: %d work slices, %d missed deadlines' % (k, len(works), len(misses)))
    w, m = works[0], misses[0]
    if abs(m['ts'] * 1000 - deadline) > 1:
        raise Bad('missed deadline at %s us, period %d ends at %s ns' % (m['ts'], k, deadline))
    by = m['args']['missed_by_ms']
    end_by = (w['ts'] + w['dur'] - m['ts']) / 1000
    if w['args']['outcome'] != 'missed' or abs(by - end_by) > Decimal('0.000002'):
        raise Bad('missed by %s ms; the work ends %s ms past the deadline (%s)' % (
            by, end_by, w['args']['outcome']))
    if not lo <= by <= hi:
        raise Bad('missed by %s ms, want %s to %s' % (by, lo, hi))
    drops = [e for e in named(ev, row, 'dropped period', 'i') if e['args']['period'] == k + 1]
    if len(drops) != 1 or abs(drops[0]['ts'] * 1000 - (first + int(-(-(k + 2) * period // 1)))) > 1:
        raise Bad('period %d: no dropped period at its deadline: %s' % (k + 1, drops))


def main(argv):
    try:
        if argv[1] == 'valid' and len(argv) == 3:
            valid(argv[2])
        elif argv[1] == 'json' and len(argv) == 4:
            against_json(argv[2], argv[3])
        elif argv[1] == 'stages' and len(argv) == 4:
            stages(argv[2], argv[3])
        elif argv[1] == 'wake' and len(argv) == 4:
            wake(argv[2], argv[3])
        elif argv[1] == 'miss' and len(argv) == 7:
            miss(argv[2], int(argv[3]), int(argv[4]), Decimal(argv[5]), Decimal(argv[6]))
        elif argv[1] == 'get' and len(argv) == 4:
            d = load(argv[2])
            print(eval(argv[3], {'d': d, 'ev': events(d), 'Decimal': Decimal,
                                 'collections': collections}))
        else:
            raise Bad('usage: check_timeline.py valid|json|stages|wake|miss|get FILE ...')
    except Bad as e:
        print(e)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
