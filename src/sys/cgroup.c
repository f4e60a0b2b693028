// SPDX-License-Identifier: GPL-2.0-or-later
/* sys/cgroup.c - the memory and CPU limits of this process's cgroups (v1 and v2), for sizing
 * loads. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "sys/cgroup.h"

#define MOUNTINFO_MAX (512 * 1024)	/* a container host's mount table can be long */
#define CG_V1_NONE (1ULL << 62)		/* v1 says "no limit" with a page-aligned LLONG_MAX */

/* ---- pure: text in, numbers out ---- */

/* item is one of the entries of the comma-separated list of n bytes at s. */
static bool in_list(const char *s, size_t n, const char *item)
{
	size_t len = strlen(item);

	while (n) {
		size_t e = strcspn(s, ",");

		if (e > n)
			e = n;
		if (e == len && !strncmp(s, item, len))
			return true;
		if (e == n)
			break;
		s += e + 1;
		n -= e + 1;
	}
	return false;
}

/*
 * This process's cgroup from /proc/self/cgroup: for version 1, the line
 * "ID:a,b,controller:/path" that names controller; for version 2, "0::/path".
 */
int cg_own_path(const char *proc_cgroup, int version, const char *controller, char *path,
		size_t len)
{
	for (const char *l = proc_cgroup; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *c1 = strchr(l, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		size_t eol = strcspn(l, "\n");

		if (!c2 || c2 - l > (long)eol)
			continue;
		if (version == 2 ? c2 != c1 + 1 || strncmp(l, "0:", 2) :
		    !in_list(c1 + 1, (size_t)(c2 - c1 - 1), controller))
			continue;
		snprintf(path, len, "%.*s", (int)(eol - (size_t)(c2 + 1 - l)), c2 + 1);
		return 0;
	}
	return -ENOENT;
}

/*
 * Where the hierarchy is mounted, from /proc/self/mountinfo: a "cgroup"
 * filesystem whose options name controller (v1), or "cgroup2". root is
 * the part of the hierarchy the mount shows (not "/" in a container).
 */
int cg_mount(const char *mountinfo, int version, const char *controller, char *root,
	     size_t rlen, char *mnt, size_t mlen)
{
	for (const char *l = mountinfo; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char r[PATH_MAX], m[PATH_MAX], type[32], opts[512];
		const char *sep = strstr(l, " - ");
		size_t eol = strcspn(l, "\n");

		if (!sep || sep - l > (long)eol ||
		    sscanf(l, "%*s %*s %*s %4095s %4095s", r, m) != 2 ||
		    sscanf(sep + 3, "%31s %*s %511s", type, opts) != 2)
			continue;
		if (version == 2 ? strcmp(type, "cgroup2") :
		    strcmp(type, "cgroup") || !in_list(opts, strlen(opts), controller))
			continue;
		snprintf(root, rlen, "%s", r);
		snprintf(mnt, mlen, "%s", m);
		return 0;
	}
	return -ENOENT;
}

/* The directory of cgroup path under a mount of the hierarchy's root part. */
void cg_dir(const char *path, const char *root, const char *mnt, char *dir, size_t len)
{
	size_t rl = strcmp(root, "/") ? strlen(root) : 0;

	if (rl && (strncmp(path, root, rl) || (path[rl] && path[rl] != '/')))
		path = "";	/* outside what the mount shows: its root is ours */
	else
		path += rl;
	if (!strcmp(path, "/"))
		path = "";
	snprintf(dir, len, "%s%s", mnt, path);
}

/* A limit or usage file's number; "max", and v1's huge "no limit", are CG_NONE. */
bool cg_value(const char *text, uint64_t *v)
{
	unsigned long long n;
	char *end;

	text += strspn(text, " \t");
	if (!strncmp(text, "max", 3) && !text[3 + strspn(text + 3, " \n")]) {
		*v = CG_NONE;
		return true;
	}
	if (*text < '0' || *text > '9')
		return false;
	errno = 0;
	n = strtoull(text, &end, 10);
	if (errno || end[strspn(end, " \n")])
		return false;
	*v = n >= CG_V1_NONE ? CG_NONE : (uint64_t)n;
	return true;
}

void cg_mem_init(struct cg_mem *m)
{
	m->limit = m->headroom = CG_NONE;
	m->file[0] = '\0';
}

/* One level of the hierarchy: its limit (CG_NONE: none) and what it uses. */
void cg_mem_level(struct cg_mem *m, uint64_t limit, uint64_t usage, const char *file)
{
	uint64_t head;

	if (limit == CG_NONE)
		return;
	head = limit > usage ? limit - usage : 0;
	if (limit < m->limit) {
		m->limit = limit;
		snprintf(m->file, sizeof(m->file), "%.*s", (int)sizeof(m->file) - 1, file);
	}
	if (head < m->headroom)
		m->headroom = head;
}

/* CPUs a quota of quota us per period us allows, rounded up; 0: no quota. */
static int quota_cpus(unsigned long long quota, unsigned long long period)
{
	unsigned long long n;

	if (!period)
		return 0;
	n = (quota + period - 1) / period;
	return n > INT_MAX ? INT_MAX : (int)(n ? n : 1);
}

/* v2's cpu.max, "QUOTA PERIOD" or "max PERIOD": the CPUs it allows, 0 for none. */
int cg_cpu_max(const char *cpu_max)
{
	unsigned long long q, p;

	if (sscanf(cpu_max, "%llu %llu", &q, &p) != 2)
		return 0;
	return quota_cpus(q, p);
}

/* v1's cpu.cfs_quota_us (-1: none) and cpu.cfs_period_us. */
int cg_cfs_quota(const char *quota, const char *period)
{
	long long q, p;

	if (sscanf(quota, "%lld", &q) != 1 || sscanf(period, "%lld", &p) != 1 || q <= 0 || p <= 0)
		return 0;
	return quota_cpus((unsigned long long)q, (unsigned long long)p);
}

/* How many CPUs a list such as "0-3,8,10-11" names; -1 if it is not one. */
int cpulist_count(const char *list)
{
	int n = 0;

	list += strspn(list, " \n");
	while (*list && *list != '\n') {
		unsigned a, b;
		int used = 0;

		if (sscanf(list, "%u-%u%n", &a, &b, &used) != 2) {
			if (sscanf(list, "%u%n", &a, &used) != 1)
				return -1;
			b = a;
		}
		if (b < a || b - a > 1u << 20)
			return -1;
		n += (int)(b - a + 1);
		list += used;
		if (*list == ',')
			list++;
		else if (*list && *list != '\n')
			return -1;
	}
	return n;
}

/* ---- reading this process's cgroups ---- */

/* fn(dir, version, arg) for each level from our cgroup of controller up to the root;
 * false stops. */
static void cg_walk(const char *controller, bool (*fn)(const char *dir, int version, void *arg),
		    void *arg)
{
	char cg[8192], path[PATH_MAX], root[PATH_MAX], mnt[PATH_MAX], dir[PATH_MAX];
	char *mi = malloc(MOUNTINFO_MAX);
	int v;

	if (!mi || read_small_file("/proc/self/cgroup", cg, sizeof(cg)) ||
	    read_small_file("/proc/self/mountinfo", mi, MOUNTINFO_MAX)) {
		free(mi);
		return;
	}
	for (v = 1; v <= 2; v++)
		if (!cg_own_path(cg, v, controller, path, sizeof(path)) &&
		    !cg_mount(mi, v, controller, root, sizeof(root), mnt, sizeof(mnt)))
			break;
	free(mi);
	if (v > 2)
		return;
	cg_dir(path, root, mnt, dir, sizeof(dir));
	while (fn(dir, v, arg) && strlen(dir) > strlen(mnt))
		*strrchr(dir, '/') = '\0';
}

/* A number from dir/name into v; false when it is not there. */
static bool cg_read(const char *dir, const char *name, uint64_t *v)
{
	char path[PATH_MAX + 64], buf[64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !read_small_file(path, buf, sizeof(buf)) && cg_value(buf, v);
}

static bool mem_level(const char *dir, int version, void *arg)
{
	struct cg_mem *m = arg;
	char file[PATH_MAX + 32];
	uint64_t max, high, usage;

	if (version == 1) {
		snprintf(file, sizeof(file), "%s/memory.limit_in_bytes", dir);
		if (cg_read(dir, "memory.limit_in_bytes", &max) &&
		    cg_read(dir, "memory.usage_in_bytes", &usage))
			cg_mem_level(m, max, usage, file);
		return true;
	}
	if (!cg_read(dir, "memory.current", &usage))
		return true;	/* the root: no limit there */
	if (cg_read(dir, "memory.max", &max)) {
		snprintf(file, sizeof(file), "%s/memory.max", dir);
		cg_mem_level(m, max, usage, file);
	}
	if (cg_read(dir, "memory.high", &high)) {
		snprintf(file, sizeof(file), "%s/memory.high", dir);
		cg_mem_level(m, high, usage, file);
	}
	return true;
}

void cg_memory(struct cg_mem *m)
{
	cg_mem_init(m);
	cg_walk("memory", mem_level, m);
}

static bool cpu_level(const char *dir, int version, void *arg)
{
	char path[PATH_MAX + 32], a[64], b[64];
	int *cpus = arg, n = 0;

	if (version == 2) {
		snprintf(path, sizeof(path), "%s/cpu.max", dir);
		if (!read_small_file(path, a, sizeof(a)))
			n = cg_cpu_max(a);
	} else {
		snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
		if (!read_small_file(path, a, sizeof(a))) {
			snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
			if (!read_small_file(path, b, sizeof(b)))
				n = cg_cfs_quota(a, b);
		}
	}
	if (n > 0 && (!*cpus || n < *cpus))
		*cpus = n;
	return true;
}

/* The cpuset's CPUs, of our own level only: it already holds its parents' limits. */
static bool cpuset_level(const char *dir, int version, void *arg)
{
	char path[PATH_MAX + 32], list[4096];
	int *cpus = arg;

	snprintf(path, sizeof(path), "%s/%s", dir,
		 version == 2 ? "cpuset.cpus.effective" : "cpuset.effective_cpus");
	if (!read_small_file(path, list, sizeof(list)))
		*cpus = cpulist_count(list) > 0 ? cpulist_count(list) : 0;
	return false;
}

int cg_cpus(void)
{
	int quota = 0, set = 0;

	cg_walk("cpu", cpu_level, &quota);
	cg_walk("cpuset", cpuset_level, &set);
	if (quota && set)
		return quota < set ? quota : set;
	return quota ? quota : set;
}

int usable_cpus(void)
{
	int n = allowed_cpus(), c = cg_cpus();

	return c > 0 && c < n ? c : n;
}
