// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_vary.c - unit tests: --vary's spec, the balanced order, knobs read back, verdicts
 * over synthetic passes. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "verdicts/verdicts.h"
#include "model/config.h"
#include "model/plan.h"
#include "model/record.h"
#include "model/workloads.h"
#include "cli/options.h"
#include "cli/vary.h"
#include "run/switch.h"

#include "tests/unit.h"

/* Two variants: A B, B A, A B, B A: drift cancels over each pair of passes. */
static bool test_abba(void)
{
	static const char want[] = "ABBAABBA";

	for (int p = 0; p < 4; p++)
		for (int s = 0; s < 2; s++)
			EXPECT(plan_variant_at(p, s, 2) == want[2 * p + s] - 'A',
			       "pass %d slot %d: %c", p, s, 'A' + plan_variant_at(p, s, 2));
	return true;
}

/*
 * n variants over a whole design (n passes, 2n for odd n): each pass runs
 * each variant once, each variant takes each slot equally often, and each
 * ordered pair of variants is adjacent equally often.
 */
static bool test_williams(void)
{
	for (int n = 2; n <= MAX_VARIANTS; n++) {
		int rows = n % 2 ? 2 * n : n, slot[MAX_VARIANTS][MAX_VARIANTS] = { { 0 } };
		int pair[MAX_VARIANTS][MAX_VARIANTS] = { { 0 } };

		for (int p = 0; p < rows; p++) {
			unsigned seen = 0;

			for (int s = 0; s < n; s++) {
				int v = plan_variant_at(p, s, n);

				EXPECT(v >= 0 && v < n && !(seen & (1u << v)),
				       "n %d pass %d slot %d: %d again", n, p, s, v);
				seen |= 1u << v;
				slot[v][s]++;
				if (s)
					pair[plan_variant_at(p, s - 1, n)][v]++;
			}
		}
		for (int v = 0; v < n; v++)
			for (int w = 0; w < n; w++) {
				EXPECT(slot[v][w] == rows / n, "n %d: variant %d in slot %d %d times",
				       n, v, w, slot[v][w]);
				EXPECT(v == w || pair[v][w] == pair[0][1],
				       "n %d: %d then %d %d times, 0 then 1 %d", n, v, w, pair[v][w],
				       pair[0][1]);
			}
	}
	return true;
}

