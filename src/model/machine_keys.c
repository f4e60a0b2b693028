// SPDX-License-Identifier: GPL-2.0-or-later
/* model/machine_keys.c - what a run ran on: the machine keys as the log, the CSV and their
 * readers walk them, and the settings in which two runs differ. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/defs.h"
#include "model/record.h"
#include "model/log_format.h"
#include "model/machine_keys.h"
#include "sys/machine.h"

#define LIVE(f) .off = offsetof(struct machine, f)
#define NOTE(f) .note = offsetof(struct machine, f)
#define VAL(f) .val = offsetof(struct machine_values, f), \
	.len = sizeof(((struct machine_values *)NULL)->f)

/*
 * In the order --compare's warning lists them. The log's first line holds
 * "full (debugfs), HZ 250, clocksource: tsc, governor: schedutil" after its
 * marker, the second "2 usable; memory limit: none" after "N online, ":
 * the shape 1.x logs already had, so theirs are read too.
 */
const struct machine_key_prop machine_keys[MK_COUNT] = {
	[MK_PREEMPTION] = { .column = "preemption", .what = "preemption", .line = LM_PREEMPTION,
			    .before = "", .after = "", .unknown = "unknown", .type = MT_TEXT,
			    LIVE(preemption), NOTE(preemption_source), VAL(preemption) },
	[MK_HZ] = { .column = "hz", .what = "HZ", .line = LM_PREEMPTION, .before = ", HZ ",
		    .after = "", .unknown = "unknown", .type = MT_COUNT, LIVE(hz),
		    .note = MK_NO_NOTE, VAL(hz) },
	[MK_CLOCKSOURCE] = { .column = "clocksource", .what = "clocksource",
			     .line = LM_PREEMPTION, .before = ", clocksource: ", .after = "",
			     .unknown = "-", .type = MT_TEXT, LIVE(clocksource),
			     .note = MK_NO_NOTE, VAL(clocksource) },
	[MK_GOVERNOR] = { .column = "cpufreq_governor", .what = "cpufreq governor",
			  .line = LM_PREEMPTION, .before = ", governor: ", .after = "",
			  .unknown = "-", .type = MT_TEXT, LIVE(cpufreq_governor),
			  .note = MK_NO_NOTE, VAL(governor) },
	[MK_CPU_MODEL] = { .column = "cpu_model", .what = "CPU model", .line = LM_CPU_MODEL,
			   .before = "", .after = "", .whole_line = true, .unknown = "unknown",
			   .type = MT_TEXT, LIVE(cpu_model), .note = MK_NO_NOTE, VAL(cpu_model) },
	[MK_CPUS_USABLE] = { .column = "cpus_usable", .what = "CPUs usable", .line = LM_CPUS,
			     .before = "", .after = " usable", .unknown = "?", .type = MT_COUNT,
			     LIVE(cpus_usable), .note = MK_NO_NOTE, VAL(cpus_usable) },
	[MK_MEM_LIMIT] = { .column = "memory_limit_bytes", .what = "memory limit",
			   .line = LM_CPUS, .before = "; memory limit: ", .after = "",
			   .unknown = "unknown", .type = MT_BYTES, LIVE(mem_limit_bytes),
			   NOTE(mem_limit_file), VAL(mem_limit) },
	[MK_CMDLINE] = { .column = "kernel_cmdline", .what = "kernel command line",
			 .line = LM_CMDLINE, .before = "", .after = "", .whole_line = true,
			 .words = true, .unknown = "unknown", .type = MT_TEXT, LIVE(kernel_cmdline),
			 .note = MK_NO_NOTE, VAL(cmdline) },
};

const char *machine_value(const struct machine_values *m, int k)
{
	return (const char *)m + machine_keys[k].val;
}

/* n bytes of text as key k's value, cut to its field: one line, control characters as spaces. */
static void set_value(struct machine_values *m, int k, const char *text, size_t n)
{
	char *d = (char *)m + machine_keys[k].val;

	if (n >= machine_keys[k].len)
		n = machine_keys[k].len - 1;
	for (size_t i = 0; i < n; i++)
		d[i] = (unsigned char)text[i] < 0x20 || text[i] == 0x7f ? ' ' : text[i];
	d[n] = '\0';
}

/* A live run's values, as the log and the CSV write them. */
void machine_values_of(const struct machine *si, struct machine_values *m)
{
	memset(m, 0, sizeof(*m));
	for (int k = 0; k < MK_COUNT; k++) {
		const struct machine_key_prop *p = &machine_keys[k];
		const char *live = (const char *)si + p->off;
		char num[24] = "";

		if (p->type == MT_TEXT) {
			set_value(m, k, live, strlen(live));
			continue;
		}
		if (p->type == MT_COUNT && *(const int *)live > 0)
			snprintf(num, sizeof(num), "%d", *(const int *)live);
		else if (p->type == MT_BYTES && *(const long long *)live == SI_UNKNOWN)
			snprintf(num, sizeof(num), "none");
		else if (p->type == MT_BYTES)
			snprintf(num, sizeof(num), "%lld", *(const long long *)live);
		set_value(m, k, num, strlen(num));
	}
}

