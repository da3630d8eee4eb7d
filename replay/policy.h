/* SPDX-License-Identifier: MIT */
/*
 * replay/policy.h - the schedulers of the seeds, on smartq's queues
 *
 *   linux-2.4    goodness(): every pick scans every runnable task
 *   linux-2.6.0  the O(1) scheduler: two arrays of 140 FIFO queues
 *                and a bitmap of the non-empty ones
 *   cfs-2.6.35   CFS: vruntime, the period, wakeup preemption, the last
 *                buddy; and its two 2010 variants, cfs-dynamic and
 *                cfs-smaller
 *   eevdf-6.6    EEVDF: lag, eligibility against the average vruntime,
 *                virtual deadlines, the eligible pick on erb
 *
 * Each is the kernel's functions of that name on one CPU for tasks of nice
 * 0 (doc/replay.md lists which, and what is left out).  The queues are
 * any kind of SQ_KINDS through struct rp_rqops, except EEVDF's erb.
 */
#ifndef RP_POLICY_H
#define RP_POLICY_H

#include "sched.h"

#define RP_MS 1000000u
#define RP_US 1000u

static void *rp__newq(const struct rp_sched *s)
{
	void *q = rp_xcalloc(1, s->rq->size);

	s->rq->init(q);
	return q;
}

/* ================= linux-2.4: kernel/sched.c, goodness() =============== */

/* NICE_TO_TICKS(0) at HZ 100: (20 >> 2) + 1 ticks of 10 ms */
#define RP24_TICKS 6

static void rp24_init(struct rp_sched *s)
{
	s->rq_main = rp__newq(s);
}

static void rp24_fini(struct rp_sched *s)
{
	if (!s->id)			/* on SMP the queue is CPU 0's */
		free(s->rq_main);
	s->rq_main = NULL;
}

/* PROC_CHANGE_PENALTY: the SMP bonus for the CPU a task last ran on */
#define RP24_PROC_CHANGE_PENALTY 15

/* goodness(p, this_cpu, this_mm) on CPU @c with @mm's memory map loaded:
 * 0 when the counter is used up; else the counter, 20 - nice, on SMP
 * PROC_CHANGE_PENALTY on p's last CPU, and 1 for the map's owner */
static int rp24_goodness_on(const struct rp_sched *c, const struct rp_task *p,
			    const struct rp_task *mm)
{
	int w;

	if (!p->counter)
		return 0;
	w = p->counter + 20 + (p == mm);
	if (c->smp && p->cpu == c->id)
		w += RP24_PROC_CHANGE_PENALTY;
	return w;
}

static int rp24_goodness(const struct rp_sched *s, const struct rp_task *p)
{
	return rp24_goodness_on(s, p, s->curr);
}

static void rp24_enqueue(struct rp_sched *s, struct rp_task *t, bool wakeup)
{
	struct rp_sched *o = s->smp ? s->smp->cpu[0] : s;

	(void)wakeup;
	if (!t->counter && !t->nswitch)
		t->counter = RP24_TICKS;	/* a new task: a full quantum */
	/* add_to_runqueue(): list_add at the head, so the newest first */
	t->pos = ((uint64_t)1 << 62) - ++o->seq;
	s->rq->enqueue(s->rq_main, t, t->pos);
}

static void rp24_dequeue(struct rp_sched *s, struct rp_task *t)
{
	(void)s;
	(void)t;			/* curr is off the list already */
}

/* curr stays where it was in the list: the same key */
static void rp24_put_prev(struct rp_sched *s, struct rp_task *t)
{
	s->rq->enqueue(s->rq_main, t, t->pos);
}

struct rp24_scan {
	const struct rp_sched *s;
	struct rp_task *best;
	int c;
};

/* the loop of schedule(): the first in list order of the best goodness,
 * among the tasks this CPU can_schedule() (not on another CPU) */
static void rp24_one(struct rp_task *p, void *arg)
{
	struct rp24_scan *sc = (struct rp24_scan *)arg;
	int w;

	if (sc->s->smp && p->cpu != sc->s->id &&
	    atomic_load_explicit(&p->on_cpu, memory_order_acquire))
		return;
	w = rp24_goodness(sc->s, p);

	if (w > sc->c || (w == sc->c && sc->best && p->pos < sc->best->pos)) {
		sc->c = w;
		sc->best = p;
	}
}

static struct rp_task *rp24_pick(struct rp_sched *s)
{
	struct rp24_scan sc;
	unsigned i;

	for (;;) {
		sc.s = s;
		sc.best = NULL;
		sc.c = -1000;
		s->rq->visit(s->rq_main, rp24_one, &sc);
		if (!sc.best)
			return NULL;
		if (sc.c)
			break;
		/* every runnable counter used up: recalculate every task's,
		 * sleeping and dead ones too, as for_each_task() did (a
		 * zombie stays in the list until reaped).  Not its state:
		 * another CPU writes that outside this lock when it switches
		 * the task in; the counter is only touched under it. */
		s->recalcs++;
		for (i = 0; i < s->nt; i++) {
			struct rp_task *p = s->task[i];

			p->counter = (p->counter >> 1) + RP24_TICKS;
		}
	}
	s->rq->dequeue(s->rq_main, sc.best);
	sc.best->cpu = s->id;		/* its processor, under the lock */
	return sc.best;
}

/* reschedule_idle() on UP: preemption_goodness(curr, p) > 0 */
static bool rp24_wake_preempt(struct rp_sched *s, struct rp_task *t)
{
	return rp24_goodness(s, t) > rp24_goodness(s, s->curr);
}

