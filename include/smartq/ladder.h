/* SPDX-License-Identifier: MIT */
/*
 * smartq/ladder.h - ladder queue, exact and stable       (KIND = ladder)
 *
 * Tang, Goh and Thng's ladder queue (ACM TOMACS 15(3), 2005), written for
 * integer keys, without allocation and with O(1) removal of any node.
 * Three tiers, each a doubly linked list or an array of them:
 *
 *   top      unsorted lists, keys > ld_toplim (the far future)
 *   rungs    rung 0 .. ld_nrungs - 1; rung r is an array of buckets of
 *            width 2^lr_shift from lr_start; it takes the keys in
 *            [lr_cur, lr_start + lr_span], and each rung covers exactly the
 *            part of the rung above it that is already used up:
 *
 *              rung 0:  [cur0 ............................. toplim]
 *              rung 1:  [cur1 ........... cur0 - 1]
 *              rung 2:  [cur2 .. cur1 - 1]
 *              bottom:  keys < cur2 (the lowest rung's cur), sorted
 *
 *   bottom   the sorted list; its head is the first node
 *
 * enqueue  routes a key: to the top if it is above ld_toplim, else to the
 *          highest rung whose lr_cur it reaches (a tail append), else to
 *          the bottom (inserted in order);
 * first    reads the bottom's head, never empty while the queue is not;
 * pop      unlinks the bottom's head, and dequeue any node (it knows its
 *          list);
 * refill   when that empties the bottom: the lowest rung's first non-empty
 *          bucket is sorted into it if it holds at most SQ_LADDER_THRES
 *          nodes, else spread over a new rung below, of narrower buckets
 *          (a "spawn"); when every rung is used up, the top is spread over
 *          a new rung 0 (an "epoch"), or sorted straight into the bottom
 *          when it is small.
 *
 * Every node moves down a bounded number of times, so enqueue and pop are
 * O(1) amortised: rungs are made only where nodes crowd.
 *
 * Integer keys and power-of-two widths.  A bucket index is a subtraction
 * and a shift.  A spawned rung covers the range of its bucket, so its
 * width is 2^SQ_LADDER__CBITS times narrower (or 1); at width 1 a bucket
 * holds one key, already in FIFO order.
 *
 * Exact and stable without a stamp.  Equal keys always go to the same
 * place (the routing depends on the key only, and whole buckets move
 * together), every move keeps list order, and each list is in arrival
 * order among equal keys: a (re)queue appends, the bottom is sorted
 * stably (a merge sort) and an insert there goes after its equals.  So
 * among equal keys the earliest (re)queued comes first, and the exact
 * backends return identical sequences.
 *
 * Reading order.  The structures and the helpers over lists, buckets and
 * rungs; then the ladder as the paper has it: enqueue, the refill, dequeue
 * and the API, the whole queue for the keys the paper measured.  Then
 * three fallbacks, each in its own section, entered through one call and
 * needed only by the input it names:
 *
 *   feed   a crowd of one key reaches the front: the bottom takes
 *          SQ_LADDER_THRES of it at a time (sq_ladder__feed(), from the
 *          refill);
 *   spill  keys enqueued below the lowest rung grow the bottom: its tail
 *          moves up into a rung (sq_ladder__spill(), from the bottom's
 *          insert);
 *   pile   every rung held: what no rung can take goes to sorted runs
 *          below the rungs (its section says where it is entered).
 *
 * Last, visit, find and check, which walk every tier.
 *
 * Invariants (sq_ladder_check() verifies each of them):
 *  1. Every list is NULL-terminated both ways, and each node's ld_home is
 *     the list it is on; ld_count is the number of nodes, ld_ntop and
 *     ld_nbottom those of the top and the bottom.
 *  2. The bottom is non-empty exactly when the queue is; it is sorted by
 *     key, so its head is the first node (first() reads it).
 *  3. Every bottom key is below the lowest rung's lr_cur, or at most
 *     ld_toplim when there is no rung; except the nodes fed from the
 *     bucket at lr_cur, of key lr_cur: the bottom's tail, at most
 *     SQ_LADDER_THRES of them, queued before every node of that key left
 *     in the bucket.
 *  4. Rung r: lr_start <= lr_cur and lr_cur - lr_start is at most lr_span
 *     (lr_cur is a bucket's start, or a fed crowd's key, or a spill's
 *     cut); lr_span >> lr_shift is below the rung's bucket count; rung 0
 *     ends at ld_toplim (lr_start + lr_span == ld_toplim) and rung r > 0
 *     ends just below rung r-1's lr_cur.
 *  5. A node in bucket i of rung r has lr_cur <= key <= lr_start + lr_span
 *     and (key - lr_start) >> lr_shift == i.
 *  6. Bitmap bit b is set iff bucket b is not empty (buckets of dead rungs
 *     are empty); summary bit w is set iff bitmap word w is not 0.
 *  7. Every top key is above ld_toplim and within [ld_tmin, ld_tmax],
 *     and on the top list sq_ladder__top_of() gives it.
 *  8. ld_nrungs <= SQ_LADDER_RUNGS.
 *  9. (the pile) Bit r of ld_pmap is set iff run r is not empty; each run
 *     is sorted, keys from ld_pcur to the lowest rung's cur - 1
 *     (ld_toplim with no rung).  While the pile is in use, every bottom
 *     key is below ld_pcur but the nodes fed from it, of key ld_pcur, as
 *     in 3.
 * 10. (the spill) ld_nbottom <= 4 * ld_bins + SQ_LADDER__SPILL: the
 *     budget pays for a spill of the whole bottom.
 *  A node not on a queue has ld_home NULL.
 *
 * Costs (n nodes):
 *	enqueue		O(1): a tail append, or an ordered insert into the
 *			bottom (short: it is spilled when it grows); into
 *			the pile, O(log n) amortised
 *	first		O(1): the bottom's head
 *	pop		O(1) amortised: the head of the bottom; a refill moves
 *			each node down at most once per rung; O(log n)
 *			amortised while the pile feeds the bottom
 *	dequeue		O(1) (+ a refill when it empties the bottom)
 *	requeue		dequeue + enqueue
 *	visit, check	O(n + buckets)
 *	sizes		a node is the key and three pointers (32 bytes on
 *			LP64); the queue holds Buckets + (Rungs - 1) * Split
 *			+ 64 list heads of two pointers, their bitmap and ten
 *			rung records: 27 KiB with the defaults
 *
 * Configuration, before the first include of smartq.h or smartq/ladder.h,
 * the same in every translation unit that shares a struct sq_ladder:
 *   SQ_LADDER_BUCKETS  buckets of rung 0, a power of two, 64..2048
 *   SQ_LADDER_SPLIT    buckets of a spawned rung, a power of two, 4..64
 *   SQ_LADDER_RUNGS    the most rungs at once, 2..32
 *   SQ_LADDER_THRES    the most nodes a bucket may hold and still be
 *                      sorted into the bottom, 2..1024
 * The defaults and why they were chosen: doc/ladder.md.
 */
#ifndef SMARTQ_LADDER_H
#define SMARTQ_LADDER_H

#include "common.h"

#ifndef SQ_LADDER_BUCKETS
#define SQ_LADDER_BUCKETS 1024
#endif
#ifndef SQ_LADDER_SPLIT
#define SQ_LADDER_SPLIT 64
#endif
#ifndef SQ_LADDER_RUNGS
#define SQ_LADDER_RUNGS 10
#endif
#ifndef SQ_LADDER_THRES
#define SQ_LADDER_THRES 48
#endif

#if (SQ_LADDER_BUCKETS) == 64
#define SQ_LADDER__BITS0 6
#elif (SQ_LADDER_BUCKETS) == 128
#define SQ_LADDER__BITS0 7
#elif (SQ_LADDER_BUCKETS) == 256
#define SQ_LADDER__BITS0 8
#elif (SQ_LADDER_BUCKETS) == 512
#define SQ_LADDER__BITS0 9
#elif (SQ_LADDER_BUCKETS) == 1024
#define SQ_LADDER__BITS0 10
#elif (SQ_LADDER_BUCKETS) == 2048
#define SQ_LADDER__BITS0 11
#else
#error "smartq/ladder.h: SQ_LADDER_BUCKETS must be a power of two, 64 to 2048"
#endif

#if (SQ_LADDER_SPLIT) == 4
#define SQ_LADDER__CBITS 2
#elif (SQ_LADDER_SPLIT) == 8
#define SQ_LADDER__CBITS 3
#elif (SQ_LADDER_SPLIT) == 16
#define SQ_LADDER__CBITS 4
#elif (SQ_LADDER_SPLIT) == 32
#define SQ_LADDER__CBITS 5
#elif (SQ_LADDER_SPLIT) == 64
#define SQ_LADDER__CBITS 6
#else
#error "smartq/ladder.h: SQ_LADDER_SPLIT must be a power of two from 4 to 64"
#endif

#if (SQ_LADDER_RUNGS) < 2 || (SQ_LADDER_RUNGS) > 32
#error "smartq/ladder.h: SQ_LADDER_RUNGS must be from 2 to 32"
#endif
#if (SQ_LADDER_THRES) < 2 || (SQ_LADDER_THRES) > 1024
#error "smartq/ladder.h: SQ_LADDER_THRES must be from 2 to 1024"
#endif

/* All buckets: rung 0's, then SPLIT for each further rung.  Rung 0 fills
 * whole bitmap words and SPLIT divides 64, so no rung straddles a word;
 * at most 32 + 31 words, so one summary word covers them. */
