/* SPDX-License-Identifier: MIT */
/*
 * wb_erb.c - white-box tests of the eligible pick on rb (smartq/rb_elig.h)
 *
 * The random stream of tests/elig.h (every verb, set_elig and the pick
 * against the model's scan, check() after every step) on up to 64 nodes;
 * rb's own stream of tests/mix.h run on erb; a large tree where the pick
 * is compared with an in-order scan and check() with the minima; the
 * leftmost fast path; and check() catching a wrong subtree minimum.  A
 * failure prints the seed.
 */
#include "smartq.h"
#include "sq_test.h"

#define ELIG_K erb
#include "elig.h"

#define MIX_K erb
#define MIX_NMAX 64
#include "mix.h"

static bool erb_matches(struct sq_erb *q)
{
	return sq_erb_check(q) == 0 &&
	       mix_walk_matches(q, sq_erb_next, sq_erb_prev);
}

SQ_TEST(erb_empty)
{
	struct sq_erb q;
	struct sq_erb_node n;

	sq_erb_init(&q);
	sq_erb_node_init(&n);
	SQ_ASSERT(sq_erb_empty(&q) && sq_erb_count(&q) == 0);
	SQ_ASSERT(sq_erb_first(&q) == NULL && sq_erb_pop(&q) == NULL);
	SQ_ASSERT(sq_erb_pick_eligible(&q, UINT64_MAX) == NULL);
	SQ_ASSERT_EQ(sq_erb_check(&q), 0);
	SQ_ASSERT(!sq_erb_queued(&n) && n.elig == 0);
	sq_erb_set_elig(&q, &n, 9);		/* idle: just the value */
	SQ_ASSERT(n.elig == 9 && sq_erb_empty(&q));
	SQ_ASSERT(sq_erb_enqueue(&q, &n, 4));
	SQ_ASSERT(sq_erb_pick_eligible(&q, 8) == NULL);
	SQ_ASSERT(sq_erb_pick_eligible(&q, 9) == &n);
	SQ_ASSERT_EQ(sq_erb_check(&q), 0);
}

/* check() after every step, both streams, many seeds */
SQ_TEST(erb_random_small)
{
	static const struct elig_run run = {
		.name = "erb_random_small", .seed = 0xe1160000u,
		.streams = 200, .steps = 1500, .nodes = 24, .every = 1,
	};
	static const struct elig_run wide = {
		.name = "erb_random_wide", .seed = 0xe1170000u,
		.streams = 40, .steps = 4000, .nodes = ELIG_NMAX, .every = 1,
	};

	elig_run(&run);
	elig_run(&wide);
}

/* rb's own mix on erb: order, stability, walks, every step */
SQ_TEST(erb_rb_mix)
{
	static const unsigned keys[] = { RNG_KEYS_TIES, RNG_KEYS_SMALL,
					 RNG_KEYS_EDGES };
	static const struct mix_run run = {
		.name = "erb_rb_mix", .seed = 0xe1180000u,
		.streams = 100, .steps = 2000,
		.keys = keys, .nkeys = SQ_NELEM(keys), .check = erb_matches,
	};

	mix_run(&run);
}

/* The pick by a plain scan in queue order: the O(n) answer. */
static struct sq_erb_node *scan(const struct sq_erb *q, uint64_t limit)
{
	struct sq_erb_node *n;

	for (n = sq_erb_first(q); n; n = sq_erb_next(n))
		if (n->elig <= limit)
			return n;
	return NULL;
}

/* Thousands of nodes: deep fix-ups, long walks up; the pick against the
 * scan at random limits, check() now and then. */
SQ_TEST(erb_random_large)
{
	enum { N = 6000 };
	static struct sq_erb_node nodes[N];
	static struct sq_erb q;
	uint64_t seed = 0xe1190000u, s = seed;
	unsigned i, step;

	sq_erb_init(&q);
	for (i = 0; i < N; i++) {
		sq_erb_node_init(&nodes[i]);
		sq_erb_set_elig(&q, &nodes[i], rng_next(&s) % 100000);
		sq_erb_enqueue(&q, &nodes[i], rng_next(&s) % 50000);
	}
	SQ_ASSERT_EQ(sq_erb_check(&q), 0);
	for (step = 0; step < 30000; step++) {
		struct sq_erb_node *n = &nodes[rng_below(&s, N)];
		uint64_t limit = rng_next(&s) % 100000;

		switch (rng_below(&s, 5)) {
		case 0:
			if (sq_erb_queued(n))
				sq_erb_dequeue(&q, n);
			else
				sq_erb_enqueue(&q, n, rng_next(&s) % 50000);
			break;
		case 1:
			sq_erb_requeue(&q, n, rng_next(&s) % 50000);
			break;
		case 2:
			sq_erb_set_elig(&q, n, rng_next(&s) % 100000);
			break;
		case 3:
			n = sq_erb_pop(&q);
			if (n)
				sq_erb_enqueue(&q, n, n->key + rng_below(&s, 1000));
			break;
		default:
			n = sq_erb_pick_eligible(&q, limit / 8);
			if (n) {	/* EEVDF: run the pick, put it back later */
				sq_erb_dequeue(&q, n);
				sq_erb_set_elig(&q, n, n->elig + rng_below(&s, 500));
				sq_erb_enqueue(&q, n, n->key + rng_below(&s, 2000));
			}
		}
		SQ_ASSERTF(sq_erb_pick_eligible(&q, limit) == scan(&q, limit),
			   "erb_random_large: seed %llu step %u: pick(%llu)\n",
			   (unsigned long long)seed, step,
			   (unsigned long long)limit);
		if (step % 1000 == 0)
			SQ_ASSERTF(sq_erb_check(&q) == 0,
				   "erb_random_large: seed %llu step %u: check\n",
				   (unsigned long long)seed, step);
	}
	while (sq_erb_pop(&q))
		;
	SQ_ASSERT_EQ(sq_erb_check(&q), 0);
}

