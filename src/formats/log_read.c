// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/log_read.c - our logs read back, interbench 0.31's and its fork's too: the tables
 * by the columns their writer walks. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/sbuf.h"
#include "lib/util.h"
#include "loads/loads.h"
#include "model/record.h"
#include "model/log_format.h"
#include "formats/readers.h"

#define RESULTS_MAX_BYTES (64 * MIB)
#define LINE_LEN 2048

/* ---- our logs and interbench 0.31's ---- */

struct line_iter {
	const char *p, *end;
	int no;
	char buf[LINE_LEN];
	bool newline;		/* the line ended with '\n' (not cut by EOF) */
	bool too_long;
};

/* The next line into it->buf, without "\r\n"; false at the end of the text. */
static bool next_line(struct line_iter *it)
{
	const char *nl;
	size_t n;

	if (it->p >= it->end)
		return false;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	n = (size_t)((nl ? nl : it->end) - it->p);
	it->newline = nl != NULL;
	if (n && it->p[n - 1] == '\r')
		n--;
	it->too_long = n >= sizeof(it->buf);
	if (it->too_long)
		n = sizeof(it->buf) - 1;
	memcpy(it->buf, it->p, n);
	it->buf[n] = '\0';
	it->p = nl ? nl + 1 : it->end;
	it->no++;
	return true;
}

static bool prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

enum log_state { LS_OUTSIDE, LS_COLUMNS, LS_ROWS };

struct log_parser {
	struct result_file *f;
	struct run_record *run;		/* NULL before the first header or table */
	enum log_state state;
	char bench[RES_NAME_LEN];
	bool realtime;
	int ncpus;			/* the heading's "(N CPUs)", 0 without */
	char group[RES_GROUP_LEN];	/* the heading's "in group A+B", or a workload */
					/* file's name; "" without */
	bool workload;			/* the table is a workload file's: a line per load, */
	struct result load_row;		/* whose figures its threads' lines, under it, take */
	bool load_seen;			/* (load_row holds one) */
	struct log_table lt;		/* the current table's columns and unit */
	bool has_intensity;		/* and so is the load intensity (ours, not 0.31's) */
	bool fork;			/* the table is the fork's (fork_log.c) */
	bool fork_deadlines;		/* and has its deadlines column */
	int rows;			/* of the current table */
	int heading_line, run_line;
	bool run_has_table;
	double pending_seconds;		/* "Using ... for S seconds" precedes its run */
	const char *pending_work;	/* and says the work mode: "cpu", "loops" or "" */
	char pending_load[RK_LEN];	/* and so does "Load set to N processors" */
	bool run_has_settings;		/* its Settings line: the headings' nice is not needed */
	bool any_table;
	int nvariants;			/* the run's Variants line: its letters' labels */
	char variants[8][RES_VARIANT_LEN];
	char *err;
	size_t errlen;
};

static int start_run(struct log_parser *lp)
{
	lp->nvariants = 0;
	lp->run = file_new_run(lp->f);
	if (!lp->run)
		return set_err(lp->err, lp->errlen, "out of memory");
	lp->run->seconds = lp->pending_seconds;
	snprintf(lp->run->work, sizeof(lp->run->work), "%s", lp->pending_work ? lp->pending_work : "");
	if (lp->pending_seconds > 0) {
		char v[RK_LEN];

		fmt_number(v, sizeof(v), lp->pending_seconds);
		run_key_set(lp->run, RK_SECONDS, v, strlen(v));
	}
	run_key_set(lp->run, RK_CPU_LOAD, lp->pending_load, strlen(lp->pending_load));
	lp->pending_seconds = 0;
	lp->pending_work = NULL;
	lp->pending_load[0] = '\0';
	lp->run_has_table = false;
	lp->run_has_settings = false;
	return 0;
}

/* "Settings: seconds_per_row=30 cpu_load=2 ...": the run keys; names not ours are skipped. */
static void log_settings(struct log_parser *lp, const char *s)
{
	if (!lp->run)
		return;
	lp->run_has_settings = true;
	for (s += strlen(LOG_MARK(LM_SETTINGS)); *(s += strspn(s, " ")); s += strcspn(s, " ")) {
		size_t n = strcspn(s, " "), eq = strcspn(s, "=");

		for (int k = 0; eq < n && k < RK_COUNT; k++)
			if (strlen(run_keys[k].name) == eq && !strncmp(s, run_keys[k].name, eq))
				run_key_set(lp->run, k, s + eq + 1, n - eq - 1);
	}
}