#define SQ_LADDER__NBK ((SQ_LADDER_BUCKETS) + \
			((SQ_LADDER_RUNGS) - 1) * (SQ_LADDER_SPLIT))
#define SQ_LADDER__WORDS ((SQ_LADDER__NBK + 63) / 64)
/* A bottom longer than this is spilled (sq_ladder__spill()). */
#define SQ_LADDER__SPILL ((size_t)2 * (SQ_LADDER_THRES))
/* How far below its cut a spill rung under a spill rung reaches, a power
 * of two (sq_ladder__spill()). */
#define SQ_LADDER__REACH 3
/* The top is 2^TOPBITS lists, a key's chosen by the key alone (so equal
 * keys share one, in arrival order): an epoch spreads them all at once,
 * two chains of cold nodes a list waiting on memory side by side. */
#define SQ_LADDER__TOPBITS 2
#define SQ_LADDER__TOPS (1u << SQ_LADDER__TOPBITS)

struct sq_ladder__list;

/**
 * struct sq_ladder_node - the link a user embeds in the struct to be queued
 * @key:     the priority, smallest first; readable, set by enqueue/requeue
 * @ld_next: next node on its list (towards the tail), NULL at the tail
 * @ld_prev: previous node on its list, NULL at the head
 * @ld_home: the list the node is on (the top, a bucket, the bottom), so a
 *           dequeue finds its list head and bucket bit in O(1); NULL when
 *           the node is not queued
 */
struct sq_ladder_node {
	uint64_t key;
	struct sq_ladder_node *ld_next, *ld_prev;
	struct sq_ladder__list *ld_home;
};

/* A list head: the head and the tail, so an append touches one node. */
struct sq_ladder__list {
	struct sq_ladder_node *ll_first, *ll_last;
};

/*
 * struct sq_ladder__rung - one rung
 * @lr_start: the key at offset 0 of bucket 0
 * @lr_span:  the last key the rung takes, minus lr_start
 * @lr_cur:   the first key the rung still takes (the used-up buckets are
 *            below it, and keys there go down)
 * @lr_shift: log2 of the bucket width
 * @lr_spill: made by a spill (so a spill below it reaches further down)
 */
struct sq_ladder__rung {
	uint64_t lr_start, lr_span, lr_cur;
	unsigned lr_shift;
	unsigned lr_spill;
};

/**
 * struct sq_ladder - a ladder queue
 * @ld_bottom:  the sorted list; its head is the first node
 * @ld_count:   number of queued nodes
 * @ld_nbottom: nodes in the bottom
 * @ld_bins:    the spill budget: inserts into the bottom since it was
 *              filled, less what spills spent (invariant 10)
 * @ld_nrungs:  rungs in use, 0 .. SQ_LADDER_RUNGS
 * @ld_toplim:  keys above it go to the top
 * @ld_top:     the unsorted lists of the far future (sq_ladder__top_of())
 * @ld_ntop:    nodes in the top
 * @ld_tmin:    at most the smallest top key, when the top is not empty
 * @ld_tmax:    at least the largest top key, when the top is not empty
 * @ld_pmap:    bit r set iff the pile's run of rank r is not empty (the
 *              pile is in use iff it is not 0)
 * @ld_pcur:    the smallest key the pile takes, while it is in use
 * @ld_summary: bit w set iff ld_map[w] is not 0
 * @ld_rung:    the rungs; rung r's buckets start at sq_ladder__base(r)
 * @ld_map:     bit b set iff ld_bk[b] is not empty
 * @ld_bk:      the buckets of every rung; valid only where ld_map says so
 * @ld_run:     the pile's runs, valid only where ld_pmap says so
 */
struct sq_ladder {
	struct sq_ladder__list ld_bottom;
	size_t ld_count;
	size_t ld_nbottom;
	size_t ld_bins;
	unsigned ld_nrungs;
	uint64_t ld_toplim;
	struct sq_ladder__list ld_top[SQ_LADDER__TOPS];
	size_t ld_ntop;
	uint64_t ld_tmin, ld_tmax;
	uint64_t ld_pmap, ld_pcur;
	uint64_t ld_summary;
	struct sq_ladder__rung ld_rung[SQ_LADDER_RUNGS];
	uint64_t ld_map[SQ_LADDER__WORDS];
	struct sq_ladder__list ld_bk[SQ_LADDER__NBK];
	struct sq_ladder__list ld_run[64];
};

/* ---- small helpers (no key compares) ------------------------------------ */

/* The first bucket index of rung @r. */
SQ__INLINE unsigned sq_ladder__base(unsigned r)
{
	return r ? (SQ_LADDER_BUCKETS) + (r - 1) * (SQ_LADDER_SPLIT) : 0;
}

/* log2 of the bucket count of rung @r. */
SQ__INLINE unsigned sq_ladder__bits(unsigned r)
{
	return r ? SQ_LADDER__CBITS : SQ_LADDER__BITS0;
}

/* The width shift for a rung of 2^@bits buckets taking offsets 0..@span:
 * the smallest shift with span >> shift below 2^bits. */
SQ__INLINE unsigned sq_ladder__shift(uint64_t span, unsigned bits)
{
	unsigned used = span ? 64 - sq__clz64(span) : 0;

	return used > bits ? used - bits : 0;
}

/* Append @n to list @l, as its tail. */
SQ__INLINE void sq_ladder__list_add(struct sq_ladder__list *l,
				  struct sq_ladder_node *n)
{
	struct sq_ladder_node *t = l->ll_last;

	n->ld_next = NULL;
	n->ld_prev = t;
	n->ld_home = l;
	if (t)
		t->ld_next = n;
	else
		l->ll_first = n;
	l->ll_last = n;
}

/* The top list of @key: its top bits, mixed (Fibonacci hashing), so
 * that keys spread over the lists whatever their low bits. */
SQ__INLINE unsigned sq_ladder__top_of(uint64_t key)
{
	return (unsigned)((key * 0x9e3779b97f4a7c15u) >>
			  (64 - SQ_LADDER__TOPBITS));
}

/* Is @l one of the @n lists from @a? */
SQ__INLINE bool sq_ladder__among(const struct sq_ladder__list *l,
				 const struct sq_ladder__list *a, size_t n)
{
	uintptr_t h = (uintptr_t)l;

	return h >= (uintptr_t)a && h < (uintptr_t)(a + n);
}

/* Is @l one of @q's top lists? */
SQ__INLINE bool sq_ladder__in_top(const struct sq_ladder *q,
				  const struct sq_ladder__list *l)
{
	return sq_ladder__among(l, q->ld_top, SQ_LADDER__TOPS);
}

/* Take @n off its list (its own links are left stale). */
SQ__INLINE void sq_ladder__list_del(struct sq_ladder__list *l,
				  struct sq_ladder_node *n)
{
	struct sq_ladder_node *p = n->ld_prev, *x = n->ld_next;

	if (p)
		p->ld_next = x;
	else
		l->ll_first = x;
	if (x)
		x->ld_prev = p;
	else
		l->ll_last = p;
}

/* Bucket @b, marked occupied; made an empty list if it was not. */
SQ__INLINE struct sq_ladder__list *sq_ladder__bucket_open(struct sq_ladder *q,
							 unsigned b)
{
	if (!((q->ld_map[b >> 6] >> (b & 63)) & 1)) {
		sq__bits_set(q->ld_map, &q->ld_summary, b);
		q->ld_bk[b].ll_first = NULL;
		q->ld_bk[b].ll_last = NULL;
	}
	return &q->ld_bk[b];
}

/* The bitmap bits of rung @r's buckets in their word (all ones for rung
 * 0, which fills whole words, and when a spawned rung fills one). */
SQ__INLINE uint64_t sq_ladder__rung_mask(unsigned r)
{
	if (!r || SQ_LADDER_SPLIT == 64)
		return ~(uint64_t)0;
	return (((uint64_t)1 << (SQ_LADDER_SPLIT & 63)) - 1)
	       << (sq_ladder__base(r) & 63);
}

/* The first occupied bucket index of rung @r (global), or -1 if none. */
SQ__INLINE long sq_ladder__rung_first(const struct sq_ladder *q, unsigned r)
{
	uint64_t m;
	unsigned w;

	if (!r) {
		m = q->ld_summary &
		    (((uint64_t)1 << ((SQ_LADDER_BUCKETS) / 64)) - 1);
		if (!m)
			return -1;
		w = sq__ctz64(m);
		return (long)w * 64 + (long)sq__ctz64(q->ld_map[w]);
	}
	w = sq_ladder__base(r) >> 6;
	m = q->ld_map[w] & sq_ladder__rung_mask(r);
	return m ? (long)w * 64 + (long)sq__ctz64(m) : -1;
}

/* Clear every bucket bit of rung @r (it is being made anew). */
SQ__INLINE void sq_ladder__rung_reset(struct sq_ladder *q, unsigned r)
{
	unsigned w, base = sq_ladder__base(r);

	if (!r) {
		for (w = 0; w < (SQ_LADDER_BUCKETS) / 64; w++) {
			SQ__STEP(1);
			q->ld_map[w] = 0;
		}
		q->ld_summary &=
			~(((uint64_t)1 << ((SQ_LADDER_BUCKETS) / 64)) - 1);
		return;
	}
	w = base >> 6;
	q->ld_map[w] &= ~sq_ladder__rung_mask(r);
	if (!q->ld_map[w])
		q->ld_summary &= ~((uint64_t)1 << w);
}

