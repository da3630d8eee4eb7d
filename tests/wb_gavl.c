/* SPDX-License-Identifier: MIT */
/*
 * wb_gavl.c - white-box tests of the GAVL backend (smartq/gavl.h)
 *
 * The random operation stream of tests/mix.h on a few dozen nodes,
 * compared after every step with the model of tests/model.h (order by key,
 * then by the time of the last enqueue/requeue) and with sq_gavl_check();
 * a long hold run whose pops cut first, with check() (and so the height bound)
 * verified periodically; proof that cuts really leave right-heavy spine
 * nodes behind and that enqueue repairs them; equal keys; the edge keys 0
 * and UINT64_MAX; in-place requeue; check() catching trees broken on
 * purpose.  A failure prints its seed.
 */
#include "smartq/gavl.h"
#include "sq_test.h"
#include "model.h"
#include "rng.h"

/* ---- tree measurements (tests only, recursion is fine here) ----------- */

static unsigned height_of(const struct sq_gavl_node *n)
{
	unsigned l, r;

	if (!n)
		return 0;
	l = height_of(n->gv_left);
	r = height_of(n->gv_right);
	return 1 + (l > r ? l : r);
}

/* The most right-heavy balance on the spine (root, root->left, ...). */
static int spine_min_balance(const struct sq_gavl *q)
{
	const struct sq_gavl_node *n;
	int m = 0;

	for (n = q->gv_root; n; n = n->gv_left)
		if (n->gv_balance < m)
			m = n->gv_balance;
	return m;
}

/* ---- random steps against the model (tests/mix.h) ---------------------- */

#define MIX_K gavl
#define MIX_NMAX 48
#include "mix.h"

/* The queue against the model: check() and both walks. */
static bool queue_matches(struct sq_gavl *q)
{
	return sq_gavl_check(q) == 0 &&
	       mix_walk_matches(q, sq_gavl_next, sq_gavl_prev);
}

SQ_TEST(gavl_empty)
{
	struct sq_gavl q;
	struct sq_gavl_node n;

	sq_gavl_init(&q);
	sq_gavl_node_init(&n);
	SQ_ASSERT(sq_gavl_empty(&q));
	SQ_ASSERT_EQ(sq_gavl_count(&q), 0);
	SQ_ASSERT(sq_gavl_first(&q) == NULL);
	SQ_ASSERT(sq_gavl_pop(&q) == NULL);
	SQ_ASSERT(!sq_gavl_queued(&n));
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	if (sizeof(void *) == 8)
		SQ_ASSERT_EQ(sizeof(struct sq_gavl_node), 40);
}

/* H(n) against a direct count of minimal AVL trees */
SQ_TEST(gavl_avl_max_height)
{
	SQ_ASSERT_EQ(sq_gavl__avl_max_height(0), 0);
	SQ_ASSERT_EQ(sq_gavl__avl_max_height(1), 1);
	SQ_ASSERT_EQ(sq_gavl__avl_max_height(2), 2);
	SQ_ASSERT_EQ(sq_gavl__avl_max_height(3), 2);
	SQ_ASSERT_EQ(sq_gavl__avl_max_height(4), 3);
	SQ_ASSERT_EQ(sq_gavl__avl_max_height(6), 3);
	SQ_ASSERT_EQ(sq_gavl__avl_max_height(7), 4);
	SQ_ASSERT_EQ(sq_gavl__avl_max_height(12), 5);
	SQ_ASSERT_EQ(sq_gavl__avl_max_height(20), 6);
	SQ_ASSERT(sq_gavl__avl_max_height(SIZE_MAX) < SQ_GAVL__MAX_DEPTH - 2);
	if (SIZE_MAX == UINT64_MAX)
		SQ_ASSERT_EQ(sq_gavl__avl_max_height(SIZE_MAX), 91);
}

