// SPDX-License-Identifier: GPL-2.0-or-later
/* compare/compare_text.c - --compare's text: the runs, a table per benchmark with relative
 * changes, the verdicts under it, and the warning when runs differ in several settings. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/util.h"
#include "compare/compare.h"
#include "verdicts/verdicts.h"
#include "model/config.h"
#include "lib/numfmt.h"
#include "model/log_format.h"
#include "model/metrics.h"

#define CMP_WIDTH 100		/* two runs must fit, for mail */
#define CMP_VALUE_WIDTH 6	/* characters of a latency: costs only decimals */
#define CMP_PCT_WIDTH 4		/* of a percentage */

/* ---- the text ---- */

#define CELL_LEN 24

struct text_cell {		/* a run's number of a column, and its change against [1] */
	char v[CELL_LEN], chg[CELL_LEN];
};

struct text_row {		/* one printed row: the load and each run's cells */
	char load[RES_NAME_LEN];
	struct text_cell (*cell)[CMP_COLS_MAX];	/* [run][column] */
	bool *pm;				/* [run]: print "+/-" */
};

struct text_table {
	int nruns, nrows;
	struct text_row *rows;
	int w_load;
	int w[MAX_COMPARE][CMP_COLS_MAX], wchg[MAX_COMPARE][CMP_COLS_MAX];
	bool has[CMP_COLS_MAX];		/* a CC_IF_ANY column: some cell has it */
	bool dash, failed, changes;
	int shown[MAX_COMPARE], nshown;	/* the runs that measured something of the table */
};

/* The table's columns: the metrics' rows that have one (model/metrics.c), in their order. */
static const struct metric *const *columns(int *n)
{
	static const struct metric *col[CMP_COLS_MAX];
	static int ncol = -1;

	if (ncol < 0) {
		ncol = 0;
		for (size_t i = 0; i < nr_metrics && ncol < CMP_COLS_MAX; i++)
			if (metrics[i].compare.head)
				col[ncol++] = &metrics[i];
	}
	*n = ncol;
	return col;
}

/* Did run r measure anything of table t (a pass, or a failed one)? */
static bool run_in_table(const struct cmp_table *t, int r, int nruns)
{
	for (int l = 0; l < t->nloads; l++)
		if (t->cells[l * nruns + r].s.npass || t->cells[l * nruns + r].s.nfail)
			return true;
	return false;
}

