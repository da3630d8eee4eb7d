/* SPDX-License-Identifier: MIT */
/*
 * wb_binom.c - white-box tests of the binomial heap backend
 * (smartq/binomial.h)
 *
 * The random operation stream of tests/mix.h on one to a few dozen
 * nodes, compared after every step with the model, each node's stamp
 * included, and with sq_binom_check(); the same on 1500 nodes with
 * check() now and then; the shape of the heap (one tree per set bit of
 * the count); equal keys in FIFO order; the edge keys 0 and UINT64_MAX;
 * dequeue of every node of a single B_k, the deepest included; requeue
 * in place; check() catching heaps broken on purpose; the stamp counter
 * at its end (renumbered, the order kept), a tie kind's too (its
 * (key, less, stamp) order kept); and, under SQ_DEBUG, a
 * dequeue or requeue through the wrong queue.  (The misuse every backend
 * catches is tests/misuse.c's.)  A failure prints the seed.
 */
#define _POSIX_C_SOURCE 200809L

#include "smartq/binomial.h"
#include "sq_test.h"
#include "child.h"
#include "model.h"
#include "rng.h"

/* ---- random steps against the model (tests/mix.h) ---------------------- */

#define MIX_K binom
#define MIX_NMAX 2000
#include "mix.h"

/* set while a test moves the stamp counter itself: the order is still
 * the model's, but the stamps are no longer the model's sequence */
static bool stamps_moved;

/*
 * The heap against the model: check(), and the stamps.  The model's seq
 * counts enqueues and requeues exactly as the queue's bh_seq does, so it
 * must equal each node's stamp: white-box, and the order is then the same
 * (key, seq) order by construction.
 */
static bool heap_matches(struct sq_binom *q)
{
	unsigned i;

	if (sq_binom_check(q) != 0)
		return false;
	if (stamps_moved)
		return true;
	if (q->bh_seq != mix_model.seq)
		return false;
	for (i = 0; i < mix_n; i++)
		if (sqm_queued(&mix_model, i) &&
		    sq_binom__stamp(&mix_node[i]) != sqm_seq(&mix_model, i))
			return false;
	return true;
}

static const unsigned all_keys[] = { RNG_KEYS_TIES, RNG_KEYS_SMALL,
				     RNG_KEYS_FULL, RNG_KEYS_EDGES };

/* ---- tests ------------------------------------------------------------- */

SQ_TEST(binom_empty)
{
	struct sq_binom q;
	struct sq_binom_node n;

	sq_binom_init(&q);
	sq_binom_node_init(&n);
	SQ_ASSERT(sq_binom_empty(&q));
	SQ_ASSERT_EQ(sq_binom_count(&q), 0);
	SQ_ASSERT(sq_binom_first(&q) == NULL);
	SQ_ASSERT(sq_binom_pop(&q) == NULL);
	SQ_ASSERT(sq_binom_check(&q) == 0);
	SQ_ASSERT(!sq_binom_queued(&n));

	SQ_ASSERT(sq_binom_enqueue(&q, &n, 42));
	SQ_ASSERT(sq_binom_queued(&n));
	SQ_ASSERT(sq_binom_first(&q) == &n);
	SQ_ASSERT(!sq_binom_requeue(&q, &n, 42));	/* same first and key */
	SQ_ASSERT(sq_binom_requeue(&q, &n, 43));	/* first key changed */
	SQ_ASSERT_EQ(n.key, 43);
	SQ_ASSERT(sq_binom_check(&q) == 0);
	SQ_ASSERT(sq_binom_pop(&q) == &n);
	SQ_ASSERT(!sq_binom_queued(&n));
	SQ_ASSERT(sq_binom_empty(&q));
	SQ_ASSERT(sq_binom_check(&q) == 0);

	SQ_ASSERT(sq_binom_enqueue(&q, &n, 1));
	sq_binom_dequeue(&q, &n);
	SQ_ASSERT(!sq_binom_queued(&n));
	SQ_ASSERT(sq_binom_first(&q) == NULL);
	SQ_ASSERT(sq_binom_check(&q) == 0);
#ifdef SQ_DEBUG
	/* dead links are poisoned, distinct and non-NULL */
	SQ_ASSERT(n.bh_child == (struct sq_binom_node *)SQ__POISON(1));
	SQ_ASSERT(n.bh_next == (struct sq_binom_node *)SQ__POISON(2));
	SQ_ASSERT(!sq_binom_queued(&n));
#endif
}

