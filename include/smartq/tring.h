/* SPDX-License-Identifier: MIT */
/*
 * smartq/tring.h - time ring priority queue, exact to its granularity
 *                  (KIND = tring)
 *
 * Davide Libenzi's time ring (LKML, April 2007): Ns slots of FIFO lists,
 * one per tick of Tg key units, and an occupancy bitmap so the first
 * non-empty slot is found with find-first-set instead of a slot scan.
 * The seed folded every key past the horizon into the last slot (it came
 * out early) and let a key below the base wrap around; this ring keeps the
 * seed's speed and fixes both with two side places:
 *
 *               cur = the ring's current tick (time = cur * Tg)
 *                |
 *   late list    v   the window: Ns slots, ticks [cur, cur + Ns)   overflow
 *   tick < cur  [ ][#][ ][#][#][ ] ... [ ][#]                     tick >= cur + Ns
 *   FIFO         slot = tick mod Ns, each a FIFO list              sq_rb tree by key
 *                bitmap  0  1  0  1  1  0 ...  0  1               (FIFO on ties)
 *                summary: bit w set iff bitmap word w is not 0
 *
 * A key's tick is key >> gran_shift (Tg = 1 << gran_shift).  Where a node
 * goes is decided by its tick against cur when it is (re)queued: below cur
 * it is "late" (an expired timer: it fires at once), inside the window it
 * joins its slot, past the horizon it waits in the overflow tree.  Time
 * moves only in pop(), only forward, to the tick of the node popped; the
 * overflow nodes the window then reaches move into their slots, each node
 * at most once.  Every compare is written as (tick - cur < Ns) with
 * tick >= cur, so nothing overflows near UINT64_MAX.
 *
 * Invariants, kept by every operation and verified by sq_tring_check():
 *
 *   (1) every late node has tick < cur; the late list is in (re)queue order;
 *   (2) every slot node has cur <= tick < cur + Ns and sits in slot
 *       tick mod Ns, so a slot holds one tick and the slots, read in wrap
 *       order from slot cur mod Ns, are in tick order; each slot list is in
 *       arrival order (a (re)queue appends; migrants arrive in key order);
 *   (3) every overflow node has tick >= cur + Ns; the overflow is ordered
 *       by key, equal keys in (re)queue order;
 *   (4) bitmap bit s is set iff slot s is not empty; summary bit w is set
 *       iff bitmap word w is not 0;
 *   (5) the cached first is the late list's head if there is one, else the
 *       head of the first non-empty slot in wrap order from cur mod Ns,
 *       else the overflow's first, else NULL; when there is one, the
 *       cached first tick is its tick (so enqueue compares against it
 *       without reading the first node, a cache miss at large n);
 *   (6) the count is the number of queued nodes, and each node's tag
 *       (the first word of its link) says where it is, as its tick says:
 *       SQ_TRING__LATE on the late list, SQ_TRING__SLOT in a slot, a tree
 *       parent word (bit 1 clear, not 0) in the overflow.
 *
 * Guarantee.  first()/pop() answer the earliest (re)queued late node if
 * there is one, else a node whose key is below the smallest queued key
 * plus Tg.  With Tg = 1 and no late keys the ring is exact and stable: it
 * returns nodes in the same order as the trees.
 *
 *   operation   cost
 *   enqueue     O(1) late or inside the window; O(log m) past the horizon
 *   first       O(1): the cached first, nothing else is read
 *   pop         O(1) + O(log m) per overflow node the window reaches
 *   dequeue     O(1) on a list; O(log m) in the overflow
 *   requeue     O(1) in place (same slot and already its tail), else
 *               dequeue + enqueue
 *   check       O(Ns + n)
 *
 * (m = nodes in the overflow.)  Finding the next first after the first
 * node leaves reads at most three bitmap words: the current one, the
 * summary and the word the summary points at.
 *
 * Configuration: SQ_TRING_SLOTS, the slot count Ns, is a power of two from
 * 64 to 4096, default 1024; define it before the first include of smartq.h
 * or smartq/tring.h, and identically in every translation unit that shares
 * a struct sq_tring.  The slots live inside struct sq_tring (8 KiB of slot
 * heads plus Ns / 8 bytes of bitmap at the default on LP64: 8400 bytes in
 * all; 600 at Ns = 64, 33360 at 4096); nothing here allocates.
 *
 * Layout.  A node is 32 bytes on LP64, as small as the seed's: the key,
 * then one union of three words, the list arm (tag, next, prev) or the
 * overflow tree's link (rbtree.h's struct sq_rb__link, which reads the
 * same key).  The tag word is shared with the tree's parent word, so where
 * a node is (unqueued, slot, late, overflow) is one load: see the tags
 * below.
 */
#ifndef SMARTQ_TRING_H
#define SMARTQ_TRING_H

