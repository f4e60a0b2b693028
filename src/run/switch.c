// SPDX-License-Identifier: GPL-2.0-or-later
/* run/switch.c - entering and leaving a --vary variant: its knob written, or its program (scx=,
 * exec=) started in a process group of its own, waited for, watched and stopped. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "run/row_signals.h"
#include "cli/vary.h"
#include "run/switch.h"

#define ARGS_MAX 16
#define POLL_NS (20 * NSEC_PER_MSEC)
#define OUTPUT_TAIL 4096		/* of a program's output, for why it exited */

static struct {
	int cur;			/* the variant entered last, -1: none */
	pid_t pid, owner;		/* its program (its group's leader), 0: none; ours */
	unsigned long long start;	/* the leader's start time, for group_signal() */
	bool exited;			/* the leader has exited, and been reaped */
	bool gone_at_entry;		/* it had when the variant was entered (a daemon forks) */
	int status;			/* its wait status */
	int out_fd;			/* the program's output: a file without a name */
	struct timespec started;	/* CLOCK_REALTIME_COARSE: what the file system stamps */
	char seq[32], ops[64];		/* sched_ext's enable_seq and ops when entered */
	char state[MAX_VARIANTS][VARIANT_STATE_LEN];	/* found when tried before the run */
} sw = { .cur = -1, .out_fd = -1 };

static const char *scx_root(void)
{
	const char *e = getenv(SCX_ROOT_ENV);

	return e && *e ? e : SCX_ROOT;
}

/* The first word of a sched_ext file (state, root/ops, enable_seq); "" and -errno when unread. */
static int scx_read(const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], text[256];
	size_t s;
	int ret;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", scx_root(), name);
	ret = read_small_file(path, text, sizeof(text));
	if (ret)
		return ret;
	s = strspn(text, " \t\n");
	snprintf(buf, len, "%.*s", (int)strcspn(text + s, " \t\n"), text + s);
	return 0;
}

/* How long a program may take to start and sched_ext to follow (tests shorten it). */
static double switch_timeout(void)
{
	const char *e = getenv(SWITCH_TIMEOUT_ENV);
	double s;

	return e && !parse_double(e, 0.1, 3600, &s) ? s : SWITCH_TIMEOUT_S;
}

/* The variant's command line split at spaces into argv, in buf: no shell, no quoting. */
static int split_args(const char *value, char *buf, size_t len, char **argv)
{
	int n = 0;
	char *save;

	snprintf(buf, len, "%s", value);
	for (char *t = strtok_r(buf, " ", &save); t && n < ARGS_MAX; t = strtok_r(NULL, " ", &save))
		argv[n++] = t;
	argv[n] = NULL;
	return n;
}

/* The program's file name, without its directory: "scx_lavd". */
static void program_base(const char *value, char *buf, size_t len)
{
	size_t n = strcspn(value, " ");
	const char *b = value;

	for (size_t i = 0; i < n; i++)
		if (value[i] == '/')
			b = value + i + 1;
	snprintf(buf, len, "%.*s", (int)(value + n - b), b);
}

/*
 * Does sched_ext's ops name the program: its name, or its name without
 * "scx_" (scx_lavd's ops is lavd), alone or followed by "_" and more; the
 * scx schedulers follow it with their version ("lavd_1.0.6_g1a2b_x86_64"),
 * which goes into ver.
 */
static bool ops_names(const char *ops, const char *prog, char *ver, size_t len)
{
	const char *names[2] = { prog, strncmp(prog, "scx_", 4) ? prog : prog + 4 };

	ver[0] = '\0';
	for (int i = 0; i < 2; i++) {
		size_t n = strlen(names[i]);

		if (!n || strncmp(ops, names[i], n) || (ops[n] && ops[n] != '_'))
			continue;
		if (ops[n] == '_' && isdigit((unsigned char)ops[n + 1]))
			snprintf(ver, len, "%.*s", (int)strcspn(ops + n + 1, "_"), ops + n + 1);
		return true;
	}
	return false;
}