/* Each set bit k of the count holds one tree of degree k, nothing else. */
SQ_TEST(binom_shape)
{
	static struct sq_binom_node n[300];
	struct sq_binom q;
	unsigned i, d;

	sq_binom_init(&q);
	for (i = 0; i < 300; i++) {
		sq_binom_node_init(&n[i]);
		sq_binom_enqueue(&q, &n[i], (uint64_t)(i * 7919u % 301u));
		for (d = 0; d < 64; d++) {
			bool bit = (((uint64_t)i + 1u) >> d) & 1u;

			SQ_ASSERT((q.bh_roots[d] != NULL) == bit);
			if (bit)
				SQ_ASSERT_EQ(sq_binom__degree(q.bh_roots[d]),
					     d);
		}
		SQ_ASSERT(sq_binom_check(&q) == 0);
	}
	/* 256 = one B_8 after popping 44 */
	for (i = 0; i < 44; i++)
		SQ_ASSERT(sq_binom_pop(&q) != NULL);
	SQ_ASSERT_EQ(sq_binom_count(&q), 256);
	SQ_ASSERT(q.bh_roots[8] != NULL && q.bh_roots[8] == sq_binom_first(&q));
	for (d = 0; d < 64; d++)
		SQ_ASSERT((q.bh_roots[d] != NULL) == (d == 8));
	SQ_ASSERT(sq_binom_check(&q) == 0);
}

/* heaps of a few nodes up to a few dozen, check() after every step */
SQ_TEST(binom_random_small)
{
	static const unsigned sizes[] = { 1, 2, 3, 5, 8, 17, 33, 48 };
	struct mix_run run = {
		.name = "binom_random_small", .streams = 16, .steps = 3000,
		.keys = all_keys, .nkeys = SQ_NELEM(all_keys),
		.check = heap_matches,
	};
	unsigned i;

	for (i = 0; i < SQ_NELEM(sizes); i++) {
		run.seed = 0x5eed0000u + 100u * i;
		run.nodes = sizes[i];
		mix_run(&run);
	}
}

/* 1500 nodes (trees up to B_10) churned, then drained; check() now and
 * then */
SQ_TEST(binom_random_large)
{
	static const struct mix_run run = {
		.name = "binom_random_large", .seed = 0xb16b00b5u,
		.streams = SQ_NELEM(all_keys), .steps = 60000,
		.keys = all_keys, .nkeys = SQ_NELEM(all_keys),
		.nodes = MIX_NMAX, .prefill = 1500, .every = 1024,
		.check = heap_matches,
	};

	mix_run(&run);
}

SQ_TEST(binom_fifo_equal_keys)
{
	static struct sq_binom_node n[100];
	struct sq_binom q;
	unsigned i;

	sq_binom_init(&q);
	for (i = 0; i < 100; i++) {
		sq_binom_node_init(&n[i]);
		SQ_ASSERT(sq_binom_enqueue(&q, &n[i], 7) == (i == 0));
	}
	/* requeue with the same key sends a node behind its equals */
	SQ_ASSERT(sq_binom_requeue(&q, &n[0], 7));	/* first changed */
	SQ_ASSERT(!sq_binom_requeue(&q, &n[50], 7));
	SQ_ASSERT(sq_binom_check(&q) == 0);
	for (i = 1; i < 100; i++) {
		if (i == 50)
			continue;
		SQ_ASSERT(sq_binom_pop(&q) == &n[i]);
		SQ_ASSERT(sq_binom_check(&q) == 0);
	}
	SQ_ASSERT(sq_binom_pop(&q) == &n[0]);
	SQ_ASSERT(sq_binom_pop(&q) == &n[50]);
	SQ_ASSERT(sq_binom_pop(&q) == NULL);
}