#include "common.h"
#include "rbtree.h"

#ifndef SQ_TRING_SLOTS
#define SQ_TRING_SLOTS 1024
#endif
#if (SQ_TRING_SLOTS) < 64 || (SQ_TRING_SLOTS) > 4096 || \
	((SQ_TRING_SLOTS) & ((SQ_TRING_SLOTS) - 1)) != 0
#error "smartq/tring.h: SQ_TRING_SLOTS must be a power of two from 64 to 4096"
#endif

#define SQ_TRING__NS    ((uint64_t)(SQ_TRING_SLOTS))
#define SQ_TRING__MASK  (SQ_TRING__NS - 1)
#define SQ_TRING__WORDS ((SQ_TRING_SLOTS) / 64)
#define SQ_TRING__NONE  ((unsigned)(SQ_TRING_SLOTS))	/* no slot */

/* The overflow paths stay out of line (SQ__SLOW), so the O(1) paths are small enough
 * to inline into the caller's loop. */

/*
 * The tag: a node's first word says where it is, in one load.  It is the
 * list arm's tr_tag and the overflow link's rb_parent_color, one word: the
 * two arms of the union begin with it (a uintptr_t in both, a common
 * initial sequence, so reading it through either arm is defined C and
 * C++).  In the overflow the tree owns the word: a link address (aligned
 * to 4 or more, checked below) with the colour in bit 0, so its bit 1 is
 * always clear.  The tags for the other places have bit 1 set, or are 0,
 * which the tree never stores (a red node has a parent, a black one has
 * bit 0 set):
 */
#define SQ_TRING__UNQUEUED ((uintptr_t)0)	/* on no queue */
#define SQ_TRING__SLOT     ((uintptr_t)2)	/* on a slot's list */
#define SQ_TRING__LATE     ((uintptr_t)6)	/* on the late list */
#define SQ_TRING__LISTBIT  ((uintptr_t)2)	/* set for both lists */
/* not a tag: what sq_tring__where() answers for an overflow node */
#define SQ_TRING__OVER     ((uintptr_t)1)

struct sq_tring_node;

/* The list arm: the tag, then the links of a circular doubly linked list
 * (the head's tr_prev is the tail). */
struct sq_tring__list {
	uintptr_t tr_tag;
	struct sq_tring_node *tr_next, *tr_prev;
};

/**
 * struct sq_tring_node - the link a user embeds in its own struct
 * @key:  the key the node is queued with; read it freely, change it
 *        only through sq_tring_requeue().  The overflow tree reads it too
 *        (it sits where rbtree.h's layout rule says a link's key is), so
 *        there is one copy.
 * @tr_u: the list arm (tag, list links: late list or a slot) or the
 *        overflow tree's link (rbtree.h's: parent word, two children);
 *        the first word is the tag either way
 */
struct sq_tring_node {
	uint64_t key;
	union {
		struct sq_tring__list tr_list;
		struct sq_rb__link tr_over;
	} tr_u;
};

/* The layout rule of rbtree.h (a link's key SQ_RB__KEY_AT bytes from it,
 * as in struct sq_rb_node), and bit 1 of a link address always 0 (the
 * tags need it). */
typedef char sq_tring__key_is_where_the_tree_reads_it
	[(ptrdiff_t)offsetof(struct sq_tring_node, key) -
	 (ptrdiff_t)offsetof(struct sq_tring_node, tr_u) == SQ_RB__KEY_AT ?
	 1 : -1];
struct sq_tring__align_probe {
	char c;
	struct sq_tring_node n;
};
typedef char sq_tring__node_alignment_is_at_least_4
	[offsetof(struct sq_tring__align_probe, n) >= 4 ? 1 : -1];

/**
 * struct sq_tring - the queue
 * @tr_first:   the first node, NULL when empty (invariant 5)
 * @tr_ftick:   the tick of @tr_first (invariant 5), when it is not NULL
 * @tr_cur:     the current tick; the ring's time is tr_cur << tr_shift
 * @tr_shift:   log2 of the granularity Tg
 * @tr_count:   number of queued nodes
 * @tr_late:    head of the late list, NULL when empty
 * @tr_summary: bit w set iff tr_map[w] is not 0
 * @tr_over:    the overflow: nodes past the horizon, by key
 * @tr_map:     bit s set iff tr_slot[s] is not empty
 * @tr_slot:    slot list heads, NULL when empty
 */
struct sq_tring {
	struct sq_tring_node *tr_first;
	uint64_t tr_ftick;
	uint64_t tr_cur;
	unsigned tr_shift;
	size_t tr_count;
	struct sq_tring_node *tr_late;
	uint64_t tr_summary;
	struct sq_rb tr_over;
	uint64_t tr_map[SQ_TRING__WORDS];
	struct sq_tring_node *tr_slot[SQ_TRING_SLOTS];
};

