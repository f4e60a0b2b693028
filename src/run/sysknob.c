// SPDX-License-Identifier: GPL-2.0-or-later
/* run/sysknob.c - the system knobs --vary sets: read, journalled, written, read back, put back;
 * a variant's program group journalled and, left by a dead run, stopped. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "cli/vary.h"
#include "run/switch.h"

#define SCHED_DEBUG_DIR "/sys/kernel/debug/sched"
#define JOURNAL_ENV "INTERBENCH_TEST_JOURNAL"	/* tests/lib.sh: a journal of each script's own */
#define JOURNAL_NAME "journal"
#define KNOB_FILE_MAX 8192			/* sched/features is about 1 KiB */

/* What this run must put back: the knob's file and the text that restores it. */
static struct {
	bool held;			/* journalled and maybe changed */
	pid_t owner;			/* the orchestrator: a child never restores */
	char path[PATH_MAX];
	char text[SYSKNOB_VALUE_LEN];	/* written to path to restore it */
	char shown[SYSKNOB_VALUE_LEN];	/* the original as the variants say it */
	char read_back[MAX_VARIANTS][VARIANT_VALUE_LEN];	/* each variant's, tried first */
} saved;

#define JOURNAL_GROUP "pgid"		/* a journal line's first field for a program group */

static void journal_file(char *buf, size_t len)
{
	const char *env = getenv(JOURNAL_ENV);

	snprintf(buf, len, "%s/" JOURNAL_NAME, env && *env ? env : JOURNAL_DIR);
}

static int sysknob_path(const struct config *cfg, char *path, size_t len)
{
	const char *name = strchr(cfg->vary_name, ':');
	int n;

	switch (cfg->vary_kind) {
	case VARY_SYSCTL:
		n = snprintf(path, len, "/proc/sys/%s", name + 1);
		for (char *p = path + strlen("/proc/sys/"); *p; p++)
			*p = *p == '.' ? '/' : *p;
		break;
	case VARY_SCHED_DEBUG:
		n = snprintf(path, len, SCHED_DEBUG_DIR "/%s", name + 1);
		break;
	case VARY_SCHED_FEATURE:
		n = snprintf(path, len, SCHED_DEBUG_DIR "/features");
		break;
	case VARY_PREEMPT:
		n = snprintf(path, len, SCHED_DEBUG_DIR "/preempt");
		break;
	case VARY_SYSFS:
		n = snprintf(path, len, "%s", cfg->vary_path);
		break;
	default:
		return -EINVAL;
	}
	return n < (int)len ? 0 : -ENAMETOOLONG;
}