/* The strings of one cell of the table: a run's numbers for one load. */
static void fill_text(struct text_cell *s, bool *pm, const struct cmp_table *t, int l, int r,
		      int nruns, double unit, struct text_table *tt)
{
	const struct pass_summary *c = &t->cells[l * nruns + r].s, *ref = &t->cells[l * nruns].s;
	bool ref_ok = r > 0 && ref->npass > 0;
	int n;
	const struct metric *const *col = columns(&n);

	memset(s, 0, sizeof(*s) * CMP_COLS_MAX);
	*pm = c->npass > 0;
	if (!c->npass) {
		snprintf(s[0].v, CELL_LEN, "%s", c->nfail ? "failed" : "-");
		tt->failed |= c->nfail > 0;
		tt->dash |= !c->nfail;
		for (int k = 1; !c->nfail && k < n; k++)
			if (!(col[k]->compare.flags & CC_JOINED))
				snprintf(s[k].v, CELL_LEN, "-");
		return;
	}
	for (int k = 0; k < n; k++) {
		const struct compare_column *cc = &col[k]->compare;
		double v = c->value[col[k]->field];

		if (cc->sig)
			fmt_value(s[k].v, CELL_LEN, v / unit, cc->sig, CMP_VALUE_WIDTH);
		else
			fmt_pct(s[k].v, CELL_LEN, v, CMP_PCT_WIDTH);
		if (ref_ok && (cc->flags & CC_CHANGE))
			fmt_change(s[k].chg, CELL_LEN - 1, ref->value[col[k]->field], v);
		if (cc->flags & CC_IF_ANY)
			tt->has[k] |= isfinite(v);
	}
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

/* Width of run r's group, with gap spaces between its columns. */
static int group_width(const struct text_table *tt, int r, int gap)
{
	int n, width = 0;
	const struct metric *const *col = columns(&n);

	for (int k = 0, first = 1; k < n; k++) {
		if (!tt->has[k])
			continue;
		if (!first)
			width += col[k]->compare.flags & CC_JOINED ? 5 : gap;
		width += tt->w[r][k];
		if (tt->wchg[r][k])
			width += 1 + tt->wchg[r][k];
		first = 0;
	}
	return width;
}

/* The width of the runs' groups from[0, n) beside the Load column. */
static int line_width(const struct text_table *tt, const int *from, int n, int gap)
{
	int width = tt->w_load;

	for (int i = 0; i < n; i++)
		width += 3 + group_width(tt, from[i], gap);
	return width;
}

/* How many of the runs' groups from[0, n) fit in CMP_WIDTH beside Load: at least one. */
static int groups_that_fit(const struct text_table *tt, const int *from, int n, int gap)
{
	int k = 1;

	while (k < n && line_width(tt, from, k + 1, gap) <= CMP_WIDTH)
		k++;
	return k;
}

struct linebuf {
	char s[4096];
	size_t n;
};

static void lb_add(struct linebuf *lb, const char *s, int width, bool right)
{
	int len = (int)strlen(s), pad = width > len ? width - len : 0;

	if (len > width)
		len = width;
	if (lb->n + (size_t)len + (size_t)pad + 1 >= sizeof(lb->s))
		return;
	if (right) {
		memset(lb->s + lb->n, ' ', (size_t)pad);
		lb->n += (size_t)pad;
	}
	memcpy(lb->s + lb->n, s, (size_t)len);
	lb->n += (size_t)len;
	if (!right) {
		memset(lb->s + lb->n, ' ', (size_t)pad);
		lb->n += (size_t)pad;
	}
	lb->s[lb->n] = '\0';
}

/* Print the line without trailing spaces, and start the next one. */
static void lb_flush(FILE *out, struct linebuf *lb)
{
	while (lb->n && lb->s[lb->n - 1] == ' ')
		lb->n--;
	fprintf(out, "%.*s\n", (int)lb->n, lb->s);
	lb->n = 0;
	lb->s[0] = '\0';
}

/* Column k's change, if the table has one (s NULL: the header's blank). */
static void put_change(struct linebuf *lb, const struct text_table *tt, int r, int k,
		       const struct text_cell *s)
{
	if (k < 0 || !tt->wchg[r][k])
		return;
	lb_add(lb, "", 1, false);
	lb_add(lb, s ? s[k].chg : "", tt->wchg[r][k], false);
}

/*
 * One group's columns; s NULL prints the column header. A column's change
 * comes after the columns joined to it: "Mean +/- SD (+N%)".
 */
static void put_group(struct linebuf *lb, const struct text_table *tt, int r, int gap,
		      const struct text_cell *s, bool pm)
{
	int n, last = -1;
	const struct metric *const *col = columns(&n);

	for (int k = 0; k < n; k++) {
		bool joined = col[k]->compare.flags & CC_JOINED;

		if (!tt->has[k])
			continue;
		if (joined) {
			lb_add(lb, s && !pm ? "" : " +/- ", 5, false);
		} else if (last >= 0) {
			put_change(lb, tt, r, last, s);
			lb_add(lb, "", gap, false);
		}
		if (!joined)
			last = k;
		lb_add(lb, s ? s[k].v : col[k]->compare.head, tt->w[r][k], !joined);
	}
	put_change(lb, tt, r, last, s);
}

/* The runs' groups run[0, n): their labels over them, the column heads, a line per load. */
static void print_block(FILE *out, const struct cmp_input *in, const struct text_table *tt,
			const int *run, int n, int gap)
{
	struct linebuf lb = { .n = 0 };

	lb_add(&lb, "", tt->w_load, false);
	for (int i = 0; i < n; i++) {
		char label[600];
		int w = group_width(tt, run[i], gap);

		snprintf(label, sizeof(label), "[%d] %s", run[i] + 1, in[run[i]].label);
		if ((int)strlen(label) > w && w > 2)	/* cut, and says so: "--fps 14" misleads */
			memcpy(label + w - 2, "..", 3);
		lb_add(&lb, " | ", 3, false);
		lb_add(&lb, label, w, false);
	}
	lb_flush(out, &lb);
	lb_add(&lb, "Load", tt->w_load, false);
	for (int i = 0; i < n; i++) {
		lb_add(&lb, " | ", 3, false);
		put_group(&lb, tt, run[i], gap, NULL, false);
	}
	lb_flush(out, &lb);
	for (int l = 0; l < tt->nrows; l++) {
		lb_add(&lb, tt->rows[l].load, tt->w_load, false);
		for (int i = 0; i < n; i++) {
			lb_add(&lb, " | ", 3, false);
			put_group(&lb, tt, run[i], gap, tt->rows[l].cell[run[i]],
				  tt->rows[l].pm[run[i]]);
		}
		lb_flush(out, &lb);
	}
}

struct nobreak {
	size_t from, to;	/* no line break at a space in text[from, to) */
};

static bool no_break_at(const struct nobreak *nb, int nnb, size_t at)
{
	for (int i = 0; i < nnb; i++)
		if (at >= nb[i].from && at < nb[i].to)
			return true;
	return false;
}

/*
 * Words of text, wrapped to CMP_WIDTH columns except at the spaces of nb
 * (kept as they are, never a line break: a line may pass CMP_WIDTH there).
 */
static void print_wrapped(FILE *out, const char *text, const struct nobreak *nb, int nnb)
{
	const char *start = text;
	int col = 0;

	while (*text) {
		size_t n = strcspn(text, " ");

		while (text[n] == ' ' && no_break_at(nb, nnb, (size_t)(text + n - start)))
			n += 1 + strcspn(text + n + 1, " ");
		if (col && col + 1 + (int)n > CMP_WIDTH) {
			fputc('\n', out);
			col = 0;
		} else if (col) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)n, text);
		col += (int)n;
		text += n;
		text += strspn(text, " ");
	}
	if (col)
		fputc('\n', out);
}

