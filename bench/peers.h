/* SPDX-License-Identifier: MIT */
/*
 * bench/peers.h - the queues smartq is measured against
 *
 * Each peer wears the smartq contract's names, sq_peer_NAME_init(),
 * _enqueue(), _pop() and so on, so that the harness drives it through the
 * very same macro API (SQ_POP(peer_heap, q) pastes to sq_peer_heap_pop(q))
 * and the same timing loop as every backend.  They live here, in the
 * benchmark, and never in include/: some of them allocate.
 *
 *   peer_tsearch  glibc/POSIX tsearch(3)/tdelete(3): a red-black tree that
 *                 mallocs a node per insert and frees it per delete; what a
 *                 libc-only user would reach for.  tsearch is a set, so the
 *                 comparator breaks key ties by an insertion sequence number
 *                 (a fair, stable multiset).  It has no "minimum" call: the
 *                 first node is cached, and found again after it leaves by
 *                 one leftward descent through tfind() whose comparator
 *                 always answers "smaller" and remembers the last node it
 *                 was shown -- the leftmost.
 *   peer_bsd_rb   BSD <sys/tree.h> RB_* macros (libbsd's <bsd/sys/tree.h>),
 *                 intrusive, with a cached minimum kept by RB_NEXT; ties by
 *                 sequence number as above.  Only when BQ_HAVE_BSD_TREE.
 *   peer_linux_rb the Linux kernel's red-black tree with the leftmost
 *                 cached, as CFS uses it: struct rb_root_cached,
 *                 rb_add_cached() (its descent inlined here, rebalancing in
 *                 rb_insert_color() out of line), rb_erase_cached() (which
 *                 finds the new leftmost with rb_next(), then calls
 *                 rb_erase()).  Equal keys go right, so it is stable
 *                 without a sequence number.  Only when BQ_HAVE_LINUX_RB:
 *                 the build was pointed at a kernel source tree
 *                 (make bench LINUX_SRC=...), whose tools/include/linux/
 *                 rbtree.h this includes and whose tools/lib/rbtree.c is
 *                 compiled and linked in.  None of that code is in this
 *                 repository.
 *   peer_tr_seed  the time ring as the 2007 LKML mail describes it: FIFO
 *                 slots, a key T goes to slot
 *                 S = Ib + min((T - Tb) / Tg, Ns - 1), and the first slot is
 *                 found by scanning the occupancy bitmap from Ib.  Exact only
 *                 to Tg; keys past the horizon pile into the last slot and
 *                 keys below Tb wrap (the seed's flaws, kept on purpose: the
 *                 workloads never produce such keys).  The mail gives the
 *                 formula, not the numbers: Ns = 1024 and Tg = 2048 are
 *                 ours, so that Ns * Tg = 2^21 spans twice the hold loop's
 *                 largest increment (2^20) and no key passes the horizon.
 *   peer_heap     a plain array binary heap with index back-pointers (for
 *                 arbitrary delete), ordered by (key, sequence number); its
 *                 array grows by realloc, so allocation is amortised away.
 *   peer_cal      Brown's calendar queue (CACM 31(10), 1988), written from
 *                 the paper: a "year" of Nb buckets ("days") of width w, each
 *                 a sorted list; the search for the first resumes at the
 *                 last day found and falls back to a direct search after an
 *                 empty year; Nb doubles above 2 Nb events and halves below
 *                 Nb/2 - 2, and each resize sets w to 3x the mean gap of the
 *                 first few events (up to 25) ignoring gaps over twice the
 *                 mean.  Allocates its bucket array.
 *
 * Every peer also has a _check() that walks it, so the harness's
 * correctness pass holds the peers to the same standard as the backends.
 */
#ifndef SQ_BENCH_PEERS_H
#define SQ_BENCH_PEERS_H

#include <search.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

/*
 * The contract's requeue and pop_due, the same for every peer, from its
 * first/queued/dequeue/enqueue/pop: requeue arms an idle node or moves a
 * queued one (as new among equal keys) and answers "the first node or
 * its key changed" (so a first node that stays first with its key is no
 * change); pop_due pops the first if it is due by @now.
 */
#define BQ_PEER_REQUEUE_POP_DUE(P)					\
static inline bool sq_peer_##P##_requeue(struct sq_peer_##P *q,	\
					 struct sq_peer_##P##_node *n,	\
					 uint64_t key)			\
{									\
	bool was_first = false, first;					\
	uint64_t old = n->key;						\
									\
	if (sq_peer_##P##_queued(n))					\
		was_first = sq_peer_##P##_dequeue(q, n);		\
	first = sq_peer_##P##_enqueue(q, n, key);			\
	return first ? !was_first || old != key : was_first;		\
}									\
									\
static inline struct sq_peer_##P##_node *				\
sq_peer_##P##_pop_due(struct sq_peer_##P *q, uint64_t now)		\
{									\
	struct sq_peer_##P##_node *n = sq_peer_##P##_first(q);		\
									\
	return n && n->key <= now ? sq_peer_##P##_pop(q) : NULL;	\
}

/* ---------------------------------------------------------------------
 * peer_tsearch: libc tsearch/tdelete, a node malloc'ed per insert
 */
struct sq_peer_tsearch_node {
	uint64_t key;
	uint64_t ts_seq;	/* tie-break: a multiset, stable */
	bool ts_queued;
};

struct sq_peer_tsearch {
	void *ts_root;
	struct sq_peer_tsearch_node *ts_first;
	size_t ts_count;
	uint64_t ts_seq;
};

static int bq_ts_cmp(const void *a, const void *b)
{
	const struct sq_peer_tsearch_node *x =
		(const struct sq_peer_tsearch_node *)a;
	const struct sq_peer_tsearch_node *y =
		(const struct sq_peer_tsearch_node *)b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->ts_seq != y->ts_seq)
		return x->ts_seq < y->ts_seq ? -1 : 1;
	return 0;
}

