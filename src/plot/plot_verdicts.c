// SPDX-License-Identifier: GPL-2.0-or-later
/* plot/plot_verdicts.c - --compare --plot's verdicts: per benchmark, each cell's B/A ratio
 * with its 95 % interval on a log axis, better or worse marked only where the verdict says so. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/compare_matrix.h"
#include "plot/plot.h"
#include "plot/plot.h"
#include "verdicts/verdicts.h"

#define VP_LABEL_X 16		/* the load */
#define VP_METRIC_X 100		/* the metric */
#define VP_PLOT_X 210		/* the ratios' axis */
#define VP_PLOT_W 380
#define VP_RATIO_X 604		/* B/A [interval] as text */
#define VP_WHAT_X 790		/* the verdict */
#define VP_TITLE_H 32
#define VP_HEAD_H 22		/* a group's heading: "B = [2] against A = [1]" */
#define VP_ROW_H 20
#define VP_AXIS_H 66		/* tick labels, the axis title, the key */
#define VP_GAP 24		/* above a panel */
#define VP_WRAP 140		/* characters of a line of the no-verdict sentence */
#define VP_MAX_TICKS 16

/* Colour-blind safe; the word beside it says the same, so colour is never the only mark. */
static const char *const kind_colour[] = {
	[VK_NO_DIFFERENCE] = "#777777", [VK_BETTER] = "#009e73", [VK_WORSE] = "#d55e00",
	[VK_TOO_FEW] = "#aaaaaa",
};

static bool of_table(const struct verdict *v, const struct cmp_table *t)
{
	return verdict_of(v, t->bench, t->group, t->realtime);
}

static bool marked(const struct verdict *v)
{
	return v->kind == VK_BETTER || v->kind == VK_WORSE;
}

struct ratio_axis {
	double lo, hi;			/* ratios at the axis' ends, lo < 1 < hi */
};

/* Every finite ratio and interval end of the table, and 1, with room to spare. */
static void ratio_axis(const struct verdict_table *vt, const struct cmp_table *t,
		       struct ratio_axis *a)
{
	a->lo = a->hi = 1;
	for (int i = 0; i < vt->n; i++) {
		const struct verdict *v = &vt->v[i];
		const double x[] = { v->t.ratio, v->t.ratio_low, v->t.ratio_high };

		if (!of_table(v, t) || v->group < 1)
			continue;
		for (int k = 0; k < 3; k++) {
			if (!isfinite(x[k]) || x[k] <= 0)
				continue;
			a->lo = x[k] < a->lo ? x[k] : a->lo;
			a->hi = x[k] > a->hi ? x[k] : a->hi;
		}
	}
	a->lo = a->lo / 1.25 < 0.5 ? a->lo / 1.25 : 0.5;
	a->hi = a->hi * 1.25 > 2 ? a->hi * 1.25 : 2;
}

static double ratio_px(const struct ratio_axis *a, double v)
{
	return svg_log_px(a->lo, a->hi, VP_PLOT_X, VP_PLOT_X + VP_PLOT_W, v);
}

/* Ticks at 1, 2 and 5 of each decade, or at the decades alone when those are too many. */
static int ratio_ticks(const struct ratio_axis *a, double *tick)
{
	static const double step[] = { 1, 2, 5 };
	int n = 0;

	for (int steps = 3; steps >= 1; steps -= 2) {
		n = 0;
		for (int d = (int)floor(log10(a->lo)); d <= (int)ceil(log10(a->hi)); d++)
			for (int k = 0; k < steps; k++) {
				double v = step[k] * pow(10, d);

				if (v >= a->lo && v <= a->hi && n < VP_MAX_TICKS)
					tick[n++] = v;
			}
		if (n <= 10)
			break;
	}
	return n;
}

/* The frame and grid of a group's rows, from top to bottom, with the line at 1. */
static void draw_ratio_grid(struct sbuf *b, const struct ratio_axis *a, int top, int bottom)
{
	double tick[VP_MAX_TICKS];
	int n = ratio_ticks(a, tick);

	sb_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\" "
		  "stroke=\"#444\"/>\n", VP_PLOT_X, top, VP_PLOT_W, bottom - top);
	for (int i = 0; i < n; i++) {
		double x = ratio_px(a, tick[i]);

		if (tick[i] != 1)
			sb_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
				  "stroke=\"#ddd\"/>\n", x, top, x, bottom);
	}
	sb_printf(b, "<line class=\"unity\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		  "stroke=\"#222\" stroke-width=\"1.2\"/>\n", ratio_px(a, 1), top, ratio_px(a, 1),
		  bottom);
}

