// SPDX-License-Identifier: GPL-2.0-or-later
/* results.c - reading results back: our logs, interbench 0.31's logs and our CSV files. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interbench.h"
#include "compare.h"

#define RESULTS_MAX_BYTES (64 * MIB)
#define LINE_LEN 2048
#define CSV_MAX_FIELDS 256

/* The orders a reader of interbench tables is used to; unknown names come after. */
static const char *const bench_order[] = { "Audio", "Video", "X", "Gaming", "Custom" };
static const char *const load_order[] = {
	"None", "Video", "X", "Burn", "Write", "Read", "Ring", "Compile", "Memload",
	"Hack", "Net", "Custom",
};

static int rank_in(const char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(list[i], name))
			return (int)i;
	return (int)n;
}

int bench_rank(const char *name)
{
	return rank_in(bench_order, ARRAY_SIZE(bench_order), name);
}

int load_rank(const char *name)
{
	return rank_in(load_order, ARRAY_SIZE(load_order), name);
}

/* ---- runs and rows ---- */

static struct res_run *new_run(struct res_file *f)
{
	if (f->nruns == f->cap) {
		int cap = f->cap ? f->cap * 2 : 4;
		struct res_run *r = realloc(f->runs, (size_t)cap * sizeof(*r));

		if (!r)
			return NULL;
		f->runs = r;
		f->cap = cap;
	}
	memset(&f->runs[f->nruns], 0, sizeof(f->runs[0]));
	f->runs[f->nruns].nruns = 1;
	return &f->runs[f->nruns++];
}

static struct res_obs *new_obs(struct res_run *r)
{
	struct res_obs *o;

	if (r->nobs == r->cap) {
		int cap = r->cap ? r->cap * 2 : 16;
		struct res_obs *p = realloc(r->obs, (size_t)cap * sizeof(*p));

		if (!p)
			return NULL;
		r->obs = p;
		r->cap = cap;
	}
	o = &r->obs[r->nobs++];
	memset(o, 0, sizeof(*o));
	for (int i = 0; i < RV_COUNT; i++)
		o->v[i] = NAN;
	return o;
}

void results_free(struct res_file *f)
{
	for (int i = 0; i < f->nruns; i++)
		free(f->runs[i].obs);
	free(f->runs);
	memset(f, 0, sizeof(*f));
}

/* Copy a name, known ones in their usual spelling; false if it cannot be one. */
static bool set_name(char *dst, const char *src, size_t len, bool bench)
{
	const char *const *list = bench ? bench_order : load_order;
	size_t n = bench ? ARRAY_SIZE(bench_order) : ARRAY_SIZE(load_order);
	int k;

	if (!len || len >= RES_NAME_LEN)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isgraph((unsigned char)src[i]))
			return false;
	memcpy(dst, src, len);
	dst[len] = '\0';
	k = rank_in(list, n, dst);
	if (k < (int)n)
		strcpy(dst, list[k]);
	return true;
}

/* Move the rows of r into g; false (and nothing moved) when out of memory. */
static bool pool_run(struct res_run *g, struct res_run *r)
{
	if (g->cap - g->nobs < r->nobs) {
		int cap = g->nobs + r->nobs;
		struct res_obs *p = realloc(g->obs, (size_t)cap * sizeof(*p));

		if (!p)
			return false;
		g->obs = p;
		g->cap = cap;
	}
	if (r->nobs)
		memcpy(g->obs + g->nobs, r->obs, (size_t)r->nobs * sizeof(*r->obs));
	g->nobs += r->nobs;
	g->nruns += r->nruns;
	g->interrupted |= r->interrupted;
	if (!g->seconds)
		g->seconds = r->seconds;
	free(r->obs);
	return true;
}

/*
 * Runs of the same kernel and comment are repeats: pool them into the first,
 * keeping the order in which each pair first appears.
 */
static void merge_repeats(struct res_file *f)
{
	int out = 0;

	for (int i = 0; i < f->nruns; i++) {
		struct res_run *r = &f->runs[i];
		int j;

		for (j = 0; j < out; j++)
			if (!strcmp(f->runs[j].kernel, r->kernel) &&
			    !strcmp(f->runs[j].comment, r->comment))
				break;
		if (j < out && pool_run(&f->runs[j], r))
			continue;
		/* a new pair, or no memory to pool it: a group of its own */
		if (i != out)
			f->runs[out] = *r;
		out++;
	}
	f->nruns = out;
}

