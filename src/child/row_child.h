/* SPDX-License-Identifier: GPL-2.0-or-later */
/* child/row_child.h - what a row's children start from, and their bodies: the load process,
 * a simulated task's bench process, a workload file's. */
#ifndef CHILD_ROW_CHILD_H
#define CHILD_ROW_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/period.h"
#include "loads/loads.h"
#include "model/config.h"
#include "model/workloads.h"
#include "task/task.h"

/* What every row of a run starts from. */
struct row_env {
	const struct config *cfg;
	struct load_ctx *load_ctx;		/* the loads' parameters and files */
	bool waker_rt;			/* wakers may use SCHED_FIFO */
	int trace_fd, tracing_on_fd;	/* tracefs for --trace-above, -1 when off */
	void (*drop_inherited)(void);	/* closes what a child must not keep of the
					 * orchestrator's (its signal pipe, the run lock); NULL */
	uint64_t period_cap;		/* periods a row's ring keeps (0: none recorded) */
};

struct row_ctx {		/* what the row's children start from */
	const struct row_env *env;
	const struct config *cfg;
	int bench, load;
	int ncpus;			/* --ncpus: the CPUs its children may use; 0: all */
	int proc;			/* the bench process being forked: 0 the first, a */
					/* group's next member or a copy beside it after */
};

/* load_child.c: the load process, run by the orchestrator's commands (child.h) */
int load_process(const struct workload *wl, struct load_ctx *ctx, int ctl_fd, int res_fd);

/* bench_child.c: the load's and a simulated task's bench process */
void child_drop_inherited(const struct row_env *env);
int confine(const struct row_ctx *rc, int res);
int load_body(void *arg, int ctl, int res);
int bench_body(void *arg, int ctl, int res);
int ring_setup(const struct row_env *env, struct period_ring *ring);
bool chain_pooled(const struct row_ctx *rc, const struct bench_result *b);
void send_periods(int res, struct bench_result *b, const struct period_ring *ring,
		  const struct stage_set *st);

/* rtapp_child.c: a workload file's bench process, a result per thread object */
int rtapp_body(void *arg, int ctl, int res);
void rtapp_traced(const struct config *cfg, bool *traced);	/* [thread objects] */
#define RTAPP_ROW_GRACE_NS (5 * NSEC_PER_SEC)	/* its threads' end: rtapp_run()'s bound */

#endif