/* Under the last group: the tick labels, what the axis means, what the colours say. */
static void draw_ratio_scale(struct sbuf *b, const struct ratio_axis *a, int bottom)
{
	double tick[VP_MAX_TICKS];
	int n = ratio_ticks(a, tick);

	for (int i = 0; i < n; i++) {
		double x = ratio_px(a, tick[i]);

		sb_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\"/>\n"
			  "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", x,
			  bottom, x, bottom + 5, x, bottom + 18, tick[i]);
	}
	sb_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">B/A: the Hodges-Lehmann "
		  "ratio and its 95 %% interval (log scale)</text>\n", VP_PLOT_X + VP_PLOT_W / 2,
		  bottom + 36);
	sb_printf(b, "<text x=\"%d\" y=\"%d\"><tspan fill=\"%s\" font-weight=\"bold\">better"
		  "</tspan> / <tspan fill=\"%s\" font-weight=\"bold\">worse</tspan>: q &lt;= %.2g "
		  "over the comparison's tests (lower latency, more deadlines met is better); grey: "
		  "no difference shown, or too few passes.</text>\n", VP_LABEL_X, bottom + 56,
		  kind_colour[VK_BETTER], kind_colour[VK_WORSE], VERDICT_FDR);
}

/* One cell's verdict: its labels, its interval and ratio, the numbers, and the verdict. */
static void draw_verdict_row(struct sbuf *b, const struct verdict_table *vt,
			     const struct verdict *v, const struct ratio_axis *a, int y)
{
	const char *colour = kind_colour[v->kind];
	char metric[32], ratio[112], what[64];
	double cy = y + VP_ROW_H / 2.0;

	verdict_metric_text(metric, sizeof(metric), v);
	verdict_ratio_text(ratio, sizeof(ratio), v);
	verdict_what_text(what, sizeof(what), v);
	sb_printf(b, "<g class=\"verdict%s\" data-load=\"", !marked(v) ? "" :
		  v->kind == VK_BETTER ? " better" : " worse");
	svg_text(b, v->load);
	sb_printf(b, "\" data-metric=\"%s\" data-run=\"", verdict_metric_name(v->metric));
	svg_text(b, vt->labels[v->group]);
	sb_printf(b, "\" data-verdict=\"%s\">\n<title>", verdict_kind_names[v->kind]);
	svg_text(b, v->load);
	sb_printf(b, " %s, ", metric);
	svg_text(b, vt->labels[v->group]);
	sb_printf(b, " against ");
	svg_text(b, vt->labels[0]);
	sb_printf(b, ": %s; %s</title>\n", ratio, what);
	sb_printf(b, "<text x=\"%d\" y=\"%.1f\">", VP_LABEL_X, cy + 4);
	svg_text(b, v->load);
	sb_printf(b, "</text>\n<text x=\"%d\" y=\"%.1f\">%s</text>\n", VP_METRIC_X, cy + 4, metric);
	if (isfinite(v->t.ratio)) {
		bool open = !(v->t.ratio_low > 0) || !isfinite(v->t.ratio_high);

		sb_printf(b, "<line class=\"interval\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			  "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%d\"%s/>\n",
			  ratio_px(a, v->t.ratio_low), cy, ratio_px(a, v->t.ratio_high), cy, colour,
			  marked(v) ? 3 : 2, open ? " stroke-dasharray=\"5 3\"" : "");
		sb_printf(b, "<circle class=\"ratio\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" "
			  "stroke=\"#fff\"/>\n", ratio_px(a, v->t.ratio), cy, colour);
	}
	sb_printf(b, "<text x=\"%d\" y=\"%.1f\" fill=\"#333\">%s</text>\n", VP_RATIO_X, cy + 4,
		  ratio);
	sb_printf(b, "<text class=\"what\" x=\"%d\" y=\"%.1f\" fill=\"%s\"%s>%s</text>\n</g>\n",
		  VP_WHAT_X, cy + 4, colour, marked(v) ? " font-weight=\"bold\"" : "", what);
}

