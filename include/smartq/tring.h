/* SPDX-License-Identifier: MIT */
/*
 * smartq/tring.h - time ring priority queue, exact to its granularity
 *                  (KIND = tring)
 *
 * Davide Libenzi's time ring (LKML, April 2007): Ns slots of FIFO lists,
 * one per tick of Tg key units, and an occupancy bitmap so the first
 * non-empty slot is found with find-first-set instead of a slot scan.
 * The seed folded every key past the horizon into the last slot (it came
 * out early) and let a key below the base wrap around; here each has a
 * place: a late list, and coarser levels (hierarchical timing wheels,
 * Varghese and Lauck 1987) that cascade into the ring as its time reaches
 * them, so a key at any distance costs O(1) and the ring stays exact to Tg:
 *
 *                cur = the current tick (the ring's time is cur * Tg)
 *                 |       H = log2(Ns) - 1: a half ring is 2^H ticks
 *   late list     v   the ring: Ns slots, ticks [cur, end of the next
 *   tick < cur   [ ][#][ ][#][#][ ] ... [ ][#]   half ring after cur's)
 *   FIFO          slot = tick mod Ns, each a FIFO list; bitmap + summary
 *
 *   levels 1..K, anchored at w = (cur >> H) + 1, the ring's last half:
 *   a tick t past the ring, u = t >> H > w, sits in level L where u first
 *   differs from w in digit L-1 (digits of B = SQ_TRING_LEVEL_BITS bits),
 *   in slot "u's digit L-1": level 1 slots are half rings, level 2 slots
 *   2^B half rings, ...  each level a bitmap and 2^B FIFO lists.
 *
 * A key's tick is key >> gran_shift (Tg = 1 << gran_shift).  Its tick when
 * it is (re)queued places a node: below cur it is late (an expired timer:
 * it fires at once), in the ring's two half rings it joins its slot, past
 * them the level its distance picks.  Every level's slots are aligned on
 * w's digits, so the places are ordered late < ring < level 1 < level 2
 * ..., and inside a level by slot index (no wrap): the lowest level's
 * first slot holds the smallest tick past the ring.
 *
 * Time (cur) moves only forward: in pop() to the popped node's tick, in
 * sq_tring_advance() and sq_tring_pop_due() to the caller's clock, never
 * past the smallest key that is not late.  The anchor moves with it, and
 * the at most two level slots that hold the new two half rings cascade:
 * each node goes into the ring or a lower level, so it moves at most K
 * times in its life on the queue, whatever its distance.
 *
 * Invariants, kept by every operation and verified by sq_tring_check():
 *
 *   (1) every late node has tick < cur; the late list is in (re)queue order;
 *   (2) every ring node has tick >= cur and (tick >> H) <= (cur >> H) + 1,
 *       and sits in slot tick mod Ns: a slot holds one tick, and the slots
 *       read in wrap order from slot cur mod Ns are in tick order;
 *   (3) every level node has u = tick >> H > w and sits in the level and
 *       slot its digits against w give;
 *   (4) every list (late, ring slot, level slot) is in (re)queue order among
 *       equal ticks (appends; cascades append, in list order, to lists
 *       that were empty);
 *   (5) ring bitmap bit s is set iff slot s is not empty; summary bit w
 *       iff bitmap word w is not 0; level bitmap bit d iff its slot d is
 *       not empty; tr_levels bit L-1 iff level L's bitmap is not 0;
 *   (6) a level slot's cached minimum (lv_min) is NULL or its first node:
 *       smallest tick, earliest in the list among equal ticks; a slot in
 *       runs (lv_runs not 0) is one run in tick order per rank bit, each
 *       run's head linked to the previous one's (the first to the last),
 *       and no other node has a run link; else a slot whose lv_mixed bit
 *       is clear is in tick order;
 *   (7) the cached first is the late list's head if there is one, else the
 *       head of the first non-empty ring slot in wrap order from cur, else
 *       the first node of the lowest level's first slot, else NULL; the
 *       cached first tick (tr_ftick) is its tick;
 *   (8) the count is the number of queued nodes, and each node's tag says
 *       where it is: SQ_TRING__LATE, __SLOT (the ring) or __LEVEL.
 *
 * Guarantee.  first()/pop() answer the earliest (re)queued late node if
 * there is one, else a node whose key is below the smallest queued key
 * plus Tg.  With Tg = 1 and no late keys the ring is exact and stable: it
 * returns nodes in the same order as the trees, at every distance.
 *
 *   operation   cost
 *   enqueue     O(1): late, ring, or level (a xor and a count of zeros)
 *   first       O(1): the cached first, nothing else is read
 *   pop         O(1) + the cascades of the time it moves: amortised O(1)
 *   dequeue     O(1); of the first node past the ring, amortised, or
 *               O(log n) amortised in a slot in runs (the fallback)
 *   requeue     O(1) in place (same slot and already its tail), else
 *               dequeue + enqueue
 *   advance     O(1) + cascades, as pop
 *   expire      O(1) a node fired, as pop (+ at Tg > 1 a walk of now's tick)
 *   check       O(Ns + K * 2^B + n)
 *
 * Reading order, the ordinary path first: the places (tag, lists,
 * bitmap); the ring (enqueue, first, time, dequeue); the levels (keys
 * past the ring, the cascade); the public API.  Then two fallbacks, each
 * entered through one call: a far slot's lost minimum, sq_tring__lost_min()
 * (a far slot whose first node leaves again and again before time reaches
 * it), and the due nodes behind one that is not, sq_tring__due_first()
 * (sq_tring_expire() at Tg > 1); then sq_tring_check().
 *
 * Configuration: SQ_TRING_SLOTS, the ring's slot count Ns, a power of two
 * from 64 to 4096, default 1024; SQ_TRING_LEVEL_BITS, B, 3 to 6, default
 * 4 (16 slots a level; doc/tring.md has the measurements).  Define them
 * before the first include of smartq.h or smartq/tring.h, identically in
 * every translation unit that shares a struct sq_tring.  Everything lives
 * inside struct sq_tring, nothing allocates (doc/tring.md: the bytes per
 * level); a node is 32 bytes on LP64, as small as the seed's.
 */
#ifndef SMARTQ_TRING_H
#define SMARTQ_TRING_H

#include "common.h"

#ifndef SQ_TRING_SLOTS
#define SQ_TRING_SLOTS 1024
#endif
#if (SQ_TRING_SLOTS) < 64 || (SQ_TRING_SLOTS) > 4096 || \
	((SQ_TRING_SLOTS) & ((SQ_TRING_SLOTS) - 1)) != 0
#error "smartq/tring.h: SQ_TRING_SLOTS must be a power of two from 64 to 4096"
#endif
#define SQ_TRING__LOG2 (6 + ((SQ_TRING_SLOTS) > 64) + \
	((SQ_TRING_SLOTS) > 128) + ((SQ_TRING_SLOTS) > 256) + \
	((SQ_TRING_SLOTS) > 512) + ((SQ_TRING_SLOTS) > 1024) + \
	((SQ_TRING_SLOTS) > 2048))

#ifndef SQ_TRING_LEVEL_BITS
#define SQ_TRING_LEVEL_BITS 4
#endif
#if (SQ_TRING_LEVEL_BITS) < 3 || (SQ_TRING_LEVEL_BITS) > 6
#error "smartq/tring.h: SQ_TRING_LEVEL_BITS must be 3 to 6 (8 to 64 slots)"
#endif

#define SQ_TRING__NS    ((uint64_t)(SQ_TRING_SLOTS))
#define SQ_TRING__MASK  (SQ_TRING__NS - 1)
#define SQ_TRING__WORDS ((SQ_TRING_SLOTS) / 64)
#define SQ_TRING__NONE  ((unsigned)(SQ_TRING_SLOTS))	/* no slot */
/* a half ring: 2^H ticks; the ring holds cur's half and the next one */
#define SQ_TRING__H     ((unsigned)(SQ_TRING__LOG2 - 1))
#define SQ_TRING__B     ((unsigned)(SQ_TRING_LEVEL_BITS))
#define SQ_TRING__LSLOTS (1u << SQ_TRING__B)		/* slots a level */
/* Levels for every 64-bit tick: u = tick >> H has 64 - H bits, and a level
 * node's u and the anchor w first differ in bit 63 - H at most (w can only
 * reach 2^(64 - H) when no tick is past the ring). */
#define SQ_TRING__LEVELS ((63u - SQ_TRING__H) / SQ_TRING__B + 1u)

/* Where a node is: its tag (the word after the key). */
#define SQ_TRING__UNQUEUED ((uintptr_t)0)	/* on no queue */
#define SQ_TRING__SLOT     ((uintptr_t)1)	/* on a ring slot's list */
#define SQ_TRING__LATE     ((uintptr_t)2)	/* on the late list */
#define SQ_TRING__LEVEL    ((uintptr_t)3)	/* on a level slot's list */
#define SQ_TRING__WHERE    ((uintptr_t)3)	/* the tag's bits for these */
/* the bits above them carry a run link (see lv_runs): a node is at least
 * 4-byte aligned, which SQ_DEBUG checks as it is queued */

