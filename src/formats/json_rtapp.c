// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/json_rtapp.c - --json's part of a workload file: which file the run ran (its threads'
 * own figures are rows of model/metrics.c). */
#include <time.h>

#include "formats/json_writer.h"
#include "lib/sbuf.h"
#include "model/config.h"
#include "sys/machine.h"

/*
 * The run's "workload": the file as given, its name (its results' and
 * tables'), what tells it apart from any other (its sha256, size and
 * mtime), its threads, how its timers and scheduling ran, and the keys it
 * has that were accepted without effect; null without one.
 */
void json_workload_run(struct jw *w, const struct config *cfg)
{
	const struct rtapp_input *wf = &cfg->rtapp;
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
