/* SPDX-License-Identifier: MIT */
/*
 * replay/test-replay.c - the user-space scheduler's tests, on the virtual
 * clock (deterministic: no timing is asserted anywhere)
 *
 *   - tasks switch, block and wake through channels; the bytes arrive in
 *     order; a writer blocks when the buffer is full and wakes at a
 *     quarter;
 *   - small hackbench and tbench runs complete under every policy on every
 *     queue kind, the policy's queues checked at every tick; the exact
 *     kinds make the same decisions (the same switches, the same time);
 *   - equal CPU-bound tasks share the CPU fairly: Jain's index;
 *   - EEVDF's lag stays bounded;
 *   - a waking task preempts when, and only when, the policy's rule says;
 *   - 2.4's goodness() picks as schedule() did, and recalculates when
 *     every runnable counter is used up; 2.6.0 picks by priority, FIFO,
 *     and switches its arrays.
 *
 * Built twice by replay/replay.mk: with the hand-written context switch
 * of this target and with the ucontext fallback (RP_CTX_UCONTEXT).
 */
#define _POSIX_C_SOURCE 200809L
#include "work.h"
#include "sq_test.h"

static const struct rp_policy *pol(const char *name)
{
	const struct rp_policy *p = rp_policy_find(name);

	if (!p) {
		fprintf(stderr, "no policy %s\n", name);
		exit(1);
	}
	return p;
}

static const struct rp_rqops *rb_ops(void)
{
	return rp_rqops_find("rb");
}

/* ---- channels and switching ---- */

struct pp {
	struct rp_chan a, b;
	unsigned rounds, bad;
	char log[64];
	unsigned nlog;
};

static struct pp pp;

static void pp_ping(struct rp_task *t)
{
	unsigned i;
	char c;

	(void)t;
	for (i = 0; i < pp.rounds; i++) {
		c = (char)('a' + i);
		pp.log[pp.nlog++] = 'w';
		rp_write(&pp.a, &c, 1);
		rp_read_all(&pp.b, &c, 1);
		pp.bad += c != (char)('A' + i);
	}
}

static void pp_pong(struct rp_task *t)
{
	unsigned i;
	char c;

	(void)t;
	for (i = 0; i < pp.rounds; i++) {
		rp_read_all(&pp.a, &c, 1);
		pp.log[pp.nlog++] = 'r';
		pp.bad += c != (char)('a' + i);
		c = (char)('A' + i);
		rp_write(&pp.b, &c, 1);
	}
}

/* Two tasks ping-pong: each blocks on the other's reply, in strict turns. */
SQ_TEST(ping_pong)
{
	size_t k;

	for (k = 0; k < RP_NPOLICIES; k++) {
		struct rp_sched s;

		memset(&pp, 0, sizeof(pp));
		pp.rounds = 20;
		rp_init(&s, &rp_policies[k], rb_ops(), true);
		rp_chan_init(&pp.a, &s, 16);
		rp_chan_init(&pp.b, &s, 16);
		rp_spawn(&s, pp_ping, NULL);
		rp_spawn(&s, pp_pong, NULL);
		rp_start(&s);
		SQ_ASSERTF(rp_run(&s) == 0, "%s: %s\n", rp_policies[k].name,
			   s.errmsg);
		SQ_ASSERT_EQ(pp.bad, 0);
		SQ_ASSERT_EQ(pp.nlog, 40);
		for (size_t i = 0; i < 40; i++)
			SQ_ASSERTF(pp.log[i] == (i % 2 ? 'r' : 'w'),
				   "%s: turn %zu\n", rp_policies[k].name, i);
		SQ_ASSERT(s.switches >= 40);
		rp_chan_fini(&pp.a);
		rp_chan_fini(&pp.b);
		rp_fini(&s);
	}
}

struct bw {
	struct rp_chan c;
	unsigned wrote, got, bad, blocked_at_full, woke_at;
	size_t len_when_woken;
};

static struct bw bw;

/* writes 5-byte numbered messages into a 20-byte buffer */
static void bw_writer(struct rp_task *t)
{
	unsigned char m[5];
	unsigned i;

	(void)t;
	for (i = 0; i < 40; i++) {
		memset(m, (int)i, sizeof(m));
		if (bw.c.cap - bw.c.len < sizeof(m))
			bw.blocked_at_full++;
		rp_write(&bw.c, m, sizeof(m));
		bw.wrote++;
	}
}

/* reads a byte at a time, burning between reads so the writer fills up */
static void bw_reader(struct rp_task *t)
{
	unsigned char b;
	unsigned i;

	for (i = 0; i < 200; i++) {
		(void)rp_read(&bw.c, &b, 1);
		bw.bad += b != i / 5;
		bw.got++;
		t->user[1] += rp_burn(t->s, 100 * RP_US);
	}
}

