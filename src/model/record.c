// SPDX-License-Identifier: GPL-2.0-or-later
/* model/record.c - the run record: a live run's metadata and results as rows end, a file's
 * runs as they are read, the walk of its cells. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/record.h"
#include "model/workloads.h"
#include "model/config.h"
#include "model/plan.h"
#include "sys/machine.h"

/* A live run's record: what every output says of the run, taken once at its start. */
void record_init(struct run_record *r, const struct config *cfg, const struct machine *sys,
		 const struct plan *plan, time_t start)
{
	struct tm tm;

	memset(r, 0, sizeof(*r));
	r->cfg = cfg;
	r->sys = sys;
	r->plan = plan;
	r->start = start;
	r->nruns = 1;
	r->seconds = cfg->seconds;
	localtime_r(&start, &tm);
	strftime(r->date, sizeof(r->date), "%Y%m%d%H%M", &tm);
	sysinfo_kernel_release(r->kernel, sizeof(r->kernel));
	snprintf(r->comment, sizeof(r->comment), "%s", cfg->comment ? cfg->comment : "");
	snprintf(r->work, sizeof(r->work), "%s", work_mode_name(cfg->work));
	for (int k = 0; k < RK_COUNT; k++)
		run_key_text(cfg, k, r->key[k], sizeof(r->key[k]));
	if (sys)
		machine_values_of(sys, &r->mach);
}

void record_free(struct run_record *r)
{
	for (int i = 0; i < r->nres; i++) {
		free(r->res[i].wake);
		free(r->res[i].strip);
		free(r->res[i].misses);
		free(r->res[i].chain);
		free(r->res[i].hop_ran);
		free(r->res[i].inst);
	}
	free(r->res);
	r->res = NULL;
	r->nres = r->cap = 0;
}

/*
 * The highest loop_speed of the tasks' results before upto (a file's
 * threads' short runs spin slower): what a row's speed mark compares with.
 */
double record_fastest(const struct run_record *r, int upto)
{
	double fastest = 0.0;

	for (int i = 0; i < upto && i < r->nres; i++)
		if (!r->res[i].rtapp && r->res[i].value[RF_LOOP_SPEED] > fastest)
			fastest = r->res[i].value[RF_LOOP_SPEED];
	return fastest;
}

/*
 * The results of one benchmark x load x variant x CPU count of the run (its
 * passes), into list; how many.
 */
int record_passes_of(const struct run_record *r, const char *bench, const char *load,
		     int variant, int ncpus, const char *group, const struct result **list)
{
	int cnt = 0;

	for (int i = 0; i < r->nres; i++)
		if (!strcmp(r->res[i].bench, bench) && !strcmp(r->res[i].load, load) &&
		    r->res[i].variant_index == variant && r->res[i].ncpus == ncpus &&
		    !strcmp(r->res[i].group, group))
			list[cnt++] = &r->res[i];
	return cnt;
}

struct run_record *file_new_run(struct result_file *f)
{
	struct run_record *runs = grow_array(f->runs, f->nruns, &f->cap, 4, sizeof(*runs));

	if (!runs)
		return NULL;
	f->runs = runs;
	memset(&f->runs[f->nruns], 0, sizeof(f->runs[0]));
	f->runs[f->nruns].nruns = 1;
	/* the file's Settings line or CSV column says otherwise, if it has one */
	snprintf(f->runs[f->nruns].key[RK_PERIODS], RK_LEN, "%s", RK_PERIODS_BEFORE);
	snprintf(f->runs[f->nruns].key[RK_WAKE], RK_LEN, "%s", RK_WAKE_BEFORE);
	return &f->runs[f->nruns++];
}

struct result *run_new_result(struct run_record *r)
{
	struct result *res = grow_array(r->res, r->nres, &r->cap, 16, sizeof(*res)), *o;

	if (!res)
		return NULL;
	r->res = res;
	o = &r->res[r->nres++];
	result_init(o);
	return o;
}

void results_free(struct result_file *f)
{
	for (int i = 0; i < f->nruns; i++)
		free(f->runs[i].res);
	free(f->runs);
	memset(f, 0, sizeof(*f));
}

/* Copy a name, known ones in the registry's spelling; false if it cannot be one. */
bool set_name(char *dst, const char *src, size_t len)
{
	int k;

	if (!len || len >= RES_NAME_LEN)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isgraph((unsigned char)src[i]))
			return false;
	memcpy(dst, src, len);
	dst[len] = '\0';
	k = workload_find(dst);
	if (k >= 0)
		strcpy(dst, workloads[k].name);
	return true;
}

/* Up to 20 characters of s for a message: one line, nothing unprintable. */
const char *quote(char *buf, size_t len, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i < 20 && i + 1 < len; i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

/* A number as a table prints it: plain decimal, "-" for none, never negative or absurd. */
bool parse_value(const char *s, double *v)
{
	char *end;

	if (!strcmp(s, "-")) {
		*v = NAN;
		return true;
	}
	if (!*s || strspn(s, "0123456789.eE+-") != strlen(s) || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return !*end && !errno && isfinite(*v) && *v >= 0 && *v < 1e15;
}

/*
 * The sched_ext scheduler a run's rows ran under, from the context's
 * "enabled: lavd" (or a variant's): its ops, "none" when sched_ext is
 * disabled or absent (the kernel's own), "" when not known.
 */
void record_scx_of(char *out, size_t len, const char *text)
{
	const char *colon = text ? strchr(text, ':') : NULL;

	if (!text || !*text || !strcmp(text, "unknown"))
		snprintf(out, len, "%s", "");
	else if (!strncmp(text, "enabled", 7) && colon)
		snprintf(out, len, "%.*s", (int)strcspn(colon + 1 + strspn(colon + 1, " "), " ,"),
			 colon + 1 + strspn(colon + 1, " "));
	else
		snprintf(out, len, "none");
}
