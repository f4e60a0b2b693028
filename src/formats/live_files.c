// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/live_files.c - --json and --csv grown by each row at a cost that does not grow with the
 * run, never half-written. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/livefile.h"
#include "lib/util.h"
#include "formats/format.h"
#include "verdicts/verdicts.h"
#include "model/config.h"

/*
 * A live file (lib/livefile.c says how it stays complete) is a head, the
 * results so far and a tail (its format in formats/registry.c): JSON's tail closes the results
 * array and says "complete": false; CSV's is empty. What a shadow lacks is
 * written from the record: the results it does not hold yet.
 *
 * At the end (or after a signal) the file is written once more whole, into
 * a new file renamed over path: the head's run.end and interrupted, CSV's
 * interrupted column and JSON's final tail (the summary over passes) are
 * known only then.
 */
#define BATCH 65536			/* bytes built before they are written */

struct file_version {		/* a version of one format, as the record holds it now */
	const struct format *fm;
	const struct run_record *rec;
	const int *held;		/* the results each file holds (a stream: none) */
	bool final;
};

/* What file k lacks: the head and every result in a new one, else the results after its own. */
static void version_body(void *arg, struct livefile_writer *w, int k)
{
	const struct file_version *fv = arg;
	int from = 0;

	if (w->at)
		from = fv->held[k];
	else
		fv->fm->head(&w->sb, fv->rec);
	for (int i = from; i < fv->rec->nres; i++) {
		fv->fm->row(&w->sb, fv->rec, i);
		livefile_flush(w, BATCH);
	}
}

static void version_tail(void *arg, struct sbuf *sb)
{
	const struct file_version *fv = arg;

	if (fv->fm->tail)
		fv->fm->tail(sb, fv->rec, fv->final);
}

#define VERSION(fv) ((struct livefile_version){ version_body, version_tail, (fv) })

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

/* A live file per results format of the registry, each at its option's path, if given. */
static void files_init(struct live_files *lf, const struct run_record *rec)
{
	if (lf->ready)
		return;
	lf->n = 0;
	for (size_t k = 0; k < nr_formats && lf->n < LIVE_FILES_MAX; k++) {
		struct live_file *f = &lf->f[lf->n];

		if (formats[k].writer != FW_RESULTS)
			continue;
		f->fm = &formats[k];
		livefile_init(&f->lf, f->fm->option, format_path(&formats[k], rec->cfg));
		lf->n++;
	}
	lf->ready = true;
}

static bool live_on(const struct live_file *f)
{
	return f->lf.path && strcmp(f->lf.path, "-");
}

/* The first version, before any row, at path and in its shadow. */
static int live_begin(struct live_file *f, const struct run_record *rec)
{
	struct file_version fv = { .fm = f->fm, .rec = rec, .held = f->held };
	int ret = livefile_begin(&f->lf, &VERSION(&fv));

	if (!ret)
		f->held[0] = f->held[1] = rec->nres;
	return ret;
}

/* The row added: the shadow grown by the results it lacks, then put at path. */
static int live_row(struct live_file *f, const struct run_record *rec)
{
	struct file_version fv = { .fm = f->fm, .rec = rec, .held = f->held };
	int ret = livefile_next(&f->lf, &VERSION(&fv));

	if (!ret)
		f->held[f->lf.cur] = rec->nres;
	return ret;
}

/* The final version, whole: to stdout for "-", else into a new file renamed over path. */
static int live_end(struct live_file *f, const struct run_record *rec)
{
	struct file_version fv = { .fm = f->fm, .rec = rec, .held = f->held, .final = true };

	if (live_on(f))
		return livefile_replace(&f->lf, &VERSION(&fv));
	if (fflush(stdout))
		return -errno;
	return livefile_stream(STDOUT_FILENO, &VERSION(&fv));
}

/* Before the first row: each file written once, so that one that cannot be stops the run. */
int report_files_begin(struct live_files *lf, const struct run_record *rec)
{
	files_init(lf, rec);
	for (int k = 0; k < lf->n; k++) {
		struct live_file *f = &lf->f[k];
		int ret = live_on(f) ? live_begin(f, rec) : 0;

		if (ret) {
			error("%s %s: %s", f->fm->option, f->lf.path, strerror(-ret));
			for (int j = 0; j <= k; j++)
				livefile_close(&lf->f[j].lf);
			return ret;
		}
	}
	return 0;
}

/* After each row: the row added; an error is said once, and the file left as it was. */
void report_files_row(struct live_files *lf, const struct run_record *rec)
{
	for (int k = 0; lf->ready && k < lf->n; k++) {
		struct live_file *f = &lf->f[k];
		int ret;

		if (!live_on(f) || f->failed)
			continue;
		ret = live_row(f, rec);
		if (ret) {
			error("%s %s: %s; it keeps the rows before, and is written again at the "
			      "end", f->fm->option, f->lf.path, strerror(-ret));
			f->failed = true;
		}
	}
}

/* The final versions, whole (stdout's only one), and the shadows gone; 0 or the first error. */
int report_files_end(struct live_files *lf, const struct run_record *rec)
{
	int ret = 0;

	files_init(lf, rec);
	for (int k = 0; k < lf->n; k++) {
		struct live_file *f = &lf->f[k];
		int r = f->lf.path ? live_end(f, rec) : 0;

		livefile_close(&f->lf);
		if (r)
			error("%s %s: %s", f->fm->option, live_on(f) ? f->lf.path : "(stdout)",
			      strerror(-r));
		ret = ret ? ret : r;
		f->lf.path = NULL;	/* written: a second end writes nothing */
	}
	if (rec->cfg->csv_path && strcmp(rec->cfg->csv_path, "-") && rec->cfg->nvariants &&
	    rec->end) {
		int r = write_verdicts_csv(rec, rec->cfg->csv_path);

		ret = ret ? ret : r;
	}
	return ret;
}
