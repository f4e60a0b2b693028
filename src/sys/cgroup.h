/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys/cgroup.h - the limits a container puts on this process: memory, CPU quota, cpuset (cgroup
 * v1 and v2). */
#ifndef SYS_CGROUP_H
#define SYS_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CG_NONE UINT64_MAX	/* a value that sets no limit: "max", v1's huge number */

struct cg_mem {			/* the tightest memory limit over this process's cgroups */
	uint64_t limit;			/* bytes; CG_NONE when no level has one */
	uint64_t headroom;		/* the least, over the levels, of limit less usage */
	char file[192];			/* the file that set limit, "" when none */
};

/* The pure parts, for the unit tests: text in, numbers out. */
int cg_own_path(const char *proc_cgroup, int version, const char *controller, char *path,
		size_t len);
int cg_mount(const char *mountinfo, int version, const char *controller, char *root,
	     size_t rlen, char *mnt, size_t mlen);
void cg_dir(const char *path, const char *root, const char *mnt, char *dir, size_t len);
bool cg_value(const char *text, uint64_t *v);
void cg_mem_init(struct cg_mem *m);
void cg_mem_level(struct cg_mem *m, uint64_t limit, uint64_t usage, const char *file);
int cg_cpu_max(const char *cpu_max);
int cg_cfs_quota(const char *quota, const char *period);
int cpulist_count(const char *list);

/* Reading them for this process; nothing found is no limit. */
void cg_memory(struct cg_mem *m);
int cg_cpus(void);		/* CPUs the cgroups' quota and cpuset allow, 0: no limit */
int usable_cpus(void);		/* affinity, cpuset and quota together, at least 1 */

#endif
