/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib/sha256.h - SHA-256 (FIPS 180-4), so that a run records which workload file it ran. */
#ifndef LIB_SHA256_H
#define LIB_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;			/* hashed so far */
	uint8_t block[64];		/* the part of a block not hashed yet */
};

#define SHA256_HEX_LEN 65		/* 64 hex digits and the NUL */

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_hex(struct sha256 *s, char hex[SHA256_HEX_LEN]);	/* finishes s */
int sha256_file(const char *path, char hex[SHA256_HEX_LEN], uint64_t *size, int64_t *mtime,
		char *err, size_t errlen);

#endif
