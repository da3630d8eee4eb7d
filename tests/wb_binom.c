/* SPDX-License-Identifier: MIT */
/*
 * wb_binom.c - white-box tests of the binomial heap backend
 * (smartq/binomial.h)
 *
 * A random mix of enqueue / pop / dequeue (any node) / requeue on a few
 * dozen nodes, compared after every step with the model of tests/model.h,
 * (key, stamp) included, and with sq_binom_check(); the same on a few
 * thousand nodes with check() now and then; the shape of the heap (one
 * tree per set bit of the count); equal keys in FIFO order; the edge keys
 * 0 and UINT64_MAX; dequeue of every node of a single B_k, the deepest
 * included; requeue in place; check() catching heaps broken on purpose;
 * the stamp counter at its end (renumbered, the order kept); and, under
 * SQ_DEBUG, a dequeue or requeue through the wrong queue.  (The misuse
 * every backend catches is tests/misuse.c's.)  A failure prints the seed.
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "smartq/binomial.h"
#include "sq_test.h"
#include "model.h"
#include "rng.h"

/* ---- random steps against the model (tests/model.h) -------------------- */

#define NMAX 2000

/*
 * Nodes 0 .. nnodes - 1 are the model's ids.  The model's seq counts
 * enqueues and requeues exactly as the queue's bh_seq does, so it must
 * equal the node's stamp: white-box, and the order is then the same
 * (key, seq) order by construction.
 */
static struct sq_binom bq;
static struct sq_binom_node bnode[NMAX];
static struct sqm model;
static unsigned nnodes;
/* set while a test moves the stamp counter itself: the order is still
 * the model's, but the stamps are no longer the model's sequence */
static bool stamps_moved;

static void mix_init(unsigned n)
{
	unsigned i;

	sq_binom_init(&bq);
	sqm_init(&model);
	nnodes = n;
	for (i = 0; i < n; i++)
		sq_binom_node_init(&bnode[i]);
}

static int idx(const struct sq_binom_node *n)
{
	return n ? (int)(n - bnode) : -1;
}

/* The queue agrees with the model: count, first, and every node's state. */
static void mix_agree(uint64_t seed, unsigned long step, bool full)
{
	const struct sq_binom_node *first = sq_binom_first(&bq);
	unsigned f = 0, i;
	bool any = sqm_first(&model, &f, NULL);

	SQ_ASSERTF(sq_binom_count(&bq) == sqm_count(&model),
		   "seed %llu step %lu: count %zu, model %zu\n",
		   (unsigned long long)seed, step, sq_binom_count(&bq),
		   sqm_count(&model));
	SQ_ASSERTF(sq_binom_empty(&bq) == !any,
		   "seed %llu step %lu: empty\n", (unsigned long long)seed,
		   step);
	SQ_ASSERTF(any ? first == &bnode[f] : first == NULL,
		   "seed %llu step %lu: first is %d, model %d\n",
		   (unsigned long long)seed, step, idx(first),
		   any ? (int)f : -1);
	SQ_ASSERTF(stamps_moved || bq.bh_seq == model.seq,
		   "seed %llu step %lu: counter\n", (unsigned long long)seed,
		   step);
	if (!full)
		return;
	SQ_ASSERTF(sq_binom_check(&bq) == 0,
		   "seed %llu step %lu: check() failed\n",
		   (unsigned long long)seed, step);
	for (i = 0; i < nnodes; i++) {
		bool queued = sqm_queued(&model, i);

		SQ_ASSERTF(sq_binom_queued(&bnode[i]) == queued,
			   "seed %llu step %lu: node %u queued state\n",
			   (unsigned long long)seed, step, i);
		if (queued)
			SQ_ASSERTF(bnode[i].key == sqm_key(&model, i) &&
				   (stamps_moved ||
				    sq_binom__stamp(&bnode[i]) ==
				    sqm_seq(&model, i)),
				   "seed %llu step %lu: node %u key/seq\n",
				   (unsigned long long)seed, step, i);
	}
}

static void mix_enqueue(unsigned i, uint64_t key, uint64_t seed,
			unsigned long step)
{
	bool want = sqm_enqueue(&model, i, key);
	bool got = sq_binom_enqueue(&bq, &bnode[i], key);

	SQ_ASSERTF(got == want, "seed %llu step %lu: enqueue returned %d\n",
		   (unsigned long long)seed, step, (int)got);
}