/**
 * struct sq_tring_node - the link a user embeds in its own struct
 * @key:     the key the node is queued with; read it freely, change it
 *           only through sq_tring_requeue()
 * @tr_tag:  where the node is (SQ_TRING__UNQUEUED, __SLOT, __LATE, __LEVEL),
 *           in its low two bits; above them a run head's link
 * @tr_next: the next node of its circular list
 * @tr_prev: the previous one (a list head's tr_prev is the tail)
 */
struct sq_tring_node {
	uint64_t key;
	uintptr_t tr_tag;
	struct sq_tring_node *tr_next, *tr_prev;
};

/**
 * struct sq_tring__level - one level of slots past the ring
 * @lv_slot:   list heads, NULL when empty
 * @lv_min:    each slot's first node (smallest tick, earliest of those),
 *             NULL when it is not known or the slot is empty
 * @lv_mtick:  the tick of lv_min[d], 0 when it is NULL (no level tick is
 *             0): one compare tells whether an enqueue is the new first
 * @lv_hi:     unless slot d is mixed, no tick in it is above lv_hi[d]
 * @lv_mixed:  bit d set when slot d's list may be out of tick order
 * @lv_sorted: bit d set once slot d was put in order to find its minimum
 * @lv_runs:   0, or the ranks of slot d's runs, one a set bit
 *
 * The last four serve the fallback (a far slot's lost minimum), whose
 * section says how; the ordinary path only keeps them.
 */
struct sq_tring__level {
	struct sq_tring_node *lv_slot[SQ_TRING__LSLOTS];
	struct sq_tring_node *lv_min[SQ_TRING__LSLOTS];
	uint64_t lv_mtick[SQ_TRING__LSLOTS];
	uint64_t lv_hi[SQ_TRING__LSLOTS];
	uint64_t lv_mixed;
	uint64_t lv_sorted;
	uint64_t lv_runs[SQ_TRING__LSLOTS];	/* last: rarely read */
};

/**
 * struct sq_tring - the queue
 * @tr_first:   the first node, NULL when empty (invariant 7)
 * @tr_ftick:   the tick of @tr_first, when it is not NULL
 * @tr_cur:     the current tick; the ring's time is tr_cur << tr_shift
 * @tr_shift:   log2 of the granularity Tg
 * @tr_count:   number of queued nodes
 * @tr_late:    head of the late list, NULL when empty
 * @tr_slot:    the ring's slot list heads, NULL when empty
 * @tr_lv:      the levels 1..K (tr_lv[0] is level 1)
 * @tr_summary, @tr_levels, @tr_map, @tr_lmap: the bitmaps of invariant 5
 */
struct sq_tring {
	struct sq_tring_node *tr_first;
	uint64_t tr_ftick;
	uint64_t tr_cur;
	unsigned tr_shift;
	size_t tr_count;
	struct sq_tring_node *tr_late;
	uint64_t tr_summary;
	uint64_t tr_levels;
	uint64_t tr_map[SQ_TRING__WORDS];
	struct sq_tring_node *tr_slot[SQ_TRING_SLOTS];
	uint64_t tr_lmap[SQ_TRING__LEVELS];
	struct sq_tring__level tr_lv[SQ_TRING__LEVELS];
};

/* ---- the places: tags, lists, the bitmap, a tick's level ---------------- */

/* Where @n is: its tag's low two bits. */
SQ__INLINE uintptr_t sq_tring__tag(const struct sq_tring_node *n)
{
	return n->tr_tag & SQ_TRING__WHERE;
}

/* A level node's run link: the previous run's head if @n heads a run of a
 * slot in runs (the first run's: the last run's head), else NULL. */
SQ__INLINE struct sq_tring_node *
sq_tring__run_link(const struct sq_tring_node *n)
{
	return (struct sq_tring_node *)(n->tr_tag & ~SQ_TRING__WHERE);
}

/* SQ_DEBUG: can @n's tag not hold a run link (it is not 4-byte aligned)? */
SQ__INLINE bool sq_tring__misaligned(const struct sq_tring_node *n)
{
	return ((uintptr_t)(const void *)n & SQ_TRING__WHERE) != 0;
}

SQ__INLINE unsigned sq_tring__slot_of(uint64_t tick)
{
	return (unsigned)(tick & SQ_TRING__MASK);
}

/* Is @t in the ring at current tick @cur: not late, and in cur's half
 * ring or the next one.  Written without cur + anything: no overflow.
 * (Shifting both, not masking cur: doc/tring.md.) */
SQ__INLINE bool sq_tring__in_ring(uint64_t t, uint64_t cur)
{
	return t >= cur && (t >> SQ_TRING__H) - (cur >> SQ_TRING__H) < 2;
}

/* The level (0-based: 0 is level 1) and slot of half ring @u past the
 * anchor @w (u > w): the highest B-bit digit where they differ.  The
 * level is clamped so that no index can leave the arrays, even for a
 * corrupted queue (and so that gcc can bound it). */
SQ__INLINE unsigned sq_tring__level_of(uint64_t u, uint64_t w)
{
	unsigned l = (63u - sq__clz64(u ^ w)) / SQ_TRING__B;

	return l < SQ_TRING__LEVELS ? l : SQ_TRING__LEVELS - 1;
}

SQ__INLINE unsigned sq_tring__digit(uint64_t u, unsigned l)
{
	return (unsigned)(u >> (l * SQ_TRING__B)) & (SQ_TRING__LSLOTS - 1);
}

/* the levels' anchor w */
SQ__INLINE uint64_t sq_tring__anchor(const struct sq_tring *q)
{
	return (q->tr_cur >> SQ_TRING__H) + 1;
}

/* The head of the list a node of tick @t is on, or would join now: the
 * late list, its ring slot or its level slot (invariants 1-3). */
SQ__INLINE struct sq_tring_node *sq_tring__head(const struct sq_tring *q,
						uint64_t t)
{
	uint64_t u = t >> SQ_TRING__H;
	struct sq_tring_node *h;
	unsigned l;

	if (t < q->tr_cur) {
		h = q->tr_late;
	} else if (sq_tring__in_ring(t, q->tr_cur)) {
		h = q->tr_slot[sq_tring__slot_of(t)];
	} else {
		/* past the ring: u > the anchor (invariant 3) */
		l = sq_tring__level_of(u, sq_tring__anchor(q));
		h = q->tr_lv[l].lv_slot[sq_tring__digit(u, l)];
	}
	return h;
}

/* Append @n at the tail of the list at @head; true if it was empty. */
SQ__INLINE bool sq_tring__list_add(struct sq_tring_node **head,
				 struct sq_tring_node *n)
{
	struct sq_tring_node *h = *head, *t;

	if (!h) {
		n->tr_next = n;
		n->tr_prev = n;
		*head = n;
		return true;
	}
	t = h->tr_prev;
	n->tr_next = h;
	n->tr_prev = t;
	t->tr_next = n;
	h->tr_prev = n;
	return false;
}

/* Take @n out of the list at @head; true if the list is now empty. */
SQ__INLINE bool sq_tring__list_del(struct sq_tring_node **head,
				 struct sq_tring_node *n)
{
	struct sq_tring_node *nx = n->tr_next, *pv;

	if (nx == n) {
		*head = NULL;
		return true;
	}
	pv = n->tr_prev;
	pv->tr_next = nx;
	nx->tr_prev = pv;
	if (*head == n)
		*head = nx;
	return false;
}

/* Append @n to ring slot @s, its tick's, and mark the slot. */
SQ__INLINE void sq_tring__ring_put(struct sq_tring *q, struct sq_tring_node *n,
				   unsigned s)
{
	n->tr_tag = SQ_TRING__SLOT;
	if (sq_tring__list_add(&q->tr_slot[s], n))
		sq__bits_set(q->tr_map, &q->tr_summary, s);
}

/* Take @n out of ring slot @s, and unmark the slot when it empties. */
SQ__INLINE void sq_tring__ring_del(struct sq_tring *q, struct sq_tring_node *n,
				   unsigned s)
{
	if (sq_tring__list_del(&q->tr_slot[s], n))
		sq__bits_clear(q->tr_map, &q->tr_summary, s);
}

/*
 * The first non-empty ring slot at or after slot @s in wrap order, or
 * SQ_TRING__NONE: the rest of @s's word, then the summary's next word,
 * then (wrapping) the summary's lowest word, whose lowest bit is the
 * answer because the bits from @s on in @s's own word are known empty.
 * A word index from the summary is masked to the map's size: the summary
 * never has a bit past it (checked), and gcc then sees the bound too.
 */
