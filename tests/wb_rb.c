/* SPDX-License-Identifier: MIT */
/*
 * wb_rb.c - white-box tests of the red-black tree backend (smartq/rbtree.h)
 *
 * The random operation stream of tests/mix.h on a few dozen nodes,
 * compared after every step with the model of tests/model.h (order by key,
 * then by the time of the last enqueue/requeue) and with sq_rb_check();
 * in-order walks both ways; equal keys; the edge keys 0 and UINT64_MAX;
 * and check() catching trees broken on purpose.  A failure prints the seed.
 */
#include "smartq/rbtree.h"
#include "sq_test.h"
#include "model.h"
#include "rng.h"

/* ---- random steps against the model (tests/mix.h) ---------------------- */

#define MIX_K rb
#define MIX_NMAX 64
#include "mix.h"

/* The tree against the model: check() and both walk directions. */
static bool tree_matches(struct sq_rb *q)
{
	return sq_rb_check(q) == 0 &&
	       mix_walk_matches(q, sq_rb_next, sq_rb_prev);
}

SQ_TEST(rb_empty)
{
	struct sq_rb q;

	sq_rb_init(&q);
	SQ_ASSERT(sq_rb_empty(&q));
	SQ_ASSERT_EQ(sq_rb_count(&q), 0);
	SQ_ASSERT(sq_rb_first(&q) == NULL);
	SQ_ASSERT(sq_rb_pop(&q) == NULL);
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);
}

SQ_TEST(rb_node_layout)
{
	struct sq_rb_node n;

	sq_rb_node_init(&n);
	SQ_ASSERT(!sq_rb_queued(&n));
	if (sizeof(void *) == 8)
		SQ_ASSERT_EQ(sizeof(struct sq_rb_node), 32);
	SQ_ASSERT_EQ((uintptr_t)&n & 1u, 0);
	/* the key comes first and the link right after it, where the
	 * layout rule says */
	SQ_ASSERT((void *)&n.key == (void *)&n);
	SQ_ASSERT((const void *)((const char *)&n.rb_link + SQ_RB__KEY_AT) ==
		  (const void *)&n.key);
	SQ_ASSERT(sq_rb__node(&n.rb_link) == &n);
	SQ_ASSERT(sq_rb__node(NULL) == NULL);
	n.key = 0x0123456789abcdefu;
	SQ_ASSERT_EQ(sq_rb__key(&n.rb_link), 0x0123456789abcdefu);
	sq_rb__set_key(&n.rb_link, 42);
	SQ_ASSERT_EQ(n.key, 42);
}

/* check() after every step against the model, many seeds */
SQ_TEST(rb_random_small)
{
	static const unsigned keys[] = { RNG_KEYS_TIES, RNG_KEYS_SMALL,
					 RNG_KEYS_EDGES };
	static const struct mix_run run = {
		.name = "rb_random_small", .seed = 0x5eed0000u,
		.streams = 300, .steps = 2000,
		.keys = keys, .nkeys = SQ_NELEM(keys), .check = tree_matches,
	};

	mix_run(&run);
}

