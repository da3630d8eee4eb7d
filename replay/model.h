/* SPDX-License-Identifier: MIT */
/*
 * replay/model.h - a single-CPU CFS run in simulated time
 *
 * A discrete-event model of Linux 2.6.35's fair scheduler on one CPU, as
 * kernel/sched_fair.c writes it (names below are the kernel's):
 *
 *   update_curr           vruntime += delta_exec (every task is nice 0, so
 *                         calc_delta_fair() is the identity)
 *   update_min_vruntime   max(min_vruntime, min(curr, leftmost))
 *   __sched_period        latency, or min_granularity * nr when nr_running
 *                         exceeds nr_latency; sched_slice = period / nr
 *   place_entity          a woken task: max(its vruntime, min_vruntime -
 *                         latency / 2) (GENTLE_FAIR_SLEEPERS)
 *   task_fork_fair        a child: max(its parent's vruntime, min_vruntime
 *                         + its slice in a queue one longer) (START_DEBIT)
 *   check_preempt_tick    at each tick (HZ = 250): resched when the slice
 *                         is used up, or when curr ran min_granularity and
 *                         leads the leftmost by more than its slice
 *   check_preempt_wakeup  resched when curr leads the woken task by more
 *                         than wakeup_granularity; LAST_BUDDY when
 *                         nr_running >= nr_latency (NEXT_BUDDY is off)
 *   pick_next_entity      the leftmost, or the last buddy if it does not
 *                         lead the leftmost by more than wakeup_granularity
 *   put_prev / set_next   curr is not kept in the tree
 *
 * The policy "eevdf" is 6.6's EEVDF instead (lag, eligibility against
 * the mean vruntime, deadlines, placement with lag; see rp_pick_eevdf and
 * replay/elig.h); the run queue is then keyed by the deadline.
 *
 * The run queue is any kind of replay/queues.h.  Nothing else differs
 * between kinds: the same workload, costs and policy; the decisions differ
 * only where a kind's order does (the ring, the priority arrays).
 *
 * Simulated time is in ns.  CPU costs of the workloads' system calls and
 * of a context switch are assumed constants (rp_as), the same for every
 * queue and policy; the run queue's own cost is charged from a table
 * measured per kind (rp_cost_table), so only it differs between kinds.
 */
#ifndef RP_MODEL_H
#define RP_MODEL_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "queues.h"

/* ---- the granularity policies of seed 001 ---------------------------- */

struct rp_policy {
	const char *name;	/* option and CSV value */
	const char *title;	/* the mail's heading */
	uint64_t latency;	/* sysctl_sched_latency */
	uint64_t min_gran;	/* sysctl_sched_min_granularity */
	uint64_t wakeup_gran;	/* sysctl_sched_wakeup_granularity */
	unsigned nr_latency;	/* sched_nr_latency */
	uint64_t dyn_floor;	/* dynamic: the granularity's floor, else 0 */
	uint64_t base_slice;	/* EEVDF's sysctl_sched_base_slice; 0: CFS */
};

/*
 * mainline: 2.6.35's defaults on one CPU (the (1 + ilog(ncpus)) factor is
 * 1).  smaller: commit 0bf377bb, 0.75 ms and nr_latency 8.  dynamic: the
 * mainline values up to nr_latency (3) runnable tasks; beyond that the
 * period stays at sched_latency and the granularity is latency / nr,
 * down to the smaller policy's 0.75 ms, after which the period grows.
 */
static const struct rp_policy rp_policies[] = {
	{ "mainline", "Mainline 2.6.35.2 kernel",
	  6000000, 2000000, 1000000, 3, 0, 0 },
	{ "dynamic", "With dynamic granularity",
	  6000000, 2000000, 1000000, 3, 750000, 0 },
	{ "smaller", "With smaller granularity",
	  6000000, 750000, 1000000, 8, 0, 0 },
	/* 6.6: base slice 0.75 ms times (1 + ilog2(ncpus)), 1 on one CPU;
	 * the CFS fields are unused but for latency / 2 nowhere. */
	{ "eevdf", "EEVDF of Linux 6.6",
	  6000000, 750000, 1000000, 8, 0, 750000 },
};
#define RP_NPOLICIES (sizeof(rp_policies) / sizeof(rp_policies[0]))

#define RP_TICK_NS	4000000u	/* HZ = 250, the Kconfig default */
/* sched_features.h of 6.6: RUN_TO_PARITY, on: curr keeps the CPU until
 * its deadline is renewed, wakeups or not. */
#ifndef RP_RUN_TO_PARITY
#define RP_RUN_TO_PARITY 1
#endif
/* sched_features.h's LAST_BUDDY, on in 2.6.35; -DRP_LAST_BUDDY=0 shows
 * what the buddy does to tbench's latency (doc/replay.md). */
#ifndef RP_LAST_BUDDY
#define RP_LAST_BUDDY	1
#endif
#if RP_LAST_BUDDY != 0 && RP_LAST_BUDDY != 1
#error "replay/model.h: RP_LAST_BUDDY must be 0 or 1"
#endif

/* the granularity at @nr runnable tasks */
static uint64_t rp_min_gran(const struct rp_policy *p, uint64_t nr)
{
	if (p->dyn_floor && nr > p->nr_latency) {
		uint64_t g = p->latency / nr;

		return g > p->dyn_floor ? g : p->dyn_floor;
	}
	return p->min_gran;
}

/* __sched_period */
static uint64_t rp_period(const struct rp_policy *p, uint64_t nr)
{
	if (nr <= p->nr_latency)
		return p->latency;
	if (p->dyn_floor) {
		uint64_t grown = p->dyn_floor * nr;

		return grown > p->latency ? grown : p->latency;
	}
	return p->min_gran * nr;
}

/* ---- the model's assumptions ------------------------------------------ */

enum { RP_IPC_SOCKET, RP_IPC_PIPE };

/*
 * Every invented figure of the model, in one place (doc/replay.md lists
 * them and shows what each moves).  CPU times are lmbench-era figures for
 * a 2 GHz x86 (a small pipe or socket write or read about 2 us, a context
 * switch about 2 us, a copy about 1 ns a byte), chosen before any run and
 * the same for every queue and policy.  sq-replay's options change them;
 * the tests keep these values.
 */