/* update_process_times(): a tick off the counter; at 0, need_resched */
static bool rp24_tick(struct rp_sched *s)
{
	struct rp_task *c = s->curr;

	if (--c->counter <= 0) {
		c->counter = 0;
		return true;
	}
	return false;
}

static int rp24_check(struct rp_sched *s)
{
	return s->rq->check(s->rq_main);
}

/*
 * reschedule_idle() on SMP, under the lock: @p's last CPU if it is idle,
 * else an idle CPU, else the CPU whose curr @p beats by the most
 * (preemption_goodness()); that CPU reschedules (an IPI, or this one's
 * need_resched).  2.4 took the CPU idle the longest; this, the first.
 */
static void rp24_resched_idle(struct rp_sched *s, struct rp_task *p)
{
	struct rp_smp *m = s->smp;
	struct rp_sched *target = NULL;
	int best = 0;
	unsigned i;

	if (!m->cpu[p->cpu]->rq_curr) {
		rp__ipi(s, m->cpu[p->cpu]);
		return;
	}
	for (i = 0; i < m->n; i++)
		if (!m->cpu[i]->rq_curr) {
			rp__ipi(s, m->cpu[i]);
			return;
		}
	for (i = 0; i < m->n; i++) {
		struct rp_sched *c = m->cpu[i];
		const struct rp_task *cur = c->rq_curr;
		int d = rp24_goodness_on(c, p, cur) -
			rp24_goodness_on(c, cur, cur);

		if (d > best) {
			best = d;
			target = c;
		}
	}
	if (target)
		rp__ipi(s, target);
}

/* ============== linux-2.6.0: kernel/sched.c, the O(1) scheduler ========= */

#define RP26_MAX_PRIO  140
#define RP26_NICE0     120		/* static_prio of nice 0 */
#define RP26_MAX_BONUS 10
/* task_timeslice() of nice 0 at HZ 1000: MIN + (MAX - MIN) * 19 / 39 ms */
#define RP26_SLICE     (10 + 190 * 19 / 39)
/* MAX_SLEEP_AVG: AVG_TIMESLICE * MAX_BONUS, in ns */
#define RP26_MAX_SLEEP ((uint64_t)RP26_SLICE * RP26_MAX_BONUS * RP_MS)

static void *rp26_q(const struct rp_sched *s, int array, int prio)
{
	return (char *)s->arrays +
	       ((size_t)array * RP26_MAX_PRIO + (size_t)prio) * s->rq->size;
}

/*
 * Each queue's run_list: the tasks of the queue in its order (by pos),
 * kept beside it for load_balance()'s walk from the tail, which the
 * queue's own verbs (first, any-order visit) cannot do without visiting
 * the whole queue.  The pick uses the queue; rp26_check() holds the two
 * to the same tasks in the same order.  [0] the head, [1] the tail.
 */
static struct rp_task **rp26_rl(const struct rp_sched *s, int array,
				int prio)
{
	return s->runlist + ((size_t)array * RP26_MAX_PRIO + (size_t)prio) * 2;
}

static void rp26_init(struct rp_sched *s)
{
	int a, p;

	s->runlist = (struct rp_task **)rp_xcalloc(4 * RP26_MAX_PRIO,
						   sizeof(*s->runlist));
	s->arrays = rp_xcalloc(2 * RP26_MAX_PRIO, s->rq->size);
	for (a = 0; a < 2; a++)
		for (p = 0; p < RP26_MAX_PRIO; p++)
			s->rq->init(rp26_q(s, a, p));
	s->active = 0;
}

static void rp26_fini(struct rp_sched *s)
{
	free(s->arrays);
	free(s->runlist);
	s->arrays = NULL;
	s->runlist = NULL;
}

static int rp26_bonus(const struct rp_task *t)	/* CURRENT_BONUS() */
{
	return (int)(t->sleep_avg * RP26_MAX_BONUS / RP26_MAX_SLEEP);
}

static int rp26_effective_prio(const struct rp_task *t)
{
	int prio = RP26_NICE0 - (rp26_bonus(t) - RP26_MAX_BONUS / 2);

	return prio < 100 ? 100 : prio > 139 ? 139 : prio;
}

/* TASK_INTERACTIVE() of nice 0: DELTA is INTERACTIVE_DELTA, 2 */
static bool rp26_interactive(const struct rp_task *t)
{
	return t->prio <= RP26_NICE0 - 2;
}

static void rp26_enqueue_array(struct rp_sched *s, struct rp_task *t,
			       int array, uint64_t pos)
{
	struct rp_task **l = rp26_rl(s, array, t->prio), *a = l[1];

	t->array = array;
	t->pos = pos;
	s->rq->enqueue(rp26_q(s, array, t->prio), t, pos);
	s->arr_bits[array][t->prio / 64] |= (uint64_t)1 << (t->prio % 64);
	/* after the last task before it: the tail (a new position), or the
	 * head (curr back at its place: it was first) */
	if (a && l[0]->pos > pos)
		a = NULL;
	while (a && a->pos > pos)
		a = a->rl_prev;
	t->rl_prev = a;
	t->rl_next = a ? a->rl_next : l[0];
	*(t->rl_next ? &t->rl_next->rl_prev : &l[1]) = t;
	*(a ? &a->rl_next : &l[0]) = t;
}

static void rp26_dequeue_array(struct rp_sched *s, struct rp_task *t)
{
	void *q = rp26_q(s, t->array, t->prio);
	struct rp_task **l = rp26_rl(s, t->array, t->prio);

	*(t->rl_prev ? &t->rl_prev->rl_next : &l[0]) = t->rl_next;
	*(t->rl_next ? &t->rl_next->rl_prev : &l[1]) = t->rl_prev;
	t->rl_prev = t->rl_next = NULL;
	s->rq->dequeue(q, t);
	if (!s->rq->count(q))
		s->arr_bits[t->array][t->prio / 64] &=
			~((uint64_t)1 << (t->prio % 64));
}

