/* SPDX-License-Identifier: MIT */
/*
 * replay/oldq.h - the two historical run queues replay compares against
 *
 * Written for the comparison only, in the shape of the macro API (struct
 * sq_K, struct sq_K_node with a key, sq_K_init/enqueue/dequeue/first/pop/
 * count/check), so one adapter serves them and smartq's backends alike:
 *
 *   rp_list    Linux 2.4's run queue: an unsorted list, and every pick
 *              scans all of it (goodness() over each runnable task).
 *              Enqueue and arbitrary dequeue are O(1); the first node is
 *              cached, so a pick rescans only when the first node leaves:
 *              O(n) per pick, as in 2.4.  Exact and stable.
 *   rp_parray  Linux 2.6.0's O(1) priority arrays: 140 FIFO lists, a bitmap
 *              of the non-empty ones, find-first-bit, and two arrays
 *              (active, expired) switched when the active one empties.
 *              Here a level is a span of 2^RP_PARRAY_SHIFT ns of key
 *              instead of a priority; keys past the active array's span go
 *              to the expired one, keys past both to its last level.
 *              Exact only to a level, and keys below the active base share
 *              level 0 (first in, first out) — 2.6.0 ordered by priority,
 *              not by time, and this keeps its structure, not its policy.
 *
 * Like smartq, nothing here allocates; the caller serialises.
 */
#ifndef RP_OLDQ_H
#define RP_OLDQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- rp_list: scan every runnable task on each pick ------------------ */

struct sq_rp_list_node {
	struct sq_rp_list_node *rl_prev, *rl_next;	/* NULL: not queued */
	uint64_t key;
};

struct sq_rp_list {
	struct sq_rp_list_node rl_head;	/* sentinel: oldest after it */
	struct sq_rp_list_node *rl_first;	/* cached minimum, NULL if empty */
	size_t rl_count;
};

static inline void sq_rp_list_init(struct sq_rp_list *q)
{
	q->rl_head.rl_prev = q->rl_head.rl_next = &q->rl_head;
	q->rl_first = NULL;
	q->rl_count = 0;
}

static inline void sq_rp_list_init_at(struct sq_rp_list *q, uint64_t now)
{
	(void)now;	/* no clock */
	sq_rp_list_init(q);
}

static inline void sq_rp_list_node_init(struct sq_rp_list_node *n)
{
	n->rl_prev = n->rl_next = NULL;
}

/* The goodness() loop: the oldest of the smallest keys (so: stable). */
static inline struct sq_rp_list_node *sq_rp_list__scan(struct sq_rp_list *q)
{
	struct sq_rp_list_node *n, *best = NULL;

	for (n = q->rl_head.rl_next; n != &q->rl_head; n = n->rl_next)
		if (!best || n->key < best->key)
			best = n;
	return best;
}

static inline bool sq_rp_list_enqueue(struct sq_rp_list *q,
				      struct sq_rp_list_node *n, uint64_t key)
{
	n->key = key;
	n->rl_next = &q->rl_head;
	n->rl_prev = q->rl_head.rl_prev;
	q->rl_head.rl_prev->rl_next = n;
	q->rl_head.rl_prev = n;
	q->rl_count++;
	if (!q->rl_first || key < q->rl_first->key) {
		q->rl_first = n;
		return true;
	}
	return false;
}

static inline void sq_rp_list_dequeue(struct sq_rp_list *q,
				      struct sq_rp_list_node *n)
{
	n->rl_prev->rl_next = n->rl_next;
	n->rl_next->rl_prev = n->rl_prev;
	n->rl_prev = n->rl_next = NULL;
	q->rl_count--;
	if (q->rl_first == n)
		q->rl_first = sq_rp_list__scan(q);
}

static inline struct sq_rp_list_node *sq_rp_list_first(const struct sq_rp_list *q)
{
	return q->rl_first;
}

