// SPDX-License-Identifier: GPL-2.0-or-later
/* compare/compare.c - --compare: the files read, their runs labelled and told apart, the text
 * and the plot. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "compare/compare.h"
#include "plot/plot.h"
#include "verdicts/verdicts.h"
#include "model/config.h"
#include "formats/readers.h"

/*
 * "before": the run's comment, which the user wrote to name it; else the
 * kernel release, else the file's name. disambiguate() adds what tells
 * runs of one label apart; the run's line says the rest.
 */
static void make_label(struct cmp_input *c)
{
	const char *base = strrchr(c->file, '/');

	base = base ? base + 1 : c->file;
	if (c->run->comment[0])
		snprintf(c->label, sizeof(c->label), "%s", c->run->comment);
	else if (c->run->kernel[0])
		snprintf(c->label, sizeof(c->label), "%s", c->run->kernel);
	else
		snprintf(c->label, sizeof(c->label), "%s", base);
	if (c->run->variant[0]) {
		size_t n = strlen(c->label);

		snprintf(c->label + n, sizeof(c->label) - n, " %s%s%s%s", c->run->variant,
			 c->run->variant_state[0] ? " (" : "", c->run->variant_state,
			 c->run->variant_state[0] ? ")" : "");
	}
	for (char *p = c->label; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
}

static bool label_dup(const struct cmp_input *in, int n, int i)
{
	for (int j = 0; j < n; j++)
		if (i != j && !strcmp(in[i].label, in[j].label))
			return true;
	return false;
}

/* ", -t 2 -L 1": the run keys in which run i differs from a run of the same label. */
static void key_suffix(char *buf, size_t len, const struct cmp_input *in, int n, int i)
{
	unsigned differ = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (int j = 0; j < n; j++) {
		if (j == i || strcmp(in[i].label, in[j].label))
			continue;
		for (int k = 0; k < RK_COUNT; k++)
			if (strcmp(in[i].run->key[k], in[j].run->key[k]))
				differ |= 1u << k;
	}
	for (int k = 0; k < RK_COUNT && used < len; k++)
		if (differ & (1u << k))
			used += (size_t)snprintf(buf + used, len - used, "%s%s %s",
						 used ? " " : ", ", run_keys[k].flag,
						 in[i].run->key[k][0] ? in[i].run->key[k] :
						 run_keys[k].type == KT_TEXT ? "none" : "?");
}

/* Runs of one comment from different kernels: the kernel first ("6.18.44 before"). */
static void kernel_prefix(struct cmp_input *in, int n)
{
	bool add[MAX_COMPARE] = { false };

	for (int i = 0; i < n && i < MAX_COMPARE; i++)
		for (int j = 0; j < n; j++)
			if (j != i && !strcmp(in[i].label, in[j].label) &&
			    strcmp(in[i].run->kernel, in[j].run->kernel) && in[i].run->kernel[0] &&
			    strcmp(in[i].label, in[i].run->kernel))
				add[i] = true;
	for (int i = 0; i < n && i < MAX_COMPARE; i++) {
		char label[sizeof(in[i].label)];

		if (!add[i])
			continue;
		/* a kernel release (127 bytes at most) and as much of the label as fits */
		snprintf(label, sizeof(label), "%.127s %.*s", in[i].run->kernel,
			 (int)sizeof(label) - 129, in[i].label);
		memcpy(in[i].label, label, sizeof(label));
	}
}

/*
 * Two columns that would read the same say what sets them apart: the run
 * keys (-t, -L, ...) and the scheduling knobs they differ in, else which
 * file they come from.
 */
static void disambiguate(struct cmp_input *in, int n)
{
	char what[MAX_COMPARE][200], keys[MAX_COMPARE][128];

	kernel_prefix(in, n);
	for (int i = 0; i < n && i < MAX_COMPARE; i++) {
		knobs_differing(in, n, i, true, what[i], sizeof(what[i]));
		key_suffix(keys[i], sizeof(keys[i]), in, n, i);
	}
	for (int i = 0; i < n && i < MAX_COMPARE; i++) {
		size_t len = strlen(in[i].label);

		snprintf(in[i].label + len, sizeof(in[i].label) - len, "%s", keys[i]);
		len = strlen(in[i].label);
		if (what[i][0])
			snprintf(in[i].label + len, sizeof(in[i].label) - len, " (%s)", what[i]);
	}
	for (int i = 0; i < n; i++) {
		if (label_dup(in, n, i)) {
			const char *base = strrchr(in[i].file, '/');
			size_t len = strlen(in[i].label);

			snprintf(in[i].label + len, sizeof(in[i].label) - len, " (%s)",
				 base ? base + 1 : in[i].file);
		}
	}
}

/* Does item name run i (0-based) of the file order: its index, a range, a date, a comment? */
static bool item_names(const char *item, const struct cmp_input *c, int i)
{
	char date[40];
	int lo, hi, end = 0;

	if (sscanf(item, "%d-%d%n", &lo, &hi, &end) == 2 && !item[end])
		return i + 1 >= lo && i + 1 <= hi;
	if (sscanf(item, "%d%n", &lo, &end) == 1 && !item[end])
		return i + 1 == lo;
	pretty_date(date, sizeof(date), c->run->date);
	if (strlen(item) >= 10 && item[4] == '-' && item[7] == '-' &&
	    !strncmp(date, item, strlen(item)))
		return true;
	return !strcmp(item, c->run->comment);
}

/*
 * --runs LIST: the runs picked, into pick[], in the list's order, each
 * once; LIST's items, apart by commas, are an index of the runs' order
 * ("3", "2-4"), a date ("2026-12-02", "2026-12-02 14:05") or a comment.
 * An item that picks no run is an error. Returns how many, -1 on error.
 */
int cmp_select(const struct cmp_input *in, int n, const char *list, int *pick, int max,
	       char *err, size_t errlen)
{
	char buf[1024], *save = NULL;
	bool *taken = calloc((size_t)n + 1, sizeof(*taken));
	int np = 0;

	if (!taken)
		return set_err(err, errlen, "out of memory");
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		bool any = false;

		for (int i = 0; i < n; i++) {
			if (!item_names(item, &in[i], i))
				continue;
			any = true;
			if (taken[i])
				continue;
			if (np == max) {
				free(taken);
				return set_err(err, errlen, "--runs %s picks over %d runs; at most "
					       "%d can be compared", list, max, max);
			}
			taken[i] = true;
			pick[np++] = i;
		}
		if (!any) {
			free(taken);
			return set_err(err, errlen, "--runs: '%s' is no run's index (1-%d), date "
				       "(YYYY-MM-DD[ HH:MM]) or comment", item, n);
		}
	}
	free(taken);
	if (!np)
		return set_err(err, errlen, "--runs: no run picked");
	return np;
}