/* "512 MiB" (or "none", or "500000000 bytes" when not whole MiB): a limit as people read it. */
static const char *shown(const struct machine_values *m, int k, char *buf, size_t len)
{
	const char *v = machine_value(m, k);
	long long b;

	if (machine_keys[k].type != MT_BYTES || !*v || !strcmp(v, "none"))
		return v;
	b = atoll(v);
	if (b % (long long)MIB)
		snprintf(buf, len, "%lld bytes", b);
	else
		snprintf(buf, len, "%lld MiB", b / (long long)MIB);
	return buf;
}

/*
 * The machine keys of one log line (line, an enum log_mark), as they follow
 * its marker; a live run's notes on them, from its machine, in parentheses.
 */
void machine_log_line(char *buf, size_t len, const struct run_record *r, int line)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < MK_COUNT && n < len; k++) {
		const struct machine_key_prop *p = &machine_keys[k];
		const char *note = "";
		char b[40];
		const char *v = shown(&r->mach, k, b, sizeof(b));

		if (p->line != line)
			continue;
		if (r->sys && p->note != MK_NO_NOTE)
			note = (const char *)r->sys + p->note;
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s", p->before, *v ? v : p->unknown,
				      p->after);
		if (*v && *note && n < len)
			n += (size_t)snprintf(buf + n, len - n, " (%s)", note);
	}
}

/* A limit read back, "none", "512 MiB", "500000000 bytes" or a CSV's bare bytes, as bytes. */
static void set_bytes(struct machine_values *m, int k, const char *s)
{
	char num[24], *end;
	long long v;

	if (!strcmp(s, "none")) {
		set_value(m, k, s, strlen(s));
		return;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || errno)
		return;
	s = end + strspn(end, " ");
	if (!strcmp(s, "MiB") && v <= LLONG_MAX / (long long)MIB)
		v *= (long long)MIB;
	else if (*s && strcmp(s, "bytes"))
		return;
	snprintf(num, sizeof(num), "%lld", v);
	set_value(m, k, num, strlen(num));
}

/* n bytes of a file's text as key k's value; "-", "unknown" and what is not one are not known. */
static void set_read(struct machine_values *m, int k, const char *text, size_t n)
{
	char v[2048];

	while (n && text[0] == ' ')
		text++, n--;
	while (n && text[n - 1] == ' ')
		n--;
	snprintf(v, sizeof(v), "%.*s", (int)n, text);
	set_value(m, k, "", 0);
	if (!*v || !strcmp(v, "-") || !strcmp(v, "unknown"))
		return;
	if (machine_keys[k].type == MT_BYTES)
		set_bytes(m, k, v);
	else if (machine_keys[k].type == MT_TEXT || strspn(v, "0123456789") == strlen(v))
		set_value(m, k, v, strlen(v));
}

/* Where a value within a line ends: at the next item, or its note. */
static size_t value_len(const char *v)
{
	static const char *const ends[] = { ", ", "; ", " (" };
	size_t n = strlen(v);

	for (size_t i = 0; i < ARRAY_SIZE(ends); i++) {
		const char *e = strstr(v, ends[i]);

		if (e && (size_t)(e - v) < n)
			n = (size_t)(e - v);
	}
	return n;
}

/* A header line of a log, s past its marker: the machine keys it holds; the others are left. */
void machine_parse_line(int line, const char *s, struct machine_values *m)
{
	for (int k = 0; k < MK_COUNT; k++) {
		const struct machine_key_prop *p = &machine_keys[k];
		const char *v = s, *at = NULL;

		if (p->line != line)
			continue;
		if (p->whole_line) {
			set_read(m, k, s, strlen(s));
		} else if (*p->after) {		/* the word before it: "2 usable" */
			if (!(at = strstr(s, p->after)))
				continue;
			for (v = at; v > s && v[-1] != ' '; v--)
				;
			set_read(m, k, v, (size_t)(at - v));
		} else if (!*p->before || (at = strstr(s, p->before))) {
			v = *p->before ? at + strlen(p->before) : s;
			set_read(m, k, v, value_len(v));
		}
	}
}

/* Key k as the CSV writes it: NULL (an empty field) when not known or no limit. */
const char *machine_csv_text(const struct machine_values *m, int k)
{
	const char *v = machine_value(m, k);

	if (machine_keys[k].type == MT_BYTES && !strcmp(v, "none"))
		return NULL;
	return *v ? v : NULL;
}

/* Key k from a CSV field; an empty limit is no limit, as the writer leaves it. */
void machine_csv_set(struct machine_values *m, int k, const char *field)
{
	if (machine_keys[k].type == MT_BYTES && !*field)
		field = "none";
	set_read(m, k, field, strlen(field));
}