SQ_TEST(channel_blocks_and_wakes)
{
	struct rp_sched s;
	unsigned i;

	memset(&bw, 0, sizeof(bw));
	rp_init(&s, pol("cfs-2.6.35"), rb_ops(), true);
	rp_chan_init(&bw.c, &s, 20);
	rp_spawn(&s, bw_writer, NULL);
	rp_spawn(&s, bw_reader, NULL);
	rp_start(&s);
	SQ_ASSERTF(rp_run(&s) == 0, "%s\n", s.errmsg);
	SQ_ASSERT_EQ(bw.bad, 0);
	SQ_ASSERT_EQ(bw.wrote, 40);
	SQ_ASSERT_EQ(bw.got, 200);
	SQ_ASSERT(bw.blocked_at_full > 0);
	rp_chan_fini(&bw.c);
	rp_fini(&s);

	/* the wake rule itself: writers wait until a quarter is in use */
	rp_init(&s, pol("cfs-2.6.35"), rb_ops(), true);
	rp_chan_init(&bw.c, &s, 20);
	for (i = 0; i < 2; i++)
		rp_spawn(&s, rp_hb_receiver, NULL);
	s.curr = s.task[0];
	s.task[0]->state = RP_RUNNING;
	s.task[1]->state = RP_BLOCKED;
	s.task[1]->vruntime = RP_VBASE + 1000 * RP_MS;	/* no preemption */
	bw.c.len = 20;
	bw.c.writers.head = bw.c.writers.tail = s.task[1];
	{
		char buf[20];

		(void)rp_read(&bw.c, buf, 14);	/* 6 left: above a quarter */
		SQ_ASSERT(s.task[1]->state == RP_BLOCKED);
		(void)rp_read(&bw.c, buf, 1);	/* 5 left: a quarter */
		SQ_ASSERT(s.task[1]->state == RP_RUNNABLE);
		SQ_ASSERT(bw.c.writers.head == NULL);
	}
	rp_chan_fini(&bw.c);
	rp_fini(&s);
}

/* ---- every policy on every queue: completes, checks, agrees ---- */

struct tick_check {
	unsigned ticks, bad;
};

static void check_at_tick(struct rp_sched *s, void *arg)
{
	struct tick_check *tc = (struct tick_check *)arg;

	tc->ticks++;
	tc->bad += s->pol->check(s) != 0;
}

static void small_hackbench(struct rp_result *r, const struct rp_policy *p,
			    const struct rp_rqops *q, struct tick_check *tc)
{
	struct rp_hb_opts o = { 4, 10, 100, 100, 1000, check_at_tick, NULL,
				 0, NULL, NULL };

	o.arg = tc;
	rp_hackbench(r, p, q, true, &o);
}

SQ_TEST(every_policy_every_queue)
{
	size_t k, q;

	for (k = 0; k < RP_NPOLICIES; k++) {
		const struct rp_policy *p = &rp_policies[k];
		struct rp_result want, got;
		size_t nq = p->needs_erb ? 1 : RP_NQUEUES;

		memset(&want, 0, sizeof(want));
		memset(&got, 0, sizeof(got));
		for (q = 0; q < nq; q++) {
			struct tick_check tc = { 0, 0 };
			struct rp_result *r = q ? &got : &want;

			small_hackbench(r, p, p->needs_erb ? NULL : &rp_rqops[q],
					&tc);
			SQ_ASSERTF(!r->err, "%s on %s: %s\n", p->name,
				   rp_rqops[q].name, r->errmsg);
			SQ_ASSERT_EQ(r->ops, 4 * 10 * 10 * 100);
			SQ_ASSERTF(tc.bad == 0 && tc.ticks >= 5,
				   "%s on %s: %u of %u checks failed\n",
				   p->name, rp_rqops[q].name, tc.bad, tc.ticks);
			if (!q)
				continue;
			/* every kind is exact here (the ring's time stays 0,
			 * it never pops): the same decisions */
			SQ_ASSERTF(got.switches == want.switches &&
					   got.sink == want.sink &&
					   got.picks == want.picks,
				   "%s: %s differs from %s (%llu/%llu)\n",
				   p->name, rp_rqops[q].name, rp_rqops[0].name,
				   (unsigned long long)got.switches,
				   (unsigned long long)want.switches);
		}
	}
}

SQ_TEST(tbench_runs)
{
	struct rp_tb_opts o;
	size_t k;

	memset(&o, 0, sizeof(o));
	o.seconds = 0.2;
	o.bg = 3;
	o.burst_ns = 2 * RP_MS;
	o.sleep_ns = 3 * RP_MS;
	o.server_ns = 20 * RP_US;
	o.client_ns = 10 * RP_US;
	o.req_size = 100;
	o.rep_size = 1000;
	for (k = 0; k < RP_NPOLICIES; k++) {
		struct rp_result a, b;

		rp_tbench(&a, &rp_policies[k], rb_ops(), true, &o);
		rp_tbench(&b, &rp_policies[k], rb_ops(), true, &o);
		SQ_ASSERTF(!a.err, "%s: %s\n", rp_policies[k].name, a.errmsg);
		SQ_ASSERT(a.ops > 100);
		SQ_ASSERT(a.max_lat_ms > 0);
		/* the virtual clock: the same run twice */
		SQ_ASSERT_EQ(a.ops, b.ops);
		SQ_ASSERT_EQ(a.switches, b.switches);
		SQ_ASSERT(a.max_lat_ms == b.max_lat_ms);
	}
}