/* What the marks mean and how many passes each number averages. */
static void print_legend(FILE *out, const struct cmp_table *t, const struct text_table *tt,
			 int nruns)
{
	char text[2048];
	size_t n = 0;

	n += (size_t)snprintf(text + n, sizeof(text) - n, "Passes averaged:");
	for (int i = 0; i < tt->nshown && n < sizeof(text); i++) {
		int lo = 0, hi = 0, r = tt->shown[i];
		const char *end = i + 1 < tt->nshown ? "," : ".";

		for (int l = 0; l < t->nloads; l++) {
			int p = t->cells[l * nruns + r].s.npass;

			if (!p)
				continue;
			lo = lo ? (p < lo ? p : lo) : p;
			hi = p > hi ? p : hi;
		}
		if (!hi)
			n += (size_t)snprintf(text + n, sizeof(text) - n, " [%d] -%s", r + 1, end);
		else if (lo == hi)
			n += (size_t)snprintf(text + n, sizeof(text) - n, " [%d] %d%s", r + 1, hi,
					      end);
		else
			n += (size_t)snprintf(text + n, sizeof(text) - n, " [%d] %d-%d%s", r + 1,
					      lo, hi, end);
	}
	for (int r = 0, k = 0; tt->nshown < nruns && r < nruns && n < sizeof(text); r++) {
		if (run_in_table(t, r, nruns))
			continue;
		k++;
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s[%d]%s",
				      k > 1 ? ", " : " Not run here: ", r + 1,
				      k == nruns - tt->nshown ? "." : "");
	}
	if (tt->changes && n < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      " (+N%%): change of the mean or max against [1], whether "
				      "noise or not: the verdicts say.");
	if (tt->dash && n < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n, " -: not measured in that run.");
	if (tt->failed && n < sizeof(text))
		snprintf(text + n, sizeof(text) - n, " failed: every pass of that row failed.");
	print_wrapped(out, text, NULL, 0);
}

