// SPDX-License-Identifier: GPL-2.0-or-later
/* task/rtapp_read.c - an rt-app workload file read into its model: the top level, "global",
 * "resources", and the keys accepted without effect, each with why. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "task/rtapp_parts.h"

#define RTAPP_MAX_MEM (64u * 1024 * 1024)

#define WHY_LOGS "rt-app's own logs and traces"
#define WHY_IOMEM "used by the mem and iorun events only, which are refused"

/*
 * The settings that change how rt-app records or prepares a run, not what
 * its threads do: accepted, and named in a note so that nothing is dropped
 * silently. lock_pages only matters to a thread that could be paged out
 * while real time: interbench locks memory itself for -r.
 */
static const struct ignored_key {
	const char *key;
	const char *why;
} ignored_keys[] = {
	{ "calibration", "interbench's run is CPU time, not loops calibrated on a CPU" },
	{ "logdir", WHY_LOGS },
	{ "log_basename", WHY_LOGS },
	{ "log_size", WHY_LOGS },
	{ "gnuplot", WHY_LOGS },
	{ "ftrace", WHY_LOGS },
	{ "lock_pages", "interbench locks memory itself with -r" },
	{ "io_device", WHY_IOMEM },
	{ "mem_buffer_size", WHY_IOMEM },
	{ "frag", "rt-app 1.0 does not read it" },
	{ "resources", "rt-app 1.0 makes its mutexes, conditions and timers from the events" },
};

#define GLOBAL_KEY_LIST "duration, default_policy, pi_enabled, cumulative_slack"
#define IGNORED_KEY_LIST "calibration, logdir, log_basename, log_size, gnuplot, ftrace, " \
			 "lock_pages, io_device, mem_buffer_size, frag"

static const struct ignored_key *ignored_key_of(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(ignored_keys); i++)
		if (!strcmp(key, ignored_keys[i].key))
			return &ignored_keys[i];
	return NULL;
}

static int note_ignored(struct rtapp_builder *b, const struct json_member *m,
			const struct ignored_key *k)
{
	if (!m->value)
		return rtapp_bad(b, m->line, "'%s' has no value", m->key);
	if (b->f->nignored < RTAPP_MAX_IGNORED)
		b->f->ignored[b->f->nignored++] = k->key;
	return 0;
}

static int read_bool(struct rtapp_builder *b, const struct json_member *m, bool *out)
{
	if (!m->value || m->value->type != JSON_BOOL)
		return rtapp_bad(b, m->line, "'%s' must be true or false", m->key);
	*out = m->value->b;
	return 0;
}

static int read_duration(struct rtapp_builder *b, const struct json_member *m)
{
	const struct json_value *v = m->value;

	if (!v || v->type != JSON_INT)
		return rtapp_bad(b, m->line, "'duration' must be an integer number of seconds, "
				 "not %s", v ? json_type_name(v->type) : "nothing");
	if (v->i != -1 && (v->i < 1 || v->i > INT_MAX))
		return rtapp_bad(b, m->line, "'duration' is %lld: expected -1 (until the "
				 "threads end) or seconds from 1 to %d", v->i, INT_MAX);
	b->f->global.duration_s = (long)v->i;
	return 0;
}

static int read_default_policy(struct rtapp_builder *b, const struct json_member *m)
{
	static const enum rtapp_policy all[] = { RTAPP_OTHER, RTAPP_FIFO, RTAPP_RR,
						 RTAPP_DEADLINE };
	const struct json_value *v = m->value;

	for (size_t i = 0; v && v->type == JSON_STRING && i < ARRAY_SIZE(all); i++) {
		if (!strcmp(v->str.s, rtapp_policy_name(all[i]))) {
			b->f->global.default_policy = all[i];
			return 0;
		}
	}
	return rtapp_bad(b, m->line, "'default_policy' must be SCHED_OTHER, SCHED_FIFO, "
			 "SCHED_RR or SCHED_DEADLINE");
}

