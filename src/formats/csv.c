// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/csv.c - our CSV: one table of columns that the writer and the reader (csv_read.c,
 * --compare) both walk. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "formats/format.h"
#include "model/config.h"
#include "model/metrics.h"
#include "sys/machine.h"
#include "task/work.h"
#include "formats/csv_columns.h"

#define TEXT(n, t, req) { .name = n, .text = t, .required = req }
#define METRICS(first, to) { .name = first, .text = CT_METRIC, .last = to }
#define KEY_COL(k) { .name = NULL, .text = CT_KEY, .field = k }	/* named by run_keys[] */
#define KNOB(k) { .name = NULL, .text = CT_KNOB, .field = k }	/* named by knob_descs[] */
#define MACH(k) { .name = NULL, .text = CT_MACHINE, .field = k }	/* by machine_keys[] */

/*
 * In this order; the first 22 are the fixed ones doc/formats.md lists. The
 * metrics' columns are runs of model/metrics.c's rows, a new one at the end.
 */
static const struct csv_column csv_layout[] = {
	TEXT("kernel_release", CT_KERNEL, true), TEXT("comment", CT_COMMENT, true),
	TEXT("start", CT_START, false), TEXT("pass", CT_PASS, false),
	TEXT("realtime", CT_REALTIME, true), TEXT("benchmark", CT_BENCH, true),
	TEXT("load", CT_LOAD, true), TEXT("status", CT_STATUS, true),
	TEXT("reason", CT_REASON, false), METRICS("samples", "migrations"),
	TEXT("ran_instead", CT_RAN_INSTEAD, false), METRICS("miss_queued", "miss_blocked"),
	KEY_COL(RK_SECONDS), TEXT("work", CT_WORK, false), TEXT("loops_per_ms", CT_LOOPS, false),
	KEY_COL(RK_CPU_LOAD), KEY_COL(RK_BENCH_NICE), KEY_COL(RK_LOAD_NICE),
	KEY_COL(RK_UNIPROCESSOR), TEXT("interrupted", CT_INTERRUPTED, false),
	MACH(MK_PREEMPTION), MACH(MK_CLOCKSOURCE), MACH(MK_GOVERNOR),
	TEXT("pm_qos_us", CT_PM_QOS, false), TEXT("hostname", CT_HOSTNAME, false),
	TEXT("cpus_online", CT_CPUS_ONLINE, false), MACH(MK_CPUS_USABLE), MACH(MK_MEM_LIMIT),
	KNOB(KN_POLICY), KNOB(KN_RT_PRIORITY), KNOB(KN_SLICE), KNOB(KN_UCLAMP_MIN),
	KNOB(KN_UCLAMP_MAX), KNOB(KN_LOAD_POLICY), KEY_COL(RK_FPS), KEY_COL(RK_CUSTOM_PCT),
	KEY_COL(RK_CUSTOM_INTERVAL), KEY_COL(RK_PERIODS), TEXT("sched_ext", CT_SCHED_EXT, false),
	TEXT("autogroup", CT_AUTOGROUP, false), MACH(MK_HZ), MACH(MK_CPU_MODEL), MACH(MK_CMDLINE),
	TEXT("variant", CT_VARIANT, false), TEXT("variant_index", CT_VARIANT_INDEX, false),
	TEXT("variant_value", CT_VARIANT_VALUE, false), TEXT("variant_pid", CT_VARIANT_PID, false),
	TEXT("variant_sched_ext", CT_VARIANT_SCX, false), TEXT("ncpus", CT_NCPUS, false),
	METRICS("frame_p50_ns", "group"), TEXT("instances", CT_INSTANCES, false),
	METRICS("workload", "wu_lat_mean_ns"), KEY_COL(RK_WORKLOAD), KEY_COL(RK_WAKE),
	KEY_COL(RK_TIMER_SLACK), METRICS("task_timer_slack_ns", NULL),
};

static struct csv_column csv_columns[CSV_MAX_FIELDS];
static size_t nr_cols;
#define NR_COLS nr_cols

/* The columns: the layout with each run of metrics' columns one by one, made at the first call. */
const struct csv_column *csv_columns_of(size_t *n)
{
	for (size_t k = 0, made = nr_cols; !made && k < ARRAY_SIZE(csv_layout); k++) {
		const struct csv_column *c = &csv_layout[k];
		bool in = false;

		if (c->text != CT_METRIC)
			csv_columns[nr_cols++] = *c;
		for (size_t i = 0; c->text == CT_METRIC && i < nr_metrics; i++) {
			const struct metric *m = &metrics[i];

			in = in || (m->csv && !strcmp(m->csv, c->name));
			if (in && m->csv && nr_cols < CSV_MAX_FIELDS)
				csv_columns[nr_cols++] = (struct csv_column){
					.name = m->csv, .m = m, .required = m->compare.head != NULL };
			if (in && c->last && m->csv && !strcmp(m->csv, c->last))
				break;
		}
	}
	*n = nr_cols;
	return csv_columns;
}

/* Run keys, machine keys and knobs are named by their own tables, which the log uses too. */
const char *csv_col_name(const struct csv_column *c)
{
	if (c->text == CT_KEY)
		return run_keys[c->field].name;
	if (c->text == CT_MACHINE)
		return machine_keys[c->field].column;
	return c->text == CT_KNOB ? knob_descs[c->field].file : c->name;
}

