// SPDX-License-Identifier: GPL-2.0-or-later
/* output/files.c - --json and --csv grown by each row at a cost that does not grow with the
 * run, never half-written; --plot. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "output/compare.h"
#include "output/output.h"
#include "output/verdict.h"
#include "run/config.h"

/*
 * A live file is a head, the results so far and a tail (formats[]): JSON's
 * tail closes the results array and says "complete": false; CSV's is empty.
 * Two files hold it: the one named path, a complete version, and its
 * shadow beside it (".NAME.XXXXXX"), the version before. After a row the
 * shadow is brought up to date, the results it lacks (the row before's and
 * this one's) written where its tail began, then a new tail, the file cut
 * there; then renameat2(RENAME_EXCHANGE) swaps the two names in one step.
 * So path names one complete version or the next, never one being written,
 * whenever a SIGKILL comes. Writing over path's own tail would not do: a
 * SIGKILL may cut a write between two pages, and a reader may read while
 * it is made. A row costs two rows and a tail of writes, however long the
 * run.
 *
 * At the end (or after a signal) the file is written once more whole, into
 * a new file renamed over path: the head's run.end and interrupted, CSV's
 * interrupted column and JSON's final tail (the summary over passes) are
 * known only then. Where a filesystem cannot exchange two names (NFS, some
 * FUSE ones), every version is written so: never half-written either, but
 * a row then costs the whole file.
 */
#define BATCH 65536			/* bytes built before they are written */

struct file_format {
	const char *opt;
	void (*head)(struct sbuf *sb, const struct run_record *rec);
	void (*result)(struct sbuf *sb, const struct run_record *rec, int i);
	void (*tail)(struct sbuf *sb, const struct run_record *rec, bool final);	/* or NULL */
};

static const struct file_format formats[] = {	/* in struct live_files' order */
	{ "--json", json_head, json_result_at, json_tail },
	{ "--csv", csv_head, csv_result_at, NULL },
};

struct writer {			/* a version being written into a file, or to stdout */
	int fd;
	bool stream;			/* stdout: in order, no offsets */
	long long at;			/* where the next byte goes */
	struct sbuf sb;			/* built, not yet written */
	int err;			/* the first error, -errno */
};

/* Write what is built once it is more than above bytes (0: whatever there is). */
static void flush(struct writer *w, size_t above)
{
	ssize_t n = 0;

	if (w->sb.len <= above && !w->sb.failed)
		return;
	if (w->sb.failed)
		n = -ENOMEM;
	else if (!w->err)
		n = w->stream ? write_full(w->fd, w->sb.buf, w->sb.len) :
		    pwrite_full(w->fd, w->sb.buf, w->sb.len, (off_t)w->at);
	if (n < 0 && !w->err)
		w->err = (int)n;
	if (!w->err)
		w->at += (long long)w->sb.len;
	w->sb.len = 0;
	w->sb.failed = false;
}

/* The results from on, then the tail, whose offset goes into *tail_at. */
static void write_rest(struct writer *w, const struct file_format *fm,
		       const struct run_record *rec, int from, bool final, long long *tail_at)
{
	for (int i = from; i < rec->nres; i++) {
		fm->result(&w->sb, rec, i);
		flush(w, BATCH);
	}
	flush(w, 0);
	*tail_at = w->at;
	if (fm->tail)
		fm->tail(&w->sb, rec, final);
	flush(w, 0);
}

/* A whole version into fd from its start, cut at its end (or to stdout); 0 or -errno. */
static int write_version(int fd, bool stream, const struct file_format *fm,
			 const struct run_record *rec, bool final, long long *tail_at)
{
	struct writer w = { .fd = fd, .stream = stream };
	long long at;

	sb_init(&w.sb);
	fm->head(&w.sb, rec);
	write_rest(&w, fm, rec, 0, final, tail_at ? tail_at : &at);
	sb_free(&w.sb);
	if (!w.err && !stream && ftruncate(fd, (off_t)w.at) < 0)
		w.err = -errno;
	return w.err;
}

