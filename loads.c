// SPDX-License-Identifier: GPL-2.0-or-later
/* loads.c - the background loads, the load process around them, and the one registry. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "interbench.h"

static unsigned long long to_mib(uint64_t bytes)
{
	return (unsigned long long)(bytes / MIB);
}

bool load_stopping(struct load_ctx *ctx)
{
	return atomic_load_explicit(&ctx->stop, memory_order_relaxed);
}

/* Sleep in short slices so a stop request is seen within 10 ms. */
static int load_none(struct load_ctx *ctx)
{
	while (!load_stopping(ctx))
		sleep_ns(10 * NSEC_PER_MSEC);
	return 0;
}

/* ---- Burn: -L threads spinning the calibrated loop ---- */

static void *burn_thread(void *arg)
{
	struct load_ctx *ctx = arg;

	while (!load_stopping(ctx))
		burn_loops(ctx->cfg->loops_per_ms);
	return NULL;
}

/* Start n copies of fn(ctx); returns how many started, reason set on failure. */
static int spawn_threads(struct load_ctx *ctx, pthread_t *t, int n, void *(*fn)(void *))
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

static void join_threads(pthread_t *t, int n)
{
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static int load_burn(struct load_ctx *ctx)
{
	int n = ctx->cfg->cpu_load, started;
	pthread_t *t = calloc((size_t)n, sizeof(*t));

	if (!t) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory for %d threads", n);
		return -ENOMEM;
	}
	started = spawn_threads(ctx, t, n, burn_thread);
	join_threads(t, started);
	free(t);
	return started == n ? 0 : -EAGAIN;
}

/* ---- Video, X and Custom as loads: the simulation, unmeasured ---- */

static int load_sim(struct load_ctx *ctx, const char *name)
{
	struct sim_params p;
	int ret;

	sim_params_init(&p, &workloads[workload_find(name)], ctx->cfg);
	ret = sim_run(&p, 0, &ctx->stop, NULL, &ctx->ctr->sim);
	if (ret)
		snprintf(ctx->reason, sizeof(ctx->reason), "%s load: %s", name, strerror(-ret));
	return ret;
}

static int load_video(struct load_ctx *ctx)
{
	return load_sim(ctx, "Video");
}

static int load_x(struct load_ctx *ctx)
{
	return load_sim(ctx, "X");
}

static int load_custom(struct load_ctx *ctx)
{
	return load_sim(ctx, "Custom");
}

/* ---- Write and Read: streaming I/O on the files of load_prepare_files() ---- */

#define IO_CHUNK MIB			/* one read() or write() */
#define WRITE_WINDOW (4 * MIB)		/* dirty data pushed to the disk at a time */

/* reason = "call: error"; returns -err, for one-line failure exits. */
static int set_reason(char *reason, size_t len, const char *call, int err)
{
	snprintf(reason, len, "%s: %s", call, strerror(err));
	return -err;
}

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
	int fd = ctx->write_fd, ret = 0;
	char *buf;

	if (fd < 0 || size < IO_CHUNK)
		return set_reason(reason, rlen, "no Write file", EBADF);
	buf = io_buffer();
	if (!buf)
		return set_reason(reason, rlen, "I/O buffer", ENOMEM);
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

/*
 * Read the Read file from start to end, over and over. Each pass first
 * drops the file from the page cache, so every pass reads the disk however
 * small the file is. Units: bytes.
 */
