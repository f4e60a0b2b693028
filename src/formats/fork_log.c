// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/fork_log.c - the tables of the maintained fork of interbench 0.31, for the log reader:
 * its column line and its rows, with a median and microseconds. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/record.h"
#include "formats/readers.h"

/*
 * The fork's rows are printf'd as "%6.1f +/- %-8.5g%4d%5lu\t\t%4.3g\t%9.3g":
 * mean, SD, median and max with no space bound to be between the last
 * three, then % desired CPU and % deadlines met (not for Gaming), each after
 * a tab. Its median is the index of a histogram of 1000 buckets of its time
 * unit, 100 ns, whatever the table's unit; the last bucket holds everything
 * from 100 us on, so a median there is not known.
 */
#define FORK_SD_WIDTH 8
#define FORK_MEDIAN_WIDTH 4
#define FORK_MEDIAN_NS 100.0
#define FORK_MEDIAN_TOP 1000

/* "Load\tLatency +/- SD   median  max [us]\tDesired CPU  Deadlines met [%]": a fork's table. */
bool fork_columns(const char *line)
{
	return strstr(line, "median") != NULL;
}

/* Is text a log with the fork's tables: a column line of one (the log reader reads either)? */
bool fork_sniff(const char *text, size_t len)
{
	const char *end = text + len;

	for (const char *p = text; p < end; ) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;

		if (e - p > 5 && !memcmp(p, "Load\t", 5) && memmem(p, (size_t)(e - p), "median", 6))
			return true;
		p = e + 1;
	}
	return false;
}

/* Its unit, in ns: us, or its own 100 ns ("[100]") in real-time tables; 0 when neither. */
double fork_unit_ns(const char *line)
{
	if (strstr(line, "[us]"))
		return 1e3;
	return strstr(line, "[100]") ? 100.0 : 0.0;
}

/* n bytes of s, spaces around them dropped, as a value into *v. */
static bool field_value(const char *s, size_t n, double *v)
{
	char buf[32];

	while (n && *s == ' ')
		s++, n--;
	while (n && s[n - 1] == ' ')
		n--;
	if (!n || n >= sizeof(buf))
		return false;
	snprintf(buf, sizeof(buf), "%.*s", (int)n, s);
	return parse_value(buf, v);
}

/*
 * SD, median and max from what follows "+/- ": apart by spaces when they
 * are, else by the widths they were printed in, as when max has five
 * digits or more and runs into the median ("  2512345"), or an SD of eight
 * characters or more into a median of 1000 ("1.2346e+051000").
 */
static bool sd_median_max(const char *x, size_t n, double *sd, double *med, double *max)
{
	char buf[128], *w[4], *save = NULL;
	size_t sdlen = strcspn(x, " "), width;
	const char *e = memchr(x, 'e', sdlen);
	int nw = 0;

	if (n >= sizeof(buf))
		return false;
	snprintf(buf, sizeof(buf), "%.*s", (int)n, x);
	for (char *t = strtok_r(buf, " ", &save); t && nw < 4; t = strtok_r(NULL, " ", &save))
		w[nw++] = t;
	if (nw == 3)
		return parse_value(w[0], sd) && parse_value(w[1], med) && parse_value(w[2], max);
	if (nw < 1)
		return false;
	if (e && sdlen > (size_t)(e - x) + 4)	/* "1.2346e+05" ran into a median of 1000 */
		sdlen = (size_t)(e - x) + 4;
	width = sdlen > FORK_SD_WIDTH ? sdlen : FORK_SD_WIDTH;
	if (n <= width + FORK_MEDIAN_WIDTH)
		return false;
	return field_value(x, sdlen, sd) && field_value(x + width, FORK_MEDIAN_WIDTH, med) &&
	       field_value(x + width + FORK_MEDIAN_WIDTH, n - width - FORK_MEDIAN_WIDTH, max);
}

/*
 * A row's numbers, s past the load's tab, into o: latencies in unit_ns,
 * the median in the fork's own unit; an empty or missing % column (the
 * fork leaves them out in some versions) is not known. False when the row
 * is not one.
 */
bool fork_row(const char *s, double unit_ns, bool deadlines, struct result *o)
{
	const char *pm = strstr(s, " +/- "), *tab;
	size_t seg = strcspn(s, "\t");
	double med;
	int base;

	if (!pm || (size_t)(pm - s) > seg || !field_value(s, (size_t)(pm - s), &o->value[RF_MEAN]))
		return false;
	pm += 5;
	if (!sd_median_max(pm, seg - (size_t)(pm - s), &o->value[RF_SD], &med, &o->value[RF_MAX]))
		return false;
	o->value[RF_MEAN] *= unit_ns;
	o->value[RF_SD] *= unit_ns;
	o->value[RF_MAX] *= unit_ns;
	o->value[RF_P50] = med < FORK_MEDIAN_TOP ? med * FORK_MEDIAN_NS : NAN;
	/*
	 * "\t\t 100\t      100": after the latencies' tab an empty field, then
	 * the two; without the empty field, they start at once.
	 */
	tab = s[seg] ? s + seg + 1 : NULL;
	base = tab && strspn(tab, " ") == strcspn(tab, "\t") ? 1 : 0;
	for (int f = 0; tab && f < base + 2; f++) {
		size_t n = strcspn(tab, "\t");
		int field = f == base ? RF_CPU :
			    f == base + 1 && deadlines ? RF_DEADLINES_MET_PCT : -1;

		if (field >= 0 && strspn(tab, " ") < n && !field_value(tab, n, &o->value[field]))
			return false;
		tab = tab[n] ? tab + n + 1 : NULL;
	}
	return true;
}