/* activate_task(): recalc_task_prio() for a wakeup, then the tail of its
 * queue in the active array */
static void rp26_enqueue(struct rp_sched *s, struct rp_task *t, bool wakeup)
{
	if (wakeup) {
		uint64_t now = rp_now(s);
		uint64_t slept = now > t->sleep_start ? now - t->sleep_start
						      : 0;
		int mul = RP26_MAX_BONUS - rp26_bonus(t);

		if (slept > RP26_MAX_SLEEP)
			slept = RP26_MAX_SLEEP;
		/* the lower the sleep_avg, the faster it rises */
		t->sleep_avg += slept * (uint64_t)(mul > 0 ? mul : 1);
		if (t->sleep_avg > RP26_MAX_SLEEP)
			t->sleep_avg = RP26_MAX_SLEEP;
	} else if (!t->time_slice) {
		t->time_slice = RP26_SLICE;
	}
	t->prio = rp26_effective_prio(t);
	rp26_enqueue_array(s, t, s->active, ++s->seq);
}

/* schedule(): the run time, divided by the bonus, off sleep_avg */
static void rp26_charge(struct rp_task *t)
{
	uint64_t run = t->sum_exec - t->prev_sum_exec;
	int b = rp26_bonus(t);

	if (run > RP26_MAX_SLEEP)
		run = RP26_MAX_SLEEP;
	run /= (uint64_t)(b ? b : 1);
	t->sleep_avg = t->sleep_avg > run ? t->sleep_avg - run : 0;
	t->prev_sum_exec = t->sum_exec;
}

static void rp26_dequeue(struct rp_sched *s, struct rp_task *t)
{
	(void)s;
	rp26_charge(t);
}

/* curr never left its queue in 2.6.0: it goes back to its place, or, when
 * the tick moved it (t->pos 0), to the tail of the array it chose */
static void rp26_put_prev(struct rp_sched *s, struct rp_task *t)
{
	rp26_charge(t);
	rp26_enqueue_array(s, t, t->array, t->pos ? t->pos : ++s->seq);
}

static int rp26_ffs(const uint64_t *bits)
{
	int w;

	for (w = 0; w < 3; w++)
		if (bits[w])
			return w * 64 + (int)sq__ctz64(bits[w]);
	return -1;
}

static struct rp_task *rp26_pick(struct rp_sched *s)
{
	int idx = rp26_ffs(s->arr_bits[s->active]);
	struct rp_task *t;

	if (idx < 0) {
		/* the active array is empty: switch the arrays */
		s->active ^= 1;
		s->expired_ts = 0;
		idx = rp26_ffs(s->arr_bits[s->active]);
		if (idx < 0)
			return NULL;
	}
	t = s->rq->first(rp26_q(s, s->active, idx));
	rp26_dequeue_array(s, t);
	t->prev_sum_exec = t->sum_exec;
	return t;
}

/* try_to_wake_up(): TASK_PREEMPTS_CURR, a better (lower) priority */
static bool rp26_wake_preempt(struct rp_sched *s, struct rp_task *t)
{
	return t->prio < s->curr->prio;
}

/* TIMESLICE_GRANULARITY(): how often an interactive task round-robins */
static int rp26_granularity(const struct rp_task *t)
{
	int d = RP26_MAX_BONUS - rp26_bonus(t);

	return 10 * (1 << ((d ? d : 1) - 1));
}

/* scheduler_tick() at HZ 1000: a tick is a millisecond of time_slice */
static bool rp26_tick(struct rp_sched *s)
{
	struct rp_task *t = s->curr;
	uint64_t now = rp_now(s);

	if (--t->time_slice <= 0) {
		bool starving;

		t->prio = rp26_effective_prio(t);
		t->time_slice = RP26_SLICE;
		if (!s->expired_ts)
			s->expired_ts = now;
		/* EXPIRED_STARVING(): STARVATION_LIMIT is MAX_SLEEP_AVG */
		starving = now - s->expired_ts >=
			   RP26_MAX_SLEEP * s->nr_running + RP_MS;
		t->array = !rp26_interactive(t) || starving ? !s->active
							    : s->active;
		t->pos = 0;
		return true;
	}
	if (rp26_interactive(t) &&
	    (RP26_SLICE - t->time_slice) % rp26_granularity(t) == 0 &&
	    t->time_slice >= rp26_granularity(t)) {
		t->pos = 0;		/* round robin within its priority */
		return true;
	}
	return false;
}

/* SMP: cache_decay_ticks, a stated choice (see doc/replay.md) */
#define RP26_CACHE_DECAY (2 * RP_MS)
#define RP26_IDLE_REBALANCE 1		/* ticks: HZ / 1000 */
#define RP26_BUSY_REBALANCE 200		/* ticks: HZ / 5 */

/*
 * load_balance() with find_busiest_queue(): at every idle tick, every
 * 200th busy one, and when schedule() finds the queue empty.  The loads
 * are the smaller of now and the last balance's for the others, the
 * larger for this CPU (unless idle); the busiest must lead by a quarter
 * unless this CPU is idle; an idle CPU pulls one task, a busy one half
 * the imbalance (at least one).
 */
