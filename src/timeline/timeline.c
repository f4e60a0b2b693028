// SPDX-License-Identifier: GPL-2.0-or-later
/* timeline/timeline.c - the --timeline file: complete and valid after every row, at a cost per
 * row that does not grow with the run. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/livefile.h"
#include "lib/util.h"
#include "model/record.h"
#include "timeline/timeline.h"
#include "model/config.h"
#include "model/plan.h"

/*
 * The file is {"traceEvents":[ (the head), the rows' events, then the tail:
 * ], displayTimeUnit and otherData (the run, the counts so far, whether it
 * is complete). Like --json's, it is a live file (lib/livefile.c says how
 * it stays complete after every row). But the events of a row are not kept
 * once it is written (a row may have a million), so what the shadow lacks
 * is copied from the file at path: its newest row (all of it but its tail,
 * into a new file), then the new row's events. The end writes the final
 * tail the same way and removes the shadow.
 */
static const char head[] = "{\"traceEvents\":[";

/* A version being written, as the live file's callbacks see it. */
struct tl_step {
	struct timeline *tl;
	const struct run_record *rec;
	const struct tl_row *r;		/* the row whose events it adds, or NULL */
	bool final;			/* the run's end: its last version */
};

static void tl_flush(void *arg)
{
	livefile_flush(arg, 0);
}

/* len bytes of in at from to out at to; 0 or -errno. */
static int copy_range(int in, long long from, long long len, int out, long long to)
{
	char buf[65536];

	while (len > 0) {
		loff_t a = from, b = to;
		ssize_t n = copy_file_range(in, &a, out, &b, (size_t)len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;			/* not here: by hand, below */
		from += n, to += n, len -= n;
	}
	while (len > 0) {
		ssize_t n = pread(in, buf, len < (long long)sizeof(buf) ? (size_t)len : sizeof(buf),
				  (off_t)from);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		if (pwrite_full(out, buf, (size_t)n, (off_t)to) < 0)
			return -errno;
		from += n, to += n, len -= n;
	}
	return 0;
}

/* The command line as one string, each word quoted where a shell would need it. */
static void command_line(struct sbuf *sb, const struct config *cfg)
{
	for (int i = 0; i < cfg->argc; i++) {
		const char *a = cfg->argv[i];
		bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					  "0123456789_./=:,+-@%") == strlen(a);

		if (i)
			sb_add(sb, " ", 1);
		if (plain) {
			sb_puts(sb, a);
			continue;
		}
		sb_add(sb, "'", 1);
		for (; *a; a++)
			*a == '\'' ? sb_puts(sb, "'\\''") : sb_add(sb, a, 1);
		sb_add(sb, "'", 1);
	}
}

/* The tail: the run, the counts, and whether the run is over; final only at its end. */
static void build_tail(struct sbuf *sb, const struct timeline *tl, const struct run_record *rec,
		       bool final)
{
	struct sbuf cmd;
	char date[40];

	sb_init(&cmd);
	command_line(&cmd, rec->cfg);
	fmt_iso8601(date, sizeof(date), rec->start);
	sb_puts(sb, "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"version\":");
	json_string(sb, INTERBENCH_VERSION);
	sb_puts(sb, ",\"command_line\":");
	json_string(sb, cmd.failed ? "" : cmd.buf ? cmd.buf : "");
	sb_puts(sb, ",\"kernel\":");
	json_string(sb, rec->kernel);
	sb_puts(sb, ",\"start\":");
	json_string(sb, date);
	sb_puts(sb, ",\"clock\":\"CLOCK_MONOTONIC, ts in microseconds\"");
	sb_printf(sb, ",\"timeline_max\":%ld,\"budget_per_row\":%llu,\"rows\":%d,"
		  "\"rows_left_out\":%d,\"events\":%llu,\"dropped_periods\":%llu",
		  rec->cfg->timeline_max, (unsigned long long)tl->budget, tl->rows, tl->rows_out,
		  (unsigned long long)tl->events, (unsigned long long)tl->dropped);
	sb_printf(sb, ",\"complete\":%s,\"interrupted\":%s}\n}\n",
		  final && !rec->interrupted ? "true" : "false",
		  rec->interrupted ? "true" : "false");
	sb_free(&cmd);
}

static void step_tail(void *arg, struct sbuf *sb)
{
	const struct tl_step *st = arg;

	build_tail(sb, st->tl, st->rec, st->final);
}

/* The first version's body: the head alone. */
static void head_body(void *arg, struct livefile_writer *w, int k)
{
	(void)arg;
	(void)k;
	sb_add(&w->sb, head, sizeof(head) - 1);
}

/* The row's events after what is written, and the counts the tail says. */
static void add_events(struct timeline *tl, const struct tl_row *r, struct livefile_writer *w)
{
	struct tl_names named = tl->named;
	struct tl_cut cut = { 0 };
	struct tl_emit e;

	tl_row_cut(r, &tl->named, tl->budget, &cut);
	e = (struct tl_emit){ .sb = &w->sb, .comma = tl->events > 0, .flush = tl_flush, .arg = w };
	tl_row_events(r, &cut, &named, &e);
	livefile_flush(w, 0);
	if (w->err)
		return;
	tl->events += e.n;
	tl->dropped += cut.dropped;
	tl->rows++;
	tl->rows_out += cut.out;
	tl->named = named;
}