SQ__INLINE unsigned sq_tring__scan(const struct sq_tring *q, unsigned s)
{
	unsigned w = (s >> 6) & (SQ_TRING__WORDS - 1);
	uint64_t m = q->tr_map[w] & (~(uint64_t)0 << (s & 63));

	if (m)
		return (w << 6) | sq__ctz64(m);
	m = q->tr_summary & ((~(uint64_t)0 << w) << 1);
	if (!m) {
		m = q->tr_summary;
		if (!m)
			return SQ_TRING__NONE;
	}
	w = sq__ctz64(m) & (SQ_TRING__WORDS - 1);
	/* "+", not "|": cppcheck flags "| 0" */
	return (w << 6) + sq__ctz64(q->tr_map[w]);
}

/* Cache @n (NULL when empty) as the first node, and its tick. */
SQ__INLINE void sq_tring__set_first(struct sq_tring *q, struct sq_tring_node *n)
{
	q->tr_first = n;
	if (n)
		q->tr_ftick = n->key >> q->tr_shift;
}

/* @n left its place: mark it unqueued, poison its links under SQ_DEBUG. */
SQ__INLINE void sq_tring__unlink(struct sq_tring_node *n)
{
	n->tr_tag = SQ_TRING__UNQUEUED;
#ifdef SQ_DEBUG
	n->tr_next = (struct sq_tring_node *)SQ__POISON(3);
	n->tr_prev = (struct sq_tring_node *)SQ__POISON(4);
#endif
}

/* ---- the ring: enqueue, first, time, dequeue ---------------------------- */

/* The levels' entries (the next section), out of line: the ring's paths
 * stay small. */
SQ__SLOW bool sq_tring__insert_level(struct sq_tring *q,
				     struct sq_tring_node *n, uint64_t t);
SQ__SLOW void sq_tring__refirst_levels(struct sq_tring *q);
SQ__SLOW void sq_tring__remove_level(struct sq_tring *q,
				     struct sq_tring_node *n);
SQ__SLOW void sq_tring__cascade(struct sq_tring *q, uint64_t v0, uint64_t v1);

/* enqueue without the misuse check */
SQ__INLINE bool sq_tring__insert(struct sq_tring *q, struct sq_tring_node *n,
				 uint64_t key)
{
	struct sq_tring_node *f = q->tr_first;
	uint64_t t = key >> q->tr_shift;
	bool is_first;

	n->key = key;
	q->tr_count++;
	if (SQ__LIKELY(sq_tring__in_ring(t, q->tr_cur))) {
		sq_tring__ring_put(q, n, sq_tring__slot_of(t));
		/* A late first has a smaller tick, a level first a larger
		 * one, a ring first the smallest ring tick: one compare, and
		 * a select rather than a branch (a coin toss at small N). */
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
		n->tr_tag = SQ_TRING__LATE;
		if (sq_tring__list_add(&q->tr_late, n)) {
			q->tr_first = n;
			q->tr_ftick = t;
			return true;
		}
		return false;
	}
	return sq_tring__insert_level(q, n, t);
}

/*
 * Cache the first node, nothing late: the head of the first ring slot at
 * or after @s in wrap order (@s is cur's slot or no later than the first
 * non-empty one, as SQ_DEBUG checks), else the levels' first, else NULL.
 * The slot's index gives its tick (invariant 2), so the new first is not
 * read: at large n a cache miss the next enqueue's compare would wait for.
 */
SQ__INLINE void sq_tring__refirst(struct sq_tring *q, unsigned s)
{
	SQ__MISUSE(q->tr_late, "sq_tring__refirst",
		   "the late list is not empty");
	SQ__MISUSE(sq_tring__scan(q, s) !=
		   sq_tring__scan(q, sq_tring__slot_of(q->tr_cur)),
		   "sq_tring__refirst", "a non-empty slot between time and @s");
	s = sq_tring__scan(q, s);
	if (SQ__LIKELY(s != SQ_TRING__NONE)) {
		q->tr_first = q->tr_slot[s & SQ_TRING__MASK];
		q->tr_ftick = q->tr_cur + ((s - q->tr_cur) & SQ_TRING__MASK);
		return;
	}
	if (SQ__LIKELY(!q->tr_levels))	/* empty: no call out of line */
		q->tr_first = NULL;
	else
		sq_tring__refirst_levels(q);
}

/* The first node left ring slot @s, nothing late: its new head (the same
 * tick: not read), else as sq_tring__refirst(). */
SQ__INLINE void sq_tring__refirst_after(struct sq_tring *q, unsigned s)
{
	if (q->tr_slot[s])
		q->tr_first = q->tr_slot[s];
	else
		sq_tring__refirst(q, s);
}

/* Cache the first node after the late list changed. */
SQ__INLINE void sq_tring__refirst_late(struct sq_tring *q)
{
	if (q->tr_late)
		sq_tring__set_first(q, q->tr_late);
	else
		sq_tring__refirst(q, sq_tring__slot_of(q->tr_cur));
}

/* Move the ring's time forward to tick @t (> cur, and no node that is not
 * late below it); the level slots the ring reaches cascade into it. */
SQ__INLINE void sq_tring__set_time(struct sq_tring *q, uint64_t t)
{
	uint64_t v0 = q->tr_cur >> SQ_TRING__H;

	q->tr_cur = t;
	if (SQ__UNLIKELY(q->tr_levels != 0 && (t >> SQ_TRING__H) != v0))
		sq_tring__cascade(q, v0, t >> SQ_TRING__H);
}

/* dequeue without the misuse check; time does not move */
SQ__INLINE void sq_tring__remove(struct sq_tring *q, struct sq_tring_node *n)
{
	uintptr_t w = sq_tring__tag(n);

	q->tr_count--;
	if (SQ__LIKELY(w == SQ_TRING__SLOT)) {
		unsigned s = sq_tring__slot_of(n->key >> q->tr_shift);

		sq_tring__ring_del(q, n, s);
		if (q->tr_first == n)
			sq_tring__refirst_after(q, s);
	} else if (w == SQ_TRING__LATE) {
		sq_tring__list_del(&q->tr_late, n);
		if (q->tr_first == n)
			sq_tring__refirst_late(q);
	} else {
		sq_tring__remove_level(q, n);
		return;
	}
	sq_tring__unlink(n);
}

/* ---- the levels: keys past the ring, the cascade ------------------------ */

/* The fallbacks' entries and the two calls that keep a slot's runs (their
 * sections follow the public API). */
SQ__INLINE struct sq_tring_node *
sq_tring__lost_min(struct sq_tring *q, struct sq_tring__level *lv, unsigned d);
SQ__SLOW void sq_tring__run_add(const struct sq_tring *q,
				struct sq_tring__level *lv, unsigned d,
				struct sq_tring_node *n);
SQ__SLOW void sq_tring__run_drop(struct sq_tring__level *lv, unsigned d,
				 struct sq_tring_node *n);
SQ__SLOW bool sq_tring__due_first(struct sq_tring *q, uint64_t now);

/* Make @n, tick @t, the cached first node of slot @d of @lv. */
SQ__INLINE void sq_tring__set_min(struct sq_tring__level *lv, unsigned d,
				  struct sq_tring_node *n, uint64_t t)
{
	lv->lv_min[d] = n;
	lv->lv_mtick[d] = t;
}

/* Slot @d of level @l (0-based) emptied: clear its bit, the level's too
 * if it was the last. */
SQ__INLINE void sq_tring__lv_unmark(struct sq_tring *q, unsigned l, unsigned d)
{
	q->tr_lmap[l] &= ~((uint64_t)1 << d);
	if (!q->tr_lmap[l])
		q->tr_levels &= ~((uint64_t)1 << l);
}

/* Append @n, tick @t past the ring, to its level slot; keep the slot's
 * cached minimum (@n when @smallest: no queued tick is below @t).  Only
 * the level's own words and the slot's head are read, no other node: at
 * large n each would be a cache miss. */
SQ__INLINE void sq_tring__lv_put(struct sq_tring *q, struct sq_tring_node *n,
				 uint64_t t, bool smallest)
{
	uint64_t u = t >> SQ_TRING__H;
	unsigned l = sq_tring__level_of(u, sq_tring__anchor(q));
	unsigned d = sq_tring__digit(u, l);
	struct sq_tring__level *lv = &q->tr_lv[l];

	n->tr_tag = SQ_TRING__LEVEL;
	if (sq_tring__list_add(&lv->lv_slot[d], n)) {
		/* a new list: in order, never sorted, not in runs */
		q->tr_lmap[l] |= (uint64_t)1 << d;
		q->tr_levels |= (uint64_t)1 << l;
		lv->lv_mixed &= ~((uint64_t)1 << d);
		lv->lv_sorted &= ~((uint64_t)1 << d);
		lv->lv_runs[d] = 0;
		lv->lv_hi[d] = t;
		sq_tring__set_min(lv, d, n, t);
		return;
	}
	/* a mixed slot stays mixed, whatever @n's tick (a slot in runs
	 * is never marked mixed) */
	if (!((lv->lv_mixed >> d) & 1)) {
		if (t >= lv->lv_hi[d])
			lv->lv_hi[d] = t;	/* at or above the tail */
		else if (SQ__UNLIKELY(lv->lv_runs[d] != 0))
			sq_tring__run_add(q, lv, d, n);	/* fallback's runs */
		else if (t < n->tr_next->key >> q->tr_shift)
			lv->lv_slot[d] = n;	/* below the head: in order,
						 * no equal tick passed */
		else
			lv->lv_mixed |= (uint64_t)1 << d;
	}
	/* equal ticks: the earlier stays first; an unknown minimum's tick
	 * is 0, below every level tick */
	if (smallest || t < lv->lv_mtick[d])
		sq_tring__set_min(lv, d, n, t);
}