static bool test_vary_parse(void)
{
	static const struct {
		const char *spec;
		int ok, kind, n;
		const char *label1, *value1;
	} cases[] = {
		{ "load-nice=0,19", 1, VARY_TASK, 2, "load-nice=19", "19" },
		{ "load-nice=0,0", 1, VARY_TASK, 2, "load-nice=0", "0" },
		{ "slice=default,500", 1, VARY_TASK, 2, "slice=500", "500" },
		{ "slice=500,default", 1, VARY_TASK, 2, "slice=default", "" },
		{ "nice=0,5,10", 1, VARY_TASK, 3, "nice=5", "5" },
		{ "sysctl:kernel.timer_migration=0,1", 1, VARY_SYSCTL, 2,
		  "sysctl:kernel.timer_migration=1", "1" },
		{ "sched-debug:base_slice_ns=default,3000000", 1, VARY_SCHED_DEBUG, 2,
		  "sched-debug:base_slice_ns=3000000", "3000000" },
		{ "sched-feature:PLACE_LAG=ON,off", 1, VARY_SCHED_FEATURE, 2,
		  "sched-feature:PLACE_LAG=off", "off" },
		{ "preempt", 1, VARY_PREEMPT, 0, NULL, NULL },
		{ "preempt=full,lazy", 1, VARY_PREEMPT, 2, "preempt=lazy", "lazy" },
		{ "load-nice", 0, 0, 0, NULL, NULL },
		{ "load-nice=1", 0, 0, 0, NULL, NULL },
		{ "load-nice=1,,2", 0, 0, 0, NULL, NULL },
		{ "=1,2", 0, 0, 0, NULL, NULL },
		{ "frobs=1,2", 0, 0, 0, NULL, NULL },
		{ "sysctl:../../etc/x=1,2", 0, 0, 0, NULL, NULL },
		{ "sysctl:/etc=1,2", 0, 0, 0, NULL, NULL },
		{ "sched-debug:../x=1,2", 0, 0, 0, NULL, NULL },
		{ "sched-feature:X=on,maybe", 0, 0, 0, NULL, NULL },
		{ "nice=1,2,3,4,5,6,7,8,9", 0, 0, 0, NULL, NULL },
		{ "scx=none,scx_lavd -a 1", 1, VARY_SCX, 2, "scx=scx_lavd -a 1", "scx_lavd -a 1" },
		{ "scx=scx_x,none", 1, VARY_SCX, 2, "scx=none", "" },
		{ "exec=none,sleep 100", 1, VARY_EXEC, 2, "exec=sleep 100", "sleep 100" },
		{ "exec=none, sleep", 0, 0, 0, NULL, NULL },
		{ "exec=none,sleep\t1", 0, 0, 0, NULL, NULL },
		{ "sysfs:/sys/kernel/uevent_seqnum=1,2", 1, VARY_SYSFS, 2,
		  "sysfs:/sys/kernel/uevent_seqnum=2", "2" },
		{ "sysfs:/sys/kernel/uevent_seqnum=a b,c", 0, 0, 0, NULL, NULL },
		{ "sysfs:/proc/sys/kernel/hostname=a,b", 0, 0, 0, NULL, NULL },
		{ "sysfs:/sys/../etc/passwd=a,b", 0, 0, 0, NULL, NULL },
		{ "sysfs:/sys/no/such/file=a,b", 0, 0, 0, NULL, NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct config cfg;
		char err[256] = "";
		int ret;

		memset(&cfg, 0, sizeof(cfg));
		cfg.vary_spec = cases[i].spec;
		ret = vary_parse(&cfg, err, sizeof(err));
		EXPECT((ret == 0) == cases[i].ok, "%s: %d (%s)", cases[i].spec, ret, err);
		if (!cases[i].ok) {
			EXPECT(err[0] && !strchr(err, '\n'), "%s: message '%s'", cases[i].spec, err);
			continue;
		}
		EXPECT((int)cfg.vary_kind == cases[i].kind && cfg.nvariants == cases[i].n,
		       "%s: kind %d, %d variants", cases[i].spec, cfg.vary_kind, cfg.nvariants);
		if (cases[i].label1)
			EXPECT(!strcmp(cfg.variants[1].label, cases[i].label1) &&
			       !strcmp(cfg.variants[1].value, cases[i].value1),
			       "%s: '%s' '%s'", cases[i].spec, cfg.variants[1].label,
			       cfg.variants[1].value);
	}
	return true;
}

/* The order by knob: per cell for a file, a whole pass per variant for a program. */
static bool test_vary_order(void)
{
	static const struct { const char *words; int order; const char *cells; } cases[] = {
		{ "-W Audio -w None -w Burn --repeat 2 --vary load-nice=0,5", VORDER_ABBA,
		  "None A, Burn A, None B, Burn B" },	/* for the summaries: per cell */
		{ "-W Audio -w None -w Burn --repeat 2 --vary exec=none,true", VORDER_BLOCKS,
		  "None A, Burn A | None B, Burn B | None B, Burn B | None A, Burn A" },
		{ "-W Audio -w None -w Burn --repeat 2 --vary load-nice=0,5 --vary-order blocks",
		  VORDER_BLOCKS, "None A, Burn A | None B, Burn B | None B, Burn B | None A, Burn A" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct config cfg;
		struct plan p;
		char err[256], got[256] = "";
		size_t n = 0;

		EXPECT(unit_parse_words(cases[i].words, &cfg, err, sizeof(err)) == PARSE_RUN, "%s",
		       err);
		EXPECT(cfg.vary_order == cases[i].order && !plan_build(&p, &cfg), "%s: order %d",
		       cases[i].words, cfg.vary_order);
		for (int k = 0; k < (p.blocks ? p.ncells : p.per_pass / 2); k++)
			n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s %c",
					      k ? (p.blocks && !(k % 2) ? " | " : ", ") : "",
					      workloads[p.cells[k * (p.blocks ? 1 : 2)].load].name,
					      'A' + p.cells[k * (p.blocks ? 1 : 2)].variant);
		if (!p.blocks)	/* the second of each cell's pair */
			snprintf(got + n, sizeof(got) - n, ", %s %c, %s %c",
				 workloads[p.cells[1].load].name, 'A' + p.cells[1].variant,
				 workloads[p.cells[3].load].name, 'A' + p.cells[3].variant);
		EXPECT(!strcmp(got, cases[i].cells), "%s: '%s', want '%s'", cases[i].words, got,
		       cases[i].cells);
		EXPECT(plan_cell_step(&cfg, &p) == (p.blocks ? 1 : 2) &&
		       plan_first_cells(&cfg, &p) == (p.blocks ? 2 : 4), "%s: step, first cells",
		       cases[i].words);
		plan_free(&p);
	}
	return true;
}

/* The sched_ext scheduler a run ran under, from the context's or a variant's text. */
static bool test_scx_of(void)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "enabled: lavd", "lavd" }, { "enabled: x, version 1.2.3, run as 'scx_x'", "x" },
		{ "disabled", "none" }, { "unavailable", "none" }, { "", "" }, { "unknown", "" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char got[64];

		record_scx_of(got, sizeof(got), cases[i].text);
		EXPECT(!strcmp(got, cases[i].want), "'%s': '%s', want '%s'", cases[i].text, got,
		       cases[i].want);
	}
	return true;
}