/* The leftward probe: every node compares greater than the probe. */
static const struct sq_peer_tsearch_node *bq_ts_seen;
static const char bq_ts_probe;

static int bq_ts_leftmost_cmp(const void *a, const void *b)
{
	if (a == (const void *)&bq_ts_probe) {
		bq_ts_seen = (const struct sq_peer_tsearch_node *)b;
		return -1;
	}
	bq_ts_seen = (const struct sq_peer_tsearch_node *)a;
	return 1;
}

static struct sq_peer_tsearch_node *
bq_ts_leftmost(const struct sq_peer_tsearch *q)
{
	bq_ts_seen = NULL;
	if (q->ts_root)
		(void)tfind(&bq_ts_probe, &q->ts_root, bq_ts_leftmost_cmp);
	return (struct sq_peer_tsearch_node *)(uintptr_t)bq_ts_seen;
}

static inline void sq_peer_tsearch_init(struct sq_peer_tsearch *q)
{
	q->ts_root = NULL;
	q->ts_first = NULL;
	q->ts_count = 0;
	q->ts_seq = 0;
}

static inline void sq_peer_tsearch_node_init(struct sq_peer_tsearch_node *n)
{
	n->ts_queued = false;
}

static inline bool sq_peer_tsearch_enqueue(struct sq_peer_tsearch *q,
					   struct sq_peer_tsearch_node *n,
					   uint64_t key)
{
	n->key = key;
	n->ts_seq = q->ts_seq++;
	if (!tsearch(n, &q->ts_root, bq_ts_cmp)) {
		fprintf(stderr, "bench: tsearch: out of memory\n");
		exit(2);
	}
	n->ts_queued = true;
	q->ts_count++;
	if (!q->ts_first || bq_ts_cmp(n, q->ts_first) < 0) {
		q->ts_first = n;
		return true;
	}
	return false;
}

static inline struct sq_peer_tsearch_node *
sq_peer_tsearch_first(const struct sq_peer_tsearch *q)
{
	return q->ts_first;
}

static inline bool sq_peer_tsearch_dequeue(struct sq_peer_tsearch *q,
					   struct sq_peer_tsearch_node *n)
{
	bool first = n == q->ts_first;

	(void)tdelete(n, &q->ts_root, bq_ts_cmp);
	n->ts_queued = false;
	q->ts_count--;
	if (first)
		q->ts_first = bq_ts_leftmost(q);
	return first;
}

static inline struct sq_peer_tsearch_node *
sq_peer_tsearch_pop(struct sq_peer_tsearch *q)
{
	struct sq_peer_tsearch_node *n = q->ts_first;

	if (n)
		sq_peer_tsearch_dequeue(q, n);
	return n;
}

static inline bool sq_peer_tsearch_empty(const struct sq_peer_tsearch *q)
{
	return q->ts_count == 0;
}

static inline size_t sq_peer_tsearch_count(const struct sq_peer_tsearch *q)
{
	return q->ts_count;
}

static inline bool
sq_peer_tsearch_queued(const struct sq_peer_tsearch_node *n)
{
	return n->ts_queued;
}

/* twalk() has no context argument: the walk reports through these. */
static size_t bq_ts_walk_count;
static const struct sq_peer_tsearch_node *bq_ts_walk_prev;
static int bq_ts_walk_bad;

static void bq_ts_walk(const void *nodep, VISIT which, int depth)
{
	const struct sq_peer_tsearch_node *n =
		*(const struct sq_peer_tsearch_node *const *)nodep;

	(void)depth;
	if (which != postorder && which != leaf)
		return;		/* in order: each node once, at postorder */
	if (bq_ts_walk_prev && bq_ts_cmp(bq_ts_walk_prev, n) >= 0)
		bq_ts_walk_bad = 1;
	if (!n->ts_queued)
		bq_ts_walk_bad = 1;
	bq_ts_walk_prev = n;
	bq_ts_walk_count++;
}

static inline int sq_peer_tsearch_check(const struct sq_peer_tsearch *q)
{
	bq_ts_walk_count = 0;
	bq_ts_walk_prev = NULL;
	bq_ts_walk_bad = 0;
	if (q->ts_root)
		twalk(q->ts_root, bq_ts_walk);
	if (bq_ts_walk_bad || bq_ts_walk_count != q->ts_count)
		return -1;
	if (q->ts_first != bq_ts_leftmost(q))
		return -1;
	return 0;
}

BQ_PEER_REQUEUE_POP_DUE(tsearch)

/* Frees the tree's own nodes (the queue's nodes belong to the caller). */
static inline void sq_peer_tsearch_destroy(struct sq_peer_tsearch *q)
{
	while (q->ts_first)
		(void)sq_peer_tsearch_pop(q);
}

/* ---------------------------------------------------------------------
 * peer_bsd_rb: BSD <sys/tree.h> red-black tree, cached minimum
 */
