// SPDX-License-Identifier: GPL-2.0-or-later
/* loads/load_cpu.c - the loads that keep CPUs busy: None, Burn, Ring, and the simulation as a
 * load. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loads/load_shared.h"

/* Sleep in short slices so a stop request is seen within 10 ms. */
int load_none(struct load_ctx *ctx)
{
	while (!load_stopping(ctx))
		sleep_ns(10 * NSEC_PER_MSEC);
	return 0;
}

/* ---- Burn: -L threads spinning the loop ---- */

int load_burn(struct load_ctx *ctx)
{
	int n = ctx->par.cpu_load, started;
	pthread_t *t = calloc((size_t)n, sizeof(*t));

	if (!t) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory for %d threads", n);
		return -ENOMEM;
	}
	started = spawn_threads(ctx, t, n, burn_thread);
	join_threads(t, started);
	free(t);
	return started == n ? 0 : -EAGAIN;
}

/* ---- Video, X and Custom as loads: the simulation, unmeasured ---- */

int load_sim(struct load_ctx *ctx)
{
	int ret;

	ret = sim_run(&ctx->par.sim, 0, &ctx->stop, NULL, &ctx->ctr->sim);
	if (ret)
		snprintf(ctx->reason, sizeof(ctx->reason), "%s load: %s", ctx->name,
			 strerror(-ret));
	return ret;
}

/* ---- Ring: a token passed around max(2, L) threads ---- */

struct ring_member {
	struct load_ctx *ctx;
	int in, out;			/* pipe ends: from the previous, to the next */
};

static void *ring_thread(void *arg)
{
	struct ring_member *m = arg;
	char token;

	while (!load_stopping(m->ctx)) {
		ssize_t r = read(m->in, &token, 1);

		if (r < 0 && errno == EINTR)
			continue;	/* the stop's kick, or a stray signal */
		if (r != 1)
			break;
		if (write(m->out, &token, 1) == 1)
			atomic_fetch_add(&m->ctx->ctr->units, 1);
	}
	return NULL;
}

/* Every pass of the token is a wakeup and a context switch. Units: passes. */
int load_ring(struct load_ctx *ctx)
{
	int n = ctx->par.cpu_load > 2 ? ctx->par.cpu_load : 2, npipes = 0, started = 0, ret = 0;
	struct ring_member *m = calloc((size_t)n, sizeof(*m));
	pthread_t *t = calloc((size_t)n, sizeof(*t));
	int (*p)[2] = calloc((size_t)n, sizeof(*p));

	if (!m || !t || !p) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory for a ring of %d", n);
		ret = -ENOMEM;
		goto out;
	}
	for (; npipes < n; npipes++) {
		if (pipe2(p[npipes], O_CLOEXEC) < 0) {
			ret = set_reason(ctx->reason, sizeof(ctx->reason), "pipe", errno);
			goto out;
		}
	}
	for (int i = 0; i < n; i++)
		m[i] = (struct ring_member){ .ctx = ctx, .in = p[i][0], .out = p[(i + 1) % n][1] };
	for (; started < n; started++) {
		ret = pthread_create(&t[started], NULL, ring_thread, &m[started]);
		if (ret) {
			ret = set_reason(ctx->reason, sizeof(ctx->reason), "pthread_create", ret);
			atomic_store(&ctx->stop, 1);
			break;
		}
	}
	if (!ret && write(p[0][1], "T", 1) != 1) {
		ret = set_reason(ctx->reason, sizeof(ctx->reason), "write to the ring", errno);
		atomic_store(&ctx->stop, 1);
	}
	join_threads(t, started);
out:
	for (int i = 0; p && i < npipes; i++)
		close(p[i][0]), close(p[i][1]);
	free(p);
	free(t);
	free(m);
	return ret;
}
