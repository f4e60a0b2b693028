// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/json_rtapp.c - --json's parts of a workload file: which file the run ran, and each
 * thread's wake-ups by kind and its timer periods as rt-app tells them (slack, wu_lat). */
#include <math.h>
#include <time.h>

#include "formats/json_writer.h"
#include "lib/sbuf.h"
#include "model/config.h"
#include "model/result.h"
#include "sys/machine.h"

/*
 * The run's "workload": the file as given, its name (its results' and
 * tables'), what tells it apart from any other (its sha256, size and
 * mtime), its threads, how its timers and scheduling ran, and the keys it
 * has that were accepted without effect; null without one.
 */
void json_workload_run(struct jw *w, const struct config *cfg)
{
	const struct workload_file *wf = &cfg->workload;
	char t[40];

	if (!wf->model) {
		jw_null(w, "workload");
		return;
	}
	jw_open(w, "workload", '{');
	jw_str(w, "file", wf->path);
	jw_str(w, "name", wf->name);
	jw_str(w, "sha256", wf->sha256);
	jw_u64(w, "size_bytes", wf->size);
	fmt_iso8601(t, sizeof(t), (time_t)wf->mtime);
	jw_str(w, "mtime", t);
	jw_int(w, "thread_objects", (long long)wf->model->nthreads);
	jw_int(w, "threads", rtapp_nthreads(wf->model));
	jw_str(w, "timers", wf->swept ? "swept" : "exact");
	jw_str(w, "scheduling", cfg->sched_given ? "options" : "file");
	jw_open(w, "accepted_without_effect", '[');
	for (size_t i = 0; i < wf->model->nignored; i++)
		jw_str(w, NULL, wf->model->ignored[i]);
	jw_close(w, ']');
	jw_close(w, '}');
}

/*
 * A workload file's thread's own figures: its file, its wake-ups by what
 * woke it, and its timer periods' slack and wu_lat as rt-app logs them
 * (null without a timer); its latencies and periods are the result's.
 */
void json_workload_result(struct jw *w, const struct result *r)
{
	jw_str(w, "workload", r->group);
	jw_open(w, "wakeups", '{');
	jw_num(w, "timer", r->v[RF_TIMER_WAKEUPS]);
	jw_num(w, "resume", r->v[RF_RESUME_WAKEUPS]);
	jw_close(w, '}');
	if (!isfinite(r->v[RF_MET])) {
		jw_null(w, "rtapp");
		return;
	}
	jw_open(w, "rtapp", '{');
	jw_open(w, "slack_ns", '{');
	jw_num(w, "mean", r->v[RF_SLACK_MEAN]);
	jw_num(w, "min", r->v[RF_SLACK_MIN]);
	jw_close(w, '}');
	jw_open(w, "wu_lat_ns", '{');
	jw_num(w, "mean", r->v[RF_WU_LAT_MEAN]);
	jw_close(w, '}');
	jw_close(w, '}');
}
