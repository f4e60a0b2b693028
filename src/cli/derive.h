/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli/derive.h - the configuration turned into what each part needs: a task's parameters and
 * scheduling, the loads', the knobs' record, a trial of them. */
#ifndef CLI_DERIVE_H
#define CLI_DERIVE_H

#include <stddef.h>
#include <stdint.h>

#include "loads/loads.h"
#include "model/config.h"
#include "task/task.h"

struct knob_values;
struct workload;

/* derive.c: the configuration, as each part needs it */
void sim_params_init(struct sim_params *p, const struct workload *wl, const struct config *cfg);
void sim_params_init_beside(struct sim_params *p, const struct workload *wl,
			  const struct config *cfg);
int bench_frame_rate(const struct config *cfg, int bench);
void task_sched_of(const struct config *cfg, uint64_t period_num, uint64_t period_den,
		   uint64_t work_ns, struct task_sched *ts);
void knobs_of_config(const struct config *cfg, struct knob_values *kv);
void load_params_of(const struct config *cfg, struct load_params *lp);
uint64_t bench_wakeups(const struct config *cfg, int bench);
uint64_t row_wakeups_max(const struct config *cfg);
int sched_probe(const struct config *cfg, char *err, size_t errlen);

#endif
