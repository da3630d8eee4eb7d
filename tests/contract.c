/* SPDX-License-Identifier: MIT */
/*
 * contract.c - the API contract, written once against the macro API
 *
 * Compiled once per backend with -DSQ_K=<token of SQ_KINDS>, so every
 * backend answers the same questions: empty-queue calls, enqueue's return
 * value, first() consistency, FIFO among equal keys, keys 0 and UINT64_MAX,
 * dequeue of the first, a middle and the last node, requeue (same key,
 * up, down) and its return value, node state, sq_entry round trips, and
 * check() == 0 after every step; and the operations a timer or an event
 * loop needs: dequeue's answer, requeue arming an idle node, pop_due,
 * expire, visit, init_at; and what a simulator needs: find by key (with and
 * without a predicate) and a visit that stops.
 *
 * With -DSQ_TIE_BASE=<backend of SQ_TIE_KINDS> instead, the suite runs
 * over a tie kind of that backend (SQ_TIE), ordered among equal keys by
 * an item's prio: all of the above with every prio 0, where a tie kind
 * must behave as the plain one (FIFO), and then the tie order itself.
 *
 * Every backend runs at its default init, where even a backend that is
 * exact only to a granularity (SQ_KINDS' flag 0) is exact: granularity 1,
 * and no key below the time a pop reached.  Its inexact cases are the job
 * of tests/diff.c and its white-box suite.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "smartq.h"
#include "sq_test.h"
#include "rng.h"

#ifdef SQ_TIE_BASE
#define SQ_K SQ__XCAT2(tie_, SQ_TIE_BASE)	/* tie_rb, ... */
#define SQ_K_BACKEND SQ_TIE_BASE
SQ_TIE(SQ_TIE_BASE, SQ_K, item_less);
#else
#define SQ_K_BACKEND SQ_K
#endif
#ifndef SQ_K
#error "compile with -DSQ_K=<backend>, a token of SQ_KINDS in smartq.h"
#endif

#define K SQ_K

#define KEYSPAN ((uint64_t)1 << 20)

struct item {
	char pad[3];			/* so the link is not at offset 0 */
	unsigned id;
	SQ_NODE(K) link;
	uint64_t tag;
	unsigned prio;			/* a tie kind's order among equal keys */
};

#define NITEMS 512
static struct item items[NITEMS];
static SQ_QUEUE(K) q;

#define CHECKQ() SQ_ASSERT_EQ(SQ_CHECK(K, &q), 0)
#define ITEM(n) sq_entry((n), struct item, link)

#ifdef SQ_TIE_BASE
static bool item_less(const SQ_NODE(K) *a, const SQ_NODE(K) *b)
{
	return sq_entry_const(a, struct item, link)->prio <
	       sq_entry_const(b, struct item, link)->prio;
}
#endif

static void setup(void)
{
	unsigned i;

	memset(items, 0, sizeof(items));
	for (i = 0; i < NITEMS; i++) {
		items[i].id = i;
		items[i].tag = 0xfeed0000u + i;
		SQ_NODE_INIT(K, &items[i].link);
	}
	SQ_INIT(K, &q);
}

static bool enq(unsigned i, uint64_t key)
{
	return SQ_ENQUEUE(K, &q, &items[i].link, key);
}

/* pop one node and return its item id; fails the test if empty */
static unsigned pop_id(void)
{
	SQ_NODE(K) *f = SQ_FIRST(K, &q);
	SQ_NODE(K) *n = SQ_POP(K, &q);

	SQ_ASSERT(n != NULL);
	SQ_ASSERT(n == f);		/* pop takes exactly what first showed */
	SQ_ASSERT(!SQ_QUEUED(K, n));
	return ITEM(n)->id;
}

static unsigned first_id(void)
{
	SQ_NODE(K) *f = SQ_FIRST(K, &q);

	SQ_ASSERT(f != NULL);
	return ITEM(f)->id;
}

/* one fixed stream, so the tests are reproducible */
static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void)
{
	return rng_next(&rng);
}

SQ_TEST(empty_queue)
{
	setup();
	SQ_ASSERT(SQ_EMPTY(K, &q));
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 0);
	SQ_ASSERT(SQ_FIRST(K, &q) == NULL);
	SQ_ASSERT(SQ_POP(K, &q) == NULL);
	SQ_ASSERT(SQ_POP(K, &q) == NULL);
	SQ_ASSERT(SQ_EMPTY(K, &q));
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 0);
	CHECKQ();

	/* emptied again after use: the same answers */
	SQ_ASSERT(enq(0, 7));
	CHECKQ();
	SQ_ASSERT(!SQ_EMPTY(K, &q));
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 1);
	SQ_ASSERT_EQ(pop_id(), 0);
	SQ_ASSERT(SQ_EMPTY(K, &q));
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 0);
	SQ_ASSERT(SQ_FIRST(K, &q) == NULL);
	SQ_ASSERT(SQ_POP(K, &q) == NULL);
	CHECKQ();

	SQ_ASSERT(enq(1, 9));
	SQ_DEQUEUE(K, &q, &items[1].link);
	SQ_ASSERT(SQ_EMPTY(K, &q));
	SQ_ASSERT(SQ_FIRST(K, &q) == NULL);
	CHECKQ();
}

SQ_TEST(enqueue_return_value)
{
	setup();
	SQ_ASSERT(enq(0, 10));		/* first of an empty queue */
	CHECKQ();
	SQ_ASSERT(!enq(1, 20));		/* behind */
	CHECKQ();
	SQ_ASSERT(!enq(2, 10));		/* equal key goes behind the equal */
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 0);
	SQ_ASSERT(enq(3, 5));		/* new smallest */
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 3);
	SQ_ASSERT(!enq(4, 5));
	SQ_ASSERT(enq(5, 0));
	SQ_ASSERT(!enq(6, 0));
	CHECKQ();
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 7);

	SQ_ASSERT_EQ(pop_id(), 5);
	SQ_ASSERT_EQ(pop_id(), 6);
	SQ_ASSERT_EQ(pop_id(), 3);
	SQ_ASSERT_EQ(pop_id(), 4);
	SQ_ASSERT_EQ(pop_id(), 0);
	SQ_ASSERT_EQ(pop_id(), 2);
	SQ_ASSERT_EQ(pop_id(), 1);
	SQ_ASSERT(SQ_EMPTY(K, &q));
	CHECKQ();
}

