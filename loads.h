/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loads.h - what the load families (load_*.c, hackbench.c) share with the registry in loads.c. */
#ifndef LOADS_H
#define LOADS_H

#include <pthread.h>

#include "interbench.h"

/* The loads, one function each, named in the registry (loads.c). */
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

int set_reason(char *reason, size_t len, const char *call, int err);
void *burn_thread(void *arg);
int spawn_threads(struct load_ctx *ctx, pthread_t *t, int n, void *(*fn)(void *));
void join_threads(pthread_t *t, int n);

/* Which of the Read and Write files (WL_READ_FILE, WL_WRITE_FILE) the selected loads use. */
unsigned load_files_needed(uint32_t loads);

#endif
