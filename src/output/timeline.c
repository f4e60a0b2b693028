// SPDX-License-Identifier: GPL-2.0-or-later
/* output/timeline.c - the --timeline file: complete and valid after every row, at a cost per
 * row that does not grow with the run. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "output/output.h"
#include "output/timeline.h"
#include "run/config.h"
#include "run/plan.h"

/*
 * The file is {"traceEvents":[ (the head), the rows' events, then the tail:
 * ], displayTimeUnit and otherData (the run, the counts so far, whether it
 * is complete). Like --json (files.c), two files hold it, the one at path
 * and its shadow beside it (".NAME.XXXXXX"), one version behind. But the
 * events of a row are not kept once it is written (a row may have a
 * million), so the shadow is brought up to date by copying: the newest
 * row's events, as the file at path has them, after the shadow's last row,
 * then the new row's, then a new tail, the file cut there; then
 * renameat2(RENAME_EXCHANGE) swaps the two names. So path always names a
 * complete version, whatever the moment of a SIGKILL, and a row costs two
 * rows and a tail of writes however long the run. The end writes the final
 * tail the same way and removes the shadow.
 *
 * Where a filesystem cannot exchange two names, each version is a copy of
 * the one before plus the row, renamed over path: never half-written
 * either, but a row then costs the whole file.
 */
static const char head[] = "{\"traceEvents\":[";

struct tl_writer {		/* bytes going into a file at an offset */
	int fd;
	long long at;
	struct sbuf sb;
	int err;			/* the first error, -errno */
};