/*
 * Under a benchmark's table, its verdicts: each run's passes against [1]'s.
 * Where no cell has the passes any verdict needs, one line says so.
 */
static void print_verdicts(FILE *out, const struct verdict_table *vt, const struct cmp_table *t)
{
	char text[400];
	struct sbuf sb;

	switch (verdicts_shown(vt, t->bench, t->group, t->realtime, text, sizeof(text))) {
	case VS_NONE:
		return;
	case VS_TOO_FEW:
		print_wrapped(out, text, NULL, 0);
		fputc('\n', out);
		return;
	}
	sb_init(&sb);
	verdicts_print(&sb, vt, t->bench, t->group, t->realtime, t->ncpus);
	if (!sb.failed && sb.len)
		fwrite(sb.buf, 1, sb.len, out);
	sb_free(&sb);
}

/* A cell's load intensity and notes: "1.94 CPUs", "0 MiB/s [memory, not a disk] (...)". */
static bool intensity_text(char *buf, size_t len, const struct cmp_cell *c)
{
	const char *unit = "", *medium = "", *reason = "";
	char v[96];
	size_t n;

	for (int i = 0; i < c->nres; i++) {
		const struct result *o = c->res[i];

		if (o->status != ROW_OK)
			continue;
		unit = *unit ? unit : o->unit;
		medium = *medium ? medium : o->medium;
		reason = *reason ? reason : o->reason;
	}
	if (!c->s.npass || (!isfinite(c->s.value[RF_INTENSITY]) && !*reason &&
			    strcmp(medium, RES_MEDIUM_MEMORY) && strcmp(medium, RES_MEDIUM_CACHE)))
		return false;
	load_work_text(v, sizeof(v), c->s.value, unit);
	n = (size_t)snprintf(buf, len, "%s", v);
	if (!strcmp(medium, RES_MEDIUM_MEMORY) && n < len)
		n += (size_t)snprintf(buf + n, len - n, " %s", LOG_MARK(LM_MEMORY_NOTE));
	else if (!strcmp(medium, RES_MEDIUM_CACHE) && n < len)
		n += (size_t)snprintf(buf + n, len - n, " %s", LOG_MARK(LM_CACHE_NOTE));
	if (*reason && n < len)
		snprintf(buf + n, len - n, " (%s)", reason);
	return true;
}

/*
 * Under a table: each load whose runs differ in the CPU that tasks not of
 * them used (one over MARK_FOREIGN_PCT, and apart by more than it), which
 * took CPU from one run and not the other: its runs' figures.
 */
static void print_foreign(FILE *out, const struct cmp_table *t, int nruns)
{
	for (int l = 0; l < t->nloads; l++) {
		double lo = INFINITY, hi = -INFINITY;

		for (int r = 0; r < nruns; r++) {
			double f = t->cells[l * nruns + r].s.value[RF_FOREIGN_CPU];

			if (t->cells[l * nruns + r].s.npass && isfinite(f)) {
				lo = fmin(lo, f);
				hi = fmax(hi, f);
			}
		}
		if (!(hi > MARK_FOREIGN_PCT && hi - lo > MARK_FOREIGN_PCT))
			continue;
		fprintf(out, "Foreign CPU under %s differs (tasks not of the runs, %% of one CPU):",
			t->loads[l]);
		for (int r = 0; r < nruns; r++) {
			double f = t->cells[l * nruns + r].s.value[RF_FOREIGN_CPU];

			if (t->cells[l * nruns + r].s.npass && isfinite(f))
				fprintf(out, " [%d] %.0f%%", r + 1, f);
		}
		fputc('\n', out);
	}
}

