// SPDX-License-Identifier: GPL-2.0-or-later
/* run/runlock.c - one run at a time per machine: an flock held for the run, naming its holder. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/sbuf.h"
#include "lib/util.h"
#include "run/runlock.h"

/*
 * The first of these that is world-writable and sticky, as every user's
 * runs must find the same file: /run/lock on most distributions, /tmp
 * where /run/lock is root's alone.
 */
static const char *const lock_dirs[] = { "/run/lock", "/tmp" };

#define LOCK_NAME "interbench.lock"
#define LOCK_ENV "INTERBENCH_TEST_LOCK"	/* tests/lib.sh: a lock of each test script's own */

/* "pid 1234\nstart 1764561234 (2026-12-01T05:00:34+01:00)\n": who holds the lock. */
int lock_format(char *buf, size_t len, long pid, time_t start)
{
	char when[40];

	fmt_iso8601(when, sizeof(when), start);
	return snprintf(buf, len, "pid %ld\nstart %lld (%s)\n", pid, (long long)start, when);
}

/* The holder named by a lock file's text; -EINVAL when it names none (empty, or not ours). */
int lock_parse(const char *text, long *pid, time_t *start)
{
	long long t;
	const char *s;

	if (sscanf(text, "pid %ld\n", pid) != 1 || *pid <= 0)
		return -EINVAL;
	s = strstr(text, "\nstart ");
	if (!s || sscanf(s, "\nstart %lld", &t) != 1 || t <= 0)
		return -EINVAL;
	*start = (time_t)t;
	return 0;
}

/*
 * The process holding an flock on the file dev:ino, from the text of
 * /proc/locks ("1: FLOCK  ADVISORY  WRITE 1234 fe:00:10952916 0 EOF"): its
 * pid, or 0 when no line names one (another PID namespace shows none).
 */
long lock_holder(const char *locks, unsigned maj, unsigned min, unsigned long ino)
{
	for (const char *s = locks; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL) {
		char type[16];
		unsigned lmaj, lmin;
		unsigned long lino;
		long pid;

		/* a waiter's line ("1: -> FLOCK ...") has "->" for its type: not the holder */
		if (sscanf(s, "%*d: %15s %*s %*s %ld %x:%x:%lu", type, &pid, &lmaj, &lmin,
			   &lino) == 5 && !strcmp(type, "FLOCK") && lmaj == maj && lmin == min &&
		    lino == ino && pid > 0)
			return pid;
	}
	return 0;
}

/*
 * Is exe, a /proc/PID/exe link's text, interbench's binary? The kernel adds
 * " (deleted)" once the file is gone, as when a build replaced it while it ran.
 */
bool exe_is_interbench(const char *exe)
{
	const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	size_t n = strlen(base), tail = strlen(" (deleted)");

	if (n > tail && !strcmp(base + n - tail, " (deleted)"))
		n -= tail;
	return n == strlen("interbench") && !strncmp(base, "interbench", n);
}

/* What pid is, from /proc: its comm and exe, whether it is interbench, and its owner. */
struct holder {
	char comm[32], exe[256];
	bool ours;			/* its executable is interbench */
	long uid;			/* -1: unknown */
};

static void holder_of(long pid, struct holder *h)
{
	char path[64], status[4096], *u;
	ssize_t n;

	*h = (struct holder){ .uid = -1 };
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (!read_small_file(path, h->comm, sizeof(h->comm)))
		h->comm[strcspn(h->comm, "\n")] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	n = readlink(path, h->exe, sizeof(h->exe) - 1);
	h->exe[n > 0 ? n : 0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	if (!read_small_file(path, status, sizeof(status)) && (u = strstr(status, "\nUid:")))
		h->uid = strtol(u + 6, NULL, 10);
	/* a comm is the first 15 bytes of the name; exe says it for sure where we may read it */
	h->ours = n > 0 ? exe_is_interbench(h->exe) : !strcmp(h->comm, "interbench");
}

/* Where the lock is: the test suite's own file when it names one, else the machine's. */
static bool lock_path(char *buf, size_t len)
{
	const char *env = getenv(LOCK_ENV);
	struct stat st;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(lock_dirs); i++) {
		if (stat(lock_dirs[i], &st) == 0 && S_ISDIR(st.st_mode) &&
		    (st.st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH)) {
			snprintf(buf, len, "%s/" LOCK_NAME, lock_dirs[i]);
			return false;
		}
	}
	snprintf(buf, len, "/tmp/" LOCK_NAME);
	return false;
}

