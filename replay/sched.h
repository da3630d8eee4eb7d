/* SPDX-License-Identifier: MIT */
/*
 * replay/sched.h - an M:1 user-space scheduler whose run queue is smartq's
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
 */
#ifndef RP_SCHED_H
#define RP_SCHED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <smartq.h>

#include "ctx.h"

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
	/* the workload's own */
	uint64_t user[4];
};

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
};

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
}

/*
 * rp_now - the time in ns: the virtual clock, or this machine's monotonic
 * clock less the time this process was not running.  On the wall clock,
 * rp_run()'s tasks and idle loop read the clock every few microseconds at
 * most; a gap of more than RP_STOLEN_NS between two readings is time the
 * host gave to another process, and is left out (and counted in stolen).
 */
#define RP_STOLEN_NS (500 * 1000u)

static uint64_t rp_now(struct rp_sched *s)
{
	struct timespec ts;
	uint64_t raw, d;

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
}

/* Wake @t: runnable, and a reschedule if the policy says it preempts. */
static void rp_wake(struct rp_sched *s, struct rp_task *t)
{
	if (t->state != RP_BLOCKED)
		return;
	if (SQ_QUEUED(rb, &t->tnode))
		(void)SQ_DEQUEUE(rb, &s->timers, &t->tnode);
	rp_account(s, rp_now(s));
	rp__enqueue(s, t, true);
	if (s->curr && s->pol->wake_preempt(s, t) && !s->need_resched) {
		s->need_resched = true;
		s->preempt_wakeup++;
	}
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
		if (s->curr) {
			rp_account(s, now);
			if (s->pol->tick(s) && !s->need_resched) {
				s->need_resched = true;
				s->preempt_tick++;
			}
		}
		if (s->on_tick)
			s->on_tick(s, s->on_tick_arg);
	}
}

/* A preemption point: the interrupts, then a switch if one is due. */
static void rp_poll(struct rp_sched *s)
{
	rp__interrupts(s, rp_now(s));
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
	rp_schedule(s);
}

static void rp_schedule(struct rp_sched *s)
{
	struct rp_task *prev = s->curr, *next;

	s->need_resched = false;
	rp_account(s, rp_now(s));
	if (prev && prev->state == RP_RUNNING) {
		prev->state = RP_RUNNABLE;
		s->pol->put_prev(s, prev);
	}
	s->picks++;
	next = s->pol->pick(s);
	if (next == prev) {
		if (next)
			next->state = RP_RUNNING;
		return;
	}
	rp__switch_to(s, next);
}

/* Leave @prev's stack for @next's, or for main's when none is runnable. */
static void rp__switch_to(struct rp_sched *s, struct rp_task *next)
{
	struct rp_task *prev = s->curr;
	struct rp_ctx *from = prev ? &prev->ctx : &s->main_ctx;

	if (next) {
		next->state = RP_RUNNING;
		next->nswitch++;
		s->switches++;
	}
	s->curr = next;
	s->exec_start = rp_now(s);
	rp_ctx_swap(from, next ? &next->ctx : &s->main_ctx);
	/* back on prev's stack (or main's) */
}

/* Every task starts here, on its own stack. */
static struct rp_sched *rp__starting;

static void rp__entry(void)
{
	struct rp_sched *s = rp__starting;
	struct rp_task *t = s->curr;

	t->fn(t);
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
	SQ_NODE_INIT(rb, &t->tnode);
	sq_erb_node_init(&t->enode);
	if (s->rq)
		s->rq->node_init(t);
	s->task[s->nt++] = t;
	s->alive++;
	return t;
}

/* rp_start - make every spawned task runnable, in spawn order. */
static void rp_start(struct rp_sched *s)
{
	unsigned i;
	size_t sz = s->stack_size;

	free(s->stacks);
	s->stacks = (char *)rp_xcalloc(s->nt, sz);
	for (i = 0; i < s->nt; i++) {
		struct rp_task *t = s->task[i];

		rp_ctx_make(&t->ctx, s->stacks + (size_t)i * sz, sz, rp__entry);
		rp__enqueue(s, t, false);
	}
}

/*
 * rp_run - run until every task has ended; the idle loop is here
 * Returns 0, or -1 when the tasks deadlock (all blocked, no timer).
 */
