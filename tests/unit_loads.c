// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_loads.c - unit tests: the registry, the files loads need, Memload and file sizes. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "model/kinds.h"
#include "model/workloads.h"
#include "model/record.h"
#include "child/child.h"
#include "cli/options.h"
#include "model/plan.h"
#include "sys/machine.h"
#include "task/task.h"
#include "loads/load_shared.h"

#include "tests/unit.h"

/* ---- loads: the registry, and the sizes of files and Memload ---- */

static bool test_registry_loads(void)
{
	static const char *const order[] = { "None", "Audio", "Video", "X", "Gaming", "Burn",
		"Write", "Read", "Ring", "Compile", "Memload", "Hack", "Net", "Custom", "ProAudio",
		"Render", "Input", "Command", "Game", "AudioGraph", "rt-app" };
	char *argv[] = { "interbench", NULL };
	uint32_t want = 0;
	struct config cfg;
	char err[256];

	EXPECT(nr_workloads == ARRAY_SIZE(order), "%zu workloads, want %zu", nr_workloads,
	       ARRAY_SIZE(order));
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		const struct workload *wl = &workloads[i];
		bool files = !strcmp(wl->name, "Write") || !strcmp(wl->name, "Read") ||
			     !strcmp(wl->name, "Compile");

		EXPECT(!strcmp(wl->name, order[i]), "entry %zu is %s, want %s", i, wl->name, order[i]);
		EXPECT(!!(wl->flags & WL_FILES) == files, "%s: WL_FILES", wl->name);
		if (!(wl->flags & WL_LOAD))
			continue;
		EXPECT(wl->load && wl->what && wl->unit, "%s: no function, line or unit", wl->name);
		EXPECT(i == 0 || (wl->intensity != INT_NONE && wl->unit[0]),
		       "%s: no intensity", wl->name);
		EXPECT(wl->intensity != INT_RATE || wl->unit_scale > 0, "%s: unit_scale", wl->name);
		if (!(wl->flags & (WL_CUSTOM | WL_OPTIN | WL_COMMAND)))
			want |= 1u << i;
	}
	EXPECT(parse_options(1, argv, &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(cfg.loads == want, "default loads %#x, want %#x", cfg.loads, want);
	return true;
}

/* Which files a selection of loads needs, as the registry says. */
static const struct {
	const char *loads;		/* names, space-separated */
	unsigned want;
} files_needed_cases[] = {
	{ "", 0 },
	{ "None Burn Ring Memload Hack Net Video X Custom", 0 },
	{ "Read", WL_READ_FILE },
	{ "Write", WL_WRITE_FILE },
	{ "Compile", WL_READ_FILE | WL_WRITE_FILE },
	{ "Read Write", WL_READ_FILE | WL_WRITE_FILE },
	{ "Burn Write Net", WL_WRITE_FILE },
	{ "Audio Gaming Read", WL_READ_FILE },
};

static bool test_files_needed(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(files_needed_cases); i++) {
		char names[128], *save = NULL;
		uint32_t sel = 0;
		unsigned got;

		snprintf(names, sizeof(names), "%s", files_needed_cases[i].loads);
		for (char *n = strtok_r(names, " ", &save); n; n = strtok_r(NULL, " ", &save)) {
			int li = workload_find(n);

			EXPECT(li >= 0, "no workload %s", n);
			sel |= 1u << li;
		}
		got = load_files_needed(sel);
		EXPECT(got == files_needed_cases[i].want, "'%s': %#x, want %#x",
		       files_needed_cases[i].loads, got, files_needed_cases[i].want);
	}
	return true;
}

#define KB 1024ULL
#define GIB (1024 * MIB)

struct meminfo_case {
	const char *name;
	const char *text;
	int ret;
	struct meminfo want;
};

static const struct meminfo_case meminfo_cases[] = {
	{ "a machine without swap",
	  "MemTotal:       24683620 kB\nMemFree:        24522328 kB\n"
	  "MemAvailable:   24441028 kB\nBuffers:             736 kB\n"
	  "SwapCached:            0 kB\nSwapTotal:             0 kB\nSwapFree:              0 kB\n",
	  0, { 24683620 * KB, 24522328 * KB, 24441028 * KB, 0, 0 } },
	{ "with swap, keys in any order",
	  "SwapFree:        1000 kB\nMemAvailable:  3000 kB\nSwapTotal:    2000 kB\n"
	  "MemTotal:  8000 kB\nMemFree: 500 kB\n",
	  0, { 8000 * KB, 500 * KB, 3000 * KB, 2000 * KB, 1000 * KB } },
	{ "no MemAvailable (before 3.14): MemFree stands in",
	  "MemTotal: 4000 kB\nMemFree: 1500 kB\nSwapTotal: 0 kB\n",
	  0, { 4000 * KB, 1500 * KB, 1500 * KB, 0, 0 } },
	{ "SwapCached is not SwapFree, no final newline",
	  "MemTotal: 10 kB\nSwapCached: 7 kB\nMemAvailable: 5 kB",
	  0, { 10 * KB, 0, 5 * KB, 0, 0 } },
	{ "no MemTotal", "MemFree: 10 kB\n", -EINVAL, { 0 } },
	{ "garbage", "hello\n\n", -EINVAL, { 0 } },
};

