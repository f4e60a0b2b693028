// SPDX-License-Identifier: GPL-2.0-or-later
/* output/result.c - the result model: registry order, marks, pass summaries, formatters, run
 * keys. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/latency_strip.h"
#include "core/verdict.h"
#include "lib/sbuf.h"
#include "lib/util.h"
#include "model/workloads.h"
#include "output/result.h"
#include "model/config.h"

void result_init(struct result *r)
{
	memset(r, 0, sizeof(*r));
	for (int k = 0; k < RF_COUNT; k++)
		r->v[k] = NAN;
}

/*
 * The row's latency over time from its period records (core/latency_strip.h), kept
 * in r; none for Gaming, which has no wake-ups. 0, or -ENOMEM (r then has
 * none).
 */
int result_set_strip(struct result *r, const struct period_log *h, const struct period_rec *rec,
		     size_t n, uint64_t row_start, double seconds)
{
	free(r->strip);
	r->strip = NULL;
	if (!h->num)
		return 0;
	r->strip = malloc(sizeof(*r->strip));
	if (!r->strip || strip_of(h, rec, n, row_start, seconds, r->strip)) {
		free(r->strip);
		r->strip = NULL;
		return -ENOMEM;
	}
	return 0;
}

const char *status_name(int status)
{
	switch (status) {
	case ROW_OK: return "ok";
	case ROW_FAILED: return "failed";
	default: return "skipped";
	}
}

/*
 * The marks of a row, fastest being the highest loop_speed of the run so
 * far, and their text for the row's end ("" when none): what was off, by
 * how much.
 */
unsigned result_marks(const struct result *r, double fastest, char *buf, size_t len)
{
	double ratio = r->v[RF_WORK_RATIO], speed = r->v[RF_LOOP_SPEED];
	double periods = r->v[RF_MET] + r->v[RF_MISSED] + r->v[RF_DROPPED];
	unsigned m = 0;
	size_t n = 0;

	buf[0] = '\0';
	if (r->status != ROW_OK)
		return 0;
	if (isfinite(ratio) && fabs(ratio - 1.0) > MARK_WORK_OFF) {
		m |= MARK_WORK;
		n += (size_t)snprintf(buf + n, len - n, "work_ratio %.2f", ratio);
	}
	if (isfinite(speed) && fastest > 0 && speed < fastest * (1.0 - MARK_SPEED_BELOW) &&
	    n < len) {
		m |= MARK_SPEED;
		n += (size_t)snprintf(buf + n, len - n, "%sloop_speed %.0f%%", n ? ", " : "",
				      100.0 * (speed / fastest - 1.0));
	}
	if (isfinite(periods) && isfinite(r->v[RF_SAMPLES]) && r->v[RF_SAMPLES] < periods &&
	    n < len) {
		m |= MARK_SAMPLES;
		snprintf(buf + n, len - n, "%s%.0f samples, %.0f periods", n ? ", " : "",
			 r->v[RF_SAMPLES], periods);
	}
	return m;
}

/* The one footnote line under a table: what the marks in it mean. */
void result_marks_note(unsigned marks, char *buf, size_t len)
{
	static const struct { unsigned mark; const char *text; } notes[] = {
		{ MARK_WORK, "work_ratio: task CPU time / the work of its periods, off 1 by over 3 %" },
		{ MARK_SPEED, "loop_speed: loop iterations per CPU us, over 10 % below the run's "
			      "fastest row" },
		{ MARK_SAMPLES, "fewer samples than periods: a period begun while the task still "
				"worked has no wakeup" },
	};
	size_t n = (size_t)snprintf(buf, len, "[...]:");

	for (size_t i = 0; i < ARRAY_SIZE(notes) && n < len; i++)
		if (marks & notes[i].mark)
			n += (size_t)snprintf(buf + n, len - n, "%s %s", n > 6 ? ";" : "",
					      notes[i].text);
}

/* Files keep mean, SD and loop speed to 0.001: more digits are noise and only make them longer. */
double result_file_value(const struct result *r, int field)
{
	double v = r->v[field];

	if (field == RF_MEAN || field == RF_SD || field == RF_TMEAN || field == RF_TSD ||
	    field == RF_LOOP_SPEED || field == RF_QMEAN || field == RF_QSD || field == RF_PMEAN ||
	    field == RF_PSD)
		return round(v * 1e3) / 1e3;
	return v;
}

/* The position among the registry's workloads that have flag; unknown names after. */
static int rank_in_registry(const char *name, unsigned flag)
{
	int k = 0;

	for (size_t i = 0; i < nr_workloads; i++) {
		if (!(workloads[i].flags & flag))
			continue;
		if (!strcasecmp(workloads[i].name, name))
			return k;
		k++;
	}
	return k;
}

int bench_rank(const char *name)
{
	return rank_in_registry(name, WL_BENCH);
}

int load_rank(const char *name)
{
	return rank_in_registry(name, WL_LOAD);
}

/* ---- passes ---- */

/*
 * The passes that gave numbers: mean latency and max with their 95 %
 * confidence intervals, the SD pooled (root mean square), the rest averaged.
 */
