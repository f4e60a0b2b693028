// SPDX-License-Identifier: GPL-2.0-or-later
/* cli/selection.c - which benchmarks and loads run, and the options that need one of them. */
#include <stdbool.h>
#include <stdint.h>

#include "lib/util.h"
#include "model/workloads.h"
#include "cli/options.h"
#include "task/task.h"

/* Custom needs at least one whole period in a row. */
int check_custom(const struct config *cfg, char *err, size_t errlen)
{
	int i = workload_find("Custom");

	if (i < 0 || !((cfg_benches(cfg) | cfg->loads) & (1u << i)))
		return 0;
	if ((double)cfg->custom_interval_us > cfg->seconds * 1e6)
		return set_err(err, errlen, "-I %ld us is longer than -t %g s: Custom would not "
			       "have one whole period in a row", cfg->custom_interval_us,
			       cfg->seconds);
	return 0;
}

/* -W NAME that the benchmarks' scheduling class cannot run: one line, -1; else 0. */
int refuse_class(const struct config *cfg, const struct workload *wl, char *err,
			size_t errlen)
{
	char names[256];

	if ((wl->flags & WL_RTAPP_FILE) && cfg->policy == POL_DEADLINE)
		return set_err(err, errlen, "-W %s: --policy deadline needs one period and "
			       "runtime per task; give the file's threads \"policy\": "
			       "\"SCHED_DEADLINE\" with their dl-runtime and dl-period instead",
			       cfg->rtapp.name);
	if (!policy_is_rt(cfg->policy) || (wl->flags & WL_RT))
		return 0;
	workload_names(WL_BENCH | WL_RT, names, sizeof(names));
	if (cfg->policy == POL_DEADLINE)
		return set_err(err, errlen, "-W %s has no fixed work per period, which --policy "
			       "deadline needs; benchmarks with one: %s", wl->name, names);
	return set_err(err, errlen, "-W %s cannot run real time (-r, --policy fifo or rr); "
		       "real-time benchmarks: %s", wl->name, names);
}

/* Named, or (with none named) in 0.31's default matrix; and not excluded. */
static bool selected(const struct workload *wl, uint32_t bit, uint32_t only, uint32_t not)
{
	return (only ? (only & bit) : !(wl->flags & WL_OPTIN)) && !(not & bit);
}

/*
 * A group's members each run as -W would run them alone, and the group has
 * a load to run under: a load that is a member is not run against its group.
 */
static int check_groups(const struct config *cfg, bool custom, char *err, size_t errlen)
{
	for (int g = 0; g < cfg->ngroups; g++) {
		const struct task_group *tg = &cfg->groups[g];

		for (int k = 0; k < tg->n; k++) {
			const struct workload *wl = &workloads[tg->member[k]];

			if ((wl->flags & WL_CUSTOM) && !custom)
				return set_err(err, errlen, "-W %s: %s needs -C and -I to define "
					       "it", tg->name, wl->name);
			if (refuse_class(cfg, wl, err, errlen))
				return -1;
		}
		if (!(cfg->loads & ~tg->mask))
			return set_err(err, errlen, "-W %s: no load left to run it under: a "
				       "group is never run against its own members", tg->name);
	}
	return 0;
}

