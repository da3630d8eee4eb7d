/* SPDX-License-Identifier: MIT */
/*
 * replay/test-replay.c - the scheduler model's tests, over every run queue
 *
 * Small hackbench and tbench runs (a few ms of CPU each) for every kind of
 * replay/queues.h and every granularity policy, with every first() checked
 * against the truth (the smallest key, oldest among equals):
 *
 *   - the exact kinds (SQ_KINDS' entries flagged exact, and the O(n) list)
 *     make the same decisions: the same hash of every pick, the
 *     same simulated time and context switches;
 *   - the ring stays within its guarantee: each first() is the smallest
 *     key or the oldest late one (below the ring's time);
 *   - the timed shadow queue agrees with the model at every pop;
 *   - a queue that breaks stability is caught (so the check can fail),
 *     and the truth it is held to is right on a hand-made queue;
 *   - the policies' period and granularity are the kernel's and the mails';
 *   - EEVDF: runs are deterministic, every pick is the earliest eligible
 *     deadline (held to an O(n) scan), and the eligible tree agrees with
 *     the scan on random queues.
 */
#define _POSIX_C_SOURCE 200809L
#include "model.h"
#include "sq_test.h"

#define HB_GROUPS 3
#define HB_LOOPS  6
#define TB_NS     1500000000u	/* 1.5 s: the 0.5 s and 1 s daemons wake */

static const struct rp_assume rp_as_default = RP_ASSUME_DEFAULT;

static const struct rp_kind *first_exact(void)
{
	size_t k;

	for (k = 0; k < RP_NKINDS; k++)
		if (rp_kinds[k].exact)
			return &rp_kinds[k];
	return NULL;
}

/* Every kind, one workload and policy: the exact ones agree, all pass. */
static void all_kinds(int tbench, const struct rp_policy *pol)
{
	const struct rp_kind *ref = first_exact();
	struct rp_result want, got;
	size_t k;

	SQ_ASSERT(ref != NULL);
	memset(&want, 0, sizeof(want));
	memset(&got, 0, sizeof(got));
	for (k = 0; k < RP_NKINDS; k++) {
		const struct rp_kind *q = &rp_kinds[k];
		struct rp_result *r = q == ref ? &want : &got;

		if (tbench)
			rp_tbench(r, q, pol, TB_NS, 0, 7, 1, 1);
		else
			rp_hackbench(r, q, pol, HB_GROUPS, HB_LOOPS, 1, 1);
		SQ_ASSERTF(!r->err, "%s, %s, policy %s: %s\n",
			   tbench ? "tbench" : "hackbench",
			   rp_kind_label(q), pol->name, r->err);
		SQ_ASSERT(r->picks > 0 && r->rq_ops > 0);
		if (!q->exact) {
			printf("    %s %s %s: of %" PRIu64 " firsts %"
			       PRIu64 " late, %" PRIu64 " off the smallest "
			       "key; trace %s the exact kinds'\n",
			       tbench ? "tbench" : "hackbench", pol->name,
			       rp_kind_label(q), r->late_picks +
			       r->strict_picks + r->other_picks,
			       r->late_picks, r->other_picks,
			       r->hash == want.hash ? "equal to" : "unlike");
			continue;
		}
		SQ_ASSERTF(r->late_picks == 0 && r->hash == want.hash &&
			   r->sim_ns == want.sim_ns &&
			   r->switches == want.switches,
			   "%s, policy %s: %s's trace %016" PRIx64 " (%" PRIu64
			   " late picks) differs from %s's %016" PRIx64 "\n",
			   tbench ? "tbench" : "hackbench", pol->name,
			   rp_kind_label(q), r->hash, r->late_picks,
			   rp_kind_label(ref), want.hash);
	}
}

/* Sockets with a small sndbuf (14 messages), so that writers block here
 * too, and pipes. */
SQ_TEST(hackbench_exact_kinds_agree)
{
	size_t p;

	rp_as.sock_buf = 4096;
	for (p = 0; p < RP_NPOLICIES; p++)
		all_kinds(0, &rp_policies[p]);
	rp_as.ipc = RP_IPC_PIPE;
	for (p = 0; p < RP_NPOLICIES; p++)
		all_kinds(0, &rp_policies[p]);
	rp_as = rp_as_default;
}

