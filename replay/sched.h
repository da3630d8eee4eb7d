/* SPDX-License-Identifier: MIT */
/*
 * replay/sched.h - an M:N user-space scheduler whose run queues are smartq's
 *
 * Tasks are functions on their own stacks (replay/ctx.h), all on the
 * thread that calls rp_run().  A task runs until it blocks (a channel
 * op, a sleep) or until the policy asks for a switch at a preemption
 * point: each channel op (a system call returning to user space) and
 * each step of rp_burn() (a timer interrupt's chance, as on one CPU).
 * The policy (replay/policy.h) decides who runs, through the callbacks
 * of struct rp_policy; its queues are smartq's, through the adapters
 * of struct rp_rqops, one per kind of SQ_KINDS.
 *
 * Time is the wall clock of this machine (CLOCK_MONOTONIC), or, in the
 * virtual-clock mode of the tests, a counter that only rp_burn() and a
 * stated cost per op advance: the same code, deterministic.
 *
 * Channels (struct rp_chan) have the semantics replay needs of an
 * AF_UNIX stream socket pair: a bounded byte buffer; a writer blocks
 * while its message does not fit, a reader while it is empty; a write
 * wakes the readers, and a read wakes the writers once the buffer is
 * down to a quarter (unix_writable()).
 *
 * On more than one CPU (rp_smp_init()) each CPU is a struct rp_sched
 * with its own run queues, clock, tick and idle loop: on the wall clock
 * an OS thread each, pinned; on the virtual clock all on one thread,
 * the CPU with the earliest clock running next (deterministic).  A CPU
 * owns its queues: a wakeup of a task for another CPU, and a task moved
 * by the balancer, are posted into that CPU's inbox (smartq/remote.h)
 * and applied by its next drain (at its next preemption point, or in
 * its idle loop).  linux-2.4 has one run queue for all CPUs under one
 * lock instead, as 2.4 had.
 */
#ifndef RP_SCHED_H
#define RP_SCHED_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <smartq.h>

#include "ctx.h"

#define RP_MAXCPU 8

/* ---- run-queue adapters: one per kind, written against SQ_*(K) ---- */

#define RP__NODE_MEMBER(K, EXACT) SQ_NODE(K) K;
union rp_node {
	SQ_KINDS(RP__NODE_MEMBER)
};

struct rp_task;

/*
 * struct rp_rqops - a kind's queue, behind one set of functions
 * A task is on at most one such queue at a time, by its union rp_node.
 */
struct rp_rqops {
	const char *name;
	size_t size;				/* of its queue struct */
	void (*init)(void *q);
	void (*node_init)(struct rp_task *t);
	void (*enqueue)(void *q, struct rp_task *t, uint64_t key);
	void (*dequeue)(void *q, struct rp_task *t);
	struct rp_task *(*first)(const void *q);
	size_t (*count)(const void *q);
	size_t (*visit)(const void *q, void (*fn)(struct rp_task *, void *),
			void *arg);
	int (*check)(const void *q);
};

/* ---- tasks ---- */

enum rp_state { RP_RUNNING, RP_RUNNABLE, RP_BLOCKED, RP_DEAD };

struct rp_sched;

struct rp_task {
	union rp_node node;		/* on a policy queue (first: see rp__task) */
	struct sq_erb_node enode;	/* on EEVDF's tree */
	SQ_NODE(rb) tnode;		/* on the sleep timers */
	struct rp_ctx ctx;
	struct rp_sched *s;
	void (*fn)(struct rp_task *);
	void *arg;
	struct rp_task *wnext;		/* on a channel's wait list */
	unsigned id;
	enum rp_state state;
	bool unborn;			/* made runnable by rp_fork(), not rp_start() */
	bool on_rq;			/* queued or curr, as the kernel's on_rq */
	uint64_t sum_exec;		/* ns run, measured */
	uint64_t sleep_start;		/* when it last blocked */
	uint64_t nswitch;		/* times it was switched in */
	/* CFS, EEVDF */
	uint64_t vruntime, deadline, prev_sum_exec;
	int64_t vlag;
	bool parity;			/* EEVDF: runs to its deadline */
	/* 2.4 */
	uint64_t pos;			/* its list position: key of its node */
	int counter;
	/* 2.6.0 */
	int prio, time_slice, array;
	uint64_t sleep_avg;
	struct rp_task *rl_prev, *rl_next;	/* on its queue's run_list */
	/* SMP */
	unsigned cpu;			/* task_cpu(): where it runs or last ran */
	atomic_int on_cpu;		/* its context is in use on a CPU */
	SQ_REMOTE_NODE(rb) inode;	/* in a CPU's inbox (key: post order) */
	int arrive;			/* RP_ARRIVE_*: why it was posted */
	bool moved;			/* enqueued on another CPU than its last */
	bool wake_pending;		/* 2.4: woken before it left its CPU */
	uint64_t post_gen;		/* the target's drains begun at the post */
	uint64_t last_run;		/* when it last left a CPU */
	uint64_t enq_seq;		/* CFS, EEVDF: when it joined a queue */
	int64_t vrel;			/* CFS: vruntime - min_vruntime, off a queue */
	/* the workload's own */
	uint64_t user[4];
};

enum { RP_ARRIVE_WAKE = 1, RP_ARRIVE_MIGRATE = 2, RP_ARRIVE_FORK = 3 };

/* The task that holds union rp_node @n (its first member). */
static struct rp_task *rp__task(const void *n)
{
	return (struct rp_task *)(uintptr_t)n;
}

