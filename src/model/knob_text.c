// SPDX-License-Identifier: GPL-2.0-or-later
/* model/knob_text.c - the scheduling knobs as text: the log's "Scheduling:" line, written and
 * read, and their names in JSON and CSV. */
#include <stdio.h>
#include <string.h>

#include "model/record.h"
#include "model/log_format.h"

const struct knob_desc knob_descs[NR_KNOBS] = {
	[KN_POLICY] = { "policy", "policy", "", false },
	[KN_RT_PRIORITY] = { "rt-priority", "rt_priority", "", true },
	[KN_SLICE] = { "slice", "slice_us", " us", true },
	[KN_UCLAMP_MIN] = { "uclamp-min", "uclamp_min_pct", " %", true },
	[KN_UCLAMP_MAX] = { "uclamp-max", "uclamp_max_pct", " %", true },
	[KN_LOAD_POLICY] = { "load-policy", "load_policy", "", false },
};

/*
 * "key value[ unit], ..." of the knobs in which (NULL: all), rt-priority only
 * when it has a value; a knob left to the kernel reads "default".
 */
void knobs_text(const struct knob_values *kv, const bool *which, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < NR_KNOBS && n < len; k++) {
		const char *v = kv->v[k];

		if ((which && !which[k]) || (k == KN_RT_PRIORITY && !*v))
			continue;	/* rt-priority: only for fifo and rr */
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s%s", n ? ", " : "",
				      knob_descs[k].log, *v ? v : "default",
				      *v ? knob_descs[k].unit : "");
	}
}

/* The log's line, without its newline: "Scheduling: policy other, slice default, ..." */
void knobs_line(const struct knob_values *kv, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", LOG_MARK(LM_SCHEDULING));

	if (n < len)
		knobs_text(kv, NULL, buf + n, len - n);
}

/* The text after "Scheduling: " back into values; keys it does not know are skipped. */
void knobs_parse_line(const char *s, struct knob_values *kv)
{
	memset(kv, 0, sizeof(*kv));
	kv->known = true;
	while (*s) {
		size_t item = strcspn(s, ","), key = strcspn(s, " ,");

		for (int k = 0; k < NR_KNOBS; k++) {
			const char *v = s + key + (s[key] == ' ');
			size_t vlen = item - (size_t)(v - s), ulen = strlen(knob_descs[k].unit);

			if (strlen(knob_descs[k].log) != key || strncmp(s, knob_descs[k].log, key) ||
			    v > s + item)
				continue;
			if (ulen && vlen > ulen && !strncmp(v + vlen - ulen, knob_descs[k].unit, ulen))
				vlen -= ulen;
			if (!(vlen == 7 && !strncmp(v, "default", 7)))
				snprintf(kv->v[k], KNOB_LEN, "%.*s", (int)vlen, v);
		}
		s += item;
		s += strspn(s, ", ");
	}
}

bool knobs_equal(const struct knob_values *a, const struct knob_values *b)
{
	if (a->known != b->known)
		return false;
	for (int k = 0; k < NR_KNOBS; k++)
		if (strcmp(a->v[k], b->v[k]))
			return false;
	return true;
}
