// SPDX-License-Identifier: GPL-2.0-or-later
/* plot/plot.c - --plot: latency distributions of results as a self-contained SVG, with or
 * without histograms. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/util.h"
#include "plot/plot.h"
#include "model/config.h"
#include "verdicts/verdicts.h"

#define PANEL_H 330
#define PLOT_X 80		/* plot area inside a panel */
#define PLOT_W 600
#define PLOT_Y 36
#define PLOT_H 230
#define LEGEND_X (PLOT_X + PLOT_W + 24)

/* ---- what is drawn ---- */

struct series {
	char load[RES_NAME_LEN];
	int run;			/* which run (dash pattern) */
	int npts;
	double *x, *y;			/* ns, fraction 0..1 */
	bool bound;			/* a lower bound from mean and SD */
	uint64_t n;			/* wakeups, when known */
};

struct panel {
	char title[96];
	int nseries, cap;
	struct series *s;
};

struct figure {
	char title[400];
	char subtitle[400];
	int npanels, cap;
	struct panel *p;
	int nruns;			/* for the dash legend; 0: one run */
	const char *run_label[MAX_COMPARE];
	const char *latency;		/* what the runs' latency is called (cmp_latency_name()) */
	bool any_bound, any_quantiles;
};

static struct panel *add_panel(struct figure *f, const char *title)
{
	struct panel *p;

	if (f->npanels == f->cap) {
		int cap = f->cap ? f->cap * 2 : 8;

		p = realloc(f->p, (size_t)cap * sizeof(*p));
		if (!p)
			return NULL;
		f->p = p;
		f->cap = cap;
	}
	p = &f->p[f->npanels++];
	memset(p, 0, sizeof(*p));
	snprintf(p->title, sizeof(p->title), "%s", title);
	return p;
}

static struct series *add_series(struct panel *p, const char *load, int run, int maxpts)
{
	struct series *s;

	if (p->nseries == p->cap) {
		int cap = p->cap ? p->cap * 2 : 8;

		s = realloc(p->s, (size_t)cap * sizeof(*s));
		if (!s)
			return NULL;
		p->s = s;
		p->cap = cap;
	}
	s = &p->s[p->nseries];
	memset(s, 0, sizeof(*s));
	s->x = malloc((size_t)maxpts * sizeof(*s->x));
	s->y = malloc((size_t)maxpts * sizeof(*s->y));
	if (!s->x || !s->y) {
		free(s->x);
		free(s->y);
		return NULL;
	}
	snprintf(s->load, sizeof(s->load), "%s", load);
	s->run = run;
	p->nseries++;
	return s;
}

static void figure_free(struct figure *f)
{
	for (int i = 0; i < f->npanels; i++) {
		for (int j = 0; j < f->p[i].nseries; j++) {
			free(f->p[i].s[j].x);
			free(f->p[i].s[j].y);
		}
		free(f->p[i].s);
	}
	free(f->p);
}

static void add_point(struct series *s, double x, double y)
{
	if (!isfinite(x) || !isfinite(y))
		return;
	if (s->npts && x < s->x[s->npts - 1])
		x = s->x[s->npts - 1];		/* averaged quantiles may cross */
	if (s->npts && y < s->y[s->npts - 1])
		y = s->y[s->npts - 1];
	s->x[s->npts] = x;
	s->y[s->npts] = y;
	s->npts++;
}

/* ---- drawing ---- */

struct axis {
	int lo, hi;		/* decades: 10^lo .. 10^hi ns */
};

static double px_x(const struct axis *a, double ns)
{
	double l = log10(ns > 1 ? ns : 1);

	if (l < a->lo)
		l = a->lo;
	if (l > a->hi)
		l = a->hi;
	return PLOT_X + (l - a->lo) / (a->hi - a->lo) * PLOT_W;
}

static double px_y(double frac)
{
	return PLOT_Y + (1.0 - frac) * PLOT_H;
}

/* px_x() as the grid calls it. */
static double grid_x(const void *a, double ns)
{
	return px_x(a, ns);
}

static void panel_axis(const struct panel *p, struct axis *a)
{
	double lo = INFINITY, hi = 0;

	for (int i = 0; i < p->nseries; i++) {
		for (int k = 0; k < p->s[i].npts; k++) {
			double x = p->s[i].x[k];

			if (x > 0 && x < lo)
				lo = x;
			if (x > hi)
				hi = x;
		}
	}
	svg_log_decades(lo, hi, &a->lo, &a->hi);
}