/*
 * first() always shows the smallest key, earliest among equals, the key
 * member reads back, and calling first() changes nothing.
 */
SQ_TEST(first_is_consistent)
{
	unsigned i, best = 0;
	uint64_t best_key = UINT64_MAX, k;
	SQ_NODE(K) *f;
	bool now_first;

	setup();
	for (i = 0; i < 300; i++) {
		k = rnd() % 64;
		now_first = enq(i, k);
		SQ_ASSERT_EQ(SQ_KEY(K, &items[i].link), k);
		if (i == 0 || k < best_key) {
			SQ_ASSERT(now_first);
			best = i;
			best_key = k;
		} else {
			SQ_ASSERT(!now_first);
		}
		f = SQ_FIRST(K, &q);
		SQ_ASSERT(f == &items[best].link);
		SQ_ASSERT(SQ_FIRST(K, &q) == f);
		SQ_ASSERT_EQ(SQ_KEY(K, f), best_key);
		SQ_ASSERT_EQ(SQ_COUNT(K, &q), i + 1);
		CHECKQ();
	}
}

SQ_TEST(fifo_among_equal_keys)
{
	unsigned i;

	setup();
	/* all equal */
	for (i = 0; i < 100; i++) {
		SQ_ASSERT_EQ(enq(i, 42), i == 0);
		CHECKQ();
	}
	for (i = 0; i < 100; i++) {
		SQ_ASSERT_EQ(pop_id(), i);
		CHECKQ();
	}

	/* three keys interleaved: each key's nodes come out in enqueue order */
	for (i = 0; i < 300; i++) {
		enq(i, 100 + (i % 3));
		CHECKQ();
	}
	for (i = 0; i < 300; i++) {
		SQ_ASSERT_EQ(pop_id(), (i % 100) * 3 + i / 100);
		CHECKQ();
	}
	SQ_ASSERT(SQ_EMPTY(K, &q));
}

SQ_TEST(extreme_keys)
{
	static const uint64_t keys[] = {
		UINT64_MAX, 0, UINT64_MAX - 1, 1, (uint64_t)1 << 63,
		((uint64_t)1 << 63) - 1, 2, UINT64_MAX - 2,
	};
	static const unsigned order[] = { 1, 3, 6, 5, 4, 7, 2, 0 };
	unsigned i;

	setup();
	for (i = 0; i < SQ_NELEM(keys); i++) {
		enq(i, keys[i]);
		SQ_ASSERT_EQ(SQ_KEY(K, &items[i].link), keys[i]);
		CHECKQ();
	}
	for (i = 0; i < SQ_NELEM(order); i++) {
		SQ_ASSERT_EQ(first_id(), order[i]);
		SQ_ASSERT_EQ(pop_id(), order[i]);
		CHECKQ();
	}
	SQ_ASSERT(SQ_EMPTY(K, &q));

	/* key 0 repeated: FIFO, and first throughout */
	for (i = 0; i < 10; i++) {
		SQ_ASSERT_EQ(enq(i, 0), i == 0);
		CHECKQ();
	}
	for (i = 0; i < 10; i++)
		SQ_ASSERT_EQ(pop_id(), i);
	CHECKQ();

	/* UINT64_MAX repeated, mixed with 0 */
	for (i = 0; i < 20; i++) {
		enq(i, (i & 1) ? 0 : UINT64_MAX);
		CHECKQ();
	}
	for (i = 0; i < 10; i++)
		SQ_ASSERT_EQ(pop_id(), 2 * i + 1);
	for (i = 0; i < 10; i++) {
		SQ_ASSERT_EQ(pop_id(), 2 * i);
		CHECKQ();
	}
	SQ_ASSERT(SQ_EMPTY(K, &q));
}

/* enqueue 0..n-1 with key 10 * i, so item i is i-th */
static void fill_sorted(unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		enq(i, 10 * (uint64_t)i);
		CHECKQ();
	}
}

/* pop everything, expecting @ids in order */
static void expect_order(const unsigned *ids, unsigned n)
{
	unsigned i;

	SQ_ASSERT_EQ(SQ_COUNT(K, &q), n);
	for (i = 0; i < n; i++) {
		SQ_ASSERT_EQ(pop_id(), ids[i]);
		CHECKQ();
	}
	SQ_ASSERT(SQ_EMPTY(K, &q));
}

SQ_TEST(dequeue_first_middle_last)
{
	static const unsigned rest[] = { 1, 2, 3, 5, 6, 7 };

	setup();
	fill_sorted(9);
	SQ_DEQUEUE(K, &q, &items[0].link);		/* first */
	SQ_ASSERT(!SQ_QUEUED(K, &items[0].link));
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 1);
	SQ_DEQUEUE(K, &q, &items[4].link);		/* middle */
	SQ_ASSERT(!SQ_QUEUED(K, &items[4].link));
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 1);
	SQ_DEQUEUE(K, &q, &items[8].link);		/* last */
	SQ_ASSERT(!SQ_QUEUED(K, &items[8].link));
	CHECKQ();
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 6);
	expect_order(rest, 6);
}