static int read_stream(struct load_ctx *ctx, char *reason, size_t rlen)
{
	uint64_t size = ctx->read_size, off = size;
	int fd = ctx->read_fd, ret = 0;
	char *buf;

	if (fd < 0 || size < IO_CHUNK)
		return set_reason(reason, rlen, "no Read file", EBADF);
	buf = io_buffer();
	if (!buf)
		return set_reason(reason, rlen, "I/O buffer", ENOMEM);
	while (!load_stopping(ctx)) {
		ssize_t r;

		if (off >= size) {
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
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
	free(buf);
	return ret;
}

static int load_write(struct load_ctx *ctx)
{
	return write_stream(ctx, ctx->reason, sizeof(ctx->reason));
}

static int load_read(struct load_ctx *ctx)
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
static int load_compile(struct load_ctx *ctx)
{
	int n = ctx->cfg->cpu_load, started, ret = 0;
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

/* ---- Ring: a token passed around max(2, L) threads ---- */

struct ring_member {
	struct load_ctx *ctx;
	int in, out;			/* pipe ends: from the previous, to the next */
};

static void *ring_thread(void *arg)
{
	struct ring_member *m = arg;
	char token;

	while (!load_stopping(m->ctx)) {
		ssize_t r = read(m->in, &token, 1);

		if (r < 0 && errno == EINTR)
			continue;	/* the stop's kick, or a stray signal */
		if (r != 1)
			break;
		if (write(m->out, &token, 1) == 1)
			atomic_fetch_add(&m->ctx->ctr->units, 1);
	}
	return NULL;
}

/* Every pass of the token is a wakeup and a context switch. Units: passes. */
static int load_ring(struct load_ctx *ctx)
{
	int n = ctx->cfg->cpu_load > 2 ? ctx->cfg->cpu_load : 2, npipes = 0, started = 0, ret = 0;
	struct ring_member *m = calloc((size_t)n, sizeof(*m));
	pthread_t *t = calloc((size_t)n, sizeof(*t));
	int (*p)[2] = calloc((size_t)n, sizeof(*p));

	if (!m || !t || !p) {
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory for a ring of %d", n);
		ret = -ENOMEM;
		goto out;
	}
	for (; npipes < n; npipes++) {
		if (pipe2(p[npipes], O_CLOEXEC) < 0) {
			ret = set_reason(ctx->reason, sizeof(ctx->reason), "pipe", errno);
			goto out;
		}
	}
	for (int i = 0; i < n; i++)
		m[i] = (struct ring_member){ .ctx = ctx, .in = p[i][0], .out = p[(i + 1) % n][1] };
	for (; started < n; started++) {
		ret = pthread_create(&t[started], NULL, ring_thread, &m[started]);
		if (ret) {
			ret = set_reason(ctx->reason, sizeof(ctx->reason), "pthread_create", ret);
			atomic_store(&ctx->stop, 1);
			break;
		}
	}
	if (!ret && write(p[0][1], "T", 1) != 1) {
		ret = set_reason(ctx->reason, sizeof(ctx->reason), "write to the ring", errno);
		atomic_store(&ctx->stop, 1);
	}
	join_threads(t, started);
out:
	for (int i = 0; p && i < npipes; i++)
		close(p[i][0]), close(p[i][1]);
	free(p);
	free(t);
	free(m);
	return ret;
}

/* ---- Memload: a large share of memory, touched and copied around ---- */

#define MEMLOAD_CHUNK (2 * MIB)		/* stop is checked after each */
#define MEMLOAD_CHECK (256 * MIB)	/* /proc/meminfo is read after this many */
#define MEMLOAD_MIN_MARGIN (256 * MIB)

/* The numbers of /proc/meminfo that size Memload, in bytes; 0 or -EINVAL. */
int meminfo_parse(const char *text, struct meminfo *mi)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "MemTotal:", offsetof(struct meminfo, total) },
		{ "MemFree:", offsetof(struct meminfo, free) },
		{ "MemAvailable:", offsetof(struct meminfo, available) },
		{ "SwapTotal:", offsetof(struct meminfo, swap_total) },
		{ "SwapFree:", offsetof(struct meminfo, swap_free) },
	};
	const char *line = text;
	bool have_avail = false;

	memset(mi, 0, sizeof(*mi));
	while (line && *line) {
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
			size_t klen = strlen(keys[i].key);
			unsigned long long kb;

			if (strncmp(line, keys[i].key, klen) || sscanf(line + klen, "%llu kB", &kb) != 1)
				continue;
			*(uint64_t *)((char *)mi + keys[i].off) = (uint64_t)kb * 1024;
			if (keys[i].off == offsetof(struct meminfo, available))
				have_avail = true;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (!mi->total)
		return -EINVAL;
	if (!have_avail)		/* before Linux 3.14 */
		mi->available = mi->free;
	return 0;
}

/* What Memload must always leave: 1/16 of RAM, at least 256 MiB. */
uint64_t memload_margin(const struct meminfo *mi)
{
	return mi->total / 16 > MEMLOAD_MIN_MARGIN ? mi->total / 16 : MEMLOAD_MIN_MARGIN;
}

/*
 * Memload's size: MemAvailable, plus half of the free swap when there is
 * swap (so pages really go out to it, and it never fills), less the margin.
 * Rounded down to whole chunks; 0 when nothing is left.
 */
uint64_t memload_bytes_for(const struct meminfo *mi)
{
	uint64_t margin = memload_margin(mi);
	uint64_t have = mi->available + (mi->swap_total ? mi->swap_free / 2 : 0);

	return have > margin ? (have - margin) / MEMLOAD_CHUNK * MEMLOAD_CHUNK : 0;
}

static int read_meminfo(struct meminfo *mi)
{
	char buf[8192];
	int ret = read_small_file("/proc/meminfo", buf, sizeof(buf));

	return ret ? ret : meminfo_parse(buf, mi);
}

uint64_t memload_size(const struct config *cfg)
{
	struct meminfo mi;

	if (cfg->memload_mib)
		return (uint64_t)cfg->memload_mib * MIB;
	if (read_meminfo(&mi))
		return 0;
	return memload_bytes_for(&mi);
}

/*
 * How much memory Memload must give back: the margin was left at the start;
 * when something else takes memory meanwhile and the headroom (MemAvailable,
 * plus the free swap) falls under floor, Memload yields the difference
 * rather than have the OOM killer choose.
 */
uint64_t memload_shortfall(const struct meminfo *mi, uint64_t floor)
{
	uint64_t headroom = mi->available + (mi->swap_total ? mi->swap_free : 0);

	return headroom < floor ? floor - headroom : 0;
}

static uint64_t memload_excess(uint64_t floor)
{
	struct meminfo mi;

	return read_meminfo(&mi) ? 0 : memload_shortfall(&mi, floor);
}

/* If the OOM killer is woken anyway, it takes us, not somebody's work. */
static void prefer_oom_kill(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, "1000", 4) < 0) {
		/* not allowed: nothing else to do */
	}
	close(fd);
}

