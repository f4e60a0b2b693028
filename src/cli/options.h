/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli/options.h - the command line read into the configuration: the options, their checks,
 * --help. */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/config.h"

/* PARSE_REFUSED: a good command line this machine cannot serve (exit 1) */
enum parse_status { PARSE_RUN, PARSE_EXIT_OK, PARSE_USAGE, PARSE_REFUSED };
enum parse_status parse_options(int argc, char **argv, struct config *cfg,
				char *err, size_t errlen);
void config_defaults(struct config *cfg);
uint64_t settle_from_env(const char *ms);
void print_help(void);

/* ncpus.c: --ncpus's list, checked against the CPUs this process may use */
int ncpus_parse(const char *arg, int max, const char *allowed, int *counts, int *n,
		char *err, size_t errlen);
int ncpus_option(struct config *cfg, const char *arg, char *err, size_t errlen);
int cpus_confine(int n, char *err, size_t errlen);	/* a row's process: the first n */

/* selection.c: what runs, from -W/-X/-w/-x and the class; options that need one of them */
int resolve_selection(struct config *cfg, const uint32_t sel[4], char *err, size_t errlen);
int check_custom(const struct config *cfg, char *err, size_t errlen);
int check_fps(struct config *cfg, char *err, size_t errlen);
struct workload;
int refuse_class(const struct config *cfg, const struct workload *wl, char *err, size_t errlen);

/* rtapp_input.c: -W FILE.json, --workload FILE */
bool workload_spec(const char *arg);		/* a file, not a benchmark's name */
int rtapp_input_option(struct config *cfg, const char *arg, char *err, size_t errlen);
int rtapp_input_validate(struct config *cfg, char *err, size_t errlen);
void rtapp_input_free(struct config *cfg);	/* the model read, kept to the run's end */

/* groups.c: -W A+B+C and the Desktop preset */
int group_parse(struct config *cfg, const char *arg, char *err, size_t errlen);
bool group_spec(const char *arg);		/* a group, not one benchmark's name */

/* selection.c: the checks of the knobs against each other and -r, -u */
int knobs_validate(struct config *cfg, char *err, size_t errlen);

#endif