/* Grow to many nodes, then drain: exercises deep fix-up chains. */
SQ_TEST(rb_random_large)
{
	enum { N = 20000 };
	static struct sq_rb_node node[N];
	uint64_t seed = 0xfeedfaceu, s = seed, prev;
	struct sq_rb q;
	struct sq_rb_node *x;
	unsigned i, loop;

	sq_rb_init(&q);
	for (i = 0; i < N; i++) {
		sq_rb_node_init(&node[i]);
		sq_rb_enqueue(&q, &node[i], rng_below(&s, 5000));
	}
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);
	/* hold loop: pop, advance key, enqueue; plus some arbitrary removal */
	for (loop = 0; loop < 100000; loop++) {
		x = sq_rb_pop(&q);
		SQ_ASSERT(x != NULL);
		sq_rb_enqueue(&q, x, x->key + rng_below(&s, 1000));
		i = rng_below(&s, N);
		if (loop % 7 == 0) {
			sq_rb_dequeue(&q, &node[i]);
			sq_rb_enqueue(&q, &node[i], rng_next(&s) >> 40);
		} else if (loop % 7 == 1) {
			sq_rb_requeue(&q, &node[i], node[i].key + rng_below(&s, 50));
		}
	}
	SQ_ASSERTF(sq_rb_check(&q) == 0, "seed %llu\n", (unsigned long long)seed);
	SQ_ASSERT_EQ(sq_rb_count(&q), N);
	prev = 0;
	for (i = 0; i < N; i++) {
		x = sq_rb_pop(&q);
		SQ_ASSERT(x != NULL && x->key >= prev);
		prev = x->key;
		if (i % 1000 == 0)
			SQ_ASSERT_EQ(sq_rb_check(&q), 0);
	}
	SQ_ASSERT(sq_rb_empty(&q));
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);
}

SQ_TEST(rb_next_prev_walk)
{
	enum { N = 500 };
	static struct sq_rb_node node[N];
	struct sq_rb q;
	const struct sq_rb_node *x;
	unsigned i;

	sq_rb_init(&q);
	/* keys 0, 2, 4 ... enqueued in a scrambled order */
	for (i = 0; i < N; i++) {
		unsigned k = (i * 7919u) % N;

		sq_rb_node_init(&node[k]);
		sq_rb_enqueue(&q, &node[k], 2u * k);
	}
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);
	x = sq_rb_first(&q);
	SQ_ASSERT(sq_rb_prev(x) == NULL);
	for (i = 0; i < N; i++, x = sq_rb_next(x))
		SQ_ASSERT(x == &node[i]);
	SQ_ASSERT(x == NULL);
	x = &node[N - 1];
	SQ_ASSERT(sq_rb_next(x) == NULL);
	for (i = N; i-- > 0; x = sq_rb_prev(x))
		SQ_ASSERT(x == &node[i]);
	SQ_ASSERT(x == NULL);
}

SQ_TEST(rb_equal_keys_fifo)
{
	enum { N = 100 };
	static struct sq_rb_node node[N];
	struct sq_rb q;
	unsigned i;

	sq_rb_init(&q);
	for (i = 0; i < N; i++) {
		sq_rb_node_init(&node[i]);
		SQ_ASSERT_EQ(sq_rb_enqueue(&q, &node[i], 42), i == 0);
	}
	/* requeue with the same key sends the node behind its equals */
	SQ_ASSERT(sq_rb_requeue(&q, &node[0], 42));	/* first node changed */
	SQ_ASSERT(sq_rb_first(&q) == &node[1]);
	SQ_ASSERT(!sq_rb_requeue(&q, &node[50], 42));
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);
	for (i = 1; i < N; i++) {
		if (i == 50)
			continue;
		SQ_ASSERT(sq_rb_pop(&q) == &node[i]);
	}
	SQ_ASSERT(sq_rb_pop(&q) == &node[0]);
	SQ_ASSERT(sq_rb_pop(&q) == &node[50]);
	SQ_ASSERT(sq_rb_empty(&q));
}