/*
 * A log without a Settings line (0.31's, and 1.0.0's) shows the nice
 * levels only in its headings, and only when not 0: "Audio nice 5 in the
 * presence of simulated nice 10".
 */
static void heading_nice(struct log_parser *lp, const char *after_name)
{
	const char *load = strstr(after_name, LOG_MARK(LM_PRESENCE));
	int b = 0, l = 0;
	char v[16];

	if (lp->run_has_settings)
		return;
	sscanf(after_name, " nice %d", &b);
	if (load)
		sscanf(load + strlen(LOG_MARK(LM_PRESENCE)), "nice %d", &l);
	snprintf(v, sizeof(v), "%d", b);
	run_key_set(lp->run, RK_BENCH_NICE, v, strlen(v));
	snprintf(v, sizeof(v), "%d", l);
	run_key_set(lp->run, RK_LOAD_NICE, v, strlen(v));
}

/* --ncpus's "--- (2 CPUs)" at a heading's end: the table's CPU count; 0 when none. */
static int heading_ncpus(const char *after_name)
{
	const char *m = strstr(after_name, LOG_MARK(LM_NCPUS));
	char *end;
	long n;

	if (!m || !isdigit((unsigned char)m[strlen(LOG_MARK(LM_NCPUS))]))
		return 0;
	n = strtol(m + strlen(LOG_MARK(LM_NCPUS)), &end, 10);
	return n > 0 && n <= 1L << 20 && prefix(end, " CPU") ? (int)n : 0;
}

/* "Benchmarking kernel REL at datestamp D" */
static int log_kernel_line(struct log_parser *lp, const char *s)
{
	const char *at;
	size_t n;

	if (start_run(lp))
		return -1;
	s += strlen(LOG_MARK(LM_KERNEL));
	at = strstr(s, LOG_MARK(LM_DATESTAMP));
	n = at ? (size_t)(at - s) : strlen(s);
	if (n >= sizeof(lp->run->kernel))
		n = sizeof(lp->run->kernel) - 1;
	memcpy(lp->run->kernel, s, n);
	lp->run->kernel[n] = '\0';
	if (at)
		snprintf(lp->run->date, sizeof(lp->run->date), "%s", at + strlen(LOG_MARK(LM_DATESTAMP)));
	return 0;
}

/* The table begins: its heading's line, and what it opens. */
static void table_begins(struct log_parser *lp, int line)
{
	lp->state = LS_COLUMNS;
	lp->rows = 0;
	lp->heading_line = line;
	lp->run_has_table = true;
	lp->any_table = true;
	lp->load_seen = false;
}

/* "--- Benchmarking simulated cpu of NAME [real time |nice N ]in the presence ..." */
static int log_heading(struct log_parser *lp, struct line_iter *it)
{
	const char *s = it->buf + strlen(LOG_MARK(LM_HEADING));
	size_t n = strcspn(s, " ");

	if (!lp->run && start_run(lp))
		return -1;
	if (!set_name(lp->bench, s, n))
		return set_err(lp->err, lp->errlen, "line %d: no benchmark name in the heading",
			    it->no);
	lp->group[0] = '\0';
	lp->workload = false;
	if (s[n] == ' ' && prefix(s + n + 1, LOG_MARK(LM_GROUP))) {	/* "Audio in group A+B" */
		const char *g = s + n + 1 + strlen(LOG_MARK(LM_GROUP));
		size_t len = strcspn(g, " ");

		if (len >= sizeof(lp->group))
			return set_err(lp->err, lp->errlen, "line %d: a group name too long in "
				       "the heading", it->no);
		memcpy(lp->group, g, len);
		lp->group[len] = '\0';
		n = (size_t)(g + len - s);
	}
	lp->realtime = s[n] == ' ' && prefix(s + n + 1, LOG_MARK(LM_REALTIME));
	lp->ncpus = heading_ncpus(s + n);
	heading_nice(lp, s + n);
	table_begins(lp, it->no);
	return 0;
}

/*
 * "--- Benchmarking rt-app workload NAME [real time ]in the presence of
 * simulated [nice N ]---[ (N CPUs)]": a workload file's table, NAME its
 * threads' group.
 */
