// SPDX-License-Identifier: GPL-2.0-or-later
/* task/calibrate.c - loops_per_ms for loops mode: measure, re-check, save with the machine's
 * identity. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/machine.h"
#include "task/task.h"

#define CAL_WARMUP_NS (150 * NSEC_PER_MSEC)	/* lets the clock frequency settle */
#define CAL_BATCH_MS 5				/* CPU time per measurement */
#define CAL_MIN_BATCHES 10			/* before the first judgement */
#define CAL_NEED 5				/* batches in the fastest consistent group */
#define CAL_VERIFY 5				/* batches after the pause */
#define CAL_VERIFY_NEED 2
#define CAL_PAUSE_NS (100 * NSEC_PER_MSEC)
#define CAL_BUDGET_NS (2500 * NSEC_PER_MSEC)	/* stays under the 3 s target */
#define CAL_TOLERANCE 0.01
#define CAL_RECHECK_BATCHES 8			/* of CAL_RECHECK_MS: the re-check is < 100 ms */
#define CAL_RECHECK_MS 8
#define CAL_RECHECK_OFF 0.03			/* a saved value further off is measured again */

/* Loops per ms of this thread's CPU time, over one batch of about ms. */
static double measure_rate(double lpm, unsigned ms)
{
	uint64_t loops = (uint64_t)(lpm * ms), c0, c1;

	c0 = thread_cpu_ns();
	burn_loops(loops);
	c1 = thread_cpu_ns();
	if (c1 <= c0)
		return lpm;
	return (double)loops * 1e6 / (double)(c1 - c0);
}

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/*
 * The machine's speed from batch rates: the fastest group of at least need
 * batches that lie within tol of the group's fastest. A disturbance (steal,
 * an interrupt charged to the thread, a busy sibling, a lower frequency)
 * only ever slows a batch down, so the fastest consistent group is the
 * undisturbed speed, and a lone fast batch (a clock glitch) makes no group.
 * True, with the group's mean in *best, when there is one.
 */
bool cal_fastest(const double *rates, int n, double tol, int need, double *best)
{
	double s[CAL_MAX_BATCHES], sum;
	int i, j;

	if (n > CAL_MAX_BATCHES)
		n = CAL_MAX_BATCHES;
	if (need < 1 || n < need)
		return false;
	memcpy(s, rates, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_desc);
	for (i = 0; i + need <= n; i++) {
		for (j = i, sum = 0; j < n && s[j] >= s[i] * (1.0 - tol); j++)
			sum += s[j];
		if (j - i >= need) {
			*best = sum / (j - i);
			return true;
		}
	}
	return false;
}

/* Run on the CPU we are on now, so the estimate is of one CPU. */
static bool pin_here(cpu_set_t *saved)
{
	cpu_set_t one;
	int cpu = sched_getcpu();

	if (cpu < 0 || sched_getaffinity(0, sizeof(*saved), saved) < 0)
		return false;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) == 0;
}

/* Spin for ns of wall time; the loops per ms of CPU time it saw. */
static double warm_up(uint64_t ns)
{
	uint64_t t0 = now_ns(), c0 = thread_cpu_ns();
	double loops = 0;

	while (now_ns() - t0 < ns) {
		burn_loops(100000);
		loops += 100000;
	}
	return loops * 1e6 / (double)(thread_cpu_ns() - c0 + 1);
}

/* After a pause, do CAL_VERIFY batches find the speed m again? */
static bool verified(double m)
{
	double ver[CAL_VERIFY], v;

	sleep_ns(CAL_PAUSE_NS);
	for (int i = 0; i < CAL_VERIFY; i++)
		ver[i] = measure_rate(m, CAL_BATCH_MS);
	return cal_fastest(ver, CAL_VERIFY, CAL_TOLERANCE, CAL_VERIFY_NEED, &v) &&
	       fabs(v - m) <= m * CAL_TOLERANCE;
}

/*
 * Measure loops_per_ms at normal priority, pinned (it is CPU time that is
 * measured, so being preempted does not matter and RT throttling cannot be
 * tripped): batches of 5 ms until the fastest CAL_NEED of them agree within
 * 1 %, confirmed by batches after a 100 ms pause. Returns 0; 1 when it did
 * not settle within the budget (the best guess is used, *spread says how
 * far apart the batches were); -EINTR when stopped.
 */
