/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys/kernel_files.h - the kernel files a run holds or writes: /dev/cpu_dma_latency, tracefs. */
#ifndef SYS_KERNEL_FILES_H
#define SYS_KERNEL_FILES_H

#include <stdbool.h>
#include <stddef.h>

int pm_qos_hold(long usec, char *err, size_t errlen);
const char *find_tracefs(bool *denied);
int trace_open(char *dir, size_t dirlen, int *marker_fd, int *on_fd, char *err, size_t errlen);

#endif
