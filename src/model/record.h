/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model/record.h - the run record: one run's results, measured now or read back, and the keys that
 * make two runs comparable. */
#ifndef MODEL_RECORD_H
#define MODEL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "model/config.h"
#include "model/knob_text.h"
#include "model/machine_keys.h"
#include "model/result.h"

struct config;
struct machine;
struct plan;

/*
 * What makes two runs comparable, besides the kernel release and the
 * comment: runs that differ in one of these are never pooled. Each is one
 * row of run_keys[], named as in the log's Settings line and the CSV
 * header, and read from both; a new setting is one enum name and one row.
 */
enum run_key {
	RK_SECONDS,			/* -t */
	RK_CPU_LOAD,			/* -L */
	RK_BENCH_NICE,			/* -B */
	RK_LOAD_NICE,			/* -N */
	RK_UNIPROCESSOR,		/* -u */
	RK_FPS,				/* --fps: Render's frame rate, so its period */
	RK_CUSTOM_PCT,			/* -C: Custom's work, 0 without Custom */
	RK_CUSTOM_INTERVAL,		/* -I: Custom's period, 0 without Custom */
	RK_PERIODS,			/* --period: swept or exact; a run read back without */
					/* it had exact ones (RK_PERIODS_BEFORE) */
	RK_WAKE,			/* --wake: timer or waker; a run read back without it */
					/* was woken by the waker (RK_WAKE_BEFORE) */
	RK_TIMER_SLACK,			/* --timer-slack, ns */
	RK_WORKLOAD,			/* -W FILE.json: its sha256's first 16 digits and how */
					/* its timers ran ("3f..9a:exact"); "" (and not written) */
					/* without one, so that runs of two files never pool */
	RK_COUNT,
};
#define RK_PERIODS_BEFORE "exact"	/* what every earlier version and 0.31 ran */
#define RK_WAKE_BEFORE "waker"		/* how every earlier version and 0.31 woke */

enum key_type { KT_DOUBLE, KT_INT, KT_LONG, KT_BOOL, KT_CHOICE, KT_TEXT };

struct run_key_prop {
	const char *name;		/* in the log's Settings line and the CSV header */
	const char *flag;		/* the option, for a comparison's labels */
	enum key_type type;
	size_t off;			/* of the value in struct config */
	const char *const *names;	/* KT_CHOICE: an int's words */
};						/* KT_TEXT: a char array, "" not written */
extern const struct run_key_prop run_keys[RK_COUNT];

#define RK_LEN 32

/*
 * The run record: one interbench run, measured now or read back. A live run
 * appends each row's result once, as the row ends (run/row.c), and every
 * output reads the record: the text table, the log, JSON, CSV, the --repeat
 * summary, --plot and --compare. Read back, it is one column group of a
 * comparison: every interbench run of a file with the same kernel release,
 * comment and run keys, whose results are passes of one another.
 */
struct run_record {
	char kernel[128];		/* "" when the log has no header line */
	char comment[256];
	char key[RK_COUNT][RK_LEN];	/* run_keys' values as text, "" when unknown */
	char date[32];			/* datestamp or ISO start of the first run */
	double seconds;			/* per row, 0 when unknown */
	char work[8];			/* "cpu", "loops", or "" when the file does not say */
	int nruns;			/* interbench runs pooled here */
	int interrupted;		/* the signal that stopped it (read back: 1), or 0 */
	struct knob_values knobs;	/* how it was scheduled: repeats share them */
	char variant[RES_VARIANT_LEN + 2];	/* read back: "B load-nice=19", one --vary value */
	char variant_states[MAX_VARIANTS][VARIANT_STATE_LEN];	/* what each variant showed */
					/* as it was tried: "reads bfq" ("" unknown); the */
					/* header's "Variant A:" lines, read back from them */
	char variant_state[VARIANT_STATE_LEN];	/* read back, split: this variant's */
	char scx[RES_SCX_LEN];		/* read back: the sched_ext scheduler the rows ran */
					/* under, "none", "" when not known */
	struct machine_values mach;	/* what it ran on: the first run's of a pool */
	int nres, cap;
	struct result *res;
	/* a run measured now; NULL and 0 when read back */
	const struct config *cfg;
	const struct machine *sys;	/* what describes the machine */
	const struct plan *plan;	/* its cells, in order (model/plan.h) */
	time_t start, end;		/* wall clock; end 0 while it runs */
	bool waker_rt;			/* wakers may use SCHED_FIFO */
};

enum res_format { RES_LOG, RES_CSV };

struct result_file {
	enum res_format format;
	int nruns, cap;
	struct run_record *runs;
};

/* record.c: a live run's record */
void record_init(struct run_record *r, const struct config *cfg, const struct machine *sys,
		 const struct plan *plan, time_t start);
void record_free(struct run_record *r);
double record_fastest(const struct run_record *r, int upto);	/* loop_speed, results < upto */
int record_passes_of(const struct run_record *r, const char *bench, const char *load,
		     int variant, int ncpus, const char *group, const struct result **list);

void run_key_text(const struct config *cfg, int k, char *buf, size_t len);
void run_key_set(struct run_record *r, int k, const char *text, size_t n);
bool run_comparable(const struct run_record *a, const struct run_record *b);
const char *run_latency_name(const struct run_record *r);
void build_settings(char *buf, size_t len, const struct run_record *r);

/* record.c: what a run record is built with, live or read back */
void results_free(struct result_file *f);
struct result *run_new_result(struct run_record *r);
struct run_record *file_new_run(struct result_file *f);
bool set_name(char *dst, const char *src, size_t len);
bool parse_value(const char *s, double *v);
void record_scx_of(char *out, size_t len, const char *text);	/* "lavd", "none", "" */
const char *quote(char *buf, size_t len, const char *s);

#endif
