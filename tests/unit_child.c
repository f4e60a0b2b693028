// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_child.c - unit tests: the child protocol's messages and how a child's end is told. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "loads/loads.h"
#include "model/record.h"
#include "child/child.h"
#include "child/protocol.h"
#include "model/config.h"
#include "model/plan.h"
#include "task/task.h"

#include "tests/unit.h"

struct msg_case {
	const char *name;
	enum child_msg m;
	const char *text;	/* MSG_ERROR's reason */
	size_t room;		/* the buffer given to msg_encode */
	size_t bytes;		/* what it must use, 0: nothing fits */
	const char *back;	/* the text decoded */
};

static const char long_text[] =
	"0123456789012345678901234567890123456789012345678901234567890123456789"
	"0123456789012345678901234567890123456789012345678901234567890123456789"
	"0123456789012345678901234567890123456789012345678901234567890123456789";

static const struct msg_case msg_cases[] = {
	{ "MSG_READY is one byte", MSG_READY, NULL, MSG_MAX, 1, "" },
	{ "MSG_GO is one byte", MSG_GO, NULL, MSG_MAX, 1, "" },
	{ "MSG_BEGIN is one byte", MSG_BEGIN, NULL, MSG_MAX, 1, "" },
	{ "MSG_STOP is one byte", MSG_STOP, NULL, MSG_MAX, 1, "" },
	{ "MSG_ERROR carries its reason", MSG_ERROR, "setpriority -5: Permission denied",
	  MSG_MAX, 2 + 33, "setpriority -5: Permission denied" },
	{ "MSG_ERROR with an empty reason", MSG_ERROR, "", MSG_MAX, 2, "" },
	{ "a reason longer than a row's is cut to MSG_TEXT_MAX", MSG_ERROR, long_text, MSG_MAX,
	  MSG_MAX, NULL },
	{ "a reason is cut to the buffer", MSG_ERROR, "abcdef", 5, 5, "abc" },
	{ "MSG_ERROR needs room for its length", MSG_ERROR, "x", 1, 0, NULL },
	{ "MSG_NONE is not sent", MSG_NONE, NULL, MSG_MAX, 0, NULL },
	{ "an unknown message is not sent", (enum child_msg)'Q', NULL, MSG_MAX, 0, NULL },
};

/* Encode, then read it back as a reader does: byte by byte, as msg_length asks. */
static bool test_msg_case(const struct msg_case *c)
{
	char buf[MSG_MAX + 8], text[REASON_LEN];
	size_t n = msg_encode(buf, c->room, c->m, c->text), have = 1;
	ssize_t need;
	int m;

	EXPECT(n == c->bytes, "encoded %zu bytes, want %zu", n, c->bytes);
	if (!n)
		return true;
	while ((need = msg_length(buf, have)) > (ssize_t)have)
		have++;
	EXPECT(need == (ssize_t)n, "msg_length says %zd, encoded %zu", need, n);
	m = msg_decode(buf, n, text, sizeof(text));
	EXPECT(m == (int)c->m, "decoded %d, want %d", m, (int)c->m);
	if (c->back)
		EXPECT(!strcmp(text, c->back), "text '%s', want '%s'", text, c->back);
	else
		EXPECT(strlen(text) == n - 2 && !strncmp(text, c->text, n - 2),
		       "text of %zu bytes, want the first %zu of the reason", strlen(text), n - 2);
	return true;
}

/* What is not a message is refused, never read past. */
static bool test_msg_refused(void)
{
	char text[8] = "x", err[] = { MSG_ERROR, 3, 'a', 'b', 'c' };

	EXPECT(msg_length("Q", 1) == -EPROTO, "an unknown tag has a length");
	EXPECT(msg_length("", 0) == -EPROTO, "nothing has a length");
	EXPECT(msg_decode("Q", 1, text, sizeof(text)) == -EPROTO && !text[0],
	       "an unknown tag decoded");
	EXPECT(msg_decode(err, 4, text, sizeof(text)) == -EPROTO, "a cut MSG_ERROR decoded");
	EXPECT(msg_decode("RR", 2, text, sizeof(text)) == -EPROTO, "two messages as one");
	EXPECT(msg_decode(err, 5, text, 3) == MSG_ERROR && !strcmp(text, "ab"),
	       "a small text buffer: '%s'", text);
	return true;
}

