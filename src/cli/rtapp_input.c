// SPDX-License-Identifier: GPL-2.0-or-later
/* cli/rtapp_input.c - -W FILE.json, --workload FILE: the run's rt-app workload file, read once
 * with the options, checked against this machine's limits, named and recorded. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/sha256.h"
#include "lib/util.h"
#include "model/record.h"
#include "model/workloads.h"
#include "cli/options.h"
#include "sys/machine.h"
#include "task/rtapp_run.h"

#define ROWS_MAX (GROUP_MAX * INSTANCES_MAX)	/* a row's results: run/row.c's bound */
#define NPROC_MARGIN 16		/* threads of ours besides the file's: orchestrator, load, ... */

/* -W's argument names a workload file, not a benchmark: "FILE.json", or a path. */
bool workload_spec(const char *arg)
{
	size_t n = strlen(arg);

	return strchr(arg, '/') || (n > 5 && !strcasecmp(arg + n - 5, ".json"));
}

/* A name the tables, the logs and their readers keep whole: 1..max bytes, no space. */
static bool plain_name(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n > max)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isgraph((unsigned char)s[i]))
			return false;
	return true;
}

/* Its last part, as the tables and results name it. */
static int name_of(struct rtapp_input *wf, const char *path, char *err, size_t errlen)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (!plain_name(base, WORKLOAD_NAME_LEN - 1))
		return set_err(err, errlen, "%.200s: a workload file's name must be 1 to %d bytes "
			       "without spaces (its tables and results carry it)", path,
			       WORKLOAD_NAME_LEN - 1);
	snprintf(wf->name, sizeof(wf->name), "%s", base);
	return 0;
}

/*
 * -W FILE.json or --workload FILE: the file read into the run's model
 * (rtapp_load(): any key it refuses is one line naming it), its name and
 * digest. One per run; the checks that need every option come later
 * (rtapp_input_validate()).
 */
int rtapp_input_option(struct config *cfg, const char *arg, char *err, size_t errlen)
{
	struct rtapp_input *wf = &cfg->rtapp;
	struct rtapp_file *f;

	if (wf->model)
		return set_err(err, errlen, "%.200s: one workload file per run (%s is this run's)",
			       arg, wf->name);
	if (name_of(wf, arg, err, errlen))
		return -1;
	f = calloc(1, sizeof(*f));
	if (!f)
		return set_err(err, errlen, "%.200s: out of memory for its model", arg);
	if (rtapp_load(f, arg, err, errlen) ||
	    sha256_file(arg, wf->sha256, &wf->size, &wf->mtime, err, errlen)) {
		rtapp_free(f);
		free(f);
		return -1;
	}
	wf->model = f;
	wf->path = arg;
	rtapp_ignored_note(f, wf->note, sizeof(wf->note));
	return 0;
}

/* The threads this user's processes hold now, as RLIMIT_NPROC counts them (by real uid). */
static long user_threads(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300], buf[2048], *t;
	struct stat st;
	long n = 0;

	while (d && (e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s", e->d_name);
		if (stat(path, &st) || st.st_uid != getuid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
		if (!read_small_file(path, buf, sizeof(buf)) && (t = strstr(buf, "\nThreads:")))
			n += strtol(t + 9, NULL, 10);
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * The threads left to this user by RLIMIT_NPROC, shared by the copies of
 * --instances, each thread with a timer having a waker with --wake waker;
 * -1: no limit (none set, or root, whom the kernel does not hold to it).
 */
static long nproc_room(const struct config *cfg, const struct rtapp_file *f)
{
	struct rlimit rl;
	long room, wakers = 0;

	if (geteuid() == 0 || getrlimit(RLIMIT_NPROC, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return -1;
	for (size_t t = 0; cfg->wake == WAKE_WAKER && t < f->nthreads; t++)
		wakers += rtapp_timed(&f->threads[t]) ? f->threads[t].instances : 0;
	room = (long)rl.rlim_cur - user_threads() - NPROC_MARGIN - cfg->cpu_load;
	room = room / cfg->instances - wakers;
	return room > 0 ? room : 0;
}

/* What this machine allows each copy of the workload (rtapp_check()). */
static void limits_of(const struct config *cfg, const struct rtapp_file *f,
		      struct rtapp_limits *lim)
{
	char what[192];
	uint64_t mem = sysinfo_memory(what, sizeof(what));

	*lim = (struct rtapp_limits){ .max_threads = RTAPP_MAX_THREADS / cfg->instances,
				      .nproc_room = nproc_room(cfg, f),
				      .stack_bytes = RTAPP_RUN_STACK,
				      .mem_bytes = mem / 2 / (uint64_t)cfg->instances,
				      .ncpus = online_cpus() };
}

/* Each thread object's name, kept whole by every output and reader, once in the file. */
static int check_names(const struct rtapp_file *f, char *err, size_t errlen)
{
	for (size_t t = 0; t < f->nthreads; t++) {
		const struct rtapp_thread *th = &f->threads[t];

		if (!plain_name(th->name, RES_NAME_LEN - 1))
			return set_err(err, errlen, "%s:%d: tasks.%.40s: a thread's name must be 1 "
				       "to %d bytes without spaces (its results carry it whole)",
				       f->path, th->line, th->name, RES_NAME_LEN - 1);
		for (size_t u = 0; u < t; u++)
			if (!strcmp(f->threads[u].name, th->name))
				return set_err(err, errlen, "%s:%d: tasks.%s: a second thread of "
					       "that name (line %d)", f->path, th->line, th->name,
					       f->threads[u].line);
	}
	return 0;
}

/*
 * Once every option is known: what the engine and a row can hold (thread
 * objects, results per row with --instances), the file's checks against
 * this machine's limits, shared by the copies, and how its timers run:
 * rt-app's own timing unless --period swept was asked for. The run key
 * tells its runs from any other file's, or other timing's.
 */
int rtapp_input_validate(struct config *cfg, char *err, size_t errlen)
{
	struct rtapp_input *wf = &cfg->rtapp;
	const struct rtapp_file *f = wf->model;
	struct rtapp_limits lim;
	size_t n;

	if (!f)
		return 0;
	if (!f->nthreads || f->nthreads > RTAPP_RUN_MAX_OBJS)
		return set_err(err, errlen, "%s: %zu thread objects: a run takes 1 to %d",
			       f->path, f->nthreads, RTAPP_RUN_MAX_OBJS);
	if (f->nthreads * (size_t)cfg->instances > ROWS_MAX)
		return set_err(err, errlen, "%s: %zu thread objects in %d instances make %zu "
			       "results a row, more than the %d it holds", f->path, f->nthreads,
			       cfg->instances, f->nthreads * (size_t)cfg->instances, ROWS_MAX);
	if (check_names(f, err, errlen))
		return -1;
	limits_of(cfg, f, &lim);
	if (rtapp_check(f, &lim, err, errlen)) {
		n = strlen(err);
		if (cfg->instances > 1 && n + 1 < errlen)
			snprintf(err + n, errlen - n, " (--instances %d: each copy's share)",
				 cfg->instances);
		return -1;
	}
	wf->swept = cfg->periods_given && cfg->periods == PERIOD_SWEPT;
	snprintf(wf->key, sizeof(wf->key), "%.16s:%s", wf->sha256, wf->swept ? "swept" : "exact");
	return 0;
}

void rtapp_input_free(struct config *cfg)
{
	if (cfg->rtapp.model) {
		rtapp_free(cfg->rtapp.model);
		free(cfg->rtapp.model);
		cfg->rtapp.model = NULL;
	}
}
