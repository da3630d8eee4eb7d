/* SPDX-License-Identifier: MIT */
/*
 * wb_binom.c - white-box tests of the binomial heap backend
 * (smartq/binomial.h)
 *
 * A random mix of enqueue / pop / dequeue (any node) / requeue on a few
 * dozen nodes, compared after every step with a plain array reference of
 * (key, seq) and with sq_binom_check(); the same on a few thousand nodes
 * with check() now and then; the shape of the heap (one tree per set bit
 * of the count); equal keys in FIFO order; the edge keys 0 and UINT64_MAX;
 * dequeue of every node of a single B_k, the deepest included; requeue in
 * place; and check() catching heaps broken on purpose.  Under SQ_DEBUG on
 * a POSIX system, misuse is run in a child process and its message read.
 * A failure prints the seed.
 */
#if defined(SQ_DEBUG) && (defined(__unix__) || defined(__APPLE__))
/* the feature-test macro for fork/pipe/waitpid, not a misused name */
/* NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c) */
#define _POSIX_C_SOURCE 200809L
#define WB_MISUSE 1
#include <sys/types.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>
#endif

#include "smartq/binomial.h"
#include "sq_test.h"

#include <string.h>

/* splitmix64: small, good enough, reproducible from one seed */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned rng_below(uint64_t *s, unsigned n)
{
	return (unsigned)(rng_next(s) % n);
}

/* A key from one of a few distributions: many ties, full range, edges. */
static uint64_t rng_key(uint64_t *s, unsigned mode)
{
	switch (mode) {
	case 0:
		return rng_below(s, 8);
	case 1:
		return rng_next(s);
	case 2:
		switch (rng_below(s, 4)) {
		case 0:
			return 0;
		case 1:
			return UINT64_MAX;
		case 2:
			return UINT64_MAX - rng_below(s, 3);
		default:
			return rng_below(s, 3);
		}
	default:
		return rng_below(s, 1000);
	}
}

/* ---- the reference model ----------------------------------------------- */

#define REF_MAX 4096

/*
 * Nodes 0..n-1 with the key and the stamp each was last (re)queued with.
 * The stamp counts enqueues and requeues exactly as the queue's bh_seq
 * does, so it must equal the node's bh_seq: white-box, and the order is
 * then the same (key, stamp) order by construction.
 */
struct ref {
	struct sq_binom q;
	struct sq_binom_node node[REF_MAX];
	uint64_t key[REF_MAX];
	uint64_t stamp[REF_MAX];
	bool queued[REF_MAX];
	uint64_t clock;
	size_t count;
	unsigned n;
};

static struct ref R;	/* ~250 KiB: static, not on the stack */

static void ref_init(struct ref *r, unsigned n)
{
	unsigned i;

	memset(r, 0, sizeof(*r));
	sq_binom_init(&r->q);
	r->n = n;
	for (i = 0; i < n; i++)
		sq_binom_node_init(&r->node[i]);
}

static bool ref_before(const struct ref *r, unsigned a, unsigned b)
{
	if (r->key[a] != r->key[b])
		return r->key[a] < r->key[b];
	return r->stamp[a] < r->stamp[b];
}

/* index of the first queued node, or -1 */
static int ref_first(const struct ref *r)
{
	int best = -1;
	unsigned i;

	for (i = 0; i < r->n; i++)
		if (r->queued[i] &&
		    (best < 0 || ref_before(r, i, (unsigned)best)))
			best = (int)i;
	return best;
}

static unsigned idx(const struct ref *r, const struct sq_binom_node *n)
{
	return (unsigned)(n - r->node);
}

/* The queue agrees with the model: count, first, and every node's state. */
static void ref_agree(const struct ref *r, uint64_t seed, unsigned long step,
		      bool full)
{
	int f = ref_first(r);
	const struct sq_binom_node *first = sq_binom_first(&r->q);
	unsigned i;

	SQ_ASSERTF(sq_binom_count(&r->q) == r->count,
		   "seed %llu step %lu: count %zu, model %zu\n",
		   (unsigned long long)seed, step, sq_binom_count(&r->q),
		   r->count);
	SQ_ASSERTF(sq_binom_empty(&r->q) == (r->count == 0),
		   "seed %llu step %lu: empty\n", (unsigned long long)seed,
		   step);
	SQ_ASSERTF(f < 0 ? first == NULL : first == &r->node[f],
		   "seed %llu step %lu: first is %d, model %d\n",
		   (unsigned long long)seed, step,
		   first ? (int)idx(r, first) : -1, f);
	SQ_ASSERTF(r->q.bh_seq == r->clock, "seed %llu step %lu: counter\n",
		   (unsigned long long)seed, step);
	if (!full)
		return;
	SQ_ASSERTF(sq_binom_check(&r->q) == 0,
		   "seed %llu step %lu: check() failed\n",
		   (unsigned long long)seed, step);
	for (i = 0; i < r->n; i++) {
		SQ_ASSERTF(sq_binom_queued(&r->node[i]) == r->queued[i],
			   "seed %llu step %lu: node %u queued state\n",
			   (unsigned long long)seed, step, i);
		if (r->queued[i])
			SQ_ASSERTF(r->node[i].key == r->key[i] &&
				   r->node[i].bh_seq == r->stamp[i],
				   "seed %llu step %lu: node %u key/seq\n",
				   (unsigned long long)seed, step, i);
	}
}

