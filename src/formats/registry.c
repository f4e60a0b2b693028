// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/registry.c - every file format in one table: who writes it, how it is read back. */
#include <stddef.h>

#include "formats/format.h"
#include "formats/readers.h"
#include "model/config.h"

#define PATH_OF(f) offsetof(struct config, f)

/* Read back, the first whose sniff matches wins: the log, which reads any text, is last. */
const struct format formats[] = {
	{ .name = "JSON", .option = "--json", .path_off = PATH_OF(json_path), .writer = FW_RESULTS,
	  .head = json_head, .row = json_result_at, .tail = json_tail },
	{ .name = "CSV", .option = "--csv", .path_off = PATH_OF(csv_path), .writer = FW_RESULTS,
	  .head = csv_head, .row = csv_result_at, .sniff = csv_sniff, .parse = csv_parse },
	{ .name = "timeline", .option = "--timeline", .path_off = PATH_OF(timeline_path),
	  .writer = FW_TIMELINE },
	{ .name = "the fork's log", .writer = FW_NONE, .sniff = fork_sniff, .parse = log_parse },
	{ .name = "log", .writer = FW_REPORT, .parse = log_parse },
};
const size_t nr_formats = sizeof(formats) / sizeof(formats[0]);

const struct format *format_of(const char *text, size_t len)
{
	for (size_t i = 0; i < nr_formats; i++)
		if (formats[i].parse && (!formats[i].sniff || formats[i].sniff(text, len)))
			return &formats[i];
	return &formats[nr_formats - 1];
}

const char *format_path(const struct format *fm, const struct config *cfg)
{
	return fm->option ? *(const char *const *)((const char *)cfg + fm->path_off) : NULL;
}
