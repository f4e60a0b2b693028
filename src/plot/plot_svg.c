// SPDX-License-Identifier: GPL-2.0-or-later
/* plot/plot_svg.c - the SVG pieces every panel of --plot shares: text, colours, units, log
 * scales. */
#include <math.h>
#include <stdio.h>

#include "lib/util.h"
#include "plot/plot.h"
#include "model/record.h"

/* Colours by load, so that a load looks the same in every panel and plot. */
static const char *const load_colour[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
	"#000000", "#8c564b", "#7f7f7f", "#bcbd22", "#17becf", "#9467bd",
	"#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#808000", "#000075",
	"#aaffc3",
};
static const char *const run_dash[] = {
	"", "9 4", "2 3", "12 3 3 3", "1 6", "6 6", "14 4 2 4 2 4", "4 2",
};

/* The length of the UTF-8 character at s that XML allows, or 0 (not U+FFFE, U+FFFF). */
static int utf8_char(const unsigned char *s)
{
	size_t len = utf8_valid_len(s);

	if (len == 3 && s[0] == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf))
		return 0;
	return (int)len;
}

/* Text for XML: markup escaped, control characters dropped, bad UTF-8 as '?'. */
void svg_text(struct sbuf *b, const char *s)
{
	while (*s) {
		int len;

		switch (*s) {
		case '&': sb_printf(b, "&amp;"); s++; continue;
		case '<': sb_printf(b, "&lt;"); s++; continue;
		case '>': sb_printf(b, "&gt;"); s++; continue;
		case '"': sb_printf(b, "&quot;"); s++; continue;
		}
		len = utf8_char((const unsigned char *)s);
		if (!len)
			sb_printf(b, "?");
		else if (len > 1 || ((unsigned char)*s >= 0x20 && *s != 0x7f))
			sb_printf(b, "%.*s", len, s);
		s += len ? len : 1;
	}
}

/* The registry's loads in its order, then a hash of the name for the others. */
const char *svg_load_colour(const char *load)
{
	int k = load_rank(load), known = load_rank("");	/* no load is named "" */
	int spare = (int)ARRAY_SIZE(load_colour) - known;
	unsigned h = 0;

	if (k < known || spare < 1)	/* the registry outgrew the colours: repeat one */
		return load_colour[k % (int)ARRAY_SIZE(load_colour)];
	for (const char *p = load; *p; p++)
		h = h * 31 + (unsigned char)*p;
	return load_colour[known + (int)(h % (unsigned)spare)];
}

const char *svg_run_dash(int run)
{
	return run_dash[run % (int)ARRAY_SIZE(run_dash)];
}

void svg_fmt_ns(char *buf, size_t len, double ns)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "\xc2\xb5s" }, { 1, "ns" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(u); i++) {
		if (ns >= u[i].div || i + 1 == ARRAY_SIZE(u)) {
			snprintf(buf, len, "%g %s", ns / u[i].div, u[i].unit);
			return;
		}
	}
}

/* v on a log scale from lo to hi (both > 0) as a pixel from p0 to p1, clamped to the ends. */
double svg_log_px(double lo, double hi, double p0, double p1, double v)
{
	double f;

	if (!(v > lo))
		return p0;
	if (!(v < hi))
		return p1;
	f = (log10(v) - log10(lo)) / (log10(hi) - log10(lo));
	return p0 + f * (p1 - p0);
}

/* The decades 10^lo .. 10^hi ns that hold the values lo .. hi, at least one; 1 us .. 1 ms for
 * none. Nothing is below 1 ns, so no decade is negative. */
void svg_log_decades(double lo, double hi, int *dlo, int *dhi)
{
	if (!isfinite(lo) || hi <= 0) {
		lo = 1e3;
		hi = 1e6;
	}
	*dlo = (int)floor(log10(lo < 1 ? 1 : lo));
	*dhi = (int)ceil(log10(hi < 1 ? 1 : hi));
	if (*dhi <= *dlo)
		*dhi = *dlo + 1;
}

/* A line across the axis at at, from and to in the other direction. */
static void across(struct sbuf *b, const struct svg_log_axis *a, double at, int from, int to,
		   const char *colour)
{
	if (a->up)
		sb_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			  from, at, to, at, colour);
	else
		sb_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>\n",
			  at, from, at, to, colour);
}

/* A decade's tick and label, outside the frame: left of it going up, below it going along. */
static void decade_mark(struct sbuf *b, const struct svg_log_axis *a, double at, int d)
{
	char label[32];

	svg_fmt_ns(label, sizeof(label), pow(10, d));
	if (a->up) {
		across(b, a, at, a->x - 5, a->x, "#444");
		sb_printf(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", a->x - 8,
			  at + 4, label);
		return;
	}
	across(b, a, at, a->y + a->h, a->y + a->h + 5, "#444");
	sb_printf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", at,
		  a->y + a->h + 19, label);
}

/* The frame, then per decade a grid line inside it (not on its edges), its ticks and label. */
void svg_log_grid(struct sbuf *b, const struct svg_log_axis *a)
{
	int edge = a->up ? a->x : a->y + a->h;	/* the side the ticks stand on */
	int inward = a->up ? 4 : -4;

	sb_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\" "
		  "stroke=\"#444\"/>\n", a->x, a->y, a->w, a->h);
	for (int d = a->lo; d <= a->hi; d++) {
		double at = a->px(a->arg, pow(10, d));

		if (d > a->lo && d < a->hi)
			across(b, a, at, a->up ? a->x : a->y, a->up ? a->x + a->w : a->y + a->h,
			       "#ddd");
		for (int m = 2; a->minor && m <= 9 && d < a->hi; m++)
			across(b, a, a->px(a->arg, m * pow(10, d)), edge, edge + inward, "#444");
		decade_mark(b, a, at, d);
	}
}
