/* SPDX-License-Identifier: MIT */
/*
 * bench/peers-stream.h - the peers whose walks stream over cached keys
 *
 * The strongest structures a simulator or timer author picks instead of
 * smartq, written here from their papers, with the contract's names so
 * that the harness's loop drives them as it drives every backend
 * (peers.h says how; these are the same kind of peer, kept apart only
 * because peers.h is long):
 *
 *   peer_radix  a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster
 *               algorithms for the shortest path problem", JACM 37(2),
 *               1990), in its one-level form: keys are monotone (never
 *               below the last key popped, "last"); bucket 0 holds the
 *               keys equal to last, bucket i (1..64) those whose highest
 *               bit differing from last is bit i-1.  Each bucket is a
 *               contiguous growable array of (key, node) pairs.  Pop takes
 *               bucket 0's head; when bucket 0 is empty the lowest
 *               non-empty bucket is spilled: last becomes its least key
 *               and each pair moves to a lower bucket, a sequential walk
 *               that never loads a node.  Arbitrary dequeue needs each
 *               node's place, which every move would then store into the
 *               node: that is kept only from the first dequeue on (hold
 *               and DES never dequeue, so they pay nothing for it); a
 *               dequeue leaves a hole, skipped by the walks and squeezed
 *               out when a bucket is half holes.
 *   peer_heap4  a 4-ary heap with the keys cached beside the pointers, as
 *               libev's timer heap (ev.c, "4-heap" with ANHE entries):
 *               an array of (key, node), the root at index 3 so that the
 *               four children of a node share one 64-byte line; each node
 *               holds its index (libev's ev_active) for arbitrary removal.
 *   peer_wheel  a hierarchical timing wheel (Varghese and Lauck, "Hashed
 *               and hierarchical timing wheels", SOSP 1987), with the
 *               Linux 4.8 wheel's 64 slots a level and its pending
 *               bitmaps (kernel/time/timer.c), 11 levels of 6 bits for
 *               64-bit ticks (tick = key >> G, the run's granularity, as
 *               tring's): a key goes to the level of the highest 6-bit
 *               group in which its tick differs from the wheel's time.
 *               Unlike the 4.8 wheel, which never cascades and so fires a
 *               timer late by up to an eighth of its timeout, a level's
 *               slot cascades down as time reaches it (Varghese and
 *               Lauck's scheme), so the wheel is exact to its
 *               granularity, as tring is, and can be held to the same
 *               correctness pass.
 *
 * All three are stable (equal keys FIFO, the heap by a sequence number)
 * and refuse a key below the last one popped (a late timer): the
 * harness's workloads never make one, and a structure that would file it
 * out of order must not pass silently.  Each has a _check().
 */
#ifndef SQ_BENCH_PEERS_STREAM_H
#define SQ_BENCH_PEERS_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "smartq/common.h"

static inline void bq_late_key(const char *who, uint64_t key, uint64_t last)
{
	fprintf(stderr, "bench: %s: key %llu below the last popped %llu "
		"(monotone keys only)\n", who, (unsigned long long)key,
		(unsigned long long)last);
	exit(2);
}

/* ---------------------------------------------------------------------
 * peer_radix: a radix heap of (key, node) pairs
 */
#define BQ_RX_BUCKETS 65
#define BQ_RX_NONE    UINT32_MAX		/* not queued */
#define BQ_RX_ANY     (UINT32_MAX - 1)		/* queued, place not kept */

struct sq_peer_radix_node {
	uint64_t key;
	uint32_t rx_bucket;	/* BQ_RX_NONE, BQ_RX_ANY, or 0..64 */
	uint32_t rx_index;	/* in the bucket's array, when kept */
};

struct bq_rx_pair {
	uint64_t key;
	struct sq_peer_radix_node *n;	/* NULL: a hole left by dequeue */
};

struct bq_rx_bucket {
	struct bq_rx_pair *a;
	uint32_t head, len, cap, live;	/* pairs [head, len), live of them */
	uint32_t min_at;		/* buckets 1..64: the least key's
					 * first pair */
	uint64_t min;
};