/* ---- fairness ---- */

static int fair_stop;
static uint64_t fair_end;

static void fair_hog(struct rp_task *t)
{
	while (!fair_stop) {
		t->user[1] += rp_burn(t->s, 1 * RP_MS);
		if (rp_now(t->s) >= fair_end && !fair_stop) {
			unsigned i;

			fair_stop = 1;	/* everyone's share, now */
			for (i = 0; i < t->s->nt; i++)
				t->s->task[i]->user[2] =
					t->s->task[i]->sum_exec;
		}
	}
}

/* Jain's index of the CPU time of @n equal hogs over @sec virtual s. */
static double jain(const struct rp_policy *p, unsigned n, double sec)
{
	struct rp_sched s;
	double sum = 0, sq = 0;
	unsigned i;

	fair_stop = 0;
	fair_end = (uint64_t)(sec * 1e9);
	rp_init(&s, p, p->needs_erb ? NULL : rb_ops(), true);
	for (i = 0; i < n; i++)
		rp_spawn(&s, fair_hog, NULL);
	rp_start(&s);
	if (rp_run(&s))
		return -1;
	for (i = 0; i < n; i++) {
		double x = (double)s.task[i]->user[2];

		sum += x;
		sq += x * x;
	}
	rp_fini(&s);
	return sum * sum / (n * sq);
}

SQ_TEST(fairness_jain)
{
	static const char *const fair[] = { "cfs-2.6.35", "cfs-dynamic",
					    "cfs-smaller", "eevdf-6.6",
					    "linux-2.6.0", "linux-2.4" };
	size_t k;

	for (k = 0; k < SQ_NELEM(fair); k++) {
		double j = jain(pol(fair[k]), 7, 10.0);

		printf("  %-12s 7 hogs, 10 s: Jain's index %.6f\n", fair[k], j);
		/* the O(1) and 2.4 schedulers share by whole slices of about
		 * 100 and 60 ms: fair over seconds, to a slice */
		SQ_ASSERTF(j > (k < 4 ? 0.9999 : 0.99),
			   "%s: Jain's index %f\n", fair[k], j);
	}
}

/* ---- EEVDF's lag ---- */

struct lag_check {
	int64_t worst;
	unsigned ticks;
};

static void lag_at_tick(struct rp_sched *s, void *arg)
{
	struct lag_check *lc = (struct lag_check *)arg;
	uint64_t V = rpev_avg(s);
	unsigned i;

	lc->ticks++;
	for (i = 0; i < s->nt; i++) {
		const struct rp_task *t = s->task[i];
		int64_t lag;

		if (!t->on_rq)
			continue;
		lag = (int64_t)(V - t->vruntime);
		if (lag < 0)
			lag = -lag;
		if (lag > lc->worst)
			lc->worst = lag;
	}
}

static void lag_sleeper(struct rp_task *t)
{
	while (!fair_stop) {
		t->user[1] += rp_burn(t->s, 300 * RP_US * (1 + t->id % 3));
		rp_sleep(t->s, 2 * RP_MS * (1 + t->id % 2));
		if (rp_now(t->s) >= fair_end)
			fair_stop = 1;
	}
}

/* |V - v| of every runnable task stays within a slice and a tick: an
 * EEVDF task is served within one request of its fair share, its
 * request's end noticed at the next tick */
SQ_TEST(eevdf_lag_bounded)
{
	const struct rp_policy *p = pol("eevdf-6.6");
	struct lag_check lc = { 0, 0 };
	struct rp_sched s;
	int64_t bound = (int64_t)(RPEV_SLICE + p->tick_ns);
	unsigned i;

	fair_stop = 0;
	fair_end = 5 * (uint64_t)1000000000u;
	rp_init(&s, p, NULL, true);
	s.on_tick = lag_at_tick;
	s.on_tick_arg = &lc;
	for (i = 0; i < 4; i++)
		rp_spawn(&s, fair_hog, NULL);
	for (i = 0; i < 4; i++)
		rp_spawn(&s, lag_sleeper, NULL);
	rp_start(&s);
	SQ_ASSERTF(rp_run(&s) == 0, "%s\n", s.errmsg);
	printf("  largest |lag| over %u ticks: %.3f ms (bound %.3f ms)\n",
	       lc.ticks, (double)lc.worst / 1e6, (double)bound / 1e6);
	SQ_ASSERT(lc.ticks > 1000);
	SQ_ASSERTF(lc.worst <= bound, "lag %lld\n", (long long)lc.worst);
	for (i = 0; i < s.nt; i++) {
		int64_t lim = 2 * (int64_t)RPEV_SLICE;

		if ((int64_t)p->tick_ns > lim)
			lim = (int64_t)p->tick_ns;
		SQ_ASSERT(s.task[i]->vlag <= lim && s.task[i]->vlag >= -lim);
	}
	rp_fini(&s);
}

/* ---- wakeup preemption: the rules, one case at a time ---- */

