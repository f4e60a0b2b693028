// SPDX-License-Identifier: GPL-2.0-or-later
/* task/rtapp_thread.c - an rt-app file's "tasks": each thread object, its phases (or its own
 * events as its one phase), their scheduling, CPUs and loops, with rt-app's defaults. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "task/rtapp_parts.h"

#define USEC_MAX 2147483647LL
#define CPU_MAX 4095			/* the highest CPU number a "cpus" list may name */

/* The keys of a thread or phase object that are not events. */
enum obj_key {
	K_INSTANCE, K_LOOP, K_PHASES, K_DELAY, K_CPUS,
	K_POLICY, K_PRIORITY, K_DL_RUNTIME, K_DL_PERIOD, K_DL_DEADLINE,
	K_COUNT,
};

static const char *const obj_key_names[K_COUNT] = {
	[K_INSTANCE] = "instance", [K_LOOP] = "loop", [K_PHASES] = "phases",
	[K_DELAY] = "delay", [K_CPUS] = "cpus", [K_POLICY] = "policy",
	[K_PRIORITY] = "priority", [K_DL_RUNTIME] = "dl-runtime",
	[K_DL_PERIOD] = "dl-period", [K_DL_DEADLINE] = "dl-deadline",
};

#define PHASE_KEYS (1u << K_LOOP | 1u << K_CPUS | 1u << K_POLICY | 1u << K_PRIORITY | \
		    1u << K_DL_RUNTIME | 1u << K_DL_PERIOD | 1u << K_DL_DEADLINE)
#define THREAD_KEYS ((1u << K_COUNT) - 1)
#define PHASE_KEY_LIST "loop, cpus, policy, priority, dl-runtime, dl-period, dl-deadline"
#define THREAD_KEY_LIST "instance, loop, phases, delay, cpus, policy, priority, dl-runtime, " \
			"dl-period, dl-deadline"

/* An object's keys that are not events, and how many events it has. */
struct obj_keys {
	const struct json_member *k[K_COUNT];
	const struct json_member *first_event;
	size_t nevents;
};

static int key_index(const char *key)
{
	for (int i = 0; i < K_COUNT; i++)
		if (!strcmp(key, obj_key_names[i]))
			return i;
	return -1;
}

/* A key known at this level, or an event: anything else is refused, in file order. */
static int collect_key(struct rtapp_builder *b, const struct json_member *m, unsigned allowed,
		       struct obj_keys *ks)
{
	int i = key_index(m->key), ev;

	if (i >= 0 && (allowed & 1u << i)) {
		if (ks->k[i])
			return rtapp_bad(b, m->line, "'%s' is given twice (first at line %d)",
					 m->key, ks->k[i]->line);
		ks->k[i] = m;
		return 0;
	}
	ev = i >= 0 ? 1 : rtapp_event_key(b, m);
	if (ev < 0)
		return -1;
	if (ev == 0) {
		ks->first_event = ks->first_event ? ks->first_event : m;
		ks->nevents++;
		return 0;
	}
	if (allowed == PHASE_KEYS)
		return rtapp_bad(b, m->line, "'%s' is not supported in a phase (phase keys: "
				 PHASE_KEY_LIST "; events: " RTAPP_EVENTS ")", m->key);
	return rtapp_bad(b, m->line, "'%s' is not supported (thread keys: " THREAD_KEY_LIST
			 "; events: " RTAPP_EVENTS ")", m->key);
}

static int collect_keys(struct rtapp_builder *b, const struct json_value *obj, unsigned allowed,
			struct obj_keys *ks)
{
	*ks = (struct obj_keys){ 0 };
	for (size_t i = 0; i < obj->obj.n; i++)
		if (collect_key(b, &obj->obj.members[i], allowed, ks))
			return -1;
	return 0;
}

static int get_int(struct rtapp_builder *b, const struct json_member *m, long long min,
		   long long max, long long *out)
{
	if (!m->value)
		return rtapp_bad(b, m->line, "'%s' has no value", m->key);
	if (m->value->type != JSON_INT)
		return rtapp_bad(b, m->line, "'%s' must be an integer, not %s", m->key,
				 json_type_name(m->value->type));
	if (m->value->i < min || m->value->i > max)
		return rtapp_bad(b, m->line, "'%s' is %lld: expected %lld to %lld", m->key,
				 m->value->i, min, max);
	*out = m->value->i;
	return 0;
}

