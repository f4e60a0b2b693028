/* SPDX-License-Identifier: GPL-2.0-or-later */
/* formats/format.h - the files a run writes as it goes: --json and --csv, each a head, its results and
 * a tail, grown by each row. */
#ifndef FORMATS_FORMAT_H
#define FORMATS_FORMAT_H

#include <stdbool.h>

#include "lib/livefile.h"
#include "lib/sbuf.h"
#include "model/record.h"

/*
 * live_files.c: --json and --csv as a run writes them: each grown by a row at a
 * cost that does not grow with the run, complete and valid whenever read
 * (lib/livefile.c says how).
 */
struct live_file {
	struct livefile lf;		/* path NULL: not asked for; "-": stdout, at the end only */
	int held[2];			/* the record's results each of lf's files holds */
	bool failed;			/* an error was reported: left as it is until the end */
};
struct live_files {
	bool ready;			/* paths and fds set (the orchestrator's is zeroed) */
	struct live_file f[2];		/* --json, --csv */
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