static int log_workload_heading(struct log_parser *lp, struct line_iter *it)
{
	const char *s = it->buf + strlen(LOG_MARK(LM_WORKLOAD_HEADING));
	size_t n = strcspn(s, " ");

	if (!lp->run && start_run(lp))
		return -1;
	if (!n || n >= sizeof(lp->group))
		return set_err(lp->err, lp->errlen, "line %d: no workload file's name (of at most "
			       "%zu bytes) in the heading", it->no, sizeof(lp->group) - 1);
	memcpy(lp->group, s, n);
	lp->group[n] = '\0';
	snprintf(lp->bench, sizeof(lp->bench), "%.*s", (int)(sizeof(lp->bench) - 1), lp->group);
	lp->workload = true;
	lp->realtime = s[n] == ' ' && prefix(s + n + 1, LOG_MARK(LM_REALTIME));
	lp->ncpus = heading_ncpus(s + n);
	heading_nice(lp, s + n);
	table_begins(lp, it->no);
	return 0;
}

/* Column line s of a table t: its unit, which of its columns it has, and the intensity's. */
static int table_columns(struct log_parser *lp, enum log_table_id t, const char *s)
{
	lp->lt.cols = log_table_columns(t, &lp->lt.ncols);
	lp->lt.unit_ns = strstr(s, "(us)") ? 1e3 : 1e6;
	for (size_t i = 0; i < lp->lt.ncols; i++)
		lp->lt.has[i] = !lp->lt.cols[i].key || strstr(s, lp->lt.cols[i].key);
	lp->has_intensity = strstr(s, &LOG_MARK(LM_INTENSITY)[2]) != NULL;	/* past its indent */
	return 0;
}

/* A workload file's column line: "Load\tThread  Latency +/- SD (ms)  ..." ("Load    \t", --vary). */
static int thread_columns_line(struct log_parser *lp, struct line_iter *it)
{
	const char *s = it->buf, *tab = strchr(s, '\t');

	if (!prefix(s, "Load") || !tab || !prefix(tab + 1, LOG_MARK(LM_THREAD)))
		return set_err(lp->err, lp->errlen, "line %d: expected the column header after "
			       "the %s heading", it->no, lp->group);
	lp->state = LS_ROWS;
	lp->fork = false;
	return table_columns(lp, LT_THREAD, s);
}

/*
 * "Load\tLatency +/- SD (ms)  Max Latency ...": the unit and which columns
 * are there; or the fork's "Load\tLatency +/- SD   median  max [us]...".
 */
static int log_columns_line(struct log_parser *lp, struct line_iter *it)
{
	const char *s = it->buf;

	if (lp->workload)
		return thread_columns_line(lp, it);
	if (!prefix(s, "Load") || !(strstr(s, "Latency") || strstr(s, "Frame p50") ||
				     strstr(s, "Cycle p50")))
		return set_err(lp->err, lp->errlen,
			    "line %d: expected the column header after the %s heading", it->no,
			    lp->bench);
	lp->state = LS_ROWS;
	lp->fork = fork_columns(s);
	if (lp->fork) {
		lp->lt.unit_ns = fork_unit_ns(s);
		lp->fork_deadlines = strstr(s, "Deadlines") != NULL;
		if (!lp->lt.unit_ns)
			return set_err(lp->err, lp->errlen, "line %d: the %s table's unit is "
				       "neither [us] nor [100]", it->no, lp->bench);
		return 0;
	}
	return table_columns(lp, LT_TASK, s);
}

/* "Variants: A load-nice=0, B load-nice=19; ...": the labels of the run's letters. */
static void log_variants(struct log_parser *lp, const char *s)
{
	s += strlen(LOG_MARK(LM_VARIANTS));
	lp->nvariants = 0;
	while (lp->nvariants < (int)ARRAY_SIZE(lp->variants) && s[0] == 'A' + lp->nvariants &&
	       s[1] == ' ') {
		size_t n = strcspn(s + 2, ",;");

		snprintf(lp->variants[lp->nvariants++], RES_VARIANT_LEN, "%.*s", (int)n, s + 2);
		s += 2 + n;
		if (*s != ',')
			break;
		s += strspn(s, ", ");
	}
}