SQ_TEST(tbench_exact_kinds_agree)
{
	size_t p;

	for (p = 0; p < RP_NPOLICIES; p++)
		all_kinds(1, &rp_policies[p]);
}

/* hackbench finishes every message, in no less time than the work takes. */
SQ_TEST(hackbench_does_the_work)
{
	const uint64_t msgs = (uint64_t)HB_GROUPS * RP_HB_FDS * RP_HB_FDS *
			      HB_LOOPS;
	struct rp_result r, again;

	rp_hackbench(&r, first_exact(), &rp_policies[0], HB_GROUPS, HB_LOOPS,
		     0, 0);
	SQ_ASSERT(!r.err);
	SQ_ASSERT(r.sim_ns >= msgs * (rp_as.msg_write + rp_as.msg_read)
			      + r.switches * rp_as.ctxsw);
	SQ_ASSERT(r.switches <= r.picks);
	SQ_ASSERT(r.jain > 0 && r.jain <= 1.0);
	/* untimed and unchecked: the same decisions */
	rp_hackbench(&again, first_exact(), &rp_policies[0], HB_GROUPS,
		     HB_LOOPS, 1, 2);
	SQ_ASSERT(!again.err);
	SQ_ASSERT_EQ(again.hash, r.hash);
}

SQ_TEST(tbench_moves_data)
{
	struct rp_result r;

	rp_tbench(&r, first_exact(), &rp_policies[0], TB_NS, 0, 7, 0, 0);
	SQ_ASSERT(!r.err);
	SQ_ASSERT(r.ops > 1000 && r.mbps > 0);
	/* no operation is faster than its own CPU work */
	SQ_ASSERT(r.max_latency_ms * 1e6 >=
		  (double)(4 * rp_as.net_call + rp_as.server_work));
	SQ_ASSERT(r.sim_ns == TB_NS);
}

/* A list that returns the newest of equal keys: the check must object. */
static uint32_t unstable_first(void)
{
	const struct sq_rp_list *q = &rp_q_rp_list;
	const struct sq_rp_list_node *n, *best = NULL;

	for (n = q->rl_head.rl_next; n != &q->rl_head; n = n->rl_next)
		if (!best || n->key <= best->key)
			best = n;
	return RP_NODEIDX(best, rp_n_rp_list);
}

SQ_TEST(check_catches_an_unstable_queue)
{
	struct rp_kind bad = *rp_kind_find("list");
	struct rp_result r;

	bad.first = unstable_first;
	rp_hackbench(&r, &bad, &rp_policies[0], HB_GROUPS, HB_LOOPS, 0, 1);
	SQ_ASSERT(r.err != NULL);
	printf("    caught: %s\n", r.err);
}

/* The truth the ring is held to: the smallest key (oldest among equal
 * keys), and the oldest of the keys below the ring's time. */
SQ_TEST(truth_of_smallest_and_late)
{
	static const uint64_t key[] = { 50, 30, 30, 70, 20, 40 };
	static const uint64_t seq[] = { 1, 5, 3, 2, 6, 4 };
	struct rp_task t[6];
	struct rp_sim s;
	uint32_t i, min, late;

	memset(&s, 0, sizeof(s));
	memset(t, 0, sizeof(t));
	s.t = t;
	s.nt = 6;
	for (i = 0; i < 6; i++) {
		t[i].key = key[i];
		t[i].enq_seq = seq[i];
		t[i].in_tree = i != 4;	/* 20 is running, not queued */
	}
	s.ring_time = 45;
	rp_truth(&s, &min, &late);
	SQ_ASSERT_EQ(min, 2);	/* 30, enqueued before the other 30 */
	SQ_ASSERT_EQ(late, 2);	/* below 45: seq 3 oldest of 3, 4, 5 */
	t[2].in_tree = false;
	rp_truth(&s, &min, &late);
	SQ_ASSERT_EQ(min, 1);
	SQ_ASSERT_EQ(late, 5);	/* 40 (seq 4) is older than 30 (seq 5) */
	s.ring_time = 0;
	rp_truth(&s, &min, &late);
	SQ_ASSERT_EQ(late, RP_NONE);
}