/*
 * Touch the area chunk by chunk (growing while memory allows), then copy
 * its first half over its second and on around, forever. Units: bytes
 * touched, a copied byte counting twice (read and written). Transparent
 * huge pages are asked for: faulting and freeing many GiB in 4 KiB pages can
 * take seconds, longer than a stop may.
 */
static int load_memload(struct load_ctx *ctx)
{
	uint64_t size = ctx->memload_bytes ? ctx->memload_bytes : memload_size(ctx->cfg);
	uint64_t used = 0, since_check = 0, floor, pos = 0, half, cut;
	struct meminfo mi;
	char *area;

	if (read_meminfo(&mi) < 0)
		memset(&mi, 0, sizeof(mi));
	floor = memload_margin(&mi) / 2;
	size = size / MEMLOAD_CHUNK * MEMLOAD_CHUNK;
	if (size < 2 * MEMLOAD_CHUNK && ctx->cfg->memload_mib)
		size = 2 * MEMLOAD_CHUNK;	/* the smallest area that can be copied around */
	if (size < 2 * MEMLOAD_CHUNK) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "only %llu MiB available above the %llu MiB margin",
			 to_mib(size), to_mib(memload_margin(&mi)));
		return -ENOMEM;
	}
	area = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		    -1, 0);
	if (area == MAP_FAILED) {
		snprintf(ctx->reason, sizeof(ctx->reason), "mmap %llu MiB: %s", to_mib(size),
			 strerror(errno));
		return -errno;
	}
	madvise(area, size, MADV_HUGEPAGE);
	prefer_oom_kill();
	while (!load_stopping(ctx) && used < size) {
		memset(area + used, (int)(used / MEMLOAD_CHUNK) | 1, MEMLOAD_CHUNK);
		used += MEMLOAD_CHUNK;
		atomic_fetch_add(&ctx->ctr->units, MEMLOAD_CHUNK);
		if ((since_check += MEMLOAD_CHUNK) >= MEMLOAD_CHECK) {
			since_check = 0;
			if (memload_excess(floor))
				break;		/* memory is short: grow no further */
		}
	}
	for (;;) {
		used = used / (2 * MEMLOAD_CHUNK) * (2 * MEMLOAD_CHUNK);
		half = used / 2;
		while (!load_stopping(ctx) && used) {
			memcpy(area + (pos + half) % used, area + pos, MEMLOAD_CHUNK);
			pos = (pos + MEMLOAD_CHUNK) % used;
			atomic_fetch_add(&ctx->ctr->units, 2 * MEMLOAD_CHUNK);
			if ((since_check += 2 * MEMLOAD_CHUNK) >= MEMLOAD_CHECK) {
				since_check = 0;
				if (memload_excess(floor))
					break;
			}
		}
		if (load_stopping(ctx) || !used)
			break;
		/* give back what is missing, at least a check's worth, and go on smaller */
		cut = memload_excess(floor);
		cut = cut < MEMLOAD_CHECK ? MEMLOAD_CHECK : cut;
		cut = cut > used ? used : cut;
		madvise(area + used - cut, cut, MADV_DONTNEED);
		used -= cut;
		pos = 0;
	}
	munmap(area, size);
	if (!used && !load_stopping(ctx)) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "memory ran short (under %llu MiB available): gave it all back",
			 to_mib(floor));
		return -ENOMEM;
	}
	return 0;
}

