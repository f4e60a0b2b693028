// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_livefile.c - unit tests: the live file, complete after every version, swapped in by
 * one rename, nothing of it left behind. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/livefile.h"
#include "lib/util.h"

#include "tests/unit.h"

/* A format of lines: "head", a line per row, then "tail N" of the rows there are. */
struct rows {
	int n;				/* rows so far */
	int held[2];			/* rows each of the live file's files holds */
	const char *head;
};

static void rows_body(void *arg, struct livefile_writer *w, int k)
{
	const struct rows *r = arg;
	int from = w->at ? r->held[k] : 0;

	if (!w->at)
		sb_puts(&w->sb, r->head);
	for (int i = from; i < r->n; i++)
		sb_printf(&w->sb, "row %d\n", i);
}

static void rows_tail(void *arg, struct sbuf *sb)
{
	sb_printf(sb, "tail %d\n", ((const struct rows *)arg)->n);
}

/* A body that cannot be written: the version is refused. */
static void bad_body(void *arg, struct livefile_writer *w, int k)
{
	(void)arg;
	(void)k;
	w->err = -EIO;
}

/* What the rows' file should hold now. */
static void rows_text(const struct rows *r, struct sbuf *sb)
{
	sb_init(sb);
	sb_puts(sb, r->head);
	for (int i = 0; i < r->n; i++)
		sb_printf(sb, "row %d\n", i);
	rows_tail((void *)r, sb);
}

static bool holds(const char *path, const struct rows *r)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read_full(fd, buf, sizeof(buf));
	struct sbuf want;
	bool same;

	if (fd >= 0)
		close(fd);
	rows_text(r, &want);
	same = n >= 0 && (size_t)n == want.len && !memcmp(buf, want.buf, want.len);
	if (!same)
		snprintf(detail, sizeof(detail), "after %d rows %s holds '%.*s'", r->n, path,
			 n > 0 ? (int)n : 0, buf);
	sb_free(&want);
	return same;
}

/* Entries in dir, hidden ones too. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static ino_t inode(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

/* n rows added, each a version; the file complete after each, put at path as said. */
static bool add_rows(struct livefile *f, struct rows *r, const char *dir, int n, bool swapped)
{
	struct livefile_version v = { rows_body, rows_tail, r };

	for (int i = 0; i < n; i++) {
		ino_t before = inode(f->path), shadow = inode(f->shadow);

		r->n++;
		EXPECT(!livefile_next(f, &v), "row %d refused", r->n);
		r->held[f->cur] = r->n;
		if (!holds(f->path, r))
			return false;
		EXPECT(!swapped || inode(f->path) == shadow, "row %d: the shadow is not at path",
		       r->n);
		EXPECT(swapped || inode(f->path) != before, "row %d: path written in place", r->n);
		EXPECT(entries(dir) == (swapped ? 2 : 1), "row %d: %d files", r->n, entries(dir));
	}
	return true;
}

/* Begun, grown by swaps, then by whole files (no RENAME_EXCHANGE), replaced, closed. */
static bool test_versions(void)
{
	char dir[] = "/tmp/ib-unit-lf.XXXXXX", path[64];
	struct rows r = { .head = "head\n" };
	struct livefile_version v = { rows_body, rows_tail, &r };
	struct livefile f;

	EXPECT(mkdtemp(dir), "mkdtemp");
	snprintf(path, sizeof(path), "%s/r.txt", dir);
	livefile_init(&f, "--test", path);
	EXPECT(!livefile_begin(&f, &v) && f.placed, "begin refused");
	if (!holds(path, &r))
		return false;
	EXPECT(entries(dir) == 2 && f.shadow[0], "begin: no shadow beside the file");
	if (!add_rows(&f, &r, dir, 3, true))
		return false;
	f.whole = true;			/* as where the filesystem cannot exchange names */
	if (!add_rows(&f, &r, dir, 2, false))
		return false;
	r.head = "a new head\n";
	EXPECT(!livefile_replace(&f, &v), "replace refused");
	if (!holds(path, &r))
		return false;
	livefile_close(&f);
	EXPECT(entries(dir) == 1 && holds(path, &r), "close: %d files", entries(dir));
	unlink(path);
	rmdir(dir);
	return true;
}

/* A version refused leaves path as it was; a file that cannot be made is said at once. */
static bool test_refused(void)
{
	char dir[] = "/tmp/ib-unit-lf.XXXXXX", path[64];
	struct rows r = { .head = "head\n" };
	struct livefile_version v = { rows_body, rows_tail, &r }, bad = { bad_body, rows_tail, &r };
	struct livefile f;

	EXPECT(mkdtemp(dir), "mkdtemp");
	snprintf(path, sizeof(path), "%s/none/r.txt", dir);
	livefile_init(&f, "--test", path);
	EXPECT(livefile_begin(&f, &v) == -ENOENT && !f.placed && entries(dir) == 0,
	       "a file in no directory: not refused before anything");
	snprintf(path, sizeof(path), "%s/r.txt", dir);
	livefile_init(&f, "--test", path);
	EXPECT(livefile_begin(&f, &bad) == -EIO && !f.placed && entries(dir) == 0,
	       "a first version that cannot be written left %d files", entries(dir));
	EXPECT(!livefile_begin(&f, &v), "begin");
	EXPECT(livefile_next(&f, &bad) == -EIO, "a version that cannot be written: not refused");
	if (!holds(path, &r))
		return false;
	livefile_close(&f);
	EXPECT(entries(dir) == 1, "close after an error: %d files", entries(dir));
	unlink(path);
	rmdir(dir);
	return true;
}

/* To a stream: the whole version, in order. */
static bool test_stream(void)
{
	struct rows r = { .n = 2, .head = "head\n" };
	struct livefile_version v = { rows_body, rows_tail, &r };
	int fd = memfd_create("ib-unit-lf", MFD_CLOEXEC);
	char buf[256];
	struct sbuf want;
	ssize_t n;
	bool same;

	EXPECT(fd >= 0, "memfd_create: %s", strerror(errno));
	EXPECT(!livefile_stream(fd, &v), "stream");
	n = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	rows_text(&r, &want);
	same = n == (ssize_t)want.len && !memcmp(buf, want.buf, want.len);
	sb_free(&want);
	EXPECT(same, "the stream holds '%.*s'", n > 0 ? (int)n : 0, buf);
	return true;
}

void unit_livefile(void)
{
	check("livefile: complete after every version, the shadow swapped in, whole files "
	      "without RENAME_EXCHANGE, nothing left after close", test_versions());
	check("livefile: a file that cannot be made or written is said before anything, path "
	      "kept as it was", test_refused());
	check("livefile: a version to a stream, whole and in order", test_stream());
}