static void w_flush(void *arg)
{
	struct tl_writer *w = arg;
	ssize_t n = 0;

	if (w->sb.failed)
		n = -ENOMEM;
	else if (!w->err && w->sb.len)
		n = pwrite_full(w->fd, w->sb.buf, w->sb.len, (off_t)w->at);
	if (n < 0 && !w->err)
		w->err = (int)n;
	w->at += (long long)w->sb.len;
	w->sb.len = 0;
	w->sb.failed = false;
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

/* The tail into fd at *at, the file cut after it; *at is left where the tail begins. */
static int put_tail(const struct timeline *tl, int fd, long long at, const struct run_record *rec,
		    bool final)
{
	struct tl_writer w = { .fd = fd, .at = at };

	sb_init(&w.sb);
	build_tail(&w.sb, tl, rec, final);
	w_flush(&w);
	sb_free(&w.sb);
	if (!w.err && ftruncate(fd, (off_t)w.at) < 0)
		w.err = -errno;
	return w.err;
}

/* An empty version (head and tail) in a new file beside path; its fd or -errno. */
static int new_empty(struct timeline *tl, const struct run_record *rec, char *name, size_t len)
{
	int fd = create_beside(tl->path, name, len), ret;

	if (fd < 0)
		return fd;
	ret = pwrite_full(fd, head, sizeof(head) - 1, 0) < 0 ? -errno : 0;
	if (!ret)
		ret = put_tail(tl, fd, sizeof(head) - 1, rec, false);
	if (ret) {
		close(fd);
		unlink(name);
		return ret;
	}
	return fd;
}

static void tl_close(struct timeline *tl)
{
	for (int k = 0; k < 2; k++) {
		if (tl->fd[k] >= 0)
			close(tl->fd[k]);
		tl->fd[k] = -1;
	}
	if (tl->shadow[0])
		unlink(tl->shadow);
	tl->shadow[0] = '\0';
}

/*
 * Before the first row: an empty timeline at path and its shadow, so that
 * a file that cannot be written stops the run before it starts (the error
 * said, and nothing left behind). 0 or -errno.
 */
int timeline_begin(struct timeline *tl, const struct run_record *rec)
{
	const struct config *cfg = rec->cfg;
	char tmp[PATH_MAX];
	int rows = rec->plan ? plan_results(cfg, rec->plan) : 0, ret;

	*tl = (struct timeline){ .path = cfg->timeline_path, .fd = { -1, -1 } };
	if (!tl->path)
		return 0;
	/* each result is a row of the file: a group's members share their cell's share */
	tl->budget = (uint64_t)cfg->timeline_max / (uint64_t)(rows > 0 ? rows : 1);
	tl->fd[0] = new_empty(tl, rec, tmp, sizeof(tmp));
	ret = tl->fd[0] < 0 ? tl->fd[0] : 0;
	if (!ret && rename(tmp, tl->path) < 0) {
		ret = -errno;
		unlink(tmp);
	}
	tl->placed = !ret;
	if (!ret) {
		tl->fd[1] = new_empty(tl, rec, tl->shadow, sizeof(tl->shadow));
		ret = tl->fd[1] < 0 ? tl->fd[1] : 0;
		if (ret)
			tl->shadow[0] = '\0';
	}
	tl->last[0] = tl->last[1] = tl->tail[0] = tl->tail[1] = sizeof(head) - 1;
	if (ret) {
		error("--timeline %s: %s", tl->path, strerror(-ret));
		timeline_abort(tl);
	}
	return ret;
}

/* The run cannot go on: the shadow removed, and the file too when it holds no row. */
void timeline_abort(struct timeline *tl)
{
	if (!tl->path)
		return;
	tl_close(tl);
	if (tl->placed && !tl->rows)
		unlink(tl->path);
	tl->path = NULL;
}

/*
 * The shadow made the version before the new one: the newest row copied
 * into it from path's file, or, without RENAME_EXCHANGE, a new file with
 * all of path's file but its tail. Where the next row goes, or -errno.
 */
static long long shadow_catch_up(struct timeline *tl)
{
	int cur = tl->cur, sh = !cur, ret;

	if (tl->whole) {
		tl->fd[sh] = create_beside(tl->path, tl->shadow, sizeof(tl->shadow));
		if (tl->fd[sh] < 0) {
			ret = tl->fd[sh];
			tl->shadow[0] = '\0';
			return ret;
		}
		tl->tail[sh] = 0;
		tl->last[cur] = 0;		/* the whole file but its tail */
	}
	ret = copy_range(tl->fd[cur], tl->last[cur], tl->tail[cur] - tl->last[cur], tl->fd[sh],
			 tl->tail[sh]);
	return ret ? ret : tl->tail[sh] + (tl->tail[cur] - tl->last[cur]);
}

/* The shadow, now the newest version, put at path: exchanged, or renamed over it. */
static int shadow_to_path(struct timeline *tl)
{
	int sh = !tl->cur;

	if (!tl->whole) {
		if (!renameat2(AT_FDCWD, tl->shadow, AT_FDCWD, tl->path, RENAME_EXCHANGE)) {
			tl->cur = sh;
			return 0;
		}
		if (errno != EINVAL && errno != ENOSYS)
			return -errno;
		warn("--timeline %s: its filesystem cannot exchange two names (renameat2): the "
		     "file is copied whole after every row", tl->path);
		tl->whole = true;
	}
	if (rename(tl->shadow, tl->path) < 0)
		return -errno;
	tl->shadow[0] = '\0';
	close(tl->fd[tl->cur]);
	tl->fd[tl->cur] = -1;
	tl->cur = sh;
	return 0;
}

/*
 * The next version: the shadow caught up, the row's events after it (none
 * for the final version), the tail with the counts, then the shadow put at
 * path. 0 or -errno, the file at path then left as it was.
 */
static int next_version(struct timeline *tl, const struct run_record *rec,
			const struct tl_row *r, bool final)
{
	int sh = !tl->cur, ret;
	long long at = shadow_catch_up(tl);
	struct tl_writer w = { .fd = tl->fd[sh], .at = at };
	struct tl_names named = tl->named;
	struct tl_cut cut = { 0 };
	struct tl_emit e = { 0 };

	if (at < 0)
		return (int)at;
	tl->last[sh] = at;
	if (r) {
		tl_row_cut(r, &tl->named, tl->budget, &cut);
		sb_init(&w.sb);
		e = (struct tl_emit){ .sb = &w.sb, .comma = tl->events > 0, .flush = w_flush,
				      .arg = &w };
		tl_row_events(r, &cut, &named, &e);
		w_flush(&w);
		sb_free(&w.sb);
		if (w.err)
			return w.err;
		tl->events += e.n;
		tl->dropped += cut.dropped;
		tl->rows++;
		tl->rows_out += cut.out;
		tl->named = named;
	}
	ret = put_tail(tl, tl->fd[sh], w.at, rec, final);
	if (ret)
		return ret;
	tl->tail[sh] = w.at;
	return shadow_to_path(tl);
}

/* "Video / Burn pass 1", and " variant B load-nice=19" with --vary. */
static void row_name(char *buf, size_t len, const struct run_record *rec, const struct result *res)
{
	int n = snprintf(buf, len, "%s / %s pass %d", res->bench, res->load, res->pass + 1);

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
	char name[RES_NAME_LEN * 2 + RES_VARIANT_LEN + 40];
	struct tl_row r;
	int ret;

	if (!tl->path || tl->failed || rec->nres < 1)
		return;
	res = &rec->res[rec->nres - 1];
	row_name(name, sizeof(name), rec, res);
	r = (struct tl_row){ .pid = rec->nres, .cpus_pid = (rec->plan ? plan_results(rec->cfg, rec->plan) : 0) + 1,
			     .name = name, .bench = res->bench, .unit = res->unit,
			     .status = status_name(res->status), .reason = res->reason, .d = row };
	if (r.cpus_pid <= r.pid)
		r.cpus_pid = r.pid + 1;
	ret = next_version(tl, rec, &r, false);
	if (ret) {
		error("--timeline %s: %s; it keeps the rows before", tl->path, strerror(-ret));
		tl->failed = true;
	}
}

/* The final version (whether the run ended or was interrupted), and the shadow gone. */
int timeline_end(struct timeline *tl, const struct run_record *rec)
{
	int ret = 0;

	if (!tl->path)
		return 0;
	if (!tl->failed)
		ret = next_version(tl, rec, NULL, true);
	if (ret)
		error("--timeline %s: %s", tl->path, strerror(-ret));
	tl_close(tl);
	tl->path = NULL;
	return ret;
}
