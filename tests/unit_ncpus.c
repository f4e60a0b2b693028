// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_ncpus.c - unit tests of --ncpus: the list's parser, the options around it, and
 * the plan's order of counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/workloads.h"
#include "cli/options.h"
#include "model/plan.h"
#include "sys/cgroup.h"

#include "tests/unit.h"

struct list_case {
	const char *arg;
	int max;
	int n;			/* counts parsed; -1: refused */
	int want[4];
	const char *want_err;	/* a piece of the message */
};

static const struct list_case list_cases[] = {
	{ "1", 2, 1, { 1 }, NULL },
	{ "1,2", 2, 2, { 1, 2 }, NULL },
	{ "4,1,2", 4, 3, { 4, 1, 2 }, NULL },
	{ "2", 1, -1, { 0 }, "--ncpus 2: this process may use 1 CPU (CPUs 0)" },
	{ "3", 2, -1, { 0 }, "may use 2 CPUs" },
	{ "0", 2, -1, { 0 }, "'0' is out of range (expected CPU counts from 1 to 2)" },
	{ "-1", 2, -1, { 0 }, "out of range" },
	{ "1,1", 2, -1, { 0 }, "--ncpus: 1 is given twice" },
	{ "x", 2, -1, { 0 }, "'x' is not a number" },
	{ "1x", 2, -1, { 0 }, "'1x' is not a number" },
	{ " 1", 2, -1, { 0 }, "not a number" },
	{ "1.5", 2, -1, { 0 }, "not a number" },
	{ "", 2, -1, { 0 }, "is not a list of CPU counts" },
	{ "1,", 2, -1, { 0 }, "is not a list" },
	{ ",1", 2, -1, { 0 }, "is not a list" },
	{ "1,,2", 2, -1, { 0 }, "is not a list" },
	{ "99999999999999999999", 2, -1, { 0 }, "out of range" },
};

static bool test_list(const struct list_case *c)
{
	int counts[MAX_NCPUS], n = -1, ret;
	char err[256] = "";

	ret = ncpus_parse(c->arg, c->max, "CPUs 0", counts, &n, err, sizeof(err));
	if (c->n < 0) {
		EXPECT(ret < 0, "'%s' accepted", c->arg);
		EXPECT(strstr(err, c->want_err), "'%s': '%s' lacks '%s'", c->arg, err, c->want_err);
		EXPECT(!strchr(err, '\n'), "'%s': more than one line", c->arg);
		return true;
	}
	EXPECT(!ret, "'%s' refused: %s", c->arg, err);
	EXPECT(n == c->n, "'%s': %d counts, want %d", c->arg, n, c->n);
	for (int i = 0; i < n; i++)
		EXPECT(counts[i] == c->want[i], "'%s': count %d is %d, want %d", c->arg, i,
		       counts[i], c->want[i]);
	return true;
}

static bool test_too_many(void)
{
	char arg[256] = "";
	int counts[MAX_NCPUS], n;
	size_t used = 0;
	char err[256];

	for (int i = 1; i <= MAX_NCPUS + 1; i++)
		used += (size_t)snprintf(arg + used, sizeof(arg) - used, "%s%d", i > 1 ? "," : "",
					 i);
	EXPECT(ncpus_parse(arg, 4096, "", counts, &n, err, sizeof(err)) < 0 &&
	       strstr(err, "at most"), "%d counts accepted: %s", MAX_NCPUS + 1, err);
	return true;
}


static bool test_options(void)
{
	static const struct { const char *args; const char *want_err; } bad[] = {
		{ "--ncpus 1 -u", "--ncpus and -u contradict" },
		{ "-u --ncpus 1", "--ncpus and -u contradict" },
		{ "--ncpus 0", "out of range" },
		{ "--ncpus 1,1", "given twice" },
		{ "--ncpus x", "not a number" },
		{ "--ncpus 100000", "this process may use" },
	};
	struct config cfg;
	char err[512];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT(unit_parse_words(bad[i].args, &cfg, err, sizeof(err)) == PARSE_USAGE,
		       "'%s' accepted", bad[i].args);
		EXPECT(strstr(err, bad[i].want_err), "'%s': '%s'", bad[i].args, err);
	}
	EXPECT(unit_parse_words("--ncpus 1", &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(cfg.nncpus == 1 && cfg.ncpus[0] == 1 && !cfg.cpu_load_given,
	       "--ncpus 1: %d counts, -L given %d", cfg.nncpus, cfg.cpu_load_given);
	EXPECT(unit_parse_words("--ncpus 1 -L 3", &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(cfg.cpu_load_given && cfg.cpu_load == 3, "-L 3 not kept as given");
	EXPECT(unit_parse_words("", &cfg, err, sizeof(err)) == PARSE_RUN && !cfg.nncpus,
	       "no --ncpus: %d counts", cfg.nncpus);
	return true;
}

/*
 * The plan: each pass runs the whole matrix for each count in the order
 * given, the tables begin and end per count, and --vary's variants stay
 * back to back within a count.
 */
static bool test_plan_order_of(const struct config *cfg)
{
	struct plan p;
	int audio = workload_find("Audio"), video = workload_find("Video");

	EXPECT(!plan_build(&p, cfg), "plan_build");
	EXPECT(p.per_pass == 2 * 2 * 2 * 2 && p.ncells == 2 * p.per_pass, "%d cells, %d a pass",
	       p.ncells, p.per_pass);
	for (int i = 0; i < p.ncells; i++) {
		const struct cell *c = &p.cells[i];
		int in_pass = i % p.per_pass, in_count = in_pass % 8;

		EXPECT(c->pass == i / p.per_pass, "cell %d: pass %d", i, c->pass);
		EXPECT(c->ncpus == (in_pass < 8 ? 2 : 1), "cell %d: %d CPUs", i, c->ncpus);
		EXPECT(c->bench == (in_count < 4 ? audio : video), "cell %d: bench %d", i, c->bench);
		EXPECT(c->table_start == (in_count % 4 == 0), "cell %d: table_start", i);
		EXPECT(c->table_end == (in_count % 4 == 3), "cell %d: table_end", i);
		EXPECT(c->variant == plan_variant_at(c->pass, in_count % 2, 2), "cell %d: variant",
		       i);
	}
	plan_free(&p);
	return true;
}

/* The plan of a --vary run. */
static bool test_plan_order(void)
{
	struct config cfg;
	char err[512];

	EXPECT(unit_parse_words("-W Audio -W Video -w None -w Burn --repeat 2 --ncpus 2,1 "
			   "--vary load-nice=0,5", &cfg, err, sizeof(err)) == PARSE_RUN, "%s", err);
	if (usable_cpus() < 2)
		return true;	/* the counts need two CPUs; the parse said so itself */
	return test_plan_order_of(&cfg);
}

void unit_ncpus(void)
{
	char name[160];

	for (size_t i = 0; i < ARRAY_SIZE(list_cases); i++) {
		snprintf(name, sizeof(name), "--ncpus '%s' (of %d) %s", list_cases[i].arg,
			 list_cases[i].max, list_cases[i].n < 0 ? "is refused" : "parses");
		check(name, test_list(&list_cases[i]));
	}
	check("--ncpus: at most MAX_NCPUS counts", test_too_many());
	check("--ncpus: -u contradicts it, bad counts exit 2, -L given is kept", test_options());
	check("--ncpus: the plan runs the whole pass per count, in the order given",
	      test_plan_order());
}