static void mix_pop(uint64_t seed, unsigned long step)
{
	unsigned f = 0;
	bool any = sqm_pop(&model, &f, NULL);
	struct sq_binom_node *got = sq_binom_pop(&bq);

	if (!any) {
		SQ_ASSERTF(got == NULL, "seed %llu step %lu: pop of empty\n",
			   (unsigned long long)seed, step);
		return;
	}
	SQ_ASSERTF(got == &bnode[f],
		   "seed %llu step %lu: popped %d, model %d\n",
		   (unsigned long long)seed, step, idx(got), (int)f);
}

static void mix_requeue(unsigned i, uint64_t key, uint64_t seed,
			unsigned long step)
{
	bool want = sqm_requeue(&model, i, key);
	bool got = sq_binom_requeue(&bq, &bnode[i], key);

	SQ_ASSERTF(got == want, "seed %llu step %lu: requeue returned %d\n",
		   (unsigned long long)seed, step, (int)got);
}

/* One random operation; @fill biases toward enqueue (0..100). */
static void mix_step(uint64_t *s, uint64_t seed, unsigned long step,
		     unsigned keys, unsigned fill)
{
	unsigned op = rng_below(s, 100);
	int i;

	if (op < fill) {
		i = sqm_find(&model, nnodes, rng_below(s, nnodes), false);
		if (i >= 0) {
			mix_enqueue((unsigned)i, rng_key(s, keys), seed, step);
			return;
		}
		op = fill + rng_below(s, 100 - fill);
	}
	if (op < fill + (100 - fill) / 3) {
		mix_pop(seed, step);
		return;
	}
	i = sqm_find(&model, nnodes, rng_below(s, nnodes), true);
	if (i < 0) {
		mix_pop(seed, step);	/* empty: pop must say NULL */
		return;
	}
	if (op < fill + 2 * (100 - fill) / 3) {
		sq_binom_dequeue(&bq, &bnode[i]);
		sqm_dequeue(&model, (unsigned)i);
	} else {
		mix_requeue((unsigned)i, rng_key(s, keys), seed, step);
	}
}

/* Pop everything and compare with the model, checking as it shrinks. */
static void mix_drain(uint64_t seed, bool full)
{
	unsigned long step = 0;

	while (sqm_count(&model)) {
		mix_pop(seed, step);
		mix_agree(seed, step, full);
		step++;
	}
	mix_pop(seed, step);
	SQ_ASSERT(sq_binom_check(&bq) == 0);
}

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

SQ_TEST(binom_random_small)
{
	static const unsigned sizes[] = { 1, 2, 3, 5, 8, 17, 33, 48 };
	unsigned si, keys, round;
	unsigned long step;

	for (round = 0; round < 4; round++)
	for (si = 0; si < SQ_NELEM(sizes); si++)
	for (keys = 0; keys < RNG_KEYS_CLASSES; keys++) {
		uint64_t seed = 0x5eed0000u + round * 1000u + si * 10u + keys;
		uint64_t s = seed;
		unsigned fill = 30 + rng_below(&s, 50);

		mix_init(sizes[si]);
		for (step = 0; step < 3000; step++) {
			mix_step(&s, seed, step, keys, fill);
			mix_agree(seed, step, true);
		}
		mix_drain(seed, true);
	}
}