struct rp_assume {
	uint64_t msg_write, msg_read;	/* a small pipe or socket write, read */
	uint64_t ctxsw;			/* a context switch */
	uint64_t fork, reap;		/* hackbench's parent: fork(), wait() */
	uint64_t net_call, net_byte;	/* a loopback send or receive */
	uint64_t server_work;		/* tbench: the server's own work */
	int ipc;			/* hackbench: socketpair (2003) or pipe */
	uint32_t sock_buf;		/* sk_sndbuf: wmem_default, 2.4 and 2.6.0 */
	uint32_t skb_head;		/* sizeof(struct sk_buff), i386, 2.6.0 */
	uint32_t pipe_buf;		/* one page, 2.4 and 2.6.0 */
	double background;		/* tbench's daemons' bursts times this */
	double rq_scale;		/* the run queue's cost times this */
};
#define RP_ASSUME_DEFAULT { 2000, 2000, 2000, 100000, 2000, 5000, 1, 5000, \
			    RP_IPC_SOCKET, 65535, 180, 4096, 1.0, 1.0 }
static struct rp_assume rp_as = RP_ASSUME_DEFAULT;

/* What a message of @bytes charges its channel: a pipe its bytes; a
 * socket the skb's truesize, the data rounded to a 32-byte line plus the
 * sk_buff (alloc_skb). */
static uint32_t rp_msg_charge(int ipc, uint32_t bytes)
{
	return ipc == RP_IPC_PIPE ? bytes : ((bytes + 31u) & ~31u) +
					   rp_as.skb_head;
}

/*
 * The run queue's own cost in simulated time: ns of the modelled CPU per
 * operation (enqueue, dequeue, pop, first: RP_OP_*) at N runnable tasks,
 * given at N = 4^b and interpolated linearly in N between.  A table comes
 * from rp_calibrate (this machine's CPU time per operation of that kind,
 * scaled by its clock to the modelled 2 GHz) or is fixed (the tests').
 */
#define RP_NB 9			/* N = 1, 4, ..., 65536 */
#define RP_MODEL_MHZ 2000.0	/* the modelled CPU's clock */

struct rp_cost_table {
	double ns[4][RP_NB];
};

/* simulated ns of one operation @op at @n runnable tasks */
static double rp_op_ns(const struct rp_cost_table *c, unsigned op, double n)
{
	double lo = 1, hi = 4;
	unsigned b = 0;

	if (n <= 1)
		return c->ns[op][0];
	while (b + 2 < RP_NB && n > hi) {
		lo = hi;
		hi *= 4;
		b++;
	}
	return c->ns[op][b] + (c->ns[op][b + 1] - c->ns[op][b]) *
	       (n - lo) / (hi - lo);
}

/*
 * The tests' table, invented and fixed so that runs stay deterministic:
 * 100 ns an enqueue, dequeue or pop and 20 ns a first for every kind,
 * plus 1 ns a queued task for the O(n) list's first and pop.
 */
static void rp_cost_fixed(struct rp_cost_table *c, int scans)
{
	unsigned op, b;
	double n = 1;

	for (b = 0; b < RP_NB; b++, n *= 4)
		for (op = 0; op < 4; op++)
			c->ns[op][b] = (op == RP_OP_FIRST ? 20 : 100) +
				       (scans && (op == RP_OP_FIRST ||
						  op == RP_OP_POP) ? n : 0);
}

/* The table the next rp_hackbench / rp_tbench charge; NULL: none. */
static const struct rp_cost_table *rp_cost_next;

/* ---- tasks and the simulation ----------------------------------------- */

enum rp_role { RP_SENDER, RP_RECEIVER, RP_PARENT, RP_CLIENT, RP_SERVER,
	       RP_DAEMON, RP_HOG };

struct rp_task {
	uint64_t vruntime;
	uint64_t key;		/* its key in the run queue: vruntime (CFS)
				 * or deadline (EEVDF) */
	uint64_t deadline;	/* EEVDF: vruntime + slice at the request */
	int64_t vlag;		/* EEVDF: V - vruntime when it last slept */
	bool parity;		/* EEVDF: picked, deadline not yet renewed */
	uint64_t sum_exec, prev_sum_exec, exec_start;
	uint64_t remaining;	/* ns of CPU left in the current step */
	uint64_t enq_seq;	/* when it entered the run queue (checks) */
	uint64_t wake_at;	/* daemons: next wakeup */
	uint32_t a, b, c;	/* the role's counters */
	uint32_t wait_next;	/* next on the wait queue it sleeps on */
	uint8_t role;
	bool on_rq;		/* runnable, curr included */
	bool in_tree;		/* in the run queue (curr never is) */
	bool busy;		/* a step is under way */
	bool exited;
};

struct rp_sim;

struct rp_workload {
	/* curr needs a new step: start one (remaining, busy) or block/exit */
	void (*act)(struct rp_sim *s, uint32_t i);
	/* curr's step is done: its effects (wakeups) */
	void (*done)(struct rp_sim *s, uint32_t i);
	/* the next timed wakeup, UINT64_MAX if none; then fire it */
	uint64_t (*next_timer)(struct rp_sim *s);
	void (*fire)(struct rp_sim *s);
};

#define RP_LOG_CHUNK 65536u

struct rp_sim {
	const struct rp_kind *q;
	const struct rp_policy *pol;
	const struct rp_workload *wl;
	void *wdata;
	struct rp_task *t;
	uint32_t nt;

	uint64_t now, end;	/* end: stop at this simulated time */
	uint64_t start;		/* the measured part starts here */
	uint64_t min_vruntime, next_tick;
	uint32_t nr_running, live;
	uint32_t curr, last;	/* RP_NONE: idle / no buddy */
	bool need_resched;

	/* EEVDF: the runnable tasks' vruntimes (curr's too) summed as
	 * offsets from RP_VBASE, so V = RP_VBASE + vsum / nr_running; and
	 * the eligible pick's erb queue, a node per task (replay/elig.h) */
	int64_t vsum;
	struct sq_erb_node *el;
	struct sq_erb etree;
	uint64_t detours;	/* picks where the queue's first was not
				 * eligible and the tree was searched */

	/* the run queue's cost, charged into simulated time; NULL: none */
	const struct rp_cost_table *cost;
	double debt;		/* ns charged, not yet run */
	uint64_t rq_sim_ns;	/* all of it, run */

	/* results */
	uint64_t switches, picks, hash, enq_seq;
	uint64_t runnable_sum;	/* nr_running at each pick, summed */
	uint64_t first_exit;	/* when the first task finished */
	uint32_t jain_n;	/* Jain's index over tasks 0 .. jain_n - 1 */
	double jain_first_exit;

	/* timing: the log the shadow replays, and its CPU time */
	int timed;
	struct rp_op *log;
	size_t nlog;
	uint64_t rq_ns, rq_ops, shadow_bad;

