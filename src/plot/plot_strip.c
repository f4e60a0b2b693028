// SPDX-License-Identifier: GPL-2.0-or-later
/* plot/plot_strip.c - --plot's latency strips: per row, its wakeup latency's p50, p99 and max
 * over the seconds of the row, on a log scale like the CDFs'. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/latency_strip.h"
#include "plot/plot.h"

#define SP_X 80			/* the plot area inside a panel */
#define SP_W 600
#define SP_Y 34
#define SP_H 110
#define SP_PANEL_H 188
#define SP_LEGEND_X (SP_X + SP_W + 24)
#define SP_GAP 12		/* above a panel */
#define SP_MAX_STEPS 8		/* time ticks at most */

/* The three lines, the same in every panel. */
static const struct {
	const char *name, *colour, *dash;
} quant[] = {
	{ "p50", "#0072b2", "" }, { "p99", "#e69f00", "" }, { "max", "#d55e00", "4 2" },
};

static const float *strip_values(const struct latency_strip *s, int q)
{
	return q == 0 ? s->p50 : q == 1 ? s->p99 : s->max;
}

struct strip_axes {
	int lo, hi;			/* decades: 10^lo .. 10^hi ns */
	double seconds;			/* the x axis: 0 .. seconds into the row */
};

static void strip_axes(const struct latency_strip *s, struct strip_axes *a)
{
	double lo = INFINITY, hi = 0;

	for (int b = 0; b < s->n; b++) {
		if (!s->count[b])
			continue;
		lo = s->p50[b] < lo ? s->p50[b] : lo;
		hi = s->max[b] > hi ? s->max[b] : hi;
	}
	svg_log_decades(lo, hi, &a->lo, &a->hi);
	a->seconds = s->seconds > 0 ? s->seconds : s->n * (double)s->bin_s;
	if (!(a->seconds > 0))
		a->seconds = 1;
}

static double sx(const struct strip_axes *a, double t)
{
	return SP_X + (t < a->seconds ? t : a->seconds) / a->seconds * SP_W;
}

static double sy(const struct strip_axes *a, double ns)
{
	return svg_log_px(pow(10, a->lo), pow(10, a->hi), SP_Y + SP_H, SP_Y, ns);
}

/* sy() as the grid calls it. */
static double grid_y(const void *a, double ns)
{
	return sy(a, ns);
}

/* The middle of the part of bin b within the row (the last bin may end after the row). */
static double bin_mid(const struct latency_strip *s, const struct strip_axes *a, int b)
{
	double from = b * (double)s->bin_s, to = from + s->bin_s;

	to = to < a->seconds ? to : a->seconds;
	return to > from ? (from + to) / 2 : from;
}

static double time_step(double seconds)
{
	static const double steps[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600 };

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (seconds / steps[i] <= SP_MAX_STEPS)
			return steps[i];
	return ceil(seconds / SP_MAX_STEPS / 600) * 600;
}

/* The frame, a grid line and label per decade of latency, ticks of seconds, the titles. */
static void draw_strip_axes(struct sbuf *b, const struct strip_axes *a)
{
	double step = time_step(a->seconds);

	svg_log_grid(b, &(struct svg_log_axis){ .lo = a->lo, .hi = a->hi, .x = SP_X, .y = SP_Y,
						 .w = SP_W, .h = SP_H, .up = true, .px = grid_y,
						 .arg = a });
	for (int k = 0; k * step <= a->seconds * (1 + 1e-9); k++) {
		double x = sx(a, k * step);

		sb_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\"/>\n"
			  "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g s</text>\n", x,
			  SP_Y + SP_H, x, SP_Y + SP_H + 5, x, SP_Y + SP_H + 18, k * step);
	}
	sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">seconds into the row"
		  "</text>\n", SP_X + SP_W / 2, SP_Y + SP_H + 34);
	sb_printf(b, "<text transform=\"translate(%d %d) rotate(-90)\" text-anchor=\"middle\">"
		  "latency (log)</text>\n", 18, SP_Y + SP_H / 2);
}

/* Bins whose records the ring did not keep: unknown, shaded rather than drawn as empty. */
static void draw_unknown(struct sbuf *b, const struct latency_strip *s, const struct strip_axes *a)
{
	double x0 = sx(a, 0), x1;

	if (s->first <= 0)
		return;
	x1 = sx(a, s->first * (double)s->bin_s);
	sb_printf(b, "<rect class=\"strip-unknown\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		  "height=\"%d\" fill=\"#eee\"><title>records not kept (the row's ring holds its "
		  "last periods)</title></rect>\n", x0 + 0.5, SP_Y + 0.5, x1 - x0 - 0.5, SP_H - 1);
}

/*
 * One quantile over the bins: a point per bin with wake-ups, at the middle
 * of the bin, joined to the next; a bin without any breaks the line, and
 * a point alone between two such bins is a dot.
 */
