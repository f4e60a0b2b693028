// SPDX-License-Identifier: GPL-2.0-or-later
/* model/run_keys.c - the keys that make two runs comparable: -t, -L, nice, --fps, -C/-I, --period,
 * --wake, as the log, the CSV and their readers name them. */
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sbuf.h"
#include "model/config.h"
#include "model/record.h"

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
	[RK_WAKE] = { .name = "wake", .flag = "--wake", .type = KT_CHOICE,
		      .off = offsetof(struct config, wake), .names = wake_mode_names },
	[RK_TIMER_SLACK] = KEY("timer_slack_ns", "--timer-slack", KT_LONG, timer_slack_ns),
	[RK_WORKLOAD] = KEY("workload_key", "-W FILE.json", KT_TEXT, rtapp.key),
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
	case KT_TEXT:
		snprintf(buf, len, "%s", (const char *)p);
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
	if (run_keys[k].type != KT_TEXT && *buf && !*end && isfinite(v))
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
	    strcmp(a->variant, b->variant) || strcmp(a->variant_state, b->variant_state) ||
	    strcmp(a->scx, b->scx))
		return false;
	for (int k = 0; k < RK_COUNT; k++)
		if (strcmp(a->key[k], b->key[k]))
			return false;
	return true;
}

/*
 * What a run's latency is called: "latency" from the instant its tasks
 * asked for (--wake timer), "wakeup latency" from the waker's stamp (--wake
 * waker, every earlier version and 0.31).
 */
const char *run_latency_name(const struct run_record *r)
{
	return strcmp(r->key[RK_WAKE], wake_mode_names[WAKE_TIMER]) ? "wakeup latency" :
								       "latency";
}

/* The log's Settings line after its name: " seconds_per_row=30 cpu_load=2 ...". */
void build_settings(char *buf, size_t len, const struct run_record *r)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < RK_COUNT && used < len; k++)
		if (run_keys[k].type != KT_TEXT || r->key[k][0])
			used += (size_t)snprintf(buf + used, len - used, " %s=%s",
						 run_keys[k].name, r->key[k]);
}
