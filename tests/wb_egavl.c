/* SPDX-License-Identifier: MIT */
/*
 * wb_egavl.c - white-box tests of the eligible pick on gavl
 * (smartq/gavl_elig.h)
 *
 * The random stream of tests/elig.h (every verb, set_elig and the pick
 * against the model's scan, check() after every step) on up to 64 nodes;
 * pops in a row, where the cut keeps the minima without rotating; a large
 * tree where the pick is compared with an in-order scan; check() catching
 * a wrong subtree minimum; under SQ_DEBUG, misuse stopping the program
 * with the function's name.  A failure prints the seed.
 */
#define _POSIX_C_SOURCE 200809L
#include "smartq.h"
#include "sq_test.h"

#define ELIG_K egavl
#include "elig.h"

#ifdef SQ_DEBUG
#include "child.h"
#endif

SQ_TEST(egavl_empty)
{
	struct sq_egavl q;
	struct sq_egavl_node n;

	sq_egavl_init(&q);
	sq_egavl_node_init(&n);
	SQ_ASSERT(sq_egavl_empty(&q) && sq_egavl_count(&q) == 0);
	SQ_ASSERT(sq_egavl_first(&q) == NULL && sq_egavl_pop(&q) == NULL);
	SQ_ASSERT(sq_egavl_pick_eligible(&q, UINT64_MAX) == NULL);
	SQ_ASSERT_EQ(sq_egavl_check(&q), 0);
	SQ_ASSERT(!sq_egavl_queued(&n) && n.elig == 0);
	sq_egavl_set_elig(&q, &n, 9);
	SQ_ASSERT(n.elig == 9 && sq_egavl_empty(&q));
	SQ_ASSERT(sq_egavl_enqueue(&q, &n, 4));
	SQ_ASSERT(sq_egavl_pick_eligible(&q, 8) == NULL);
	SQ_ASSERT(sq_egavl_pick_eligible(&q, 9) == &n);
	SQ_ASSERT_EQ(sq_egavl_check(&q), 0);
}

SQ_TEST(egavl_random_small)
{
	static const struct elig_run run = {
		.name = "egavl_random_small", .seed = 0xe9a70000u,
		.streams = 200, .steps = 1500, .nodes = 24, .every = 1,
	};
	static const struct elig_run wide = {
		.name = "egavl_random_wide", .seed = 0xe9a80000u,
		.streams = 40, .steps = 4000, .nodes = ELIG_NMAX, .every = 1,
	};

	elig_run(&run);
	elig_run(&wide);
}

/* Pops in a row leave the spine right-heavy (the cut does not rotate);
 * inserts then rotate those spine nodes back.  The minima must survive
 * both, checked after every operation. */
SQ_TEST(egavl_cut_then_insert)
{
	enum { N = 300 };
	static struct sq_egavl_node n[N];
	struct sq_egavl q;
	uint64_t s = 0xe9a90000u;
	unsigned i, round;

	sq_egavl_init(&q);
	for (i = 0; i < N; i++)
		sq_egavl_node_init(&n[i]);
	for (round = 0; round < 20; round++) {
		for (i = 0; i < N; i++)
			if (!sq_egavl_queued(&n[i])) {
				sq_egavl_set_elig(&q, &n[i], rng_next(&s) % 1000);
				sq_egavl_enqueue(&q, &n[i], rng_next(&s) % 5000);
				SQ_ASSERT_EQ(sq_egavl_check(&q), 0);
			}
		for (i = 0; i < N - N / 8; i++) {
			struct sq_egavl_node *p = sq_egavl_pop(&q);
			uint64_t lim = rng_next(&s) % 1000;
			struct sq_egavl_node *x, *want = NULL;

			SQ_ASSERT(p != NULL && !sq_egavl_queued(p));
			SQ_ASSERT_EQ(sq_egavl_check(&q), 0);
			for (x = sq_egavl_first(&q); x && !want; x = sq_egavl_next(x))
				if (x->elig <= lim)
					want = x;
			SQ_ASSERTF(sq_egavl_pick_eligible(&q, lim) == want,
				   "egavl_cut_then_insert: round %u pop %u\n",
				   round, i);
		}
	}
}

static struct sq_egavl_node *scan(const struct sq_egavl *q, uint64_t limit)
{
	struct sq_egavl_node *n;

	for (n = sq_egavl_first(q); n; n = sq_egavl_next(n))
		if (n->elig <= limit)
			return n;
	return NULL;
}