/* dequeue of each possible position among equal keys, and of the last node */
SQ_TEST(dequeue_among_equal_keys)
{
	unsigned victim, i, want;

	for (victim = 0; victim < 8; victim++) {
		setup();
		for (i = 0; i < 8; i++)
			enq(i, 5);
		SQ_DEQUEUE(K, &q, &items[victim].link);
		CHECKQ();
		for (i = 0; i < 8; i++) {
			if (i == victim)
				continue;
			want = i;
			SQ_ASSERT_EQ(pop_id(), want);
		}
		SQ_ASSERT(SQ_EMPTY(K, &q));
	}

	/* dequeue down to empty in a scattered order */
	setup();
	fill_sorted(64);
	for (i = 0; i < 64; i++) {
		SQ_DEQUEUE(K, &q, &items[(i * 37) % 64].link);
		CHECKQ();
		SQ_ASSERT_EQ(SQ_COUNT(K, &q), 63 - i);
	}
	SQ_ASSERT(SQ_EMPTY(K, &q));
	SQ_ASSERT(SQ_FIRST(K, &q) == NULL);
}

SQ_TEST(requeue_same_key)
{
	static const unsigned o1[] = { 1, 0, 2 };

	setup();
	/* alone: nothing changes */
	enq(0, 5);
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[0].link, 5));
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 0);

	/* first among equals moves behind them: first changes */
	enq(1, 5);
	enq(2, 5);
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[0].link, 5));	/* 1 2 0 */
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 1);
	SQ_ASSERT_EQ(SQ_KEY(K, &items[0].link), 5);

	/* middle one moves behind: first unchanged */
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[2].link, 5));	/* 1 0 2 */
	CHECKQ();
	/* last one: stays last */
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[2].link, 5));	/* 1 0 2 */
	CHECKQ();
	SQ_ASSERT(SQ_QUEUED(K, &items[0].link));
	expect_order(o1, 3);

	/* same key with a larger key behind: the requeued first stays first */
	setup();
	enq(0, 5);
	enq(1, 6);
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[0].link, 5));
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 0);
}

/* SQ_REQUEUE_SLACK: a node queued inside [key, key + slack] stays (its
 * place among equal keys too); any other, queued or idle, goes to the
 * window's end, which saturates at UINT64_MAX */
SQ_TEST(requeue_slack)
{
	static const unsigned o1[] = { 0, 1, 2 };

	setup();
	enq(0, 100);
	enq(1, 100);
	SQ_ASSERT(!SQ_REQUEUE_SLACK(K, &q, &items[0].link, 90, 10));
	SQ_ASSERT(!SQ_REQUEUE_SLACK(K, &q, &items[0].link, 100, 0));
	CHECKQ();
	SQ_ASSERT_EQ(SQ_KEY(K, &items[0].link), 100);
	SQ_ASSERT_EQ(first_id(), 0);		/* not moved behind 1 */
	/* below the window, and above it: both go to its end */
	(void)SQ_REQUEUE_SLACK(K, &q, &items[0].link, 89, 10);
	SQ_ASSERT_EQ(SQ_KEY(K, &items[0].link), 99);
	(void)SQ_REQUEUE_SLACK(K, &q, &items[0].link, 101, 4);
	SQ_ASSERT_EQ(SQ_KEY(K, &items[0].link), 105);
	CHECKQ();
	/* an idle node is armed at the end; the end saturates */
	SQ_ASSERT(!SQ_QUEUED(K, &items[2].link));
	(void)SQ_REQUEUE_SLACK(K, &q, &items[2].link, UINT64_MAX - 1, 5);
	SQ_ASSERT(SQ_QUEUED(K, &items[2].link));
	SQ_ASSERT_EQ(SQ_KEY(K, &items[2].link), UINT64_MAX);
	CHECKQ();
	SQ_ASSERT_EQ(pop_id(), 1);
	enq(1, 200);
	expect_order(o1, 3);
}

SQ_TEST(requeue_up_and_down)
{
	static const unsigned o1[] = { 3, 2, 4, 1, 0 };

	setup();
	enq(0, 10);
	enq(1, 20);
	enq(2, 30);
	/* first moves behind the second: first changes */
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[0].link, 25));	/* 1:20 0:25 2:30 */
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 1);
	SQ_ASSERT_EQ(SQ_KEY(K, &items[0].link), 25);
	/* last moves to the front */
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[2].link, 5));	/* 2:5 1:20 0:25 */
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 2);
	/* a non-first moves within the tail: no change at the front */
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[1].link, 27));	/* 2:5 0:25 1:27 */
	CHECKQ();
	/* the first gets a smaller key: same node, new key: true */
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[2].link, 1));	/* 2:1 0:25 1:27 */
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 2);
	SQ_ASSERT_EQ(SQ_KEY(K, SQ_FIRST(K, &q)), 1);
	/* the first gets a larger key but stays first: true */
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[2].link, 3));	/* 2:3 0:25 1:27 */
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 2);
	SQ_ASSERT_EQ(SQ_KEY(K, SQ_FIRST(K, &q)), 3);
	/* a non-first to the first's key: goes behind it, false */
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[1].link, 3));	/* 2:3 1:3 0:25 */
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 2);
	/* a non-first below the first: true */
	enq(3, 40);
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[3].link, 2));	/* 3:2 2:3 1:3 0:25 */
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 3);
	/* a non-first moves up but not past the first */
	enq(4, 50);
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[4].link, 4));	/* 3 2 1 4 0 */
	CHECKQ();
	/* and down again behind its equal */
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[1].link, 4));	/* 3 2 4 1 0 */
	CHECKQ();
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 5);
	expect_order(o1, 5);
}