/* enqueue past the ring; @n->key is set, @t is its tick */
SQ__SLOW bool sq_tring__insert_level(struct sq_tring *q,
				     struct sq_tring_node *n, uint64_t t)
{
	/* a late or ring first has a smaller tick, a level first the
	 * smallest level tick */
	bool first = !q->tr_first || t < q->tr_ftick;

	sq_tring__lv_put(q, n, t, first);
	if (first) {
		q->tr_first = n;
		q->tr_ftick = t;
	}
	return first;
}

/* The levels' first node, NULL when they are empty: the lowest level's
 * first slot's cached minimum, or the fallback's when that node left. */
SQ__SLOW struct sq_tring_node *sq_tring__lv_first(struct sq_tring *q)
{
	struct sq_tring__level *lv;
	unsigned l, d;

	if (!q->tr_levels)
		return NULL;
	l = sq__ctz64(q->tr_levels);
	l = l < SQ_TRING__LEVELS ? l : SQ_TRING__LEVELS - 1;
	d = sq__ctz64(q->tr_lmap[l]) & (SQ_TRING__LSLOTS - 1);
	lv = &q->tr_lv[l];
	if (lv->lv_min[d])
		return lv->lv_min[d];
	return sq_tring__lost_min(q, lv, d);
}

/* Cache the first node when the late list and the ring are empty. */
SQ__SLOW void sq_tring__refirst_levels(struct sq_tring *q)
{
	sq_tring__set_first(q, sq_tring__lv_first(q));
}

/* dequeue from a level; time does not move */
SQ__SLOW void sq_tring__remove_level(struct sq_tring *q,
				     struct sq_tring_node *n)
{
	uint64_t u = (n->key >> q->tr_shift) >> SQ_TRING__H;
	unsigned l = sq_tring__level_of(u, sq_tring__anchor(q));
	unsigned d = sq_tring__digit(u, l);
	struct sq_tring__level *lv = &q->tr_lv[l];

	/* a run head of a slot the fallback put in runs */
	if (SQ__UNLIKELY(sq_tring__run_link(n) != NULL) && n->tr_next != n)
		sq_tring__run_drop(lv, d, n);
	if (sq_tring__list_del(&lv->lv_slot[d], n)) {
		sq_tring__lv_unmark(q, l, d);
		sq_tring__set_min(lv, d, NULL, 0);
	} else if (lv->lv_min[d] == n) {
		/* lost: found again when it is needed */
		sq_tring__set_min(lv, d, NULL, 0);
	}
	if (q->tr_first == n)	/* then the late list and the ring are empty */
		sq_tring__refirst_levels(q);
	sq_tring__unlink(n);
}

/* Move every node of the level slot that holds half ring @u (seen from
 * anchor @w, u > w) to where it belongs now that cur has moved: the ring,
 * or a lower level.  The lists it goes to were empty (invariant 4). */
SQ__SLOW void sq_tring__cascade_slot(struct sq_tring *q, uint64_t w,
					   uint64_t u)
{
	unsigned l = sq_tring__level_of(u, w), d = sq_tring__digit(u, l);
	struct sq_tring__level *lv = &q->tr_lv[l];
	struct sq_tring_node *h = lv->lv_slot[d], *n, *next, *last;

	if (!h)
		return;
	lv->lv_slot[d] = NULL;
	sq_tring__set_min(lv, d, NULL, 0);
	sq_tring__lv_unmark(q, l, d);
	last = h->tr_prev;
	for (n = h;; n = next) {
		SQ__STEP(1);
		uint64_t t = n->key >> q->tr_shift;

		next = n->tr_next;	/* before the append rewrites it */
		if (sq_tring__in_ring(t, q->tr_cur))
			sq_tring__ring_put(q, n, sq_tring__slot_of(t));
		else
			sq_tring__lv_put(q, n, t, false);
		if (n == last)
			break;
	}
}

/* cur moved from half ring @v0 to half ring @v1 > v0, the anchor from
 * v0 + 1 to v1 + 1: the ring's two half rings were in at most two level
 * slots, and every other level node keeps its slot (no node is below the
 * new cur, so its digits against the anchor did not change). */
SQ__SLOW void sq_tring__cascade(struct sq_tring *q, uint64_t v0, uint64_t v1)
{
	uint64_t w0 = v0 + 1;

	if (v1 > w0)
		sq_tring__cascade_slot(q, w0, v1);
	if (q->tr_levels)
		sq_tring__cascade_slot(q, w0, v1 + 1);
}

/* pop @x, the first node, from a level: nothing is late, the ring is
 * empty; time moves to its tick, which cascades its slot */
SQ__SLOW void sq_tring__pop_level(struct sq_tring *q, struct sq_tring_node *x)
{
	uint64_t t = q->tr_ftick;

	q->tr_first = NULL;	/* remove_level must not look for a first */
	sq_tring__remove_level(q, x);
	sq_tring__set_time(q, t);
	sq_tring__refirst(q, sq_tring__slot_of(t));
}

/* ---- public API: the verbs are documented once, in common.h ------------ */

#ifdef SQ_DEBUG
/* SQ_DEBUG: does what O(1) can see say that queued @n is not on @q?  Its
 * tag and key name one list of @q (late, a ring slot, a level slot): that
 * place must be one @n can be in, and not empty, and a node alone in its
 * list must be the list's head.  A node of another queue whose list has a
 * twin on @q passes; every other one is caught before a link is touched. */
static inline bool sq_tring__elsewhere(const struct sq_tring *q,
				       const struct sq_tring_node *n)
{
	uint64_t t = n->key >> q->tr_shift;
	uintptr_t place = t < q->tr_cur ? SQ_TRING__LATE :
			  sq_tring__in_ring(t, q->tr_cur) ? SQ_TRING__SLOT :
			  SQ_TRING__LEVEL;
	const struct sq_tring_node *h;

	if (!q->tr_count || sq_tring__tag(n) != place)
		return true;
	h = sq_tring__head(q, t);
	return !h || (n->tr_next == n && h != n);
}
#endif

/**
 * sq_tring_init_geom - make an empty ring with a granularity and start time
 * @q:          the queue
 * @gran_shift: log2 of the granularity Tg, 0..63
 * @base_time:  the ring's time; it starts at @base_time rounded down to a
 *              multiple of Tg, and keys below that are late
 * Return: true; false when @gran_shift is above 63, and then @q is left
 *         untouched (a geometry is refused, never changed).
 * Complexity: O(Ns + K * 2^B): the slot heads are cleared.
 */
static inline bool sq_tring_init_geom(struct sq_tring *q, unsigned gran_shift,
				      uint64_t base_time)
{
	unsigned i, l;

	if (gran_shift > 63)
		return false;
	q->tr_first = NULL;
	q->tr_ftick = 0;
	q->tr_shift = gran_shift;
	q->tr_cur = base_time >> gran_shift;
	q->tr_count = 0;
	q->tr_late = NULL;
	q->tr_summary = 0;
	q->tr_levels = 0;
	for (i = 0; i < SQ_TRING__WORDS; i++) {
		SQ__STEP(1);
		q->tr_map[i] = 0;
	}
	for (i = 0; i < SQ_TRING_SLOTS; i++) {
		SQ__STEP(1);
		q->tr_slot[i] = NULL;
	}
	for (l = 0; l < SQ_TRING__LEVELS; l++) {
		SQ__STEP(1);
		q->tr_lmap[l] = 0;
		q->tr_lv[l].lv_mixed = 0;
		q->tr_lv[l].lv_sorted = 0;
		for (i = 0; i < SQ_TRING__LSLOTS; i++) {
			SQ__STEP(1);
			q->tr_lv[l].lv_slot[i] = NULL;
			q->tr_lv[l].lv_min[i] = NULL;
			q->tr_lv[l].lv_mtick[i] = 0;
			q->tr_lv[l].lv_hi[i] = 0;
			q->tr_lv[l].lv_runs[i] = 0;
		}
	}
	return true;
}

/* init: granularity 1, time 0; O(Ns + K * 2^B), the slot heads cleared */
static inline void sq_tring_init(struct sq_tring *q)
{
	(void)sq_tring_init_geom(q, 0, 0);
}

