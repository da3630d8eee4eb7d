/* SPDX-License-Identifier: MIT */
/*
 * model.h - the reference model the randomized tests compare against
 *
 * A priority queue as plainly as it can be written: an unordered array of
 * entries { id, key, tie, seq }, where seq is a counter bumped on every
 * enqueue (a requeue counts as a fresh enqueue) and tie is the caller's
 * order among equal keys, as a tie kind's less() compares (0 for every
 * entry of a plain kind).  The first entry is the smallest (key, tie, seq)
 * triple, found by a scan, so order and stability are obviously right.  Ids are small integers below SQM_CAP chosen by the caller (a
 * test's node index); a position table makes lookup by id O(1).
 *
 *	struct sqm m;			(about 100 KiB: static, not on the stack)
 *	sqm_init(&m);
 *	sqm_enqueue(&m, 7, key);	true if 7 is now first
 *	sqm_first(&m, &id, &key);	false if empty
 *	sqm_pop(&m, &id, &key);
 *	sqm_dequeue(&m, 7);		false if 7 was not queued
 *	sqm_requeue(&m, 7, key);	true if the first id or first key changed
 *					(7 not queued: it is enqueued)
 *	sqm_enqueue_tie(&m, 7, key, tie), sqm_requeue_tie(&m, 7, key, tie)
 *					the same with a tie value
 *
 * For the white-box tests, which also look at the order and the stamps:
 *
 *	sqm_order(&m, ids);		the queued ids in queue order, and how many
 *	sqm_seq(&m, 7);			7's seq; m.seq counts enqueues + requeues
 *	sqm_find(&m, n, start, queued);	the first id from @start on (mod @n)
 *					that is queued (or not), -1 if none
 *	sqm_find_key(&m, key, match, arg)	the first id in queue order with
 *					@key for which match(id, arg) holds
 *					(match NULL: any), -1 if none
 *
 * find's predicate, one for the backends and the model alike (struct
 * sqm_match: an id residue or one id, and the key asked for):
 *
 *	sqm_match_id(id, &mt)		does @id match
 *	sqm_match_node(id, key, &mt)	the same from a backend's call, which
 *					also counts a node of another key
 *
 * For a backend exact only to its granularity Tg (flag 0 in SQ_KINDS:
 * the ring), whose clock the verbs every backend has give (SQ_TIME,
 * SQ_GRAN_SHIFT), the model states the contract's guarantee instead of
 * one answer:
 *
 *	sqm_gran_pop_ok(&m, ring_time, gran_shift, id)
 *	    is @id an allowed result of pop()/first() at @ring_time?
 *	    - if any queued key is below @ring_time ("late"), @id must be the
 *	      late entry with the smallest seq (late entries come out first,
 *	      FIFO among themselves);
 *	    - otherwise key(@id) must be below the smallest key plus Tg.
 *	sqm_gran_time_after_pop(ring_time, gran_shift, key)
 *	    the ring's time after popping @key: the larger of @ring_time and
 *	    @key rounded down to a multiple of Tg (time never moves back).
 *	sqm_gran_time_after_advance(&m, ring_time, gran_shift, now)
 *	    after advance(@now) or pop_due(@now)'s first step: @now rounded
 *	    down, never back, never past the smallest key that is not late.
 *
 * Everything here is test code: O(n) where simple, no allocation.
 */
#ifndef SQ_TESTS_MODEL_H
#define SQ_TESTS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef SQM_CAP
#define SQM_CAP 4096u		/* max entries, and ids are < SQM_CAP */
#endif

struct sqm_entry {
	unsigned id;
	uint64_t key;
	unsigned tie;
	uint64_t seq;
};

struct sqm {
	size_t n;			/* entries in use: e[0 .. n) */
	uint64_t seq;			/* next sequence number */
	size_t min;			/* index of the first entry, if min_ok */
	bool min_ok;
	struct sqm_entry e[SQM_CAP];
	unsigned pos[SQM_CAP];		/* index + 1 of id in e[], 0 = absent */
};

static inline void sqm__bad(const char *what, unsigned id)
{
	fprintf(stderr, "model.h: %s (id %u)\n", what, id);
	abort();
}

/* a before b in queue order: smaller key, then smaller tie, then
 * smaller seq */
static inline bool sqm__before(const struct sqm_entry *a,
			       const struct sqm_entry *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	if (a->tie != b->tie)
		return a->tie < b->tie;
	return a->seq < b->seq;
}

static inline void sqm_init(struct sqm *m)
{
	size_t i;

	m->n = 0;
	m->seq = 0;
	m->min = 0;
	m->min_ok = false;
	for (i = 0; i < SQM_CAP; i++)
		m->pos[i] = 0;
}

static inline size_t sqm_count(const struct sqm *m)
{
	return m->n;
}

static inline bool sqm_queued(const struct sqm *m, unsigned id)
{
	return id < SQM_CAP && m->pos[id] != 0;
}

