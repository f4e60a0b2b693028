/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib/gunzip.h - gunzip in memory, so a .gz file (/proc/config.gz) is read without zlib. */
#ifndef LIB_GUNZIP_H
#define LIB_GUNZIP_H

#include <stddef.h>
#include <stdint.h>

int gunzip(const uint8_t *in, size_t len, size_t max, char **out, size_t *out_len);
uint32_t crc32_ieee(const uint8_t *p, size_t n);

#endif
