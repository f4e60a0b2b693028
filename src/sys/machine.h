/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys/machine.h - what describes the machine and its kernel, read once at start (sysinfo.c). */
#ifndef SYS_MACHINE_H
#define SYS_MACHINE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SI_UNKNOWN LLONG_MIN	/* a number that could not be read */

/*
 * What describes the machine and its kernel (not glibc's struct sysinfo):
 * filled once at start; an empty string or SI_UNKNOWN is "could not be read".
 */
struct machine {
	char kernel_release[128];	/* uname -r */
	char kernel_version[256];	/* uname -v */
	char hostname[256];
	char preemption[16];		/* none, voluntary, full, lazy or rt */
	char preemption_source[160];	/* debugfs, cmdline, uname or the config file read */
	int preempt_dynamic;		/* 1, 0, or -1 unknown */
	int hz;				/* CONFIG_HZ, the tick's rate; 0 unknown */
	uint64_t tick_ns;		/* the tick's length: from hz, else the coarse */
					/* clocks' resolution; 0 unknown */
	char cpu_model[256];
	int cpus_online;
	int cpus_usable;		/* affinity, cpuset and CPU quota together: -L's default */
	char cpufreq_governor[128];	/* distinct governors of all policies, comma separated */
	char clocksource[64];
	long long sched_rt_runtime_us, sched_rt_period_us;
	long long timer_slack_ns;	/* ours, which every thread of the run inherits */
	long long pm_qos_us;		/* held by --pm-qos; SI_UNKNOWN when untouched */
	long long mem_kib, swap_kib;
	long long mem_limit_bytes;	/* the cgroup's memory limit; SI_UNKNOWN when none */
	char mem_limit_file[192];	/* the file that sets it */
	char work_dir_fs[64];		/* type of the filesystem holding the work directory */
	char work_dir_device[256];	/* its source, as in /proc/self/mountinfo */
	char io_scheduler[64];		/* of the block device behind it */
	int work_dir_in_memory;		/* 1: tmpfs, ramfs or no block device; 0: a disk; -1 */
	char kernel_cmdline[4096];
	char tracefs[64];		/* where --trace-above found tracefs */
	char sched_ext[16];		/* unavailable, disabled, enabled, enabling, ... */
	char sched_ext_ops[64];		/* the BPF scheduler's name when one is loaded */
	int autogroup;			/* 1, 0, or -1 when the kernel has none */
};

/* ---- sysinfo.c ---- */

void sysinfo_cpu_model(char *buf, size_t len);
void sysinfo_kernel_release(char *buf, size_t len);
void sysinfo_collect(struct machine *si, const char *work_dir);
uint64_t sysinfo_memory(char *what, size_t len);

/* The pure parts, for the unit tests. */
struct preempt_in {
	const char *debugfs;		/* /sys/kernel/debug/sched/preempt, or NULL */
	const char *uname_v;		/* uname -v */
	const char *release;		/* uname -r */
	const char *cmdline;		/* /proc/cmdline, or NULL */
	const char *config;		/* the kernel's .config text, or NULL */
	const char *config_path;	/* where that came from */
};
int sysinfo_preemption(const struct preempt_in *in, char *model, size_t len,
		       const char **source, int *dynamic);
int sysinfo_config_hz(const char *config);
uint64_t sysinfo_tick_ns(int hz);
int sysinfo_marked(const char *s, char open, char close, char *out, size_t len);
void sysinfo_sched_ext(const char *state, const char *ops, char *st, size_t stlen, char *name,
		       size_t namelen);
void sysinfo_sched_ext_text(const struct machine *si, char *buf, size_t len);
int sysinfo_autogroup(const char *text);
bool sysinfo_fs_in_memory(const char *fstype, const char *source);
int sysinfo_mountinfo_line(const char *line, unsigned maj, unsigned min, char *fs, size_t fslen,
			   char *src, size_t srclen);

#endif