static void rp26_balance(struct rp_sched *s, bool idle, bool newidle)
{
	struct rp_smp *m = s->smp;
	struct rp_sched *busiest = NULL;
	unsigned i, nr = s->nr_running, max_load = 1, imb;

	if (!newidle &&
	    s->nticks % (idle ? RP26_IDLE_REBALANCE : RP26_BUSY_REBALANCE))
		return;
	if (!idle && nr < s->prev_load[s->id])
		nr = s->prev_load[s->id];
	for (i = 0; i < m->n; i++) {
		unsigned l = rp_load(m->cpu[i]);
		unsigned load = idle || l < s->prev_load[i] ? l
							    : s->prev_load[i];

		s->prev_load[i] = l;
		if (load > max_load && i != s->id) {
			busiest = m->cpu[i];
			max_load = load;
		}
	}
	if (!busiest || max_load <= nr)
		return;
	imb = max_load - nr;
	if (!idle && imb * 4 < max_load)
		return;
	rp__ask(s, busiest, idle ? 1 : imb / 2 ? imb / 2 : 1, idle);
}

struct rp__collect {
	struct rp_task **t;
	unsigned n;
};

static void rp__collect_one(struct rp_task *t, void *arg)
{
	struct rp__collect *c = (struct rp__collect *)arg;

	c->t[c->n++] = t;
}

/*
 * load_balance()'s walk on the busiest CPU: the expired array first if
 * it has tasks (likely cache-cold), then the active one; the best
 * priority first; each queue's run_list from its tail;
 * CAN_MIGRATE_TASK(): when idle, only a task that left its CPU more than
 * cache_decay_ticks ago.  It costs the tasks taken and skipped.
 */
static unsigned rp26_detach(struct rp_sched *s, unsigned to, unsigned n,
			    bool idle, struct rp_task **out)
{
	uint64_t now = rp_now(s);
	int arr = (s->arr_bits[!s->active][0] | s->arr_bits[!s->active][1] |
		   s->arr_bits[!s->active][2]) ? !s->active : s->active;
	unsigned k = 0;
	int pass, idx;

	(void)to;
	if (idle)
		n = 1;
	for (pass = 0; pass < 2 && k < n; pass++) {
		for (idx = 0; idx < RP26_MAX_PRIO && k < n; idx++) {
			struct rp_task *t, *prev;

			if (!(s->arr_bits[arr][idx / 64] >> (idx % 64) & 1))
				continue;
			for (t = rp26_rl(s, arr, idx)[1]; t && k < n; t = prev) {
				prev = t->rl_prev;
				if (idle && now - t->last_run <= RP26_CACHE_DECAY)
					continue;
				rp26_dequeue_array(s, t);
				s->nr_running--;
				out[k++] = t;
			}
		}
		if (arr == s->active)
			break;
		arr = s->active;
	}
	return k;
}

/* pull_task(): the tail of its priority's queue in this active array */
static void rp26_attach(struct rp_sched *s, struct rp_task *t)
{
	rp26_enqueue_array(s, t, s->active, ++s->seq);
}

static int rp26_check(struct rp_sched *s)
{
	int a, p;

	for (a = 0; a < 2; a++)
		for (p = 0; p < RP26_MAX_PRIO; p++) {
			const void *q = rp26_q(s, a, p);
			bool bit = s->arr_bits[a][p / 64] >> (p % 64) & 1;

			struct rp_task **l = rp26_rl(s, a, p), *t, *prev = NULL;
			size_t n = 0;

			if (s->rq->check(q) || bit != (s->rq->count(q) > 0))
				return -1;
			/* the run_list: the queue's tasks, in its order */
			for (t = l[0]; t; prev = t, t = t->rl_next, n++)
				if (t->rl_prev != prev || t->array != a ||
				    t->prio != p || (prev && prev->pos >= t->pos))
					return -1;
			if (l[1] != prev || n != s->rq->count(q) ||
			    s->rq->first(q) != l[0])
				return -1;
		}
	return 0;
}

/* ============== cfs-2.6.35: kernel/sched_fair.c, and its variants ======= */

/* The minimum granularity with @nr runnable: the sysctl, or for
 * cfs-dynamic the latency shared by nr, no lower than its floor. */
static uint64_t rpcfs_gran(const struct rp_sched *s, unsigned nr)
{
	const struct rp_policy *p = s->pol;
	uint64_t g;

	if (!p->dyn_floor || nr <= p->nr_latency)
		return p->min_gran;
	g = p->latency / nr;
	return g < p->dyn_floor ? p->dyn_floor : g;
}

/* __sched_period() */
static uint64_t rpcfs_period(const struct rp_sched *s, unsigned nr)
{
	return nr > s->pol->nr_latency ? nr * rpcfs_gran(s, nr)
				       : s->pol->latency;
}

/* sched_slice(): the period shared by the runnable tasks (all nice 0) */
static uint64_t rpcfs_slice(const struct rp_sched *s, unsigned nr)
{
	return rpcfs_period(s, nr ? nr : 1) / (nr ? nr : 1);
}

static void rpcfs_init(struct rp_sched *s)
{
	s->rq_main = rp__newq(s);
}

static void rpcfs_fini(struct rp_sched *s)
{
	free(s->rq_main);
	s->rq_main = NULL;
}

/* update_min_vruntime() */
static void rpcfs_update_min(struct rp_sched *s)
{
	struct rp_task *left = s->rq->first(s->rq_main);
	uint64_t v = s->min_vruntime;
	bool have = false;

	if (s->curr && s->curr->on_rq) {
		v = s->curr->vruntime;
		have = true;
	}
	if (left && (!have || (int64_t)(left->vruntime - v) < 0)) {
		v = left->vruntime;
		have = true;
	}
	if (have && (int64_t)(v - s->min_vruntime) > 0)
		s->min_vruntime = v;
}

/* update_curr(): nice 0, so calc_delta_fair() is the identity */
static void rpcfs_account(struct rp_sched *s, uint64_t delta)
{
	s->curr->vruntime += delta;
	rpcfs_update_min(s);
}

