// SPDX-License-Identifier: GPL-2.0-or-later
/* task/rtapp_watch.c - the rt-app engine's watchdog: whether every thread left is blocked on
 * another, and the deadlock told thread by thread. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "task/rtapp_engine.h"

static bool blocked(enum rt_state s)
{
	return s == RT_LOCK || s == RT_COND || s == RT_BARRIER;
}

/*
 * Every thread that has not ended waits on a mutex, a condition or a
 * barrier: none of them can wake another, and a timer wakes none of them.
 */
bool rt_all_blocked(const struct rt_run *run)
{
	int waiting = 0;

	for (int i = 0; i < run->nthr; i++) {
		const struct rt_thread *thr = &run->thr[i];

		if (atomic_load(&thr->end))
			continue;
		if (!blocked(rt_doing_state(atomic_load(&thr->doing))))
			return false;
		waiting++;
	}
	return waiting > 0;
}

/* "A" or, for one of several instances, "A#2". */
static void name_of(const struct rt_thread *thr, char *buf, size_t len)
{
	if (thr->t->instances > 1)
		snprintf(buf, len, "%s#%d", thr->t->name, thr->inst);
	else
		snprintf(buf, len, "%s", thr->t->name);
}

static size_t add(char *buf, size_t len, size_t used, const char *s)
{
	size_t n = strlen(s);

	if (used + 1 >= len)
		return used;
	if (n > len - used - 1)
		n = len - used - 1;
	memcpy(buf + used, s, n);
	buf[used + n] = '\0';
	return used + n;
}

/* "suspend 'S', holding 'M'" or "lock 'M', held by A": what thr waits on. */
static void waits_on(const struct rt_run *run, const struct rt_thread *thr, char *buf, size_t len)
{
	int d = atomic_load(&thr->doing), r = rt_doing_res(d), h;
	char part[160], who[RTAPP_RUN_NAME_LEN + 8];
	size_t used;

	snprintf(part, sizeof(part), "%s '%s'", rt_doing_state(d) == RT_LOCK ? "lock" :
		 rtapp_kind_name((enum rtapp_kind)rt_doing_kind(d)), r >= 0 ? run->f->res[r].name :
		 "?");
	used = add(buf, len, 0, part);
	h = r >= 0 && rt_doing_state(d) == RT_LOCK ? atomic_load(&run->rs[r].holder) : -1;
	if (h >= 0) {
		name_of(&run->thr[h], who, sizeof(who));
		snprintf(part, sizeof(part), ", held by %s", who);
		used = add(buf, len, used, part);
	}
	for (size_t m = 0; m < run->f->nres; m++) {
		if (run->f->res[m].type != RTAPP_RES_MUTEX ||
		    atomic_load(&run->rs[m].holder) != thr->idx)
			continue;
		snprintf(part, sizeof(part), ", holding '%s'", run->f->res[m].name);
		used = add(buf, len, used, part);
	}
}

/*
 * The run's reason, naming every thread left and what it waits on, and
 * each one's object told what its first instance there waited on.
 */
void rt_say_deadlock(struct rt_run *run, uint64_t still_ns)
{
	char msg[1024], what[256], who[RTAPP_RUN_NAME_LEN + 8];
	bool first = true;
	size_t used;

	snprintf(msg, sizeof(msg), "deadlock: no thread made progress for %.1f s, each waiting "
		 "on another:", (double)still_ns / 1e9);
	used = strlen(msg);
	for (int i = 0; i < run->nthr; i++) {
		struct rt_thread *thr = &run->thr[i];
		struct rtapp_obj_result *o = &run->obj[thr->obj];

		if (atomic_load(&thr->end))
			continue;
		thr->deadlocked = true;
		waits_on(run, thr, what, sizeof(what));
		if (!o->waits_on[0])
			add(o->waits_on, sizeof(o->waits_on), 0, what);
		name_of(thr, who, sizeof(who));
		used = add(msg, sizeof(msg), used, first ? " " : "; ");
		first = false;
		used = add(msg, sizeof(msg), used, who);
		used = add(msg, sizeof(msg), used, " (");
		used = add(msg, sizeof(msg), used, what);
		used = add(msg, sizeof(msg), used, ")");
	}
	if (used >= REASON_LEN - 1)
		memcpy(msg + REASON_LEN - 4, "...", 4);
	add(run->res->reason, sizeof(run->res->reason), 0, msg);
}
