/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib/numfmt.h - numbers as the tables print them: about three significant figures, percentages,
 * changes. */
#ifndef LIB_NUMFMT_H
#define LIB_NUMFMT_H

#include <stddef.h>

/* The numbers of every table: the run's, the --repeat summary, --compare. */
void fmt_value(char *buf, size_t len, double v, int sig, int maxw);
void fmt_sig3(char *buf, size_t len, double v);
void fmt_pct(char *buf, size_t len, double v, int maxw);
void fmt_change(char *buf, size_t len, double ref, double v);

#endif