/* enqueue_entity() with place_entity(): a woken task gets at most half a
 * latency of credit (GENTLE_FAIR_SLEEPERS), a new one starts a slice
 * late (START_DEBIT) */
static void rpcfs_enqueue(struct rp_sched *s, struct rp_task *t, bool wakeup)
{
	uint64_t v;

	if (wakeup)
		v = s->min_vruntime - s->pol->latency / 2;
	else
		v = s->min_vruntime + rpcfs_slice(s, s->nr_running);
	if (t->moved)	/* from another CPU: relative to its min_vruntime */
		t->vruntime = s->min_vruntime + (uint64_t)t->vrel;
	if (!wakeup || (int64_t)(v - t->vruntime) > 0)
		t->vruntime = v;
	t->enq_seq = ++s->seq;		/* account_entity_enqueue() */
	s->rq->enqueue(s->rq_main, t, t->vruntime);
}

/* cppcheck-suppress constParameter ; the type of rp_policy.dequeue */
static void rpcfs_dequeue(struct rp_sched *s, struct rp_task *t)
{
	if (s->last == t)
		s->last = NULL;
	rpcfs_update_min(s);
	t->vrel = (int64_t)(t->vruntime - s->min_vruntime);
}

static void rpcfs_put_prev(struct rp_sched *s, struct rp_task *t)
{
	s->rq->enqueue(s->rq_main, t, t->vruntime);
}

/* wakeup_preempt_entity(): -1 @se is behind @curr, 1 it leads it by more
 * than the wakeup granularity, 0 in between */
static int rpcfs_wakeup_preempt_entity(const struct rp_sched *s,
				       const struct rp_task *curr,
				       const struct rp_task *se)
{
	int64_t vdiff = (int64_t)(curr->vruntime - se->vruntime);

	if (vdiff <= 0)
		return -1;
	return vdiff > (int64_t)s->pol->wakeup_gran ? 1 : 0;
}

/* pick_next_entity(): the leftmost, or the last buddy if the leftmost
 * does not lead it by more than the wakeup granularity */
static struct rp_task *rpcfs_pick(struct rp_sched *s)
{
	struct rp_task *se = s->rq->first(s->rq_main);

	if (!se)
		return NULL;
	if (s->last && s->last->state == RP_RUNNABLE &&
	    rpcfs_wakeup_preempt_entity(s, s->last, se) < 1)
		se = s->last;
	if (s->last == se)
		s->last = NULL;		/* clear_buddies() */
	s->rq->dequeue(s->rq_main, se);
	se->prev_sum_exec = se->sum_exec;	/* set_next_entity() */
	return se;
}

/* check_preempt_wakeup(): preempt when curr leads the woken task by more
 * than the wakeup granularity; curr becomes the last buddy when the
 * queue is at least nr_latency long (LAST_BUDDY) */
static bool rpcfs_wake_preempt(struct rp_sched *s, struct rp_task *t)
{
	struct rp_task *curr = s->curr;

	if (rpcfs_wakeup_preempt_entity(s, curr, t) != 1)
		return false;
	if (s->nr_running >= s->pol->nr_latency)
		s->last = curr;
	return true;
}

/* entity_tick() -> check_preempt_tick() */
static bool rpcfs_tick(struct rp_sched *s)
{
	struct rp_task *curr = s->curr, *left;
	uint64_t ideal, ran;

	if (s->nr_running < 2)
		return false;
	ideal = rpcfs_slice(s, s->nr_running);
	ran = curr->sum_exec - curr->prev_sum_exec;
	if (ran > ideal) {
		if (s->last == curr)
			s->last = NULL;
		return true;
	}
	/* a task that missed a wakeup preemption narrowly does not wait a
	 * whole slice: after min_granularity, lead the leftmost by a slice */
	if (ran < rpcfs_gran(s, s->nr_running))
		return false;
	left = s->rq->first(s->rq_main);
	return left && (int64_t)(curr->vruntime - left->vruntime) >
			       (int64_t)ideal;
}

static int rpcfs_check(struct rp_sched *s)
{
	return s->rq->check(s->rq_main);
}

/* ---- CFS and EEVDF on SMP: per-CPU trees, the same balancer ---- */

/* sysctl_sched_migration_cost: a task that ran this recently is hot */
#define RPFAIR_MIGRATION_COST (500 * RP_US)
#define RPFAIR_NR_MIGRATE 32		/* sysctl_sched_nr_migrate */

static bool rp__cpu_idle(const struct rp_sched *c)
{
	return !rp_load(c);
}

/* find_idlest_cpu() for a fork: the fewest runnable, the first of those */
static unsigned rpfair_idlest(const struct rp_sched *s)
{
	const struct rp_smp *m = s->smp;
	unsigned i, best = 0;

	for (i = 1; i < m->n; i++)
		if (rp_load(m->cpu[i]) < rp_load(m->cpu[best]))
			best = i;
	return best;
}

/* select_idle_sibling(): @target if idle, else @prev if idle, else the
 * first idle CPU (all share a cache here), else @target */
static unsigned rpfair_idle_sibling(const struct rp_sched *s, unsigned prev,
				    unsigned target)
{
	const struct rp_smp *m = s->smp;
	unsigned i;

	if (rp__cpu_idle(m->cpu[target]))
		return target;
	if (rp__cpu_idle(m->cpu[prev]))
		return prev;
	for (i = 0; i < m->n; i++)
		if (rp__cpu_idle(m->cpu[i]))
			return i;
	return target;
}