/* A version written whole into a new file, then renamed over path. */
static int replace_whole(const struct live_file *f, const struct file_format *fm,
			 const struct run_record *rec, bool final)
{
	char tmp[PATH_MAX];
	int fd = create_beside(f->path, tmp, sizeof(tmp)), ret;

	if (fd < 0)
		return fd;
	ret = write_version(fd, false, fm, rec, final, NULL);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && rename(tmp, f->path) < 0)
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

/*
 * "r.verdicts.csv" beside "r.csv" (or "r" + ".verdicts.csv"): the verdicts
 * are a table of other columns than the results', so a file of their own,
 * written once the run has ended. 0, or -ENOMEM, -errno.
 */
static int write_verdicts_csv(const struct run_record *rec, const char *csv)
{
	size_t n = strlen(csv);
	struct verdict_table t;
	char path[PATH_MAX];
	struct sbuf sb;
	int ret;

	if (n > 4 && !strcmp(csv + n - 4, ".csv"))
		n -= 4;
	if (snprintf(path, sizeof(path), "%.*s.verdicts.csv", (int)n, csv) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (record_verdicts(rec, &t))
		return -ENOMEM;
	sb_init(&sb);
	verdicts_csv(&sb, &t);
	ret = sb.failed ? -ENOMEM : replace_file(path, sb.buf, sb.len);
	if (ret)
		error("--csv %s: %s", path, strerror(-ret));
	sb_free(&sb);
	verdicts_free(&t);
	return ret;
}

static void live_close(struct live_file *f)
{
	for (int k = 0; k < 2; k++) {
		if (f->fd[k] >= 0)
			close(f->fd[k]);
		f->fd[k] = -1;
	}
	if (f->shadow[0])
		unlink(f->shadow);
	f->shadow[0] = '\0';
}

/* The first version, before any row, at path; the same as the shadow. */
static int live_begin(struct live_file *f, const struct file_format *fm,
		      const struct run_record *rec)
{
	char tmp[PATH_MAX];
	int ret;

	f->fd[0] = create_beside(f->path, tmp, sizeof(tmp));
	if (f->fd[0] < 0)
		return f->fd[0];
	ret = write_version(f->fd[0], false, fm, rec, false, &f->tail[0]);
	if (!ret && rename(tmp, f->path) < 0)
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return ret;
	}
	f->fd[1] = create_beside(f->path, f->shadow, sizeof(f->shadow));
	if (f->fd[1] < 0) {
		f->shadow[0] = '\0';
		return f->fd[1];
	}
	f->held[0] = f->held[1] = rec->nres;
	f->cur = 0;
	return write_version(f->fd[1], false, fm, rec, false, &f->tail[1]);
}

