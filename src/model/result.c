// SPDX-License-Identifier: GPL-2.0-or-later
/* model/result.c - a result: made empty, what its marks and status say, its name as the outputs
 * write it. */
#include <math.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/latency_strip.h"
#include "lib/numfmt.h"
#include "model/kinds.h"
#include "model/config.h"
#include "model/metrics.h"
#include "model/plan.h"
#include "model/result.h"
#include "model/workloads.h"

void result_init(struct result *r)
{
	memset(r, 0, sizeof(*r));
	for (int k = 0; k < RF_COUNT; k++)
		r->value[k] = NAN;
}

/*
 * The row's latency over time from its period records (core/latency_strip.h), kept
 * in r; none for Gaming, which has no wake-ups. 0, or -ENOMEM (r then has
 * none).
 */
int result_set_strip(struct result *r, const struct period_log *h, const struct period_rec *rec,
		     size_t n, uint64_t row_start, double seconds)
{
	free(r->strip);
	r->strip = NULL;
	if (!h->num)
		return 0;
	r->strip = malloc(sizeof(*r->strip));
	if (!r->strip || strip_of(h, rec, n, row_start, seconds, r->strip)) {
		free(r->strip);
		r->strip = NULL;
		return -ENOMEM;
	}
	return 0;
}

const char *status_name(int status)
{
	switch (status) {
	case ROW_OK: return "ok";
	case ROW_FAILED: return "failed";
	default: return "skipped";
	}
}

/*
 * The marks of a row, fastest being the highest loop_speed of the run so
 * far, and their text for the row's end ("" when none): what was off, by
 * how much.
 */
/*
 * A load's work as the table and --compare show it (v: a result's or a
 * summary's numbers): its intensity, then the rest of its work after " + ":
 * "1284 MiB/s + 1.62 CPUs" (Compile's CPU side), "1.02 CPUs + 3 restarts"
 * (Command's); "-" when not measured.
 */
void load_work_text(char *buf, size_t len, const double *v, const char *unit)
{
	char a[32], b[32];
	size_t n;

	if (!isfinite(v[RF_INTENSITY])) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_sig3(a, sizeof(a), v[RF_INTENSITY]);
	n = (size_t)snprintf(buf, len, "%s%s%s", a, *unit ? " " : "", unit);
	fmt_sig3(b, sizeof(b), v[RF_LOAD_CPUS]);
	if (isfinite(v[RF_LOAD_CPUS]) && strcmp(unit, "CPUs") && n < len)
		n += (size_t)snprintf(buf + n, len - n, " + %s CPUs", b);
	if (isfinite(v[RF_LOAD_RESTARTS]) && n < len)
		snprintf(buf + n, len - n, " + %.0f restart%s", v[RF_LOAD_RESTARTS],
			 v[RF_LOAD_RESTARTS] == 1 ? "" : "s");
}

/* 1 when a load's CPU side kept under LOAD_SHORT_OF of the CPUs due it busy, else 0; NAN. */
double load_short(double cpus, double due)
{
	if (!isfinite(cpus) || !isfinite(due) || cpus < 0)
		return NAN;
	return cpus < LOAD_SHORT_OF * due ? 1.0 : 0.0;
}

/* The marks of what ran beside the task: the load short of its CPUs, tasks not of the run. */
static unsigned result_load_marks(const struct result *r, char *buf, size_t len, size_t n)
{
	unsigned m = 0;

	if (r->value[RF_LOAD_SHORT] == 1.0 && n < len) {
		m |= MARK_LOAD_SHORT;
		n += (size_t)snprintf(buf + n, len - n, "%sload %.2f of %.2f CPUs", n ? ", " : "",
				      r->value[RF_LOAD_CPUS], r->value[RF_LOAD_DUE]);
	}
	if (r->value[RF_FOREIGN_CPU] > MARK_FOREIGN_PCT && n < len) {
		m |= MARK_FOREIGN;
		n += (size_t)snprintf(buf + n, len - n, "%sforeign %.0f%% CPU", n ? ", " : "",
				      r->value[RF_FOREIGN_CPU]);
		if (r->foreign_top[0] && n < len)
			snprintf(buf + n, len - n, ", top %s %.0f%%", r->foreign_top,
				 r->value[RF_FOREIGN_TOP_CPU]);
	}
	return m;
}