/* Up to len - 1 bytes of the program's output from off, control characters but \n as spaces. */
static ssize_t output_read(off_t off, char *buf, size_t len)
{
	ssize_t n = sw.out_fd < 0 ? -1 : pread(sw.out_fd, buf, len - 1, off);

	n = n < 0 ? 0 : n;
	buf[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if (((unsigned char)buf[i] < 0x20 && buf[i] != '\n') || buf[i] == 0x7f)
			buf[i] = ' ';
	return n;
}

/*
 * Why the program stopped, in its own words: the last line of its output
 * that says EXIT (the scx schedulers print the kernel's exit reason so,
 * "EXIT: runnable task stall"), else its last line; "" when it said nothing.
 */
static void output_reason(char *buf, size_t len)
{
	char text[OUTPUT_TAIL + 1], *save, *last = NULL, *exit_line = NULL;
	off_t end = sw.out_fd < 0 ? 0 : lseek(sw.out_fd, 0, SEEK_END);

	output_read(end > OUTPUT_TAIL ? end - OUTPUT_TAIL : 0, text, sizeof(text));
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		l += strspn(l, " ");
		if (!*l)
			continue;
		last = l;
		if (strcasestr(l, "exit"))
			exit_line = l;
	}
	snprintf(buf, len, "%s", exit_line ? exit_line : last ? last : "");
}

/* A version the program printed as it started: its first word like 1.2.3 or v1.2. */
static void output_version(char *buf, size_t len)
{
	char text[OUTPUT_TAIL + 1], *save;

	buf[0] = '\0';
	output_read(0, text, sizeof(text));
	for (char *w = strtok_r(text, " \n,;()", &save); w; w = strtok_r(NULL, " \n,;()", &save)) {
		const char *d = w + (*w == 'v');
		size_t n = strspn(d, "0123456789.");

		if (isdigit((unsigned char)d[0]) && memchr(d, '.', n) && isdigit((unsigned char)d[n - 1])) {
			snprintf(buf, len, "%.*s", (int)strspn(d, "0123456789.abcdefghijklmnopqrstuvwxyz"
							      "ABCDEFGHIJKLMNOPQRSTUVWXYZ+-~"), d);
			return;
		}
	}
}

/* Has the program's leader exited? Reaped once, its status kept. */
static bool leader_gone(void)
{
	if (!sw.pid)
		return true;
	if (!sw.exited && waitpid(sw.pid, &sw.status, WNOHANG) == sw.pid)
		sw.exited = true;
	return sw.exited;
}

/* "exited with status 1", "was killed by SIGSEGV" */
static const char *exit_text(char *buf, size_t len)
{
	if (WIFSIGNALED(sw.status))
		snprintf(buf, len, "was killed by %s", sigabbrev_np(WTERMSIG(sw.status)) ?
			 sigabbrev_np(WTERMSIG(sw.status)) : "a signal");
	else
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(sw.status));
	return buf;
}

/* "scx_x exited with status 1: EXIT: runnable task stall" */
static void program_ended(const struct config *cfg, char *buf, size_t len)
{
	char prog[64], how[48], why[200];

	program_base(cfg->variants[sw.cur].value, prog, sizeof(prog));
	output_reason(why, sizeof(why));
	snprintf(buf, len, "%s %s%s%s", prog, exit_text(how, sizeof(how)), why[0] ? ": " : "",
		 why);
}

/* The program's child: its own group, every CPU, default signals, output to the file. */
static void NORETURN child_exec(int go[2], char **argv)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	cpu_set_t all;
	sigset_t none;
	char c;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);	/* interbench killed: it stops too */
	close(go[1]);
	if (read(go[0], &c, 1) != 1)
		_exit(127);	/* the journal does not know of it: it never runs */
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	memset(&all, 0xff, sizeof(all));
	sched_setaffinity(0, sizeof(all), &all);	/* not -u's one CPU */
	if (null < 0 || dup2(null, 0) < 0 || dup2(sw.out_fd, 1) < 0 || dup2(sw.out_fd, 2) < 0)
		_exit(127);
	execvp(argv[0], argv);
	dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/*
 * Variant v's program started in a process group of its own, its output
 * to a file without a name. The group goes to the journal before the
 * program runs: the child waits on a pipe until it is there.
 */