static void idle_fn(struct rp_task *t)
{
	(void)t;
}

/* A scheduler with curr running and @n more tasks asleep (not started). */
static void setup(struct rp_sched *s, const struct rp_policy *p, unsigned n)
{
	unsigned i;

	rp_init(s, p, p->needs_erb ? NULL : rb_ops(), true);
	for (i = 0; i <= n; i++)
		rp_spawn(s, idle_fn, NULL);
	rp__enqueue(s, s->task[0], false);
	s->curr = p->pick(s);
	s->curr->state = RP_RUNNING;
}

static void teardown(struct rp_sched *s)
{
	s->curr = NULL;
	rp_fini(s);
}

/* Does waking task 1 (vruntime curr's minus @lead) preempt under CFS? */
static bool cfs_wakes(const char *name, int64_t lead)
{
	struct rp_sched s;
	bool r;

	setup(&s, pol(name), 1);
	s.min_vruntime = s.curr->vruntime;
	s.task[1]->vruntime = s.curr->vruntime - (uint64_t)lead;
	rp_wake(&s, s.task[1]);
	r = s.need_resched;
	teardown(&s);
	return r;
}

SQ_TEST(wakeup_preemption_cfs)
{
	static const char *const names[] = { "cfs-2.6.35", "cfs-dynamic",
					     "cfs-smaller" };
	size_t k;

	for (k = 0; k < SQ_NELEM(names); k++) {
		int64_t g = (int64_t)pol(names[k])->wakeup_gran;

		/* curr leads the woken task by more than the granularity */
		SQ_ASSERT(cfs_wakes(names[k], g + 1));
		SQ_ASSERT(!cfs_wakes(names[k], g));
		SQ_ASSERT(!cfs_wakes(names[k], 0));
		SQ_ASSERT(!cfs_wakes(names[k], -5 * (int64_t)RP_MS));
		/* a long sleeper is placed at min_vruntime - latency / 2:
		 * a lead of 3 ms whatever it slept */
		SQ_ASSERT(cfs_wakes(names[k], 100 * RP_MS));
	}
}

SQ_TEST(cfs_sleeper_credit_and_buddy)
{
	struct rp_sched s;

	setup(&s, pol("cfs-2.6.35"), 3);
	s.min_vruntime = s.curr->vruntime;
	s.task[1]->vruntime = s.curr->vruntime - 100 * RP_MS;
	rp_wake(&s, s.task[1]);
	SQ_ASSERT_EQ(s.task[1]->vruntime, s.min_vruntime - 3 * RP_MS);
	SQ_ASSERT(s.need_resched);
	SQ_ASSERT(s.last == NULL);	/* 2 runnable: below nr_latency */
	s.need_resched = false;
	s.task[2]->vruntime = s.curr->vruntime;
	rp_wake(&s, s.task[2]);
	SQ_ASSERT(!s.need_resched);
	s.task[3]->vruntime = s.curr->vruntime - 100 * RP_MS;
	rp_wake(&s, s.task[3]);		/* 4 runnable: curr is the buddy */
	SQ_ASSERT(s.need_resched);
	SQ_ASSERT(s.last == s.curr);
	teardown(&s);
}

SQ_TEST(cfs_periods)
{
	struct rp_sched s;

	rp_init(&s, pol("cfs-2.6.35"), rb_ops(), true);
	SQ_ASSERT_EQ(rpcfs_period(&s, 3), 6 * RP_MS);
	SQ_ASSERT_EQ(rpcfs_period(&s, 4), 8 * RP_MS);
	rp_fini(&s);
	rp_init(&s, pol("cfs-smaller"), rb_ops(), true);
	SQ_ASSERT_EQ(rpcfs_period(&s, 8), 6 * RP_MS);
	SQ_ASSERT_EQ(rpcfs_period(&s, 10), 7500 * RP_US);
	rp_fini(&s);
	rp_init(&s, pol("cfs-dynamic"), rb_ops(), true);
	SQ_ASSERT_EQ(rpcfs_gran(&s, 3), 2 * RP_MS);
	SQ_ASSERT_EQ(rpcfs_gran(&s, 4), 1500 * RP_US);
	SQ_ASSERT_EQ(rpcfs_gran(&s, 20), 750 * RP_US);
	SQ_ASSERT_EQ(rpcfs_period(&s, 4), 6 * RP_MS);
	SQ_ASSERT_EQ(rpcfs_period(&s, 10), 7500 * RP_US);
	rp_fini(&s);
}

SQ_TEST(wakeup_preemption_24)
{
	static const int cnt[] = { 3, 4, 5, 6 };
	static const bool want[] = { false, false, true, true };
	size_t k;

	/* curr (counter 3) has goodness 3 + 20 + 1 (its mm); the woken
	 * task's counter + 20 must beat it */
	for (k = 0; k < SQ_NELEM(cnt); k++) {
		struct rp_sched s;

		setup(&s, pol("linux-2.4"), 1);
		s.curr->counter = 3;
		s.task[1]->counter = cnt[k];
		s.task[1]->nswitch = 1;
		rp_wake(&s, s.task[1]);
		SQ_ASSERT(s.need_resched == want[k]);
		teardown(&s);
	}
}