/* ---- small helpers (no key compares) ------------------------------------ */

/* The ring node that holds overflow link @r (the union is at offset of
 * tr_u, and tr_over starts it).  Non-const, like strchr. */
SQ__INLINE struct sq_tring_node *sq_tring__of_over(const struct sq_rb__link *r)
{
	return sq_entry(r, struct sq_tring_node, tr_u);
}

SQ__INLINE uintptr_t sq_tring__tag(const struct sq_tring_node *n)
{
	return n->tr_u.tr_list.tr_tag;
}

/* Where a node is: SQ_TRING__UNQUEUED, __SLOT, __LATE or __OVER. */
SQ__INLINE uintptr_t sq_tring__where(const struct sq_tring_node *n)
{
	uintptr_t w = sq_tring__tag(n);

	if (w & SQ_TRING__LISTBIT)
		return w;
	return w != SQ_TRING__UNQUEUED ? SQ_TRING__OVER : SQ_TRING__UNQUEUED;
}

SQ__INLINE unsigned sq_tring__slot_of(uint64_t tick)
{
	return (unsigned)(tick & SQ_TRING__MASK);
}

/* Append @n at the tail of the list at @head; true if it was empty. */
SQ__INLINE bool sq_tring__append(struct sq_tring_node **head,
				 struct sq_tring_node *n)
{
	struct sq_tring_node *h = *head, *t;

	if (!h) {
		n->tr_u.tr_list.tr_next = n;
		n->tr_u.tr_list.tr_prev = n;
		*head = n;
		return true;
	}
	t = h->tr_u.tr_list.tr_prev;
	n->tr_u.tr_list.tr_next = h;
	n->tr_u.tr_list.tr_prev = t;
	t->tr_u.tr_list.tr_next = n;
	h->tr_u.tr_list.tr_prev = n;
	return false;
}

/* Take @n out of the list at @head; true if the list is now empty. */
SQ__INLINE bool sq_tring__unlink(struct sq_tring_node **head,
				 struct sq_tring_node *n)
{
	struct sq_tring_node *nx = n->tr_u.tr_list.tr_next, *pv;

	if (nx == n) {
		*head = NULL;
		return true;
	}
	pv = n->tr_u.tr_list.tr_prev;
	pv->tr_u.tr_list.tr_next = nx;
	nx->tr_u.tr_list.tr_prev = pv;
	if (*head == n)
		*head = nx;
	return false;
}

SQ__INLINE void sq_tring__mark(struct sq_tring *q, unsigned s)
{
	q->tr_map[s >> 6] |= (uint64_t)1 << (s & 63);
	q->tr_summary |= (uint64_t)1 << (s >> 6);
}

SQ__INLINE void sq_tring__unmark(struct sq_tring *q, unsigned s)
{
	unsigned w = s >> 6;

	q->tr_map[w] &= ~((uint64_t)1 << (s & 63));
	if (!q->tr_map[w])
		q->tr_summary &= ~((uint64_t)1 << w);
}

/*
 * The first non-empty slot at or after slot @s in wrap order, or
 * SQ_TRING__NONE: the rest of @s's word, then the summary's next word,
 * then (wrapping) the summary's lowest word, whose lowest bit is the
 * answer because the bits from @s on in @s's own word are known empty.
 */
SQ__INLINE unsigned sq_tring__scan(const struct sq_tring *q, unsigned s)
{
	unsigned w = s >> 6;
	uint64_t m = q->tr_map[w] & (~(uint64_t)0 << (s & 63));

	if (m)
		return (w << 6) | sq__ctz64(m);
	m = q->tr_summary & ((~(uint64_t)0 << w) << 1);
	if (!m) {
		m = q->tr_summary;
		if (!m)
			return SQ_TRING__NONE;
	}
	w = sq__ctz64(m);
	return (w << 6) | sq__ctz64(q->tr_map[w]);
}

/* Cache @n (NULL when empty) as the first node, and its tick. */
SQ__INLINE void sq_tring__set_first(struct sq_tring *q, struct sq_tring_node *n)
{
	q->tr_first = n;
	if (n)
		q->tr_ftick = n->key >> q->tr_shift;
}

/*
 * Cache the first node when the late list is empty: the head of the first
 * slot at or after @s in wrap order (@s must be cur's slot or a slot no
 * earlier in tick order than the first non-empty one), else the
 * overflow's first, else NULL.  A slot's tick follows from its index
 * (invariant 2), so the new first node is not read: at large n it is a
 * cache miss, and the next enqueue's "now first" compare would wait for it.
 */
