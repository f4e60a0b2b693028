// SPDX-License-Identifier: GPL-2.0-or-later
/* sys/sysinfo.c - what describes the machine and the kernel for the report. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lib/gunzip.h"
#include "lib/util.h"
#include "sys/cgroup.h"
#include "sys/machine.h"

#define CONFIG_MAX (16 * MIB)	/* a kernel .config is a few hundred KiB */

/* The first "model name" (x86), "cpu model" (mips) or "Processor" line. */
void sysinfo_cpu_model(char *buf, size_t len)
{
	static const char *const keys[] = { "model name", "cpu model", "Processor", "cpu" };
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		size_t kl = strlen(keys[k]);

		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (strncmp(line, keys[k], kl) || !colon ||
			    strspn(line + kl, " \t") != (size_t)(colon - line - (long)kl))
				continue;
			colon += 1 + strspn(colon + 1, " \t");
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
			fclose(f);
			return;
		}
	}
	fclose(f);
}

void sysinfo_kernel_release(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u) < 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%s", u.release);
}

/* ---- pure helpers ---- */

/* The first word of s (up to a space or line end) into out; "" when none. */
static void first_word(const char *s, char *out, size_t len)
{
	size_t n = s ? strspn(s, " \t\n") : 0;

	snprintf(out, len, "%.*s", s ? (int)strcspn(s + n, " \t\n") : 0, s ? s + n : "");
}

/*
 * sched_ext from /sys/kernel/sched_ext: state NULL (no such directory) is
 * "unavailable"; else its state word, and the BPF scheduler's name (root/ops)
 * while one is loaded.
 */
void sysinfo_sched_ext(const char *state, const char *ops, char *st, size_t stlen, char *name,
		       size_t namelen)
{
	name[0] = '\0';
	if (!state) {
		snprintf(st, stlen, "unavailable");
		return;
	}
	first_word(state, st, stlen);
	if (!st[0])
		snprintf(st, stlen, "unknown");
	if (strcmp(st, "disabled"))
		first_word(ops, name, namelen);
}

/* "unavailable", "disabled", "enabled: scx_lavd": the one-line form of the text outputs. */
void sysinfo_sched_ext_text(const struct machine *si, char *buf, size_t len)
{
	if (!si->sched_ext[0])
		snprintf(buf, len, "unknown");
	else if (si->sched_ext_ops[0])
		snprintf(buf, len, "%s: %s", si->sched_ext, si->sched_ext_ops);
	else
		snprintf(buf, len, "%s", si->sched_ext);
}

/* /proc/sys/kernel/sched_autogroup_enabled: 1 on, 0 off, -1 absent or unreadable. */
int sysinfo_autogroup(const char *text)
{
	char w[8];

	first_word(text, w, sizeof(w));
	if (!strcmp(w, "0") || !strcmp(w, "1"))
		return w[0] - '0';
	return -1;
}

/* The text between the first open and the next close: "a [b] c" -> "b". */
int sysinfo_marked(const char *s, char open, char close, char *out, size_t len)
{
	const char *a = s ? strchr(s, open) : NULL, *b = a ? strchr(a + 1, close) : NULL;

	out[0] = '\0';
	if (!b || b == a + 1 || (size_t)(b - a - 1) >= len)
		return -1;
	snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
	return 0;
}