SQ_TEST(wakeup_preemption_26)
{
	struct rp_sched s;
	uint64_t tenth = RP26_MAX_SLEEP / 10;

	/* curr at 120 (half the bonus); a task woken after sleeping long
	 * enough for a better priority preempts, one as good does not */
	setup(&s, pol("linux-2.6.0"), 2);
	s.curr->sleep_avg = 5 * tenth;
	s.curr->prio = rp26_effective_prio(s.curr);
	SQ_ASSERT_EQ(s.curr->prio, 120);
	s.task[1]->sleep_avg = 5 * tenth;
	s.task[1]->sleep_start = s.vclock;	/* slept 0 ns */
	rp_wake(&s, s.task[1]);
	SQ_ASSERT_EQ(s.task[1]->prio, 120);
	SQ_ASSERT(!s.need_resched);
	s.task[2]->sleep_avg = 5 * tenth;
	s.task[2]->sleep_start = s.vclock;
	s.vclock += tenth / 5 + 1;		/* x5 for a bonus of 5: +1 */
	rp_wake(&s, s.task[2]);
	SQ_ASSERT_EQ(s.task[2]->prio, 119);
	SQ_ASSERT(s.need_resched);
	teardown(&s);
}

SQ_TEST(wakeup_preemption_eevdf)
{
	struct rp_sched s;
	struct rp_task *c, *t1, *t2;

	setup(&s, pol("eevdf-6.6"), 2);
	c = s.curr;
	t1 = s.task[1];
	t2 = s.task[2];
	SQ_ASSERT(c->parity);	/* just picked: runs to parity */
	/* a task that was served ahead (negative lag) wakes above V: not
	 * eligible, it never preempts */
	t2->vlag = -(int64_t)RPEV_SLICE;
	rp_wake(&s, t2);
	SQ_ASSERT(!rpev_eligible(&s, t2));
	SQ_ASSERT(rpev_eligible(&s, c));
	SQ_ASSERT(!s.need_resched);
	/* one owed a little wakes eligible, but curr runs to parity */
	t1->vlag = 100 * RP_US;
	rp_wake(&s, t1);
	SQ_ASSERT(rpev_eligible(&s, t1));
	SQ_ASSERT(!s.need_resched);
	/* parity gone: curr's earlier deadline keeps it; a later one, or an
	 * equal one, gives the CPU to the woken task (pick_eevdf() takes
	 * curr only when its deadline is strictly the earliest) */
	c->parity = false;
	SQ_ASSERT(c->deadline < t1->deadline);
	SQ_ASSERT(!s.pol->wake_preempt(&s, t1));
	c->deadline = t1->deadline + 1;
	SQ_ASSERT(s.pol->wake_preempt(&s, t1));
	c->deadline = t1->deadline;
	SQ_ASSERT(s.pol->wake_preempt(&s, t1));
	teardown(&s);

	/* curr past its deadline: the tick's update asks for a switch */
	setup(&s, pol("eevdf-6.6"), 1);
	s.task[1]->vlag = -(int64_t)RPEV_SLICE;
	rp_wake(&s, s.task[1]);
	SQ_ASSERT(!s.need_resched);
	s.vclock += RPEV_SLICE;
	rp_account(&s, rp_now(&s));
	SQ_ASSERT(rpev_tick(&s));
	SQ_ASSERT(!s.curr->parity);
	teardown(&s);
}

/* ---- 2.4's goodness() and 2.6.0's arrays pick as the kernels did ---- */

SQ_TEST(goodness_picks)
{
	static const int cnt[6] = { 2, 5, 0, 5, 3, 1 };
	struct rp_sched s;
	struct rp_task *t;
	unsigned i;

	rp_init(&s, pol("linux-2.4"), rb_ops(), true);
	for (i = 0; i < 6; i++)
		rp_spawn(&s, idle_fn, NULL);
	for (i = 0; i < 6; i++) {
		s.task[i]->counter = cnt[i];
		s.task[i]->nswitch = 1;
		rp__enqueue(&s, s.task[i], true);
	}
	/* the best counter is 5, tasks 1 and 3: the list has the newest
	 * first, so task 3 */
	t = s.pol->pick(&s);
	SQ_ASSERT(t == s.task[3]);
	/* with task 3 running and back on the list, its mm's bonus makes it
	 * the best at an equal counter */
	s.curr = t;
	t->state = RP_RUNNING;
	s.pol->put_prev(&s, t);
	SQ_ASSERT(s.pol->pick(&s) == s.task[3]);
	/* counter 4: 4 + 20 + 1 ties task 1's 5 + 20, and curr is ahead in
	 * the list (schedule() takes a strictly better one only) */
	t->counter = 4;
	s.pol->put_prev(&s, t);
	SQ_ASSERT(s.pol->pick(&s) == s.task[3]);
	/* counter 3: task 1's 5 + 20 beats 3 + 20 + 1 */
	t->counter = 3;
	s.pol->put_prev(&s, t);
	SQ_ASSERT(s.pol->pick(&s) == s.task[1]);
	s.curr = NULL;
	rp_fini(&s);

	/* every runnable counter 0: one recalculation of every task, the
	 * blocked ones too, then the scan again */
	rp_init(&s, pol("linux-2.4"), rb_ops(), true);
	for (i = 0; i < 4; i++) {
		rp_spawn(&s, idle_fn, NULL);
		s.task[i]->nswitch = 1;
	}
	s.task[0]->counter = 0;
	s.task[1]->counter = 0;
	s.task[2]->counter = 4;		/* asleep */
	s.task[3]->counter = 0;
	rp__enqueue(&s, s.task[0], true);
	rp__enqueue(&s, s.task[1], true);
	rp__enqueue(&s, s.task[3], true);
	t = s.pol->pick(&s);
	SQ_ASSERT_EQ(s.recalcs, 1);
	SQ_ASSERT_EQ(s.task[2]->counter, 2 + RP24_TICKS);
	SQ_ASSERT_EQ(s.task[0]->counter, RP24_TICKS);
	SQ_ASSERT(t == s.task[3]);	/* all 6: the head of the list */
	rp_fini(&s);
}

