// SPDX-License-Identifier: GPL-2.0-or-later
/* run/progress.c - the progress line on a terminal: the row of the plan, its seconds, the
 * run's ETA. */
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "lib/util.h"
#include "model/workloads.h"
#include "model/plan.h"
#include "run/progress.h"

static struct {
	bool on;			/* stderr is a terminal and no -q */
	bool shown;			/* a line is on the screen now */
	int row, rows;			/* 1-based current row, of all rows */
	const char *bench, *load;
	uint64_t run_t0, row_t0, last_draw;
	double row_secs;		/* the row's measured seconds (-t) */
} progress;

void progress_clear(void)
{
	if (progress.shown)
		fputs("\r\033[K", stderr);
	progress.shown = false;
}

/* "[3/14] Audio vs Burn  12/31 s  ETA 19:48:05 (12 min left)", at most once a second. */
static void progress_draw(bool force)
{
	uint64_t now = now_ns(), done_ns, per_row_ns, left_ns;
	char eta[16];
	time_t t;
	struct tm tm;
	double in_row;

	if (!progress.on || !progress.bench ||
	    (!force && now - progress.last_draw < NSEC_PER_SEC))
		return;
	progress.last_draw = now;
	done_ns = progress.row_t0 - progress.run_t0;
	/* rows done so far tell the real cost of a row; before that, the plan's estimate */
	per_row_ns = progress.row > 1 ? done_ns / (uint64_t)(progress.row - 1) :
		     (uint64_t)((progress.row_secs + PLAN_SETTLE_S) * 1e9);
	in_row = (double)(now - progress.row_t0) / 1e9;
	left_ns = per_row_ns * (uint64_t)(progress.rows - progress.row + 1);
	left_ns = left_ns > now - progress.row_t0 ? left_ns - (now - progress.row_t0) : 0;
	t = time(NULL) + (time_t)(left_ns / NSEC_PER_SEC);
	localtime_r(&t, &tm);
	strftime(eta, sizeof(eta), "%H:%M:%S", &tm);
	fprintf(stderr, "\r\033[K[%d/%d] %s vs %s  %.0f/%g s  ETA %s (%.0f min left)",
		progress.row, progress.rows, progress.bench, progress.load, in_row,
		progress.row_secs + 1, eta, (double)left_ns / 60e9);
	fflush(stderr);
	progress.shown = true;
}

void progress_start(const struct plan *p, double row_secs, bool on)
{
	progress.on = on;
	progress.rows = p->ncells;
	progress.row_secs = row_secs;
	progress.run_t0 = now_ns();
}

void progress_row(const struct cell *c, const char *name)
{
	progress.row++;
	progress.bench = name;
	progress.load = workloads[c->load].name;
	progress.row_t0 = now_ns();
	progress_draw(true);
}

/* The row starts again (Ctrl-Z discarded it): its seconds count from now. */
void progress_restart_row(void)
{
	progress.row_t0 = now_ns();
}

/* A pause of ns (Ctrl-Z) is no part of the run's time. */
void progress_pause(uint64_t ns)
{
	progress.run_t0 += ns;
}

void progress_tick(void)
{
	progress_draw(false);
}