SQ__INLINE void sq_tring__refirst(struct sq_tring *q, unsigned s)
{
	const struct sq_rb__link *r;

	s = sq_tring__scan(q, s);
	if (SQ__LIKELY(s != SQ_TRING__NONE)) {
		q->tr_first = q->tr_slot[s];
		q->tr_ftick = q->tr_cur + ((s - q->tr_cur) & SQ_TRING__MASK);
		return;
	}
	r = q->tr_over.rb_leftmost;
	sq_tring__set_first(q, r ? sq_tring__of_over(r) : NULL);
}

/* Cache the first node after the late list changed. */
SQ__INLINE void sq_tring__refirst_late(struct sq_tring *q)
{
	if (q->tr_late)
		sq_tring__set_first(q, q->tr_late);
	else
		sq_tring__refirst(q, sq_tring__slot_of(q->tr_cur));
}

/* Move the overflow nodes the window now reaches into their slots, in key
 * order (FIFO on ties); the slots they go to are empty (invariant 2). */
SQ__SLOW void sq_tring__migrate(struct sq_tring *q)
{
	struct sq_rb__link *r;

	while ((r = q->tr_over.rb_leftmost) != NULL) {
		struct sq_tring_node *n = sq_tring__of_over(r);
		uint64_t t = n->key >> q->tr_shift;
		unsigned s;

		if (t - q->tr_cur >= SQ_TRING__NS)	/* t >= cur: (3) */
			break;
		sq_rb__pop(&q->tr_over);
		n->tr_u.tr_list.tr_tag = SQ_TRING__SLOT;
		s = sq_tring__slot_of(t);
		if (sq_tring__append(&q->tr_slot[s], n))
			sq_tring__mark(q, s);
	}
}

/* Mark @n, which just left its place, unqueued; under SQ_DEBUG poison
 * its links (the list words, which are the tree's child words too). */
SQ__INLINE void sq_tring__unqueue(struct sq_tring_node *n)
{
	n->tr_u.tr_list.tr_tag = SQ_TRING__UNQUEUED;
#ifdef SQ_DEBUG
	n->tr_u.tr_list.tr_next = (struct sq_tring_node *)SQ__POISON(3);
	n->tr_u.tr_list.tr_prev = (struct sq_tring_node *)SQ__POISON(4);
#endif
}

/* enqueue past the horizon; @n->key is set */
SQ__SLOW bool sq_tring__insert_over(struct sq_tring *q,
					  struct sq_tring_node *n)
{
	const struct sq_tring_node *f = q->tr_first;

	/* the tree writes all three link words, the tag among them */
	if (sq_rb__insert(&q->tr_over, &n->tr_u.tr_over, n->key) &&
	    (!f || !(sq_tring__tag(f) & SQ_TRING__LISTBIT))) {
		sq_tring__set_first(q, n);	/* nothing late, slots empty */
		return true;
	}
	return false;
}

/* dequeue from the overflow; time does not move */
SQ__SLOW void sq_tring__remove_over(struct sq_tring *q,
					  struct sq_tring_node *n)
{
	sq_rb__remove(&q->tr_over, &n->tr_u.tr_over);
	if (q->tr_first == n)	/* then nothing else is queued */
		sq_tring__refirst(q, sq_tring__slot_of(q->tr_cur));
	sq_tring__unqueue(n);
}

/* pop @x, the first node, from the overflow: nothing else is queued */
SQ__SLOW void sq_tring__pop_over(struct sq_tring *q,
				       struct sq_tring_node *x)
{
	sq_rb__pop(&q->tr_over);
	q->tr_cur = x->key >> q->tr_shift;
	sq_tring__migrate(q);
	sq_tring__refirst(q, sq_tring__slot_of(q->tr_cur));
	sq_tring__unqueue(x);
}

/* enqueue without the misuse check */
SQ__INLINE bool sq_tring__insert(struct sq_tring *q, struct sq_tring_node *n,
				 uint64_t key)
{
	struct sq_tring_node *f = q->tr_first;
	uint64_t t = key >> q->tr_shift;
	bool is_first;

	n->key = key;
	q->tr_count++;
	if (SQ__LIKELY(t >= q->tr_cur && t - q->tr_cur < SQ_TRING__NS)) {
		unsigned s = sq_tring__slot_of(t);

		n->tr_u.tr_list.tr_tag = SQ_TRING__SLOT;
		if (sq_tring__append(&q->tr_slot[s], n))
			sq_tring__mark(q, s);
		/* A late first has a smaller tick, an overflow first a larger
		 * one, a slot first the smallest slot tick: one compare, and
		 * a select rather than a branch (it is a coin toss at small N). */
		if (SQ__UNLIKELY(!f)) {
			q->tr_first = n;
			q->tr_ftick = t;
			return true;
		}
		is_first = t < q->tr_ftick;
		q->tr_first = is_first ? n : f;
		q->tr_ftick = is_first ? t : q->tr_ftick;
		return is_first;
	}
	if (t < q->tr_cur) {
		n->tr_u.tr_list.tr_tag = SQ_TRING__LATE;
		if (sq_tring__append(&q->tr_late, n)) {
			q->tr_first = n;
			q->tr_ftick = t;
			return true;
		}
		return false;
	}
	return sq_tring__insert_over(q, n);
}

