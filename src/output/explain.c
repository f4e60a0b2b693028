// SPDX-License-Identifier: GPL-2.0-or-later
/* output/explain.c - --explain's text line under a table: where a row's latency went, who ran
 * instead. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "output/output.h"

/* ---- the text line ---- */

static void cat(char *buf, size_t len, size_t *at, const char *fmt, ...) PRINTF(4, 5);
static void cat(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at += (size_t)n;
}

/* A share of the samples, as the line prints it: "48", "0.4", "100". */
static const char *pct_of(char *buf, size_t len, double part, double whole)
{
	fmt_pct(buf, len, whole > 0 ? 100.0 * part / whole : NAN, 3);
	return buf;
}

static void ran_part(char *buf, size_t len, size_t *at, const struct ran_instead *ri)
{
	char p[16];

	if (ri->state == RAN_UNKNOWN)
		return;
	if (ri->state == RAN_FAILED) {
		cat(buf, len, at, "; ran instead: not known (the trace could not be read)");
		return;
	}
	cat(buf, len, at, "; ran instead: %s", ri->n ? "" : "nothing (no wake-up waited)");
	for (int i = 0; i < ri->n; i++)
		cat(buf, len, at, "%s%s %s %%", i ? ", " : "", ri->top[i].comm,
		    pct_of(p, sizeof(p), ri->top[i].share, 1.0));
	if (ri->lost)
		cat(buf, len, at, " (the trace lost events)");
}

/*
 * "Burn: queue wait 0.91 mean / 3.7 p99, wake path 0.06 / 0.12; 48 % of
 * wake-ups queued behind another task, 51 % woken from another CPU, 3 %
 * migrated; ran instead: ibload-Burn 97 %, kworker/1:1 3 %"
 */
void explain_line(char *buf, size_t len, const struct result *r, double unit_ns)
{
	char a[32], b[32], c[32], d[32], e[16];
	double n = r->v[RF_SAMPLES];
	size_t at = 0;

	buf[0] = '\0';
	cat(buf, len, &at, "%s: ", r->load);
	if (!isfinite(r->v[RF_CROSS_CPU])) {
		cat(buf, len, &at, "%s", isfinite(r->v[RF_TMEAN]) ? "not split (--no-split)" :
		    "no wake-ups to split");
		return;
	}
	if (isfinite(r->v[RF_QMEAN])) {
		fmt_sig3(a, sizeof(a), r->v[RF_QMEAN] / unit_ns);
		fmt_sig3(b, sizeof(b), r->v[RF_QP99] / unit_ns);
		fmt_sig3(c, sizeof(c), r->v[RF_PMEAN] / unit_ns);
		fmt_sig3(d, sizeof(d), r->v[RF_PP99] / unit_ns);
		cat(buf, len, &at, "queue wait %s mean / %s p99, wake path %s / %s; %s %% of "
		    "wake-ups queued behind another task, ", a, b, c, d,
		    pct_of(e, sizeof(e), r->v[RF_QUEUED], n));
	} else {
		cat(buf, len, &at, "no queue wait / wake path (the kernel keeps no schedstat); ");
	}
	cat(buf, len, &at, "%s %% woken from another CPU, ",
	    pct_of(a, sizeof(a), r->v[RF_CROSS_CPU], n));
	cat(buf, len, &at, "%s %% migrated", pct_of(a, sizeof(a), r->v[RF_MIGRATIONS], n));
	ran_part(buf, len, &at, &r->ran);
}

