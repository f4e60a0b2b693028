// SPDX-License-Identifier: GPL-2.0-or-later
/* child/child.c - the orchestrator's children: start, messages both ways, waits with deadlines,
 * end. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "child/child.h"

_Static_assert(MSG_TEXT_MAX <= 255, "a MSG_ERROR's length is one byte");

/* ---- messages: pure encoding and decoding ---- */

static bool msg_known(int m)
{
	return m == MSG_READY || m == MSG_ERROR || m == MSG_GO || m == MSG_BEGIN ||
	       m == MSG_STOP;
}

/* m (and for MSG_ERROR its text, cut to fit) into buf; returns the bytes used, 0 if none fit. */
size_t msg_encode(char *buf, size_t len, enum child_msg m, const char *text)
{
	size_t n;

	if (len < 1 || !msg_known(m))
		return 0;
	buf[0] = (char)m;
	if (m != MSG_ERROR)
		return 1;
	if (len < 2)
		return 0;
	n = text ? strnlen(text, MSG_TEXT_MAX) : 0;
	if (n > len - 2)
		n = len - 2;
	buf[1] = (char)(unsigned char)n;
	memcpy(buf + 2, text, n);
	return 2 + n;
}

/*
 * How long the message starting in buf is, given the have bytes (at least
 * one) read so far: more than have means read on. -EPROTO: not a message.
 */
ssize_t msg_length(const char *buf, size_t have)
{
	if (have < 1 || !msg_known((unsigned char)buf[0]))
		return -EPROTO;
	if (buf[0] != MSG_ERROR)
		return 1;
	if (have < 2)
		return 2;
	return 2 + (unsigned char)buf[1];
}

/* The message in buf (len bytes, whole); its text, or "", into text. */
int msg_decode(const char *buf, size_t len, char *text, size_t tlen)
{
	ssize_t need = msg_length(buf, len);
	size_t n = 0;

	if (tlen)
		text[0] = '\0';
	if (need < 0 || (size_t)need != len)
		return -EPROTO;
	if (buf[0] == MSG_ERROR && tlen) {
		n = len - 2 < tlen - 1 ? len - 2 : tlen - 1;
		memcpy(text, buf + 2, n);
		text[n] = '\0';
	}
	return (unsigned char)buf[0];
}

/* ---- the child's side ---- */

static int send_msg(int fd, enum child_msg m, const char *text)
{
	char buf[MSG_MAX];
	size_t n = msg_encode(buf, sizeof(buf), m, text);

	if (!n)
		return -EINVAL;
	return write_full(fd, buf, n) == (ssize_t)n ? 0 : -EPIPE;
}

/* Set up and waiting: tell the orchestrator. */
int child_ready(int res)
{
	return send_msg(res, MSG_READY, NULL);
}

/* Cannot run: tell the orchestrator why, for the row's reason. */
int child_fail(int res, const char *fmt, ...)
{
	char text[MSG_TEXT_MAX + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return send_msg(res, MSG_ERROR, text);
}

/* The next command; MSG_NONE once the orchestrator has closed its end. */
enum child_msg child_next(int ctl)
{
	char m;

	for (;;) {
		if (read_full(ctl, &m, 1) != 1)
			return MSG_NONE;
		if (m != MSG_ERROR && msg_known((unsigned char)m))
			return (enum child_msg)m;
	}
}

/*
 * The next command, or MSG_TIMEOUT once CLOCK_MONOTONIC passes deadline
 * with none: for a child that has something to do meanwhile.
 */
enum child_msg child_next_by(int ctl, uint64_t deadline)
{
	for (;;) {
		struct pollfd p = { .fd = ctl, .events = POLLIN };
		uint64_t now = now_ns(), ms;
		int r;

		if (now >= deadline)
			return MSG_TIMEOUT;
		ms = (deadline - now + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC;
		r = poll(&p, 1, ms < 1000000 ? (int)ms : 1000000);
		if (r < 0 && errno != EINTR)
			return MSG_NONE;
		if (r > 0)
			return child_next(ctl);
	}
}

/* ---- the orchestrator's side ---- */

/* Fresh state for a forked child: own group, dies with its parent, default signals. */
static void child_setup(pid_t parent)
{
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGTSTP };

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);	/* the parent died before the line above */
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
}

static void close_pair(int p[2])
{
	close(p[0]);
	close(p[1]);
}

/* Fork body(arg, ctl, res) in a process group of its own; its return is its exit status. */
int child_start(struct child *c, child_body body, void *arg)
{
	pid_t parent = getpid();
	int ctl[2], res[2], err;

	*c = CHILD_NONE;
	if (pipe2(ctl, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(res, O_CLOEXEC) < 0) {
		err = -errno;
		close_pair(ctl);
		return err;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		err = -errno;
		close_pair(ctl);
		close_pair(res);
		c->pid = 0;
		return err;
	}
	if (c->pid == 0) {
		child_setup(parent);
		close(ctl[1]);
		close(res[0]);
		_exit(body(arg, ctl[0], res[1]));
	}
	setpgid(c->pid, c->pid);	/* whichever of the two runs first */
	close(ctl[0]);
	close(res[1]);
	c->ctl = ctl[1];
	c->res = res[0];
	return 0;
}

static bool stopped(const struct child_watch *w)
{
	return w && ((w->interrupt && *w->interrupt) || (w->pause && *w->pause));
}

/* poll() on fd and the watch's wake_fd, waking at least once a second for its tick. */
static int poll_watch(struct pollfd *p, const struct child_watch *w, uint64_t left_ns)
{
	uint64_t ms = left_ns / NSEC_PER_MSEC + 1, t0;
	int n;

	if (w && w->tick && ms > 1000)
		ms = 1000;
	p[1] = (struct pollfd){ .fd = w ? w->wake_fd : -1, .events = POLLIN };
	t0 = now_ns();
	n = poll(p, 2, (int)ms);
	if (w && w->waited)
		w->waited(ms * NSEC_PER_MSEC, now_ns() - t0);
	if (n < 0 && errno != EINTR)
		return -errno;
	if (w && w->tick)
		w->tick();
	return n > 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR));
}