/* The first node when it is eligible; past ineligible ones otherwise;
 * ties in key keep queue order. */
SQ_TEST(erb_pick_order)
{
	static struct sq_erb_node n[6];
	struct sq_erb q;
	unsigned i;

	sq_erb_init(&q);
	for (i = 0; i < 6; i++) {
		sq_erb_node_init(&n[i]);
		sq_erb_set_elig(&q, &n[i], 10 * (uint64_t)(6 - i));
		sq_erb_enqueue(&q, &n[i], 100);	/* all one key */
	}
	SQ_ASSERT(sq_erb_pick_eligible(&q, 5) == NULL);
	SQ_ASSERT(sq_erb_pick_eligible(&q, 10) == &n[5]);
	SQ_ASSERT(sq_erb_pick_eligible(&q, 35) == &n[3]);
	SQ_ASSERT(sq_erb_pick_eligible(&q, 60) == &n[0]);
	SQ_ASSERT(sq_erb_pick_eligible(&q, UINT64_MAX) == &n[0]);
	sq_erb_set_elig(&q, &n[4], 0);
	SQ_ASSERT(sq_erb_pick_eligible(&q, 5) == &n[4]);
	SQ_ASSERT(sq_erb_pick_eligible(&q, 45) == &n[2]);
	sq_erb_requeue(&q, &n[2], 100);		/* behind its equals */
	SQ_ASSERT(sq_erb_pick_eligible(&q, 45) == &n[3]);
	sq_erb_set_elig(&q, &n[4], UINT64_MAX);
	SQ_ASSERT(sq_erb_pick_eligible(&q, UINT64_MAX - 1) == &n[0]);
	SQ_ASSERT_EQ(sq_erb_check(&q), 0);
}

/* check() sees a subtree minimum that is not the least elig below it,
 * too small or too large, at the root and at a leaf. */
SQ_TEST(erb_check_detects_wrong_minimum)
{
	static struct sq_erb_node n[15];
	struct sq_erb q;
	struct sq_rb__link *root, *leaf;
	uint64_t saved;
	unsigned i;

	sq_erb_init(&q);
	for (i = 0; i < 15; i++) {
		sq_erb_node_init(&n[i]);
		sq_erb_set_elig(&q, &n[i], 100 + (uint64_t)i);
		sq_erb_enqueue(&q, &n[i], i);
	}
	SQ_ASSERT_EQ(sq_erb_check(&q), 0);
	root = q.erb_tree.rb_root;
	for (leaf = root; leaf->rb_right; leaf = leaf->rb_right)
		;
	saved = sq_erb__node(root)->erb_min;
	sq_erb__node(root)->erb_min = saved + 1;
	SQ_ASSERT_EQ(sq_erb_check(&q), -1);
	sq_erb__node(root)->erb_min = saved - 1;
	SQ_ASSERT_EQ(sq_erb_check(&q), -1);
	sq_erb__node(root)->erb_min = saved;
	SQ_ASSERT_EQ(sq_erb_check(&q), 0);
	/* an elig written past set_elig leaves the minima stale */
	saved = sq_erb__node(leaf)->elig;
	sq_erb__node(leaf)->elig = 1;
	SQ_ASSERT_EQ(sq_erb_check(&q), -1);
	sq_erb__node(leaf)->elig = saved;
	SQ_ASSERT_EQ(sq_erb_check(&q), 0);
	/* rb's own properties are checked too */
	sq_erb__node(leaf)->key = 0;
	SQ_ASSERT_EQ(sq_erb_check(&q), -1);
}

static const sq_test_entry tests[] = {
	SQ_T(erb_empty),
	SQ_T(erb_random_small),
	SQ_T(erb_rb_mix),
	SQ_T(erb_random_large),
	SQ_T(erb_pick_order),
	SQ_T(erb_check_detects_wrong_minimum),
};

SQ_TEST_MAIN("wb_erb", tests)