SQ_TEST(node_state)
{
	SQ_NODE(K) *n;

	setup();
	SQ_ASSERT(!SQ_QUEUED(K, &items[0].link));
	enq(0, 1);
	SQ_ASSERT(SQ_QUEUED(K, &items[0].link));
	SQ_DEQUEUE(K, &q, &items[0].link);
	SQ_ASSERT(!SQ_QUEUED(K, &items[0].link));
	CHECKQ();

	/* re-enqueue after dequeue, without node_init */
	enq(0, 2);
	enq(1, 3);
	SQ_ASSERT(SQ_QUEUED(K, &items[0].link));
	SQ_ASSERT(SQ_QUEUED(K, &items[1].link));
	n = SQ_POP(K, &q);
	SQ_ASSERT(n == &items[0].link);
	SQ_ASSERT(!SQ_QUEUED(K, n));
	SQ_ASSERT(SQ_QUEUED(K, &items[1].link));
	CHECKQ();

	/* re-enqueue after pop, without node_init */
	enq(0, 4);
	SQ_ASSERT(SQ_QUEUED(K, &items[0].link));
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[1].link, 5));
	SQ_ASSERT(SQ_QUEUED(K, &items[1].link));
	CHECKQ();
	SQ_ASSERT_EQ(pop_id(), 0);
	SQ_ASSERT_EQ(pop_id(), 1);
	SQ_ASSERT(!SQ_QUEUED(K, &items[0].link));
	SQ_ASSERT(!SQ_QUEUED(K, &items[1].link));

	/* node_init on an unqueued node keeps it unqueued */
	SQ_NODE_INIT(K, &items[0].link);
	SQ_ASSERT(!SQ_QUEUED(K, &items[0].link));
	CHECKQ();
}

SQ_TEST(entry_round_trip)
{
	struct item *it;
	SQ_NODE(K) *n;
	unsigned i;

	setup();
	for (i = 0; i < 16; i++) {
		it = sq_entry(&items[i].link, struct item, link);
		SQ_ASSERT(it == &items[i]);
		enq(i, 100 - i);
	}
	for (i = 0; i < 16; i++) {
		n = SQ_POP(K, &q);
		SQ_ASSERT(n != NULL);
		it = sq_entry(n, struct item, link);
		SQ_ASSERT_EQ(it->id, 15 - i);
		SQ_ASSERT_EQ(it->tag, 0xfeed0000u + 15 - i);
	}
	/* the node is not the first member, so the offset is real */
	SQ_ASSERT(offsetof(struct item, link) > 0);
}

/* a stream of random keys comes out sorted, stable among equals */
SQ_TEST(sorts_and_is_stable)
{
	static uint64_t key_of[NITEMS];
	uint64_t prev_key = 0;
	unsigned i, id, prev_id = 0;

	setup();
	for (i = 0; i < NITEMS; i++) {
		key_of[i] = rnd() % ((i & 1) ? 16 : KEYSPAN);
		enq(i, key_of[i]);
		if (i % 32 == 0)
			CHECKQ();
	}
	CHECKQ();
	for (i = 0; i < NITEMS; i++) {
		id = pop_id();
		SQ_ASSERT(i == 0 || key_of[id] >= prev_key);
		if (i > 0 && key_of[id] == prev_key)
			SQ_ASSERT(id > prev_id);
		prev_key = key_of[id];
		prev_id = id;
		if (i % 32 == 0)
			CHECKQ();
	}
	SQ_ASSERT(SQ_EMPTY(K, &q));
	CHECKQ();
}

/* the hold model of the seeds, with check() after every step */
SQ_TEST(hold_loop)
{
	SQ_NODE(K) *n;
	uint64_t key, last = 0;
	unsigned i;

	setup();
	for (i = 0; i < 100; i++)
		enq(i, rnd() % 1000);
	CHECKQ();
	for (i = 0; i < 20000; i++) {
		n = SQ_POP(K, &q);
		SQ_ASSERT(n != NULL);
		SQ_ASSERT(SQ_KEY(K, n) >= last);
		last = SQ_KEY(K, n);
		/* the increment stays inside the ring's window */
		key = SQ_KEY(K, n) + rnd() % (KEYSPAN - 1);
		enq(ITEM(n)->id, key);
		if (i % 7 == 0) {
			/* a blocked task leaves and comes back */
			n = &items[rnd() % 100].link;
			SQ_DEQUEUE(K, &q, n);
			SQ_ASSERT(!SQ_QUEUED(K, n));
			enq(ITEM(n)->id, last + rnd() % (KEYSPAN - 1));
		}
		CHECKQ();
		SQ_ASSERT_EQ(SQ_COUNT(K, &q), 100);
	}
}

/* dequeue answers whether the first node changed */
SQ_TEST(dequeue_return_value)
{
	setup();
	enq(0, 10);
	enq(1, 10);
	enq(2, 20);
	enq(3, 30);
	SQ_ASSERT(!SQ_DEQUEUE(K, &q, &items[2].link));	/* middle */
	CHECKQ();
	SQ_ASSERT(!SQ_DEQUEUE(K, &q, &items[3].link));	/* last */
	CHECKQ();
	SQ_ASSERT(!SQ_DEQUEUE(K, &q, &items[1].link));	/* equal to the first */
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 0);
	enq(1, 10);
	SQ_ASSERT(SQ_DEQUEUE(K, &q, &items[0].link));	/* the first */
	CHECKQ();
	SQ_ASSERT_EQ(first_id(), 1);
	SQ_ASSERT(SQ_DEQUEUE(K, &q, &items[1].link));	/* the only one */
	SQ_ASSERT(SQ_EMPTY(K, &q));
	CHECKQ();
	/* the macro still works as a statement */
	enq(4, 1);
	SQ_DEQUEUE(K, &q, &items[4].link);
	SQ_ASSERT(!SQ_QUEUED(K, &items[4].link));
}

