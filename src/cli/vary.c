// SPDX-License-Identifier: GPL-2.0-or-later
/* cli/vary.c - --vary NAME=V1,V2: which knob, which values, and the labels the outputs use. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/util.h"
#include "cli/vary.h"

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

/* The knobs of a whole name: what each changes. */
static const struct {
	const char *name;
	enum vary_kind kind;
} whole_knobs[] = {
	{ "preempt", VARY_PREEMPT },
	{ "iosched", VARY_SYSFS },
	{ "scx", VARY_SCX },
	{ "exec", VARY_EXEC },
};

/*
 * sysfs:PATH: the file, realpath'd, must be under /sys, so that a link
 * cannot lead a write elsewhere; the journal holds the resolved path.
 */
static int sysfs_path(struct config *cfg, const char *path, char *err, size_t errlen)
{
	char real[PATH_MAX];

	if (!realpath(path, real))
		return set_err(err, errlen, "--vary sysfs:%.60s: %s", path, strerror(errno));
	if (strncmp(real, "/sys/", 5))
		return set_err(err, errlen, "--vary sysfs:%.60s: not a file under /sys (it is "
			       "%.100s): only sysfs knobs are written", path, real);
	snprintf(cfg->vary_path, sizeof(cfg->vary_path), "%s", real);
	return 0;
}

/*
 * iosched: /sys/block/DEV/queue/scheduler of the disk that holds the work
 * directory: its device number's /sys/dev/block entry, and for a partition
 * the disk it is part of (a partition has no queue of its own).
 */
static int iosched_path(struct config *cfg, char *err, size_t errlen)
{
	char link[64], dev[PATH_MAX], part[PATH_MAX + 16];
	struct stat st;

	if (stat(cfg->work_dir, &st) < 0)
		return set_err(err, errlen, "--vary iosched: the work directory %.100s: %s",
			       cfg->work_dir, strerror(errno));
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!realpath(link, dev))
		return set_err(err, errlen, "--vary iosched: the work directory %.100s is on no "
			       "block device (%s: %s): give --work-dir a directory on a disk",
			       cfg->work_dir, link, strerror(errno));
	snprintf(part, sizeof(part), "%s/partition", dev);
	if (!access(part, F_OK))
		*strrchr(dev, '/') = '\0';
	snprintf(cfg->vary_device, sizeof(cfg->vary_device), "%s", strrchr(dev, '/') + 1);
	snprintf(part, sizeof(part), "/sys/block/%s/queue/scheduler", cfg->vary_device);
	if (access(part, F_OK))
		return set_err(err, errlen, "--vary iosched: %s, the disk under %.100s, has no I/O "
			       "scheduler (no %.100s)", cfg->vary_device, cfg->work_dir, part);
	if (strlen(part) >= sizeof(cfg->vary_path))
		return set_err(err, errlen, "--vary iosched: %.100s: %s", part,
			       strerror(ENAMETOOLONG));
	memcpy(cfg->vary_path, part, strlen(part) + 1);
	return 0;
}

/* Which knob: its kind, and for a task knob its option; -1 with err if none. */
static int vary_knob(struct config *cfg, const char *name, char *err, size_t errlen)
{
	for (size_t i = 0; i < ARRAY_SIZE(whole_knobs); i++) {
		if (strcmp(name, whole_knobs[i].name))
			continue;
		cfg->vary_kind = whole_knobs[i].kind;
		return cfg->vary_kind == VARY_SYSFS ? iosched_path(cfg, err, errlen) : 0;
	}
	if (!strncmp(name, "sysfs:", 6)) {
		cfg->vary_kind = VARY_SYSFS;
		return sysfs_path(cfg, name + 6, err, errlen);
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
		       "sysctl:NAME, sched-debug:FILE, sched-feature:NAME, preempt, sysfs:PATH, iosched, "
		       "scx, exec)", name);
}

/* Does the knob run a program: scx=, exec=. Their values are command lines. */
bool vary_runs_program(const struct config *cfg)
{
	return cfg->vary_kind == VARY_SCX || cfg->vary_kind == VARY_EXEC;
}

/* A value's characters: a command line may hold spaces, any other value only graphic ones. */
static bool value_chars_ok(const struct config *cfg, const char *v, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isgraph((unsigned char)v[i]) && !(vary_runs_program(cfg) && v[i] == ' '))
			return false;
	return true;
}

/*
 * One value into variant i: "default" leaves the knob as it is; on and off
 * for a feature; "none" (or "default") runs no program for scx= and exec=.
 */