	/* checking (tests): every queue's first against the truth */
	int check;
	uint64_t ring_time;	/* the largest key popped: the ring's time */
	uint64_t late_picks, strict_picks, other_picks;
	uint64_t elig_checked;	/* EEVDF picks compared with an O(n) scan */
	const char *check_err;
};

#include "elig.h"


static uint64_t rp_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void rp_flush(struct rp_sim *s)
{
	uint64_t t0, t1;

	if (!s->nlog)
		return;
	t0 = rp_cpu_ns();
	s->shadow_bad += s->q->shadow(s->log, s->nlog);
	t1 = rp_cpu_ns();
	s->rq_ns += t1 - t0;
	s->rq_ops += s->nlog;
	s->nlog = 0;
}

static void rp_log(struct rp_sim *s, unsigned op, uint32_t idx, uint64_t key)
{
	if (s->cost)
		s->debt += rp_op_ns(s->cost, op, (double)s->nr_running) *
			   rp_as.rq_scale;
	if (!s->timed)
		return;
	s->log[s->nlog].key = key;
	s->log[s->nlog].what = (uint32_t)op << RP_OP_SHIFT | idx;
	if (++s->nlog == RP_LOG_CHUNK)
		rp_flush(s);
}

/* splitmix64's finaliser: every input bit reaches every output bit. */
static uint64_t rp_fmix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* The decision trace: each pick folded into the hash so far. */
static uint64_t rp_mix(uint64_t h, uint64_t v)
{
	return rp_fmix(h ^ (v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2)));
}

/* ---- the run queue, as the scheduler uses it ------------------------- */

static void rq_enqueue(struct rp_sim *s, uint32_t i)
{
	struct rp_task *t = &s->t[i];

	t->in_tree = true;
	t->enq_seq = ++s->enq_seq;
	t->key = s->pol->base_slice ? t->deadline : t->vruntime;
	s->q->enqueue(i, t->key);
	rp_log(s, RP_OP_ENQ, i, t->key);
	if (s->pol->base_slice)
		rp_el_insert(s, i);
}

/* The truth the checks compare a queue's first with: the smallest key,
 * oldest among equals; and the oldest late task (key below the ring's
 * time), which the ring returns first instead. */
static void rp_truth(const struct rp_sim *s, uint32_t *min, uint32_t *late)
{
	uint32_t i;

	*min = *late = RP_NONE;
	for (i = 0; i < s->nt; i++) {
		const struct rp_task *t = &s->t[i];

		if (!t->in_tree)
			continue;
		if (*min == RP_NONE || t->key < s->t[*min].key ||
		    (t->key == s->t[*min].key &&
		     t->enq_seq < s->t[*min].enq_seq))
			*min = i;
		if (t->key < s->ring_time &&
		    (*late == RP_NONE || t->enq_seq < s->t[*late].enq_seq))
			*late = i;
	}
}

static uint32_t rq_first(struct rp_sim *s)
{
	uint32_t i = s->q->first();

	rp_log(s, RP_OP_FIRST, i, 0);
	if (s->check && !s->check_err) {
		uint32_t min, late;

		rp_truth(s, &min, &late);
		if (i == min)
			s->strict_picks++;
		else if (i != RP_NONE && i == late)
			s->late_picks++;
		else if (!s->q->exact && !s->q->smartq)
			s->other_picks++;	/* the priority arrays */
		else
			s->check_err = i == RP_NONE || min == RP_NONE
				? "first() disagrees with the queue's count"
				: "first() is neither the smallest key nor "
				  "the oldest late one";
		if (s->check >= 2 && s->q->check() != 0)
			s->check_err = "check() failed";
	}
	return i;
}

static void rq_remove(struct rp_sim *s, uint32_t i, bool is_first)
{
	struct rp_task *t = &s->t[i];

	t->in_tree = false;
	if (s->pol->base_slice)
		rp_el_remove(s, i);
	if (is_first) {
		uint32_t got = s->q->pop();

		rp_log(s, RP_OP_POP, got, 0);
		if (got != i && !s->check_err)
			s->check_err = "pop() did not return first()";
		if (t->key > s->ring_time)
			s->ring_time = t->key;
	} else {
		s->q->dequeue(i);
		rp_log(s, RP_OP_DEQ, i, 0);
	}
}

/* ---- sched_fair.c ----------------------------------------------------- */

static uint64_t rp_max_vr(uint64_t a, uint64_t b)
{
	return (int64_t)(b - a) > 0 ? b : a;
}

static void rp_update_min_vruntime(struct rp_sim *s)
{
	uint64_t vr = s->min_vruntime;
	uint32_t left = s->q->count() ? rq_first(s) : RP_NONE;

	if (s->curr != RP_NONE)
		vr = s->t[s->curr].vruntime;
	if (left != RP_NONE) {
		uint64_t lv = s->t[left].vruntime;

		if (s->curr == RP_NONE || (int64_t)(lv - vr) < 0)
			vr = lv;
	}
	s->min_vruntime = rp_max_vr(s->min_vruntime, vr);
}

static void rp_update_curr(struct rp_sim *s)
{
	struct rp_task *c;
	uint64_t delta;

	if (s->curr == RP_NONE)
		return;
	c = &s->t[s->curr];
	delta = s->now - c->exec_start;
	if (!delta)
		return;
	c->sum_exec += delta;
	c->vruntime += delta;	/* nice 0: NICE_0_LOAD / weight == 1 */
	c->exec_start = s->now;
	if (!s->pol->base_slice) {
		rp_update_min_vruntime(s);
		return;
	}
	s->vsum += (int64_t)delta;
	/* update_deadline: the request is served, make the next one */
	if ((int64_t)(c->vruntime - c->deadline) >= 0) {
		c->deadline = c->vruntime + s->pol->base_slice;
		c->parity = false;
		if (s->nr_running > 1)
			s->need_resched = true;
	}
}

/* pick_eevdf with curr in the running (check_preempt_wakeup's view) */
static uint32_t rp_pick_eevdf_curr(const struct rp_sim *s)
{
	uint32_t c = s->curr, best;

	if (c != RP_NONE && (!s->t[c].on_rq || !rp_eligible(s, c)))
		c = RP_NONE;
	if (RP_RUN_TO_PARITY && c != RP_NONE && s->t[c].parity)
		return c;
	best = rp_el_pick(s);
	if (best == RP_NONE || (c != RP_NONE &&
	    (int64_t)(s->t[best].deadline - s->t[c].deadline) > 0))
		best = c;
	return best;
}

