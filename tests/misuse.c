/* SPDX-License-Identifier: MIT */
/*
 * misuse.c - what SQ_DEBUG promises, for one backend (-DSQ_K=<token>)
 *
 *  - enqueue of a queued node, dequeue of a node that is not queued,
 *    dequeue or requeue of a node through a queue it is not on, a visit,
 *    visit_until or find callback that changes the queue, and an expire
 *    callback that re-arms its node due again stop the program (abort)
 *    with exactly
 *	"sq_KIND_enqueue: node is already queued"
 *	"sq_KIND_dequeue: node is not queued"
 *	"sq_KIND_dequeue: node is on another queue"
 *	"sq_KIND_requeue: node is on another queue"
 *	"sq_KIND_set_elig: node is on another queue" (erb, egavl)
 *	"sq_KIND_visit: fn changed the queue"
 *	"sq_KIND_visit_until: fn changed the queue"
 *	"sq_KIND_find: match changed the queue"
 *	"sq_KIND_expire: fn re-armed its node at or before now"
 *    on stderr; each case runs in a forked child whose stderr is captured;
 *  - requeue of a node that is not queued is not misuse: it arms the node;
 *  - a node that left a queue (dequeue, pop) has poisoned links: at least
 *    one SQ__POISON() value and no pointer to anything still queued, yet
 *    queued() is false and it can be enqueued again;
 *  - check() returns -1 and says "check failed" when the structure is
 *    damaged: a node's key (the cached count and first: each wb_*.c).
 *
 * Every kind of SQ_KINDS runs it, and the eligible picks erb and egavl.
 *
 * With -DSQ_TIE_BASE=<backend of SQ_TIE_KINDS> it runs over a tie kind of
 * that backend (SQ_TIE), whose messages name its own functions, and
 * check() must also see a broken order among equal keys.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "smartq.h"
#include "sq_test.h"
#include "child.h"

#ifndef SQ_DEBUG
#error "misuse.c tests SQ_DEBUG: compile with -DSQ_DEBUG"
#endif
#ifdef SQ_TIE_BASE
#define SQ_K SQ__XCAT2(tie_, SQ_TIE_BASE)	/* tie_rb, ... */
SQ_TIE(SQ_TIE_BASE, SQ_K, node_less);
#endif
#ifndef SQ_K
#error "compile with -DSQ_K=<backend>, a token of SQ_KINDS in smartq.h"
#endif

#define K SQ_K
/* 1 for the kinds with an eligible pick (SQ_SET_ELIG), 0 for the others */
#define MISUSE_ELIG_erb 1
#define MISUSE_ELIG_egavl 1
#define MISUSE_ELIG SQ__XCAT2(MISUSE_ELIG_, SQ_K)
#define STR2(x) #x
#define STR(x) STR2(x)
#define KNAME STR(SQ_K)

static SQ_QUEUE(K) q, q2;
static SQ_NODE(K) nodes[8];

#ifdef SQ_TIE_BASE
static unsigned prio[SQ_NELEM(nodes)];	/* the order among equal keys */

static bool node_less(const SQ_NODE(K) *a, const SQ_NODE(K) *b)
{
	return prio[a - nodes] < prio[b - nodes];
}
#endif

static void setup(void)
{
	unsigned i;

	memset(nodes, 0, sizeof(nodes));
	SQ_INIT(K, &q);
	SQ_INIT(K, &q2);
	for (i = 0; i < SQ_NELEM(nodes); i++)
		SQ_NODE_INIT(K, &nodes[i]);
}

/* @fn must abort with exactly "sq_KIND_@verb: @mistake\n" on stderr */
static void expect_abort(void (*fn)(void), const char *verb,
			 const char *mistake, const char *what)
{
	char want[128];

	snprintf(want, sizeof(want), "sq_%s_%s: %s\n", KNAME, verb, mistake);
	child_expect_abort(fn, want, what);
}

/*
 * node_key - where node @n keeps its key, to damage it behind the queue's
 * back.  Every smartq node starts with its key (egavl's and a tie kind's
 * inside their first member, whatever it is called), and a pointer to a
 * struct, converted, points at its first member; fill() checks that this
 * is the key SQ_KEY reads.
 */
static uint64_t *node_key(SQ_NODE(K) *n)
{
	return (uint64_t *)(void *)n;
}

/* ---- the misuse cases (each runs in a child) ------------------------- */

static void enqueue_twice(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	SQ_ENQUEUE(K, &q, &nodes[1], 2);
	SQ_ENQUEUE(K, &q, &nodes[0], 3);
}