#ifdef BQ_HAVE_BSD_TREE
#include <bsd/sys/tree.h>

struct sq_peer_bsd_rb_node {
	RB_ENTRY(sq_peer_bsd_rb_node) br_link;
	uint64_t key;
	uint64_t br_seq;
	bool br_queued;
};

RB_HEAD(bq_bsd_tree, sq_peer_bsd_rb_node);

struct sq_peer_bsd_rb {
	struct bq_bsd_tree br_root;
	struct sq_peer_bsd_rb_node *br_min;
	size_t br_count;
	uint64_t br_seq;
};

static int bq_bsd_cmp(struct sq_peer_bsd_rb_node *x,
		      struct sq_peer_bsd_rb_node *y)
{
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->br_seq != y->br_seq)
		return x->br_seq < y->br_seq ? -1 : 1;
	return 0;
}

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wcast-align"
#endif
/* RB_GENERATE_STATIC needs a __unused that libbsd leaves undefined. */
RB_PROTOTYPE(bq_bsd_tree, sq_peer_bsd_rb_node, br_link, bq_bsd_cmp)
RB_GENERATE(bq_bsd_tree, sq_peer_bsd_rb_node, br_link, bq_bsd_cmp)
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static inline void sq_peer_bsd_rb_init(struct sq_peer_bsd_rb *q)
{
	RB_INIT(&q->br_root);
	q->br_min = NULL;
	q->br_count = 0;
	q->br_seq = 0;
}

static inline void sq_peer_bsd_rb_node_init(struct sq_peer_bsd_rb_node *n)
{
	n->br_queued = false;
}

static inline bool sq_peer_bsd_rb_enqueue(struct sq_peer_bsd_rb *q,
					  struct sq_peer_bsd_rb_node *n,
					  uint64_t key)
{
	n->key = key;
	n->br_seq = q->br_seq++;
	RB_INSERT(bq_bsd_tree, &q->br_root, n);
	n->br_queued = true;
	q->br_count++;
	if (!q->br_min || bq_bsd_cmp(n, q->br_min) < 0) {
		q->br_min = n;
		return true;
	}
	return false;
}

static inline struct sq_peer_bsd_rb_node *
sq_peer_bsd_rb_first(const struct sq_peer_bsd_rb *q)
{
	return q->br_min;
}

static inline bool sq_peer_bsd_rb_dequeue(struct sq_peer_bsd_rb *q,
					  struct sq_peer_bsd_rb_node *n)
{
	bool first = n == q->br_min;

	if (first)
		q->br_min = RB_NEXT(bq_bsd_tree, &q->br_root, n);
	RB_REMOVE(bq_bsd_tree, &q->br_root, n);
	n->br_queued = false;
	q->br_count--;
	return first;
}

static inline struct sq_peer_bsd_rb_node *
sq_peer_bsd_rb_pop(struct sq_peer_bsd_rb *q)
{
	struct sq_peer_bsd_rb_node *n = q->br_min;

	if (n)
		sq_peer_bsd_rb_dequeue(q, n);
	return n;
}

static inline bool sq_peer_bsd_rb_empty(const struct sq_peer_bsd_rb *q)
{
	return q->br_count == 0;
}

static inline size_t sq_peer_bsd_rb_count(const struct sq_peer_bsd_rb *q)
{
	return q->br_count;
}

static inline bool
sq_peer_bsd_rb_queued(const struct sq_peer_bsd_rb_node *n)
{
	return n->br_queued;
}

static inline int sq_peer_bsd_rb_check(const struct sq_peer_bsd_rb *q)
{
	struct bq_bsd_tree *root = (struct bq_bsd_tree *)(uintptr_t)&q->br_root;
	struct sq_peer_bsd_rb_node *n, *prev = NULL;
	size_t count = 0;

	RB_FOREACH(n, bq_bsd_tree, root) {
		if (prev && bq_bsd_cmp(prev, n) >= 0)
			return -1;
		if (!n->br_queued)
			return -1;
		prev = n;
		count++;
	}
	if (count != q->br_count || q->br_min != RB_MIN(bq_bsd_tree, root))
		return -1;
	return 0;
}

BQ_PEER_REQUEUE_POP_DUE(bsd_rb)

static inline void sq_peer_bsd_rb_destroy(struct sq_peer_bsd_rb *q)
{
	(void)q;	/* intrusive: nothing of its own to free */
}
#endif /* BQ_HAVE_BSD_TREE */

/* ---------------------------------------------------------------------
 * peer_linux_rb: the kernel's leftmost-cached rbtree (LINUX_SRC builds)
 */
#ifdef BQ_HAVE_LINUX_RB
#include <linux/rbtree.h>	/* $(LINUX_SRC)/tools/include, -isystem */

/* The shape of a CFS entity's link: the kernel's 24-byte rb_node, then
 * the key (32 bytes, as struct sq_rb_node). */
struct sq_peer_linux_rb_node {
	struct rb_node lr_link;
	uint64_t key;
};

struct sq_peer_linux_rb {
	struct rb_root_cached lr_root;
	size_t lr_count;
};

/* container_of without the kernel's typeof (this file is ISO C11). */
static inline struct sq_peer_linux_rb_node *
bq_lr_entry(const struct rb_node *l)
{
	return l ? (struct sq_peer_linux_rb_node *)(uintptr_t)((const char *)l -
			offsetof(struct sq_peer_linux_rb_node, lr_link)) : NULL;
}

