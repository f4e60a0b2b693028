// SPDX-License-Identifier: GPL-2.0-or-later
/* sys/kernel_files.c - the kernel settings a run holds until it exits: PM QoS, tracefs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "lib/util.h"
#include "sys/kernel_files.h"

#define CPU_DMA_LATENCY "/dev/cpu_dma_latency"

static int pm_qos_fd = -1;	/* the request lives as long as this file is open */

static const char *need_root(int err)
{
	return err == EACCES || err == EPERM ? " (needs root)" : "";
}

/*
 * Ask for a CPU wakeup latency of at most usec (0 keeps CPUs out of deep
 * C-states) for as long as the process lives: the kernel drops the request
 * when the file is closed, which exit does. Children forked later share the
 * same open file, hence the same single request, and die with the run.
 */
int pm_qos_hold(long usec, char *err, size_t errlen)
{
	int32_t v = (int32_t)usec;
	int fd = open(CPU_DMA_LATENCY, O_WRONLY | O_CLOEXEC);
	ssize_t w;

	if (fd < 0) {
		snprintf(err, errlen, "--pm-qos: cannot open %s: %s%s", CPU_DMA_LATENCY,
			 strerror(errno), need_root(errno));
		return -1;
	}
	w = write_full(fd, &v, sizeof(v));
	if (w != (ssize_t)sizeof(v)) {
		snprintf(err, errlen, "--pm-qos: cannot write %ld to %s: %s", usec,
			 CPU_DMA_LATENCY, strerror(w < 0 ? (int)-w : EIO));
		close(fd);
		return -1;
	}
	pm_qos_fd = fd;
	return 0;
}

/* 0 when dir has a trace_marker, else the errno of looking for it. */
static int has_marker(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/trace_marker", dir);
	return access(path, F_OK) ? errno : 0;
}

/*
 * tracefs where it is mounted; as root, mounted at its usual place when
 * nowhere. *denied is set when one was there but out of our reach.
 */
const char *find_tracefs(bool *denied)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	*denied = false;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		int err = has_marker(dirs[i]);

		if (!err)
			return dirs[i];
		*denied |= err == EACCES || err == EPERM;
	}
	if (!*denied && geteuid() == 0 && mount("nodev", dirs[0], "tracefs", 0, NULL) == 0) {
		if (!has_marker(dirs[0])) {
			fprintf(stderr, "%s: mounted tracefs at %s\n", progname, dirs[0]);
			return dirs[0];
		}
		umount(dirs[0]);
	}
	return NULL;
}

static int open_in(const char *dir, const char *name, char *err, size_t errlen)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		snprintf(err, errlen, "--trace-above: cannot open %s: %s%s", path, strerror(errno),
			 need_root(errno));
	return fd;
}

/*
 * Open tracefs's trace_marker and tracing_on for writing, for the bench
 * process to mark the moment a latency goes over the threshold and stop the
 * trace right there. 0, or -1 with one line in err.
 */
int trace_open(char *dir, size_t dirlen, int *marker_fd, int *on_fd, char *err, size_t errlen)
{
	char path[128], on[8];
	bool denied;
	const char *d = find_tracefs(&denied);

	if (!d && denied) {
		snprintf(err, errlen, "--trace-above: cannot reach tracefs in /sys/kernel/tracing "
			 "or /sys/kernel/debug/tracing: %s (needs root)", strerror(EACCES));
		return -1;
	}
	if (!d) {
		snprintf(err, errlen, "--trace-above: tracefs is not available (no trace_marker in "
			 "/sys/kernel/tracing or /sys/kernel/debug/tracing; as root: "
			 "mount -t tracefs nodev /sys/kernel/tracing)");
		return -1;
	}
	*marker_fd = open_in(d, "trace_marker", err, errlen);
	if (*marker_fd < 0)
		return -1;
	*on_fd = open_in(d, "tracing_on", err, errlen);
	if (*on_fd < 0) {
		close(*marker_fd);
		*marker_fd = -1;
		return -1;
	}
	snprintf(dir, dirlen, "%s", d);
	snprintf(path, sizeof(path), "%s/tracing_on", d);
	if (!read_small_file(path, on, sizeof(on)) && !strcmp(on, "0"))
		warn("--trace-above: tracing is off (%s is 0): the trace will hold nothing new",
		     path);
	return 0;
}