/* check() after every step against the model, many seeds */
SQ_TEST(gavl_random_small)
{
	static const unsigned keys[] = { RNG_KEYS_TIES, RNG_KEYS_SMALL,
					 RNG_KEYS_EDGES };
	static const struct mix_run run = {
		.name = "gavl_random_small", .seed = 0x9a410000u,
		.streams = 300, .steps = 2000,
		.keys = keys, .nkeys = SQ_NELEM(keys), .check = queue_matches,
	};

	mix_run(&run);
}

/*
 * The hold model: pop, add a random increment, enqueue; every pop is a
 * cut.  Mixed with arbitrary dequeues and requeues.  check() every few
 * hundred loops verifies balances and the height bound.
 */
SQ_TEST(gavl_hold_long)
{
	enum { N = 3000 };
	static struct sq_gavl_node node[N];
	static const unsigned incr[] = { 2, 1000, 100000 };
	unsigned d, i, loop;

	for (d = 0; d < SQ_NELEM(incr); d++) {
		uint64_t seed = 0x401du + d, s = seed, prev = 0;
		struct sq_gavl q;
		struct sq_gavl_node *x;

		sq_gavl_init(&q);
		for (i = 0; i < N; i++) {
			sq_gavl_node_init(&node[i]);
			sq_gavl_enqueue(&q, &node[i], rng_below(&s, incr[d]));
		}
		SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
		for (loop = 0; loop < 150000; loop++) {
			x = sq_gavl_pop(&q);
			SQ_ASSERTF(x && x->key >= prev, "seed %llu loop %u\n",
				   (unsigned long long)seed, loop);
			prev = x->key;
			sq_gavl_enqueue(&q, x, x->key + 1 + rng_below(&s, incr[d]));
			if (loop % 11 == 0) {
				i = rng_below(&s, N);
				sq_gavl_dequeue(&q, &node[i]);
				sq_gavl_enqueue(&q, &node[i], prev + rng_below(&s, incr[d]));
			} else if (loop % 11 == 5) {
				i = rng_below(&s, N);
				sq_gavl_requeue(&q, &node[i],
						node[i].key + rng_below(&s, 3));
			}
			if (loop % 500 == 0)
				SQ_ASSERTF(sq_gavl_check(&q) == 0,
					   "seed %llu loop %u\n",
					   (unsigned long long)seed, loop);
		}
		SQ_ASSERT_EQ(sq_gavl_count(&q), N);
		/* drain: a long run of cuts only */
		for (i = 0; i < N; i++) {
			x = sq_gavl_pop(&q);
			SQ_ASSERT(x != NULL && x->key >= prev);
			prev = x->key;
			if (i % 97 == 0)
				SQ_ASSERTF(sq_gavl_check(&q) == 0, "seed %llu drain %u\n",
					   (unsigned long long)seed, i);
		}
		SQ_ASSERT(sq_gavl_empty(&q));
		SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	}
}

/*
 * Cuts do not rotate: popping half of a full tree leaves spine nodes
 * right-heavy by more than one, the height stays within H(n) + 1, and the
 * tree is as tall as before (a true AVL delete would have shrunk it).
 * An enqueue into the right side of a degraded spine node rotates it,
 * singly or doubly.
 */