/*
 * place_entity of 6.6 (PLACE_LAG): at V less the lag it slept with,
 * inflated by (n + 1) / n so that adding it moves V by no more than its
 * lag; the deadline a slice later.  A new task comes here with vlag 0
 * (__sched_fork) and gets a whole slice: 6.6's task_fork_fair placed it
 * with half a slice (PLACE_DEADLINE_INITIAL), but wake_up_new_task's
 * enqueue_entity places it again without ENQUEUE_INITIAL, and that
 * placement is the one that stands.
 */
static void rp_place_eevdf(struct rp_sim *s, uint32_t i)
{
	struct rp_task *t = &s->t[i];
	int64_t lag = 0;

	if (s->nr_running) {
		int64_t load = (int64_t)s->nr_running;

		lag = t->vlag * (load + 1) / load;
	}
	t->vruntime = rp_avg_vruntime(s) - (uint64_t)lag;
	t->deadline = t->vruntime + s->pol->base_slice;
	s->vsum += (int64_t)(t->vruntime - RP_VBASE);
}

/*
 * task_fork_fair and place_entity(initial) of 2.6.35: the child starts at
 * its parent's vruntime, or later at min_vruntime plus the slice it would
 * have in a queue grown by one (START_DEBIT), so that it takes no slot of
 * the period already promised to the others (child_runs_first is 0).
 */
static void rp_place_fork(struct rp_sim *s, uint32_t i)
{
	struct rp_task *t = &s->t[i];
	uint64_t nr = (uint64_t)s->nr_running + 1;

	if (s->curr != RP_NONE)
		t->vruntime = s->t[s->curr].vruntime;
	t->vruntime = rp_max_vr(t->vruntime, s->min_vruntime +
					     rp_period(s->pol, nr) / nr);
}

/* wakeup_preempt_entity: 1 if @se should preempt @cur, 0 within the
 * granularity, -1 if @se is not behind at all. */
static int rp_wakeup_preempt(const struct rp_sim *s, uint32_t cur, uint32_t se)
{
	int64_t vdiff = (int64_t)(s->t[cur].vruntime - s->t[se].vruntime);

	if (vdiff <= 0)
		return -1;
	return vdiff > (int64_t)s->pol->wakeup_gran ? 1 : 0;
}

/* try_to_wake_up (or wake_up_new_task if @initial): enqueue_entity,
 * check_preempt_wakeup */
static void rp_enqueue_task(struct rp_sim *s, uint32_t i, bool initial)
{
	struct rp_task *t = &s->t[i];
	uint64_t thresh = s->pol->latency / 2;	/* GENTLE_FAIR_SLEEPERS */

	if (t->on_rq || t->exited)
		return;
	rp_update_curr(s);
	if (s->pol->base_slice) {
		if (initial)
			t->vlag = 0;
		rp_place_eevdf(s, i);
	} else if (initial) {
		rp_place_fork(s, i);
	} else {
		t->vruntime = rp_max_vr(t->vruntime,
					s->min_vruntime - thresh);
	}
	t->on_rq = true;
	s->nr_running++;
	rq_enqueue(s, i);
	if (s->curr == RP_NONE) {
		s->need_resched = true;
		return;
	}
	if (s->need_resched)
		return;
	rp_update_curr(s);
	if (s->pol->base_slice) {
		if (rp_pick_eevdf_curr(s) == i)
			s->need_resched = true;
		return;
	}
	if (rp_wakeup_preempt(s, s->curr, i) == 1) {
		s->need_resched = true;
		if (RP_LAST_BUDDY && s->nr_running >= s->pol->nr_latency)
			s->last = s->curr;
	}
}

static void rp_wake(struct rp_sim *s, uint32_t i)
{
	rp_enqueue_task(s, i, false);
}

/* a task at its start, which the workloads fork */
static void rp_fork(struct rp_sim *s, uint32_t i)
{
	rp_enqueue_task(s, i, true);
}

/* dequeue_entity(DEQUEUE_SLEEP) of curr: it blocks or exits */
static void rp_block(struct rp_sim *s, bool exiting)
{
	struct rp_task *c = &s->t[s->curr];

	rp_update_curr(s);
	if (s->last == s->curr)
		s->last = RP_NONE;
	if (s->pol->base_slice) {
		/* update_entity_lag: V - v, within max(2 slices, a tick) */
		int64_t lim = (int64_t)(2 * s->pol->base_slice);
		int64_t lag = (int64_t)(rp_avg_vruntime(s) - c->vruntime);

		if (lim < (int64_t)RP_TICK_NS)
			lim = (int64_t)RP_TICK_NS;
		c->vlag = lag > lim ? lim : lag < -lim ? -lim : lag;
		s->vsum -= (int64_t)(c->vruntime - RP_VBASE);
	}
	c->on_rq = false;
	c->busy = false;
	s->nr_running--;
	if (!s->pol->base_slice)
		rp_update_min_vruntime(s);
	else if (!s->nr_running)
		s->min_vruntime = rp_max_vr(s->min_vruntime, c->vruntime);
	if (exiting) {
		c->exited = true;
		s->live--;
	}
	s->need_resched = true;
}

/* Jain's index over the tasks' CPU time: 1 when equal, 1/n at worst. */
static double rp_jain(const struct rp_sim *s)
{
	double sum = 0, sq = 0;
	uint32_t i;

	for (i = 0; i < s->jain_n; i++) {
		double x = (double)s->t[i].sum_exec;

		sum += x;
		sq += x * x;
	}
	return sq > 0 ? sum * sum / ((double)s->jain_n * sq) : 1.0;
}

static void rp_exit(struct rp_sim *s)
{
	if (!s->first_exit) {
		rp_update_curr(s);
		s->first_exit = s->now;
		s->jain_first_exit = rp_jain(s);
	}
	rp_block(s, true);
}

/*
 * pick_eevdf at schedule(), curr put back: the queue's first (the
 * earliest deadline) if eligible, as 6.8's fast path; else the tree's
 * descent.  With --check, held to an O(n) scan.
 */
static uint32_t rp_pick_eevdf(struct rp_sim *s, uint32_t left)
{
	uint32_t se = left;
	bool any;

	if (!rp_eligible(s, left)) {
		s->detours++;
		se = rp_el_pick(s);
		if (se == RP_NONE)	/* cannot be: the lowest v is */
			se = left;
	}
	if (s->check && !s->check_err) {
		uint32_t truth = rp_el_scan(s, &any);

		s->elig_checked++;
		if (any && !rp_eligible(s, se))
			s->check_err = "EEVDF picked an ineligible task";
		else if (!any)
			s->check_err = "no runnable task is eligible";
		else if ((s->q->exact || se != left) && se != truth)
			s->check_err = "EEVDF's pick is not the earliest "
				       "eligible deadline";
	}
	return se;
}