/* -1 (forever) or a count; rt-app never ends a loop of 0 or runs it not at all. */
static int get_loop(struct rtapp_builder *b, const struct json_member *m, long *loop)
{
	long long v;

	if (get_int(b, m, -1, INT_MAX, &v))
		return -1;
	if (!v)
		return rtapp_bad(b, m->line, "'loop' is 0: expected -1 (forever) or a count "
				 "from 1");
	*loop = (long)v;
	return 0;
}

static int get_cpus(struct rtapp_builder *b, const struct json_member *m, struct rtapp_cpus *c)
{
	const struct json_value *v = m->value;
	int *cpu;

	if (!v || v->type != JSON_ARRAY)
		return rtapp_bad(b, m->line, "'cpus' must be an array of CPU numbers, not %s",
				 v ? json_type_name(v->type) : "nothing");
	if (!v->arr.n)
		return rtapp_bad(b, m->line, "'cpus' is empty: name one CPU at least");
	cpu = arena_alloc(&b->f->mem, v->arr.n * sizeof(*cpu));
	if (!cpu)
		return rtapp_bad(b, m->line, "out of memory");
	for (size_t i = 0; i < v->arr.n; i++) {
		const struct json_value *item = &v->arr.items[i];

		if (item->type != JSON_INT || item->i < 0 || item->i > CPU_MAX)
			return rtapp_bad(b, item->line, "'cpus' holds %s: expected CPU numbers "
					 "from 0 to %d", item->type == JSON_INT ? "a number out "
					 "of range" : json_type_name(item->type), CPU_MAX);
		cpu[i] = (int)item->i;
	}
	*c = (struct rtapp_cpus){ .cpu = cpu, .n = v->arr.n, .line = m->line };
	return 0;
}

static int get_policy(struct rtapp_builder *b, const struct json_member *m,
		      enum rtapp_policy *policy)
{
	static const enum rtapp_policy all[] = { RTAPP_OTHER, RTAPP_FIFO, RTAPP_RR,
						 RTAPP_DEADLINE };

	if (!m->value || m->value->type != JSON_STRING)
		return rtapp_bad(b, m->line, "'%s' must be a string: SCHED_OTHER, SCHED_FIFO, "
				 "SCHED_RR or SCHED_DEADLINE", m->key);
	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		if (!strcmp(m->value->str.s, rtapp_policy_name(all[i]))) {
			*policy = all[i];
			return 0;
		}
	}
	return rtapp_bad(b, m->line, "'%s' is \"%s\": expected SCHED_OTHER, SCHED_FIFO, "
			 "SCHED_RR or SCHED_DEADLINE", m->key, m->value->str.s);
}

/* As rt-app: a nice of 0 for SCHED_OTHER, a priority of 10 for the other classes. */
static int default_priority(enum rtapp_policy p)
{
	return p == RTAPP_OTHER ? 0 : 10;
}

/* rt-app's defaults: a period of the runtime, a deadline of the period. */
static int get_dl(struct rtapp_builder *b, const struct obj_keys *ks, struct rtapp_sched *s)
{
	const struct json_member *rt = ks->k[K_DL_RUNTIME], *per = ks->k[K_DL_PERIOD],
				 *dl = ks->k[K_DL_DEADLINE];
	long long v = 0;

	if (!rt && !per && !dl)
		return 0;
	if (rt && get_int(b, rt, 0, USEC_MAX, &v))
		return -1;
	s->dl_runtime_us = v;
	if (per && get_int(b, per, 0, USEC_MAX, &v))
		return -1;
	s->dl_period_us = v;
	if (dl && get_int(b, dl, 0, USEC_MAX, &v))
		return -1;
	s->dl_deadline_us = v;
	s->dl_line = (rt ? rt : per ? per : dl)->line;
	return 0;
}