SQ_TEST(gavl_cut_first_degrades_within_bound)
{
	enum { N = 1023 };
	static struct sq_gavl_node node[N];
	struct sq_gavl q;
	unsigned i, h0, reached = 0;
	uint64_t seed;

	sq_gavl_init(&q);
	for (i = 0; i < N; i++) {
		sq_gavl_node_init(&node[i]);
		sq_gavl_enqueue(&q, &node[i], i);
	}
	h0 = height_of(q.gv_root);
	SQ_ASSERT_EQ(spine_min_balance(&q) >= -1, 1);
	for (i = 0; i < N - 1; i++) {
		unsigned h, bound;

		SQ_ASSERT(sq_gavl_pop(&q) == &node[i]);
		SQ_ASSERT(sq_gavl_first(&q) == &node[i + 1]);
		h = height_of(q.gv_root);
		bound = sq_gavl__avl_max_height(sq_gavl_count(&q)) + 1;
		SQ_ASSERTF(h <= bound, "pop %u: height %u > bound %u\n", i, h, bound);
		if (i == 411) {	/* 412 cut from the left of a full tree */
			SQ_ASSERT(spine_min_balance(&q) <= -2);
			SQ_ASSERT_EQ(height_of(q.gv_root), h0);
			SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
		}
		if (i % 37 == 0)
			SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	}
	SQ_ASSERT(sq_gavl_pop(&q) == &node[N - 1]);
	SQ_ASSERT(sq_gavl_empty(&q));

	/* random keys, drained by cuts: the bound holds and is reached, so
	 * the extra level is real (a true AVL tree never exceeds H(n)) */
	for (seed = 1; seed <= 20; seed++) {
		uint64_t s = seed;

		for (i = 0; i < 300; i++)
			sq_gavl_enqueue(&q, &node[i], rng_below(&s, 1000));
		while (!sq_gavl_empty(&q)) {
			unsigned h = height_of(q.gv_root);
			unsigned hmax = sq_gavl__avl_max_height(sq_gavl_count(&q));

			SQ_ASSERTF(h <= hmax + 1, "seed %llu: height %u, H(n) %u\n",
				   (unsigned long long)seed, h, hmax);
			if (h == hmax + 1)
				reached++;
			sq_gavl_pop(&q);
		}
	}
	SQ_ASSERT(reached > 0);

	/*
	 * Degrade, then grow the degraded node's right side: the enqueue
	 * rotates it.  Keys 0..6 make a full tree rooted at 3; cutting 0, 1,
	 * 2 leaves 3 first and at -2 (5 with 4 and 6 at its right); 7 below
	 * 6 makes 3 -3 for a moment, and a single rotation lifts 5.
	 */
	for (i = 0; i < 7; i++)
		sq_gavl_enqueue(&q, &node[i], i);
	for (i = 0; i < 3; i++)
		SQ_ASSERT(sq_gavl_pop(&q) == &node[i]);
	SQ_ASSERT(q.gv_root == &node[3] && sq_gavl_first(&q) == &node[3]);
	SQ_ASSERT_EQ(node[3].gv_balance, -2);
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	sq_gavl_enqueue(&q, &node[7], 7);
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	SQ_ASSERT(q.gv_root == &node[5]);
	SQ_ASSERT(spine_min_balance(&q) >= -1);
	while (sq_gavl_pop(&q))
		;

	/*
	 * The same degraded 3, grown on the inner side: a second 4 goes
	 * right of 4, so 5 leans left and 3 would be -3; the double
	 * rotation lifts 4 over both (3 a leaf, 5 over 4' and 6, 4 at -1).
	 */
	for (i = 0; i < 7; i++)
		sq_gavl_enqueue(&q, &node[i], i);
	for (i = 0; i < 3; i++)
		SQ_ASSERT(sq_gavl_pop(&q) == &node[i]);
	SQ_ASSERT_EQ(node[3].gv_balance, -2);
	sq_gavl_enqueue(&q, &node[7], 4);
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	SQ_ASSERT(q.gv_root == &node[4]);
	SQ_ASSERT_EQ(node[4].gv_balance, -1);
	SQ_ASSERT_EQ(node[3].gv_balance, 0);
	SQ_ASSERT_EQ(node[5].gv_balance, 0);
	SQ_ASSERT(node[5].gv_left == &node[7] && node[5].gv_right == &node[6]);
	SQ_ASSERT(sq_gavl_first(&q) == &node[3]);
	while (sq_gavl_pop(&q))
		;
}