struct sq_peer_radix {
	struct bq_rx_bucket rx_b[BQ_RX_BUCKETS];
	uint64_t rx_last;	/* the last key popped */
	uint64_t rx_mask;	/* bit i-1: bucket i has a live pair */
	size_t rx_count;
	bool rx_track;		/* each node's place kept (a dequeue came) */
};

static inline unsigned bq_rx_bucket_of(uint64_t key, uint64_t last)
{
	return key == last ? 0u : 64u - sq__clz64(key ^ last);
}

static inline void sq_peer_radix_init(struct sq_peer_radix *q)
{
	memset(q, 0, sizeof(*q));
}

static inline void sq_peer_radix_node_init(struct sq_peer_radix_node *n)
{
	n->rx_bucket = BQ_RX_NONE;
}

static void bq_rx_grow(struct bq_rx_bucket *b)
{
	b->cap = b->cap ? 2 * b->cap : 16;
	b->a = (struct bq_rx_pair *)bq_xrealloc(b->a,
						b->cap * sizeof(*b->a));
}

/* Append (key, n) to bucket @i, keeping its least key and @n's place. */
static inline void bq_rx_push(struct sq_peer_radix *q, unsigned i,
			      uint64_t key, struct sq_peer_radix_node *n)
{
	struct bq_rx_bucket *b = &q->rx_b[i];
	uint32_t at;

	if (b->len == b->cap)
		bq_rx_grow(b);
	at = b->len++;
	b->a[at].key = key;
	b->a[at].n = n;
	if (i && (!b->live || key < b->min)) {
		b->min = key;
		b->min_at = at;
	}
	if (i)
		q->rx_mask |= (uint64_t)1 << (i - 1);
	b->live++;
	if (q->rx_track) {
		n->rx_bucket = i;
		n->rx_index = at;
	}
}

static inline struct sq_peer_radix_node *
sq_peer_radix_first(const struct sq_peer_radix *q)
{
	const struct bq_rx_bucket *b = &q->rx_b[0];

	if (b->live)
		return b->a[b->head].n;
	if (!q->rx_mask)
		return NULL;
	b = &q->rx_b[sq__ctz64(q->rx_mask) + 1];
	return b->a[b->min_at].n;
}

static inline bool sq_peer_radix_enqueue(struct sq_peer_radix *q,
					 struct sq_peer_radix_node *n,
					 uint64_t key)
{
	if (key < q->rx_last)
		bq_late_key("radix", key, q->rx_last);
	n->key = key;
	n->rx_bucket = BQ_RX_ANY;
	bq_rx_push(q, bq_rx_bucket_of(key, q->rx_last), key, n);
	q->rx_count++;
	return sq_peer_radix_first(q) == n;
}

/*
 * Bucket 0 is empty: the lowest non-empty bucket's least key becomes
 * last, and every pair of that bucket moves down (each to a bucket below
 * it: its keys agree with the new last on every bit above the bucket's),
 * in array order, so equal keys keep their order.
 */
static void bq_rx_spill(struct sq_peer_radix *q)
{
	unsigned j = sq__ctz64(q->rx_mask) + 1;
	struct bq_rx_bucket *b = &q->rx_b[j];
	uint32_t i;

	q->rx_last = b->min;
	for (i = b->head; i < b->len; i++)
		if (b->a[i].n)
			bq_rx_push(q, bq_rx_bucket_of(b->a[i].key, q->rx_last),
				   b->a[i].key, b->a[i].n);
	b->head = b->len = b->live = 0;
	q->rx_mask &= ~((uint64_t)1 << (j - 1));
}

/* The least key of bucket @i again, after its least pair left. */
static void bq_rx_rescan(struct bq_rx_bucket *b)
{
	uint32_t i;
	bool any = false;

	for (i = b->head; i < b->len; i++)
		if (b->a[i].n && (!any || b->a[i].key < b->min)) {
			b->min = b->a[i].key;
			b->min_at = i;
			any = true;
		}
}

