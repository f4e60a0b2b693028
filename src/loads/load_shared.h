/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loads/load_shared.h - what the load families (load_*.c) share. */
#ifndef LOADS_LOAD_SHARED_H
#define LOADS_LOAD_SHARED_H

#include <pthread.h>

#include "lib/util.h"
#include "loads/loads.h"

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
