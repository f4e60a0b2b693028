// SPDX-License-Identifier: GPL-2.0-or-later
/* model/compare_matrix.c - a comparison's matrix: the runs' results grouped into a table per
 * benchmark, a cell per load and run. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib/util.h"
#include "model/compare_matrix.h"
#include "model/config.h"

struct obs_ref {
	const struct result *o;
	int key;		/* table * CMP_MAX_LOADS + load */
	int seq;		/* keeps qsort stable */
};

/* A table per benchmark, -r or not, and CPU count: counts are never pooled. */
static int find_table(const struct cmp_matrix *m, const struct result *o)
{
	for (int t = 0; t < m->ntables; t++)
		if (!strcmp(m->tables[t].bench, o->bench) && m->tables[t].realtime == o->realtime &&
		    m->tables[t].ncpus == o->ncpus && !strcmp(m->tables[t].group, o->group))
			return t;
	return -1;
}

static int find_load(const struct cmp_table *t, const char *load)
{
	for (int l = 0; l < t->nloads; l++)
		if (!strcmp(t->loads[l], load))
			return l;
	return -1;
}

static int cmp_tables_order(const void *pa, const void *pb)
{
	const struct cmp_table *a = pa, *b = pb;
	int ra = bench_rank(a->bench), rb = bench_rank(b->bench);

	if (ra != rb)
		return ra - rb;
	if (a->rtapp != b->rtapp)
		return (int)a->rtapp - (int)b->rtapp;
	if (a->rtapp && strcmp(a->group, b->group))
		return strcmp(a->group, b->group);
	if (a->rtapp)			/* a file's threads in its order */
		return a->seq - b->seq;
	if (strcmp(a->bench, b->bench))
		return strcmp(a->bench, b->bench);
	if (a->realtime != b->realtime)
		return (int)a->realtime - (int)b->realtime;
	if (a->ncpus != b->ncpus)
		return a->ncpus - b->ncpus;
	return strcmp(a->group, b->group);	/* alone before in a group */
}

/* Loads in our order; unknown names keep the order they were first seen in. */
static void sort_loads(struct cmp_table *t)
{
	for (int i = 1; i < t->nloads; i++) {
		char tmp[RES_NAME_LEN];
		int j = i;

		memcpy(tmp, t->loads[i], sizeof(tmp));
		while (j > 0 && load_rank(t->loads[j - 1]) > load_rank(tmp)) {
			memcpy(t->loads[j], t->loads[j - 1], sizeof(tmp));
			j--;
		}
		memcpy(t->loads[j], tmp, sizeof(tmp));
	}
}

static int cmp_refs(const void *pa, const void *pb)
{
	const struct obs_ref *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->seq - b->seq;
}

/* Every row of every run into its table, load and run; passes summarised. */
static int fill_cells(const struct cmp_input *in, int n, struct cmp_matrix *m, int r)
{
	const struct run_record *run = in[r].run;
	struct obs_ref *refs = malloc(((size_t)run->nres + 1) * sizeof(*refs));
	int i = 0;

	if (!refs)
		return -1;
	for (int k = 0; k < run->nres; k++) {
		const struct result *o = &run->res[k];
		int t = find_table(m, o);

		refs[k] = (struct obs_ref){
			.o = o,
			.key = t * CMP_MAX_LOADS + find_load(&m->tables[t], o->load),
			.seq = k,
		};
		m->tables[t].present[r] = true;
	}
	qsort(refs, (size_t)run->nres, sizeof(*refs), cmp_refs);
	while (i < run->nres) {
		int key = refs[i].key, cnt = 0;
		struct cmp_table *t = &m->tables[key / CMP_MAX_LOADS];
		struct cmp_cell *c = &t->cells[(key % CMP_MAX_LOADS) * n + r];

		c->res = malloc(((size_t)run->nres - (size_t)i) * sizeof(*c->res));
		if (!c->res) {
			free(refs);
			return -1;
		}
		while (i < run->nres && refs[i].key == key)
			c->res[cnt++] = refs[i++].o;
		c->nres = cnt;
		summarize_passes(c->res, cnt, &c->s);
	}
	free(refs);
	return 0;
}

int cmp_build(const struct cmp_input *in, int n, struct cmp_matrix *m, char *err,
	      size_t errlen)
{
	memset(m, 0, sizeof(*m));
	if (n < 1 || n > MAX_COMPARE) {
		snprintf(err, errlen, "%d runs to compare (each kernel and comment of a file is "
			 "one); 1 to %d can be: pick some with --runs", n, MAX_COMPARE);
		return -EINVAL;
	}
	m->nruns = n;
	for (int r = 0; r < n; r++) {
		for (int k = 0; k < in[r].run->nres; k++) {
			const struct result *o = &in[r].run->res[k];
			int t = find_table(m, o);
			struct cmp_table *tab;

			if (t < 0) {
				if (m->ntables == CMP_MAX_TABLES) {
					snprintf(err, errlen, "%s: more than %d benchmarks",
						 in[r].file, CMP_MAX_TABLES);
					return -EINVAL;
				}
				t = m->ntables++;
				snprintf(m->tables[t].bench, RES_NAME_LEN, "%s", o->bench);
				m->tables[t].realtime = o->realtime;
				m->tables[t].ncpus = o->ncpus;
				snprintf(m->tables[t].group, sizeof(m->tables[t].group), "%s",
					 o->group);
				m->tables[t].rtapp = o->rtapp;
				m->tables[t].seq = t;
			}
			tab = &m->tables[t];
			if (find_load(tab, o->load) >= 0)
				continue;
			if (tab->nloads == CMP_MAX_LOADS) {
				snprintf(err, errlen, "%s: more than %d loads for %s", in[r].file,
					 CMP_MAX_LOADS, o->bench);
				return -EINVAL;
			}
			snprintf(tab->loads[tab->nloads++], RES_NAME_LEN, "%s", o->load);
		}
	}
	qsort(m->tables, (size_t)m->ntables, sizeof(m->tables[0]), cmp_tables_order);
	for (int t = 0; t < m->ntables; t++) {
		struct cmp_table *tab = &m->tables[t];

		sort_loads(tab);
		tab->cells = calloc((size_t)tab->nloads * (size_t)n, sizeof(*tab->cells));
		tab->present = calloc((size_t)n, sizeof(*tab->present));
		if (!tab->cells || !tab->present)
			goto oom;
	}
	for (int r = 0; r < n; r++)
		if (fill_cells(in, n, m, r))
			goto oom;
	return 0;
oom:
	cmp_matrix_free(m);
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

void cmp_matrix_free(struct cmp_matrix *m)
{
	for (int t = 0; t < m->ntables; t++) {
		for (int c = 0; m->tables[t].cells && c < m->tables[t].nloads * m->nruns; c++)
			free(m->tables[t].cells[c].res);
		free(m->tables[t].cells);
		free(m->tables[t].present);
	}
	memset(m, 0, sizeof(*m));
}


/* What n runs' latency is called: theirs when they were woken alike, else plain "latency". */
const char *cmp_latency_name(const struct cmp_input *in, int n)
{
	for (int r = 1; r < n; r++)
		if (strcmp(in[r].run->key[RK_WAKE], in[0].run->key[RK_WAKE]))
			return "latency";
	return n ? run_latency_name(in[0].run) : "latency";
}