/* init_at: granularity 1, time @now (keys below are late); O(Ns + K * 2^B) */
static inline void sq_tring_init_at(struct sq_tring *q, uint64_t now)
{
	(void)sq_tring_init_geom(q, 0, now);
}

static inline void sq_tring_node_init(struct sq_tring_node *n)
{
	n->tr_tag = SQ_TRING__UNQUEUED;
	n->tr_next = NULL;
	n->tr_prev = NULL;
	n->key = 0;
}

SQ__INLINE bool sq_tring_queued(const struct sq_tring_node *n)
{
	return sq_tring__tag(n) != SQ_TRING__UNQUEUED;
}

static inline bool sq_tring_empty(const struct sq_tring *q)
{
	return q->tr_first == NULL;
}

static inline size_t sq_tring_count(const struct sq_tring *q)
{
	return q->tr_count;
}

/* time: the current tick times Tg; keys below it are late */
static inline uint64_t sq_tring_time(const struct sq_tring *q)
{
	return q->tr_cur << q->tr_shift;
}

/* gran_shift: the shift given to sq_tring_init_geom(), Tg = 1 << it */
static inline unsigned sq_tring_gran_shift(const struct sq_tring *q)
{
	return q->tr_shift;
}

/* first: the order the opening comment's Guarantee gives */
static inline struct sq_tring_node *sq_tring_first(const struct sq_tring *q)
{
	return q->tr_first;
}

static inline uint64_t sq_tring_key(const struct sq_tring_node *n)
{
	return n->key;
}

/* enqueue: @n goes after every node of its tick (every late node, when
 * @key is late); O(1) at any distance; time does not move */
static inline bool sq_tring_enqueue(struct sq_tring *q, struct sq_tring_node *n,
				    uint64_t key)
{
	SQ__MISUSE(sq_tring__misaligned(n), "sq_tring_enqueue",
		   "node is not 4-byte aligned");
	SQ__MISUSE(sq_tring_queued(n), "sq_tring_enqueue",
		   "node is already queued");
	return sq_tring__insert(q, n, key);
}

/* dequeue: O(1), the next first found in at most three ring bitmap
 * words, or two level words and a cached slot minimum (for its rebuild,
 * the costs table).  Time does not move: a cancel is not its passing. */
static inline bool sq_tring_dequeue(struct sq_tring *q, struct sq_tring_node *n)
{
	bool was_first = n == q->tr_first;

	SQ__MISUSE(!sq_tring_queued(n), "sq_tring_dequeue",
		   "node is not queued");
	SQ__MISUSE(sq_tring__elsewhere(q, n), "sq_tring_dequeue",
		   "node is on another queue");
	sq_tring__remove(q, n);
	return was_first;
}

/* pop: time moves to the popped node's tick (a late node leaves it);
 * O(1) + the cascades.  Always inlined under GNU C: gcc and clang do not
 * inline it on their own. */
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
		/* cascaded nodes land past every ring tick, never in s */
		sq_tring__set_time(q, t);
		sq_tring__ring_del(q, x, s);
		sq_tring__refirst_after(q, s);
		sq_tring__unlink(x);
	} else if (w == SQ_TRING__LATE) {
		/* the late head: time stays */
		sq_tring__list_del(&q->tr_late, x);
		sq_tring__refirst_late(q);
		sq_tring__unlink(x);
	} else {
		sq_tring__pop_level(q, x);
	}
	return x;
}

/**
 * sq_tring_advance - move the ring's time forward to the caller's clock
 * @q:   the queue
 * @now: the caller's clock
 * Return: the ring's time afterwards (sq_tring_time()).
 *
 * The time moves to @now rounded down to a multiple of Tg, never back and
 * never past the smallest queued key that is not late: a due node keeps
 * its place and comes out in key order, no queued node turns late.  An
 * event loop calls it (or pop_due()) when it reads its clock, so that
 * later enqueues stay near the time and out of the levels, even when
 * timers expire through dequeue.
 * Complexity: O(1), plus the cascades of the time it moves.
 */
static inline uint64_t sq_tring_advance(struct sq_tring *q, uint64_t now)
{
	const struct sq_tring_node *f = q->tr_first;
	uint64_t t = now >> q->tr_shift, lim;

	if (t <= q->tr_cur)
		return sq_tring_time(q);
	if (f) {
		if (sq_tring__tag(f) != SQ_TRING__LATE) {
			lim = q->tr_ftick;
		} else {
			/* the smallest tick that is not late: the ring's
			 * first, else the levels' */
			unsigned s = sq_tring__scan(q,
					sq_tring__slot_of(q->tr_cur));

			if (s != SQ_TRING__NONE)
				lim = q->tr_cur +
					((s - q->tr_cur) & SQ_TRING__MASK);
			else if (q->tr_levels)
				lim = sq_tring__lv_first(q)->key >> q->tr_shift;
			else
				lim = t;
		}
		t = t < lim ? t : lim;
	}
	if (t > q->tr_cur)
		sq_tring__set_time(q, t);
	return sq_tring_time(q);
}

/* pop_due: time first moves to @now as advance() moves it, due node or
 * not; costs advance() then pop() */
static inline struct sq_tring_node *sq_tring_pop_due(struct sq_tring *q,
						     uint64_t now)
{
	const struct sq_tring_node *f;

	(void)sq_tring_advance(q, now);
	f = q->tr_first;
	return f && f->key <= now ? sq_tring_pop(q) : NULL;
}

/*
 * expire: as SQ__EXPIRE's (common.h), and it also fires the due nodes a
 * pop_due() loop would miss behind one not due (the last fallback says
 * when); pass @now | (Tg - 1) to fire the whole tick, each early by less
 * than Tg.  Afterwards no queued key is <= @now and the time is where
 * advance(@now) puts it.  O(1) a node fired, plus the cascades and, at
 * Tg > 1, a walk of that list each time a node not due stands first.
 */
static inline size_t sq_tring_expire(struct sq_tring *q, uint64_t now,
				     void (*fn)(struct sq_tring_node *, void *),
				     void *arg)
{
	struct sq_tring_node *x;
	size_t fired = 0;

	while ((x = q->tr_first) != NULL) {
		if (SQ__UNLIKELY(x->key > now)) {
			if (!sq_tring__due_first(q, now))
				break;
			x = q->tr_first;
		}
		(void)sq_tring_pop(q);
		fn(x, arg);
		/* x is read only if it is queued (fn may have freed it) */
		SQ__MISUSE(q->tr_first == x && x->key <= now, "sq_tring_expire",
			   "fn re-armed its node at or before now");
		fired++;
	}
	(void)sq_tring_advance(q, now);
	return fired;
}

/* @fn on each node of the list at @head until it returns true: that node,
 * or NULL; @who names the verb for SQ_DEBUG (SQ__VISIT) */
static inline struct sq_tring_node *
sq_tring__walk_list(const struct sq_tring *q, struct sq_tring_node *head,
		    bool (*fn)(struct sq_tring_node *, void *), void *arg,
		    const char *who)
{
	struct sq_tring_node *n = head;
	size_t count = q->tr_count;

	(void)count;	/* read only under SQ_DEBUG */
	if (!n)
		return NULL;
	do {
		SQ__STEP(1);
		struct sq_tring_node *next = n->tr_next;
		bool stop = fn(n, arg);

		/* fn may change q through its own pointer to it */
		/* cppcheck-suppress knownConditionTrueFalse */
		SQ__MISUSE(q->tr_count != count, who, "fn changed the queue");
		if (stop)
			return n;
		n = next;
	} while (n != head);
	return NULL;
}

/* the walk behind visit and visit_until (SQ__VISIT): the late list, then
 * the ring slot by slot, then the levels slot by slot */
static inline struct sq_tring_node *
sq_tring__visit_until(const struct sq_tring *q,
	       bool (*fn)(struct sq_tring_node *, void *), void *arg,
	       const char *who)
{
	struct sq_tring_node *at = sq_tring__walk_list(q, q->tr_late, fn, arg,
						       who);
	unsigned w, l;
	uint64_t m;

	for (w = 0; w < SQ_TRING__WORDS && !at; w++)
		for (m = q->tr_map[w]; m && !at; m &= m - 1)
			at = sq_tring__walk_list(q,
				q->tr_slot[(w << 6) | sq__ctz64(m)], fn, arg,
				who);
	for (l = 0; l < SQ_TRING__LEVELS && !at; l++)
		for (m = q->tr_lmap[l]; m && !at; m &= m - 1)
			at = sq_tring__walk_list(q,
				q->tr_lv[l].lv_slot[sq__ctz64(m) &
						    (SQ_TRING__LSLOTS - 1)],
				fn, arg, who);
	return at;
}

/* visit, visit_until: O(n + Ns/64 + K), or O(k + Ns/64 + K) for k calls
 * of fn: the bitmaps find the occupied slots */
