// SPDX-License-Identifier: GPL-2.0-or-later
/* loads/load_io.c - the loads that use the disk: Write, Read, Compile, and the files they
 * stream. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "loads/load_shared.h"
#include "sys/cgroup.h"

/* ---- Write and Read: streaming I/O on the files of load_prepare_files() ---- */

#define IO_CHUNK MIB			/* one read() or write() */
#define WRITE_WINDOW (4 * MIB)		/* dirty data pushed to the disk at a time */

/*
 * IO_CHUNK bytes that neither repeat nor are zero, so no filesystem can
 * compress, deduplicate or skip what we write.
 */
static void *io_buffer(void)
{
	uint64_t *b, x = 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();

	if (posix_memalign((void **)&b, 4096, IO_CHUNK))
		return NULL;
	for (size_t i = 0; i < IO_CHUNK / sizeof(*b); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		b[i] = x;
	}
	return b;
}

/* A stream's file and its buffer in *buf: 0, or the reason it cannot run (none: no file). */
static int stream_start(int fd, uint64_t size, const char *none, char **buf, char *reason,
			size_t rlen)
{
	if (fd < 0 || size < IO_CHUNK)
		return set_reason(reason, rlen, none, EBADF);
	*buf = io_buffer();
	if (!*buf)
		return set_reason(reason, rlen, "I/O buffer", ENOMEM);
	return 0;
}

/*
 * Make [from, to) of the Write file reach the disk: start its writeback,
 * then wait for the window before it, so at most two windows are dirty and
 * the load writes at the speed of the disk, not of the page cache. Waits are
 * bounded by a window's worth of I/O. Filesystems without sync_file_range
 * get fdatasync.
 */
static int write_push(int fd, uint64_t prev, uint64_t from, uint64_t to)
{
	const unsigned wait = SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			      SYNC_FILE_RANGE_WAIT_AFTER;

	if (sync_file_range(fd, (off_t)from, (off_t)(to - from), SYNC_FILE_RANGE_WRITE) < 0) {
		if (errno == EINTR)
			return 0;
		if (errno != EINVAL && errno != ESPIPE && errno != ENOSYS && errno != EOPNOTSUPP)
			return -errno;
		return fdatasync(fd) < 0 && errno != EINVAL && errno != EINTR ? -errno : 0;
	}
	if (from > prev) {
		if (sync_file_range(fd, (off_t)prev, (off_t)(from - prev), wait) < 0 &&
		    errno != EINTR)
			return -errno;
		posix_fadvise(fd, (off_t)prev, (off_t)(from - prev), POSIX_FADV_DONTNEED);
	}
	return 0;
}

/*
 * Stream IO_CHUNK writes into the Write file up to its size, then truncate
 * it and start over, so every pass allocates its blocks anew. Units: bytes.
 */
static int write_stream(struct load_ctx *ctx, char *reason, size_t rlen)
{
	uint64_t size = ctx->write_size, off = size, prev = 0, pushed = 0;
	int fd = ctx->write_fd, ret;
	char *buf;

	ret = stream_start(fd, size, "no Write file", &buf, reason, rlen);
	if (ret)
		return ret;
	while (!load_stopping(ctx)) {
		size_t len;
		ssize_t w;

		if (off >= size) {
			if (ftruncate(fd, 0) < 0) {
				ret = set_reason(reason, rlen, "ftruncate", errno);
				break;
			}
			off = prev = pushed = 0;
		}
		len = size - off < IO_CHUNK ? (size_t)(size - off) : IO_CHUNK;
		memcpy(buf, &off, sizeof(off));	/* no two chunks alike */
		w = pwrite(fd, buf, len, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = set_reason(reason, rlen, "write", w < 0 ? errno : ENOSPC);
			break;
		}
		off += (uint64_t)w;
		atomic_fetch_add(&ctx->ctr->units, (uint64_t)w);
		if (off - pushed >= WRITE_WINDOW || off >= size) {
			ret = write_push(fd, prev, pushed, off);
			if (ret) {
				ret = set_reason(reason, rlen, "sync_file_range", -ret);
				break;
			}
			prev = pushed;
			pushed = off;
		}
	}
	/* give the space back to the rest of the run; if that fails, no worse */
	if (ret == -ENOSPC)
		(void)!ftruncate(fd, 0);
	free(buf);
	return ret;
}

/* A drop worked when at most a quarter of the file stayed in the page cache. */
bool cache_drop_worked(size_t resident, size_t pages)
{
	return resident * 4 <= pages;
}

/* The Read file's pages in the page cache: its mapping, for mincore(). */
struct residency {
	void *map;			/* MAP_FAILED when it cannot be checked */
	size_t len, pages;
	unsigned char *vec;
};