SQ_TEST(binom_edge_keys)
{
	static struct sq_binom_node n[64];
	struct sq_binom q;
	unsigned i;

	sq_binom_init(&q);
	for (i = 0; i < 64; i++) {
		sq_binom_node_init(&n[i]);
		sq_binom_enqueue(&q, &n[i], (i & 1) ? UINT64_MAX : 0);
	}
	SQ_ASSERT(sq_binom_check(&q) == 0);
	/* move the first zero to the very end, then a max to the front */
	SQ_ASSERT(sq_binom_requeue(&q, &n[0], UINT64_MAX));
	SQ_ASSERT(sq_binom_first(&q) == &n[2]);
	SQ_ASSERT(!sq_binom_requeue(&q, &n[63], 0));	/* behind the zeros */
	SQ_ASSERT(sq_binom_check(&q) == 0);
	for (i = 2; i < 64; i += 2)
		SQ_ASSERT(sq_binom_pop(&q) == &n[i]);
	SQ_ASSERT(sq_binom_pop(&q) == &n[63]);
	for (i = 1; i < 63; i += 2) {
		SQ_ASSERT(sq_binom_first(&q)->key == UINT64_MAX);
		SQ_ASSERT(sq_binom_pop(&q) == &n[i]);
	}
	SQ_ASSERT(sq_binom_pop(&q) == &n[0]);
	SQ_ASSERT(sq_binom_empty(&q));
	SQ_ASSERT(sq_binom_check(&q) == 0);
}

/* Build one B_k from 2^k nodes with keys in shuffled order. */
static void build_bk(struct sq_binom *q, struct sq_binom_node *n, unsigned k,
		     uint64_t *s)
{
	unsigned i, cnt = 1u << k;
	uint64_t keys[128];

	for (i = 0; i < cnt; i++)
		keys[i] = i;
	for (i = cnt; i > 1; i--) {
		unsigned j = rng_below(s, i);
		uint64_t t = keys[i - 1];

		keys[i - 1] = keys[j];
		keys[j] = t;
	}
	sq_binom_init(q);
	for (i = 0; i < cnt; i++) {
		sq_binom_node_init(&n[i]);
		sq_binom_enqueue(q, &n[i], keys[i]);
	}
}

static unsigned depth_of(const struct sq_binom_node *x)
{
	unsigned d = 0;

	while (x->bh_parent) {
		x = x->bh_parent;
		d++;
	}
	return d;
}

/* Remove every node of a single B_k in turn, deepest included. */
SQ_TEST(binom_dequeue_deep)
{
	static struct sq_binom_node n[128];
	struct sq_binom q;
	unsigned k, i, j, d, deepest = 0;
	uint64_t s = 0xdee9u, last;
	struct sq_binom_node *x;

	for (k = 0; k <= 7; k++) {
		unsigned cnt = 1u << k;

		uint64_t seed = 0xdee9u + k;

		for (i = 0; i < cnt; i++) {
			s = seed;	/* the same heap each time, so every */
			build_bk(&q, n, k, &s);	/* node is removed once */
			SQ_ASSERT(q.bh_roots[k] != NULL);
			if (depth_of(&n[i]) > deepest)
				deepest = depth_of(&n[i]);
			sq_binom_dequeue(&q, &n[i]);
			SQ_ASSERT(!sq_binom_queued(&n[i]));
			SQ_ASSERTF(sq_binom_check(&q) == 0, "k %u node %u\n",
				   k, i);
			/* 2^k - 1 nodes: every degree below k, none at k */
			for (d = 0; d < 64; d++)
				SQ_ASSERT((q.bh_roots[d] != NULL) == (d < k));
			for (j = 0, last = 0; j + 1 < cnt; j++) {
				x = sq_binom_pop(&q);
				SQ_ASSERT(x != NULL && x != &n[i]);
				SQ_ASSERT(j == 0 || x->key > last);
				last = x->key;
			}
			SQ_ASSERT(sq_binom_pop(&q) == NULL);
		}
	}
	SQ_ASSERT_EQ(deepest, 7);

	/* and the deepest leaf of a B_7 by the first-child path */
	build_bk(&q, n, 7, &s);
	for (x = q.bh_roots[7]; x->bh_child; x = x->bh_child)
		;
	SQ_ASSERT_EQ(depth_of(x), 7);
	sq_binom_dequeue(&q, x);
	SQ_ASSERT(sq_binom_check(&q) == 0);
	SQ_ASSERT_EQ(sq_binom_count(&q), 127);
}

