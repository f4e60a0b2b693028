// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/log_values.c - a log table's row read by the columns its writer walks: its numbers,
 * then its load's intensity, notes and reason. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "model/log_format.h"
#include "model/record.h"
#include "formats/readers.h"

static bool prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* The words a row's numbers take, as the heading has its columns: "1.2 +/- 0.3" is three. */
int log_words(const struct log_column *cols, size_t ncols, const bool *has)
{
	int need = 0;

	for (size_t i = 0; i < ncols; i++)
		need += has[i] ? 1 + (strspn(cols[i].sep, " ") < strlen(cols[i].sep)) : 0;
	return need;
}

/*
 * The numbers of a row at line, column by column as the heading has them
 * (has[i]: cols[i] is there), latencies in the table's unit; a message if not.
 */
int log_values(const struct log_table *lt, char *const *tok, int ntok, struct result *o,
	       int line, char *err, size_t errlen)
{
	int t = 0, need = log_words(lt->cols, lt->ncols, lt->has);

	if (ntok < need)
		return set_err(err, errlen, "line %d: %s row cut short or mangled", line, o->load);
	for (size_t i = 0; i < lt->ncols; i++) {
		const struct log_column *c = &lt->cols[i];
		const char *sep = c->sep + strspn(c->sep, " ");
		size_t seplen = strcspn(sep, " ");
		char q[24];

		if (!lt->has[i])
			continue;
		if (seplen && (strlen(tok[t]) != seplen || strncmp(tok[t++], sep, seplen)))
			return set_err(err, errlen, "line %d: %s row cut short or mangled", line,
				       o->load);
		if (!parse_value(tok[t], &o->value[c->field]))
			return set_err(err, errlen, "line %d: '%s' is not a number", line,
				       quote(q, sizeof(q), tok[t]));
		if (c->flags & LC_LATENCY)
			o->value[c->field] *= lt->unit_ns;
		t++;
	}
	return 0;
}

/*
 * Cut the marks a row may end with ("  [work_ratio 1.26]", two spaces before
 * them, unlike the one before a note on what the I/O measured): they say
 * how far to trust the row, and --compare reads the numbers, not them.
 */
static void strip_marks(struct result *o, char *s)
{
	size_t n = strlen(s);
	char *m, *f;

	if (!n || s[n - 1] != ']')
		return;
	for (m = s + n - 1; m > s && strncmp(m, "  [", 3); m--)
		;
	if (m <= s)
		return;
	f = strstr(m, "foreign ");	/* the one figure of them a comparison reads back */
	if (f && sscanf(f, "foreign %lf%%", &o->value[RF_FOREIGN_CPU]) != 1)
		o->value[RF_FOREIGN_CPU] = NAN;
	*m = '\0';
}

/*
 * The rest of a load's work after its intensity, as load_work_text() wrote
 * it: "+ 1.62 CPUs", "+ 3 restarts"; what follows it.
 */
static char *log_more_work(struct result *o, char *s)
{
	double v;
	int n;

	while (s[0] == '+' && sscanf(s, "+ %lf %n", &v, &n) == 1) {
		s += n;
		if (prefix(s, "CPUs"))
			o->value[RF_LOAD_CPUS] = v;
		else if (prefix(s, "restart"))
			o->value[RF_LOAD_RESTARTS] = v;
		s += strcspn(s, " ");
		s += strspn(s, " ");
	}
	return s;
}

/*
 * What follows a row's numbers: its load's intensity ("1.94 CPUs", or "-"),
 * a note on what its I/O measured ("[memory, not a disk]"), and why the
 * load stopped early ("(Write load stopped early: ...)"). Missing parts
 * are fine: older logs have fewer of them.
 */
int log_tail(struct result *o, const char *tail, int line, char *err, size_t errlen)
{
	char q[24], word[32], buf[512], *s = buf;
	size_t n, u;

	snprintf(buf, sizeof(buf), "%s", tail + strspn(tail, " \t"));
	strip_marks(o, buf);
	n = strcspn(s, " \t");
	if (!n)
		return 0;
	snprintf(word, sizeof(word), "%.*s", (int)(n < sizeof(word) ? n : sizeof(word) - 1), s);
	if (!parse_value(word, &o->value[RF_INTENSITY]))
		return set_err(err, errlen, "line %d: intensity '%s' is not a number", line,
			       quote(q, sizeof(q), word));
	s += n;
	s += strspn(s, " \t");
	for (u = 0; s[u] && strncmp(s + u, " [", 2) && strncmp(s + u, " (", 2) && s[u] != '(' &&
		    s[u] != '[' && strncmp(s + u, " + ", 3); u++)
		;
	while (u && s[u - 1] == ' ')
		u--;
	if (isfinite(o->value[RF_INTENSITY]))
		snprintf(o->unit, sizeof(o->unit), "%.*s", (int)(u < sizeof(o->unit) ? u :
			 sizeof(o->unit) - 1), s);
	s += u;
	s += strspn(s, " ");
	s = log_more_work(o, s);
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

