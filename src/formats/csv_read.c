// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/csv_read.c - our CSV read back (--compare), by the columns its writer walks
 * (csv_columns.h). */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/util.h"
#include "formats/csv_columns.h"
#include "formats/readers.h"
#include "model/config.h"
#include "model/metrics.h"

static const struct csv_column *cols;	/* csv_columns_of()'s */
static size_t nr_cols;

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
	for (size_t k = 0; k < nr_cols; k++)
		if (!strcmp(csv_col_name(&cols[k]), name))
			return col[k];
	return -1;
}

/* The header: which field holds which column; false if it is not our CSV. */
static bool csv_header(const struct csv_reader *c, int *col)
{
	for (size_t k = 0; k < nr_cols; k++) {
		col[k] = -1;
		for (int i = 0; i < c->nfields; i++)
			if (!strcmp(c->field[i], csv_col_name(&cols[k])))
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
	for (size_t k = 0; k < nr_cols; k++) {
		if (cols[k].text != CT_KNOB || col[k] < 0)
			continue;
		snprintf(r->knobs.v[cols[k].field], KNOB_LEN, "%s", c->field[col[k]]);
		r->knobs.known = true;
	}
}

/* A metric's field into the result: a text, or a number (empty: null); -1 if not a number. */
static int csv_metric(struct result *o, const struct metric *m, const char *s)
{
	bool neg = (m->flags & MF_SIGNED) && s[0] == '-';

	if (m->field < 0)
		metric_set_text(m, o, s);
	else if (*s && !parse_value(s + neg, &o->value[m->field]))
		return -1;
	else if (*s && neg)
		o->value[m->field] = -o->value[m->field];
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
	for (k = 0; k < nr_cols; k++) {
		const struct csv_column *cc = &cols[k];

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
	for (k = 0; k < nr_cols; k++)
		if (cols[k].text == CT_METRIC && col[k] >= 0 &&
		    csv_metric(o, cols[k].m, c->field[col[k]]))
			break;
	if (k < nr_cols) {
		char q[24];

		r->nres--;
		return set_err(err, errlen, "line %d: %s '%s' is not a number", c->line,
			       cols[k].name, quote(q, sizeof(q), c->field[col[k]]));
	}
	return 0;
}

int csv_parse(const char *text, size_t len, struct result_file *f, char *err, size_t errlen)
{
	struct csv_reader c = { .p = text, .end = text + len, .next_line = 1 };
	int col[CSV_MAX_FIELDS], ncols, ret;
	char header_first[64];

	f->format = RES_CSV;
	cols = csv_columns_of(&nr_cols);
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
	for (size_t k = 0; k < nr_cols; k++) {
		if (cols[k].required && col[k] < 0) {
			free(c.buf);
			return set_err(err, errlen, "the CSV header has no '%s' column",
				    csv_col_name(&cols[k]));
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