/* The object's scheduling keys on top of base (the thread's, or the global default). */
static int get_sched(struct rtapp_builder *b, const struct obj_keys *ks,
		     const struct rtapp_sched *base, struct rtapp_sched *s)
{
	const struct json_member *pol = ks->k[K_POLICY], *prio = ks->k[K_PRIORITY];
	long long v;

	*s = *base;
	if (pol) {
		if (get_policy(b, pol, &s->policy))
			return -1;
		s->policy_line = pol->line;
		s->priority = default_priority(s->policy);
		s->priority_line = 0;
	}
	if (prio) {
		if (get_int(b, prio, INT_MIN, INT_MAX, &v))
			return -1;
		s->priority = (int)v;
		s->priority_line = prio->line;
	}
	return get_dl(b, ks, s);
}

static int read_events(struct rtapp_builder *b, const struct json_value *obj,
		       const struct obj_keys *ks, struct rtapp_phase *p)
{
	size_t n = 0;

	p->events = arena_alloc(&b->f->mem, ks->nevents * sizeof(*p->events));
	if (!p->events)
		return rtapp_bad(b, p->line, "out of memory");
	for (size_t i = 0; i < obj->obj.n; i++) {
		const struct json_member *m = &obj->obj.members[i];

		if (key_index(m->key) >= 0)
			continue;
		if (rtapp_parse_event(b, m, &p->events[n++]))
			return -1;
	}
	p->nevents = n;
	return 0;
}

static const char *copy_name(struct rtapp_builder *b, const char *name)
{
	return arena_strndup(&b->f->mem, name, strlen(name));
}

static int read_phase(struct rtapp_builder *b, const struct rtapp_thread *t,
		      const struct json_member *m, struct rtapp_phase *p)
{
	struct obj_keys ks;

	snprintf(b->where, sizeof(b->where), "tasks.%s.phases.%s", t->name, m->key);
	if (!m->value || m->value->type != JSON_OBJECT)
		return rtapp_bad(b, m->line, "a phase must be an object of events, not %s",
				 m->value ? json_type_name(m->value->type) : "nothing");
	*p = (struct rtapp_phase){ .name = copy_name(b, m->key), .line = m->line, .loop = 1,
				   .cpus = t->cpus };
	if (!p->name || collect_keys(b, m->value, PHASE_KEYS, &ks) ||
	    (ks.k[K_LOOP] && get_loop(b, ks.k[K_LOOP], &p->loop)) ||
	    (ks.k[K_CPUS] && get_cpus(b, ks.k[K_CPUS], &p->cpus)) ||
	    get_sched(b, &ks, &t->sched, &p->sched))
		return -1;
	if (!ks.nevents)
		return rtapp_bad(b, m->line, "phase '%s' has no events", m->key);
	p->own_cpus = ks.k[K_CPUS] != NULL;
	p->own_sched = ks.k[K_POLICY] || ks.k[K_PRIORITY] || ks.k[K_DL_RUNTIME] ||
		       ks.k[K_DL_PERIOD] || ks.k[K_DL_DEADLINE];
	return read_events(b, m->value, &ks, p);
}

static int read_phases(struct rtapp_builder *b, struct rtapp_thread *t,
		       const struct json_member *phases)
{
	const struct json_value *v = phases->value;

	if (!v || v->type != JSON_OBJECT)
		return rtapp_bad(b, phases->line, "'phases' must be an object of phases, not %s",
				 v ? json_type_name(v->type) : "nothing");
	if (!v->obj.n)
		return rtapp_bad(b, phases->line, "'phases' is empty");
	t->phases = arena_alloc(&b->f->mem, v->obj.n * sizeof(*t->phases));
	if (!t->phases)
		return rtapp_bad(b, phases->line, "out of memory");
	for (size_t i = 0; i < v->obj.n; i++)
		if (read_phase(b, t, &v->obj.members[i], &t->phases[i]))
			return -1;
	t->nphases = v->obj.n;
	return 0;
}

/*
 * Without "phases" the thread's own events are its one phase, and "loop" is
 * that phase's: given, the phase runs that many times and the thread ends;
 * not given, the phase runs once a round, forever. That is what rt-app's
 * tutorial says and what rt-app does since; rt-app 1.0 itself starts such a
 * thread's rounds again until the duration ends.
 */