/* the key of a queued id */
static inline uint64_t sqm_key(const struct sqm *m, unsigned id)
{
	if (!sqm_queued(m, id))
		sqm__bad("sqm_key of an id that is not queued", id);
	return m->e[m->pos[id] - 1].key;
}

static inline const struct sqm_entry *sqm__first(struct sqm *m)
{
	size_t i;

	if (m->n == 0)
		return NULL;
	if (!m->min_ok) {
		m->min = 0;
		for (i = 1; i < m->n; i++)
			if (sqm__before(&m->e[i], &m->e[m->min]))
				m->min = i;
		m->min_ok = true;
	}
	return &m->e[m->min];
}

/* sqm_first - the first (id, key), false if empty; either pointer may be NULL */
static inline bool sqm_first(struct sqm *m, unsigned *id, uint64_t *key)
{
	const struct sqm_entry *f = sqm__first(m);

	if (!f)
		return false;
	if (id)
		*id = f->id;
	if (key)
		*key = f->key;
	return true;
}

/* sqm_enqueue_tie - add @id (not queued) with @key and @tie; true if it
 * is now first */
static inline bool sqm_enqueue_tie(struct sqm *m, unsigned id, uint64_t key,
				   unsigned tie)
{
	const struct sqm_entry *f;
	struct sqm_entry *e;

	if (id >= SQM_CAP)
		sqm__bad("id out of range (raise SQM_CAP)", id);
	if (m->pos[id])
		sqm__bad("sqm_enqueue of a queued id", id);
	f = m->min_ok ? &m->e[m->min] : NULL;
	e = &m->e[m->n];
	e->id = id;
	e->key = key;
	e->tie = tie;
	e->seq = m->seq++;
	m->pos[id] = (unsigned)(m->n + 1);
	m->n++;
	if (m->n == 1 || (f && sqm__before(e, f))) {
		m->min = m->n - 1;
		m->min_ok = true;
	}
	/* a new entry has the largest seq: first iff (key, tie) is less */
	return sqm__first(m) == e;
}

/* sqm_enqueue - sqm_enqueue_tie() with tie 0 */
static inline bool sqm_enqueue(struct sqm *m, unsigned id, uint64_t key)
{
	return sqm_enqueue_tie(m, id, key, 0);
}

/* sqm_dequeue - remove @id; false if it was not queued */
static inline bool sqm_dequeue(struct sqm *m, unsigned id)
{
	size_t i;

	if (!sqm_queued(m, id))
		return false;
	i = m->pos[id] - 1;
	m->pos[id] = 0;
	m->n--;
	if (m->min_ok) {
		if (m->min == i)
			m->min_ok = false;
		else if (m->min == m->n)
			m->min = i;	/* the last entry moves to slot i */
	}
	if (i != m->n) {
		m->e[i] = m->e[m->n];
		m->pos[m->e[i].id] = (unsigned)(i + 1);
	}
	return true;
}

/* sqm_pop - remove the first entry into (*id, *key); false if empty */
static inline bool sqm_pop(struct sqm *m, unsigned *id, uint64_t *key)
{
	unsigned fid;

	if (!sqm_first(m, &fid, key))
		return false;
	if (id)
		*id = fid;
	sqm_dequeue(m, fid);
	return true;
}

/*
 * sqm_requeue_tie - give @id the new @key and @tie, as dequeue + enqueue
 * (it becomes last among the entries equal to it); an @id that is not
 * queued is enqueued (armed).
 * True if the first id or the first key changed, which is what every
 * backend's requeue returns.
 */
static inline bool sqm_requeue_tie(struct sqm *m, unsigned id, uint64_t key,
				   unsigned tie)
{
	unsigned id0 = 0, id1 = 0;
	uint64_t k0 = 0, k1 = 0;
	bool had = sqm_first(m, &id0, &k0);

	(void)sqm_dequeue(m, id);
	sqm_enqueue_tie(m, id, key, tie);
	sqm_first(m, &id1, &k1);
	return !had || id0 != id1 || k0 != k1;
}

/* sqm_requeue - sqm_requeue_tie() with tie 0 */
static inline bool sqm_requeue(struct sqm *m, unsigned id, uint64_t key)
{
	return sqm_requeue_tie(m, id, key, 0);
}

/* ---- for the white-box tests ------------------------------------------- */

/* the seq (enqueue/requeue stamp) of a queued id */
static inline uint64_t sqm_seq(const struct sqm *m, unsigned id)
{
	if (!sqm_queued(m, id))
		sqm__bad("sqm_seq of an id that is not queued", id);
	return m->e[m->pos[id] - 1].seq;
}

/*
 * sqm_order - the queued ids in queue order into @ids (room for
 * sqm_count()); returns how many.  Insertion sort: for a few hundred.
 */
static inline size_t sqm_order(const struct sqm *m, unsigned *ids)
{
	size_t i, j;

	for (i = 0; i < m->n; i++) {
		const struct sqm_entry *e = &m->e[i];

		for (j = i; j > 0 && sqm__before(e, &m->e[m->pos[ids[j - 1]] - 1]);
		     j--)
			ids[j] = ids[j - 1];
		ids[j] = e->id;
	}
	return m->n;
}