/*
 * Erase next to a degraded spine node: the double rotation must correct
 * for its first half lowering the subtree.  By hand:
 *
 *            335(+1)                       305(-1)
 *           /      \                     /     \
 *       304(-2)   341(+1)    dequeue    304(0)  335(0)
 *            \     /          341 -->           /   \
 *           305(-1) 337                      308    337
 *               \
 *               308
 */
SQ_TEST(gavl_erase_beside_degraded_spine)
{
	static const uint64_t key[6] = { 304, 305, 308, 335, 337, 341 };
	struct sq_gavl_node k[6];
	struct sq_gavl q;
	const struct sq_gavl_node *x;
	unsigned i;

	sq_gavl_init(&q);
	for (i = 0; i < 6; i++) {
		sq_gavl_node_init(&k[i]);
		k[i].key = key[i];
		k[i].gv_balance = 0;
	}
	q.gv_root = &k[3];
	q.gv_first = &k[0];
	q.gv_count = 6;
	k[3].gv_left = &k[0];
	k[0].gv_parent = &k[3];
	k[3].gv_right = &k[5];
	k[5].gv_parent = &k[3];
	k[0].gv_right = &k[1];
	k[1].gv_parent = &k[0];
	k[1].gv_right = &k[2];
	k[2].gv_parent = &k[1];
	k[5].gv_left = &k[4];
	k[4].gv_parent = &k[5];
	k[3].gv_balance = 1;
	k[0].gv_balance = -2;
	k[1].gv_balance = -1;
	k[5].gv_balance = 1;
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);

	sq_gavl_dequeue(&q, &k[5]);
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	SQ_ASSERT(q.gv_root == &k[1]);
	SQ_ASSERT_EQ(k[1].gv_balance, -1);
	SQ_ASSERT_EQ(k[0].gv_balance, 0);
	SQ_ASSERT_EQ(k[3].gv_balance, 0);
	for (i = 0, x = sq_gavl_first(&q); i < 5; i++, x = sq_gavl_next(x))
		SQ_ASSERT(x == &k[i]);
	SQ_ASSERT(x == NULL);
}

SQ_TEST(gavl_equal_keys_fifo)
{
	enum { N = 200 };
	static struct sq_gavl_node node[N];
	struct sq_gavl q;
	unsigned i;

	sq_gavl_init(&q);
	for (i = 0; i < N; i++) {
		sq_gavl_node_init(&node[i]);
		/* only the very first enqueue becomes first */
		SQ_ASSERT_EQ(sq_gavl_enqueue(&q, &node[i], 42), i == 0);
	}
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	/* remove some from the middle (rebalancing), cut a few (no rotation) */
	for (i = 10; i < N; i += 3)
		sq_gavl_dequeue(&q, &node[i]);
	SQ_ASSERT(sq_gavl_pop(&q) == &node[0]);
	sq_gavl_dequeue(&q, &node[1]);		/* first: a cut */
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	/* requeue with the same key moves behind every equal */
	SQ_ASSERT(sq_gavl_requeue(&q, &node[2], 42));
	for (i = 3; i < N; i++) {
		if (i >= 10 && (i - 10) % 3 == 0)
			continue;
		SQ_ASSERT(sq_gavl_pop(&q) == &node[i]);
	}
	SQ_ASSERT(sq_gavl_pop(&q) == &node[2]);
	SQ_ASSERT(sq_gavl_empty(&q));
}