SQ_TEST(policies_are_the_kernels)
{
	const struct rp_policy *m = &rp_policies[0], *d = &rp_policies[1],
			       *s = &rp_policies[2];

	SQ_ASSERT(!strcmp(m->name, "mainline") && !strcmp(d->name, "dynamic")
		  && !strcmp(s->name, "smaller"));
	/* 2.6.35: 6 ms latency, 2 ms granularity, nr_latency 3 */
	SQ_ASSERT_EQ(rp_period(m, 3), 6000000);
	SQ_ASSERT_EQ(rp_period(m, 4), 8000000);
	SQ_ASSERT_EQ(rp_min_gran(m, 10), 2000000);
	/* 0bf377bb: 0.75 ms, nr_latency 8 */
	SQ_ASSERT_EQ(rp_period(s, 8), 6000000);
	SQ_ASSERT_EQ(rp_period(s, 9), 6750000);
	SQ_ASSERT_EQ(rp_min_gran(s, 2), 750000);
	/* dynamic: mainline up to 3 tasks, then latency / nr to 0.75 ms */
	SQ_ASSERT_EQ(rp_period(d, 3), 6000000);
	SQ_ASSERT_EQ(rp_min_gran(d, 3), 2000000);
	SQ_ASSERT_EQ(rp_period(d, 4), 6000000);
	SQ_ASSERT_EQ(rp_min_gran(d, 4), 1500000);
	SQ_ASSERT_EQ(rp_min_gran(d, 10), 750000);
	SQ_ASSERT_EQ(rp_period(d, 10), 7500000);
}

static const struct rp_policy *eevdf(void)
{
	const struct rp_policy *p = &rp_policies[RP_NPOLICIES - 1];

	SQ_ASSERT(p->base_slice == 750000 && !strcmp(p->name, "eevdf"));
	return p;
}

/* Twice the same run, checked: the same trace; no pick is ineligible. */
SQ_TEST(eevdf_deterministic_and_eligible)
{
	const struct rp_kind *q = rp_kind_find("rb");
	struct rp_result a, b;
	uint64_t detours = 0;
	int w;

	for (w = 0; w < 3; w++) {
		if (w == 0) {
			rp_hackbench(&a, q, eevdf(), HB_GROUPS, HB_LOOPS, 0, 1);
			rp_hackbench(&b, q, eevdf(), HB_GROUPS, HB_LOOPS, 1, 2);
		} else {	/* tbench alone, then beside 3 hogs */
			uint32_t hogs = w == 1 ? 0 : 3;

			rp_tbench(&a, q, eevdf(), TB_NS, hogs, 7, 0, 1);
			rp_tbench(&b, q, eevdf(), TB_NS, hogs, 7, 1, 2);
		}
		SQ_ASSERTF(!a.err && !b.err, "run %d: %s\n", w,
			   a.err ? a.err : b.err);
		SQ_ASSERT_EQ(a.hash, b.hash);
		SQ_ASSERT_EQ(a.sim_ns, b.sim_ns);
		SQ_ASSERT_EQ(a.switches, b.switches);
		/* every pick was held to the scan */
		SQ_ASSERT_EQ(a.elig_checked, a.picks);
		printf("    run %d: %" PRIu64 " picks, %" PRIu64 " past an "
		       "ineligible first\n", w, a.picks, a.detours);
		detours += a.detours;
	}
	/* the tree's descent was taken, and held to the scan */
	SQ_ASSERT(detours > 0);
}