/* requeue leaves a node where it is when the order allows it */
SQ_TEST(binom_requeue_in_place)
{
	static struct sq_binom_node n[16];
	struct sq_binom q;
	struct sq_binom_node *root, *mid, *leaf, *p;
	unsigned i;

	sq_binom_init(&q);
	for (i = 0; i < 16; i++) {
		sq_binom_node_init(&n[i]);
		sq_binom_enqueue(&q, &n[i], 10u * i + 10u);
	}
	root = q.bh_roots[4];
	SQ_ASSERT(root == &n[0] && sq_binom_first(&q) == root);
	mid = root->bh_child;			/* degree 3 */
	leaf = mid->bh_child->bh_child->bh_child; /* degree 0, depth 4 */
	SQ_ASSERT_EQ(sq_binom__degree(mid), 3);
	SQ_ASSERT_EQ(depth_of(leaf), 4);

	/* a leaf going later stays put */
	p = leaf->bh_parent;
	SQ_ASSERT(!sq_binom_requeue(&q, leaf, 1000));
	SQ_ASSERT(leaf->bh_parent == p && sq_binom__degree(leaf) == 0);
	SQ_ASSERT(sq_binom_check(&q) == 0);
	/* equal to its parent's key: still after it, in place */
	SQ_ASSERT(!sq_binom_requeue(&q, leaf, p->key));
	SQ_ASSERT(leaf->bh_parent == p);
	SQ_ASSERT(sq_binom_check(&q) == 0);
	/* the root going earlier stays put and reports the new first key */
	SQ_ASSERT(sq_binom_requeue(&q, root, 5));
	SQ_ASSERT(q.bh_roots[4] == root && sq_binom_first(&q) == root);
	SQ_ASSERT(sq_binom_check(&q) == 0);
	/* a middle node between its parent and children stays put */
	SQ_ASSERT(mid->key + 1 < mid->bh_child->bh_next->bh_next->key);
	SQ_ASSERT(!sq_binom_requeue(&q, mid, mid->key + 1));
	SQ_ASSERT(mid->bh_parent == root && root->bh_child == mid);
	SQ_ASSERT(sq_binom_check(&q) == 0);
	/* equal to a child's key: must move behind that child */
	SQ_ASSERT(!sq_binom_requeue(&q, mid, mid->bh_child->key));
	SQ_ASSERT(root->bh_child != mid || sq_binom__degree(mid) != 3);
	SQ_ASSERT(sq_binom_check(&q) == 0);
	/* a leaf going before the root moves and becomes first */
	SQ_ASSERT(sq_binom_requeue(&q, leaf, 0));
	SQ_ASSERT(sq_binom_first(&q) == leaf && leaf->bh_parent == NULL);
	SQ_ASSERT(sq_binom_check(&q) == 0);
	/* the first going last: the first changes */
	SQ_ASSERT(sq_binom_requeue(&q, leaf, UINT64_MAX));
	SQ_ASSERT(sq_binom_first(&q) == root);
	SQ_ASSERT(sq_binom_check(&q) == 0);
}

/* set_stamp - give @n the stamp @s, its degree unchanged (damage). */
static void set_stamp(struct sq_binom_node *n, uint64_t s)
{
	n->bh_seqdeg = s << SQ_BINOM__DEG_BITS |
		       (n->bh_seqdeg & SQ_BINOM__DEG_MASK);
}