/* The node @n is on no queue: mark it; poison its links under SQ_DEBUG. */
SQ__INLINE void sq_ladder__unlink(struct sq_ladder_node *n)
{
	n->ld_home = NULL;
#ifdef SQ_DEBUG
	n->ld_next = (struct sq_ladder_node *)SQ__POISON(1);
	n->ld_prev = (struct sq_ladder_node *)SQ__POISON(2);
#endif
}

/* Is list @l one of the pile's runs? */
SQ__INLINE bool sq_ladder__is_run(const struct sq_ladder *q,
				  const struct sq_ladder__list *l)
{
	return sq_ladder__among(l, q->ld_run, 64);
}

/* Is @n's home one of @q's lists?  SQ_DEBUG asks it of a node passed to
 * dequeue or requeue, to catch a node of another queue in O(1). */
SQ__INLINE bool sq_ladder__on(const struct sq_ladder *q,
			      const struct sq_ladder_node *n)
{
	const struct sq_ladder__list *l = n->ld_home;

	return l == &q->ld_bottom || sq_ladder__in_top(q, l) ||
	       sq_ladder__among(l, q->ld_bk, SQ_LADDER__NBK) ||
	       sq_ladder__is_run(q, l);
}

/* The fallbacks' entries (their sections follow the API). */
SQ__SLOW bool sq_ladder__feed(struct sq_ladder *q, unsigned r, unsigned b,
			      uint64_t lo);
SQ__SLOW void sq_ladder__spill(struct sq_ladder *q);
SQ__INLINE void sq_ladder__pile_insert(struct sq_ladder *q,
				       struct sq_ladder_node *n);
SQ__INLINE void sq_ladder__run_clear(struct sq_ladder *q,
				     const struct sq_ladder__list *l);
SQ__SLOW void sq_ladder__pile_fill(struct sq_ladder *q);
SQ__SLOW void sq_ladder__pile_bucket(struct sq_ladder *q,
				     struct sq_ladder_node *l, uint64_t lo);

/* ---- enqueue: a key to its tier ------------------------------------------ */

/*
 * sq_ladder__bottom_insert - insert @n into the bottom (not empty) after
 * every node of key <= its own.  Two fingers walk in from both ends, so it
 * costs twice the distance from the nearer end: keys near either end (a
 * scheduler's, near the front) are cheap, and a crowd of equal keys at one
 * end is never walked to reach the other.
 */
SQ__INLINE void sq_ladder__bottom_insert(struct sq_ladder *q,
					 struct sq_ladder_node *n)
{
	struct sq_ladder_node *a = q->ld_bottom.ll_first;
	struct sq_ladder_node *b = q->ld_bottom.ll_last, *p;
	uint64_t key = n->key;

	n->ld_home = &q->ld_bottom;
	if (key < a->key) {
		n->ld_prev = NULL;
		n->ld_next = a;
		a->ld_prev = n;
		q->ld_bottom.ll_first = n;
	} else {
		if (key >= b->key) {
			p = b;
		} else {
			/* a->key <= key < b->key: the place is between them */
			for (;;) {
				SQ__STEP(1);
				p = a->ld_next;
				if (p->key > key) {
					p = a;
					break;
				}
				a = p;
				p = b->ld_prev;
				if (p->key <= key)
					break;
				b = p;
			}
		}
		n->ld_prev = p;
		n->ld_next = p->ld_next;
		if (p->ld_next)
			p->ld_next->ld_prev = n;
		else
			q->ld_bottom.ll_last = n;
		p->ld_next = n;
	}
	q->ld_bins++;
	if (SQ__UNLIKELY(++q->ld_nbottom > SQ_LADDER__SPILL) &&
	    q->ld_bins % (SQ_LADDER_THRES) == 0)
		sq_ladder__spill(q);
}

/*
 * sq_ladder__insert - queue @n, whose key is set, behind every queued node
 * of equal key; returns true if it is the first node now.
 */
SQ__INLINE bool sq_ladder__insert(struct sq_ladder *q, struct sq_ladder_node *n)
{
	uint64_t key = n->key;
	const struct sq_ladder_node *h = q->ld_bottom.ll_first;
	struct sq_ladder__rung *g;
	unsigned r;
	bool first;

	q->ld_count++;
	if (!h) {
		/* empty: no rungs, no top; a new era starts at this key */
		n->ld_next = n->ld_prev = NULL;
		n->ld_home = &q->ld_bottom;
		q->ld_bottom.ll_first = q->ld_bottom.ll_last = n;
		q->ld_nbottom = 1;
		q->ld_bins = 0;
		q->ld_toplim = key;
		return true;
	}
	if (key > q->ld_toplim) {
		if (!q->ld_ntop++) {
			q->ld_tmin = q->ld_tmax = key;
		} else {
			q->ld_tmin = key < q->ld_tmin ? key : q->ld_tmin;
			q->ld_tmax = key > q->ld_tmax ? key : q->ld_tmax;
		}
		sq_ladder__list_add(&q->ld_top[sq_ladder__top_of(key)], n);
		return false;
	}
	for (r = 0, g = q->ld_rung; r < q->ld_nrungs; r++, g++) {
		SQ__STEP(1);
		if (key >= g->lr_cur) {
			sq_ladder__list_add(sq_ladder__bucket_open(q,
				sq_ladder__base(r) + (unsigned)((key -
				g->lr_start) >> g->lr_shift)), n);
			return false;
		}
	}
	if (SQ__UNLIKELY(q->ld_pmap != 0) && key >= q->ld_pcur) {
		sq_ladder__pile_insert(q, n);	/* in use, it takes @key */
		return false;
	}
	first = key < h->key;
	sq_ladder__bottom_insert(q, n);
	return first;
}

/* ---- the refill: moving lists down --------------------------------------- */

/* Merge two key-sorted NULL-terminated lists (by ld_next only); on equal
 * keys @a's nodes come first, so the merge is stable when @a is older. */
static inline struct sq_ladder_node *sq_ladder__merge(struct sq_ladder_node *a,
						      struct sq_ladder_node *b)
{
	struct sq_ladder_node head, *t = &head;

	while (a && b) {
		SQ__STEP(1);
		if (a->key <= b->key) {
			t->ld_next = a;
			a = a->ld_next;
		} else {
			t->ld_next = b;
			b = b->ld_next;
		}
		t = t->ld_next;
	}
	t->ld_next = a ? a : b;
	return head.ld_next;
}

/*
 * sq_ladder__sort - stable merge sort of a NULL-terminated list by key,
 * following ld_next only.  Bottom-up, no recursion: bin[i] holds a sorted
 * run of 2^i nodes, older than everything in the lower bins, as in binary
 * counting; O(m log m) compares, 64 pointers of stack.
 */
static inline struct sq_ladder_node *sq_ladder__sort(struct sq_ladder_node *l)
{
	struct sq_ladder_node *bin[64], *n;
	unsigned i, top = 0;

	while (l) {
		SQ__STEP(1);
		n = l;
		l = l->ld_next;
		n->ld_next = NULL;
		for (i = 0; i < top && bin[i]; i++) {
			SQ__STEP(1);
			n = sq_ladder__merge(bin[i], n);
			bin[i] = NULL;
		}
		if (i == top)
			top++;
		bin[i] = n;
	}
	n = NULL;
	for (i = 0; i < top; i++) {
		SQ__STEP(1);
		if (bin[i])
			n = n ? sq_ladder__merge(bin[i], n) : bin[i];
	}
	return n;
}

/* Make the NULL-terminated list from @l (linked by ld_next only) list @h:
 * its prev links, homes and tail.  Returns its length. */
SQ__INLINE size_t sq_ladder__link(struct sq_ladder__list *h,
				  struct sq_ladder_node *l)
{
	struct sq_ladder_node *p = NULL, *n;
	size_t cnt = 0;

	h->ll_first = l;
	for (n = l; n; n = n->ld_next) {
		SQ__STEP(1);
		n->ld_prev = p;
		n->ld_home = h;
		p = n;
		cnt++;
	}
	h->ll_last = p;
	return cnt;
}

/* The number of nodes of the NULL-terminated list from @l, its smallest
 * key in *@min and its largest in *@max (UINT64_MAX and 0 if empty). */
SQ__INLINE size_t sq_ladder__range(const struct sq_ladder_node *l,
				   uint64_t *min, uint64_t *max)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t cnt = 0;

	for (; l; l = l->ld_next, cnt++) {
		SQ__STEP(1);
		lo = l->key < lo ? l->key : lo;
		hi = l->key > hi ? l->key : hi;
	}
	*min = lo;
	*max = hi;
	return cnt;
}

/* Make the list from @l (keys @min to @max, in arrival order among equal
 * keys) the empty bottom; sorted only when it holds more than one key. */
SQ__SLOW void sq_ladder__to_bottom(struct sq_ladder *q,
				   struct sq_ladder_node *l,
				   uint64_t min, uint64_t max)
{
	if (min != max)
		l = sq_ladder__sort(l);
	q->ld_nbottom = sq_ladder__link(&q->ld_bottom, l);
	q->ld_bins = 0;
}

/*
 * While a list is spread from both ends, bucket @b of the new rung holds
 * two parts: the front part, nodes from the list's head in list order, and
 * the back part, nodes from its tail, prepended.  The bucket's head points
 * at the back part's first node and its tail at the front part's last;
 * each part's other end hangs off the free link of that node (the front
 * tail's ld_next, the back head's ld_prev) until sq_ladder__join().
 * sq_ladder__put() adds @n to the front part of bucket @b, after its tail
 * (@back false), or to the back part, before its head (@back true); @mask
 * is the rung's mask of buckets with that part.
 */
