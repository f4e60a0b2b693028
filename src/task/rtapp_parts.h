/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task/rtapp_parts.h - what the rt-app workload file's own sources share: the reader's state,
 * its one-line messages, the events' parser and the lock checks; only task/rtapp_*.c use it. */
#ifndef TASK_RTAPP_PARTS_H
#define TASK_RTAPP_PARTS_H

#include "core/defs.h"
#include "task/rtapp.h"

#define RTAPP_WHERE_LEN 256

/* The model while it is read from the tree. */
struct rtapp_builder {
	struct rtapp_file *f;
	char *err;
	size_t errlen;
	const char *thread;		/* the thread being read: a bare suspend's name */
	char where[RTAPP_WHERE_LEN];	/* "tasks.T.phases.P", for messages */
	struct rtapp_res *res;		/* malloc()ed while it grows, then moved to f->mem */
	size_t nres, cap;
	int *slot;			/* res by type and name: open addressing, -1 empty */
	size_t nslots;			/* a power of two, at least twice nres */
};

/* "FILE:LINE: WHERE: what" into err; returns -1. */
int rtapp_fail(const char *path, char *err, size_t errlen, int line, const char *where,
	       const char *fmt, ...) PRINTF(6, 7);
/* The same for the builder's file and place. */
int rtapp_bad(struct rtapp_builder *b, int line, const char *fmt, ...) PRINTF(3, 4);

/* "tasks.T" or "tasks.T.phases.P": where a thread's phase is in its file. */
void rtapp_where(const struct rtapp_thread *t, const struct rtapp_phase *p, char *buf,
		 size_t len);

/* Whether member m is an event as rt-app reads it: 0 one interbench runs, 1 not an event,
 * -1 (err set) one it refuses. */
int rtapp_event_key(struct rtapp_builder *b, const struct json_member *m);
#define RTAPP_EVENTS "run, runtime, sleep, timer, suspend, resume, lock, unlock, wait, " \
		     "signal, broad, sync, barrier, yield"
/* The event of member m into ev; -1 (err set) if refused. */
int rtapp_parse_event(struct rtapp_builder *b, const struct json_member *m,
		      struct rtapp_event *ev);
/* The builder's resources moved into the file's arena; -1 (err set) without memory. */
/* rtapp_thread.c: "tasks" into f->threads. */
int rtapp_read_tasks(struct rtapp_builder *b, const struct json_member *tasks);

int rtapp_keep_res(struct rtapp_builder *b);
void rtapp_builder_free(struct rtapp_builder *b);

/* rtapp_locks.c: what each phase does with its mutexes, and the order threads take them. */
int rtapp_check_locks(const struct rtapp_file *f, char *err, size_t errlen);
int rtapp_check_lock_order(const struct rtapp_file *f, char *err, size_t errlen);

#endif
