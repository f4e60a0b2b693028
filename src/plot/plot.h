/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plot/plot.h - the families of panels --plot draws below its CDFs, and the SVG pieces every
 * family shares. */
#ifndef PLOT_PLOT_H
#define PLOT_PLOT_H

/*
 * plot.c writes the document: its title, the latency CDFs, then each
 * family's panels, each family in a file of its own (plot_verdicts.c,
 * plot_strip.c), drawn from a y on down into the document's body; each
 * returns the y below what it drew. The document's height is known only
 * then, so the body is built apart and the head written last.
 */
#include <stdbool.h>
#include <stddef.h>

#include "lib/sbuf.h"
#include "model/compare_matrix.h"

/* plot.c: the one --plot, of a run (histograms) or of a comparison (summaries) */
struct verdict_table;
struct plot_spec {
	const char *title, *subtitle;
	const struct cmp_input *in;
	const struct cmp_matrix *m;
	bool run_legend;		/* a dash pattern per run, with its label */
	const struct verdict_table *vt;	/* --compare's verdicts, a panel per benchmark; NULL */
};
int plot_results(const char *path, const struct plot_spec *spec);

/* plot.c: --plot of a live run: its histograms, a panel per benchmark; --vary's verdicts */
int plot_run(const struct run_record *rec, const char *path);

#define SVG_W 960

/* plot_svg.c: what every panel uses */
void svg_text(struct sbuf *b, const char *s);	/* XML text: escaped, bad UTF-8 as '?' */
const char *svg_load_colour(const char *load);	/* the same colour for a load everywhere */
const char *svg_run_dash(int run);		/* a run's dash pattern, "" for solid */
void svg_fmt_ns(char *buf, size_t len, double ns);	/* "2 ms", "500 µs" */
double svg_log_px(double lo, double hi, double p0, double p1, double v);
void svg_log_decades(double lo, double hi, int *dlo, int *dhi);

/* A log axis of latency along one side of a plot's frame, for svg_log_grid(). */
struct svg_log_axis {
	int lo, hi;			/* decades: 10^lo .. 10^hi ns */
	int x, y, w, h;			/* the frame */
	bool up;			/* latency up the left side (the strips'), else along the bottom */
	bool minor;			/* ticks at 2 .. 9 x each decade too */
	double (*px)(const void *arg, double ns);	/* where ns falls along the axis */
	const void *arg;
};
void svg_log_grid(struct sbuf *b, const struct svg_log_axis *a);	/* frame, grid, labels */

/* plot_verdicts.c: a panel per benchmark of its verdicts, when spec has them */
int plot_verdict_panels(struct sbuf *b, const struct plot_spec *spec, int y);
/* plot_strip.c: a panel per row whose result carries its latency strip */
int plot_strip_panels(struct sbuf *b, const struct plot_spec *spec, int y);

#endif