/* Pick a random node in the wanted state; -1 if none. */
static int ref_pick(const struct ref *r, uint64_t *s, bool queued)
{
	unsigned start = rng_below(s, r->n), i, j;

	for (i = 0; i < r->n; i++) {
		j = (start + i) % r->n;
		if (r->queued[j] == queued)
			return (int)j;
	}
	return -1;
}

static void ref_enqueue(struct ref *r, unsigned i, uint64_t key,
			uint64_t seed, unsigned long step)
{
	bool got, want;
	int f;

	r->key[i] = key;
	r->stamp[i] = r->clock++;
	r->queued[i] = true;
	r->count++;
	f = ref_first(r);
	want = f == (int)i;
	got = sq_binom_enqueue(&r->q, &r->node[i], key);
	SQ_ASSERTF(got == want, "seed %llu step %lu: enqueue returned %d\n",
		   (unsigned long long)seed, step, (int)got);
}

static void ref_pop(struct ref *r, uint64_t seed, unsigned long step)
{
	int f = ref_first(r);
	struct sq_binom_node *got = sq_binom_pop(&r->q);

	if (f < 0) {
		SQ_ASSERTF(got == NULL, "seed %llu step %lu: pop of empty\n",
			   (unsigned long long)seed, step);
		return;
	}
	SQ_ASSERTF(got == &r->node[f],
		   "seed %llu step %lu: popped %d, model %d\n",
		   (unsigned long long)seed, step,
		   got ? (int)idx(r, got) : -1, f);
	r->queued[f] = false;
	r->count--;
}

static void ref_dequeue(struct ref *r, unsigned i)
{
	sq_binom_dequeue(&r->q, &r->node[i]);
	r->queued[i] = false;
	r->count--;
}

static void ref_requeue(struct ref *r, unsigned i, uint64_t key,
			uint64_t seed, unsigned long step)
{
	int f0 = ref_first(r), f1;
	uint64_t k0 = r->key[f0];
	bool got, want;

	r->key[i] = key;
	r->stamp[i] = r->clock++;
	f1 = ref_first(r);
	want = f1 != f0 || r->key[f1] != k0;
	got = sq_binom_requeue(&r->q, &r->node[i], key);
	SQ_ASSERTF(got == want, "seed %llu step %lu: requeue returned %d\n",
		   (unsigned long long)seed, step, (int)got);
}

/* One random operation; @fill biases toward enqueue (0..100). */
static void ref_step(struct ref *r, uint64_t *s, uint64_t seed,
		     unsigned long step, unsigned mode, unsigned fill)
{
	unsigned op = rng_below(s, 100);
	int i;

	if (op < fill) {
		i = ref_pick(r, s, false);
		if (i >= 0) {
			ref_enqueue(r, (unsigned)i, rng_key(s, mode), seed,
				    step);
			return;
		}
		op = fill + rng_below(s, 100 - fill);
	}
	if (op < fill + (100 - fill) / 3) {
		ref_pop(r, seed, step);
		return;
	}
	i = ref_pick(r, s, true);
	if (i < 0) {
		ref_pop(r, seed, step);	/* empty: pop must say NULL */
		return;
	}
	if (op < fill + 2 * (100 - fill) / 3)
		ref_dequeue(r, (unsigned)i);
	else
		ref_requeue(r, (unsigned)i, rng_key(s, mode), seed, step);
}

/* Pop everything and compare with the model, checking as it shrinks. */
static void ref_drain(struct ref *r, uint64_t seed, bool full)
{
	unsigned long step = 0;

	while (r->count) {
		ref_pop(r, seed, step);
		ref_agree(r, seed, step, full);
		step++;
	}
	ref_pop(r, seed, step);
	SQ_ASSERT(sq_binom_check(&r->q) == 0);
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
				SQ_ASSERT_EQ(q.bh_roots[d]->bh_degree, d);
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
	unsigned si, mode, round;
	unsigned long step;

	for (round = 0; round < 4; round++)
	for (si = 0; si < SQ_NELEM(sizes); si++)
	for (mode = 0; mode < 4; mode++) {
		uint64_t seed = 0x5eed0000u + round * 1000u + si * 10u + mode;
		uint64_t s = seed;
		unsigned fill = 30 + rng_below(&s, 50);

		ref_init(&R, sizes[si]);
		for (step = 0; step < 3000; step++) {
			ref_step(&R, &s, seed, step, mode, fill);
			ref_agree(&R, seed, step, true);
		}
		ref_drain(&R, seed, true);
	}
}

