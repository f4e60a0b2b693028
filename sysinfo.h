/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysinfo.h - what describes the machine and the kernel in a report. */
#ifndef SYSINFO_H
#define SYSINFO_H

#include <stddef.h>

void sysinfo_cpu_model(char *buf, size_t len);
void sysinfo_kernel_release(char *buf, size_t len);

#endif
