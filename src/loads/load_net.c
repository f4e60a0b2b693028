// SPDX-License-Identifier: GPL-2.0-or-later
/* loads/load_net.c - the Net load: small messages streamed over loopback TCP. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loads/load_shared.h"

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