/* schedule(): put_prev_entity, pick_next_entity, set_next_entity */
static void rp_schedule(struct rp_sim *s)
{
	uint32_t prev = s->curr, left, se;
	struct rp_task *n;

	s->need_resched = false;
	if (prev != RP_NONE) {
		if (s->t[prev].on_rq) {
			rp_update_curr(s);
			rq_enqueue(s, prev);
		}
		s->curr = RP_NONE;
	}
	s->need_resched = false;	/* put_prev's update_deadline too */
	if (!s->nr_running)
		return;
	left = se = rq_first(s);
	if (se == RP_NONE) {
		if (!s->check_err)
			s->check_err = "tasks are runnable but the queue is empty";
		return;
	}
	if (s->pol->base_slice)
		se = rp_pick_eevdf(s, left);
	else if (s->last != RP_NONE && s->t[s->last].in_tree &&
	    rp_wakeup_preempt(s, s->last, left) < 1)
		se = s->last;
	if (s->last == se)
		s->last = RP_NONE;
	rq_remove(s, se, se == left);
	n = &s->t[se];
	s->curr = se;
	n->exec_start = s->now;
	n->prev_sum_exec = n->sum_exec;
	n->parity = true;	/* set_next_entity's vlag = deadline */
	s->picks++;
	s->runnable_sum += s->nr_running;
	s->hash = rp_mix(s->hash, se);
	if (se != prev) {
		s->switches++;
		n->remaining += rp_as.ctxsw;
	}
}

/* entity_tick -> check_preempt_tick */
static void rp_tick(struct rp_sim *s)
{
	struct rp_task *c;
	uint64_t ideal, ran;
	uint32_t left;

	if (s->curr == RP_NONE)
		return;
	rp_update_curr(s);	/* EEVDF: update_deadline is the check */
	if (s->nr_running <= 1 || s->pol->base_slice)
		return;
	c = &s->t[s->curr];
	ideal = rp_period(s->pol, s->nr_running) / s->nr_running;
	ran = c->sum_exec - c->prev_sum_exec;
	if (ran > ideal) {
		s->need_resched = true;
		if (s->last == s->curr)
			s->last = RP_NONE;
		return;
	}
	if (ran < rp_min_gran(s->pol, s->nr_running))
		return;
	left = rq_first(s);
	if (left != RP_NONE &&
	    (int64_t)(c->vruntime - s->t[left].vruntime) > (int64_t)ideal)
		s->need_resched = true;
}

/* ---- the event loop -------------------------------------------------- */

static void rp_sim_init(struct rp_sim *s, const struct rp_kind *q,
			const struct rp_policy *pol,
			const struct rp_workload *wl, void *wdata, uint32_t nt,
			int timed, int check)
{
	uint32_t i;

	memset(s, 0, sizeof(*s));
	s->q = q;
	s->pol = pol;
	s->wl = wl;
	s->wdata = wdata;
	s->nt = nt;
	s->t = (struct rp_task *)rp_xcalloc(nt, sizeof(*s->t));
	s->curr = s->last = RP_NONE;
	s->min_vruntime = RP_VBASE;
	s->next_tick = RP_TICK_NS;
	s->end = UINT64_MAX;
	s->live = nt;
	s->jain_n = nt;
	s->cost = rp_cost_next;
	s->timed = timed;
	s->check = check;
	if (timed)
		s->log = (struct rp_op *)rp_xcalloc(RP_LOG_CHUNK,
						    sizeof(*s->log));
	s->el = (struct sq_erb_node *)rp_xcalloc(nt, sizeof(*s->el));
	sq_erb_init(&s->etree);
	for (i = 0; i < nt; i++) {
		s->t[i].vruntime = RP_VBASE;
		s->t[i].wait_next = RP_NONE;
		sq_erb_node_init(&s->el[i]);
	}
	q->init(nt);
}

static void rp_sim_fini(struct rp_sim *s)
{
	rp_flush(s);
	if (s->check && !s->check_err && s->q->check() != 0)
		s->check_err = "check() failed at the end";
	s->q->fini();
	free(s->t);
	free(s->el);
	free(s->log);
	s->t = NULL;
	s->log = NULL;
}

/* Run until every task has exited, or s->end.  0, or -1 if stuck. */
static int rp_run(struct rp_sim *s)
{
	while (s->live && s->now < s->end && !s->check_err) {
		uint64_t stop, timer = s->wl->next_timer(s);
		struct rp_task *c;

		if (s->need_resched || s->curr == RP_NONE)
			rp_schedule(s);
		if (s->curr == RP_NONE) {	/* idle until a timer */
			if (timer == UINT64_MAX)
				return -1;
			s->now = timer < s->end ? timer : s->end;
			s->next_tick = (s->now / RP_TICK_NS + 1) * RP_TICK_NS;
			if (timer <= s->now)
				s->wl->fire(s);
			continue;
		}
		c = &s->t[s->curr];
		if (!c->remaining && !c->busy) {
			s->wl->act(s, s->curr);	/* starts a step or blocks */
			continue;
		}
		if (s->debt >= 1) {	/* the run queue's work, on curr */
			uint64_t d = (uint64_t)s->debt;

			c->remaining += d;
			s->rq_sim_ns += d;
			s->debt -= (double)d;
		}
		stop = s->now + c->remaining;
		if (s->next_tick < stop)
			stop = s->next_tick;
		if (timer < stop)
			stop = timer;
		if (s->end < stop)
			stop = s->end;
		c->remaining -= stop - s->now;
		s->now = stop;
		if (!c->remaining && c->busy) {
			rp_update_curr(s);
			c->busy = false;
			s->wl->done(s, s->curr);
		}
		if (s->now == s->next_tick) {
			rp_tick(s);
			s->next_tick += RP_TICK_NS;
		}
		if (s->now == timer)
			s->wl->fire(s);
	}
	rp_update_curr(s);
	return 0;
}

struct rp_result {
	uint64_t sim_ns;	/* simulated completion time / duration */
	uint64_t start_ns;	/* hackbench: its untimed start (the forks) */
	uint64_t rq_ns;		/* measured CPU time of the run queue */
	uint64_t rq_ops, switches, picks, hash;
	double jain;
	double runnable;	/* mean runnable tasks at a pick */
	/* tbench */
	double mbps, max_latency_ms;
	uint64_t ops;
	/* checks */
	uint64_t strict_picks, late_picks, other_picks;
	uint64_t detours, elig_checked;	/* EEVDF */
	uint64_t rq_sim_ns;	/* simulated ns charged for the run queue */
	const char *err;
};