#define RP_ADAPTER(K, EXACT)						\
static void rp_##K##_init(void *q)					\
{									\
	SQ_INIT(K, (SQ_QUEUE(K) *)q);					\
}									\
static void rp_##K##_node_init(struct rp_task *t)			\
{									\
	SQ_NODE_INIT(K, &t->node.K);					\
}									\
static void rp_##K##_enqueue(void *q, struct rp_task *t, uint64_t key) \
{									\
	(void)SQ_ENQUEUE(K, (SQ_QUEUE(K) *)q, &t->node.K, key);		\
}									\
static void rp_##K##_dequeue(void *q, struct rp_task *t)		\
{									\
	(void)SQ_DEQUEUE(K, (SQ_QUEUE(K) *)q, &t->node.K);		\
}									\
static struct rp_task *rp_##K##_first(const void *q)			\
{									\
	return rp__task(SQ_FIRST(K, (const SQ_QUEUE(K) *)q));		\
}									\
static size_t rp_##K##_count(const void *q)				\
{									\
	return SQ_COUNT(K, (const SQ_QUEUE(K) *)q);			\
}									\
struct rp__##K##_visit { void (*fn)(struct rp_task *, void *); void *arg; }; \
static void rp__##K##_one(SQ_NODE(K) *n, void *p)			\
{									\
	struct rp__##K##_visit *v = (struct rp__##K##_visit *)p;	\
									\
	v->fn(rp__task(n), v->arg);					\
}									\
static size_t rp_##K##_visit(const void *q,				\
			     void (*fn)(struct rp_task *, void *), void *arg) \
{									\
	struct rp__##K##_visit v;					\
									\
	v.fn = fn;							\
	v.arg = arg;							\
	return SQ_VISIT(K, (const SQ_QUEUE(K) *)q, rp__##K##_one, &v);	\
}									\
static int rp_##K##_check(const void *q)				\
{									\
	return SQ_CHECK(K, (const SQ_QUEUE(K) *)q);			\
}
SQ_KINDS(RP_ADAPTER)

#define RP__OPS(K, EXACT)						\
	{ #K, sizeof(SQ_QUEUE(K)), rp_##K##_init, rp_##K##_node_init,	\
	  rp_##K##_enqueue,						\
	  rp_##K##_dequeue, rp_##K##_first, rp_##K##_count,		\
	  rp_##K##_visit, rp_##K##_check },
static const struct rp_rqops rp_rqops[] = { SQ_KINDS(RP__OPS) };
#define RP_NQUEUES (sizeof(rp_rqops) / sizeof(rp_rqops[0]))

static const struct rp_rqops *rp_rqops_find(const char *name)
{
	size_t i;

	for (i = 0; i < RP_NQUEUES; i++)
		if (!strcmp(rp_rqops[i].name, name))
			return &rp_rqops[i];
	return NULL;
}

/* ---- the policy interface ---- */

/*
 * struct rp_policy - who runs next, written once (replay/policy.h)
 * The running task (curr) is not on the policy's queues, as in CFS:
 * put_prev() returns it there when it is switched out still runnable.
 * @enqueue:     @t became runnable (@wakeup: woken, not new)
 * @dequeue:     curr @t blocks
 * @pick:        take the next task off the queues (NULL: none)
 * @put_prev:    curr @t, still runnable, is switched out
 * @wake_preempt: should @t, just enqueued, preempt curr?
 * @tick:        the timer tick with curr running: true to reschedule
 * @account:     curr ran @delta ns more (update_curr)
 */
struct rp_policy {
	const char *name;
	const char *seed_name;		/* as the mails print it */
	uint64_t tick_ns;		/* the tick's period, its HZ */
	int needs_erb;			/* the queue kind is erb, not a choice */
	/* CFS-family tunables (ns); 0 where unused */
	uint64_t latency, min_gran, wakeup_gran, nr_latency, dyn_floor;
	void (*init)(struct rp_sched *s);
	void (*fini)(struct rp_sched *s);
	void (*enqueue)(struct rp_sched *s, struct rp_task *t, bool wakeup);
	void (*dequeue)(struct rp_sched *s, struct rp_task *t);
	struct rp_task *(*pick)(struct rp_sched *s);
	void (*put_prev)(struct rp_sched *s, struct rp_task *t);
	bool (*wake_preempt)(struct rp_sched *s, struct rp_task *t);
	bool (*tick)(struct rp_sched *s);
	void (*account)(struct rp_sched *s, uint64_t delta);
	int (*check)(struct rp_sched *s);
	/* SMP (see rp_smp_init()); NULL where the policy has none */
	bool shared_rq;			/* 2.4: one queue for every CPU */
	/* the CPU a new (@fork) or woken task goes to; NULL: its own */
	unsigned (*select_cpu)(struct rp_sched *s, struct rp_task *t,
			       bool fork);
	/* at every tick (@newidle false) and when the CPU goes idle: decide
	 * whether to pull, and ask the busiest CPU (rp__ask()) */
	void (*balance)(struct rp_sched *s, bool idle, bool newidle);
	/* on the busiest CPU: take up to @n queued tasks off its queues by
	 * the kernel's rule (nr_running counted down), into @out */
	unsigned (*detach)(struct rp_sched *s, unsigned to, unsigned n,
			   bool idle, struct rp_task **out);
	/* a task moved here by the balancer joins this CPU's queues */
	void (*attach)(struct rp_sched *s, struct rp_task *t);
	/* 2.4: reschedule_idle(), under the shared lock */
	void (*resched_idle)(struct rp_sched *s, struct rp_task *t);
	uint64_t bal_min, bal_busy;	/* balance intervals (ns) */
	unsigned imb_pct;		/* imbalance_pct */
};

struct rp_smp;

/* ---- the scheduler ---- */

struct rp_sched {
	const struct rp_policy *pol;
	const struct rp_rqops *rq;
	struct rp_task **task;		/* every task, by id */
	unsigned nt, cap, alive;
	char *stacks;
	size_t stack_size;
	struct rp_task *curr;		/* NULL: main (the idle loop) */
	struct rp_ctx main_ctx;
	bool need_resched;
	/* time */
	bool virt;			/* virtual clock: the tests */
	uint64_t vclock;		/* its time, ns */
	uint64_t vop_ns;		/* virtual cost of one channel op */
	uint64_t t0, t1, exec_start, next_tick;
	uint64_t raw_last, stolen, nstolen;	/* see rp_now() */
	bool running;			/* in rp_run() */
	SQ_QUEUE(rb) timers;		/* sleeping tasks by wake time */
	/* the policy's state */
	void *rq_main;			/* one queue of kind rq (2.4, CFS) */
	void *arrays;			/* 2.6.0: 2 x 140 queues */
	struct rp_task **runlist;	/* 2.6.0: their lists (head, tail) */
	uint64_t arr_bits[2][3];
	int active;
	uint64_t expired_ts;
	struct sq_erb etree;
	uint64_t min_vruntime;
	int64_t vsum;			/* EEVDF: sum of (v - RP_VBASE) */
	unsigned nr_running;		/* queued + curr */
	struct rp_task *last;		/* CFS's last buddy */
	uint64_t seq;			/* FIFO positions */
	/* called at every tick, for the tests' checks (NULL: none) */
	void (*on_tick)(struct rp_sched *s, void *arg);
	void *on_tick_arg;
	/* counters */
	uint64_t switches, picks, preempt_wakeup, preempt_tick, recalcs;
	int err;
	char errmsg[160];
	/* SMP: NULL and unused on one CPU */
	struct rp_smp *smp;
	unsigned id;
	SQ_REMOTE(rb) inbox;		/* wakeups and moved tasks, posted here */
	atomic_uint load;		/* nr_running, for the others to read */
	atomic_int ipi;			/* another CPU asks for a reschedule */
	atomic_uint ask;		/* a pull: n << 16 | from << 8 | idle */
	atomic_uint_least64_t drains;	/* drains begun */
	struct rp_task *sw_prev;	/* finish_task_switch()'s prev */
	struct rp_task *rq_curr;	/* 2.4: curr, under the shared lock */
	struct rp_task **scratch;	/* the balancer's candidates */
	uint64_t next_balance, nticks;
	unsigned prev_load[RP_MAXCPU];	/* 2.6.0's prev_cpu_load[] */
	uint64_t t0c, t1c;		/* this CPU's start and end */
	bool t0_seen;			/* t0c taken at rp_mark_start() */
	/* the virtual clock's CPUs, on one thread */
	struct rp_ctx vmain;		/* this CPU's idle loop */
	char *vstack;
	bool vidle, vdone;
	uint64_t vwake;			/* idle until (or a post's time) */
	uint64_t posts, migrations, remote_wakes, asks, late;
};

/*
 * struct rp_smp - the CPUs of one run and what they share
 * @lock: linux-2.4's runqueue_lock (its one run queue)
 * @inflight: posts not yet applied (the virtual clock's deadlock test)
 * @start: rp_mark_start() was called: each CPU's time starts at its next
 *	drain
 * @pin: real threads: pin the calling thread to CPU @i's core
 * @on_move: called by the busiest CPU for each task it moves (tests)
 */
struct rp_smp {
	unsigned n;
	struct rp_sched *cpu[RP_MAXCPU];
	bool virt;
	atomic_uint alive;
	atomic_int err;
	atomic_uint_least64_t post_seq;
	atomic_long inflight;
	atomic_int start;
	atomic_flag lock;
	atomic_uint ready;
	struct rp_ctx host;
	void (*pin)(unsigned i);
	void (*on_move)(struct rp_sched *from, struct rp_task *t, unsigned to,
			unsigned asked, bool idle, void *arg);
	void *on_move_arg;
};

/* min_vruntime at the start: far enough above 0 that a sleeper's credit
 * (min_vruntime - latency / 2) and a negative lag never wrap the key */
#define RP_VBASE ((uint64_t)1 << 40)

static void *rp_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p) {
		fprintf(stderr, "sq-replay: out of memory (%zu x %zu bytes)\n",
			n, size);
		exit(2);
	}
	return p;
}