SQ_TEST(gavl_edge_keys)
{
	static struct sq_gavl_node node[64];
	struct sq_gavl q;
	unsigned i;

	sq_gavl_init(&q);
	for (i = 0; i < 64; i++) {
		sq_gavl_node_init(&node[i]);
		sq_gavl_enqueue(&q, &node[i], (i & 1) ? UINT64_MAX : 0);
	}
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	for (i = 0; i < 64; i += 2)
		SQ_ASSERT(sq_gavl_pop(&q) == &node[i]);
	SQ_ASSERT_EQ(sq_gavl_first(&q)->key, UINT64_MAX);
	/* a 0 goes first, a UINT64_MAX - 1 before every UINT64_MAX */
	SQ_ASSERT(sq_gavl_enqueue(&q, &node[0], 0));
	SQ_ASSERT(!sq_gavl_enqueue(&q, &node[2], UINT64_MAX - 1));
	SQ_ASSERT(sq_gavl_pop(&q) == &node[0]);
	SQ_ASSERT(sq_gavl_pop(&q) == &node[2]);
	/* requeue the first UINT64_MAX node to 0 and back */
	SQ_ASSERT(sq_gavl_requeue(&q, &node[3], 0));
	SQ_ASSERT(sq_gavl_first(&q) == &node[3]);
	SQ_ASSERT(sq_gavl_requeue(&q, &node[3], UINT64_MAX));
	SQ_ASSERT(sq_gavl_first(&q) == &node[1]);
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	for (i = 1; i < 64; i += 2)
		if (i != 3)
			SQ_ASSERT(sq_gavl_pop(&q) == &node[i]);
	SQ_ASSERT(sq_gavl_pop(&q) == &node[3]);
	SQ_ASSERT(sq_gavl_empty(&q));
}

SQ_TEST(gavl_requeue_in_place)
{
	enum { N = 31 };
	static struct sq_gavl_node node[N];
	struct sq_gavl q;
	struct sq_gavl_node saved;
	unsigned i;

	sq_gavl_init(&q);
	for (i = 0; i < N; i++) {
		sq_gavl_node_init(&node[i]);
		sq_gavl_enqueue(&q, &node[i], 10u * i);
	}
	/* between its neighbours: same links, new key, no first change */
	saved = node[7];
	SQ_ASSERT(!sq_gavl_requeue(&q, &node[7], 75));
	SQ_ASSERT(node[7].gv_parent == saved.gv_parent &&
		  node[7].gv_left == saved.gv_left &&
		  node[7].gv_right == saved.gv_right &&
		  node[7].gv_balance == saved.gv_balance);
	SQ_ASSERT_EQ(node[7].key, 75);
	/* equal to the previous key is still in place (it stays behind) */
	SQ_ASSERT(!sq_gavl_requeue(&q, &node[7], 60));
	SQ_ASSERT(node[7].gv_parent == saved.gv_parent);
	/* the first node in place: its key changed, so true */
	saved = node[0];
	SQ_ASSERT(sq_gavl_requeue(&q, &node[0], 5));
	SQ_ASSERT(node[0].gv_parent == saved.gv_parent);
	SQ_ASSERT(!sq_gavl_requeue(&q, &node[0], 5));
	/* equal to the next key: must move behind it */
	SQ_ASSERT(!sq_gavl_requeue(&q, &node[7], 80));
	SQ_ASSERT(sq_gavl_next(&node[8]) == &node[7]);
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	/* first moves away: true, new first */
	SQ_ASSERT(sq_gavl_requeue(&q, &node[0], 1000));
	SQ_ASSERT(sq_gavl_first(&q) == &node[1]);
	SQ_ASSERT(sq_gavl_prev(&node[0]) == &node[N - 1]);
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
}

SQ_TEST(gavl_next_prev_walk)
{
	enum { N = 700 };
	static struct sq_gavl_node node[N];
	struct sq_gavl q;
	const struct sq_gavl_node *x;
	unsigned i;

	sq_gavl_init(&q);
	for (i = 0; i < N; i++) {
		unsigned k = (i * 409u) % N;

		sq_gavl_node_init(&node[k]);
		sq_gavl_enqueue(&q, &node[k], 3u * k);
	}
	for (i = 0; i < 100; i++)		/* degrade the spine a little */
		SQ_ASSERT(sq_gavl_pop(&q) == &node[i]);
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	x = sq_gavl_first(&q);
	SQ_ASSERT(sq_gavl_prev(x) == NULL);
	for (i = 100; i < N; i++, x = sq_gavl_next(x))
		SQ_ASSERT(x == &node[i]);
	SQ_ASSERT(x == NULL);
	x = &node[N - 1];
	for (i = N; i-- > 100; x = sq_gavl_prev(x))
		SQ_ASSERT(x == &node[i]);
	SQ_ASSERT(x == NULL);
}