/* Whitespace runs as one space, none at the ends: how a value is compared and journalled. */
static void squeeze(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (isspace((unsigned char)*r)) {
			if (w > s && w[-1] != ' ')
				*w++ = ' ';
		} else {
			*w++ = *r;
		}
	}
	if (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

/* Is word (a whole word of text, between spaces) in it? */
static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; (p = strstr(p, word)); p++)
		if ((p == text || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

/* The knob's value now, as a variant names it: "1", "on", "full". */
static int knob_read(const struct config *cfg, const char *path, char *val, size_t len)
{
	static char text[KNOB_FILE_MAX];
	int ret = read_small_file(path, text, sizeof(text));
	char *open, *close;

	if (ret)
		return ret;
	squeeze(text);
	switch (cfg->vary_kind) {
	case VARY_SCHED_FEATURE: {
		const char *feat = strchr(cfg->vary_name, ':') + 1;
		char no[sizeof(cfg->vary_name) + 4];

		snprintf(no, sizeof(no), "NO_%s", feat);
		if (has_word(text, feat))
			snprintf(val, len, "on");
		else if (has_word(text, no))
			snprintf(val, len, "off");
		else
			return -ESRCH;	/* the file is there, the feature not */
		return 0;
	}
	case VARY_PREEMPT:	/* "none voluntary (full) lazy" */
		open = strchr(text, '(');
		close = open ? strchr(open, ')') : NULL;
		if (!close)
			return -EPROTO;
		snprintf(val, len, "%.*s", (int)(close - open - 1), open + 1);
		return 0;
	case VARY_SYSFS:	/* a choice file, "[none] mq-deadline kyber bfq": the chosen */
		open = strchr(text, '[');
		close = open ? strchr(open, ']') : NULL;
		if (close)
			snprintf(val, len, "%.*s", (int)(close - open - 1), open + 1);
		else
			snprintf(val, len, "%s", text);
		return 0;
	default:
		snprintf(val, len, "%s", text);
		return 0;
	}
}

/* What to write to set the knob to val: a feature is NAME or NO_NAME. */
static void knob_text(const struct config *cfg, const char *val, char *buf, size_t len)
{
	if (cfg->vary_kind == VARY_SCHED_FEATURE)
		snprintf(buf, len, "%s%s", strcmp(val, "off") ? "" : "NO_",
			 strchr(cfg->vary_name, ':') + 1);
	else
		snprintf(buf, len, "%s", val);
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	ssize_t w;

	if (fd < 0)
		return -errno;
	w = write(fd, text, strlen(text));
	if (w < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return close(fd) < 0 ? -errno : 0;
}

/* Does the value read back say what was written? Numbers by value ("010" is 10). */
bool sysknob_matches(const char *want, const char *got)
{
	char a[SYSKNOB_VALUE_LEN], b[SYSKNOB_VALUE_LEN], *ea, *eb;
	long long x, y;

	snprintf(a, sizeof(a), "%s", want);
	snprintf(b, sizeof(b), "%s", got);
	squeeze(a);
	squeeze(b);
	if (!strcmp(a, b))
		return true;
	errno = 0;
	x = strtoll(a, &ea, 10);
	y = strtoll(b, &eb, 10);
	return !errno && *a && *b && !*ea && !*eb && x == y;
}

/* The journal: which file, and the text that puts it back, written before the first write. */
static int journal_write(const char *path, const char *text, char *err, size_t errlen)
{
	char file[PATH_MAX], dir[PATH_MAX], line[PATH_MAX + SYSKNOB_VALUE_LEN + 64];
	struct stat st;
	int n, ret;

	journal_file(file, sizeof(file));
	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(file, '/') - file), file);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return set_err(err, errlen, "cannot make the knob journal's directory %s: %s", dir,
			       strerror(errno));
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022))
		return set_err(err, errlen, "%s is not a directory of ours that only we may write: "
			       "the knob journal is not kept there", dir);
	n = snprintf(line, sizeof(line), "# interbench pid %ld: put back with interbench "
		     "--restore\n%s\t%s\n", (long)getpid(), path, text);
	ret = replace_file(file, line, (size_t)n);
	if (ret)
		return set_err(err, errlen, "cannot write the knob journal %s: %s", file,
			       strerror(-ret));
	return 0;
}

static void journal_remove(void)
{
	char file[PATH_MAX];

	journal_file(file, sizeof(file));
	unlink(file);
}

/*
 * The knob read as it is now into val: a file that refuses even reads, as
 * debugfs's sched/ does on some VMs, is an error, which says what debugfs
 * needs where the file is debugfs's.
 */
static int knob_current(const struct config *cfg, char *path, size_t pathlen, char *val,
			size_t len, char *err, size_t errlen)
{
	int ret;

	sysknob_path(cfg, path, pathlen);
	ret = knob_read(cfg, path, val, len);
	if (ret == -ESRCH)
		return set_err(err, errlen, "--vary %s: %s does not list the feature",
			       cfg->vary_name, path);
	if (ret)
		return set_err(err, errlen, "--vary %s: cannot read %s: %s%s", cfg->vary_name,
			       path, strerror(-ret), strncmp(path, SCHED_DEBUG_DIR "/",
			       strlen(SCHED_DEBUG_DIR "/")) ? "" : " (debugfs mounted, and root?)");
	return 0;
}

/* --dry-run: the knob read as the run would read it, nothing written. */
int sysknob_check(const struct config *cfg, char *err, size_t errlen)
{
	char path[PATH_MAX], val[SYSKNOB_VALUE_LEN];

	if (cfg->vary_kind == VARY_NONE || cfg->vary_kind == VARY_TASK)
		return 0;
	if (knob_current(cfg, path, sizeof(path), val, sizeof(val), err, errlen))
		return -1;
	if (geteuid() != 0)
		warn("--vary %s changes the kernel's settings: the run needs root", cfg->vary_name);
	return 0;
}