static void rp_fail(struct rp_sched *s, const char *msg)
{
	if (!s->err)
		snprintf(s->errmsg, sizeof(s->errmsg), "%s", msg);
	s->err = 1;
	if (s->smp)
		atomic_store(&s->smp->err, 1);
}

/* ---- SMP plumbing: the current CPU, the shared lock, pauses ---- */

/* The CPU this thread runs now (on the virtual clock: the one running). */
static _Thread_local struct rp_sched *rp__this;

/*
 * rp__this_now - rp__this of the thread running now.  A task's stack
 * moves between threads inside rp_ctx_swap(), and a compiler may compute
 * a thread-local's address once per function (clang does on aarch64,
 * from TPIDR_EL0): read after the swap, that address is the old
 * thread's.  A call it may not fold reads it afresh.
 */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static struct rp_sched *rp__this_now(void)
{
#if defined(__GNUC__)
	__asm__ __volatile__("" ::: "memory");	/* not const, not pure */
#endif
	return rp__this;
}

/* @s, or on SMP the CPU that runs the caller: a task's scheduler pointer
 * names its run, not its CPU, which changes when it moves. */
static struct rp_sched *rp__cur(struct rp_sched *s)
{
	struct rp_sched *now = s->smp ? rp__this_now() : NULL;

	return now ? now : s;
}

/* Real threads on more than one CPU (not the virtual clock). */
static bool rp__threads(const struct rp_sched *s)
{
	return s->smp && !s->smp->virt;
}

static void rp__pause(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
	__builtin_ia32_pause();
#endif
}

static void rp__spin_lock(atomic_flag *l)
{
	while (atomic_flag_test_and_set_explicit(l, memory_order_acquire))
		rp__pause();
}

static void rp__spin_unlock(atomic_flag *l)
{
	atomic_flag_clear_explicit(l, memory_order_release);
}

/* linux-2.4's runqueue_lock, on SMP */
static void rp__lock24(const struct rp_sched *s)
{
	if (s->smp && s->pol->shared_rq)
		rp__spin_lock(&s->smp->lock);
}

static void rp__unlock24(const struct rp_sched *s)
{
	if (s->smp && s->pol->shared_rq)
		rp__spin_unlock(&s->smp->lock);
}

/* nr_running, published for the other CPUs' balancing and placement */
static void rp__publish(struct rp_sched *s)
{
	if (s->smp)
		atomic_store_explicit(&s->load, s->nr_running,
				      memory_order_relaxed);
}

static unsigned rp_load(const struct rp_sched *s)
{
	return atomic_load_explicit(&s->load, memory_order_relaxed);
}

/*
 * rp_now - the time in ns: the virtual clock, or this machine's monotonic
 * clock less the time this process was not running.  On the wall clock,
 * rp_run()'s tasks and idle loop read the clock every few microseconds at
 * most; a gap of more than RP_STOLEN_NS between two readings is time the
 * host gave to another process, and is left out (and counted in stolen).
 * On SMP each CPU has its own (the virtual clocks differ by at most a
 * step; the wall clocks by what the host took from each).
 */
#define RP_STOLEN_NS (500 * 1000u)

static uint64_t rp_now(struct rp_sched *s)
{
	struct timespec ts;
	uint64_t raw, d;

	s = rp__cur(s);
	if (s->virt)
		return s->vclock;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	raw = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	d = raw - s->raw_last;
	s->raw_last = raw;
	if (s->running && d > RP_STOLEN_NS) {
		s->stolen += d;
		s->nstolen++;
	}
	return raw - s->stolen;
}

/* Charge curr the time since it was last charged (update_curr). */
static void rp_account(struct rp_sched *s, uint64_t now)
{
	uint64_t d = now - s->exec_start;

	s->exec_start = now;
	if (!s->curr)
		return;
	s->curr->sum_exec += d;
	if (s->pol->account)
		s->pol->account(s, d);
}

static void rp__switch_to(struct rp_sched *s, struct rp_task *next);

/* The scheduler proper: curr (maybe blocked or dead) gives up the CPU. */
static void rp_schedule(struct rp_sched *s);

static void rp__enqueue(struct rp_sched *s, struct rp_task *t, bool wakeup)
{
	t->state = RP_RUNNABLE;
	t->on_rq = true;
	s->nr_running++;
	s->pol->enqueue(s, t, wakeup);
	rp__publish(s);
}