SQ_TEST(o1_arrays_pick)
{
	struct rp_sched s;
	unsigned i;

	rp_init(&s, pol("linux-2.6.0"), rb_ops(), true);
	for (i = 0; i < 4; i++)
		rp_spawn(&s, idle_fn, NULL);
	s.task[0]->sleep_avg = 0;		/* 125 */
	s.task[1]->sleep_avg = RP26_MAX_SLEEP;	/* 115 */
	s.task[2]->sleep_avg = 0;		/* 125 */
	s.task[3]->sleep_avg = RP26_MAX_SLEEP;	/* 115 */
	for (i = 0; i < 4; i++)
		rp__enqueue(&s, s.task[i], false);
	SQ_ASSERT_EQ(s.task[0]->prio, 125);
	SQ_ASSERT_EQ(s.task[1]->prio, 115);
	SQ_ASSERT(s.pol->pick(&s) == s.task[1]);	/* best, then FIFO */
	SQ_ASSERT(s.pol->pick(&s) == s.task[3]);
	/* task 0 used its slice and is not interactive: the expired array;
	 * task 2 is next, then the arrays switch and task 0 comes back */
	s.curr = s.pol->pick(&s);
	SQ_ASSERT(s.curr == s.task[0]);
	s.curr->state = RP_RUNNING;
	s.curr->time_slice = 1;
	SQ_ASSERT(s.pol->tick(&s));
	SQ_ASSERT(s.curr->array != s.active);
	s.pol->put_prev(&s, s.curr);
	SQ_ASSERT(s.pol->pick(&s) == s.task[2]);
	SQ_ASSERT(s.pol->pick(&s) == s.task[0]);
	SQ_ASSERT(s.pol->pick(&s) == NULL);
	SQ_ASSERT_EQ(s.pol->check(&s), 0);
	s.curr = NULL;
	rp_fini(&s);
}

/* 2.6.0's load_balance() walk on every kind: each queue's run_list from
 * its tail, an idle pull skipping the cache-hot; curr put back at its
 * place (the head); the list and the queue agree throughout. */
SQ_TEST(o1_detach_walks_from_tail)
{
	size_t k;

	for (k = 0; k < RP_NQUEUES; k++) {
		struct rp_sched s;
		struct rp_task *out[4];
		unsigned i;

		rp_init(&s, pol("linux-2.6.0"), &rp_rqops[k], true);
		for (i = 0; i < 5; i++)
			rp_spawn(&s, idle_fn, NULL);
		s.vclock = 10 * RP_MS;
		for (i = 0; i < 5; i++) {
			s.task[i]->last_run = RP_MS;	/* cold */
			rp__enqueue(&s, s.task[i], false);
		}
		s.task[4]->last_run = s.vclock - RP_MS;	/* hot */
		/* curr (task 0, the first) goes back to the head */
		s.curr = s.pol->pick(&s);
		SQ_ASSERT(s.curr == s.task[0]);
		s.curr->state = RP_RUNNABLE;
		s.pol->put_prev(&s, s.curr);
		s.curr = NULL;
		SQ_ASSERT_EQ(s.pol->check(&s), 0);
		/* idle: one task, the last cold one */
		SQ_ASSERT_EQ(s.pol->detach(&s, 1, 3, true, out), 1);
		SQ_ASSERT(out[0] == s.task[3]);
		SQ_ASSERT_EQ(s.pol->check(&s), 0);
		/* busy: as many as asked, from the tail, hot ones too */
		SQ_ASSERT_EQ(s.pol->detach(&s, 1, 2, false, out), 2);
		SQ_ASSERT(out[0] == s.task[4] && out[1] == s.task[2]);
		SQ_ASSERT_EQ(s.pol->check(&s), 0);
		SQ_ASSERT(s.pol->pick(&s) == s.task[0]);
		SQ_ASSERT(s.pol->pick(&s) == s.task[1]);
		SQ_ASSERT(s.pol->pick(&s) == NULL);
		rp_fini(&s);
	}
}