/* "B: reads bfq": what variant B showed when it was tried before the run. */
static void log_variant_state(struct run_record *r, const char *s)
{
	int v = s[0] - 'A';

	if (v >= 0 && v < MAX_VARIANTS && s[1] == ':' && s[2] == ' ')
		snprintf(r->variant_states[v], sizeof(r->variant_states[v]), "%s", s + 3);
}

/* A row's name, "Burn" or with --vary "Burn/B  ": the load, and the variant into o. */
static bool log_row_name(const struct log_parser *lp, struct result *o, const char *s,
			 size_t n)
{
	while (n && s[n - 1] == ' ')
		n--;
	if (lp->nvariants && n > 2 && s[n - 2] == '/' && s[n - 1] >= 'A' &&
	    s[n - 1] < 'A' + lp->nvariants) {
		o->variant_index = s[n - 1] - 'A';
		snprintf(o->variant, sizeof(o->variant), "%s", lp->variants[o->variant_index]);
		n -= 2;
	}
	return set_name(o->load, s, n);
}

/* The first need words of s, split on spaces and tabs, into tok[max]; how many; rest after. */
static int words(char *s, int need, char **tok, int max, char **rest)
{
	int ntok = 0;

	*rest = NULL;
	for (char *t = need ? strtok_r(s, " \t", rest) : NULL; t; ) {
		tok[ntok++] = t;
		if (ntok == need || ntok == max)
			break;
		t = strtok_r(NULL, " \t", rest);
	}
	return ntok;
}

/*
 * A workload file's load's line, "Burn\t   1.94 CPUs" or "Burn\tfailed:
 * why": what its threads' lines under it take (tab: after its name).
 */
static int load_line(struct log_parser *lp, struct line_iter *it, char *tab)
{
	struct result *o = &lp->load_row;
	char *s = tab + 1 + strspn(tab + 1, " \t");

	result_init(o);
	if (!log_row_name(lp, o, it->buf, (size_t)(tab - it->buf)))
		return set_err(lp->err, lp->errlen, "line %d: no load name before the tab", it->no);
	lp->load_seen = true;
	if (prefix(s, LOG_MARK(LM_FAILED))) {
		o->status = ROW_FAILED;
		s += strlen(LOG_MARK(LM_FAILED));
		snprintf(o->reason, sizeof(o->reason), "%s", s + strspn(s, ": "));
		return 0;
	}
	return lp->has_intensity ? log_tail(o, s, it->no, lp->err, lp->errlen) : 0;
}

/* A thread's line under its load's, "\tNAME  0.0112 +/- 0.0037 ...", or "\tNAME failed". */
static int thread_line(struct log_parser *lp, struct line_iter *it, char *s)
{
	size_t n = strcspn(s, " \t");
	char *tok[12], *rest;
	int ntok, need = log_words(lp->lt.cols, lp->lt.ncols, lp->lt.has);
	struct result *o;

	if (!lp->load_seen)
		return set_err(lp->err, lp->errlen, "line %d: a thread's line before its load's",
			       it->no);
	o = run_new_result(lp->run);
	if (!o)
		return set_err(lp->err, lp->errlen, "out of memory");
	*o = lp->load_row;
	if (!set_name(o->bench, s, n)) {
		lp->run->nres--;
		return set_err(lp->err, lp->errlen, "line %d: no thread name", it->no);
	}
	o->rtapp = true;
	o->realtime = lp->realtime;
	o->ncpus = lp->ncpus;
	snprintf(o->group, sizeof(o->group), "%s", lp->group);
	lp->rows++;
	s += n + strspn(s + n, " \t");
	if (o->status == ROW_FAILED || prefix(s, LOG_MARK(LM_FAILED))) {
		o->status = ROW_FAILED;
		return 0;
	}
	ntok = words(s, need, tok, (int)ARRAY_SIZE(tok), &rest);
	if (log_values(&lp->lt, tok, ntok, o, it->no, lp->err, lp->errlen)) {
		lp->run->nres--;
		return -1;
	}
	return 0;
}

/* A workload file's table's line: a load's, or a thread's under it (a tab first). */
static int workload_row(struct log_parser *lp, struct line_iter *it)
{
	char *tab = strchr(it->buf, '\t');

	if (!tab)
		return set_err(lp->err, lp->errlen, "line %d: not a row of the %s table", it->no,
			       lp->group);
	if (it->too_long)
		return set_err(lp->err, lp->errlen, "line %d: row too long", it->no);
	return tab == it->buf ? thread_line(lp, it, tab + 1) : load_line(lp, it, tab);
}

