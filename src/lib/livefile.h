/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib/livefile.h - a file grown version by version that is complete whenever it is read, even
 * after a SIGKILL, at a cost per version that does not grow with the file. */
#ifndef LIB_LIVEFILE_H
#define LIB_LIVEFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/sbuf.h"

/* Bytes going into one of a live file's two files at an offset, or to a stream in order. */
struct livefile_writer {
	int fd;
	bool stream;			/* stdout: in order, no offsets */
	long long at;			/* where the next byte goes */
	struct sbuf sb;			/* built, not yet written */
	int err;			/* the first error, -errno */
};
void livefile_flush(struct livefile_writer *w, size_t above);	/* once sb holds more */

/*
 * A version as a format writes it. body: from w->at, what the file being
 * written (the live file's fd[k]) lacks of the new version but its tail;
 * at 0 the file holds nothing yet (a new file, or a stream: k is -1 then).
 * Errors go into w->err. tail: what closes the version, written over by
 * the next one's body.
 */
struct livefile_version {
	void (*body)(void *arg, struct livefile_writer *w, int k);
	void (*tail)(void *arg, struct sbuf *sb);
	void *arg;
};

/* The two files that hold a live file, the one at path and its shadow (livefile.c says how). */
struct livefile {
	const char *opt;		/* "--json": what its warning names */
	const char *path;
	char shadow[PATH_MAX];		/* the other file's name, beside path; "" when none */
	int fd[2];			/* fd[cur] is the file at path, the other the shadow */
	long long tail[2];		/* where each one's tail begins */
	int cur;
	bool whole;			/* no RENAME_EXCHANGE here: each version a new file */
	bool placed;			/* path names a version of ours */
};

void livefile_init(struct livefile *f, const char *opt, const char *path);
/* The first version at path and in its shadow; 0, or -errno with both closed (path may stay). */
int livefile_begin(struct livefile *f, const struct livefile_version *v);
/* The next version: the shadow caught up, then put at path; -errno: path as it was. */
int livefile_next(struct livefile *f, const struct livefile_version *v);
/* A version written whole into a new file renamed over path: one whose head has changed. */
int livefile_replace(struct livefile *f, const struct livefile_version *v);
int livefile_stream(int fd, const struct livefile_version *v);	/* whole, in order */
void livefile_close(struct livefile *f);	/* the fds closed, the shadow removed */

#endif