/* ---- Net: a stream of small messages over loopback TCP ---- */

#define NET_MSG 64			/* bytes per message */
#define NET_TIMEOUT_MS 100		/* no socket call blocks longer */

struct net_sender {
	struct load_ctx *ctx;
	int fd;
	int ret;
	char reason[REASON_LEN];
};

static void *net_send_main(void *arg)
{
	struct net_sender *s = arg;
	char msg[NET_MSG];
	size_t done = 0;

	memset(msg, 'n', sizeof(msg));
	while (!load_stopping(s->ctx)) {
		ssize_t w = send(s->fd, msg + done, sizeof(msg) - done, MSG_NOSIGNAL);

		if (w < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w < 0) {
			s->ret = set_reason(s->reason, sizeof(s->reason), "send", errno);
			break;
		}
		done = (done + (size_t)w) % sizeof(msg);
	}
	shutdown(s->fd, SHUT_WR);	/* the receiver sees the end */
	return NULL;
}

static void socket_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = 0, .tv_usec = NET_TIMEOUT_MS * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* A connected pair of TCP sockets on 127.0.0.1, on a port the kernel picks. */
static int net_pair(struct load_ctx *ctx, int *tx, int *rx)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int lfd, one = 1, ret = 0;

	*tx = *rx = -1;
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		return set_reason(ctx->reason, sizeof(ctx->reason), "socket", errno);
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(lfd, 1) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&a, &alen) < 0) {
		ret = set_reason(ctx->reason, sizeof(ctx->reason), "listen on 127.0.0.1", errno);
		goto out;
	}
	*tx = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*tx < 0) {
		ret = set_reason(ctx->reason, sizeof(ctx->reason), "socket", errno);
		goto out;
	}
	/* no timeout here: a busy machine may be slow to answer; the stop's kick interrupts it */
	if (connect(*tx, (struct sockaddr *)&a, sizeof(a)) < 0) {
		ret = load_stopping(ctx) ? 1 :
		      set_reason(ctx->reason, sizeof(ctx->reason), "connect to 127.0.0.1", errno);
		goto out;
	}
	socket_timeouts(*tx);
	socket_timeouts(lfd);
	while ((*rx = accept4(lfd, NULL, NULL, SOCK_CLOEXEC)) < 0 && !load_stopping(ctx)) {
		if (errno != EINTR && errno != EAGAIN) {
			ret = set_reason(ctx->reason, sizeof(ctx->reason), "accept", errno);
			goto out;
		}
	}
	if (*rx < 0) {
		ret = 1;		/* stopped before it began */
		goto out;
	}
	socket_timeouts(*rx);
	setsockopt(*tx, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
out:
	close(lfd);
	if (ret) {
		if (*tx >= 0)
			close(*tx);
		*tx = -1;
	}
	return ret;
}

