// SPDX-License-Identifier: GPL-2.0-or-later
/* cli/derive.c - the configuration turned into what a part needs: a task's parameters and
 * scheduling, the loads', the knobs' record, a trial of them. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "core/accounting.h"
#include "lib/util.h"
#include "loads/loads.h"
#include "model/kinds.h"
#include "model/workloads.h"
#include "model/record.h"
#include "cli/options.h"
#include "cli/derive.h"

void task_sched_of(const struct config *cfg, uint64_t period_num, uint64_t period_den,
		   uint64_t work_ns, struct task_sched *ts)
{
	memset(ts, 0, sizeof(*ts));
	ts->policy = policy_of(cfg->policy, cfg->realtime);
	ts->nice = cfg->bench_nice;
	ts->rt_priority = cfg->rt_priority;
	ts->slice_ns = (uint64_t)cfg->slice_us * NSEC_PER_USEC;
	if (ts->policy == POL_DEADLINE && period_den)
		dl_params(period_num, period_den, work_ns, &ts->dl_runtime_ns, &ts->dl_period_ns);
	ts->util_min = uclamp_value(cfg->uclamp_min);
	ts->util_max = uclamp_value(cfg->uclamp_max);
}

static void knob_set(struct knob_values *kv, int k, bool set, long v)
{
	if (set)
		snprintf(kv->v[k], KNOB_LEN, "%ld", v);
}

void knobs_of_config(const struct config *cfg, struct knob_values *kv)
{
	int pol = policy_of(cfg->policy, cfg->realtime);

	memset(kv, 0, sizeof(*kv));
	kv->known = true;
	snprintf(kv->v[KN_POLICY], KNOB_LEN, "%s", policy_names[pol]);
	knob_set(kv, KN_RT_PRIORITY, pol == POL_FIFO || pol == POL_RR, cfg->rt_priority);
	knob_set(kv, KN_SLICE, cfg->slice_us, cfg->slice_us);
	knob_set(kv, KN_UCLAMP_MIN, cfg->uclamp_min >= 0, cfg->uclamp_min);
	knob_set(kv, KN_UCLAMP_MAX, cfg->uclamp_max >= 0, cfg->uclamp_max);
	snprintf(kv->v[KN_LOAD_POLICY], KNOB_LEN, "%s", load_policy_names[cfg->load_policy]);
}

/* The nominal period of wl as configured, num / den ns. */
static void nominal_period(const struct workload *wl, const struct config *cfg, uint64_t *num,
			   uint64_t *den)
{
	*num = wl->period_num;
	*den = wl->period_den;
	if (wl->kind && wl->kind->period)
		wl->kind->period(wl, cfg, num, den);
}

/* Render's and Game's frames per second as cfg sets them; 0 for the others. */
int bench_frame_rate(const struct config *cfg, int bench)
{
	uint64_t num, den;

	if (!kind_has(bench, KM_FPS))
		return 0;
	nominal_period(&workloads[bench], cfg, &num, &den);
	return (int)(den * NSEC_PER_SEC / num);
}

/*
 * The period as it runs: swept (core/tickphase.h) over a row of -t seconds,
 * the row's load too, or exact. Gaming has none.
 */
static void running_period(const struct workload *wl, const struct config *cfg, bool load,
			   struct period_scale *s)
{
	uint64_t num, den, drift = cfg->period_drift_ns;

	nominal_period(wl, cfg, &num, &den);
	if (load && den)
		drift += num / den;
	if (cfg->periods == PERIOD_EXACT || !num)
		period_exact(num, den, s);
	else
		period_swept(num, den, (uint64_t)llround(cfg->seconds * 1e9), drift, s);
}

/*
 * A fixed work is scaled with its period; one that is a share of the
 * period (Custom, Game's main, AudioGraph's node: the kinds' params) is
 * that share of the scaled period, which is the same.
 */
static void sim_params_fill(struct sim_params *p, const struct workload *wl,
			    const struct config *cfg, bool load)
{
	memset(p, 0, sizeof(*p));
	p->name = wl->name;
	p->work = cfg->work;
	p->wake = (enum wake_mode)cfg->wake;
	p->slack_ns = cfg->timer_slack_ns;
	p->loops_per_ms = cfg->loops_per_ms;
	running_period(wl, cfg, load, &p->scale);
	p->period_num = p->scale.num;
	p->period_den = p->scale.den;
	p->work_ns = scale_work(&p->scale, wl->work_ns);
	if (wl->kind && wl->kind->params)	/* its work share, its frames, its chain */
		wl->kind->params(p, wl, cfg);
	task_sched_of(cfg, p->period_num, p->period_den, p->work_ns, &p->sched);
	p->trace_fd = -1;
	p->tracing_on_fd = -1;
}

