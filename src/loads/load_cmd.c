// SPDX-License-Identifier: GPL-2.0-or-later
/* loads/load_cmd.c - Command: the user's own command (--load-cmd) as the load, restarted when
 * it ends, its processes stopped with the load. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loads/load_shared.h"
#include "sys/proc_scan.h"

#define CMD_QUICK_NS NSEC_PER_SEC		/* a failure this soon after its start: */
#define CMD_QUICK_MAX 3				/* this many in a row, the command cannot run */
#define CMD_GAP_NS (100 * NSEC_PER_MSEC)	/* the least time from one start to the next */
#define CMD_TERM_NS (300 * NSEC_PER_MSEC)	/* SIGTERM's time, then SIGKILL's */

struct cmd_run {
	pid_t pid;			/* the shell, leader of its process group; 0: none */
	uint64_t started;		/* CLOCK_MONOTONIC */
	int quick;			/* failures soon after the start, in a row */
	char last[160];			/* the last line the command wrote to stderr */
	size_t len;			/* of a line still being written, in last */
};

/* The child: its own process group, the load's nice and CPUs, stdout dropped, stderr to us. */
static void cmd_exec(const char *cmd, int err_w)
{
	sigset_t none;
	int null = open("/dev/null", O_RDWR);

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	dup2(err_w, STDERR_FILENO);
	syscall(SYS_close_range, 3U, ~0U, 0U);	/* none of the run's pipes */
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

/* What the command wrote to stderr since the last look: its last line kept for a reason. */
static void cmd_drain(int fd, struct cmd_run *c)
{
	char buf[512];
	ssize_t r;

	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] == '\n') {
				c->len = 0;	/* the next character starts a line */
				continue;
			}
			if (!c->len)
				c->last[0] = '\0';
			if (c->len < sizeof(c->last) - 1) {
				c->last[c->len++] = buf[i];
				c->last[c->len] = '\0';
			}
		}
	}
}

/* Every process of the command, its group and what left it (we are their subreaper). */
static void kill_tree(pid_t group, int sig)
{
	struct proc_scan s;

	if (group > 0)
		kill(-group, sig);
	if (proc_scan_take(&s))
		return;
	for (size_t i = 0; i < s.n; i++)
		if (s.p[i].pid != getpid() && proc_in_tree(s.p, s.n, s.p[i].pid, getpid()))
			kill(s.p[i].pid, sig);
	proc_scan_free(&s);
}

/* Reap what has ended; true when nothing of the command is left. */
static bool reap_all(struct cmd_run *c, int *status)
{
	pid_t p;
	int st;

	while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
		if (p == c->pid) {
			*status = st;
			c->pid = -c->pid;	/* ended: its group may live on */
		}
	}
	return p < 0 && errno == ECHILD;
}

/* The load's end: SIGTERM to every process of it, SIGKILL to those left, all reaped. */
static void cmd_stop(struct cmd_run *c)
{
	pid_t group = c->pid > 0 ? c->pid : -c->pid;
	int st;

	for (int sig = 0; sig < 2; sig++) {
		uint64_t deadline = now_ns() + CMD_TERM_NS;

		kill_tree(group, sig ? SIGKILL : SIGTERM);
		while (!reap_all(c, &st) && now_ns() < deadline)
			sleep_ns(5 * NSEC_PER_MSEC);
		if (reap_all(c, &st))
			return;
	}
}

/* The command ended with status st: a restart, or the reason it cannot run (-ENOEXEC). */
static int cmd_ended(struct load_ctx *ctx, struct cmd_run *c, int st)
{
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	bool quick = now_ns() - c->started < CMD_QUICK_NS && code;

	c->quick = quick ? c->quick + 1 : 0;
	c->pid = 0;
	if ((quick && (code == 126 || code == 127)) || c->quick >= CMD_QUICK_MAX) {
		snprintf(ctx->reason, sizeof(ctx->reason), "--load-cmd cannot run: exit status %d "
			 "%s%s%.100s", code, c->quick > 1 ? "within 1 s of each start, 3 times" :
			 "at once", c->last[0] ? ": " : "", c->last);
		return -ENOEXEC;
	}
	atomic_fetch_add(&ctx->ctr->restarts, 1);
	return 0;
}

/* One turn of the watch: start the command when due, reap it, read its stderr. */
static int cmd_turn(struct load_ctx *ctx, struct cmd_run *c, int err[2])
{
	int st = 0;

	cmd_drain(err[0], c);
	if (c->pid <= 0 && now_ns() >= c->started + CMD_GAP_NS) {
		pid_t pid = fork();

		if (pid < 0)
			return set_reason(ctx->reason, sizeof(ctx->reason), "fork", errno);
		if (!pid)
			cmd_exec(ctx->par.command, err[1]);
		setpgid(pid, pid);	/* before either runs on: the kill must find the group */
		c->pid = pid;
		c->started = now_ns();
	}
	reap_all(c, &st);
	if (c->pid < 0) {
		cmd_drain(err[0], c);
		return cmd_ended(ctx, c, st);
	}
	return 0;
}

/*
 * The command, by /bin/sh -c, in a process group of its own, with the
 * load's nice, class and CPUs; started again whenever it ends, counted in
 * restarts. Its intensity is the CPU its processes use (load_child.c);
 * we are their subreaper, so what leaves its group is still ours.
 */
int load_command(struct load_ctx *ctx)
{
	struct cmd_run c = { 0 };
	int err[2], ret = 0;

	if (!ctx->par.command)
		return set_reason(ctx->reason, sizeof(ctx->reason), "--load-cmd", EINVAL);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe2(err, O_CLOEXEC | O_NONBLOCK) < 0)
		return set_reason(ctx->reason, sizeof(ctx->reason), "pipe", errno);
	c.started = now_ns() - CMD_GAP_NS;
	while (!ret && !load_stopping(ctx)) {
		struct pollfd p = { .fd = err[0], .events = POLLIN };

		ret = cmd_turn(ctx, &c, err);
		poll(&p, 1, 10);
	}
	cmd_stop(&c);
	close(err[0]);
	close(err[1]);
	return ret;
}