static bool test_meminfo_case(const struct meminfo_case *c)
{
	struct meminfo mi;
	int ret = meminfo_parse(c->text, &mi);

	EXPECT(ret == c->ret, "returned %d, want %d", ret, c->ret);
	if (ret)
		return true;
	EXPECT(!memcmp(&mi, &c->want, sizeof(mi)),
	       "total %llu free %llu avail %llu swap %llu/%llu", (unsigned long long)mi.total,
	       (unsigned long long)mi.free, (unsigned long long)mi.available,
	       (unsigned long long)mi.swap_free, (unsigned long long)mi.swap_total);
	return true;
}

struct memload_case {
	const char *name;
	struct meminfo mi;		/* total, free, available, swap_total, swap_free */
	uint64_t want;
};

static const struct memload_case memload_cases[] = {
	{ "24 GiB, no swap: all but 1/16 of RAM",
	  { 24 * GIB, 23 * GIB, 23 * GIB, 0, 0 }, 23 * GIB - 1536 * MIB },
	{ "1 GiB, no swap: the margin is at least 256 MiB",
	  { GIB, 600 * MIB, 600 * MIB, 0, 0 }, 344 * MIB },
	{ "less available than the margin: nothing",
	  { GIB, 200 * MIB, 200 * MIB, 0, 0 }, 0 },
	{ "swap: half of the free swap on top",
	  { 8 * GIB, GIB, 6 * GIB, 4 * GIB, 3 * GIB }, 5 * GIB + 512 * MIB + 1536 * MIB },
	{ "swap full: RAM only",
	  { 8 * GIB, GIB, 6 * GIB, 4 * GIB, 0 }, 5 * GIB + 512 * MIB },
	{ "little RAM left but free swap: the margin comes off the sum",
	  { 4 * GIB, 0, 100 * MIB, 2 * GIB, 2 * GIB }, 868 * MIB },
	{ "rounded down to whole 2 MiB chunks",
	  { GIB, 0, 256 * MIB + 3 * MIB + 5, 0, 0 }, 2 * MIB },
	{ "SwapFree without SwapTotal is ignored",
	  { 2 * GIB, 0, GIB, 0, GIB }, 768 * MIB },
};

static bool test_memload_case(const struct memload_case *c)
{
	uint64_t got = memload_bytes_for(&c->mi);
	uint64_t swap = c->mi.swap_total ? c->mi.swap_free : 0;

	EXPECT(got == c->want, "%llu MiB, want %llu MiB", (unsigned long long)(got / MIB),
	       (unsigned long long)(c->want / MIB));
	/* never more than what is available less the margin, and half the free swap */
	EXPECT(!got || got + memload_margin(&c->mi) <= c->mi.available + swap / 2 + 2 * MIB,
	       "leaves less than the margin");
	return true;
}

/* Memload gives back what the headroom lacks under the floor, swap counted. */
static bool test_memload_shortfall(void)
{
	static const struct {
		struct meminfo mi;
		uint64_t floor, want;
	} cases[] = {
		{ { 24 * GIB, 0, 2 * GIB, 0, 0 }, 768 * MIB, 0 },
		{ { 24 * GIB, 0, 500 * MIB, 0, 0 }, 768 * MIB, 268 * MIB },
		{ { 24 * GIB, 0, 500 * MIB, 8 * GIB, 300 * MIB }, 768 * MIB, 0 },
		{ { 24 * GIB, 0, 100 * MIB, 8 * GIB, 100 * MIB }, 768 * MIB, 568 * MIB },
		{ { 24 * GIB, 0, 0, 0, 5 * GIB }, 768 * MIB, 768 * MIB },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t got = memload_shortfall(&cases[i].mi, cases[i].floor);

		EXPECT(got == cases[i].want, "case %zu: %llu MiB, want %llu MiB", i,
		       (unsigned long long)(got / MIB), (unsigned long long)(cases[i].want / MIB));
	}
	return true;
}

struct files_case {
	const char *name;
	uint64_t free, ram;
	long file_mib;
	bool want_read, want_write;
	int ret;
	uint64_t read, write;
};