static int start_program(const struct config *cfg, int v, char *err, size_t errlen)
{
	char buf[VARIANT_VALUE_LEN], *argv[ARGS_MAX + 1];
	int go[2], ret;
	pid_t pid;

	split_args(cfg->variants[v].value, buf, sizeof(buf), argv);
	if (sw.out_fd < 0 && (ret = open_tmpfile(cfg->work_dir, ".interbench-variant",
						 &sw.out_fd)))
		return set_err(err, errlen, "--vary %s: a file for its output in %s: %s",
			       cfg->variants[v].label, cfg->work_dir, strerror(-ret));
	if (ftruncate(sw.out_fd, 0) < 0 || lseek(sw.out_fd, 0, SEEK_SET) < 0 ||
	    pipe2(go, O_CLOEXEC) < 0)
		return set_err(err, errlen, "--vary %s: %s", cfg->variants[v].label,
			       strerror(errno));
	clock_gettime(CLOCK_REALTIME_COARSE, &sw.started);
	pid = fork();
	if (pid < 0) {
		ret = errno;
		close(go[0]);
		close(go[1]);
		return set_err(err, errlen, "--vary %s: fork: %s", cfg->variants[v].label,
			       strerror(ret));
	}
	if (!pid)
		child_exec(go, argv);
	close(go[0]);
	setpgid(pid, pid);
	sw.cur = v;
	sw.pid = pid;
	sw.start = proc_start_time(pid);
	sw.exited = sw.gone_at_entry = false;
	ret = journal_group(pid, sw.start, err, errlen);
	if (!ret && write(go[1], "g", 1) != 1)
		ret = set_err(err, errlen, "--vary %s: cannot start it: %s", cfg->variants[v].label,
			      strerror(errno));
	close(go[1]);
	return ret ? -1 : 0;
}

/* The program's group stopped: SIGTERM, then SIGKILL to what is left after VARY_STOP_GRACE_S. */
static void stop_program(void)
{
	uint64_t end = now_ns() + VARY_STOP_GRACE_S * NSEC_PER_SEC;

	if (!sw.pid)
		return;
	group_signal(sw.pid, sw.start, SIGTERM);
	while (now_ns() < end && (!leader_gone() || group_signal(sw.pid, sw.start, 0))) {
		while (waitpid(-sw.pid, NULL, WNOHANG) > 0)
			;	/* its children, ours now (a subreaper's) */
		sleep_ns(POLL_NS);
	}
	group_signal(sw.pid, sw.start, SIGKILL);
	if (!sw.exited && waitpid(sw.pid, &sw.status, 0) == sw.pid)
		sw.exited = true;
	while (waitpid(-sw.pid, NULL, WNOHANG) > 0)
		;
	journal_group_done();
	sw.pid = 0;
}

/*
 * Until sched_ext says enabled with the program's ops (enabled), or says
 * disabled, within the bound: the program exiting first is an error, with
 * what it said.
 */
static int scx_wait(const struct config *cfg, int v, bool enabled, char *err, size_t errlen)
{
	uint64_t end = now_ns() + (uint64_t)(switch_timeout() * 1e9);
	char state[32], ops[64], prog[64], ver[32], why[320];

	program_base(cfg->variants[v].value, prog, sizeof(prog));
	for (;;) {
		scx_read("state", state, sizeof(state));
		scx_read("root/ops", ops, sizeof(ops));
		if (enabled ? !strcmp(state, "enabled") && ops_names(ops, prog, ver, sizeof(ver)) :
			      !strcmp(state, "disabled"))
			return 0;
		if (enabled && leader_gone()) {
			program_ended(cfg, why, sizeof(why));
			return set_err(err, errlen, "--vary %s: %s before sched_ext said enabled",
				       cfg->variants[v].label, why);
		}
		if (got_signal)
			return set_err(err, errlen, "interrupted");
		if (now_ns() >= end)
			return set_err(err, errlen, "--vary %s: sched_ext did not say %s%s within "
				       "%g s (state: %s, ops: %s)", cfg->variants[v].label,
				       enabled ? "enabled with " : "disabled", enabled ? prog : "",
				       switch_timeout(), state[0] ? state : "unreadable",
				       ops[0] ? ops : "none");
		sleep_ns(POLL_NS);
	}
}