/* Messages through a pipe, both ways, as the two sides send and expect them. */
static bool test_msg_pipe(void)
{
	struct child c = CHILD_NONE;
	int p[2], q[2], ret;
	char why[REASON_LEN];

	EXPECT(pipe(p) == 0 && pipe(q) == 0, "pipe: %s", strerror(errno));
	c.res = p[0];
	c.ctl = q[1];
	c.pid = getpid();	/* child_tell() talks only to a child that is there */
	ret = child_fail(p[1], "mmap of %d bytes: %s", 4096, strerror(ENOMEM));
	EXPECT(!ret, "child_fail: %d", ret);
	ret = child_wait_ready(&c, now_ns() + NSEC_PER_SEC, NULL, why, sizeof(why));
	EXPECT(ret == -EREMOTEIO && !strcmp(why, "mmap of 4096 bytes: Cannot allocate memory"),
	       "child_wait_ready %d, '%s'", ret, why);
	EXPECT(!child_ready(p[1]), "child_ready");
	ret = child_wait_ready(&c, now_ns() + NSEC_PER_SEC, NULL, why, sizeof(why));
	EXPECT(ret == 0 && !why[0], "ready: %d, '%s'", ret, why);
	ret = child_wait_ready(&c, now_ns() + 20 * NSEC_PER_MSEC, NULL, why, sizeof(why));
	EXPECT(ret == -ETIMEDOUT, "nothing sent: %d", ret);
	child_tell(&c, MSG_BEGIN);
	child_tell(&c, MSG_STOP);
	EXPECT(child_next(q[0]) == MSG_BEGIN, "MSG_BEGIN");
	EXPECT(child_next(q[0]) == MSG_STOP, "MSG_STOP");
	close(p[1]);
	close(q[1]);
	ret = child_wait_ready(&c, now_ns() + NSEC_PER_SEC, NULL, why, sizeof(why));
	EXPECT(ret == -EPIPE, "a child gone: %d", ret);
	EXPECT(child_next(q[0]) == MSG_NONE, "the orchestrator gone");
	close(p[0]);
	close(q[0]);
	return true;
}

/* The load process's wait: a timeout when nothing comes by the deadline, else the message. */
static bool test_next_by(void)
{
	uint64_t t0;
	int q[2];
	char m = MSG_BEGIN;

	EXPECT(pipe(q) == 0, "pipe: %s", strerror(errno));
	t0 = now_ns();
	EXPECT(child_next_by(q[0], t0 + 20 * NSEC_PER_MSEC) == MSG_TIMEOUT, "nothing: a timeout");
	EXPECT(now_ns() - t0 >= 20 * NSEC_PER_MSEC, "returned before its deadline");
	EXPECT(child_next_by(q[0], t0) == MSG_TIMEOUT, "a deadline passed: at once");
	EXPECT(write(q[1], &m, 1) == 1, "write");
	EXPECT(child_next_by(q[0], now_ns() + NSEC_PER_SEC) == MSG_BEGIN, "MSG_BEGIN");
	close(q[1]);
	EXPECT(child_next_by(q[0], now_ns() + NSEC_PER_SEC) == MSG_NONE, "the orchestrator gone");
	close(q[0]);
	return true;
}

static const struct {
	int status;
	const char *want;
} describe_cases[] = {
	{ SIGKILL, "load process killed by signal 9 (SIGKILL)" },
	{ SIGSEGV, "load process killed by signal 11 (SIGSEGV)" },
	{ 3 << 8, "load process exited with status 3" },
	{ 0, "load process exited without giving its result" },
};

static bool test_describe(void)
{
	char buf[REASON_LEN];

	for (size_t i = 0; i < ARRAY_SIZE(describe_cases); i++) {
		child_describe(buf, sizeof(buf), "load", describe_cases[i].status);
		EXPECT(!strcmp(buf, describe_cases[i].want), "status %#x: '%s', want '%s'",
		       describe_cases[i].status, buf, describe_cases[i].want);
	}
	return true;
}

/* A real child: started in a group of its own, its end told, nothing of it left. */
static int exit_seven(void *arg, int ctl, int res)
{
	(void)arg;
	(void)ctl;
	return child_ready(res) ? 1 : 7;
}

static bool test_child_lifecycle(void)
{
	struct child c;
	char why[REASON_LEN];
	int ret, st;

	ret = child_start(&c, exit_seven, NULL);
	EXPECT(!ret, "child_start: %s", strerror(-ret));
	EXPECT(getpgid(c.pid) == c.pid, "not a process group of its own");
	ret = child_wait_ready(&c, now_ns() + 5 * NSEC_PER_SEC, NULL, why, sizeof(why));
	EXPECT(!ret, "not ready: %d", ret);
	st = child_finish(&c, now_ns() + 5 * NSEC_PER_SEC);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 7, "status %#x", st);
	EXPECT(c.pid == 0 && c.ctl < 0 && c.res < 0, "not cleared");
	return true;
}

