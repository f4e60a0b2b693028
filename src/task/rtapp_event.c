// SPDX-License-Identifier: GPL-2.0-or-later
/* task/rtapp_event.c - an rt-app event from its key and value: the table of events as rt-app
 * recognises them, each value's shape, and the named objects the events share. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "task/rtapp_parts.h"

/* rt-app keeps every duration and period in an int of µs. */
#define USEC_MAX 2147483647LL

enum shape {
	SHAPE_USEC,			/* an integer of µs */
	SHAPE_NAME,			/* the name of a mutex, condition or barrier */
	SHAPE_SUSPEND,			/* a name, or none: the thread's own */
	SHAPE_TIMER,			/* { "ref", "period", "mode" } */
	SHAPE_WAIT,			/* { "ref", "mutex" } */
	SHAPE_ANY,			/* yield: the value is not used */
	SHAPE_REFUSED,			/* rt-app has it, interbench does not run it */
};

struct event_desc {
	const char *name;
	enum rtapp_kind kind;
	enum shape shape;
	enum rtapp_res_type res;	/* SHAPE_NAME */
};

/*
 * In the order a key is matched against them by prefix, as rt-app does:
 * "runtime" before "run", whose prefix it is. The refused ones are named so
 * that their message says so rather than "unknown key".
 */
static const struct event_desc event_descs[] = {
	{ "runtime", RTAPP_RUNTIME, SHAPE_USEC, 0 },
	{ "run", RTAPP_RUN, SHAPE_USEC, 0 },
	{ "sleep", RTAPP_SLEEP, SHAPE_USEC, 0 },
	{ "timer", RTAPP_TIMER, SHAPE_TIMER, 0 },
	{ "suspend", RTAPP_SUSPEND, SHAPE_SUSPEND, 0 },
	{ "resume", RTAPP_RESUME, SHAPE_NAME, RTAPP_RES_COND },
	{ "lock", RTAPP_LOCK, SHAPE_NAME, RTAPP_RES_MUTEX },
	{ "unlock", RTAPP_UNLOCK, SHAPE_NAME, RTAPP_RES_MUTEX },
	{ "wait", RTAPP_WAIT, SHAPE_WAIT, 0 },
	{ "signal", RTAPP_SIGNAL, SHAPE_NAME, RTAPP_RES_COND },
	{ "broad", RTAPP_BROAD, SHAPE_NAME, RTAPP_RES_COND },
	{ "sync", RTAPP_SYNC, SHAPE_WAIT, 0 },
	{ "barrier", RTAPP_BARRIER, SHAPE_NAME, RTAPP_RES_BARRIER },
	{ "yield", RTAPP_YIELD, SHAPE_ANY, 0 },
	{ "mem", 0, SHAPE_REFUSED, 0 },
	{ "iorun", 0, SHAPE_REFUSED, 0 },
	{ "fork", 0, SHAPE_REFUSED, 0 },
};

int rtapp_fail(const char *path, char *err, size_t errlen, int line, const char *where,
	       const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return set_err(err, errlen, "%s:%d: %s: %s", path, line, where, what);
}

int rtapp_bad(struct rtapp_builder *b, int line, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return rtapp_fail(b->f->path, b->err, b->errlen, line, b->where, "%s", what);
}

void rtapp_where(const struct rtapp_thread *t, const struct rtapp_phase *p, char *buf,
		 size_t len)
{
	if (p && t->phases_given)
		snprintf(buf, len, "tasks.%s.phases.%s", t->name, p->name);
	else
		snprintf(buf, len, "tasks.%s", t->name);
}

static const struct event_desc *event_desc_of(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(event_descs); i++)
		if (!strncmp(key, event_descs[i].name, strlen(event_descs[i].name)))
			return &event_descs[i];
	return NULL;
}

static int refuse_event(struct rtapp_builder *b, const struct json_member *m)
{
	return rtapp_bad(b, m->line, "'%s' is not supported (supported events: " RTAPP_EVENTS ")",
			 m->key);
}

