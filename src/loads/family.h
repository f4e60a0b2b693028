/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loads/family.h - what the load families (load_*.c, hackbench.c) share, and name to the
 * registry. */
#ifndef LOADS_FAMILY_H
#define LOADS_FAMILY_H

#include <pthread.h>

#include "lib/util.h"
#include "loads/loads.h"

/* The loads, one function each, named in the registry (registry.c). */
int load_none(struct load_ctx *ctx);		/* load_cpu.c */
int load_burn(struct load_ctx *ctx);
int load_sim(struct load_ctx *ctx);		/* Video, X and Custom */
int load_ring(struct load_ctx *ctx);
int load_write(struct load_ctx *ctx);		/* load_io.c */
int load_read(struct load_ctx *ctx);
int load_compile(struct load_ctx *ctx);
int load_memload(struct load_ctx *ctx);		/* load_mem.c */
int load_net(struct load_ctx *ctx);		/* load_net.c */
int load_hack(struct load_ctx *ctx);		/* hackbench.c */

/* What the families share. */
static inline unsigned long long to_mib(uint64_t bytes)
{
	return (unsigned long long)(bytes / MIB);
}

bool load_stopping(struct load_ctx *ctx);
int set_reason(char *reason, size_t len, const char *call, int err);
void *burn_thread(void *arg);
int spawn_threads(struct load_ctx *ctx, pthread_t *t, int n, void *(*fn)(void *));
void join_threads(pthread_t *t, int n);

#endif
