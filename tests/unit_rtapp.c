// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_rtapp.c - unit tests of the rt-app workload file's model: files into the model
 * (told back in one line), workgen's output read as its input, each refusal's exact line. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/defs.h"
#include "task/rtapp.h"

#include "tests/unit.h"

/*
 * The text as the file t.json into f, which rtapp_free() frees whatever the
 * outcome. The tests write their JSON with ' for ", turned back here, so
 * that a case reads as it would in a file.
 */
int unit_rtapp_read(const char *text, struct rtapp_file *f, char *err, size_t errlen)
{
	static char buf[4096];
	struct json_doc doc;
	size_t i;
	int ret;

	for (i = 0; text[i] && i + 1 < sizeof(buf); i++)
		buf[i] = text[i] == '\'' ? '"' : text[i];
	buf[i] = '\0';
	memset(f, 0, sizeof(*f));
	ret = json_parse(&doc, "t.json", buf, i, err, errlen);
	if (!ret)
		ret = rtapp_read(f, &doc, err, errlen);
	json_free(&doc);
	return ret;
}

static size_t add(char *buf, size_t len, size_t n, const char *fmt, ...) PRINTF(4, 5);
static size_t add(char *buf, size_t len, size_t n, const char *fmt, ...)
{
	va_list ap;
	int got;

	if (n >= len)
		return n;
	va_start(ap, fmt);
	got = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	return n + (got > 0 ? (size_t)got : 0);
}

static const char *name_of(const struct rtapp_file *f, int r)
{
	return r >= 0 ? f->res[r].name : "-";
}

static size_t tell_event(const struct rtapp_file *f, const struct rtapp_event *ev, char *buf,
			 size_t len, size_t n)
{
	const struct rtapp_res *r = ev->res >= 0 ? &f->res[ev->res] : NULL;

	n = add(buf, len, n, " %s", rtapp_kind_name(ev->kind));
	switch (ev->kind) {
	case RTAPP_RUN: case RTAPP_RUNTIME: case RTAPP_SLEEP:
		return add(buf, len, n, ":%lld", ev->usec);
	case RTAPP_TIMER:
		return add(buf, len, n, ":%s/%lld%s%s", r->name, ev->usec,
			   r->absolute ? "/abs" : "", r->unique ? "/unique" : "");
	case RTAPP_WAIT: case RTAPP_SYNC:
		return add(buf, len, n, ":%s/%s", r->name, name_of(f, ev->mutex));
	case RTAPP_SUSPEND: case RTAPP_RESUME:
		return add(buf, len, n, ":%s%s", r->name,
			   strcmp(name_of(f, ev->mutex), r->name) ? "/?" : "");
	case RTAPP_BARRIER:
		return add(buf, len, n, ":%s*%d", r->name, r->users);
	case RTAPP_YIELD:
		return n;
	default:
		return add(buf, len, n, ":%s", r->name);
	}
}

static size_t tell_sched(const struct rtapp_sched *s, char *buf, size_t len, size_t n)
{
	n = add(buf, len, n, " %s/%d", rtapp_policy_name(s->policy) + 6, s->priority);
	if (s->dl_line)
		n = add(buf, len, n, " dl=%lld/%lld/%lld", s->dl_runtime_us, s->dl_deadline_us,
			s->dl_period_us);
	return n;
}

static size_t tell_cpus(const struct rtapp_cpus *c, char *buf, size_t len, size_t n)
{
	for (size_t i = 0; i < c->n; i++)
		n = add(buf, len, n, "%s%d", i ? "," : " cpus=", c->cpu[i]);
	return n;
}

static size_t tell_phase(const struct rtapp_file *f, const struct rtapp_thread *t,
			 const struct rtapp_phase *p, char *buf, size_t len, size_t n)
{
	n = add(buf, len, n, " {");
	if (t->phases_given)
		n = add(buf, len, n, "%s ", p->name);
	n = add(buf, len, n, "loop=%ld", p->loop);
	if (p->own_sched)
		n = tell_sched(&p->sched, buf, len, n);
	if (p->own_cpus)
		n = tell_cpus(&p->cpus, buf, len, n);
	n = add(buf, len, n, ":");
	for (size_t e = 0; e < p->nevents; e++)
		n = tell_event(f, &p->events[e], buf, len, n);
	return add(buf, len, n, "}");
}

