/* SPDX-License-Identifier: GPL-2.0-or-later */
/* child/child.h - the protocol between the orchestrator and its children: start, messages, end. */
#ifndef CHILD_H
#define CHILD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/defs.h"

/*
 * A child gets two pipes. On ctl the orchestrator sends one-byte commands;
 * on res the child answers MSG_READY (or MSG_ERROR with its reason) once it
 * is set up, and later its results as tagged messages (child/protocol.h).
 */
enum child_msg {
	MSG_NONE = 0,			/* no message: end of input or an error */
	MSG_TIMEOUT = 1,		/* none yet by the deadline (child_next_by; never sent) */
	MSG_READY = 'R',		/* child: set up, waiting for a command */
	MSG_ERROR = 'E',		/* child: cannot run; a length byte and the reason follow */
	MSG_GO = 'G',			/* to the bench: measure now */
	MSG_BEGIN = 'B',		/* to the load: the measured window opens */
	MSG_STOP = 'S',			/* to the load: stop, and send the result */
};

#define MSG_TEXT_MAX (REASON_LEN - 1)	/* the reason of a MSG_ERROR, bytes */
#define MSG_MAX (2 + MSG_TEXT_MAX)	/* the longest message on the wire */

size_t msg_encode(char *buf, size_t len, enum child_msg m, const char *text);
ssize_t msg_length(const char *buf, size_t have);
int msg_decode(const char *buf, size_t len, char *text, size_t tlen);

struct child {
	pid_t pid;			/* also its process group; 0: none */
	int ctl;			/* orchestrator -> child: commands */
	int res;			/* child -> orchestrator: messages, then the result */
	bool reaped;			/* pid has been waited for; status is its end */
	int status;			/* as waitpid() gives it */
};

#define CHILD_NONE ((struct child){ .pid = 0, .ctl = -1, .res = -1 })

/*
 * What else ends or interrupts the orchestrator's waits: an interrupt flag
 * (an ending signal: SIGINT, SIGTERM, SIGHUP) and a redo flag (set by a
 * signal handler, which also writes to wake_fd so that poll() returns, or
 * by waited), a tick called at least once a second while waiting, and
 * waited, told after each poll() how long it asked and took.
 */
struct child_watch {
	int wake_fd;			/* readable when a flag may have changed, or -1 */
	volatile sig_atomic_t *interrupt;	/* a wait ends with -EINTR once set, or NULL */
	volatile sig_atomic_t *pause;	/* the same (the row is redone), or NULL */
	void (*tick)(void);		/* or NULL */
	void (*waited)(uint64_t asked_ns, uint64_t took_ns);	/* or NULL */
};

/* the orchestrator's side */
typedef int (*child_body)(void *arg, int ctl, int res);
int child_start(struct child *c, child_body body, void *arg);
ssize_t child_read(int fd, void *buf, size_t len, uint64_t deadline,
		   const struct child_watch *w);
int child_wait_ready(struct child *c, uint64_t deadline, const struct child_watch *w,
		     char *why, size_t len);
bool child_sleep(int fd, uint64_t deadline, const struct child_watch *w);
void child_tell(struct child *c, enum child_msg m);
bool child_wait_exit(struct child *c, uint64_t deadline, int *status);
bool child_group_alive(const struct child *c);
void child_kill(struct child *c);
int child_finish(struct child *c, uint64_t deadline);
void child_describe(char *buf, size_t len, const char *who, int status);

/* the child's side */
int child_ready(int res);
int child_fail(int res, const char *fmt, ...) PRINTF(2, 3);
enum child_msg child_next(int ctl);
enum child_msg child_next_by(int ctl, uint64_t deadline);

#endif