static int read_own_phase(struct rtapp_builder *b, struct rtapp_thread *t,
			  const struct json_value *obj, const struct obj_keys *ks)
{
	struct rtapp_phase *p = arena_alloc(&b->f->mem, sizeof(*p));

	if (!p)
		return rtapp_bad(b, t->line, "out of memory");
	*p = (struct rtapp_phase){ .name = t->name, .line = t->line, .loop = 1,
				   .sched = t->sched, .cpus = t->cpus };
	if (ks->k[K_LOOP]) {
		p->loop = t->loop;
		t->loop = 1;
	}
	if (!ks->nevents)
		return rtapp_bad(b, t->line, "thread '%s' has no events nor phases", t->name);
	t->phases = p;
	t->nphases = 1;
	return read_events(b, obj, ks, p);
}

static int read_thread_keys(struct rtapp_builder *b, const struct obj_keys *ks,
			    struct rtapp_thread *t)
{
	const struct rtapp_sched base = {
		.policy = b->f->global.default_policy,
		.priority = default_priority(b->f->global.default_policy),
	};
	long long v;

	if (ks->k[K_INSTANCE]) {
		if (get_int(b, ks->k[K_INSTANCE], 1, INT_MAX, &v))
			return -1;
		t->instances = (int)v;
	}
	if (ks->k[K_DELAY]) {
		if (get_int(b, ks->k[K_DELAY], 0, USEC_MAX, &v))
			return -1;
		t->delay_us = v;
	}
	if ((ks->k[K_LOOP] && get_loop(b, ks->k[K_LOOP], &t->loop)) ||
	    (ks->k[K_CPUS] && get_cpus(b, ks->k[K_CPUS], &t->cpus)))
		return -1;
	return get_sched(b, ks, &base, &t->sched);
}

static int read_thread(struct rtapp_builder *b, const struct json_member *m,
		       struct rtapp_thread *t)
{
	const struct json_member *phases;
	struct obj_keys ks;

	snprintf(b->where, sizeof(b->where), "tasks.%s", m->key);
	if (!m->value || m->value->type != JSON_OBJECT)
		return rtapp_bad(b, m->line, "a thread must be an object, not %s",
				 m->value ? json_type_name(m->value->type) : "nothing");
	*t = (struct rtapp_thread){ .name = copy_name(b, m->key), .line = m->line,
				    .instances = 1, .loop = -1 };
	b->thread = t->name;
	if (!t->name || collect_keys(b, m->value, THREAD_KEYS, &ks) ||
	    read_thread_keys(b, &ks, t))
		return -1;
	phases = ks.k[K_PHASES];
	if (!phases)
		return read_own_phase(b, t, m->value, &ks);
	if (ks.nevents)
		return rtapp_bad(b, ks.first_event->line, "'%s' beside 'phases': rt-app ignores "
				 "a thread's own events when it has phases", ks.first_event->key);
	t->phases_given = true;
	return read_phases(b, t, phases);
}

/* A thread's name is its key, which workgen would make unique: refused twice here. */
static int unique_thread(struct rtapp_builder *b, const struct json_value *tasks, size_t i)
{
	const struct json_member *m = &tasks->obj.members[i], *first;

	first = json_member_of(tasks, m->key);
	if (first == m)
		return 0;
	snprintf(b->where, sizeof(b->where), "tasks");
	return rtapp_bad(b, m->line, "thread '%s' is defined twice (first at line %d)", m->key,
			 first->line);
}

int rtapp_read_tasks(struct rtapp_builder *b, const struct json_member *tasks)
{
	const struct json_value *v = tasks->value;
	struct rtapp_file *f = b->f;

	snprintf(b->where, sizeof(b->where), "tasks");
	if (!v || v->type != JSON_OBJECT)
		return rtapp_bad(b, tasks->line, "'tasks' must be an object of threads, not %s",
				 v ? json_type_name(v->type) : "nothing");
	if (!v->obj.n)
		return rtapp_bad(b, tasks->line, "'tasks' has no threads");
	f->threads = arena_alloc(&f->mem, v->obj.n * sizeof(*f->threads));
	if (!f->threads)
		return rtapp_bad(b, tasks->line, "out of memory");
	for (size_t i = 0; i < v->obj.n; i++)
		if (unique_thread(b, v, i) || read_thread(b, &v->obj.members[i], &f->threads[i]))
			return -1;
	f->nthreads = v->obj.n;
	return 0;
}
