// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_text.c - unit tests: escaping, quoting, time, sysinfo parsing and inflate. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/gunzip.h"
#include "lib/util.h"
#include "loads/loads.h"
#include "lib/sbuf.h"
#include "model/record.h"
#include "child/child.h"
#include "model/config.h"
#include "model/plan.h"
#include "sys/machine.h"
#include "task/task.h"

#include "tests/unit.h"

/* ---- machine-readable output: escaping, quoting, numbers, time ---- */

struct str_case {
	const char *in;		/* NULL: the missing value */
	const char *want;
};

static const struct str_case json_cases[] = {
	{ "plain", "\"plain\"" },
	{ "", "\"\"" },
	{ NULL, "null" },
	{ "say \"hi\"", "\"say \\\"hi\\\"\"" },
	{ "back\\slash", "\"back\\\\slash\"" },
	{ "\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\"" },
	{ "\x01 \x1f \x7f", "\"\\u0001 \\u001f \\u007f\"" },
	{ "\xc3\xbcn\xc3\xaf \xe2\x9c\x93 \xf0\x9f\x98\x80",		/* UTF-8 as it is */
	  "\"\xc3\xbcn\xc3\xaf \xe2\x9c\x93 \xf0\x9f\x98\x80\"" },
	{ "bad \xff byte", "\"bad \\ufffd byte\"" },
	{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },				/* overlong '/' */
	{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },		/* a surrogate */
	{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },	/* above U+10FFFF */
	{ "cut \xe2\x9c", "\"cut \\ufffd\\ufffd\"" },		/* cut short at the end */
	{ "\x80 lone", "\"\\ufffd lone\"" },
};

