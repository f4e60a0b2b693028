// SPDX-License-Identifier: GPL-2.0-or-later
/* task/rtapp_locks.c - what an rt-app file's threads do with their mutexes: each phase's
 * locks and unlocks in order, and a cycle in the order threads take them (a deadlock). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "task/rtapp_parts.h"

#define MAX_HELD 16			/* mutexes a phase holds at once */
#define MAX_EDGES (1u << 20)		/* "holds A, takes B" pairs in a file */

struct held {
	int mutex[MAX_HELD];
	int line[MAX_HELD];
	size_t n;
};

static int held_at(const struct held *h, int mutex)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->mutex[i] == mutex)
			return (int)i;
	return -1;
}

static void drop(struct held *h, int i)
{
	memmove(&h->mutex[i], &h->mutex[i + 1], (h->n - (size_t)i - 1) * sizeof(h->mutex[0]));
	memmove(&h->line[i], &h->line[i + 1], (h->n - (size_t)i - 1) * sizeof(h->line[0]));
	h->n--;
}

/* Where messages about a phase's event point. */
struct place {
	const struct rtapp_file *f;
	char where[RTAPP_WHERE_LEN];
	char *err;
	size_t errlen;
};

static const char *res_name(const struct rtapp_file *f, int r)
{
	return f->res[r].name;
}

static int take(struct place *pl, struct held *h, const struct rtapp_event *ev)
{
	const char *name = res_name(pl->f, ev->res);
	int at = held_at(h, ev->res);

	if (at >= 0)
		return rtapp_fail(pl->f->path, pl->err, pl->errlen, ev->line, pl->where,
				  "'%s' of mutex '%s' it already holds (locked at line %d): it "
				  "would wait for itself", ev->key, name, h->line[at]);
	if (h->n == MAX_HELD)
		return rtapp_fail(pl->f->path, pl->err, pl->errlen, ev->line, pl->where,
				  "'%s' of mutex '%s': more than %d mutexes held at once",
				  ev->key, name, MAX_HELD);
	h->mutex[h->n] = ev->res;
	h->line[h->n++] = ev->line;
	return 0;
}

static int release(struct place *pl, struct held *h, const struct rtapp_event *ev)
{
	int at = held_at(h, ev->res);

	if (at < 0)
		return rtapp_fail(pl->f->path, pl->err, pl->errlen, ev->line, pl->where,
				  "'%s' of mutex '%s' it does not hold", ev->key,
				  res_name(pl->f, ev->res));
	drop(h, at);
	return 0;
}

/* One event's effect on the mutexes held; -1 (err set) for what cannot work. */
static int step(struct place *pl, struct held *h, const struct rtapp_event *ev)
{
	const struct rtapp_file *f = pl->f;

	switch (ev->kind) {
	case RTAPP_LOCK:
		return take(pl, h, ev);
	case RTAPP_UNLOCK:
		return release(pl, h, ev);
	case RTAPP_WAIT:
	case RTAPP_SYNC:
		if (held_at(h, ev->mutex) >= 0)
			return 0;
		return rtapp_fail(f->path, pl->err, pl->errlen, ev->line, pl->where,
				  "'%s' on '%s' without holding its mutex '%s': lock it first",
				  ev->key, res_name(f, ev->res), res_name(f, ev->mutex));
	case RTAPP_SUSPEND:
	case RTAPP_RESUME:
		if (held_at(h, ev->mutex) < 0)
			return 0;
		return rtapp_fail(f->path, pl->err, pl->errlen, ev->line, pl->where,
				  "'%s' of '%s' while holding mutex '%s', which it takes itself: "
				  "it would wait for itself", ev->key, res_name(f, ev->res),
				  res_name(f, ev->mutex));
	default:
		return 0;
	}
}