int calibrate_measure(unsigned long *lpm, double *spread, uint64_t *took_ns,
		      volatile sig_atomic_t *stop)
{
	static double rates[CAL_MAX_BATCHES];
	uint64_t t0 = now_ns();
	double est, m = 0.0, lo, hi;
	cpu_set_t saved;
	bool pinned = pin_here(&saved);
	int n = 0, ret = 1;

	est = warm_up(CAL_WARMUP_NS);
	while (now_ns() - t0 < CAL_BUDGET_NS && n < CAL_MAX_BATCHES) {
		if (stop && *stop) {
			ret = -EINTR;
			break;
		}
		rates[n++] = measure_rate(est, CAL_BATCH_MS);
		if (n < CAL_MIN_BATCHES || !cal_fastest(rates, n, CAL_TOLERANCE, CAL_NEED, &m))
			continue;
		est = m;
		if (verified(m)) {
			ret = 0;
			break;
		}
	}
	if (pinned)
		sched_setaffinity(0, sizeof(saved), &saved);
	lo = hi = n ? rates[0] : est;
	for (int i = 1; i < n; i++) {
		lo = rates[i] < lo ? rates[i] : lo;
		hi = rates[i] > hi ? rates[i] : hi;
	}
	*spread = hi > 0 ? (hi - lo) / hi : 1.0;
	if (ret && !cal_fastest(rates, n, CAL_TOLERANCE, 2, &m))
		m = hi;		/* no two batches agree: the fastest is the least disturbed */
	*lpm = m >= 1.0 ? (unsigned long)(m + 0.5) : 1;
	*took_ns = now_ns() - t0;
	return ret;
}

/* The speed now, in under 100 ms: to see whether a saved value still holds. */
double calibrate_recheck(void)
{
	double r[CAL_RECHECK_BATCHES], est, m, hi = 0;
	cpu_set_t saved;
	bool pinned = pin_here(&saved);

	est = warm_up(20 * NSEC_PER_MSEC);
	for (int i = 0; i < CAL_RECHECK_BATCHES; i++) {
		r[i] = measure_rate(est, CAL_RECHECK_MS);
		hi = r[i] > hi ? r[i] : hi;
	}
	if (pinned)
		sched_setaffinity(0, sizeof(saved), &saved);
	return cal_fastest(r, CAL_RECHECK_BATCHES, CAL_TOLERANCE, 3, &m) ? m : hi;
}

/* ---- the saved value, and the machine it holds for ---- */

/* FNV-1a of the running binary: a rebuild (other flags, another compiler) is another loop. */
static void build_hash(char *buf, size_t len)
{
	uint64_t h = 14695981039346656037ULL;
	unsigned char chunk[65536];
	ssize_t r;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	snprintf(buf, len, "unknown");
	if (fd < 0)
		return;
	while ((r = read(fd, chunk, sizeof(chunk))) > 0)
		for (ssize_t i = 0; i < r; i++)
			h = (h ^ chunk[i]) * 1099511628211ULL;
	if (r == 0)
		snprintf(buf, len, "%016llx", (unsigned long long)h);
	close(fd);
}

/* The first line of path, or "" */
static void first_line(const char *path, char *buf, size_t len)
{
	if (read_small_file(path, buf, len))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* Turbo or boost, in whichever form the cpufreq driver offers it. */
static void boost_state(char *buf, size_t len)
{
	static const char *const files[][2] = {
		{ "/sys/devices/system/cpu/cpufreq/boost", "boost" },
		{ "/sys/devices/system/cpu/intel_pstate/no_turbo", "no_turbo" },
		{ "/sys/devices/system/cpu/amd_pstate/status", "amd_pstate" },
	};
	char v[64];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		first_line(files[i][0], v, sizeof(v));
		if (v[0]) {	/* 0 or 1, or a driver mode such as "active": short */
			snprintf(buf, len, "%s=%.16s", files[i][1], v);
			return;
		}
	}
	snprintf(buf, len, "unknown");
}

void cal_identity_of(struct cal_identity *id, const struct machine *sys)
{
	char control[24], active[8];	/* "notimplemented" at most, "1" */

	memset(id, 0, sizeof(*id));
	snprintf(id->cpu_model, sizeof(id->cpu_model), "%s", sys->cpu_model);
	snprintf(id->kernel_release, sizeof(id->kernel_release), "%s", sys->kernel_release);
	build_hash(id->build, sizeof(id->build));
	snprintf(id->governor, sizeof(id->governor), "%s",
		 sys->cpufreq_governor[0] ? sys->cpufreq_governor : "none");
	boost_state(id->boost, sizeof(id->boost));
	first_line("/sys/devices/system/cpu/smt/control", control, sizeof(control));
	first_line("/sys/devices/system/cpu/smt/active", active, sizeof(active));
	snprintf(id->smt, sizeof(id->smt), "%s/%s", control[0] ? control : "unknown",
		 active[0] ? active : "?");
}

