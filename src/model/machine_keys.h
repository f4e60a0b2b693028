/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model/machine_keys.h - what a run ran on: the machine keys that the log, the CSV, their readers
 * and --compare's warning share, and how two runs' settings differ. */
#ifndef MODEL_MACHINE_KEYS_H
#define MODEL_MACHINE_KEYS_H

#include <stdbool.h>
#include <stddef.h>

struct machine;
struct run_record;

/*
 * What the machine and its kernel were, besides the kernel release: runs
 * that differ in one of these do not measure the same thing. Each is one
 * row of machine_keys[], which the log's header and the CSV are written
 * with and read back by, and which --compare's warning walks; a new one is
 * one enum name, one field of struct machine_values and one row.
 */
enum machine_key {
	MK_PREEMPTION,
	MK_HZ,
	MK_CLOCKSOURCE,
	MK_GOVERNOR,
	MK_CPU_MODEL,
	MK_CPUS_USABLE,
	MK_MEM_LIMIT,
	MK_CMDLINE,
	MK_COUNT,
};

enum machine_type {
	MT_TEXT,			/* a string of struct machine, "" unknown */
	MT_COUNT,			/* an int of struct machine, <= 0 unknown */
	MT_BYTES,			/* a long long, SI_UNKNOWN: no limit, "none" */
};

struct machine_key_prop {
	const char *column;		/* in the CSV header */
	const char *what;		/* in --compare's warning: "HZ 250 / 1000" */
	int line;			/* the log line that holds it: enum log_mark */
	const char *before, *after;	/* around its value on that line, past the marker */
	bool whole_line;		/* the value is the rest of the line: it may hold ", " */
	bool words;			/* compared, and told apart, word by word */
	const char *unknown;		/* the log's word for a value not known */
	enum machine_type type;
	size_t off;			/* of the live value in struct machine */
	size_t note;			/* of a note on it there, "(debugfs)", or MK_NO_NOTE */
	size_t val, len;		/* of its text in struct machine_values */
};
#define MK_NO_NOTE ((size_t)-1)
extern const struct machine_key_prop machine_keys[MK_COUNT];

struct machine_values {		/* a run's machine keys as text, "" when not known */
	char preemption[16];
	char hz[12];
	char clocksource[64];
	char governor[128];
	char cpu_model[256];
	char cpus_usable[12];
	char mem_limit[24];		/* bytes, or "none" */
	char cmdline[2048];		/* the kernel's limit on x86 */
};

/*
 * The machine keys as the log, the CSV and a live run have them;
 * run_differences() lists the settings (kernel release, machine keys, run
 * keys, knobs) in which b differs from a, "HZ 250 / 1000, ...", returns how
 * many, and counts those unknown in either, which it cannot check.
 */
const char *machine_value(const struct machine_values *m, int k);
void machine_values_of(const struct machine *si, struct machine_values *m);
void machine_log_line(char *buf, size_t len, const struct run_record *r, int line);
void machine_parse_line(int line, const char *s, struct machine_values *m);
const char *machine_csv_text(const struct machine_values *m, int k);
void machine_csv_set(struct machine_values *m, int k, const char *field);
int run_differences(const struct run_record *a, const struct run_record *b, char *buf,
		    size_t len, int *unchecked);

#endif