static void draw_axes(struct sbuf *b, const struct axis *a, const char *latency)
{
	svg_log_grid(b, &(struct svg_log_axis){ .lo = a->lo, .hi = a->hi, .x = PLOT_X, .y = PLOT_Y,
						 .w = PLOT_W, .h = PLOT_H, .minor = true,
						 .px = grid_x, .arg = a });
	for (int pct = 0; pct <= 100; pct += 20) {
		double y = px_y(pct / 100.0);

		if (pct > 0 && pct < 100)
			sb_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
				  "stroke=\"#ddd\"/>\n", PLOT_X, y, PLOT_X + PLOT_W, y);
		sb_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			  "stroke=\"#444\"/>\n", PLOT_X - 5, y, PLOT_X, y);
		sb_printf(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d %%</text>\n",
			  PLOT_X - 8, y + 4, pct);
	}
	sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s "
		  "(log scale)</text>\n", PLOT_X + PLOT_W / 2, PLOT_Y + PLOT_H + 40, latency);
	sb_printf(b, "<text transform=\"translate(%d %d) rotate(-90)\" text-anchor=\"middle\">"
		  "wakeups at or below</text>\n", 22, PLOT_Y + PLOT_H / 2);
}

/* A series as a polyline, thinned to what a pixel can show. */
static void draw_series(struct sbuf *b, const struct series *s, const struct axis *a)
{
	double lx = -1, ly = -1;

	sb_printf(b, "<polyline class=\"series\" data-load=\"");
	svg_text(b, s->load);
	sb_printf(b, "\" data-run=\"%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"",
		  s->run + 1, svg_load_colour(s->load));
	if (svg_run_dash(s->run)[0])
		sb_printf(b, " stroke-dasharray=\"%s\"", svg_run_dash(s->run));
	sb_printf(b, " points=\"");
	for (int k = 0; k < s->npts; k++) {
		double x = px_x(a, s->x[k]), y = px_y(s->y[k]);

		if (k && k + 1 < s->npts && fabs(x - lx) < 0.7 && fabs(y - ly) < 0.7)
			continue;
		sb_printf(b, "%s%.1f,%.1f", k ? " " : "", x, y);
		lx = x;
		ly = y;
	}
	sb_printf(b, "\"/>\n");
}

static void draw_legend(struct sbuf *b, const struct figure *f, const struct panel *p)
{
	char seen[64][RES_NAME_LEN];
	int nseen = 0, y = PLOT_Y + 6;

	sb_printf(b, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">Load</text>\n", LEGEND_X, y);
	for (int i = 0; i < p->nseries && nseen < 64; i++) {
		const char *load = p->s[i].load;
		bool dup = false;

		for (int j = 0; j < nseen; j++)
			dup |= !strcmp(seen[j], load);
		if (dup)
			continue;
		snprintf(seen[nseen++], RES_NAME_LEN, "%s", load);
		y += 17;
		sb_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
			  "stroke-width=\"3\"/>\n", LEGEND_X, y - 4, LEGEND_X + 24, y - 4,
			  svg_load_colour(load));
		sb_printf(b, "<text x=\"%d\" y=\"%d\">", LEGEND_X + 30, y);
		svg_text(b, load);
		if (p->s[i].n)
			sb_printf(b, " (%llu wakeup%s)", (unsigned long long)p->s[i].n,
				  p->s[i].n == 1 ? "" : "s");
		sb_printf(b, "</text>\n");
	}
	if (!f->nruns)
		return;
	y += 26;
	sb_printf(b, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">Run</text>\n", LEGEND_X, y);
	for (int r = 0; r < f->nruns; r++) {
		const char *dash = svg_run_dash(r);
		char label[40];

		y += 17;
		sb_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\" "
			  "stroke-width=\"1.6\"", LEGEND_X, y - 4, LEGEND_X + 24, y - 4);
		if (dash[0])
			sb_printf(b, " stroke-dasharray=\"%s\"", dash);
		sb_printf(b, "/>\n<text x=\"%d\" y=\"%d\">", LEGEND_X + 30, y);
		/* long labels are cut here; the title lists them in full */
		snprintf(label, sizeof(label), "[%d] %s", r + 1, f->run_label[r]);
		if (strlen(f->run_label[r]) + 4 >= sizeof(label))
			strcpy(label + sizeof(label) - 4, "...");
		svg_text(b, label);
		sb_printf(b, "</text>\n");
	}
}

/* The CDF panels from y on; the y below them. */
static int render_cdfs(struct sbuf *b, const struct figure *f, int y)
{
	for (int i = 0; i < f->npanels; i++) {
		const struct panel *p = &f->p[i];
		struct axis a;

		panel_axis(p, &a);
		sb_printf(b, "<g class=\"panel\" id=\"panel-%d\" transform=\"translate(0 %d)\">\n",
			  i + 1, y + i * PANEL_H);
		sb_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">",
			  PLOT_X, PLOT_Y - 10);
		svg_text(b, p->title);
		sb_printf(b, "</text>\n");
		draw_axes(b, &a, f->latency);
		for (int k = 0; k < p->nseries; k++)
			draw_series(b, &p->s[k], &a);
		draw_legend(b, f, p);
		sb_printf(b, "</g>\n");
	}
	return y + f->npanels * PANEL_H + 4;
}