/* Squeeze out of bucket @i the holes and the pairs before its head, in
 * order (amortised: it is called when they are half the bucket). */
static void bq_rx_compact(struct sq_peer_radix *q, unsigned i)
{
	struct bq_rx_bucket *b = &q->rx_b[i];
	uint32_t r, w = 0;

	for (r = b->head; r < b->len; r++)
		if (b->a[r].n) {
			b->a[w] = b->a[r];
			if (q->rx_track)
				b->a[w].n->rx_index = w;
			w++;
		}
	b->head = 0;
	b->len = w;
	if (i)
		bq_rx_rescan(b);
}

/* The first dequeue: from now on every move stores the node's place. */
static void bq_rx_track(struct sq_peer_radix *q)
{
	unsigned i;
	uint32_t k;

	for (i = 0; i < BQ_RX_BUCKETS; i++)
		for (k = q->rx_b[i].head; k < q->rx_b[i].len; k++)
			if (q->rx_b[i].a[k].n) {
				q->rx_b[i].a[k].n->rx_bucket = i;
				q->rx_b[i].a[k].n->rx_index = k;
			}
	q->rx_track = true;
}

/* Remove pair @at of bucket @i (its node already unmarked). */
static inline void bq_rx_remove(struct sq_peer_radix *q, unsigned i,
				uint32_t at)
{
	struct bq_rx_bucket *b = &q->rx_b[i];

	b->a[at].n = NULL;
	q->rx_count--;
	if (!--b->live) {
		b->head = b->len = 0;
		if (i)
			q->rx_mask &= ~((uint64_t)1 << (i - 1));
		return;
	}
	while (!b->a[b->head].n)
		b->head++;
	if (b->len >= 2 * b->live + 16)
		bq_rx_compact(q, i);
	else if (i && at == b->min_at)
		bq_rx_rescan(b);
}

static inline struct sq_peer_radix_node *
sq_peer_radix_pop(struct sq_peer_radix *q)
{
	struct bq_rx_bucket *b = &q->rx_b[0];
	struct sq_peer_radix_node *n;

	if (!b->live) {
		if (!q->rx_mask)
			return NULL;
		bq_rx_spill(q);
	}
	n = b->a[b->head].n;
	n->rx_bucket = BQ_RX_NONE;
	bq_rx_remove(q, 0, b->head);
	return n;
}

static inline bool sq_peer_radix_dequeue(struct sq_peer_radix *q,
					 struct sq_peer_radix_node *n)
{
	bool first;
	unsigned i;

	if (!q->rx_track)
		bq_rx_track(q);
	first = sq_peer_radix_first(q) == n;
	i = n->rx_bucket;
	n->rx_bucket = BQ_RX_NONE;
	bq_rx_remove(q, i, n->rx_index);
	return first;
}

static inline bool sq_peer_radix_empty(const struct sq_peer_radix *q)
{
	return q->rx_count == 0;
}

static inline size_t sq_peer_radix_count(const struct sq_peer_radix *q)
{
	return q->rx_count;
}

static inline bool sq_peer_radix_queued(const struct sq_peer_radix_node *n)
{
	return n->rx_bucket != BQ_RX_NONE;
}

/* Every live pair in its key's bucket, its key the node's, its place
 * kept (once tracked); the bucket mask, live counts, least keys (first
 * of equals), heads on live pairs; the count. */