static void enqueue_on_second_queue(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	SQ_ENQUEUE(K, &q2, &nodes[0], 1);
}

static void dequeue_never_queued(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	SQ_DEQUEUE(K, &q, &nodes[1]);
}

static void dequeue_twice(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	SQ_ENQUEUE(K, &q, &nodes[1], 2);
	SQ_DEQUEUE(K, &q, &nodes[1]);
	SQ_DEQUEUE(K, &q, &nodes[1]);
}

static void dequeue_popped(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	SQ_ENQUEUE(K, &q, &nodes[1], 2);
	SQ_POP(K, &q);
	SQ_DEQUEUE(K, &q, &nodes[0]);
}

/*
 * Nodes 0-2 on q, 3-5 on q2, no key on both: a node passed through the
 * queue it is not on must be caught however a backend looks (a walk to
 * the root, the node's home list, its slot in the queue given).
 */
static void two_queues(void)
{
	unsigned i;

	setup();
	for (i = 0; i < 6; i++)
		SQ_ENQUEUE(K, i < 3 ? &q : &q2, &nodes[i], 10 + 10 * (uint64_t)i);
}

static void dequeue_first_of_other(void)
{
	two_queues();
	SQ_DEQUEUE(K, &q2, &nodes[0]);		/* q's first */
}

static void dequeue_last_of_other(void)
{
	two_queues();
	SQ_DEQUEUE(K, &q, &nodes[5]);		/* q2's last */
}

static void dequeue_through_empty(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	SQ_DEQUEUE(K, &q2, &nodes[0]);		/* q2 is empty */
}

static void requeue_of_other(void)
{
	two_queues();
	SQ_REQUEUE(K, &q, &nodes[4], 1);	/* q2's middle */
}

static void requeue_of_other_in_place(void)
{
	two_queues();
	SQ_REQUEUE(K, &q2, &nodes[1], 20);	/* q's, its own key */
}

/* outside the slack window, so it requeues */
static void requeue_slack_of_other(void)
{
	two_queues();
	(void)SQ_REQUEUE_SLACK(K, &q, &nodes[3], 1, 5);
}

#if MISUSE_ELIG
static void set_elig_of_other(void)
{
	two_queues();
	SQ_SET_ELIG(K, &q2, &nodes[2], 7);	/* q's last */
}
#endif

static void visit_dequeue(SQ_NODE(K) *n, void *arg)
{
	(void)arg;
	SQ_DEQUEUE(K, &q, n);
}

static void visit_that_dequeues(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	SQ_ENQUEUE(K, &q, &nodes[1], 2);
	SQ_VISIT(K, &q, visit_dequeue, NULL);
}

static void visit_enqueue(SQ_NODE(K) *n, void *arg)
{
	(void)n;
	(void)arg;
	if (!SQ_QUEUED(K, &nodes[2]))
		SQ_ENQUEUE(K, &q, &nodes[2], 0);
}

static void visit_that_enqueues(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	SQ_VISIT(K, &q, visit_enqueue, NULL);
}

static bool until_dequeue(SQ_NODE(K) *n, void *arg)
{
	(void)arg;
	SQ_DEQUEUE(K, &q, n);
	return false;
}

static void visit_until_that_dequeues(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	SQ_ENQUEUE(K, &q, &nodes[1], 2);
	(void)SQ_VISIT_UNTIL(K, &q, until_dequeue, NULL);
}

/* it stops at once, but after the change: still caught */
static bool until_enqueue(SQ_NODE(K) *n, void *arg)
{
	(void)n;
	(void)arg;
	SQ_ENQUEUE(K, &q, &nodes[2], 0);
	return true;
}

static void visit_until_that_enqueues(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	(void)SQ_VISIT_UNTIL(K, &q, until_enqueue, NULL);
}

/* match gets a const node, but may reach the queue through its argument */
static bool match_dequeue(const SQ_NODE(K) *n, void *arg)
{
	(void)n;
	SQ_DEQUEUE(K, &q, (SQ_NODE(K) *)arg);
	return false;
}

static void find_that_dequeues(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 5);
	SQ_ENQUEUE(K, &q, &nodes[1], 5);
	SQ_ENQUEUE(K, &q, &nodes[2], 9);
	(void)SQ_FIND(K, &q, 5, match_dequeue, &nodes[2]);
}

static bool until_never(SQ_NODE(K) *n, void *arg)
{
	(void)n;
	(void)arg;
	return false;
}