/* Under the CDFs, what the lines of runs read back from files are; the y below. */
static int render_notes(struct sbuf *b, const struct figure *f, int y)
{
	if (f->any_quantiles) {
		y += 18;
		sb_printf(b, "<text x=\"%d\" y=\"%d\">CSV runs: straight lines through the "
			  "minimum, p50, p90, p99, p99.9 and the maximum.</text>\n", PLOT_X, y);
	}
	if (f->any_bound) {
		sb_printf(b, "<text x=\"%d\" y=\"%d\">Log runs hold only the mean \xce\xbc, SD "
			  "\xcf\x83 and max: their curves are the least share of wakeups these "
			  "numbers allow,</text>\n", PLOT_X, y + 18);
		sb_printf(b, "<text x=\"%d\" y=\"%d\">(x\xe2\x88\x92\xce\xbc)\xc2\xb2/"
			  "(\xcf\x83\xc2\xb2+(x\xe2\x88\x92\xce\xbc)\xc2\xb2) by Cantelli's "
			  "inequality, and 100 %% at the max; the true curve lies above them."
			  "</text>\n", PLOT_X, y + 36);
		y += 36;
	}
	return y;
}

/*
 * The document: its title, the CDFs and their notes, then the verdicts
 * and the strips where spec has them. The body is built first, for the
 * height the head gives.
 */