/* Run @s to its end, replay what is left on the shadow, fill in @r. */
static void rp_run_to_result(struct rp_result *r, struct rp_sim *s,
			     const char *stuck)
{
	if (rp_run(s) != 0 && !s->check_err)
		s->check_err = stuck;
	rp_flush(s);
	r->sim_ns = s->now - s->start;
	r->start_ns = s->start;
	r->rq_ns = s->rq_ns;
	r->rq_ops = s->rq_ops;
	r->switches = s->switches;
	r->picks = s->picks;
	r->runnable = s->picks ? (double)s->runnable_sum / (double)s->picks
			       : 0;
	r->hash = s->hash;
	r->strict_picks = s->strict_picks;
	r->late_picks = s->late_picks;
	r->other_picks = s->other_picks;
	r->detours = s->detours;
	r->rq_sim_ns = s->rq_sim_ns;
	r->elig_checked = s->elig_checked;
	r->err = s->check_err;
	if (!r->err && s->shadow_bad)
		r->err = "the timed shadow queue disagreed with the model";
}

/* The figures count from now on (the start of hackbench's clock); the
 * decision trace covers the whole run. */
static void rp_measure_from_now(struct rp_sim *s)
{
	rp_flush(s);
	s->start = s->now;
	s->switches = s->picks = s->runnable_sum = 0;
	s->detours = s->elig_checked = 0;
	s->rq_ns = s->rq_ops = 0;
	s->rq_sim_ns = 0;
}

/* ---- hackbench ------------------------------------------------------- */

/*
 * Rusty Russell's hackbench as OSDL ran it in 2003 (the version of its
 * December 2001 mail): groups of 20 receivers, each reading its own
 * socketpair(AF_UNIX, SOCK_STREAM), and 20 senders, each writing 100
 * messages of 100 bytes to every receiver of its group (message j of loop
 * i to receiver j); `-pipe` uses pipes instead (--ipc pipe).
 *
 * The parent forks each group's receivers, then its senders (fork
 * placement: START_DEBIT under CFS); each child writes a byte to the
 * "ready" channel and sleeps in poll() on the "wake" one; the parent reads
 * every ready byte, starts its clock, writes the wake byte, which wakes
 * every child, and reaps them in wait().  Its clock stops at the last
 * reap: that is the completion time.
 *
 * A channel charges each message against a limit.  A pipe: its bytes,
 * against one page; a write of at most PIPE_BUF waits for room for all of
 * it, and every read wakes the waiting writers.  A socket: the skb's
 * truesize against the writer's sk_sndbuf (sock_alloc_send_skb allocates
 * while wmem_alloc < sndbuf); a read frees its skb, and unix_write_space
 * wakes the writers only once wmem_alloc is down to a quarter of sndbuf.
 * A write wakes the waiting reader.  Wait queues are woken newest first
 * (prepare_to_wait and poll add at the head), every waiter at once.
 */
#define RP_HB_FDS	20
#define RP_HB_MSG	100

struct rp_chan {
	uint32_t used;		/* bytes charged, writes under way too */
	uint32_t room;		/* a write may start while used < room */
	uint32_t wake_at;	/* a read wakes the writers if used <= this */
	uint32_t charge;	/* what one message charges */
	uint32_t avail;		/* messages written, not yet read */
	uint32_t reader;	/* the reader if it waits, else RP_NONE */
	uint32_t writers;	/* waiting writers: a stack through wait_next */
};

struct rp_hackbench {
	uint32_t loops, children, parent;
	struct rp_chan *chan;	/* group g's receiver r at g * 20 + r */
	struct rp_chan ready;	/* the children's ready bytes to the parent */
	uint32_t pollers;	/* children waiting for the wake byte: a stack */
	uint32_t zombies;	/* exited, not yet reaped */
	bool go;		/* the wake byte is written */
};

static void rp_chan_init(struct rp_chan *c, uint32_t msg_bytes)
{
	memset(c, 0, sizeof(*c));
	c->charge = rp_msg_charge(rp_as.ipc, msg_bytes);
	if (rp_as.ipc == RP_IPC_PIPE) {
		c->room = rp_as.pipe_buf - msg_bytes + 1;
		c->wake_at = UINT32_MAX;
	} else {
		c->room = rp_as.sock_buf;
		c->wake_at = rp_as.sock_buf / 4;
	}
	c->reader = c->writers = RP_NONE;
}

/* Task @i waits on the stack @head (wait queues add at the head). */
static void rp_wait_on(struct rp_sim *s, uint32_t *head, uint32_t i)
{
	s->t[i].wait_next = *head;
	*head = i;
	rp_block(s, false);
}

/* Wake every task on the stack @head, newest first. */
static void rp_wake_all(struct rp_sim *s, uint32_t *head)
{
	uint32_t w = *head;

	*head = RP_NONE;
	while (w != RP_NONE) {
		uint32_t next = s->t[w].wait_next;

		s->t[w].wait_next = RP_NONE;
		rp_wake(s, w);
		w = next;
	}
}

/* curr (@i) starts a write of one message, or waits for room: 0 then */
static int rp_chan_write(struct rp_sim *s, struct rp_chan *c, uint32_t i)
{
	if (c->used >= c->room) {
		rp_wait_on(s, &c->writers, i);
		return 0;
	}
	c->used += c->charge;
	s->t[i].remaining = rp_as.msg_write;
	s->t[i].busy = true;
	return 1;
}

static void rp_chan_written(struct rp_sim *s, struct rp_chan *c)
{
	c->avail++;
	if (c->reader != RP_NONE) {
		uint32_t r = c->reader;

		c->reader = RP_NONE;
		rp_wake(s, r);
	}
}

/* curr (@i) starts a read of one message, or waits for one: 0 then */
static int rp_chan_read(struct rp_sim *s, struct rp_chan *c, uint32_t i)
{
	if (!c->avail) {
		c->reader = i;
		rp_block(s, false);
		return 0;
	}
	c->avail--;
	s->t[i].remaining = rp_as.msg_read;
	s->t[i].busy = true;
	return 1;
}

static void rp_chan_consumed(struct rp_sim *s, struct rp_chan *c)
{
	c->used -= c->charge;
	if (c->used <= c->wake_at)
		rp_wake_all(s, &c->writers);
}