/* requeue of a node that is not queued arms it, as a timer's re-arm does */
SQ_TEST(requeue_arms_an_idle_node)
{
	static const unsigned o1[] = { 3, 0, 1, 2 };

	setup();
	/* never queued, on an empty queue: it is first */
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[0].link, 10));
	CHECKQ();
	SQ_ASSERT(SQ_QUEUED(K, &items[0].link));
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 1);
	SQ_ASSERT_EQ(SQ_KEY(K, &items[0].link), 10);
	/* behind the first, and behind an equal key: false */
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[1].link, 10));
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[2].link, 30));
	CHECKQ();
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 3);
	/* dequeued (cancelled), then re-armed */
	SQ_ASSERT(!SQ_DEQUEUE(K, &q, &items[2].link));
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[2].link, 20));
	CHECKQ();
	/* popped (fired), then re-armed behind its equal: false */
	SQ_ASSERT_EQ(pop_id(), 0);
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[0].link, 10));
	CHECKQ();
	/* never queued, in front of everything: true */
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[3].link, 5));
	CHECKQ();
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 4);
	/* 3:5 1:10 0:10 2:20, and an armed node moves as before */
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[1].link, 15));
	CHECKQ();
	expect_order(o1, 4);
}

/* the expiry loop: everything due by now, in order, nothing after */
SQ_TEST(pop_due_expires_in_order)
{
	SQ_NODE(K) *n;
	unsigned i, got = 0;
	uint64_t last = 0;

	setup();
	SQ_ASSERT(SQ_POP_DUE(K, &q, 0) == NULL);
	SQ_ASSERT(SQ_POP_DUE(K, &q, UINT64_MAX) == NULL);
	setup();	/* a ring's time followed that clock: start again */
	for (i = 0; i < 64; i++)
		enq(i, 100 + (i * 37) % 64);	/* 100..163, shuffled */
	CHECKQ();
	SQ_ASSERT(SQ_POP_DUE(K, &q, 99) == NULL);	/* nothing due */
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 64);
	CHECKQ();
	while ((n = SQ_POP_DUE(K, &q, 131)) != NULL) {	/* due: key <= now */
		SQ_ASSERT(!SQ_QUEUED(K, n));
		SQ_ASSERT(SQ_KEY(K, n) <= 131 && SQ_KEY(K, n) >= last);
		last = SQ_KEY(K, n);
		got++;
		CHECKQ();
	}
	SQ_ASSERT_EQ(got, 32);
	SQ_ASSERT_EQ(first_id(), (unsigned)(((132 - 100) * 57) % 64));
	SQ_ASSERT(SQ_KEY(K, SQ_FIRST(K, &q)) == 132);
	/* a due node re-armed inside the loop is not taken again */
	got = 0;
	while ((n = SQ_POP_DUE(K, &q, 140)) != NULL) {
		if (ITEM(n)->id % 2)
			SQ_ASSERT(!SQ_REQUEUE(K, &q, n, 200));
		got++;
	}
	SQ_ASSERT_EQ(got, 9);
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 64 - 32 - 9 + 4);
	CHECKQ();
}

/* SQ_EXPIRE's fn: record the node, then act as a timer handler would */
struct expire_log {
	unsigned n, ids[NITEMS];
	uint64_t now, last;
	unsigned cancels, cancelled, arms;	/* item ids with a role */
};

static void expire_fn(SQ_NODE(K) *n, void *arg)
{
	struct expire_log *e = (struct expire_log *)arg;
	unsigned id = ITEM(n)->id;

	SQ_ASSERT(!SQ_QUEUED(K, n));		/* popped before fn sees it */
	SQ_ASSERT(SQ_KEY(K, n) <= e->now && SQ_KEY(K, n) >= e->last);
	e->last = SQ_KEY(K, n);
	e->ids[e->n++] = id;
	if (id == e->cancels) {			/* cancels a due timer */
		SQ_ASSERT(SQ_QUEUED(K, &items[e->cancelled].link));
		SQ_ASSERT(!SQ_DEQUEUE(K, &q, &items[e->cancelled].link));
	} else if (id == e->arms) {		/* arms a timer due now */
		(void)enq(100, e->now);
	} else if (id % 2) {			/* a periodic one, re-armed */
		SQ_ASSERT(!SQ_REQUEUE(K, &q, n, 200));
	}
}

/* the item of key 100 + k, of the 64 keyed 100 + (i * 37) % 64 below */
static unsigned id_of_key(unsigned k)
{
	return (k * 45u) % 64u;			/* 45 * 37 = 1 (mod 64) */
}

/* the expiry in one call: everything due by now, in pop order, once; a
 * due timer fn cancels does not fire, one it arms due fires, nothing
 * after; fn may re-arm its own node past now */
SQ_TEST(expire_fires_every_due_node)
{
	struct expire_log e;
	unsigned i, rearmed = 0;

	setup();
	memset(&e, 0, sizeof(e));
	e.now = UINT64_MAX;
	SQ_ASSERT_EQ(SQ_EXPIRE(K, &q, UINT64_MAX, expire_fn, &e), 0);
	setup();	/* a ring's time followed that clock: start again */
	for (i = 0; i < 64; i++)
		enq(i, 100 + (i * 37) % 64);	/* 100..163, shuffled */
	e.now = 99;
	SQ_ASSERT_EQ(SQ_EXPIRE(K, &q, 99, expire_fn, &e), 0);
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 64);
	e.now = 131;
	e.cancels = id_of_key(10);		/* key 110 cancels key 120 */
	e.cancelled = id_of_key(20);
	e.arms = id_of_key(5);			/* key 105 arms item 100 */
	SQ_ASSERT_EQ(SQ_EXPIRE(K, &q, 131, expire_fn, &e), 32);
	SQ_ASSERT_EQ(e.n, 32);
	SQ_ASSERT_EQ(e.ids[31], 100);		/* after the 131 armed before */
	for (i = 0; i < 32; i++) {
		SQ_ASSERT(e.ids[i] != e.cancelled);
		rearmed += e.ids[i] % 2 && e.ids[i] != e.arms;
	}
	SQ_ASSERT(!SQ_QUEUED(K, &items[e.cancelled].link));
	SQ_ASSERT(!SQ_QUEUED(K, &items[100].link));
	SQ_ASSERT_EQ(SQ_KEY(K, SQ_FIRST(K, &q)), 132);
	SQ_ASSERT_EQ(SQ_COUNT(K, &q), 32 + rearmed);
	CHECKQ();
}