void summarize_passes(const struct result *const *res, int n, struct pass_summary *s)
{
	static const int power_of[3] = { RF_MEAN, RF_P99, RF_DL };
	double *v = calloc((size_t)n + 1, sizeof(*v)), half;

	memset(s, 0, sizeof(*s));
	for (int k = 0; k < 3; k++)
		s->power[k] = -1;
	for (int k = 0; k < RF_COUNT; k++)
		s->v[k] = NAN;
	for (int i = 0; i < n; i++) {
		if (res[i]->status != ROW_OK || !isfinite(res[i]->v[RF_MEAN]))
			s->nfail += res[i]->status == ROW_FAILED;
		else
			s->npass++;
	}
	for (int k = 0; v && s->npass && k < RF_COUNT; k++) {
		int cnt = 0;

		for (int i = 0; i < n; i++) {
			double x = res[i]->v[k];

			if (res[i]->status != ROW_OK || !isfinite(res[i]->v[RF_MEAN]) ||
			    !isfinite(x))
				continue;
			v[cnt++] = k == RF_SD ? x * x : x;
		}
		if (!cnt)
			continue;
		for (int m = 0; m < 3; m++)
			if (power_of[m] == k)
				s->power[m] = passes_for_power(sd_log_pooled(v, cnt, NULL, 0), 0.10,
							       0.80);
		mean_ci95(v, cnt, &s->v[k], k == RF_MEAN ? &s->half_mean :
			  k == RF_MAX ? &s->half_max : &half);
		if (k == RF_SD)
			s->v[k] = sqrt(s->v[k]);
		if (k == RF_MAX && cnt != s->npass)
			s->half_max = 0.0;
	}
	free(v);
}

/* ---- numbers as the tables print them ---- */

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

/* ---- what makes runs comparable ---- */

#define KEY(n, f, t, field) { .name = n, .flag = f, .type = t, \
			      .off = offsetof(struct config, field) }

const struct run_key_prop run_keys[RK_COUNT] = {
	[RK_SECONDS] = KEY("seconds_per_row", "-t", KT_DOUBLE, seconds),
	[RK_CPU_LOAD] = KEY("cpu_load", "-L", KT_INT, cpu_load),
	[RK_BENCH_NICE] = KEY("bench_nice", "-B", KT_INT, bench_nice),
	[RK_LOAD_NICE] = KEY("load_nice", "-N", KT_INT, load_nice),
	[RK_UNIPROCESSOR] = KEY("uniprocessor", "-u", KT_BOOL, uniprocessor),
	[RK_FPS] = KEY("fps", "--fps", KT_INT, fps_ran),
	[RK_CUSTOM_PCT] = KEY("custom_cpu_pct", "-C", KT_INT, custom_pct),
	[RK_CUSTOM_INTERVAL] = KEY("custom_interval_us", "-I", KT_LONG, custom_interval_us),
	[RK_PERIODS] = { .name = "periods", .flag = "--period", .type = KT_CHOICE,
			 .off = offsetof(struct config, periods), .names = period_mode_names },
};

/* A live run's value of key k, as the log and the CSV write it. */
void run_key_text(const struct config *cfg, int k, char *buf, size_t len)
{
	const void *p = (const char *)cfg + run_keys[k].off;

	switch (run_keys[k].type) {
	case KT_DOUBLE:
		fmt_number(buf, len, *(const double *)p);
		break;
	case KT_INT:
		snprintf(buf, len, "%d", *(const int *)p);
		break;
	case KT_LONG:
		snprintf(buf, len, "%ld", *(const long *)p);
		break;
	case KT_BOOL:
		snprintf(buf, len, "%d", *(const bool *)p ? 1 : 0);
		break;
	case KT_CHOICE:
		snprintf(buf, len, "%s", run_keys[k].names[*(const int *)p]);
		break;
	}
}

/* Key k of a run read back, from n bytes of text; a number is written as run_key_text would. */
void run_key_set(struct run_record *r, int k, const char *text, size_t n)
{
	char buf[RK_LEN], *end;
	double v;

	snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) ? n : sizeof(buf) - 1), text);
	v = strtod(buf, &end);
	if (*buf && !*end && isfinite(v))
		fmt_number(r->key[k], sizeof(r->key[k]), v);
	else
		snprintf(r->key[k], sizeof(r->key[k]), "%s", buf);
}

/* Repeats of one another: same kernel, comment, work mode, knobs and keys (unknown only
 * matches unknown). */
bool run_comparable(const struct run_record *a, const struct run_record *b)
{
	if (strcmp(a->kernel, b->kernel) || strcmp(a->comment, b->comment) ||
	    strcmp(a->work, b->work) || !knobs_equal(&a->knobs, &b->knobs) ||
	    strcmp(a->variant, b->variant))
		return false;
	for (int k = 0; k < RK_COUNT; k++)
		if (strcmp(a->key[k], b->key[k]))
			return false;
	return true;
}

/* The log's Settings line after its name: " seconds_per_row=30 cpu_load=2 ...". */
void build_settings(char *buf, size_t len, const struct run_record *r)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < RK_COUNT && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, " %s=%s", run_keys[k].name,
					 r->key[k]);
}