SQ_TEST(egavl_random_large)
{
	enum { N = 6000 };
	static struct sq_egavl_node nodes[N];
	static struct sq_egavl q;
	uint64_t seed = 0xe9aa0000u, s = seed;
	unsigned i, step;

	sq_egavl_init(&q);
	for (i = 0; i < N; i++) {
		sq_egavl_node_init(&nodes[i]);
		sq_egavl_set_elig(&q, &nodes[i], rng_next(&s) % 100000);
		sq_egavl_enqueue(&q, &nodes[i], rng_next(&s) % 50000);
	}
	SQ_ASSERT_EQ(sq_egavl_check(&q), 0);
	for (step = 0; step < 30000; step++) {
		struct sq_egavl_node *n = &nodes[rng_below(&s, N)];
		uint64_t limit = rng_next(&s) % 100000;

		switch (rng_below(&s, 5)) {
		case 0:
			if (sq_egavl_queued(n))
				sq_egavl_dequeue(&q, n);
			else
				sq_egavl_enqueue(&q, n, rng_next(&s) % 50000);
			break;
		case 1:
			sq_egavl_requeue(&q, n, rng_next(&s) % 50000);
			break;
		case 2:
			sq_egavl_set_elig(&q, n, rng_next(&s) % 100000);
			break;
		case 3:
			n = sq_egavl_pop(&q);
			if (n)
				sq_egavl_enqueue(&q, n, n->gavl.key +
						 rng_below(&s, 1000));
			break;
		default:
			n = sq_egavl_pick_eligible(&q, limit / 8);
			if (n) {
				sq_egavl_dequeue(&q, n);
				sq_egavl_set_elig(&q, n, n->elig + rng_below(&s, 500));
				sq_egavl_enqueue(&q, n, n->gavl.key +
						 rng_below(&s, 2000));
			}
		}
		SQ_ASSERTF(sq_egavl_pick_eligible(&q, limit) == scan(&q, limit),
			   "egavl_random_large: seed %llu step %u: pick(%llu)\n",
			   (unsigned long long)seed, step,
			   (unsigned long long)limit);
		if (step % 1000 == 0)
			SQ_ASSERTF(sq_egavl_check(&q) == 0,
				   "egavl_random_large: seed %llu step %u: check\n",
				   (unsigned long long)seed, step);
	}
	while (sq_egavl_pop(&q))
		;
	SQ_ASSERT_EQ(sq_egavl_check(&q), 0);
}

SQ_TEST(egavl_check_detects_wrong_minimum)
{
	static struct sq_egavl_node n[15];
	struct sq_egavl q;
	struct sq_gavl_node *root, *leaf;
	uint64_t saved;
	unsigned i;

	sq_egavl_init(&q);
	for (i = 0; i < 15; i++) {
		sq_egavl_node_init(&n[i]);
		sq_egavl_set_elig(&q, &n[i], 100 + (uint64_t)i);
		sq_egavl_enqueue(&q, &n[i], i);
	}
	SQ_ASSERT_EQ(sq_egavl_check(&q), 0);
	root = q.eg_tree.gv_root;
	for (leaf = root; leaf->gv_right; leaf = leaf->gv_right)
		;
	saved = sq_egavl__node(root)->eg_min;
	sq_egavl__node(root)->eg_min = saved + 1;
	SQ_ASSERT_EQ(sq_egavl_check(&q), -1);
	sq_egavl__node(root)->eg_min = saved - 1;
	SQ_ASSERT_EQ(sq_egavl_check(&q), -1);
	sq_egavl__node(root)->eg_min = saved;
	SQ_ASSERT_EQ(sq_egavl_check(&q), 0);
	saved = sq_egavl__node(leaf)->elig;
	sq_egavl__node(leaf)->elig = 1;
	SQ_ASSERT_EQ(sq_egavl_check(&q), -1);
	sq_egavl__node(leaf)->elig = saved;
	SQ_ASSERT_EQ(sq_egavl_check(&q), 0);
	leaf->key = 0;
	SQ_ASSERT_EQ(sq_egavl_check(&q), -1);
}

#ifdef SQ_DEBUG
static struct sq_egavl mq;
static struct sq_egavl_node mn[2];

static void enqueue_twice(void)
{
	sq_egavl_init(&mq);
	sq_egavl_node_init(&mn[0]);
	sq_egavl_enqueue(&mq, &mn[0], 1);
	sq_egavl_enqueue(&mq, &mn[0], 2);
}

static void dequeue_idle(void)
{
	sq_egavl_init(&mq);
	sq_egavl_node_init(&mn[0]);
	sq_egavl_node_init(&mn[1]);
	sq_egavl_enqueue(&mq, &mn[0], 1);
	sq_egavl_dequeue(&mq, &mn[1]);
}

static void visit_dequeue(struct sq_egavl_node *n, void *arg)
{
	(void)arg;
	sq_egavl_dequeue(&mq, n);
}

static void visit_that_dequeues(void)
{
	sq_egavl_init(&mq);
	sq_egavl_node_init(&mn[0]);
	sq_egavl_enqueue(&mq, &mn[0], 1);
	sq_egavl_visit(&mq, visit_dequeue, NULL);
}

SQ_TEST(egavl_misuse_stops)
{
	child_expect_abort(enqueue_twice,
			   "sq_egavl_enqueue: node is already queued\n",
			   "enqueue twice");
	child_expect_abort(dequeue_idle,
			   "sq_egavl_dequeue: node is not queued\n",
			   "dequeue of an idle node");
	child_expect_abort(visit_that_dequeues,
			   "sq_egavl_visit: fn changed the queue\n",
			   "a visit callback that dequeues");
}
#endif

static const sq_test_entry tests[] = {
	SQ_T(egavl_empty),
	SQ_T(egavl_random_small),
	SQ_T(egavl_cut_then_insert),
	SQ_T(egavl_random_large),
	SQ_T(egavl_check_detects_wrong_minimum),
#ifdef SQ_DEBUG
	SQ_T(egavl_misuse_stops),
#endif
};

SQ_TEST_MAIN("wb_egavl", tests)