/* ---- how two runs differ ---- */

#define WORDS_LEN 2048		/* a command line's words: as long as the line */

struct diffs {
	char *buf;
	size_t len, n;
	int count, unchecked;
};

/* "what a / b" into the list; b NULL: a says how they differ. */
static void diff_add(struct diffs *d, const char *what, const char *a, const char *b)
{
	if (d->n < d->len)
		d->n += (size_t)snprintf(d->buf + d->n, d->len - d->n, "%s%s%s%s%s%s",
					 d->count ? ", " : "", what, b ? " " : ": ", a,
					 b ? " / " : "", b ? b : "");
	d->count++;
}

/* Setting what, a in one run and b in the other: "" is not known, so not checked. */
static void diff_check(struct diffs *d, const char *what, const char *a, const char *b)
{
	if (!*a || !*b)
		d->unchecked++;
	else if (strcmp(a, b))
		diff_add(d, what, a, b);
}

/* s holds the word w of n bytes. */
static bool has_word(const char *s, const char *w, size_t n)
{
	for (s += strspn(s, " "); *s; s += strspn(s, " ")) {
		size_t l = strcspn(s, " ");

		if (l == n && !strncmp(s, w, n))
			return true;
		s += l;
	}
	return false;
}

/* The words of a that b lacks, into buf ("-" when none); whether there were any. */
static bool words_only_in(const char *a, const char *b, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (a += strspn(a, " "); *a && n < len; a += strspn(a, " ")) {
		size_t l = strcspn(a, " ");

		if (!has_word(b, a, l))
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? " " : "", (int)l, a);
		a += l;
	}
	if (!n)
		snprintf(buf, len, "-");
	return n > 0;
}

/* The same words in the same order: spacing is not a difference. */
static bool same_words(const char *a, const char *b)
{
	for (;;) {
		size_t la, lb;

		a += strspn(a, " ");
		b += strspn(b, " ");
		la = strcspn(a, " ");
		lb = strcspn(b, " ");
		if (la != lb || strncmp(a, b, la))
			return false;
		if (!la)
			return true;
		a += la;
		b += lb;
	}
}

/* A command line is long: the words each has that the other lacks. */
static void diff_words(struct diffs *d, const char *what, const char *a, const char *b)
{
	char *wa;
	bool any;

	if (!*a || !*b) {
		d->unchecked++;
		return;
	}
	if (same_words(a, b))
		return;
	wa = malloc(2 * WORDS_LEN);
	if (!wa) {
		diff_add(d, what, "?", "?");
		return;
	}
	any = words_only_in(a, b, wa, WORDS_LEN);
	any |= words_only_in(b, a, wa + WORDS_LEN, WORDS_LEN);
	if (any)
		diff_add(d, what, wa, wa + WORDS_LEN);
	else
		diff_add(d, what, "the same words in another order", NULL);
	free(wa);
}

int run_differences(const struct run_record *a, const struct run_record *b, char *buf,
		    size_t len, int *unchecked)
{
	struct diffs d = { .buf = buf, .len = len };

	buf[0] = '\0';
	diff_check(&d, "kernel release", a->kernel, b->kernel);
	for (int k = 0; k < MK_COUNT; k++) {
		char sa[40], sb[40];

		if (machine_keys[k].words)
			diff_words(&d, machine_keys[k].what, machine_value(&a->mach, k),
				     machine_value(&b->mach, k));
		else
			diff_check(&d, machine_keys[k].what, shown(&a->mach, k, sa, sizeof(sa)),
				   shown(&b->mach, k, sb, sizeof(sb)));
	}
	for (int k = 0; k < RK_COUNT; k++)
		if (run_keys[k].type != KT_TEXT)
			diff_check(&d, run_keys[k].flag, a->key[k], b->key[k]);
		else if (strcmp(a->key[k], b->key[k]))	/* "": none, which is known */
			diff_add(&d, run_keys[k].flag, *a->key[k] ? a->key[k] : "none",
				 *b->key[k] ? b->key[k] : "none");
	for (int k = 0; k < NR_KNOBS; k++) {
		char ka[KNOB_LEN + 8], kb[KNOB_LEN + 8];

		if (!a->knobs.known || !b->knobs.known) {
			d.unchecked++;
			continue;
		}
		/* "" is a knob left to the kernel: known, and said as the log says it */
		snprintf(ka, sizeof(ka), "%s%s", *a->knobs.v[k] ? a->knobs.v[k] : "default",
			 *a->knobs.v[k] ? knob_descs[k].unit : "");
		snprintf(kb, sizeof(kb), "%s%s", *b->knobs.v[k] ? b->knobs.v[k] : "default",
			 *b->knobs.v[k] ? knob_descs[k].unit : "");
		diff_check(&d, knob_descs[k].log, ka, kb);
	}
	*unchecked = d.unchecked;
	return d.count;
}