SQ_TEST(binom_random_large)
{
	unsigned mode;
	unsigned long step;

	for (mode = 0; mode < 4; mode++) {
		uint64_t seed = 0xb16b00b5u + mode, s = seed;

		ref_init(&R, 2000);
		/* grow, churn, shrink */
		for (step = 0; step < 60000; step++) {
			unsigned fill = step < 20000 ? 70
				      : step < 40000 ? 50 : 25;

			ref_step(&R, &s, seed, step, mode, fill);
			ref_agree(&R, seed, step, (step & 4095) == 0);
		}
		SQ_ASSERT(sq_binom_check(&R.q) == 0);
		ref_drain(&R, seed, false);
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
	SQ_ASSERT_EQ(mid->bh_degree, 3);
	SQ_ASSERT_EQ(depth_of(leaf), 4);

	/* a leaf going later stays put */
	p = leaf->bh_parent;
	SQ_ASSERT(!sq_binom_requeue(&q, leaf, 1000));
	SQ_ASSERT(leaf->bh_parent == p && leaf->bh_degree == 0);
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
	SQ_ASSERT(root->bh_child != mid || mid->bh_degree != 3);
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

	deg = root->bh_degree;			/* a root's degree */
	root->bh_degree = 3;
	SQ_ASSERT(sq_binom_check(&q) == -1);
	root->bh_degree = deg;

	deg = c->bh_degree;			/* an inner node's degree */
	c->bh_degree = deg + 1;
	SQ_ASSERT(sq_binom_check(&q) == -1);
	c->bh_degree = deg;
	SQ_ASSERT(sq_binom_check(&q) == 0);

	p = leaf->bh_parent;		/* heap order: swap with the parent */
	pk = p->key;
	ps = p->bh_seq;
	lk = leaf->key;
	ls = leaf->bh_seq;
	leaf->key = pk;
	leaf->bh_seq = ps;
	p->key = lk;
	p->bh_seq = ls;
	SQ_ASSERT(sq_binom_check(&q) == -1);
	p->key = pk;				/* equal pairs: not strict */
	p->bh_seq = ps;
	SQ_ASSERT(sq_binom_check(&q) == -1);
	SQ_ASSERT(ps > 0);			/* equal keys, seq reversed */
	leaf->bh_seq = ps - 1;
	SQ_ASSERT(sq_binom_check(&q) == -1);
	leaf->key = lk;
	leaf->bh_seq = ls;
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

#ifdef WB_MISUSE
/* Run @fn in a child; it must die by abort with exactly @msg on stderr. */
static void expect_death(void (*fn)(void), const char *msg)
{
	int fd[2], status = 0;
	char buf[256];
	ssize_t got;
	size_t len = 0;
	pid_t pid;

	SQ_ASSERT(pipe(fd) == 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	SQ_ASSERT(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], 2);
		fn();
		_exit(0);
	}
	close(fd[1]);
	while (len < sizeof(buf) - 1 &&
	       (got = read(fd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)got;
	buf[len] = '\0';
	close(fd[0]);
	SQ_ASSERT(waitpid(pid, &status, 0) == pid);
	SQ_ASSERTF(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		   "child did not abort: status %d\n", status);
	SQ_ASSERTF(strncmp(buf, msg, strlen(msg)) == 0 &&
		   buf[strlen(msg)] == '\n',
		   "message was \"%s\", want \"%s\"\n", buf, msg);
}

static struct sq_binom mq;
static struct sq_binom_node mn[2];

static void misuse_enqueue_twice(void)
{
	sq_binom_init(&mq);
	sq_binom_node_init(&mn[0]);
	sq_binom_enqueue(&mq, &mn[0], 1);
	sq_binom_enqueue(&mq, &mn[0], 2);
}

static void misuse_dequeue_unqueued(void)
{
	sq_binom_init(&mq);
	sq_binom_node_init(&mn[0]);
	sq_binom_node_init(&mn[1]);
	sq_binom_enqueue(&mq, &mn[1], 1);
	sq_binom_dequeue(&mq, &mn[0]);
}

static void misuse_dequeue_twice(void)
{
	sq_binom_init(&mq);
	sq_binom_node_init(&mn[0]);
	sq_binom_enqueue(&mq, &mn[0], 1);
	sq_binom_dequeue(&mq, &mn[0]);
	sq_binom_dequeue(&mq, &mn[0]);
}

static void misuse_requeue_popped(void)
{
	sq_binom_init(&mq);
	sq_binom_node_init(&mn[0]);
	sq_binom_node_init(&mn[1]);
	sq_binom_enqueue(&mq, &mn[0], 1);
	sq_binom_enqueue(&mq, &mn[1], 2);
	(void)sq_binom_pop(&mq);
	sq_binom_requeue(&mq, &mn[0], 3);
}

SQ_TEST(binom_misuse)
{
	expect_death(misuse_enqueue_twice,
		     "sq_binom_enqueue: node is already queued");
	expect_death(misuse_dequeue_unqueued,
		     "sq_binom_dequeue: node is not queued");
	expect_death(misuse_dequeue_twice,
		     "sq_binom_dequeue: node is not queued");
	expect_death(misuse_requeue_popped,
		     "sq_binom_requeue: node is not queued");
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
#ifdef WB_MISUSE
	SQ_T(binom_misuse),
#endif
};

SQ_TEST_MAIN("wb_binom", tests)
