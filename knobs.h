/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knobs.h - the scheduling knobs of a run as data: names, values, the log line, the task's attributes. */
#ifndef KNOBS_H
#define KNOBS_H

/* Nothing of the run here but plain data: no syscalls, no threads. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sched_policy {		/* --policy; the first three are --load-policy's too */
	POL_OTHER, POL_BATCH, POL_IDLE, POL_FIFO, POL_RR, POL_DEADLINE,
};
extern const char *const policy_names[];	/* NULL-terminated, in enum order */
extern const char *const load_policy_names[];	/* other, batch, idle */
bool policy_is_rt(int policy);			/* fifo, rr, deadline */
int policy_of(int policy, bool realtime);	/* unset (-1): fifo with -r, else other */

/* The Linux ABI of sched_setattr(2), under our own name (glibc before 2.41 has none). */
struct ib_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;		/* deadline's runtime; a fair task's slice (6.12+) */
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;	/* 0..1024, with CONFIG_UCLAMP_TASK */
	uint32_t sched_util_max;
};

#define UCLAMP_SCALE 1024

/* How the benchmark task is to be scheduled, resolved for one benchmark. */
struct task_sched {
	int policy;			/* enum sched_policy */
	int nice;			/* -B, for other and batch */
	int rt_priority;		/* fifo and rr */
	uint64_t slice_ns;		/* --slice, 0: the kernel's */
	uint64_t dl_runtime_ns, dl_period_ns;	/* deadline: period = deadline */
	int util_min, util_max;		/* 0..UCLAMP_SCALE, -1: untouched */
};

struct config;
void task_sched_of(const struct config *cfg, uint64_t period_num, uint64_t period_den,
		   uint64_t work_ns, struct task_sched *ts);
bool task_sched_is_default(const struct task_sched *ts);
void dl_params(uint64_t period_num, uint64_t period_den, uint64_t work_ns, uint64_t *runtime,
	       uint64_t *period);
int uclamp_value(int pct);
int sched_readback(const struct task_sched *want, const struct ib_sched_attr *got, char *err,
		   size_t errlen);
int sched_error(const struct task_sched *ts, const char *bench, int step, int err,
		long long rt_runtime_us, long long rt_period_us, char *buf, size_t len);
enum { SCHED_STEP_POLICY, SCHED_STEP_UCLAMP };	/* sched_error's step */
int knobs_validate(struct config *cfg, char *err, size_t errlen);

/* The knobs a run used, as text: the log's "Scheduling:" line, CSV columns, JSON keys. */
enum knob {
	KN_POLICY, KN_RT_PRIORITY, KN_SLICE, KN_UCLAMP_MIN, KN_UCLAMP_MAX, KN_LOAD_POLICY,
	NR_KNOBS,
};

struct knob_desc {
	const char *log;		/* key in the log line: the option's name */
	const char *file;		/* key in JSON's run, column in CSV */
	const char *unit;		/* after a value in the log */
	bool number;			/* JSON: a number, else a string */
};
extern const struct knob_desc knob_descs[NR_KNOBS];

#define KNOB_LEN 24
struct knob_values {
	bool known;			/* a log without the line: nothing known */
	char v[NR_KNOBS][KNOB_LEN];	/* "" when the knob was left to the kernel */
};

#define LOG_SCHEDULING "Scheduling: "
void knobs_of_config(const struct config *cfg, struct knob_values *kv);
void knobs_line(const struct knob_values *kv, char *buf, size_t len);
void knobs_parse_line(const char *s, struct knob_values *kv);
bool knobs_equal(const struct knob_values *a, const struct knob_values *b);
void knobs_text(const struct knob_values *kv, const bool *which, char *buf, size_t len);

/* sweep.c: Render's frame k needs 20 % to 80 % of the frame and back over 120 frames. */
#define RENDER_SWEEP 120
uint64_t render_work_ns(uint64_t period_num, uint64_t period_den, uint64_t k);

#endif