/*
 * Task i < children is in group i / 40: 0..19 its receivers, 20..39 its
 * senders; the parent is the last task.  The channel a child works on
 * now: a receiver's own, or the one of the receiver a sender writes to
 * next (t->b).  A child's t->c: 0 before its ready byte, 1 waiting for
 * the wake byte, 2 at work.  The parent's a, b, c: children forked,
 * ready bytes read, children reaped.
 */
static struct rp_chan *rp_hb_chan(struct rp_sim *s, uint32_t i)
{
	struct rp_hackbench *hb = (struct rp_hackbench *)s->wdata;
	uint32_t g = i / (2 * RP_HB_FDS), r = i % (2 * RP_HB_FDS);

	if (s->t[i].role == RP_SENDER)
		r = s->t[i].b;
	return &hb->chan[g * RP_HB_FDS + r];
}

static void rp_hb_parent_act(struct rp_sim *s, struct rp_hackbench *hb,
			     struct rp_task *t, uint32_t i)
{
	if (t->a < hb->children) {
		t->remaining = rp_as.fork;
		t->busy = true;
	} else if (t->b < hb->children) {
		rp_chan_read(s, &hb->ready, i);
	} else if (!hb->go) {
		t->remaining = rp_as.msg_write;
		t->busy = true;
	} else if (t->c < hb->children) {
		if (!hb->zombies) {
			rp_block(s, false);	/* woken by an exit */
			return;
		}
		hb->zombies--;
		t->remaining = rp_as.reap;
		t->busy = true;
	} else {
		rp_exit(s);
	}
}

static void rp_hb_act(struct rp_sim *s, uint32_t i)
{
	struct rp_hackbench *hb = (struct rp_hackbench *)s->wdata;
	struct rp_task *t = &s->t[i];

	if (i == hb->parent) {
		rp_hb_parent_act(s, hb, t, i);
		return;
	}
	if (t->c == 0) {
		rp_chan_write(s, &hb->ready, i);
		return;
	}
	if (t->c == 1) {
		if (!hb->go) {
			rp_wait_on(s, &hb->pollers, i);
			return;
		}
		t->c = 2;
	}
	if (t->role == RP_SENDER ? t->a == hb->loops
				 : t->a == hb->loops * RP_HB_FDS) {
		hb->zombies++;
		rp_wake(s, hb->parent);
		rp_exit(s);
		return;
	}
	if (t->role == RP_SENDER)
		rp_chan_write(s, rp_hb_chan(s, i), i);
	else
		rp_chan_read(s, rp_hb_chan(s, i), i);
}

static void rp_hb_done(struct rp_sim *s, uint32_t i)
{
	struct rp_hackbench *hb = (struct rp_hackbench *)s->wdata;
	struct rp_task *t = &s->t[i];

	if (i == hb->parent) {
		if (t->a < hb->children) {
			rp_fork(s, t->a++);
		} else if (t->b < hb->children) {
			rp_chan_consumed(s, &hb->ready);
			t->b++;
		} else if (!hb->go) {	/* hackbench's clock starts */
			hb->go = true;
			rp_measure_from_now(s);
			rp_wake_all(s, &hb->pollers);
		} else {
			t->c++;
		}
		return;
	}
	if (t->c == 0) {
		rp_chan_written(s, &hb->ready);
		t->c = 1;
	} else if (t->role == RP_SENDER) {
		rp_chan_written(s, rp_hb_chan(s, i));
		if (++t->b == RP_HB_FDS) {
			t->b = 0;
			t->a++;
		}
	} else {
		rp_chan_consumed(s, rp_hb_chan(s, i));
		t->a++;
	}
}

static uint64_t rp_no_timer(struct rp_sim *s)
{
	(void)s;
	return UINT64_MAX;
}

static void rp_no_fire(struct rp_sim *s)
{
	(void)s;
}

static const struct rp_workload rp_hackbench_wl = {
	rp_hb_act, rp_hb_done, rp_no_timer, rp_no_fire,
};

static void rp_hackbench(struct rp_result *r, const struct rp_kind *q,
			 const struct rp_policy *pol, uint32_t groups,
			 uint32_t loops, int timed, int check)
{
	struct rp_hackbench hb;
	struct rp_sim s;
	uint32_t i, nc = groups * 2 * RP_HB_FDS;

	memset(r, 0, sizeof(*r));
	memset(&hb, 0, sizeof(hb));
	hb.loops = loops;
	hb.children = nc;
	hb.parent = nc;
	hb.pollers = RP_NONE;
	hb.chan = (struct rp_chan *)rp_xcalloc(groups * RP_HB_FDS,
					       sizeof(*hb.chan));
	for (i = 0; i < groups * RP_HB_FDS; i++)
		rp_chan_init(&hb.chan[i], RP_HB_MSG);
	rp_chan_init(&hb.ready, 1);
	rp_sim_init(&s, q, pol, &rp_hackbench_wl, &hb, nc + 1, timed, check);
	s.jain_n = nc;		/* the children's fairness, not the parent's */
	for (i = 0; i < nc; i++)
		s.t[i].role = i % (2 * RP_HB_FDS) < RP_HB_FDS ? RP_RECEIVER
							       : RP_SENDER;
	s.t[nc].role = RP_PARENT;
	rp_fork(&s, nc);
	rp_run_to_result(r, &s, "hackbench deadlocked");
	r->jain = s.jain_first_exit;
	rp_sim_fini(&s);
	if (!r->err)
		r->err = s.check_err;
	free(hb.chan);
}

/* ---- tbench ---------------------------------------------------------- */

/*
 * tbench with one client: the client sends a request over loopback TCP
 * and blocks for the reply; the server receives it, does its work, sends
 * the reply and blocks for the next.  Each operation moves RP_TB_BYTES
 * (a page of file data each way) and its latency is from the request's
 * send to the reply's receipt, as dbench's max_latency is.  Beside them,
 * an assumed background: the daemons of an idle UP system wake
 * periodically and burn a little CPU.  The periods are the kernel's
 * (vmstat_update: 1 s; the clocksource watchdog: 0.5 s; pdflush's
 * writeback and ext3's journal commit: 5 s), plus a user daemon once a
 * second; the bursts are invented, scaled by rp_as.background (0: no
 * daemons); phases and a 10% jitter come from the seed.  Optional
 * CPU-bound hogs (never in the seed's idle system) show where the
 * policies part: only above nr_latency runnable tasks.
 */
#define RP_TB_BYTES 4096u