static void visit_mark(SQ_NODE(K) *n, void *arg)
{
	unsigned *seen = (unsigned *)arg;

	seen[ITEM(n)->id]++;
	seen[NITEMS]++;
}

/* visit calls the function once per queued node, and nothing else */
SQ_TEST(visit_every_node_once)
{
	static unsigned seen[NITEMS + 1];
	unsigned i, round;

	setup();
	memset(seen, 0, sizeof(seen));
	SQ_ASSERT_EQ(SQ_VISIT(K, &q, visit_mark, seen), 0);
	SQ_ASSERT_EQ(seen[NITEMS], 0);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < NITEMS; i++)
			if (!SQ_QUEUED(K, &items[i].link) && rnd() % 3)
				enq(i, rnd() % (round == 1 ? 4 : KEYSPAN));
		for (i = 0; i < NITEMS; i += 1 + (unsigned)(rnd() % 7))
			if (SQ_QUEUED(K, &items[i].link))
				SQ_DEQUEUE(K, &q, &items[i].link);
		CHECKQ();
		memset(seen, 0, sizeof(seen));
		SQ_ASSERT_EQ(SQ_VISIT(K, &q, visit_mark, seen), SQ_COUNT(K, &q));
		SQ_ASSERT_EQ(seen[NITEMS], SQ_COUNT(K, &q));
		for (i = 0; i < NITEMS; i++)
			SQ_ASSERT_EQ(seen[i], SQ_QUEUED(K, &items[i].link) ? 1u : 0u);
		CHECKQ();
	}
}

/* visit_until walks visit's order and stops where fn says */
struct walk_log {
	unsigned at, calls;		/* stop at call @at (1-based; 0 never) */
	unsigned ids[NITEMS];
};

static void log_visit(SQ_NODE(K) *n, void *arg)
{
	struct walk_log *w = (struct walk_log *)arg;

	w->ids[w->calls++] = ITEM(n)->id;
}

static bool log_until(SQ_NODE(K) *n, void *arg)
{
	struct walk_log *w = (struct walk_log *)arg;

	w->ids[w->calls++] = ITEM(n)->id;
	return w->calls == w->at;
}

SQ_TEST(visit_until_stops_where_fn_says)
{
	static struct walk_log all, part;
	const SQ_QUEUE(K) *cq = &q;
	unsigned i, j, round;

	setup();
	part.at = 1;
	part.calls = 0;
	SQ_ASSERT(SQ_VISIT_UNTIL(K, cq, log_until, &part) == NULL);
	SQ_ASSERT_EQ(part.calls, 0);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 200; i++)
			if (!SQ_QUEUED(K, &items[i].link))
				enq(i, rnd() % (round == 1 ? 4 : KEYSPAN));
		for (i = 0; i < 200; i += 1 + (unsigned)(rnd() % 5))
			SQ_DEQUEUE(K, &q, &items[i].link);
		all.calls = 0;
		SQ_ASSERT_EQ(SQ_VISIT(K, &q, log_visit, &all), SQ_COUNT(K, &q));
		/* never stopped: visit's nodes in visit's order, then NULL */
		part.at = 0;
		part.calls = 0;
		SQ_ASSERT(SQ_VISIT_UNTIL(K, cq, log_until, &part) == NULL);
		SQ_ASSERT_EQ(part.calls, all.calls);
		SQ_ASSERT(memcmp(part.ids, all.ids, all.calls * sizeof(unsigned)) == 0);
		/* stopped at every call in turn: the node of that call */
		for (j = 1; j <= all.calls; j++) {
			part.at = j;
			part.calls = 0;
			SQ_ASSERT(SQ_VISIT_UNTIL(K, cq, log_until, &part) ==
				  &items[all.ids[j - 1]].link);
			SQ_ASSERT_EQ(part.calls, j);
		}
		CHECKQ();
	}
}

/* find: the test's own record of the queue, to say what find must answer */
static uint64_t rec_key[NITEMS], rec_seq[NITEMS], rec_next;
static uint64_t find_key;		/* the key find was asked for */
static unsigned find_calls, find_wrong;	/* match's calls; on another key */

static void f_enq(unsigned i, uint64_t key)
{
	enq(i, key);
	rec_key[i] = key;
	rec_seq[i] = rec_next++;
}

static void f_req(unsigned i, uint64_t key)
{
	SQ_REQUEUE(K, &q, &items[i].link, key);
	rec_key[i] = key;
	rec_seq[i] = rec_next++;
}

/* match: the items with id % 4 == *arg */
static bool id_mod4(const SQ_NODE(K) *n, void *arg)
{
	find_calls++;
	find_wrong += SQ_KEY(K, n) != find_key;
	return sq_entry_const(n, struct item, link)->id % 4 == *(unsigned *)arg;
}

/* what find(key, match rem or any) must give: the earliest (re)queued */
static SQ_NODE(K) *find_want(uint64_t key, const unsigned *rem)
{
	unsigned i, best = NITEMS;

	for (i = 0; i < NITEMS; i++)
		if (SQ_QUEUED(K, &items[i].link) && rec_key[i] == key &&
		    (!rem || i % 4 == *rem) &&
		    (best == NITEMS || rec_seq[i] < rec_seq[best]))
			best = i;
	return best < NITEMS ? &items[best].link : NULL;
}

/* every key of @keys, each with any node and with each of 4 predicates */
static void find_all(const uint64_t *keys, unsigned n)
{
	const SQ_QUEUE(K) *cq = &q;	/* find takes a const queue */
	unsigned i, rem;

	for (i = 0; i < n; i++) {
		find_key = keys[i];
		SQ_ASSERT(SQ_FIND(K, cq, keys[i], NULL, NULL) ==
			  find_want(keys[i], NULL));
		for (rem = 0; rem < 4; rem++)
			SQ_ASSERT(SQ_FIND(K, cq, keys[i], id_mod4, &rem) ==
				  find_want(keys[i], &rem));
	}
	SQ_ASSERT_EQ(find_wrong, 0);	/* match saw only the key asked */
	CHECKQ();
}