/* correct use: must not abort */
static void correct_use(void)
{
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	SQ_ENQUEUE(K, &q, &nodes[1], 1);
	SQ_REQUEUE(K, &q, &nodes[0], 1);
	SQ_DEQUEUE(K, &q, &nodes[1]);
	SQ_REQUEUE(K, &q, &nodes[2], 3);	/* arms an idle node */
	SQ_DEQUEUE(K, &q, &nodes[2]);
	SQ_ENQUEUE(K, &q, &nodes[1], 0);
	SQ_POP(K, &q);
	SQ_ENQUEUE(K, &q, &nodes[1], 0);
	SQ_POP(K, &q);
	SQ_POP(K, &q);
	SQ_ENQUEUE(K, &q2, &nodes[0], 0);	/* on another queue after pop */
	if (SQ_FIND(K, &q2, 0, NULL, NULL) != &nodes[0] ||
	    SQ_VISIT_UNTIL(K, &q2, until_never, NULL) != NULL)
		_exit(4);
	if (SQ_CHECK(K, &q) != 0 || SQ_CHECK(K, &q2) != 0)
		_exit(3);
	/* two queues in use: every node through its own queue, deep or not */
	two_queues();
	SQ_REQUEUE(K, &q, &nodes[2], 5);		/* q's last, now first */
	SQ_REQUEUE(K, &q2, &nodes[4], 45);		/* in place */
	(void)SQ_REQUEUE_SLACK(K, &q2, &nodes[3], 1, 5);
#if MISUSE_ELIG
	SQ_SET_ELIG(K, &q, &nodes[1], 3);
	SQ_SET_ELIG(K, &q2, &nodes[5], 3);
	SQ_SET_ELIG(K, &q2, &nodes[6], 3);		/* idle: any queue */
#endif
	SQ_DEQUEUE(K, &q, &nodes[1]);
	SQ_DEQUEUE(K, &q2, &nodes[5]);
	SQ_DEQUEUE(K, &q2, &nodes[3]);
	if (SQ_COUNT(K, &q) != 2 || SQ_COUNT(K, &q2) != 1 ||
	    SQ_CHECK(K, &q) != 0 || SQ_CHECK(K, &q2) != 0)
		_exit(3);
	_exit(0);
}

/* an expiry callback that re-arms its node due again: for ever, unseen */
static void rearm_due(SQ_NODE(K) *n, void *arg)
{
	(void)SQ_REQUEUE(K, &q, n, *(const uint64_t *)arg);
}

static void expire_that_rearms_due(void)
{
	uint64_t now = 5;

	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 1);
	SQ_ENQUEUE(K, &q, &nodes[1], 9);
	(void)SQ_EXPIRE(K, &q, now, rearm_due, &now);
}

SQ_TEST(enqueue_of_a_queued_node)
{
	expect_abort(enqueue_twice, "enqueue", "node is already queued",
		     "enqueue twice");
	expect_abort(enqueue_on_second_queue, "enqueue",
		     "node is already queued", "enqueue on a second queue");
}

SQ_TEST(dequeue_of_an_unqueued_node)
{
	expect_abort(dequeue_never_queued, "dequeue", "node is not queued",
		     "dequeue of a node never queued");
	expect_abort(dequeue_twice, "dequeue", "node is not queued",
		     "dequeue twice");
	expect_abort(dequeue_popped, "dequeue", "node is not queued",
		     "dequeue after pop");
}

SQ_TEST(dequeue_or_requeue_through_another_queue)
{
	expect_abort(dequeue_first_of_other, "dequeue",
		     "node is on another queue",
		     "dequeue of q's first through q2");
	expect_abort(dequeue_last_of_other, "dequeue",
		     "node is on another queue",
		     "dequeue of q2's last through q");
	expect_abort(dequeue_through_empty, "dequeue",
		     "node is on another queue",
		     "dequeue through an empty queue");
	expect_abort(requeue_of_other, "requeue", "node is on another queue",
		     "requeue of q2's node through q");
	expect_abort(requeue_of_other_in_place, "requeue",
		     "node is on another queue",
		     "requeue through q2 of q's node to its own key");
	expect_abort(requeue_slack_of_other, "requeue",
		     "node is on another queue",
		     "requeue with slack of q2's node through q");
#if MISUSE_ELIG
	expect_abort(set_elig_of_other, "set_elig", "node is on another queue",
		     "set_elig through q2 of q's node");
#endif
}

SQ_TEST(visit_that_changes_the_queue)
{
	expect_abort(visit_that_dequeues, "visit", "fn changed the queue",
		     "a visit callback that dequeues");
	expect_abort(visit_that_enqueues, "visit", "fn changed the queue",
		     "a visit callback that enqueues");
}