/*
 * The plot of a comparison: a dash pattern per run, every run's label in
 * the subtitle, and the verdicts the text gives under its tables.
 */
static int compare_plot(const char *path, const struct cmp_input *in, const struct cmp_matrix *m)
{
	char title[400], subtitle[400] = "";
	struct verdict_table vt;
	struct plot_spec spec = { .title = title, .subtitle = subtitle, .in = in, .m = m,
				  .run_legend = true, .vt = &vt };
	int ret;

	snprintf(title, sizeof(title), "interbench: %s of %d run%s compared",
		 cmp_latency_name(in, m->nruns), m->nruns, m->nruns == 1 ? "" : "s");
	for (int r = 0; r < m->nruns && r < MAX_COMPARE; r++) {
		size_t len = strlen(subtitle);
		int n = snprintf(subtitle + len, sizeof(subtitle) - len, "%s[%d] ", r ? "; " : "",
				 r + 1);

		if (n < 0 || len + (size_t)n >= sizeof(subtitle) - 1)
			break;
		len += (size_t)n;	/* the label, cut to what is left */
		snprintf(subtitle + len, sizeof(subtitle) - len, "%.*s",
			 (int)(sizeof(subtitle) - len - 1), in[r].label);
	}
	if (compare_verdicts(in, m->nruns, &vt)) {
		verdicts_free(&vt);
		return -ENOMEM;
	}
	ret = plot_results(path, &spec);
	verdicts_free(&vt);
	return ret;
}

/* --runs: in[] cut to the runs it picks, in its order; an error said. */
static int pick_runs(struct cmp_input *in, int *n, const char *list)
{
	int pick[MAX_COMPARE], np;
	struct cmp_input kept[MAX_COMPARE];
	char err[512];

	np = cmp_select(in, *n, list, pick, MAX_COMPARE, err, sizeof(err));
	if (np < 0) {
		error("%s", err);
		return -1;
	}
	for (int i = 0; i < np; i++)
		kept[i] = in[pick[i]];
	memcpy(in, kept, (size_t)np * sizeof(*in));
	*n = np;
	return 0;
}

int compare_main(const struct config *cfg)
{
	struct result_file files[MAX_COMPARE];
	struct cmp_input *in = NULL;
	static struct cmp_matrix m;
	char err[512];
	int nin = 0, cap = 0, ret = 0, nfiles = 0;

	if (cfg->plot_path && !strcmp(cfg->plot_path, "-")) {
		error("--plot: needs a file name, not -");
		return 2;
	}
	for (int i = 0; i < cfg->ncompare; i++, nfiles++) {
		ret = results_read(cfg->compare[i], &files[i], err, sizeof(err));
		if (ret) {
			error("%s: %s", cfg->compare[i], err);
			ret = ret == -EINVAL ? 2 : 1;	/* the file named, or the machine */
			goto out;
		}
		for (int r = 0; r < files[i].nruns; r++) {
			if (nin == cap) {
				int ncap = cap ? cap * 2 : 8;
				struct cmp_input *p = realloc(in, (size_t)ncap * sizeof(*p));

				if (!p) {
					error("out of memory");
					ret = 1;
					nfiles++;
					goto out;
				}
				in = p;
				cap = ncap;
			}
			in[nin++] = (struct cmp_input){ .run = &files[i].runs[r],
							.file = cfg->compare[i] };
		}
	}
	if (cfg->compare_runs && pick_runs(in, &nin, cfg->compare_runs)) {
		ret = 2;
		goto out;
	}
	for (int i = 0; i < nin; i++)
		make_label(&in[i]);
	disambiguate(in, nin);
	ret = cmp_build(in, nin, &m, err, sizeof(err));
	if (ret) {
		error("%s", err);
		ret = ret == -EINVAL ? 2 : 1;	/* what the files hold, or the machine */
		goto out;
	}
	cmp_print(stdout, in, &m);
	fflush(stdout);
	if (cfg->plot_path) {
		int pr = compare_plot(cfg->plot_path, in, &m);

		if (pr) {
			error("--plot %s: %s", cfg->plot_path, strerror(-pr));
			ret = 1;
		}
	}
	cmp_matrix_free(&m);
out:
	for (int i = 0; i < nfiles; i++)
		results_free(&files[i]);
	free(in);
	return ret;
}
