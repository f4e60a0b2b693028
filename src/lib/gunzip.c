// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/gunzip.c - gunzip in memory (RFC 1951 and 1952), so /proc/config.gz can be read without
 * zlib. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/gunzip.h"

struct inflate {
	const uint8_t *in;
	size_t in_len, in_pos;
	uint32_t bitbuf;		/* bits not yet used, LSB first */
	unsigned bitcnt;
	uint8_t *out;
	size_t out_cap, out_len;
};

struct huffman {		/* canonical code: counts per length, symbols in code order */
	uint16_t count[16];
	uint16_t symbol[288];
};

/* n (<= 16) bits, LSB first; -1 when the input ends. */
static int bits(struct inflate *s, unsigned n)
{
	uint32_t v;

	while (s->bitcnt < n) {
		if (s->in_pos >= s->in_len)
			return -1;
		s->bitbuf |= (uint32_t)s->in[s->in_pos++] << s->bitcnt;
		s->bitcnt += 8;
	}
	v = s->bitbuf & ((1u << n) - 1);
	s->bitbuf >>= n;
	s->bitcnt -= n;
	return (int)v;
}

/* Build a code from lengths; < 0 when over-subscribed (incomplete codes fail on use). */
static int huff_build(struct huffman *h, const uint8_t *len, unsigned n)
{
	uint16_t offs[16];
	int left = 1;

	memset(h->count, 0, sizeof(h->count));
	for (unsigned i = 0; i < n; i++)
		h->count[len[i]]++;
	for (unsigned l = 1; l < 16; l++) {
		left = 2 * left - h->count[l];
		if (left < 0)
			return -1;
	}
	offs[1] = 0;
	for (unsigned l = 1; l < 15; l++)
		offs[l + 1] = (uint16_t)(offs[l] + h->count[l]);
	for (unsigned i = 0; i < n; i++)
		if (len[i])
			h->symbol[offs[len[i]]++] = (uint16_t)i;
	return 0;
}

/* One symbol, read a bit at a time: slow, small, and plenty for a kernel config. */
static int decode(struct inflate *s, const struct huffman *h)
{
	int code = 0, first = 0, index = 0;

	for (unsigned len = 1; len < 16; len++) {
		int b = bits(s, 1), count = h->count[len];

		if (b < 0)
			return -1;
		code |= b;
		if (code - count < first)
			return h->symbol[index + (code - first)];
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -1;
}

static const uint16_t len_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
};
static const uint8_t len_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
};
static const uint16_t dist_base[30] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
	1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
};
static const uint8_t dist_extra[30] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11,
	12, 12, 13, 13,
};

/* A back-reference: len bytes from dist back, possibly overlapping itself. */
static int copy_back(struct inflate *s, unsigned len, unsigned dist)
{
	if (dist > s->out_len)
		return -EINVAL;
	if (len > s->out_cap - s->out_len)
		return -EFBIG;
	for (unsigned i = 0; i < len; i++, s->out_len++)
		s->out[s->out_len] = s->out[s->out_len - dist];
	return 0;
}

/* The literal/length and distance symbols of one block, up to end-of-block. */
static int codes(struct inflate *s, const struct huffman *lit, const struct huffman *dist)
{
	for (;;) {
		int sym = decode(s, lit), e, d, de, ret;

		if (sym < 0)
			return -EINVAL;
		if (sym < 256) {
			if (s->out_len == s->out_cap)
				return -EFBIG;
			s->out[s->out_len++] = (uint8_t)sym;
			continue;
		}
		if (sym == 256)
			return 0;
		sym -= 257;
		if (sym >= 29 || (e = bits(s, len_extra[sym])) < 0)
			return -EINVAL;
		d = decode(s, dist);
		if (d < 0 || d >= 30 || (de = bits(s, dist_extra[d])) < 0)
			return -EINVAL;
		ret = copy_back(s, len_base[sym] + (unsigned)e, dist_base[d] + (unsigned)de);
		if (ret)
			return ret;
	}
}

static int stored(struct inflate *s)
{
	const uint8_t *p;
	unsigned len;

	s->bitbuf = 0;		/* to the byte boundary */
	s->bitcnt = 0;
	if (s->in_len - s->in_pos < 4)
		return -EINVAL;
	p = s->in + s->in_pos;
	len = p[0] | (unsigned)p[1] << 8;
	if ((p[2] | (unsigned)p[3] << 8) != (~len & 0xffff))
		return -EINVAL;
	s->in_pos += 4;
	if (s->in_len - s->in_pos < len)
		return -EINVAL;
	if (s->out_cap - s->out_len < len)
		return -EFBIG;
	memcpy(s->out + s->out_len, s->in + s->in_pos, len);
	s->in_pos += len;
	s->out_len += len;
	return 0;
}

static int fixed(struct inflate *s)
{
	static struct huffman lit, dist;
	static int built;
	uint8_t len[288];

	if (!built) {
		memset(len, 8, 144);
		memset(len + 144, 9, 112);
		memset(len + 256, 7, 24);
		memset(len + 280, 8, 8);
		huff_build(&lit, len, 288);
		memset(len, 5, 30);
		huff_build(&dist, len, 30);
		built = 1;
	}
	return codes(s, &lit, &dist);
}