/* dequeue without the misuse check; time does not move */
SQ__INLINE void sq_tring__remove(struct sq_tring *q, struct sq_tring_node *n)
{
	uintptr_t w = sq_tring__tag(n);

	q->tr_count--;
	if (SQ__LIKELY(w == SQ_TRING__SLOT)) {
		unsigned s = sq_tring__slot_of(n->key >> q->tr_shift);

		if (sq_tring__unlink(&q->tr_slot[s], n))
			sq_tring__unmark(q, s);
		if (q->tr_first == n) {
			if (q->tr_slot[s])	/* same tick */
				q->tr_first = q->tr_slot[s];
			else
				sq_tring__refirst(q, s);
		}
	} else if (w == SQ_TRING__LATE) {
		sq_tring__unlink(&q->tr_late, n);
		if (q->tr_first == n)
			sq_tring__refirst_late(q);
	} else {
		sq_tring__remove_over(q, n);
		return;
	}
	sq_tring__unqueue(n);
}

/* ---- public API --------------------------------------------------------- */

/**
 * sq_tring_init_geom - make an empty ring with a granularity and start time
 * @q:          the queue
 * @gran_shift: log2 of the granularity Tg, 0..63
 * @base_time:  the ring's time; it starts at @base_time rounded down to a
 *              multiple of Tg, and keys below that are late
 * Return: true; false when @gran_shift is above 63, and then @q is left
 *         untouched (a geometry is refused, never changed).
 * Complexity: O(Ns): the slot heads are cleared.
 * Context: the caller serialises.
 */
static inline bool sq_tring_init_geom(struct sq_tring *q, unsigned gran_shift,
				      uint64_t base_time)
{
	unsigned i;

	if (gran_shift > 63)
		return false;
	q->tr_first = NULL;
	q->tr_ftick = 0;
	q->tr_shift = gran_shift;
	q->tr_cur = base_time >> q->tr_shift;
	q->tr_count = 0;
	q->tr_late = NULL;
	q->tr_summary = 0;
	sq_rb_init(&q->tr_over);
	for (i = 0; i < SQ_TRING__WORDS; i++)
		q->tr_map[i] = 0;
	for (i = 0; i < SQ_TRING_SLOTS; i++)
		q->tr_slot[i] = NULL;
	return true;
}

/**
 * sq_tring_init - make an empty ring: granularity 1, time 0
 * @q: the queue
 * Return: nothing.
 * Complexity: O(Ns).
 * Context: the caller serialises.
 */
static inline void sq_tring_init(struct sq_tring *q)
{
	(void)sq_tring_init_geom(q, 0, 0);
}

/**
 * sq_tring_init_at - make an empty ring whose time starts at @now
 * @q:   the queue
 * @now: the caller's clock: keys below it are late
 * Return: nothing.
 * Complexity: O(Ns).
 * Context: the caller serialises.
 */
static inline void sq_tring_init_at(struct sq_tring *q, uint64_t now)
{
	(void)sq_tring_init_geom(q, 0, now);
}

/**
 * sq_tring_node_init - mark a node as not queued
 * @n: the node
 * Return: nothing.
 * Complexity: O(1).
 * Context: the caller serialises.
 */
static inline void sq_tring_node_init(struct sq_tring_node *n)
{
	n->tr_u.tr_list.tr_tag = SQ_TRING__UNQUEUED;
	n->tr_u.tr_list.tr_next = NULL;
	n->tr_u.tr_list.tr_prev = NULL;
	n->key = 0;
}

/**
 * sq_tring_queued - is a node on a queue now
 * @n: a node that went through sq_tring_node_init() at least once
 * Return: true between enqueue and dequeue/pop, false otherwise.
 * Complexity: O(1).
 * Context: the caller serialises.
 */
static inline bool sq_tring_queued(const struct sq_tring_node *n)
{
	return sq_tring__tag(n) != SQ_TRING__UNQUEUED;
}

/**
 * sq_tring_empty - is the queue empty
 * @q: the queue
 * Return: true if no node is queued.
 * Complexity: O(1).
 * Context: the caller serialises.
 */
static inline bool sq_tring_empty(const struct sq_tring *q)
{
	return q->tr_first == NULL;
}

/**
 * sq_tring_count - number of queued nodes
 * @q: the queue
 * Return: the count.
 * Complexity: O(1).
 * Context: the caller serialises.
 */
static inline size_t sq_tring_count(const struct sq_tring *q)
{
	return q->tr_count;
}