/* Under a table: each load's intensity in each run, and what its load noted. */
static void print_intensity(FILE *out, const struct cmp_table *t, int nruns)
{
	bool heading = false;
	int w = 0;

	for (int l = 0; l < t->nloads; l++)
		w = imax(w, (int)strlen(t->loads[l]));
	for (int l = 0; l < t->nloads; l++) {
		int col = 0;	/* 0: nothing of this load printed yet */

		for (int r = 0; r < nruns; r++) {
			char text[400];
			int len;

			if (!intensity_text(text, sizeof(text), &t->cells[l * nruns + r]))
				continue;
			if (!heading)
				fprintf(out, "Load intensity:\n");
			len = 2 + snprintf(NULL, 0, "[%d] %s", r + 1, text);
			if (!col)	/* the load's name, then its runs, wrapped under the first */
				col = fprintf(out, "  %-*s", w, t->loads[l]);
			else if (col + len > CMP_WIDTH && col > w + 2)
				col = fprintf(out, "\n  %-*s", w, "") - 1;
			col += fprintf(out, "  [%d] %s", r + 1, text);
			heading = true;
		}
		if (col)
			fputc('\n', out);
	}
	print_foreign(out, t, nruns);
}

static void print_table(FILE *out, const struct cmp_input *in, const struct cmp_table *t,
			int nruns, const struct verdict_table *vt)
{
	struct text_table tt = { .nruns = nruns, .nrows = t->nloads };
	double unit = t->realtime ? 1e3 : 1e6;
	int gap = 2, ncol;
	const struct metric *const *col = columns(&ncol);

	tt.rows = calloc((size_t)t->nloads + 1, sizeof(*tt.rows));
	if (!tt.rows)
		return;
	tt.w_load = 4;
	for (int k = 0; k < ncol; k++)
		tt.has[k] = !(col[k]->compare.flags & CC_IF_ANY);
	for (int r = 0; r < nruns; r++) {
		for (int k = 0; k < ncol; k++)
			tt.w[r][k] = (int)strlen(col[k]->compare.head);
		if (run_in_table(t, r, nruns))
			tt.shown[tt.nshown++] = r;
	}
	for (int l = 0; l < t->nloads; l++) {
		struct text_row *row = &tt.rows[l];

		snprintf(row->load, sizeof(row->load), "%s", t->loads[l]);
		tt.w_load = imax(tt.w_load, (int)strlen(row->load));
		row->cell = calloc((size_t)nruns, sizeof(*row->cell));
		row->pm = calloc((size_t)nruns, sizeof(*row->pm));
		if (!row->cell || !row->pm)
			goto out;
		for (int i = 0; i < tt.nshown; i++) {
			int r = tt.shown[i];

			fill_text(row->cell[r], &row->pm[r], t, l, r, nruns, unit, &tt);
			for (int k = 0; k < ncol; k++) {
				const struct text_cell *tc = &row->cell[r][k];

				tt.w[r][k] = imax(tt.w[r][k], (int)strlen(tc->v));
				tt.wchg[r][k] = imax(tt.wchg[r][k], (int)strlen(tc->chg));
				tt.changes |= tc->chg[0] != '\0';
			}
		}
	}
	if (line_width(&tt, tt.shown, tt.nshown, gap) > CMP_WIDTH)
		gap = 1;

	fprintf(out, "--- %s%s", t->bench, t->realtime ? " real time" : "");
	if (t->group[0])
		fprintf(out, " %s %s", t->rtapp ? "of rt-app workload" : "in group", t->group);
	if (t->ncpus)
		fprintf(out, " on %d CPU%s", t->ncpus, t->ncpus == 1 ? "" : "s");
	fprintf(out, ": %s in %s ---\n", cmp_latency_name(in, nruns), t->realtime ? "us" : "ms");
	for (int b = 0, k; b < tt.nshown; b += k) {	/* as many runs as fit, block by block */
		k = groups_that_fit(&tt, tt.shown + b, tt.nshown - b, gap);
		if (b)
			fputc('\n', out);
		print_block(out, in, &tt, tt.shown + b, k, gap);
	}
	print_intensity(out, t, nruns);
	print_legend(out, t, &tt, nruns);
	fputc('\n', out);
	print_verdicts(out, vt, t);
out:
	for (int l = 0; l < t->nloads; l++) {
		free(tt.rows[l].cell);
		free(tt.rows[l].pm);
	}
	free(tt.rows);
}