/* find by key: present and absent keys, 0 and UINT64_MAX, keys far past a
 * ring's window, ties in (re)queue order, after dequeue, requeue and pop */
SQ_TEST(find_by_key)
{
	static const uint64_t keys[] = {
		0, 1, 6, 7, 8, 999, 1000, 1001, 2000,
		(uint64_t)1 << 40, ((uint64_t)1 << 40) + 1,
		UINT64_MAX - 1, UINT64_MAX,
	};
	static const uint64_t used[] = {
		0, 7, 1000, (uint64_t)1 << 40, UINT64_MAX, 7,
	};
	unsigned i, rem = 3;

	setup();
	rec_next = 0;
	find_wrong = 0;
	find_all(keys, SQ_NELEM(keys));		/* empty */
	for (i = 0; i < 96; i++)
		f_enq(i, used[i % SQ_NELEM(used)]);
	find_all(keys, SQ_NELEM(keys));
	/* ties in order: ids 1, 5, 7, 11 ... have key 7; 7 is the first of
	 * them that is 3 mod 4; none is 2 mod 4, which match must be asked
	 * of each node of key 7 once to say */
	SQ_ASSERT(SQ_FIND(K, &q, 7, NULL, NULL) == &items[1].link);
	find_key = 7;
	SQ_ASSERT(SQ_FIND(K, &q, 7, id_mod4, &rem) == &items[7].link);
	rem = 2;
	find_calls = 0;
	SQ_ASSERT(SQ_FIND(K, &q, 7, id_mod4, &rem) == NULL);
	SQ_ASSERT_EQ(find_calls, 32);
	/* a requeue to the same key goes behind its equals */
	f_req(1, 7);
	f_req(5, 7);
	f_req(3, (uint64_t)1 << 40);
	find_all(keys, SQ_NELEM(keys));
	SQ_ASSERT(SQ_FIND(K, &q, 7, NULL, NULL) == &items[7].link);
	/* the first of a key dequeued: the next one */
	SQ_DEQUEUE(K, &q, &items[7].link);
	SQ_DEQUEUE(K, &q, &items[4].link);	/* key UINT64_MAX */
	find_all(keys, SQ_NELEM(keys));
	/* pops take key 0, then the 7s */
	for (i = 0; i < 30; i++)
		pop_id();
	find_all(keys, SQ_NELEM(keys));
	/* every node of one key gone, another key arriving */
	while (SQ_FIND(K, &q, 1000, NULL, NULL))
		SQ_DEQUEUE(K, &q, SQ_FIND(K, &q, 1000, NULL, NULL));
	f_enq(200, 1001);
	f_enq(201, 1000);
	find_all(keys, SQ_NELEM(keys));
	SQ_ASSERT(SQ_FIND(K, &q, 1000, NULL, NULL) == &items[201].link);
}

/* init_at: a queue whose clock starts at now keeps the whole contract */
SQ_TEST(init_at_a_clock)
{
	static const uint64_t now = (uint64_t)1 << 40;
	unsigned i;

	setup();
	SQ_INIT_AT(K, &q, now);
	CHECKQ();
	SQ_ASSERT(SQ_EMPTY(K, &q));
	for (i = 0; i < 32; i++)
		enq(i, now + (i * 7) % 32);
	SQ_ASSERT_EQ(first_id(), 0);
	CHECKQ();
	for (i = 0; i < 32; i++)
		SQ_ASSERT_EQ(pop_id(), (i * 23) % 32);	/* 23 = 7^-1 mod 32 */
	SQ_ASSERT(SQ_POP_DUE(K, &q, UINT64_MAX) == NULL);
	CHECKQ();
}

/* the clock verbs every backend has; an exact backend's clock is still */
#define SQ__STR2(x) #x
#define SQ__STR(x) SQ__STR2(x)
#define KIND_EXACT(K2, e) +(strcmp(#K2, SQ__STR(SQ_K_BACKEND)) == 0 ? (e) : 0)

SQ_TEST(clock_verbs)
{
	static const uint64_t now = (uint64_t)1 << 40;
	/* erb and egavl, the eligible picks, are not in SQ_KINDS but exact */
	const bool exact = 0 SQ_KINDS(KIND_EXACT) KIND_EXACT(erb, 1)
			   KIND_EXACT(egavl, 1);

	setup();
	SQ_ASSERT(!SQ_INIT_GEOM(K, &q, 64, now));	/* refused by all */
	SQ_ASSERT(SQ_INIT_GEOM(K, &q, 0, now));
	CHECKQ();
	SQ_ASSERT_EQ(SQ_GRAN_SHIFT(K, &q), 0);
	SQ_ASSERT_EQ(SQ_TIME(K, &q), exact ? 0 : now);
	enq(0, now + 9);
	enq(1, now + 5);
	/* the ring moves to now + 7 but never past its smallest key */
	SQ_ASSERT_EQ(SQ_ADVANCE(K, &q, now + 7), exact ? 0 : now + 5);
	SQ_ASSERT_EQ(SQ_TIME(K, &q), exact ? 0 : now + 5);
	CHECKQ();
	/* a granularity: the ring takes it, an exact backend refuses it and
	 * leaves the queue as it was */
	if (exact) {
		SQ_ASSERT(!SQ_INIT_GEOM(K, &q, 3, 0));
		SQ_ASSERT_EQ(SQ_COUNT(K, &q), 2);
		CHECKQ();
	}
	SQ_ASSERT_EQ(pop_id(), 1);
	SQ_ASSERT_EQ(pop_id(), 0);
	if (!exact) {
		SQ_ASSERT(SQ_INIT_GEOM(K, &q, 3, now + 13));
		SQ_ASSERT_EQ(SQ_GRAN_SHIFT(K, &q), 3);
		SQ_ASSERT_EQ(SQ_TIME(K, &q), now + 8);
	}
}