static void residency_open(struct residency *r, int fd, uint64_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	r->len = (size_t)size;
	r->pages = (r->len + page - 1) / page;
	r->vec = malloc(r->pages ? r->pages : 1);
	r->map = r->vec ? mmap(NULL, r->len, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
}

/* After a drop: did the pages really leave the page cache? (true when it cannot tell) */
static bool residency_dropped(const struct residency *r)
{
	size_t resident = 0;

	if (r->map == MAP_FAILED || mincore(r->map, r->len, r->vec) < 0)
		return true;
	for (size_t i = 0; i < r->pages; i++)
		resident += r->vec[i] & 1;
	return cache_drop_worked(resident, r->pages);
}

static void residency_close(struct residency *r)
{
	if (r->map != MAP_FAILED)
		munmap(r->map, r->len);
	free(r->vec);
}

/*
 * Read the Read file from start to end, over and over. Each pass first
 * drops the file from the page cache, so every pass reads the disk however
 * small the file is, and checks that the drop worked (mincore): passes
 * that would read memory are counted. Units: bytes.
 */
static int read_stream(struct load_ctx *ctx, char *reason, size_t rlen)
{
	uint64_t size = ctx->read_size, off = size;
	int fd = ctx->read_fd, ret;
	struct residency res;
	char *buf;

	ret = stream_start(fd, size, "no Read file", &buf, reason, rlen);
	if (ret)
		return ret;
	residency_open(&res, fd, size);
	while (!load_stopping(ctx)) {
		ssize_t r;

		if (off >= size) {
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
			if (!residency_dropped(&res))
				atomic_fetch_add(&ctx->ctr->cached_passes, 1);
			off = 0;
		}
		r = pread(fd, buf, IO_CHUNK, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || (r == 0 && off == 0)) {
			ret = set_reason(reason, rlen, "read", r < 0 ? errno : EIO);
			break;
		}
		if (r == 0) {
			off = size;	/* the file ends early: start over */
			continue;
		}
		off += (uint64_t)r;
		atomic_fetch_add(&ctx->ctr->units, (uint64_t)r);
	}
	residency_close(&res);
	free(buf);
	return ret;
}

int load_write(struct load_ctx *ctx)
{
	return write_stream(ctx, ctx->reason, sizeof(ctx->reason));
}

int load_read(struct load_ctx *ctx)
{
	return read_stream(ctx, ctx->reason, sizeof(ctx->reason));
}

/* ---- Compile: Burn, Write and Read at once, like make -j L ---- */

struct io_job {
	struct load_ctx *ctx;
	int (*stream)(struct load_ctx *ctx, char *reason, size_t rlen);
	int ret;
	char reason[REASON_LEN];
};

/* A failed stream ends the whole load: a compile stops at its first error. */
static void *io_job_main(void *arg)
{
	struct io_job *j = arg;

	j->ret = j->stream(j->ctx, j->reason, sizeof(j->reason));
	if (j->ret)
		atomic_store(&j->ctx->stop, 1);
	return NULL;
}

/*
 * L burning threads, a writer and a reader. Its intensity is the I/O it got
 * done (MiB/s read and written together): the CPU side is Burn's row, and
 * what differs between kernels under a compile is mostly how much I/O still
 * gets through while every CPU is busy.
 */
int load_compile(struct load_ctx *ctx)
{
	int n = ctx->par.cpu_load, started, ret = 0;
	struct io_job jobs[2] = {
		{ .ctx = ctx, .stream = write_stream },
		{ .ctx = ctx, .stream = read_stream },
	};
	pthread_t io[2], *burn = calloc((size_t)n, sizeof(*burn));
	int nio = 0;

	if (!burn) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory for %d threads", n);
		return -ENOMEM;
	}
	for (; nio < 2; nio++) {
		ret = pthread_create(&io[nio], NULL, io_job_main, &jobs[nio]);
		if (ret) {
			set_reason(ctx->reason, sizeof(ctx->reason), "pthread_create", ret);
			atomic_store(&ctx->stop, 1);
			break;
		}
	}
	started = nio == 2 ? spawn_threads(ctx, burn, n, burn_thread) : 0;
	if (started < n)
		atomic_store(&ctx->stop, 1);
	join_threads(burn, started);
	join_threads(io, nio);
	free(burn);
	if (ctx->reason[0])
		return ret ? -ret : -EAGAIN;
	for (int i = 0; i < nio; i++) {
		if (jobs[i].ret) {
			memcpy(ctx->reason, jobs[i].reason, sizeof(ctx->reason));
			return jobs[i].ret;
		}
	}
	return 0;
}

/* ---- the files of Write, Read and Compile, made once per run ---- */

#define READ_CAP (256 * MIB)		/* the Read file: re-read from disk each pass */
#define WRITE_CAP (256 * MIB)		/* the Write file: rewritten each pass */

/*
 * Sizes of the Read and Write files, in whole MiB. Automatic: together at
 * most half of the free space, each at most 1/16 of RAM (or of the cgroup's
 * memory limit, when lower) and its cap; -ENOSPC
 * when a wanted file would get less than 1 MiB. file_mib, when given, is
 * each file's size as asked.
 */