/* The tree's descent against the scan, on random vruntimes and deadlines */
SQ_TEST(eevdf_tree_pick_is_the_scans)
{
	enum { NT = 64 };
	struct rp_task t[NT];
	struct sq_erb_node el[NT];
	struct rp_sim s;
	uint64_t rng = 42;
	uint32_t round, i, in = 0, found = 0;

	memset(&s, 0, sizeof(s));
	memset(t, 0, sizeof(t));
	s.t = t;
	s.el = el;
	s.nt = NT;
	sq_erb_init(&s.etree);
	s.pol = eevdf();
	for (i = 0; i < NT; i++)
		sq_erb_node_init(&el[i]);
	for (round = 0; round < 20000; round++) {
		uint32_t k = (uint32_t)(rp_rand(&rng) % NT), got, want;
		bool any;

		if (t[k].in_tree) {	/* leave the run queue */
			rp_el_remove(&s, k);
			t[k].in_tree = false;
			s.vsum -= (int64_t)(t[k].vruntime - RP_VBASE);
			s.nr_running--;
			in--;
		} else {	/* join with a narrow spread, and a deadline
				 * apart from the vruntime: the first is often
				 * not eligible, so the descent is taken */
			t[k].vruntime = RP_VBASE + rp_rand(&rng) % 1000;
			/* cppcheck-suppress unreadVariable ; read through s.t */
			t[k].deadline = RP_VBASE + rp_rand(&rng) % 1700;
			/* cppcheck-suppress unreadVariable ; read through s.t */
			t[k].enq_seq = ++s.enq_seq;
			t[k].in_tree = true;
			rp_el_insert(&s, k);
			s.vsum += (int64_t)(t[k].vruntime - RP_VBASE);
			s.nr_running++;
			in++;
		}
		got = rp_el_pick(&s);
		want = rp_el_scan(&s, &any);
		SQ_ASSERT_EQ(got, want);
		SQ_ASSERT(any == (in > 0));
		/* the descent: an eligible task behind an ineligible first */
		found += got != RP_NONE && !sq_erb_empty(&s.etree) &&
			 &el[got] != sq_erb_first(&s.etree);
		SQ_ASSERT(sq_erb_check(&s.etree) == 0);
	}
	SQ_ASSERT(found > 0);
	printf("    %u of 20000 picks past an ineligible first\n", found);
}

/* Run-queue costs in simulated time (the fixed table): deterministic,
 * charged, and the O(n) list's scans make it finish later than rb. */
SQ_TEST(rq_cost_in_simulated_time)
{
	struct rp_cost_table flat, scans;
	struct rp_result none, rb, rb2, list;

	rp_cost_fixed(&flat, 0);
	rp_cost_fixed(&scans, 1);
	SQ_ASSERT(rp_op_ns(&scans, RP_OP_POP, 1000) == 1100);
	SQ_ASSERT(rp_op_ns(&flat, RP_OP_POP, 1000) == 100);
	SQ_ASSERT(rp_op_ns(&scans, RP_OP_FIRST, 2) == 22);
	rp_cost_next = NULL;
	rp_hackbench(&none, rp_kind_find("rb"), &rp_policies[0], HB_GROUPS,
		     HB_LOOPS, 0, 1);
	rp_cost_next = &flat;
	rp_hackbench(&rb, rp_kind_find("rb"), &rp_policies[0], HB_GROUPS,
		     HB_LOOPS, 0, 1);
	rp_hackbench(&rb2, rp_kind_find("rb"), &rp_policies[0], HB_GROUPS,
		     HB_LOOPS, 1, 2);
	rp_cost_next = &scans;
	rp_hackbench(&list, rp_kind_find("list"), &rp_policies[0], HB_GROUPS,
		     HB_LOOPS, 0, 1);
	rp_cost_next = NULL;
	SQ_ASSERT(!none.err && !rb.err && !rb2.err && !list.err);
	SQ_ASSERT_EQ(none.rq_sim_ns, 0);
	/* the charge is run, on top of the work and the switches (it may
	 * still finish sooner: the costs break ties, and fewer switches) */
	SQ_ASSERT(rb.rq_sim_ns > 0);
	SQ_ASSERT(rb.sim_ns >= (uint64_t)HB_GROUPS * RP_HB_FDS * RP_HB_FDS *
		  HB_LOOPS * (rp_as.msg_write + rp_as.msg_read) +
		  rb.switches * rp_as.ctxsw + rb.rq_sim_ns);
	SQ_ASSERT_EQ(rb.hash, rb2.hash);
	SQ_ASSERT_EQ(rb.sim_ns, rb2.sim_ns);
	SQ_ASSERT(list.rq_sim_ns > rb.rq_sim_ns && list.sim_ns > rb.sim_ns);
	printf("    sim ms: no cost %.3f, rb %.3f, list %.3f\n",
	       (double)none.sim_ns / 1e6, (double)rb.sim_ns / 1e6,
	       (double)list.sim_ns / 1e6);
}