/*
 * 2.6.35's select_task_rq_fair() for a sync wakeup (a socket's): the
 * waker's CPU when wake_affine() finds it balanced (its load less the
 * waker's, plus the task's, within 112% of the task's CPU's), then
 * select_idle_sibling().  Loads are runnable counts (all nice 0).
 */
static unsigned rpcfs_select(struct rp_sched *s, struct rp_task *t, bool fork)
{
	unsigned this = s->id, prev = t->cpu, target = prev;

	if (fork)
		return rpfair_idlest(s);
	if (this == prev) {
		target = this;
	} else {
		unsigned tl = rp_load(s), pl = rp_load(s->smp->cpu[prev]);

		if (s->curr && tl)
			tl--;		/* sync: the waker is about to sleep */
		if (!tl || 100 * (tl + 1) <= 112 * pl ||
		    (tl <= pl && tl + pl <= 1))
			target = this;
	}
	return rpfair_idle_sibling(s, prev, target);
}

/*
 * load_balance() from rebalance_domains() (every bal_busy ns busy,
 * bal_min idle) and idle_balance(): the busiest CPU by runnable count,
 * balanced while it is within imbalance_pct of this one, half the
 * difference moved.
 */
static void rpfair_balance(struct rp_sched *s, bool idle, bool newidle)
{
	const struct rp_policy *p = s->pol;
	struct rp_smp *m = s->smp;
	struct rp_sched *b = NULL;
	unsigned i, this_l = s->nr_running, max_l = 0;

	if (!newidle) {
		uint64_t now = rp_now(s);

		if (now < s->next_balance)
			return;
		s->next_balance = now + (idle ? p->bal_min : p->bal_busy);
	}
	for (i = 0; i < m->n; i++) {
		unsigned l = rp_load(m->cpu[i]);

		if (i != s->id && l > max_l) {
			max_l = l;
			b = m->cpu[i];
		}
	}
	if (!b || max_l < 2 || max_l <= this_l)
		return;
	if (this_l && 100 * max_l <= p->imb_pct * this_l)
		return;
	rp__ask(s, b, (max_l - this_l) / 2, idle);
}

static int rp__cmp_enq_desc(const void *a, const void *b)
{
	uint64_t x = (*(struct rp_task *const *)a)->enq_seq;
	uint64_t y = (*(struct rp_task *const *)b)->enq_seq;

	return (x < y) - (x > y);
}

/*
 * move_tasks() / detach_tasks() on the busiest CPU: the queued tasks in
 * the order of the kernel's task list (2.6.35's cfs_rq->tasks from its
 * head: the newest first; 6.6's cfs_tasks from its tail: the oldest
 * first), skipping the cache-hot (can_migrate_task(): left its CPU less
 * than migration_cost ago), at most nr_migrate looked at.  @detach1
 * takes one off the policy's queues.
 */
static unsigned rpfair_detach(struct rp_sched *s, unsigned n, bool oldest,
			      struct rp_task **out,
			      void (*detach1)(struct rp_sched *s,
					      struct rp_task *t),
			      struct rp__collect c)
{
	uint64_t now = rp_now(s);
	unsigned j, k = 0;

	qsort(c.t, c.n, sizeof(*c.t), rp__cmp_enq_desc);
	for (j = 0; j < c.n && j < RPFAIR_NR_MIGRATE && k < n; j++) {
		struct rp_task *t = c.t[oldest ? c.n - 1 - j : j];

		if (now - t->last_run < RPFAIR_MIGRATION_COST)
			continue;
		detach1(s, t);
		s->nr_running--;
		out[k++] = t;
	}
	return k;
}

/* dequeue_entity() for a move: vruntime made relative to min_vruntime */
static void rpcfs_detach1(struct rp_sched *s, struct rp_task *t)
{
	s->rq->dequeue(s->rq_main, t);
	if (s->last == t)
		s->last = NULL;
	t->vrel = (int64_t)(t->vruntime - s->min_vruntime);
}

static unsigned rpcfs_detach(struct rp_sched *s, unsigned to, unsigned n,
			     bool idle, struct rp_task **out)
{
	struct rp__collect c;

	(void)to;
	(void)idle;
	c.t = s->scratch + s->nt;
	c.n = 0;
	s->rq->visit(s->rq_main, rp__collect_one, &c);
	return rpfair_detach(s, n, false, out, rpcfs_detach1, c);
}

/* enqueue_entity() of a moved task: this CPU's min_vruntime added */
static void rpcfs_attach(struct rp_sched *s, struct rp_task *t)
{
	t->vruntime = s->min_vruntime + (uint64_t)t->vrel;
	t->enq_seq = ++s->seq;
	s->rq->enqueue(s->rq_main, t, t->vruntime);
}

/* ================= eevdf-6.6: kernel/sched/fair.c ======================= */

/* sysctl_sched_base_slice on one CPU */
#define RPEV_SLICE (750 * RP_US)

static void rpev_init(struct rp_sched *s)
{
	(void)s;
}

/* avg_vruntime(): V, the floor of the mean vruntime of curr and the
 * queued (all of weight 1024); the last one's vruntime when idle */
static uint64_t rpev_avg(const struct rp_sched *s)
{
	int64_t n = (int64_t)s->nr_running, q;

	if (!n)
		return s->min_vruntime;
	q = s->vsum / n;
	if (s->vsum % n < 0)
		q--;
	return RP_VBASE + (uint64_t)q;
}

/* entity_eligible(): (v - base) * n <= sum (v_j - base), exactly */
static bool rpev_eligible(const struct rp_sched *s, const struct rp_task *t)
{
	return (int64_t)(t->vruntime - RP_VBASE) * (int64_t)s->nr_running <=
	       s->vsum;
}