static int phase_locks(struct place *pl, const struct rtapp_phase *p)
{
	struct held h = { .n = 0 };

	for (size_t e = 0; e < p->nevents; e++)
		if (step(pl, &h, &p->events[e]))
			return -1;
	if (!h.n)
		return 0;
	return rtapp_fail(pl->f->path, pl->err, pl->errlen, h.line[0], pl->where,
			  "phase '%s' ends holding mutex '%s', locked here: it must unlock it "
			  "before it ends", p->name, res_name(pl->f, h.mutex[0]));
}

int rtapp_check_locks(const struct rtapp_file *f, char *err, size_t errlen)
{
	struct place pl = { .f = f, .err = err, .errlen = errlen };

	for (size_t t = 0; t < f->nthreads; t++) {
		const struct rtapp_thread *th = &f->threads[t];

		for (size_t p = 0; p < th->nphases; p++) {
			rtapp_where(th, &th->phases[p], pl.where, sizeof(pl.where));
			if (phase_locks(&pl, &th->phases[p]))
				return -1;
		}
	}
	return 0;
}

/* "A thread held from and then took to": an edge of the lock-order graph. */
struct edge {
	int from, to;
	int thread, phase, line;
};

/* The graph of every edge, indexed both ways, and its strongly connected components. */
struct graph {
	struct edge *edge;
	size_t nedges, cap;
	size_t nv;			/* the file's resources: mutexes are some of them */
	size_t *out_start, *out;	/* edges leaving v: out[out_start[v] .. out_start[v+1]) */
	size_t *in_start, *in;
	int *comp;			/* each vertex's component; -1 while unvisited */
	size_t *order, *stack, *pos;	/* the searches' work */
};

static void graph_free(struct graph *g)
{
	free(g->edge);
	free(g->out_start);
	free(g->out);
	free(g->in_start);
	free(g->in);
	free(g->comp);
	free(g->order);
	free(g->stack);
	free(g->pos);
}

static int add_edge(struct graph *g, const struct edge *e)
{
	if (g->nedges == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 64;
		struct edge *edge;

		if (cap > MAX_EDGES)
			return -1;
		edge = realloc(g->edge, cap * sizeof(*edge));
		if (!edge)
			return -1;
		g->edge = edge;
		g->cap = cap;
	}
	g->edge[g->nedges++] = *e;
	return 0;
}

/* The edges of one phase: each mutex taken (or taken back after a wait) while others are held. */
static int phase_edges(struct graph *g, const struct rtapp_phase *p, int t, int ph)
{
	struct held h = { .n = 0 };

	for (size_t i = 0; i < p->nevents; i++) {
		const struct rtapp_event *ev = &p->events[i];
		int to = ev->kind == RTAPP_LOCK ? ev->res : ev->kind == RTAPP_UNLOCK ? -1 : ev->mutex;

		for (size_t k = 0; to >= 0 && k < h.n; k++) {
			struct edge e = { h.mutex[k], to, t, ph, ev->line };

			if (h.mutex[k] != to && add_edge(g, &e))
				return -1;
		}
		if (ev->kind == RTAPP_LOCK && h.n < MAX_HELD)
			h.mutex[h.n++] = ev->res;
		else if (ev->kind == RTAPP_UNLOCK && held_at(&h, ev->res) >= 0)
			drop(&h, held_at(&h, ev->res));
	}
	return 0;
}

/* Edges indexed by the vertex they leave (or, reversed, enter): counts, then offsets. */
static int index_edges(const struct graph *g, bool reversed, size_t **start, size_t **list)
{
	size_t *fill;

	*start = calloc(g->nv + 1, sizeof(**start));
	*list = malloc((g->nedges + 1) * sizeof(**list));
	fill = calloc(g->nv + 1, sizeof(*fill));
	if (!*start || !*list || !fill) {
		free(fill);
		return -1;
	}
	for (size_t e = 0; e < g->nedges; e++)
		(*start)[(reversed ? g->edge[e].to : g->edge[e].from) + 1]++;
	for (size_t v = 0; v < g->nv; v++)
		(*start)[v + 1] += (*start)[v];
	for (size_t e = 0; e < g->nedges; e++) {
		size_t v = (size_t)(reversed ? g->edge[e].to : g->edge[e].from);

		(*list)[(*start)[v] + fill[v]++] = e;
	}
	free(fill);
	return 0;
}

