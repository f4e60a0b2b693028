// SPDX-License-Identifier: GPL-2.0-or-later
/* cli/ncpus.c - --ncpus: the list of CPU counts, the allowed set read at start, and a row's
 * children confined to its first N CPUs. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "cli/options.h"
#include "sys/cgroup.h"

#define NCPUS_ARG_MAX 256		/* longer is no list of counts we could hold */

/*
 * "1,2,4" into counts, in the order given: each a whole number from 1 to
 * max, none twice, at most MAX_NCPUS. allowed names the set for the
 * message of a count above max ("0-1"). 0, or -1 with one line in err.
 */
int ncpus_parse(const char *arg, int max, const char *allowed, int *counts, int *n,
		char *err, size_t errlen)
{
	char buf[NCPUS_ARG_MAX], *save = NULL, *tok;
	size_t len = strlen(arg);

	*n = 0;
	if (!len || len >= sizeof(buf) || arg[0] == ',' || arg[len - 1] == ',' ||
	    strstr(arg, ",,"))
		return set_err(err, errlen, "--ncpus: '%.40s' is not a list of CPU counts "
			       "(expected, say, 1,2,4)", arg);
	memcpy(buf, arg, len + 1);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long v;
		int ret = parse_long(tok, 0, 1L << 20, &v);

		if (ret || v < 1)
			return set_err(err, errlen, "--ncpus: '%.20s' is %s (expected CPU counts "
				       "from 1 to %d)", tok, ret == -EINVAL ? "not a number" :
				       "out of range", max);
		if (v > max)
			return set_err(err, errlen, "--ncpus %.20s: this process may use %d CPU%s "
				       "(%s)", tok, max, max == 1 ? "" : "s", allowed);
		for (int i = 0; i < *n; i++)
			if (counts[i] == v)
				return set_err(err, errlen, "--ncpus: %ld is given twice", v);
		if (*n == MAX_NCPUS)
			return set_err(err, errlen, "--ncpus: at most %d counts", MAX_NCPUS);
		counts[(*n)++] = (int)v;
	}
	return 0;
}

/* The CPUs this process may use at start: what every row's first N are taken from. */
static cpu_set_t start_set;
static bool start_known;

/* The set as a list, "0-1,4". */
static void set_text(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && used < len; c++) {
		int e = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		used += (size_t)snprintf(buf + used, len - used, e > c ? "%s%d-%d" : "%s%d",
					 used ? "," : "", c, e);
		c = e;
	}
}

/* --ncpus LIST: the allowed set read now, then the list checked against what we may use. */
int ncpus_option(struct config *cfg, const char *arg, char *err, size_t errlen)
{
	char allowed[160] = "CPUs ";
	int max = usable_cpus();

	if (sched_getaffinity(0, sizeof(start_set), &start_set) < 0)
		return set_err(err, errlen, "--ncpus: sched_getaffinity: %s", strerror(errno));
	start_known = true;
	set_text(&start_set, allowed + 5, sizeof(allowed) - 5);
	if (max < CPU_COUNT(&start_set))
		snprintf(allowed + strlen(allowed), sizeof(allowed) - strlen(allowed),
			 ", of which the cgroup lets it use %d", max);
	return ncpus_parse(arg, max, allowed, cfg->ncpus, &cfg->nncpus, err, errlen);
}

/*
 * The calling process to the first n CPUs of the set allowed at start,
 * before it starts any thread or child: all of them inherit it.
 */
int cpus_confine(int n, char *err, size_t errlen)
{
	cpu_set_t set, first;
	int got = 0;

	if (start_known)
		set = start_set;
	else if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return set_err(err, errlen, "sched_getaffinity: %s", strerror(errno));
	CPU_ZERO(&first);
	for (int c = 0; c < CPU_SETSIZE && got < n; c++)
		if (CPU_ISSET(c, &set)) {
			CPU_SET(c, &first);
			got++;
		}
	if (got < n)
		return set_err(err, errlen, "--ncpus %d: only %d CPUs allowed", n, got);
	if (sched_setaffinity(0, sizeof(first), &first) < 0)
		return set_err(err, errlen, "--ncpus %d: sched_setaffinity: %s", n,
			       strerror(errno));
	return 0;
}