/* Link nodes k[0..3] (keys 1..4) by hand into shape @shape. */
static void hand_tree(struct sq_gavl *q, struct sq_gavl_node *k, int shape)
{
	unsigned i;

	sq_gavl_init(q);
	for (i = 0; i < 4; i++) {
		sq_gavl_node_init(&k[i]);
		k[i].key = i + 1;
		k[i].gv_balance = 0;
	}
	q->gv_first = &k[0];
	if (shape == 0) {
		/* sound: 2 at the root, 1 left, 3 right, 4 right of 3 */
		q->gv_root = &k[1];
		k[1].gv_left = &k[0];
		k[1].gv_right = &k[2];
		k[0].gv_parent = k[2].gv_parent = &k[1];
		k[2].gv_right = &k[3];
		k[3].gv_parent = &k[2];
		k[1].gv_balance = -1;
		k[2].gv_balance = -1;
		q->gv_count = 4;
	} else if (shape == 1) {
		/* 1 -> 2 -> 3 -> 4 down the right: the root may be at -3, but
		 * 2 is off the spine at -2, which (3) forbids */
		q->gv_root = &k[0];
		for (i = 0; i < 3; i++) {
			k[i].gv_right = &k[i + 1];
			k[i + 1].gv_parent = &k[i];
			k[i].gv_balance = (int)i - 3;
		}
		q->gv_count = 4;
	} else {
		/* 3 -> 2 -> 1 down the left: the spine left-heavy by 2 (4) */
		q->gv_root = &k[2];
		k[2].gv_left = &k[1];
		k[1].gv_parent = &k[2];
		k[1].gv_left = &k[0];
		k[0].gv_parent = &k[1];
		k[2].gv_balance = 2;
		k[1].gv_balance = 1;
		q->gv_count = 3;
	}
}

SQ_TEST(gavl_check_detects_damage)
{
	enum { N = 100 };
	static struct sq_gavl_node node[N];
	struct sq_gavl q, h;
	struct sq_gavl_node k[4], *x;
	unsigned i;

	/* hand-built trees: a sound one, then shapes that (3) and (4) forbid */
	hand_tree(&h, k, 0);
	SQ_ASSERT_EQ(sq_gavl_check(&h), 0);
	hand_tree(&h, k, 1);
	SQ_ASSERT_EQ(sq_gavl_check(&h), -1);
	hand_tree(&h, k, 2);
	SQ_ASSERT_EQ(sq_gavl_check(&h), -1);
	/* a spine node right-heavy by two is sound when exact: 1 -> 3 <- 2,
	 * 3 -> 4 at the right, with 1 at -2 */
	hand_tree(&h, k, 1);
	k[0].gv_right = &k[2];
	k[2].gv_parent = &k[0];
	k[2].gv_left = &k[1];
	k[1].gv_parent = &k[2];
	k[1].gv_right = NULL;
	k[0].gv_balance = -2;
	k[1].gv_balance = 0;
	k[2].gv_balance = 0;
	SQ_ASSERT_EQ(sq_gavl_check(&h), 0);
	k[0].gv_balance = -1;
	SQ_ASSERT_EQ(sq_gavl_check(&h), -1);	/* but (2): it must be exact */

	sq_gavl_init(&q);
	for (i = 0; i < N; i++) {
		sq_gavl_node_init(&node[i]);
		sq_gavl_enqueue(&q, &node[i], (i * 37u) % N);
	}
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);

	/* a wrong balance factor, one step off either way */
	x = q.gv_root->gv_left->gv_right;
	x->gv_balance++;
	SQ_ASSERT_EQ(sq_gavl_check(&q), -1);
	x->gv_balance -= 2;
	SQ_ASSERT_EQ(sq_gavl_check(&q), -1);
	x->gv_balance++;
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);

	/* a child that does not point back */
	x = q.gv_root->gv_right->gv_left;
	x->gv_parent = q.gv_root;
	SQ_ASSERT_EQ(sq_gavl_check(&q), -1);
	x->gv_parent = q.gv_root->gv_right;

	/* keys out of order */
	x = sq_gavl_next(sq_gavl_first(&q));
	x->key += 5;
	SQ_ASSERT_EQ(sq_gavl_check(&q), -1);
	x->key -= 5;

	/* wrong count, wrong first */
	q.gv_count++;
	SQ_ASSERT_EQ(sq_gavl_check(&q), -1);
	q.gv_count -= 2;
	SQ_ASSERT_EQ(sq_gavl_check(&q), -1);
	q.gv_count++;
	x = q.gv_first;
	q.gv_first = sq_gavl_next(x);
	SQ_ASSERT_EQ(sq_gavl_check(&q), -1);
	q.gv_first = x;
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);

	/* empty queue with a stale first */
	sq_gavl_init(&h);
	h.gv_first = &node[0];
	SQ_ASSERT_EQ(sq_gavl_check(&h), -1);
}