/* A sender thread streams NET_MSG-byte messages; here they are received. Units: messages. */
static int load_net(struct load_ctx *ctx)
{
	struct net_sender s = { .ctx = ctx };
	uint64_t bytes = 0, counted = 0;
	bool closed = false, stopped;
	char buf[65536];
	pthread_t t;
	int rx, ret;

	ret = net_pair(ctx, &s.fd, &rx);
	if (ret)
		return ret > 0 ? 0 : ret;
	ret = pthread_create(&t, NULL, net_send_main, &s);
	if (ret) {
		close(s.fd);
		close(rx);
		return set_reason(ctx->reason, sizeof(ctx->reason), "pthread_create", ret);
	}
	while (!load_stopping(ctx)) {
		ssize_t r = recv(rx, buf, sizeof(buf), 0);

		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0)
			ret = set_reason(ctx->reason, sizeof(ctx->reason), "recv", errno);
		if (r <= 0) {
			closed = r == 0;
			break;
		}
		bytes += (uint64_t)r;
		atomic_fetch_add(&ctx->ctr->units, bytes / NET_MSG - counted);
		counted = bytes / NET_MSG;
	}
	stopped = load_stopping(ctx);
	atomic_store(&ctx->stop, 1);	/* ends the sender too when the receiver failed */
	pthread_join(t, NULL);
	close(s.fd);
	close(rx);
	if (s.ret) {
		memcpy(ctx->reason, s.reason, sizeof(ctx->reason));
		return s.ret;
	}
	if (closed && !stopped) {
		snprintf(ctx->reason, sizeof(ctx->reason), "recv: the sender closed the connection");
		return -ECONNRESET;
	}
	return ret;
}

/* ---- the registry: benchmarks in bench order, loads in load order ---- */

const struct workload workloads[] = {
	{
		.name = "None", .flags = WL_LOAD,
		.what = "an idle machine",
		.load = load_none, .intensity = INT_NONE, .unit = "",
	}, {
		.name = "Audio", .flags = WL_BENCH | WL_RT,
		.what = "2.5 ms of CPU every 50 ms (5 %)",
		.model = SIM_PERIODIC, .period_num = 50 * NSEC_PER_MSEC, .period_den = 1,
		.work_ns = 2500 * NSEC_PER_USEC,
	}, {
		.name = "Video", .flags = WL_BENCH | WL_LOAD | WL_RT,
		.what = "6.67 ms of CPU every 1/60 s (40 %)",
		.model = SIM_PERIODIC, .period_num = NSEC_PER_SEC, .period_den = 60,
		.work_ns = 6666667,
		.load = load_video, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "X", .flags = WL_BENCH | WL_LOAD,
		.what = "100 ms frames; frame k of a 101-frame sweep needs k ms",
		.model = SIM_SWEEP, .period_num = 100 * NSEC_PER_MSEC, .period_den = 1,
		.load = load_x, .intensity = INT_PCT, .unit = "% CPU",
	}, {
		.name = "Gaming", .flags = WL_BENCH | WL_NODEADLINE,
		.what = "100 ms units of CPU work back to back, no deadlines",
		.model = SIM_FLAT,
	}, {
		.name = "Burn", .flags = WL_LOAD,
		.what = "-L threads spinning on the CPU",
		.load = load_burn, .intensity = INT_CPUS, .unit = "CPUs",
	}, {
		.name = "Write", .flags = WL_LOAD | WL_FILES,
		.what = "streams writes to a file in the work directory, through to the disk",
		.load = load_write, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Read", .flags = WL_LOAD | WL_FILES,
		.what = "reads a file from the disk over and over, the page cache dropped each pass",
		.load = load_read, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Ring", .flags = WL_LOAD,
		.what = "max(2, -L) threads passing a token around a ring",
		.load = load_ring, .intensity = INT_RATE, .unit = "msg/s", .unit_scale = 1.0,
	}, {
		.name = "Compile", .flags = WL_LOAD | WL_FILES,
		.what = "Burn, Write and Read at once, like make -j L; intensity: its I/O",
		.load = load_compile, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Memload", .flags = WL_LOAD,
		.what = "touches and copies around most of MemAvailable (and half the free swap)",
		.load = load_memload, .intensity = INT_RATE, .unit = "MiB/s", .unit_scale = 1.0 / MIB,
	}, {
		.name = "Hack", .flags = WL_LOAD,
		.what = "hackbench: -L groups of processes messaging over socket pairs",
		.load = load_hack, .intensity = INT_RATE, .unit = "msg/s", .unit_scale = 1.0,
	}, {
		.name = "Net", .flags = WL_LOAD,
		.what = "a stream of small messages over loopback TCP",
		.load = load_net, .intensity = INT_RATE, .unit = "msg/s", .unit_scale = 1.0,
	}, {
		.name = "Custom", .flags = WL_BENCH | WL_LOAD | WL_RT | WL_CUSTOM,
		.what = "-C percent of CPU every -I microseconds",
		.model = SIM_PERIODIC,
		.load = load_custom, .intensity = INT_PCT, .unit = "% CPU",
	},
};
const size_t nr_workloads = ARRAY_SIZE(workloads);

