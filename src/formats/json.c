// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/json.c - the --json file: the run, the system, every result, then what is about the
 * whole run (the summary over passes). */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/frames.h"
#include "core/miss_explain.h"
#include "lib/util.h"
#include "model/workloads.h"
#include "formats/format.h"
#include "formats/json_writer.h"
#include "verdicts/verdicts.h"
#include "model/config.h"
#include "model/kinds.h"
#include "model/metrics.h"
#include "model/plan.h"
#include "sys/machine.h"
#include "task/work.h"

/* [[upper bound (exclusive), count], ...] of the non-empty buckets, on one line. */
static void json_histogram(struct jw *w, const struct latency_compact *l)
{
	struct hist_span s;
	unsigned pos = 0;
	bool first = true;

	jw_key(w, "histogram");
	sb_add(w->sb, "[", 1);
	while (l && latency_compact_next(l, &pos, &s)) {
		sb_printf(w->sb, "%s[%llu, %llu]", first ? "" : ", ", (unsigned long long)s.upper,
			  (unsigned long long)s.count);
		first = false;
	}
	sb_add(w->sb, "]", 1);
}

/* A row's value: a text (null when empty), true or false, a number. */
static void json_metric(struct jw *w, const struct metric *m, const struct result *r,
			const char *key)
{
	double v = m->field >= 0 ? r->value[m->field] : NAN;

	if (m->field < 0)
		jw_known(w, key, metric_text(m, r));
	else if (m->flags & MF_BOOL)
		jw_tristate(w, key, isfinite(v) ? v == 1.0 : -1);
	else
		jw_num(w, key, metric_value(m, r));
}

/* Is the object a row opens null whole: its value, or the row's periods, not known? */
static bool json_object_null(const struct metric *m, const struct result *r)
{
	return ((m->flags & MF_OR_NULL) && !isfinite(r->value[m->field])) ||
	       ((m->flags & MF_PERIODS_OR_NULL) && !isfinite(r->value[RF_MET]));
}

/* Closes the objects open ("a.b.") that do not hold path's first pre characters. */
static void json_close_to(struct jw *w, char *open, const char *path, size_t pre)
{
	size_t n;

	while ((n = strlen(open)) > pre || strncmp(open, path, n)) {
		char *dot;

		jw_close(w, '}');
		open[n - 1] = '\0';
		dot = strrchr(open, '.');
		*(dot ? dot + 1 : open) = '\0';
	}
}

/*
 * The rows of metrics[] (model/metrics.c) at place, each under the objects
 * its path names ("a.b.key"): an object opens at its first row and closes
 * after its last, or its first row writes it null whole. A row of another
 * kind than r's is left out, or null where it says so.
 */
static void json_place(struct jw *w, const struct result *r, enum json_place place)
{
	char open[64] = "";		/* the objects open, or the one written null: "a.b." */
	bool null = false;

	for (size_t i = 0; i < nr_metrics; i++) {
		const struct metric *m = &metrics[i];
		const char *key = m->json ? strrchr(m->json, '.') : NULL;
		size_t pre = key ? (size_t)(++key - m->json) : 0, n;

		if (m->place != place || !(m->flags & (result_kind(r) | MF_NULL_ELSE)) ||
		    (null && !strncmp(m->json, open, strlen(open))))
			continue;
		if (null)
			open[0] = '\0';
		json_close_to(w, open, m->json, pre);
		for (null = false; !null && (n = strlen(open)) < pre;) {
			size_t len = strcspn(m->json + n, ".");
			char name[32];

			snprintf(name, sizeof(name), "%.*s", (int)len, m->json + n);
			snprintf(open + n, sizeof(open) - n, "%s.", name);
			null = !n && json_object_null(m, r);
			if (null)
				jw_null(w, name);
			else
				jw_open(w, name, '{');
		}
		if (!null)
			json_metric(w, m, r, key ? key : m->json);
	}
	if (!null)
		json_close_to(w, open, "", 0);
}