/* The model in one line: the global settings, then each thread and its phases. */
static void tell(const struct rtapp_file *f, char *buf, size_t len)
{
	size_t n = add(buf, len, 0, "dur=%ld %s%s%s", f->global.duration_s,
		       rtapp_policy_name(f->global.default_policy) + 6,
		       f->global.pi_enabled ? " pi" : "", f->global.cumulative_slack ? " cs" : "");

	for (size_t t = 0; t < f->nthreads; t++) {
		const struct rtapp_thread *th = &f->threads[t];

		n = add(buf, len, n, " | %s", th->name);
		if (th->instances != 1)
			n = add(buf, len, n, "*%d", th->instances);
		n = add(buf, len, n, " loop=%ld", th->loop);
		n = tell_sched(&th->sched, buf, len, n);
		n = tell_cpus(&th->cpus, buf, len, n);
		if (th->delay_us)
			n = add(buf, len, n, " delay=%lld", th->delay_us);
		for (size_t p = 0; p < th->nphases; p++)
			n = tell_phase(f, th, &th->phases[p], buf, len, n);
	}
}

struct model_case {
	const char *what;
	const char *json;
	const char *want;		/* the model told back, or the error line */
};

/* The cases' JSON is written with ' for " (unit_rtapp_read() turns them back). */
static const struct model_case good_models[] = {
	{ "a thread's own events are its one phase, run once a round, forever",
	  "{'tasks': {'t': {'run': 1000, 'sleep': 500}}}",
	  "dur=-1 OTHER | t loop=-1 OTHER/0 {loop=1: run:1000 sleep:500}" },
	{ "without phases, 'loop' is the phase's, and the thread then ends",
	  "{'tasks': {'t': {'loop': 5, 'run': 10}, 'u': {'loop': -1, 'run': 20}}}",
	  "dur=-1 OTHER | t loop=1 OTHER/0 {loop=5: run:10} | u loop=1 OTHER/0 {loop=-1: run:20}" },
	{ "phases in file order, each its own loop (1 by default), the thread's forever",
	  "{'tasks': {'t': {'phases': {'b': {'loop': 3, 'run': 1}, 'a': {'sleep': 2}}}}}",
	  "dur=-1 OTHER | t loop=-1 OTHER/0 {b loop=3: run:1} {a loop=1: sleep:2}" },
	{ "a thread's loop counts rounds of its phases",
	  "{'tasks': {'t': {'loop': 2, 'phases': {'p': {'run': 1}}}}}",
	  "dur=-1 OTHER | t loop=2 OTHER/0 {p loop=1: run:1}" },
	{ "repeated keys are events in file order",
	  "{'tasks': {'t': {'run': 1, 'sleep': 2, 'run': 3, 'sleep': 4}}}",
	  "dur=-1 OTHER | t loop=-1 OTHER/0 {loop=1: run:1 sleep:2 run:3 sleep:4}" },
	{ "an event is known by its key's prefix: run1, sleep_a, runtime2, timer0",
	  "{'tasks': {'t': {'run1': 1, 'runtime2': 2, 'sleep_a': 3, "
	  "'timer0': {'ref': 'x', 'period': 9}}}}",
	  "dur=-1 OTHER | t loop=-1 OTHER/0 {loop=1: run:1 runtime:2 sleep:3 timer:x/9}" },
	{ "a bare or empty suspend is on the thread's own name; suspend and resume share names",
	  "{'tasks': {'a': {'suspend', 'resume': 'b', 'suspend': ''}, "
	  "'b': {'phases': {'p': {'suspend'}}}}}",
	  "dur=-1 OTHER | a loop=-1 OTHER/0 {loop=1: suspend:a resume:b suspend:a} "
	  "| b loop=-1 OTHER/0 {p loop=1: suspend:b}" },
	{ "timers: relative by default, absolute, unique; one name is one timer",
	  "{'tasks': {'t': {'timer': {'ref': 'tick', 'period': 6000}, "
	  "'timer1': {'ref': 'tick', 'period': 3000, 'mode': 'relative'}, "
	  "'timer2': {'ref': 'abs', 'period': 10, 'mode': 'absolute'}, "
	  "'timer3': {'ref': 'uniqueA', 'period': 20}}}}",
	  "dur=-1 OTHER | t loop=-1 OTHER/0 {loop=1: timer:tick/6000 timer:tick/3000 "
	  "timer:abs/10/abs timer:uniqueA/20/unique}" },
	{ "mutexes and conditions: lock, wait, signal, broad, sync, unlock",
	  "{'tasks': {'t': {'lock': 'm', 'wait': {'ref': 'q', 'mutex': 'm'}, "
	  "'signal': 'q', 'broad': 'q', 'sync': {'mutex': 'm', 'ref': 'r'}, 'unlock': 'm'}}}",
	  "dur=-1 OTHER | t loop=-1 OTHER/0 {loop=1: lock:m wait:q/m signal:q broad:q sync:r/m "
	  "unlock:m}" },
	{ "a barrier's users are the events that name it, as rt-app counts them",
	  "{'tasks': {'a': {'barrier': 'B', 'barrier1': 'B', 'yield': ''}, "
	  "'b': {'barrier': 'B', 'yield': 'x'}}}",
	  "dur=-1 OTHER | a loop=-1 OTHER/0 {loop=1: barrier:B*3 barrier:B*3 yield} "
	  "| b loop=-1 OTHER/0 {loop=1: barrier:B*3 yield}" },
	{ "global: duration, default_policy (its default priority 10), pi_enabled, cumulative_slack",
	  "{'global': {'duration': 6, 'default_policy': 'SCHED_FIFO', 'pi_enabled': true, "
	  "'cumulative_slack': true}, 'tasks': {'t': {'run': 1}}}",
	  "dur=6 FIFO pi cs | t loop=-1 FIFO/10 {loop=1: run:1}" },
	{ "'global' may come after 'tasks' and still sets their default policy",
	  "{'tasks': {'t': {'run': 1}}, 'global': {'default_policy': 'SCHED_RR'}}",
	  "dur=-1 RR | t loop=-1 RR/10 {loop=1: run:1}" },
	{ "policy and priority: a nice value for SCHED_OTHER, else the class's",
	  "{'tasks': {'a': {'priority': -19, 'run': 1}, 'b': {'policy': 'SCHED_FIFO', "
	  "'priority': 50, 'run': 1}, 'c': {'policy': 'SCHED_RR', 'run': 1}}}",
	  "dur=-1 OTHER | a loop=-1 OTHER/-19 {loop=1: run:1} | b loop=-1 FIFO/50 {loop=1: run:1} "
	  "| c loop=-1 RR/10 {loop=1: run:1}" },
	{ "SCHED_DEADLINE: the period defaults to the runtime, the deadline to the period",
	  "{'tasks': {'a': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 1000, 'run': 1}, "
	  "'b': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 1000, 'dl-period': 5000, 'run': 1}, "
	  "'c': {'policy': 'SCHED_DEADLINE', 'dl-runtime': 10, 'dl-deadline': 20, "
	  "'dl-period': 30, 'run': 1}}}",
	  "dur=-1 OTHER | a loop=-1 DEADLINE/10 dl=1000/1000/1000 {loop=1: run:1} "
	  "| b loop=-1 DEADLINE/10 dl=1000/5000/5000 {loop=1: run:1} "
	  "| c loop=-1 DEADLINE/10 dl=10/20/30 {loop=1: run:1}" },
	{ "cpus: the thread's, a phase's own, inherited by the phases without",
	  "{'tasks': {'t': {'cpus': [2, 3], 'phases': {'a': {'cpus': [0], 'run': 1}, "
	  "'b': {'run': 2}}}}}",
	  "dur=-1 OTHER | t loop=-1 OTHER/0 cpus=2,3 {a loop=1 cpus=0: run:1} {b loop=1: run:2}" },
	{ "a phase's policy or priority on top of the thread's; a new policy its own default",
	  "{'tasks': {'t': {'priority': 5, 'phases': {'a': {'priority': -5, 'run': 1}, "
	  "'b': {'policy': 'SCHED_FIFO', 'run': 1}, 'c': {'run': 1}}}}}",
	  "dur=-1 OTHER | t loop=-1 OTHER/5 {a loop=1 OTHER/-5: run:1} "
	  "{b loop=1 FIFO/10: run:1} {c loop=1: run:1}" },
	{ "instance and delay",
	  "{'tasks': {'t': {'instance': 12, 'delay': 500, 'run': 1}}}",
	  "dur=-1 OTHER | t*12 loop=-1 OTHER/0 delay=500 {loop=1: run:1}" },
	{ "the lenient forms: comments, trailing commas, a bare suspend last",
	  "{\n  /* a use case */\n  'tasks': { // its threads\n    't': {'run': 1, 'suspend'},\n"
	  "  },\n  'global': {'duration': -1,},\n}\n",
	  "dur=-1 OTHER | t loop=-1 OTHER/0 {loop=1: run:1 suspend:t}" },
	{ "a 'resources' object that only declares names is accepted",
	  "{'resources': {'m': {'type': 'mutex'}, 'n': {}}, 'tasks': {'t': {'run': 1}}}",
	  "dur=-1 OTHER | t loop=-1 OTHER/0 {loop=1: run:1}" },
	{ "settings without effect are accepted: the values rt-app reads them with",
	  "{'global': {'calibration': 128, 'logdir': './', 'log_basename': 'x', 'log_size': "
	  "'file', 'gnuplot': true, 'ftrace': false, 'lock_pages': true, 'io_device': "
	  "'/dev/null', 'mem_buffer_size': 4096, 'frag': 1}, 'tasks': {'t': {'run': 1}}}",
	  "dur=-1 OTHER | t loop=-1 OTHER/0 {loop=1: run:1}" },
};

