// SPDX-License-Identifier: GPL-2.0-or-later
/* loads/load_mem.c - the Memload load, and /proc/meminfo that sizes it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "loads/load_shared.h"
#include "sys/cgroup.h"

/* ---- Memload: a large share of memory, touched and copied around ---- */

#define MEMLOAD_CHUNK (2 * MIB)		/* stop is checked after each */
#define MEMLOAD_CHECK (256 * MIB)	/* /proc/meminfo is read after this many */
#define MEMLOAD_MIN_MARGIN (256 * MIB)
#define MEMLOAD_CG_MIN_MARGIN (64 * MIB)

/* The numbers of /proc/meminfo that size Memload, in bytes; 0 or -EINVAL. */
int meminfo_parse(const char *text, struct meminfo *mi)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "MemTotal:", offsetof(struct meminfo, total) },
		{ "MemFree:", offsetof(struct meminfo, free) },
		{ "MemAvailable:", offsetof(struct meminfo, available) },
		{ "SwapTotal:", offsetof(struct meminfo, swap_total) },
		{ "SwapFree:", offsetof(struct meminfo, swap_free) },
	};
	const char *line = text;
	bool have_avail = false;

	memset(mi, 0, sizeof(*mi));
	while (line && *line) {
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
			size_t klen = strlen(keys[i].key);
			unsigned long long kb;

			if (strncmp(line, keys[i].key, klen) || sscanf(line + klen, "%llu kB", &kb) != 1)
				continue;
			*(uint64_t *)((char *)mi + keys[i].off) = (uint64_t)kb * 1024;
			if (keys[i].off == offsetof(struct meminfo, available))
				have_avail = true;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (!mi->total)
		return -EINVAL;
	if (!have_avail)		/* before Linux 3.14 */
		mi->available = mi->free;
	return 0;
}

/* What Memload must always leave: 1/16 of RAM, at least 256 MiB. */
uint64_t memload_margin(const struct meminfo *mi)
{
	return mi->total / 16 > MEMLOAD_MIN_MARGIN ? mi->total / 16 : MEMLOAD_MIN_MARGIN;
}

/*
 * Memload's size: MemAvailable, plus half of the free swap when there is
 * swap (so pages really go out to it, and it never fills), less the margin.
 * Rounded down to whole chunks; 0 when nothing is left.
 */
uint64_t memload_bytes_for(const struct meminfo *mi)
{
	uint64_t margin = memload_margin(mi);
	uint64_t have = mi->available + (mi->swap_total ? mi->swap_free / 2 : 0);

	return have > margin ? (have - margin) / MEMLOAD_CHUNK * MEMLOAD_CHUNK : 0;
}

/*
 * What Memload leaves under a cgroup's limit: 1/8 of it, at least 64 MiB.
 * Less than on the machine: what the cgroup charges is our own processes
 * and their page cache, not a whole system's.
 */
uint64_t memload_cg_margin(const struct cg_mem *cg)
{
	uint64_t m = cg->limit / 8;

	return m > MEMLOAD_CG_MIN_MARGIN ? m : MEMLOAD_CG_MIN_MARGIN;
}

/*
 * Memload's size under both the machine's memory and the cgroup's limit
 * (what the cgroup does not use yet, less its margin): the smaller one.
 */
uint64_t memload_bytes_in(const struct meminfo *mi, const struct cg_mem *cg)
{
	uint64_t host = memload_bytes_for(mi), margin, in_cg;

	if (cg->limit == CG_NONE)
		return host;
	margin = memload_cg_margin(cg);
	in_cg = cg->headroom > margin ? (cg->headroom - margin) / MEMLOAD_CHUNK * MEMLOAD_CHUNK : 0;
	return in_cg < host ? in_cg : host;
}

static int read_meminfo(struct meminfo *mi)
{
	char buf[8192];
	int ret = read_small_file("/proc/meminfo", buf, sizeof(buf));

	return ret ? ret : meminfo_parse(buf, mi);
}

uint64_t memload_size(long memload_mib)
{
	struct meminfo mi;
	struct cg_mem cg;

	if (memload_mib)
		return (uint64_t)memload_mib * MIB;
	if (read_meminfo(&mi))
		return 0;
	cg_memory(&cg);
	return memload_bytes_in(&mi, &cg);
}

/*
 * How much memory Memload must give back: the margin was left at the start;
 * when something else takes memory meanwhile and the headroom (MemAvailable,
 * plus the free swap) falls under floor, Memload yields the difference
 * rather than have the OOM killer choose.
 */
uint64_t memload_shortfall(const struct meminfo *mi, uint64_t floor)
{
	uint64_t headroom = mi->available + (mi->swap_total ? mi->swap_free : 0);

	return headroom < floor ? floor - headroom : 0;
}

/* The same under a cgroup's limit: its headroom against half its margin. */
uint64_t memload_cg_shortfall(const struct cg_mem *cg)
{
	uint64_t floor = memload_cg_margin(cg) / 2;

	if (cg->limit == CG_NONE)
		return 0;
	return cg->headroom < floor ? floor - cg->headroom : 0;
}