static const struct files_case files_cases[] = {
	{ "big disk, big RAM: the caps", 80 * GIB, 24 * GIB, 0, true, true, 0,
	  256 * MIB, 256 * MIB },
	{ "Read only", 80 * GIB, 24 * GIB, 0, true, false, 0, 256 * MIB, 0 },
	{ "small RAM: 1/16 of it each", 80 * GIB, GIB, 0, true, true, 0, 64 * MIB, 64 * MIB },
	{ "32 MiB free: together half of it", 32 * MIB, 24 * GIB, 0, true, true, 0,
	  8 * MIB, 8 * MIB },
	{ "32 MiB free, Write only: half of it", 32 * MIB, 24 * GIB, 0, false, true, 0,
	  0, 16 * MIB },
	{ "uneven free space rounds down to MiB", 21 * MIB + 7, 24 * GIB, 0, true, true, 0,
	  5 * MIB, 5 * MIB },
	{ "3 MiB free: too little for two files", 3 * MIB, 24 * GIB, 0, true, true, -ENOSPC,
	  0, 0 },
	{ "no free space", 0, 24 * GIB, 0, false, true, -ENOSPC, 0, 0 },
	{ "--file-mib is taken as asked", 32 * MIB, 24 * GIB, 48, true, true, 0,
	  48 * MIB, 48 * MIB },
	{ "--file-mib for Write only", 80 * GIB, 24 * GIB, 2, false, true, 0, 0, 2 * MIB },
	{ "no file wanted", 0, 0, 0, false, false, 0, 0, 0 },
};

static bool test_files_case(const struct files_case *c)
{
	uint64_t r = 1, w = 1;
	int ret = load_file_sizes(c->free, c->ram, c->file_mib, c->want_read, c->want_write,
				  &r, &w);

	EXPECT(ret == c->ret, "returned %d, want %d", ret, c->ret);
	if (ret)
		return true;
	EXPECT(r == c->read && w == c->write, "read %llu write %llu bytes, want %llu %llu",
	       (unsigned long long)r, (unsigned long long)w, (unsigned long long)c->read,
	       (unsigned long long)c->write);
	EXPECT(c->file_mib || r + w <= c->free / 2, "more than half the free space");
	return true;
}

/*
 * Every benchmark names a kind of the registry, and a load none; each kind has a name of its
 * own, a child to run or its own rows (a file's threads: a result each), and its metrics.
 */
static bool test_registry_kinds(void)
{
	for (size_t i = 0; i < nr_workloads; i++) {
		const struct bench_kind *k = workloads[i].kind;
		bool listed = false;

		EXPECT(!(workloads[i].flags & WL_BENCH) == !k, "%s: its kind", workloads[i].name);
		for (size_t j = 0; k && j < nr_bench_kinds; j++)
			listed |= bench_kinds[j] == k;
		EXPECT(!k || listed, "%s: its kind is not in the registry", workloads[i].name);
	}
	for (size_t j = 0; j < nr_bench_kinds; j++) {
		const struct bench_kind *k = bench_kinds[j];

		for (size_t m = 0; m < j; m++)
			EXPECT(strcmp(bench_kinds[m]->name, k->name), "two kinds named %s", k->name);
		EXPECT(k->metrics && (!k->run == !!k->nresults), "kind %s: its metrics, its child",
		       k->name);
	}
	EXPECT(kind_has(workload_find("Game"), KM_CHAIN | KM_FRAMES) &&
	       kind_has(workload_find("AudioGraph"), KM_CHAIN | KM_XRUNS) &&
	       !kind_has(workload_find("Gaming"), KM_DEADLINES) &&
	       kind_has(workload_rtapp(), KM_THREADS) && !kind_has(workload_find("X"), KM_FPS),
	       "the kinds' metrics");
	return true;
}

void unit_loads(void)
{
	char name[160];

	check("loads: registry order, intensities, default selection", test_registry_loads());
	check("loads: the files a selection needs, from the registry", test_files_needed());
	check("loads: every benchmark names a kind of the registry", test_registry_kinds());
	for (size_t i = 0; i < ARRAY_SIZE(meminfo_cases); i++) {
		snprintf(name, sizeof(name), "loads: meminfo: %s", meminfo_cases[i].name);
		check(name, test_meminfo_case(&meminfo_cases[i]));
	}
	for (size_t i = 0; i < ARRAY_SIZE(memload_cases); i++) {
		snprintf(name, sizeof(name), "loads: Memload size: %s", memload_cases[i].name);
		check(name, test_memload_case(&memload_cases[i]));
	}
	check("loads: Memload gives back what the headroom lacks", test_memload_shortfall());
	for (size_t i = 0; i < ARRAY_SIZE(files_cases); i++) {
		snprintf(name, sizeof(name), "loads: file sizes: %s", files_cases[i].name);
		check(name, test_files_case(&files_cases[i]));
	}
}