/* The code lengths of a dynamic block, themselves Huffman coded. */
static int dynamic_lengths(struct inflate *s, uint8_t *len, unsigned n)
{
	static const uint8_t order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
	};
	struct huffman lencode;
	unsigned ncode, i = 0;
	int v;

	if ((v = bits(s, 4)) < 0)
		return -EINVAL;
	ncode = (unsigned)v + 4;
	memset(len, 0, 19);
	for (unsigned k = 0; k < ncode; k++) {
		if ((v = bits(s, 3)) < 0)
			return -EINVAL;
		len[order[k]] = (uint8_t)v;
	}
	if (huff_build(&lencode, len, 19))
		return -EINVAL;
	while (i < n) {
		int sym = decode(s, &lencode), rep;
		uint8_t fill = 0;

		if (sym < 0)
			return -EINVAL;
		if (sym < 16) {
			len[i++] = (uint8_t)sym;
			continue;
		}
		if (sym == 16) {
			if (i == 0)
				return -EINVAL;
			fill = len[i - 1];
			rep = bits(s, 2) + 3;
		} else {
			rep = sym == 17 ? bits(s, 3) + 3 : bits(s, 7) + 11;
		}
		if (rep < 3 || i + (unsigned)rep > n)
			return -EINVAL;
		memset(len + i, fill, (size_t)rep);
		i += (unsigned)rep;
	}
	return 0;
}

static int dynamic(struct inflate *s)
{
	struct huffman lit, dist;
	uint8_t len[286 + 30];
	int nlen, ndist, ret;

	nlen = bits(s, 5);
	ndist = bits(s, 5);
	if (nlen < 0 || ndist < 0)
		return -EINVAL;
	nlen += 257;
	ndist += 1;
	if (nlen > 286 || ndist > 30)
		return -EINVAL;
	ret = dynamic_lengths(s, len, (unsigned)(nlen + ndist));
	if (ret)
		return ret;
	if (!len[256] || huff_build(&lit, len, (unsigned)nlen) ||
	    huff_build(&dist, len + nlen, (unsigned)ndist))
		return -EINVAL;
	return codes(s, &lit, &dist);
}

static int inflate_blocks(struct inflate *s)
{
	int last, type, ret;

	do {
		last = bits(s, 1);
		type = bits(s, 2);
		if (last < 0 || type < 0)
			return -EINVAL;
		switch (type) {
		case 0: ret = stored(s); break;
		case 1: ret = fixed(s); break;
		case 2: ret = dynamic(s); break;
		default: ret = -EINVAL; break;
		}
		if (ret)
			return ret;
	} while (!last);
	return 0;
}

uint32_t crc32_ieee(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;

	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Skip a NUL-terminated header field; false when it runs off the end. */
static bool skip_string(const uint8_t *in, size_t len, size_t *pos)
{
	const uint8_t *nul = memchr(in + *pos, 0, len - *pos);

	if (!nul)
		return false;
	*pos = (size_t)(nul - in) + 1;
	return true;
}

/* Where the deflate data of a gzip member starts, or 0 when the header is bad. */
static size_t gzip_header(const uint8_t *in, size_t len)
{
	size_t pos = 10;
	uint8_t flg;

	if (len < 18 || in[0] != 0x1f || in[1] != 0x8b || in[2] != 8)
		return 0;
	flg = in[3];
	if (flg & 0xe0)
		return 0;
	if (flg & 4) {			/* FEXTRA */
		if (len - pos < 2)
			return 0;
		pos += 2 + (in[pos] | (size_t)in[pos + 1] << 8);
		if (pos > len)
			return 0;
	}
	if ((flg & 8) && !skip_string(in, len, &pos))		/* FNAME */
		return 0;
	if ((flg & 16) && !skip_string(in, len, &pos))		/* FCOMMENT */
		return 0;
	if (flg & 2)			/* FHCRC */
		pos += 2;
	return pos <= len ? pos : 0;
}

/*
 * Decompress the first member of a gzip file into a new NUL-terminated
 * buffer of at most max bytes. 0, or -EINVAL (corrupt), -EFBIG, -ENOMEM.
 */
int gunzip(const uint8_t *in, size_t len, size_t max, char **out, size_t *out_len)
{
	struct inflate s = { .in = in, .in_len = len };
	uint32_t isize;
	int ret;

	*out = NULL;
	s.in_pos = gzip_header(in, len);
	if (!s.in_pos)
		return -EINVAL;
	isize = le32(in + len - 4);	/* a hint for the size; checked below */
	if (isize > max)
		return -EFBIG;
	s.out_cap = isize;
	s.out = malloc(s.out_cap + 1);
	if (!s.out)
		return -ENOMEM;
	ret = inflate_blocks(&s);
	if (!ret && (s.in_len - s.in_pos < 8 ||
		     le32(in + s.in_pos) != crc32_ieee(s.out, s.out_len) ||
		     le32(in + s.in_pos + 4) != (uint32_t)s.out_len))
		ret = -EINVAL;
	if (ret) {
		free(s.out);
		return ret == -EFBIG ? -EINVAL : ret;	/* more than ISIZE said: corrupt */
	}
	s.out[s.out_len] = '\0';
	*out = (char *)s.out;
	*out_len = s.out_len;
	return 0;
}