static bool test_knob_read_back(void)
{
	static const struct { const char *want, *got; bool same; } cases[] = {
		{ "1", "1", true }, { "010", "10", true }, { "3000000", "3000000", true },
		{ "1", "0", false }, { "full", "full", true }, { "full", "lazy", false },
		{ "4 4 1 7", "4\t4\t1\t7", true }, { "", "0", false }, { "on", "on", true },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT(sysknob_matches(cases[i].want, cases[i].got) == cases[i].same,
		       "'%s' read back as '%s'", cases[i].want, cases[i].got);
	return true;
}

/* A pass of Audio under load with these numbers, as variant v. */
static void fake_pass(struct result *r, const char *load, int v, int pass, double mean,
		      double dl)
{
	result_init(r);
	snprintf(r->bench, sizeof(r->bench), "Audio");
	snprintf(r->load, sizeof(r->load), "%s", load);
	r->variant_index = v;
	snprintf(r->variant, sizeof(r->variant), "x=%d", v);
	r->pass = pass;
	r->value[RF_MEAN] = mean;
	r->value[RF_P99] = 3 * mean;
	r->value[RF_DEADLINES_MET_PCT] = dl;
}

static const struct verdict *find(const struct verdict_table *t, const char *load, int m)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].load, load) && t->v[i].metric == m)
			return &t->v[i];
	return NULL;
}

/*
 * Burn: B halves the latency in every pass (better, ratio 0.5 in its
 * interval) and meets fewer deadlines (worse); None: A and B interleave
 * (no difference). 5 passes each: 2 x 3 metrics, q over the 5 with something
 * to test (None's deadlines are 100 in every pass).
 */