/* "NAME\t mean +/- sd  max  cpu[  deadlines][  p99  p99.9][  intensity...]", or the fork's */
static int log_row(struct log_parser *lp, struct line_iter *it)
{
	char *s = it->buf, *tab = strchr(s, '\t'), *tok[12], *save = NULL;
	int ntok = 0, need = log_words(lp->lt.cols, lp->lt.ncols, lp->lt.has);
	struct result *o;

	if (lp->workload)
		return workload_row(lp, it);
	if (!tab)
		return set_err(lp->err, lp->errlen, "line %d: not a row of the %s table", it->no,
			    lp->bench);
	if (it->too_long)
		return set_err(lp->err, lp->errlen, "line %d: row too long", it->no);
	if (lp->fork && tab == s)
		return 0;		/* the fork's unnamed row of every table together */
	o = run_new_result(lp->run);
	if (!o)
		return set_err(lp->err, lp->errlen, "out of memory");
	if (!log_row_name(lp, o, s, (size_t)(tab - s))) {
		lp->run->nres--;
		return set_err(lp->err, lp->errlen, "line %d: no load name before the tab", it->no);
	}
	snprintf(o->bench, sizeof(o->bench), "%s", lp->bench);
	o->realtime = lp->realtime;
	o->ncpus = lp->ncpus;
	snprintf(o->group, sizeof(o->group), "%s", lp->group);
	lp->rows++;
	s = tab + 1;
	s += strspn(s, " \t");
	if (prefix(s, LOG_MARK(LM_FAILED))) {
		o->status = ROW_FAILED;
		s += strlen(LOG_MARK(LM_FAILED));
		snprintf(o->reason, sizeof(o->reason), "%s", s + strspn(s, ": "));
		return 0;
	}
	if (lp->fork) {
		if (fork_row(tab + 1, lp->lt.unit_ns, lp->fork_deadlines, o))
			return 0;
		lp->run->nres--;
		return set_err(lp->err, lp->errlen, "line %d: %s row cut short or mangled", it->no,
			       o->load);
	}
	ntok = words(s, need, tok, (int)ARRAY_SIZE(tok), &save);
	if (log_values(&lp->lt, tok, ntok, o, it->no, lp->err, lp->errlen) ||
	    (lp->has_intensity && save && log_tail(o, save, it->no, lp->err, lp->errlen))) {
		lp->run->nres--;
		return -1;
	}
	return 0;
}

/*
 * "Using N loops per ms, running every load for S seconds" (ours in loops
 * mode, and 0.31's) or "Using CPU time as work, running every load for S
 * seconds" (CPU mode): the seconds per row and the work mode.
 */
static void log_using_line(struct log_parser *lp, const char *s)
{
	const char *every = strstr(s, LOG_MARK(LM_EVERY)), *what = s + strlen(LOG_MARK(LM_USING));
	const char *cpu = LOG_MARK(LM_CPU_WORK), *loops = LOG_MARK(LM_LOOPS);
	size_t n = (size_t)(every - what);

	lp->pending_seconds = atof(every + strlen(LOG_MARK(LM_EVERY)));
	if (n == strlen(cpu) && !strncmp(what, cpu, n))
		lp->pending_work = "cpu";
	else if (n > strlen(loops) && !strncmp(every - strlen(loops), loops, strlen(loops)))
		lp->pending_work = "loops";
	else
		lp->pending_work = "";
}

/* The run's Load set to line: -L, a run key. */
static void log_loadset(struct log_parser *lp, const char *s)
{
	s += strlen(LOG_MARK(LM_LOADSET));
	snprintf(lp->pending_load, sizeof(lp->pending_load), "%.*s", (int)strcspn(s, " "), s);
}