SQ_TEST(binom_random_large)
{
	unsigned keys;
	unsigned long step;

	for (keys = 0; keys < RNG_KEYS_CLASSES; keys++) {
		uint64_t seed = 0xb16b00b5u + keys, s = seed;

		mix_init(NMAX);
		/* grow, churn, shrink */
		for (step = 0; step < 60000; step++) {
			unsigned fill = step < 20000 ? 70
				      : step < 40000 ? 50 : 25;

			mix_step(&s, seed, step, keys, fill);
			mix_agree(seed, step, (step & 4095) == 0);
		}
		SQ_ASSERT(sq_binom_check(&bq) == 0);
		mix_drain(seed, false);
	}
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

/* pop everything from @q, expecting the nodes of @n in the order @want */
static void expect_pops(struct sq_binom *q, struct sq_binom_node *n,
			const unsigned *want, unsigned count)
{
	struct sq_binom_node *got;
	unsigned i;

	for (i = 0; i < count; i++) {
		got = sq_binom_pop(q);
		SQ_ASSERTF(got == &n[want[i]], "pop %u: node %d, want %u\n", i,
			   got ? (int)(got - n) : -1, want[i]);
		SQ_ASSERT(sq_binom_check(q) == 0);
	}
	SQ_ASSERT(sq_binom_pop(q) == NULL);
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
	expect_pops(&q, n, order, 6);

	/* a requeue that finds the counter at the end, in place or moved */
	for (i = 0; i < 6; i++)
		sq_binom_enqueue(&q, &n[i], key[i]);
	q.bh_seq = SQ_BINOM__SEQ_END;
	SQ_ASSERT(sq_binom_check(&q) == 0);
	sq_binom_requeue(&q, &n[0], 5);	/* last of the 5s now */
	SQ_ASSERT(sq_binom_check(&q) == 0);
	SQ_ASSERT(q.bh_seq == 7);
	expect_pops(&q, n, requeued, 6);

	/* an empty queue at the end starts again at 0 */
	q.bh_seq = SQ_BINOM__SEQ_END;
	sq_binom_enqueue(&q, &n[0], 9);
	SQ_ASSERT(q.bh_seq == 1 && sq_binom__stamp(&n[0]) == 0);
	SQ_ASSERT(sq_binom_pop(&q) == &n[0]);
}

/* The random mix against the model, the counter pushed to a few stamps
 * before its end again and again: the order stays the model's. */
SQ_TEST(binom_stamp_counter_end_random)
{
	unsigned keys, renumbered = 0;
	unsigned long step;

	stamps_moved = true;
	for (keys = 0; keys < RNG_KEYS_CLASSES; keys++) {
		uint64_t seed = 0x5ea1e00du + keys, s = seed, before;

		mix_init(64);
		for (step = 0; step < 20000; step++) {
			if (step % 97 == 0)
				bq.bh_seq = SQ_BINOM__SEQ_END -
					    rng_below(&s, 8);
			before = bq.bh_seq;
			mix_step(&s, seed, step, keys, 55);
			renumbered += bq.bh_seq < before;
			mix_agree(seed, step, true);
		}
		mix_drain(seed, true);
	}
	stamps_moved = false;
	SQ_ASSERTF(renumbered > 500, "only %u renumberings\n", renumbered);
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

static void expect_abort(void (*fn)(void), const char *want)
{
	struct rlimit no_core = { 0, 0 };
	char err[512];
	size_t len = 0;
	ssize_t got;
	int fd[2], status = 0;
	pid_t pid;

	SQ_ASSERT(pipe(fd) == 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	SQ_ASSERT(pid >= 0);
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &no_core);
		close(fd[0]);
		dup2(fd[1], 2);
		fn();
		_exit(0);
	}
	close(fd[1]);
	while (len < sizeof(err) - 1 &&
	       (got = read(fd[0], err + len, sizeof(err) - 1 - len)) > 0)
		len += (size_t)got;
	err[len] = '\0';
	close(fd[0]);
	SQ_ASSERT(waitpid(pid, &status, 0) == pid);
	/* a prefix: qemu-user adds a line of its own as the guest dies */
	SQ_ASSERTF(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT &&
		   strncmp(err, want, strlen(want)) == 0,
		   "want an abort saying \"%s\", got status %d, stderr \"%s\"\n",
		   want, status, err);
}

SQ_TEST(binom_other_queue_caught)
{
	expect_abort(dequeue_root_other,
		     "sq_binom_dequeue: node is on another queue\n");
	expect_abort(dequeue_deep_other,
		     "sq_binom_dequeue: node is on another queue\n");
	expect_abort(requeue_other,
		     "sq_binom_requeue: node is on another queue\n");
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
	SQ_T(binom_stamp_counter_end_random),
#ifdef SQ_DEBUG
	SQ_T(binom_other_queue_caught),
#endif
};

SQ_TEST_MAIN("wb_binom", tests)
