// SPDX-License-Identifier: GPL-2.0-or-later
/* loads/load_msg.c - the message loads: Hack, groups of processes sending small messages over
 * socket pairs, and Net, small messages streamed over loopback TCP. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loads/load_shared.h"

/* ---- Hack: hackbench's groups ---- */

/*
 * A group is a round: every sender sends HACK_MSGS messages to every
 * receiver, each receiver reads until all senders are gone, and the group is
 * over. The load keeps L groups going, starting a new round as soon as one
 * ends. Nothing here can hang: members only ever wait on each other in one
 * direction, a round that outlives HACK_ROUND_NS is killed, the controlling
 * thread never blocks longer than HACK_POLL_MS, and members die with it.
 */
#define HACK_SENDERS 10
#define HACK_RECEIVERS 10
#define HACK_MEMBERS (HACK_SENDERS + HACK_RECEIVERS)
#define HACK_MSGS 200			/* from each sender to each receiver */
#define HACK_MSG_SIZE 100		/* bytes */
#define HACK_ROUND_NS (5 * NSEC_PER_SEC)
#define HACK_POLL_MS 10

struct hack_group {
	pid_t pid[HACK_MEMBERS];
	int npids;
	int done_fd;			/* hangs up when every member is gone; -1: idle */
	uint64_t started;
};

/* In a new member: die with the thread that forked us, and never outlive it. */
static void member_setup(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
}

/* Count whole messages as they arrive, until every sender has closed. */
static void NORETURN hack_receiver(struct load_ctx *ctx, int fd)
{
	char buf[16 * HACK_MSG_SIZE];
	uint64_t bytes = 0, counted = 0;

	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		bytes += (uint64_t)r;
		atomic_fetch_add(&ctx->ctr->units, bytes / HACK_MSG_SIZE - counted);
		counted = bytes / HACK_MSG_SIZE;
	}
	_exit(0);
}

static void NORETURN hack_sender(const int *out)
{
	char msg[HACK_MSG_SIZE];

	memset(msg, 'h', sizeof(msg));
	for (int m = 0; m < HACK_MSGS; m++) {
		for (int j = 0; j < HACK_RECEIVERS; j++) {
			size_t done = 0;

			while (done < sizeof(msg)) {
				ssize_t w = send(out[j], msg + done, sizeof(msg) - done, MSG_NOSIGNAL);

				if (w < 0 && errno == EINTR)
					continue;
				if (w < 0)
					_exit(1);	/* its receiver is gone */
				done += (size_t)w;
			}
		}
	}
	_exit(0);
}

static void group_kill(struct hack_group *g)
{
	for (int i = 0; i < g->npids; i++)
		kill(g->pid[i], SIGKILL);
}

/* Kill (when asked) and reap every member: all of them are dying, so this is short. */
static void group_end(struct hack_group *g, bool kill_them)
{
	if (kill_them)
		group_kill(g);
	for (int i = 0; i < g->npids; i++)
		while (waitpid(g->pid[i], NULL, 0) < 0 && errno == EINTR)
			;
	if (g->done_fd >= 0)
		close(g->done_fd);
	g->done_fd = -1;
	g->npids = 0;
}

/*
 * Fork a group's receivers and senders; on failure, no member is left. A
 * stop cuts the forking short (forks are slow on a busy machine): a partial
 * group still ends by itself, its receivers seeing the end of input.
 */
static int group_start(struct load_ctx *ctx, struct hack_group *g, pid_t self)
{
	int sv[HACK_RECEIVERS][2], out[HACK_RECEIVERS], done[2], nsv = 0, ret = 0;
	const char *call = "socketpair";

	g->npids = 0;
	g->done_fd = -1;
	if (pipe2(done, O_CLOEXEC) < 0) {
		ret = -errno;
		snprintf(ctx->reason, sizeof(ctx->reason), "pipe: %s", strerror(-ret));
		return ret;
	}
	for (; nsv < HACK_RECEIVERS; nsv++) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv[nsv]) < 0) {
			ret = -errno;
			goto out;
		}
	}
	call = "fork";
	for (int i = 0; i < HACK_MEMBERS && !load_stopping(ctx); i++) {
		pid_t pid = fork();

		if (pid < 0) {
			ret = -errno;
			goto out;
		}
		if (pid == 0) {
			member_setup(self);
			close(done[0]);
			for (int j = 0; j < HACK_RECEIVERS; j++) {
				if (i < HACK_RECEIVERS) {	/* keeps only its own reading end */
					close(sv[j][1]);
					if (j != i)
						close(sv[j][0]);
				} else {			/* keeps every writing end */
					close(sv[j][0]);
					out[j] = sv[j][1];
				}
			}
			if (i < HACK_RECEIVERS)
				hack_receiver(ctx, sv[i][0]);
			hack_sender(out);
		}
		g->pid[g->npids++] = pid;
	}
out:
	close(done[1]);		/* the members hold it now */
	for (int j = 0; j < nsv; j++)
		close(sv[j][0]), close(sv[j][1]);
	g->done_fd = done[0];
	g->started = now_ns();
	if (ret) {
		snprintf(ctx->reason, sizeof(ctx->reason), "%s: %s", call, strerror(-ret));
		group_end(g, true);
	}
	return ret;
}