/* A line, known by the marker it starts with (log_markers[]) and where it stands. */
static int log_line(struct log_parser *lp, struct line_iter *it)
{
	const char *s = it->buf;
	int mark = log_mark_of(s);
	bool head = lp->run && !lp->run_has_table;	/* the run's header, before its tables */

	switch (mark) {
	case LM_KERNEL:
		lp->state = LS_OUTSIDE;
		lp->run_line = it->no;
		return log_kernel_line(lp, s);
	case LM_HEADING:
		return log_heading(lp, it);
	case LM_WORKLOAD_HEADING:
		return log_workload_heading(lp, it);
	case LM_INTERRUPTED:
		if (lp->run)
			lp->run->interrupted = 1;
		lp->state = LS_OUTSIDE;
		return 0;
	}
	if (lp->state != LS_OUTSIDE && !it->newline && *s)
		return set_err(lp->err, lp->errlen,
			    "line %d: ends in the middle of a line (truncated?)", it->no);
	switch (lp->state) {
	case LS_COLUMNS:
		return log_columns_line(lp, it);
	case LS_ROWS:
		if (!*s) {
			lp->state = LS_OUTSIDE;
			return 0;
		}
		return log_row(lp, it);
	case LS_OUTSIDE:
		break;
	}
	if (mark == LM_PREEMPTION && head && strstr(s, ", sched_ext: "))	/* and its keys */
		record_scx_of(lp->run->scx, sizeof(lp->run->scx),
			      strstr(s, ", sched_ext: ") + strlen(", sched_ext: "));
	if (mark == LM_COMMENT && head)
		snprintf(lp->run->comment, sizeof(lp->run->comment), "%s",
			 s + strlen(LOG_MARK(LM_COMMENT)));
	else if (mark == LM_SCHEDULING && head)
		knobs_parse_line(s + strlen(LOG_MARK(LM_SCHEDULING)), &lp->run->knobs);
	else if (mark == LM_USING && strstr(s, LOG_MARK(LM_EVERY)))
		log_using_line(lp, s);
	else if (mark == LM_LOADSET)
		log_loadset(lp, s);
	else if (mark == LM_SETTINGS && !lp->run_has_table)
		log_settings(lp, s);
	else if (mark == LM_VARIANTS && head)
		log_variants(lp, s);
	else if (mark == LM_VARIANT_STATE && head)
		log_variant_state(lp->run, s + strlen(LOG_MARK(LM_VARIANT_STATE)));
	else if (mark >= 0 && head)	/* machine_keys[] knows which lines hold its keys */
		machine_parse_line(mark, s + strlen(LOG_MARK(mark)), &lp->run->mach);
	return 0;
}

/* At the text's end: what a log cut short leaves unfinished; 0 when it is whole. */
static int log_end(const struct log_parser *lp, const struct line_iter *it, char *err,
		   size_t errlen)
{
	if (!lp->any_table && lp->run)
		return set_err(err, errlen, "line %d: a run header with no tables (truncated?)",
			       lp->run_line);
	if (!lp->any_table)
		return set_err(err, errlen, "not an interbench log or CSV file (no 'Benchmarking "
			       "simulated cpu' table, no CSV header)");
	if (lp->state != LS_OUTSIDE && !it->newline)
		return set_err(err, errlen, "line %d: ends in the middle of a line (truncated?)",
			       it->no);
	if (lp->state == LS_COLUMNS)
		return set_err(err, errlen, "line %d: the %s heading has no table (truncated?)",
			       lp->heading_line, lp->bench);
	if (lp->state == LS_ROWS && !lp->rows)
		return set_err(err, errlen, "line %d: the %s table has no rows (truncated?)",
			       lp->heading_line, lp->bench);
	if (lp->run && !lp->run_has_table && !lp->run->interrupted)
		return set_err(err, errlen, "line %d: the run has no tables (truncated?)",
			       lp->run_line);
	return 0;
}

int log_parse(const char *text, size_t len, struct result_file *f, char *err, size_t errlen)
{
	struct log_parser *lp = calloc(1, sizeof(*lp));
	struct line_iter *it = calloc(1, sizeof(*it));
	int ret = 0;

	if (!it || !lp) {
		free(lp);
		free(it);
		return set_err(err, errlen, "out of memory");
	}
	*lp = (struct log_parser){ .f = f, .err = err, .errlen = errlen, .lt.unit_ns = 1e6 };
	it->p = text;
	it->end = text + len;
	f->format = RES_LOG;
	while (!ret && next_line(it))
		ret = log_line(lp, it);
	if (!ret)
		ret = log_end(lp, it, err, errlen);
	free(lp);
	free(it);
	return ret;
}