int rtapp_event_key(struct rtapp_builder *b, const struct json_member *m)
{
	const struct event_desc *d = event_desc_of(m->key);

	if (!d)
		return 1;
	return d->shape == SHAPE_REFUSED ? refuse_event(b, m) : 0;
}

const char *rtapp_kind_name(enum rtapp_kind k)
{
	for (size_t i = 0; i < ARRAY_SIZE(event_descs); i++)
		if (event_descs[i].shape != SHAPE_REFUSED && event_descs[i].kind == k)
			return event_descs[i].name;
	return "?";
}

const char *rtapp_policy_name(enum rtapp_policy p)
{
	static const char *const names[] = {
		[RTAPP_OTHER] = "SCHED_OTHER", [RTAPP_FIFO] = "SCHED_FIFO",
		[RTAPP_RR] = "SCHED_RR", [RTAPP_DEADLINE] = "SCHED_DEADLINE",
	};

	return (unsigned)p < ARRAY_SIZE(names) ? names[p] : "?";
}

/* FNV-1a over the name, the type mixed in: a slot to start probing from. */
static size_t res_hash(enum rtapp_res_type type, const char *name, size_t nslots)
{
	uint32_t h = 2166136261u ^ (uint32_t)type;

	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		h = (h ^ *s) * 16777619u;
	return h & (nslots - 1);
}

static size_t res_probe(const struct rtapp_builder *b, enum rtapp_res_type type,
			const char *name)
{
	size_t i = res_hash(type, name, b->nslots);

	while (b->slot[i] >= 0 && (b->res[b->slot[i]].type != type ||
				   strcmp(b->res[b->slot[i]].name, name)))
		i = (i + 1) & (b->nslots - 1);
	return i;
}

/* Room for one more resource, the index kept at most half full. */
static int res_room(struct rtapp_builder *b)
{
	if (b->nres == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 32;
		struct rtapp_res *res = realloc(b->res, cap * sizeof(*res));

		if (!res)
			return -ENOMEM;
		b->res = res;
		b->cap = cap;
	}
	if (2 * (b->nres + 1) <= b->nslots)
		return 0;
	free(b->slot);
	b->nslots = b->nslots ? 2 * b->nslots : 64;
	b->slot = malloc(b->nslots * sizeof(*b->slot));
	if (!b->slot)
		return -ENOMEM;
	memset(b->slot, 0xff, b->nslots * sizeof(*b->slot));
	for (size_t r = 0; r < b->nres; r++)
		b->slot[res_probe(b, b->res[r].type, b->res[r].name)] = (int)r;
	return 0;
}

/* The resource of that type and name, made at its first use; -1 (err set) without memory. */
static int res_get(struct rtapp_builder *b, enum rtapp_res_type type, const char *name,
		   int line)
{
	size_t i;

	if (res_room(b))
		return rtapp_bad(b, line, "out of memory");
	i = res_probe(b, type, name);
	if (b->slot[i] >= 0)
		return b->slot[i];
	b->res[b->nres] = (struct rtapp_res){
		.type = type, .line = line,
		.name = arena_strndup(&b->f->mem, name, strlen(name)),
		.unique = type == RTAPP_RES_TIMER && !strncmp(name, "unique", 6),
	};
	if (!b->res[b->nres].name)
		return rtapp_bad(b, line, "out of memory");
	b->slot[i] = (int)b->nres;
	return (int)b->nres++;
}

int rtapp_keep_res(struct rtapp_builder *b)
{
	struct rtapp_res *kept = b->nres ? arena_alloc(&b->f->mem, b->nres * sizeof(*kept)) : NULL;

	if (b->nres && !kept)
		return set_err(b->err, b->errlen, "%s: out of memory", b->f->path);
	if (kept)
		memcpy(kept, b->res, b->nres * sizeof(*kept));
	b->f->res = kept;
	b->f->nres = b->nres;
	return 0;
}

void rtapp_builder_free(struct rtapp_builder *b)
{
	free(b->res);
	free(b->slot);
	b->res = NULL;
	b->slot = NULL;
}