SQ__INLINE void sq_ladder__put(struct sq_ladder__list *bk, unsigned b,
			       uint64_t *mask, struct sq_ladder_node *n,
			       bool back)
{
	struct sq_ladder__list *l = &bk[b];
	struct sq_ladder_node **end = back ? &l->ll_first : &l->ll_last;
	struct sq_ladder_node **in = back ? &n->ld_next : &n->ld_prev;
	struct sq_ladder_node **out = back ? &n->ld_prev : &n->ld_next;
	uint64_t bit = (uint64_t)1 << (b & 63);

	n->ld_home = l;
	if (mask[b >> 6] & bit) {
		struct sq_ladder_node *e = *end;
		struct sq_ladder_node **spare = back ? &e->ld_prev :
						       &e->ld_next;

		*in = e;
		*out = *spare;	/* the part's other end */
		*spare = n;
	} else {
		mask[b >> 6] |= bit;
		*in = NULL;
		*out = n;
	}
	*end = n;
}

/* Make bucket @l, with a front part (@f) and/or a back part (@k), the
 * list front + back. */
SQ__INLINE void sq_ladder__join(struct sq_ladder__list *l, bool f, bool k)
{
	struct sq_ladder_node *fh = NULL, *ft = NULL, *bh = NULL, *bt = NULL;

	if (f) {
		ft = l->ll_last;
		fh = ft->ld_next;
	}
	if (k) {
		bh = l->ll_first;
		bt = bh->ld_prev;
	}
	if (f) {
		ft->ld_next = bh;
		l->ll_first = fh;
	}
	if (k) {
		bh->ld_prev = ft;
		l->ll_last = bt;
	}
}

/* Join the parts of every bucket of rung @r that has one (@fm front,
 * @bm back), and set the rung's bits: those of its used buckets. */
SQ__INLINE void sq_ladder__join_rung(struct sq_ladder *q, unsigned r,
				     const uint64_t *fm, const uint64_t *bm)
{
	struct sq_ladder__list *bk = &q->ld_bk[sq_ladder__base(r)];
	unsigned w, b, base = sq_ladder__base(r);
	unsigned nw = (((unsigned)1 << sq_ladder__bits(r)) + 63) / 64;
	uint64_t m;

	for (w = 0; w < nw; w++) {
		SQ__STEP(1);
		m = fm[w] | bm[w];
		if (!m)
			continue;
		q->ld_map[(base >> 6) + w] |= m << (base & 63);
		q->ld_summary |= (uint64_t)1 << ((base >> 6) + w);
		for (; m; m &= m - 1) {
			SQ__STEP(1);
			b = w * 64 + sq__ctz64(m);
			sq_ladder__join(&bk[b], fm[w] >> (b & 63) & 1,
					bm[w] >> (b & 63) & 1);
		}
	}
}

/*
 * sq_ladder__spread - make rung @r (the new lowest rung) take the keys
 * from @start to @start + @span and move the @nl lists @ls (at most
 * SQ_LADDER__TOPS, detached; any may be empty) into its buckets, each
 * keeping its list's order, so arrival order among equal keys when equal
 * keys share a list.  Returns the lists' smallest and largest keys in
 * *@min and *@max.  The lists are cold, a walk a chain of misses each
 * waiting on the last: so each is walked once, from both ends, the lists
 * side by side (2 * @nl chains in flight).
 */
SQ__SLOW void sq_ladder__spread(struct sq_ladder *q, unsigned r,
				const struct sq_ladder__list *ls, unsigned nl,
				uint64_t start, uint64_t span, uint64_t *min,
				uint64_t *max)
{
	struct sq_ladder__rung *g = &q->ld_rung[r];
	struct sq_ladder__list *bk = &q->ld_bk[sq_ladder__base(r)];
	uint64_t fm[(SQ_LADDER_BUCKETS) / 64] = { 0 };
	uint64_t bm[(SQ_LADDER_BUCKETS) / 64] = { 0 };
	uint64_t lo = UINT64_MAX, hi = 0, m;
	struct sq_ladder_node *a[SQ_LADDER__TOPS], *z[SQ_LADDER__TOPS];
	struct sq_ladder_node *x, *y, *na, *pz;
	unsigned sh, j, live = 0;

	sh = sq_ladder__shift(span, sq_ladder__bits(r));
	g->lr_start = start;
	g->lr_span = span;
	g->lr_cur = start;
	g->lr_shift = sh;
	g->lr_spill = 0;
	sq_ladder__rung_reset(q, r);
	for (j = 0; j < nl && j < SQ_LADDER__TOPS; j++) {
		a[j] = ls[j].ll_first;
		z[j] = ls[j].ll_last;
		live |= a[j] ? 1u << j : 0;
	}
	while (live) {
		for (m = live; m; m &= m - 1) {
			SQ__STEP(1);
			j = (unsigned)sq__ctz64(m) & (SQ_LADDER__TOPS - 1);
			x = a[j];
			y = z[j];
			na = x->ld_next;	/* read both links before */
			pz = y->ld_prev;	/* either node is moved */
			lo = x->key < lo ? x->key : lo;
			hi = x->key > hi ? x->key : hi;
			sq_ladder__put(bk, (unsigned)((x->key - start) >> sh),
				       fm, x, false);
			if (x == y) {
				live &= ~(1u << j);
				continue;
			}
			lo = y->key < lo ? y->key : lo;
			hi = y->key > hi ? y->key : hi;
			sq_ladder__put(bk, (unsigned)((y->key - start) >> sh),
				       bm, y, true);
			/* met; (NULL never: x comes before y, but it shows
			 * the analyzers that the walk ends) */
			if (na == y || !na || !pz) {
				live &= ~(1u << j);
				continue;
			}
			a[j] = na;
			z[j] = pz;
		}
	}
	sq_ladder__join_rung(q, r, fm, bm);
	q->ld_nrungs = r + 1;
	*min = lo;
	*max = hi;
}

/*
 * sq_ladder__span - count the bucket from @a to its tail @z and find its
 * smallest and largest keys, stopping past SQ_LADDER_THRES nodes (then it
 * is crowded: the count is above THRES, the keys not all seen).  From both
 * ends at once: two chains of cold loads wait side by side.
 */
SQ__INLINE size_t sq_ladder__span(const struct sq_ladder_node *a,
				  const struct sq_ladder_node *z,
				  uint64_t *min, uint64_t *max)
{
	uint64_t lo = a->key < z->key ? a->key : z->key;
	uint64_t hi = a->key < z->key ? z->key : a->key;
	size_t cnt = a == z ? 1 : 2;

	SQ__STEP(cnt);		/* the steps count nodes, as a walk's */
	while (a != z && a->ld_next != z && cnt <= (SQ_LADDER_THRES)) {
		SQ__STEP(1);
		a = a->ld_next;
		z = z->ld_prev;
		lo = a->key < lo ? a->key : lo;
		hi = a->key > hi ? a->key : hi;
		cnt++;
		if (a != z) {
			SQ__STEP(1);
			lo = z->key < lo ? z->key : lo;
			hi = z->key > hi ? z->key : hi;
			cnt++;
		}
	}
	*min = lo;
	*max = hi;
	return cnt;
}

/*
 * sq_ladder__epoch - no rung is left: the top becomes the ladder's, and
 * ld_toplim its largest key.  A top of at most SQ_LADDER_THRES nodes goes
 * into the bottom (returns false: the refill is done); a larger one is
 * spread over a new rung 0 that spans it (returns true: the refill goes on
 * from there).
 */
SQ__INLINE bool sq_ladder__epoch(struct sq_ladder *q)
{
	struct sq_ladder__list top[SQ_LADDER__TOPS];
	struct sq_ladder_node *l, **end = &l;
	uint64_t min = q->ld_tmin, max = q->ld_tmax;
	size_t cnt = q->ld_ntop;
	unsigned i;

	for (i = 0; i < SQ_LADDER__TOPS; i++) {
		top[i] = q->ld_top[i];
		q->ld_top[i].ll_first = NULL;
		q->ld_top[i].ll_last = NULL;
	}
	q->ld_ntop = 0;
	q->ld_toplim = max;
	if (cnt > (SQ_LADDER_THRES)) {
		sq_ladder__spread(q, 0, top, SQ_LADDER__TOPS, min, max - min,
				  &min, &max);
		return true;
	}
	/* one list (a key's nodes stay in order), sorted into the bottom */
	for (i = 0; i < SQ_LADDER__TOPS; i++) {
		if (!top[i].ll_first)
			continue;
		*end = top[i].ll_first;
		end = &top[i].ll_last->ld_next;
	}
	*end = NULL;
	(void)sq_ladder__range(l, &min, &max);
	sq_ladder__to_bottom(q, l, min, max);
	return false;
}

/*
 * sq_ladder__refill - the bottom is empty and the queue is not: the refill
 * of the opening comment.  A bucket's nodes are cold, so it is walked
 * once: its first THRES + 1 nodes tell whether it is crowded, and a
 * crowded one is spread over its whole range by the pass that finds its
 * smallest and largest keys.
 */