static int build_graph(struct graph *g, const struct rtapp_file *f)
{
	g->nv = f->nres;
	for (size_t t = 0; t < f->nthreads; t++)
		for (size_t p = 0; p < f->threads[t].nphases; p++)
			if (phase_edges(g, &f->threads[t].phases[p], (int)t, (int)p))
				return -1;
	g->comp = malloc((g->nv + 1) * sizeof(*g->comp));
	g->order = malloc((g->nv + 1) * sizeof(*g->order));
	g->stack = malloc((g->nv + 1) * sizeof(*g->stack));
	g->pos = malloc((g->nv + 1) * sizeof(*g->pos));
	if (!g->comp || !g->order || !g->stack || !g->pos)
		return -1;
	return index_edges(g, false, &g->out_start, &g->out) ||
	       index_edges(g, true, &g->in_start, &g->in) ? -1 : 0;
}

/* Kosaraju's first search, without recursion: the vertices in the order they finish. */
static void finish_order(struct graph *g)
{
	size_t norder = 0;

	for (size_t v = 0; v < g->nv; v++)
		g->comp[v] = -1;
	for (size_t root = 0; root < g->nv; root++) {
		size_t depth = 0;

		if (g->comp[root] != -1)
			continue;
		g->comp[root] = -2;
		g->stack[depth] = root;
		g->pos[depth++] = g->out_start[root];
		while (depth) {
			size_t u = g->stack[depth - 1], w;

			if (g->pos[depth - 1] == g->out_start[u + 1]) {
				g->order[norder++] = u;
				depth--;
				continue;
			}
			w = (size_t)g->edge[g->out[g->pos[depth - 1]++]].to;
			if (g->comp[w] == -1) {
				g->comp[w] = -2;
				g->stack[depth] = w;
				g->pos[depth++] = g->out_start[w];
			}
		}
	}
}

/* The second search, on the reversed edges in reverse finishing order: one component each. */
static void components(struct graph *g)
{
	int ncomp = 0;

	finish_order(g);
	for (size_t v = 0; v < g->nv; v++)
		g->comp[v] = -1;
	for (size_t i = g->nv; i-- > 0;) {
		size_t root = g->order[i], depth = 0;

		if (g->comp[root] != -1)
			continue;
		g->comp[root] = ncomp;
		g->stack[depth++] = root;
		while (depth) {
			size_t u = g->stack[--depth];

			for (size_t k = g->in_start[u]; k < g->in_start[u + 1]; k++) {
				size_t w = (size_t)g->edge[g->in[k]].from;

				if (g->comp[w] == -1) {
					g->comp[w] = ncomp;
					g->stack[depth++] = w;
				}
			}
		}
		ncomp++;
	}
}

/*
 * Edges from a to b within a's component, appended to walk (breadth first,
 * so the shortest); the component is strongly connected, so there is a path.
 * g->pos holds each vertex's edge from its parent, g->stack the queue.
 */
static size_t path(struct graph *g, size_t a, size_t b, size_t *walk, size_t n)
{
	size_t head = 0, tail = 0, len = 0, v;

	for (size_t i = 0; i < g->nv; i++)
		g->pos[i] = SIZE_MAX;
	g->stack[tail++] = a;
	while (head < tail && a != b && g->pos[b] == SIZE_MAX) {
		size_t u = g->stack[head++];

		for (size_t k = g->out_start[u]; k < g->out_start[u + 1]; k++) {
			size_t w = (size_t)g->edge[g->out[k]].to;

			if (w != a && g->pos[w] == SIZE_MAX && g->comp[w] == g->comp[a]) {
				g->pos[w] = g->out[k];
				g->stack[tail++] = w;
			}
		}
	}
	for (v = b; v != a && g->pos[v] != SIZE_MAX; v = (size_t)g->edge[g->pos[v]].from)
		len++;
	for (size_t i = len, w = b; i-- > 0; w = (size_t)g->edge[g->pos[w]].from)
		walk[n + i] = g->pos[w];
	return n + len;
}