static int expect_type(struct rtapp_builder *b, const struct json_member *m, enum json_type t,
		       const char *what)
{
	if (!m->value)
		return rtapp_bad(b, m->line, "'%s' has no value: expected %s", m->key, what);
	if (m->value->type != t)
		return rtapp_bad(b, m->line, "'%s' must be %s, not %s", m->key, what,
				 json_type_name(m->value->type));
	return 0;
}

static int parse_usec(struct rtapp_builder *b, const struct json_member *m, long long *usec)
{
	if (expect_type(b, m, JSON_INT, "an integer number of µs"))
		return -1;
	if (m->value->i < 0 || m->value->i > USEC_MAX)
		return rtapp_bad(b, m->line, "'%s' is %lld µs: expected 0 to %lld", m->key,
				 m->value->i, USEC_MAX);
	*usec = m->value->i;
	return 0;
}

static int parse_name(struct rtapp_builder *b, const struct json_member *m, const char **name)
{
	if (expect_type(b, m, JSON_STRING, "a name (a string)"))
		return -1;
	if (!m->value->str.len)
		return rtapp_bad(b, m->line, "'%s' names nothing (an empty string)", m->key);
	*name = m->value->str.s;
	return 0;
}

/* As workgen fills it in, a suspend without a name (or an empty one) is on the thread's own. */
static int parse_suspend(struct rtapp_builder *b, const struct json_member *m,
			 struct rtapp_event *ev)
{
	const char *name = b->thread;

	if (m->value && m->value->type != JSON_STRING)
		return rtapp_bad(b, m->line, "'%s' takes the name of what to wait for (a string), "
				 "not %s", m->key, json_type_name(m->value->type));
	if (m->value && m->value->str.len)
		name = m->value->str.s;
	ev->res = res_get(b, RTAPP_RES_COND, name, m->line);
	ev->mutex = ev->res < 0 ? -1 : res_get(b, RTAPP_RES_MUTEX, name, m->line);
	return ev->mutex < 0 ? -1 : 0;
}

static int parse_named(struct rtapp_builder *b, const struct json_member *m,
		       const struct event_desc *d, struct rtapp_event *ev)
{
	const char *name;

	if (parse_name(b, m, &name))
		return -1;
	ev->res = res_get(b, d->res, name, m->line);
	if (ev->res < 0)
		return -1;
	if (d->kind == RTAPP_BARRIER)
		b->res[ev->res].users++;
	if (d->kind != RTAPP_RESUME)
		return 0;
	ev->mutex = res_get(b, RTAPP_RES_MUTEX, name, m->line);
	return ev->mutex < 0 ? -1 : 0;
}

/* The members of an object value: each one of the names in keys, once. */
static int only_members(struct rtapp_builder *b, const struct json_member *m,
			const char *const *keys, size_t nkeys, const char *list)
{
	const struct json_value *v = m->value;

	for (size_t i = 0; i < v->obj.n; i++) {
		const struct json_member *in = &v->obj.members[i];
		size_t k = 0;

		while (k < nkeys && strcmp(in->key, keys[k]))
			k++;
		if (k == nkeys)
			return rtapp_bad(b, in->line, "'%s' has '%s': expected %s", m->key,
					 in->key, list);
		if (json_member_of(v, in->key) != in)
			return rtapp_bad(b, in->line, "'%s' has '%s' twice", m->key, in->key);
	}
	return 0;
}

static const struct json_member *need_member(struct rtapp_builder *b,
					     const struct json_member *m, const char *key,
					     const char *what)
{
	const struct json_member *got = json_member_of(m->value, key);

	if (!got)
		rtapp_bad(b, m->line, "'%s' needs a '%s' (%s)", m->key, key, what);
	return got;
}

static int parse_timer_mode(struct rtapp_builder *b, const struct json_member *m,
			    bool *absolute)
{
	const struct json_member *mode = json_member_of(m->value, "mode");

	*absolute = false;
	if (!mode)
		return 0;
	if (expect_type(b, mode, JSON_STRING, "\"relative\" or \"absolute\""))
		return -1;
	if (strcmp(mode->value->str.s, "relative") && strcmp(mode->value->str.s, "absolute"))
		return rtapp_bad(b, mode->line, "'mode' is \"%s\": expected \"relative\" or "
				 "\"absolute\"", mode->value->str.s);
	*absolute = !strcmp(mode->value->str.s, "absolute");
	return 0;
}