SQ__SLOW void sq_ladder__refill(struct sq_ladder *q)
{
	struct sq_ladder__rung *g;
	struct sq_ladder__list one;
	uint64_t lo, hi, start, hi_off, min, max;
	unsigned r, i;
	long b;

	if (q->ld_pmap) {
		sq_ladder__pile_fill(q);	/* in use, the lowest tier */
		return;
	}
	for (;;) {
		SQ__STEP(1);
		if (!q->ld_nrungs) {
			if (sq_ladder__epoch(q))
				continue;
			return;
		}
		r = q->ld_nrungs - 1;
		g = &q->ld_rung[r];
		b = sq_ladder__rung_first(q, r);
		if (b < 0) {
			q->ld_nrungs = r;	/* used up */
			continue;
		}
		i = (unsigned)b - sq_ladder__base(r);
		one = q->ld_bk[b];
		/* the bucket's keys run from lo (its start, or cur inside
		 * it) up to lr_start + hi_off, and from now on they go below
		 * this rung */
		lo = g->lr_cur;
		sq__bits_clear(q->ld_map, &q->ld_summary, (unsigned)b);
		hi_off = ((uint64_t)i << g->lr_shift) +
			 (((uint64_t)1 << g->lr_shift) - 1);
		if (hi_off >= g->lr_span) {
			hi_off = g->lr_span;
			q->ld_nrungs = r;	/* its last bucket */
		} else {
			g->lr_cur = g->lr_start + hi_off + 1;
		}
		if (SQ__LIKELY(sq_ladder__span(one.ll_first, one.ll_last, &min,
					       &max) <= (SQ_LADDER_THRES))) {
			sq_ladder__to_bottom(q, one.ll_first, min, max);
			return;
		}
		start = g->lr_start + ((uint64_t)i << g->lr_shift);
		lo = lo > start ? lo : start;
		hi = g->lr_start + hi_off;
		if (sq_ladder__feed(q, r, (unsigned)b, lo))
			return;		/* a crowd of one key */
		if (q->ld_nrungs >= (SQ_LADDER_RUNGS)) {
			sq_ladder__pile_bucket(q, one.ll_first, lo);
			return;		/* every rung held */
		}
		/* spawn: a rung below, over the bucket's range */
		r = q->ld_nrungs;
		sq_ladder__spread(q, r, &one, 1, lo, hi - lo, &min, &max);
		if (min == max)		/* one key, in one bucket: fed */
			q->ld_rung[r].lr_cur = min;
	}
}

/* ---- dequeue ------------------------------------------------------------- */

/*
 * sq_ladder__remove - take queued @n off its list and mark it unqueued
 * (common.h: __remove); refill the bottom if that emptied it.  Returns
 * true if @n was the first node.
 */
SQ__INLINE bool sq_ladder__remove(struct sq_ladder *q, struct sq_ladder_node *n)
{
	struct sq_ladder__list *l = n->ld_home;
	bool was_first = n == q->ld_bottom.ll_first;

	sq_ladder__list_del(l, n);
	q->ld_count--;
	if (l == &q->ld_bottom) {
		q->ld_nbottom--;
		if (!l->ll_first) {
			if (q->ld_count)
				sq_ladder__refill(q);
			else
				q->ld_nrungs = 0;	/* all empty */
		}
	} else if (sq_ladder__in_top(q, l)) {
		q->ld_ntop--;
	} else if (!l->ll_first) {
		if (SQ__UNLIKELY(sq_ladder__is_run(q, l)))
			sq_ladder__run_clear(q, l);
		else
			sq__bits_clear(q->ld_map, &q->ld_summary,
				       (unsigned)(l - q->ld_bk));
	}
	sq_ladder__unlink(n);
	return was_first;
}

/* ---- the API: the verbs are documented once, in common.h ----------------- */

/* init: O(buckets / 64), clears the bitmap (bucket heads are valid only
 * where it says so, and are not touched) */
static inline void sq_ladder_init(struct sq_ladder *q)
{
	unsigned w;

	q->ld_bottom.ll_first = q->ld_bottom.ll_last = NULL;
	q->ld_count = 0;
	q->ld_nbottom = 0;
	q->ld_bins = 0;
	q->ld_nrungs = 0;
	q->ld_toplim = 0;
	for (w = 0; w < SQ_LADDER__TOPS; w++)
		q->ld_top[w].ll_first = q->ld_top[w].ll_last = NULL;
	q->ld_ntop = 0;
	q->ld_tmin = q->ld_tmax = 0;
	q->ld_pmap = q->ld_pcur = 0;
	q->ld_summary = 0;
	for (w = 0; w < SQ_LADDER__WORDS; w++) {
		SQ__STEP(1);
		q->ld_map[w] = 0;
	}
}

/* init_at and the clock verbs: no clock, exact (common.h) */
SQ__NO_CLOCK(ladder)

static inline void sq_ladder_node_init(struct sq_ladder_node *n)
{
	n->key = 0;
	n->ld_next = n->ld_prev = NULL;
	n->ld_home = NULL;
}

SQ__INLINE bool sq_ladder_queued(const struct sq_ladder_node *n)
{
	return n->ld_home != NULL;
}

static inline bool sq_ladder_empty(const struct sq_ladder *q)
{
	return q->ld_count == 0;
}

static inline size_t sq_ladder_count(const struct sq_ladder *q)
{
	return q->ld_count;
}

static inline struct sq_ladder_node *sq_ladder_first(const struct sq_ladder *q)
{
	return q->ld_bottom.ll_first;
}

static inline uint64_t sq_ladder_key(const struct sq_ladder_node *n)
{
	return n->key;
}

/* enqueue: O(1), a tail append or a short ordered insert */
static inline bool sq_ladder_enqueue(struct sq_ladder *q,
				     struct sq_ladder_node *n, uint64_t key)
{
	SQ__MISUSE(sq_ladder_queued(n), "sq_ladder_enqueue",
		   "node is already queued");
	n->key = key;
	return sq_ladder__insert(q, n);
}

/* dequeue: O(1), @n knows its list; O(1) amortised with a refill */
static inline bool sq_ladder_dequeue(struct sq_ladder *q,
				     struct sq_ladder_node *n)
{
	SQ__MISUSE(!sq_ladder_queued(n), "sq_ladder_dequeue",
		   "node is not queued");
	SQ__MISUSE(!sq_ladder__on(q, n), "sq_ladder_dequeue",
		   "node is on another queue");
	return sq_ladder__remove(q, n);
}

/* pop: O(1) amortised, the bottom's head, then a refill if it is empty */
SQ__INLINE struct sq_ladder_node *sq_ladder_pop(struct sq_ladder *q)
{
	struct sq_ladder_node *n = q->ld_bottom.ll_first, *x;

	if (!n)
		return NULL;
	x = n->ld_next;
	q->ld_bottom.ll_first = x;
	q->ld_count--;
	q->ld_nbottom--;
	if (x) {
		x->ld_prev = NULL;
	} else {
		q->ld_bottom.ll_last = NULL;
		if (q->ld_count)
			sq_ladder__refill(q);
		else
			q->ld_nrungs = 0;	/* all empty */
	}
	sq_ladder__unlink(n);
	return n;
}

static inline struct sq_ladder_node *sq_ladder_pop_due(struct sq_ladder *q,
						       uint64_t now)
{
	const struct sq_ladder_node *m = q->ld_bottom.ll_first;

	return m && m->key <= now ? sq_ladder_pop(q) : NULL;
}

SQ__EXPIRE(ladder)

/* requeue: O(1) amortised, a dequeue and an enqueue */
static inline bool sq_ladder_requeue(struct sq_ladder *q,
				     struct sq_ladder_node *n, uint64_t key)
{
	const struct sq_ladder_node *old = q->ld_bottom.ll_first;
	uint64_t old_key;

	if (!sq_ladder_queued(n))
		return sq_ladder_enqueue(q, n, key);
	SQ__MISUSE(!sq_ladder__on(q, n), "sq_ladder_requeue",
		   "node is on another queue");
	old_key = old->key;
	sq_ladder__remove(q, n);
	n->key = key;
	sq_ladder__insert(q, n);
	return q->ld_bottom.ll_first != old ||
	       q->ld_bottom.ll_first->key != old_key;
}

/* ---- fallback: a crowd of one key is fed, not moved ---------------------- */

/*
 * Needed by a crowd of one key, more than SQ_LADDER_THRES nodes, that
 * reaches the front.  Sorted into the bottom whole, every key enqueued in
 * front of it would walk it, and every spill carry it out and back; spread,
 * it would fill one bucket of each new rung.  So it stays in its bucket,
 * the rung's cur becomes its key, and each refill moves its first THRES
 * nodes into the bottom.  That is exact when the crowd's key is the
 * smallest its bucket may hold (all of the bucket is at least cur, so those
 * nodes are the smallest and the earliest of their key; a key equal to cur
 * enqueued later goes behind them): a width-1 bucket, a spawn that found
 * one key (its rung's cur set to it), an epoch of one key.
 */

/*
 * sq_ladder__feed - bucket @b of rung @r, just detached by the refill (its
 * bit clear, head and tail in place), is crowded, no key below @lo, the
 * smallest it may hold.  If its first THRES + 1 nodes are of key @lo, the
 * bottom (empty) takes the first THRES, rung @r is the lowest again with
 * cur @lo, and it returns true: O(THRES) per THRES pops.  Else it changes
 * nothing and returns false.
 */
SQ__SLOW bool sq_ladder__feed(struct sq_ladder *q, unsigned r, unsigned b,
			      uint64_t lo)
{
	struct sq_ladder_node *l = q->ld_bk[b].ll_first, *n, *p = l;
	size_t cnt;

	for (n = l, cnt = 0; cnt <= (SQ_LADDER_THRES) && n->key == lo;
	     n = n->ld_next, cnt++)
		SQ__STEP(1);
	if (cnt <= (SQ_LADDER_THRES))
		return false;
	/* fed from where it is, undetached */
	sq__bits_set(q->ld_map, &q->ld_summary, b);
	q->ld_nrungs = r + 1;
	for (n = l, cnt = 0; cnt < (SQ_LADDER_THRES); cnt++) {
		SQ__STEP(1);
		n->ld_home = &q->ld_bottom;
		p = n;
		n = n->ld_next;
	}
	p->ld_next = NULL;
	n->ld_prev = NULL;	/* not NULL: the bucket held more */
	q->ld_bk[b].ll_first = n;
	q->ld_bottom.ll_first = l;
	q->ld_bottom.ll_last = p;
	q->ld_nbottom = SQ_LADDER_THRES;
	q->ld_bins = 0;
	q->ld_rung[r].lr_cur = lo;
	return true;
}

