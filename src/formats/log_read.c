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
	char group[RES_GROUP_LEN];	/* the heading's "in group A+B", "" without */
	double unit_ns;
	bool has[LOG_COLUMNS_MAX];			/* log_columns[i] is in the current table */
	bool has_intensity;		/* and so is the load intensity (ours, not 0.31's) */
	bool fork;			/* the table is the fork's (forklog.c) */
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
	lp->state = LS_COLUMNS;
	lp->rows = 0;
	lp->heading_line = it->no;
	lp->run_has_table = true;
	lp->any_table = true;
	return 0;
}

/*
 * "Load\tLatency +/- SD (ms)  Max Latency ...": the unit and which columns
 * are there; or the fork's "Load\tLatency +/- SD   median  max [us]...".
 */
static int log_columns_line(struct log_parser *lp, struct line_iter *it)
{
	const char *s = it->buf;

	if (!prefix(s, "Load") || !(strstr(s, "Latency") || strstr(s, "Frame p50") ||
				     strstr(s, "Cycle p50")))
		return set_err(lp->err, lp->errlen,
			    "line %d: expected the column header after the %s heading", it->no,
			    lp->bench);
	lp->state = LS_ROWS;
	lp->fork = fork_columns(s);
	if (lp->fork) {
		lp->unit_ns = fork_unit_ns(s);
		lp->fork_deadlines = strstr(s, "Deadlines") != NULL;
		if (!lp->unit_ns)
			return set_err(lp->err, lp->errlen, "line %d: the %s table's unit is "
				       "neither [us] nor [100]", it->no, lp->bench);
		return 0;
	}
	lp->unit_ns = strstr(s, "(us)") ? 1e3 : 1e6;
	for (size_t i = 0; i < nr_log_columns; i++)
		lp->has[i] = !log_columns[i].key || strstr(s, log_columns[i].key);
	lp->has_intensity = strstr(s, &LOG_MARK(LM_INTENSITY)[2]) != NULL;	/* past its indent */
	return 0;
}

/* The words a row's numbers take, as the heading has its columns: "1.2 +/- 0.3" is three. */
static int log_words(const struct log_parser *lp)
{
	int need = 0;

	for (size_t i = 0; i < nr_log_columns; i++)
		need += lp->has[i] ? 1 + (strspn(log_columns[i].sep, " ") < strlen(log_columns[i].sep)) : 0;
	return need;
}

/* The numbers of a row, column by column as the heading has them; a message if not. */
static int log_values(struct log_parser *lp, struct line_iter *it, struct result *o,
		      char *const *tok, int ntok)
{
	int t = 0, need = log_words(lp);

	if (ntok < need)
		return set_err(lp->err, lp->errlen, "line %d: %s row cut short or mangled", it->no,
			    o->load);
	for (size_t i = 0; i < nr_log_columns; i++) {
		const struct log_column *c = &log_columns[i];
		const char *sep = c->sep + strspn(c->sep, " ");
		size_t seplen = strcspn(sep, " ");
		char q[24];

		if (!lp->has[i])
			continue;
		if (seplen && (strlen(tok[t]) != seplen || strncmp(tok[t++], sep, seplen)))
			return set_err(lp->err, lp->errlen, "line %d: %s row cut short or mangled",
				    it->no, o->load);
		if (!parse_value(tok[t], &o->v[c->field]))
			return set_err(lp->err, lp->errlen, "line %d: '%s' is not a number", it->no,
				    quote(q, sizeof(q), tok[t]));
		if (c->flags & LC_LATENCY)
			o->v[c->field] *= lp->unit_ns;
		t++;
	}
	return 0;
}

/*
 * Cut the marks a row may end with ("  [work_ratio 1.26]", two spaces before
 * them, unlike the one before a note on what the I/O measured): they say
 * how far to trust the row, and --compare reads the numbers, not them.
 */