static const struct str_case csv_cases[] = {
	{ "plain", "plain" },
	{ "", "" },
	{ NULL, "" },
	{ "a,b", "\"a,b\"" },
	{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
	{ "two\nlines", "\"two\nlines\"" },
	{ "cr\r", "\"cr\r\"" },
	{ "back\\slash; tab\t", "back\\slash; tab\t" },
	{ "\xc3\xbcn\xc3\xaf \xe2\x9c\x93", "\xc3\xbcn\xc3\xaf \xe2\x9c\x93" },
	{ "bad \xff byte", "bad \xef\xbf\xbd byte" },
};

static bool test_str_cases(const struct str_case *cases, size_t n,
			   void (*fn)(struct sbuf *, const char *))
{
	for (size_t i = 0; i < n; i++) {
		struct sbuf sb;
		bool ok;

		sb_init(&sb);
		fn(&sb, cases[i].in);
		ok = !sb.failed && sb.len == strlen(cases[i].want) &&
		     !memcmp(sb.buf ? sb.buf : "", cases[i].want, sb.len);
		if (!ok)
			snprintf(detail, sizeof(detail), "case %zu: got [%s], want [%s]", i,
				 sb.buf ? sb.buf : "", cases[i].want);
		sb_free(&sb);
		if (!ok)
			return false;
	}
	return true;
}

/* Every byte value: the output is printable ASCII or well-formed UTF-8 only. */
static bool test_json_all_bytes(void)
{
	char in[256];
	struct sbuf sb;
	bool ok = true;

	for (int i = 1; i < 256; i++)
		in[i - 1] = (char)i;
	in[255] = '\0';
	sb_init(&sb);
	json_string(&sb, in);
	for (size_t i = 0; i < sb.len && ok;) {
		size_t n = utf8_valid_len((const unsigned char *)sb.buf + i);

		ok = n && ((unsigned char)sb.buf[i] >= 0x20 && sb.buf[i] != 0x7f);
		i += n ? n : 1;
	}
	sb_free(&sb);
	EXPECT(ok, "raw control character or bad UTF-8 in the output");
	return true;
}

static bool test_json_number(void)
{
	static const struct { double v; const char *want; } cases[] = {
		{ 0, "0" }, { 1, "1" }, { 0.1, "0.1" }, { 1234567, "1234567" }, { -2.5, "-2.5" },
		{ 1e300, "1e+300" }, { 1.0 / 3, "0.3333333333333333" },
		{ 0.1 + 0.2, "0.30000000000000004" }, { 326098.65, "326098.65" },
		{ NAN, "null" }, { INFINITY, "null" }, { -INFINITY, "null" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sbuf sb;
		bool ok;

		sb_init(&sb);
		json_number(&sb, cases[i].v);
		ok = !strcmp(sb.buf, cases[i].want);
		if (!ok)
			snprintf(detail, sizeof(detail), "%g -> %s, want %s", cases[i].v, sb.buf,
				 cases[i].want);
		sb_free(&sb);
		if (!ok)
			return false;
	}
	srand(7);
	for (int i = 0; i < 10000; i++) {
		double v = (double)rand() / 3.7 * pow(10, rand() % 40 - 20);
		struct sbuf sb;
		bool ok;

		sb_init(&sb);
		json_number(&sb, v);
		ok = strtod(sb.buf, NULL) == v;
		sb_free(&sb);
		EXPECT(ok, "%.17g does not read back", v);
	}
	return true;
}

static bool test_iso8601(void)
{
	static const struct { const char *tz; time_t t; const char *want; } cases[] = {
		{ "UTC0", 0, "1970-01-01T00:00:00+00:00" },
		{ "CET-1", 0, "1970-01-01T01:00:00+01:00" },
		{ "IST-5:30", 0, "1970-01-01T05:30:00+05:30" },
		{ "EST5", 0, "1969-12-31T19:00:00-05:00" },
		{ "UTC0", 1795808643, "2026-11-27T19:44:03+00:00" },
	};
	char *old = getenv("TZ") ? strdup(getenv("TZ")) : NULL;
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(cases) && ok; i++) {
		char buf[40];

		setenv("TZ", cases[i].tz, 1);
		tzset();
		fmt_iso8601(buf, sizeof(buf), cases[i].t);
		ok = !strcmp(buf, cases[i].want);
		if (!ok)
			snprintf(detail, sizeof(detail), "%s: %s, want %s", cases[i].tz, buf,
				 cases[i].want);
	}
	if (old)
		setenv("TZ", old, 1);
	else
		unsetenv("TZ");
	tzset();
	free(old);
	return ok;
}

/* ---- sysinfo: what the kernel says, parsed ---- */

static bool test_marked(void)
{
	static const struct { const char *s; char open, close; const char *want; } cases[] = {
		{ "none [mq-deadline] kyber bfq", '[', ']', "mq-deadline" },
		{ "[none] bfq", '[', ']', "none" },
		{ "none", '[', ']', NULL },
		{ "none voluntary (full) lazy ", '(', ')', "full" },
		{ "[]", '[', ']', NULL },
		{ "[open", '[', ']', NULL },
		{ NULL, '[', ']', NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char out[32];
		int ret = sysinfo_marked(cases[i].s, cases[i].open, cases[i].close, out,
					 sizeof(out));

		EXPECT(cases[i].want ? !ret && !strcmp(out, cases[i].want) : ret < 0 && !out[0],
		       "case %zu: %d '%s'", i, ret, out);
	}
	return true;
}

struct preempt_case {
	const char *name;
	struct preempt_in in;
	const char *model;	/* NULL: not decided */
	const char *source;
	int dynamic;
};

#define DYN "#1 SMP PREEMPT_DYNAMIC Mon Jan 1"
static const struct preempt_case preempt_cases[] = {
	{ "PREEMPT_RT in uname -v", { .uname_v = "#1 SMP PREEMPT_RT Fri", .release = "6.12.0" },
	  "rt", "uname", -1 },
	{ "debugfs (parentheses)", { .debugfs = "none voluntary (full) lazy ", .uname_v = DYN },
	  "full", "debugfs", 1 },
	{ "debugfs (brackets)", { .debugfs = "none voluntary full [lazy]", .uname_v = DYN },
	  "lazy", "debugfs", 1 },
	{ "debugfs wins over preempt=", { .debugfs = "(none) voluntary full",
	  .uname_v = DYN, .cmdline = "preempt=full" }, "none", "debugfs", 1 },
	{ "preempt= of a dynamic kernel", { .uname_v = DYN,
	  .cmdline = "ro preempt=voluntary quiet" }, "voluntary", "cmdline", 1 },
	{ "preempt= after -- is for init", { .uname_v = DYN,
	  .cmdline = "preempt=full -- preempt=none" }, "full", "cmdline", 1 },
	{ "the last valid preempt= counts", { .uname_v = DYN,
	  .cmdline = "preempt=none preempt=lazy preempt=bogus" }, "lazy", "cmdline", 1 },
	{ "bad preempt=, config default", { .uname_v = DYN, .cmdline = "preempt=bogus",
	  .config = "CONFIG_PREEMPT_NONE=y\nCONFIG_PREEMPT_DYNAMIC=y\n",
	  .config_path = "/proc/config.gz" }, "none", "/proc/config.gz", 1 },
	{ "dynamic, nothing else", { .uname_v = DYN, .release = "6.1.0" }, NULL, NULL, 1 },
	{ "PREEMPT before 6.13 is full", { .uname_v = "#1 SMP PREEMPT Mon", .release = "6.1.0-13" },
	  "full", "uname", -1 },
	{ "PREEMPT since 6.13 may be lazy", { .uname_v = "#1 SMP PREEMPT Mon",
	  .release = "6.14.2" }, NULL, NULL, -1 },
	{ "config: lazy", { .uname_v = "#1 SMP PREEMPT Mon", .release = "6.14.2",
	  .config = "# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_LAZY=y\n", .config_path = "c" },
	  "lazy", "c", 0 },
	{ "config: voluntary", { .uname_v = "#1 SMP", .release = "6.1.0",
	  .config = "# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_VOLUNTARY=y", .config_path = "c" },
	  "voluntary", "c", 0 },
	{ "config: exact lines only", { .uname_v = "#1 SMP", .release = "6.1.0",
	  .config = "CONFIG_PREEMPT_RT=y\n", .config_path = "c" }, "rt", "c", 0 },
	{ "preempt= ignored without dynamic", { .uname_v = "#1 SMP", .cmdline = "preempt=full",
	  .config = "CONFIG_PREEMPT_NONE=y\n", .config_path = "c" }, "none", "c", 0 },
	{ "no PREEMPT word, no config", { .uname_v = "#1 SMP", .release = "6.1.0" },
	  NULL, NULL, -1 },
};

static bool test_preempt_case(const struct preempt_case *c)
{
	char model[16];
	const char *src;
	int dyn, ret = sysinfo_preemption(&c->in, model, sizeof(model), &src, &dyn);

	if (!c->model) {
		EXPECT(ret < 0 && !model[0] && !src, "decided '%s' from %s", model, src);
	} else {
		EXPECT(!ret && !strcmp(model, c->model) && src && !strcmp(src, c->source),
		       "got %d '%s' from %s, want '%s' from %s", ret, model, src ? src : "-",
		       c->model, c->source);
	}
	EXPECT(dyn == c->dynamic, "dynamic %d, want %d", dyn, c->dynamic);
	return true;
}

static bool test_mountinfo(void)
{
	static const char *line = "36 35 98:0 /mnt1 /mnt2 rw,noatime shared:1 master:1 - "
				  "ext3 /dev/root rw,errors=continue\n";
	char fs[16], src[32];

	EXPECT(!sysinfo_mountinfo_line(line, 98, 0, fs, sizeof(fs), src, sizeof(src)) &&
	       !strcmp(fs, "ext3") && !strcmp(src, "/dev/root"), "'%s' '%s'", fs, src);
	EXPECT(sysinfo_mountinfo_line(line, 98, 1, fs, sizeof(fs), src, sizeof(src)) < 0,
	       "wrong minor matched");
	EXPECT(sysinfo_mountinfo_line("garbage", 98, 0, fs, sizeof(fs), src, sizeof(src)) < 0,
	       "garbage matched");
	return true;
}

/* ---- gunzip.c: gzip streams made by Python's zlib ---- */

static const uint8_t gz_stored[] = {
	0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0x01, 0x12,
	0x00, 0xed, 0xff, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x68, 0x65, 0x6c,
	0x6c, 0x6f, 0x20, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x0a, 0x3b, 0x7c, 0x8a,
	0xdf, 0x12, 0x00, 0x00, 0x00,
};
static const uint8_t gz_fixed[] = {
	0x1f, 0x8b, 0x08, 0x08, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff, 0x66, 0x2e,
	0x74, 0x78, 0x74, 0x00, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57, 0xc8, 0x40,
	0x90, 0x5c, 0x00, 0x3b, 0x7c, 0x8a, 0xdf, 0x12, 0x00, 0x00, 0x00,
};
static const uint8_t gz_dynamic[] = {
	0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff, 0x6d, 0x97,
	0x31, 0x4e, 0x65, 0x31, 0x10, 0x04, 0xf3, 0x3d, 0x8d, 0xc7, 0xf6, 0x78,
	0xc6, 0x01, 0x11, 0x12, 0x2b, 0x12, 0x3e, 0x01, 0x39, 0x27, 0xe0, 0x00,
	0xdc, 0x1e, 0x6d, 0xb8, 0x54, 0xa5, 0xd6, 0x8c, 0xd4, 0xee, 0x2e, 0xbd,
	0xf6, 0x7b, 0x7e, 0xbc, 0xbd, 0xbc, 0xfe, 0xfd, 0x7c, 0xbc, 0x7f, 0xbc,
	0x3e, 0xde, 0x3e, 0xc7, 0xd3, 0xd7, 0x9f, 0xe7, 0xff, 0x4e, 0xe2, 0xe9,
	0xfb, 0xd7, 0xc9, 0xc4, 0xc9, 0xc2, 0xd6, 0xc6, 0x4c, 0xe2, 0xe4, 0x60,
	0xab, 0x30, 0xd3, 0x38, 0xb9, 0x54, 0x38, 0x30, 0x14, 0x54, 0x1d, 0x93,
	0x8b, 0x8b, 0x53, 0x14, 0x1e, 0xc9, 0xc5, 0xc3, 0x29, 0x6a, 0x8f, 0xe6,
	0xe2, 0xa5, 0x9b, 0x54, 0x3f, 0x03, 0x8b, 0x93, 0xa6, 0x4f, 0xaa, 0x9f,
	0x9b, 0x8b, 0xf4, 0x7d, 0x52, 0xfd, 0x2c, 0x2e, 0xd2, 0xfa, 0x49, 0xf5,
	0x8b, 0xc0, 0x2c, 0x7a, 0xbf, 0x04, 0x19, 0x32, 0xb3, 0xe8, 0xfd, 0xa2,
	0xfa, 0x45, 0x6c, 0x16, 0xbd, 0x5f, 0x54, 0xbf, 0x48, 0xce, 0xa6, 0xf7,
	0x9b, 0xea, 0x37, 0xc9, 0xd9, 0xf4, 0x7e, 0x53, 0xfd, 0x26, 0x39, 0x9b,
	0xde, 0x6f, 0xaa, 0xdf, 0x24, 0x67, 0xd3, 0xfb, 0xa4, 0xfa, 0x24, 0x39,
	0x49, 0xef, 0x93, 0xea, 0x93, 0xe4, 0x24, 0xbd, 0x4f, 0xaa, 0x4f, 0x92,
	0x93, 0xf4, 0x3e, 0xa9, 0xfe, 0x90, 0x9c, 0x43, 0xef, 0x0f, 0xd5, 0x1f,
	0x92, 0x73, 0xe8, 0xfd, 0x91, 0xef, 0x0d, 0xc9, 0x39, 0xf4, 0xfe, 0x50,
	0xfd, 0x21, 0x39, 0x45, 0xef, 0x8b, 0xea, 0x8b, 0xe4, 0x14, 0xbd, 0x2f,
	0xaa, 0x2f, 0x92, 0x53, 0xf4, 0xbe, 0xa8, 0xbe, 0x48, 0x4e, 0xd1, 0xfb,
	0xa6, 0xfa, 0x26, 0x39, 0x4d, 0xef, 0x9b, 0xea, 0x9b, 0xe4, 0x34, 0xbd,
	0x6f, 0xaa, 0x6f, 0x92, 0xd3, 0xf4, 0xbe, 0xa9, 0xfe, 0x92, 0x9c, 0x4b,
	0xef, 0x2f, 0xd5, 0x5f, 0x92, 0x73, 0xe9, 0xfd, 0xa5, 0xfa, 0x4b, 0x72,
	0x2e, 0xbd, 0xbf, 0x52, 0x56, 0xd6, 0x56, 0x52, 0x57, 0x43, 0xfa, 0x6a,
	0x48, 0x61, 0x0d, 0x69, 0xac, 0x21, 0x95, 0x35, 0xa4, 0xb3, 0x86, 0x94,
	0xd6, 0x90, 0xd6, 0x1a, 0x52, 0x5b, 0xe3, 0x4a, 0xc5, 0x5a, 0xed, 0x92,
	0xa2, 0x88, 0x29, 0x73, 0x72, 0x8f, 0xd8, 0xb2, 0x9b, 0x32, 0x27, 0xf7,
	0x88, 0x92, 0xdd, 0x96, 0x39, 0xb9, 0xc7, 0x94, 0x37, 0xcf, 0xb4, 0xf7,
	0x83, 0xdc, 0x63, 0x2e, 0xd9, 0x95, 0x3c, 0xa4, 0x85, 0x63, 0x1e, 0xd9,
	0x95, 0x3c, 0xa4, 0x88, 0x63, 0x0a, 0x57, 0x4b, 0xf2, 0x90, 0x2e, 0x8e,
	0x65, 0x0f, 0x21, 0xc9, 0x43, 0xea, 0x38, 0x96, 0x70, 0xb5, 0x24, 0x0f,
	0x69, 0xe4, 0x58, 0xc2, 0xd5, 0x92, 0x3c, 0xa4, 0x94, 0x63, 0x0b, 0x57,
	0x5b, 0xf2, 0xd8, 0xf6, 0xa2, 0x13, 0xae, 0xb6, 0xe4, 0x21, 0xd5, 0x1c,
	0x5b, 0xb8, 0xda, 0x92, 0x87, 0xb4, 0x73, 0xa4, 0x70, 0x95, 0x92, 0x87,
	0x14, 0x74, 0xa4, 0x70, 0x95, 0xf6, 0x34, 0x95, 0x7b, 0xa4, 0x70, 0x95,
	0x92, 0x87, 0xd4, 0x74, 0xa4, 0x70, 0x75, 0x24, 0x0f, 0x69, 0xea, 0x38,
	0xc2, 0xd5, 0x91, 0x3c, 0xa4, 0xac, 0xe3, 0xd8, 0x1b, 0x5b, 0xf2, 0x90,
	0xbe, 0x8e, 0x23, 0x5c, 0x1d, 0xc9, 0x43, 0x2a, 0x3b, 0x4a, 0xb8, 0x2a,
	0xc9, 0x43, 0x5a, 0x3b, 0x4a, 0xb8, 0x2a, 0xc9, 0xa3, 0xec, 0x67, 0x41,
	0xb8, 0x2a, 0xc9, 0x43, 0xba, 0x3b, 0x5a, 0xb8, 0x6a, 0xc9, 0x43, 0xea,
	0x3b, 0x5a, 0xb8, 0x6a, 0xc9, 0x43, 0x1a, 0x3c, 0x5a, 0xb8, 0x6a, 0xfb,
	0xeb, 0x91, 0x7b, 0xb4, 0x70, 0x75, 0x25, 0x0f, 0xe9, 0xf1, 0xb8, 0xc2,
	0xd5, 0x95, 0x3c, 0xa4, 0xca, 0xe3, 0x0a, 0x57, 0x57, 0xf2, 0x90, 0x36,
	0x8f, 0x6b, 0xbf, 0x6f, 0xff, 0xf2, 0xf8, 0x01, 0xc3, 0x75, 0x18, 0x37,
	0x32, 0x0f, 0x00, 0x00,
};

static const char *dynamic_text(void)
{
	static char text[8192];
	size_t used = 0;

	for (int i = 0; i < 200; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "CONFIG_OPTION_%d=%s\n",
					 i, i % 3 ? "y" : "m");
	return text;
}

static bool gunzip_is(const uint8_t *gz, size_t len, const char *want)
{
	char *out;
	size_t n;
	int ret = gunzip(gz, len, 1 << 20, &out, &n);

	EXPECT(!ret, "gunzip: %s", strerror(-ret));
	EXPECT(n == strlen(want) && !memcmp(out, want, n) && !out[n], "wrong output (%zu bytes)",
	       n);
	free(out);
	return true;
}

static bool test_gunzip(void)
{
	uint8_t bad[sizeof(gz_dynamic)];
	char *out;
	size_t n;

	if (!gunzip_is(gz_stored, sizeof(gz_stored), "hello hello hello\n") ||
	    !gunzip_is(gz_fixed, sizeof(gz_fixed), "hello hello hello\n") ||
	    !gunzip_is(gz_dynamic, sizeof(gz_dynamic), dynamic_text()))
		return false;
	memcpy(bad, gz_dynamic, sizeof(bad));
	bad[sizeof(bad) - 5] ^= 1;	/* the CRC */
	EXPECT(gunzip(bad, sizeof(bad), 1 << 20, &out, &n) == -EINVAL, "bad CRC accepted");
	memcpy(bad, gz_dynamic, sizeof(bad));
	bad[40] ^= 0x55;		/* the data */
	EXPECT(gunzip(bad, sizeof(bad), 1 << 20, &out, &n) < 0, "corrupt data accepted");
	EXPECT(gunzip(gz_dynamic, sizeof(gz_dynamic) - 12, 1 << 20, &out, &n) < 0,
	       "truncated stream accepted");
	EXPECT(gunzip(gz_dynamic, sizeof(gz_dynamic), 100, &out, &n) == -EFBIG, "limit ignored");
	EXPECT(gunzip((const uint8_t *)"not gzip at all, really", 23, 1 << 20, &out, &n) == -EINVAL,
	       "not gzip accepted");
	return true;
}

/* A whole stream into buf; its length, or 0 when empty or too long. */
static size_t slurp(FILE *f, char *buf, size_t cap)
{
	size_t n = fread(buf, 1, cap, f);

	return n < cap ? n : 0;
}

/* 1: same as zcat, 0: differs, -1: no /proc/config.gz or no zcat here. */
static int config_gz_vs_zcat(void)
{
	static char gz[4 << 20], ref[16 << 20];
	size_t gzlen = 0, reflen = 0, n;
	FILE *f = fopen("/proc/config.gz", "re"), *p;
	char *out;
	int ret = 0;

	if (f) {
		gzlen = slurp(f, gz, sizeof(gz));
		fclose(f);
	}
	p = gzlen ? popen("zcat /proc/config.gz 2>/dev/null", "r") : NULL;
	if (p) {
		reflen = slurp(p, ref, sizeof(ref));
		if (pclose(p) != 0)
			reflen = 0;
	}
	if (!reflen)
		return -1;
	if (!gunzip((const uint8_t *)gz, gzlen, sizeof(ref), &out, &n)) {
		ret = n == reflen && !memcmp(out, ref, n);
		free(out);
	}
	if (!ret)
		snprintf(detail, sizeof(detail), "differs from zcat's %zu bytes", reflen);
	return ret;
}

void unit_text(void)
{
	char name[160];
	int ret;

	check("json: string escaping table", test_str_cases(json_cases, ARRAY_SIZE(json_cases),
							    json_string));
	check("json: every byte value gives valid output", test_json_all_bytes());
	check("json: numbers read back exactly; NaN and infinities are null", test_json_number());
	check("csv: RFC 4180 quoting table", test_str_cases(csv_cases, ARRAY_SIZE(csv_cases),
							     csv_field));
	check("report: ISO 8601 with the zone offset", test_iso8601());
	check("sysinfo: the marked choice of a sysfs list", test_marked());
	for (size_t i = 0; i < ARRAY_SIZE(preempt_cases); i++) {
		snprintf(name, sizeof(name), "sysinfo: preemption: %s", preempt_cases[i].name);
		check(name, test_preempt_case(&preempt_cases[i]));
	}
	check("sysinfo: a mountinfo line", test_mountinfo());
	check("inflate: stored, fixed and dynamic blocks; corrupt input refused", test_gunzip());
	if ((ret = config_gz_vs_zcat()) < 0)
		skip("inflate: /proc/config.gz as zcat reads it", "no /proc/config.gz or zcat");
	else
		check("inflate: /proc/config.gz as zcat reads it", ret == 1);
}