/* What file k lacks: the newest row copied from path's (all but its tail into a new file),
 * then the new row's events. */
static void step_body(void *arg, struct livefile_writer *w, int k)
{
	struct tl_step *st = arg;
	struct timeline *tl = st->tl;
	const struct livefile *f = &tl->lf;
	long long from = w->at ? tl->last[f->cur] : 0, len = f->tail[f->cur] - from;

	w->err = copy_range(f->fd[f->cur], from, len, w->fd, w->at);
	if (w->err)
		return;
	w->at += len;
	tl->last[k] = w->at;
	if (st->r)
		add_events(tl, st->r, w);
}

/*
 * Before the first row: an empty timeline at path and its shadow, so that
 * a file that cannot be written stops the run before it starts (the error
 * said, and nothing left behind). 0 or -errno.
 */
int timeline_begin(struct timeline *tl, const struct run_record *rec)
{
	const struct config *cfg = rec->cfg;
	struct tl_step st = { .tl = tl, .rec = rec };
	struct livefile_version v = { head_body, step_tail, &st };
	int rows = rec->plan ? plan_results(cfg, rec->plan) : 0, ret;

	*tl = (struct timeline){ 0 };
	livefile_init(&tl->lf, "--timeline", cfg->timeline_path);
	if (!tl->lf.path)
		return 0;
	/* each result is a row of the file: a group's members share their cell's share */
	tl->budget = (uint64_t)cfg->timeline_max / (uint64_t)(rows > 0 ? rows : 1);
	ret = livefile_begin(&tl->lf, &v);
	tl->last[0] = tl->last[1] = sizeof(head) - 1;
	if (ret) {
		error("--timeline %s: %s", tl->lf.path, strerror(-ret));
		timeline_abort(tl);
	}
	return ret;
}

/* The run cannot go on: the shadow removed, and the file too when it holds no row. */
void timeline_abort(struct timeline *tl)
{
	if (!tl->lf.path)
		return;
	livefile_close(&tl->lf);
	if (tl->lf.placed && !tl->rows)
		unlink(tl->lf.path);
	tl->lf.path = NULL;
}

/*
 * The next version: the shadow caught up, the row's events after it (none
 * for the final version), the tail with the counts, then the shadow put at
 * path. 0 or -errno, the file at path then left as it was.
 */
static int next_version(struct timeline *tl, const struct run_record *rec,
			const struct tl_row *r, bool final)
{
	struct tl_step st = { .tl = tl, .rec = rec, .r = r, .final = final };
	struct livefile_version v = { step_body, step_tail, &st };

	return livefile_next(&tl->lf, &v);
}

/*
 * "Video / Burn pass 1" ("AudioTick@mp3.json / ..." for a workload file's
 * thread), and " variant B load-nice=19" with --vary.
 */
static void row_name(char *buf, size_t len, const struct run_record *rec, const struct result *res)
{
	char bench[MEMBER_LABEL_LEN];
	int n;

	snprintf(bench, sizeof(bench), "%s", res->bench);
	if (res->rtapp)
		member_label(bench, sizeof(bench), res->bench, res->group);
	n = snprintf(buf, len, "%s / %s pass %d", bench, res->load, res->pass + 1);

	if (rec->cfg->nvariants && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " variant %c %s", 'A' + res->variant_index,
			 res->variant);
}

/*
 * After each row, once its result is the record's last: its events added.
 * An error is said once; the file then keeps the rows before it.
 */
void timeline_add_row(struct timeline *tl, const struct run_record *rec,
		      const struct timeline_row *row)
{
	const struct result *res;
	char name[MEMBER_LABEL_LEN + RES_NAME_LEN + RES_VARIANT_LEN + 40];
	struct tl_row r;
	int ret;

	if (!tl->lf.path || tl->failed || rec->nres < 1)
		return;
	res = &rec->res[rec->nres - 1];
	row_name(name, sizeof(name), rec, res);
	r = (struct tl_row){ .pid = rec->nres, .cpus_pid = (rec->plan ? plan_results(rec->cfg, rec->plan) : 0) + 1,
			     .name = name, .bench = res->bench, .rtapp = res->rtapp, .unit = res->unit,
			     .status = status_name(res->status), .reason = res->reason, .d = row };
	if (r.cpus_pid <= r.pid)
		r.cpus_pid = r.pid + 1;
	ret = next_version(tl, rec, &r, false);
	if (ret) {
		error("--timeline %s: %s; it keeps the rows before", tl->lf.path, strerror(-ret));
		tl->failed = true;
	}
}

/* The final version (whether the run ended or was interrupted), and the shadow gone. */
int timeline_end(struct timeline *tl, const struct run_record *rec)
{
	int ret = 0;

	if (!tl->lf.path)
		return 0;
	if (!tl->failed)
		ret = next_version(tl, rec, NULL, true);
	if (ret)
		error("--timeline %s: %s", tl->lf.path, strerror(-ret));
	livefile_close(&tl->lf);
	tl->lf.path = NULL;
	return ret;
}
