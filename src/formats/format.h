/* SPDX-License-Identifier: GPL-2.0-or-later */
/* formats/format.h - the file formats, one registry: how each is written as a run goes and
 * how --compare reads it back. */
#ifndef FORMATS_FORMAT_H
#define FORMATS_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/livefile.h"
#include "lib/sbuf.h"
#include "model/record.h"

/*
 * Who writes a format's file as the run goes. A results format is its
 * head, each result and a tail, over the run record alone: live_files.c
 * keeps it whole after every row. The log is the text report itself
 * (report/), and the timeline is drawn from each row's period records,
 * which the record does not keep (timeline/).
 */
enum format_writer {
	FW_RESULTS,			/* head, row, tail: formats/live_files.c */
	FW_REPORT,			/* the text report, appended: report/ */
	FW_TIMELINE,			/* each row's periods: timeline/ */
	FW_NONE,			/* read only */
};

struct format {
	const char *name;		/* as messages and --help say it */
	const char *option;		/* the option naming its file; NULL: none (the log: -c) */
	size_t path_off;		/* offsetof(struct config, the path); with option */
	enum format_writer writer;
	/* FW_RESULTS: the file is head, row(i) for each result, tail (final: the run is over) */
	void (*head)(struct sbuf *sb, const struct run_record *rec);
	void (*row)(struct sbuf *sb, const struct run_record *rec, int i);
	void (*tail)(struct sbuf *sb, const struct run_record *rec, bool final);	/* or NULL */
	/* read back by --compare: is text in this format (NULL: any text), its runs (NULL: not
	 * read) */
	bool (*sniff)(const char *text, size_t len);
	int (*parse)(const char *text, size_t len, struct result_file *f, char *err, size_t errlen);
};
extern const struct format formats[];
extern const size_t nr_formats;
const struct format *format_of(const char *text, size_t len);	/* the first that reads it */
const char *format_path(const struct format *fm, const struct config *cfg);	/* or NULL */

/*
 * live_files.c: the results formats as a run writes them: each grown by a
 * row at a cost that does not grow with the run, complete and valid
 * whenever read (lib/livefile.c says how).
 */
#define LIVE_FILES_MAX 4
struct live_file {
	const struct format *fm;
	struct livefile lf;		/* path NULL: not asked for; "-": stdout, at the end only */
	int held[2];			/* the record's results each of lf's files holds */
	bool failed;			/* an error was reported: left as it is until the end */
};
struct live_files {
	bool ready;			/* paths and fds set (the orchestrator's is zeroed) */
	int n;
	struct live_file f[LIVE_FILES_MAX];	/* the FW_RESULTS formats, in the registry's order */
};
int report_files_begin(struct live_files *lf, const struct run_record *rec);
void report_files_row(struct live_files *lf, const struct run_record *rec);
int report_files_end(struct live_files *lf, const struct run_record *rec);

/* json.c, csv.c: each file as a head, its results and a tail (none for CSV), and whole */
void json_head(struct sbuf *sb, const struct run_record *rec);
void json_result_at(struct sbuf *sb, const struct run_record *rec, int i);
void json_tail(struct sbuf *sb, const struct run_record *rec, bool final);
void build_json(struct sbuf *sb, const struct run_record *rec);
void csv_head(struct sbuf *sb, const struct run_record *rec);
void csv_result_at(struct sbuf *sb, const struct run_record *rec, int i);
void build_csv(struct sbuf *sb, const struct run_record *rec);

#endif