/*
 * Before anything runs: the knob read (knob_current()), its value journalled,
 * each variant's value written and read back, the original put back. A
 * value the kernel refuses is an error now, not a failed row later.
 */
int sysknob_prepare(const struct config *cfg, char *err, size_t errlen)
{
	char path[PATH_MAX], got[SYSKNOB_VALUE_LEN];
	int ret;

	if (cfg->vary_kind == VARY_NONE || cfg->vary_kind == VARY_TASK)
		return 0;
	if (geteuid() != 0)
		return set_err(err, errlen, "--vary %s changes the kernel's settings: run as root",
			       cfg->vary_name);
	if (vary_runs_program(cfg))
		return 0;	/* switch.c journals its program's group */
	if (knob_current(cfg, path, sizeof(path), saved.shown, sizeof(saved.shown), err, errlen))
		return -1;
	knob_text(cfg, saved.shown, saved.text, sizeof(saved.text));
	snprintf(saved.path, sizeof(saved.path), "%s", path);
	if (journal_write(path, saved.text, err, errlen))
		return -1;
	saved.held = true;
	saved.owner = getpid();
	for (int v = 0; v < cfg->nvariants; v++) {
		ret = sysknob_apply(cfg, v, got, sizeof(got), err, errlen);
		if (ret < 0) {
			sysknob_restore(true);
			return -1;
		}
		snprintf(saved.read_back[v], sizeof(saved.read_back[v]), "%.63s", got);
		if (ret > 0)
			warn("--vary %s: the kernel reads back %s after %s was written; rows "
			     "record what it reads back", cfg->vary_name, got,
			     cfg->variants[v].value);
	}
	sysknob_restore(false);	/* as it was until the first row; the journal stays */
	return 0;
}

/* What variant v's value read back as when it was tried before the run, "" if not tried. */
const char *sysknob_read_back(int v)
{
	return saved.read_back[v];
}

/*
 * Set variant v's value (the original for "default") and read it back into
 * got: 0 when it reads back as written, 1 when not (the row records what it
 * reads), -1 with err when the kernel refuses it.
 */
int sysknob_apply(const struct config *cfg, int v, char *got, size_t len, char *err,
		  size_t errlen)
{
	const char *want = cfg->variants[v].value[0] ? cfg->variants[v].value : saved.shown;
	char text[SYSKNOB_VALUE_LEN];
	int ret;

	knob_text(cfg, want, text, sizeof(text));
	ret = write_text(saved.path, text);
	if (ret)
		return set_err(err, errlen, "--vary %s: the kernel refuses %s in %s: %s",
			       cfg->vary_name, want, saved.path, strerror(-ret));
	ret = knob_read(cfg, saved.path, got, len);
	if (ret)
		return set_err(err, errlen, "--vary %s: cannot read %s back: %s", cfg->vary_name,
			       saved.path, strerror(-ret));
	return sysknob_matches(want, got) ? 0 : 1;
}

/*
 * After a failed row: the original value back, the journal kept for the
 * rows to come. At the end, after a signal, and at exit: back, and the
 * journal removed, unless the kernel refused: then it stays for --restore.
 * A child (which shares this memory) never restores.
 */
void sysknob_restore(bool end)
{
	if (!saved.held || saved.owner != getpid())
		return;
	if (write_text(saved.path, saved.text)) {
		warn("could not put back %s to %s: the journal keeps it for interbench --restore",
		     saved.path, saved.text);
	} else if (end) {
		journal_remove();
		saved.held = false;
	}
}

void sysknob_atexit(void)
{
	sysknob_restore(true);
}

/* Only the kernel's knob files are ever written from a journal, whoever wrote it. */
static bool journal_path_ok(const char *p)
{
	return (!strncmp(p, "/proc/sys/", 10) || !strncmp(p, SCHED_DEBUG_DIR "/", 24) ||
		!strncmp(p, "/sys/", 5)) && !strstr(p, "/../") && !strstr(p, "/./");
}

/*
 * A process's group and start time (clock ticks after boot) from
 * /proc/PID/stat; -1: gone, or a zombie (nothing left to stop, only to reap).
 */