/* ---- writing ---- */

static const char *known(const char *s)
{
	return s && *s ? s : NULL;
}

static const char *num_text(char *buf, size_t len, long long v)
{
	snprintf(buf, len, "%lld", v);
	return buf;
}

/* The run's context: a column the reader does not need. */
static const char *context_text(enum csv_text t, const struct run_record *run, char *buf,
				size_t len)
{
	const struct machine *si = run->sys;
	const struct config *cfg = run->cfg;

	switch (t) {
	case CT_WORK: return work_mode_name(cfg->work);
	case CT_LOOPS: return cfg->work == WORK_LOOPS ?
			      num_text(buf, len, (long long)cfg->loops_per_ms) : NULL;
	case CT_INTERRUPTED: return num_text(buf, len, !!run->interrupted);
	case CT_PM_QOS: return si && si->pm_qos_us != SI_UNKNOWN ?
			       num_text(buf, len, si->pm_qos_us) : NULL;
	case CT_HOSTNAME: return si ? known(si->hostname) : NULL;
	case CT_SCHED_EXT:
		if (!si)
			return NULL;
		sysinfo_sched_ext_text(si, buf, len);
		return buf;
	case CT_AUTOGROUP: return si && si->autogroup >= 0 ? num_text(buf, len, si->autogroup) :
			   NULL;
	case CT_CPUS_ONLINE: return si ? num_text(buf, len, si->cpus_online) : NULL;
	default: return NULL;
	}
}

/*
 * "ibload-Burn:0.97 kworker/1:1:0.03": who ran instead, each comm and its
 * share; a comm may hold spaces and colons, so each entry ends at the
 * colon and number before a space or the end. Empty when not known.
 */
static const char *ran_text(const struct ran_instead *ri, char *buf, size_t len)
{
	size_t at = 0;

	if (ri->state != RAN_OK || !ri->n)
		return NULL;
	buf[0] = '\0';
	for (int i = 0; i < ri->n && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s:%.3g", i ? " " : "", ri->top[i].comm,
				 ri->top[i].share);

		at += w > 0 ? (size_t)w : 0;
	}
	return buf;
}

static const char *column_text(const struct csv_column *c, const struct run_record *run,
			       const struct result *r, char *buf, size_t len)
{
	switch (c->text) {
	case CT_KEY: return run->key[c->field];
	case CT_MACHINE: return machine_csv_text(&run->mach, c->field);
	case CT_KERNEL: return run->kernel;
	case CT_COMMENT: return run->cfg->comment;
	case CT_START: fmt_iso8601(buf, len, run->start); return buf;
	case CT_PASS: return num_text(buf, len, r->pass + 1);
	case CT_REALTIME: return num_text(buf, len, r->realtime);
	case CT_BENCH: return r->bench;
	case CT_LOAD: return r->load;
	case CT_STATUS: return status_name(r->status);
	case CT_REASON: return known(r->reason);
	case CT_VARIANT: return known(r->variant);
	case CT_VARIANT_INDEX: return r->variant[0] ? num_text(buf, len, r->variant_index + 1) :
				      NULL;
	case CT_VARIANT_VALUE: return known(r->knob_value);
	case CT_VARIANT_PID: return r->variant_pid ? num_text(buf, len, r->variant_pid) : NULL;
	case CT_VARIANT_SCX: return known(r->variant_scx);
	case CT_NCPUS: return r->ncpus ? num_text(buf, len, r->ncpus) : NULL;
	case CT_INSTANCES: return r->instances > 1 ? num_text(buf, len, r->instances) : NULL;
	case CT_RAN_INSTEAD: return ran_text(&r->ran, buf, len);
	default: return context_text(c->text, run, buf, len);
	}
}

/* One line: the column names (r NULL) or a result's values; a number not known is empty. */
static void csv_line(struct sbuf *sb, const struct run_record *run, const struct result *r)
{
	char buf[RAN_TOP * (RAN_COMM + 16)];
	size_t n;

	csv_columns_of(&n);
	for (size_t k = 0; k < n; k++) {
		const struct csv_column *c = &csv_columns[k];

		if (k)
			sb_add(sb, ",", 1);
		if (!r)
			csv_field(sb, csv_col_name(c));
		else if (c->text == CT_KNOB)
			csv_field(sb, known(run->knobs.v[c->field]));
		else if (c->text != CT_METRIC)
			csv_field(sb, column_text(c, run, r, buf, sizeof(buf)));
		else if (c->m->field < 0)
			csv_field(sb, metric_text(c->m, r));
		else if (isfinite(r->value[c->m->field]))
			json_number(sb, metric_value(c->m, r));
	}
	sb_add(sb, "\n", 1);
}

/* The header line: a live file's head (live_files.c); it has no tail. */
void csv_head(struct sbuf *sb, const struct run_record *run)
{
	csv_line(sb, run, NULL);
}

/* Result i of the record as its line. */
void csv_result_at(struct sbuf *sb, const struct run_record *run, int i)
{
	csv_line(sb, run, &run->res[i]);
}

void build_csv(struct sbuf *sb, const struct run_record *run)
{
	csv_head(sb, run);
	for (int i = 0; i < run->nres; i++)
		csv_result_at(sb, run, i);
}
