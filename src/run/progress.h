/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run/progress.h - the progress line, on a terminal only. */
#ifndef RUN_PROGRESS_H
#define RUN_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct cell;
struct plan;

/* progress.c: the progress line, on a terminal only */
void progress_start(const struct plan *p, double row_secs, bool on);
void progress_row(const struct cell *c, const char *name);	/* its table's */
void progress_restart_row(void);
void progress_pause(uint64_t ns);
void progress_clear(void);
void progress_tick(void);

#endif