static int vary_value(struct config *cfg, const char *v, size_t len, char *err, size_t errlen)
{
	struct variant *var = &cfg->variants[cfg->nvariants];
	int n;

	if (!len)
		return set_err(err, errlen, "--vary %s: an empty value", cfg->vary_name);
	if (len >= VARIANT_VALUE_LEN)
		return set_err(err, errlen, "--vary %s: a value longer than %d bytes",
			       cfg->vary_name, VARIANT_VALUE_LEN - 1);
	if (cfg->nvariants == MAX_VARIANTS)
		return set_err(err, errlen, "--vary %s: at most %d values", cfg->vary_name,
			       MAX_VARIANTS);
	if (!value_chars_ok(cfg, v, len) || v[0] == ' ' || v[len - 1] == ' ')
		return set_err(err, errlen, "--vary %s: a value with %s", cfg->vary_name,
			       vary_runs_program(cfg) ? "a control character or a space at an end" :
			       "a space or a control character");
	n = snprintf(var->label, sizeof(var->label), "%s=%.*s", cfg->vary_name, (int)len, v);
	if (n >= (int)sizeof(var->label))
		return set_err(err, errlen, "--vary %.60s: the knob and a value are longer than %d "
			       "bytes together", cfg->vary_name, VARIANT_LABEL_LEN - 1);
	if ((len == 7 && !strncmp(v, "default", 7)) ||
	    (vary_runs_program(cfg) && len == 4 && !strncmp(v, "none", 4)))
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
 * the kernel lists, read after the spec (vary_preempt_modes).
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
	if (cfg->vary_order == VORDER_DEFAULT)	/* a program costs seconds to switch */
		cfg->vary_order = vary_runs_program(cfg) ? VORDER_BLOCKS : VORDER_ABBA;
	if (cfg->nvariants < 2)
		return set_err(err, errlen, "--vary %s: one value is nothing to compare; give at "
			       "least two (a value may repeat: %s=%s,%s)", cfg->vary_name,
			       cfg->vary_name, cfg->variants[0].label + strlen(cfg->vary_name) + 1,
			       cfg->variants[0].label + strlen(cfg->vary_name) + 1);
	return 0;
}

/* --vary-order abba|blocks: when the variants switch; the default is the knob's (vary_parse). */
int vary_order_option(struct config *cfg, const char *arg, char *err, size_t errlen)
{
	if (!strcasecmp(arg, "abba"))
		cfg->vary_order = VORDER_ABBA;
	else if (!strcasecmp(arg, "blocks"))
		cfg->vary_order = VORDER_BLOCKS;
	else
		return set_err(err, errlen, "--vary-order: unknown order '%.32s' (valid: abba, "
			       "blocks)", arg);
	return 0;
}

/* --vary-ready FILE|S: a number is seconds to settle, anything else the file to wait for. */
int vary_ready_option(struct config *cfg, const char *arg, char *err, size_t errlen)
{
	char *end;
	double s = strtod(arg, &end);

	if (*arg && !*end) {
		if (!(s >= 0 && s <= 600))
			return set_err(err, errlen, "--vary-ready: %.32s s is out of range (0-600)",
				       arg);
		cfg->vary_settle_s = s;
		return 0;
	}
	if (!*arg)
		return set_err(err, errlen, "--vary-ready: an empty file name");
	cfg->vary_ready = arg;
	return 0;
}

#define PREEMPT_FILE "/sys/kernel/debug/sched/preempt"	/* run/sysknob.c writes it */
#define PREEMPT_TEXT_MAX 8192

/* --vary preempt alone: one variant per mode the kernel lists, in its order, read once here. */
int vary_preempt_modes(struct config *cfg, char *err, size_t errlen)
{
	static char text[PREEMPT_TEXT_MAX];
	int ret;

	if (cfg->vary_kind != VARY_PREEMPT || cfg->nvariants)
		return 0;
	ret = read_small_file(PREEMPT_FILE, text, sizeof(text));
	if (ret)
		return set_err(err, errlen, "--vary preempt: cannot read %s: %s (the modes are "
			       "listed there; debugfs mounted, and root?)", PREEMPT_FILE,
			       strerror(-ret));
	for (char *w = strtok(text, " ()\t\n"); w; w = strtok(NULL, " ()\t\n")) {
		struct variant *v = &cfg->variants[cfg->nvariants];

		if (cfg->nvariants == MAX_VARIANTS)
			break;
		snprintf(v->value, sizeof(v->value), "%s", w);
		snprintf(v->label, sizeof(v->label), "preempt=%s", w);
		cfg->nvariants++;
	}
	if (cfg->nvariants < 2)
		return set_err(err, errlen, "--vary preempt: %s lists %d mode%s: nothing to compare",
			       PREEMPT_FILE, cfg->nvariants, cfg->nvariants == 1 ? "" : "s");
	return 0;
}