/* L groups, each restarted as soon as its round ends. Units: messages received. */
int load_hack(struct load_ctx *ctx)
{
	int n = ctx->par.cpu_load, ret = 0;
	struct hack_group *g = calloc((size_t)n, sizeof(*g));
	struct pollfd *p = calloc((size_t)n, sizeof(*p));
	pid_t self = getpid();

	if (!g || !p) {
		free(g);
		free(p);
		snprintf(ctx->reason, sizeof(ctx->reason), "out of memory for %d groups", n);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		g[i].done_fd = -1;
	while (!load_stopping(ctx)) {
		uint64_t now;

		for (int i = 0; i < n; i++) {
			if (g[i].done_fd < 0 && !load_stopping(ctx)) {
				ret = group_start(ctx, &g[i], self);
				if (ret)
					goto out;
			}
			p[i] = (struct pollfd){ .fd = g[i].done_fd, .events = POLLIN };
		}
		poll(p, (nfds_t)n, HACK_POLL_MS);	/* the stop's kick ends it early */
		now = now_ns();
		for (int i = 0; i < n; i++) {
			if (p[i].revents)
				group_end(&g[i], false);
			else if (now - g[i].started > HACK_ROUND_NS)
				group_end(&g[i], true);
		}
	}
out:
	for (int i = 0; i < n; i++)	/* all at once: dying members free the CPUs */
		group_kill(&g[i]);
	for (int i = 0; i < n; i++)
		group_end(&g[i], false);
	free(g);
	free(p);
	return ret;
}

/* ---- Net: a stream of small messages over loopback TCP ---- */

#define NET_MSG 64			/* bytes per message */
#define NET_TIMEOUT_MS 100		/* no socket call blocks longer */

struct net_sender {
	struct load_ctx *ctx;
	int fd;
	int ret;
	char reason[REASON_LEN];
};

static void *net_send_main(void *arg)
{
	struct net_sender *s = arg;
	char msg[NET_MSG];
	size_t done = 0;

	memset(msg, 'n', sizeof(msg));
	while (!load_stopping(s->ctx)) {
		ssize_t w = send(s->fd, msg + done, sizeof(msg) - done, MSG_NOSIGNAL);

		if (w < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w < 0) {
			s->ret = set_reason(s->reason, sizeof(s->reason), "send", errno);
			break;
		}
		done = (done + (size_t)w) % sizeof(msg);
	}
	shutdown(s->fd, SHUT_WR);	/* the receiver sees the end */
	return NULL;
}

static void socket_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = 0, .tv_usec = NET_TIMEOUT_MS * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* A connected pair of TCP sockets on 127.0.0.1, on a port the kernel picks. */
static int net_pair(struct load_ctx *ctx, int *tx, int *rx)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int lfd, one = 1, ret = 0;

	*tx = *rx = -1;
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		return set_reason(ctx->reason, sizeof(ctx->reason), "socket", errno);
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(lfd, 1) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&a, &alen) < 0) {
		ret = set_reason(ctx->reason, sizeof(ctx->reason), "listen on 127.0.0.1", errno);
		goto out;
	}
	*tx = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*tx < 0) {
		ret = set_reason(ctx->reason, sizeof(ctx->reason), "socket", errno);
		goto out;
	}
	/* no timeout here: a busy machine may be slow to answer; the stop's kick interrupts it */
	if (connect(*tx, (struct sockaddr *)&a, sizeof(a)) < 0) {
		ret = load_stopping(ctx) ? 1 :
		      set_reason(ctx->reason, sizeof(ctx->reason), "connect to 127.0.0.1", errno);
		goto out;
	}
	socket_timeouts(*tx);
	socket_timeouts(lfd);
	while ((*rx = accept4(lfd, NULL, NULL, SOCK_CLOEXEC)) < 0 && !load_stopping(ctx)) {
		if (errno != EINTR && errno != EAGAIN) {
			ret = set_reason(ctx->reason, sizeof(ctx->reason), "accept", errno);
			goto out;
		}
	}
	if (*rx < 0) {
		ret = 1;		/* stopped before it began */
		goto out;
	}
	socket_timeouts(*rx);
	setsockopt(*tx, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
out:
	close(lfd);
	if (ret) {
		if (*tx >= 0)
			close(*tx);
		*tx = -1;
	}
	return ret;
}

/* A sender thread streams NET_MSG-byte messages; here they are received. Units: messages. */
int load_net(struct load_ctx *ctx)
{
	struct net_sender s = { .ctx = ctx };
	uint64_t bytes = 0, counted = 0;
	bool closed = false, stopped;
	char buf[65536];
	pthread_t t;
	int rx, ret;

	ret = net_pair(ctx, &s.fd, &rx);
	if (ret)
		return ret > 0 ? 0 : ret;
	ret = pthread_create(&t, NULL, net_send_main, &s);
	if (ret) {
		close(s.fd);
		close(rx);
		return set_reason(ctx->reason, sizeof(ctx->reason), "pthread_create", ret);
	}
	while (!load_stopping(ctx)) {
		ssize_t r = recv(rx, buf, sizeof(buf), 0);

		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0)
			ret = set_reason(ctx->reason, sizeof(ctx->reason), "recv", errno);
		if (r <= 0) {
			closed = r == 0;
			break;
		}
		bytes += (uint64_t)r;
		atomic_fetch_add(&ctx->ctr->units, bytes / NET_MSG - counted);
		counted = bytes / NET_MSG;
	}
	stopped = load_stopping(ctx);
	atomic_store(&ctx->stop, 1);	/* ends the sender too when the receiver failed */
	pthread_join(t, NULL);
	close(s.fd);
	close(rx);
	if (s.ret) {
		memcpy(ctx->reason, s.reason, sizeof(ctx->reason));
		return s.ret;
	}
	if (closed && !stopped) {
		snprintf(ctx->reason, sizeof(ctx->reason), "recv: the sender closed the connection");
		return -ECONNRESET;
	}
	return ret;
}