static bool test_verdicts(void)
{
	static const double none_a[] = { 10, 12, 14, 16, 18 }, none_b[] = { 11, 13, 15, 17, 19 };
	struct result res[20];
	struct verdict_group g[2] = { { "A", res, 20, 0 }, { "B", res, 20, 1 } };
	struct verdict_table t;
	const struct verdict *v;
	int n = 0;

	for (int p = 0; p < 5; p++) {
		fake_pass(&res[n++], "None", 0, p, none_a[p], 100);
		fake_pass(&res[n++], "None", 1, p, none_b[p], 100);
		fake_pass(&res[n++], "Burn", 0, p, 100 + p, 99 + 0.1 * p);
		fake_pass(&res[n++], "Burn", 1, p, 50 + 0.5 * p, 90 + 0.1 * p);
	}
	EXPECT(!verdicts_build(g, 2, &t), "build");
	EXPECT(t.n == 6 && t.ntests == 5, "%d verdicts, %d tests (None's deadlines: all 100, no test)",
	       t.n, t.ntests);
	v = find(&t, "Burn", VM_MEAN);
	EXPECT(v && v->kind == VK_BETTER && fabs(v->t.ratio - 0.5) < 1e-9 &&
	       v->t.ratio_low <= 0.5 && v->t.ratio_high >= 0.5 && fabs(v->t.p - 2.0 / 252) < 1e-12,
	       "Burn mean: kind %d ratio %g [%g, %g] p %g", v ? v->kind : -1, v ? v->t.ratio : 0,
	       v ? v->t.ratio_low : 0, v ? v->t.ratio_high : 0, v ? v->t.p : 0);
	EXPECT(fabs(v->q - 5.0 / 3 * 2.0 / 252) < 1e-12, "Burn mean q %g: 3 of 5 at p %g", v->q,
	       2.0 / 252);
	EXPECT(v->a == 102 && v->b == 51, "medians %g %g", v->a, v->b);
	v = find(&t, "Burn", VM_DL);
	EXPECT(v && v->kind == VK_WORSE, "Burn deadlines: kind %d", v ? v->kind : -1);
	v = find(&t, "None", VM_MEAN);
	EXPECT(v && v->kind == VK_NO_DIFFERENCE && v->t.p > 0.5, "None mean: kind %d p %g",
	       v ? v->kind : -1, v ? v->t.p : 0);
	v = find(&t, "None", VM_DL);
	EXPECT(v && v->kind == VK_NO_DIFFERENCE && v->t.p == 1 && v->constant && isnan(v->q) &&
	       !v->tested, "None deadlines: all 100, outside the count");
	verdicts_free(&t);

	/*
	 * a chain's frame p99 and stutters are judged too, where its passes have
	 * them; None's rows failed, so that the table keeps 5 tests (7 at 5
	 * passes each would leave none counted: unit_core_verdict.c, Tarone)
	 */
	for (int i = 0; i < 20; i++) {
		if (!strcmp(res[i].load, "Burn")) {
			res[i].value[RF_FRAME_P99] = res[i].variant_index ? 20e6 + i : 40e6 + i;
			res[i].value[RF_STUTTERS] = res[i].variant_index ? 0 : 3;
		} else {
			res[i].status = ROW_FAILED;
		}
	}
	EXPECT(!verdicts_build(g, 2, &t), "build with frames");
	v = find(&t, "Burn", VM_FRAME_P99);
	EXPECT(v && v->kind == VK_BETTER && v->t.ratio < 0.6, "frame p99: kind %d ratio %g",
	       v ? v->kind : -1, v ? v->t.ratio : 0);
	v = find(&t, "Burn", VM_STUTTERS);
	EXPECT(v && v->kind == VK_BETTER && v->a == 3 && v->b == 0, "stutters: kind %d, %g to %g",
	       v ? v->kind : -1, v ? v->a : 0, v ? v->b : 0);
	EXPECT(!find(&t, "None", VM_FRAME_P99) && !find(&t, "Burn", VM_XRUNS),
	       "a metric no pass has got a verdict");
	verdicts_free(&t);
	for (int i = 0; i < 20; i++) {
		res[i].value[RF_FRAME_P99] = res[i].value[RF_STUTTERS] = NAN;
		res[i].status = ROW_OK;
	}

	/* 3 passes each can never reach q <= 0.05 over 5 tests: it says how many could */
	g[0].nres = g[1].nres = 12;
	EXPECT(!verdicts_build(g, 2, &t), "build 3");
	v = find(&t, "Burn", VM_MEAN);
	EXPECT(v && v->kind == VK_TOO_FEW && v->need == passes_for_significance(5) &&
	       v->need == 5, "3 passes: kind %d need %d", v ? v->kind : -1, v ? v->need : 0);
	verdicts_free(&t);
	return true;
}

/* A pass as fake_pass() makes it, of bench in group ("" alone). */
static void fake_member_pass(struct result *r, const char *bench, const char *group, int v,
			     int pass, double mean)
{
	fake_pass(r, "None", v, pass, mean, 100);
	snprintf(r->bench, sizeof(r->bench), "%s", bench);
	snprintf(r->group, sizeof(r->group), "%s", group);
}