SQ_TEST(rb_edge_keys)
{
	struct sq_rb_node a, b, c, d, e;
	struct sq_rb q;

	sq_rb_init(&q);
	sq_rb_node_init(&a);
	sq_rb_node_init(&b);
	sq_rb_node_init(&c);
	sq_rb_node_init(&d);
	sq_rb_node_init(&e);
	SQ_ASSERT(sq_rb_enqueue(&q, &a, UINT64_MAX));
	SQ_ASSERT(sq_rb_enqueue(&q, &b, 0));
	SQ_ASSERT(!sq_rb_enqueue(&q, &c, UINT64_MAX));
	SQ_ASSERT(!sq_rb_enqueue(&q, &d, 0));
	SQ_ASSERT(!sq_rb_enqueue(&q, &e, UINT64_MAX - 1));
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);
	SQ_ASSERT(sq_rb_pop(&q) == &b);
	SQ_ASSERT(sq_rb_pop(&q) == &d);
	SQ_ASSERT(sq_rb_pop(&q) == &e);
	SQ_ASSERT(sq_rb_pop(&q) == &a);
	SQ_ASSERT(sq_rb_pop(&q) == &c);
	SQ_ASSERT(sq_rb_pop(&q) == NULL);
	/* requeue across the whole range */
	sq_rb_enqueue(&q, &a, 0);
	sq_rb_enqueue(&q, &b, 5);
	SQ_ASSERT(sq_rb_requeue(&q, &a, UINT64_MAX));
	SQ_ASSERT(sq_rb_first(&q) == &b);
	SQ_ASSERT(sq_rb_requeue(&q, &a, 0));
	SQ_ASSERT(sq_rb_first(&q) == &a);
	SQ_ASSERT(sq_rb_requeue(&q, &a, 1));	/* in place, first key changed */
	SQ_ASSERT_EQ(sq_rb_first(&q)->key, 1);
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);
}

/* Requeue that keeps the order must not restructure the tree. */
SQ_TEST(rb_requeue_in_place)
{
	enum { N = 64 };
	static struct sq_rb_node node[N];
	uintptr_t before[N];
	struct sq_rb q;
	unsigned i;

	sq_rb_init(&q);
	for (i = 0; i < N; i++) {
		sq_rb_node_init(&node[i]);
		sq_rb_enqueue(&q, &node[i], 10u * i);
	}
	for (i = 0; i < N; i++)
		before[i] = node[i].rb_link.rb_parent_color;
	/* each node moves within (prev, next): 10i -> 10i + 5 */
	for (i = 1; i < N; i++)
		SQ_ASSERT(!sq_rb_requeue(&q, &node[i], 10u * i + 5));
	SQ_ASSERT(sq_rb_requeue(&q, &node[0], 3));	/* first key changes */
	for (i = 0; i < N; i++)
		SQ_ASSERT_EQ(node[i].rb_link.rb_parent_color, before[i]);
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);
	/* equal to next: must move behind it */
	SQ_ASSERT(!sq_rb_requeue(&q, &node[10], 10u * 11 + 5));
	SQ_ASSERT(sq_rb_next(&node[11]) == &node[10]);
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);
}

static struct sq_rb_node *find_red(const struct sq_rb *q)
{
	struct sq_rb_node *x;

	for (x = sq_rb_first(q); x; x = sq_rb_next(x))
		if (!(x->rb_link.rb_parent_color & 1u))
			return x;
	return NULL;
}

SQ_TEST(rb_check_detects_corruption)
{
	enum { N = 50 };
	static struct sq_rb_node node[N];
	struct sq_rb q;
	struct sq_rb_node *x;
	struct sq_rb__link *l, *saved;
	uint64_t k;
	unsigned i;

	sq_rb_init(&q);
	for (i = 0; i < N; i++) {
		sq_rb_node_init(&node[i]);
		sq_rb_enqueue(&q, &node[i], (i * 37u) % N);
	}
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);
#ifdef SQ_DEBUG
	fprintf(stderr, "wb_rb: the check failures printed below are "
		"deliberate (trees broken on purpose)\n");