static void rpev_insert(struct rp_sched *s, struct rp_task *t)
{
	sq_erb_set_elig(&s->etree, &t->enode, t->vruntime);
	(void)sq_erb_enqueue(&s->etree, &t->enode, t->deadline);
}

static struct rp_task *rpev_task(const struct sq_erb_node *n)
{
	return n ? (struct rp_task *)(uintptr_t)((const char *)n -
					   offsetof(struct rp_task, enode))
		 : NULL;
}

/* update_curr() */
static void rpev_account(struct rp_sched *s, uint64_t delta)
{
	s->curr->vruntime += delta;
	s->vsum += (int64_t)delta;
}

/* update_deadline(): a used-up request gets a new one; true if it did
 * (a reschedule when another task is runnable) */
static bool rpev_update_deadline(struct rp_sched *s, struct rp_task *t)
{
	if ((int64_t)(t->vruntime - t->deadline) < 0)
		return false;
	t->deadline = t->vruntime + RPEV_SLICE;
	t->parity = false;	/* RUN_TO_PARITY holds no more */
	return s->nr_running > 1;
}

/* place_entity(): at V minus its lag, inflated for the weight it adds
 * (PLACE_LAG); a new task's first request is half a slice
 * (PLACE_DEADLINE_INITIAL) */
static void rpev_enqueue(struct rp_sched *s, struct rp_task *t, bool wakeup)
{
	int64_t n0 = (int64_t)s->nr_running - 1, lag = wakeup ? t->vlag : 0;
	uint64_t slice = wakeup ? RPEV_SLICE : RPEV_SLICE / 2;
	uint64_t V;

	s->nr_running--;		/* V without t */
	V = rpev_avg(s);
	s->nr_running++;
	if (n0 > 0)
		lag = lag * (n0 + 1) / n0;
	t->vruntime = V - (uint64_t)lag;
	t->deadline = t->vruntime + slice;
	t->enq_seq = ++s->seq;
	s->vsum += (int64_t)(t->vruntime - RP_VBASE);
	rpev_insert(s, t);
}

/* dequeue_entity() -> update_entity_lag(): V - v, clamped to the larger
 * of two slices and a tick */
static void rpev_dequeue(struct rp_sched *s, struct rp_task *t)
{
	int64_t lim = (int64_t)(2 * RPEV_SLICE > s->pol->tick_ns
					? 2 * RPEV_SLICE : s->pol->tick_ns);
	int64_t lag;

	s->nr_running++;		/* V with t, as the kernel has it */
	lag = (int64_t)(rpev_avg(s) - t->vruntime);
	s->nr_running--;
	t->vlag = lag < -lim ? -lim : lag > lim ? lim : lag;
	(void)rpev_update_deadline(s, t);
	s->vsum -= (int64_t)(t->vruntime - RP_VBASE);
	if (!s->nr_running)
		s->min_vruntime = t->vruntime;
}

static void rpev_put_prev(struct rp_sched *s, struct rp_task *t)
{
	(void)rpev_update_deadline(s, t);
	rpev_insert(s, t);
}

/* pick_eevdf() over the tree: the earliest deadline among the eligible */
static struct rp_task *rpev_pick_tree(const struct rp_sched *s)
{
	const struct sq_erb_node *n;

	n = sq_erb_pick_eligible(&s->etree, rpev_avg(s));
	if (!n)
		n = sq_erb_first(&s->etree);	/* nothing eligible: never */
	return rpev_task(n);
}

static struct rp_task *rpev_pick(struct rp_sched *s)
{
	struct rp_task *t = rpev_pick_tree(s);

	if (!t)
		return NULL;
	(void)sq_erb_dequeue(&s->etree, &t->enode);
	t->parity = true;		/* RUN_TO_PARITY: until its deadline */
	return t;
}

/* check_preempt_wakeup(): preempt when pick_eevdf() would now choose the
 * woken task, curr included (only with a strictly earlier deadline);
 * RUN_TO_PARITY keeps an eligible curr until its request is served */
/* cppcheck-suppress constParameter ; the type of rp_policy.wake_preempt */
static bool rpev_wake_preempt(struct rp_sched *s, struct rp_task *t)
{
	struct rp_task *curr = s->curr, *best;

	if (rpev_update_deadline(s, curr))
		return true;
	if (!rpev_eligible(s, curr))
		curr = NULL;
	if (curr && curr->parity)
		return false;
	best = rpev_pick_tree(s);
	if (curr && (!best || (int64_t)(best->deadline - curr->deadline) > 0))
		best = curr;
	return best == t;
}

/* entity_tick() -> update_curr() -> update_deadline() */
static bool rpev_tick(struct rp_sched *s)
{
	return rpev_update_deadline(s, s->curr);
}

static int rpev_check(struct rp_sched *s)
{
	return sq_erb_check(&s->etree);
}

/*
 * 6.6's select_task_rq_fair() for a sync wakeup: wake_affine_idle()
 * (this CPU if idle, or if the waker is all it runs; prev if idle),
 * else wake_affine_weight() (this CPU's load less the waker's plus the
 * task's, x100, against prev's x117 (imbalance_pct 117)), then
 * select_idle_sibling().
 */
static unsigned rpev_select(struct rp_sched *s, struct rp_task *t, bool fork)
{
	struct rp_smp *m = s->smp;
	unsigned this = s->id, prev = t->cpu, target;
	bool sync = s->curr != NULL;

	if (fork)
		return rpfair_idlest(s);
	if (rp__cpu_idle(s))
		target = rp__cpu_idle(m->cpu[prev]) ? prev : this;
	else if (sync && rp_load(s) == 1)
		target = this;
	else if (rp__cpu_idle(m->cpu[prev]))
		target = prev;
	else {
		uint64_t tl = rp_load(s) - (sync ? 1u : 0u) + 1;
		uint64_t pl = rp_load(m->cpu[prev]);

		target = tl * 100 < pl * 117 + sync ? this : prev;
	}
	return rpfair_idle_sibling(s, prev, target);
}

