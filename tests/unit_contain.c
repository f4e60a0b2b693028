// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_contain.c - unit tests: cgroup limits (v1 and v2), Memload's budget, the run
 * lock, tmpfs. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "model/record.h"
#include "child/child.h"
#include "model/config.h"
#include "model/plan.h"
#include "run/runlock.h"
#include "sys/cgroup.h"
#include "sys/machine.h"
#include "task/task.h"

#include "tests/unit.h"

#define GIB (1024 * MIB)

/* ---- finding our cgroup: /proc/self/cgroup and /proc/self/mountinfo ---- */

static const char v1_cgroup[] = "12:pids:/user.slice\n4:cpu,cpuacct:/user.slice/x\n"
	"3:memory:/docker/abc\n1:name=systemd:/init.scope\n0::/init.scope\n";
static const char v2_cgroup[] = "0::/user.slice/user-1000.slice/session-3.scope\n";
static const char v1_mounts[] =
	"25 1 0:23 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755\n"
	"32 25 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
	"35 25 0:32 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
	"41 25 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";
static const char v2_mounts[] =
	"22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	"30 22 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";

static const struct dir_case {
	const char *name;
	const char *cgroup, *mounts, *controller;
	int version;
	const char *want;		/* NULL: not found */
} dir_cases[] = {
	{ "v1 memory, a container's view of its own cgroup", v1_cgroup, v1_mounts, "memory", 1,
	  "/sys/fs/cgroup/memory" },
	{ "v1 cpu in a joint cpu,cpuacct hierarchy", v1_cgroup, v1_mounts, "cpu", 1,
	  "/sys/fs/cgroup/cpu,cpuacct/user.slice/x" },
	{ "v1: no such controller mounted", v1_cgroup, v1_mounts, "cpuset", 1, NULL },
	{ "hybrid: the v2 line and mount", v1_cgroup, v1_mounts, "memory", 2,
	  "/sys/fs/cgroup/unified/init.scope" },
	{ "v2", v2_cgroup, v2_mounts, "memory", 2,
	  "/sys/fs/cgroup/user.slice/user-1000.slice/session-3.scope" },
	{ "v2 has no v1 line", v2_cgroup, v2_mounts, "memory", 1, NULL },
	{ "v2 at the root", "0::/\n", v2_mounts, "memory", 2, "/sys/fs/cgroup" },
};

static bool test_dir_case(const struct dir_case *c)
{
	char path[256], root[256], mnt[256], dir[512];
	int a = cg_own_path(c->cgroup, c->version, c->controller, path, sizeof(path));
	int b = a ? a : cg_mount(c->mounts, c->version, c->controller, root, sizeof(root), mnt,
				 sizeof(mnt));

	if (!c->want) {
		EXPECT(a || b, "found one where there is none");
		return true;
	}
	EXPECT(!a && !b, "not found: %d %d", a, b);
	cg_dir(path, root, mnt, dir, sizeof(dir));
	EXPECT(!strcmp(dir, c->want), "'%s', want '%s'", dir, c->want);
	return true;
}

/* ---- the numbers in the files, and the limit they add up to ---- */

