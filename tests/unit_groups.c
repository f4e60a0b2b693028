// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_groups.c - unit tests of -W A+B+C: the group's parse, Desktop, and the plan's cells. */
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "run/config.h"
#include "run/plan.h"

#include "tests/unit.h"


struct group_case {
	const char *args;
	const char *want;	/* the groups' names, ' '-separated; NULL: refused */
	const char *want_err;	/* a piece of the message */
};

static const struct group_case group_cases[] = {
	{ "-W Audio+Video", "Audio+Video", NULL },
	{ "-W video+x+audio", "Video+X+Audio", NULL },
	{ "-W Desktop", "Audio+Video+X+Game", NULL },
	{ "-W desktop -W Audio+Video", "Audio+Video+X+Game Audio+Video", NULL },
	{ "-W Audio+Audio", NULL, "-W Audio+Audio: Audio is named twice" },
	{ "-W Audio+Nosuch", NULL, "unknown benchmark 'Nosuch'" },
	{ "-W Audio+Burn", NULL, "unknown benchmark 'Burn'" },
	{ "-W Audio+", NULL, "benchmark names joined by '+'" },
	{ "-W +Audio", NULL, "joined by '+'" },
	{ "-W Audio++Video", NULL, "joined by '+'" },
	{ "-W Audio+Video -W video+audio", NULL, "the group Audio+Video is given twice" },
	{ "-W Video+X -w Video -w X", NULL, "no load left to run it under" },
	{ "-r -W Audio+X", NULL, "-W X cannot run real time" },
	{ "-W Audio+Custom", NULL, "Custom needs -C and -I" },
};

static bool test_group(const struct group_case *c)
{
	struct config cfg;
	char err[512] = "", names[256] = "";
	size_t n = 0;
	enum parse_status st = unit_parse_words(c->args, &cfg, err, sizeof(err));

	if (!c->want) {
		EXPECT(st == PARSE_USAGE, "'%s' accepted", c->args);
		EXPECT(strstr(err, c->want_err), "'%s': '%s' lacks '%s'", c->args, err,
		       c->want_err);
		EXPECT(!strchr(err, '\n'), "'%s': more than one line", c->args);
		return true;
	}
	EXPECT(st == PARSE_RUN, "'%s' refused: %s", c->args, err);
	for (int g = 0; g < cfg.ngroups; g++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", g ? " " : "",
				      cfg.groups[g].name);
	EXPECT(!strcmp(names, c->want), "'%s': groups '%s', want '%s'", c->args, names, c->want);
	EXPECT(!cfg.benches, "'%s': a group alone runs no benchmark alone", c->args);
	return true;
}

/*
 * The plan: the benchmarks alone first, then each group under each load
 * that is not a member (one cell for all its members), a table per group.
 */
static bool test_plan(void)
{
	struct config cfg;
	struct plan p;
	char err[512];
	int member[GROUP_MAX], audio = workload_find("Audio"), video = workload_find("Video");

	EXPECT(unit_parse_words("-W Audio -W Audio+Video -w None -w Video -w Burn", &cfg, err,
			   sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(!plan_build(&p, &cfg), "plan_build");
	EXPECT(p.ncells == 3 + 2, "%d cells, want 3 alone and 2 of the group", p.ncells);
	for (int i = 0; i < p.ncells && p.ncells == 5; i++) {
		const struct cell *c = &p.cells[i];

		EXPECT(c->group == (i >= 3), "cell %d: group %d", i, c->group);
		EXPECT(c->bench == audio, "cell %d: bench %d", i, c->bench);
		EXPECT(c->table_start == (i == 0 || i == 3), "cell %d: table_start", i);
		EXPECT(c->table_end == (i == 2 || i == 4), "cell %d: table_end", i);
		EXPECT(i < 3 || c->load != video, "cell %d: the group runs against its member", i);
	}
	EXPECT(cell_members(&cfg, &p.cells[3], member) == 2 && member[0] == audio &&
	       member[1] == video, "the group's cell runs Audio and Video");
	EXPECT(cell_members(&cfg, &p.cells[0], member) == 1 && member[0] == audio,
	       "a cell alone runs its benchmark");
	plan_free(&p);
	return true;
}

void unit_groups(void)
{
	char name[160];

	for (size_t i = 0; i < ARRAY_SIZE(group_cases); i++) {
		snprintf(name, sizeof(name), "groups: '%s' %s", group_cases[i].args,
			 group_cases[i].want ? "parses" : "is refused");
		check(name, test_group(&group_cases[i]));
	}
	check("groups: the plan runs each group once per load, not against its members",
	      test_plan());
}