static const struct {
	uint64_t period, burst;
} rp_daemons[] = {	/* periods the kernel's, bursts invented */
	{ 1000000000u, 50000u },	/* vmstat_update */
	{ 500000000u, 20000u },		/* clocksource watchdog */
	{ 5000000000u, 3000000u },	/* pdflush writeback */
	{ 5000000000u, 2000000u },	/* kjournald commit */
	{ 1000000000u, 1000000u },	/* a user daemon (cron, syslog) */
};
#define RP_NDAEMONS (sizeof(rp_daemons) / sizeof(rp_daemons[0]))
#define RP_TB_CLIENT 0u
#define RP_TB_SERVER 1u
#define RP_TB_DAEMON 2u		/* the first daemon; the hogs follow them */
#define RP_HOG_STEP  1000000000u	/* a hog's steps: 1 s of CPU each */

struct rp_tbench {
	uint64_t rng;
	uint64_t op_start, bytes, ops, max_latency;
	bool request, reply;	/* a message waits for the server / client */
};

static uint64_t rp_rand(uint64_t *state)	/* splitmix64 */
{
	return rp_fmix(*state += 0x9e3779b97f4a7c15u);
}

/* a daemon's next wakeup: its period, +-10% */
static uint64_t rp_tb_next(struct rp_tbench *tb, uint64_t now, uint64_t period)
{
	uint64_t jitter = period / 5;

	return now + period - period / 10 + rp_rand(&tb->rng) % (jitter + 1);
}

static void rp_tb_act(struct rp_sim *s, uint32_t i)
{
	struct rp_tbench *tb = (struct rp_tbench *)s->wdata;
	struct rp_task *t = &s->t[i];

	switch (t->role) {
	case RP_CLIENT:		/* a: 0 send the request, 1 await the reply */
		if (t->a == 0) {
			tb->op_start = s->now;
			t->remaining = rp_as.net_call;
		} else if (tb->reply) {
			tb->reply = false;
			t->remaining = rp_as.net_call +
				       rp_as.net_byte * RP_TB_BYTES;
		} else {
			rp_block(s, false);
			return;
		}
		break;
	case RP_SERVER:
		if (!tb->request) {
			rp_block(s, false);
			return;
		}
		tb->request = false;
		t->remaining = 2 * rp_as.net_call + rp_as.server_work +
			       rp_as.net_byte * RP_TB_BYTES;
		break;
	case RP_HOG:
		t->remaining = RP_HOG_STEP;
		break;
	default:		/* a daemon woken by its timer */
		t->remaining = (uint64_t)((double)rp_daemons[i - RP_TB_DAEMON]
					  .burst * rp_as.background);
		if (!t->remaining)
			t->remaining = 1;
		break;
	}
	t->busy = true;
}

static void rp_tb_done(struct rp_sim *s, uint32_t i)
{
	struct rp_tbench *tb = (struct rp_tbench *)s->wdata;
	struct rp_task *t = &s->t[i];

	switch (t->role) {
	case RP_CLIENT:
		if (t->a == 0) {
			tb->request = true;
			t->a = 1;
			rp_wake(s, RP_TB_SERVER);
		} else {
			uint64_t lat = s->now - tb->op_start;

			if (lat > tb->max_latency)
				tb->max_latency = lat;
			tb->bytes += 2 * RP_TB_BYTES;
			tb->ops++;
			t->a = 0;
		}
		break;
	case RP_SERVER:
		tb->reply = true;
		rp_wake(s, RP_TB_CLIENT);
		break;
	case RP_HOG:
		break;
	default:
		t->wake_at = rp_tb_next(tb, s->now,
					rp_daemons[i - RP_TB_DAEMON].period);
		rp_block(s, false);
		break;
	}
}

static uint64_t rp_tb_timer(struct rp_sim *s)
{
	uint64_t next = UINT64_MAX;
	uint32_t i;

	for (i = RP_TB_DAEMON; i < RP_TB_DAEMON + RP_NDAEMONS; i++)
		if (!s->t[i].on_rq && s->t[i].wake_at < next)
			next = s->t[i].wake_at;
	return next;
}

static void rp_tb_fire(struct rp_sim *s)
{
	uint32_t i;

	for (i = RP_TB_DAEMON; i < RP_TB_DAEMON + RP_NDAEMONS; i++)
		if (!s->t[i].on_rq && s->t[i].wake_at <= s->now)
			rp_wake(s, i);
}

static const struct rp_workload rp_tbench_wl = {
	rp_tb_act, rp_tb_done, rp_tb_timer, rp_tb_fire,
};

static void rp_tbench(struct rp_result *r, const struct rp_kind *q,
		      const struct rp_policy *pol, uint64_t duration_ns,
		      uint32_t hogs, uint64_t seed, int timed, int check)
{
	struct rp_tbench tb;
	struct rp_sim s;
	uint32_t i, nd = RP_TB_DAEMON + (uint32_t)RP_NDAEMONS, nt = nd + hogs;

	memset(r, 0, sizeof(*r));
	memset(&tb, 0, sizeof(tb));
	tb.rng = seed;
	rp_sim_init(&s, q, pol, &rp_tbench_wl, &tb, nt, timed, check);
	s.end = duration_ns;
	s.t[RP_TB_CLIENT].role = RP_CLIENT;
	s.t[RP_TB_SERVER].role = RP_SERVER;
	for (i = RP_TB_DAEMON; i < nd; i++) {
		s.t[i].role = RP_DAEMON;
		/* the first wakeup somewhere in the first period */
		s.t[i].wake_at = 1 + rp_rand(&tb.rng) %
				     rp_daemons[i - RP_TB_DAEMON].period;
		if (!(rp_as.background > 0))
			s.t[i].wake_at = UINT64_MAX;	/* no background */
	}
	for (i = nd; i < nt; i++)
		s.t[i].role = RP_HOG;
	rp_fork(&s, RP_TB_CLIENT);
	rp_fork(&s, RP_TB_SERVER);
	for (i = nd; i < nt; i++)
		rp_fork(&s, i);
	rp_run_to_result(r, &s, "tbench stalled");
	r->ops = tb.ops;
	r->mbps = s.now ? (double)tb.bytes / 1e6 / ((double)s.now / 1e9) : 0;
	r->max_latency_ms = (double)tb.max_latency / 1e6;
	{	/* the pair's CPU time against each other */
		double x = (double)s.t[RP_TB_CLIENT].sum_exec;
		double y = (double)s.t[RP_TB_SERVER].sum_exec;

		r->jain = x + y > 0 ? (x + y) * (x + y) / (2 * (x * x + y * y))
				    : 1.0;
	}
	rp_sim_fini(&s);
	if (!r->err)
		r->err = s.check_err;
}

#endif /* RP_MODEL_H */