/*
 * Open the lock file without following a planted link (the test's own path
 * may be one), creating it readable and writable by all, so that whoever
 * runs first, every user's run can take it. Somebody else's file we may
 * not write is still ours to lock: read-only is enough for flock().
 */
static int lock_open(const char *path, bool test)
{
	int flags = O_RDWR | O_CLOEXEC | O_NOCTTY | (test ? 0 : O_NOFOLLOW);
	int fd = open(path, flags);

	if (fd < 0 && errno == ENOENT) {
		fd = open(path, flags | O_CREAT | O_EXCL, 0666);
		if (fd >= 0)
			(void)!fchmod(fd, 0666);
		else if (errno == EEXIST)
			fd = open(path, flags);
	}
	if (fd < 0 && errno == EACCES)
		fd = open(path, (flags & ~O_RDWR) | O_RDONLY);
	return fd < 0 ? -errno : fd;
}

/* The pid holding the lock on fd's file, as the kernel lists it; 0 when it does not. */
static long kernel_holder(int fd)
{
	static char locks[1 << 16];
	struct stat st;

	if (fstat(fd, &st) < 0 || read_small_file("/proc/locks", locks, sizeof(locks)))
		return 0;
	return lock_holder(locks, major(st.st_dev), minor(st.st_dev), (unsigned long)st.st_ino);
}

/*
 * Another process holds the lock: name it from the kernel (/proc/locks), as
 * the file's text is anybody's to write; an interbench run's start comes
 * from what it wrote, when it wrote its own pid.
 */
static void lock_busy(int fd, const char *path, char *err, size_t errlen)
{
	char text[256], when[40], who[64] = "";
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	long pid = kernel_holder(fd), said;
	struct holder h;
	time_t start;

	text[n > 0 ? n : 0] = '\0';
	if (!pid) {
		set_err(err, errlen, "another process holds %s (the kernel does not say which): one "
			"run at a time, so that neither disturbs the other's numbers", path);
		return;
	}
	holder_of(pid, &h);
	if (h.uid >= 0 && h.uid != (long)getuid())
		snprintf(who, sizeof(who), ", of user %ld", h.uid);
	if (!h.ours) {
		set_err(err, errlen, "%s is locked by pid %ld (%s%s%s%s), which is not interbench: "
			"interbench runs one at a time and waits for no one; end it, or remove the "
			"file once it is gone", path, pid, h.comm[0] ? h.comm : "?",
			h.exe[0] ? ", " : "", h.exe, who);
		return;
	}
	if (lock_parse(text, &said, &start) || said != pid) {
		set_err(err, errlen, "another interbench run (pid %ld%s) holds %s: one run at a "
			"time, so that neither disturbs the other's numbers", pid, who, path);
		return;
	}
	fmt_iso8601(when, sizeof(when), start);
	set_err(err, errlen, "another interbench run (pid %ld, started %s%s) holds %s: one run at "
		"a time, so that neither disturbs the other's numbers", pid, when, who, path);
}

/*
 * Take the machine's run lock for as long as the returned descriptor stays
 * open (the kernel drops it when the process dies, however it dies), and
 * write who holds it. -1 with one line in err when another run holds it or
 * the lock cannot be had.
 */
int run_lock(time_t start, char *err, size_t errlen)
{
	char path[4096], text[256];
	bool test = lock_path(path, sizeof(path));
	struct stat st;
	int fd = lock_open(path, test), n;

	if (fd < 0)
		return set_err(err, errlen, "cannot open the run lock %s: %s", path, strerror(-fd));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return set_err(err, errlen, "the run lock %s is not a regular file", path);
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			lock_busy(fd, path, err, errlen);
		else
			set_err(err, errlen, "cannot lock %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	n = lock_format(text, sizeof(text), (long)getpid(), start);
	if (ftruncate(fd, 0) == 0)
		(void)!pwrite(fd, text, (size_t)n, 0);
	return fd;
}