/*
 * sq_ladder__unfeed - give the nodes fed to the bottom back to the head of
 * list @l they came from (NULL-headed when empty), so that a spill can cut
 * the bottom: they are its tail, at most SQ_LADDER_THRES nodes of key @key,
 * older than every node of that key on @l: the bucket at the lowest rung's
 * cur, or the pile's oldest run, whose head holds its smallest key, @key.
 */
SQ__SLOW void sq_ladder__unfeed(struct sq_ladder *q, struct sq_ladder__list *l,
				uint64_t key)
{
	struct sq_ladder_node *t = q->ld_bottom.ll_last, *h = t, *p;

	for (;;) {
		SQ__STEP(1);
		h->ld_home = l;
		q->ld_nbottom--;
		p = h->ld_prev;
		if (!p || p->key != key)
			break;
		h = p;
	}
	/* the bottom keeps more than THRES nodes: p is one of them */
	if (p)
		p->ld_next = NULL;
	q->ld_bottom.ll_last = p;
	h->ld_prev = NULL;
	if (l->ll_first) {
		t->ld_next = l->ll_first;
		l->ll_first->ld_prev = t;
	} else {
		l->ll_last = t;
	}
	l->ll_first = h;
}

/* ---- fallback: the spill, for keys below the lowest rung ----------------- */

/*
 * Needed by keys enqueued below the lowest rung, the present and the past
 * (a timer armed for now, a task woken near the minimum): they go into the
 * bottom, which grows, and each insert walks it.  A bottom longer than
 * SQ_LADDER__SPILL is cut, once per SQ_LADDER_THRES inserts: it keeps
 * about its first THRES nodes and the rest moves up, into the lowest
 * rung's used-up buckets when it reaches down that far (its cur becomes
 * the cut), else over a new lowest rung, if one is free, else into the
 * pile.  Equal keys stay together: the cut goes before the run of equal
 * keys that holds the THRES-th node, or, when that run starts at the head,
 * after it.
 *
 * A spill rung made below another spill rung reaches below its cut
 * 2^SQ_LADDER__REACH times the larger of the spilled keys' span and the
 * span of the rung above (or down to key 0), so that later spills, of keys
 * further in the past, go into it and do not each take a rung (keys
 * descending block by block would use them all up, and send every later
 * spill to the pile).  A first spill rung spans the spilled keys only.
 *
 * A spill is paid for by the inserts into the bottom (ld_bins, the
 * budget): the bottom never holds more than 4 nodes a budgeted insert plus
 * SQ_LADDER__SPILL (invariant 10), since a fill leaves at most THRES and
 * takes the budget back, and a spill of m nodes spends m / 4 of it, in
 * whole multiples of THRES so that it keeps its phase (a spill is tried
 * once per THRES inserts).  So every spill is paid for, even one of a
 * crowd the last spill kept at the head (what it did not move, it did not
 * spend).  A crowd fed to the bottom is handed back before the cut
 * (sq_ladder__unfeed()), never moved whole.
 */

/*
 * sq_ladder__cut - cut the bottom for a spill, its fed nodes handed back:
 * returns the first node cut off, the head of a NULL-terminated list of
 * *@moved nodes (the bottom's tail its tail), the budget spent; or NULL,
 * changing nothing, when the bottom is one key (every insert is O(1)).
 */
SQ__INLINE struct sq_ladder_node *sq_ladder__cut(struct sq_ladder *q,
						 size_t *moved)
{
	struct sq_ladder_node *h, *p, *run, *s;
	size_t kept = 1, before = 0;

	h = p = run = q->ld_bottom.ll_first;
	for (; kept < (SQ_LADDER_THRES) && p->ld_next; kept++) {
		SQ__STEP(1);
		p = p->ld_next;
		if (p->key != run->key) {
			run = p;
			before = kept;
		}
	}
	if (run != h) {
		s = run;	/* cut before the run */
		p = run->ld_prev;
		kept = before;
	} else {
		/* after the head's run, found from the tail */
		kept = q->ld_nbottom;
		for (s = NULL, p = q->ld_bottom.ll_last; p->key != h->key;
		     s = p, p = p->ld_prev) {
			SQ__STEP(1);
			kept--;
		}
		if (!s)
			return NULL;
	}
	p->ld_next = NULL;
	q->ld_bottom.ll_last = p;
	*moved = q->ld_nbottom - kept;
	q->ld_nbottom = kept;
	q->ld_bins -= *moved / (4 * (size_t)(SQ_LADDER_THRES)) *
		      (SQ_LADDER_THRES);
	return s;
}

/* The pile's entries from the spill (its section follows). */
SQ__SLOW void sq_ladder__pile_spill(struct sq_ladder *q);
SQ__INLINE void sq_ladder__pile_start(struct sq_ladder *q,
				      struct sq_ladder_node *l, size_t m,
				      uint64_t cut);

/*
 * sq_ladder__spill - cut the bottom and move its tail up (above); O(1)
 * amortised an insert, but into the pile: O(log n).
 */
SQ__SLOW void sq_ladder__spill(struct sq_ladder *q)
{
	unsigned r = q->ld_nrungs, sh, bits;
	struct sq_ladder__rung *g = r ? &q->ld_rung[r - 1] : NULL;
	struct sq_ladder_node *p, *s, *t;
	struct sq_ladder__list one;
	size_t moved;
	uint64_t hi, lo, cut;

	if (q->ld_pmap) {
		sq_ladder__pile_spill(q);	/* in use, the lowest tier */
		return;
	}
	if (g && q->ld_bottom.ll_last->key == g->lr_cur)
		sq_ladder__unfeed(q, sq_ladder__bucket_open(q,
			sq_ladder__base(r - 1) + (unsigned)((g->lr_cur -
			g->lr_start) >> g->lr_shift)), g->lr_cur);
	t = q->ld_bottom.ll_last;
	s = sq_ladder__cut(q, &moved);
	if (!s)
		return;
	cut = s->key;
	if (g && cut >= g->lr_start) {
		/* the lowest rung reaches down to the cut: into its
		 * used-up buckets, in list order */
		unsigned base = sq_ladder__base(r - 1);

		for (p = s; p; p = t) {
			SQ__STEP(1);
			t = p->ld_next;
			sq_ladder__list_add(sq_ladder__bucket_open(q, base +
				(unsigned)((p->key - g->lr_start) >>
				g->lr_shift)), p);
		}
		g->lr_cur = cut;
		return;
	}
	if (r >= (SQ_LADDER_RUNGS)) {
		sq_ladder__pile_start(q, s, moved, cut);
		return;		/* no rung free */
	}
	hi = g ? g->lr_cur - 1 : q->ld_toplim;
	lo = cut;
	if (g && g->lr_spill) {
		/* spills descend: reach below the cut */
		bits = sq_ladder__bits(r);
		lo = g->lr_span > hi - cut ? g->lr_span : hi - cut;
		sh = sq_ladder__shift(lo, bits) + SQ_LADDER__REACH + bits;
		lo = sh < 64 && hi >= ((uint64_t)1 << sh) - 1 ?
			     hi - (((uint64_t)1 << sh) - 1) : 0;
	}
	one.ll_first = s;
	one.ll_last = t;
	sq_ladder__spread(q, r, &one, 1, lo, hi - lo, &hi, &hi);
	q->ld_rung[r].lr_cur = cut;
	q->ld_rung[r].lr_spill = 1;
}

/* ---- fallback: the pile, when every rung is held ------------------------- */

/*
 * Needed when every rung is held: by a crowd whose spawns take a rung at
 * every level, each kept alive by one key above it, or by spills of keys
 * that fall by ever larger jumps, each spill rung reaching below the last
 * but not far enough; and by a crowd of many keys when SQ_LADDER_RUNGS is
 * set below what the key bits need (the defaults' 10 + 9 * 6 bits cover
 * all 64).  There the paper merge-sorts a crowded bucket of the last rung
 * into the bottom, and a bottom that cannot spill grows: O(n) an insert.
 * Here what no rung can take goes to the pile, a tier between the lowest
 * rung and the bottom that needs no bucket: sorted runs, as in Bentley and
 * Saxe's logarithmic method.  Run r, of rank r, was made from at least 2^r
 * nodes, so r < 64; the higher the rank, the older the run (a run added
 * merges each run of lower rank), and among equal keys the older run's
 * nodes come first.
 *
 * The pile takes the keys from ld_pcur up to the lowest rung's cur, and
 * every spill while it is in use (ld_pcur moves down to the cut); it feeds
 * the bottom THRES nodes at a time, as a bucket feeds a crowd, and is gone
 * when it runs empty.  While it is in use (ld_pmap not 0) it is entered by
 * one call where its tier is met: an enqueue of a key it takes
 * (sq_ladder__pile_insert()), a dequeue that empties a run
 * (sq_ladder__run_clear()), a refill (sq_ladder__pile_fill()), a spill
 * (sq_ladder__pile_spill()); it is made by a crowded bucket with no rung
 * free (sq_ladder__pile_bucket()) or a spill with none
 * (sq_ladder__pile_start()).
 */