static int read_global_member(struct rtapp_builder *b, const struct json_member *m)
{
	const struct ignored_key *ignored = ignored_key_of(m->key);

	if (!strcmp(m->key, "duration"))
		return read_duration(b, m);
	if (!strcmp(m->key, "default_policy"))
		return read_default_policy(b, m);
	if (!strcmp(m->key, "pi_enabled"))
		return read_bool(b, m, &b->f->global.pi_enabled);
	if (!strcmp(m->key, "cumulative_slack"))
		return read_bool(b, m, &b->f->global.cumulative_slack);
	if (ignored && strcmp(m->key, "resources"))
		return note_ignored(b, m, ignored);
	return rtapp_bad(b, m->line, "'%s' is not supported (global keys: " GLOBAL_KEY_LIST
			 "; accepted without effect: " IGNORED_KEY_LIST ")", m->key);
}

/* A key of an object given twice: json-c would keep one of them, workgen rename one. */
static int once(struct rtapp_builder *b, const struct json_value *obj, size_t i)
{
	const struct json_member *m = &obj->obj.members[i], *first = json_member_of(obj, m->key);

	if (first == m)
		return 0;
	return rtapp_bad(b, m->line, "'%s' is given twice (first at line %d)", m->key,
			 first->line);
}

static int read_global(struct rtapp_builder *b, const struct json_member *global)
{
	const struct json_value *v = global->value;

	snprintf(b->where, sizeof(b->where), "global");
	if (!v || v->type != JSON_OBJECT)
		return rtapp_bad(b, global->line, "'global' must be an object");
	for (size_t i = 0; i < v->obj.n; i++)
		if (once(b, v, i) || read_global_member(b, &v->obj.members[i]))
			return -1;
	return 0;
}

/* A resource's declaration: an object with its "type" at most. */
static int read_declaration(struct rtapp_builder *b, const struct json_member *m)
{
	const struct json_value *decl = m->value;

	snprintf(b->where, sizeof(b->where), "resources.%s", m->key);
	if (!decl || decl->type != JSON_OBJECT)
		return rtapp_bad(b, m->line, "a resource is declared by an object "
				 "{ \"type\": ... }, not %s",
				 decl ? json_type_name(decl->type) : "nothing");
	for (size_t i = 0; i < decl->obj.n; i++) {
		const struct json_member *in = &decl->obj.members[i];

		if (strcmp(in->key, "type"))
			return rtapp_bad(b, in->line, "'%s' is not supported (a resource declares "
					 "its \"type\" only)", in->key);
		if (once(b, decl, i))
			return -1;
		if (!in->value || in->value->type != JSON_STRING)
			return rtapp_bad(b, in->line, "'type' must be a string");
	}
	return 0;
}

/* Kept by rt-app for old files: accepted while it only declares names and their types. */
static int read_resources(struct rtapp_builder *b, const struct json_member *res)
{
	const struct json_value *v = res->value;

	snprintf(b->where, sizeof(b->where), "resources");
	if (!v || v->type != JSON_OBJECT)
		return rtapp_bad(b, res->line, "'resources' must be an object of names");
	for (size_t i = 0; i < v->obj.n; i++)
		if (once(b, v, i) || read_declaration(b, &v->obj.members[i]))
			return -1;
	return note_ignored(b, res, ignored_key_of("resources"));
}

static int read_top(struct rtapp_builder *b, const struct json_value *root)
{
	const struct json_member *tasks = json_member_of(root, "tasks");
	const struct json_member *global = json_member_of(root, "global");
	const struct json_member *res = json_member_of(root, "resources");

	for (size_t i = 0; i < root->obj.n; i++) {
		const struct json_member *m = &root->obj.members[i];

		if (once(b, root, i))
			return -1;
		if (m != tasks && m != global && m != res)
			return rtapp_bad(b, m->line, "'%s' is not supported (top-level keys: "
					 "tasks, global, resources)", m->key);
	}
	if (global && read_global(b, global))
		return -1;
	if (!tasks) {
		snprintf(b->where, sizeof(b->where), "top level");
		return rtapp_bad(b, root->line, "no 'tasks': rt-app needs an object of threads");
	}
	if (rtapp_read_tasks(b, tasks))
		return -1;
	return res ? read_resources(b, res) : 0;
}