static int rp_run(struct rp_sched *s)
{
	uint64_t now;

	(void)rp_now(s);
	s->running = true;
	now = rp_now(s);
	rp__starting = s;
	s->t0 = s->exec_start = now;
	s->next_tick = now + s->pol->tick_ns;
	while (s->alive && !s->err) {
		SQ_NODE(rb) *n;

		rp_schedule(s);		/* returns when nothing is runnable */
		if (!s->alive || s->err)
			break;
		n = SQ_FIRST(rb, &s->timers);
		if (!n) {
			rp_fail(s, "deadlock: every task blocked, no timer");
			return -1;
		}
		if (s->virt) {
			if (s->vclock < n->key)
				s->vclock = n->key;
		} else {
			while (rp_now(s) < n->key)
				;	/* idle: the CPU is ours, pinned */
		}
		s->exec_start = rp_now(s);
		rp__interrupts(s, rp_now(s));
	}
	s->t1 = rp_now(s);
	s->running = false;
	return s->err ? -1 : 0;
}

static void rp_fini(struct rp_sched *s)
{
	unsigned i;

	if (s->pol->fini)
		s->pol->fini(s);
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
	struct rp_task *t = s->curr;

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
	struct rp_task *t = s->curr;
	uint64_t until = t->sum_exec + ns, h = 1469598103934665603u;
	uint64_t step = s->pol->tick_ns / 10 ? s->pol->tick_ns / 10 : 1;

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
	}
	return h;
}

/* ---- channels ---- */

struct rp_wait {
	struct rp_task *head, *tail;
};

/*
 * struct rp_chan - one direction of a socket pair: a byte ring of @cap
 */
struct rp_chan {
	struct rp_sched *s;
	char *buf;
	size_t cap, len, head;		/* bytes held, read position */
	struct rp_wait readers, writers;
	uint64_t bytes;			/* moved through it */
};

static void rp_chan_init(struct rp_chan *c, struct rp_sched *s, size_t cap)
{
	memset(c, 0, sizeof(*c));
	c->s = s;
	c->cap = cap;
	c->buf = (char *)rp_xcalloc(1, cap);
}

static void rp_chan_fini(struct rp_chan *c)
{
	free(c->buf);
	c->buf = NULL;
}

static void rp__wait(struct rp_sched *s, struct rp_wait *w)
{
	struct rp_task *t = s->curr;

	t->wnext = NULL;
	if (w->tail)
		w->tail->wnext = t;
	else
		w->head = t;
	w->tail = t;
	rp_block(s, RP_BLOCKED);
}

/* Wake every waiter, as wake_up_interruptible() a socket's wait queue. */
static void rp__wake_all(struct rp_sched *s, struct rp_wait *w)
{
	struct rp_task *t = w->head;

	w->head = w->tail = NULL;
	while (t) {
		struct rp_task *nx = t->wnext;

		t->wnext = NULL;
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
	rp__interrupts(s, rp_now(s));
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
	struct rp_sched *s = c->s;
	size_t tail, n1;

	rp__syscall(s);
	while (c->cap - c->len < len)
		rp__wait(s, &c->writers);
	tail = (c->head + c->len) % c->cap;
	n1 = c->cap - tail < len ? c->cap - tail : len;
	memcpy(c->buf + tail, p, n1);
	memcpy(c->buf, (const char *)p + n1, len - n1);
	c->len += len;
	c->bytes += len;
	rp__wake_all(s, &c->readers);
	rp__sysret(s);
}

/*
 * rp_read - read up to @len bytes, at least one; returns how many
 * Blocks while the channel is empty; wakes the writers once at most a
 * quarter of it is in use.
 */
static size_t rp_read(struct rp_chan *c, void *p, size_t len)
{
	struct rp_sched *s = c->s;
	size_t n, n1;

	rp__syscall(s);
	while (!c->len)
		rp__wait(s, &c->readers);
	n = c->len < len ? c->len : len;
	n1 = c->cap - c->head < n ? c->cap - c->head : n;
	memcpy(p, c->buf + c->head, n1);
	memcpy((char *)p + n1, c->buf, n - n1);
	c->head = (c->head + n) % c->cap;
	c->len -= n;
	if (c->writers.head && 4 * c->len <= c->cap)
		rp__wake_all(s, &c->writers);
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

#endif /* RP_SCHED_H */