int load_file_sizes(uint64_t free_bytes, uint64_t ram_bytes, long file_mib, bool want_read,
		    bool want_write, uint64_t *read, uint64_t *write)
{
	unsigned files = (unsigned)want_read + (unsigned)want_write;
	uint64_t each;

	*read = *write = 0;
	if (!files)
		return 0;
	if (file_mib > 0) {
		*read = want_read ? (uint64_t)file_mib * MIB : 0;
		*write = want_write ? (uint64_t)file_mib * MIB : 0;
		return 0;
	}
	each = free_bytes / 2 / files;
	if (each > ram_bytes / 16)
		each = ram_bytes / 16;
	if (want_read)
		*read = (each < READ_CAP ? each : READ_CAP) / MIB * MIB;
	if (want_write)
		*write = (each < WRITE_CAP ? each : WRITE_CAP) / MIB * MIB;
	if ((want_read && !*read) || (want_write && !*write))
		return -ENOSPC;
	return 0;
}

/*
 * Fill the Read file, then make sure it is on the disk and not in the
 * page cache. Stops early, without an error, when a stop signal comes.
 */
static int fill_read_file(int fd, uint64_t size, volatile sig_atomic_t *stop, const char **call)
{
	char *buf = io_buffer();
	int ret = 0;

	*call = "write";
	if (!buf)
		return -ENOMEM;
	for (uint64_t off = 0; off < size && !(stop && *stop); off += IO_CHUNK) {
		ssize_t w;

		memcpy(buf, &off, sizeof(off));
		w = write_full(fd, buf, IO_CHUNK);
		if (w != IO_CHUNK) {
			ret = w < 0 ? (int)w : -ENOSPC;
			break;
		}
	}
	free(buf);
	if (!ret && !(stop && *stop)) {
		*call = "fsync";
		if (fsync(fd) < 0)
			return -errno;
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	return ret;
}

/*
 * Make the files (LOAD_READ_FILE, LOAD_WRITE_FILE) that the loads use, as
 * unnamed files in the work directory (nothing is left on disk however the
 * run ends); the forked loads inherit them. Returns 0, or -1 with one line
 * in err.
 */
int load_prepare_files(unsigned files, struct load_ctx *ctx,
		       volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	bool want_read = files & LOAD_READ_FILE, want_write = files & LOAD_WRITE_FILE;
	uint64_t free_bytes, ram;
	struct statvfs sv;
	struct cg_mem cg;
	const char *call;
	int ret;

	ctx->read_fd = ctx->write_fd = -1;
	ctx->read_size = ctx->write_size = 0;
	if (!want_read && !want_write)
		return 0;
	if (statvfs(ctx->par.work_dir, &sv) < 0) {
		snprintf(err, errlen, "statvfs %s: %s", ctx->par.work_dir, strerror(errno));
		return -1;
	}
	free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	cg_memory(&cg);
	if (cg.limit < ram)
		ram = cg.limit;		/* their page cache is charged to our cgroup */
	if (load_file_sizes(free_bytes, ram, ctx->par.file_mib, want_read, want_write,
			    &ctx->read_size, &ctx->write_size)) {
		snprintf(err, errlen, "only %llu MiB free in %s: too little for the %s file%s",
			 to_mib(free_bytes), ctx->par.work_dir,
			 want_read && want_write ? "Read and Write" : want_read ? "Read" : "Write",
			 want_read && want_write ? "s" : "");
		return -1;
	}
	if (ctx->par.file_mib && ctx->read_size + ctx->write_size > free_bytes / 2)
		warn("--file-mib %ld: the files need more than half of the %llu MiB free in %s",
		     ctx->par.file_mib, to_mib(free_bytes), ctx->par.work_dir);
	if (want_write) {
		ret = open_tmpfile(ctx->par.work_dir, "interbench.write", &ctx->write_fd);
		if (ret) {
			snprintf(err, errlen, "cannot create the Write file in %s: %s", ctx->par.work_dir,
				 strerror(-ret));
			return -1;
		}
	}
	if (want_read) {
		ret = open_tmpfile(ctx->par.work_dir, "interbench.read", &ctx->read_fd);
		if (!ret)
			ret = fill_read_file(ctx->read_fd, ctx->read_size, stop, &call);
		else
			call = "create";
		if (ret) {
			snprintf(err, errlen, "cannot make the %llu MiB Read file in %s: %s: %s",
				 to_mib(ctx->read_size), ctx->par.work_dir, call, strerror(-ret));
			load_close_files(ctx);
			return -1;
		}
	}
	return 0;
}

void load_close_files(struct load_ctx *ctx)
{
	if (ctx->read_fd >= 0)
		close(ctx->read_fd);
	if (ctx->write_fd >= 0)
		close(ctx->write_fd);
	ctx->read_fd = ctx->write_fd = -1;
}
