// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/arena.c - the bump allocator: blocks of 64 KiB (or one as large as a big request),
 * every block's bytes counted against the ceiling. */
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/arena.h"

#define ARENA_BLOCK (64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t size, fill;		/* bytes of data[], and how many are handed out */
	alignas(max_align_t) unsigned char data[];
};

void arena_init(struct arena *a, size_t limit)
{
	a->head = NULL;
	a->used = 0;
	a->limit = limit;
}

/* A new block for size bytes at least, counted against the limit whole. */
static struct arena_block *arena_grow(struct arena *a, size_t size)
{
	size_t room = a->limit - a->used, want = size > ARENA_BLOCK ? size : ARENA_BLOCK;
	struct arena_block *b;

	if (want > room)
		want = room;
	if (want < size)
		return NULL;
	b = malloc(sizeof(*b) + want);
	if (!b)
		return NULL;
	a->used += want;
	b->next = a->head;
	b->size = want;
	b->fill = 0;
	a->head = b;
	return b;
}

void *arena_alloc(struct arena *a, size_t size)
{
	const size_t align = alignof(max_align_t);
	struct arena_block *b = a->head;
	size_t pad, start;

	if (size > a->limit)
		return NULL;
	pad = b ? (align - b->fill % align) % align : 0;
	if (!b || b->size - b->fill < size + pad) {
		b = arena_grow(a, size);
		if (!b)
			return NULL;
		pad = 0;
	}
	start = b->fill + pad;
	b->fill = start + size;
	return memset(b->data + start, 0, size);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = n < SIZE_MAX ? arena_alloc(a, n + 1) : NULL;

	if (p)
		memcpy(p, s, n);
	return p;
}

void arena_free(struct arena *a)
{
	while (a->head) {
		struct arena_block *b = a->head;

		a->head = b->next;
		free(b);
	}
	a->used = 0;
}