static bool test_values(void)
{
	static const struct { const char *text; bool ok; uint64_t v; } vals[] = {
		{ "max\n", true, CG_NONE }, { "1073741824\n", true, GIB },
		{ "9223372036854771712\n", true, CG_NONE }, { "0", true, 0 },
		{ "-1", false, 0 }, { "12k", false, 0 }, { "", false, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(vals); i++) {
		uint64_t v = 7;
		bool ok = cg_value(vals[i].text, &v);

		EXPECT(ok == vals[i].ok && (!ok || v == vals[i].v), "'%s': %d %llu", vals[i].text,
		       ok, (unsigned long long)v);
	}
	return true;
}

/* The tightest limit wins; the headroom is the least over the levels, not of the tightest. */
static bool test_mem_levels(void)
{
	struct cg_mem m;

	cg_mem_init(&m);
	EXPECT(m.limit == CG_NONE && m.headroom == CG_NONE && !m.file[0], "none");
	cg_mem_level(&m, CG_NONE, 5 * GIB, "root/memory.limit_in_bytes");
	EXPECT(m.limit == CG_NONE, "no limit is none");
	cg_mem_level(&m, GIB, 100 * MIB, "a/memory.max");
	EXPECT(m.limit == GIB && m.headroom == 924 * MIB && !strcmp(m.file, "a/memory.max"),
	       "one level: %llu %llu", (unsigned long long)m.limit,
	       (unsigned long long)m.headroom);
	cg_mem_level(&m, 2 * GIB, 1900 * MIB, "parent/memory.max");
	EXPECT(m.limit == GIB && m.headroom == 148 * MIB && !strcmp(m.file, "a/memory.max"),
	       "a looser parent that is nearly full: %llu", (unsigned long long)m.headroom);
	cg_mem_level(&m, 512 * MIB, 600 * MIB, "a/memory.high");
	EXPECT(m.limit == 512 * MIB && m.headroom == 0 && !strcmp(m.file, "a/memory.high"),
	       "over memory.high: no headroom");
	return true;
}

static bool test_cpu_limits(void)
{
	static const struct { const char *a, *b; int want; } v2[] = {
		{ "max 100000", NULL, 0 }, { "150000 100000", NULL, 2 }, { "100000 100000", NULL, 1 },
		{ "1000 100000", NULL, 1 }, { "garbage", NULL, 0 },
	}, v1[] = {
		{ "-1", "100000", 0 }, { "250000", "100000", 3 }, { "50000", "100000", 1 },
		{ "x", "100000", 0 },
	};
	static const struct { const char *list; int want; } lists[] = {
		{ "0-3", 4 }, { "0-3,8,10-11\n", 7 }, { "5", 1 }, { "", 0 }, { "3-1", -1 },
		{ "0-3;", -1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(v2); i++)
		EXPECT(cg_cpu_max(v2[i].a) == v2[i].want, "cpu.max '%s': %d", v2[i].a,
		       cg_cpu_max(v2[i].a));
	for (size_t i = 0; i < ARRAY_SIZE(v1); i++)
		EXPECT(cg_cfs_quota(v1[i].a, v1[i].b) == v1[i].want, "cfs_quota '%s'", v1[i].a);
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
		EXPECT(cpulist_count(lists[i].list) == lists[i].want, "'%s': %d", lists[i].list,
		       cpulist_count(lists[i].list));
	EXPECT(usable_cpus() >= 1 && usable_cpus() <= online_cpus(), "usable %d of %d online",
	       usable_cpus(), online_cpus());
	return true;
}

/* ---- Memload under a cgroup's limit ---- */

static bool test_memload_cgroup(void)
{
	struct meminfo host = { .total = 24 * GIB, .available = 23 * GIB };
	struct cg_mem cg;
	uint64_t got;

	cg_mem_init(&cg);
	EXPECT(memload_bytes_in(&host, &cg) == memload_bytes_for(&host), "no cgroup: the host's");
	cg_mem_level(&cg, GIB, 20 * MIB, "memory.limit_in_bytes");
	got = memload_bytes_in(&host, &cg);
	EXPECT(memload_cg_margin(&cg) == 128 * MIB, "margin %llu MiB",
	       (unsigned long long)(memload_cg_margin(&cg) / MIB));
	EXPECT(got == 876 * MIB, "1 GiB cgroup, 20 MiB used: %llu MiB",
	       (unsigned long long)(got / MIB));
	EXPECT(got + 20 * MIB + memload_cg_margin(&cg) <= GIB, "stays under the limit");
	EXPECT(memload_cg_shortfall(&cg) == 0, "no shortfall at the start");
	cg.headroom = 40 * MIB;
	EXPECT(memload_cg_shortfall(&cg) == 24 * MIB, "gives back what the floor lacks");
	host.available = 300 * MIB;
	EXPECT(memload_bytes_in(&host, &cg) == memload_bytes_for(&host), "a poorer host wins");
	cg_mem_init(&cg);
	cg_mem_level(&cg, 128 * MIB, 100 * MIB, "memory.max");
	EXPECT(memload_bytes_in(&host, &cg) == 0, "a full small cgroup: nothing");
	return true;
}

/* ---- the run lock's file: who holds it ---- */

static bool test_lock_text(void)
{
	static const char *const bad[] = {
		"", "garbage", "pid 12\n", "pid -3\nstart 5\n", "start 5\npid 3\n", "pid 7\nstart x\n",
	};
	char buf[256];
	time_t start;
	long pid;

	EXPECT(lock_format(buf, sizeof(buf), 4242, 1796101089) > 0, "format");
	EXPECT(!strncmp(buf, "pid 4242\nstart 1796101089 (", 27), "'%s'", buf);
	EXPECT(!lock_parse(buf, &pid, &start) && pid == 4242 && start == 1796101089,
	       "read back: %ld %lld", pid, (long long)start);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT(lock_parse(bad[i], &pid, &start) == -EINVAL, "'%s' accepted", bad[i]);
	/* the holder's binary, rebuilt while it ran, is still interbench */
	EXPECT(exe_is_interbench("/usr/bin/interbench") &&
	       exe_is_interbench("/src/interbench (deleted)") && exe_is_interbench("interbench"),
	       "interbench's exe not known");
	EXPECT(!exe_is_interbench("/usr/bin/flock") && !exe_is_interbench("/x/interbench2") &&
	       !exe_is_interbench("/x/my-interbench (deleted)") && !exe_is_interbench(" (deleted)"),
	       "another exe taken for interbench's");
	return true;
}

/* The lock's holder as /proc/locks lists it: a waiter, another file, a POSIX lock are not it. */
static bool test_lock_holder(void)
{
	static const char locks[] =
		"1: POSIX  ADVISORY  WRITE 500 fe:00:77 0 EOF\n"
		"2: FLOCK  ADVISORY  WRITE 600 fe:01:77 0 EOF\n"
		"3: FLOCK  ADVISORY  WRITE 700 fe:00:770 0 EOF\n"
		"4: FLOCK  ADVISORY  WRITE 4242 fe:00:77 0 EOF\n"
		"4: -> FLOCK  ADVISORY  WRITE 4343 fe:00:77 0 EOF\n"
		"5: OFDLCK ADVISORY  READ  -1 00:05:9 0 EOF\n";

	EXPECT(lock_holder(locks, 0xfe, 0, 77) == 4242, "holder %ld",
	       lock_holder(locks, 0xfe, 0, 77));
	EXPECT(lock_holder(locks, 0xfe, 1, 77) == 600, "another device");
	EXPECT(lock_holder(locks, 0xfe, 0, 78) == 0, "an inode no line names");
	EXPECT(lock_holder(locks, 0, 5, 9) == 0, "an OFD lock, no pid");
	EXPECT(lock_holder("", 0xfe, 0, 77) == 0 && lock_holder("garbage\n", 0xfe, 0, 77) == 0,
	       "empty or unreadable text");
	return true;
}

/* ---- memory instead of a disk ---- */

static bool test_fs_in_memory(void)
{
	static const struct { const char *type, *src; bool memory; } fs[] = {
		{ "tmpfs", "tmpfs", true }, { "ramfs", "none", true }, { "ext4", "/dev/vda1", false },
		{ "btrfs", "/dev/nvme0n1p2", false }, { "overlay", "overlay", false },
		{ "nfs4", "server:/export", false }, { "fuse.sshfs", "host:", false },
		{ "zfs", "pool/home", false }, { "somefs", "none", true },
	};

	for (size_t i = 0; i < ARRAY_SIZE(fs); i++)
		EXPECT(sysinfo_fs_in_memory(fs[i].type, fs[i].src) == fs[i].memory, "%s on %s",
		       fs[i].type, fs[i].src);
	EXPECT(cache_drop_worked(0, 100) && cache_drop_worked(25, 100) &&
	       !cache_drop_worked(26, 100) && !cache_drop_worked(100, 100),
	       "a drop works when at most a quarter stays");
	return true;
}

void unit_contain(void)
{
	char name[160];

	for (size_t i = 0; i < ARRAY_SIZE(dir_cases); i++) {
		snprintf(name, sizeof(name), "contain: cgroup directory: %s", dir_cases[i].name);
		check(name, test_dir_case(&dir_cases[i]));
	}
	check("contain: cgroup values: max, v1's no-limit, numbers", test_values());
	check("contain: the tightest memory limit and the least headroom", test_mem_levels());
	check("contain: CPU quota (v1, v2) and cpuset lists", test_cpu_limits());
	check("contain: Memload in a 1 GiB cgroup on a 24 GiB machine", test_memload_cgroup());
	check("contain: the run lock names its holder", test_lock_text());
	check("contain: the lock's holder, as /proc/locks lists it", test_lock_holder());
	check("contain: tmpfs and ramfs are memory; a drop is checked", test_fs_in_memory());
}