/* The sentence as lines of at most VP_WRAP characters, broken at spaces, in one text. */
static int draw_wrapped(struct sbuf *b, const char *text, int y)
{
	char line[VP_WRAP + 1];
	int lines = 0;

	sb_printf(b, "<text class=\"no-verdict\" x=\"%d\" y=\"%d\">", VP_LABEL_X, y);
	while (*text) {
		size_t n = strlen(text), cut = n;

		if (n > VP_WRAP) {
			for (cut = VP_WRAP; cut > 0 && text[cut] != ' '; cut--)
				;
			cut = cut ? cut : VP_WRAP;
		}
		snprintf(line, sizeof(line), "%.*s", (int)cut, text);
		sb_printf(b, "<tspan x=\"%d\" dy=\"%d\">", VP_LABEL_X, lines ? 16 : 0);
		svg_text(b, line);
		sb_printf(b, "</tspan>");
		lines++;
		text += cut;
		text += strspn(text, " ");
	}
	sb_printf(b, "</text>\n");
	return lines;
}

/* Group gi's rows of the table: its heading, its grid, then a row per verdict; the y below. */
static int draw_group(struct sbuf *b, const struct verdict_table *vt, const struct cmp_table *t,
		      int gi, const struct ratio_axis *a, int y)
{
	bool runs = vt->labels[0][0] == '[';
	const struct verdict *first = NULL;
	int rows = 0;

	for (int i = 0; i < vt->n; i++)
		if (vt->v[i].group == gi && of_table(&vt->v[i], t)) {
			first = first ? first : &vt->v[i];
			rows++;
		}
	if (!rows)
		return y;
	/* as the text's heading says it */
	sb_printf(b, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s", VP_LABEL_X, y + 15,
		  runs ? "B = " : "");
	svg_text(b, vt->labels[gi]);
	sb_printf(b, " against %s", runs ? "A = " : "");
	svg_text(b, vt->labels[0]);
	sb_printf(b, " (passes: %d and %d)</text>\n", first->t.na, first->t.nb);
	y += VP_HEAD_H;
	draw_ratio_grid(b, a, y, y + rows * VP_ROW_H);
	for (int i = 0; i < vt->n; i++) {
		const struct verdict *v = &vt->v[i];

		if (v->group == gi && of_table(v, t)) {
			draw_verdict_row(b, vt, v, a, y);
			y += VP_ROW_H;
		}
	}
	return y;
}

/* One benchmark's verdicts at y, or the sentence saying there are none; the y below. */
static int verdict_panel(struct sbuf *b, const struct verdict_table *vt,
			 const struct cmp_table *t, int y, int no)
{
	char text[400], name[MEMBER_LABEL_LEN];
	int shown = verdicts_shown(vt, t->bench, t->group, t->realtime, text, sizeof(text)), h;
	struct ratio_axis a;

	if (shown == VS_NONE)
		return y;
	y += VP_GAP;
	sb_printf(b, "<g class=\"verdicts\" id=\"verdicts-%d\" data-bench=\"", no);
	svg_text(b, t->bench);
	if (t->group[0]) {	/* only then: a plot without groups keeps its shape */
		sb_printf(b, "\" data-group=\"");
		svg_text(b, t->group);
	}
	sb_printf(b, "\" data-realtime=\"%d\" transform=\"translate(0 %d)\">\n"
		  "<text x=\"%d\" y=\"22\" font-size=\"14\" font-weight=\"bold\">", t->realtime, y,
		  VP_LABEL_X);
	member_label(name, sizeof(name), t->bench, t->group);
	svg_text(b, name);
	sb_printf(b, "%s: verdicts, each %s's passes against those of ",
		  t->realtime ? " real time" : "", vt->labels[0][0] == '[' ? "run" : "variant");
	svg_text(b, vt->ngroups ? vt->labels[0] : "[1]");
	sb_printf(b, "</text>\n");
	if (shown == VS_TOO_FEW) {
		h = VP_TITLE_H + 16 * draw_wrapped(b, text, VP_TITLE_H + 12);
		sb_printf(b, "</g>\n");
		return y + h;
	}
	ratio_axis(vt, t, &a);
	h = VP_TITLE_H;
	for (int gi = 1; gi < vt->ngroups; gi++)
		h = draw_group(b, vt, t, gi, &a, h);
	draw_ratio_scale(b, &a, h);
	sb_printf(b, "</g>\n");
	return y + h + VP_AXIS_H;
}

/* A panel per benchmark of the comparison, in its tables' order, from y on; the y below. */
int plot_verdict_panels(struct sbuf *b, const struct plot_spec *spec, int y)
{
	if (!spec->vt)
		return y;
	for (int t = 0; t < spec->m->ntables; t++)
		y = verdict_panel(b, spec->vt, &spec->m->tables[t], y, t + 1);
	return y;
}