/* The rank of the pile's oldest run (the pile is in use). */
SQ__INLINE unsigned sq_ladder__oldest(const struct sq_ladder *q)
{
	return 63 - sq__clz64(q->ld_pmap);
}

/* Run @l, one of the pile's, is empty now. */
SQ__INLINE void sq_ladder__run_clear(struct sq_ladder *q,
				     const struct sq_ladder__list *l)
{
	q->ld_pmap &= ~((uint64_t)1 << (l - q->ld_run));
}

/*
 * sq_ladder__pile_add - add the sorted list @l (by ld_next, NULL-ended) of
 * @m nodes, younger than every node in the pile, in arrival order among
 * equal keys: rank floor(log2 @m), carried as a binary counter does, the
 * older run merged first.  A node's rank only grows, so it is merged at
 * most 64 times: O(log n) amortised a node.
 */
SQ__SLOW void sq_ladder__pile_add(struct sq_ladder *q, struct sq_ladder_node *l,
				  size_t m)
{
	unsigned r, rank = 63 - sq__clz64((uint64_t)m);

	for (r = 0; r <= rank; r++) {
		SQ__STEP(1);
		if (!(q->ld_pmap >> r & 1))
			continue;
		l = sq_ladder__merge(q->ld_run[r].ll_first, l);
		q->ld_pmap &= ~((uint64_t)1 << r);
		if (r == rank)
			rank++;		/* a carry */
	}
	(void)sq_ladder__link(&q->ld_run[rank], l);
	q->ld_pmap |= (uint64_t)1 << rank;
}

/* An enqueue of @n, whose key the pile takes (it is in use). */
SQ__INLINE void sq_ladder__pile_insert(struct sq_ladder *q,
				       struct sq_ladder_node *n)
{
	n->ld_next = NULL;
	sq_ladder__pile_add(q, n, 1);
}

/*
 * sq_ladder__pile_fill - the bottom is empty and the pile is not: move its
 * first SQ_LADDER_THRES nodes (or all) to the bottom, each the smallest run
 * head, the oldest run's among equal keys; O(runs) a node.  The pile then
 * takes the keys from the last one moved: its nodes of that key are fed.
 */
SQ__SLOW void sq_ladder__pile_fill(struct sq_ladder *q)
{
	struct sq_ladder_node *n;
	struct sq_ladder__list *l;
	uint64_t m;
	unsigned k, r;

	k = 0;
	do {	/* the pile is in use: one node at least; the bottom empty */
		r = sq_ladder__oldest(q);
		l = &q->ld_run[r];
		n = l->ll_first;
		for (m = q->ld_pmap & ~((uint64_t)1 << r); m;
		     m &= ~((uint64_t)1 << r)) {
			SQ__STEP(1);
			r = 63 - sq__clz64(m);
			if (q->ld_run[r].ll_first->key < n->key) {
				l = &q->ld_run[r];
				n = l->ll_first;
			}
		}
		sq_ladder__list_del(l, n);
		if (!l->ll_first)
			sq_ladder__run_clear(q, l);
		sq_ladder__list_add(&q->ld_bottom, n);
	} while (++k < (SQ_LADDER_THRES) && q->ld_pmap);
	q->ld_nbottom = k;
	q->ld_bins = 0;
	q->ld_pcur = n->key;
}

/* The pile takes the sorted list @l of @m nodes, its keys from @cut up. */
SQ__INLINE void sq_ladder__pile_start(struct sq_ladder *q,
				      struct sq_ladder_node *l, size_t m,
				      uint64_t cut)
{
	sq_ladder__pile_add(q, l, m);
	q->ld_pcur = cut;
}

/*
 * sq_ladder__pile_bucket - a crowded bucket, the list from @l of keys from
 * @lo up, and no rung free: it goes to the pile, sorted unless it is one
 * key (one walk, then), and the pile fills the bottom (empty).
 */
SQ__SLOW void sq_ladder__pile_bucket(struct sq_ladder *q,
				     struct sq_ladder_node *l, uint64_t lo)
{
	uint64_t min, max;
	size_t cnt = sq_ladder__range(l, &min, &max);

	sq_ladder__pile_start(q, min == max ? l : sq_ladder__sort(l), cnt, lo);
	sq_ladder__pile_fill(q);
}

/*
 * sq_ladder__pile_spill - a spill while the pile is in use: the fed nodes
 * go back to its oldest run, and the pile takes the cut, down to its key.
 */
SQ__SLOW void sq_ladder__pile_spill(struct sq_ladder *q)
{
	struct sq_ladder_node *s;
	size_t moved;

	if (q->ld_bottom.ll_last->key == q->ld_pcur)
		sq_ladder__unfeed(q, &q->ld_run[sq_ladder__oldest(q)],
				  q->ld_pcur);
	s = sq_ladder__cut(q, &moved);
	if (s)
		sq_ladder__pile_start(q, s, moved, s->key);
}

/* ---- visit, find, check: every tier -------------------------------------- */

/* sq_ladder__walk_list - @fn on each node of list @l until it returns
 * true; that node, or NULL.  @who: see sq_ladder__visit_until(). */
static inline struct sq_ladder_node *
sq_ladder__walk_list(const struct sq_ladder *q, const struct sq_ladder__list *l,
		     bool (*fn)(struct sq_ladder_node *, void *), void *arg,
		     const char *who)
{
	struct sq_ladder_node *n, *next;
	size_t count = q->ld_count;

	(void)count;	/* read only under SQ_DEBUG */
	for (n = l->ll_first; n; n = next) {
		SQ__STEP(1);
		bool stop;

		next = n->ld_next;
		stop = fn(n, arg);
		/* fn may change q through its own pointer to it */
		/* cppcheck-suppress knownConditionTrueFalse */
		SQ__MISUSE(q->ld_count != count, who, "fn changed the queue");
		if (stop)
			return n;
	}
	return NULL;
}

/*
 * sq_ladder__visit_until - the walk behind visit and visit_until
 * (SQ__VISIT): @fn(node, @arg) on each node, the bottom in order, the
 * pile's runs, the buckets, then the top, until it returns true; that
 * node, or NULL.  @who names the caller in SQ_DEBUG's message.
 */
static inline struct sq_ladder_node *
sq_ladder__visit_until(const struct sq_ladder *q,
		bool (*fn)(struct sq_ladder_node *, void *), void *arg,
		const char *who)
{
	struct sq_ladder_node *at = sq_ladder__walk_list(q, &q->ld_bottom, fn,
							 arg, who);
	unsigned w;
	uint64_t m;

	for (m = q->ld_pmap; m && !at; m &= m - 1) {
		SQ__STEP(1);
		at = sq_ladder__walk_list(q, &q->ld_run[sq__ctz64(m)], fn, arg,
					  who);
	}
	for (w = 0; w < SQ_LADDER__WORDS && !at; w++)
		for (m = q->ld_map[w]; m && !at; m &= m - 1) {
			SQ__STEP(1);
			at = sq_ladder__walk_list(
				q, &q->ld_bk[w * 64 + sq__ctz64(m)], fn, arg,
				who);
		}
	for (w = 0; w < SQ_LADDER__TOPS && !at; w++)
		at = sq_ladder__walk_list(q, &q->ld_top[w], fn, arg, who);
	return at;
}

/* visit and visit_until (SQ__VISIT): O(n + bitmap words), visit_until
 * O(k + bitmap words) for k calls of its fn */
SQ__VISIT(ladder)

/*
 * sq_ladder__find_in - find's walk of list @l, its nodes of @key in
 * arrival order: on the sorted bottom and runs, two fingers in from both
 * ends find the first, and the walk stops past them.
 */
static inline struct sq_ladder_node *
sq_ladder__find_in(const struct sq_ladder *q, const struct sq_ladder__list *l,
		   uint64_t key,
		   bool (*match)(const struct sq_ladder_node *, void *),
		   void *arg)
{
	bool sorted = l == &q->ld_bottom || sq_ladder__is_run(q, l);
	struct sq_ladder_node *n = l->ll_first, *a = n, *z = l->ll_last;
	size_t count = q->ld_count;

	(void)count;	/* read only under SQ_DEBUG */
	if (!n)
		return NULL;
	if (sorted) {
		/* a stays below @key, z at or above it */
		if (key < a->key || key > z->key)
			return NULL;
		for (;;) {
			SQ__STEP(1);
			if (a->key >= key) {
				n = a;
				break;
			}
			if (z->key < key) {
				n = z->ld_next;
				break;
			}
			a = a->ld_next;
			z = z->ld_prev;
		}
	}
	for (; n; n = n->ld_next) {
		SQ__STEP(1);
		if (n->key != key) {
			if (sorted)
				break;	/* past @key */
			continue;
		}
		if (!match || match(n, arg))
			return n;
		/* match may change q through its own pointer to it */
		/* cppcheck-suppress knownConditionTrueFalse */
		SQ__MISUSE(q->ld_count != count, "sq_ladder_find",
			   "match changed the queue");
	}
	return NULL;
}

/*
 * find: the routing of sq_ladder__insert() read through invariants 3, 5
 * and 7 names the one list that holds the nodes of @key, in arrival
 * order; but a crowd being fed (invariant 3) has its first nodes at the
 * bottom's tail, the rest in its bucket or the pile; and the pile's nodes
 * of @key may be on any of its runs, the older run's first.  O(rungs +
 * that list): a bucket's nodes (rung 0's hold about n / SQ_LADDER_BUCKETS
 * each), the whole top (unsorted), twice the bottom's distance from its
 * nearer end, or that in each run (at most 64).
 */
