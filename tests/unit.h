/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tests/unit.h - the unit tests' harness: check(), skip(), EXPECT() and the suites. */
#ifndef TESTS_UNIT_H
#define TESTS_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

extern char detail[1024];	/* why the current check failed, set by EXPECT */

void skip(const char *name, const char *why);
void check(const char *name, bool ok);

/* Fail the enclosing test function with a message for check() to print. */
#define EXPECT(cond, ...)                                                                \
	do {                                                                             \
		if (!(cond)) {                                                           \
			snprintf(detail, sizeof(detail), __VA_ARGS__);                   \
			return false;                                                    \
		}                                                                        \
	} while (0)

/* unit_main.c: a command line of words as parse_options() takes it; its parse_status. */
struct config;
int unit_parse_words(const char *words, struct config *cfg, char *err, size_t errlen);

/* unit_rtapp.c: text, with ' for ", as the rt-app file t.json; rtapp_free() frees f after. */
struct rtapp_file;
int unit_rtapp_read(const char *text, struct rtapp_file *f, char *err, size_t errlen);

/* The suites of one test program: main() runs them. */
void unit_suites(void);

/* One suite per file, each a run of check() calls. */
void unit_core_sim(void);		/* unit_core.c runs these */
void unit_core_split(void);
void unit_core_verdict(void);
void unit_core_ranksum(void);
void unit_core_power(void);
void unit_core_sparse_hist(void);
void unit_core_stop(void);
void unit_core_period(void);
void unit_core_tickphase(void);
void unit_core_strip(void);
void unit_core_sched_events(void);
void unit_core_missx(void);
void unit_core_ranslice(void);
void unit_core_frames(void);
void unit_core_rtapp_periods(void);
void unit_core_proc_cpu(void);
void unit_options(void);
void unit_loads(void);
void unit_child(void);
void unit_text(void);
void unit_results(void);
void unit_settings(void);
void unit_golden(void);
void unit_knobs(void);
void unit_periods(void);
void unit_work(void);
void unit_contain(void);
void unit_explain(void);
void unit_vary(void);
void unit_verdict(void);
void unit_timeline(void);
void unit_livefile(void);
void unit_ncpus(void);
void unit_groups(void);
void unit_instances(void);
void unit_json_read(void);
void unit_rtapp(void);
void unit_rtapp_check(void);
void unit_rtapp_examples(void);
void unit_rtapp_run(void);
void unit_workload(void);

#endif