static const struct model_case bad_models[] = {
	{ "a file that is not an object", "[1]",
	  "t.json:1: top level: the file must hold an object with \"tasks\", not an array" },
	{ "a file without tasks", "{'global': {'duration': 1}}",
	  "t.json:1: top level: no 'tasks': rt-app needs an object of threads" },
	{ "an unknown top-level key", "{'tasks': {'t': {'run': 1}},\n 'taskgroups': {}}",
	  "t.json:2: top level: 'taskgroups' is not supported (top-level keys: tasks, global, "
	  "resources)" },
	{ "'tasks' given twice", "{'tasks': {'t': {'run': 1}},\n 'tasks': {}}",
	  "t.json:2: top level: 'tasks' is given twice (first at line 1)" },
	{ "no threads", "{'tasks': {}}", "t.json:1: tasks: 'tasks' has no threads" },
	{ "a thread that is not an object", "{'tasks': {'t': 5}}",
	  "t.json:1: tasks.t: a thread must be an object, not an integer" },
	{ "a thread defined twice", "{'tasks': {'t': {'run': 1},\n 't': {'run': 2}}}",
	  "t.json:2: tasks: thread 't' is defined twice (first at line 1)" },
	{ "a thread without events", "{'tasks': {'t': {'loop': 1}}}",
	  "t.json:1: tasks.t: thread 't' has no events nor phases" },
	{ "iorun in a phase",
	  "{\n 'tasks': {\n  'decoder': {\n   'phases': {\n    'p1': {\n     'run': 1,\n"
	  "     'iorun': 5\n    }\n   }\n  }\n }\n}",
	  "t.json:7: tasks.decoder.phases.p1: 'iorun' is not supported (supported events: run, "
	  "runtime, sleep, timer, suspend, resume, lock, unlock, wait, signal, broad, sync, "
	  "barrier, yield)" },
	{ "mem, renamed by workgen", "{'tasks': {'t': {'run': 1, 'mem1': 5}}}",
	  "t.json:1: tasks.t: 'mem1' is not supported (supported events: run, runtime, sleep, "
	  "timer, suspend, resume, lock, unlock, wait, signal, broad, sync, barrier, yield)" },
	{ "fork", "{'tasks': {'t': {'fork': 'u'}}}",
	  "t.json:1: tasks.t: 'fork' is not supported (supported events: run, runtime, sleep, "
	  "timer, suspend, resume, lock, unlock, wait, signal, broad, sync, barrier, yield)" },
	{ "an unknown thread key", "{'tasks': {'t': {'run': 1,\n 'util_min': 10}}}",
	  "t.json:2: tasks.t: 'util_min' is not supported (thread keys: instance, loop, phases, "
	  "delay, cpus, policy, priority, dl-runtime, dl-period, dl-deadline; events: run, "
	  "runtime, sleep, timer, suspend, resume, lock, unlock, wait, signal, broad, sync, "
	  "barrier, yield)" },
	{ "rt-app's old grammar", "{'tasks': {'t': {'exec': 5000, 'period': 10000}}}",
	  "t.json:1: tasks.t: 'exec' is not supported (thread keys: instance, loop, phases, "
	  "delay, cpus, policy, priority, dl-runtime, dl-period, dl-deadline; events: run, "
	  "runtime, sleep, timer, suspend, resume, lock, unlock, wait, signal, broad, sync, "
	  "barrier, yield)" },
	{ "a thread key in a phase", "{'tasks': {'t': {'phases': {'p': {'instance': 2}}}}}",
	  "t.json:1: tasks.t.phases.p: 'instance' is not supported in a phase (phase keys: loop, "
	  "cpus, policy, priority, dl-runtime, dl-period, dl-deadline; events: run, runtime, "
	  "sleep, timer, suspend, resume, lock, unlock, wait, signal, broad, sync, barrier, "
	  "yield)" },
	{ "a suspend with a mode", "{'tasks': {'t': {'suspend': {'ref': 'x', 'mode': 'y'}}}}",
	  "t.json:1: tasks.t: 'suspend' takes the name of what to wait for (a string), not an "
	  "object" },
	{ "an unknown global key", "{'global': {\n 'spacing': 5}, 'tasks': {'t': {'run': 1}}}",
	  "t.json:2: global: 'spacing' is not supported (global keys: duration, default_policy, "
	  "pi_enabled, cumulative_slack; accepted without effect: calibration, logdir, "
	  "log_basename, log_size, gnuplot, ftrace, lock_pages, io_device, mem_buffer_size, "
	  "frag)" },
	{ "a duration that is not a number",
	  "{'global': {'duration': '6'}, 'tasks': {'t': {'run': 1}}}",
	  "t.json:1: global: 'duration' must be an integer number of seconds, not a string" },
	{ "a duration of 0", "{'global': {'duration': 0}, 'tasks': {'t': {'run': 1}}}",
	  "t.json:1: global: 'duration' is 0: expected -1 (until the threads end) or seconds "
	  "from 1 to 2147483647" },
	{ "a duration of 1.5", "{'global': {'duration': 1.5}, 'tasks': {'t': {'run': 1}}}",
	  "t.json:1: global: 'duration' must be an integer number of seconds, not a real number" },
	{ "an unknown default policy",
	  "{'global': {'default_policy': 'SCHED_BATCH'}, 'tasks': {'t': {'run': 1}}}",
	  "t.json:1: global: 'default_policy' must be SCHED_OTHER, SCHED_FIFO, SCHED_RR or "
	  "SCHED_DEADLINE" },
	{ "pi_enabled not a boolean", "{'global': {'pi_enabled': 1}, 'tasks': {'t': {'run': 1}}}",
	  "t.json:1: global: 'pi_enabled' must be true or false" },
	{ "an unknown policy", "{'tasks': {'t': {'policy': 'SCHED_IDLE', 'run': 1}}}",
	  "t.json:1: tasks.t: 'policy' is \"SCHED_IDLE\": expected SCHED_OTHER, SCHED_FIFO, "
	  "SCHED_RR or SCHED_DEADLINE" },
	{ "a negative run", "{'tasks': {'t': {'run': -5}}}",
	  "t.json:1: tasks.t: 'run' is -5 µs: expected 0 to 2147483647" },
	{ "a run too long", "{'tasks': {'t': {'run': 2147483648}}}",
	  "t.json:1: tasks.t: 'run' is 2147483648 µs: expected 0 to 2147483647" },
	{ "a run of 1.5 µs", "{'tasks': {'t': {'run': 1.5}}}",
	  "t.json:1: tasks.t: 'run' must be an integer number of µs, not a real number" },
	{ "a sleep given as a string", "{'tasks': {'t': {'sleep': '10'}}}",
	  "t.json:1: tasks.t: 'sleep' must be an integer number of µs, not a string" },
	{ "a bare key that is not suspend", "{'tasks': {'t': {'run'}}}",
	  "t.json:1: tasks.t: 'run' has no value: expected an integer number of µs" },
	{ "a timer period of 0", "{'tasks': {'t': {'timer': {'ref': 'x', 'period': 0}}}}",
	  "t.json:1: tasks.t: timer 'x' has a period of 0 µs" },
	{ "a negative timer period", "{'tasks': {'t': {'timer': {'ref': 'x', 'period': -10}}}}",
	  "t.json:1: tasks.t: 'period' is -10 µs: expected 0 to 2147483647" },
	{ "a timer without ref", "{'tasks': {'t': {'timer': {'period': 10}}}}",
	  "t.json:1: tasks.t: 'timer' needs a 'ref' (its name; \"unique...\": one per thread)" },
	{ "a timer without period", "{'tasks': {'t': {'timer': {'ref': 'x'}}}}",
	  "t.json:1: tasks.t: 'timer' needs a 'period' (in µs)" },
	{ "a timer key rt-app does not have",
	  "{'tasks': {'t': {'timer': {'ref': 'x', 'period': 1,\n 'offset': 5}}}}",
	  "t.json:2: tasks.t: 'timer' has 'offset': expected ref, period and mode" },
	{ "a timer mode rt-app does not have",
	  "{'tasks': {'t': {'timer': {'ref': 'x', 'period': 1, 'mode': 'late'}}}}",
	  "t.json:1: tasks.t: 'mode' is \"late\": expected \"relative\" or \"absolute\"" },
	{ "one timer in two modes",
	  "{'tasks': {'t': {'timer': {'ref': 'x', 'period': 1}},\n"
	  " 'u': {'timer': {'ref': 'x', 'period': 1, 'mode': 'absolute'}}}}",
	  "t.json:2: tasks.u: timer 'x' is absolute here but relative at line 1" },
	{ "a wait without its mutex", "{'tasks': {'t': {'wait': {'ref': 'q'}}}}",
	  "t.json:1: tasks.t: 'wait' needs a 'mutex' (the mutex it holds)" },
	{ "a wait given a string", "{'tasks': {'t': {'wait': 'q'}}}",
	  "t.json:1: tasks.t: 'wait' must be an object { \"ref\", \"mutex\" }, not a string" },
	{ "a lock of a number", "{'tasks': {'t': {'lock': 5}}}",
	  "t.json:1: tasks.t: 'lock' must be a name (a string), not an integer" },
	{ "a resume of nothing", "{'tasks': {'t': {'resume': ''}}}",
	  "t.json:1: tasks.t: 'resume' names nothing (an empty string)" },
	{ "a loop of 0", "{'tasks': {'t': {'loop': 0, 'run': 1}}}",
	  "t.json:1: tasks.t: 'loop' is 0: expected -1 (forever) or a count from 1" },
	{ "a loop below -1", "{'tasks': {'t': {'phases': {'p': {'loop': -2, 'run': 1}}}}}",
	  "t.json:1: tasks.t.phases.p: 'loop' is -2: expected -1 to 2147483647" },
	{ "an instance of 0", "{'tasks': {'t': {'instance': 0, 'run': 1}}}",
	  "t.json:1: tasks.t: 'instance' is 0: expected 1 to 2147483647" },
	{ "empty cpus", "{'tasks': {'t': {'cpus': [], 'run': 1}}}",
	  "t.json:1: tasks.t: 'cpus' is empty: name one CPU at least" },
	{ "a negative CPU", "{'tasks': {'t': {'cpus': [0, -1], 'run': 1}}}",
	  "t.json:1: tasks.t: 'cpus' holds a number out of range: expected CPU numbers from 0 "
	  "to 4095" },
	{ "cpus as a string", "{'tasks': {'t': {'cpus': '0-3', 'run': 1}}}",
	  "t.json:1: tasks.t: 'cpus' must be an array of CPU numbers, not a string" },
	{ "events beside phases",
	  "{'tasks': {'t': {'phases': {'p': {'run': 1}},\n 'sleep': 5}}}",
	  "t.json:2: tasks.t: 'sleep' beside 'phases': rt-app ignores a thread's own events when "
	  "it has phases" },
	{ "a phase that is not an object", "{'tasks': {'t': {'phases': {'p': [1]}}}}",
	  "t.json:1: tasks.t.phases.p: a phase must be an object of events, not an array" },
	{ "a phase without events", "{'tasks': {'t': {'phases': {'p': {'loop': 2}}}}}",
	  "t.json:1: tasks.t.phases.p: phase 'p' has no events" },
	{ "no phases in 'phases'", "{'tasks': {'t': {'phases': {}}}}",
	  "t.json:1: tasks.t: 'phases' is empty" },
	{ "a key given twice", "{'tasks': {'t': {'loop': 1, 'run': 1,\n 'loop': 2}}}",
	  "t.json:2: tasks.t: 'loop' is given twice (first at line 1)" },
	{ "a resource with more than a type",
	  "{'tasks': {'t': {'run': 1}}, 'resources': {'trig': {'type': 'signal',\n"
	  " 'target': 'wait'}}}",
	  "t.json:2: resources.trig: 'target' is not supported (a resource declares its "
	  "\"type\" only)" },
	{ "a setting without effect and without a value", "{'global': {'ftrace'}, "
	  "'tasks': {'t': {'run': 1}}}",
	  "t.json:1: global: 'ftrace' has no value" },
	{ "a JSON error", "{'tasks': {\n  't': {'run': 1 'sleep': 2}}}",
	  "t.json:2:18: expected ',' or '}' after the member \"run\"" },
};