/* rb_add_cached()'s order: strictly less goes left, so equal keys go
 * right (after their equals), the stable order of smartq's exact backends. */
static inline bool bq_lr_less(struct rb_node *a, const struct rb_node *b)
{
	return bq_lr_entry(a)->key < bq_lr_entry(b)->key;
}

static inline void sq_peer_linux_rb_init(struct sq_peer_linux_rb *q)
{
	q->lr_root.rb_root.rb_node = NULL;
	q->lr_root.rb_leftmost = NULL;
	q->lr_count = 0;
}

static inline void
sq_peer_linux_rb_node_init(struct sq_peer_linux_rb_node *n)
{
	RB_CLEAR_NODE(&n->lr_link);
}

static inline bool sq_peer_linux_rb_enqueue(struct sq_peer_linux_rb *q,
					    struct sq_peer_linux_rb_node *n,
					    uint64_t key)
{
	n->key = key;
	rb_add_cached(&n->lr_link, &q->lr_root, bq_lr_less);
	q->lr_count++;
	/* 6.1's rb_add_cached() returns nothing; the loops that ignore the
	 * answer let the compiler drop this compare */
	return q->lr_root.rb_leftmost == &n->lr_link;
}

static inline struct sq_peer_linux_rb_node *
sq_peer_linux_rb_first(const struct sq_peer_linux_rb *q)
{
	return bq_lr_entry(rb_first_cached(&q->lr_root));
}

/* As the kernel's users do: erase, then mark the node empty so that
 * RB_EMPTY_NODE() answers queued(). */
static inline bool sq_peer_linux_rb_dequeue(struct sq_peer_linux_rb *q,
					    struct sq_peer_linux_rb_node *n)
{
	bool first = q->lr_root.rb_leftmost == &n->lr_link;

	rb_erase_cached(&n->lr_link, &q->lr_root);
	RB_CLEAR_NODE(&n->lr_link);
	q->lr_count--;
	return first;
}

static inline struct sq_peer_linux_rb_node *
sq_peer_linux_rb_pop(struct sq_peer_linux_rb *q)
{
	struct rb_node *l = rb_first_cached(&q->lr_root);

	if (!l)
		return NULL;
	rb_erase_cached(l, &q->lr_root);
	RB_CLEAR_NODE(l);
	q->lr_count--;
	return bq_lr_entry(l);
}

static inline bool sq_peer_linux_rb_empty(const struct sq_peer_linux_rb *q)
{
	return q->lr_count == 0;
}

static inline size_t
sq_peer_linux_rb_count(const struct sq_peer_linux_rb *q)
{
	return q->lr_count;
}

static inline bool
sq_peer_linux_rb_queued(const struct sq_peer_linux_rb_node *n)
{
	return !RB_EMPTY_NODE(&n->lr_link);
}

/* The colour is bit 0 of the parent word, 1 = black (the kernel's
 * RB_BLACK); the parent is the word with its two low bits masked off (as
 * the kernel's rb_parent(), whose int mask -Wsign-conversion refuses). */
static inline bool bq_lr_black(const struct rb_node *l)
{
	return !l || (l->__rb_parent_color & 1u);
}

static inline const struct rb_node *bq_lr_parent(const struct rb_node *l)
{
	return (const struct rb_node *)(l->__rb_parent_color & ~3ul);
}

/*
 * The subtree at @l: parent links, no red node with a red child, keys in
 * order, every node marked queued.  Returns its black height, or -1.
 */
static int bq_lr_check_sub(const struct rb_node *l, const struct rb_node *parent,
			   size_t *count)
{
	int hl, hr;

	if (!l)
		return 0;
	if (bq_lr_parent(l) != parent || RB_EMPTY_NODE(l))
		return -1;
	if (!bq_lr_black(l) &&
	    (!bq_lr_black(l->rb_left) || !bq_lr_black(l->rb_right)))
		return -1;
	if (l->rb_left && bq_lr_entry(l->rb_left)->key > bq_lr_entry(l)->key)
		return -1;
	if (l->rb_right && bq_lr_entry(l->rb_right)->key < bq_lr_entry(l)->key)
		return -1;
	hl = bq_lr_check_sub(l->rb_left, l, count);
	hr = bq_lr_check_sub(l->rb_right, l, count);
	if (hl < 0 || hl != hr)
		return -1;
	++*count;
	return hl + (bq_lr_black(l) ? 1 : 0);
}

/* The red-black rules, a black root, the in-order walk (rb_first(),
 * rb_next()) non-decreasing, the cached leftmost and the count. */
static inline int sq_peer_linux_rb_check(const struct sq_peer_linux_rb *q)
{
	const struct rb_node *root = q->lr_root.rb_root.rb_node, *l;
	uint64_t prev = 0;
	size_t count = 0, walked = 0;

	if (root && !bq_lr_black(root))
		return -1;
	if (bq_lr_check_sub(root, NULL, &count) < 0 || count != q->lr_count)
		return -1;
	if (q->lr_root.rb_leftmost != rb_first(&q->lr_root.rb_root))
		return -1;
	for (l = rb_first(&q->lr_root.rb_root); l; l = rb_next(l)) {
		if (walked++ && bq_lr_entry(l)->key < prev)
			return -1;
		prev = bq_lr_entry(l)->key;
	}
	return walked == count ? 0 : -1;
}

