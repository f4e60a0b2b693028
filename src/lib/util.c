// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/util.c - errors, the one strict number parser, clocks and safe files. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

const char *progname = "interbench";

static void vreport(const char *prefix, const char *fmt, va_list ap) PRINTF(2, 0);
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "%s: %s%s\n", progname, prefix, buf);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(1);
}

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

/* Put one line of error into err for the caller to print; returns -1. */
int set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Decimal only: no sign games, no hex, no spaces, no "inf". */
static bool plain_number(const char *s, bool allow_point)
{
	bool digits = false, point = false;

	if (*s == '-' || *s == '+')
		s++;
	for (; *s; s++) {
		if (isdigit((unsigned char)*s)) {
			digits = true;
		} else if (*s == '.' && allow_point && !point) {
			point = true;
		} else {
			return false;
		}
	}
	return digits;
}

/*
 * s read whole as a plain decimal into *l (strtol) or, with l NULL, into *d
 * (strtod): 0, -EINVAL (not a number) or -ERANGE (too big for the type).
 */
static int parse_plain(const char *s, long *l, double *d)
{
	char *end;

	if (!s || !plain_number(s, !l))
		return -EINVAL;
	errno = 0;
	if (l)
		*l = strtol(s, &end, 10);
	else
		*d = strtod(s, &end);
	if (*end)
		return -EINVAL;
	return errno == ERANGE ? -ERANGE : 0;
}

/* 0, or -EINVAL (not a number) or -ERANGE (outside [min, max]). */
int parse_long(const char *s, long min, long max, long *out)
{
	long v;
	int ret = parse_plain(s, &v, NULL);

	if (!ret && (v < min || v > max))
		ret = -ERANGE;
	if (!ret)
		*out = v;
	return ret;
}

int parse_double(const char *s, double min, double max, double *out)
{
	double v;
	int ret = parse_plain(s, NULL, &v);

	if (!ret && (!isfinite(v) || v < min || v > max))
		ret = -ERANGE;
	if (!ret)
		*out = v;
	return ret;
}

/*
 * Room for one more after the n elements of size in base, whose room is
 * *cap: base itself, or base grown to twice its room (first when it has
 * none). NULL when out of memory, base then left as it was.
 */
void *grow_array(void *base, int n, int *cap, int first, size_t size)
{
	int room = *cap ? *cap * 2 : first;
	void *p;

	if (n < *cap)
		return base;
	p = realloc(base, (size_t)room * size);
	if (p)
		*cap = room;
	return p;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

uint64_t process_cpu_ns(void)
{
	return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

static struct timespec ns_to_ts(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};
	return ts;
}

/* Sleep until an absolute CLOCK_MONOTONIC instant; -EINTR when a signal came. */
int sleep_until(uint64_t t_ns)
{
	struct timespec ts = ns_to_ts(t_ns);
	int ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

	return ret ? -ret : 0;
}

/* Relative sleep that survives signals: the deadline is absolute. */
void sleep_ns(uint64_t ns)
{
	uint64_t until = now_ns() + ns;

	while (sleep_until(until) == -EINTR)
		;
}

/* read() until len bytes, EOF or an error other than EINTR. */
ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = read(fd, (char *)buf + done, len - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

/* All of buf, at off (pwrite) or, with off < 0, at the file's offset (write); EINTR retried. */
static ssize_t write_all(int fd, const void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		const char *p = (const char *)buf + done;
		ssize_t r = off < 0 ? write(fd, p, len - done) :
			    pwrite(fd, p, len - done, off + (off_t)done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

ssize_t write_full(int fd, const void *buf, size_t len)
{
	return write_all(fd, buf, len, -1);
}

ssize_t pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	return off < 0 ? -EINVAL : write_all(fd, buf, len, off);
}

/* A small text file (sysfs, procfs) into buf, NUL-terminated, newline cut. */
int read_small_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t r;

	if (fd < 0)
		return -errno;
	r = read_full(fd, buf, len - 1);
	close(fd);
	if (r < 0)
		return (int)r;
	buf[r] = '\0';
	while (r > 0 && (buf[r - 1] == '\n' || buf[r - 1] == ' '))
		buf[--r] = '\0';
	return 0;
}

/*
 * A scratch file in dir that has no name, so nothing is left behind even if
 * we are killed: O_TMPFILE where the filesystem has it, else a mkstemp name
 * (O_EXCL, so a planted symlink is never followed) unlinked at once.
 */
int open_tmpfile(const char *dir, const char *stem, int *fd)
{
	char path[PATH_MAX];

	*fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (*fd >= 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -errno;
	if (snprintf(path, sizeof(path), "%s/%s.XXXXXX", dir, stem) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	*fd = mkostemp(path, O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	unlink(path);
	return 0;
}

/* A new file of ours beside path, ".NAME.XXXXXX" (O_EXCL), readable by all; its fd or -errno. */
int create_beside(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/');
	int n, fd, err;

	base = base ? base + 1 : path;
	n = snprintf(name, len, "%.*s.%s.XXXXXX", (int)(base - path), path, base);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0644) < 0) {
		err = -errno;
		close(fd);
		unlink(name);
		return err;
	}
	return fd;
}

/* Replace path atomically: write a private temporary file, then rename. */
int replace_file(const char *path, const char *data, size_t len)
{
	char tmp[PATH_MAX];
	ssize_t w;
	int fd, ret = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write_full(fd, data, len);
	if (w < 0)
		ret = (int)w;
	if (fchmod(fd, 0644) < 0 && !ret)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

/*
 * Open the log for appending, refusing anything that could make us write
 * where we should not: a symlink (-ELOOP), a FIFO or device or a file with
 * other hard links (-EPERM), or a file owned by somebody else (-EACCES,
 * also what open() says of one we may not write).
 */
int open_log_append(const char *path)
{
	struct stat st;
	int fd, flags;

	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
			O_CLOEXEC | O_NOCTTY, 0644);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    st.st_uid != geteuid()) {
		int ret = S_ISREG(st.st_mode) && st.st_nlink == 1 ? -EACCES : -EPERM;

		close(fd);
		return ret;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	return fd;
}

int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* CPUs this process may run on (taskset, cgroups), at least 1. */
int allowed_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return online_cpus();
	return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
}