static void draw_strip_line(struct sbuf *b, const struct latency_strip *s,
			    const struct strip_axes *a, int q)
{
	const float *v = strip_values(s, q);
	bool pen = false, any = false;

	sb_printf(b, "<path class=\"strip-line\" data-q=\"%s\" fill=\"none\" stroke=\"%s\" "
		  "stroke-width=\"1.6\" stroke-linejoin=\"round\"", quant[q].name, quant[q].colour);
	if (quant[q].dash[0])
		sb_printf(b, " stroke-dasharray=\"%s\"", quant[q].dash);
	sb_printf(b, " d=\"");
	for (int k = 0; k < s->n; k++) {
		if (!s->count[k]) {
			pen = false;
			continue;
		}
		sb_printf(b, "%s%c%.1f,%.1f", any ? " " : "", pen ? 'L' : 'M',
			  sx(a, bin_mid(s, a, k)), sy(a, v[k]));
		pen = any = true;
	}
	sb_printf(b, "\"/>\n");
	for (int k = 0; k < s->n; k++)
		if (s->count[k] && (k == 0 || !s->count[k - 1]) && (k + 1 == s->n || !s->count[k + 1]))
			sb_printf(b, "<circle class=\"strip-dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\" "
				  "fill=\"%s\"/>\n", sx(a, bin_mid(s, a, k)), sy(a, v[k]),
				  quant[q].colour);
}

static void draw_strip_legend(struct sbuf *b, const struct latency_strip *s)
{
	unsigned long long n = 0;
	int y = SP_Y + 6;

	for (int k = 0; k < s->n; k++)
		n += s->count[k];
	for (size_t q = 0; q < sizeof(quant) / sizeof(quant[0]); q++, y += 17) {
		sb_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
			  "stroke-width=\"2\"", SP_LEGEND_X, y - 4, SP_LEGEND_X + 24, y - 4,
			  quant[q].colour);
		if (quant[q].dash[0])
			sb_printf(b, " stroke-dasharray=\"%s\"", quant[q].dash);
		sb_printf(b, "/>\n<text x=\"%d\" y=\"%d\">%s</text>\n", SP_LEGEND_X + 30, y,
			  quant[q].name);
	}
	sb_printf(b, "<text x=\"%d\" y=\"%d\">%llu wakeup%s, %g s bins</text>\n", SP_LEGEND_X,
		  y + 8, n, n == 1 ? "" : "s", (double)s->bin_s);
}

/* "Video with Burn, pass 2, [2], B load-nice=19: wakeup latency over time" */
static void strip_title(struct sbuf *b, const struct plot_spec *spec, const struct cmp_table *t,
			int run, const struct result *r, bool passes)
{
	svg_text(b, t->bench);
	sb_printf(b, "%s with ", t->realtime ? " real time" : "");
	svg_text(b, r->load);
	if (passes)
		sb_printf(b, ", pass %d", r->pass + 1);
	if (spec->m->nruns > 1)
		sb_printf(b, ", [%d]", run + 1);
	if (r->variant[0]) {
		sb_printf(b, ", ");
		svg_text(b, r->variant);
	}
	sb_printf(b, ": %s over time", cmp_latency_name(spec->in, spec->m->nruns));
}

/* The strip of one row at y; the y below. */
static int strip_panel(struct sbuf *b, const struct plot_spec *spec, const struct cmp_table *t,
		       int run, const struct result *r, bool passes, int y)
{
	const struct latency_strip *s = r->strip;
	struct strip_axes a;

	y += SP_GAP;
	strip_axes(s, &a);
	sb_printf(b, "<g class=\"strip\" data-bench=\"");
	svg_text(b, t->bench);
	sb_printf(b, "\" data-load=\"");
	svg_text(b, r->load);
	sb_printf(b, "\" data-pass=\"%d\" data-run=\"%d\" data-bins=\"%d\" data-bin-s=\"%g\" "
		  "data-counts=\"", r->pass + 1, run + 1, s->n, (double)s->bin_s);
	for (int k = 0; k < s->n; k++)
		sb_printf(b, "%s%u", k ? " " : "", s->count[k]);
	sb_printf(b, "\" transform=\"translate(0 %d)\">\n<text x=\"%d\" y=\"%d\" "
		  "font-size=\"14\" font-weight=\"bold\">", y, SP_X, SP_Y - 10);
	strip_title(b, spec, t, run, r, passes);
	sb_printf(b, "</text>\n");
	draw_strip_axes(b, &a);
	draw_unknown(b, s, &a);
	for (int q = 0; q < (int)(sizeof(quant) / sizeof(quant[0])); q++)
		draw_strip_line(b, s, &a, q);
	draw_strip_legend(b, s);
	sb_printf(b, "</g>\n");
	return y + SP_PANEL_H;
}

/* A panel per row that has a strip, benchmark by benchmark, load by load, from y on. */
int plot_strip_panels(struct sbuf *b, const struct plot_spec *spec, int y)
{
	const struct cmp_matrix *m = spec->m;

	for (int t = 0; t < m->ntables; t++) {
		const struct cmp_table *tab = &m->tables[t];

		for (int l = 0; l < tab->nloads; l++)
			for (int run = 0; run < m->nruns; run++) {
				const struct cmp_cell *c = &tab->cells[l * m->nruns + run];

				for (int i = 0; i < c->nres; i++)
					if (c->res[i]->strip && c->res[i]->strip->n > 0)
						y = strip_panel(b, spec, tab, run, c->res[i],
								c->nres > 1, y);
			}
	}
	return y;
}