/* Raw files, and what workgen makes of them: keys made unique, bare suspends named. */
static const char *const workgen_pairs[][2] = {
	{ "{'tasks': {'AudioOut': {'loop': -1, 'run': 275, 'resume': 'AudioTrack', 'run': 4725, "
	  "'suspend'}, 'AudioTrack': {'suspend', 'run': 300, 'resume': 'AudioOut'}}}",
	  "{'tasks': {'AudioOut': {'loop': -1, 'run': 275, 'resume': 'AudioTrack', 'run1': 4725, "
	  "'suspend': 'AudioOut'}, 'AudioTrack': {'suspend': 'AudioTrack', 'run': 300, "
	  "'resume': 'AudioOut'}}}" },
	{ "{'tasks': {'t': {'phases': {'p1': {'suspend', 'run': 35, 'resume': 'u', 'run': 40, "
	  "'sleep': 1, 'run': 2, 'sleep': 3}}}, 'u': {'suspend', 'resume': 't'}}}",
	  "{'tasks': {'t': {'phases': {'p1': {'suspend': 't', 'run': 35, 'resume': 'u', "
	  "'run1': 40, 'sleep': 1, 'run2': 2, 'sleep2': 3}}}, 'u': {'suspend': 'u', "
	  "'resume': 't'}}}" },
};