/* The shadow grown by what it lacks, then the two names exchanged. */
static int live_row(struct live_file *f, const struct file_format *fm,
		    const struct run_record *rec)
{
	int sh = !f->cur;
	struct writer w = { .fd = f->fd[sh], .at = f->tail[sh] };
	long long tail_at;

	if (f->whole)
		return replace_whole(f, fm, rec, false);
	sb_init(&w.sb);
	write_rest(&w, fm, rec, f->held[sh], false, &tail_at);
	sb_free(&w.sb);
	if (!w.err && ftruncate(w.fd, (off_t)w.at) < 0)
		w.err = -errno;
	if (w.err)
		return w.err;
	f->held[sh] = rec->nres;
	f->tail[sh] = tail_at;
	if (!renameat2(AT_FDCWD, f->shadow, AT_FDCWD, f->path, RENAME_EXCHANGE)) {
		f->cur = sh;
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	warn("%s %s: its filesystem cannot exchange two names (renameat2): the file is "
	     "written whole after every row", fm->opt, f->path);
	f->whole = true;
	live_close(f);
	return replace_whole(f, fm, rec, false);
}

static void files_init(struct live_files *lf, const struct run_record *rec)
{
	const char *paths[] = { rec->cfg->json_path, rec->cfg->csv_path };

	if (lf->ready)
		return;
	for (size_t k = 0; k < ARRAY_SIZE(formats); k++)
		lf->f[k] = (struct live_file){ .path = paths[k], .fd = { -1, -1 } };
	lf->ready = true;
}

static bool live_on(const struct live_file *f)
{
	return f->path && strcmp(f->path, "-");
}

/* Before the first row: each file written once, so that one that cannot be stops the run. */
int report_files_begin(struct live_files *lf, const struct run_record *rec)
{
	files_init(lf, rec);
	for (size_t k = 0; k < ARRAY_SIZE(formats); k++) {
		struct live_file *f = &lf->f[k];
		int ret = live_on(f) ? live_begin(f, &formats[k], rec) : 0;

		if (ret) {
			error("%s %s: %s", formats[k].opt, f->path, strerror(-ret));
			for (size_t j = 0; j <= k; j++)
				live_close(&lf->f[j]);
			return ret;
		}
	}
	return 0;
}

/* After each row: the row added; an error is said once, and the file left as it was. */
void report_files_row(struct live_files *lf, const struct run_record *rec)
{
	for (size_t k = 0; lf->ready && k < ARRAY_SIZE(formats); k++) {
		struct live_file *f = &lf->f[k];
		int ret;

		if (!live_on(f) || f->failed)
			continue;
		ret = live_row(f, &formats[k], rec);
		if (ret) {
			error("%s %s: %s; it keeps the rows before, and is written again at the "
			      "end", formats[k].opt, f->path, strerror(-ret));
			f->failed = true;
		}
	}
}

/* The final versions, whole (stdout's only one), and the shadows gone; 0 or the first error. */
int report_files_end(struct live_files *lf, const struct run_record *rec)
{
	int ret = 0;

	files_init(lf, rec);
	for (size_t k = 0; k < ARRAY_SIZE(formats); k++) {
		struct live_file *f = &lf->f[k];
		bool out = f->path && !strcmp(f->path, "-");
		int r = 0;

		if (out && fflush(stdout) == 0)
			r = write_version(STDOUT_FILENO, true, &formats[k], rec, true, NULL);
		else if (out)
			r = -errno;
		else if (f->path)
			r = replace_whole(f, &formats[k], rec, true);
		live_close(f);
		if (r)
			error("%s %s: %s", formats[k].opt, out ? "(stdout)" : f->path, strerror(-r));
		ret = ret ? ret : r;
		f->path = NULL;		/* written: a second end writes nothing */
	}
	if (rec->cfg->csv_path && strcmp(rec->cfg->csv_path, "-") && rec->cfg->nvariants &&
	    rec->end) {
		int r = write_verdicts_csv(rec, rec->cfg->csv_path);

		ret = ret ? ret : r;
	}
	return ret;
}

/* --plot: the run's histograms, a panel per benchmark, a line per load; --vary's verdicts. */
int report_plot(const struct run_record *rec, const char *path)
{
	struct cmp_input in = { .run = rec, .file = path };
	static struct cmp_matrix m;
	struct verdict_table vt;
	struct plot_spec spec;
	char title[400], date[32], err[256];
	struct tm tm;
	int ret = -ENOMEM;

	localtime_r(&rec->start, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
	snprintf(title, sizeof(title), "interbench: wakeup latency, kernel %s, %s", rec->kernel,
		 date);
	spec = (struct plot_spec){ .title = title, .subtitle = rec->cfg->comment ?
				   rec->cfg->comment : "", .in = &in, .m = &m };
	if (rec->cfg->nvariants && !record_verdicts(rec, &vt))
		spec.vt = &vt;		/* --vary: the variants' verdicts, as --compare draws them */
	if (!cmp_build(&in, 1, &m, err, sizeof(err))) {
		ret = plot_results(path, &spec);
		cmp_matrix_free(&m);
	}
	if (spec.vt)
		verdicts_free(&vt);
	return ret;
}