static inline int sq_peer_radix_check(const struct sq_peer_radix *q)
{
	size_t count = 0;
	unsigned i;

	for (i = 0; i < BQ_RX_BUCKETS; i++) {
		const struct bq_rx_bucket *b = &q->rx_b[i];
		uint32_t k, live = 0, min_at = 0;
		uint64_t min = 0;

		for (k = b->head; k < b->len; k++) {
			const struct bq_rx_pair *p = &b->a[k];

			if (!p->n)
				continue;
			if (p->key < q->rx_last || p->n->key != p->key ||
			    bq_rx_bucket_of(p->key, q->rx_last) != i)
				return -1;
			if (q->rx_track ? p->n->rx_bucket != i ||
					  p->n->rx_index != k
					: p->n->rx_bucket != BQ_RX_ANY)
				return -1;
			if (!live || p->key < min) {
				min = p->key;
				min_at = k;
			}
			live++;
		}
		if (live != b->live || (live && !b->a[b->head].n))
			return -1;
		if (i && ((q->rx_mask >> (i - 1) & 1) != (live != 0) ||
			  (live && (b->min != min || b->min_at != min_at))))
			return -1;
		count += live;
	}
	return count == q->rx_count ? 0 : -1;
}

BQ_PEER_REQUEUE_POP_DUE(radix)

static inline void sq_peer_radix_destroy(struct sq_peer_radix *q)
{
	unsigned i;

	for (i = 0; i < BQ_RX_BUCKETS; i++)
		free(q->rx_b[i].a);
	sq_peer_radix_init(q);
}

/* ---------------------------------------------------------------------
 * peer_heap4: a 4-ary heap of (key, node) entries, libev's layout
 */
#define BQ_H4_ROOT 3u	/* children of k: 4k - 8 .. 4k - 5 */
#define BQ_H4_NONE UINT32_MAX

struct sq_peer_heap4_node {
	uint64_t key;
	uint64_t h4_seq;	/* equal keys: FIFO */
	uint32_t h4_index;	/* BQ_H4_NONE when not queued */
};

struct bq_h4_entry {
	uint64_t key;
	struct sq_peer_heap4_node *n;
};

struct sq_peer_heap4 {
	struct bq_h4_entry *h4_a;	/* 64-byte aligned */
	uint32_t h4_end, h4_cap;	/* entries [ROOT, end) */
	uint64_t h4_seq;
};

static inline bool bq_h4_less(const struct bq_h4_entry *a,
			      const struct bq_h4_entry *b)
{
	return a->key < b->key ||
	       (a->key == b->key && a->n->h4_seq < b->n->h4_seq);
}

static inline void bq_h4_put(struct sq_peer_heap4 *q, uint32_t k,
			     struct bq_h4_entry e)
{
	q->h4_a[k] = e;
	e.n->h4_index = k;
}

static inline void bq_h4_up(struct sq_peer_heap4 *q, uint32_t k,
			    struct bq_h4_entry e)
{
	while (k > BQ_H4_ROOT) {
		uint32_t p = ((k - 4) >> 2) + BQ_H4_ROOT;

		if (!bq_h4_less(&e, &q->h4_a[p]))
			break;
		bq_h4_put(q, k, q->h4_a[p]);
		k = p;
	}
	bq_h4_put(q, k, e);
}

static inline void bq_h4_down(struct sq_peer_heap4 *q, uint32_t k,
			      struct bq_h4_entry e)
{
	const struct bq_h4_entry *a = q->h4_a;
	uint32_t end = q->h4_end;

	for (;;) {
		uint32_t c = 4 * k - 8, best = c, i;

		if (c >= end)
			break;
		if (c + 3 < end) {	/* all four: libev's fast path */
			best = bq_h4_less(&a[c + 1], &a[c]) ? c + 1 : c;
			best = bq_h4_less(&a[c + 2], &a[best]) ? c + 2 : best;
			best = bq_h4_less(&a[c + 3], &a[best]) ? c + 3 : best;
		} else {
			for (i = c + 1; i < end; i++)
				if (bq_h4_less(&a[i], &a[best]))
					best = i;
		}
		if (!bq_h4_less(&a[best], &e))
			break;
		bq_h4_put(q, k, a[best]);
		k = best;
	}
	bq_h4_put(q, k, e);
}

static inline void sq_peer_heap4_init(struct sq_peer_heap4 *q)
{
	q->h4_a = NULL;
	q->h4_end = BQ_H4_ROOT;
	q->h4_cap = 0;
	q->h4_seq = 0;
}