static inline struct sq_ladder_node *
sq_ladder_find(const struct sq_ladder *q, uint64_t key,
	       bool (*match)(const struct sq_ladder_node *, void *), void *arg)
{
	const struct sq_ladder__rung *g;
	struct sq_ladder_node *n;
	unsigned r, b;
	uint64_t m;

	if (!q->ld_count)
		return NULL;
	if (key > q->ld_toplim)
		return q->ld_ntop && key >= q->ld_tmin && key <= q->ld_tmax ?
		       sq_ladder__find_in(q, &q->ld_top[sq_ladder__top_of(key)],
					  key, match, arg) :
		       NULL;
	for (r = 0, g = q->ld_rung; r < q->ld_nrungs; r++, g++) {
		SQ__STEP(1);
		if (key < g->lr_cur)
			continue;
		if (r + 1 == q->ld_nrungs && key == g->lr_cur) {
			n = sq_ladder__find_in(q, &q->ld_bottom, key, match,
					       arg);
			if (n)
				return n;	/* fed: before the bucket's */
		}
		b = sq_ladder__base(r) +
		    (unsigned)((key - g->lr_start) >> g->lr_shift);
		/* a bucket's head is valid only where its bit is */
		return q->ld_map[b >> 6] >> (b & 63) & 1 ?
		       sq_ladder__find_in(q, &q->ld_bk[b], key, match, arg) :
		       NULL;
	}
	if (!q->ld_pmap || key < q->ld_pcur)
		return sq_ladder__find_in(q, &q->ld_bottom, key, match, arg);
	n = key == q->ld_pcur ?		/* fed: before the pile's */
	    sq_ladder__find_in(q, &q->ld_bottom, key, match, arg) : NULL;
	for (m = q->ld_pmap; m && !n; m &= ~((uint64_t)1 << r)) {
		SQ__STEP(1);
		r = 63 - sq__clz64(m);	/* the oldest first */
		n = sq_ladder__find_in(q, &q->ld_run[r], key, match, arg);
	}
	return n;
}

/*
 * sq_ladder__check_list - invariant 1 for list @l: links both ways, home,
 * keys within [@lo, @hi] (in order if @sorted); at most @room nodes (so it
 * ends on a cycle).  Returns the number of nodes, or -1.
 */
static inline long sq_ladder__check_list(const struct sq_ladder__list *l,
					 uint64_t lo, uint64_t hi,
					 size_t room, bool sorted)
{
	const char *who = "sq_ladder_check";
	const struct sq_ladder_node *n, *p = NULL;
	long seen = 0;

	for (n = l->ll_first; n; p = n, n = n->ld_next) {
		SQ__STEP(1);
		SQ__CHECK((size_t)seen < room, who, n, "more nodes than count");
		SQ__CHECK(n->ld_home == l, who, n, "node's home is wrong");
		SQ__CHECK(n->ld_prev == p, who, n, "prev link wrong");
		SQ__CHECK(n->key >= lo && n->key <= hi, who, n,
			  "key outside its list's range");
		SQ__CHECK(!sorted || !p || p->key <= n->key, who, n,
			  "sorted list out of order");
		seen++;
	}
	SQ__CHECK(l->ll_last == p, who, p, "list tail wrong");
	return seen;
}

/* check: invariants 1-10 of this header; O(n + buckets), every walk
 * bounded by the count, so it ends on any queue */
static inline int sq_ladder_check(const struct sq_ladder *q)
{
	const char *who = "sq_ladder_check";
	const struct sq_ladder__rung *g;
	size_t room = q->ld_count;
	uint64_t hi, m, occ;
	const struct sq_ladder_node *n;
	unsigned r, w, i, base, nb;
	long got;
	bool fed;

	SQ__CHECK(q->ld_nrungs <= (SQ_LADDER_RUNGS), who, NULL,
		  "more rungs than SQ_LADDER_RUNGS");
	SQ__CHECK(!q->ld_bottom.ll_first == !q->ld_count, who,
		  q->ld_bottom.ll_first,
		  "bottom empty while the queue is not, or not empty "
		  "while the queue is");
	/* invariant 6, and the dead rungs' buckets empty */
	for (w = 0; w < SQ_LADDER__WORDS; w++)
		SQ__CHECK(!(q->ld_summary >> w & 1) == !q->ld_map[w], who, NULL,
			  "summary bit != bitmap word");
	SQ__CHECK(SQ_LADDER__WORDS == 64 ||
		  !(q->ld_summary >> SQ_LADDER__WORDS), who, NULL,
		  "summary bit past the bitmap");
	occ = 0;
	for (r = q->ld_nrungs; r < (SQ_LADDER_RUNGS); r++) {
		SQ__STEP(1);
		base = sq_ladder__base(r);
		nb = r ? (SQ_LADDER_SPLIT) : (SQ_LADDER_BUCKETS);
		for (i = 0; i < nb; i++)
			occ |= q->ld_map[(base + i) >> 6] >> ((base + i) & 63)
			       & 1;
	}
	SQ__CHECK(!occ, who, NULL, "bucket of an unused rung occupied");
	w = SQ_LADDER__NBK;
	SQ__CHECK(w % 64 == 0 || !(q->ld_map[w / 64] >> (w % 64)), who, NULL,
		  "bit past the last bucket");

	/* the top: invariant 7 */
	SQ__CHECK(!q->ld_ntop || (q->ld_tmin > q->ld_toplim &&
				  q->ld_tmin <= q->ld_tmax),
		  who, NULL, "top bounds wrong");
	for (i = 0, got = 0; i < SQ_LADDER__TOPS; i++) {
		long c = sq_ladder__check_list(&q->ld_top[i], q->ld_tmin,
					       q->ld_tmax, room - (size_t)got,
					       false);

		if (c < 0)
			return -1;
		for (n = q->ld_top[i].ll_first; n; n = n->ld_next) {
			SQ__STEP(1);
			SQ__CHECK(sq_ladder__top_of(n->key) == i, who, n,
				  "top node on another key's list");
		}
		got += c;
	}
	SQ__CHECK((size_t)got == q->ld_ntop, who, q->ld_top[0].ll_first,
		  "top count wrong");
	room -= (size_t)got;

	/* the rungs: invariants 4 and 5 */
	hi = q->ld_toplim;
	for (r = 0; r < q->ld_nrungs; r++) {
		SQ__STEP(1);
		g = &q->ld_rung[r];
		base = sq_ladder__base(r);
		nb = r ? (SQ_LADDER_SPLIT) : (SQ_LADDER_BUCKETS);
		SQ__CHECK(g->lr_shift < 64 && (g->lr_span >> g->lr_shift) < nb,
			  who, NULL, "rung wider than its buckets");
		SQ__CHECK(g->lr_start <= g->lr_cur &&
			  g->lr_cur - g->lr_start <= g->lr_span, who, NULL,
			  "rung cur outside the rung");
		SQ__CHECK(g->lr_start + g->lr_span == hi, who, NULL,
			  "rung does not end where the one above starts");
		for (i = 0; i < nb; i++) {
			SQ__STEP(1);
			const struct sq_ladder__list *l = &q->ld_bk[base + i];

			m = q->ld_map[(base + i) >> 6] >> ((base + i) & 63) & 1;
			if (!m)
				continue;
			SQ__CHECK(l->ll_first, who, NULL,
				  "bucket bit set, bucket empty");
			SQ__CHECK((g->lr_cur - g->lr_start) >> g->lr_shift <= i,
				  who, l->ll_first, "bucket below rung cur");
			got = sq_ladder__check_list(l, g->lr_cur, hi, room,
						    false);
			if (got < 0)
				return -1;
			for (n = l->ll_first; n; n = n->ld_next) {
				SQ__STEP(1);
				SQ__CHECK((n->key - g->lr_start) >>
					  g->lr_shift == i, who, n,
					  "node in the wrong bucket");
			}
			room -= (size_t)got;
		}
		hi = g->lr_cur - 1;
	}

	/* the pile: invariant 9; then it is the lowest tier, fed from */
	fed = q->ld_nrungs != 0;
	if (q->ld_pmap) {
		for (m = q->ld_pmap; m; m &= m - 1) {
			SQ__STEP(1);
			r = sq__ctz64(m);
			SQ__CHECK(q->ld_run[r].ll_first, who, NULL,
				  "run bit set, run empty");
			got = sq_ladder__check_list(&q->ld_run[r], q->ld_pcur,
						    hi, room, true);
			if (got < 0)
				return -1;
			room -= (size_t)got;
		}
		hi = q->ld_pcur - 1;	/* at least one run: pcur <= hi */
		fed = true;
	}

	/* the bottom: invariants 2 and 3 (hi + 1: the cur of the tier
	 * above, fed from) */
	got = sq_ladder__check_list(&q->ld_bottom, 0, fed ? hi + 1 : hi, room,
				    true);
	if (got < 0)
		return -1;
	for (n = q->ld_bottom.ll_last, i = 0;
	     fed && n && n->key == hi + 1; n = n->ld_prev) {
		SQ__STEP(1);
		SQ__CHECK(++i <= (SQ_LADDER_THRES), who, n,
			  "more than THRES fed nodes in the bottom");
	}
	SQ__CHECK((size_t)got == q->ld_nbottom, who, q->ld_bottom.ll_first,
		  "bottom count wrong");
	SQ__CHECK(q->ld_nbottom <= 4 * q->ld_bins + SQ_LADDER__SPILL, who,
		  q->ld_bottom.ll_first, "bottom larger than its spill budget");
	SQ__CHECK((size_t)got == room, who, q->ld_bottom.ll_first,
		  "node total != count");
	return 0;
}

#endif /* SMARTQ_LADDER_H */