unsigned result_marks(const struct result *r, double fastest, char *buf, size_t len)
{
	double ratio = r->value[RF_WORK_RATIO], speed = r->value[RF_LOOP_SPEED];
	double periods = r->value[RF_MET] + r->value[RF_MISSED] + r->value[RF_DROPPED];
	unsigned m = 0;
	size_t n = 0;

	buf[0] = '\0';
	if (r->status != ROW_OK)
		return 0;
	if (r->rtapp)	/* a file's thread does more than its run: its ratio, speed say little */
		ratio = speed = NAN;
	if (isfinite(ratio) && fabs(ratio - 1.0) > MARK_WORK_OFF) {
		m |= MARK_WORK;
		n += (size_t)snprintf(buf + n, len - n, "work_ratio %.2f", ratio);
	}
	if (isfinite(speed) && fastest > 0 && speed < fastest * (1.0 - MARK_SPEED_BELOW) &&
	    n < len) {
		m |= MARK_SPEED;
		n += (size_t)snprintf(buf + n, len - n, "%sloop_speed %.0f%%", n ? ", " : "",
				      100.0 * (speed / fastest - 1.0));
	}
	if (isfinite(periods) && isfinite(r->value[RF_SAMPLES]) && r->value[RF_SAMPLES] < periods &&
	    n < len) {
		m |= MARK_SAMPLES;
		n += (size_t)snprintf(buf + n, len - n, "%s%.0f samples, %.0f periods",
				      n ? ", " : "", r->value[RF_SAMPLES], periods);
	}
	if (r->rtapp && r->value[RF_SAMPLES] == 0 && n < len) {
		m |= MARK_UNTIMED;
		n += (size_t)snprintf(buf + n, len - n, "%sno timed wake-up", n ? ", " : "");
	}
	return m | result_load_marks(r, buf, len, n);
}

/* The one footnote line under a table: what the marks in it mean. */
void result_marks_note(unsigned marks, char *buf, size_t len)
{
	static const struct { unsigned mark; const char *text; } notes[] = {
		{ MARK_WORK, "work_ratio: task CPU time / the work of its periods, off 1 by over 3 %" },
		{ MARK_SPEED, "loop_speed: loop iterations per CPU us, over 10 % below the run's "
			      "fastest row" },
		{ MARK_SAMPLES, "fewer samples than periods: a period begun while the task still "
				"worked has no wakeup" },
		{ MARK_UNTIMED, "no timed wake-up: the thread was woken only by other threads (a "
				"signal, a broadcast, a lock), or never; latency is timed from a "
				"timer or a resume, whose instant is known" },
		{ MARK_LOAD_SHORT, "load: its CPU side kept under 90 % of the CPUs due it busy (its "
				   "threads' CPUs, less the task's and its I/O's)" },
		{ MARK_FOREIGN, "foreign: tasks not of this run used that much of one CPU over the "
				"row, the busiest named" },
	};
	size_t n = (size_t)snprintf(buf, len, "[...]:");

	for (size_t i = 0; i < ARRAY_SIZE(notes) && n < len; i++)
		if (marks & notes[i].mark)
			n += (size_t)snprintf(buf + n, len - n, "%s %s", n > 6 ? ";" : "",
					      notes[i].text);
}

/* A number as JSON and CSV keep it (model/metrics.c: some to 0.001). */
double result_file_value(const struct result *r, int field)
{
	const struct metric *m = metric_of(field);

	return m ? metric_value(m, r) : r->value[field];
}

/* The position among the registry's workloads that have flag; unknown names after. */
static int rank_in_registry(const char *name, unsigned flag)
{
	int k = 0;

	for (size_t i = 0; i < nr_workloads; i++) {
		if (!(workloads[i].flags & flag))
			continue;
		if (!strcasecmp(workloads[i].name, name))
			return k;
		k++;
	}
	return k;
}

int bench_rank(const char *name)
{
	return rank_in_registry(name, WL_BENCH);
}

int load_rank(const char *name)
{
	return rank_in_registry(name, WL_LOAD);
}

/*
 * The group a cell's row measured its benchmark in (-W A+B), or the
 * workload file whose threads it ran: its name, or "" alone.
 */
const char *cell_group_name(const struct config *cfg, const struct cell *c)
{
	const char *own = cell_kind_table_name(cfg, c);

	if (own)
		return own;
	return c->group > 0 && c->group <= cfg->ngroups ? cfg->groups[c->group - 1].name : "";
}

/* The numbers that may be below 0, which the readers take with their sign. */
bool result_signed(int field)
{
	const struct metric *m = metric_of(field);

	return m && (m->flags & MF_SIGNED);
}

/*
 * A benchmark as the outputs name it in a row of its own: "Video" alone,
 * "Video@Desktop" or "Video@Audio+Video" as a member of a group (-W A+B).
 */
void member_label(char *buf, size_t len, const char *bench, const char *group)
{
	snprintf(buf, len, "%s%s%s", bench, *group ? "@" : "",
		 !strcmp(group, GROUP_DESKTOP) ? "Desktop" : group);
}

