/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task/chain.h - the chains' common parts: stamped hops between threads and processes, their
 * stages, their shared memory; Game and AudioGraph build on them. */
#ifndef TASK_CHAIN_H
#define TASK_CHAIN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/frames.h"
#include "task/task.h"

/*
 * One hop's hand-over: the waker fills it and stamps t_wake just before the
 * wake (a futex on seq, or a write to an eventfd); the wakee stamps t_run
 * first thing after. It lives in shared memory when the two are processes.
 */
struct wake_slot {
	_Atomic uint32_t seq;		/* bumped by each wake: the futex word */
	uint32_t k;			/* the frame or cycle */
	uint64_t t_wake;
	int wake_cpu;			/* the waker's CPU at t_wake */
};

struct hop_meas {		/* one hop's measurements, kept by its wakee */
	struct latency lat;		/* t_run - t_wake */
	struct split_result split;	/* the wakee's queue wait and wake path */
};

/* A thread or process of a chain doing its work: its knobs, burner, probe and counts. */
struct chain_base;

struct stage {
	const char *comm;		/* its thread's name, <= 15 characters */
	uint64_t work_ns;		/* per frame or cycle */
	struct task_sched sched;	/* as the chain's, its deadline runtime its own */
	bool sched_set;
	struct burner bn;
	struct split_probe probe;
	struct hop_meas *hop;		/* where its wake-ups go, or NULL */
	uint64_t cpu0;			/* its CPU clock when its loop began */
	uint64_t work_sum, cpu_ns;	/* work done, CPU time used, by the loop's end */
	int stall_k;			/* INTERBENCH_TEST_STAGE_STALL's frame, -1: none */
	uint64_t stall_ns;
	char *reason;			/* a refused knob, in REASON_LEN bytes (shared) */
	struct chain_base *base;
	int tid;			/* its thread's id, once begun */
	struct period_ring *ring;	/* its frames recorded here (--timeline), or NULL */
	struct period_rec cur;		/* the frame in progress: its wake-up, until its end */
};

/*
 * The stages' rings (--timeline, --explain, --plot): one per stage drawn,
 * sized as the head's, in shared memory allocated and touched before the
 * row, copied out to the bench's stage_set at the chain's end.
 */
struct stage_rings {
	int n;
	struct period_ring ring[STAGES_MAX];
	struct stage *st[STAGES_MAX];
	int32_t hop[STAGES_MAX];	/* its hop in the chain's summary, -1: none */
	struct period_rec *mem;		/* n * cap records, shared */
	uint64_t cap;
};

/* What a chain's stages share, besides their own parts (in shared memory). */
struct chain_base {
	_Atomic int quit;		/* the row is over: every stage returns */
	_Atomic int ready;		/* stages that have begun */
	uint64_t end_ns;		/* the row's end: every burn stops there */
	uint64_t period_num, period_den;
	char reason[REASON_LEN];	/* the first stage's refusal */
};

struct chain;				/* Game's or AudioGraph's, behind chain_ops */

struct chain_ops {
	int (*start)(struct chain *c, char *why);	/* fork, spawn: before the waker */
	/* The head's frame or cycle k starting at s: its work done, its end in *t_done. */
	uint64_t (*frame)(struct chain *c, struct burner *bn, uint64_t k, uint64_t s,
			  bool *cut, uint64_t *t_done);
	void (*late)(struct chain *c, uint64_t k);	/* frame k dropped at its start */
	void (*finish)(struct chain *c, struct bench_result *res);	/* stop, summarise */
};

struct chain {
	const struct chain_ops *ops;
	const struct sim_params *p;
	void *impl;			/* Game's or AudioGraph's state */
};

/* chain.c: the hops */
void slot_post(struct wake_slot *s, uint32_t k, bool shared);
uint64_t slot_wait(struct wake_slot *s, uint32_t *seen, bool shared, _Atomic int *quit);
void efd_post(struct wake_slot *s, int fd, uint32_t k);
uint64_t efd_wait(int fd, _Atomic int *quit);
int efd_wait_for(int fd, uint64_t until_ns, uint64_t *t_run);
void slot_kick(struct wake_slot *s, bool shared);
void hop_init(struct hop_meas *h);
void hop_record(struct stage *st, const struct wake_slot *s, uint64_t t_run);
void stage_record(struct stage *st, uint32_t k);
void hop_summary(struct chain_summary *c, struct chain_hists *h, int i, const char *name,
		 const struct hop_meas *m);
void hop_from_task(struct chain_summary *c, struct chain_hists *h, const char *name,
		   const struct bench_result *res);
void hop_threads(struct chain_summary *sum, const struct stage *st, int n,
		 const struct hop_meas *hops);

/* chain.c: stages, memory, processes */
void stage_init(struct stage *st, const struct sim_params *p, const char *comm,
		uint64_t work_ns, struct chain_base *b, struct hop_meas *hop);
int stage_begin(struct stage *st, struct chain_base *b);
uint64_t stage_work(struct stage *st, uint32_t k);
void stage_end(struct stage *st);
void stage_stall_from_env(struct stage *st, const char *name);
void *shared_alloc(size_t bytes);
void shared_free(void *m, size_t bytes);
pid_t chain_fork(const char *comm, int (*body)(void *arg), void *arg);
void chain_reap(pid_t pid, uint64_t until_ns);
int chain_ready(struct chain_base *b, int n);
int stage_rings_open(struct stage_rings *r, const struct sim_params *p, struct stage **st,
		     int n, const struct hop_meas *hops);
void stage_rings_close(struct stage_rings *r, const struct sim_params *p);
void chain_totals(struct bench_result *res, const struct stage *st, int n, bool head_works);

/*
 * What a chain's finish shares with the other chain's: its head and
 * stages, its hops, and where its summary goes. Each chain fills in what
 * is its own (frame and input times; cycle times and DSP load) before
 * chain_summary_end() does the rest, the same for both.
 */
struct chain_parts {
	struct chain_base *base;
	struct stage *st;		/* [nstage], the head first */
	int nstage;
	const struct hop_meas *hop;	/* [nhop]: hop 1 + i of the summary */
	int nhop;
	const char *const *hop_name;	/* [nhop] */
	const char *head_hop;		/* the head's own wake-up: "vsync>main" */
	uint64_t start0;		/* the first frame's start; 0: none began */
	struct chain_summary *sum;
	bool head_works;		/* the head has work of its own (chain_totals()) */
};
void chain_summary_end(const struct chain_parts *cp, struct chain_hists *h,
		       struct bench_result *res);

/* game.c, audiograph.c */
extern const struct chain_ops game_ops, audiograph_ops;

#endif