BQ_PEER_REQUEUE_POP_DUE(linux_rb)

static inline void sq_peer_linux_rb_destroy(struct sq_peer_linux_rb *q)
{
	(void)q;	/* intrusive: nothing of its own to free */
}
#endif /* BQ_HAVE_LINUX_RB */

/* ---------------------------------------------------------------------
 * peer_tr_seed: the seed's time ring, as described in the 2007 mail
 */
#define BQ_TR_SLOTS	1024u			/* Ns */
#define BQ_TR_GRAN	2048u			/* Tg */
#define BQ_TR_WORDS	(BQ_TR_SLOTS / 64u)
#define BQ_TR_NONE	UINT32_MAX

struct sq_peer_tr_seed_node {
	uint64_t key;
	struct sq_peer_tr_seed_node *tr_next, *tr_prev;
	uint32_t tr_slot;		/* BQ_TR_NONE when not queued */
};

struct sq_peer_tr_seed {
	struct sq_peer_tr_seed_node *tr_head[BQ_TR_SLOTS];
	struct sq_peer_tr_seed_node *tr_tail[BQ_TR_SLOTS];
	uint64_t tr_bitmap[BQ_TR_WORDS];
	uint32_t tr_ib;			/* base index Ib */
	uint64_t tr_tb;			/* base time Tb, the time of slot Ib */
	size_t tr_count;
};

static inline void sq_peer_tr_seed_init(struct sq_peer_tr_seed *q)
{
	unsigned i;

	for (i = 0; i < BQ_TR_SLOTS; i++)
		q->tr_head[i] = q->tr_tail[i] = NULL;
	for (i = 0; i < BQ_TR_WORDS; i++)
		q->tr_bitmap[i] = 0;
	q->tr_ib = 0;
	q->tr_tb = 0;
	q->tr_count = 0;
}

static inline void sq_peer_tr_seed_node_init(struct sq_peer_tr_seed_node *n)
{
	n->tr_slot = BQ_TR_NONE;
}

/* The first occupied slot at or after Ib, circularly: a bitmap scan. */
static inline uint32_t bq_tr_scan(const struct sq_peer_tr_seed *q)
{
	uint32_t w0 = q->tr_ib / 64u;
	uint64_t m = q->tr_bitmap[w0] & (~(uint64_t)0 << (q->tr_ib % 64u));
	unsigned i;

	if (m)
		return w0 * 64u + sq__ctz64(m);
	for (i = 1; i <= BQ_TR_WORDS; i++) {
		uint32_t w = (w0 + i) % BQ_TR_WORDS;

		if (q->tr_bitmap[w])
			return w * 64u + sq__ctz64(q->tr_bitmap[w]);
	}
	return BQ_TR_NONE;
}

static inline bool sq_peer_tr_seed_enqueue(struct sq_peer_tr_seed *q,
					   struct sq_peer_tr_seed_node *n,
					   uint64_t key)
{
	uint64_t d = (key - q->tr_tb) / BQ_TR_GRAN;	/* wraps below Tb */
	uint32_t s;

	if (d > BQ_TR_SLOTS - 1)
		d = BQ_TR_SLOTS - 1;
	s = (q->tr_ib + (uint32_t)d) & (BQ_TR_SLOTS - 1);
	n->key = key;
	n->tr_slot = s;
	n->tr_next = NULL;
	n->tr_prev = q->tr_tail[s];
	if (n->tr_prev)
		n->tr_prev->tr_next = n;
	else
		q->tr_head[s] = n;
	q->tr_tail[s] = n;
	q->tr_bitmap[s / 64u] |= (uint64_t)1 << (s % 64u);
	/* O(1) like the seed: "now first" is known only for an empty ring. */
	return ++q->tr_count == 1;
}

static inline struct sq_peer_tr_seed_node *
sq_peer_tr_seed_first(const struct sq_peer_tr_seed *q)
{
	uint32_t s = bq_tr_scan(q);

	return s == BQ_TR_NONE ? NULL : q->tr_head[s];
}

static inline struct sq_peer_tr_seed_node *
sq_peer_tr_seed_first(const struct sq_peer_tr_seed *q);

/* "Was it first" costs the seed's scan; a caller that ignores the answer
 * (pop) lets the compiler drop it. */
static inline bool sq_peer_tr_seed_dequeue(struct sq_peer_tr_seed *q,
					   struct sq_peer_tr_seed_node *n)
{
	bool first = sq_peer_tr_seed_first(q) == n;
	uint32_t s = n->tr_slot;

	if (n->tr_prev)
		n->tr_prev->tr_next = n->tr_next;
	else
		q->tr_head[s] = n->tr_next;
	if (n->tr_next)
		n->tr_next->tr_prev = n->tr_prev;
	else
		q->tr_tail[s] = n->tr_prev;
	if (!q->tr_head[s])
		q->tr_bitmap[s / 64u] &= ~((uint64_t)1 << (s % 64u));
	n->tr_slot = BQ_TR_NONE;
	q->tr_count--;
	return first;
}

