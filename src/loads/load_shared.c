// SPDX-License-Identifier: GPL-2.0-or-later
/* loads/load_shared.c - what the load families share: the stop flag, a failure's reason, threads,
 * the burner. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "loads/load_shared.h"

bool load_stopping(struct load_ctx *ctx)
{
	return atomic_load_explicit(&ctx->stop, memory_order_relaxed);
}

/* reason = "call: error"; returns -err, for one-line failure exits. */
int set_reason(char *reason, size_t len, const char *call, int err)
{
	snprintf(reason, len, "%s: %s", call, strerror(err));
	return -err;
}

#define BURN_SLICE_LOOPS (1u << 20)	/* without loops_per_ms: well under 1 ms on any CPU */

void *burn_thread(void *arg)
{
	struct load_ctx *ctx = arg;
	uint64_t slice = ctx->par.loops_per_ms ? ctx->par.loops_per_ms : BURN_SLICE_LOOPS;
	uint64_t t0 = thread_cpu_ns(), t;

	while (!load_stopping(ctx)) {
		burn_loops(slice);
		t = thread_cpu_ns();	/* a clock read a slice: the CPU side counted as it runs */
		atomic_fetch_add_explicit(&ctx->ctr->side_ns, t - t0, memory_order_relaxed);
		t0 = t;
	}
	return NULL;
}

/* Start n copies of fn(ctx); returns how many started, reason set on failure. */
int spawn_threads(struct load_ctx *ctx, pthread_t *t, int n, void *(*fn)(void *))
{
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = pthread_create(&t[i], NULL, fn, ctx);
		if (ret) {
			snprintf(ctx->reason, sizeof(ctx->reason),
				 "pthread_create: %s", strerror(ret));
			break;
		}
	}
	return i;
}

void join_threads(pthread_t *t, int n)
{
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}