/* @t, woken here, preempts curr if the policy says so */
static void rp__check_preempt(struct rp_sched *s, struct rp_task *t)
{
	/* (curr may be blocking: a drain in its schedule() woke @t) */
	if (s->curr && s->curr != t && s->curr->state == RP_RUNNING &&
	    s->pol->wake_preempt(s, t) &&
	    !s->need_resched) {
		s->need_resched = true;
		s->preempt_wakeup++;
	}
}

/* ---- SMP: the inbox, the virtual CPUs, the balancer's requests ---- */

/* The virtual clock: the CPU whose time comes first (idle ones at the
 * time they wait for), ties to the lower id; NULL when all are done. */
static struct rp_sched *rp__vnext(const struct rp_smp *m)
{
	struct rp_sched *best = NULL;
	uint64_t bt = 0;
	unsigned i;

	for (i = 0; i < m->n; i++) {
		struct rp_sched *c = m->cpu[i];
		uint64_t t = c->vidle ? c->vwake : c->vclock;

		if (c->vdone)
			continue;
		if (!best || t < bt) {
			best = c;
			bt = t;
		}
	}
	return best;
}

static struct rp_ctx *rp__vctx(struct rp_sched *c)
{
	return c->curr ? &c->curr->ctx : &c->vmain;
}

/* The virtual clock: let the CPU whose time comes first run (a CPU
 * switch on the one thread; it comes back here when it is this one's
 * turn again). */
static void rp__vyield(struct rp_sched *s)
{
	struct rp_sched *n;

	if (!s->smp || !s->virt)
		return;
	n = rp__vnext(s->smp);
	if (!n || n == s)
		return;
	rp__this = n;
	rp_ctx_swap(rp__vctx(s), rp__vctx(n));
}

/* Something was posted to @to at @from's time: an idle virtual CPU
 * wakes then (an interrupt, as the IPI that would go with it). */
static void rp__vkick(const struct rp_sched *from, struct rp_sched *to)
{
	if (to->virt && to->vidle && from->vclock < to->vwake)
		to->vwake = from->vclock;
}

/* resched_task() of another CPU's curr: its need_resched, by IPI */
static void rp__ipi(struct rp_sched *from, struct rp_sched *to)
{
	if (from == to) {
		from->need_resched = true;
		return;
	}
	atomic_store_explicit(&to->ipi, 1, memory_order_release);
	rp__vkick(from, to);
}

/*
 * rp__post - post @t into CPU @to's inbox, @why (a wakeup or a move);
 * @to applies it at its next drain (SQ_REMOTE_ARM's promise), after
 * waiting for @t's context to be saved if its last CPU is still
 * switching away from it.
 */
static void rp__post(struct rp_sched *s, struct rp_sched *to,
		     struct rp_task *t, int why)
{
	uint64_t key = atomic_fetch_add_explicit(&s->smp->post_seq, 1,
						 memory_order_relaxed);

	t->arrive = why;
	t->post_gen = atomic_load_explicit(&to->drains, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->smp->inflight, 1, memory_order_relaxed);
	SQ_REMOTE_ARM(rb, &to->inbox, &t->inode, key);
	s->posts++;
	rp__vkick(s, to);
}

/*
 * rp__ask - ask CPU @b (the busiest) for @n of its queued tasks: it
 * answers at its next preemption point, choosing them by its policy's
 * rule and posting them here.  One request at a time per CPU.
 */
static void rp__ask(struct rp_sched *s, struct rp_sched *b, unsigned n,
		    bool idle)
{
	unsigned want = 0, v;

	if (!n || b == s)
		return;
	v = (n > 0xffff ? 0xffffu : n) << 16 | s->id << 8 | (idle ? 1u : 0u);
	if (atomic_compare_exchange_strong_explicit(&b->ask, &want, v,
						    memory_order_acq_rel,
						    memory_order_relaxed)) {
		s->asks++;
		rp__vkick(s, b);
	}
}

/* The busiest CPU's side of a pull: detach by the policy, post each. */
static void rp__answer(struct rp_sched *s, unsigned v)
{
	struct rp_smp *m = s->smp;
	unsigned n = v >> 16, to = v >> 8 & 0xff, k, i;
	bool idle = v & 1;

	if (s->pol->detach && to < m->n && to != s->id) {
		if (n > s->nt)
			n = s->nt;
		k = s->pol->detach(s, to, n, idle, s->scratch);
		for (i = 0; i < k; i++) {
			struct rp_task *t = s->scratch[i];

			if (m->on_move)
				m->on_move(s, t, to, n, idle, m->on_move_arg);
			t->on_rq = false;
			s->migrations++;
			rp__post(s, m->cpu[to], t, RP_ARRIVE_MIGRATE);
		}
		rp__publish(s);
	}
	atomic_store_explicit(&s->ask, 0, memory_order_release);
}

/* Apply one task popped from the inbox. */
static void rp__arrive(struct rp_sched *s, struct rp_task *t)
{
	uint64_t gen = atomic_load_explicit(&s->drains, memory_order_relaxed);

	/* on the virtual clock a post is applied by the first drain that
	 * begins after it (on real threads the poster may stop for any
	 * time between reading the count and posting: not checked here;
	 * tests/remote's suites hold SQ_REMOTE to its promise there) */
	if (s->virt && gen != t->post_gen + 1)
		s->late++;
	while (t != s->curr &&
	       atomic_load_explicit(&t->on_cpu, memory_order_acquire))
		rp__pause();	/* its last CPU is saving its context */
	t->moved = t->cpu != s->id;
	t->cpu = s->id;
	if (t->arrive == RP_ARRIVE_WAKE || t->arrive == RP_ARRIVE_FORK) {
		rp_account(s, rp_now(s));
		rp__enqueue(s, t, t->arrive == RP_ARRIVE_WAKE);
		s->remote_wakes += t->arrive == RP_ARRIVE_WAKE;
	} else {
		t->state = RP_RUNNABLE;
		t->on_rq = true;
		s->nr_running++;
		s->pol->attach(s, t);
		rp__publish(s);
	}
	rp__check_preempt(s, t);
	atomic_fetch_sub_explicit(&s->smp->inflight, 1, memory_order_relaxed);
}

/*
 * rp__drain - the owner's drain: the inbox (SQ_REMOTE_DRAIN, then the
 * tasks in the order they were posted), an IPI, a pull request
 */