/* Pop the first slot's head; the ring's base moves to that slot. */
static inline struct sq_peer_tr_seed_node *
sq_peer_tr_seed_pop(struct sq_peer_tr_seed *q)
{
	uint32_t s = bq_tr_scan(q);
	struct sq_peer_tr_seed_node *n;

	if (s == BQ_TR_NONE)
		return NULL;
	n = q->tr_head[s];
	sq_peer_tr_seed_dequeue(q, n);
	q->tr_tb += (uint64_t)((s - q->tr_ib) & (BQ_TR_SLOTS - 1)) * BQ_TR_GRAN;
	q->tr_ib = s;
	return n;
}

static inline bool sq_peer_tr_seed_empty(const struct sq_peer_tr_seed *q)
{
	return q->tr_count == 0;
}

static inline size_t sq_peer_tr_seed_count(const struct sq_peer_tr_seed *q)
{
	return q->tr_count;
}

static inline bool
sq_peer_tr_seed_queued(const struct sq_peer_tr_seed_node *n)
{
	return n->tr_slot != BQ_TR_NONE;
}

/* Bitmap against slot contents, list links, slot membership, count. */
static inline int sq_peer_tr_seed_check(const struct sq_peer_tr_seed *q)
{
	size_t count = 0;
	uint32_t s;

	for (s = 0; s < BQ_TR_SLOTS; s++) {
		bool bit = (q->tr_bitmap[s / 64u] >> (s % 64u)) & 1u;
		const struct sq_peer_tr_seed_node *n, *prev = NULL;

		if (bit != (q->tr_head[s] != NULL))
			return -1;
		for (n = q->tr_head[s]; n; n = n->tr_next) {
			if (n->tr_slot != s || n->tr_prev != prev)
				return -1;
			prev = n;
			count++;
		}
		if (q->tr_tail[s] != prev)
			return -1;
	}
	return count == q->tr_count ? 0 : -1;
}

BQ_PEER_REQUEUE_POP_DUE(tr_seed)

static inline void sq_peer_tr_seed_destroy(struct sq_peer_tr_seed *q)
{
	(void)q;	/* intrusive: nothing of its own to free */
}

/* ---------------------------------------------------------------------
 * peer_heap: a plain array binary heap, ordered by (key, sequence)
 */
struct sq_peer_heap_node {
	uint64_t key;
	uint64_t hp_seq;
	size_t hp_index;	/* SIZE_MAX when not queued */
};

struct sq_peer_heap {
	struct sq_peer_heap_node **hp_a;
	size_t hp_count, hp_cap;
	uint64_t hp_seq;
};

static inline bool bq_heap_less(const struct sq_peer_heap_node *a,
				const struct sq_peer_heap_node *b)
{
	return a->key < b->key || (a->key == b->key && a->hp_seq < b->hp_seq);
}

static inline void bq_heap_put(struct sq_peer_heap *q, size_t i,
			       struct sq_peer_heap_node *n)
{
	q->hp_a[i] = n;
	n->hp_index = i;
}

static inline void bq_heap_up(struct sq_peer_heap *q, size_t i,
			      struct sq_peer_heap_node *n)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!bq_heap_less(n, q->hp_a[p]))
			break;
		bq_heap_put(q, i, q->hp_a[p]);
		i = p;
	}
	bq_heap_put(q, i, n);
}

static inline void bq_heap_down(struct sq_peer_heap *q, size_t i,
				struct sq_peer_heap_node *n)
{
	size_t c;

	while ((c = 2 * i + 1) < q->hp_count) {
		if (c + 1 < q->hp_count && bq_heap_less(q->hp_a[c + 1], q->hp_a[c]))
			c++;
		if (!bq_heap_less(q->hp_a[c], n))
			break;
		bq_heap_put(q, i, q->hp_a[c]);
		i = c;
	}
	bq_heap_put(q, i, n);
}

static inline void sq_peer_heap_init(struct sq_peer_heap *q)
{
	q->hp_a = NULL;
	q->hp_count = q->hp_cap = 0;
	q->hp_seq = 0;
}

static inline void sq_peer_heap_node_init(struct sq_peer_heap_node *n)
{
	n->hp_index = SIZE_MAX;
}

static inline bool sq_peer_heap_enqueue(struct sq_peer_heap *q,
					struct sq_peer_heap_node *n,
					uint64_t key)
{
	if (q->hp_count == q->hp_cap) {
		q->hp_cap = q->hp_cap ? 2 * q->hp_cap : 64;
		q->hp_a = (struct sq_peer_heap_node **)bq_xrealloc(
			q->hp_a, q->hp_cap * sizeof(*q->hp_a));
	}
	n->key = key;
	n->hp_seq = q->hp_seq++;
	bq_heap_up(q, q->hp_count++, n);
	return n->hp_index == 0;
}

static inline struct sq_peer_heap_node *
sq_peer_heap_first(const struct sq_peer_heap *q)
{
	return q->hp_count ? q->hp_a[0] : NULL;
}

static inline bool sq_peer_heap_dequeue(struct sq_peer_heap *q,
					struct sq_peer_heap_node *n)
{
	size_t i = n->hp_index;
	struct sq_peer_heap_node *last = q->hp_a[--q->hp_count];

	n->hp_index = SIZE_MAX;
	if (last == n)
		return i == 0;
	if (i > 0 && bq_heap_less(last, q->hp_a[(i - 1) / 2]))
		bq_heap_up(q, i, last);
	else
		bq_heap_down(q, i, last);
	return i == 0;
}

