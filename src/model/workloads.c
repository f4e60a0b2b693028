// SPDX-License-Identifier: GPL-2.0-or-later
/* model/workloads.c - the one registry of all workloads: benchmarks in bench order, loads in
 * load order. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/config.h"
#include "model/kinds.h"
#include "model/workloads.h"

/* ---- the registry: benchmarks in bench order, loads in load order; 0.31's first ---- */

const struct workload workloads[] = {
	{
		.name = "None", .flags = WL_LOAD,
		.what = "an idle machine",
		.load = load_none, .intensity = INT_NONE, .unit = "",
	}, {
		.name = "Audio", .flags = WL_BENCH | WL_RT,
		.what = "2.5 ms of CPU every 50 ms (5 %)",
		.kind = &kind_periodic, .period_num = 50 * NSEC_PER_MSEC, .period_den = 1,
		.work_ns = 2500 * NSEC_PER_USEC,
	}, {
		.name = "Video", .flags = WL_BENCH | WL_LOAD | WL_RT,
		.what = "6.67 ms of CPU every 1/60 s (40 %)",
		.kind = &kind_periodic, .period_num = NSEC_PER_SEC, .period_den = 60,
		.work_ns = 6666667,
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "X", .flags = WL_BENCH | WL_LOAD,
		.what = "100 ms frames; frame k of a 101-frame sweep needs k ms",
		.kind = &kind_sweep, .period_num = 100 * NSEC_PER_MSEC, .period_den = 1,
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "Gaming", .flags = WL_BENCH | WL_NODEADLINE,
		.what = "100 ms units of CPU work back to back, no deadlines",
		.kind = &kind_flat,
	}, {
		.name = "Burn", .flags = WL_LOAD | WL_CPU_SIDE,
		.what = "-L threads spinning on the CPU",
		.load = load_burn, .intensity = INT_CPUS, .unit = "CPUs",
	}, {
		.name = "Write", .flags = WL_LOAD | WL_WRITE_FILE,
		.what = "streams writes to a file in the work directory, through to the disk",
		.load = load_write, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Read", .flags = WL_LOAD | WL_READ_FILE,
		.what = "reads a file from the disk over and over, the page cache dropped each pass",
		.load = load_read, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Ring", .flags = WL_LOAD,
		.what = "max(2, -L) threads passing a token around a ring",
		.load = load_ring, .intensity = INT_RATE, .unit = "msg/s", .unit_scale = 1.0,
	}, {
		.name = "Compile", .flags = WL_LOAD | WL_FILES | WL_CPU_SIDE,
		.what = "Burn, Write and Read at once, like make -j L: its I/O and its CPUs",
		.load = load_compile, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Memload", .flags = WL_LOAD,
		.what = "touches and copies around most of MemAvailable (and half the free swap)",
		.load = load_memload, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Hack", .flags = WL_LOAD,
		.what = "hackbench: -L groups of processes messaging over socket pairs",
		.load = load_hack, .intensity = INT_RATE, .unit = "msg/s", .unit_scale = 1.0,
	}, {
		.name = "Net", .flags = WL_LOAD,
		.what = "a stream of small messages over loopback TCP",
		.load = load_net, .intensity = INT_RATE, .unit = "msg/s", .unit_scale = 1.0,
	}, {
		.name = "Custom", .flags = WL_BENCH | WL_LOAD | WL_RT | WL_CUSTOM,
		.what = "-C percent of CPU every -I microseconds",
		.kind = &kind_periodic,
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "ProAudio", .flags = WL_BENCH | WL_LOAD | WL_RT | WL_OPTIN,
		.what = "0.667 ms of CPU every 128 frames at 48 kHz (2.667 ms, 25 %)",
		.kind = &kind_periodic, .period_num = 128 * NSEC_PER_SEC, .period_den = 48000,
		.work_ns = 666667,
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "Render", .flags = WL_BENCH | WL_LOAD | WL_OPTIN,
		.what = "frames at --fps (144); frame work sweeps 20 % -> 80 % -> 20 % over 120",
		.kind = &kind_render, .period_num = NSEC_PER_SEC, .period_den = 144,
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "Input", .flags = WL_BENCH | WL_LOAD | WL_RT | WL_OPTIN,
		.what = "a 1 kHz input device: 50 us of CPU every 1 ms",
		.kind = &kind_periodic, .period_num = NSEC_PER_MSEC, .period_den = 1,
		.work_ns = 50 * NSEC_PER_USEC,
		.load = load_sim, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "Command", .flags = WL_LOAD | WL_COMMAND,
		.what = "--load-cmd's shell command, restarted when it ends; its CPUs",
		.load = load_command, .intensity = INT_TREE, .unit = "CPUs",
	}, {
		.name = "Game", .flags = WL_BENCH | WL_RT | WL_OPTIN,
		.what = "frames at --fps (60): main 15 %, 3 jobs 10 %, render 20 %, compositor 5 %",
		.kind = &kind_game, .period_num = NSEC_PER_SEC, .period_den = GAME_FPS,
		.threads = "ib-Game-[jrc]*",	/* its jobs, render, compositor; not input */
	}, {
		.name = "AudioGraph", .flags = WL_BENCH | WL_RT | WL_OPTIN,
		.what = "a driver each --quantum (256/48 kHz) wakes 2 nodes (5 %) and a mixer (5 %)",
		.kind = &kind_audiograph, .period_num = 256 * NSEC_PER_SEC, .period_den = 48000,
		.threads = "ib-AG-[nm]*",	/* its nodes and mixer */
	}, {
		.name = "rt-app", .flags = WL_BENCH | WL_RT | WL_OPTIN | WL_RTAPP_FILE,
		.what = "an rt-app workload file, -W FILE.json: a line per thread",
		.kind = &kind_rtapp,
		.not_by_name = "name the workload file itself (-W FILE.json, --workload FILE)",
	},
};
const size_t nr_workloads = ARRAY_SIZE(workloads);

int workload_find(const char *name)
{
	for (size_t i = 0; i < nr_workloads; i++)
		if (!strcasecmp(name, workloads[i].name))
			return (int)i;
	return -1;
}

int workload_rtapp(void)
{
	for (size_t i = 0; i < nr_workloads; i++)
		if (workloads[i].flags & WL_RTAPP_FILE)
			return (int)i;
	return -1;
}

/* "Audio, Video, ..." of the workloads having every flag in need, by name: not rt-app's. */
void workload_names(unsigned need, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nr_workloads && used < len; i++) {
		if ((workloads[i].flags & need) != need ||
		    ((workloads[i].flags & WL_RTAPP_FILE) && !(need & WL_RTAPP_FILE)))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
					 workloads[i].name);
	}
}

/* Whether what defines wl is given: -C and -I (Custom), a workload file (rt-app's row),
 * --load-cmd (Command); without it wl does not exist in the run. */
bool workload_defined(const struct workload *wl, const struct config *cfg)
{
	bool custom = cfg->custom_pct && cfg->custom_interval_us;

	return (custom || !(wl->flags & WL_CUSTOM)) &&
	       (cfg->rtapp.model || !(wl->flags & WL_RTAPP_FILE)) &&
	       (cfg->load_cmd || !(wl->flags & WL_COMMAND));
}

/* Which of the Read and Write files (WL_READ_FILE, WL_WRITE_FILE) the selected loads use. */
unsigned load_files_needed(uint32_t loads)
{
	unsigned files = 0;

	for (size_t i = 0; i < nr_workloads; i++)
		if (loads & (1u << i))
			files |= workloads[i].flags & WL_FILES;
	return files;
}