static inline void sq_peer_heap4_node_init(struct sq_peer_heap4_node *n)
{
	n->h4_index = BQ_H4_NONE;
}

static void bq_h4_grow(struct sq_peer_heap4 *q)
{
	uint32_t cap = q->h4_cap ? 2 * q->h4_cap : 64;
	struct bq_h4_entry *a = (struct bq_h4_entry *)bq_xalloc_lines(
		cap * sizeof(*a));

	if (q->h4_a)
		memcpy(a, q->h4_a, q->h4_end * sizeof(*a));
	free(q->h4_a);
	q->h4_a = a;
	q->h4_cap = cap;
}

static inline bool sq_peer_heap4_enqueue(struct sq_peer_heap4 *q,
					 struct sq_peer_heap4_node *n,
					 uint64_t key)
{
	struct bq_h4_entry e;

	if (q->h4_end >= q->h4_cap)
		bq_h4_grow(q);
	n->key = key;
	n->h4_seq = q->h4_seq++;
	e.key = key;
	e.n = n;
	bq_h4_up(q, q->h4_end++, e);
	return n->h4_index == BQ_H4_ROOT;
}

static inline struct sq_peer_heap4_node *
sq_peer_heap4_first(const struct sq_peer_heap4 *q)
{
	return q->h4_end > BQ_H4_ROOT ? q->h4_a[BQ_H4_ROOT].n : NULL;
}

static inline bool sq_peer_heap4_dequeue(struct sq_peer_heap4 *q,
					 struct sq_peer_heap4_node *n)
{
	uint32_t k = n->h4_index;
	struct bq_h4_entry last = q->h4_a[--q->h4_end];

	n->h4_index = BQ_H4_NONE;
	if (k == q->h4_end)
		return k == BQ_H4_ROOT;
	if (k > BQ_H4_ROOT &&
	    bq_h4_less(&last, &q->h4_a[((k - 4) >> 2) + BQ_H4_ROOT]))
		bq_h4_up(q, k, last);
	else
		bq_h4_down(q, k, last);
	return k == BQ_H4_ROOT;
}

static inline struct sq_peer_heap4_node *
sq_peer_heap4_pop(struct sq_peer_heap4 *q)
{
	struct sq_peer_heap4_node *n = sq_peer_heap4_first(q);

	if (n)
		sq_peer_heap4_dequeue(q, n);
	return n;
}

static inline bool sq_peer_heap4_empty(const struct sq_peer_heap4 *q)
{
	return q->h4_end == BQ_H4_ROOT;
}

static inline size_t sq_peer_heap4_count(const struct sq_peer_heap4 *q)
{
	return q->h4_end - BQ_H4_ROOT;
}

static inline bool sq_peer_heap4_queued(const struct sq_peer_heap4_node *n)
{
	return n->h4_index != BQ_H4_NONE;
}

/* Heap order by (key, sequence), cached keys, back-indexes. */
static inline int sq_peer_heap4_check(const struct sq_peer_heap4 *q)
{
	uint32_t k;

	for (k = BQ_H4_ROOT; k < q->h4_end; k++) {
		const struct bq_h4_entry *e = &q->h4_a[k];

		if (e->n->h4_index != k || e->n->key != e->key)
			return -1;
		if (k > BQ_H4_ROOT &&
		    bq_h4_less(e, &q->h4_a[((k - 4) >> 2) + BQ_H4_ROOT]))
			return -1;
	}
	return 0;
}

BQ_PEER_REQUEUE_POP_DUE(heap4)

static inline void sq_peer_heap4_destroy(struct sq_peer_heap4 *q)
{
	free(q->h4_a);
	sq_peer_heap4_init(q);
}

/* ---------------------------------------------------------------------
 * peer_wheel: a hierarchical timing wheel, cascading, exact to 2^G
 */
#define BQ_WH_BITS   6u
#define BQ_WH_SLOTS  64u
#define BQ_WH_LEVELS 11u		/* 6 x 11 >= 64 bits of tick */
#define BQ_WH_NONE   UINT32_MAX