SQ_TEST(gavl_unlinked_state)
{
	struct sq_gavl_node a, b;
	struct sq_gavl q;

	sq_gavl_init(&q);
	sq_gavl_node_init(&a);
	sq_gavl_node_init(&b);
	SQ_ASSERT(sq_gavl_enqueue(&q, &a, 1));
	SQ_ASSERT(!sq_gavl_enqueue(&q, &b, 2));
	SQ_ASSERT(sq_gavl_queued(&a) && sq_gavl_queued(&b));
	SQ_ASSERT(sq_gavl_pop(&q) == &a);
	SQ_ASSERT(!sq_gavl_queued(&a));
	sq_gavl_dequeue(&q, &b);
	SQ_ASSERT(!sq_gavl_queued(&b));
	SQ_ASSERT(sq_gavl_empty(&q));
#ifdef SQ_DEBUG
	/* dead links poisoned with distinct values; queued() still false */
	SQ_ASSERT(a.gv_parent == (struct sq_gavl_node *)SQ__POISON(1));
	SQ_ASSERT(a.gv_left == (struct sq_gavl_node *)SQ__POISON(2));
	SQ_ASSERT(a.gv_right == (struct sq_gavl_node *)SQ__POISON(3));
	SQ_ASSERT(b.gv_parent == (struct sq_gavl_node *)SQ__POISON(1));
#endif
	SQ_ASSERT(sq_gavl_enqueue(&q, &a, 7));
	SQ_ASSERT(sq_gavl_enqueue(&q, &b, 3));
	SQ_ASSERT_EQ(sq_gavl_check(&q), 0);
	SQ_ASSERT(sq_gavl_pop(&q) == &b);
	SQ_ASSERT(sq_gavl_pop(&q) == &a);
	SQ_ASSERT(sq_gavl_empty(&q));
}

static const sq_test_entry tests[] = {
	SQ_T(gavl_empty),
	SQ_T(gavl_avl_max_height),
	SQ_T(gavl_random_small),
	SQ_T(gavl_hold_long),
	SQ_T(gavl_cut_first_degrades_within_bound),
	SQ_T(gavl_erase_beside_degraded_spine),
	SQ_T(gavl_equal_keys_fifo),
	SQ_T(gavl_edge_keys),
	SQ_T(gavl_requeue_in_place),
	SQ_T(gavl_next_prev_walk),
	SQ_T(gavl_check_detects_damage),
	SQ_T(gavl_unlinked_state),
};

SQ_TEST_MAIN("wb_gavl", tests)
