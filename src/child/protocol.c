// SPDX-License-Identifier: GPL-2.0-or-later
/* child/protocol.c - the children's tagged messages (protocol.h): sent whole, received only
 * as the message the orchestrator expects. */
#include <errno.h>

#include "child/protocol.h"
#include "lib/util.h"

static const char *const tag_name[TAG_COUNT] = {
	[TAG_BENCH_RESULT] = "the bench's result",
	[TAG_CHAIN_HISTS] = "the chain's histograms",
	[TAG_PERIOD_LOG] = "the period log",
	[TAG_PERIODS] = "the periods",
	[TAG_STAGE_LOG] = "a stage's log",
	[TAG_STAGE_PERIODS] = "a stage's periods",
	[TAG_LOAD_RESULT] = "the load's result",
};

int pipe_send(int fd, enum pipe_tag tag, const void *payload, size_t len)
{
	struct pipe_header h = { .tag = (uint32_t)tag, .len = len };

	if (write_full(fd, &h, sizeof(h)) != (ssize_t)sizeof(h) ||
	    (len && write_full(fd, payload, len) != (ssize_t)len))
		return -1;
	return 0;
}

ssize_t pipe_receive(int fd, enum pipe_tag want, void *buf, size_t len, uint64_t deadline,
		     const struct child_watch *w, char *why, size_t whylen)
{
	const char *who = want == TAG_LOAD_RESULT ? "load" : "bench";
	struct pipe_header h;
	ssize_t r = child_read(fd, &h, sizeof(h), deadline, w);

	if (r != (ssize_t)sizeof(h))
		return r;
	if (!h.tag || h.tag >= TAG_COUNT) {
		set_err(why, whylen, "the %s process sent a message of unknown tag %u where %s "
			"was due", who, h.tag, tag_name[want]);
		return -EPROTO;
	}
	if (h.tag != (uint32_t)want) {
		set_err(why, whylen, "the %s process sent %s where %s was due", who,
			tag_name[h.tag], tag_name[want]);
		return -EPROTO;
	}
	if (h.len != len) {
		set_err(why, whylen, "%s came as %llu bytes, not %zu", tag_name[want],
			(unsigned long long)h.len, len);
		return -EPROTO;
	}
	r = len ? child_read(fd, buf, len, deadline, w) : 0;
	if (r == 0 && len) {
		set_err(why, whylen, "%s was cut short (%zu bytes due)", tag_name[want], len);
		return -EPROTO;
	}
	return r < 0 ? r : (ssize_t)len;
}