static int parse_timer(struct rtapp_builder *b, const struct json_member *m,
		       struct rtapp_event *ev)
{
	static const char *const keys[] = { "ref", "period", "mode" };
	const struct json_member *ref, *period;
	const char *name;
	size_t had = b->nres;
	bool absolute;

	if (expect_type(b, m, JSON_OBJECT, "an object { \"ref\", \"period\", \"mode\" }") ||
	    only_members(b, m, keys, ARRAY_SIZE(keys), "ref, period and mode") ||
	    !(ref = need_member(b, m, "ref", "its name; \"unique...\": one per thread")) ||
	    !(period = need_member(b, m, "period", "in µs")) ||
	    parse_name(b, ref, &name) || parse_usec(b, period, &ev->usec) ||
	    parse_timer_mode(b, m, &absolute))
		return -1;
	if (!ev->usec)
		return rtapp_bad(b, period->line, "timer '%s' has a period of 0 µs", name);
	ev->res = res_get(b, RTAPP_RES_TIMER, name, m->line);
	if (ev->res < 0)
		return -1;
	if (b->nres > had)
		b->res[ev->res].absolute = absolute;
	else if (b->res[ev->res].absolute != absolute)
		return rtapp_bad(b, m->line, "timer '%s' is %s here but %s at line %d", name,
				 absolute ? "absolute" : "relative",
				 absolute ? "relative" : "absolute", b->res[ev->res].line);
	return 0;
}

/* wait and sync: the condition, and the mutex the thread holds around them. */
static int parse_wait(struct rtapp_builder *b, const struct json_member *m,
		      struct rtapp_event *ev)
{
	static const char *const keys[] = { "ref", "mutex" };
	const struct json_member *ref, *mutex;
	const char *cond_name, *mutex_name;

	if (expect_type(b, m, JSON_OBJECT, "an object { \"ref\", \"mutex\" }") ||
	    only_members(b, m, keys, ARRAY_SIZE(keys), "ref and mutex") ||
	    !(ref = need_member(b, m, "ref", "the condition")) ||
	    !(mutex = need_member(b, m, "mutex", "the mutex it holds")) ||
	    parse_name(b, ref, &cond_name) || parse_name(b, mutex, &mutex_name))
		return -1;
	ev->res = res_get(b, RTAPP_RES_COND, cond_name, m->line);
	ev->mutex = ev->res < 0 ? -1 : res_get(b, RTAPP_RES_MUTEX, mutex_name, m->line);
	return ev->mutex < 0 ? -1 : 0;
}

static int parse_shape(struct rtapp_builder *b, const struct json_member *m,
		       const struct event_desc *d, struct rtapp_event *ev)
{
	switch (d->shape) {
	case SHAPE_USEC:
		return parse_usec(b, m, &ev->usec);
	case SHAPE_NAME:
		return parse_named(b, m, d, ev);
	case SHAPE_SUSPEND:
		return parse_suspend(b, m, ev);
	case SHAPE_TIMER:
		return parse_timer(b, m, ev);
	case SHAPE_WAIT:
		return parse_wait(b, m, ev);
	case SHAPE_ANY:
		if (!m->value)
			return rtapp_bad(b, m->line, "'%s' has no value", m->key);
		return 0;
	case SHAPE_REFUSED:
		break;
	}
	return refuse_event(b, m);
}

int rtapp_parse_event(struct rtapp_builder *b, const struct json_member *m,
		      struct rtapp_event *ev)
{
	const struct event_desc *d = event_desc_of(m->key);

	if (!d || d->shape == SHAPE_REFUSED)
		return refuse_event(b, m);
	*ev = (struct rtapp_event){
		.kind = d->kind, .line = m->line, .res = -1, .mutex = -1,
		.key = arena_strndup(&b->f->mem, m->key, strlen(m->key)),
	};
	if (!ev->key)
		return rtapp_bad(b, m->line, "out of memory");
	return parse_shape(b, m, d, ev);
}