SQ__VISIT(tring)

/*
 * find: @key exactly, at any granularity, in FIFO order.  O(the list
 * @key's tick routes to): every node of one key is on the list enqueue
 * would put it on now (a key below the time never leaves the late list,
 * one at or past it never enters it): a ring slot (one tick: at Tg = 1,
 * one key), the late list, or a level slot (the keys of its span).
 */
static inline struct sq_tring_node *
sq_tring_find(const struct sq_tring *q, uint64_t key,
	      bool (*match)(const struct sq_tring_node *, void *), void *arg)
{
	struct sq_tring_node *h = sq_tring__head(q, key >> q->tr_shift), *n;
	size_t count = q->tr_count;

	(void)count;	/* read only under SQ_DEBUG */
	if (!h)
		return NULL;
	n = h;
	do {
		SQ__STEP(1);
		if (n->key == key) {
			if (!match || match(n, arg))
				return n;
			/* match may change q through its own pointer to it */
			/* cppcheck-suppress knownConditionTrueFalse */
			SQ__MISUSE(q->tr_count != count, "sq_tring_find",
				   "match changed the queue");
		}
		n = n->tr_next;
	} while (n != h);
	return NULL;
}

/* requeue: @n ends after every other node of its new tick; O(1) in place
 * when @n stays in its ring slot or the late list and is already its
 * tail, else dequeue + enqueue; time does not move */
static inline bool sq_tring_requeue(struct sq_tring *q, struct sq_tring_node *n,
				    uint64_t key)
{
	struct sq_tring_node *f = q->tr_first;
	uintptr_t w;
	uint64_t fkey;

	SQ__MISUSE(sq_tring__misaligned(n), "sq_tring_requeue",
		   "node is not 4-byte aligned");
	SQ__MISUSE(sq_tring_queued(n) && sq_tring__elsewhere(q, n),
		   "sq_tring_requeue", "node is on another queue");
	if (!sq_tring_queued(n))
		return sq_tring__insert(q, n, key);
	fkey = f->key;
	w = sq_tring__tag(n);
	if (w == SQ_TRING__SLOT || w == SQ_TRING__LATE) {
		uint64_t t0 = n->key >> q->tr_shift, t1 = key >> q->tr_shift;
		const struct sq_tring_node *head = NULL;

		if (w == SQ_TRING__SLOT) {
			if (t1 == t0)
				head = q->tr_slot[sq_tring__slot_of(t0)];
		} else if (t1 < q->tr_cur) {
			head = q->tr_late;
		}
		if (head && n->tr_next == head) {	/* the tail */
			n->key = key;
			if (f == n)	/* a late tick may change */
				q->tr_ftick = t1;
			return f == n && fkey != key;
		}
	}
	sq_tring__remove(q, n);
	sq_tring__insert(q, n, key);
	/* f may be n: insert set its key */
	/* cppcheck-suppress knownConditionTrueFalse */
	return q->tr_first != f || f->key != fkey;
}

/* ---- fallback: a far slot's lost minimum -------------------------------- */

/*
 * Needed by: a far (level) slot whose first node is dequeued or requeued
 * again and again before time reaches it, while enqueues land anywhere
 * inside its ticks (tests/cost.c, "far: cancel the first").  Entered
 * through one call: sq_tring__lv_first() finds the slot's cached minimum
 * lost and calls sq_tring__lost_min(), at the end of this section.
 *
 * A slot whose lv_mixed bit is clear is in tick order, its head its first:
 * every enqueue came at or above its tail (lv_hi tells, without reading
 * the tail, a cache miss at large n) or below its head, as timers armed
 * by an advancing clock come.  A mixed one is walked and, past
 * SQ_TRING__WALK_MAX nodes, put in order (two runs merged, more radix-
 * sorted: O(its nodes)), so the dequeues that follow take its head.  Most
 * slots are put in order once, just before time reaches them; the second
 * time (lv_sorted) a slot of m nodes goes "in runs", one run of rank
 * log2(m): its list is runs in tick order, oldest first, their ranks the
 * bits of lv_runs, highest first, each run's head linked to the previous
 * one's (the first to the last).  An enqueue below the tail starts a run
 * of rank 0, and the ranks count in binary (Bentley and Saxe's logarithmic
 * method): the last two runs of one rank merge into one of the next.  A
 * node takes part in at most one merge a rank, and there are at most log2
 * of the enqueues ranks, so an enqueue is O(log n) amortised, and the
 * first, the smallest run head, is found in O(log n) without a walk.
 * Merges are stable and join neighbours: list order stays (re)queue order
 * among equal ticks (invariant 4).  Until the slot empties or cascades,
 * sq_tring__lv_put() calls sq_tring__run_add() for an enqueue below its
 * tail, and sq_tring__remove_level() sq_tring__run_drop() when a run head
 * leaves.
 */

/* A mixed slot longer than this is put in order when its minimum is next
 * needed; a shorter one is only walked: O(1), and cheaper than a sort. */
#define SQ_TRING__WALK_MAX 32u
/* The sort's digit: 16 buckets, 2 * 16 pointers on the stack. */
#define SQ_TRING__SORT_BITS 4u

/*
 * Sort the list at *@head, whose ticks differ only in the bits of @diff
 * (not 0), by tick: a least-significant-digit radix sort, stable (equal
 * ticks keep their list order, invariant 4), a pass per 4-bit digit from
 * the lowest bit of @diff to its highest: at most 16 passes, O(its nodes).
 */
SQ__SLOW void sq_tring__lv_sort(const struct sq_tring *q,
				struct sq_tring_node **head, uint64_t diff)
{
	/* a bucket is read only once its bit in used is set; the initialiser
	 * is for the analysers, which do not follow used */
	struct sq_tring_node *bhead[1u << SQ_TRING__SORT_BITS] = { NULL };
	struct sq_tring_node *btail[1u << SQ_TRING__SORT_BITS] = { NULL };
	struct sq_tring_node *n, *next, *first = *head, *last;
	unsigned sh = sq__ctz64(diff), top = 63u - sq__clz64(diff), b;
	uint32_t used;

	first->tr_prev->tr_next = NULL;	/* a NULL-ended chain while sorting */
	for (;; sh += SQ_TRING__SORT_BITS) {
		used = 0;
		for (n = first; n; n = next) {
			SQ__STEP(1);
			next = n->tr_next;
			b = (unsigned)((n->key >> q->tr_shift) >> sh) &
			    ((1u << SQ_TRING__SORT_BITS) - 1);
			if ((used >> b) & 1)
				btail[b]->tr_next = n;
			else
				bhead[b] = n;
			btail[b] = n;
			used |= (uint32_t)1 << b;
		}
		/* the buckets in order (the lowest is not empty: used != 0) */
		b = sq__ctz64(used) & ((1u << SQ_TRING__SORT_BITS) - 1);
		first = bhead[b];
		last = btail[b];
		for (used &= used - 1; used; used &= used - 1) {
			SQ__STEP(1);
			b = sq__ctz64(used) & ((1u << SQ_TRING__SORT_BITS) - 1);
			last->tr_next = bhead[b];
			last = btail[b];
		}
		last->tr_next = NULL;
		if (top - sh < SQ_TRING__SORT_BITS)
			break;
	}
	/* the back links, and the circle closed again */
	for (last->tr_next = first, n = first; n != last; n = n->tr_next) {
		SQ__STEP(1);
		n->tr_next->tr_prev = n;
	}
	first->tr_prev = last;
	*head = first;
}

/*
 * Merge two runs in tick order that end the list at *@head, one from @a to
 * the node before @b, the other from @b to the tail, into one run, and
 * return its first node: stable (@a's run wins ties), and it stops where
 * a run ends, so a few keys out of order cost their places.
 */
SQ__SLOW struct sq_tring_node *sq_tring__lv_merge(const struct sq_tring *q,
						 struct sq_tring_node **head,
						 struct sq_tring_node *a,
						 struct sq_tring_node *b)
{
	struct sq_tring_node *h = *head, *aend = b->tr_prev, *tail = h->tr_prev;
	struct sq_tring_node *pred = a == h ? NULL : a->tr_prev;
	struct sq_tring_node *first = NULL, *last = NULL, *n;

	aend->tr_next = NULL;
	tail->tr_next = NULL;
	while (a && b) {
		SQ__STEP(1);
		if ((b->key >> q->tr_shift) < (a->key >> q->tr_shift)) {
			n = b;
			b = b->tr_next;
		} else {
			n = a;
			a = a->tr_next;
		}
		if (last)
			last->tr_next = n;
		else
			first = n;
		n->tr_prev = last;
		last = n;
	}
	n = a ? a : b;			/* the rest, linked both ways */
	last->tr_next = n;
	n->tr_prev = last;
	tail = a ? aend : tail;
	/* pred: between the runs before and the head; else the whole list */
	if (pred) {
		pred->tr_next = first;
		first->tr_prev = pred;
		tail->tr_next = h;
		h->tr_prev = tail;
	} else {
		tail->tr_next = first;
		first->tr_prev = tail;
		*head = first;
	}
	return first;
}