static void strip_marks(char *s)
{
	size_t n = strlen(s);
	char *m;

	if (!n || s[n - 1] != ']')
		return;
	for (m = s + n - 1; m > s && strncmp(m, "  [", 3); m--)
		;
	if (m > s)
		*m = '\0';
}

/*
 * What follows a row's numbers: its load's intensity ("1.94 CPUs", or "-"),
 * a note on what its I/O measured ("[memory, not a disk]"), and why the
 * load stopped early ("(Write load stopped early: ...)"). Missing parts
 * are fine: older logs have fewer of them.
 */
static int log_tail(struct result *o, const char *tail, struct line_iter *it, char *err,
		    size_t errlen)
{
	char q[24], word[32], buf[512], *s = buf;
	size_t n, u;

	snprintf(buf, sizeof(buf), "%s", tail + strspn(tail, " \t"));
	strip_marks(buf);
	n = strcspn(s, " \t");
	if (!n)
		return 0;
	snprintf(word, sizeof(word), "%.*s", (int)(n < sizeof(word) ? n : sizeof(word) - 1), s);
	if (!parse_value(word, &o->v[RF_INTENSITY]))
		return set_err(err, errlen, "line %d: intensity '%s' is not a number", it->no,
			       quote(q, sizeof(q), word));
	s += n;
	s += strspn(s, " \t");
	for (u = 0; s[u] && strncmp(s + u, " [", 2) && strncmp(s + u, " (", 2) && s[u] != '(' &&
		    s[u] != '['; u++)
		;
	while (u && s[u - 1] == ' ')
		u--;
	if (isfinite(o->v[RF_INTENSITY]))
		snprintf(o->unit, sizeof(o->unit), "%.*s", (int)(u < sizeof(o->unit) ? u :
			 sizeof(o->unit) - 1), s);
	s += u;
	s += strspn(s, " ");
	if (prefix(s, LOG_MARK(LM_MEMORY_NOTE)) || prefix(s, LOG_MARK(LM_CACHE_NOTE))) {
		snprintf(o->medium, sizeof(o->medium), "%s", prefix(s, LOG_MARK(LM_MEMORY_NOTE)) ?
			 RES_MEDIUM_MEMORY : RES_MEDIUM_CACHE);
		s = strchr(s, ']') + 1;
		s += strspn(s, " ");
	}
	n = strlen(s);
	if (n >= 2 && s[0] == '(' && s[n - 1] == ')')
		snprintf(o->reason, sizeof(o->reason), "%.*s", (int)(n - 2), s + 1);
	return 0;
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

/* "NAME\t mean +/- sd  max  cpu[  deadlines][  p99  p99.9][  intensity...]", or the fork's */
static int log_row(struct log_parser *lp, struct line_iter *it)
{
	char *s = it->buf, *tab = strchr(s, '\t'), *tok[12], *save = NULL;
	int ntok = 0, need = log_words(lp);
	struct result *o;

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
		if (fork_row(tab + 1, lp->unit_ns, lp->fork_deadlines, o))
			return 0;
		lp->run->nres--;
		return set_err(lp->err, lp->errlen, "line %d: %s row cut short or mangled", it->no,
			       o->load);
	}
	for (char *t = need ? strtok_r(s, " \t", &save) : NULL; t; ) {
		tok[ntok++] = t;
		if (ntok == need || ntok == (int)ARRAY_SIZE(tok))
			break;
		t = strtok_r(NULL, " \t", &save);
	}
	if (log_values(lp, it, o, tok, ntok) ||
	    (lp->has_intensity && save && log_tail(o, save, it, lp->err, lp->errlen))) {
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
	else if (mark >= 0 && head)	/* machine_keys[] knows which lines hold its keys */
		machine_parse_line(mark, s + strlen(LOG_MARK(mark)), &lp->run->mach);
	return 0;
}

int log_parse(const char *text, size_t len, struct result_file *f, char *err, size_t errlen)
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