/* A run of @nt tasks with nothing scheduled yet: the tests below drive
 * the scheduler's functions by hand. */
static void bare_sim(struct rp_sim *s, const struct rp_policy *pol,
		     uint32_t nt)
{
	rp_sim_init(s, rp_kind_find("rb"), pol, &rp_hackbench_wl, NULL, nt,
		    0, 1);
}

/* curr runs @ns more */
static void run_for(struct rp_sim *s, uint64_t ns)
{
	s->now += ns;
	rp_update_curr(s);
}

/*
 * The channels: a socket takes writes while wmem_alloc < sndbuf and wakes
 * its writers only once drained to a quarter; a pipe wakes them at every
 * read; both wake the newest waiter first.
 */
SQ_TEST(hackbench_channels)
{
	struct rp_sim s;
	struct rp_chan c;
	uint32_t i, n = 0;

	SQ_ASSERT_EQ(rp_msg_charge(RP_IPC_SOCKET, 100), 128 + 180);
	SQ_ASSERT_EQ(rp_msg_charge(RP_IPC_SOCKET, 1), 32 + 180);
	SQ_ASSERT_EQ(rp_msg_charge(RP_IPC_PIPE, 100), 100);
	bare_sim(&s, &rp_policies[0], 4);
	for (i = 0; i < 4; i++)
		rp_fork(&s, i);
	rp_chan_init(&c, 100);
	/* 65535 / 308: 212 writes leave room for one more, not two */
	while (c.used < c.room) {
		rp_schedule(&s);
		SQ_ASSERT(rp_chan_write(&s, &c, s.curr));
		s.t[s.curr].busy = false;
		s.t[s.curr].remaining = 0;
		rp_chan_written(&s, &c);
		n++;
	}
	SQ_ASSERT_EQ(n, 213);
	/* three writers block, in the order 0, 1, 2 of whoever runs */
	for (i = 0; i < 3; i++) {
		rp_schedule(&s);
		SQ_ASSERT(!rp_chan_write(&s, &c, s.curr));
	}
	SQ_ASSERT_EQ(s.nr_running, 1);
	/* reads down to 54 messages (16632 bytes) wake nobody; one more
	 * (16324 <= 65535 / 4) wakes all three */
	while (c.used - c.charge > c.wake_at) {
		c.avail--;
		rp_chan_consumed(&s, &c);
		SQ_ASSERT_EQ(s.nr_running, 1);
	}
	c.avail--;
	rp_chan_consumed(&s, &c);
	SQ_ASSERT_EQ(s.nr_running, 4);
	SQ_ASSERT_EQ(c.writers, RP_NONE);
	SQ_ASSERT_EQ(c.used, 53 * c.charge);
	rp_sim_fini(&s);

	rp_as.ipc = RP_IPC_PIPE;
	bare_sim(&s, &rp_policies[0], 3);
	for (i = 0; i < 3; i++)
		rp_fork(&s, i);
	rp_chan_init(&c, 100);
	SQ_ASSERT_EQ(c.room, 4096 - 100 + 1);	/* 40 messages fit */
	c.used = c.room;
	{
		uint32_t first, second;

		rp_schedule(&s);
		first = s.curr;
		SQ_ASSERT(!rp_chan_write(&s, &c, first));
		rp_schedule(&s);
		second = s.curr;
		SQ_ASSERT(!rp_chan_write(&s, &c, second));
		c.used = 4096;
		c.avail = 1;
		rp_chan_consumed(&s, &c);	/* any read wakes them */
		SQ_ASSERT_EQ(s.nr_running, 3);
		/* newest first: the second waiter was enqueued first */
		SQ_ASSERT(s.t[second].enq_seq < s.t[first].enq_seq);
	}
	rp_sim_fini(&s);
	rp_as = rp_as_default;
}

