/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model/knob_text.h - the knobs a run used, as text: the log's "Scheduling:" line, CSV columns,
 * JSON keys. */
#ifndef MODEL_KNOB_TEXT_H
#define MODEL_KNOB_TEXT_H

#include <stdbool.h>
#include <stddef.h>


enum knob {
	KN_POLICY, KN_RT_PRIORITY, KN_SLICE, KN_UCLAMP_MIN, KN_UCLAMP_MAX, KN_LOAD_POLICY,
	NR_KNOBS,
};

struct knob_desc {
	const char *log;		/* key in the log line: the option's name */
	const char *file;		/* key in JSON's run, column in CSV */
	const char *unit;		/* after a value in the log */
	bool number;			/* JSON: a number, else a string */
};
extern const struct knob_desc knob_descs[NR_KNOBS];

#define KNOB_LEN 24
struct knob_values {
	bool known;			/* a log without the line: nothing known */
	char v[NR_KNOBS][KNOB_LEN];	/* "" when the knob was left to the kernel */
};

void knobs_line(const struct knob_values *kv, char *buf, size_t len);
void knobs_parse_line(const char *s, struct knob_values *kv);
bool knobs_equal(const struct knob_values *a, const struct knob_values *b);
void knobs_text(const struct knob_values *kv, const bool *which, char *buf, size_t len);

#endif
