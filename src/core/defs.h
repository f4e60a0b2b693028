/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/defs.h - the few words every part shares: units, array sizes, a row's status. */
#ifndef CORE_DEFS_H
#define CORE_DEFS_H

#define INTERBENCH_VERSION "1.0.0"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL
#define MIB (1024ULL * 1024ULL)

#define PRINTF(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))

/* How a row ended, from the bench process to every output. */
enum row_status { ROW_OK, ROW_FAILED, ROW_SKIPPED };

#define REASON_LEN 200			/* why a row failed, or what went wrong */

#endif