static void rp__drain(struct rp_sched *s)
{
	unsigned ask;

	if (!s->smp)
		return;
	if (!s->t0_seen &&
	    atomic_load_explicit(&s->smp->start, memory_order_relaxed)) {
		s->t0_seen = true;	/* the measured time starts here */
		s->t0c = rp_now(s);
	}
	atomic_store_explicit(&s->drains,
			      atomic_load_explicit(&s->drains,
						   memory_order_relaxed) + 1,
			      memory_order_relaxed);
	if (SQ_REMOTE_DRAIN(rb, &s->inbox)) {
		SQ_NODE(rb) *n;

		while ((n = SQ_POP(rb, SQ_REMOTE_Q(rb, &s->inbox))) != NULL)
			rp__arrive(s, sq_entry(sq_entry(n,
				SQ_REMOTE_NODE(rb), base),
				struct rp_task, inode));
	}
	if (atomic_load_explicit(&s->ipi, memory_order_relaxed)) {
		atomic_store_explicit(&s->ipi, 0, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (s->curr)
			s->need_resched = true;
	}
	ask = atomic_load_explicit(&s->ask, memory_order_acquire);
	if (ask)
		rp__answer(s, ask);
}

/* ---- wakeups ---- */

/* Wake @t here: runnable, and a reschedule if the policy says so. */
static void rp__wake_local(struct rp_sched *s, struct rp_task *t)
{
	rp_account(s, rp_now(s));
	rp__enqueue(s, t, true);
	rp__check_preempt(s, t);
}

/*
 * A wakeup on SMP.  2.4: onto the one queue under its lock, then
 * reschedule_idle(); a task still on its CPU (between joining a wait
 * list and its schedule()) is marked, and its schedule() keeps it.
 * The others: the policy's CPU (select_task_rq), this one at once, any
 * other through its inbox.
 */
static void rp__wake_smp(struct rp_sched *s, struct rp_task *t)
{
	unsigned target;

	if (s->pol->shared_rq) {
		rp__lock24(s);
		if (s->smp->cpu[t->cpu]->rq_curr == t) {
			t->wake_pending = true;
		} else {
			rp__enqueue(s, t, true);
			s->pol->resched_idle(s, t);
		}
		rp__unlock24(s);
		return;
	}
	target = s->pol->select_cpu ? s->pol->select_cpu(s, t, false)
				    : t->cpu;
	if (target != s->id) {
		rp__post(s, s->smp->cpu[target], t, RP_ARRIVE_WAKE);
		return;
	}
	while (atomic_load_explicit(&t->on_cpu, memory_order_acquire))
		rp__pause();
	t->moved = t->cpu != s->id;
	t->cpu = s->id;
	rp__wake_local(s, t);
}

/* Wake @t: runnable, and a reschedule if the policy says it preempts. */
static void rp_wake(struct rp_sched *s, struct rp_task *t)
{
	if (t->state != RP_BLOCKED)
		return;
	if (SQ_QUEUED(rb, &t->tnode))
		(void)SQ_DEQUEUE(rb, &s->timers, &t->tnode);
	if (s->smp) {
		rp__wake_smp(s, t);
		return;
	}
	rp__wake_local(s, t);
}

/* The timers due and the tick, as an interrupt would on one CPU. */
static void rp__interrupts(struct rp_sched *s, uint64_t now)
{
	SQ_NODE(rb) *n;

	while ((n = SQ_POP_DUE(rb, &s->timers, now)) != NULL) {
		struct rp_task *t = sq_entry(n, struct rp_task, tnode);

		rp_wake(s, t);
	}
	if (now >= s->next_tick) {
		/* one tick however many periods passed, as a late interrupt */
		s->next_tick = now - (now - s->next_tick) % s->pol->tick_ns +
			       s->pol->tick_ns;
		s->nticks++;
		if (s->curr) {
			bool r;

			rp_account(s, now);
			rp__lock24(s);
			r = s->pol->tick(s);
			rp__unlock24(s);
			if (r && !s->need_resched) {
				s->need_resched = true;
				s->preempt_tick++;
			}
		}
		if (s->smp && s->pol->balance)
			s->pol->balance(s, !s->curr, false);
		if (s->on_tick)
			s->on_tick(s, s->on_tick_arg);
	}
}

/* A preemption point: the interrupts, then a switch if one is due. */
static void rp_poll(struct rp_sched *s)
{
	rp__vyield(s);
	rp__interrupts(s, rp_now(s));
	rp__drain(s);
	if (s->need_resched)
		rp_schedule(s);
}

/* curr leaves the CPU in @state (blocked or dead) and the next runs. */
static void rp_block(struct rp_sched *s, enum rp_state state)
{
	struct rp_task *t = s->curr;

	rp_account(s, rp_now(s));
	t->state = state;
	t->on_rq = false;
	t->sleep_start = rp_now(s);
	s->nr_running--;
	s->pol->dequeue(s, t);
	rp__publish(s);
	rp_schedule(s);
}

static void rp_schedule(struct rp_sched *s)
{
	struct rp_task *prev = s->curr, *next;

	rp_account(s, rp_now(s));
	rp__drain(s);
	s->need_resched = false;
	rp__lock24(s);
	if (prev && prev->wake_pending) {
		/* 2.4: woken while it was still here: it stays runnable */
		prev->wake_pending = false;
		rp__enqueue(s, prev, true);
	} else if (prev && prev->state == RP_RUNNING) {
		prev->state = RP_RUNNABLE;
		s->pol->put_prev(s, prev);
	}
	s->picks++;
	next = s->pol->pick(s);
	if (s->smp && s->pol->shared_rq) {
		s->rq_curr = next;
		/* __schedule_tail(): prev, still runnable, may go elsewhere */
		if (prev && prev != next && prev->state == RP_RUNNABLE)
			s->pol->resched_idle(s, prev);
	}
	rp__unlock24(s);
	if (next == prev) {
		if (next)
			next->state = RP_RUNNING;
		return;
	}
	if (!next && s->smp && s->pol->balance)
		s->pol->balance(s, true, true);	/* idle_balance() */
	rp__switch_to(s, next);
}

/* finish_task_switch(): the context left is saved; another CPU may run
 * it now */
static void rp__finish_switch(struct rp_sched *s)
{
	if (s->sw_prev) {
		atomic_store_explicit(&s->sw_prev->on_cpu, 0,
				      memory_order_release);
		s->sw_prev = NULL;
	}
}

/* Leave @prev's stack for @next's, or for main's when none is runnable. */
static void rp__switch_to(struct rp_sched *s, struct rp_task *next)
{
	struct rp_task *prev = s->curr;
	struct rp_ctx *from = prev ? &prev->ctx : &s->main_ctx;
	const struct rp_ctx *to = next ? &next->ctx : &s->main_ctx;

	s->exec_start = rp_now(s);
	if (prev)
		prev->last_run = s->exec_start;
	if (next) {
		next->state = RP_RUNNING;
		next->nswitch++;
		if (!s->pol->shared_rq)	/* 2.4: set by its pick, locked */
			next->cpu = s->id;
		s->switches++;
	}
	s->curr = next;
	if (s->smp) {
		if (next)
			atomic_store_explicit(&next->on_cpu, 1,
					      memory_order_relaxed);
		s->sw_prev = prev;
		if (s->virt) {
			from = prev ? &prev->ctx : &s->vmain;
			to = next ? &next->ctx : &s->vmain;
		}
	}
	rp_ctx_swap(from, to);
	/* back on prev's stack (or main's), maybe on another CPU */
	rp__finish_switch(rp__cur(s));
}

/* Every task starts here, on its own stack. */
static struct rp_sched *rp__starting;

static void rp__entry(void)
{
	struct rp_sched *s = rp__starting->smp ? rp__this_now() : rp__starting;
	struct rp_task *t = s->curr;

	rp__finish_switch(s);
	t->fn(t);
	s = rp__cur(s);
	if (s->smp)
		atomic_fetch_sub(&s->smp->alive, 1);
	else
		s->alive--;
	rp_block(s, RP_DEAD);
	abort();			/* a dead task is never picked */
}

/*
 * rp_init - a scheduler of policy @pol on queues of kind @rq
 * @virt: the virtual clock (deterministic), or the wall clock
 */
static void rp_init(struct rp_sched *s, const struct rp_policy *pol,
		    const struct rp_rqops *rq, bool virt)
{
	memset(s, 0, sizeof(*s));
	s->pol = pol;
	s->rq = rq;
	s->virt = virt;
	s->vop_ns = 1000;
	s->vclock = 0;
	s->stack_size = 32 * 1024;
	s->min_vruntime = RP_VBASE;
	SQ_INIT(rb, &s->timers);
	sq_erb_init(&s->etree);
	pol->init(s);
}

/*
 * rp_smp_init - @n CPUs, each a struct rp_sched of @cpus, sharing one run
 * of tasks; CPU 0 (&cpus[0]) is the run's scheduler for rp_spawn(),
 * rp_start(), rp_run(), rp_fini() and the channels.
 */
static void rp_smp_init(struct rp_smp *m, struct rp_sched *cpus, unsigned n,
			const struct rp_policy *pol,
			const struct rp_rqops *rq, bool virt)
{
	unsigned i;

	memset(m, 0, sizeof(*m));
	m->n = n;
	m->virt = virt;
	atomic_init(&m->alive, 0);
	atomic_init(&m->err, 0);
	atomic_init(&m->post_seq, 0);
	atomic_init(&m->inflight, 0);
	atomic_init(&m->start, 0);
	atomic_init(&m->ready, 0);
	atomic_flag_clear(&m->lock);
	for (i = 0; i < n; i++) {
		struct rp_sched *s = &cpus[i];

		rp_init(s, pol, rq, virt);
		s->smp = m;
		s->id = i;
		m->cpu[i] = s;
		if (pol->shared_rq && i) {	/* 2.4: CPU 0's queue */
			free(s->rq_main);
			s->rq_main = cpus[0].rq_main;
		}
	}
}

/*
 * rp_spawn - a new task that will run @fn(t), blocked until rp_start()
 * rp_start() allocates the stacks, all at once (calloc: a page is only
 * backed once a task touches it).
 */
static struct rp_task *rp_spawn(struct rp_sched *s,
				void (*fn)(struct rp_task *), void *arg)
{
	struct rp_task *t = (struct rp_task *)rp_xcalloc(1, sizeof(*t));

	if (s->nt == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->task = (struct rp_task **)realloc(s->task,
						     s->cap * sizeof(*s->task));
		if (!s->task) {
			fprintf(stderr, "sq-replay: out of memory\n");
			exit(2);
		}
	}
	t->s = s;
	t->fn = fn;
	t->arg = arg;
	t->id = s->nt;
	t->state = RP_BLOCKED;
	t->vruntime = s->min_vruntime;
	atomic_init(&t->on_cpu, 0);
	SQ_NODE_INIT(rb, &t->tnode);
	SQ_REMOTE_NODE_INIT(rb, &t->inode);
	sq_erb_node_init(&t->enode);
	if (s->rq)
		s->rq->node_init(t);
	s->task[s->nt++] = t;
	s->alive++;
	return t;
}

/* rp_start - make every spawned task runnable, in spawn order, but those
 * marked unborn (a running task forks them, rp_fork()); on SMP each where
 * its kernel's fork put it (select_task_rq(SD_BALANCE_FORK), or the
 * parent's CPU, 0). */
static void rp_start(struct rp_sched *s)
{
	unsigned i;
	size_t sz = s->stack_size;

	free(s->stacks);
	s->stacks = (char *)rp_xcalloc(s->nt, sz);
	if (s->smp) {
		struct rp_smp *m = s->smp;

		atomic_store(&m->alive, s->alive);
		for (i = 0; i < m->n; i++) {
			m->cpu[i]->task = s->task;
			m->cpu[i]->nt = s->nt;
			m->cpu[i]->scratch = (struct rp_task **)rp_xcalloc(
				2 * (size_t)s->nt, sizeof(struct rp_task *));
		}
	}
	for (i = 0; i < s->nt; i++) {
		struct rp_task *t = s->task[i];
		struct rp_sched *c = s;

		rp_ctx_make(&t->ctx, s->stacks + (size_t)i * sz, sz, rp__entry);
		if (t->unborn)
			continue;	/* its parent forks it */
		if (s->smp && s->pol->select_cpu)
			c = s->smp->cpu[s->pol->select_cpu(s, t, true)];
		t->cpu = c->id;
		rp__enqueue(c, t, false);
	}
}

/* The idle loop of one CPU (curr NULL here): run tasks until none is left
 * anywhere.  On one CPU, or on SMP. */
static void rp__idle_loop(struct rp_sched *s)
{
	struct rp_smp *m = s->smp;

	for (;;) {
		SQ_NODE(rb) *n;

		rp_schedule(s);		/* returns when nothing is runnable */
		if (m ? !atomic_load(&m->alive) || atomic_load(&m->err)
		      : !s->alive || s->err)
			break;
		n = SQ_FIRST(rb, &s->timers);
		if (!m) {
			if (!n) {
				rp_fail(s, "deadlock: every task blocked, "
					   "no timer");
				return;
			}
			if (s->virt) {
				if (s->vclock < n->key)
					s->vclock = n->key;
			} else {
				while (rp_now(s) < n->key)
					;	/* idle: the CPU is ours, pinned */
			}
		} else if (s->virt) {
			/* wait for the first of: a timer, the tick, a post */
			unsigned i, busy = 0;

			s->vidle = true;
			s->vwake = s->next_tick;
			if (n && n->key < s->vwake)
				s->vwake = n->key;
			for (i = 0; i < m->n; i++)
				busy += !m->cpu[i]->vidle ||
					SQ_FIRST(rb, &m->cpu[i]->timers) ||
					atomic_load(&m->cpu[i]->ask);
			if (!busy && !atomic_load(&m->inflight)) {
				rp_fail(s, "deadlock: every task blocked, "
					   "no timer");
				break;
			}
			rp__vyield(s);
			s->vidle = false;
			if (s->vclock < s->vwake)
				s->vclock = s->vwake;
		} else {
			rp__pause();	/* idle: the CPU is ours, pinned */
		}
		s->exec_start = rp_now(s);
		rp__interrupts(s, rp_now(s));
		rp__drain(s);
	}
}

static void rp__smp_cpu_start(struct rp_sched *s)
{
	uint64_t now;

	rp__this = s;
	(void)rp_now(s);
	s->running = true;
	now = rp_now(s);
	s->t0c = s->exec_start = now;
	s->next_tick = now + s->pol->tick_ns;
	s->next_balance = now;
}

/* The virtual clock's CPUs: each idle loop on a stack of its own. */
static void rp__vcpu_entry(void)
{
	struct rp_sched *s = rp__this_now();
	struct rp_smp *m = s->smp;
	struct rp_sched *n;

	rp__finish_switch(s);
	rp__idle_loop(s);
	s->t1c = s->vclock;
	s->vdone = true;
	n = rp__vnext(m);
	rp__this = n;
	rp_ctx_swap(&s->vmain, n ? rp__vctx(n) : &m->host);
	abort();
}

#include <pthread.h>

static void *rp__thread(void *arg)
{
	struct rp_sched *s = (struct rp_sched *)arg;
	struct rp_smp *m = s->smp;

	if (m->pin)
		m->pin(s->id);
	SQ_REMOTE_INIT(rb, &s->inbox);	/* its owner is this thread */
	atomic_fetch_add(&m->ready, 1);
	while (atomic_load(&m->ready) < m->n)
		rp__pause();
	rp__smp_cpu_start(s);
	rp__idle_loop(s);
	s->t1c = rp_now(s);
	s->running = false;
	return NULL;
}

/* rp__run_smp - every CPU until every task has ended; the run's time is
 * the longest CPU's, each by its own clock. */
static int rp__run_smp(struct rp_sched *s)
{
	struct rp_smp *m = s->smp;
	pthread_t th[RP_MAXCPU];
	unsigned i;
	int err = 0;

	rp__starting = s;
	if (m->virt) {
		const size_t vsz = 64 * 1024;

		for (i = 0; i < m->n; i++) {
			struct rp_sched *c = m->cpu[i];

			SQ_REMOTE_INIT(rb, &c->inbox);
			c->vstack = (char *)rp_xcalloc(1, vsz);
			rp_ctx_make(&c->vmain, c->vstack, vsz, rp__vcpu_entry);
			rp__smp_cpu_start(c);
		}
		rp__this = m->cpu[0];
		rp_ctx_swap(&m->host, &m->cpu[0]->vmain);
	} else {
		for (i = 1; i < m->n; i++)
			if (pthread_create(&th[i], NULL, rp__thread,
					   m->cpu[i])) {
				perror("sq-replay: pthread_create");
				exit(2);
			}
		(void)rp__thread(m->cpu[0]);
		for (i = 1; i < m->n; i++)
			pthread_join(th[i], NULL);
	}
	s->t0 = 0;
	s->t1 = 0;
	for (i = 0; i < m->n; i++) {
		struct rp_sched *c = m->cpu[i];

		if (c->t1c - c->t0c > s->t1)
			s->t1 = c->t1c - c->t0c;
		if (c->err && !s->err) {
			s->err = 1;
			memcpy(s->errmsg, c->errmsg, sizeof(s->errmsg));
		}
		if (c->late) {
			rp_fail(s, "a post was not applied by the next drain");
			err = -1;
		}
	}
	if (atomic_load(&m->err) && !s->err)
		rp_fail(s, "a CPU failed");
	rp__this = NULL;
	return s->err ? -1 : err;
}

/*
 * rp_run - run until every task has ended; the idle loop is here
 * Returns 0, or -1 when the tasks deadlock (all blocked, no timer).
 */
static int rp_run(struct rp_sched *s)
{
	uint64_t now;

	if (s->smp)
		return rp__run_smp(s);
	(void)rp_now(s);
	s->running = true;
	now = rp_now(s);
	rp__starting = s;
	s->t0 = s->exec_start = now;
	s->next_tick = now + s->pol->tick_ns;
	rp__idle_loop(s);
	s->t1 = rp_now(s);
	s->running = false;
	return s->err ? -1 : 0;
}

static void rp_fini(struct rp_sched *s)
{
	unsigned i;

	if (s->smp) {
		struct rp_smp *m = s->smp;

		for (i = m->n; i-- > 0;) {
			struct rp_sched *c = m->cpu[i];

			if (c->pol->fini)
				c->pol->fini(c);
			free(c->scratch);
			free(c->vstack);
			c->scratch = NULL;
			c->vstack = NULL;
		}
	} else if (s->pol->fini) {
		s->pol->fini(s);
	}
	for (i = 0; i < s->nt; i++)
		free(s->task[i]);
	free(s->task);
	free(s->stacks);
	s->task = NULL;
	s->stacks = NULL;
}

/* ---- what tasks call ---- */

/* rp_sleep - block for @ns of time (a timer wakes it). */
static void rp_sleep(struct rp_sched *s, uint64_t ns)
{
	struct rp_task *t;

	s = rp__cur(s);
	t = s->curr;
	(void)SQ_ENQUEUE(rb, &s->timers, &t->tnode, rp_now(s) + ns);
	rp_block(s, RP_BLOCKED);
}

/*
 * rp_burn - compute for @ns of curr's own CPU time (preemptible)
 * On the wall clock it does real work (a hash over @buf) between
 * preemption points; on the virtual clock it advances the clock in steps
 * of a tenth of a tick.  Returns the hash, so the work is not optimised
 * away.
 */
static uint64_t rp_burn(struct rp_sched *s, uint64_t ns)
{
	struct rp_task *t;
	uint64_t until, h = 1469598103934665603u;
	uint64_t step = s->pol->tick_ns / 10 ? s->pol->tick_ns / 10 : 1;

	s = rp__cur(s);
	t = s->curr;
	until = t->sum_exec + ns;
	for (;;) {
		rp_account(s, rp_now(s));
		if (t->sum_exec >= until)
			break;
		if (s->virt) {
			uint64_t d = until - t->sum_exec;

			s->vclock += d < step ? d : step;
		} else {
			unsigned i;

			for (i = 0; i < 256; i++)
				h = (h ^ i) * 1099511628211u;
		}
		rp_poll(s);
		s = rp__cur(s);		/* it may run elsewhere now */
	}
	return h;
}

/* ---- channels ---- */

struct rp_wait {
	struct rp_task *head, *tail;
};

/*
 * struct rp_chan - one direction of a socket pair: a byte ring of @cap
 * On real threads it has a lock (a socket's), held for each operation.
 */
struct rp_chan {
	struct rp_sched *s;
	char *buf;
	size_t cap, len, head;		/* bytes held, read position */
	struct rp_wait readers, writers;
	uint64_t bytes;			/* moved through it */
	atomic_flag lock;
};

static void rp_chan_init(struct rp_chan *c, struct rp_sched *s, size_t cap)
{
	memset(c, 0, sizeof(*c));
	c->s = s;
	c->cap = cap;
	c->buf = (char *)rp_xcalloc(1, cap);
	atomic_flag_clear(&c->lock);
}

static void rp_chan_fini(struct rp_chan *c)
{
	free(c->buf);
	c->buf = NULL;
}

static void rp__chan_lock(struct rp_chan *c)
{
	if (rp__threads(c->s))
		rp__spin_lock(&c->lock);
}

static void rp__chan_unlock(struct rp_chan *c)
{
	if (rp__threads(c->s))
		rp__spin_unlock(&c->lock);
}

/* Block on @w, the channel's lock held; returns with it held again, on
 * the CPU it was woken on. */
static struct rp_sched *rp__wait(struct rp_sched *s, struct rp_chan *c,
				 struct rp_wait *w)
{
	struct rp_task *t = s->curr;

	t->wnext = NULL;
	if (w->tail)
		w->tail->wnext = t;
	else
		w->head = t;
	w->tail = t;
	rp__chan_unlock(c);
	rp_block(s, RP_BLOCKED);
	rp__chan_lock(c);
	return rp__cur(s);
}

/* Wake every waiter, as wake_up_interruptible() a socket's wait queue.
 * On SMP a waiter may not have left its CPU yet (it blocks after it
 * drops the channel's lock): being on the list is what makes it one. */
static void rp__wake_all(struct rp_sched *s, struct rp_wait *w)
{
	struct rp_task *t = w->head;

	w->head = w->tail = NULL;
	while (t) {
		struct rp_task *nx = t->wnext;

		t->wnext = NULL;
		if (s->smp)
			rp__wake_smp(s, t);
		else
			rp_wake(s, t);
		t = nx;
	}
}

/* The cost of entering the kernel: time on the virtual clock, and the
 * interrupts that came meanwhile. */
static void rp__syscall(struct rp_sched *s)
{
	if (s->virt)
		s->vclock += s->vop_ns;
	rp__vyield(s);
	rp__interrupts(s, rp_now(s));
	rp__drain(s);
}

/* The return to user space: switch if a wakeup or tick asked for it. */
static void rp__sysret(struct rp_sched *s)
{
	if (s->need_resched)
		rp_schedule(s);
}

/*
 * rp_write - write @len bytes (at most the capacity), whole
 * Blocks while they do not fit; wakes the readers.
 */
static void rp_write(struct rp_chan *c, const void *p, size_t len)
{
	struct rp_sched *s = rp__cur(c->s);
	size_t tail, n1;

	rp__syscall(s);
	rp__chan_lock(c);
	while (c->cap - c->len < len)
		s = rp__wait(s, c, &c->writers);
	tail = (c->head + c->len) % c->cap;
	n1 = c->cap - tail < len ? c->cap - tail : len;
	memcpy(c->buf + tail, p, n1);
	memcpy(c->buf, (const char *)p + n1, len - n1);
	c->len += len;
	c->bytes += len;
	rp__wake_all(s, &c->readers);
	rp__chan_unlock(c);
	rp__sysret(s);
}

/*
 * rp_read - read up to @len bytes, at least one; returns how many
 * Blocks while the channel is empty; wakes the writers once at most a
 * quarter of it is in use.
 */
static size_t rp_read(struct rp_chan *c, void *p, size_t len)
{
	struct rp_sched *s = rp__cur(c->s);
	size_t n, n1;

	rp__syscall(s);
	rp__chan_lock(c);
	while (!c->len)
		s = rp__wait(s, c, &c->readers);
	n = c->len < len ? c->len : len;
	n1 = c->cap - c->head < n ? c->cap - c->head : n;
	memcpy(p, c->buf + c->head, n1);
	memcpy((char *)p + n1, c->buf, n - n1);
	c->head = (c->head + n) % c->cap;
	c->len -= n;
	if (c->writers.head && 4 * c->len <= c->cap)
		rp__wake_all(s, &c->writers);
	rp__chan_unlock(c);
	rp__sysret(s);
	return n;
}

/* rp_read_all - read exactly @len bytes (a loop of rp_read). */
static void rp_read_all(struct rp_chan *c, void *p, size_t len)
{
	size_t got = 0;

	while (got < len)
		got += rp_read(c, (char *)p + got, len - got);
}

/*
 * rp_fork - curr makes @t (spawned unborn) runnable, as the kernel's
 * fork (a system call): where the policy's fork rule puts it
 * (select_task_rq() with SD_BALANCE_FORK), else on curr's CPU (2.6.0's
 * wake_up_forked_process()); 2.4's wake_up_process() on its one queue,
 * with reschedule_idle().  A new task, not a woken one; it may preempt
 * curr by the wakeup rule.
 */
static void rp_fork(struct rp_sched *s, struct rp_task *t)
{
	struct rp_sched *c;

	s = rp__cur(s);
	rp__syscall(s);
	t->unborn = false;
	t->cpu = s->id;
	c = s->smp && !s->pol->shared_rq && s->pol->select_cpu
		    ? s->smp->cpu[s->pol->select_cpu(s, t, true)] : s;
	if (s->smp && s->pol->shared_rq) {
		rp__lock24(s);
		rp__enqueue(s, t, false);
		s->pol->resched_idle(s, t);
		rp__unlock24(s);
	} else if (c != s) {
		rp__post(s, c, t, RP_ARRIVE_FORK);
	} else {
		rp_account(s, rp_now(s));
		rp__enqueue(s, t, false);
		rp__check_preempt(s, t);
	}
	rp__sysret(s);
}

/*
 * rp_mark_start - the measured time starts now (hackbench's gettimeofday()
 * before its start signal): on one CPU the run's t0; on SMP this CPU's,
 * and each other CPU's at its next drain (a few microseconds later on
 * real threads: it drains in its idle loop and at every preemption point).
 */
static void rp_mark_start(struct rp_sched *s)
{
	s = rp__cur(s);
	if (!s->smp) {
		s->t0 = rp_now(s);
		return;
	}
	s->t0_seen = true;
	s->t0c = rp_now(s);
	atomic_store_explicit(&s->smp->start, 1, memory_order_relaxed);
}

#endif /* RP_SCHED_H */