int workload_find(const char *name)
{
	for (size_t i = 0; i < nr_workloads; i++)
		if (!strcasecmp(name, workloads[i].name))
			return (int)i;
	return -1;
}

/* "Audio, Video, ..." of the workloads having every flag in need. */
void workload_names(unsigned need, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nr_workloads && used < len; i++) {
		if ((workloads[i].flags & need) != need)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
					 workloads[i].name);
	}
}

/* ---- the load process ---- */

struct snapshot {
	uint64_t wall, cpu, units, achieved, dropped;
};

static void take_snapshot(struct load_ctx *ctx, struct snapshot *s)
{
	s->wall = now_ns();
	s->cpu = process_cpu_ns();
	s->units = atomic_load(&ctx->ctr->units);
	s->achieved = atomic_load(&ctx->ctr->sim.achieved);
	s->dropped = atomic_load(&ctx->ctr->sim.dropped);
}

static double intensity(const struct workload *wl, const struct snapshot *a,
			const struct snapshot *b)
{
	double secs = (double)(b->wall - a->wall) / 1e9;
	uint64_t ach = b->achieved - a->achieved, drop = b->dropped - a->dropped;

	if (secs <= 0)
		return -1.0;
	switch (wl->intensity) {
	case INT_RATE:
		return (double)(b->units - a->units) * wl->unit_scale / secs;
	case INT_CPUS:
		return (double)(b->cpu - a->cpu) / 1e9 / secs;
	case INT_PCT:
		return ach + drop ? 100.0 * (double)ach / (double)(ach + drop) : 0.0;
	case INT_NONE:
		break;
	}
	return -1.0;
}

struct runner {
	const struct workload *wl;
	struct load_ctx *ctx;
	int ret;
	atomic_int done;
};

static void *runner_main(void *arg)
{
	struct runner *r = arg;

	r->ret = r->wl->load(r->ctx);
	atomic_store(&r->done, 1);
	return NULL;
}

static void on_sigusr1(int sig)
{
	(void)sig;		/* only there to interrupt blocking calls */
}

/* Interrupt every other thread of this process out of a blocking call. */
static void kick_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	pid_t self = (pid_t)syscall(SYS_gettid), pid = getpid();
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		long tid;

		if (parse_long(e->d_name, 1, 1L << 30, &tid) || tid == self)
			continue;
		syscall(SYS_tgkill, pid, (pid_t)tid, SIGUSR1);
	}
	closedir(d);
}

#define LOAD_STOP_NS (900 * NSEC_PER_MSEC)

/*
 * The body of a load process: start the load, say ready, then obey the
 * orchestrator: 'B' opens the measured window, 'S' closes it and stops the
 * load, whose result (intensity, and why it ended early) goes back.
 */