/* sched_ext as a row records it: "enabled: lavd", "disabled" */
static void scx_now(char *buf, size_t len)
{
	char state[32], ops[64];

	scx_read("state", state, sizeof(state));
	scx_read("root/ops", ops, sizeof(ops));
	snprintf(buf, len, "%.20s%s%.40s", state, strcmp(state, "disabled") && ops[0] ? ": " : "",
		 strcmp(state, "disabled") ? ops : "");
}

/* scx=: none, checked to be so; else the scheduler's program started and seen enabled. */
static int scx_enter(const struct config *cfg, int v, struct variant_seen *seen, char *err,
		     size_t errlen)
{
	char state[32];

	if (!cfg->variants[v].value[0]) {
		scx_read("state", state, sizeof(state));
		scx_now(seen->scx, sizeof(seen->scx));
		if (strcmp(state, "disabled"))
			return set_err(err, errlen, "--vary %s: sched_ext is %s, not disabled: "
				       "something else loaded a scheduler", cfg->variants[v].label,
				       seen->scx);
		return 0;
	}
	if (start_program(cfg, v, err, errlen) || scx_wait(cfg, v, true, err, errlen))
		return -1;
	scx_read("enable_seq", sw.seq, sizeof(sw.seq));
	scx_read("root/ops", sw.ops, sizeof(sw.ops));
	seen->pid = sw.pid;
	snprintf(seen->value, sizeof(seen->value), "%s", sw.ops);
	scx_now(seen->scx, sizeof(seen->scx));
	return 0;
}

/*
 * exec=: the command started; ready when --vary-ready's file appears (made
 * since it started) and its settle time has passed. A leader that exits
 * with status 0 has handed over to what it started (a daemon forks); any
 * other exit before its rows is an error.
 */
static int exec_enter(const struct config *cfg, int v, struct variant_seen *seen, char *err,
		      size_t errlen)
{
	uint64_t end = now_ns() + (uint64_t)(switch_timeout() * 1e9);
	struct stat st;
	char why[320];

	if (!cfg->variants[v].value[0])
		return 0;
	if (start_program(cfg, v, err, errlen))
		return -1;
	seen->pid = sw.pid;
	while (cfg->vary_ready && (stat(cfg->vary_ready, &st) ||
				   st.st_mtim.tv_sec < sw.started.tv_sec ||
				   (st.st_mtim.tv_sec == sw.started.tv_sec &&
				    st.st_mtim.tv_nsec < sw.started.tv_nsec))) {
		if (got_signal)
			return set_err(err, errlen, "interrupted");
		if (leader_gone() && !(WIFEXITED(sw.status) && !WEXITSTATUS(sw.status)))
			break;
		if (now_ns() >= end)
			return set_err(err, errlen, "--vary %s: %s did not appear within %g s",
				       cfg->variants[v].label, cfg->vary_ready, switch_timeout());
		sleep_ns(POLL_NS);
	}
	for (end = now_ns() + (uint64_t)(cfg->vary_settle_s * 1e9); now_ns() < end && !got_signal;)
		sleep_ns(POLL_NS);
	if (leader_gone() && !(WIFEXITED(sw.status) && !WEXITSTATUS(sw.status))) {
		program_ended(cfg, why, sizeof(why));
		return set_err(err, errlen, "--vary %s: %s before its rows", cfg->variants[v].label,
			       why);
	}
	sw.gone_at_entry = leader_gone();
	return got_signal ? set_err(err, errlen, "interrupted") : 0;
}

/* The program stopped and, for scx=, sched_ext seen disabled again; nothing entered after. */
static int leave_program(const struct config *cfg, char *err, size_t errlen)
{
	int v = sw.cur, ret = 0;

	stop_program();
	if (cfg->vary_kind == VARY_SCX && v >= 0 && cfg->variants[v].value[0])
		ret = scx_wait(cfg, v, false, err, errlen);
	sw.cur = -1;
	return ret;
}

/*
 * Variant v's state for its row: a knob written and read back (0, or 1
 * when it reads back otherwise); a program's variant entered unless it is
 * the one running, the one before left first. -1 with err when it cannot
 * be entered: the caller stops the run.
 */