static inline struct sq_peer_heap_node *sq_peer_heap_pop(struct sq_peer_heap *q)
{
	struct sq_peer_heap_node *n = sq_peer_heap_first(q);

	if (n)
		sq_peer_heap_dequeue(q, n);
	return n;
}

static inline bool sq_peer_heap_empty(const struct sq_peer_heap *q)
{
	return q->hp_count == 0;
}

static inline size_t sq_peer_heap_count(const struct sq_peer_heap *q)
{
	return q->hp_count;
}

static inline bool sq_peer_heap_queued(const struct sq_peer_heap_node *n)
{
	return n->hp_index != SIZE_MAX;
}

static inline int sq_peer_heap_check(const struct sq_peer_heap *q)
{
	size_t i;

	for (i = 0; i < q->hp_count; i++) {
		if (q->hp_a[i]->hp_index != i)
			return -1;
		if (i > 0 && bq_heap_less(q->hp_a[i], q->hp_a[(i - 1) / 2]))
			return -1;
	}
	return 0;
}

BQ_PEER_REQUEUE_POP_DUE(heap)

static inline void sq_peer_heap_destroy(struct sq_peer_heap *q)
{
	free(q->hp_a);
	sq_peer_heap_init(q);
}

/* ---------------------------------------------------------------------
 * peer_cal: Brown's calendar queue (1988)
 *
 * Integer keys, so the day of a key is key / w (an exact divide: a
 * rounded reciprocal could file a key one day early and let a later key
 * out first).  Each node keeps its day, so the search compares days.  Equal
 * keys go after their equals in a bucket (stable), and the first node is
 * kept found (cq_min) so that first() is O(1) as the contract asks: pop
 * searches for the next first at once instead of at the next pop, the
 * same work Brown's dequeue does.  A key below the current day (never in
 * the harness's workloads) moves the search back to it, so the queue stays
 * exact for any key order.
 */
#define BQ_CAL_MIN_BUCKETS 2u
#define BQ_CAL_SAMPLES	   25u

struct sq_peer_cal_node {
	uint64_t key;
	uint64_t cq_day;			/* key / width at enqueue */
	struct sq_peer_cal_node *cq_next;
	struct sq_peer_cal_node **cq_pprev;	/* NULL when not queued */
};

struct sq_peer_cal {
	struct sq_peer_cal_node **cq_bucket;	/* cq_nb sorted lists */
	size_t cq_nb;				/* a power of two */
	uint64_t cq_width;
	uint64_t cq_day;	/* no queued node has an earlier day */
	struct sq_peer_cal_node *cq_min;	/* the first node */
	size_t cq_count, cq_top, cq_bot;	/* resize thresholds */
	bool cq_resizing;	/* sampling pops must not resize */
};

static void bq_cal_alloc(struct sq_peer_cal *q, size_t nb, uint64_t width)
{
	q->cq_bucket = (struct sq_peer_cal_node **)bq_xcheck(
		calloc(nb, sizeof(*q->cq_bucket)), nb * sizeof(*q->cq_bucket));
	q->cq_nb = nb;
	q->cq_width = width;
	q->cq_day = UINT64_MAX;
	q->cq_min = NULL;
	q->cq_count = 0;
	q->cq_top = 2 * nb;
	q->cq_bot = nb >= 8 ? nb / 2 - 2 : 0;
}

static inline void sq_peer_cal_init(struct sq_peer_cal *q)
{
	bq_cal_alloc(q, BQ_CAL_MIN_BUCKETS, 1);
	q->cq_resizing = false;
}

static inline void sq_peer_cal_node_init(struct sq_peer_cal_node *n)
{
	n->cq_pprev = NULL;
}

/* File @n in its day's bucket, after every node with a key <= its own. */
static inline void bq_cal_link(struct sq_peer_cal *q,
			       struct sq_peer_cal_node *n)
{
	uint64_t day = n->key / q->cq_width;
	struct sq_peer_cal_node **p = &q->cq_bucket[day & (q->cq_nb - 1)];

	while (*p && (*p)->key <= n->key)
		p = &(*p)->cq_next;
	n->cq_day = day;
	n->cq_next = *p;
	n->cq_pprev = p;
	if (*p)
		(*p)->cq_pprev = &n->cq_next;
	*p = n;
	q->cq_count++;
	if (day < q->cq_day)
		q->cq_day = day;
}

/*
 * Find the first node: walk the days from the current one, a bucket a
 * day, until a bucket's head belongs to the day being looked at; after a
 * whole year without one, the direct search: the least head of all.
 */
static void bq_cal_search(struct sq_peer_cal *q)
{
	uint64_t day = q->cq_day;
	size_t i, mask = q->cq_nb - 1;
	struct sq_peer_cal_node *h, *best = NULL;

	if (!q->cq_count) {
		q->cq_min = NULL;
		return;
	}
	for (i = 0; i < q->cq_nb; i++, day++) {
		h = q->cq_bucket[day & mask];
		if (h && h->cq_day == day) {
			q->cq_day = day;
			q->cq_min = h;
			return;
		}
	}
	for (i = 0; i < q->cq_nb; i++) {
		h = q->cq_bucket[i];
		if (h && (!best || h->key < best->key))
			best = h;
	}
	q->cq_day = best->cq_day;
	q->cq_min = best;
}

static void bq_cal_resize(struct sq_peer_cal *q, size_t nb);