/* tok is one of the space-separated words of s. */
static bool has_word(const char *s, const char *tok)
{
	size_t n = strlen(tok);

	for (const char *p = s; p && (p = strstr(p, tok)); p += n)
		if ((p == s || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0' || p[n] == '\n'))
			return true;
	return false;
}

/* config has the exact line (a .config: "CONFIG_X=y"). */
static bool config_has(const char *config, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = config; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, line, n) && (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

static bool valid_model(const char *m)
{
	return !strcmp(m, "none") || !strcmp(m, "voluntary") || !strcmp(m, "full") ||
	       !strcmp(m, "lazy");
}

/* The last valid preempt= of the kernel's own part of the command line. */
static bool cmdline_preempt(const char *cmdline, char *m, size_t len)
{
	const char *p = cmdline;
	bool found = false;

	while (p && *p) {
		size_t n;

		p += strspn(p, " \n");
		n = strcspn(p, " \n");
		if (n == 2 && !strncmp(p, "--", 2))
			break;		/* the rest is for init */
		if (n > 8 && n - 8 < len && !strncmp(p, "preempt=", 8)) {
			char v[16];

			snprintf(v, sizeof(v), "%.*s", (int)(n - 8), p + 8);
			if (valid_model(v)) {
				snprintf(m, len, "%s", v);
				found = true;
			}
		}
		p += n;
	}
	return found;
}

static const char *config_model(const char *config)
{
	static const char *const map[][2] = {
		{ "CONFIG_PREEMPT_RT=y", "rt" }, { "CONFIG_PREEMPT_LAZY=y", "lazy" },
		{ "CONFIG_PREEMPT=y", "full" }, { "CONFIG_PREEMPT_VOLUNTARY=y", "voluntary" },
		{ "CONFIG_PREEMPT_NONE=y", "none" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (config_has(config, map[i][0]))
			return map[i][1];
	return NULL;
}

/* Kernels before 6.13 had no lazy model, so "PREEMPT" in uname -v meant full. */
static bool release_before(const char *release, unsigned major, unsigned minor)
{
	unsigned a, b;

	if (!release || sscanf(release, "%u.%u", &a, &b) != 2)
		return false;
	return a < major || (a == major && b < minor);
}

static int chose(char *model, size_t len, const char **source, const char *m, const char *src)
{
	snprintf(model, len, "%s", m);
	*source = src;
	return 0;
}

/*
 * The preemption model in use, from the most to the least direct witness:
 * PREEMPT_RT in uname -v; the runtime choice of a PREEMPT_DYNAMIC kernel in
 * debugfs; its boot choice (preempt=); the kernel's config (for a dynamic
 * kernel, the default it boots with); "PREEMPT" in uname -v before lazy
 * existed. 0, or -1 when none of them tells (model "" and source NULL).
 */
int sysinfo_preemption(const struct preempt_in *in, char *model, size_t len,
		       const char **source, int *dynamic)
{
	const char *uv = in->uname_v ? in->uname_v : "", *cm;
	char m[16];

	model[0] = '\0';
	*source = NULL;
	if (has_word(uv, "PREEMPT_DYNAMIC"))
		*dynamic = 1;
	else if (in->config)
		*dynamic = config_has(in->config, "CONFIG_PREEMPT_DYNAMIC=y");
	else
		*dynamic = -1;
	if (has_word(uv, "PREEMPT_RT"))
		return chose(model, len, source, "rt", "uname");
	if ((!sysinfo_marked(in->debugfs, '(', ')', m, sizeof(m)) ||
	     !sysinfo_marked(in->debugfs, '[', ']', m, sizeof(m))) && valid_model(m))
		return chose(model, len, source, m, "debugfs");
	if (*dynamic == 1 && cmdline_preempt(in->cmdline, m, sizeof(m)))
		return chose(model, len, source, m, "cmdline");
	if (in->config && (cm = config_model(in->config)))
		return chose(model, len, source, cm, in->config_path);
	if (*dynamic != 1 && has_word(uv, "PREEMPT") && release_before(in->release, 6, 13))
		return chose(model, len, source, "full", "uname");
	return -1;
}

/* CONFIG_HZ= of a kernel's .config: the tick's rate; 0 when config is NULL or lacks it. */
int sysinfo_config_hz(const char *config)
{
	static const char key[] = "CONFIG_HZ=";

	for (const char *p = config; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char num[16];
		long v;

		if (strncmp(p, key, sizeof(key) - 1))
			continue;
		p += sizeof(key) - 1;
		snprintf(num, sizeof(num), "%.*s", (int)strcspn(p, "\n"), p);
		return parse_long(num, 1, 100000, &v) ? 0 : (int)v;
	}
	return 0;
}

/*
 * One line of /proc/self/mountinfo: when its device is maj:min, the
 * filesystem type and source. "36 35 98:0 /a /b rw - ext4 /dev/sda1 rw"
 */
int sysinfo_mountinfo_line(const char *line, unsigned maj, unsigned min, char *fs, size_t fslen,
			   char *src, size_t srclen)
{
	unsigned a, b;
	const char *sep = strstr(line, " - ");
	char t[64], s[256];

	if (sscanf(line, "%*s %*s %u:%u", &a, &b) != 2 || a != maj || b != min || !sep)
		return -1;
	if (sscanf(sep + 3, "%63s %255s", t, s) != 2)
		return -1;
	snprintf(fs, fslen, "%s", t);
	snprintf(src, srclen, "%s", s);
	return 0;
}

/*
 * Does a filesystem keep its files in memory rather than on a disk? tmpfs
 * and ramfs do, and so does any filesystem whose source is no device,
 * unless it is one known to reach a disk or a server another way.
 */
bool sysinfo_fs_in_memory(const char *fstype, const char *source)
{
	static const char *const memory[] = { "tmpfs", "ramfs", "devtmpfs", "hugetlbfs" };
	static const char *const elsewhere[] = {
		"overlay", "nfs", "nfs4", "cifs", "smb3", "9p", "virtiofs", "ceph", "zfs",
		"glusterfs", "lustre", "gfs2", "ocfs2", "afs", "aufs",
	};

	for (size_t i = 0; i < ARRAY_SIZE(memory); i++)
		if (!strcmp(fstype, memory[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(elsewhere); i++)
		if (!strcmp(fstype, elsewhere[i]))
			return false;
	if (!strncmp(fstype, "fuse", 4))
		return false;
	return strncmp(source, "/dev/", 5) != 0;
}

/* ---- reading the machine ---- */

static void read_str(const char *path, char *buf, size_t len)
{
	if (read_small_file(path, buf, len))
		buf[0] = '\0';
}

static long long read_ll(const char *path)
{
	char buf[64];
	long v;

	if (read_small_file(path, buf, sizeof(buf)) ||
	    parse_long(buf, LONG_MIN + 1, LONG_MAX, &v))
		return SI_UNKNOWN;
	return v;
}

static long long meminfo_kib(const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long long v = SI_UNKNOWN;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return SI_UNKNOWN;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, n) && line[n] == ':' &&
		    sscanf(line + n + 1, "%lld", &v) == 1)
			break;
		v = SI_UNKNOWN;
	}
	fclose(f);
	return v;
}

/* A whole file into a new NUL-terminated buffer of at most max bytes. */
static int read_whole(const char *path, size_t max, char **out, size_t *out_len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	size_t cap = 0, len = 0;
	char *buf = NULL, *nb;
	ssize_t r;

	if (fd < 0)
		return -errno;
	for (;;) {
		if (cap - len < 2) {
			cap = cap ? 2 * cap : 64 * 1024;
			nb = cap <= max ? realloc(buf, cap) : NULL;
			if (!nb) {
				ret = cap > max ? -EFBIG : -ENOMEM;
				break;
			}
			buf = nb;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ret = r < 0 ? -errno : 0;
			break;
		}
		len += (size_t)r;
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[len] = '\0';
	*out = buf;
	*out_len = len;
	return 0;
}

/* The kernel's config: /boot/config-RELEASE as text, else /proc/config.gz. */
static char *read_config(const char *release, char *path, size_t pathlen)
{
	char *text, *gz;
	size_t len, gzlen;

	snprintf(path, pathlen, "/boot/config-%s", release);
	if (!read_whole(path, CONFIG_MAX, &text, &len))
		return text;
	snprintf(path, pathlen, "/proc/config.gz");
	if (read_whole(path, CONFIG_MAX, &gz, &gzlen))
		return NULL;
	if (gunzip((const uint8_t *)gz, gzlen, CONFIG_MAX, &text, &len))
		text = NULL;
	free(gz);
	return text;
}

/*
 * What the kernel's config tells, read once: HZ, and with the running
 * kernel's own witnesses, the preemption model (sysinfo_preemption()).
 */
static void collect_config(struct machine *si)
{
	char debugfs[128], config_path[160];
	char *config = read_config(si->kernel_release, config_path, sizeof(config_path));
	struct preempt_in in = {
		.uname_v = si->kernel_version,
		.release = si->kernel_release,
		.cmdline = si->kernel_cmdline,
		.config = config,
		.config_path = config_path,
	};
	const char *src;

	if (!read_small_file("/sys/kernel/debug/sched/preempt", debugfs, sizeof(debugfs)))
		in.debugfs = debugfs;
	sysinfo_preemption(&in, si->preemption, sizeof(si->preemption), &src,
			   &si->preempt_dynamic);
	snprintf(si->preemption_source, sizeof(si->preemption_source), "%s", src ? src : "");
	si->hz = sysinfo_config_hz(config);
	free(config);
	si->tick_ns = sysinfo_tick_ns(si->hz);
}

/*
 * The tick's length: NSEC_PER_SEC / HZ rounded as the kernel's TICK_NSEC is,
 * or without a config the coarse clocks' resolution, which the kernel
 * reports as that same TICK_NSEC (a tick from 0.5 to 20 ms, else unknown: 0).
 */
uint64_t sysinfo_tick_ns(int hz)
{
	struct timespec ts;
	uint64_t ns;

	if (hz > 0)
		return (NSEC_PER_SEC + (uint64_t)hz / 2) / (uint64_t)hz;
	if (clock_getres(CLOCK_MONOTONIC_COARSE, &ts))
		return 0;
	ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	return ns >= NSEC_PER_MSEC / 2 && ns <= 20 * NSEC_PER_MSEC ? ns : 0;
}

/* item is one of the entries of a comma-separated list. */
static bool list_has(const char *list, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = list; (p = strstr(p, item)); p++)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* The governors of every cpufreq policy, each once: "performance" or "schedutil,powersave". */
static void collect_governor(struct machine *si)
{
	DIR *d = opendir("/sys/devices/system/cpu/cpufreq");
	char *list = si->cpufreq_governor;
	size_t used = 0, cap = sizeof(si->cpufreq_governor);
	struct dirent *e;

	list[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[128], gov[64];

		if (strncmp(e->d_name, "policy", 6))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpufreq/%.64s/scaling_governor", e->d_name);
		if (read_small_file(path, gov, sizeof(gov)) || !gov[0] || list_has(list, gov) ||
		    used + strlen(gov) + 2 > cap)
			continue;
		used += (size_t)snprintf(list + used, cap - used, "%s%s", used ? "," : "", gov);
	}
	closedir(d);
}

/* The block device's scheduler: its own queue, or a partition's disk's. */
static void collect_io_scheduler(struct machine *si, unsigned maj, unsigned min)
{
	char path[128], buf[256];

	si->io_scheduler[0] = '\0';
	if (maj == 0)
		return;		/* tmpfs, overlay, btrfs subvolumes, NFS: no single device */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/scheduler", maj, min);
	if (read_small_file(path, buf, sizeof(buf))) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", maj, min);
		if (access(path, F_OK))
			return;
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/scheduler", maj, min);
		if (read_small_file(path, buf, sizeof(buf)))
			return;
	}
	if (sysinfo_marked(buf, '[', ']', si->io_scheduler, sizeof(si->io_scheduler)))
		snprintf(si->io_scheduler, sizeof(si->io_scheduler), "%.*s",
			 (int)strcspn(buf, " "), buf);
}

static void collect_work_dir(struct machine *si, const char *work_dir)
{
	char line[4096];
	unsigned maj, min;
	struct stat st;
	FILE *f;

	si->work_dir_in_memory = -1;
	if (stat(work_dir, &st) < 0)
		return;
	maj = major(st.st_dev);
	min = minor(st.st_dev);
	f = fopen("/proc/self/mountinfo", "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (sysinfo_mountinfo_line(line, maj, min, si->work_dir_fs, sizeof(si->work_dir_fs),
					   si->work_dir_device, sizeof(si->work_dir_device)))
			continue;
		si->work_dir_in_memory = sysinfo_fs_in_memory(si->work_dir_fs,
							      si->work_dir_device);
		break;
	}
	if (f)
		fclose(f);
	collect_io_scheduler(si, maj, min);
}

static void collect_uname(struct machine *si)
{
	struct utsname u;

	if (uname(&u) < 0)
		return;
	snprintf(si->kernel_release, sizeof(si->kernel_release), "%s", u.release);
	snprintf(si->kernel_version, sizeof(si->kernel_version), "%s", u.version);
	snprintf(si->hostname, sizeof(si->hostname), "%s", u.nodename);
}

static void collect_sched_class(struct machine *si)
{
	char state[32], ops[64], ag[8];
	bool have = !read_small_file("/sys/kernel/sched_ext/state", state, sizeof(state));

	if (read_small_file("/sys/kernel/sched_ext/root/ops", ops, sizeof(ops)))
		ops[0] = '\0';
	sysinfo_sched_ext(have ? state : NULL, ops, si->sched_ext, sizeof(si->sched_ext),
			  si->sched_ext_ops, sizeof(si->sched_ext_ops));
	si->autogroup = sysinfo_autogroup(read_small_file("/proc/sys/kernel/sched_autogroup_enabled",
							  ag, sizeof(ag)) ? NULL : ag);
}

void sysinfo_collect(struct machine *si, const char *work_dir)
{
	struct cg_mem cg;
	int slack;

	memset(si, 0, sizeof(*si));
	collect_uname(si);
	read_str("/proc/cmdline", si->kernel_cmdline, sizeof(si->kernel_cmdline));
	collect_config(si);
	sysinfo_cpu_model(si->cpu_model, sizeof(si->cpu_model));
	if (!strcmp(si->cpu_model, "unknown"))
		si->cpu_model[0] = '\0';
	si->cpus_online = online_cpus();
	si->cpus_usable = usable_cpus();
	collect_governor(si);
	read_str("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		 si->clocksource, sizeof(si->clocksource));
	si->sched_rt_runtime_us = read_ll("/proc/sys/kernel/sched_rt_runtime_us");
	si->sched_rt_period_us = read_ll("/proc/sys/kernel/sched_rt_period_us");
	slack = prctl(PR_GET_TIMERSLACK);
	si->timer_slack_ns = slack >= 0 ? slack : SI_UNKNOWN;
	si->pm_qos_us = SI_UNKNOWN;
	si->mem_kib = meminfo_kib("MemTotal");
	si->swap_kib = meminfo_kib("SwapTotal");
	cg_memory(&cg);
	si->mem_limit_bytes = cg.limit == CG_NONE ? SI_UNKNOWN : (long long)cg.limit;
	snprintf(si->mem_limit_file, sizeof(si->mem_limit_file), "%s", cg.file);
	collect_work_dir(si, work_dir);
	collect_sched_class(si);
}

/* The memory this process may use: the least of MemTotal and its cgroups' limit; 0: unknown. */
uint64_t sysinfo_memory(char *what, size_t len)
{
	long long kib = meminfo_kib("MemTotal");
	uint64_t mem = kib > 0 ? (uint64_t)kib * 1024 : 0;
	struct cg_mem cg;

	snprintf(what, len, "MemTotal");
	cg_memory(&cg);
	if (cg.limit != CG_NONE && (!mem || cg.limit < mem)) {
		mem = cg.limit;
		snprintf(what, len, "%s", cg.file);
	}
	return mem;
}
