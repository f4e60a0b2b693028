/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib/util.h - what every part but the core uses: errors, strict numbers, growing arrays,
 * clocks, safe files. */
#ifndef LIB_UTIL_H
#define LIB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/defs.h"

extern const char *progname;
void die(const char *fmt, ...) PRINTF(1, 2) NORETURN;
void error(const char *fmt, ...) PRINTF(1, 2);
void warn(const char *fmt, ...) PRINTF(1, 2);
int set_err(char *err, size_t errlen, const char *fmt, ...) PRINTF(3, 4);

int parse_long(const char *s, long min, long max, long *out);
int parse_double(const char *s, double min, double max, double *out);

void *grow_array(void *base, int n, int *cap, int first, size_t size);

uint64_t now_ns(void);			/* CLOCK_MONOTONIC */
uint64_t thread_cpu_ns(void);		/* CLOCK_THREAD_CPUTIME_ID */
uint64_t process_cpu_ns(void);		/* CLOCK_PROCESS_CPUTIME_ID */
void sleep_ns(uint64_t ns);		/* relative, restarts after signals */
int sleep_until(uint64_t t_ns);		/* absolute, 0 or -EINTR */

ssize_t read_full(int fd, void *buf, size_t len);
ssize_t write_full(int fd, const void *buf, size_t len);
ssize_t pwrite_full(int fd, const void *buf, size_t len, off_t off);
int read_small_file(const char *path, char *buf, size_t len);
int open_tmpfile(const char *dir, const char *stem, int *fd);
int replace_file(const char *path, const char *data, size_t len);
int create_beside(const char *path, char *name, size_t len);
int open_log_append(const char *path);
int online_cpus(void);
int allowed_cpus(void);

#endif
