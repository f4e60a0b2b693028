/* SPDX-License-Identifier: GPL-2.0-or-later */
/* child/protocol.h - what a row's children send the orchestrator once set up: tagged
 * messages, the one description of them that both sides include. */
#ifndef CHILD_PROTOCOL_H
#define CHILD_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "child/child.h"

/*
 * After MSG_READY (child.h), each child sends its results on its res pipe as
 * messages: a struct pipe_header (the tag, the payload's length in bytes),
 * then the payload. In order:
 *
 * A simulated task's bench process (bench_child.c), after the row:
 *   TAG_BENCH_RESULT    struct bench_result
 *   TAG_CHAIN_HISTS     struct chain_hists; only when its copies are pooled
 *                       (chain_pooled())
 *   TAG_PERIOD_LOG      struct period_log (core/period.h); nrec, nstages say
 *                       what follows
 *   TAG_PERIODS         struct period_rec[nrec], oldest first; when nrec > 0
 *   per stage (nstages of them, a chain's, when nrec > 0):
 *     TAG_STAGE_LOG     struct stage_log
 *     TAG_STAGE_PERIODS struct period_rec[its nrec]; when its nrec > 0
 *
 * A workload file's bench process (rtapp_child.c): TAG_BENCH_RESULT per
 * thread object, in file order; then, when the row keeps periods, each
 * one's TAG_PERIOD_LOG and TAG_PERIODS (no stages).
 *
 * The load process (load_child.c), on MSG_STOP: TAG_LOAD_RESULT, struct
 * load_result.
 *
 * The orchestrator (run/row.c) takes each with pipe_receive(), naming the
 * message it expects: another tag, another length or a payload cut short
 * is refused with the reason, and the row fails; a child that ends before a
 * message's header has sent no more.
 */
enum pipe_tag {
	TAG_BENCH_RESULT = 1,
	TAG_CHAIN_HISTS,
	TAG_PERIOD_LOG,
	TAG_PERIODS,
	TAG_STAGE_LOG,
	TAG_STAGE_PERIODS,
	TAG_LOAD_RESULT,
	TAG_COUNT
};

struct pipe_header {
	uint32_t tag;			/* enum pipe_tag */
	uint32_t pad;
	uint64_t len;			/* the payload's bytes, which follow */
};

/* The child's side: a message whole; 0, or -1 when the pipe is gone. */
int pipe_send(int fd, enum pipe_tag tag, const void *payload, size_t len);

/*
 * The orchestrator's side: the next message, which must be want with len
 * bytes, into buf, by the deadline. len; 0 when the child ended before its
 * header; -EPROTO with one line in why when it is not that message; else
 * what child_read() says (-ETIMEDOUT, -EINTR).
 */
ssize_t pipe_receive(int fd, enum pipe_tag want, void *buf, size_t len, uint64_t deadline,
		     const struct child_watch *w, char *why, size_t whylen);

#endif