/* check() must notice each kind of damage; undo it and it passes again. */
SQ_TEST(binom_check_catches)
{
	static struct sq_binom_node n[32];
	struct sq_binom q;
	struct sq_binom_node *root, *c, *leaf, *p, *saved;
	uint64_t k, pk, ps, lk, ls;
	size_t cnt;
	unsigned i, deg;

	sq_binom_init(&q);
	for (i = 0; i < 27; i++) {	/* 11011: degrees 0, 1, 3, 4 */
		sq_binom_node_init(&n[i]);
		sq_binom_enqueue(&q, &n[i], (uint64_t)(i * 37u % 29u));
	}
	SQ_ASSERT(sq_binom_check(&q) == 0);
	fprintf(stderr, "(check failures printed below are expected)\n");
	root = q.bh_roots[4];
	c = root->bh_child;
	leaf = c;
	while (leaf->bh_child)
		leaf = leaf->bh_child;

	deg = sq_binom__degree(root);		/* a root's degree */
	sq_binom__set_degree(root, 3);
	SQ_ASSERT(sq_binom_check(&q) == -1);
	sq_binom__set_degree(root, deg);

	deg = sq_binom__degree(c);		/* an inner node's degree */
	sq_binom__set_degree(c, deg + 1);
	SQ_ASSERT(sq_binom_check(&q) == -1);
	sq_binom__set_degree(c, deg);
	SQ_ASSERT(sq_binom_check(&q) == 0);

	p = leaf->bh_parent;		/* heap order: swap with the parent */
	pk = p->key;			/* (keys and stamps; degrees stay) */
	ps = sq_binom__stamp(p);
	lk = leaf->key;
	ls = sq_binom__stamp(leaf);
	leaf->key = pk;
	set_stamp(leaf, ps);
	p->key = lk;
	set_stamp(p, ls);
	SQ_ASSERT(sq_binom_check(&q) == -1);
	p->key = pk;				/* equal pairs: not strict */
	set_stamp(p, ps);
	SQ_ASSERT(sq_binom_check(&q) == -1);
	SQ_ASSERT(ps > 0);			/* equal keys, seq reversed */
	set_stamp(leaf, ps - 1);
	SQ_ASSERT(sq_binom_check(&q) == -1);
	leaf->key = lk;
	set_stamp(leaf, ls);
	SQ_ASSERT(sq_binom_check(&q) == 0);

	cnt = q.bh_count;			/* the count */
	q.bh_count = cnt + 1;
	SQ_ASSERT(sq_binom_check(&q) == -1);
	q.bh_count = cnt;

	saved = q.bh_min;			/* the cached minimum */
	q.bh_min = q.bh_roots[0] == saved ? q.bh_roots[1] : q.bh_roots[0];
	SQ_ASSERT(sq_binom_check(&q) == -1);
	q.bh_min = saved;

	saved = leaf->bh_parent;		/* a parent pointer */
	leaf->bh_parent = root;
	SQ_ASSERT(sq_binom_check(&q) == -1);
	leaf->bh_parent = saved;

	k = q.bh_seq;				/* the stamp counter */
	q.bh_seq = 0;
	SQ_ASSERT(sq_binom_check(&q) == -1);
	q.bh_seq = SQ_BINOM__SEQ_END;		/* the last */
	SQ_ASSERT(sq_binom_check(&q) == 0);
	q.bh_seq++;				/* past the stamp's width */
	SQ_ASSERT(sq_binom_check(&q) == -1);
	q.bh_seq = k;

	saved = q.bh_roots[2];			/* a stray root slot */
	q.bh_roots[2] = &n[31];
	SQ_ASSERT(sq_binom_check(&q) == -1);
	q.bh_roots[2] = saved;

	saved = c->bh_next;			/* a sibling list cut short */
	c->bh_next = NULL;
	SQ_ASSERT(sq_binom_check(&q) == -1);
	c->bh_next = saved;

	SQ_ASSERT(sq_binom_check(&q) == 0);
	fprintf(stderr, "(end of expected check failures)\n");
}

/*
 * The stamp counter at its end: the enqueue or requeue that finds it
 * there renumbers the queued nodes in their order, so nothing crashes,
 * equal keys keep their order and the counter starts again near 0.
 */