static bool test_good(const struct model_case *c)
{
	struct rtapp_file f;
	char err[512] = "", got[2048];
	int ret = unit_rtapp_read(c->json, &f, err, sizeof(err));

	if (!ret)
		tell(&f, got, sizeof(got));
	rtapp_free(&f);
	EXPECT(!ret, "refused: %s", err);
	EXPECT(!strcmp(got, c->want), "\n  read as '%.490s'\n  want    '%.490s'", got, c->want);
	return true;
}

static bool test_bad(const struct model_case *c)
{
	struct rtapp_file f;
	char err[512] = "";
	int ret = unit_rtapp_read(c->json, &f, err, sizeof(err));

	rtapp_free(&f);
	EXPECT(ret < 0, "accepted");
	EXPECT(!strcmp(err, c->want), "\n  '%s'\n  want '%s'", err, c->want);
	EXPECT(!strchr(err, '\n'), "more than one line");
	return true;
}

static bool reads_alike(const char *a, const char *b)
{
	struct rtapp_file fa, fb;
	char err[512] = "", ta[2048] = "", tb[2048] = "";
	int ra = unit_rtapp_read(a, &fa, err, sizeof(err)), rb;

	if (!ra)
		tell(&fa, ta, sizeof(ta));
	rtapp_free(&fa);
	EXPECT(!ra, "the raw file refused: %s", err);
	rb = unit_rtapp_read(b, &fb, err, sizeof(err));
	if (!rb)
		tell(&fb, tb, sizeof(tb));
	rtapp_free(&fb);
	EXPECT(!rb, "workgen's output refused: %s", err);
	EXPECT(!strcmp(ta, tb), "\n  raw     '%.490s'\n  workgen '%.490s'", ta, tb);
	return true;
}