/* START_DEBIT: a child at max(parent, min_vruntime + its slice in a
 * queue one longer); EEVDF 6.6: at V with no lag, a whole slice. */
SQ_TEST(fork_placement)
{
	const struct rp_policy *m = &rp_policies[0];
	struct rp_sim s;
	uint32_t i;
	uint64_t v;

	bare_sim(&s, m, 8);
	rp_fork(&s, 0);		/* alone, at min_vruntime + latency */
	SQ_ASSERT_EQ(s.t[0].vruntime, RP_VBASE + m->latency);
	rp_schedule(&s);
	SQ_ASSERT_EQ(s.curr, 0);
	run_for(&s, 1000000);
	/* the parent's vruntime is min_vruntime now: 2 tasks, 6 ms / 2 */
	rp_fork(&s, 1);
	SQ_ASSERT_EQ(s.t[1].vruntime, s.min_vruntime + m->latency / 2);
	SQ_ASSERT(s.need_resched == false);	/* no preemption by a child */
	for (i = 2; i < 8; i++) {
		uint64_t nr = s.nr_running + 1u;

		run_for(&s, 100000);
		v = rp_max_vr(s.t[0].vruntime, s.min_vruntime +
				 rp_period(m, nr) / nr);
		rp_fork(&s, i);
		SQ_ASSERT_EQ(s.t[i].vruntime, v);
	}
	/* beyond nr_latency the period grows: 2 ms x 8 over 8 */
	SQ_ASSERT_EQ(rp_period(m, 8) / 8, m->min_gran);
	rp_sim_fini(&s);

	bare_sim(&s, eevdf(), 3);
	rp_fork(&s, 0);
	rp_schedule(&s);
	run_for(&s, 300000);
	s.t[1].vlag = 123456;	/* a new task's lag is 0 (__sched_fork) */
	v = rp_avg_vruntime(&s);
	rp_fork(&s, 1);
	SQ_ASSERT_EQ(s.t[1].vlag, 0);
	SQ_ASSERT_EQ(s.t[1].vruntime, v);
	SQ_ASSERT_EQ(s.t[1].deadline, v + eevdf()->base_slice);
	rp_sim_fini(&s);
}

/* The background is an option: none leaves tbench's latency at its own
 * work; the assumed daemons (the 1 ms user daemon fires in 1.5 s) raise
 * it above a millisecond. */
SQ_TEST(background_is_an_assumption)
{
	struct rp_result none, some;

	rp_as.background = 0;
	rp_tbench(&none, first_exact(), &rp_policies[0], TB_NS, 0, 7, 0, 0);
	rp_as = rp_as_default;
	rp_tbench(&some, first_exact(), &rp_policies[0], TB_NS, 0, 7, 0, 0);
	SQ_ASSERT(!none.err && !some.err);
	SQ_ASSERT(none.max_latency_ms < 0.1);
	SQ_ASSERT(some.max_latency_ms > 1.0);
	SQ_ASSERT(none.ops > some.ops);
	printf("    max latency: no background %.3f ms, assumed %.3f ms\n",
	       none.max_latency_ms, some.max_latency_ms);
}

static const sq_test_entry tests[] = {
	SQ_T(hackbench_exact_kinds_agree),
	SQ_T(tbench_exact_kinds_agree),
	SQ_T(hackbench_does_the_work),
	SQ_T(tbench_moves_data),
	SQ_T(check_catches_an_unstable_queue),
	SQ_T(truth_of_smallest_and_late),
	SQ_T(policies_are_the_kernels),
	SQ_T(eevdf_deterministic_and_eligible),
	SQ_T(eevdf_tree_pick_is_the_scans),
	SQ_T(rq_cost_in_simulated_time),
	SQ_T(hackbench_channels),
	SQ_T(fork_placement),
	SQ_T(background_is_an_assumption),
};

SQ_TEST_MAIN("replay", tests)