SQ_TEST(binom_stamp_counter_end)
{
	static const uint64_t key[6] = { 5, 5, 1, 5, 1, 5 };
	static const unsigned order[6] = { 2, 4, 0, 1, 3, 5 };
	static const unsigned requeued[6] = { 2, 4, 1, 3, 5, 0 };
	static struct sq_binom_node n[6];
	struct sq_binom q;
	unsigned i;

	/* enqueues across the end */
	sq_binom_init(&q);
	q.bh_seq = SQ_BINOM__SEQ_END - 3;
	for (i = 0; i < 6; i++) {
		sq_binom_node_init(&n[i]);
		sq_binom_enqueue(&q, &n[i], key[i]);
		SQ_ASSERT(sq_binom_check(&q) == 0);
	}
	SQ_ASSERTF(q.bh_seq == 6, "counter %llu after the end, want 6\n",
		   (unsigned long long)q.bh_seq);
	mix_expect_pops(&q, n, order, 6);

	/* a requeue that finds the counter at the end, in place or moved */
	for (i = 0; i < 6; i++)
		sq_binom_enqueue(&q, &n[i], key[i]);
	q.bh_seq = SQ_BINOM__SEQ_END;
	SQ_ASSERT(sq_binom_check(&q) == 0);
	sq_binom_requeue(&q, &n[0], 5);	/* last of the 5s now */
	SQ_ASSERT(sq_binom_check(&q) == 0);
	SQ_ASSERT(q.bh_seq == 7);
	mix_expect_pops(&q, n, requeued, 6);

	/* an empty queue at the end starts again at 0 */
	q.bh_seq = SQ_BINOM__SEQ_END;
	sq_binom_enqueue(&q, &n[0], 9);
	SQ_ASSERT(q.bh_seq == 1 && sq_binom__stamp(&n[0]) == 0);
	SQ_ASSERT(sq_binom_pop(&q) == &n[0]);
}

/* A tie kind (SQ_BINOM_TIE) ordered among equal keys by prio: the
 * renumbering pops in (key, prio, stamp) order and links in that order */
SQ_BINOM_TIE(wbt, wbt_less);
struct wbt_item {
	unsigned prio, order;		/* its (re)queue count: FIFO's witness */
	SQ_NODE(wbt) node;
};

static bool wbt_less(const SQ_NODE(wbt) *a, const SQ_NODE(wbt) *b)
{
	return sq_entry_const(a, struct wbt_item, node)->prio <
	       sq_entry_const(b, struct wbt_item, node)->prio;
}

SQ_TEST(binom_tie_stamp_counter_end)
{
	static struct wbt_item it[48];
	static struct sq_wbt q;
	const struct wbt_item *p, *last = NULL;
	uint64_t rng = 48, k, lastk = 0;
	unsigned i, j, seq = 0, renumbers = 0;

	sq_wbt_init(&q);
	for (i = 0; i < 48; i++) {
		if (i % 8 == 0)		/* each eighth (re)queue renumbers */
			q.base.bh_seq = SQ_BINOM__SEQ_END - 4;
		it[i].prio = (unsigned)(rng_next(&rng) % 3);
		it[i].order = seq++;
		sq_wbt_node_init(&it[i].node);
		sq_wbt_enqueue(&q, &it[i].node, rng_next(&rng) % 3);
		if (i % 3 == 2) {	/* and requeue an earlier one */
			j = (unsigned)(rng_next(&rng) % i);
			it[j].prio = (unsigned)(rng_next(&rng) % 3);
			it[j].order = seq++;
			sq_wbt_requeue(&q, &it[j].node, rng_next(&rng) % 3);
		}
		renumbers += q.base.bh_seq < 16;
		SQ_ASSERT(sq_wbt_check(&q) == 0);
	}
	SQ_ASSERT(renumbers > 0);
	while (!sq_wbt_empty(&q)) {
		SQ_NODE(wbt) *n = sq_wbt_pop(&q);

		p = sq_entry(n, struct wbt_item, node);
		k = sq_wbt_key(n);
		if (last)
			SQ_ASSERTF(lastk < k || (lastk == k &&
				   (last->prio < p->prio || (last->prio == p->prio &&
				    last->order < p->order))),
				   "pops out of (key, prio, FIFO) order\n");
		last = p;
		lastk = k;
		SQ_ASSERT(sq_wbt_check(&q) == 0);
	}
}

/* The random mix against the model, the counter pushed to a few stamps
 * before its end every 97 steps: the order stays the model's. */