/* "202611291936" and "2026-11-29T19:36:00+01:00" both as "2026-11-29 19:36". */
void pretty_date(char *buf, size_t len, const char *d)
{
	if (strlen(d) == 12 && strspn(d, "0123456789") == 12)
		snprintf(buf, len, "%.4s-%.2s-%.2s %.2s:%.2s", d, d + 4, d + 6, d + 8, d + 10);
	else if (strlen(d) >= 16 && d[4] == '-' && d[7] == '-' && d[10] == 'T' && d[13] == ':')
		snprintf(buf, len, "%.10s %.5s", d, d + 11);
	else
		snprintf(buf, len, "%s", d);
}

/*
 * "policy fifo, rt-priority 40": run r's value of each knob that differs
 * between the runs (only those labelled as r is, with same_label).
 */
void knobs_differing(const struct cmp_input *in, int n, int r, bool same_label, char *buf,
		     size_t len)
{
	const struct knob_values *kv = &in[r].run->knobs;
	bool differ[NR_KNOBS], any = false;

	for (int k = 0; k < NR_KNOBS; k++) {
		differ[k] = false;
		for (int o = 0; o < n; o++)
			differ[k] |= (!same_label || !strcmp(in[o].label, in[r].label)) &&
				     strcmp(in[o].run->knobs.v[k], kv->v[k]) != 0;
		any |= differ[k];
	}
	if (any && !kv->known)
		snprintf(buf, len, "scheduling not recorded");
	else
		knobs_text(kv, differ, buf, len);
}

/* Each run's passes against those of [1]: the text's verdicts and the plot's. */
int compare_verdicts(const struct cmp_input *in, int n, struct verdict_table *vt)
{
	struct verdict_group g[VERDICT_MAX_GROUPS];

	n = n < VERDICT_MAX_GROUPS ? n : VERDICT_MAX_GROUPS;
	for (int r = 0; r < n; r++) {
		g[r] = (struct verdict_group){ .res = in[r].run->res, .nres = in[r].run->nres,
					       .variant = -1 };
		snprintf(g[r].label, sizeof(g[r].label), "[%d]", r + 1);
	}
	return verdicts_build(g, n, vt);
}

/*
 * Run r under another sched_ext scheduler than [1] (or one under none, the
 * kernel's own): every row of theirs was scheduled by something else, so
 * that scheduler, not the setting their labels name, may make the change.
 */
static void print_scx_warning(FILE *out, const struct cmp_input *in, int r)
{
	const char *s0 = in[0].run->scx, *s = in[r].run->scx;
	char text[256];

	if (!*s || !*s0 || !strcmp(s, s0))
		return;
	snprintf(text, sizeof(text), "warning: [%d] ran under sched_ext scheduler %s, [1] under "
		 "%s: they differ in the scheduler itself", r + 1, strcmp(s, "none") ? s :
		 "none (the kernel's own)", strcmp(s0, "none") ? s0 : "none (the kernel's own)");
	print_wrapped(out, text, NULL, 0);
}

/*
 * After the runs' lines, for each run woken otherwise than [1], or with
 * periods of another mode: a line saying so. Such runs measure another
 * thing, so they are never pooled, and whatever else they differ in, a
 * change between them may be the method's.
 */