static int render(const struct figure *f, const struct plot_spec *spec, struct sbuf *b)
{
	int top = f->subtitle[0] ? 64 : 44, y;
	struct sbuf body;

	sb_init(&body);
	y = render_notes(&body, f, render_cdfs(&body, f, top));
	y = plot_verdict_panels(&body, spec, y);
	y = plot_strip_panels(&body, spec, y) + 8;
	sb_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		  "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		  SVG_W, y, SVG_W, y);
	sb_printf(b, "<title>");
	svg_text(b, f->title);
	sb_printf(b, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n");
	sb_printf(b, "<text x=\"%d\" y=\"26\" font-size=\"16\" font-weight=\"bold\">", PLOT_X);
	svg_text(b, f->title);
	sb_printf(b, "</text>\n");
	if (f->subtitle[0]) {
		sb_printf(b, "<text x=\"%d\" y=\"46\">", PLOT_X);
		svg_text(b, f->subtitle);
		sb_printf(b, "</text>\n");
	}
	if (body.failed)
		b->failed = true;
	else
		sb_add(b, body.buf ? body.buf : "", body.len);
	sb_free(&body);
	sb_printf(b, "</svg>\n");
	return b->failed ? -ENOMEM : 0;
}

static int write_figure(const char *path, const struct figure *f, const struct plot_spec *spec)
{
	struct sbuf b;
	int ret;

	sb_init(&b);
	ret = render(f, spec, &b);
	if (!ret)
		ret = replace_file(path, b.buf, b.len);
	sb_free(&b);
	return ret;
}

/* ---- a run's results with histograms ---- */

/* The histograms of every pass of one cell, merged, drawn as steps; false if none. */
static int hist_series(struct panel *p, const struct cmp_cell *c, const char *load, int run,
		       bool *drawn)
{
	struct latency_compact *all = NULL, *m;
	struct series *s = NULL;
	int ret;

	*drawn = false;
	for (int i = 0; i < c->nres; i++) {
		const struct latency_compact *w = c->res[i]->wake;

		if (c->res[i]->status == ROW_FAILED || !w || !w->r.n)
			continue;
		*drawn = true;
		m = latency_compact_merge(all, w);
		free(all);
		all = m;
		if (!all)
			return -ENOMEM;
	}
	if (all)
		s = add_series(p, load, run, 2 * (int)all->nent + 1);
	if (s) {
		/* steps: flat up to each bucket, then up by its share */
		s->n = all->r.n;
		s->npts = (int)latency_compact_cdf(all, s->x, s->y, 2 * (size_t)all->nent + 1);
	}
	ret = all && !s ? -ENOMEM : 0;
	free(all);
	return ret;
}

/* ---- a comparison: what logs and CSV files hold ---- */

/* Straight lines through the quantiles a CSV file gives. */
static void quantile_points(struct series *s, const struct pass_summary *c)
{
	static const struct { int v; double q; } qs[] = {
		{ RF_MIN, 0.0 }, { RF_P50, 0.5 }, { RF_P90, 0.9 }, { RF_P99, 0.99 },
		{ RF_P999, 0.999 }, { RF_MAX, 1.0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(qs); i++)
		add_point(s, c->value[qs[i].v], qs[i].q);
}

/*
 * A log gives mean, SD and max only. Cantelli's inequality makes that a
 * floor under the distribution: F(x) >= d^2 / (sd^2 + d^2) with d = x - mean;
 * p99 and p99.9 (--percentiles) raise it where known; F(max) = 1.
 */
static void bound_points(struct series *s, const struct pass_summary *c)
{
	double mu = c->value[RF_MEAN], sd = c->value[RF_SD], max = c->value[RF_MAX];
	double from = mu > 1 ? mu : 1, to;
	const int steps = 60;

	if (!isfinite(sd))
		sd = 0;
	if (!isfinite(max) || max < from)
		max = from;
	to = max;
	s->bound = true;
	add_point(s, from, 0.0);
	for (int i = 1; i <= steps; i++) {
		double x = from * pow(to / from, (double)i / steps), d = x - mu, y;

		y = sd > 0 ? d * d / (sd * sd + d * d) : (d > 0 ? 1.0 : 0.0);
		if (isfinite(c->value[RF_P99]) && x >= c->value[RF_P99] && y < 0.99)
			y = 0.99;
		if (isfinite(c->value[RF_P999]) && x >= c->value[RF_P999] && y < 0.999)
			y = 0.999;
		add_point(s, x, i == steps ? 1.0 : y);
	}
}

/* One cell: its histograms when it has them, else what its summary allows. */
static int cell_series(struct figure *f, struct panel *p, const struct cmp_cell *c,
		       const char *load, int run)
{
	struct series *s;
	bool drawn;
	int ret = hist_series(p, c, load, run, &drawn);

	if (ret || drawn || !c->s.npass || !isfinite(c->s.value[RF_MEAN]))
		return ret;
	s = add_series(p, load, run, 64);
	if (!s)
		return -ENOMEM;
	if (isfinite(c->s.value[RF_P50]) && isfinite(c->s.value[RF_P90])) {
		quantile_points(s, &c->s);
		f->any_quantiles = true;
	} else {
		bound_points(s, &c->s);
		f->any_bound = true;
	}
	return 0;
}

/* The one --plot: a panel per benchmark, a line per load and run. */
int plot_results(const char *path, const struct plot_spec *spec)
{
	const struct cmp_matrix *m = spec->m;
	struct figure f = { .nruns = spec->run_legend ? m->nruns : 0,
			    .latency = cmp_latency_name(spec->in, m->nruns) };
	int ret = 0;

	snprintf(f.title, sizeof(f.title), "%s", spec->title);
	snprintf(f.subtitle, sizeof(f.subtitle), "%s", spec->subtitle ? spec->subtitle : "");
	for (int r = 0; r < m->nruns && r < MAX_COMPARE; r++)
		f.run_label[r] = spec->in[r].label;
	for (int t = 0; t < m->ntables && !ret; t++) {
		const struct cmp_table *tab = &m->tables[t];
		char title[96];
		struct panel *p;

		snprintf(title, sizeof(title), "%s%s", tab->bench,
			 tab->realtime ? " real time" : "");
		p = add_panel(&f, title);
		if (!p) {
			ret = -ENOMEM;
			break;
		}
		for (int l = 0; l < tab->nloads && !ret; l++)
			for (int r = 0; r < m->nruns && !ret; r++)
				ret = cell_series(&f, p, &tab->cells[l * m->nruns + r],
						  tab->loads[l], r);
	}
	if (!ret)
		ret = write_figure(path, &f, spec);
	figure_free(&f);
	return ret;
}

/* --plot: the run's histograms, a panel per benchmark, a line per load; --vary's verdicts. */
int plot_run(const struct run_record *rec, const char *path)
{
	struct cmp_input in = { .run = rec, .file = path };
	static struct cmp_matrix m;
	struct verdict_table vt;
	struct plot_spec spec;
	char title[400], date[32], err[256];
	struct tm tm;
	int ret = -ENOMEM;

	localtime_r(&rec->start, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
	snprintf(title, sizeof(title), "interbench: %s, kernel %s, %s", run_latency_name(rec),
		 rec->kernel, date);
	spec = (struct plot_spec){ .title = title, .subtitle = rec->cfg->comment ?
				   rec->cfg->comment : "", .in = &in, .m = &m };
	if (rec->cfg->nvariants && !record_verdicts(rec, &vt))
		spec.vt = &vt;		/* --vary: the variants' verdicts, as --compare draws them */
	if (!cmp_build(&in, 1, &m, err, sizeof(err))) {
		ret = plot_results(path, &spec);
		cmp_matrix_free(&m);
	}
	if (spec.vt)
		verdicts_free(&vt);
	return ret;
}