static unsigned long counter_calls, renumbered;
static uint64_t counter_before;

static bool heap_matches_counter_end(struct sq_binom *q)
{
	bool ok = heap_matches(q);

	renumbered += q->bh_seq < counter_before;
	if (++counter_calls % 97 == 0)
		q->bh_seq = SQ_BINOM__SEQ_END - counter_calls / 97 % 8;
	counter_before = q->bh_seq;
	return ok;
}

SQ_TEST(binom_stamp_counter_end_random)
{
	struct mix_run run = {
		.name = "binom_stamp_counter_end_random", .streams = 1,
		.steps = 20000, .nkeys = 1, .nodes = 64,
		.check = heap_matches_counter_end,
	};
	unsigned i;

	stamps_moved = true;
	for (i = 0; i < SQ_NELEM(all_keys); i++) {
		run.seed = 0x5ea1e00du + i;
		run.keys = &all_keys[i];
		counter_before = 0;	/* a fresh queue is no renumbering */
		mix_run(&run);
	}
	stamps_moved = false;
	SQ_ASSERTF(renumbered > 500, "only %lu renumberings\n", renumbered);
}

#ifdef SQ_DEBUG
/*
 * SQ_DEBUG: a dequeue or requeue through a queue the node is not on would
 * take a tree of the other queue apart (the node's root is found by its
 * parents, not through @q); it stops the program naming the function.
 * Each case runs in a forked child whose stderr is captured.
 */
static struct sq_binom oq1, oq2;
static struct sq_binom_node on[8];

static void other_setup(void)
{
	unsigned i;

	sq_binom_init(&oq1);
	sq_binom_init(&oq2);
	for (i = 0; i < 8; i++) {
		sq_binom_node_init(&on[i]);
		sq_binom_enqueue(i < 5 ? &oq1 : &oq2, &on[i], 10 + i);
	}
}

static void dequeue_root_other(void)
{
	other_setup();
	sq_binom_dequeue(&oq2, &on[4]);	/* oq1's root of degree 0 */
}

static void dequeue_deep_other(void)
{
	other_setup();
	sq_binom_dequeue(&oq2, &on[3]);	/* below oq1's root of degree 2 */
}

static void requeue_other(void)
{
	other_setup();
	sq_binom_requeue(&oq1, &on[6], 1);	/* oq2's */
}

SQ_TEST(binom_other_queue_caught)
{
	child_expect_abort(dequeue_root_other,
			   "sq_binom_dequeue: node is on another queue\n",
			   "dequeue of the other queue's root");
	child_expect_abort(dequeue_deep_other,
			   "sq_binom_dequeue: node is on another queue\n",
			   "dequeue of a node deep in the other queue");
	child_expect_abort(requeue_other,
			   "sq_binom_requeue: node is on another queue\n",
			   "requeue of the other queue's node");
}

/* SQ_DEBUG: the precondition carry states, a root without a parent, is
 * checked (no public verb can break it: a white-box call does) */
static void carry_parented_root(void)
{
	other_setup();
	on[0].bh_parent = &on[1];
	sq_binom__carry(&oq1, &on[0], 0, NULL);
}

SQ_TEST(binom_internal_preconditions_caught)
{
	child_expect_abort(carry_parented_root,
			   "sq_binom__carry: the new root has a parent\n",
			   "carry of a node with a parent");
}
#endif

static const sq_test_entry tests[] = {
	SQ_T(binom_empty),
	SQ_T(binom_shape),
	SQ_T(binom_random_small),
	SQ_T(binom_random_large),
	SQ_T(binom_fifo_equal_keys),
	SQ_T(binom_edge_keys),
	SQ_T(binom_dequeue_deep),
	SQ_T(binom_requeue_in_place),
	SQ_T(binom_check_catches),
	SQ_T(binom_stamp_counter_end),
	SQ_T(binom_tie_stamp_counter_end),
	SQ_T(binom_stamp_counter_end_random),
#ifdef SQ_DEBUG
	SQ_T(binom_other_queue_caught),
	SQ_T(binom_internal_preconditions_caught),
#endif
};

SQ_TEST_MAIN("wb_binom", tests)
