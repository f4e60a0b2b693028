/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run/runlock.h - one run at a time per machine: the lock, and its holder found from the kernel. */
#ifndef RUN_RUNLOCK_H
#define RUN_RUNLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* runlock.c: one run at a time per machine */
int lock_format(char *buf, size_t len, long pid, time_t start);
int lock_parse(const char *text, long *pid, time_t *start);
long lock_holder(const char *locks, unsigned maj, unsigned min, unsigned long ino);
int run_lock(time_t start, char *err, size_t errlen);
bool exe_is_interbench(const char *exe);	/* a /proc/PID/exe link's text */

#endif