static void rpev_collect_one(struct sq_erb_node *n, void *arg)
{
	struct rp__collect *c = (struct rp__collect *)arg;

	c->t[c->n++] = rpev_task(n);
}

/* dequeue_entity() for a move: its lag kept (update_entity_lag()) */
static void rpev_detach1(struct rp_sched *s, struct rp_task *t)
{
	int64_t lim = (int64_t)(2 * RPEV_SLICE > s->pol->tick_ns
					? 2 * RPEV_SLICE : s->pol->tick_ns);
	int64_t lag = (int64_t)(rpev_avg(s) - t->vruntime);

	(void)sq_erb_dequeue(&s->etree, &t->enode);
	t->vlag = lag < -lim ? -lim : lag > lim ? lim : lag;
	s->vsum -= (int64_t)(t->vruntime - RP_VBASE);
}

static unsigned rpev_detach(struct rp_sched *s, unsigned to, unsigned n,
			    bool idle, struct rp_task **out)
{
	struct rp__collect c;

	(void)to;
	(void)idle;
	c.t = s->scratch + s->nt;
	c.n = 0;
	(void)sq_erb_visit(&s->etree, rpev_collect_one, &c);
	return rpfair_detach(s, n, true, out, rpev_detach1, c);
}

/* place_entity() with the lag it brought */
static void rpev_attach(struct rp_sched *s, struct rp_task *t)
{
	rpev_enqueue(s, t, true);
}

/* ============================ the table ================================ */

#define RP_HZ(hz) (1000000000u / (hz))

#define RP__CFS(name_, seed_, min_gran_, nr_lat_, floor_)			\
	{ .name = (name_), .seed_name = (seed_), .tick_ns = RP_HZ(250),	\
	  .latency = 6 * RP_MS, .min_gran = (min_gran_),		\
	  .wakeup_gran = 1 * RP_MS, .nr_latency = (nr_lat_),		\
	  .dyn_floor = (floor_), .init = rpcfs_init, .fini = rpcfs_fini,	\
	  .enqueue = rpcfs_enqueue, .dequeue = rpcfs_dequeue,		\
	  .pick = rpcfs_pick, .put_prev = rpcfs_put_prev,		\
	  .wake_preempt = rpcfs_wake_preempt, .tick = rpcfs_tick,	\
	  .account = rpcfs_account, .check = rpcfs_check,		\
	  .select_cpu = rpcfs_select, .balance = rpfair_balance,	\
	  .detach = rpcfs_detach, .attach = rpcfs_attach,		\
	  /* SD_MC: min_interval 1 ms, busy_factor 64, imbalance_pct 125 */ \
	  .bal_min = 1 * RP_MS, .bal_busy = 64 * RP_MS, .imb_pct = 125 }

static const struct rp_policy rp_policies[] = {
	{ .name = "linux-2.4", .seed_name = "2.4.18", .tick_ns = RP_HZ(100),
	  .init = rp24_init, .fini = rp24_fini, .enqueue = rp24_enqueue,
	  .dequeue = rp24_dequeue, .pick = rp24_pick,
	  .put_prev = rp24_put_prev, .wake_preempt = rp24_wake_preempt,
	  .tick = rp24_tick, .check = rp24_check, .shared_rq = true,
	  .resched_idle = rp24_resched_idle },
	{ .name = "linux-2.6.0", .seed_name = "2.6.0-test9",
	  .tick_ns = RP_HZ(1000), .init = rp26_init, .fini = rp26_fini,
	  .enqueue = rp26_enqueue, .dequeue = rp26_dequeue,
	  .pick = rp26_pick, .put_prev = rp26_put_prev,
	  .wake_preempt = rp26_wake_preempt, .tick = rp26_tick,
	  .check = rp26_check, .balance = rp26_balance,
	  .detach = rp26_detach, .attach = rp26_attach },
	RP__CFS("cfs-2.6.35", "Mainline 2.6.35.2 kernel", 2 * RP_MS, 3, 0),
	RP__CFS("cfs-dynamic", "With my patches (dynamic granularity)",
		2 * RP_MS, 3, 750 * RP_US),
	RP__CFS("cfs-smaller", "With Peter's approach (smaller granularity)",
		750 * RP_US, 8, 0),
	{ .name = "eevdf-6.6", .seed_name = "6.6 EEVDF", .tick_ns = RP_HZ(250),
	  .needs_erb = 1, .init = rpev_init, .enqueue = rpev_enqueue,
	  .dequeue = rpev_dequeue, .pick = rpev_pick,
	  .put_prev = rpev_put_prev, .wake_preempt = rpev_wake_preempt,
	  .tick = rpev_tick, .account = rpev_account, .check = rpev_check,
	  .select_cpu = rpev_select, .balance = rpfair_balance,
	  .detach = rpev_detach, .attach = rpev_attach,
	  /* an LLC domain of 2: min_interval 2 ms, busy_factor 16, 117 */
	  .bal_min = 2 * RP_MS, .bal_busy = 32 * RP_MS, .imb_pct = 117 },
};
#define RP_NPOLICIES (sizeof(rp_policies) / sizeof(rp_policies[0]))

static const struct rp_policy *rp_policy_find(const char *name)
{
	size_t i;

	for (i = 0; i < RP_NPOLICIES; i++)
		if (!strcmp(rp_policies[i].name, name))
			return &rp_policies[i];
	return NULL;
}

#endif /* RP_POLICY_H */