/* What workgen writes (keys made unique, bare suspends named) reads as what it read. */
static bool test_workgen(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(workgen_pairs); i++)
		if (!reads_alike(workgen_pairs[i][0], workgen_pairs[i][1]))
			return false;
	return true;
}

/* The note of the keys accepted without effect: grouped by why, in one line. */
static bool test_note(void)
{
	static const char json[] = "{'global': {'ftrace': true, 'frag': 1, 'logdir': './', "
				   "'calibration': 'CPU0'}, 'resources': {'m': {'type': 'mutex'}}, "
				   "'tasks': {'t': {'run': 1}}}";
	static const char want[] = "t.json: accepted without effect: calibration (interbench's "
				   "run is CPU time, not loops calibrated on a CPU); logdir, ftrace "
				   "(rt-app's own logs and traces); frag (rt-app 1.0 does not read "
				   "it); resources (rt-app 1.0 makes its mutexes, conditions and "
				   "timers from the events)";
	struct rtapp_file f;
	char err[512], note[1024];

	EXPECT(!unit_rtapp_read(json, &f, err, sizeof(err)), "%s", err);
	rtapp_ignored_note(&f, note, sizeof(note));
	rtapp_free(&f);
	EXPECT(!strcmp(note, want), "\n  '%.490s'\n  want '%.490s'", note, want);
	EXPECT(!unit_rtapp_read("{\"tasks\":{\"t\":{\"run\":1}}}", &f, err, sizeof(err)), "%s",
	       err);
	rtapp_ignored_note(&f, note, sizeof(note));
	rtapp_free(&f);
	EXPECT(!note[0], "a note with nothing ignored: '%.900s'", note);
	return true;
}

void unit_rtapp(void)
{
	char name[200];

	for (size_t i = 0; i < ARRAY_SIZE(good_models); i++) {
		snprintf(name, sizeof(name), "rtapp: %s", good_models[i].what);
		check(name, test_good(&good_models[i]));
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad_models); i++) {
		snprintf(name, sizeof(name), "rtapp: refused: %s", bad_models[i].what);
		check(name, test_bad(&bad_models[i]));
	}
	check("rtapp: workgen's output (renamed keys, named suspends) reads as its input",
	      test_workgen());
	check("rtapp: the keys accepted without effect make one note, grouped by why",
	      test_note());
}