static inline struct sq_rp_list_node *sq_rp_list_pop(struct sq_rp_list *q)
{
	struct sq_rp_list_node *n = q->rl_first;

	if (n)
		sq_rp_list_dequeue(q, n);
	return n;
}

static inline size_t sq_rp_list_count(const struct sq_rp_list *q)
{
	return q->rl_count;
}

static inline int sq_rp_list_check(const struct sq_rp_list *q)
{
	const struct sq_rp_list_node *n;
	size_t count = 0;

	for (n = q->rl_head.rl_next; n != &q->rl_head; n = n->rl_next) {
		if (n->rl_next->rl_prev != n || ++count > q->rl_count)
			return -1;
		if (n->key < q->rl_first->key)
			return -1;
	}
	return count == q->rl_count && (count == 0) == (q->rl_first == NULL)
	       ? 0 : -1;
}

/* ---- rp_parray: 2.6.0's bitmap of priority lists ------------------- */

#define RP_PARRAY_LEVELS 140	/* MAX_PRIO in 2.6.0 */
#define RP_PARRAY_WORDS  3	/* 140 bits in 64-bit words */
#ifndef RP_PARRAY_SHIFT
/* 2^16 ns a level: 140 levels span 9.2 ms, CFS's sched_latency (6 ms)
 * plus the 3 ms a woken task is placed behind min_vruntime. */
#define RP_PARRAY_SHIFT 16
#endif

struct sq_rp_parray_node {
	struct sq_rp_parray_node *pa_prev, *pa_next;	/* NULL: not queued */
	uint64_t key;
	unsigned pa_array, pa_level;
};

struct sq_rp_parray__array {
	uint64_t pa_bits[RP_PARRAY_WORDS];
	struct sq_rp_parray_node pa_list[RP_PARRAY_LEVELS];	/* sentinels */
	size_t pa_count;
};

struct sq_rp_parray {
	struct sq_rp_parray__array pa_arr[2];
	unsigned pa_active;
	uint64_t pa_base;	/* key of the active array's level 0 */
	size_t pa_count;
};

static inline unsigned rp__ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return (unsigned)__builtin_ctzll(x);
#else
	unsigned i = 0;

	while (!(x & 1)) {
		x >>= 1;
		i++;
	}
	return i;
#endif
}

static inline void sq_rp_parray_init(struct sq_rp_parray *q)
{
	unsigned a, l;

	for (a = 0; a < 2; a++) {
		struct sq_rp_parray__array *arr = &q->pa_arr[a];

		for (l = 0; l < RP_PARRAY_WORDS; l++)
			arr->pa_bits[l] = 0;
		for (l = 0; l < RP_PARRAY_LEVELS; l++)
			arr->pa_list[l].pa_prev = arr->pa_list[l].pa_next =
				&arr->pa_list[l];
		arr->pa_count = 0;
	}
	q->pa_active = 0;
	q->pa_base = 0;
	q->pa_count = 0;
}

static inline void sq_rp_parray_init_at(struct sq_rp_parray *q, uint64_t now)
{
	sq_rp_parray_init(q);
	q->pa_base = now >> RP_PARRAY_SHIFT << RP_PARRAY_SHIFT;
}

static inline void sq_rp_parray_node_init(struct sq_rp_parray_node *n)
{
	n->pa_prev = n->pa_next = NULL;
}

/* The first non-empty level of @arr (which must not be empty). */
static inline unsigned sq_rp_parray__ffs(const struct sq_rp_parray__array *arr)
{
	unsigned w = 0;

	while (!arr->pa_bits[w])
		w++;
	return w * 64 + rp__ctz64(arr->pa_bits[w]);
}

static inline struct sq_rp_parray_node *
sq_rp_parray_first(const struct sq_rp_parray *q)
{
	const struct sq_rp_parray__array *arr = &q->pa_arr[q->pa_active];

	if (!arr->pa_count) {
		arr = &q->pa_arr[!q->pa_active];
		if (!arr->pa_count)
			return NULL;
	}
	return arr->pa_list[sq_rp_parray__ffs(arr)].pa_next;
}

