// SPDX-License-Identifier: GPL-2.0-or-later
/* model/metrics.c - the metrics' table: for each number of a result its names in every output,
 * its unit, where JSON puts it, and which kinds of benchmark have it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/frames.h"
#include "model/kinds.h"
#include "model/metrics.h"
#include "model/result.h"

/* flags, then what else the row has: ".verdict = name", ".log = LOG(...)" */
#define NUM(f, j, p, c, u, ...) { .field = f, .json = j, .place = p, .csv = c, .unit = u, \
				  .flags = __VA_ARGS__ }
#define TEXT(member, j, p, c, fl) { .field = -1, .json = j, .place = p, .csv = c, .unit = "", \
				    .flags = (fl), .text = offsetof(struct result, member), \
				    .text_len = sizeof(((struct result *)0)->member) }
/* A column of a log's table: its place, head, separator, width, flags (LC_) and key */
#define LOG(p, h, s, w, fl, k) { .pos = p, .head = h, .sep = s, .width = w, .flags = fl, \
				 .key = k }
/* A column of --compare's table: its head, digits (0: a percentage) and flags (CC_) */
#define CMP(h, d, fl) { .head = h, .sig = d, .flags = fl }
/* A latency's eight numbers: F##MIN .. F##P999, under JSON's object j and CSV's prefix c */
#define LATENCY(F, j, p, c, round) \
	NUM(F##MIN, j ".min", p, c "_min_ns", "ns", MF_ALL), \
	NUM(F##MEAN, j ".mean", p, c "_mean_ns", "ns", MF_ALL | (round)), \
	NUM(F##SD, j ".sd", p, c "_sd_ns", "ns", MF_ALL | (round)), \
	NUM(F##MAX, j ".max", p, c "_max_ns", "ns", MF_ALL), \
	NUM(F##P50, j ".p50", p, c "_p50_ns", "ns", MF_ALL), \
	NUM(F##P90, j ".p90", p, c "_p90_ns", "ns", MF_ALL), \
	NUM(F##P99, j ".p99", p, c "_p99_ns", "ns", MF_ALL), \
	NUM(F##P999, j ".p999", p, c "_p999_ns", "ns", MF_ALL)

const struct metric metrics[] = {
	NUM(RF_SAMPLES, "samples", JP_LATENCY, "samples", "", MF_ALL | MF_COUNT),
	NUM(RF_MIN, "latency_ns.min", JP_LATENCY, "latency_min_ns", "ns", MF_ALL),
	NUM(RF_MEAN, "latency_ns.mean", JP_LATENCY, "latency_mean_ns", "ns",
	    MF_ALL | MF_ROUND3, .verdict = "mean", .compare = CMP("Mean", 3, CC_CHANGE),
	    .log = LOG(1, "Latency +/- SD", "", 7, LC_LATENCY | LC_UNIT | LC_SINGLE, "Latency +/-"),
	    .thread = LOG(1, "  Latency +/- SD", "", 9, LC_LATENCY | LC_UNIT, "Latency +/-")),
	NUM(RF_SD, "latency_ns.sd", JP_LATENCY, "latency_sd_ns", "ns",
	    MF_ALL | MF_ROUND3, .compare = CMP("SD", 2, CC_JOINED),
	    .log = LOG(2, "", " +/- ", -8, LC_LATENCY | LC_SINGLE, "Latency +/-"),
	    .thread = LOG(2, "", " +/- ", -8, LC_LATENCY, "Latency +/-")),
	NUM(RF_MAX, "latency_ns.max", JP_LATENCY, "latency_max_ns", "ns", MF_ALL,
	    .compare = CMP("Max", 3, CC_CHANGE),
	    .log = LOG(3, "  Max Latency", "", 12, LC_LATENCY | LC_SINGLE, "Max Latency"),
	    .thread = LOG(3, "  Max Latency", "", 12, LC_LATENCY, "Max Latency")),
	NUM(RF_P50, "latency_ns.p50", JP_LATENCY, "latency_p50_ns", "ns", MF_ALL),
	NUM(RF_P90, "latency_ns.p90", JP_LATENCY, "latency_p90_ns", "ns", MF_ALL),
	NUM(RF_P99, "latency_ns.p99", JP_LATENCY, "latency_p99_ns", "ns", MF_ALL,
	    .verdict = "p99",
	    .log = LOG(6, "       p99", "", 10, LC_LATENCY | LC_PERCENTILE | LC_SINGLE, "p99.9"),
	    .thread = LOG(7, "       p99", "", 10, LC_LATENCY | LC_PERCENTILE, "p99.9")),
	NUM(RF_P999, "latency_ns.p999", JP_LATENCY, "latency_p999_ns", "ns", MF_ALL,
	    .log = LOG(7, "     p99.9", "", 10, LC_LATENCY | LC_PERCENTILE | LC_SINGLE, "p99.9"),
	    .thread = LOG(8, "     p99.9", "", 10, LC_LATENCY | LC_PERCENTILE, "p99.9")),
	NUM(RF_CPU, "pct_desired_cpu", JP_LOAD, "pct_desired_cpu", "%", MF_ALL,
	    .compare = CMP("%CPU", 0, 0), .log = LOG(4, "   % Desired CPU", "", 16, LC_PCT, NULL)),
	NUM(RF_DEADLINES_MET_PCT, "pct_deadlines_met", JP_LOAD, "pct_deadlines_met", "%",
	    MF_ALL, .verdict = "deadlines", .compare = CMP("%DL", 0, CC_IF_ANY),
	    .log = LOG(5, "  % Deadlines Met", "", 17, LC_PCT | LC_DEADLINE, "Deadlines"),
	    .thread = LOG(6, "  % Deadlines Met", "", 17, LC_PCT, "Deadlines")),
	NUM(RF_INTENSITY, "load_intensity.value", JP_LOAD, "load_intensity", "", MF_ALL),
	TEXT(unit, "load_intensity.unit", JP_LOAD, "load_intensity_unit", MF_ALL),
	LATENCY(RF_T, "timer_latency_ns", JP_LATENCY, "timer", MF_ROUND3),
	NUM(RF_MET, "periods.met", JP_PERIODS, "periods_met", "", MF_ALL | MF_COUNT |
	    MF_PERIODS_OR_NULL),
	NUM(RF_MISSED, "periods.missed", JP_PERIODS, "periods_missed", "", MF_ALL | MF_COUNT),
	NUM(RF_DROPPED, "periods.dropped", JP_PERIODS, "periods_dropped", "", MF_ALL | MF_COUNT),
	NUM(RF_PERIOD, "period_ns", JP_PERIODS, "period_ns", "ns", MF_ALL),
	NUM(RF_FRAME_RATE, "frame_rate", JP_PERIODS, "frame_rate", "fps", MF_ALL),
	NUM(RF_TASK_CPU, "task_cpu_ns", JP_PERIODS, "task_cpu_ns", "ns", MF_ALL),
	NUM(RF_WALL, "wall_ns", JP_PERIODS, "wall_ns", "ns", MF_ALL),
	NUM(RF_LOAD_STOP, "load_stop_ns", JP_PERIODS, "load_stop_ns", "ns", MF_ALL),
	NUM(RF_TRACED, "trace_triggered_ns", JP_PERIODS, "trace_triggered_ns", "ns", MF_ALL),
	NUM(RF_WORK_RATIO, "work_ratio", JP_PERIODS, "work_ratio", "", MF_ALL),
	NUM(RF_LOOP_SPEED, "loop_speed", JP_PERIODS, "loop_speed", "loops/us",
	    MF_ALL | MF_ROUND3),
	TEXT(medium, "load_medium", JP_MEDIUM, "load_medium", MF_ALL),
	LATENCY(RF_Q, "queue_wait_ns", JP_SPLIT, "queue_wait", MF_ROUND3),
	LATENCY(RF_PATH_, "wake_path_ns", JP_SPLIT, "wake_path", MF_ROUND3),
	NUM(RF_QUEUED, "wakeups_queued", JP_SPLIT_QUEUED, "wakeups_queued", "", MF_ALL | MF_COUNT),
	NUM(RF_CROSS_CPU, "wakeups_cross_cpu", JP_SPLIT_CROSS, "wakeups_cross_cpu", "",
	    MF_ALL | MF_COUNT),
	NUM(RF_MIGRATIONS, "migrations", JP_SPLIT_CROSS, "migrations", "", MF_ALL | MF_COUNT),
	NUM(RF_MISS_QUEUED, "miss_shares.queued", JP_MISSES, "miss_queued", "",
	    MF_ALL | MF_OR_NULL),
	NUM(RF_MISS_RUNNING, "miss_shares.running", JP_MISSES, "miss_running", "", MF_ALL),
	NUM(RF_MISS_PREEMPTED, "miss_shares.preempted", JP_MISSES, "miss_preempted", "", MF_ALL),
	NUM(RF_MISS_BLOCKED, "miss_shares.blocked", JP_MISSES, "miss_blocked", "", MF_ALL),
	/* a chain's frame or cycle time: its JSON has them all from the chain (core/frames.h) */
	NUM(RF_FRAME_P50, NULL, JP_NONE, "frame_p50_ns", "ns", MF_GAME,
	    .log = LOG(8, "  Frame p50", "", 11, LC_LATENCY | LC_UNIT | LC_GAME, "Frame p50")),
	NUM(RF_FRAME_P99, NULL, JP_NONE, "frame_p99_ns", "ns", MF_GAME,
	    .verdict = "frame p99",
	    .log = LOG(9, "    p99", "", 7, LC_LATENCY | LC_GAME, "Frame p50")),
	NUM(RF_FRAME_MAX, NULL, JP_NONE, "frame_max_ns", "ns", MF_GAME,
	    .log = LOG(10, "    max", "", 7, LC_LATENCY | LC_GAME, "Frame p50")),
	NUM(RF_FPS, "fps", JP_CHAIN, "fps_avg", "fps", MF_GAME,
	    .log = LOG(11, "    fps", "", 7, LC_GAME, "Frame p50")),
	NUM(RF_FPS_LOW, "fps_1pct_low", JP_CHAIN, "fps_1pct_low", "fps", MF_GAME,
	    .log = LOG(12, "  1% low", "", 8, LC_GAME, "Frame p50")),
	NUM(RF_STUTTERS, "stutters", JP_CHAIN, "stutters", "", MF_GAME | MF_COUNT,
	    .verdict = "stutters",
	    .log = LOG(13, "  Stutters", "", 10, LC_GAME | LC_COUNT, "Frame p50")),
	NUM(RF_CYCLE_P50, NULL, JP_NONE, "cycle_p50_ns", "ns", MF_AUDIO,
	    .log = LOG(14, "  Cycle p50", "", 11, LC_LATENCY | LC_UNIT | LC_AUDIO, "Cycle p50")),
	NUM(RF_CYCLE_P99, NULL, JP_NONE, "cycle_p99_ns", "ns", MF_AUDIO,
	    .log = LOG(15, "    p99", "", 7, LC_LATENCY | LC_AUDIO, "Cycle p50")),
	NUM(RF_CYCLE_MAX, NULL, JP_NONE, "cycle_max_ns", "ns", MF_AUDIO,
	    .log = LOG(16, "    max", "", 7, LC_LATENCY | LC_AUDIO, "Cycle p50")),
	NUM(RF_DSP_MEAN, "dsp_load.mean", JP_CHAIN, "dsp_load_mean", "", MF_AUDIO,
	    .log = LOG(17, "  DSP mean", "", 10, LC_AUDIO, "Cycle p50")),
	NUM(RF_DSP_MAX, "dsp_load.max", JP_CHAIN, "dsp_load_max", "", MF_AUDIO,
	    .log = LOG(18, "    max", "", 7, LC_AUDIO, "Cycle p50")),
	NUM(RF_XRUNS, "xruns", JP_CHAIN, "xruns", "", MF_AUDIO | MF_COUNT, .verdict = "xruns",
	    .log = LOG(19, "  Xruns", "", 7, LC_AUDIO | LC_COUNT, "Cycle p50")),
	NUM(RF_XRUNS_PER_MIN, "xruns_per_min", JP_CHAIN, "xruns_per_min", "/min", MF_AUDIO,
	    .log = LOG(20, "  Xruns/min", "", 11, LC_AUDIO, "Cycle p50")),
	TEXT(group, "group", JP_GROUP, "group", MF_TASK | MF_GAME | MF_AUDIO | MF_NULL_ELSE),
	TEXT(group, "workload", JP_GROUP, "workload", MF_RTAPP),
	NUM(RF_TIMER_WAKEUPS, "wakeups.timer", JP_GROUP, "timer_wakeups", "", MF_RTAPP | MF_COUNT,
	    .thread = LOG(4, "  Wake-ups: timer", "", 17, LC_COUNT, "Wake-ups")),
	NUM(RF_RESUME_WAKEUPS, "wakeups.resume", JP_GROUP, "resume_wakeups", "",
	    MF_RTAPP | MF_COUNT, .thread = LOG(5, " / resume", " / ", -6, LC_COUNT, "Wake-ups")),
	NUM(RF_SLACK_MEAN, "rtapp.slack_ns.mean", JP_GROUP, "slack_mean_ns", "ns",
	    MF_RTAPP | MF_SIGNED | MF_PERIODS_OR_NULL),
	NUM(RF_SLACK_MIN, "rtapp.slack_ns.min", JP_GROUP, "slack_min_ns", "ns",
	    MF_RTAPP | MF_SIGNED),
	NUM(RF_WU_LAT_MEAN, "rtapp.wu_lat_ns.mean", JP_GROUP, "wu_lat_mean_ns", "ns", MF_RTAPP),
	NUM(RF_TIMER_SLACK, "timer_slack_ns", JP_LATENCY, "task_timer_slack_ns", "ns", MF_ALL),
	LATENCY(RF_S, "sched_latency_ns", JP_SPLIT_SCHED, "sched_latency", 0),
	NUM(RF_STAMPED, "wakeups_kernel_stamped", JP_SPLIT_SCHED, "wakeups_kernel_stamped", "",
	    MF_ALL | MF_COUNT),
	NUM(RF_CPU_KNOWN, "wakeups_cpu_known", JP_SPLIT_CPU, "wakeups_cpu_known", "",
	    MF_ALL | MF_COUNT),
	NUM(RF_LOAD_CPUS, "load_intensity.cpus", JP_LOAD, "load_cpus", "CPUs", MF_ALL),
	NUM(RF_LOAD_DUE, "load_intensity.cpus_due", JP_LOAD, "load_cpus_due", "CPUs", MF_ALL),
	NUM(RF_LOAD_SHORT, "load_intensity.short", JP_LOAD, "load_short", "", MF_ALL | MF_BOOL),
	NUM(RF_LOAD_RESTARTS, "load_intensity.restarts", JP_LOAD, "load_restarts", "",
	    MF_ALL | MF_COUNT),
	NUM(RF_FOREIGN_CPU, "foreign_cpu_pct", JP_LOAD, "foreign_cpu_pct", "%", MF_ALL),
	TEXT(foreign_top, "foreign_top", JP_LOAD, "foreign_top", MF_ALL),
	NUM(RF_FOREIGN_TOP_CPU, "foreign_top_cpu_pct", JP_LOAD, "foreign_top_cpu_pct", "%",
	    MF_ALL),
};
const size_t nr_metrics = ARRAY_SIZE(metrics);

/* The row of field, from an index made at the first call. */
int metric_index(int field)
{
	static int at[RF_COUNT];
	static bool made;

	if (!made) {
		for (size_t i = 0; i < nr_metrics; i++)
			if (metrics[i].field >= 0)
				at[metrics[i].field] = (int)i + 1;
		made = true;
	}
	return field >= 0 && field < RF_COUNT ? at[field] - 1 : -1;
}

const struct metric *metric_of(int field)
{
	int i = metric_index(field);

	return i < 0 ? NULL : &metrics[i];
}

double metric_value(const struct metric *m, const struct result *r)
{
	double v = r->value[m->field];

	return m->flags & MF_ROUND3 ? round(v * 1e3) / 1e3 : v;
}

/* A text of the result, NULL when empty or not of the result's kind. */
const char *metric_text(const struct metric *m, const struct result *r)
{
	const char *s = (const char *)r + m->text;

	return *s && (m->flags & result_kind(r)) ? s : NULL;
}

/* A text read back; one that only a kind has says the result is of that kind. */
void metric_set_text(const struct metric *m, struct result *r, const char *s)
{
	if (!s || !*s)
		return;
	snprintf((char *)r + m->text, m->text_len, "%s", s);
	if ((m->flags & MF_KINDS) == MF_RTAPP)
		r->rtapp = true;
}