static int proc_group(pid_t pid, pid_t *pgrp, unsigned long long *start)
{
	char path[64], text[1024], *p, state;
	long grp;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_small_file(path, text, sizeof(text)))
		return -1;
	p = strrchr(text, ')');	/* past the command's name, which may hold anything */
	if (!p || sscanf(p + 2, "%c %*s %ld %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%*s %*s %*s %llu", &state, &grp, start) != 3 || state == 'Z')
		return -1;
	*pgrp = (pid_t)grp;
	return 0;
}

unsigned long long proc_start_time(pid_t pid)
{
	unsigned long long start = 0;
	pid_t grp;

	return proc_group(pid, &grp, &start) ? 0 : start;
}

/*
 * Signal sig (0: none, only count) to each process of group pgid started no
 * earlier than its leader (start): a group id reused since, by processes of
 * someone else's, would have started later only if its own leader did, so
 * the start time keeps a dead run's journal from reaching them once our
 * leader and all its members are gone. The number of processes found.
 */
int group_signal(pid_t pgid, unsigned long long start, int sig)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		unsigned long long st;
		pid_t pid = (pid_t)atoi(e->d_name), grp;

		if (pid <= 1 || proc_group(pid, &grp, &st) || grp != pgid || st < start)
			continue;
		if (!sig || !kill(pid, sig))
			n++;
	}
	closedir(d);
	return n;
}

/* Before a program of a variant starts: its group, so that a run after a SIGKILL stops it. */
int journal_group(pid_t pgid, unsigned long long start, char *err, size_t errlen)
{
	char text[64];

	snprintf(text, sizeof(text), "%d %llu", (int)pgid, start);
	return journal_write(JOURNAL_GROUP, text, err, errlen);
}

void journal_group_done(void)
{
	journal_remove();
}

/* A dead run's program group: SIGTERM, then SIGKILL to what is left after VARY_STOP_GRACE_S. */
static void stop_left_group(const char *file, const char *spec)
{
	unsigned long long start;
	int pgid, n;

	if (sscanf(spec, "%d %llu", &pgid, &start) != 2 || pgid <= 1) {
		warn("%s: not a process group: %s", file, spec);
		return;
	}
	n = group_signal(pgid, start, SIGTERM);
	for (int i = 0; i < VARY_STOP_GRACE_S * 50 && group_signal(pgid, start, 0); i++)
		sleep_ns(20 * NSEC_PER_MSEC);
	group_signal(pgid, start, SIGKILL);
	if (n)
		fprintf(stderr, "%s: stopped %d process%s of group %d, left running by a run that "
			"did not end\n", progname, n, n == 1 ? "" : "es", pgid);
}

/*
 * What a run that did not end (SIGKILL, a crash, a power cut) left changed:
 * each journalled knob put back, said on stderr. The number put back, or -1
 * with err when the journal cannot be acted on.
 */
int journal_restore(bool verbose, char *err, size_t errlen)
{
	char file[PATH_MAX], text[4096];
	int ret, done = 0;
	struct stat st;

	journal_file(file, sizeof(file));
	if (lstat(file, &st) < 0) {
		if (verbose)
			fprintf(stderr, "%s: nothing to put back (%s: no journal)\n", progname, file);
		return 0;
	}
	if (geteuid() != 0)
		return set_err(err, errlen, "a run that did not end left kernel settings changed "
			       "(%s): run interbench --restore as root", file);
	if (!S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022))
		return set_err(err, errlen, "%s is not a journal of ours (not a root-owned "
			       "regular file only root may write); not acting on it", file);
	ret = read_small_file(file, text, sizeof(text));
	if (ret)
		return set_err(err, errlen, "cannot read %s: %s", file, strerror(-ret));
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *tab = strchr(line, '\t');

		if (line[0] == '#' || !tab)
			continue;
		*tab = '\0';
		if (!strcmp(line, JOURNAL_GROUP)) {
			stop_left_group(file, tab + 1);
			done++;
			continue;
		}
		if (!journal_path_ok(line)) {
			warn("%s: not a kernel knob, not written: %s", file, line);
			continue;
		}
		ret = write_text(line, tab + 1);
		if (ret)
			return set_err(err, errlen, "cannot put back %s to %s: %s (the journal %s "
				       "stays)", line, tab + 1, strerror(-ret), file);
		fprintf(stderr, "%s: put back %s to %s, left changed by a run that did not end\n",
			progname, line, tab + 1);
		done++;
	}
	unlink(file);
	return done;
}