static void say_walk(const struct rtapp_file *f, const struct graph *g, const size_t *walk,
		     size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		const struct edge *e = &g->edge[walk[i]];
		const struct rtapp_thread *t = &f->threads[e->thread];
		char where[RTAPP_WHERE_LEN];
		int got;

		rtapp_where(t, &t->phases[e->phase], where, sizeof(where));
		got = snprintf(buf + used, len - used, "%s%s holds '%s' and takes '%s' (line %d)",
			       i ? ", " : "", where, res_name(f, e->from), res_name(f, e->to),
			       e->line);
		used += got > 0 ? (size_t)got : 0;
	}
}

/* A closed walk through edge e, and through edge k too unless k is SIZE_MAX. */
static size_t cycle_walk(struct graph *g, size_t e, size_t k, size_t *walk)
{
	const struct edge *a = &g->edge[e];
	size_t n = 0;

	walk[n++] = e;
	if (k == SIZE_MAX)
		return path(g, (size_t)a->to, (size_t)a->from, walk, n);
	n = path(g, (size_t)a->to, (size_t)g->edge[k].from, walk, n);
	walk[n++] = k;
	return path(g, (size_t)g->edge[k].to, (size_t)a->from, walk, n);
}

/* The walk of the first cycle two threads (or two instances) can take; 0: none. */
static size_t deadlock_walk(struct graph *g, const struct rtapp_file *f, size_t *walk)
{
	size_t *first = g->order;	/* free now: each component's first edge on a cycle */

	for (size_t c = 0; c < g->nv; c++)
		first[c] = SIZE_MAX;
	for (size_t e = 0; e < g->nedges; e++) {
		const struct edge *a = &g->edge[e];
		size_t c = (size_t)g->comp[a->from];

		if (g->comp[a->to] != g->comp[a->from])
			continue;
		if (f->threads[a->thread].instances > 1)
			return cycle_walk(g, e, SIZE_MAX, walk);
		if (first[c] == SIZE_MAX)
			first[c] = e;
		else if (g->edge[first[c]].thread != a->thread)
			return cycle_walk(g, first[c], e, walk);
	}
	return 0;
}

static int find_deadlock(struct graph *g, const struct rtapp_file *f, char *err, size_t errlen)
{
	size_t *walk = malloc((2 * g->nv + 2) * sizeof(*walk)), n;
	const struct rtapp_thread *t;
	const struct edge *first;
	char steps[1024], where[RTAPP_WHERE_LEN];

	if (!walk)
		return set_err(err, errlen, "%s: out of memory", f->path);
	n = deadlock_walk(g, f, walk);
	if (!n) {
		free(walk);
		return 0;
	}
	first = &g->edge[walk[0]];
	t = &f->threads[first->thread];
	say_walk(f, g, walk, n, steps, sizeof(steps));
	rtapp_where(t, &t->phases[first->phase], where, sizeof(where));
	free(walk);
	return rtapp_fail(f->path, err, errlen, first->line, where, "threads take mutexes in an "
			  "order that can deadlock: %s", steps);
}

/*
 * A cycle in the graph of "held A, then took B" is a deadlock waiting to
 * happen, unless all of its edges belong to one thread that runs alone: a
 * component whose edges come from two threads (or one with instances) has a
 * closed walk through both, and that walk is what the message tells.
 */
int rtapp_check_lock_order(const struct rtapp_file *f, char *err, size_t errlen)
{
	struct graph g = { 0 };
	int ret;

	if (build_graph(&g, f)) {
		graph_free(&g);
		return set_err(err, errlen, "%s: too many mutexes held in turn to check (or "
			       "out of memory)", f->path);
	}
	components(&g);
	ret = find_deadlock(&g, f, err, errlen);
	graph_free(&g);
	return ret;
}