/* What the machine or the cgroup lacks now, whichever lacks more. */
static uint64_t memload_excess(uint64_t floor, bool in_cgroup)
{
	uint64_t host = 0, cgs = 0;
	struct meminfo mi;
	struct cg_mem cg;

	if (!read_meminfo(&mi))
		host = memload_shortfall(&mi, floor);
	if (in_cgroup) {
		cg_memory(&cg);
		cgs = memload_cg_shortfall(&cg);
	}
	return host > cgs ? host : cgs;
}

/* If the OOM killer is woken anyway, it takes us, not somebody's work. */
static void prefer_oom_kill(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, "1000", 4) < 0) {
		/* not allowed: nothing else to do */
	}
	close(fd);
}

/* The floors under which Memload gives memory back, and whether a cgroup limits it. */
struct memload_floor {
	uint64_t host;			/* MemAvailable + SwapFree */
	bool in_cg;			/* the cgroup's headroom is checked too */
};

/* Size and map the area; NULL with ctx->reason set when it cannot be. */
static char *memload_map(struct load_ctx *ctx, uint64_t *size, struct memload_floor *fl)
{
	struct meminfo mi;
	struct cg_mem cg;
	char *area;

	if (read_meminfo(&mi) < 0)
		memset(&mi, 0, sizeof(mi));
	cg_memory(&cg);
	fl->in_cg = cg.limit != CG_NONE;
	fl->host = memload_margin(&mi) / 2;
	*size = memload_size(ctx->par.memload_mib) / MEMLOAD_CHUNK * MEMLOAD_CHUNK;
	if (*size < 2 * MEMLOAD_CHUNK && ctx->par.memload_mib)
		*size = 2 * MEMLOAD_CHUNK;	/* the smallest area that can be copied around */
	if (*size < 2 * MEMLOAD_CHUNK && fl->in_cg) {
		snprintf(ctx->reason, sizeof(ctx->reason), "only %llu MiB of the cgroup's %llu MiB "
			 "(%.80s) free above its %llu MiB margin", to_mib(cg.headroom),
			 to_mib(cg.limit), cg.file, to_mib(memload_cg_margin(&cg)));
		return NULL;
	}
	if (*size < 2 * MEMLOAD_CHUNK) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "only %llu MiB available above the %llu MiB margin",
			 to_mib(*size), to_mib(memload_margin(&mi)));
		return NULL;
	}
	area = mmap(NULL, *size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (area == MAP_FAILED) {
		set_reason(ctx->reason, sizeof(ctx->reason), "mmap", errno);
		return NULL;
	}
	madvise(area, *size, MADV_HUGEPAGE);
	return area;
}

/*
 * Touch the area chunk by chunk (growing while memory allows), then copy
 * its first half over its second and on around, forever. Units: bytes
 * touched, a copied byte counting twice (read and written). Transparent
 * huge pages are asked for: faulting and freeing many GiB in 4 KiB pages can
 * take seconds, longer than a stop may. The machine's memory and the
 * cgroup's limit are both watched.
 */
int load_memload(struct load_ctx *ctx)
{
	uint64_t size, used = 0, since_check = 0, pos = 0, half, cut;
	struct memload_floor fl;
	char *area = memload_map(ctx, &size, &fl);

	if (!area)
		return -ENOMEM;
	prefer_oom_kill();
	while (!load_stopping(ctx) && used < size) {
		memset(area + used, (int)(used / MEMLOAD_CHUNK) | 1, MEMLOAD_CHUNK);
		used += MEMLOAD_CHUNK;
		atomic_fetch_add(&ctx->ctr->units, MEMLOAD_CHUNK);
		if ((since_check += MEMLOAD_CHUNK) >= MEMLOAD_CHECK) {
			since_check = 0;
			if (memload_excess(fl.host, fl.in_cg))
				break;		/* memory is short: grow no further */
		}
	}
	for (;;) {
		used = used / (2 * MEMLOAD_CHUNK) * (2 * MEMLOAD_CHUNK);
		half = used / 2;
		while (!load_stopping(ctx) && used) {
			memcpy(area + (pos + half) % used, area + pos, MEMLOAD_CHUNK);
			pos = (pos + MEMLOAD_CHUNK) % used;
			atomic_fetch_add(&ctx->ctr->units, 2 * MEMLOAD_CHUNK);
			if ((since_check += 2 * MEMLOAD_CHUNK) >= MEMLOAD_CHECK) {
				since_check = 0;
				if (memload_excess(fl.host, fl.in_cg))
					break;
			}
		}
		if (load_stopping(ctx) || !used)
			break;
		/* give back what is missing, at least a check's worth, and go on smaller */
		cut = memload_excess(fl.host, fl.in_cg);
		cut = cut < MEMLOAD_CHECK ? MEMLOAD_CHECK : cut;
		cut = cut > used ? used : cut;
		madvise(area + used - cut, cut, MADV_DONTNEED);
		used -= cut;
		pos = 0;
	}
	munmap(area, size);
	if (!used && !load_stopping(ctx)) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "memory ran short (under %llu MiB available): gave it all back",
			 to_mib(fl.host));
		return -ENOMEM;
	}
	return 0;
}