/* Make level node @n a run head linked to @link, or, @link NULL, not one. */
SQ__INLINE void sq_tring__set_run_link(struct sq_tring_node *n,
				       const struct sq_tring_node *link)
{
	n->tr_tag = (uintptr_t)(const void *)link | SQ_TRING__LEVEL;
}

/* @n, appended to slot @d in runs below its tail, starts a run of rank 0;
 * each carry merges the last two runs. */
SQ__SLOW void sq_tring__run_add(const struct sq_tring *q,
				struct sq_tring__level *lv, unsigned d,
				struct sq_tring_node *n)
{
	struct sq_tring_node *first = lv->lv_slot[d], *last, *prev, *m;
	uint64_t r = lv->lv_runs[d];

	sq_tring__set_run_link(n, sq_tring__run_link(first));
	sq_tring__set_run_link(first, n);
	lv->lv_runs[d] = r + 1;
	for (; r & 1; r >>= 1) {	/* a carry: merge the last two runs */
		first = lv->lv_slot[d];
		last = sq_tring__run_link(first);
		prev = sq_tring__run_link(last);
		m = prev == first ? NULL : sq_tring__run_link(prev);
		prev->tr_tag = SQ_TRING__LEVEL;
		last->tr_tag = SQ_TRING__LEVEL;
		prev = sq_tring__lv_merge(q, &lv->lv_slot[d], prev, last);
		if (m) {
			sq_tring__set_run_link(prev, m);
			sq_tring__set_run_link(lv->lv_slot[d], prev);
		} else {	/* the only run */
			sq_tring__set_run_link(prev, prev);
		}
	}
}

/* The first node of slot @d in runs: the smallest run head, the earliest
 * run's among equal ticks.  The links are read last run first. */
SQ__SLOW struct sq_tring_node *
sq_tring__run_min(const struct sq_tring *q, const struct sq_tring__level *lv,
		  unsigned d)
{
	struct sq_tring_node *first = lv->lv_slot[d];
	struct sq_tring_node *n = sq_tring__run_link(first), *best = n;

	while (n != first) {	/* later runs first: "<=" keeps the earliest */
		SQ__STEP(1);
		n = sq_tring__run_link(n);
		if ((n->key >> q->tr_shift) <= (best->key >> q->tr_shift))
			best = n;
	}
	return best;
}

/*
 * Run head @n of slot @d in runs leaves it (its list links are still
 * whole, and it is not the slot's only node): the next node of its run,
 * if any, heads the run in its place, else the run and its rank go.  The
 * head linked to @n is found by following the links from the first run.
 */
SQ__SLOW void sq_tring__run_drop(struct sq_tring__level *lv, unsigned d,
				 struct sq_tring_node *n)
{
	struct sq_tring_node *first = lv->lv_slot[d], *p = first;
	struct sq_tring_node *link = sq_tring__run_link(n), *nx = n->tr_next;
	uint64_t r = lv->lv_runs[d];
	unsigned below = 0;	/* runs after @n's */

	while (sq_tring__run_link(p) != n) {
		SQ__STEP(1);
		p = sq_tring__run_link(p);
		below++;
	}
	if (!sq_tring__run_link(nx)) {	/* @n's run goes on: nx heads it */
		sq_tring__set_run_link(nx, link == n ? nx : link);
		if (p != n)
			sq_tring__set_run_link(p, nx);
		return;
	}
	sq_tring__set_run_link(p, link);
	while (below--)			/* the bit of @n's run: the lowest */
		r &= r - 1;		/* but one per run after it */
	lv->lv_runs[d] &= ~(r & (~r + 1));
}

/* The first node of mixed slot @d of @lv, by a walk, and cached; a long
 * slot is put in order too, the second time in runs. */
SQ__SLOW struct sq_tring_node *sq_tring__lv_walk(struct sq_tring *q,
						struct sq_tring__level *lv,
						unsigned d)
{
	struct sq_tring_node *h, *n, *best, *run = NULL;
	unsigned m = 1, runs = 1;
	uint64_t bt, t, prev, diff = 0;	/* diff: bits that differ from h's */

	h = best = lv->lv_slot[d];
	bt = prev = h->key >> q->tr_shift;
	for (n = h->tr_next; n != h; n = n->tr_next) {
		SQ__STEP(1);
		t = n->key >> q->tr_shift;
		if (t < prev) {		/* a run of tick order starts at n */
			runs++;
			run = n;
		}
		diff |= t ^ (h->key >> q->tr_shift);
		prev = t;
		m++;
		if (t < bt) {
			best = n;
			bt = t;
		}
	}
	if (m > SQ_TRING__WALK_MAX) {	/* put in order; the second time, */
		if (runs == 2)		/* in runs from then on */
			(void)sq_tring__lv_merge(q, &lv->lv_slot[d], h, run);
		else if (runs > 2)
			sq_tring__lv_sort(q, &lv->lv_slot[d], diff);
		best = lv->lv_slot[d];
		if ((lv->lv_sorted >> d) & 1) {
			sq_tring__set_run_link(best, best);
			lv->lv_runs[d] = (uint64_t)1 << (63u - sq__clz64(m));
		}
		lv->lv_sorted |= (uint64_t)1 << d;
		runs = 1;
	}
	if (runs == 1) {	/* in order: its tail has the largest tick */
		lv->lv_mixed &= ~((uint64_t)1 << d);
		lv->lv_hi[d] = lv->lv_slot[d]->tr_prev->key >> q->tr_shift;
	}
	sq_tring__set_min(lv, d, best, bt);
	return best;
}

/* The fallback's entry: the first node of slot @d of @lv, whose cached
 * minimum is lost, found and cached again. */
SQ__INLINE struct sq_tring_node *
sq_tring__lost_min(struct sq_tring *q, struct sq_tring__level *lv, unsigned d)
{
	struct sq_tring_node *best;

	if (lv->lv_runs[d])
		best = sq_tring__run_min(q, lv, d);
	else if (!((lv->lv_mixed >> d) & 1))
		best = lv->lv_slot[d];	/* in tick order: the head */
	else
		return sq_tring__lv_walk(q, lv, d);
	sq_tring__set_min(lv, d, best, best->key >> q->tr_shift);
	return best;
}

/* ---- fallback: due nodes behind one that is not ------------------------ */

/*
 * Needed by: sq_tring_expire() at Tg > 1, when the first node lies in
 * @now's tick but past @now while due nodes of that tick stand behind it
 * (a tick's list is FIFO, not by key), or is a late node past @now (the
 * ring's time is past @now: only late nodes can be due).  Entered through
 * one call, sq_tring__due_first(), which puts the list's due nodes before
 * the others, each part in its order, so that they pop first.
 */

/* Split the list at *@head into its nodes with keys <= @now, then the
 * rest; true if the first part is not empty. */
SQ__SLOW bool sq_tring__due_front(struct sq_tring_node **head, uint64_t now)
{
	struct sq_tring_node *h = *head, *n = h, *next, *dt, *rt;
	struct sq_tring_node *due = NULL, *rest = NULL;

	do {
		SQ__STEP(1);
		next = n->tr_next;
		(void)sq_tring__list_add(n->key <= now ? &due : &rest, n);
		n = next;
	} while (n != h);
	if (!due) {
		*head = rest;
		return false;
	}
	if (rest) {		/* the two circles made one: due, then rest */
		dt = due->tr_prev;
		rt = rest->tr_prev;
		dt->tr_next = rest;
		rest->tr_prev = dt;
		rt->tr_next = due;
		due->tr_prev = rt;
	}
	*head = due;
	return true;
}

/* The first node is past @now: the first due node of its list (the late
 * list, or @now's tick's ring slot) made first; false when none is due. */
SQ__SLOW bool sq_tring__due_first(struct sq_tring *q, uint64_t now)
{
	uint64_t t = now >> q->tr_shift;
	unsigned s = sq_tring__slot_of(t);

	if (sq_tring__tag(q->tr_first) == SQ_TRING__LATE) {
		if (!sq_tring__due_front(&q->tr_late, now))
			return false;
		sq_tring__set_first(q, q->tr_late);
		return true;
	}
	/* a first of @now's tick may wait in a level: time brings it in */
	(void)sq_tring_advance(q, now);
	if (q->tr_ftick != t || sq_tring__tag(q->tr_first) != SQ_TRING__SLOT ||
	    !sq_tring__due_front(&q->tr_slot[s], now))
		return false;
	q->tr_first = q->tr_slot[s];	/* the same tick */
	return true;
}

/* ---- check -------------------------------------------------------------- */