/**
 * sq_tring_time - the ring's time
 * @q: the queue
 * Return: the current tick times Tg: keys below it are late.  It starts at
 *         the base time rounded down to a multiple of Tg and moves only in
 *         sq_tring_pop(), only forward.
 * Complexity: O(1).
 * Context: the caller serialises.
 */
static inline uint64_t sq_tring_time(const struct sq_tring *q)
{
	return q->tr_cur << q->tr_shift;
}

/**
 * sq_tring_gran_shift - log2 of the granularity
 * @q: the queue
 * Return: the shift given to sq_tring_init_geom() (Tg = 1 << it).
 * Complexity: O(1).
 * Context: the caller serialises.
 */
static inline unsigned sq_tring_gran_shift(const struct sq_tring *q)
{
	return q->tr_shift;
}

/**
 * sq_tring_first - the first node
 * @q: the queue
 * Return: the earliest queued late node if there is one, else a node whose
 *         key is below the smallest queued key plus Tg (the head of
 *         its tick's slot); NULL if empty.
 * Complexity: O(1): a cached pointer, kept by every operation.
 * Context: the caller serialises.
 */
static inline struct sq_tring_node *sq_tring_first(const struct sq_tring *q)
{
	return q->tr_first;
}

/**
 * sq_tring_enqueue - insert a node with a key
 * @q:   the queue
 * @n:   a node that is not queued
 * @key: its key; @n goes after every node already queued in its place
 *       (its tick's slot, the late list, or after equal keys past the
 *       horizon)
 * Return: true if @n is now the first node (a timer re-arms its deadline).
 * Complexity: O(1) for a key below the horizon; O(log m) past it.
 *             The ring's time does not move.
 * Context: the caller serialises.
 */
static inline bool sq_tring_enqueue(struct sq_tring *q, struct sq_tring_node *n,
				    uint64_t key)
{
	SQ__MISUSE(sq_tring_queued(n), "sq_tring_enqueue",
		   "node is already queued");
	return sq_tring__insert(q, n, key);
}

/**
 * sq_tring_dequeue - remove a queued node
 * @q: the queue
 * @n: a node queued on @q
 * Return: true if @n was the first node (the first node changed: a timer
 *         reprograms its deadline); @n is not queued afterwards.
 * Complexity: O(1) on a list (finding the next first reads at most three
 *             bitmap words); O(log m) in the overflow.  The ring's time
 *             does not move: cancelling a timer is not the passing of time.
 * Context: the caller serialises.
 */
static inline bool sq_tring_dequeue(struct sq_tring *q, struct sq_tring_node *n)
{
	bool was_first = n == q->tr_first;

	SQ__MISUSE(!sq_tring_queued(n), "sq_tring_dequeue", "node is not queued");
	sq_tring__remove(q, n);
	return was_first;
}

/**
 * sq_tring_pop - remove and return the first node
 * @q: the queue
 * Return: the node sq_tring_first() named, not queued any more; NULL if
 *         empty.  The ring's time moves forward to that node's tick (never
 *         back: a late node leaves it alone), and the overflow nodes the
 *         window then reaches move into their slots.
 * Complexity: O(1), plus O(log m) for each node that leaves the overflow
 *             (once per node in its life on the queue).  Always inlined
 *             under GNU C (neither gcc nor clang did it on their own).
 * Context: the caller serialises.
 */
SQ__INLINE struct sq_tring_node *sq_tring_pop(struct sq_tring *q)
{
	struct sq_tring_node *x = q->tr_first;
	uintptr_t w;
	uint64_t t;
	unsigned s;

	if (SQ__UNLIKELY(!x))
		return NULL;
	q->tr_count--;
	w = sq_tring__tag(x);
	if (SQ__LIKELY(w == SQ_TRING__SLOT)) {
		/* a slot's head, so nothing is late; its tick is cached */
		t = q->tr_ftick;
		s = sq_tring__slot_of(t);
		q->tr_cur = t;
		if (sq_tring__unlink(&q->tr_slot[s], x))
			sq_tring__unmark(q, s);
		/* migrants land past every slot tick, never in s */
		if (SQ__UNLIKELY(q->tr_over.rb_leftmost != NULL))
			sq_tring__migrate(q);
		if (q->tr_slot[s])	/* same tick: no need to read it */
			q->tr_first = q->tr_slot[s];
		else
			sq_tring__refirst(q, s);
		sq_tring__unqueue(x);
	} else if (w == SQ_TRING__LATE) {
		/* the late head: time stays */
		sq_tring__unlink(&q->tr_late, x);
		sq_tring__refirst_late(q);
		sq_tring__unqueue(x);
	} else {
		sq_tring__pop_over(q, x);
	}
	return x;
}