/* Which benchmarks and loads run, from -W/-X/-w/-x, the policy (-r) and -C/-I. */
int resolve_selection(struct config *cfg, const uint32_t sel[4], char *err,
			     size_t errlen)
{
	bool custom = cfg->custom_pct && cfg->custom_interval_us;
	bool rt = policy_is_rt(cfg->policy);
	uint32_t benches = 0, loads = 0;

	for (size_t i = 0; i < nr_workloads; i++) {
		const struct workload *wl = &workloads[i];
		bool exists = workload_defined(wl, cfg);
		uint32_t bit = 1u << i;

		if ((sel[2] & bit) && !exists && (wl->flags & WL_COMMAND))
			return set_err(err, errlen, "-w %s needs --load-cmd 'CMD' to define it",
				       wl->name);
		if ((sel[0] & bit) && !exists)
			return set_err(err, errlen, "-W %s needs -C and -I to define it", wl->name);
		if ((sel[2] & bit) && !exists)
			return set_err(err, errlen, "-w %s needs -C and -I to define it", wl->name);
		if ((sel[0] & bit) && refuse_class(cfg, wl, err, errlen))
			return -1;
		if ((wl->flags & WL_BENCH) && exists && (!rt || (wl->flags & WL_RT)) &&
		    selected(wl, bit, sel[0], sel[1]) &&
		    (!cfg->ngroups || (sel[0] & bit)))	/* -W GROUP: no default matrix */
			benches |= bit;
		if ((wl->flags & WL_LOAD) && exists && selected(wl, bit, sel[2], sel[3]))
			loads |= bit;
	}
	if (!benches && !cfg->ngroups)
		return set_err(err, errlen, "no benchmark left to run (check -W, -X and -r)");
	if (!loads)
		return set_err(err, errlen, "no load left to run (check -w and -x)");
	if (!cfg->ngroups && benches == loads && !(benches & (benches - 1)))
		return set_err(err, errlen, "nothing to run: a benchmark is never run against itself");
	cfg->benches = benches;
	cfg->loads = loads;
	return check_groups(cfg, custom, err, errlen);
}

/* --fps without Render or Game, --quantum without AudioGraph: options of nothing that runs. */
int check_fps(struct config *cfg, char *err, size_t errlen)
{
	uint32_t framed = 1u << workload_find("Render") | 1u << workload_find("Game");

	if (cfg->fps && !((cfg_benches(cfg) | cfg->loads) & framed))
		return set_err(err, errlen, "--fps sets Render's and Game's frame rate; name one "
			       "with -W or -w");
	if (cfg->quantum && !(cfg_benches(cfg) & (1u << workload_find("AudioGraph"))))
		return set_err(err, errlen, "--quantum sets AudioGraph's quantum; name AudioGraph "
			       "with -W");
	cfg->fps_given = cfg->fps != 0;	/* --vary fps sets it too (build_variants) */
	if (!cfg->fps)
		cfg->fps = 144;
	/* what is recorded: the rate that ran, Game's own 60 when it runs without Render */
	cfg->fps_ran = cfg->fps;
	if (!cfg->fps_given && !((cfg_benches(cfg) | cfg->loads) & 1u << workload_find("Render")) &&
	    (cfg_benches(cfg) & 1u << workload_find("Game")))
		cfg->fps_ran = GAME_FPS;
	if (!cfg->quantum)
		cfg->quantum = 256;
	return 0;
}

/* The checks of the knobs against each other and -r, -u, before anything runs. */
int knobs_validate(struct config *cfg, char *err, size_t errlen)
{
	int pol = cfg->policy;

	if (cfg->realtime && pol >= 0 && !policy_is_rt(pol))
		return set_err(err, errlen, "-r runs the benchmarks in a real-time class; "
			       "--policy %s contradicts it", policy_names[pol]);
	cfg->policy = pol = policy_of(pol, cfg->realtime);
	if (cfg->slice_us && pol != POL_OTHER && pol != POL_BATCH)
		return set_err(err, errlen, "--slice sets the EEVDF slice of an other or batch "
			       "task, not of --policy %s", policy_names[pol]);
	if (cfg->uclamp_min >= 0 && cfg->uclamp_max >= 0 && cfg->uclamp_min > cfg->uclamp_max)
		return set_err(err, errlen, "--uclamp-min %d is above --uclamp-max %d",
			       cfg->uclamp_min, cfg->uclamp_max);
	if (cfg->nncpus && cfg->uniprocessor)
		return set_err(err, errlen, "--ncpus and -u contradict: -u runs everything on one "
			       "CPU (--ncpus 1 does that per row)");
	if (pol == POL_DEADLINE && cfg->uniprocessor)
		return set_err(err, errlen, "--policy deadline and -u contradict: a SCHED_DEADLINE "
			       "task must be allowed every CPU");
	return 0;
}