void sim_params_init(struct sim_params *p, const struct workload *wl, const struct config *cfg)
{
	sim_params_fill(p, wl, cfg, false);
}

/*
 * A periodic task beside the benchmark, swept as the benchmark is, would
 * keep its phase against the benchmark's for the whole row: Video's three
 * periods are Audio's one, both drift by the same tick, and copies of one
 * benchmark start within microseconds of each other. So a periodic load, a
 * group's second and later members and --instances' later copies drift by
 * one of their own periods more: over the row their wake-ups step through
 * every phase of their period against the first's, and through the tick.
 */
void sim_params_init_beside(struct sim_params *p, const struct workload *wl,
			  const struct config *cfg)
{
	sim_params_fill(p, wl, cfg, true);
}

void load_params_of(const struct config *cfg, struct load_params *lp)
{
	*lp = (struct load_params){ .cpu_load = cfg->cpu_load, .loops_per_ms = cfg->loops_per_ms,
				    .memload_mib = cfg->memload_mib, .file_mib = cfg->file_mib,
				    .work_dir = cfg->work_dir, .command = cfg->load_cmd };
}

/*
 * The wake-ups a row of benchmark bench can have: its periods (none for
 * Gaming's units); a workload file's threads, the records they keep at most.
 */
uint64_t bench_wakeups(const struct config *cfg, int bench)
{
	struct sim_params p;

	if (kind_of(bench)->wakeups)
		return kind_of(bench)->wakeups(cfg);
	sim_params_init(&p, &workloads[bench], cfg);
	return (uint64_t)(cfg->seconds * 1e9 * (double)p.period_den / (double)p.period_num) + 1;
}

/* The most wake-ups a row of one of the selected benchmarks can have. */
uint64_t row_wakeups_max(const struct config *cfg)
{
	uint64_t periods = 0;

	for (size_t i = 0; i < nr_workloads; i++) {
		uint64_t n = (cfg_benches(cfg) & (1u << i)) ? bench_wakeups(cfg, (int)i) : 0;

		if (n > periods)
			periods = n;
	}
	return periods;
}

struct trial {
	const struct task_sched *ts;
	const char *bench;
	char *err;
	size_t errlen;
	int ret;
};

static void *trial_main(void *arg)
{
	struct trial *t = arg;

	t->ret = sched_apply(t->ts, t->bench, t->err, t->errlen);
	return NULL;
}

/*
 * Before the run: each selected benchmark's scheduling, applied to a
 * throw-away thread of ours, so that what the kernel refuses (privilege,
 * deadline admission, a slice or clamps it does not keep) stops the run
 * with one line instead of failing every row.
 */
/* CAP_IPC_LOCK in this process's effective set (/proc/self/status's CapEff, bit 14). */
static bool can_lock_memory(void)
{
	char line[128];
	bool yes = false;
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7))
			yes = (strtoull(line + 7, NULL, 16) >> 14) & 1;
	if (f)
		fclose(f);
	return yes;
}

/*
 * A real-time class locks the bench process's memory (row.c), all of it
 * and all it will map, which a user with CAP_SYS_NICE alone may not beyond
 * RLIMIT_MEMLOCK (8 MiB by default): so that the run stops here with what
 * is needed, not with every row failing, either the privilege or no limit.
 */
static int memlock_probe(const struct config *cfg, char *err, size_t errlen)
{
	struct rlimit rl;

	if (!policy_is_rt(cfg->policy) || can_lock_memory())
		return 0;
	if (!getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur == RLIM_INFINITY)
		return 0;
	return set_err(err, errlen, "%s locks the benchmark's memory (mlockall), beyond this "
		       "user's RLIMIT_MEMLOCK: run as root, or grant CAP_IPC_LOCK or an unlimited "
		       "RLIMIT_MEMLOCK (ulimit -l unlimited)",
		       cfg->realtime ? "-r" : "a real-time --policy");
}

int sched_probe(const struct config *cfg, char *err, size_t errlen)
{
	if (memlock_probe(cfg, err, errlen))
		return -1;
	for (size_t i = 0; i < nr_workloads; i++) {
		struct sim_params p;
		struct trial t = { .err = err, .errlen = errlen };
		pthread_t th;
		int ret;

		if (!(cfg_benches(cfg) & (1u << i)))
			continue;
		sim_params_init(&p, &workloads[i], cfg);
		if (task_sched_is_default(&p.sched))
			continue;
		t.ts = &p.sched;
		t.bench = workloads[i].name;
		ret = pthread_create(&th, NULL, trial_main, &t);
		if (ret)
			return set_err(err, errlen, "pthread_create: %s", strerror(ret));
		pthread_join(th, NULL);
		if (t.ret)
			return t.ret;
	}
	return 0;
}
