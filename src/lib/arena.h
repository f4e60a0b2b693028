/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib/arena.h - a bump allocator with a ceiling: a parsed tree or model is freed in one call. */
#ifndef LIB_ARENA_H
#define LIB_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;	/* the block being filled; older ones behind it */
	size_t used;			/* bytes of every block malloc() gave */
	size_t limit;			/* used never passes it: a hostile input runs out here */
};

void arena_init(struct arena *a, size_t limit);
void *arena_alloc(struct arena *a, size_t size);	/* zeroed; NULL: out of memory or limit */
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);

#endif
