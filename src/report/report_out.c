// SPDX-License-Identifier: GPL-2.0-or-later
/* report/report_out.c - what every table of the text shares: its bytes to the terminal and the
 * log, the load's cell, the unit, a heading's end, the notes at a row's end. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/frames.h"
#include "lib/numfmt.h"
#include "lib/util.h"
#include "model/kinds.h"
#include "model/config.h"
#include "model/log_format.h"
#include "report/report.h"

/* Text goes to the terminal and, unless -c, to the log: the same bytes. */
void report_out(struct report *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(o->text, fmt, ap);
	va_end(ap);
	fflush(o->text);
	if (o->log) {
		int bad;

		va_start(ap, fmt);
		bad = vfprintf(o->log, fmt, ap) < 0;
		va_end(ap);
		if (bad || fflush(o->log) == EOF) {
			warn("cannot write the log: %s; going on without it", strerror(errno));
			fclose(o->log);
			o->log = NULL;
		}
	}
}

/*
 * A row's first column: the load, and with --vary its variant's letter
 * ("Burn/B"), padded so that every row's tab lands on the same stop.
 */
void report_load_cell(struct report *o, const struct run_record *rec, const char *load,
		      int variant)
{
	char cell[RES_NAME_LEN + 4];

	if (!rec->cfg->nvariants) {
		report_out(o, "%s\t", load);
		return;
	}
	if (variant < 0)
		snprintf(cell, sizeof(cell), "%s", load);	/* the column's head */
	else
		snprintf(cell, sizeof(cell), "%s/%c", load, 'A' + variant);
	report_out(o, "%-8s\t", cell);
}

double report_unit_ns(const struct run_record *rec)
{
	return rec->cfg->realtime ? 1e3 : 1e6;	/* us for -r, else ms */
}

/* With --ncpus, a table's heading ends with its count: "--- (2 CPUs)"; else as 0.31's. */
void report_heading_end(struct report *o, int ncpus)
{
	if (ncpus)
		report_out(o, "%s%d CPU%s)\n", LOG_MARK(LM_NCPUS), ncpus, ncpus == 1 ? "" : "s");
	else
		report_out(o, "---\n");
}

/* After a row's load intensity: that its file was in memory or in the page cache, and why
 * the row was marked. */
void report_load_notes(struct report *o, const struct result *r)
{
	if (!strcmp(r->medium, RES_MEDIUM_MEMORY))
		report_out(o, " %s", LOG_MARK(LM_MEMORY_NOTE));
	else if (!strcmp(r->medium, RES_MEDIUM_CACHE))
		report_out(o, " %s", LOG_MARK(LM_CACHE_NOTE));
	if (r->reason[0])
		report_out(o, " (%s)", r->reason);
}

/* One column's cell of result r, after the column's separator: a share, a count, or three
 * significant digits (a latency in unit_ns). */
void report_column_cell(struct report *o, const struct log_column *c, const struct result *r,
			double unit_ns)
{
	char v[32];

	if (c->flags & LC_PCT)
		fmt_pct(v, sizeof(v), r->value[c->field], 0);
	else if ((c->flags & LC_COUNT) && isfinite(r->value[c->field]))
		snprintf(v, sizeof(v), "%.0f", r->value[c->field]);
	else
		fmt_sig3(v, sizeof(v), r->value[c->field] / (c->flags & LC_LATENCY ? unit_ns : 1));
	report_out(o, "%s%*s", c->sep, c->width, v);
}

/* The table's end: a blank line, then the footnote of the marks its rows carry (a blank
 * line after it), and the marks cleared for the next table. */
void report_marks_note(struct report *o)
{
	char note[1024];

	report_out(o, "\n");
	if (o->table_marks) {
		result_marks_note(o->table_marks, note, sizeof(note));
		report_out(o, "%s\n\n", note);
		o->table_marks = 0;
	}
}

/*
 * --instances: the row pools its copies; the note names the one with the
 * highest p99: of its wake-ups, or of a chain's frame or cycle time.
 */
void report_worst_note(struct report *o, const struct run_record *rec, const struct result *r)
{
	const struct instance_set *s = r->inst;
	const struct instance_fig *f;
	bool chained;
	char v[32];

	if (!s)
		return;
	f = &s->f[s->worst];
	chained = result_chain_unit(r) && isfinite(f->chain_p99_ns);
	if (!isfinite(chained ? f->chain_p99_ns : f->p99_ns))
		return;		/* a file's thread that no copy saw woken */
	fmt_sig3(v, sizeof(v), (chained ? f->chain_p99_ns : f->p99_ns) / report_unit_ns(rec));
	report_out(o, "  [worst of %d instances: #%d, %s%sp99 %s %s]", s->n, s->worst + 1,
	    chained ? result_chain_unit(r) : "", chained ? " " : "", v,
	    rec->cfg->realtime ? "us" : "ms");
}

/* "6/14/4": the passes a 10 % change of mean, p99 (and deadlines met) would need; "-" unknown. */
const char *report_power_text(char *buf, size_t len, const struct pass_summary *s, bool dl)
{
	size_t n = 0;

	for (int m = 0; m < (dl ? 3 : 2) && n < len; m++) {
		if (s->power[m] > 0)
			n += (size_t)snprintf(buf + n, len - n, "%s%d", m ? "/" : "", s->power[m]);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s-", m ? "/" : "");
	}
	return buf;
}

