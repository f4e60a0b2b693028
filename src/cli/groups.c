// SPDX-License-Identifier: GPL-2.0-or-later
/* cli/groups.c - -W A+B+C, benchmarks measured at the same time, and the Desktop preset. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/util.h"
#include "model/workloads.h"
#include "cli/options.h"


/* A group is named by a '+' between names, or by a preset's name. */
bool group_spec(const char *arg)
{
	return strchr(arg, '+') || !strcasecmp(arg, "Desktop");
}

/* One member's name, of len bytes, into g; a message when it is none or named before. */
static int add_member(struct task_group *g, const char *arg, const char *name, size_t len,
		      char *err, size_t errlen)
{
	char one[48], names[256];
	int i;

	if (!len || len >= sizeof(one))
		return set_err(err, errlen, "-W %.80s: a group's members are benchmark names "
			       "joined by '+'", arg);
	memcpy(one, name, len);
	one[len] = '\0';
	i = workload_find(one);
	if (i < 0 || !(workloads[i].flags & WL_BENCH) || workloads[i].not_by_name) {
		workload_names(WL_BENCH, names, sizeof(names));
		return set_err(err, errlen, "-W %.80s: unknown benchmark '%s' (valid: %s)", arg,
			       one, names);
	}
	if (g->mask & (1u << i))
		return set_err(err, errlen, "-W %.80s: %s is named twice; a group's members "
			       "differ", arg, workloads[i].name);
	if (g->n == GROUP_MAX)
		return set_err(err, errlen, "-W %.80s: more than %d members", arg, GROUP_MAX);
	g->member[g->n++] = i;
	g->mask |= 1u << i;
	return 0;
}

/*
 * -W A+B+C (or a preset) as a group of the run: its members, in the order
 * given, and its name in the registry's spelling. Each name is one
 * benchmark (a group of one is the benchmark itself, named without '+');
 * a member named twice, or the same group twice, is an error.
 */
int group_parse(struct config *cfg, const char *arg, char *err, size_t errlen)
{
	const char *spec = strcasecmp(arg, "Desktop") ? arg : GROUP_DESKTOP;
	struct task_group g = { 0 };
	size_t used = 0;

	for (const char *s = spec;; s++) {
		size_t len = strcspn(s, "+");

		if (add_member(&g, arg, s, len, err, errlen))
			return -1;
		s += len;
		if (!*s)
			break;
	}
	for (int k = 0; k < g.n; k++)
		used += (size_t)snprintf(g.name + used, sizeof(g.name) - used, "%s%s",
					 k ? "+" : "", workloads[g.member[k]].name);
	for (int k = 0; k < cfg->ngroups; k++)
		if (cfg->groups[k].mask == g.mask)
			return set_err(err, errlen, "-W %.80s: the group %s is given twice", arg,
				       cfg->groups[k].name);
	if (cfg->ngroups == MAX_GROUPS)
		return set_err(err, errlen, "-W %.80s: more than %d groups", arg, MAX_GROUPS);
	cfg->groups[cfg->ngroups++] = g;
	cfg->grouped |= g.mask;
	return 0;
}