static const struct verdict *find_in(const struct verdict_table *t, const char *group, int m)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].in_group, group) && t->v[i].metric == m)
			return &t->v[i];
	return NULL;
}

/*
 * Video alone, where B halves the latency (better), and Video in the group
 * Audio+Video, where A and B interleave (no difference): two cells, never
 * pooled, each named as the member it is in every output.
 */
static bool test_verdicts_group(void)
{
	static const double in_a[] = { 10, 12, 14, 16, 18 }, in_b[] = { 11, 13, 15, 17, 19 };
	struct result res[20];
	struct verdict_group g[2] = { { "A", res, 20, 0 }, { "B", res, 20, 1 } };
	struct verdict_table t;
	const struct verdict *alone, *member;
	struct sbuf sb;
	bool text_ok, csv_ok, json_ok;
	int n = 0;

	for (int p = 0; p < 5; p++) {
		fake_member_pass(&res[n++], "Video", "", 0, p, 100 + p);
		fake_member_pass(&res[n++], "Video", "", 1, p, 50 + 0.5 * p);
		fake_member_pass(&res[n++], "Video", "Audio+Video", 0, p, in_a[p]);
		fake_member_pass(&res[n++], "Video", "Audio+Video", 1, p, in_b[p]);
	}
	EXPECT(!verdicts_build(g, 2, &t), "build");
	alone = find_in(&t, "", VM_MEAN);
	member = find_in(&t, "Audio+Video", VM_MEAN);
	EXPECT(t.n == 6, "%d verdicts, want 3 metrics of 2 cells", t.n);
	EXPECT(alone && alone->kind == VK_BETTER && alone->a == 102 && alone->b == 51 &&
	       alone->t.na == 5, "Video alone: kind %d, %g to %g over %d passes",
	       alone ? alone->kind : -1, alone ? alone->a : 0, alone ? alone->b : 0,
	       alone ? alone->t.na : 0);
	EXPECT(member && member->kind == VK_NO_DIFFERENCE && member->a == 14 && member->b == 15 &&
	       member->t.na == 5, "Video in the group: kind %d, %g to %g over %d passes",
	       member ? member->kind : -1, member ? member->a : 0, member ? member->b : 0,
	       member ? member->t.na : 0);
	sb_init(&sb);
	verdicts_print(&sb, &t, "Video", "Audio+Video", false, 0);
	text_ok = !sb.failed && sb.len &&
		  strstr(sb.buf, "--- Verdicts for Video@Audio+Video: B against A (passes: 5") &&
		  !strstr(sb.buf, "better");
	sb_free(&sb);
	sb_init(&sb);
	verdicts_csv(&sb, &t);
	csv_ok = !sb.failed && strstr(sb.buf, "\nVideo,None,mean,B,A,102,") &&
		 strstr(sb.buf, "\nVideo@Audio+Video,None,mean,B,A,14,");
	sb_free(&sb);
	sb_init(&sb);
	verdicts_json(&sb, &t, 0);
	json_ok = !sb.failed && strstr(sb.buf, "\"benchmark\": \"Video\",\n    \"group\": "
				       "\"Audio+Video\",\n    \"load\"");
	sb_free(&sb);
	verdicts_free(&t);
	EXPECT(text_ok, "the text's table of the member");
	EXPECT(csv_ok, "the CSV's benchmark of each");
	EXPECT(json_ok, "the JSON's group of the member");
	return true;
}

void unit_vary(void)
{
	check("vary: two variants alternate A B, B A", test_abba());
	check("vary: n variants in a Williams design", test_williams());
	check("vary: the spec parsed, bad ones refused in one line", test_vary_parse());
	check("vary: a knob read back matches by value", test_knob_read_back());
	check("vary: per cell for a knob, in blocks for a program, or as asked", test_vary_order());
	check("vary: the sched_ext scheduler of a run, from its text", test_scx_of());
	check("vary: verdicts over synthetic passes, q over the table", test_verdicts());
	check("vary: a benchmark in a group is a cell apart from it alone", test_verdicts_group());
}