/*
 * sqm_find - the first id of @start, @start + 1, ... (mod @n) that is
 * queued (@queued) or not; -1 if none of ids 0 .. @n - 1 is.  With a
 * random @start it picks a random node in the wanted state.
 */
static inline int sqm_find(const struct sqm *m, unsigned n, unsigned start,
			   bool queued)
{
	unsigned i, id;

	for (i = 0; i < n; i++) {
		id = (start + i) % n;
		if (sqm_queued(m, id) == queued)
			return (int)id;
	}
	return -1;
}

/*
 * sqm_find_key - what every backend's find answers: of the queued ids with
 * exactly @key for which @match(id, @arg) holds (@match NULL: all of
 * them), the first in queue order (smallest tie, then seq); -1 if none.
 * The ring answers the same: all nodes of one key share one FIFO list.
 */
static inline long sqm_find_key(const struct sqm *m, uint64_t key,
				bool (*match)(unsigned id, void *arg), void *arg)
{
	const struct sqm_entry *best = NULL, *e;
	size_t i;

	for (i = 0; i < m->n; i++) {
		e = &m->e[i];
		if (e->key == key && (!best || sqm__before(e, best)) &&
		    (!match || match(e->id, arg)))
			best = e;
	}
	return best ? (long)best->id : -1;
}

/* ---- find's predicate, on ids ----------------------------------------- */

/*
 * struct sqm_match - find looks for id % mod == rem, or with mod 0 the
 * one id rem (ns-3's Remove: the event with that uid).  The same function
 * answers for the backends and the model; a backend's calls also count
 * any node of another key than the one asked for, which must not happen.
 */
struct sqm_match {
	unsigned mod, rem;
	uint64_t key;			/* the key find was asked for */
	unsigned long wrong_key;	/* calls about a node of another key */
};

static inline bool sqm_match_id(unsigned id, void *arg)
{
	const struct sqm_match *m = (const struct sqm_match *)arg;

	return m->mod ? id % m->mod == m->rem : id == m->rem;
}

/* a backend's match(): node @id with @key */
static inline bool sqm_match_node(unsigned id, uint64_t key, void *arg)
{
	struct sqm_match *m = (struct sqm_match *)arg;

	m->wrong_key += key != m->key;
	return sqm_match_id(id, m);
}

/* ---- the rule of a backend exact to a granularity ---------------------- */

/* Tg - 1 for a granularity shift (0..63) */
static inline uint64_t sqm__gran_mask(unsigned gran_shift)
{
	return ((uint64_t)1 << gran_shift) - 1;
}

/*
 * sqm_gran_pop_ok - may first()/pop() of a ring at time @ring_time with
 * granularity 1 << @gran_shift answer @id?  (The model is not changed.)
 */
static inline bool sqm_gran_pop_ok(const struct sqm *m, uint64_t ring_time,
				    unsigned gran_shift, unsigned id)
{
	const struct sqm_entry *late = NULL, *e;
	uint64_t min_key = UINT64_MAX;
	size_t i;

	if (!sqm_queued(m, id))
		return false;
	for (i = 0; i < m->n; i++) {
		e = &m->e[i];
		if (e->key < ring_time && (!late || e->seq < late->seq))
			late = e;
		if (e->key < min_key)
			min_key = e->key;
	}
	e = &m->e[m->pos[id] - 1];
	if (late)
		return e == late;
	/* key < min_key + Tg, without overflow: e->key >= min_key here */
	return e->key - min_key <= sqm__gran_mask(gran_shift);
}

/* sqm_gran_time_after_pop - the ring's time after popping @key */
static inline uint64_t sqm_gran_time_after_pop(uint64_t ring_time,
					       unsigned gran_shift,
					       uint64_t key)
{
	uint64_t tick_time = key & ~sqm__gran_mask(gran_shift);

	return tick_time > ring_time ? tick_time : ring_time;
}

/*
 * sqm_gran_time_after_advance - the ring's time after SQ_ADVANCE() (or
 * the advance that starts SQ_POP_DUE()) with clock @now: @now
 * rounded down to Tg, but never back and never past the tick of the
 * smallest queued key that is not late (keys >= @ring_time).
 */
static inline uint64_t sqm_gran_time_after_advance(const struct sqm *m,
						   uint64_t ring_time,
						   unsigned gran_shift,
						   uint64_t now)
{
	uint64_t mask = sqm__gran_mask(gran_shift), t = now & ~mask;
	size_t i;

	if (t <= ring_time)
		return ring_time;
	for (i = 0; i < m->n; i++) {
		uint64_t k = m->e[i].key;

		if (k >= ring_time && (k & ~mask) < t)
			t = k & ~mask;
	}
	return t > ring_time ? t : ring_time;
}

#endif /* SQ_TESTS_MODEL_H */
