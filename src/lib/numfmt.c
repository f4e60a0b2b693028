// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/numfmt.c - numbers as the tables print them. */
#include <math.h>
#include <stdio.h>

#include "lib/numfmt.h"

/*
 * sig significant figures, never in exponent form, at most 6 decimals (so
 * a value under 0.0000005 prints as 0.000000); with maxw, fewer decimals
 * where the value would be wider than maxw: 0.00523 -> 0.0052 in 6.
 */
void fmt_value(char *buf, size_t len, double v, int sig, int maxw)
{
	int dec;

	if (!isfinite(v) || v == 0.0) {
		snprintf(buf, len, "%s", v == 0.0 ? "0" : "-");
		return;
	}
	dec = sig - 1 - (int)floor(log10(fabs(v)));
	/* 99.96 rounds to 100.0: one digit more before the point, one less after */
	if (dec > 0 && round(fabs(v) * pow(10, dec)) >= pow(10, sig))
		dec--;
	if (dec < 0)
		dec = 0;
	if (dec > 6)
		dec = 6;
	for (; maxw && dec > 0; dec--)
		if (snprintf(buf, len, "%.*f", dec, v) <= maxw)
			return;
	snprintf(buf, len, "%.*f", dec, v);
}

/* Three significant figures, as the run's tables print latencies. */
void fmt_sig3(char *buf, size_t len, double v)
{
	fmt_value(buf, len, v, 3, 0);
}

/*
 * A percentage, never rounded up to 100: 100 stays "100", 99.95 does not
 * become it. maxw 0: three figures (four from 99.9); else cut to maxw characters.
 */
void fmt_pct(char *buf, size_t len, double v, int maxw)
{
	int dec;

	if (!isfinite(v) || v >= 100.0) {
		snprintf(buf, len, "%s", v >= 100.0 ? "100" : "-");
	} else if (!maxw) {
		if (v >= 99.9)
			snprintf(buf, len, "%.2f", floor(v * 100.0) / 100.0);
		else
			fmt_sig3(buf, len, v);
	} else if (v <= 0.0) {
		snprintf(buf, len, "0");
	} else {
		dec = maxw - 1 - (v >= 10.0 ? 2 : 1);
		dec = dec < 0 ? 0 : dec;
		snprintf(buf, len, "%.*f", dec, floor(v * pow(10, dec)) / pow(10, dec));
	}
}

/* The change of v against ref, as "(+12%)"; ten times or more as "(x12)". */
void fmt_change(char *buf, size_t len, double ref, double v)
{
	double pct;
	long r;

	if (!isfinite(ref) || !isfinite(v)) {
		snprintf(buf, len, "%s", "");
		return;
	}
	if (ref == 0.0) {
		snprintf(buf, len, v == 0.0 ? "(0%%)" : "(n/a)");
		return;
	}
	pct = (v / ref - 1.0) * 100.0;
	if (pct >= 999.5) {
		double x = v / ref;

		if (x < 9999.5)
			snprintf(buf, len, "(x%.0f)", x);
		else
			snprintf(buf, len, "(x>1e4)");
		return;
	}
	r = lround(pct);
	if (r == 0)
		snprintf(buf, len, "(0%%)");
	else
		snprintf(buf, len, "(%+ld%%)", r);
}

