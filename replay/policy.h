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
	free(s->rq_main);
	s->rq_main = NULL;
}

/* goodness(p, this_mm): 0 when the counter is used up; else the counter,
 * 20 - nice, and 1 for the task whose memory map is loaded (prev) */
static int rp24_goodness(const struct rp_sched *s, const struct rp_task *p)
{
	if (!p->counter)
		return 0;
	return p->counter + 20 + (p == s->curr);
}

static void rp24_enqueue(struct rp_sched *s, struct rp_task *t, bool wakeup)
{
	(void)wakeup;
	if (!t->counter && !t->nswitch)
		t->counter = RP24_TICKS;	/* a new task: a full quantum */
	/* add_to_runqueue(): list_add at the head, so the newest first */
	t->pos = ((uint64_t)1 << 62) - ++s->seq;
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

/* the loop of schedule(): the first in list order of the best goodness */
static void rp24_one(struct rp_task *p, void *arg)
{
	struct rp24_scan *sc = (struct rp24_scan *)arg;
	int w = rp24_goodness(sc->s, p);

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
		 * sleeping ones too (for_each_task), and scan again */
		s->recalcs++;
		for (i = 0; i < s->nt; i++) {
			struct rp_task *p = s->task[i];

			if (p->state != RP_DEAD)
				p->counter = (p->counter >> 1) + RP24_TICKS;
		}
	}
	s->rq->dequeue(s->rq_main, sc.best);
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

static void rp26_init(struct rp_sched *s)
{
	int a, p;

	s->arrays = rp_xcalloc(2 * RP26_MAX_PRIO, s->rq->size);
	for (a = 0; a < 2; a++)
		for (p = 0; p < RP26_MAX_PRIO; p++)
			s->rq->init(rp26_q(s, a, p));
	s->active = 0;
}

static void rp26_fini(struct rp_sched *s)
{
	free(s->arrays);
	s->arrays = NULL;
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
	t->array = array;
	t->pos = pos;
	s->rq->enqueue(rp26_q(s, array, t->prio), t, pos);
	s->arr_bits[array][t->prio / 64] |= (uint64_t)1 << (t->prio % 64);
}

static void rp26_dequeue_array(struct rp_sched *s, struct rp_task *t)
{
	void *q = rp26_q(s, t->array, t->prio);

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
		uint64_t slept = rp_now(s) - t->sleep_start;
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

static int rp26_check(struct rp_sched *s)
{
	int a, p;

	for (a = 0; a < 2; a++)
		for (p = 0; p < RP26_MAX_PRIO; p++) {
			const void *q = rp26_q(s, a, p);
			bool bit = s->arr_bits[a][p / 64] >> (p % 64) & 1;

			if (s->rq->check(q) || bit != (s->rq->count(q) > 0))
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
	if (!wakeup || (int64_t)(v - t->vruntime) > 0)
		t->vruntime = v;
	s->rq->enqueue(s->rq_main, t, t->vruntime);
}

/* cppcheck-suppress constParameter ; the type of rp_policy.dequeue */
static void rpcfs_dequeue(struct rp_sched *s, struct rp_task *t)
{
	if (s->last == t)
		s->last = NULL;
	rpcfs_update_min(s);
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

/* ============================ the table ================================ */

#define RP_HZ(hz) (1000000000u / (hz))

static const struct rp_policy rp_policies[] = {
	{ "linux-2.4", "2.4.18", RP_HZ(100), 0, 0, 0, 0, 0, 0,
	  rp24_init, rp24_fini, rp24_enqueue, rp24_dequeue, rp24_pick,
	  rp24_put_prev, rp24_wake_preempt, rp24_tick, NULL, rp24_check },
	{ "linux-2.6.0", "2.6.0-test9", RP_HZ(1000), 0, 0, 0, 0, 0, 0,
	  rp26_init, rp26_fini, rp26_enqueue, rp26_dequeue, rp26_pick,
	  rp26_put_prev, rp26_wake_preempt, rp26_tick, NULL, rp26_check },
	{ "cfs-2.6.35", "Mainline 2.6.35.2 kernel", RP_HZ(250), 0,
	  6 * RP_MS, 2 * RP_MS, 1 * RP_MS, 3, 0,
	  rpcfs_init, rpcfs_fini, rpcfs_enqueue, rpcfs_dequeue, rpcfs_pick,
	  rpcfs_put_prev, rpcfs_wake_preempt, rpcfs_tick, rpcfs_account,
	  rpcfs_check },
	{ "cfs-dynamic", "With my patches (dynamic granularity)", RP_HZ(250),
	  0, 6 * RP_MS, 2 * RP_MS, 1 * RP_MS, 3, 750 * RP_US,
	  rpcfs_init, rpcfs_fini, rpcfs_enqueue, rpcfs_dequeue, rpcfs_pick,
	  rpcfs_put_prev, rpcfs_wake_preempt, rpcfs_tick, rpcfs_account,
	  rpcfs_check },
	{ "cfs-smaller", "With Peter's approach (smaller granularity)",
	  RP_HZ(250), 0, 6 * RP_MS, 750 * RP_US, 1 * RP_MS, 8, 0,
	  rpcfs_init, rpcfs_fini, rpcfs_enqueue, rpcfs_dequeue, rpcfs_pick,
	  rpcfs_put_prev, rpcfs_wake_preempt, rpcfs_tick, rpcfs_account,
	  rpcfs_check },
	{ "eevdf-6.6", "6.6 EEVDF", RP_HZ(250), 1, 0, 0, 0, 0, 0,
	  rpev_init, NULL, rpev_enqueue, rpev_dequeue, rpev_pick,
	  rpev_put_prev, rpev_wake_preempt, rpev_tick, rpev_account,
	  rpev_check },
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