/* The keys of the file, each a field of struct cal_identity. */
static const struct {
	const char *key;
	size_t off, len;
} cal_keys[] = {
#define KEY(k, f) { k, offsetof(struct cal_identity, f), sizeof(((struct cal_identity *)0)->f) }
	KEY("cpu_model", cpu_model), KEY("kernel_release", kernel_release), KEY("build", build),
	KEY("cpufreq_governor", governor), KEY("boost", boost), KEY("smt", smt),
#undef KEY
};

static const char *id_field(const struct cal_identity *id, size_t k)
{
	return (const char *)id + cal_keys[k].off;
}

/* The file's text: the value, then what it holds for. Its length, as snprintf's. */
int cal_format(char *buf, size_t len, unsigned long lpm, const struct cal_identity *id)
{
	int n = snprintf(buf, len, "# interbench: iterations of the busy loop per ms of CPU time\n"
			 "loops_per_ms %lu\n", lpm);

	for (size_t k = 0; k < ARRAY_SIZE(cal_keys) && n >= 0 && (size_t)n < len; k++)
		n += snprintf(buf + n, len - (size_t)n, "%s %s\n", cal_keys[k].key, id_field(id, k));
	return n;
}

/*
 * The saved value, if the file holds one for want: 0; -EINVAL when it holds
 * no value; -ESTALE when it holds one for another machine, kernel, build,
 * governor, boost or SMT state (or does not say, as older files did not).
 */
int cal_parse(char *text, const struct cal_identity *want, unsigned long *lpm)
{
	bool same[ARRAY_SIZE(cal_keys)] = { false };
	char *line, *save = NULL;
	long v = 0;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		if (!sp)
			continue;
		*sp = '\0';
		if (!strcmp(line, "loops_per_ms") && parse_long(sp + 1, 1, 1L << 40, &v))
			return -EINVAL;
		for (size_t k = 0; k < ARRAY_SIZE(cal_keys); k++)
			if (!strcmp(line, cal_keys[k].key))
				same[k] = !strcmp(sp + 1, id_field(want, k));
	}
	if (!v)
		return -EINVAL;
	for (size_t k = 0; k < ARRAY_SIZE(cal_keys); k++)
		if (!same[k])
			return -ESTALE;
	*lpm = (unsigned long)v;
	return 0;
}

/* A saved value for this machine that a re-check confirms within 3 %: 0, else -errno. */
static int saved_value(const char *path, const struct cal_identity *id, bool quiet,
		       unsigned long *lpm)
{
	char buf[2048];
	double now, off;
	int ret = read_small_file(path, buf, sizeof(buf));

	if (ret || (ret = cal_parse(buf, id, lpm)))
		return ret;
	now = calibrate_recheck();
	off = now / (double)*lpm - 1.0;
	if (fabs(off) <= CAL_RECHECK_OFF)
		return 0;
	if (!quiet)
		fprintf(stderr, "Saved %lu loops per ms is %+.1f %% off now (%.0f): measuring again\n",
			*lpm, off * 100, now);
	return -ESTALE;
}

/*
 * Loops mode without -l: the saved value when it holds for this machine and
 * still matches it, else a new measurement, saved only when it settled.
 * 0, or -EINTR when a stop signal came.
 */
int calibration_get(const char *work_dir, bool recalibrate, bool quiet,
		    const struct machine *sys, volatile sig_atomic_t *stop, unsigned long *out)
{
	char path[PATH_MAX], buf[2048];
	struct cal_identity id;
	unsigned long lpm;
	double spread;
	uint64_t took;
	int ret;

	snprintf(path, sizeof(path), "%s/interbench.loops_per_ms", work_dir);
	cal_identity_of(&id, sys);
	if (!recalibrate && saved_value(path, &id, quiet, &lpm) == 0) {
		*out = lpm;
		return 0;
	}
	if (!quiet)
		fprintf(stderr, "Calibrating loops per ms...\n");
	ret = calibrate_measure(&lpm, &spread, &took, stop);
	if (ret == -EINTR)
		return ret;
	*out = lpm;
	if (!quiet)
		fprintf(stderr, "%lu loops per ms, measured in %.2f s\n", lpm, (double)took / 1e9);
	if (ret > 0) {
		warn("calibration did not settle within 1 %% (spread %.1f %%); using %lu for this "
		     "run, not saving it", spread * 100, lpm);
		return 0;
	}
	cal_format(buf, sizeof(buf), lpm, &id);
	ret = replace_file(path, buf, strlen(buf));
	if (ret)
		warn("cannot save %s: %s", path, strerror(-ret));
	return 0;
}