#ifdef SQ_TIE_BASE
static bool enq_prio(unsigned i, uint64_t key, unsigned prio)
{
	items[i].prio = prio;
	return enq(i, key);
}

/* equal keys come out by prio, FIFO among equal prios; first() and
 * enqueue's answer follow the (key, prio) minimum */
SQ_TEST(tie_order_among_equal_keys)
{
	static const unsigned want[] = { 4, 5, 1, 2, 6, 3, 0, 7 };
	unsigned i;

	setup();
	SQ_ASSERT(enq_prio(0, 10, 5));		/* first of an empty queue */
	SQ_ASSERT(enq_prio(1, 10, 3));		/* same key, smaller prio */
	SQ_ASSERT(!enq_prio(2, 10, 3));		/* equal under both: behind */
	SQ_ASSERT(!enq_prio(3, 10, 4));
	SQ_ASSERT_EQ(first_id(), 1);
	SQ_ASSERT(enq_prio(4, 9, 9));		/* a smaller key wins any prio */
	SQ_ASSERT(!enq_prio(5, 10, 0));		/* smallest prio, larger key */
	SQ_ASSERT(!enq_prio(6, 10, 3));
	SQ_ASSERT(!enq_prio(7, 11, 0));
	CHECKQ();
	for (i = 0; i < SQ_NELEM(want); i++) {
		SQ_ASSERT_EQ(pop_id(), want[i]);
		CHECKQ();
	}
	SQ_ASSERT(SQ_EMPTY(K, &q));
}

/* many equal keys, random prios, removals: the pops are sorted by
 * (key, prio, order of (re)queueing), checked against a plain sort */
SQ_TEST(tie_random_stream)
{
	static unsigned order[NITEMS], stamp[NITEMS];
	unsigned i, j, n = 0, s = 0, t;

	setup();
	for (i = 0; i < NITEMS; i++) {
		enq_prio(i, rnd() % 6, (unsigned)(rnd() % 4));
		stamp[i] = s++;
		if (i % 5 == 4) {		/* re-arm an earlier one */
			j = (unsigned)(rnd() % i);
			if (rnd() % 2) {
				SQ_DEQUEUE(K, &q, &items[j].link);
				enq_prio(j, rnd() % 6, items[j].prio);
			} else {
				items[j].prio = (unsigned)(rnd() % 4);
				SQ_REQUEUE(K, &q, &items[j].link, rnd() % 6);
			}
			stamp[j] = s++;
		}
	}
	CHECKQ();
	for (i = 0; i < NITEMS; i++) {	/* insertion sort on the triple */
		for (j = n; j > 0; j--) {
			const struct item *a = &items[order[j - 1]], *b = &items[i];
			uint64_t ka = SQ_KEY(K, &a->link), kb = SQ_KEY(K, &b->link);

			if (ka < kb || (ka == kb && (a->prio < b->prio ||
			    (a->prio == b->prio && stamp[a->id] < stamp[i]))))
				break;
			order[j] = order[j - 1];
		}
		order[j] = i;
		n++;
	}
	for (i = 0; i < n; i++) {
		t = pop_id();
		SQ_ASSERT_EQ(t, order[i]);
	}
	CHECKQ();
}

/* requeue re-sorts a node whose prio changed, even at the same key, and
 * says whether the first node changed */
SQ_TEST(tie_requeue_resorts)
{
	setup();
	enq_prio(0, 5, 1);
	enq_prio(1, 5, 2);
	enq_prio(2, 5, 3);
	items[2].prio = 0;
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[2].link, 5));	/* now first */
	SQ_ASSERT_EQ(first_id(), 2);
	CHECKQ();
	items[2].prio = 2;		/* equal to 1 under both: behind it */
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[2].link, 5));
	SQ_ASSERT_EQ(first_id(), 0);
	CHECKQ();
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[0].link, 5));	/* stays first */
	SQ_ASSERT(!SQ_REQUEUE(K, &q, &items[1].link, 5));	/* behind 2 now */
	SQ_ASSERT(SQ_REQUEUE(K, &q, &items[0].link, 4));	/* key moves */
	CHECKQ();
	SQ_ASSERT_EQ(pop_id(), 0);
	SQ_ASSERT_EQ(pop_id(), 2);
	SQ_ASSERT_EQ(pop_id(), 1);
	CHECKQ();
}
#endif

static const sq_test_entry tests[] = {
	SQ_T(empty_queue),
	SQ_T(enqueue_return_value),
	SQ_T(first_is_consistent),
	SQ_T(fifo_among_equal_keys),
	SQ_T(extreme_keys),
	SQ_T(dequeue_first_middle_last),
	SQ_T(dequeue_among_equal_keys),
	SQ_T(requeue_same_key),
	SQ_T(requeue_up_and_down),
	SQ_T(requeue_slack),
	SQ_T(dequeue_return_value),
	SQ_T(requeue_arms_an_idle_node),
	SQ_T(pop_due_expires_in_order),
	SQ_T(expire_fires_every_due_node),
	SQ_T(visit_every_node_once),
	SQ_T(visit_until_stops_where_fn_says),
	SQ_T(find_by_key),
	SQ_T(init_at_a_clock),
	SQ_T(clock_verbs),
	SQ_T(node_state),
	SQ_T(entry_round_trip),
	SQ_T(sorts_and_is_stable),
	SQ_T(hold_loop),
#ifdef SQ_TIE_BASE
	SQ_T(tie_order_among_equal_keys),
	SQ_T(tie_random_stream),
	SQ_T(tie_requeue_resorts),
#endif
};

SQ_TEST_MAIN("contract_" SQ__STR(SQ_K), tests)
