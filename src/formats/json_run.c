// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/json_run.c - --json's "run" and "system": how the run ran, and on what. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>

#include "lib/util.h"
#include "formats/json_writer.h"
#include "model/config.h"
#include "model/record.h"
#include "sys/machine.h"
#include "task/work.h"

/* The scheduling knobs, by the table the log line and CSV columns use too. */
static void json_knobs(struct jw *w, const struct knob_values *kv)
{
	for (int k = 0; k < NR_KNOBS; k++) {
		const char *v = kv->v[k];

		if (knob_descs[k].number)
			jw_num(w, knob_descs[k].file, *v ? strtod(v, NULL) : NAN);
		else
			jw_str(w, knob_descs[k].file, v);
	}
}

/* The settings of Render and Custom, which the log's Settings line and the CSV keep too. */
static void json_task_settings(struct jw *w, const struct config *cfg)
{
	jw_int(w, "fps", cfg->fps_ran ? cfg->fps_ran : SI_UNKNOWN);
	/* both 0 without Custom: null, as no Custom task ran */
	jw_int(w, "custom_cpu_pct", cfg->custom_pct ? cfg->custom_pct : SI_UNKNOWN);
	jw_int(w, "custom_interval_us", cfg->custom_interval_us ? cfg->custom_interval_us :
	       SI_UNKNOWN);
}