struct sq_peer_wheel_node {
	uint64_t key;
	struct sq_peer_wheel_node *wh_next, *wh_prev;
	uint32_t wh_slot;	/* level * 64 + slot, BQ_WH_NONE if idle */
};

struct bq_wh_list {
	struct sq_peer_wheel_node *head, *tail;
};

struct sq_peer_wheel {
	struct bq_wh_list wh_slot[BQ_WH_LEVELS * BQ_WH_SLOTS];
	uint64_t wh_pending[BQ_WH_LEVELS];	/* bit s: slot s has nodes */
	uint32_t wh_levels;			/* bit L: wh_pending[L] != 0 */
	unsigned wh_shift;			/* tick = key >> shift */
	uint64_t wh_now;			/* the wheel's time, a tick */
	size_t wh_count;
	/* level 0 empty: the first node, found by a scan of the lowest
	 * slot and kept until it leaves or time moves (NULL: not known) */
	struct sq_peer_wheel_node *wh_first;
};

static inline void sq_peer_wheel_init_geom(struct sq_peer_wheel *q,
					   unsigned shift)
{
	memset(q, 0, sizeof(*q));
	q->wh_shift = shift;
}

static inline void sq_peer_wheel_init(struct sq_peer_wheel *q)
{
	sq_peer_wheel_init_geom(q, 0);
}

static inline void sq_peer_wheel_node_init(struct sq_peer_wheel_node *n)
{
	n->wh_slot = BQ_WH_NONE;
}

/* Level and slot of a tick: the highest 6-bit group where it differs
 * from the wheel's time, and the tick's digit there. */
static inline uint32_t bq_wh_slot_of(const struct sq_peer_wheel *q,
				     uint64_t t)
{
	unsigned level = t == q->wh_now ? 0u
		: (63u - sq__clz64(t ^ q->wh_now)) / BQ_WH_BITS;

	return level * BQ_WH_SLOTS +
	       (uint32_t)((t >> (level * BQ_WH_BITS)) & (BQ_WH_SLOTS - 1));
}

static inline void bq_wh_link(struct sq_peer_wheel *q,
			      struct sq_peer_wheel_node *n)
{
	uint32_t s = bq_wh_slot_of(q, n->key >> q->wh_shift);
	struct bq_wh_list *l = &q->wh_slot[s];

	n->wh_slot = s;
	n->wh_next = NULL;
	n->wh_prev = l->tail;
	if (l->tail)
		l->tail->wh_next = n;
	else
		l->head = n;
	l->tail = n;
	q->wh_pending[s / BQ_WH_SLOTS] |= (uint64_t)1 << (s % BQ_WH_SLOTS);
	q->wh_levels |= 1u << (s / BQ_WH_SLOTS);
}

static inline void bq_wh_unlink(struct sq_peer_wheel *q,
				struct sq_peer_wheel_node *n)
{
	uint32_t s = n->wh_slot;
	struct bq_wh_list *l = &q->wh_slot[s];

	if (n->wh_prev)
		n->wh_prev->wh_next = n->wh_next;
	else
		l->head = n->wh_next;
	if (n->wh_next)
		n->wh_next->wh_prev = n->wh_prev;
	else
		l->tail = n->wh_prev;
	if (!l->head) {
		q->wh_pending[s / BQ_WH_SLOTS] &=
			~((uint64_t)1 << (s % BQ_WH_SLOTS));
		if (!q->wh_pending[s / BQ_WH_SLOTS])
			q->wh_levels &= ~(1u << (s / BQ_WH_SLOTS));
	}
	n->wh_slot = BQ_WH_NONE;
}

/* The lowest pending slot: on level 0 its head is first; on a higher
 * level the first node of its least tick (what a cascade brings first). */
static inline uint32_t bq_wh_lowest(const struct sq_peer_wheel *q)
{
	unsigned level = sq__ctz64(q->wh_levels);

	return level * BQ_WH_SLOTS + sq__ctz64(q->wh_pending[level]);
}