/**
 * sq_tring_pop_due - pop the first node if it is due
 * @q:   the queue
 * @now: the caller's clock
 * Return: the node sq_tring_first() names, popped, if its key is <= @now;
 *         else NULL and nothing changes.  An expiry loop:
 *         while ((n = pop_due(q, now))).
 * Complexity: as sq_tring_pop().
 * Context: the caller serialises.
 */
static inline struct sq_tring_node *sq_tring_pop_due(struct sq_tring *q,
						     uint64_t now)
{
	const struct sq_tring_node *f = q->tr_first;

	return f && f->key <= now ? sq_tring_pop(q) : NULL;
}

/* Visit the circular list at @head; the count of nodes visited. */
static inline size_t sq_tring__visit_list(const struct sq_tring *q,
					  struct sq_tring_node *head,
					  void (*fn)(struct sq_tring_node *, void *),
					  void *arg)
{
	struct sq_tring_node *n = head;
	size_t seen = 0, count = q->tr_count;

	(void)count;	/* read only under SQ_DEBUG */
	if (!n)
		return 0;
	do {
		struct sq_tring_node *next = n->tr_u.tr_list.tr_next;

		fn(n, arg);
		SQ__MISUSE(q->tr_count != count, "sq_tring_visit",
			   "fn changed the queue");
		seen++;
		n = next;
	} while (n != head);
	return seen;
}

/**
 * sq_tring_visit - call a function once for every queued node
 * @q:   the queue
 * @fn:  called as fn(node, @arg): the late nodes, then slot by slot, then
 *       the overflow in key order; it must not change the queue (SQ_DEBUG
 *       stops the program when the count changes)
 * @arg: passed through to @fn
 * Return: the number of nodes visited.
 * Complexity: O(n + Ns/64): the bitmap finds the occupied slots.
 * Context: the caller serialises.
 */
static inline size_t sq_tring_visit(const struct sq_tring *q,
				    void (*fn)(struct sq_tring_node *, void *),
				    void *arg)
{
	const struct sq_rb__link *r = q->tr_over.rb_leftmost;
	size_t seen = sq_tring__visit_list(q, q->tr_late, fn, arg);
	unsigned w;

	for (w = 0; w < SQ_TRING__WORDS; w++) {
		uint64_t m;

		for (m = q->tr_map[w]; m; m &= m - 1)
			seen += sq_tring__visit_list(q,
				q->tr_slot[(w << 6) | sq__ctz64(m)], fn, arg);
	}
	while (r) {
		const struct sq_rb__link *next = sq_rb__next(r);
		size_t count = q->tr_count;

		(void)count;
		fn(sq_tring__of_over(r), arg);
		SQ__MISUSE(q->tr_count != count, "sq_tring_visit",
			   "fn changed the queue");
		seen++;
		r = next;
	}
	return seen;
}

/**
 * sq_tring_requeue - give a node a new key: re-arm it
 * @q:   the queue
 * @n:   a node queued on @q, or a node that is not queued (it is enqueued:
 *       a timer armed for the first time, or again after it fired)
 * @key: the new key; @n ends after every other node in its new place
 * Return: true if the first node or the first key changed.
 * Complexity: O(1) in place, when @n stays in its list and is already its
 *             tail (same slot, or late before and after); otherwise as
 *             dequeue + enqueue.  The ring's time does not move.
 * Context: the caller serialises.
 */
static inline bool sq_tring_requeue(struct sq_tring *q, struct sq_tring_node *n,
				    uint64_t key)
{
	struct sq_tring_node *f = q->tr_first;
	uintptr_t w;
	uint64_t fkey;

	if (!sq_tring_queued(n))
		return sq_tring__insert(q, n, key);
	fkey = f->key;
	w = sq_tring__tag(n);
	if (w & SQ_TRING__LISTBIT) {
		uint64_t t0 = n->key >> q->tr_shift, t1 = key >> q->tr_shift;
		const struct sq_tring_node *head = NULL;

		if (w == SQ_TRING__SLOT) {
			if (t1 == t0)
				head = q->tr_slot[sq_tring__slot_of(t0)];
		} else if (t1 < q->tr_cur) {
			head = q->tr_late;
		}
		if (head && n->tr_u.tr_list.tr_next == head) {	/* the tail */
			n->key = key;
			if (f == n)	/* a late tick may change */
				q->tr_ftick = t1;
			return f == n && fkey != key;
		}
	}
	sq_tring__remove(q, n);
	sq_tring__insert(q, n, key);
	return q->tr_first != f || f->key != fkey;
}

/**
 * sq_tring_check - verify every invariant of the queue
 * @q: the queue
 * Return: 0 if invariants (1)-(6) hold and the overflow tree is sound, -1
 *         otherwise (under SQ_DEBUG the broken invariant and the node are
 *         printed first).
 * Complexity: O(Ns + n), iterative, O(1) extra space.
 * Context: the caller serialises.
 */