/* --vary: the knob, its variants in their index order, and how their order turns. */
static void json_vary(struct jw *w, const struct config *cfg,
		      const char (*states)[VARIANT_STATE_LEN])
{
	if (!cfg->nvariants) {
		jw_null(w, "vary");
		return;
	}
	jw_open(w, "vary", '{');
	jw_str(w, "knob", cfg->vary_name);
	jw_str(w, "order", "williams");
	jw_str(w, "switch", cfg->vary_order == VORDER_BLOCKS ? "blocks" : "abba");
	jw_known(w, "file", cfg->vary_path);
	jw_known(w, "device", cfg->vary_device);
	jw_known(w, "ready_file", cfg->vary_kind == VARY_EXEC ? cfg->vary_ready : NULL);
	if (cfg->vary_kind == VARY_EXEC)
		jw_num(w, "settle_s", cfg->vary_settle_s);
	else
		jw_null(w, "settle_s");
	jw_open(w, "variants", '[');
	for (int v = 0; v < cfg->nvariants; v++) {
		jw_open(w, NULL, '{');
		jw_int(w, "variant_index", v + 1);
		jw_str(w, "variant", cfg->variants[v].label);
		jw_known(w, "value", cfg->variants[v].value);
		jw_known(w, "state", states[v]);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_close(w, '}');
}

/* "run": how it ran, from its command line to its settings */
void json_run(struct jw *w, const struct run_record *run)
{
	const struct config *cfg = run->cfg;
	char t[40];

	jw_open(w, "run", '{');
	jw_open(w, "command_line", '[');
	for (int i = 0; i < cfg->argc; i++)
		jw_str(w, NULL, cfg->argv[i]);
	jw_close(w, ']');
	fmt_iso8601(t, sizeof(t), run->start);
	jw_str(w, "start", t);
	fmt_iso8601(t, sizeof(t), run->end);
	jw_str(w, "end", run->end ? t : NULL);
	jw_num(w, "seconds_per_row", cfg->seconds);
	jw_str(w, "work", work_mode_name(cfg->work));
	if (cfg->work == WORK_LOOPS)
		jw_u64(w, "loops_per_ms", cfg->loops_per_ms);
	else
		jw_null(w, "loops_per_ms");
	jw_str(w, "periods", period_mode_names[cfg->periods]);
	if (cfg->periods == PERIOD_SWEPT)
		jw_u64(w, "period_drift_ns", cfg->period_drift_ns);
	else
		jw_null(w, "period_drift_ns");
	jw_str(w, "wake", wake_mode_names[cfg->wake]);
	jw_int(w, "timer_slack_ns", cfg->timer_slack_ns);
	jw_int(w, "cpu_load", cfg->cpu_load);
	jw_bool(w, "realtime", cfg->realtime);
	jw_int(w, "bench_nice", cfg->bench_nice);
	jw_int(w, "load_nice", cfg->load_nice);
	jw_str(w, "comment", cfg->comment);
	jw_known(w, "load_cmd", cfg->load_cmd);
	jw_bool(w, "interrupted", run->interrupted);
	jw_int(w, "signal", run->interrupted ? run->interrupted : SI_UNKNOWN);
	json_knobs(w, &run->knobs);
	json_task_settings(w, cfg);
	jw_bool(w, "waker_fifo", run->waker_rt);
	jw_bool(w, "uniprocessor", cfg->uniprocessor);
	jw_int(w, "repeat", cfg->repeat);
	jw_int(w, "trace_above_us", cfg->trace_above_us > 0 ? cfg->trace_above_us : SI_UNKNOWN);
	jw_bool(w, "explain", cfg->explain);
	jw_bool(w, "split", !cfg->no_split);
	json_vary(w, cfg, run->variant_states);
	json_workload_run(w, cfg);
	jw_close(w, '}');
}

/* "system": what it ran on, null where not known */
void json_system(struct jw *w, const struct run_record *run)
{
	static const struct machine none = {
		.preempt_dynamic = -1, .cpus_online = -1, .sched_rt_runtime_us = SI_UNKNOWN,
		.sched_rt_period_us = SI_UNKNOWN, .timer_slack_ns = SI_UNKNOWN,
		.pm_qos_us = SI_UNKNOWN, .mem_kib = SI_UNKNOWN, .swap_kib = SI_UNKNOWN,
		.autogroup = -1,
		.mem_limit_bytes = SI_UNKNOWN, .cpus_usable = -1, .work_dir_in_memory = -1,
	};
	const struct machine *si = run->sys ? run->sys : &none;

	jw_open(w, "system", '{');
	jw_known(w, "kernel_release", run->kernel);
	jw_known(w, "kernel_version", si->kernel_version);
	jw_known(w, "preemption", si->preemption);
	jw_known(w, "preemption_source", si->preemption_source);
	jw_tristate(w, "preempt_dynamic", si->preempt_dynamic);
	jw_int(w, "hz", si->hz > 0 ? si->hz : SI_UNKNOWN);
	jw_known(w, "hostname", si->hostname);
	jw_known(w, "cpu_model", si->cpu_model);
	jw_int(w, "cpus_online", si->cpus_online > 0 ? si->cpus_online : SI_UNKNOWN);
	jw_int(w, "cpus_usable", si->cpus_usable > 0 ? si->cpus_usable : SI_UNKNOWN);
	jw_known(w, "cpufreq_governor", si->cpufreq_governor);
	jw_known(w, "clocksource", si->clocksource);
	jw_int(w, "sched_rt_runtime_us", si->sched_rt_runtime_us);
	jw_int(w, "sched_rt_period_us", si->sched_rt_period_us);
	jw_int(w, "timer_slack_ns", si->timer_slack_ns);
	jw_int(w, "pm_qos_us", si->pm_qos_us);
	jw_int(w, "mem_kib", si->mem_kib);
	jw_int(w, "swap_kib", si->swap_kib);
	jw_int(w, "memory_limit_bytes", si->mem_limit_bytes);
	jw_known(w, "memory_limit_file", si->mem_limit_file);
	jw_known(w, "work_dir_fs", si->work_dir_fs);
	jw_known(w, "work_dir_device", si->work_dir_device);
	if (si->work_dir_in_memory < 0)
		jw_null(w, "work_dir_in_memory");
	else
		jw_bool(w, "work_dir_in_memory", si->work_dir_in_memory);
	jw_known(w, "io_scheduler", si->io_scheduler);
	jw_known(w, "kernel_cmdline", si->kernel_cmdline);
	jw_known(w, "sched_ext", si->sched_ext);
	jw_known(w, "sched_ext_ops", si->sched_ext_ops);
	jw_tristate(w, "autogroup", si->autogroup);
	jw_close(w, '}');
}
