// SPDX-License-Identifier: GPL-2.0-or-later
/* run/vary.c - --vary NAME=V1,V2: which knob, which values, and the labels the outputs use. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/util.h"
#include "run/vary.h"

/* The task knobs --vary takes, by the name users know, and the option that sets each. */
static const struct {
	const char *name, *option;
} task_knobs[] = {
	{ "policy", "policy" },
	{ "slice", "slice" },
	{ "uclamp-min", "uclamp-min" },
	{ "uclamp-max", "uclamp-max" },
	{ "nice", "bench-nice" },
	{ "bench-nice", "bench-nice" },
	{ "load-nice", "load-nice" },
	{ "load-policy", "load-policy" },
	{ "cpu-load", "cpu-load" },
	{ "fps", "fps" },
};

/* The system knobs, by prefix; preempt alone is a whole name. */
static const struct {
	const char *prefix;
	enum vary_kind kind;
	const char *chars;		/* what the name after the prefix may hold */
} sys_knobs[] = {
	{ "sysctl:", VARY_SYSCTL, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/" },
	{ "sched-debug:", VARY_SCHED_DEBUG,
	  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-" },
	{ "sched-feature:", VARY_SCHED_FEATURE,
	  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_" },
};

/* A name a path is made of: the prefix's characters only, never ".." nor an absolute path. */
static bool sane_name(const char *s, const char *chars)
{
	return *s && strspn(s, chars) == strlen(s) && !strstr(s, "..") && *s != '/' && *s != '.';
}

/* Which knob: its kind, and for a task knob its option; -1 with err if none. */
static int vary_knob(struct config *cfg, const char *name, char *err, size_t errlen)
{
	if (!strcmp(name, "preempt")) {
		cfg->vary_kind = VARY_PREEMPT;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(task_knobs); i++) {
		if (!strcmp(name, task_knobs[i].name)) {
			cfg->vary_kind = VARY_TASK;
			cfg->vary_option = task_knobs[i].option;
			return 0;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(sys_knobs); i++) {
		size_t n = strlen(sys_knobs[i].prefix);

		if (strncmp(name, sys_knobs[i].prefix, n))
			continue;
		if (!sane_name(name + n, sys_knobs[i].chars))
			return set_err(err, errlen, "--vary: '%.60s' is not a knob name after %s",
				       name + n, sys_knobs[i].prefix);
		cfg->vary_kind = sys_knobs[i].kind;
		return 0;
	}
	return set_err(err, errlen, "--vary: unknown knob '%.60s' (valid: policy, slice, "
		       "uclamp-min, uclamp-max, nice, load-nice, load-policy, cpu-load, fps, "
		       "sysctl:NAME, sched-debug:FILE, sched-feature:NAME, preempt)", name);
}

/* One value into variant i: "default" leaves the knob as it is; on and off for a feature. */
static int vary_value(struct config *cfg, const char *v, size_t len, char *err, size_t errlen)
{
	struct variant *var = &cfg->variants[cfg->nvariants];

	if (!len)
		return set_err(err, errlen, "--vary %s: an empty value", cfg->vary_name);
	if (len >= VARIANT_VALUE_LEN)
		return set_err(err, errlen, "--vary %s: a value longer than %d bytes",
			       cfg->vary_name, VARIANT_VALUE_LEN - 1);
	if (cfg->nvariants == MAX_VARIANTS)
		return set_err(err, errlen, "--vary %s: at most %d values", cfg->vary_name,
			       MAX_VARIANTS);
	for (size_t i = 0; i < len; i++)
		if (!isgraph((unsigned char)v[i]))
			return set_err(err, errlen, "--vary %s: a value with a space or a control "
				       "character", cfg->vary_name);
	snprintf(var->label, sizeof(var->label), "%s=%.*s", cfg->vary_name, (int)len, v);
	if (len == 7 && !strncmp(v, "default", 7))
		var->value[0] = '\0';
	else
		snprintf(var->value, sizeof(var->value), "%.*s", (int)len, v);
	if (cfg->vary_kind == VARY_SCHED_FEATURE && var->value[0]) {
		if (strcasecmp(var->value, "on") && strcasecmp(var->value, "off"))
			return set_err(err, errlen, "--vary %s: '%s' is neither on nor off",
				       cfg->vary_name, var->value);
		for (char *c = var->value; *c; c++)
			*c = (char)tolower((unsigned char)*c);
	}
	cfg->nvariants++;
	return 0;
}

/*
 * --vary NAME=V1,V2[,...]: the knob and at least two values, each a
 * variant. A value may repeat (an A/A check of the machine's own noise):
 * the variant's index keeps the two apart. preempt alone takes the modes
 * the kernel lists, found later (sysknob_resolve).
 */
int vary_parse(struct config *cfg, char *err, size_t errlen)
{
	const char *spec = cfg->vary_spec, *eq = strchr(spec, '='), *v;
	size_t n = eq ? (size_t)(eq - spec) : strlen(spec);

	if (!n || n >= sizeof(cfg->vary_name))
		return set_err(err, errlen, "--vary: expected NAME=V1,V2 (for example "
			       "load-nice=0,19)");
	snprintf(cfg->vary_name, sizeof(cfg->vary_name), "%.*s", (int)n, spec);
	if (vary_knob(cfg, cfg->vary_name, err, errlen))
		return -1;
	if (!eq) {
		if (cfg->vary_kind == VARY_PREEMPT)
			return 0;
		return set_err(err, errlen, "--vary %s: no values (expected %s=V1,V2)",
			       cfg->vary_name, cfg->vary_name);
	}
	for (v = eq + 1;; v += n + 1) {
		n = strcspn(v, ",");
		if (vary_value(cfg, v, n, err, errlen))
			return -1;
		if (!v[n])
			break;
	}
	if (cfg->nvariants < 2)
		return set_err(err, errlen, "--vary %s: one value is nothing to compare; give at "
			       "least two (a value may repeat: %s=%s,%s)", cfg->vary_name,
			       cfg->vary_name, cfg->variants[0].label + strlen(cfg->vary_name) + 1,
			       cfg->variants[0].label + strlen(cfg->vary_name) + 1);
	return 0;
}