int load_process(const struct workload *wl, struct load_ctx *ctx, int ctl_fd, int res_fd)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	struct load_result res = { .status = ROW_OK, .intensity = -1.0 };
	struct runner r = { .wl = wl, .ctx = ctx };
	struct snapshot begin, end;
	pthread_t t;
	uint64_t deadline;
	char cmd = 0;
	int ret;

	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART: calls return EINTR */
	ctx->ctr = mmap(NULL, sizeof(*ctx->ctr), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctx->ctr == MAP_FAILED)
		return -errno;
	memset(ctx->ctr, 0, sizeof(*ctx->ctr));
	ret = pthread_create(&t, NULL, runner_main, &r);
	if (ret)
		return -ret;
	take_snapshot(ctx, &begin);
	if (write_full(res_fd, "R", 1) != 1)
		return -EPIPE;
	while (read_full(ctl_fd, &cmd, 1) == 1 && cmd != 'S') {
		if (cmd == 'B')
			take_snapshot(ctx, &begin);
	}
	take_snapshot(ctx, &end);
	atomic_store(&ctx->stop, 1);
	deadline = now_ns() + LOAD_STOP_NS;
	while (!atomic_load(&r.done) && now_ns() < deadline) {
		kick_threads();
		sleep_ns(5 * NSEC_PER_MSEC);
	}
	if (!atomic_load(&r.done)) {
		res.status = ROW_FAILED;
		snprintf(res.reason, sizeof(res.reason), "%s load did not stop within 1 s",
			 wl->name);
	} else {
		pthread_join(t, NULL);
		if (r.ret) {
			res.status = ROW_FAILED;
			snprintf(res.reason, sizeof(res.reason), "%s load stopped early: %.150s",
				 wl->name, ctx->reason[0] ? ctx->reason : strerror(-r.ret));
		}
	}
	res.intensity = intensity(wl, &begin, &end);
	if (cmd == 'S')
		write_full(res_fd, &res, sizeof(res));
	return 0;
}

/* ---- the files of Write, Read and Compile, made once per run ---- */

#define READ_CAP (256 * MIB)		/* the Read file: re-read from disk each pass */
#define WRITE_CAP (256 * MIB)		/* the Write file: rewritten each pass */

/*
 * Sizes of the Read and Write files, in whole MiB. Automatic: together at
 * most half of the free space, each at most 1/16 of RAM and its cap; -ENOSPC
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

static bool wants(unsigned need, const char *name)
{
	int i = workload_find(name);

	return i >= 0 && (need & (1u << i));
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
 * Make the files that the loads in need use, as unnamed files in the work
 * directory (nothing is left on disk however the run ends); the forked
 * loads inherit them. Returns 0, or -1 with one line in err.
 */
int load_prepare_files(const struct config *cfg, unsigned need, struct load_ctx *ctx,
		       volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	bool want_read = wants(need, "Read") || wants(need, "Compile");
	bool want_write = wants(need, "Write") || wants(need, "Compile");
	uint64_t free_bytes, ram;
	struct statvfs sv;
	const char *call;
	int ret;

	ctx->read_fd = ctx->write_fd = -1;
	ctx->read_size = ctx->write_size = 0;
	if (!want_read && !want_write)
		return 0;
	if (statvfs(cfg->work_dir, &sv) < 0) {
		snprintf(err, errlen, "statvfs %s: %s", cfg->work_dir, strerror(errno));
		return -1;
	}
	free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	if (load_file_sizes(free_bytes, ram, cfg->file_mib, want_read, want_write,
			    &ctx->read_size, &ctx->write_size)) {
		snprintf(err, errlen, "only %llu MiB free in %s: too little for the %s file%s",
			 to_mib(free_bytes), cfg->work_dir,
			 want_read && want_write ? "Read and Write" : want_read ? "Read" : "Write",
			 want_read && want_write ? "s" : "");
		return -1;
	}
	if (cfg->file_mib && ctx->read_size + ctx->write_size > free_bytes / 2)
		warn("--file-mib %ld: the files need more than half of the %llu MiB free in %s",
		     cfg->file_mib, to_mib(free_bytes), cfg->work_dir);
	if (want_write) {
		ret = open_tmpfile(cfg->work_dir, "interbench.write", &ctx->write_fd);
		if (ret) {
			snprintf(err, errlen, "cannot create the Write file in %s: %s", cfg->work_dir,
				 strerror(-ret));
			return -1;
		}
	}
	if (want_read) {
		ret = open_tmpfile(cfg->work_dir, "interbench.read", &ctx->read_fd);
		if (!ret)
			ret = fill_read_file(ctx->read_fd, ctx->read_size, stop, &call);
		else
			call = "create";
		if (ret) {
			snprintf(err, errlen, "cannot make the %llu MiB Read file in %s: %s: %s",
				 to_mib(ctx->read_size), cfg->work_dir, call, strerror(-ret));
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