/*
 * Read exactly len bytes before the deadline. Returns len, 0 on EOF (the
 * child died), -ETIMEDOUT, -EINTR once the watch's interrupt is set.
 */
ssize_t child_read(int fd, void *buf, size_t len, uint64_t deadline,
		   const struct child_watch *w)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN } };
	size_t done = 0;

	while (done < len) {
		uint64_t now = now_ns();
		ssize_t r;
		int ready;

		if (stopped(w))
			return -EINTR;
		if (now >= deadline)
			return -ETIMEDOUT;
		ready = poll_watch(p, w, deadline - now);
		if (ready < 0)
			return ready;
		if (!ready)
			continue;
		r = read(fd, (char *)buf + done, len - done);
		if (r < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (r == 0)
			return 0;
		if (r > 0)
			done += (size_t)r;
	}
	return (ssize_t)len;
}

/*
 * Wait for the child's first message. 0: ready; -EREMOTEIO: it cannot run
 * and why says why; -EPIPE: it ended first; -EPROTO: it said something
 * else; -ETIMEDOUT or -EINTR as child_read().
 */
int child_wait_ready(struct child *c, uint64_t deadline, const struct child_watch *w,
		     char *why, size_t len)
{
	char buf[MSG_MAX];
	size_t have = 0;
	ssize_t need = 1, r;

	if (len)
		why[0] = '\0';
	while ((size_t)need > have) {
		r = child_read(c->res, buf + have, (size_t)need - have, deadline, w);
		if (r <= 0)
			return r ? (int)r : -EPIPE;
		have = (size_t)need;
		need = msg_length(buf, have);
		if (need < 0)
			return -EPROTO;
	}
	switch (msg_decode(buf, have, why, len)) {
	case MSG_READY:
		return 0;
	case MSG_ERROR:
		return -EREMOTEIO;
	default:
		return -EPROTO;
	}
}

/* Sleep until the deadline; false if fd speaks or hangs up (the child died), or a stop. */
bool child_sleep(int fd, uint64_t deadline, const struct child_watch *w)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN } };
	uint64_t now;

	while ((now = now_ns()) < deadline) {
		if (stopped(w))
			return false;
		if (poll_watch(p, w, deadline - now) > 0)
			return false;
	}
	return !stopped(w);
}

/* A command to the child, if it is still there to hear it. */
void child_tell(struct child *c, enum child_msg m)
{
	if (c->pid > 0 && c->ctl >= 0)
		send_msg(c->ctl, m, NULL);
}

/* Wait, until the deadline, for the child to exit by itself; true once it has (status set). */
bool child_wait_exit(struct child *c, uint64_t deadline, int *status)
{
	for (;;) {
		pid_t r;

		if (c->reaped || c->pid <= 0)
			break;
		r = waitpid(c->pid, &c->status, WNOHANG);
		if (r == c->pid || (r < 0 && errno != EINTR)) {
			c->reaped = true;
			break;
		}
		if (now_ns() >= deadline)
			return false;
		sleep_ns(NSEC_PER_MSEC);
	}
	if (status)
		*status = c->status;
	return true;
}

/* Is any process of the child's group still there (it, or what it left behind)? */
bool child_group_alive(const struct child *c)
{
	return c->pid > 0 && kill(-c->pid, 0) == 0;
}

/*
 * Kill the child's whole group and reap everything of it (the orchestrator
 * is a subreaper, so the child's own children come back to it); close the
 * pipes. The child's status stays in c->status.
 */
void child_kill(struct child *c)
{
	int st;
	pid_t r;

	if (c->pid <= 0)
		return;
	kill(-c->pid, SIGKILL);
	while (!c->reaped && waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
		;
	c->reaped = true;
	while ((r = waitpid(-c->pid, &st, 0)) > 0 || (r < 0 && errno == EINTR))
		;
	if (c->ctl >= 0)
		close(c->ctl);
	if (c->res >= 0)
		close(c->res);
	c->pid = 0;
	c->ctl = c->res = -1;
}

/* Let the child exit by itself until the deadline, then kill what is left; its wait status. */
int child_finish(struct child *c, uint64_t deadline)
{
	if (c->pid <= 0)
		return 0;
	child_wait_exit(c, deadline, NULL);
	child_kill(c);
	return c->status;
}

/* How a child ended, for a row's reason. Exiting 0 without an answer is no success. */
void child_describe(char *buf, size_t len, const char *who, int status)
{
	const char *abbrev;

	if (WIFSIGNALED(status)) {
		abbrev = sigabbrev_np(WTERMSIG(status));
		snprintf(buf, len, "%s process killed by signal %d (SIG%s)", who, WTERMSIG(status),
			 abbrev ? abbrev : "?");
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		snprintf(buf, len, "%s process exited with status %d", who, WEXITSTATUS(status));
	} else if (WIFEXITED(status)) {
		snprintf(buf, len, "%s process exited without giving its result", who);
	} else {
		snprintf(buf, len, "%s process ended", who);
	}
}
