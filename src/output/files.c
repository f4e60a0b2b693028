// SPDX-License-Identifier: GPL-2.0-or-later
/* output/files.c - the files of a run record: JSON and CSV rewritten whole after each row, and
 * --plot. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "output/compare.h"
#include "output/output.h"
#include "output/verdict.h"
#include "run/config.h"

/*
 * Write one file whole: a temporary file in the same directory renamed over
 * the old one, so a reader never sees half a file and an interrupted run
 * keeps its rows. "-" is stdout, written once when the run has ended.
 */
static int write_output(const struct run_record *rec, const char *opt, const char *path,
			void (*build)(struct sbuf *, const struct run_record *))
{
	bool to_stdout = !strcmp(path, "-");
	struct sbuf sb;
	int ret = 0;

	if (to_stdout && !rec->end)
		return 0;
	sb_init(&sb);
	build(&sb, rec);
	if (sb.failed)
		ret = -ENOMEM;
	else if (!to_stdout)
		ret = replace_file(path, sb.buf, sb.len);
	else if (fwrite(sb.buf, 1, sb.len, stdout) != sb.len || fflush(stdout))
		ret = errno ? -errno : -EIO;
	if (ret)
		error("%s %s: %s", opt, to_stdout ? "(stdout)" : path, strerror(-ret));
	sb_free(&sb);
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

/* 0, or the first error (already reported on stderr). */
int report_files(const struct run_record *rec)
{
	const struct config *cfg = rec->cfg;
	int ret = 0, r;

	if (cfg->json_path)
		ret = write_output(rec, "--json", cfg->json_path, build_json);
	if (cfg->csv_path) {
		r = write_output(rec, "--csv", cfg->csv_path, build_csv);
		ret = ret ? ret : r;
	}
	if (cfg->csv_path && strcmp(cfg->csv_path, "-") && cfg->nvariants && rec->end) {
		r = write_verdicts_csv(rec, cfg->csv_path);
		ret = ret ? ret : r;
	}
	return ret;
}

/* --plot: the run's histograms, a panel per benchmark, a line per load. */
int report_plot(const struct run_record *rec, const char *path)
{
	struct cmp_input in = { .run = rec, .file = path };
	static struct cmp_matrix m;
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
	if (!cmp_build(&in, 1, &m, err, sizeof(err))) {
		ret = plot_results(path, &spec);
		cmp_matrix_free(&m);
	}
	return ret;
}