#define SQ_TRING__CHK "sq_tring_check"
static inline int sq_tring_check(const struct sq_tring *q)
{
	const uint64_t cur = q->tr_cur;
	const struct sq_tring_node *n, *h, *expect;
	const struct sq_rb__link *r;
	size_t seen = 0;
	unsigned s, w, i;
	uint64_t t;

	SQ__CHECK(q->tr_shift <= 63, SQ_TRING__CHK, q, "granularity shift above 63");
	SQ__CHECK(cur <= UINT64_MAX >> q->tr_shift, SQ_TRING__CHK, q,
		  "current tick out of range");

	/* the late list, then each slot: the same walk over one list */
	for (i = 0; i <= SQ_TRING_SLOTS; i++) {
		h = i == 0 ? q->tr_late : q->tr_slot[i - 1];
		if (!h)
			continue;
		n = h;
		do {
			const struct sq_tring_node *nx = n->tr_u.tr_list.tr_next;

			SQ__CHECK(++seen <= q->tr_count, SQ_TRING__CHK, n,
				  "more nodes than the count");
			SQ__CHECK(sq_tring__tag(n) == (i == 0 ? SQ_TRING__LATE :
							   SQ_TRING__SLOT),
				  SQ_TRING__CHK, n,
				  "list node's tag is not its list's");
			SQ__CHECK(nx && n->tr_u.tr_list.tr_prev, SQ_TRING__CHK, n,
				  "NULL list link");
			SQ__CHECK(nx->tr_u.tr_list.tr_prev == n, SQ_TRING__CHK, n,
				  "list links disagree");
			t = n->key >> q->tr_shift;
			if (i == 0) {
				SQ__CHECK(t < cur, SQ_TRING__CHK, n,
					  "late node at or after the ring's time");
			} else {
				SQ__CHECK(t >= cur && t - cur < SQ_TRING__NS,
					  SQ_TRING__CHK, n,
					  "slot node outside the window");
				SQ__CHECK(sq_tring__slot_of(t) == i - 1,
					  SQ_TRING__CHK, n,
					  "slot node in the wrong slot");
			}
			n = nx;
		} while (n != h);
	}

	/* bitmap and summary against the slots */
	for (w = 0; w < SQ_TRING__WORDS; w++) {
		uint64_t bits = 0;

		for (i = 0; i < 64; i++)
			if (q->tr_slot[(w << 6) | i])
				bits |= (uint64_t)1 << i;
		SQ__CHECK(q->tr_map[w] == bits, SQ_TRING__CHK,
			  q->tr_slot[(w << 6) | sq__ctz64(q->tr_map[w] ^ bits)],
			  "bitmap bit disagrees with its slot");
		SQ__CHECK(((q->tr_summary >> w) & 1) == (bits != 0),
			  SQ_TRING__CHK, q, "summary bit disagrees with its word");
	}
	SQ__CHECK(((q->tr_summary >> (SQ_TRING__WORDS - 1)) >> 1) == 0,
		  SQ_TRING__CHK, q, "summary bit past the last word");

	/* the overflow: a sound tree, every node past the horizon */
	SQ__CHECK(sq_rb_check(&q->tr_over) == 0, SQ_TRING__CHK, q,
		  "overflow tree is unsound");
	for (r = q->tr_over.rb_leftmost; r; r = sq_rb__next(r)) {
		n = sq_tring__of_over(r);
		SQ__CHECK(++seen <= q->tr_count, SQ_TRING__CHK, n,
			  "more nodes than the count");
		SQ__CHECK(sq_tring__where(n) == SQ_TRING__OVER, SQ_TRING__CHK, n,
			  "overflow node's tag is not a tree word");
		t = n->key >> q->tr_shift;
		SQ__CHECK(t >= cur && t - cur >= SQ_TRING__NS, SQ_TRING__CHK, n,
			  "overflow node inside the window");
	}
	SQ__CHECK(seen == q->tr_count, SQ_TRING__CHK, q,
		  "fewer nodes than the count");

	/* the cached first, found the slow way */
	expect = q->tr_late;
	for (i = 0; !expect && i < SQ_TRING_SLOTS; i++) {
		s = (sq_tring__slot_of(cur) + i) & (unsigned)SQ_TRING__MASK;
		expect = q->tr_slot[s];
	}
	if (!expect) {
		r = q->tr_over.rb_leftmost;
		expect = r ? sq_tring__of_over(r) : NULL;
	}
	SQ__CHECK(q->tr_first == expect, SQ_TRING__CHK, q->tr_first,
		  "cached first is not the first node");
	if (expect)
		SQ__CHECK(q->tr_ftick == expect->key >> q->tr_shift,
			  SQ_TRING__CHK, expect,
			  "cached first tick is not the first node's tick");
	return 0;
}
#undef SQ_TRING__CHK

#endif /* SMARTQ_TRING_H */