static void rtapp_init(struct rtapp_file *f)
{
	memset(f, 0, sizeof(*f));
	arena_init(&f->mem, RTAPP_MAX_MEM);
	f->global.duration_s = -1;
	f->global.default_policy = RTAPP_OTHER;
}

int rtapp_read(struct rtapp_file *f, const struct json_doc *doc, char *err, size_t errlen)
{
	struct rtapp_builder b = { .f = f, .err = err, .errlen = errlen, .where = "top level" };
	int ret;

	rtapp_init(f);
	f->path = arena_strndup(&f->mem, doc->name, strlen(doc->name));
	if (!f->path)
		return set_err(err, errlen, "%s: out of memory", doc->name);
	if (!doc->root || doc->root->type != JSON_OBJECT)
		return rtapp_bad(&b, doc->root ? doc->root->line : 1, "the file must hold an "
				 "object with \"tasks\", not %s", doc->root ?
				 json_type_name(doc->root->type) : "nothing");
	ret = read_top(&b, doc->root);
	if (!ret)
		ret = rtapp_keep_res(&b);
	rtapp_builder_free(&b);
	return ret;
}

int rtapp_load(struct rtapp_file *f, const char *path, char *err, size_t errlen)
{
	struct json_doc doc;
	int ret;

	if (json_read_file(&doc, path, err, errlen)) {
		json_free(&doc);
		rtapp_init(f);
		return -1;
	}
	ret = rtapp_read(f, &doc, err, errlen);
	json_free(&doc);
	return ret;
}

void rtapp_free(struct rtapp_file *f)
{
	arena_free(&f->mem);
	rtapp_init(f);
}

static bool was_ignored(const struct rtapp_file *f, const char *key)
{
	for (size_t i = 0; i < f->nignored; i++)
		if (!strcmp(f->ignored[i], key))
			return true;
	return false;
}

/* Formats at n in buf, cut at len; the length it would have had, to go on from. */
static size_t append(char *buf, size_t len, size_t n, const char *fmt, ...) PRINTF(4, 5);
static size_t append(char *buf, size_t len, size_t n, const char *fmt, ...)
{
	va_list ap;
	int got;

	va_start(ap, fmt);
	got = vsnprintf(buf + (n < len ? n : len - 1), n < len ? len - n : 1, fmt, ap);
	va_end(ap);
	return n + (got > 0 ? (size_t)got : 0);
}

/* The ignored keys of one reason, in the table's order, then the reason. */
static size_t note_group(const struct rtapp_file *f, size_t first, char *buf, size_t len,
			 size_t n, bool *begun)
{
	const char *why = ignored_keys[first].why;
	size_t keys = 0;

	for (size_t i = first; i < ARRAY_SIZE(ignored_keys); i++) {
		if (strcmp(ignored_keys[i].why, why) || !was_ignored(f, ignored_keys[i].key))
			continue;
		n = append(buf, len, n, "%s%s", keys ? ", " : *begun ? "; " : "",
			   ignored_keys[i].key);
		keys++;
	}
	if (keys) {
		n = append(buf, len, n, " (%s)", why);
		*begun = true;
	}
	return n;
}

void rtapp_ignored_note(const struct rtapp_file *f, char *buf, size_t len)
{
	bool begun = false;
	size_t n;

	if (!len)
		return;
	buf[0] = '\0';
	if (!f->nignored)
		return;
	n = append(buf, len, 0, "%s: accepted without effect: ", f->path);
	for (size_t i = 0; i < ARRAY_SIZE(ignored_keys); i++) {
		size_t j = 0;

		while (j < i && strcmp(ignored_keys[j].why, ignored_keys[i].why))
			j++;
		if (j == i)	/* the first key of its reason: the group is told here */
			n = note_group(f, i, buf, len, n, &begun);
	}
}
