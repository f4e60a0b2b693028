// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/livefile.c - the crash-safe writer of a file grown by versions: a shadow brought up to
 * date, then swapped in by one rename. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/livefile.h"
#include "lib/util.h"

/*
 * A live file is a head, what the run has added so far (rows, events) and
 * a tail that closes it. Two files hold it: the one named path, a complete
 * version, and its shadow beside it (".NAME.XXXXXX"), the version before.
 * For the next version the shadow is brought up to date where its tail
 * began (the format writes what it lacks: the row before's and the new
 * one's), then a new tail, the file cut there; then
 * renameat2(RENAME_EXCHANGE) swaps the two names in one step. So path
 * names one complete version or the next, never one being written,
 * whenever a SIGKILL comes. Writing over path's own tail would not do: a
 * SIGKILL may cut a write between two pages, and a reader may read while
 * it is made. A version costs two rows and a tail of writes, however long
 * the run.
 *
 * Where a filesystem cannot exchange two names (NFS, some FUSE ones),
 * every version is written into a new file renamed over path: never
 * half-written either, but a version then costs the whole file. A version
 * whose head has changed is written so too (livefile_replace()).
 */

/* Write what is built once it is more than above bytes (0: whatever there is). */
void livefile_flush(struct livefile_writer *w, size_t above)
{
	ssize_t n = 0;

	if (w->sb.len <= above && !w->sb.failed)
		return;
	if (w->sb.failed)
		n = -ENOMEM;
	else if (!w->err)
		n = w->stream ? write_full(w->fd, w->sb.buf, w->sb.len) :
		    pwrite_full(w->fd, w->sb.buf, w->sb.len, (off_t)w->at);
	if (n < 0 && !w->err)
		w->err = (int)n;
	if (!w->err)
		w->at += (long long)w->sb.len;
	w->sb.len = 0;
	w->sb.failed = false;
}

/* The body, then the tail; where the tail begins. */
static long long put_version(struct livefile_writer *w, const struct livefile_version *v, int k)
{
	long long tail_at;

	sb_init(&w->sb);
	v->body(v->arg, w, k);
	livefile_flush(w, 0);
	tail_at = w->at;
	v->tail(v->arg, &w->sb);
	livefile_flush(w, 0);
	sb_free(&w->sb);
	return tail_at;
}

/* File k brought up to the version from where its tail began, cut after the new tail. */
static int fill(struct livefile *f, int k, const struct livefile_version *v)
{
	struct livefile_writer w = { .fd = f->fd[k], .at = f->tail[k] };
	long long tail_at = put_version(&w, v, k);

	if (!w.err && ftruncate(w.fd, (off_t)w.at) < 0)
		w.err = -errno;
	if (!w.err)
		f->tail[k] = tail_at;
	return w.err;
}

/* File k closed and its name removed, if it is there. */
static void drop(struct livefile *f, int k)
{
	if (f->fd[k] >= 0)
		close(f->fd[k]);
	f->fd[k] = -1;
	if (f->shadow[0])
		unlink(f->shadow);
	f->shadow[0] = '\0';
}

/* A new, empty file k beside path, named shadow until it is put at path. */
static int fresh(struct livefile *f, int k)
{
	int fd = create_beside(f->path, f->shadow, sizeof(f->shadow));

	if (fd < 0) {
		f->shadow[0] = '\0';
		return fd;
	}
	f->fd[k] = fd;
	f->tail[k] = 0;
	return 0;
}

/* File k renamed over path; the file that was there closed. */
static int settle(struct livefile *f, int k)
{
	if (rename(f->shadow, f->path) < 0)
		return -errno;
	f->shadow[0] = '\0';
	if (f->fd[f->cur] >= 0)
		close(f->fd[f->cur]);
	f->fd[f->cur] = -1;
	f->cur = k;
	f->placed = true;
	return 0;
}

/* File k, brought up to date, swapped with path's; renamed over it where they cannot swap. */
static int swap(struct livefile *f, int k)
{
	if (!renameat2(AT_FDCWD, f->shadow, AT_FDCWD, f->path, RENAME_EXCHANGE)) {
		f->cur = k;
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	warn("%s %s: its filesystem cannot exchange two names (renameat2): the file is "
	     "written whole after every row", f->opt, f->path);
	f->whole = true;
	return settle(f, k);
}

void livefile_init(struct livefile *f, const char *opt, const char *path)
{
	*f = (struct livefile){ .opt = opt, .path = path, .fd = { -1, -1 } };
}

int livefile_begin(struct livefile *f, const struct livefile_version *v)
{
	int ret;

	f->cur = 1;			/* file 0 is the first put at path */
	ret = fresh(f, 0);
	if (!ret)
		ret = fill(f, 0, v);
	if (!ret)
		ret = settle(f, 0);
	if (!ret)
		ret = fresh(f, 1);
	if (!ret)
		ret = fill(f, 1, v);
	if (ret)
		livefile_close(f);
	return ret;
}

int livefile_next(struct livefile *f, const struct livefile_version *v)
{
	int k = !f->cur, ret;

	if (f->whole)
		return livefile_replace(f, v);
	ret = fill(f, k, v);
	return ret ? ret : swap(f, k);
}

int livefile_replace(struct livefile *f, const struct livefile_version *v)
{
	int k = !f->cur, ret;

	drop(f, k);
	ret = fresh(f, k);
	if (!ret)
		ret = fill(f, k, v);
	if (!ret)
		ret = settle(f, k);
	if (ret)
		drop(f, k);
	return ret;
}

int livefile_stream(int fd, const struct livefile_version *v)
{
	struct livefile_writer w = { .fd = fd, .stream = true };

	put_version(&w, v, -1);
	return w.err;
}

void livefile_close(struct livefile *f)
{
	drop(f, !f->cur);
	if (f->fd[f->cur] >= 0)
		close(f->fd[f->cur]);
	f->fd[f->cur] = -1;
}