int switch_enter(const struct config *cfg, int v, struct variant_seen *seen, char *err,
		 size_t errlen)
{
	memset(seen, 0, sizeof(*seen));
	if (!vary_runs_program(cfg))
		return sysknob_apply(cfg, v, seen->value, sizeof(seen->value), err, errlen);
	if (sw.cur == v) {
		seen->pid = sw.pid;
		snprintf(seen->value, sizeof(seen->value), "%s", sw.ops);
		if (cfg->vary_kind == VARY_SCX)
			scx_now(seen->scx, sizeof(seen->scx));
		return 0;
	}
	if (leave_program(cfg, err, errlen))
		return -1;
	sw.cur = v;
	sw.ops[0] = sw.seq[0] = '\0';
	if ((cfg->vary_kind == VARY_SCX ? scx_enter : exec_enter)(cfg, v, seen, err, errlen)) {
		stop_program();
		sw.cur = -1;
		return -1;
	}
	return 0;
}

/*
 * After a row: is its variant still what it was? A scheduler ejected by
 * the kernel (sched_ext disabled, another ops, enable_seq moved on: it was
 * ejected and loaded again), or a program gone, fails the row with the
 * reason, and the variant is left so that its next cell starts clean.
 */
int switch_check(const struct config *cfg, char *reason, size_t len)
{
	char state[32], ops[64], seq[32], why[320];
	const char *value;

	if (!vary_runs_program(cfg) || sw.cur < 0)
		return 0;
	value = cfg->variants[sw.cur].value;
	why[0] = '\0';
	if (cfg->vary_kind == VARY_SCX) {
		scx_read("state", state, sizeof(state));
		scx_read("root/ops", ops, sizeof(ops));
		scx_read("enable_seq", seq, sizeof(seq));
		if (!value[0] && strcmp(state, "disabled")) {
			snprintf(reason, len, "sched_ext went %s (ops %s) during the row of a "
				 "variant without a scheduler", state, ops[0] ? ops : "none");
		} else if (value[0] && (strcmp(state, "enabled") || strcmp(ops, sw.ops) ||
					strcmp(seq, sw.seq) || leader_gone())) {
			output_reason(why, sizeof(why));
			if (!strcmp(state, "enabled") && strcmp(seq, sw.seq))
				snprintf(state, sizeof(state), "loaded again");
			snprintf(reason, len, "sched_ext ejected %s during the row (%s%s%s)%s%s",
				 sw.ops, strcmp(state, "loaded again") ? "now " : "", state,
				 strcmp(state, "loaded again") ? "" : ", enable_seq moved on",
				 why[0] ? ": " : "", why);
		} else {
			return 0;
		}
	} else if (value[0] && !sw.gone_at_entry && leader_gone()) {
		program_ended(cfg, why, sizeof(why));
		snprintf(reason, len, "during the row, %s", why);
	} else {
		return 0;
	}
	leave_program(cfg, why, sizeof(why));
	return -1;
}

/* The end, a signal, a failure: the program stopped, the knob put back, the journal gone. */
void switch_leave(const struct config *cfg, bool end)
{
	char err[256];

	if (sw.owner != getpid())
		return;		/* a child: the orchestrator's to do */
	if (!vary_runs_program(cfg)) {
		sysknob_restore(end);
		return;
	}
	if (leave_program(cfg, err, sizeof(err)))
		warn("%s", err);
}

static const struct config *leave_cfg;

static void switch_atexit(void)
{
	if (leave_cfg)
		switch_leave(leave_cfg, true);
}

/* Is the command's program there: a path to run, or a name found in PATH? */
static bool program_found(const char *value)
{
	char name[VARIANT_VALUE_LEN], path[PATH_MAX], *save;
	const char *dirs = getenv("PATH");

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(value, " "), value);
	if (strchr(name, '/'))
		return !access(name, X_OK);
	snprintf(path, sizeof(path), "%s", dirs ? dirs : "/usr/bin:/bin");
	for (char *d = strtok_r(path, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char file[PATH_MAX + VARIANT_VALUE_LEN];

		snprintf(file, sizeof(file), "%s/%s", *d ? d : ".", name);
		if (!access(file, X_OK))
			return true;
	}
	return false;
}

/*
 * Each scheduler tried once before the run, as a sysfs value is: started,
 * seen enabled with its name (and version), stopped, seen disabled; what
 * it showed is the header's. A scheduler that cannot load stops the run
 * before anything is measured.
 */