/* ---- two CPUs ---- */

struct smp_check {
	unsigned ticks, bad, moves, bad_moves, answers;
	const struct rp_sched *last_from;
	uint64_t last_drain;
	unsigned in_answer;
	uint64_t last_key, last_pos;
	int last_cls;
	char why[120];
};

/* the queues of the CPU that ticks, checked at its every tick */
static void smp_at_tick(struct rp_sched *s, void *arg)
{
	struct smp_check *sc = (struct smp_check *)arg;

	sc->ticks++;
	sc->bad += s->pol->check(s) != 0;
}

static void smp_bad_move(struct smp_check *sc, const char *why)
{
	if (!sc->bad_moves)
		snprintf(sc->why, sizeof(sc->why), "%s", why);
	sc->bad_moves++;
}

/*
 * Each task the busiest CPU moves, against its policy's rule: not on a
 * CPU; 2.6.0: an idle pull takes one task, cache-cold, and a pull walks
 * the expired array before the active one, the best priority first and
 * each queue from its tail;
 * CFS and EEVDF: never a cache-hot task, at most nr_migrate, 2.6.35's
 * newest first and 6.6's oldest first.
 */
static void smp_on_move(struct rp_sched *from, struct rp_task *t,
			unsigned to, unsigned asked, bool idle, void *arg)
{
	struct smp_check *sc = (struct smp_check *)arg;
	const char *pn = from->pol->name;
	uint64_t now = rp_now(from);
	bool first = sc->last_from != from ||
		     sc->last_drain != atomic_load(&from->drains);

	smp_at_tick(from, arg);		/* the queues after the detach */
	sc->ticks--;
	if (first) {
		sc->answers++;
		sc->in_answer = 0;
		sc->last_from = from;
		sc->last_drain = atomic_load(&from->drains);
	}
	sc->moves++;
	sc->in_answer++;
	if (to == from->id || t->state != RP_RUNNABLE || t == from->curr ||
	    atomic_load(&t->on_cpu))
		smp_bad_move(sc, "moved a running task, or to itself");
	if (sc->in_answer > asked)
		smp_bad_move(sc, "moved more than asked");
	if (!strcmp(pn, "linux-2.6.0")) {
		int cls = t->array == from->active;	/* expired first */

		if (idle && (asked != 1 || sc->in_answer > 1))
			smp_bad_move(sc, "2.6.0: an idle pull of more than one");
		if (idle && now - t->last_run <= RP26_CACHE_DECAY)
			smp_bad_move(sc, "2.6.0: an idle pull of a hot task");
		if (!first && (cls < sc->last_cls ||
			       (cls == sc->last_cls &&
				(uint64_t)t->prio < sc->last_key)))
			smp_bad_move(sc, "2.6.0: not expired/best-prio first");
		if (!first && cls == sc->last_cls &&
		    (uint64_t)t->prio == sc->last_key && t->pos > sc->last_pos)
			smp_bad_move(sc, "2.6.0: not a queue's tail first");
		sc->last_cls = cls;
		sc->last_key = (uint64_t)t->prio;
		sc->last_pos = t->pos;
	} else {
		bool oldest = !strcmp(pn, "eevdf-6.6");

		if (now - t->last_run < RPFAIR_MIGRATION_COST)
			smp_bad_move(sc, "a cache-hot task");
		if (sc->in_answer > RPFAIR_NR_MIGRATE)
			smp_bad_move(sc, "more than nr_migrate");
		if (!first && (oldest ? t->enq_seq < sc->last_key
				      : t->enq_seq > sc->last_key))
			smp_bad_move(sc, "not in the task list's order");
		sc->last_key = t->enq_seq;
	}
}

static void smp_hackbench(struct rp_result *r, const struct rp_policy *p,
			  const struct rp_rqops *q, struct smp_check *sc,
			  bool virt, unsigned groups)
{
	struct rp_hb_opts o;

	memset(&o, 0, sizeof(o));
	o.groups = groups;
	o.fds = 10;
	o.loops = 50;
	o.datasize = 100;
	o.buf = 1000;
	o.cpus = 2;
	if (virt) {
		o.on_tick = smp_at_tick;
		o.on_move = smp_on_move;
		o.arg = sc;
	}
	rp_hackbench(r, p, q, virt, &o);
}

/* Two virtual CPUs: every message delivered under every policy on every
 * kind; every wakeup posted to the other CPU applied by its next drain
 * (rp_run fails otherwise); the queues sound at every tick; the moves by
 * the rule; the same run twice. */
