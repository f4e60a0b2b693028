/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysinfo.h - what describes the machine and the kernel in a report. */
#ifndef SYSINFO_H
#define SYSINFO_H

#include <stddef.h>
#include <stdint.h>

void sysinfo_cpu_model(char *buf, size_t len);
void sysinfo_kernel_release(char *buf, size_t len);

/* inflate.c */
int gunzip(const uint8_t *in, size_t len, size_t max, char **out, size_t *out_len);
uint32_t crc32_ieee(const uint8_t *p, size_t n);

#endif