static int scx_try(const struct config *cfg, char *err, size_t errlen)
{
	for (int v = 0; v < cfg->nvariants; v++) {
		struct variant_seen seen;
		char prog[64], ver[32];

		if (!cfg->variants[v].value[0]) {
			snprintf(sw.state[v], sizeof(sw.state[v]), "no scheduler program, sched_ext "
				 "disabled");
			continue;
		}
		if (switch_enter(cfg, v, &seen, err, errlen))
			return -1;
		program_base(cfg->variants[v].value, prog, sizeof(prog));
		ops_names(sw.ops, prog, ver, sizeof(ver));
		if (!ver[0])
			output_version(ver, sizeof(ver));
		snprintf(sw.state[v], sizeof(sw.state[v]), "sched_ext %s%s%s, run as '%s'",
			 seen.scx, ver[0] ? ", version " : "", ver, cfg->variants[v].value);
		if (leave_program(cfg, err, errlen))
			return -1;
	}
	return 0;
}

/*
 * What is checked with nothing changed, by the run and by --dry-run: a
 * knob read (sysknob_check), or for scx= sched_ext there and idle, and for
 * scx= and exec= each program found.
 */
int switch_check_unchanged(const struct config *cfg, char *err, size_t errlen)
{
	char state[32], ops[64];

	if (!vary_runs_program(cfg))
		return sysknob_check(cfg, err, errlen);
	if (cfg->vary_kind == VARY_SCX && scx_read("state", state, sizeof(state)))
		return set_err(err, errlen, "--vary scx: this kernel has no sched_ext (no %s/state); "
			       "nothing was changed", scx_root());
	if (cfg->vary_kind == VARY_SCX && strcmp(state, "disabled")) {
		scx_read("root/ops", ops, sizeof(ops));
		return set_err(err, errlen, "--vary scx: sched_ext is %s with %s: stop it first, so "
			       "that every variant starts from the kernel's own scheduler", state,
			       ops[0] ? ops : "a scheduler");
	}
	for (int v = 0; v < cfg->nvariants; v++) {
		if (cfg->variants[v].value[0] && !program_found(cfg->variants[v].value))
			return set_err(err, errlen, "--vary %s: no program %.*s (not in PATH, or not "
				       "executable)", cfg->variants[v].label,
				       (int)strcspn(cfg->variants[v].value, " "),
				       cfg->variants[v].value);
	}
	return 0;
}

/*
 * Before anything runs: a knob's values tried (sysknob_prepare); for scx=,
 * sched_ext there and idle, and each scheduler tried; for exec=, each
 * command found. Refused with err, nothing changed.
 */
int switch_prepare(const struct config *cfg, char *err, size_t errlen)
{
	sw.owner = getpid();	/* switch_leave() acts for the orchestrator alone */
	if (sysknob_prepare(cfg, err, errlen))
		return -1;
	if (!vary_runs_program(cfg))
		return 0;
	if (switch_check_unchanged(cfg, err, errlen))
		return -1;
	for (int v = 0; v < cfg->nvariants; v++) {
		if (cfg->vary_kind == VARY_EXEC && cfg->variants[v].value[0])
			snprintf(sw.state[v], sizeof(sw.state[v]), "runs '%s'",
				 cfg->variants[v].value);
		else if (cfg->vary_kind == VARY_EXEC)
			snprintf(sw.state[v], sizeof(sw.state[v]), "no program");
	}
	leave_cfg = cfg;
	atexit(switch_atexit);
	return cfg->vary_kind == VARY_SCX ? scx_try(cfg, err, errlen) : 0;
}

/* What each variant showed when tried before the run, for the header: "reads bfq". */
void switch_states(const struct config *cfg, char (*state)[VARIANT_STATE_LEN])
{
	for (int v = 0; v < cfg->nvariants; v++) {
		if (vary_runs_program(cfg))
			snprintf(state[v], VARIANT_STATE_LEN, "%s", sw.state[v]);
		else if (cfg->vary_kind != VARY_TASK && sysknob_read_back(v)[0])
			snprintf(state[v], VARIANT_STATE_LEN, "reads %s", sysknob_read_back(v));
		else
			state[v][0] = '\0';
	}
}