static inline struct sq_peer_wheel_node *
bq_wh_least_tick(const struct sq_peer_wheel *q, uint32_t s)
{
	struct sq_peer_wheel_node *n = q->wh_slot[s].head, *best = n;

	if (s >= BQ_WH_SLOTS)
		for (n = n->wh_next; n; n = n->wh_next)
			if (n->key >> q->wh_shift < best->key >> q->wh_shift)
				best = n;
	return best;
}

static inline struct sq_peer_wheel_node *
sq_peer_wheel_first(const struct sq_peer_wheel *q)
{
	struct sq_peer_wheel *mq = (struct sq_peer_wheel *)(uintptr_t)q;

	if (!q->wh_levels)
		return NULL;
	if (q->wh_levels & 1u)
		return q->wh_slot[sq__ctz64(q->wh_pending[0])].head;
	if (!q->wh_first)	/* a cache: first() changes no order */
		mq->wh_first = bq_wh_least_tick(q, bq_wh_lowest(q));
	return q->wh_first;
}

static inline bool sq_peer_wheel_enqueue(struct sq_peer_wheel *q,
					 struct sq_peer_wheel_node *n,
					 uint64_t key)
{
	if (key >> q->wh_shift < q->wh_now)
		bq_late_key("wheel", key, q->wh_now << q->wh_shift);
	n->key = key;
	bq_wh_link(q, n);
	q->wh_count++;
	if (q->wh_first && key >> q->wh_shift < q->wh_first->key >> q->wh_shift)
		q->wh_first = n;	/* an earlier tick: first of the equal */
	return sq_peer_wheel_first(q) == n;
}

/* "Was it first" costs a scan when level 0 is empty; pop does not ask. */
static inline bool sq_peer_wheel_dequeue(struct sq_peer_wheel *q,
					 struct sq_peer_wheel_node *n)
{
	bool first = sq_peer_wheel_first(q) == n;

	if (q->wh_first == n)
		q->wh_first = NULL;
	bq_wh_unlink(q, n);
	q->wh_count--;
	return first;
}

/*
 * Level 0 is empty: time moves to the least tick of the lowest pending
 * slot (no queued key is earlier) and the slot is filed again, in order,
 * each node on a lower level than before.
 */
static void bq_wh_cascade(struct sq_peer_wheel *q)
{
	uint32_t s = bq_wh_lowest(q);
	struct sq_peer_wheel_node *n = q->wh_slot[s].head, *next;

	q->wh_now = bq_wh_least_tick(q, s)->key >> q->wh_shift;
	q->wh_slot[s].head = q->wh_slot[s].tail = NULL;
	q->wh_pending[s / BQ_WH_SLOTS] &= ~((uint64_t)1 << (s % BQ_WH_SLOTS));
	if (!q->wh_pending[s / BQ_WH_SLOTS])
		q->wh_levels &= ~(1u << (s / BQ_WH_SLOTS));
	for (; n; n = next) {
		next = n->wh_next;
		bq_wh_link(q, n);
	}
}

static inline struct sq_peer_wheel_node *
sq_peer_wheel_pop(struct sq_peer_wheel *q)
{
	struct sq_peer_wheel_node *n;

	if (!q->wh_levels)
		return NULL;
	q->wh_first = NULL;
	while (!(q->wh_levels & 1u))
		bq_wh_cascade(q);
	n = q->wh_slot[sq__ctz64(q->wh_pending[0])].head;
	q->wh_now = n->key >> q->wh_shift;
	bq_wh_unlink(q, n);
	q->wh_count--;
	return n;
}

static inline bool sq_peer_wheel_empty(const struct sq_peer_wheel *q)
{
	return q->wh_count == 0;
}

static inline size_t sq_peer_wheel_count(const struct sq_peer_wheel *q)
{
	return q->wh_count;
}

static inline bool sq_peer_wheel_queued(const struct sq_peer_wheel_node *n)
{
	return n->wh_slot != BQ_WH_NONE;
}

/* Links, each node in its tick's slot (no tick before the wheel's
 * time), the pending bitmaps and level mask, the count. */
