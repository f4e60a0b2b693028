// SPDX-License-Identifier: GPL-2.0-or-later
/* sys/proc_scan.c - every process's CPU time read from /proc at one instant, and what the
 * processes outside a run's tree used between two such scans. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/proc_scan.h"

/* One process's stat line into *p: 0, or -errno (gone since the directory was read). */
static int read_stat(const char *pid, struct proc_cpu *p)
{
	char path[64], buf[1024];
	int fd, ret;
	ssize_t r;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = read(fd, buf, sizeof(buf) - 1);
	ret = r > 0 ? 0 : -EIO;
	close(fd);
	if (ret)
		return ret;
	buf[r] = '\0';
	return proc_cpu_parse(buf, p);
}

static int read_busy(unsigned long long *busy)
{
	char buf[256];
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return -errno;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return -EIO;
	buf[r] = '\0';
	return proc_stat_busy(buf, busy);
}

/*
 * Every process's line of /proc/PID/stat, one open and read each (a few
 * hundred: milliseconds), and /proc/stat's busy ticks beside them. Taken
 * at a row's start and end only, never while it measures.
 */
int proc_scan_take(struct proc_scan *s)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int cap = 0, n = 0, ret;

	*s = (struct proc_scan){ 0 };
	if (!d)
		return -errno;
	ret = read_busy(&s->busy);
	while (!ret && (e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if (n == cap) {
			struct proc_cpu *p = grow_array(s->p, n, &cap, 256, sizeof(*s->p));

			if (!p) {
				ret = -ENOMEM;
				break;
			}
			s->p = p;
		}
		if (!read_stat(e->d_name, &s->p[n]))
			n++;
	}
	closedir(d);
	s->wall = now_ns();
	s->n = (size_t)n;
	if (ret) {
		proc_scan_free(s);
		return ret;
	}
	proc_cpu_sort(s->p, s->n);
	return 0;
}

void proc_scan_free(struct proc_scan *s)
{
	free(s->p);
	*s = (struct proc_scan){ 0 };
}

static double ticks_ns(unsigned long long t)
{
	static long hz;

	if (!hz)
		hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
	return (double)t * 1e9 / (double)hz;
}

/*
 * What the processes outside root's tree (root itself, its live
 * descendants, and what they reaped: the run's own) used between scans a
 * and b: /proc/stat's task time less the tree's, and the busiest of them.
 */
void foreign_between(const struct proc_scan *a, const struct proc_scan *b, pid_t root,
		     struct foreign *f)
{
	double wall = (double)(b->wall - a->wall);
	unsigned long long own0, own1, top_ticks;
	int top;

	*f = (struct foreign){ .pct = -1.0 };
	if (!a->p || !b->p || b->wall <= a->wall)
		return;
	own0 = proc_tree_ticks(a->p, a->n, root, true);
	own1 = proc_tree_ticks(b->p, b->n, root, true);
	f->pct = foreign_cpu_pct(ticks_ns(b->busy - a->busy), ticks_ns(own1 - own0), wall);
	top = proc_top_other(a->p, a->n, b->p, b->n, root, &top_ticks);
	if (top >= 0) {
		snprintf(f->top, sizeof(f->top), "%s", b->p[top].comm);
		f->top_pct = 100.0 * ticks_ns(top_ticks) / wall;
	}
}

/*
 * The CPU time of this process's descendants: those it reaped (and what
 * they had reaped), and the live ones, from a scan of /proc; a process
 * that left the tree without being reaped by it (not a subreaper) is not.
 */
uint64_t proc_children_cpu_ns(void)
{
	struct rusage ru;
	struct proc_scan s;
	double ns = 0;

	if (!getrusage(RUSAGE_CHILDREN, &ru))
		ns = ((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec) * 1e9 +
		     ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e3;
	if (!proc_scan_take(&s)) {
		struct proc_cpu *self = NULL;

		for (size_t i = 0; i < s.n && !self; i++)
			if (s.p[i].pid == getpid())
				self = &s.p[i];
		if (self)	/* the live ones: the tree less this process and what it reaped */
			ns += ticks_ns(proc_tree_ticks(s.p, s.n, getpid(), false) - self->reaped);
		proc_scan_free(&s);
	}
	return (uint64_t)ns;
}