SQ_TEST(visit_until_or_find_that_changes_the_queue)
{
	expect_abort(visit_until_that_dequeues, "visit_until",
		     "fn changed the queue",
		     "a visit_until callback that dequeues");
	expect_abort(visit_until_that_enqueues, "visit_until",
		     "fn changed the queue",
		     "a visit_until callback that enqueues and stops");
	expect_abort(find_that_dequeues, "find", "match changed the queue",
		     "a find predicate that dequeues");
}

SQ_TEST(expire_whose_fn_rearms_its_node_due)
{
	expect_abort(expire_that_rearms_due, "expire",
		     "fn re-armed its node at or before now",
		     "an expire callback that re-arms its node at now");
}

SQ_TEST(correct_use_does_not_stop)
{
	struct child_result res;

	child_run(correct_use, &res);
	SQ_ASSERTF(res.exit_code == 0 && res.err[0] == '\0',
		   "exit %d, signal %d, stderr:\n%s\n", res.exit_code,
		   res.signal, res.err);
}

/* ---- poisoned links ------------------------------------------------- */

/*
 * The node's pointer-sized words: at least one is a poison value, none
 * points at (or, masked of tag bits, into) a node still queued or a queue.
 */
static void expect_poisoned(const SQ_NODE(K) *n, const char *how)
{
	uintptr_t w[sizeof(*n) / sizeof(uintptr_t)], p;
	unsigned i, j, poisoned = 0;
	const unsigned char *a;

	SQ_ASSERTF(!SQ_QUEUED(K, n), "%s: queued() true\n", how);
	memcpy(w, n, sizeof(w));
	for (i = 0; i < SQ_NELEM(w); i++) {
		for (j = 1; j < 16; j++)
			if (w[i] == (uintptr_t)SQ__POISON(j))
				poisoned++;
		/* only bit 0 (rb's colour): on 32-bit targets a node may be
		 * just 4-aligned, and masking more would point into the
		 * node below it */
		p = w[i] & ~(uintptr_t)1;
		for (j = 0; j < SQ_NELEM(nodes); j++) {
			if (&nodes[j] == n || !SQ_QUEUED(K, &nodes[j]))
				continue;
			a = (const unsigned char *)&nodes[j];
			SQ_ASSERTF(p < (uintptr_t)a || p >= (uintptr_t)(a + sizeof(nodes[j])),
				   "%s: word %u still points at queued node %u\n",
				   how, i, j);
		}
		a = (const unsigned char *)&q;
		SQ_ASSERTF(p < (uintptr_t)a || p >= (uintptr_t)(a + sizeof(q)),
			   "%s: word %u points into the queue\n", how, i);
	}
	SQ_ASSERTF(poisoned > 0, "%s: no SQ__POISON value in the node\n", how);
}

/* keys for node i: in the ring's window at the default geometry */
SQ_TEST(dead_links_are_poisoned)
{
	SQ_NODE(K) *n;
	unsigned i;

	setup();
	for (i = 0; i < 6; i++)
		SQ_ENQUEUE(K, &q, &nodes[i], 10 + (uint64_t)(i % 3));
	SQ_DEQUEUE(K, &q, &nodes[3]);		/* a middle one */
	expect_poisoned(&nodes[3], "after dequeue (middle)");
	SQ_DEQUEUE(K, &q, &nodes[0]);		/* the first */
	expect_poisoned(&nodes[0], "after dequeue (first)");
	n = SQ_POP(K, &q);
	SQ_ASSERT(n == &nodes[1]);
	expect_poisoned(n, "after pop");
	SQ_ASSERT_EQ(SQ_CHECK(K, &q), 0);

	/* poisoned nodes go back in without node_init */
	SQ_ASSERT(SQ_ENQUEUE(K, &q, &nodes[3], 1));
	SQ_ASSERT(!SQ_ENQUEUE(K, &q, &nodes[0], 50));
	SQ_ASSERT(!SQ_ENQUEUE(K, &q, &nodes[1], 11));
	SQ_ASSERT_EQ(SQ_CHECK(K, &q), 0);
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 6);
	while ((n = SQ_POP(K, &q)) != NULL)
		expect_poisoned(n, "after pop (drain)");
	SQ_ASSERT_EQ(SQ_CHECK(K, &q), 0);

	/* far keys and keys below a popped one (for the ring: its far
	 * levels and its late list) */
	setup();
	SQ_ENQUEUE(K, &q, &nodes[0], 5);
	SQ_ENQUEUE(K, &q, &nodes[1], UINT64_MAX);	/* overflow */
	SQ_ENQUEUE(K, &q, &nodes[2], UINT64_MAX - 1);
	SQ_ASSERT(SQ_POP(K, &q) == &nodes[0]);		/* time 5 */
	SQ_ENQUEUE(K, &q, &nodes[3], 1);		/* late */
	SQ_ENQUEUE(K, &q, &nodes[4], 2);		/* late */
	SQ_DEQUEUE(K, &q, &nodes[1]);
	expect_poisoned(&nodes[1], "after dequeue (overflow)");
	SQ_DEQUEUE(K, &q, &nodes[4]);
	expect_poisoned(&nodes[4], "after dequeue (late)");
	SQ_ASSERT(SQ_POP(K, &q) == &nodes[3]);
	expect_poisoned(&nodes[3], "after pop (late)");
	SQ_ASSERT(SQ_POP(K, &q) == &nodes[2]);
	expect_poisoned(&nodes[2], "after pop (overflow)");
	SQ_ASSERT(SQ_EMPTY(K, &q));
	SQ_ASSERT_EQ(SQ_CHECK(K, &q), 0);
}