static inline int sq_peer_wheel_check(const struct sq_peer_wheel *q)
{
	size_t count = 0;
	uint32_t s;
	unsigned level;

	for (s = 0; s < BQ_WH_LEVELS * BQ_WH_SLOTS; s++) {
		const struct sq_peer_wheel_node *n, *prev = NULL;
		bool bit = q->wh_pending[s / BQ_WH_SLOTS] >>
			   (s % BQ_WH_SLOTS) & 1u;

		if (bit != (q->wh_slot[s].head != NULL))
			return -1;
		for (n = q->wh_slot[s].head; n; n = n->wh_next) {
			if (n->wh_slot != s || n->wh_prev != prev ||
			    n->key >> q->wh_shift < q->wh_now ||
			    bq_wh_slot_of(q, n->key >> q->wh_shift) != s)
				return -1;
			prev = n;
			count++;
		}
		if (q->wh_slot[s].tail != prev)
			return -1;
	}
	for (level = 0; level < BQ_WH_LEVELS; level++)
		if ((q->wh_levels >> level & 1u) != (q->wh_pending[level] != 0))
			return -1;
	/* the cached first, when known, is the first node */
	if (q->wh_first && (!q->wh_levels ||
			    q->wh_first != bq_wh_least_tick(q, bq_wh_lowest(q))))
		return -1;
	return count == q->wh_count ? 0 : -1;
}

BQ_PEER_REQUEUE_POP_DUE(wheel)

/*
 * Fire every node due at @now (key <= now) in one call, as the kernel's
 * __run_timers() does: the level-0 slot of each tick before now's is
 * taken whole (collect_expired_timers()) and its nodes fired from the
 * detached list, each marked idle before fn (expire_timers()); the slot
 * of now's own tick, whose keys at Tg > 1 may lie past now, node by
 * node.  Higher levels cascade as time reaches them, as in pop.  fn may
 * re-arm the node it is given, past now; it must not dequeue another
 * node of the detached list (the harness's callbacks do neither more nor
 * that).
 */
static inline size_t
sq_peer_wheel_expire(struct sq_peer_wheel *q, uint64_t now,
		     void (*fn)(struct sq_peer_wheel_node *, void *), void *arg)
{
	uint64_t t = now >> q->wh_shift, tick;
	struct sq_peer_wheel_node *n, *next;
	size_t fired = 0;
	uint32_t s;

	q->wh_first = NULL;
	while (q->wh_levels) {
		while (!(q->wh_levels & 1u)) {
			if (bq_wh_least_tick(q, bq_wh_lowest(q))->key >>
			    q->wh_shift > t)
				goto done;
			bq_wh_cascade(q);
		}
		s = sq__ctz64(q->wh_pending[0]);
		n = q->wh_slot[s].head;
		tick = n->key >> q->wh_shift;
		if (tick > t)
			break;
		q->wh_now = tick;
		if (tick == t) {	/* the due ones; a re-arm goes after */
			for (; n; n = next) {
				next = n->wh_next;
				if (n->key > now)
					continue;
				bq_wh_unlink(q, n);
				q->wh_count--;
				fn(n, arg);
				q->wh_first = NULL;	/* fn may ask first() */
				fired++;
			}
			break;
		}
		q->wh_slot[s].head = q->wh_slot[s].tail = NULL;
		q->wh_pending[0] &= ~((uint64_t)1 << s);
		if (!q->wh_pending[0])
			q->wh_levels &= ~1u;
		for (; n; n = next) {
			next = n->wh_next;
			n->wh_slot = BQ_WH_NONE;
			q->wh_count--;
			fn(n, arg);
			q->wh_first = NULL;
			fired++;
		}
	}
done:
	q->wh_first = NULL;
	return fired;
}

static inline void sq_peer_wheel_destroy(struct sq_peer_wheel *q)
{
	(void)q;	/* intrusive: nothing of its own to free */
}

#endif /* SQ_BENCH_PEERS_STREAM_H */