static void print_method_warnings(FILE *out, const struct cmp_input *in, int n)
{
	static const char *const how[] = { "their own timers (wake: timer)",
					   "the waker thread (wake: waker)" };
	const char *w0 = in[0].run->key[RK_WAKE], *p0 = in[0].run->key[RK_PERIODS];
	char text[512];

	for (int r = 1; r < n; r++) {
		const char *w = in[r].run->key[RK_WAKE], *p = in[r].run->key[RK_PERIODS];

		if (*w && *w0 && strcmp(w, w0)) {
			snprintf(text, sizeof(text), "warning: [%d]'s tasks were woken by %s, [1]'s "
				 "by %s: their latencies count from different instants, and a "
				 "CPU load delays a waker's wake-ups far more than a timer's",
				 r + 1, how[strcmp(w, "timer") != 0], how[strcmp(w0, "timer") != 0]);
			print_wrapped(out, text, NULL, 0);
		}
		if (*p && *p0 && strcmp(p, p0)) {
			snprintf(text, sizeof(text), "warning: [%d] ran %s periods, [1] %s ones: "
				 "against a CPU load, exact periods keep one phase against the tick "
				 "for a whole row, which alone can decide its wake-ups", r + 1, p, p0);
			print_wrapped(out, text, NULL, 0);
		}
		print_scx_warning(out, in, r);
	}
}

/*
 * After the runs' lines: each run that differs from [1] in more than one
 * setting, and in which, since the tables cannot tell which of them made a
 * change (one setting is the comparison meant). A setting unknown in either
 * run is not counted, only how many could not be checked. Lines break
 * between settings, never inside a short one nor around its " / ".
 */
static void print_comparability(FILE *out, const struct cmp_input *in, int n)
{
	enum { LIST_LEN = 8192, TEXT_LEN = LIST_LEN + 256, SHORT = 48, NB = 64 };
	char *list = malloc(LIST_LEN), *text = malloc(TEXT_LEN);
	struct nobreak nb[NB];

	for (int r = 1; list && text && r < n; r++) {
		int unchecked, nnb = 0;
		int nd = run_differences(in[0].run, in[r].run, list, LIST_LEN, &unchecked);
		size_t at, len;

		if (nd < 2)
			continue;
		at = (size_t)snprintf(text, TEXT_LEN, "warning: [%d] differs from [1] in %d "
				      "settings, so a change cannot be put down to one of them: ",
				      r + 1, nd);
		len = at + (size_t)snprintf(text + at, TEXT_LEN - at, "%s", list);
		len = len < TEXT_LEN ? len : TEXT_LEN - 1;
		while (at < len && nnb < NB) {	/* the settings, "what a / b", apart by ", " */
			const char *item = text + at, *comma = strstr(item, ", ");
			const char *slash = strstr(item, " / ");
			size_t ilen = comma ? (size_t)(comma - item) : strlen(item);
			size_t s = slash ? (size_t)(slash - item) : ilen;

			if (ilen <= SHORT)
				nb[nnb++] = (struct nobreak){ at, at + ilen };
			else if (s < ilen)
				nb[nnb++] = (struct nobreak){ at + s, at + s + 3 };
			at += ilen + 2;
		}
		if (unchecked && len < TEXT_LEN - 1)
			snprintf(text + len, TEXT_LEN - len, "; %d others not recorded in both runs "
				 "were not checked", unchecked);
		print_wrapped(out, text, nb, nnb);
	}
	free(list);
	free(text);
}

/*
 * Appends ", CLAUSE" to text at *n, a clause no line break cuts: a run's
 * line is cut only between its clauses ("10 s per row" stays whole).
 */
#define RUN_LINE_CLAUSES 40

static void PRINTF(6, 7) add_clause(char *text, size_t size, int *n, struct nobreak *nb,
				    int *nnb, const char *fmt, ...)
{
	va_list ap;
	int from = *n;

	if (*n >= (int)size - 3 || *nnb >= RUN_LINE_CLAUSES)
		return;
	va_start(ap, fmt);
	*n += snprintf(text + *n, size - (size_t)*n, ", ");
	*n += vsnprintf(text + *n, size - (size_t)*n, fmt, ap);
	va_end(ap);
	if (*n >= (int)size)
		*n = (int)size - 1;
	nb[(*nnb)++] = (struct nobreak){ (size_t)from + 2, (size_t)*n };
}