SQ_TEST(smp_every_policy_every_queue)
{
	size_t k, q;

	for (k = 0; k < RP_NPOLICIES; k++) {
		const struct rp_policy *p = &rp_policies[k];
		size_t nq = p->needs_erb ? 1 : RP_NQUEUES;

		for (q = 0; q < nq; q++) {
			const struct rp_rqops *rq = p->needs_erb ? NULL
								 : &rp_rqops[q];
			const char *qn = p->needs_erb ? "erb" : rp_rqops[q].name;
			struct smp_check sc, sc2;
			struct rp_result r, r2;

			memset(&sc, 0, sizeof(sc));
			memset(&sc2, 0, sizeof(sc2));
			smp_hackbench(&r, p, rq, &sc, true, 4);
			SQ_ASSERTF(!r.err, "%s on %s: %s\n", p->name, qn,
				   r.errmsg);
			SQ_ASSERT_EQ(r.ops, 4 * 10 * 10 * 50);
			SQ_ASSERTF(sc.bad == 0 && sc.ticks >= 5,
				   "%s on %s: %u of %u checks failed\n",
				   p->name, qn, sc.bad, sc.ticks);
			SQ_ASSERTF(sc.bad_moves == 0, "%s on %s: %u bad moves "
				   "(%s)\n", p->name, qn, sc.bad_moves, sc.why);
			if (!p->shared_rq) {
				SQ_ASSERTF(r.remote_wakes > 0 && r.migrations > 0,
					   "%s on %s: %llu remote wakeups, "
					   "%llu moves\n", p->name, qn,
					   (unsigned long long)r.remote_wakes,
					   (unsigned long long)r.migrations);
				SQ_ASSERT_EQ(r.migrations, sc.moves);
			}
			if (q)
				continue;
			printf("  %-12s 2 CPUs: %.3f s (virtual), %llu moves in "
			       "%u pulls, %llu remote wakeups\n", p->name,
			       r.seconds, (unsigned long long)r.migrations,
			       sc.answers, (unsigned long long)r.remote_wakes);
			smp_hackbench(&r2, p, rq, &sc2, true, 4);
			SQ_ASSERT(r2.switches == r.switches &&
				  r2.migrations == r.migrations &&
				  r2.seconds == r.seconds);
		}
	}
}

/* 2.4 on two CPUs: a wakeup goes to an idle CPU (reschedule_idle()), and
 * a task on another CPU is not picked (can_schedule()). */
SQ_TEST(smp_24_reschedule_idle)
{
	struct rp_sched cpus[2];
	struct rp_smp m;
	struct rp_task *a, *b;

	rp_smp_init(&m, cpus, 2, pol("linux-2.4"), rb_ops(), true);
	a = rp_spawn(&cpus[0], idle_fn, NULL);
	b = rp_spawn(&cpus[0], idle_fn, NULL);
	cpus[0].curr = cpus[0].rq_curr = a;
	a->state = RP_RUNNING;
	a->counter = 3;
	atomic_store(&a->on_cpu, 1);
	b->nswitch = 1;
	b->counter = 6;
	b->cpu = 0;
	rp__this = &cpus[0];
	rp__wake_smp(&cpus[0], b);	/* CPU 1 idle: it is told */
	SQ_ASSERT(atomic_load(&cpus[1].ipi) == 1);
	SQ_ASSERT(!cpus[0].need_resched);
	/* CPU 1 picks b; a, running on CPU 0, is not its to take */
	cpus[0].rq->enqueue(cpus[0].rq_main, a, a->pos = 1);
	SQ_ASSERT(cpus[1].pol->pick(&cpus[1]) == b);
	SQ_ASSERT(cpus[1].pol->pick(&cpus[1]) == NULL);
	atomic_store(&a->on_cpu, 0);
	SQ_ASSERT(cpus[1].pol->pick(&cpus[1]) == a);
	rp__this = NULL;
	cpus[0].curr = NULL;
	rp_fini(&cpus[0]);
}

/* Real threads, a CPU each (the cross-CPU path; `make check` runs it
 * under ThreadSanitizer): every message delivered under every policy. */
SQ_TEST(smp_threads)
{
	size_t k;

	for (k = 0; k < RP_NPOLICIES; k++) {
		const struct rp_policy *p = &rp_policies[k];
		struct rp_result r;

		smp_hackbench(&r, p, p->needs_erb ? NULL : rb_ops(), NULL,
			      false, 2);
		SQ_ASSERTF(!r.err, "%s: %s\n", p->name, r.errmsg);
		SQ_ASSERT_EQ(r.ops, 2 * 10 * 10 * 50);
	}
}

static const sq_test_entry tests[] = {
	SQ_T(ping_pong),
	SQ_T(channel_blocks_and_wakes),
	SQ_T(every_policy_every_queue),
	SQ_T(tbench_runs),
	SQ_T(fairness_jain),
	SQ_T(eevdf_lag_bounded),
	SQ_T(wakeup_preemption_cfs),
	SQ_T(cfs_sleeper_credit_and_buddy),
	SQ_T(cfs_periods),
	SQ_T(wakeup_preemption_24),
	SQ_T(wakeup_preemption_26),
	SQ_T(wakeup_preemption_eevdf),
	SQ_T(goodness_picks),
	SQ_T(o1_arrays_pick),
	SQ_T(o1_detach_walks_from_tail),
	SQ_T(smp_every_policy_every_queue),
	SQ_T(smp_24_reschedule_idle),
	SQ_T(smp_threads),
};

SQ_TEST_MAIN("replay (" RP_CTX_NAME ")", tests)