/* Walk the list at @h, whose nodes must carry @tag (with a run link only
 * if @runs; in a ring or level slot, sit in slot @s of level @l): links,
 * tags, places; count them into *@seen; *@best gets its first node
 * (smallest tick, earliest).  @who names the caller. */
static inline int sq_tring__check_list(const struct sq_tring *q,
				       const struct sq_tring_node *h,
				       uintptr_t tag, bool runs,
				       unsigned l, unsigned s, size_t *seen,
				       const struct sq_tring_node **best,
				       const char *who)
{
	const uint64_t cur = q->tr_cur, anchor = (cur >> SQ_TRING__H) + 1;
	const struct sq_tring_node *n = h;
	uint64_t t, bt = h->key >> q->tr_shift;

	*best = h;
	do {
		SQ__STEP(1);
		const struct sq_tring_node *nx = n->tr_next;

		SQ__CHECK(++*seen <= q->tr_count, who, n,
			  "more nodes than the count");
		SQ__CHECK(sq_tring__tag(n) == tag, who, n,
			  "node's tag is not its list's");
		SQ__CHECK(n->tr_tag == tag || runs, who, n,
			  "run link in a list not in runs");
		SQ__CHECK(nx && n->tr_prev, who, n, "NULL list link");
		SQ__CHECK(nx->tr_prev == n, who, n, "list links disagree");
		t = n->key >> q->tr_shift;
		if (tag == SQ_TRING__LATE) {
			SQ__CHECK(t < cur, who, n,
				  "late node at or after the ring's time");
		} else if (tag == SQ_TRING__SLOT) {
			SQ__CHECK(sq_tring__in_ring(t, cur), who, n,
				  "ring node outside the ring");
			SQ__CHECK(sq_tring__slot_of(t) == s, who, n,
				  "ring node in the wrong slot");
		} else {
			uint64_t u = t >> SQ_TRING__H;

			SQ__CHECK(u > anchor, who, n,
				  "level node not past the ring");
			SQ__CHECK((63u - sq__clz64(u ^ anchor)) /
				  SQ_TRING__B == l &&
				  sq_tring__digit(u, l) == s, who, n,
				  "level node in the wrong level or slot");
			SQ__CHECK(t <= q->tr_lv[l].lv_hi[s] ||
				  ((q->tr_lv[l].lv_mixed >> s) & 1), who, n,
				  "level node above its slot's largest tick");
		}
		if (t < bt) {
			*best = n;
			bt = t;
		}
		n = nx;
	} while (n != h);
	return 0;
}

/* Level slot @s's order (invariant 6), in runs or not mixed: each run is
 * in tick order (not in runs, the list is one), and the run heads are
 * linked as lv_runs says. */
static inline int sq_tring__check_runs(const struct sq_tring *q,
				       const struct sq_tring__level *lv,
				       unsigned s, const char *who)
{
	const struct sq_tring_node *h = lv->lv_slot[s], *n = h, *last = NULL;
	const uint64_t r = lv->lv_runs[s];
	unsigned heads = 0, bits = 0;
	uint64_t b;

	for (b = r; b; b &= b - 1)
		bits++;
	SQ__CHECK(!r || sq_tring__run_link(h), who, h,
		  "first node of a slot in runs heads no run");
	do {
		SQ__STEP(1);
		const struct sq_tring_node *nx = n->tr_next;

		if (sq_tring__run_link(n)) {
			SQ__CHECK(n == h || sq_tring__run_link(n) == last,
				  who, n,
				  "run head not linked to the run before");
			last = n;
			heads++;
		}
		SQ__CHECK(nx == h || sq_tring__run_link(nx) ||
			  (n->key >> q->tr_shift) <= (nx->key >> q->tr_shift),
			  who, n, "level slot in order or in runs is out of"
			  " tick order");
		n = nx;
	} while (n != h);
	SQ__CHECK(!r || sq_tring__run_link(h) == last, who, h,
		  "first run not linked to the last");
	SQ__CHECK(heads == (r ? bits : 0), who, h,
		  "run heads disagree with the slot's ranks");
	return 0;
}

/* check: invariants (1)-(8) of this header; O(Ns + K * 2^B + n),
 * iterative, O(1) extra space */
static inline int sq_tring_check(const struct sq_tring *q)
{
	const char *who = "sq_tring_check";
	const uint64_t cur = q->tr_cur;
	const struct sq_tring_node *h, *best, *expect, *lvfirst = NULL;
	size_t seen = 0;
	unsigned s, w, i, l;

	SQ__CHECK(q->tr_shift <= 63, who, q, "granularity shift above 63");
	SQ__CHECK(cur <= UINT64_MAX >> q->tr_shift, who, q,
		  "current tick out of range");

	/* the late list, then the ring's slots, bitmap and summary */
	if (q->tr_late && sq_tring__check_list(q, q->tr_late, SQ_TRING__LATE,
					       false, 0, 0, &seen, &best, who))
		return -1;
	for (s = 0; s < SQ_TRING_SLOTS; s++)
		if (q->tr_slot[s] &&
		    sq_tring__check_list(q, q->tr_slot[s], SQ_TRING__SLOT,
					 false, 0, s, &seen, &best, who))
			return -1;
	for (w = 0; w < SQ_TRING__WORDS; w++) {
		SQ__STEP(1);
		uint64_t bits = 0;

		for (i = 0; i < 64; i++)
			if (q->tr_slot[(w << 6) | i])
				bits |= (uint64_t)1 << i;
		SQ__CHECK(q->tr_map[w] == bits, who,
			  q->tr_slot[(w << 6) | sq__ctz64(q->tr_map[w] ^ bits)],
			  "bitmap bit disagrees with its slot");
		SQ__CHECK(((q->tr_summary >> w) & 1) == (bits != 0), who, q,
			  "summary bit disagrees with its word");
	}
	SQ__CHECK(((q->tr_summary >> (SQ_TRING__WORDS - 1)) >> 1) == 0, who, q,
		  "summary bit past the last word");

	/* each level: bitmap against slots, every node in its place, the
	 * cached minima; the lowest level's first slot's first node */
	for (l = 0; l < SQ_TRING__LEVELS; l++) {
		SQ__STEP(1);
		const struct sq_tring__level *lv = &q->tr_lv[l];

		for (s = 0; s < SQ_TRING__LSLOTS; s++) {
			SQ__STEP(1);
			h = lv->lv_slot[s];
			SQ__CHECK(((q->tr_lmap[l] >> s) & 1) == (h != NULL),
				  who, h ? (const void *)h : (const void *)q,
				  "level bitmap bit disagrees with its slot");
			if (!h) {
				SQ__CHECK(!lv->lv_min[s], who, q,
					  "empty level slot has a cached"
					  " minimum");
				continue;
			}
			if (sq_tring__check_list(q, h, SQ_TRING__LEVEL,
						 lv->lv_runs[s] != 0, l, s,
						 &seen, &best, who))
				return -1;
			SQ__CHECK(!lv->lv_min[s] || lv->lv_min[s] == best, who,
				  lv->lv_min[s],
				  "level slot's cached minimum is not"
				  " its first node");
			SQ__CHECK(lv->lv_mtick[s] == (lv->lv_min[s] ?
				  lv->lv_min[s]->key >> q->tr_shift : 0), who,
				  lv->lv_min[s] ? (const void *)lv->lv_min[s]
						: (const void *)q,
				  "level slot's cached minimum tick is not"
				  " its first node's (0 when not known)");
			if ((lv->lv_runs[s] || !((lv->lv_mixed >> s) & 1)) &&
			    sq_tring__check_runs(q, lv, s, who))
				return -1;
			if (!lvfirst)
				lvfirst = best;
		}
		SQ__CHECK(SQ_TRING__LSLOTS == 64 ||
			  (q->tr_lmap[l] >> (SQ_TRING__LSLOTS & 63)) == 0, who,
			  q, "level bitmap bit past its slots");
		SQ__CHECK(((q->tr_levels >> l) & 1) == (q->tr_lmap[l] != 0),
			  who, q, "levels bit disagrees with its level");
	}
	SQ__CHECK((q->tr_levels >> (SQ_TRING__LEVELS - 1)) >> 1 == 0, who, q,
		  "levels bit past the last level");
	SQ__CHECK(seen == q->tr_count, who, q, "fewer nodes than the count");

	/* the cached first, found the slow way */
	expect = q->tr_late;
	for (i = 0; !expect && i < SQ_TRING_SLOTS; i++) {
		SQ__STEP(1);
		s = (sq_tring__slot_of(cur) + i) & (unsigned)SQ_TRING__MASK;
		expect = q->tr_slot[s];
	}
	if (!expect)
		expect = lvfirst;
	SQ__CHECK(q->tr_first == expect, who, q->tr_first,
		  "cached first is not the first node");
	if (expect)
		SQ__CHECK(q->tr_ftick == expect->key >> q->tr_shift, who,
			  expect,
			  "cached first tick is not the first node's tick");
	return 0;
}

#endif /* SMARTQ_TRING_H */