static inline bool sq_peer_cal_enqueue(struct sq_peer_cal *q,
				       struct sq_peer_cal_node *n,
				       uint64_t key)
{
	n->key = key;
	bq_cal_link(q, n);
	if (!q->cq_min || key < q->cq_min->key)
		q->cq_min = n;
	if (q->cq_count > q->cq_top && !q->cq_resizing)
		bq_cal_resize(q, 2 * q->cq_nb);
	return q->cq_min == n;
}

static inline struct sq_peer_cal_node *
sq_peer_cal_first(const struct sq_peer_cal *q)
{
	return q->cq_min;
}

static inline bool sq_peer_cal_dequeue(struct sq_peer_cal *q,
				       struct sq_peer_cal_node *n)
{
	bool first = n == q->cq_min;

	*n->cq_pprev = n->cq_next;
	if (n->cq_next)
		n->cq_next->cq_pprev = n->cq_pprev;
	n->cq_pprev = NULL;
	q->cq_count--;
	if (first)
		bq_cal_search(q);
	if (q->cq_count < q->cq_bot && !q->cq_resizing)
		bq_cal_resize(q, q->cq_nb / 2);
	return first;
}

static inline struct sq_peer_cal_node *sq_peer_cal_pop(struct sq_peer_cal *q)
{
	struct sq_peer_cal_node *n = q->cq_min;

	if (n)
		sq_peer_cal_dequeue(q, n);
	return n;
}

/*
 * Brown's width: pop the first few nodes (5 + 10% of the queue, at most
 * 25), take the mean gap between them, then the mean of the gaps below
 * twice that (one far event must not widen every day), and make a day
 * three such gaps wide.  The popped nodes are handed back to the caller.
 */
static uint64_t bq_cal_sample(struct sq_peer_cal *q,
			      struct sq_peer_cal_node **s, size_t *ns)
{
	size_t i, k = q->cq_count <= 5 ? q->cq_count : 5 + q->cq_count / 10;
	double mean = 0, sum = 0, w;
	size_t used = 0;

	if (k > BQ_CAL_SAMPLES)
		k = BQ_CAL_SAMPLES;
	for (i = 0; i < k; i++)
		s[i] = sq_peer_cal_pop(q);
	*ns = k;
	if (k < 2)
		return 1;
	mean = (double)(s[k - 1]->key - s[0]->key) / (double)(k - 1);
	for (i = 1; i < k; i++) {
		double gap = (double)(s[i]->key - s[i - 1]->key);

		if (gap <= 2 * mean) {
			sum += gap;
			used++;
		}
	}
	w = used ? 3 * sum / (double)used : 1;
	return w < 1 ? 1 : w >= 9.2e18 ? (uint64_t)1 << 62 : (uint64_t)w;
}

/*
 * A new year of @nb days, the width sampled, every node filed again: the
 * sampled ones first (they are the first nodes, so equal keys keep their
 * order), then each old bucket in its order.
 */
static void bq_cal_resize(struct sq_peer_cal *q, size_t nb)
{
	struct sq_peer_cal_node *s[BQ_CAL_SAMPLES], **old = q->cq_bucket, *n;
	size_t i, ns, oldnb = q->cq_nb;
	uint64_t width;

	if (nb < BQ_CAL_MIN_BUCKETS)
		nb = BQ_CAL_MIN_BUCKETS;
	q->cq_resizing = true;
	width = bq_cal_sample(q, s, &ns);
	bq_cal_alloc(q, nb, width);
	for (i = 0; i < ns; i++)
		(void)sq_peer_cal_enqueue(q, s[i], s[i]->key);
	for (i = 0; i < oldnb; i++)
		while ((n = old[i]) != NULL) {
			old[i] = n->cq_next;
			(void)sq_peer_cal_enqueue(q, n, n->key);
		}
	free(old);
	q->cq_resizing = false;
}

static inline bool sq_peer_cal_empty(const struct sq_peer_cal *q)
{
	return q->cq_count == 0;
}

static inline size_t sq_peer_cal_count(const struct sq_peer_cal *q)
{
	return q->cq_count;
}

static inline bool sq_peer_cal_queued(const struct sq_peer_cal_node *n)
{
	return n->cq_pprev != NULL;
}

/* Links, each node's day and bucket, buckets sorted, no node before the
 * current day, the cached first the least key (the earliest of equals),
 * the count. */
static inline int sq_peer_cal_check(const struct sq_peer_cal *q)
{
	const struct sq_peer_cal_node *n, *best = NULL;
	size_t i, count = 0;

	for (i = 0; i < q->cq_nb; i++) {
		struct sq_peer_cal_node *const *p = &q->cq_bucket[i];

		for (; (n = *p) != NULL; p = &n->cq_next) {
			if (n->cq_pprev != p || n->cq_day != n->key / q->cq_width ||
			    (n->cq_day & (q->cq_nb - 1)) != i ||
			    n->cq_day < q->cq_day)
				return -1;
			if (n->cq_next && n->cq_next->key < n->key)
				return -1;
			if (!best || n->key < best->key)
				best = n;
			count++;
		}
	}
	return count == q->cq_count && best == q->cq_min ? 0 : -1;
}

BQ_PEER_REQUEUE_POP_DUE(cal)

static inline void sq_peer_cal_destroy(struct sq_peer_cal *q)
{
	free(q->cq_bucket);
	q->cq_bucket = NULL;
}

#endif /* SQ_BENCH_PEERS_H */