/* ---- check() sees damage --------------------------------------------- */

static void fill(void)
{
	unsigned i;

	setup();
	for (i = 0; i < 7; i++) {
		SQ_ENQUEUE(K, &q, &nodes[i], 10 + 3 * (uint64_t)i);
		if (*node_key(&nodes[i]) != SQ_KEY(K, &nodes[i]))
			_exit(5);	/* node_key() is not the key */
	}
	if (SQ_CHECK(K, &q) != 0)
		_exit(4);		/* sound before the damage */
}

/* exit 0 if check() saw it (-1), 1 if it did not, 2 for another value */
static void check_and_exit(void)
{
	int rc = SQ_CHECK(K, &q);

	_exit(rc == -1 ? 0 : rc == 0 ? 1 : 2);
}

static void damage_first_key(void)
{
	fill();
	*node_key(&nodes[0]) = UINT64_MAX;		/* the first now sorts last */
	check_and_exit();
}

static void damage_middle_key(void)
{
	fill();
	*node_key(&nodes[3]) = 0;			/* a middle node now sorts first */
	check_and_exit();
}

static void expect_check_fails(void (*fn)(void), const char *what)
{
	struct child_result res;

	child_run(fn, &res);
	SQ_ASSERTF(res.exit_code == 0,
		   "%s: check() did not return -1 (exit %d: 1 = returned 0, "
		   "2 = other value, 4 = unsound before, 5 = node_key() "
		   "is not the key; signal %d)\n%s\n",
		   what, res.exit_code, res.signal, res.err);
	SQ_ASSERTF(strstr(res.err, "check failed") != NULL,
		   "%s: no \"check failed\" message on stderr:\n%s\n", what,
		   res.err);
}

#ifdef SQ_TIE_BASE
/* equal keys, ordered by prio 1..7; then a node's prio changes behind the
 * queue's back */
static void fill_equal_keys(void)
{
	unsigned i;

	setup();
	for (i = 0; i < 7; i++) {
		prio[i] = i + 1;
		SQ_ENQUEUE(K, &q, &nodes[i], 10);
	}
	if (SQ_CHECK(K, &q) != 0 || SQ_FIRST(K, &q) != &nodes[0])
		_exit(4);
}

static void damage_tie_first(void)
{
	fill_equal_keys();
	prio[0] = 100;		/* the first now belongs last */
	check_and_exit();
}

/* a middle node now belongs first (in binom a child, not a root: the
 * heap order must see it, not only the cached minimum) */
static void damage_tie_middle(void)
{
	fill_equal_keys();
	prio[3] = 0;
	check_and_exit();
}
#endif

SQ_TEST(check_sees_damage)
{
	expect_check_fails(damage_first_key, "first node's key");
	expect_check_fails(damage_middle_key, "middle node's key");
#ifdef SQ_TIE_BASE
	expect_check_fails(damage_tie_first, "first node's place among equal keys");
	expect_check_fails(damage_tie_middle, "a middle node's place among equal keys");
#endif
}

static const sq_test_entry tests[] = {
	SQ_T(enqueue_of_a_queued_node),
	SQ_T(dequeue_of_an_unqueued_node),
	SQ_T(dequeue_or_requeue_through_another_queue),
	SQ_T(visit_that_changes_the_queue),
	SQ_T(visit_until_or_find_that_changes_the_queue),
	SQ_T(expire_whose_fn_rearms_its_node_due),
	SQ_T(correct_use_does_not_stop),
	SQ_T(dead_links_are_poisoned),
	SQ_T(check_sees_damage),
};

SQ_TEST_MAIN("misuse_" KNAME, tests)