/* Who ran instead: "ran_instead" and "ran_instead_lost_events", null where not traced. */
static void json_ran(struct jw *w, const struct ran_instead *ri)
{
	if (!ri || ri->state != RAN_OK) {
		jw_null(w, "ran_instead");
		jw_null(w, "ran_instead_lost_events");
		return;
	}
	jw_open(w, "ran_instead", '[');
	for (int i = 0; i < ri->n; i++) {
		jw_open(w, NULL, '{');
		jw_str(w, "comm", ri->top[i].comm);
		jw_int(w, "pid", ri->top[i].pid);
		jw_int(w, "prio", ri->top[i].prio);
		jw_int(w, "threads", ri->top[i].threads);
		jw_num(w, "share", ri->top[i].share);
		jw_num(w, "preempted", ri->top[i].preempted);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_bool(w, "ran_instead_lost_events", ri->lost);
}

/* Who had the CPU: {"comm", "pid", "prio"}, or null when not known. */
static void json_miss_task(struct jw *w, const char *key, const struct miss_task *t)
{
	if (t->pid < 0) {
		jw_null(w, key);
		return;
	}
	jw_open(w, key, '{');
	jw_str(w, "comm", t->comm);
	jw_int(w, "pid", t->pid);
	jw_int(w, "prio", t->prio);
	jw_close(w, '}');
}

/*
 * One explained miss (core/miss_explain.h); what only the trace tells is null
 * without it. A chain's (r's) names the stage whose story it is, by its
 * thread and its hop (null: the head's whole frame).
 */
static void json_miss(struct jw *w, const struct miss *m, const struct result *r)
{
	const struct hop_stats *hop = result_hop(r, m->hop);
	bool traced = m->flags & MISS_TRACED;

	jw_open(w, NULL, '{');
	jw_u64(w, "period", m->period);
	if (hop) {
		jw_str(w, "stage", hop->thread);
		jw_str(w, "hop", hop->name);
	} else if (result_chain_words(r, NULL)) {
		jw_null(w, "stage");
		jw_null(w, "hop");
	}
	jw_num(w, "at_s", round((double)m->at_ns / 1e3) / 1e6);
	jw_u64(w, "missed_by_ns", (uint64_t)m->late_us * NSEC_PER_USEC);
	jw_u64(w, "woke_late_ns", (uint64_t)m->woke_us * NSEC_PER_USEC);
	jw_int(w, "cpu", m->cpu >= 0 ? m->cpu : SI_UNKNOWN);
	jw_u64(w, "waited_ns", (uint64_t)m->waited_us * NSEC_PER_USEC);
	json_miss_task(w, "behind", &m->behind);
	jw_u64(w, "ran_ns", (uint64_t)m->ran_us * NSEC_PER_USEC);
	jw_int(w, "preempted", traced ? m->npreempt : SI_UNKNOWN);
	jw_int(w, "preempted_ns", traced ? (long long)m->preempted_us * 1000 : SI_UNKNOWN);
	json_miss_task(w, "preempted_by", &m->by);
	jw_int(w, "blocked_ns", traced ? (long long)m->blocked_us * 1000 : SI_UNKNOWN);
	jw_bool(w, "traced", traced);
	jw_bool(w, "overran", m->flags & MISS_OVERRAN);
	jw_bool(w, "cut", m->flags & MISS_CUT);
	jw_close(w, '}');
}

/* --explain: the row's worst misses and where the missed time went; null without. */
static void json_misses(struct jw *w, const struct result *r)
{
	const struct miss_report *mr = r->misses;

	if (!mr) {
		jw_null(w, "misses");
	} else {
		jw_open(w, "misses", '[');
		for (int i = 0; i < mr->n; i++)
			json_miss(w, &mr->worst[i], r);
		jw_close(w, ']');
	}
	json_place(w, r, JP_MISSES);
}

/* A chain's set of numbers, ns: {"min", "mean", "p50", "p90", "p99", "max"}. */
static void json_chain_stats(struct jw *w, const char *key, const double *v)
{
	jw_open(w, key, '{');
	for (int i = 0; i < CS_COUNT; i++)
		jw_num(w, chain_stat_names[i], v[i]);
	jw_close(w, '}');
}

/* A chain's hops; with --explain as root, who ran instead while each hop's wakee waited. */
static void json_hops(struct jw *w, const struct chain_summary *c, const struct ran_instead *ran)
{
	jw_open(w, "hops", '[');
	for (int h = 0; h < c->nhops; h++) {
		const struct hop_stats *hs = &c->hop[h];

		jw_open(w, NULL, '{');
		jw_str(w, "name", hs->name);
		jw_str(w, "thread", hs->thread);
		jw_num(w, "wakeups", (double)hs->n);
		json_chain_stats(w, "latency_ns", hs->lat);
		jw_open(w, "queue_wait_ns", '{');
		jw_num(w, "mean", hs->queue_mean);
		jw_close(w, '}');
		jw_open(w, "wake_path_ns", '{');
		jw_num(w, "mean", hs->path_mean);
		jw_close(w, '}');
		json_ran(w, ran ? &ran[h] : NULL);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

/* Game's frames or AudioGraph's cycles; nothing for a single task. */
static void json_chain(struct jw *w, const struct result *r)
{
	const struct chain_summary *c;
	const struct chain_words *cw = result_chain_words(r, &c);

	if (!cw)
		return;
	json_chain_stats(w, cw->time, c->time);
	jw_num(w, cw->done, (double)c->done);
	jw_num(w, cw->on_time, (double)c->on_time);
	json_place(w, r, JP_CHAIN);
	if (cw->input)
		json_chain_stats(w, cw->input, c->input);
	jw_open(w, cw->marks, '[');
	for (int i = 0; i < c->nmarks; i++)
		jw_num(w, NULL, (double)c->marks[i]);
	jw_close(w, ']');
	json_hops(w, c, r->hop_ran);
}

/* A chain's copy: its frames or cycles, their time's p99, Game's fps and stutters, or xruns. */
static void json_instance_chain(struct jw *w, const struct chain_words *cw,
				const struct instance_fig *f)
{
	jw_num(w, cw->done, f->chain_done);
	jw_num(w, cw->copy_p99, f->chain_p99_ns);
	for (int i = 0; i < 2 && cw->copy[i].key; i++)
		jw_num(w, cw->copy[i].key, *(const double *)((const char *)f + cw->copy[i].off));
}

/* --instances: the copies pooled in the result, and each one's own figures. */
static void json_instances(struct jw *w, const struct result *r)
{
	const struct instance_set *s = r->inst;
	const struct chain_words *cw = result_chain_words(r, NULL);

	if (!s)
		return;
	jw_int(w, "instances", s->n);
	jw_int(w, "worst_instance", s->worst + 1);
	jw_open(w, "instance_results", '[');
	for (int i = 0; i < s->n; i++) {
		jw_open(w, NULL, '{');
		jw_int(w, "instance", i + 1);
		jw_num(w, "samples", s->f[i].samples);
		jw_num(w, "latency_mean_ns", s->f[i].mean_ns);
		jw_num(w, "latency_p99_ns", s->f[i].p99_ns);
		jw_num(w, "latency_max_ns", s->f[i].max_ns);
		jw_num(w, "pct_deadlines", s->f[i].pct_deadlines);
		jw_num(w, "pct_cpu", s->f[i].pct_cpu);
		if (cw)
			json_instance_chain(w, cw, &s->f[i]);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void json_result(struct jw *w, const struct result *r)
{
	jw_open(w, NULL, '{');
	jw_str(w, "benchmark", r->bench);
	jw_str(w, "load", r->load);
	jw_int(w, "pass", r->pass + 1);
	jw_known(w, "variant", r->variant);
	jw_int(w, "variant_index", r->variant[0] ? r->variant_index + 1 : SI_UNKNOWN);
	jw_known(w, "variant_value", r->knob_value);
	jw_int(w, "variant_pid", r->variant_pid ? r->variant_pid : SI_UNKNOWN);
	jw_known(w, "variant_sched_ext", r->variant_scx);
	jw_int(w, "ncpus", r->ncpus ? r->ncpus : SI_UNKNOWN);
	json_place(w, r, JP_GROUP);
	json_instances(w, r);
	jw_str(w, "status", status_name(r->status));
	jw_known(w, "reason", r->reason);
	json_place(w, r, JP_LATENCY);
	json_histogram(w, r->wake);
	for (enum json_place p = JP_LOAD; p <= JP_SPLIT_CROSS; p++)
		json_place(w, r, p);
	json_ran(w, &r->ran);
	json_misses(w, r);
	json_chain(w, r);
	jw_close(w, '}');
}

/* Per benchmark x load, over the passes (--repeat): what the summary table shows, in ns. */
static void json_summary(void *arg, const struct cell *c, const struct pass_summary *s)
{
	struct jw *w = arg;
	double nan = NAN;
	bool have = s->npass > 0;
	const char *file = cell_kind_table_name(w->cfg, c);	/* an rt-app file's */

	jw_open(w, NULL, '{');
	jw_str(w, "benchmark", cell_result_name(w->cfg, c, c->member));
	if (c->group)		/* only then: a run without groups keeps its summary's shape */
		jw_str(w, "group", cell_group_name(w->cfg, c));
	if (file)
		jw_str(w, "workload", file);
	jw_str(w, "load", workloads[c->load].name);
	jw_known(w, "variant", w->cfg->nvariants ? w->cfg->variants[c->variant].label : NULL);
	jw_int(w, "variant_index", w->cfg->nvariants ? c->variant + 1 : SI_UNKNOWN);
	jw_int(w, "ncpus", c->ncpus ? c->ncpus : SI_UNKNOWN);
	jw_int(w, "passes", s->npass);
	jw_num(w, "latency_mean_ns", have ? s->value[RF_MEAN] : nan);
	jw_num(w, "latency_mean_ci95_low_ns", have ? s->value[RF_MEAN] - s->half_mean : nan);
	jw_num(w, "latency_mean_ci95_high_ns", have ? s->value[RF_MEAN] + s->half_mean : nan);
	jw_num(w, "latency_max_ns", have ? s->max : nan);
	jw_num(w, "latency_max_mean_ns", have ? s->value[RF_MAX] : nan);
	jw_num(w, "pct_desired_cpu_mean", have ? s->value[RF_CPU] : nan);
	jw_num(w, "pct_deadlines_met_mean", have ? s->value[RF_DEADLINES_MET_PCT] : nan);
	jw_open(w, "passes_for_10pct", '{');
	jw_int(w, "latency_mean", s->power[0] > 0 ? s->power[0] : SI_UNKNOWN);
	jw_int(w, "latency_p99", s->power[1] > 0 ? s->power[1] : SI_UNKNOWN);
	jw_int(w, "pct_deadlines_met", s->power[2] > 0 ? s->power[2] : SI_UNKNOWN);
	jw_close(w, '}');
	jw_close(w, '}');
}

/*
 * The document in three parts, so that a live file (live_files.c) grows by a
 * result and a tail at a time. The head: everything up to the open results
 * array. Its run.end and interrupted are known only at the end, when the
 * file is written whole once more.
 */
void json_head(struct sbuf *sb, const struct run_record *run)
{
	struct jw w = { .sb = sb, .cfg = run->cfg, .first = true };

	jw_open(&w, NULL, '{');
	jw_open(&w, "interbench", '{');
	jw_str(&w, "version", INTERBENCH_VERSION);
	jw_int(&w, "schema", 1);
	jw_close(&w, '}');
	json_run(&w, run);
	json_system(&w, run);
	jw_open(&w, "results", '[');
}

/* Result i of the record as the results array holds it, with what separates it from i - 1. */
void json_result_at(struct sbuf *sb, const struct run_record *run, int i)
{
	struct jw w = { .sb = sb, .depth = 2, .first = i == 0 };

	json_result(&w, &run->res[i]);
}

/*
 * What closes the document after the record's results. Mid-run, only
 * "complete": false: a tail that did not grow with the run. The final tail
 * (once, at the end or after a signal) holds what is about the whole run:
 * the summary over passes, then "complete": true. What else is about the
 * whole run belongs here too, before "complete".
 */
void json_tail(struct sbuf *sb, const struct run_record *run, bool final)
{
	struct jw w = { .sb = sb, .cfg = run->cfg, .depth = 2, .first = run->nres == 0 };
	struct verdict_table vt;

	jw_close(&w, ']');
	if (final) {
		jw_open(&w, "summary", '[');
		each_cell_summary(run, json_summary, &w);
		jw_close(&w, ']');
		jw_key(&w, "verdicts");
		if (run->cfg->nvariants && !record_verdicts(run, &vt)) {
			verdicts_json(sb, &vt, w.depth);
			verdicts_free(&vt);
		} else {
			sb_puts(sb, "[]");
		}
	}
	jw_bool(&w, "complete", final);
	jw_close(&w, '}');
	sb_add(sb, "\n", 1);
}

/* The final document whole: what --json - prints and the unit tests compare. */
void build_json(struct sbuf *sb, const struct run_record *run)
{
	json_head(sb, run);
	for (int i = 0; i < run->nres; i++)
		json_result_at(sb, run, i);
	json_tail(sb, run, true);
}