static inline bool sq_rp_parray_enqueue(struct sq_rp_parray *q,
					struct sq_rp_parray_node *n,
					uint64_t key)
{
	struct sq_rp_parray__array *arr;
	struct sq_rp_parray_node *head;
	unsigned a = q->pa_active;
	uint64_t level;

	if (!q->pa_count)	/* an empty queue starts its span at @key */
		q->pa_base = key >> RP_PARRAY_SHIFT << RP_PARRAY_SHIFT;
	if (key < q->pa_base) {
		level = 0;
	} else {
		level = (key - q->pa_base) >> RP_PARRAY_SHIFT;
		if (level >= RP_PARRAY_LEVELS) {	/* the expired array */
			a = !a;
			level -= RP_PARRAY_LEVELS;
			if (level >= RP_PARRAY_LEVELS)	/* past both */
				level = RP_PARRAY_LEVELS - 1;
		}
	}
	arr = &q->pa_arr[a];
	head = &arr->pa_list[level];
	n->key = key;
	n->pa_array = a;
	n->pa_level = (unsigned)level;
	n->pa_next = head;
	n->pa_prev = head->pa_prev;
	head->pa_prev->pa_next = n;
	head->pa_prev = n;
	arr->pa_bits[level / 64] |= (uint64_t)1 << (level % 64);
	arr->pa_count++;
	q->pa_count++;
	return sq_rp_parray_first(q) == n;
}

static inline void sq_rp_parray_dequeue(struct sq_rp_parray *q,
					struct sq_rp_parray_node *n)
{
	struct sq_rp_parray__array *arr = &q->pa_arr[n->pa_array];
	struct sq_rp_parray_node *head = &arr->pa_list[n->pa_level];

	n->pa_prev->pa_next = n->pa_next;
	n->pa_next->pa_prev = n->pa_prev;
	n->pa_prev = n->pa_next = NULL;
	if (head->pa_next == head)
		arr->pa_bits[n->pa_level / 64] &=
			~((uint64_t)1 << (n->pa_level % 64));
	arr->pa_count--;
	q->pa_count--;
	/* the array switch: the expired array becomes the active one */
	if (!q->pa_arr[q->pa_active].pa_count && q->pa_count) {
		q->pa_active = !q->pa_active;
		q->pa_base += (uint64_t)RP_PARRAY_LEVELS << RP_PARRAY_SHIFT;
	}
}

static inline struct sq_rp_parray_node *sq_rp_parray_pop(struct sq_rp_parray *q)
{
	struct sq_rp_parray_node *n = sq_rp_parray_first(q);

	if (n)
		sq_rp_parray_dequeue(q, n);
	return n;
}

static inline size_t sq_rp_parray_count(const struct sq_rp_parray *q)
{
	return q->pa_count;
}

static inline int sq_rp_parray_check(const struct sq_rp_parray *q)
{
	size_t total = 0;
	unsigned a, l;

	for (a = 0; a < 2; a++) {
		const struct sq_rp_parray__array *arr = &q->pa_arr[a];
		size_t count = 0;

		for (l = 0; l < RP_PARRAY_LEVELS; l++) {
			const struct sq_rp_parray_node *h = &arr->pa_list[l], *n;
			bool bit = (arr->pa_bits[l / 64] >> (l % 64)) & 1;

			for (n = h->pa_next; n != h; n = n->pa_next) {
				if (n->pa_next->pa_prev != n ||
				    n->pa_array != a || n->pa_level != l)
					return -1;
				count++;
			}
			if (bit != (h->pa_next != h))
				return -1;
		}
		if (count != arr->pa_count)
			return -1;
		total += count;
	}
	return total == q->pa_count ? 0 : -1;
}

#endif /* RP_OLDQ_H */