#endif

	/* root painted red: property (2) */
	q.rb_root->rb_parent_color &= ~(uintptr_t)1;
	SQ_ASSERT_EQ(sq_rb_check(&q), -1);
	q.rb_root->rb_parent_color |= 1u;
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);

	/* a red node painted black: black heights differ (5) */
	x = find_red(&q);
	SQ_ASSERT(x != NULL);
	x->rb_link.rb_parent_color |= 1u;
	SQ_ASSERT_EQ(sq_rb_check(&q), -1);
	x->rb_link.rb_parent_color &= ~(uintptr_t)1;
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);

	/* a black parent of a red node painted red: red-red (4) or (5) */
	x = find_red(&q);
	{
		struct sq_rb__link *p = sq_rb__parent(&x->rb_link);

		SQ_ASSERT(p != NULL && (p->rb_parent_color & 1u));
		p->rb_parent_color &= ~(uintptr_t)1;
		SQ_ASSERT_EQ(sq_rb_check(&q), -1);
		p->rb_parent_color |= 1u;
	}
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);

	/* keys out of order */
	x = sq_rb_next(sq_rb_first(&q));
	k = x->key;
	x->key = UINT64_MAX;
	SQ_ASSERT_EQ(sq_rb_check(&q), -1);
	x->key = k;

	/* stale leftmost, wrong count */
	saved = q.rb_leftmost;
	q.rb_leftmost = sq_rb__next(saved);
	SQ_ASSERT_EQ(sq_rb_check(&q), -1);
	q.rb_leftmost = saved;
	q.rb_count++;
	SQ_ASSERT_EQ(sq_rb_check(&q), -1);
	q.rb_count -= 2;
	SQ_ASSERT_EQ(sq_rb_check(&q), -1);
	q.rb_count++;

	/* a broken parent link */
	l = q.rb_root->rb_left;
	saved = sq_rb__parent(l);
	sq_rb__set_parent(l, l->rb_right ? l->rb_right : &node[0].rb_link);
	SQ_ASSERT_EQ(sq_rb_check(&q), -1);
	sq_rb__set_parent(l, saved);
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);

	/* empty queue with a stale leftmost */
	{
		struct sq_rb e;

		sq_rb_init(&e);
		e.rb_leftmost = &node[0].rb_link;
		SQ_ASSERT_EQ(sq_rb_check(&e), -1);
	}
}

SQ_TEST(rb_unlinked_state)
{
	struct sq_rb_node a, b;
	struct sq_rb q;

	sq_rb_init(&q);
	sq_rb_node_init(&a);
	sq_rb_node_init(&b);
	sq_rb_enqueue(&q, &a, 1);
	sq_rb_enqueue(&q, &b, 2);
	SQ_ASSERT(sq_rb_queued(&a) && sq_rb_queued(&b));
	SQ_ASSERT(sq_rb_pop(&q) == &a);
	SQ_ASSERT(!sq_rb_queued(&a));
	sq_rb_dequeue(&q, &b);
	SQ_ASSERT(!sq_rb_queued(&b));
#ifdef SQ_DEBUG
	/* dead links poisoned with distinct values, queued() still false */
	SQ_ASSERT(a.rb_link.rb_left == (struct sq_rb__link *)SQ__POISON(1));
	SQ_ASSERT(a.rb_link.rb_right == (struct sq_rb__link *)SQ__POISON(2));
	SQ_ASSERT(a.rb_link.rb_left != a.rb_link.rb_right);
#endif
	/* a popped node can be enqueued again */
	SQ_ASSERT(sq_rb_enqueue(&q, &a, 7));
	SQ_ASSERT(sq_rb_enqueue(&q, &b, 3));
	SQ_ASSERT_EQ(sq_rb_check(&q), 0);
	SQ_ASSERT(sq_rb_pop(&q) == &b);
	SQ_ASSERT(sq_rb_pop(&q) == &a);
	SQ_ASSERT(sq_rb_empty(&q));
}

static const sq_test_entry tests[] = {
	SQ_T(rb_empty),
	SQ_T(rb_node_layout),
	SQ_T(rb_random_small),
	SQ_T(rb_random_large),
	SQ_T(rb_next_prev_walk),
	SQ_T(rb_equal_keys_fifo),
	SQ_T(rb_edge_keys),
	SQ_T(rb_requeue_in_place),
	SQ_T(rb_check_detects_corruption),
	SQ_T(rb_unlinked_state),
};

SQ_TEST_MAIN("wb_rb", tests)