/*
 * One run's line: "[1] LABEL: FILE, date, N s per row, work: MODE, knobs".
 * It is never cut after "[1]" or the label, nor inside FILE, however long
 * FILE's path is, nor inside a clause: only after a clause's comma.
 */
static void print_run_line(FILE *out, const struct cmp_input *in, int nruns, int r)
{
	const struct run_record *run = in[r].run;
	struct nobreak nb[RUN_LINE_CLAUSES];
	char text[1024], knobs[512];
	int n, nnb = 1;

	n = snprintf(text, sizeof(text), "[%d] %s: %s", r + 1, in[r].label, in[r].file);
	if (n >= (int)sizeof(text))
		n = (int)sizeof(text) - 1;
	nb[0] = (struct nobreak){ 0, (size_t)n };
	if (run->kernel[0] && strncmp(in[r].label, run->kernel, strlen(run->kernel)))
		add_clause(text, sizeof(text), &n, nb, &nnb, "kernel %s", run->kernel);
	if (run->date[0]) {
		char date[40];

		pretty_date(date, sizeof(date), run->date);
		add_clause(text, sizeof(text), &n, nb, &nnb, "%s", date);
	}
	if (run->nruns > 1)
		add_clause(text, sizeof(text), &n, nb, &nnb, "%d runs pooled", run->nruns);
	if (run->seconds > 0)
		add_clause(text, sizeof(text), &n, nb, &nnb, "%g s per row", run->seconds);
	if (run->work[0])
		add_clause(text, sizeof(text), &n, nb, &nnb, "work: %s", run->work);
	if (run->key[RK_PERIODS][0])
		add_clause(text, sizeof(text), &n, nb, &nnb, "periods: %s", run->key[RK_PERIODS]);
	if (run->key[RK_WAKE][0])
		add_clause(text, sizeof(text), &n, nb, &nnb, "wake: %s", run->key[RK_WAKE]);
	if (run->interrupted)
		add_clause(text, sizeof(text), &n, nb, &nnb, "interrupted");
	knobs_differing(in, nruns, r, false, knobs, sizeof(knobs));
	if (knobs[0] && !strstr(in[r].label, knobs))	/* unless the label says it */
		for (char *k = knobs, *next; k; k = next) {
			next = strstr(k, ", ");
			if (next) {
				*next = '\0';
				next += 2;
			}
			add_clause(text, sizeof(text), &n, nb, &nnb, "%s", k);
		}
	print_wrapped(out, text, nb, nnb);
}

/* The runs compared, in full, then a table per benchmark. */
void cmp_print(FILE *out, const struct cmp_input *in, const struct cmp_matrix *m)
{
	struct verdict_table vt;

	fprintf(out, "Comparing %d run%s; changes are against [1].\n", m->nruns,
		m->nruns == 1 ? "" : "s");
	for (int r = 0; r < m->nruns; r++)
		print_run_line(out, in, m->nruns, r);
	print_method_warnings(out, in, m->nruns);
	print_comparability(out, in, m->nruns);
	fputc('\n', out);
	if (compare_verdicts(in, m->nruns, &vt))
		fprintf(out, "No verdicts: out of memory\n\n");
	for (int t = 0; t < m->ntables; t++)
		print_table(out, in, &m->tables[t], m->nruns, vt.n ? &vt : NULL);
	if (verdicts_any(&vt)) {
		struct sbuf sb;

		sb_init(&sb);
		verdicts_legend(&sb, &vt);
		if (!sb.failed)
			fwrite(sb.buf, 1, sb.len, out);
		sb_free(&sb);
	}
	verdicts_free(&vt);
}
