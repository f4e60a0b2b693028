// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/csv.c - our CSV: one table of columns that the writer and the reader (--compare) both
 * walk. */
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
#include "formats/readers.h"

#define CSV_MAX_FIELDS 256

enum csv_text {			/* a column that is not a metric's */
	CT_METRIC,			/* it is one: m */
	CT_KERNEL, CT_COMMENT, CT_START, CT_PASS, CT_REALTIME, CT_BENCH, CT_LOAD, CT_STATUS,
	CT_REASON,
	CT_RAN_INSTEAD,			/* "comm:share" of the top three, space-separated */
	/* the run's context on every line, so lines of several runs can be mixed */
	CT_KEY,				/* a run key: field is its enum run_key */
	CT_WORK, CT_LOOPS, CT_INTERRUPTED, CT_PM_QOS, CT_HOSTNAME, CT_CPUS_ONLINE,
	CT_MACHINE,			/* a machine key: field is its enum machine_key */
	CT_KNOB,			/* a scheduling knob: field is its enum knob */
	CT_SCHED_EXT, CT_AUTOGROUP,
	CT_VARIANT, CT_VARIANT_INDEX, CT_VARIANT_VALUE,	/* --vary's, empty without */
	CT_VARIANT_PID, CT_VARIANT_SCX,	/* scx=, exec=: its program, sched_ext as the row began */
	CT_NCPUS,			/* --ncpus: the row's CPU count, empty without */
	CT_INSTANCES,			/* --instances: the copies pooled, empty without */
	CT_COUNT,
};

struct csv_column {
	const char *name;		/* CT_METRIC in csv_layout[]: the first of a run of */
	enum csv_text text;		/* metrics[]' columns, to the one named last */
	int field;			/* enum run_key, machine_key or knob, by text */
	bool required;			/* --compare cannot read a file without it */
	const char *last;		/* NULL: to the end of metrics[] */
	const struct metric *m;		/* CT_METRIC, in the columns made of the layout */
};

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
static void csv_columns_make(void)
{
	for (size_t k = 0, made = nr_cols; !made && k < ARRAY_SIZE(csv_layout); k++) {
		const struct csv_column *c = &csv_layout[k];
		bool in = false;

		if (c->text != CT_METRIC)
			csv_columns[nr_cols++] = *c;
		for (size_t i = 0; c->text == CT_METRIC && i < nr_metrics; i++) {
			const struct metric *m = &metrics[i];

			in = in || (m->csv && !strcmp(m->csv, c->name));
			if (in && m->csv)
				csv_columns[nr_cols++] = (struct csv_column){
					.name = m->csv, .m = m, .required = m->flags & MF_COMPARE };
			if (in && c->last && m->csv && !strcmp(m->csv, c->last))
				break;
		}
	}
}

