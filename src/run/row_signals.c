// SPDX-License-Identifier: GPL-2.0-or-later
/* run/row_signals.c - the signals that end a row or run it again (Ctrl-Z, SIGCONT, SIGINT), the
 * watch every wait of a row keeps, and what a child drops of them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"
#include "child/child.h"
#include "run/progress.h"
#include "run/row.h"
#include "run/row_signals.h"
#include "run/row_parts.h"
#include "run/lapses.h"

volatile sig_atomic_t got_signal;		/* SIGINT, SIGTERM or SIGHUP */
volatile sig_atomic_t got_tstp;		/* SIGTSTP (Ctrl-Z): pause, then redo the row */
volatile sig_atomic_t got_cont;		/* SIGCONT: we were stopped, by whatever */
volatile sig_atomic_t got_redo;		/* either, or the clocks saw a lapse: the row */
						/* in progress runs again */
static int sig_pipe[2] = { -1, -1 };		/* wakes poll() when one comes */
int lock_fd = -1;			/* the run lock, held until we exit */

static void on_signal(int sig)
{
	int saved = errno;

	if (sig == SIGTSTP)
		got_tstp = got_redo = 1;
	else if (sig == SIGCONT)
		got_cont = got_redo = 1;
	else if (!got_signal)
		got_signal = sig;
	if (write(sig_pipe[1], "", 1) < 0)
		errno = saved;
	errno = saved;
}

/* A wait that ended early: an ending signal, or a pause or lapse that discards the row. */
bool interrupted(void)
{
	return got_signal || got_redo;
}

/* Ctrl-Z is caught while rows run, so that the children stop too; else its default. */
void catch_tstp(bool on)
{
	struct sigaction sa = { .sa_handler = on ? on_signal : SIG_DFL };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, NULL);
	if (!on && got_tstp) {
		got_tstp = 0;
		raise(SIGSTOP);		/* it came after the last row */
	}
}


/* After each wait: did the clocks see a lapse, a stop no signal told of (lapses.c)? */
static void row_waited(uint64_t asked_ns, uint64_t took_ns)
{
	if (!got_redo && lapses_waited(asked_ns, took_ns))
		got_redo = 1;
}

/*
 * The orchestrator's waits end when an ending signal comes or the row must run
 * again, and keep the progress line fresh.
 */
struct child_watch row_watch = { .wake_fd = -1, .interrupt = &got_signal, .pause = &got_redo,
				    .tick = progress_tick, .waited = row_waited };

void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		die("pipe: %s", strerror(errno));
	row_watch.wake_fd = sig_pipe[0];
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	sa.sa_flags = SA_RESTART;	/* it may come at any time: only the waits need it */
	sigaction(SIGCONT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* A child has no use for the orchestrator's signal pipe, nor may it keep the run lock. */
void drop_sig_pipe(void)
{
	close(sig_pipe[0]);
	close(sig_pipe[1]);
	if (lock_fd >= 0)
		close(lock_fd);
}

/*
 * After a pause (Ctrl-Z) that SIGCONT ended: the flags are this stop's,
 * and the handler's wake-ups are stale now.
 */
void signals_after_pause(void)
{
	char buf[64];

	got_tstp = got_cont = got_redo = 0;
	while (read(sig_pipe[0], buf, sizeof(buf)) > 0)
		;
}