/* Drop runs that hold no rows (stopped before the first row ended). */
static void drop_empty(struct res_file *f)
{
	int out = 0;

	for (int i = 0; i < f->nruns; i++) {
		if (!f->runs[i].nobs) {
			free(f->runs[i].obs);
			continue;
		}
		f->runs[out++] = f->runs[i];
	}
	f->nruns = out;
}

/* Up to 20 characters of s for a message: one line, nothing unprintable. */
static const char *quote(char *buf, size_t len, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i < 20 && i + 1 < len; i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

/* A number as a table prints it: plain decimal, "-" for none, never negative or absurd. */
static bool parse_value(const char *s, double *v)
{
	char *end;

	if (!strcmp(s, "-")) {
		*v = NAN;
		return true;
	}
	if (!*s || strspn(s, "0123456789.eE+-") != strlen(s) || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return !*end && !errno && isfinite(*v) && *v >= 0 && *v < 1e15;
}

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
	struct res_file *f;
	struct res_run *run;		/* NULL before the first header or table */
	enum log_state state;
	char bench[RES_NAME_LEN];
	bool realtime;
	double unit_ns;
	bool has_dl, has_pct;
	int rows;			/* of the current table */
	int heading_line, run_line;
	bool run_has_table;
	double pending_seconds;		/* "Using ... for S seconds" precedes its run */
	bool any_table;
	char *err;
	size_t errlen;
};

static int start_run(struct log_parser *lp)
{
	lp->run = new_run(lp->f);
	if (!lp->run)
		return set_err(lp->err, lp->errlen, "out of memory");
	lp->run->seconds = lp->pending_seconds;
	lp->pending_seconds = 0;
	lp->run_has_table = false;
	return 0;
}

/* "Benchmarking kernel REL at datestamp D" */
static int log_kernel_line(struct log_parser *lp, const char *s)
{
	const char *at;
	size_t n;

	if (start_run(lp))
		return -1;
	s += strlen("Benchmarking kernel ");
	at = strstr(s, " at datestamp ");
	n = at ? (size_t)(at - s) : strlen(s);
	if (n >= sizeof(lp->run->kernel))
		n = sizeof(lp->run->kernel) - 1;
	memcpy(lp->run->kernel, s, n);
	lp->run->kernel[n] = '\0';
	if (at)
		snprintf(lp->run->date, sizeof(lp->run->date), "%s", at + strlen(" at datestamp "));
	return 0;
}

/* "--- Benchmarking simulated cpu of NAME [real time |nice N ]in the presence ..." */
static int log_heading(struct log_parser *lp, struct line_iter *it)
{
	const char *s = it->buf + strlen("--- Benchmarking simulated cpu of ");
	size_t n = strcspn(s, " ");

	if (!lp->run && start_run(lp))
		return -1;
	if (!set_name(lp->bench, s, n, true))
		return set_err(lp->err, lp->errlen, "line %d: no benchmark name in the heading",
			    it->no);
	lp->realtime = prefix(s + n, " real time ");
	lp->state = LS_COLUMNS;
	lp->rows = 0;
	lp->heading_line = it->no;
	lp->run_has_table = true;
	lp->any_table = true;
	return 0;
}

/* "Load\tLatency +/- SD (ms)  Max Latency   % Desired CPU[  % Deadlines Met]..." */
static int log_columns(struct log_parser *lp, struct line_iter *it)
{
	const char *s = it->buf;

	if (!prefix(s, "Load") || !strstr(s, "Latency"))
		return set_err(lp->err, lp->errlen,
			    "line %d: expected the column header after the %s heading", it->no,
			    lp->bench);
	lp->unit_ns = strstr(s, "(us)") ? 1e3 : 1e6;
	lp->has_dl = strstr(s, "Deadlines") != NULL;
	lp->has_pct = strstr(s, "p99") != NULL;
	lp->state = LS_ROWS;
	return 0;
}

/* "NAME\t mean +/- sd  max  cpu[  deadlines][  p99  p99.9][  intensity...]" */
static int log_row(struct log_parser *lp, struct line_iter *it)
{
	char *s = it->buf, *tab = strchr(s, '\t'), *tok[12], *save = NULL;
	int ntok = 0, need = 5 + lp->has_dl + 2 * lp->has_pct;
	struct res_obs *o;
	double v[9];

	if (!tab)
		return set_err(lp->err, lp->errlen, "line %d: not a row of the %s table", it->no,
			    lp->bench);
	if (it->too_long)
		return set_err(lp->err, lp->errlen, "line %d: row too long", it->no);
	o = new_obs(lp->run);
	if (!o)
		return set_err(lp->err, lp->errlen, "out of memory");
	if (!set_name(o->load, s, (size_t)(tab - s), false)) {
		lp->run->nobs--;
		return set_err(lp->err, lp->errlen, "line %d: no load name before the tab", it->no);
	}
	snprintf(o->bench, sizeof(o->bench), "%s", lp->bench);
	o->realtime = lp->realtime;
	lp->rows++;
	s = tab + 1;
	s += strspn(s, " \t");
	if (prefix(s, "failed")) {
		o->failed = true;
		return 0;
	}
	for (char *t = strtok_r(s, " \t", &save); t && ntok < (int)ARRAY_SIZE(tok);
	     t = strtok_r(NULL, " \t", &save))
		tok[ntok++] = t;
	if (ntok < need || strcmp(tok[1], "+/-")) {
		lp->run->nobs--;
		return set_err(lp->err, lp->errlen, "line %d: %s row cut short or mangled", it->no,
			    o->load);
	}
	for (int i = 0, k = 0; i < need; i++) {
		if (i == 1)
			continue;
		if (!parse_value(tok[i], &v[k++])) {
			char q[24];

			lp->run->nobs--;
			return set_err(lp->err, lp->errlen, "line %d: '%s' is not a number", it->no,
				    quote(q, sizeof(q), tok[i]));
		}
	}
	o->v[RV_MEAN] = v[0] * lp->unit_ns;
	o->v[RV_SD] = v[1] * lp->unit_ns;
	o->v[RV_MAX] = v[2] * lp->unit_ns;
	o->v[RV_CPU] = v[3];
	if (lp->has_dl)
		o->v[RV_DL] = v[4];
	if (lp->has_pct) {
		o->v[RV_P99] = v[4 + lp->has_dl] * lp->unit_ns;
		o->v[RV_P999] = v[5 + lp->has_dl] * lp->unit_ns;
	}
	return 0;
}

static int log_line(struct log_parser *lp, struct line_iter *it)
{
	const char *s = it->buf;

	if (prefix(s, "Benchmarking kernel ")) {
		lp->state = LS_OUTSIDE;
		lp->run_line = it->no;
		return log_kernel_line(lp, s);
	}
	if (prefix(s, "--- Benchmarking simulated cpu of "))
		return log_heading(lp, it);
	if (prefix(s, "Interrupted by signal ")) {
		if (lp->run)
			lp->run->interrupted = true;
		lp->state = LS_OUTSIDE;
		return 0;
	}
	if (lp->state != LS_OUTSIDE && !it->newline && *s)
		return set_err(lp->err, lp->errlen,
			    "line %d: ends in the middle of a line (truncated?)", it->no);
	switch (lp->state) {
	case LS_COLUMNS:
		return log_columns(lp, it);
	case LS_ROWS:
		if (!*s) {
			lp->state = LS_OUTSIDE;
			return 0;
		}
		return log_row(lp, it);
	case LS_OUTSIDE:
		break;
	}
	if (prefix(s, "Comment: ") && lp->run && !lp->run_has_table)
		snprintf(lp->run->comment, sizeof(lp->run->comment), "%s", s + strlen("Comment: "));
	else if (prefix(s, "Using ") && strstr(s, " loops per ms, running every load for "))
		lp->pending_seconds = atof(strstr(s, " for ") + strlen(" for "));
	return 0;
}

static int parse_log(const char *text, size_t len, struct res_file *f, char *err, size_t errlen)
{
	struct log_parser lp = { .f = f, .err = err, .errlen = errlen, .unit_ns = 1e6 };
	struct line_iter *it = calloc(1, sizeof(*it));
	int ret = 0;

	if (!it)
		return set_err(err, errlen, "out of memory");
	it->p = text;
	it->end = text + len;
	f->format = RES_LOG;
	while (!ret && next_line(it))
		ret = log_line(&lp, it);
	if (ret)
		goto out;
	if (!lp.any_table && lp.run) {
		ret = set_err(err, errlen, "line %d: a run header with no tables (truncated?)",
			   lp.run_line);
	} else if (!lp.any_table) {
		ret = set_err(err, errlen, "not an interbench log or CSV file (no 'Benchmarking "
			   "simulated cpu' table, no CSV header)");
	} else if (lp.state != LS_OUTSIDE && !it->newline) {
		ret = set_err(err, errlen, "line %d: ends in the middle of a line (truncated?)",
			   it->no);
	} else if (lp.state == LS_COLUMNS) {
		ret = set_err(err, errlen, "line %d: the %s heading has no table (truncated?)",
			   lp.heading_line, lp.bench);
	} else if (lp.state == LS_ROWS && !lp.rows) {
		ret = set_err(err, errlen, "line %d: the %s table has no rows (truncated?)",
			   lp.heading_line, lp.bench);
	} else if (lp.run && !lp.run_has_table && !lp.run->interrupted) {
		ret = set_err(err, errlen, "line %d: the run has no tables (truncated?)", lp.run_line);
	}
out:
	free(it);
	return ret;
}

/* ---- our CSV: RFC 4180, columns found by name ---- */

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

enum csv_col {
	C_KERNEL, C_COMMENT, C_START, C_REALTIME, C_BENCH, C_LOAD, C_STATUS,
	C_MIN, C_MEAN, C_SD, C_MAX, C_P50, C_P90, C_P99, C_P999, C_CPU, C_DL, C_COUNT,
};

static const struct {
	const char *name;
	bool required;
	int val;		/* enum res_val, or -1 */
} csv_cols[C_COUNT] = {
	[C_KERNEL] = { "kernel_release", true, -1 },
	[C_COMMENT] = { "comment", true, -1 },
	[C_START] = { "start", false, -1 },
	[C_REALTIME] = { "realtime", true, -1 },
	[C_BENCH] = { "benchmark", true, -1 },
	[C_LOAD] = { "load", true, -1 },
	[C_STATUS] = { "status", true, -1 },
	[C_MIN] = { "latency_min_ns", false, RV_MIN },
	[C_MEAN] = { "latency_mean_ns", true, RV_MEAN },
	[C_SD] = { "latency_sd_ns", true, RV_SD },
	[C_MAX] = { "latency_max_ns", true, RV_MAX },
	[C_P50] = { "latency_p50_ns", false, RV_P50 },
	[C_P90] = { "latency_p90_ns", false, RV_P90 },
	[C_P99] = { "latency_p99_ns", false, RV_P99 },
	[C_P999] = { "latency_p999_ns", false, RV_P999 },
	[C_CPU] = { "pct_desired_cpu", true, RV_CPU },
	[C_DL] = { "pct_deadlines_met", true, RV_DL },
};

/* The header: which field holds which column; false if it is not our CSV. */
static bool csv_header(const struct csv_reader *c, int *col)
{
	for (int k = 0; k < C_COUNT; k++) {
		col[k] = -1;
		for (int i = 0; i < c->nfields; i++)
			if (!strcmp(c->field[i], csv_cols[k].name))
				col[k] = i;
	}
	return col[C_BENCH] >= 0 && col[C_LOAD] >= 0 && col[C_MEAN] >= 0;
}

/* Each (kernel, start) pair is a run; merge_repeats pools them later. */
static struct res_run *csv_run(struct res_file *f, const char *kernel, const char *comment,
			       const char *start)
{
	struct res_run *r = f->nruns ? &f->runs[f->nruns - 1] : NULL;

	if (r && !strcmp(r->kernel, kernel) && !strcmp(r->comment, comment) &&
	    !strcmp(r->date, start))
		return r;
	r = new_run(f);
	if (!r)
		return NULL;
	snprintf(r->kernel, sizeof(r->kernel), "%s", kernel);
	snprintf(r->comment, sizeof(r->comment), "%s", comment);
	snprintf(r->date, sizeof(r->date), "%s", start);
	return r;
}

static int csv_row(struct res_file *f, struct csv_reader *c, const int *col, int ncols,
		   char *err, size_t errlen)
{
	const char *status, *rt;
	struct res_run *r;
	struct res_obs *o;

	if (c->nfields != ncols)
		return set_err(err, errlen, "line %d: %d fields where the header has %d (truncated?)",
			    c->line, c->nfields, ncols);
	status = c->field[col[C_STATUS]];
	if (!strcasecmp(status, "skipped"))
		return 0;
	r = csv_run(f, c->field[col[C_KERNEL]], c->field[col[C_COMMENT]],
		    col[C_START] >= 0 ? c->field[col[C_START]] : "");
	if (!r || !(o = new_obs(r)))
		return set_err(err, errlen, "out of memory");
	if (!set_name(o->bench, c->field[col[C_BENCH]], strlen(c->field[col[C_BENCH]]), true) ||
	    !set_name(o->load, c->field[col[C_LOAD]], strlen(c->field[col[C_LOAD]]), false)) {
		r->nobs--;
		return set_err(err, errlen, "line %d: bad benchmark or load name", c->line);
	}
	rt = c->field[col[C_REALTIME]];
	o->realtime = !strcmp(rt, "1") || !strcasecmp(rt, "true");
	o->failed = !strcasecmp(status, "failed");
	for (int k = 0; k < C_COUNT; k++) {
		const char *s;

		if (csv_cols[k].val < 0 || col[k] < 0)
			continue;
		s = c->field[col[k]];
		if (!*s)
			continue;		/* empty: null */
		if (!parse_value(s, &o->v[csv_cols[k].val])) {
			char q[24];

			r->nobs--;
			return set_err(err, errlen, "line %d: %s '%s' is not a number", c->line,
				    csv_cols[k].name, quote(q, sizeof(q), s));
		}
	}
	return 0;
}

static int parse_csv(const char *text, size_t len, struct res_file *f, char *err, size_t errlen)
{
	struct csv_reader c = { .p = text, .end = text + len, .next_line = 1 };
	int col[C_COUNT], ncols, ret;
	char header_first[64];

	f->format = RES_CSV;
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
	for (int k = 0; k < C_COUNT; k++) {
		if (csv_cols[k].required && col[k] < 0) {
			free(c.buf);
			return set_err(err, errlen, "the CSV header has no '%s' column",
				    csv_cols[k].name);
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

/* ---- either ---- */

static bool looks_like_csv(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);
	size_t n = nl ? (size_t)(nl - text) : len;

	return memmem(text, n, "benchmark", 9) && memmem(text, n, "latency_mean_ns", 15) &&
	       memchr(text, ',', n);
}

int results_parse(const char *text, size_t len, struct res_file *f, char *err, size_t errlen)
{
	int ret;

	memset(f, 0, sizeof(*f));
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {	/* a byte order mark */
		text += 3;
		len -= 3;
	}
	if (!len)
		return set_err(err, errlen, "empty file");
	if (memchr(text, '\0', len))
		return set_err(err, errlen, "binary data, not an interbench log or CSV file");
	if (looks_like_csv(text, len))
		ret = parse_csv(text, len, f, err, errlen);
	else
		ret = parse_log(text, len, f, err, errlen);
	if (!ret) {
		merge_repeats(f);
		drop_empty(f);
		if (!f->nruns)
			ret = set_err(err, errlen, "no results in it (every run stopped before its "
				   "first row)");
	}
	if (ret)
		results_free(f);
	return ret;
}

/* The only I/O here: the whole file into memory, then the pure parser. */
int results_read(const char *path, struct res_file *f, char *err, size_t errlen)
{
	struct stat st;
	char *buf;
	ssize_t r;
	int fd, ret;

	memset(f, 0, sizeof(*f));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return set_err(err, errlen, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return set_err(err, errlen, "%s", S_ISDIR(st.st_mode) ? "is a directory" :
			    "not a regular file");
	}
	if (st.st_size > (off_t)RESULTS_MAX_BYTES) {
		close(fd);
		return set_err(err, errlen, "too big for a log or CSV file (%lld bytes)",
			    (long long)st.st_size);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return set_err(err, errlen, "out of memory");
	}
	r = read_full(fd, buf, (size_t)st.st_size);
	close(fd);
	if (r < 0) {
		free(buf);
		return set_err(err, errlen, "cannot read: %s", strerror((int)-r));
	}
	ret = results_parse(buf, (size_t)r, f, err, errlen);
	free(buf);
	return ret;
}