/* Run keys, machine keys and knobs are named by their own tables, which the log uses too. */
static const char *col_name(const struct csv_column *c)
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

	csv_columns_make();
	for (size_t k = 0; k < NR_COLS; k++) {
		const struct csv_column *c = &csv_columns[k];

		if (k)
			sb_add(sb, ",", 1);
		if (!r)
			csv_field(sb, col_name(c));
		else if (c->text == CT_KNOB)
			csv_field(sb, known(run->knobs.v[c->field]));
		else if (c->text != CT_METRIC)
			csv_field(sb, column_text(c, run, r, buf, sizeof(buf)));
		else if (c->m->field < 0)
			csv_field(sb, metric_text(c->m, r));
		else if (isfinite(r->v[c->m->field]))
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

/* ---- reading ---- */

struct csv_reader {
	const char *p, *end;
	int line;			/* where the record being read starts */
	int next_line;
	char *buf;			/* unquoted fields, each NUL-terminated */
	size_t bufcap;
	char *field[CSV_MAX_FIELDS];
	int nfields;
	bool ended_by_newline;
};

/* One record; 1 if read, 0 at the end, -1 on an error (set in err). */
static int csv_record(struct csv_reader *c, char *err, size_t errlen)
{
	size_t used = 0;
	size_t starts[CSV_MAX_FIELDS];
	bool quoted = false, field_start = true;

	if (c->p >= c->end)
		return 0;
	c->line = c->next_line;
	c->nfields = 0;
	c->ended_by_newline = false;
	starts[c->nfields++] = 0;
	while (c->p < c->end) {
		char ch = *c->p++;

		if (quoted) {
			if (ch == '"') {
				if (c->p < c->end && *c->p == '"') {
					c->p++;
				} else {
					quoted = false;
					continue;
				}
			}
			if (ch == '\n')
				c->next_line++;
		} else if (ch == '"' && field_start) {
			quoted = true;
			field_start = false;
			continue;
		} else if (ch == ',') {
			if (used >= c->bufcap)
				return set_err(err, errlen, "line %d: field too long", c->line);
			c->buf[used++] = '\0';
			if (c->nfields == CSV_MAX_FIELDS)
				return set_err(err, errlen, "line %d: more than %d fields", c->line,
					    CSV_MAX_FIELDS);
			starts[c->nfields++] = used;
			field_start = true;
			continue;
		} else if (ch == '\n' || ch == '\r') {
			if (ch == '\r' && c->p < c->end && *c->p == '\n')
				c->p++;
			c->next_line++;
			c->ended_by_newline = true;
			break;
		}
		field_start = false;
		if (used + 1 >= c->bufcap)
			return set_err(err, errlen, "line %d: field too long", c->line);
		c->buf[used++] = ch;
	}
	if (quoted)
		return set_err(err, errlen, "line %d: a quoted field never ends (truncated?)",
			    c->line);
	c->buf[used] = '\0';
	for (int i = 0; i < c->nfields; i++)
		c->field[i] = c->buf + starts[i];
	return 1;
}

/* The field of the record that holds the column named name, or -1. */
static int column_of(const int *col, const char *name)
{
	for (size_t k = 0; k < NR_COLS; k++)
		if (!strcmp(col_name(&csv_columns[k]), name))
			return col[k];
	return -1;
}

/* The header: which field holds which column; false if it is not our CSV. */
static bool csv_header(const struct csv_reader *c, int *col)
{
	for (size_t k = 0; k < NR_COLS; k++) {
		col[k] = -1;
		for (int i = 0; i < c->nfields; i++)
			if (!strcmp(c->field[i], col_name(&csv_columns[k])))
				col[k] = (int)i;
	}
	return column_of(col, "benchmark") >= 0 && column_of(col, "load") >= 0 &&
	       column_of(col, "latency_mean_ns") >= 0;
}

/* Each (kernel, comment, start) is a run; the reader pools repeats later. */
static struct run_record *csv_run(struct result_file *f, const char *const *text,
				  const char *const *keys, const char *const *mach)
{
	struct run_record *r = f->nruns ? &f->runs[f->nruns - 1] : NULL;
	const char *kernel = text[CT_KERNEL], *comment = text[CT_COMMENT];
	const char *start = text[CT_START] ? text[CT_START] : "";

	if (r && !strcmp(r->kernel, kernel) && !strcmp(r->comment, comment) &&
	    !strcmp(r->date, start) && !strcmp(r->work, text[CT_WORK] ? text[CT_WORK] : r->work))
		return r;
	r = file_new_run(f);
	if (!r)
		return NULL;
	snprintf(r->kernel, sizeof(r->kernel), "%s", kernel);
	snprintf(r->comment, sizeof(r->comment), "%s", comment);
	snprintf(r->date, sizeof(r->date), "%s", start);
	/* before the work column, every run of ours was in loops mode */
	snprintf(r->work, sizeof(r->work), "%s", text[CT_WORK] ? text[CT_WORK] :
		 text[CT_LOOPS] && *text[CT_LOOPS] ? "loops" : "");
	for (int k = 0; k < RK_COUNT; k++)
		if (keys[k])
			run_key_set(r, k, keys[k], strlen(keys[k]));
	for (int k = 0; k < MK_COUNT; k++)
		if (mach[k])
			machine_csv_set(&r->mach, k, mach[k]);
	record_scx_of(r->scx, sizeof(r->scx), text[CT_SCHED_EXT]);
	return r;
}

/* The text columns of a record into the result; false on a bad name. */
static bool csv_texts(struct result *o, const char *const *text)
{
	const char *rt = text[CT_REALTIME], *pass = text[CT_PASS], *vi = text[CT_VARIANT_INDEX];
	const char *nc = text[CT_NCPUS];
	long p;

	if (!set_name(o->bench, text[CT_BENCH], strlen(text[CT_BENCH])) ||
	    !set_name(o->load, text[CT_LOAD], strlen(text[CT_LOAD])))
		return false;
	o->realtime = !strcmp(rt, "1") || !strcasecmp(rt, "true");
	o->status = !strcasecmp(text[CT_STATUS], "failed") ? ROW_FAILED : ROW_OK;
	if (pass && !parse_long(pass, 1, 1000000, &p))
		o->pass = (int)p - 1;
	if (nc && *nc && !parse_long(nc, 1, 1L << 20, &p))
		o->ncpus = (int)p;
	if (text[CT_INSTANCES] && *text[CT_INSTANCES] &&
	    !parse_long(text[CT_INSTANCES], 1, INSTANCES_MAX, &p))
		o->instances = (int)p;
	snprintf(o->reason, sizeof(o->reason), "%s", text[CT_REASON] ? text[CT_REASON] : "");
	if (text[CT_VARIANT] && *text[CT_VARIANT] && vi && !parse_long(vi, 1, MAX_VARIANTS, &p)) {
		o->variant_index = (int)p - 1;
		snprintf(o->variant, sizeof(o->variant), "%s", text[CT_VARIANT]);
		snprintf(o->knob_value, sizeof(o->knob_value), "%s",
			 text[CT_VARIANT_VALUE] ? text[CT_VARIANT_VALUE] : "");
		snprintf(o->variant_scx, sizeof(o->variant_scx), "%s",
			 text[CT_VARIANT_SCX] ? text[CT_VARIANT_SCX] : "");
		if (text[CT_VARIANT_PID] && !parse_long(text[CT_VARIANT_PID], 1, INT_MAX, &p))
			o->variant_pid = (int)p;
	}
	return true;
}

/* A run's scheduling knobs, from its first line; a file without the columns knows none. */
static void csv_knobs(struct run_record *r, const struct csv_reader *c, const int *col)
{
	for (size_t k = 0; k < NR_COLS; k++) {
		if (csv_columns[k].text != CT_KNOB || col[k] < 0)
			continue;
		snprintf(r->knobs.v[csv_columns[k].field], KNOB_LEN, "%s", c->field[col[k]]);
		r->knobs.known = true;
	}
}

/* A metric's field into the result: a text, or a number (empty: null); -1 if not a number. */
static int csv_metric(struct result *o, const struct metric *m, const char *s)
{
	bool neg = (m->flags & MF_SIGNED) && s[0] == '-';

	if (m->field < 0)
		metric_set_text(m, o, s);
	else if (*s && !parse_value(s + neg, &o->v[m->field]))
		return -1;
	else if (*s && neg)
		o->v[m->field] = -o->v[m->field];
	return 0;
}

static int csv_row(struct result_file *f, struct csv_reader *c, const int *col, int ncols,
		   char *err, size_t errlen)
{
	const char *text[CT_COUNT] = { NULL }, *keys[RK_COUNT] = { NULL };
	const char *mach[MK_COUNT] = { NULL };
	struct run_record *r;
	struct result *o;
	size_t k;

	if (c->nfields != ncols)
		return set_err(err, errlen, "line %d: %d fields where the header has %d (truncated?)",
			    c->line, c->nfields, ncols);
	for (k = 0; k < NR_COLS; k++) {
		const struct csv_column *cc = &csv_columns[k];

		if (col[k] < 0)
			continue;
		if (cc->text == CT_KEY)
			keys[cc->field] = c->field[col[k]];
		else if (cc->text == CT_MACHINE)
			mach[cc->field] = c->field[col[k]];
		else if (cc->text != CT_METRIC && cc->text != CT_KNOB)
			text[cc->text] = c->field[col[k]];
	}
	if (!strcasecmp(text[CT_STATUS], "skipped"))
		return 0;
	r = csv_run(f, text, keys, mach);
	if (r && !r->nres)
		csv_knobs(r, c, col);
	if (!r || !(o = run_new_result(r)))
		return set_err(err, errlen, "out of memory");
	if (!csv_texts(o, text)) {
		r->nres--;
		return set_err(err, errlen, "line %d: bad benchmark or load name", c->line);
	}
	for (k = 0; k < NR_COLS; k++)
		if (csv_columns[k].text == CT_METRIC && col[k] >= 0 &&
		    csv_metric(o, csv_columns[k].m, c->field[col[k]]))
			break;
	if (k < NR_COLS) {
		char q[24];

		r->nres--;
		return set_err(err, errlen, "line %d: %s '%s' is not a number", c->line,
			       csv_columns[k].name, quote(q, sizeof(q), c->field[col[k]]));
	}
	return 0;
}

int csv_parse(const char *text, size_t len, struct result_file *f, char *err, size_t errlen)
{
	struct csv_reader c = { .p = text, .end = text + len, .next_line = 1 };
	int col[CSV_MAX_FIELDS], ncols, ret;
	char header_first[64];

	f->format = RES_CSV;
	csv_columns_make();
	c.bufcap = len + 1;
	c.buf = malloc(c.bufcap);
	if (!c.buf)
		return set_err(err, errlen, "out of memory");
	ret = csv_record(&c, err, errlen);
	if (ret <= 0 || !csv_header(&c, col)) {
		free(c.buf);
		return ret < 0 ? -1 : set_err(err, errlen, "not an interbench CSV file");
	}
	ncols = c.nfields;
	snprintf(header_first, sizeof(header_first), "%s", c.field[0]);
	for (size_t k = 0; k < NR_COLS; k++) {
		if (csv_columns[k].required && col[k] < 0) {
			free(c.buf);
			return set_err(err, errlen, "the CSV header has no '%s' column",
				    col_name(&csv_columns[k]));
		}
	}
	while ((ret = csv_record(&c, err, errlen)) > 0) {
		if (c.nfields == 1 && !c.field[0][0])
			continue;		/* blank line */
		if (!strcmp(c.field[0], header_first) && c.nfields == ncols)
			continue;		/* the header again: files put together */
		if (!c.ended_by_newline) {
			ret = set_err(err, errlen,
				   "line %d: ends in the middle of a line (truncated?)", c.line);
			break;
		}
		ret = csv_row(f, &c, col, ncols, err, errlen);
		if (ret)
			break;
	}
	free(c.buf);
	return ret;
}

/* Is text our CSV: a header line naming its first columns? */
bool csv_sniff(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);
	size_t n = nl ? (size_t)(nl - text) : len;

	return memmem(text, n, "benchmark", 9) && memmem(text, n, "latency_mean_ns", 15) &&
	       memchr(text, ',', n);
}