/* One tagged message as the child would send it, then (cut) fewer payload bytes; the end. */
struct pipe_case {
	const char *name;
	uint32_t tag;			/* on the wire */
	uint64_t len;			/* the header's */
	size_t sent;			/* payload bytes written, then the pipe closed */
	enum pipe_tag want;
	size_t want_len;
	ssize_t ret;			/* pipe_receive's */
	const char *why;		/* in its reason, "": none */
};

static const struct pipe_case pipe_cases[] = {
	{ "the message due comes whole", TAG_PERIOD_LOG, 16, 16, TAG_PERIOD_LOG, 16, 16, "" },
	{ "an unknown tag is refused", 99, 16, 16, TAG_PERIOD_LOG, 16, -EPROTO,
	  "unknown tag 99 where the period log was due" },
	{ "tag 0 is refused", 0, 16, 16, TAG_BENCH_RESULT, 16, -EPROTO, "unknown tag 0" },
	{ "another message than the one due is refused", TAG_PERIODS, 16, 16, TAG_PERIOD_LOG,
	  16, -EPROTO, "sent the periods where the period log was due" },
	{ "another length is refused", TAG_BENCH_RESULT, 8, 8, TAG_BENCH_RESULT, 16, -EPROTO,
	  "the bench's result came as 8 bytes, not 16" },
	{ "a payload cut short is refused", TAG_LOAD_RESULT, 16, 5, TAG_LOAD_RESULT, 16,
	  -EPROTO, "the load's result was cut short" },
	{ "a child that ends before the header sent nothing", 0, 0, 0, TAG_PERIOD_LOG, 16, 0,
	  "" },
};

static bool test_pipe_case(const struct pipe_case *c)
{
	char payload[32] = "0123456789abcdef", got[32] = "", why[REASON_LEN] = "";
	struct pipe_header h = { .tag = c->tag, .len = c->len };
	int p[2];
	ssize_t r;

	EXPECT(!pipe(p), "pipe: %s", strerror(errno));
	if (c->len || c->tag)
		EXPECT(write(p[1], &h, sizeof(h)) == sizeof(h), "header");
	EXPECT(write(p[1], payload, c->sent) == (ssize_t)c->sent, "payload");
	close(p[1]);
	r = pipe_receive(p[0], c->want, got, c->want_len, now_ns() + NSEC_PER_SEC, NULL, why,
			 sizeof(why));
	close(p[0]);
	EXPECT(r == c->ret, "returned %zd, not %zd (%s)", r, c->ret, why);
	EXPECT(c->ret <= 0 || !memcmp(got, payload, c->want_len), "payload differs");
	EXPECT(strstr(why, c->why) && (!c->why[0] || !strchr(why, '\n')), "reason '%s'", why);
	return true;
}

/* What pipe_send() writes is what pipe_receive() takes. */
static bool test_pipe_send(void)
{
	struct load_result a = { .intensity = 0.5, .status = ROW_OK }, b = { 0 };
	char why[REASON_LEN];
	int p[2];

	EXPECT(!pipe(p), "pipe: %s", strerror(errno));
	EXPECT(!pipe_send(p[1], TAG_LOAD_RESULT, &a, sizeof(a)), "send");
	close(p[1]);
	EXPECT(pipe_receive(p[0], TAG_LOAD_RESULT, &b, sizeof(b), now_ns() + NSEC_PER_SEC, NULL,
			    why, sizeof(why)) == (ssize_t)sizeof(b), "%s", why);
	close(p[0]);
	EXPECT(!memcmp(&a, &b, sizeof(a)), "the result differs");
	return true;
}

void unit_child(void)
{
	char name[160];

	for (size_t i = 0; i < ARRAY_SIZE(msg_cases); i++) {
		snprintf(name, sizeof(name), "child: message: %s", msg_cases[i].name);
		check(name, test_msg_case(&msg_cases[i]));
	}
	check("child: message: what is not one is refused", test_msg_refused());
	check("child: messages both ways through pipes", test_msg_pipe());
	check("child: a wait for the next command with a deadline", test_next_by());
	check("child: how a child ended, for a row's reason", test_describe());
	check("child: start, ready, exit status, all reaped", test_child_lifecycle());
	for (size_t i = 0; i < ARRAY_SIZE(pipe_cases); i++) {
		snprintf(name, sizeof(name), "child: tagged message: %s", pipe_cases[i].name);
		check(name, test_pipe_case(&pipe_cases[i]));
	}
	check("child: tagged message: what pipe_send() writes, pipe_receive() takes",
	      test_pipe_send());
}
