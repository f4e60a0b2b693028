// SPDX-License-Identifier: GPL-2.0-or-later
/* output/plot_svg.c - the SVG pieces every panel of --plot shares: text, colours, units, log
 * scales. */
#include <math.h>
#include <stdio.h>

#include "lib/util.h"
#include "output/plot.h"
#include "output/result.h"

/* Colours by load, so that a load looks the same in every panel and plot. */
static const char *const load_colour[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
	"#000000", "#8c564b", "#7f7f7f", "#bcbd22", "#17becf", "#9467bd",
	"#e6194b", "#3cb44b", "#4363d8", "#f58231",
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

	if (k < known)
		return load_colour[k];
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
