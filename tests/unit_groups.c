// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_groups.c - unit tests of -W A+B+C: the group's parse, Desktop, the plan's cells,
 * the --repeat summary of each member. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/workloads.h"
#include "report/report.h"
#include "cli/options.h"
#include "model/plan.h"

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

struct seen_line {		/* what the summary gave one of its lines */
	char what[MEMBER_LABEL_LEN + RES_NAME_LEN + 8];	/* "Video@Audio+Video None" */
	int npass;
	double mean;
	bool start, end;
};

struct seen_lines {
	const struct config *cfg;
	int n;
	struct seen_line l[8];
};

static void seen_summary(void *arg, const struct cell *c, const struct pass_summary *s)
{
	struct seen_lines *seen = arg;
	struct seen_line *l = &seen->l[seen->n];
	char name[MEMBER_LABEL_LEN];

	if (seen->n == (int)ARRAY_SIZE(seen->l))
		return;
	seen->n++;
	member_label(name, sizeof(name), workloads[c->bench].name, cell_group_name(seen->cfg, c));
	snprintf(l->what, sizeof(l->what), "%s %s", name, workloads[c->load].name);
	l->npass = s->npass;
	l->mean = s->value[RF_MEAN];
	l->start = c->table_start;
	l->end = c->table_end;
}

/* A pass of bench (in group, "" alone) under load: its mean latency. */
static void fake_pass(struct run_record *rec, const char *bench, const char *group,
		      const char *load, int pass, double mean)
{
	struct result *r = run_new_result(rec);

	if (!r)
		return;
	snprintf(r->bench, sizeof(r->bench), "%s", bench);
	snprintf(r->group, sizeof(r->group), "%s", group);
	snprintf(r->load, sizeof(r->load), "%s", load);
	r->pass = pass;
	r->status = ROW_OK;
	r->value[RF_MEAN] = mean;
	r->value[RF_MAX] = 2 * mean;
	r->value[RF_CPU] = r->value[RF_DEADLINES_MET_PCT] = 100;
}

/*
 * --repeat 3 of Audio alone and of the group Audio+Video, under None and
 * Burn: a summary line per load of Audio alone, then of each member of the
 * group, a table each, in the order the tables print, each of its own passes.
 */
static bool test_summary(void)
{
	static const char *const want[] = {
		"Audio None", "Audio Burn", "Audio@Audio+Video None", "Audio@Audio+Video Burn",
		"Video@Audio+Video None", "Video@Audio+Video Burn",
	};
	static const char *const head[] = {
		"--- Summary of 3 passes: simulated cpu of Audio ---",
		"--- Summary of 3 passes: simulated cpu of Audio in group Audio+Video ---",
		"--- Summary of 3 passes: simulated cpu of Video in group Audio+Video ---",
	};
	struct config cfg;
	struct plan p;
	struct run_record rec = { .nruns = 1 };
	struct seen_lines seen = { .cfg = &cfg };
	struct report o = { .text = NULL };
	char err[512], *text = NULL;
	size_t len = 0;
	const char *at;

	EXPECT(unit_parse_words("-W Audio -W Audio+Video -w None -w Burn --repeat 3", &cfg, err,
				sizeof(err)) == PARSE_RUN, "%s", err);
	EXPECT(!plan_build(&p, &cfg), "plan_build");
	rec.cfg = &cfg;
	rec.plan = &p;
	for (int pass = 0; pass < 3; pass++)
		for (int l = 0; l < 2; l++) {
			const char *load = l ? "Burn" : "None";

			fake_pass(&rec, "Audio", "", load, pass, 10 + l + pass);
			fake_pass(&rec, "Audio", "Audio+Video", load, pass, 20 + l + pass);
			fake_pass(&rec, "Video", "Audio+Video", load, pass, 30 + l + pass);
		}
	EXPECT(rec.nres == 18, "%d results", rec.nres);
	each_cell_summary(&rec, seen_summary, &seen);
	EXPECT(seen.n == (int)ARRAY_SIZE(want), "%d summary lines, want %zu (a member each)",
	       seen.n, ARRAY_SIZE(want));
	for (int i = 0; i < seen.n; i++) {
		const struct seen_line *l = &seen.l[i];

		EXPECT(!strcmp(l->what, want[i]), "line %d: %s, want %s", i, l->what, want[i]);
		EXPECT(l->npass == 3 && l->mean == 10 * (i / 2 + 1) + i % 2 + 1,
		       "%s: %d passes, mean %g", l->what, l->npass, l->mean);
		EXPECT(l->start == !(i % 2) && l->end == i % 2, "%s: a table of its own", l->what);
	}
	o.text = open_memstream(&text, &len);
	EXPECT(o.text, "open_memstream");
	report_summary(&o, &rec);
	fclose(o.text);
	at = text;
	for (size_t i = 0; i < ARRAY_SIZE(head) && at; i++)
		at = strstr(at, head[i]);
	free(text);
	record_free(&rec);
	plan_free(&p);
	EXPECT(at, "the text's summary lacks a member's heading, in order");
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
	check("groups: the --repeat summary has each member, after the benchmark alone",
	      test_summary());
}
