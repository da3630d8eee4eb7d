/* SPDX-License-Identifier: MIT */
/*
 * diff.c - randomized differential tests: every backend against the model
 *
 * Random streams of every operation mixed (enqueue, pop, first, dequeue of
 * a random queued node, requeue) with keys drawn from several classes:
 * small ranges full of equal keys, 0 and UINT64_MAX and their neighbours,
 * hold-like keys (the last popped key plus a little), keys equal to a
 * queued key, and for a ring keys below its time and far past its
 * horizon.  Each stream runs a small-N phase with check() after every step
 * and a long phase with larger N and check() every so often.
 *
 *   exact backends    (flag 1 in SQ_KINDS) every answer and return value
 *                     equals the model's (tests/model.h)
 *   each ring         (flag 0: exact only to a granularity Tg), at Tg = 1
 *   at Tg = 1         with no key late: exact too; keys at or past its
 *                     time, most within windows of 1 to SQD_SPAN ticks
 *   each ring, other  the contract's guarantee: late nodes first, FIFO;
 *   geometries        else a key below the smallest key + Tg; its time
 *                     (SQ_TIME) moves on pop, to the popped key's tick,
 *                     and on advance
 *   tie kinds         a tie kind (SQ_TIE) of every backend of SQ_TIE_KINDS,
 *                     ordered among equal keys by an item's prio, drawn
 *                     from 0..3 on every enqueue and requeue: against the
 *                     model ordered by (key, prio, seq), exactly
 *   cross             every exact backend (and then the rings at Tg = 1,
 *                     no key late, too) fed one stream must give identical
 *                     node identities from every first() and pop(), up to
 *                     N = 20000; the tie kinds among them, all prios 0
 *                     (so FIFO); and the tie kinds alone, random prios
 *
 * Every run takes its seed from SQ_SEED (default below) mixed with the
 * run's name; a failure prints the run, the seed and the step, and
 * SQ_SEED=<seed> repeats it.  SQ_DIFF_SCALE=<n> runs n times as many
 * operations (a soak); -DSQ_DIFF_SCALE_DIV=<d> runs 1/d of them (the
 * sanitizer and -O0 builds).  tests/tests.mk also builds it with rings of
 * other sizes (diff-slots64, diff-slots4096) and with a second ring in
 * SQ_KINDS (diff-two-rings: tests/two_rings.h).  Nothing here names a
 * backend: the list is SQ_KINDS.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smartq.h"
#include "model.h"
#include "rng.h"
#include "sq_test.h"

#ifndef SQ_DIFF_SCALE_DIV
#define SQ_DIFF_SCALE_DIV 1
#endif
#define SQD_DEFAULT_SEED 20070417u	/* the seed thread's month */
#define SQD_XMAX 20000u			/* nodes per backend (cross runs) */
/* the widest window, in ticks, the ring key mix aims at: windows of
 * 2^0 .. 2^12 ticks, so the horizon of any ring up to 4096 slots is hit */
#define SQD_SPAN_LOG2 12u
#define SQD_SPAN ((uint64_t)1 << SQD_SPAN_LOG2)

/* ---- context for failure messages ------------------------------------- */

static struct {
	const char *run;
	const char *backend;
	uint64_t seed;
	unsigned long step;
	const char *op;
	unsigned shift;
	uint64_t base;
} ctx;

static void diff_context(void)
{
	fprintf(stderr,
		"diff: run %s, backend %s (ring shift %u base %llu), "
		"SQ_SEED=%llu, step %lu, op %s\n",
		ctx.run, ctx.backend, ctx.shift, (unsigned long long)ctx.base,
		(unsigned long long)ctx.seed, ctx.step, ctx.op);
}

#define DASSERT(c, ...)                                         \
	do {                                                    \
		if (!(c)) {                                     \
			diff_context();                         \
			SQ_ASSERTF(c, __VA_ARGS__);             \
		}                                               \
	} while (0)

/* ---- random numbers ---------------------------------------------------- */

static uint64_t rng_state;
/* find's and visit_until's own stream, so that the operations' stream
 * (rng_state) is the same with and without them */
static uint64_t find_rng;

static uint64_t rnd(void)
{
	return rng_next(&rng_state);
}

/* uniform-ish in [0, n); n = 0 stands for 2^64 (a shifted-out range) */
static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : rnd();
}

static uint64_t base_seed(void)
{
	const char *s = getenv("SQ_SEED");

	return s && *s ? strtoull(s, NULL, 0) : SQD_DEFAULT_SEED;
}

static unsigned long scaled(unsigned long ops)
{
	const char *s = getenv("SQ_DIFF_SCALE");
	unsigned long mul = s && *s ? strtoul(s, NULL, 0) : 1;

	ops = ops * (mul ? mul : 1) / SQ_DIFF_SCALE_DIV;
	return ops ? ops : 1;
}

/* the run's seed: the base seed mixed with the run's name */
static void seed_run(const char *run, const char *backend)
{
	uint64_t h = base_seed();
	const char *p;

	ctx.run = run;
	ctx.backend = backend;
	ctx.seed = h;
	ctx.step = 0;
	ctx.op = "init";
	for (p = run; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3u;
	for (p = backend; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3u;
	rng_state = h;
	find_rng = h ^ 0x66696e64u;	/* "find" */
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ---- visit_until's stop, on ids (find's predicate: sqm_match) -------- */

/* visit_until's function: records the ids it meets, stops at call @at
 * (1-based; 0 never) */
struct sqd_stop {
	unsigned at, calls;
	unsigned ids[SQD_XMAX];
};

static bool sqd_stop_at(long id, struct sqd_stop *st)
{
	if (st->calls < SQD_XMAX)
		st->ids[st->calls] = (unsigned)id;
	return ++st->calls == st->at;
}

/* ---- one adapter per backend, so one driver serves them all --------*/

struct sqd_ops {
	const char *name;
	bool is_ring;
	bool has_tie;				/* a tie kind: set_tie matters */
	void (*init)(unsigned gran_shift, uint64_t base);
	bool (*enqueue)(unsigned id, uint64_t key);
	bool (*dequeue)(unsigned id);
	bool (*requeue)(unsigned id, uint64_t key);
	long (*first)(void);			/* id, -1 if empty */
	long (*pop)(void);			/* id, -1 if empty */
	long (*pop_due)(uint64_t now);		/* id, -1 if nothing due */
	size_t (*visit)(unsigned char *seen);	/* seen[id]++ per node */
	long (*visit_until)(struct sqd_stop *st);	/* id, -1 if not stopped */
	long (*find)(uint64_t key, struct sqm_match *m);	/* m NULL: any */
	size_t (*count)(void);
	bool (*empty)(void);
	bool (*queued)(unsigned id);
	uint64_t (*key)(unsigned id);
	int (*check)(void);
	uint64_t (*time)(void);			/* the ring's time; trees: 0 */
	void (*advance)(uint64_t now);		/* the ring's clock; trees: nothing */
	void (*set_tie)(unsigned id, unsigned prio);	/* before (re)queueing */
};

/*
 * SQD_ADAPTER(K) - the backend's queue, SQD_XMAX items embedding its node
 * (not at offset 0, so sq_entry does real work), and one-line wrappers.
 */
#define SQD_ADAPTER(K)                                                        \
	struct K##_item {                                                     \
		unsigned id;                                                  \
		SQ_NODE(K) link;                                              \
		unsigned prio;		/* a tie kind's order */              \
	};                                                                    \
	static SQ_QUEUE(K) K##_q;                                             \
	static struct K##_item K##_items[SQD_XMAX];                           \
	static long K##_id(SQ_NODE(K) *n)                                     \
	{                                                                     \
		return n ? (long)sq_entry(n, struct K##_item, link)->id : -1; \
	}                                                                     \
	static void K##_nodes_init(void)                                      \
	{                                                                     \
		unsigned i;                                                   \
		for (i = 0; i < SQD_XMAX; i++) {                              \
			K##_items[i].id = i;                                  \
			K##_items[i].prio = 0;                                \
			SQ_NODE_INIT(K, &K##_items[i].link);                  \
		}                                                             \
	}                                                                     \
	static bool K##_enqueue(unsigned i, uint64_t key)                     \
	{                                                                     \
		return SQ_ENQUEUE(K, &K##_q, &K##_items[i].link, key);        \
	}                                                                     \
	static bool K##_dequeue(unsigned i)                                   \
	{                                                                     \
		return SQ_DEQUEUE(K, &K##_q, &K##_items[i].link);             \
	}                                                                     \
	static long K##_pop_due(uint64_t now)                                 \
	{                                                                     \
		return K##_id(SQ_POP_DUE(K, &K##_q, now));                    \
	}                                                                     \
	static void K##_mark(SQ_NODE(K) *n, void *seen)                       \
	{                                                                     \
		((unsigned char *)seen)[K##_id(n)]++;                         \
	}                                                                     \
	static size_t K##_visit(unsigned char *seen)                          \
	{                                                                     \
		return SQ_VISIT(K, &K##_q, K##_mark, seen);                   \
	}                                                                     \
	static bool K##_stop(SQ_NODE(K) *n, void *st)                         \
	{                                                                     \
		return sqd_stop_at(K##_id(n), (struct sqd_stop *)st);         \
	}                                                                     \
	static long K##_visit_until(struct sqd_stop *st)                      \
	{                                                                     \
		return K##_id(SQ_VISIT_UNTIL(K, &K##_q, K##_stop, st));       \
	}                                                                     \
	static bool K##_match(const SQ_NODE(K) *n, void *arg)                 \
	{                                                                     \
		return sqm_match_node(                                        \
			sq_entry_const(n, struct K##_item, link)->id,         \
			SQ_KEY(K, n), arg);                                   \
	}                                                                     \
	static long K##_find(uint64_t key, struct sqm_match *m)               \
	{                                                                     \
		return K##_id(SQ_FIND(K, &K##_q, key, m ? K##_match : NULL,   \
				      m));                                    \
	}                                                                     \
	static bool K##_requeue(unsigned i, uint64_t key)                     \
	{                                                                     \
		return SQ_REQUEUE(K, &K##_q, &K##_items[i].link, key);        \
	}                                                                     \
	static long K##_first(void) { return K##_id(SQ_FIRST(K, &K##_q)); }   \
	static long K##_pop(void) { return K##_id(SQ_POP(K, &K##_q)); }       \
	static size_t K##_count(void) { return SQ_COUNT(K, &K##_q); }         \
	static bool K##_empty(void) { return SQ_EMPTY(K, &K##_q); }           \
	static bool K##_queued(unsigned i)                                    \
	{                                                                     \
		return SQ_QUEUED(K, &K##_items[i].link);                      \
	}                                                                     \
	static uint64_t K##_key(unsigned i)                                   \
	{                                                                     \
		return SQ_KEY(K, &K##_items[i].link);                         \
	}                                                                     \
	static void K##_set_tie(unsigned i, unsigned prio)                    \
	{                                                                     \
		K##_items[i].prio = prio;                                     \
	}                                                                     \
	static int K##_check(void) { return SQ_CHECK(K, &K##_q); }

/*
 * The generic init and clock: the queue at @base with granularity
 * 2^@s (an exact backend refuses any s but 0), and the clock verbs every
 * backend has (an exact one's time is 0 and never moves).
 */
#define SQD_GENERIC(K, exact)                                               \
	SQD_ADAPTER(K)                                                      \
	static void K##_init(unsigned s, uint64_t b)                        \
	{                                                                   \
		DASSERT(SQ_INIT_GEOM(K, &K##_q, s, b),                      \
			"%s: geometry %u refused\n", #K, s);                 \
		K##_nodes_init();                                           \
	}                                                                   \
	static uint64_t K##_time(void) { return SQ_TIME(K, &K##_q); }       \
	static void K##_advance(uint64_t now)                               \
	{                                                                   \
		(void)SQ_ADVANCE(K, &K##_q, now);                           \
	}
SQ_KINDS(SQD_GENERIC)

/* a tie kind over backend B: tie_B, ordered among equal keys by prio */
#define SQD_TIE_KIND(B)                                                     \
	SQ_TIE(B, tie_##B, tie_##B##_less);                                 \
	SQD_GENERIC(tie_##B, 1)                                             \
	static bool tie_##B##_less(const SQ_NODE(tie_##B) *a,               \
				   const SQ_NODE(tie_##B) *b)               \
	{                                                                   \
		return sq_entry_const(a, struct tie_##B##_item, link)->prio < \
		       sq_entry_const(b, struct tie_##B##_item, link)->prio;  \
	}
SQ_TIE_KINDS(SQD_TIE_KIND)

#define SQD_OPS2(K, exact, tie)                                         \
	{ #K, !(exact), tie, K##_init, K##_enqueue, K##_dequeue,         \
	  K##_requeue, K##_first, K##_pop, K##_pop_due, K##_visit,       \
	  K##_visit_until, K##_find, K##_count, K##_empty, K##_queued,   \
	  K##_key, K##_check, K##_time, K##_advance, K##_set_tie },
#define SQD_OPS(K, exact) SQD_OPS2(K, exact, false)
#define SQD_TIE_OPS(B) SQD_OPS2(tie_##B, 1, true)
static struct sqd_ops backends[] = { SQ_KINDS(SQD_OPS) SQ_TIE_KINDS(SQD_TIE_OPS) };
#define SQD_NBACKENDS SQ_NELEM(backends)

/* ---- keys -------------------------------------------------------------- */

enum sqd_mode {
	SQD_EXACT,		/* a tree: any key, exact answers */
	SQD_RING_EXACT,		/* a ring, Tg = 1, no key late: exact */
	SQD_RING,		/* a ring, any geometry, any key: the guarantee */
};

static struct sqm model;
static uint64_t last_popped;	/* for hold-like keys */
static size_t max_queued;	/* the largest queue a run reached */

/* a key some queued node has, else 0 */
static uint64_t queued_key(void)
{
	return model.n ? model.e[below(model.n)].key : 0;
}

static uint64_t key_exact(void)
{
	static const uint64_t extremes[] = {
		0, 1, 2, UINT64_MAX, UINT64_MAX - 1, UINT64_MAX - 2,
		(uint64_t)1 << 63, ((uint64_t)1 << 63) - 1,
	};

	switch (below(9)) {
	case 0:
		return below(8);			/* many equal keys */
	case 1:
		return rnd();
	case 2:
		return extremes[below(SQ_NELEM(extremes))];
	case 3:
	case 4:
		return sat_add(last_popped, below(1000));	/* hold */
	case 5:
		return queued_key();
	case 6:
		return UINT64_MAX - below(8);
	case 7:
		return below(100000);
	default:
		return rnd() >> below(64);
	}
}

/* A key at or past @t at any distance: log-uniform, or on an aligned
 * boundary (the next multiple of 2^s past t, or one either side), where
 * the ring's levels split. */
static uint64_t key_far(uint64_t t)
{
	unsigned s = (unsigned)below(64);
	uint64_t b;

	if (below(2))
		return sat_add(t, rnd() >> s);
	b = s == 0 || (t >> s) + 1 > UINT64_MAX >> s ? t : ((t >> s) + 1) << s;
	switch (below(3)) {
	case 0:
		return b > t ? b - 1 : b;
	case 1:
		return b;
	default:
		return sat_add(b, 1);
	}
}

/* a window's width in ticks: 2^0 .. 2^SQD_SPAN_LOG2, log-uniform */
static uint64_t span_ticks(void)
{
	return (uint64_t)1 << below(SQD_SPAN_LOG2 + 1);
}

/* Tg = 1: keys >= time, most in a window [time, time + span), clipped at
 * UINT64_MAX, some past it at any distance (a ring is exact there too) */
static uint64_t key_ring_window(uint64_t t)
{
	uint64_t span = span_ticks();

	if (t > UINT64_MAX - (span - 1))
		span = UINT64_MAX - t + 1;

	switch (below(8)) {
	case 6:
	case 7:
		return key_far(t);
	case 0:
		return t;
	case 1:
		return t + (span - 1);
	case 2:
		return model.n ? queued_key() : t;
	case 3:
		return t + below(span < 8 ? span : 8);	/* crowded: equal keys */
	default:
		return t + below(span);
	}
}

/* a window's width span_ticks() * Tg, saturated */
static uint64_t ring_width(unsigned shift)
{
	uint64_t span = span_ticks();

	return shift + (unsigned)sq__ctz64(span) >= 64 ? UINT64_MAX
						       : span << shift;
}

/* any geometry: in a window, past its horizon, late, extremes */
static uint64_t key_ring(uint64_t t, unsigned shift)
{
	uint64_t width = ring_width(shift), tg = (uint64_t)1 << shift;

	switch (below(14)) {
	case 12:
	case 13:
		return key_far(t);				/* any distance */
	case 0:
	case 1:
	case 2:
		return sat_add(t, below(width));			/* window */
	case 3:
		return sat_add(t, below(tg << 2));		/* near time */
	case 4:
		return sat_add(sat_add(t, width), below(tg << 2)); /* just past */
	case 5:
		return sat_add(t, width - 1 - below(tg));	/* horizon edge */
	case 6:
		return rnd();					/* far */
	case 7:
		return t ? t - 1 - below(t < 1000 ? t : 1000) : 0; /* late */
	case 8:
		return below(2) ? 0 : UINT64_MAX;
	case 9:
		return queued_key();
	case 10:
		return sat_add(last_popped, below(tg << 1));	/* hold */
	default:
		return UINT64_MAX - below(width);
	}
}

/* ---- the driver against the model ----------------------------------- */

struct sqd_run {
	const struct sqd_ops *be;
	enum sqd_mode mode;
	unsigned shift;
	uint64_t base;
};

static uint64_t gen_key(const struct sqd_run *r)
{
	switch (r->mode) {
	case SQD_EXACT:
		return key_exact();
	case SQD_RING_EXACT:
		return key_ring_window(r->be->time());
	default:
		return key_ring(r->be->time(), r->shift);
	}
}

/* first() agrees with the model (exactly, or by the ring's rule) */
static void verify_first(const struct sqd_run *r)
{
	const struct sqd_ops *be = r->be;
	long f = be->first();
	unsigned mid;
	uint64_t mkey;

	DASSERT(be->count() == sqm_count(&model), "count %zu, model %zu\n",
		be->count(), sqm_count(&model));
	DASSERT(be->empty() == (sqm_count(&model) == 0), "empty() wrong\n");
	if (sqm_count(&model) > max_queued)
		max_queued = sqm_count(&model);
	if (!sqm_first(&model, &mid, &mkey)) {
		DASSERT(f == -1, "first() is %ld on an empty queue\n", f);
		return;
	}
	DASSERT(f >= 0, "first() is NULL, model has %zu\n", sqm_count(&model));
	DASSERT(be->queued((unsigned)f), "first() %ld not queued\n", f);
	DASSERT(be->key((unsigned)f) == sqm_key(&model, (unsigned)f),
		"first() %ld has key %llu, model %llu\n", f,
		(unsigned long long)be->key((unsigned)f),
		(unsigned long long)sqm_key(&model, (unsigned)f));
	if (r->mode == SQD_RING) {
		DASSERT(sqm_gran_pop_ok(&model, be->time(), r->shift, (unsigned)f),
			"first() %ld (key %llu) breaks the ring's rule at time %llu;"
			" model first %u key %llu\n", f,
			(unsigned long long)be->key((unsigned)f),
			(unsigned long long)be->time(), mid,
			(unsigned long long)mkey);
	} else {
		DASSERT((unsigned)f == mid, "first() %ld, model %u (key %llu)\n",
			f, mid, (unsigned long long)mkey);
	}
}

/* queued() and key of every id agree with the model */
static void verify_all(const struct sqd_run *r, unsigned nids)
{
	unsigned i;

	for (i = 0; i < nids; i++) {
		DASSERT(r->be->queued(i) == sqm_queued(&model, i),
			"queued(%u) is %d\n", i, r->be->queued(i));
		if (sqm_queued(&model, i))
			DASSERT(r->be->key(i) == sqm_key(&model, i),
				"key of %u\n", i);
	}
}

/* a tie kind's prio for a node about to be (re)queued: from 0..3, so
 * equal keys often have equal prios too; 0 for a plain kind */
static unsigned gen_tie(const struct sqd_ops *be, unsigned id)
{
	unsigned tie = be->has_tie ? (unsigned)below(4) : 0;

	be->set_tie(id, tie);
	return tie;
}

static void do_enqueue(const struct sqd_run *r, unsigned id, uint64_t key)
{
	const struct sqd_ops *be = r->be;
	uint64_t t0 = be->time();
	unsigned tie = gen_tie(be, id);
	bool got, want;

	ctx.op = "enqueue";
	got = be->enqueue(id, key);
	want = sqm_enqueue_tie(&model, id, key, tie);
	DASSERT(be->queued(id), "enqueued %u not queued\n", id);
	DASSERT(be->key(id) == key, "key member of %u\n", id);
	DASSERT(got == (be->first() == (long)id),
		"enqueue(%u, %llu) returned %d, first() is %ld\n", id,
		(unsigned long long)key, got, be->first());
	if (r->mode != SQD_RING)
		DASSERT(got == want, "enqueue(%u, %llu) returned %d, model %d\n",
			id, (unsigned long long)key, got, want);
	DASSERT(be->time() == t0, "enqueue moved the ring's time\n");
}

static void do_dequeue(const struct sqd_run *r, unsigned id)
{
	const struct sqd_ops *be = r->be;
	uint64_t t0 = be->time();
	long f0 = be->first();
	bool got;

	ctx.op = "dequeue";
	got = be->dequeue(id);
	sqm_dequeue(&model, id);
	DASSERT(!be->queued(id), "dequeued %u still queued\n", id);
	DASSERT(got == (f0 == (long)id),
		"dequeue(%u) returned %d, first was %ld\n", id, got, f0);
	DASSERT(be->time() == t0, "dequeue moved the ring's time\n");
}

static void do_requeue(const struct sqd_run *r, unsigned id, uint64_t key)
{
	const struct sqd_ops *be = r->be;
	uint64_t t0 = be->time(), k0, k1;
	unsigned tie;
	long f0, f1;
	bool got, want;

	ctx.op = be->queued(id) ? "requeue" : "requeue (arm)";
	f0 = be->first();
	k0 = f0 >= 0 ? be->key((unsigned)f0) : 0;
	tie = gen_tie(be, id);
	got = be->requeue(id, key);
	want = sqm_requeue_tie(&model, id, key, tie);
	f1 = be->first();
	k1 = be->key((unsigned)f1);
	DASSERT(be->queued(id), "requeued %u not queued\n", id);
	DASSERT(be->key(id) == key, "key member of %u\n", id);
	DASSERT(got == (f0 != f1 || k0 != k1),
		"requeue(%u, %llu) returned %d; first was %ld:%llu, is %ld:%llu\n",
		id, (unsigned long long)key, got, f0, (unsigned long long)k0, f1,
		(unsigned long long)k1);
	if (r->mode != SQD_RING)
		DASSERT(got == want, "requeue(%u, %llu) returned %d, model %d\n",
			id, (unsigned long long)key, got, want);
	DASSERT(be->time() == t0, "requeue moved the ring's time\n");
}

/* pop(), or pop_due(@now) when @due: the first node if its key <= @now */
static void do_pop(const struct sqd_run *r, bool due, uint64_t now)
{
	const struct sqd_ops *be = r->be;
	uint64_t t0 = be->time(), key, mkey, want_t;
	long f, p;
	unsigned mid = 0;

	ctx.op = due ? "pop_due" : "pop";
	f = be->first();
	if (r->mode == SQD_RING && f >= 0)
		DASSERT(sqm_gran_pop_ok(&model, t0, r->shift, (unsigned)f),
			"pop: first %ld breaks the ring's rule\n", f);
	if (due) {
		/* the ring's pop_due first moves its time to the clock */
		if (be->is_ring)
			t0 = sqm_gran_time_after_advance(&model, t0, r->shift, now);
		p = be->pop_due(now);
		if (f >= 0 && be->key((unsigned)f) > now) {
			DASSERT(p == -1, "pop_due(%llu) gave %ld, first %ld is not due\n",
				(unsigned long long)now, p, f);
			DASSERT(be->first() == f && be->time() == t0,
				"pop_due of nothing changed the queue\n");
			return;
		}
	} else {
		p = be->pop();
	}
	DASSERT(p == f, "%s gave %ld, first() showed %ld\n", ctx.op, p, f);
	if (p < 0) {
		DASSERT(sqm_count(&model) == 0, "%s NULL, model has %zu\n",
			ctx.op, sqm_count(&model));
		DASSERT(be->time() == t0, "%s of nothing: time %llu, want %llu\n",
			ctx.op, (unsigned long long)be->time(),
			(unsigned long long)t0);
		return;
	}
	DASSERT(!be->queued((unsigned)p), "popped %ld still queued\n", p);
	key = be->key((unsigned)p);
	DASSERT(sqm_queued(&model, (unsigned)p), "popped %ld not in model\n", p);
	DASSERT(key == sqm_key(&model, (unsigned)p), "popped key changed\n");
	if (r->mode == SQD_RING) {
		sqm_dequeue(&model, (unsigned)p);
	} else {
		DASSERT(sqm_pop(&model, &mid, &mkey) && (unsigned)p == mid,
			"pop() %ld, model %u\n", p, mid);
	}
	if (be->is_ring) {
		want_t = sqm_gran_time_after_pop(t0, r->shift, key);
		DASSERT(be->time() == want_t,
			"time %llu after popping key %llu at %llu, want %llu\n",
			(unsigned long long)be->time(), (unsigned long long)key,
			(unsigned long long)t0, (unsigned long long)want_t);
	}
	last_popped = key;
}

/* advance(@now): the ring's time follows the clock, never back, never
 * past a key that is not late; no backend's first node changes */
static void do_advance(const struct sqd_run *r, uint64_t now)
{
	const struct sqd_ops *be = r->be;
	uint64_t t0 = be->time(), want = t0;
	long f = be->first();

	ctx.op = "advance";
	if (be->is_ring)
		want = sqm_gran_time_after_advance(&model, t0, r->shift, now);
	be->advance(now);
	DASSERT(be->time() == want, "advance(%llu) at %llu: time %llu, want %llu\n",
		(unsigned long long)now, (unsigned long long)t0,
		(unsigned long long)be->time(), (unsigned long long)want);
	DASSERT(be->first() == f, "advance changed first() from %ld to %ld\n",
		f, be->first());
}

/* visit() meets every queued node once, and no other */
static void do_visit(const struct sqd_run *r, unsigned nids)
{
	static unsigned char seen[SQD_XMAX];
	size_t got;
	unsigned i;

	ctx.op = "visit";
	memset(seen, 0, nids);
	got = r->be->visit(seen);
	DASSERT(got == sqm_count(&model), "visit() counted %zu, model %zu\n",
		got, sqm_count(&model));
	for (i = 0; i < nids; i++)
		DASSERT(seen[i] == (sqm_queued(&model, i) ? 1 : 0),
			"visit() met %u %u times\n", i, seen[i]);
}

/* visit_until() walks visit()'s order and stops at the call that says
 * so: once to the end (every queued node once, NULL), once to a random
 * call (the node of that call) */
static void do_visit_until(const struct sqd_run *r, unsigned nids)
{
	static struct sqd_stop all, part;
	static unsigned char seen[SQD_XMAX];
	size_t n = sqm_count(&model);
	long got;
	unsigned i;

	ctx.op = "visit_until";
	all.at = 0;
	all.calls = 0;
	got = r->be->visit_until(&all);
	DASSERT(got == -1 && all.calls == n,
		"visit_until(never) gave %ld after %u calls, model %zu\n", got,
		all.calls, n);
	memset(seen, 0, nids);
	for (i = 0; i < all.calls; i++)
		seen[all.ids[i]]++;
	for (i = 0; i < nids; i++)
		DASSERT(seen[i] == (sqm_queued(&model, i) ? 1 : 0),
			"visit_until() met %u %u times\n", i, seen[i]);
	if (!n)
		return;
	part.at = 1 + (unsigned)(rng_next(&find_rng) % n);
	part.calls = 0;
	got = r->be->visit_until(&part);
	DASSERT(part.calls == part.at && got == (long)all.ids[part.at - 1],
		"visit_until(stop at call %u) gave %ld after %u calls, the "
		"walk's node there is %u\n", part.at, got, part.calls,
		all.ids[part.at - 1]);
}

/* find() gives the model's answer: keys present and absent, any node or
 * those a predicate takes, or the one node of an id (by its own stream) */
static void do_find(const struct sqd_run *r)
{
	struct sqm_match m;
	const struct sqm_entry *e;
	uint64_t key, x;
	long got, want;
	unsigned k, how;

	ctx.op = "find";
	for (k = 0; k < 4; k++) {
		x = rng_next(&find_rng);
		e = model.n ? &model.e[x % model.n] : NULL;
		switch ((x >> 32) % 6) {
		case 0:
		case 1:
			key = e ? e->key : x;			/* present */
			break;
		case 2:
			key = e ? e->key + 1 : 0;		/* beside one */
			break;
		case 3:
			key = e ? e->key - 1 : UINT64_MAX;
			break;
		case 4:
			key = last_popped;
			break;
		default:
			key = rng_next(&find_rng) >> (x % 64);	/* absent */
			break;
		}
		m.key = key;
		m.wrong_key = 0;
		how = (unsigned)((x >> 40) % 4);
		if (how == 1 || how == 2) {
			m.mod = 2 + (unsigned)(x >> 48) % 3;
			m.rem = (unsigned)(x >> 56) % m.mod;
		} else if (how == 3) {
			m.mod = 0;
			m.rem = e && e->key == key ? e->id
						   : (unsigned)(x >> 48) % 64;
		}
		got = r->be->find(key, how ? &m : NULL);
		want = sqm_find_key(&model, key, how ? sqm_match_id : NULL, &m);
		DASSERT(got == want,
			"find(%llu, %s %u/%u) gave %ld, model %ld\n",
			(unsigned long long)key, how ? "match" : "any",
			how ? m.rem : 0, how ? m.mod : 0, got, want);
		DASSERT(m.wrong_key == 0,
			"find(%llu) asked match about %lu nodes of other keys\n",
			(unsigned long long)key, m.wrong_key);
	}
}

enum sqd_op { OP_ENQUEUE, OP_REQUEUE, OP_DEQUEUE, OP_POP, OP_FIRST };

/*
 * pick_op - the next operation: the mix leans toward growing while the
 * queue is below @target and toward shrinking above it, so each segment
 * of a run fills the queue to its target (0 drains it) and then holds.
 */
static enum sqd_op pick_op(size_t count, size_t target)
{
	/* cumulative percentages: enqueue, requeue, dequeue, pop, first */
	static const unsigned grow[] = { 60, 75, 82, 95 };
	static const unsigned shrink[] = { 12, 27, 55, 95 };
	static const unsigned hold[] = { 35, 55, 65, 95 };
	const unsigned *mix = count < target ? grow : count > target ? shrink : hold;
	uint64_t pct = below(100);
	unsigned k;

	for (k = 0; k < 4; k++)
		if (pct < mix[k])
			return (enum sqd_op)k;
	return OP_FIRST;
}

/* a random queued id (the model's array is unordered), or -1 */
static long random_queued(void)
{
	return model.n ? (long)model.e[below(model.n)].id : -1;
}

/*
 * run_model - @ops random operations on ids below @nids_max, the number of
 * ids in play changing every @segment ops; check() every @check_every ops.
 */
static void run_model(const struct sqd_run *r, unsigned nids_max,
		      unsigned long ops, unsigned long check_every)
{
	static const unsigned nid_choices[] = { 1, 2, 3, 8, 24, 64, 200, 600, 1500 };
	const struct sqd_ops *be = r->be;
	const unsigned long segment = 4000;
	unsigned nids = nids_max, id, tries;
	size_t target = 0;
	unsigned long i;
	long q;

	sqm_init(&model);
	last_popped = r->base;
	be->init(r->shift, r->base);
	ctx.shift = r->shift;
	ctx.base = r->base;
	if (be->is_ring) {
		DASSERT(be->time() == (r->base & ~(((uint64_t)1 << r->shift) - 1)),
			"initial time %llu\n", (unsigned long long)be->time());
	}
	DASSERT(be->check() == 0, "check() of an empty queue\n");

	for (i = 0; i < ops; i++) {
		ctx.step = i;
		if (i % segment == 0) {
			do
				nids = nid_choices[below(SQ_NELEM(nid_choices))];
			while (nids > nids_max);
			target = nids * (size_t)below(5) / 4;	/* 0, 1/4 .. all */
		}
		switch (pick_op(sqm_count(&model), target)) {
		case OP_ENQUEUE:
			id = (unsigned)below(nids);
			for (tries = 0; tries < 4 && sqm_queued(&model, id); tries++)
				id = (unsigned)below(nids);
			if (!sqm_queued(&model, id))
				do_enqueue(r, id, gen_key(r));
			else
				do_requeue(r, id, gen_key(r));
			break;
		case OP_REQUEUE:
			/* 1 in 8 re-arms an idle node (requeue enqueues it) */
			q = below(8) ? random_queued() :
				sqm_find(&model, nids, (unsigned)below(nids), false);
			if (q >= 0)
				do_requeue(r, (unsigned)q, gen_key(r));
			break;
		case OP_DEQUEUE:
			q = random_queued();
			if (q >= 0)
				do_dequeue(r, (unsigned)q);
			break;
		case OP_POP:
			/* 1 in 4 is an expiry: pop_due at a key of the mix */
			if (below(4))
				do_pop(r, false, 0);
			else
				do_pop(r, true, gen_key(r));
			break;
		default:
			/* half the time the clock moves (a ring's time follows) */
			if (below(2))
				do_advance(r, gen_key(r));
			else
				ctx.op = "first";	/* verify_first below */
			break;
		}
		verify_first(r);
		if (check_every == 1 || i % check_every == 0) {
			int rc = be->check();

			DASSERT(rc == 0, "check() returned %d\n", rc);
		}
		if (check_every == 1 || i % 64 == 0)
			do_find(r);
		if (i % 1024 == 0) {
			verify_all(r, nids_max);
			do_visit(r, nids_max);
			do_visit_until(r, nids_max);
		}
	}
	/* drain in order */
	ctx.op = "drain";
	while (sqm_count(&model)) {
		do_pop(r, false, 0);
		verify_first(r);
	}
	DASSERT(be->check() == 0, "check() after the drain\n");
	verify_all(r, nids_max);
}

/* the small phase (check every step), then the long one */
static void run_both(const struct sqd_run *r, const char *name,
		     unsigned long small_ops, unsigned long long_ops,
		     unsigned long_nids)
{
	char run[64];

	max_queued = 0;
	snprintf(run, sizeof(run), "%s/small", name);
	seed_run(run, r->be->name);
	run_model(r, 24, scaled(small_ops), 1);
	snprintf(run, sizeof(run), "%s/long", name);
	seed_run(run, r->be->name);
	run_model(r, long_nids, scaled(long_ops), 509);
	printf("  %s on %s: %lu + %lu operations, up to %zu queued\n", name,
	       r->be->name, scaled(small_ops), scaled(long_ops), max_queued);
}

static void run_exact(const struct sqd_ops *be)
{
	struct sqd_run r;

	r.be = be;
	r.mode = SQD_EXACT;
	r.shift = 0;
	r.base = 0;
	run_both(&r, "exact", 40000, 800000, 1500);
}

/* every exact backend against the model */
SQ_TEST(diff_exact_backends)
{
	size_t b;

	for (b = 0; b < SQD_NBACKENDS; b++)
		if (!backends[b].is_ring)
			run_exact(&backends[b]);
}

/* a ring at Tg = 1, no key late: it must be exact */
static void run_ring_exact(const struct sqd_ops *be)
{
	struct sqd_run r;

	r.be = be;
	r.mode = SQD_RING_EXACT;
	r.shift = 0;
	r.base = 0;
	run_both(&r, "ring-exact-base0", 30000, 300000, 1500);
	r.base = 123456789;
	run_both(&r, "ring-exact-base123456789", 5000, 30000, 600);
	/* the windows run into UINT64_MAX */
	r.base = UINT64_MAX - 3 * SQD_SPAN / 2;
	run_both(&r, "ring-exact-top", 10000, 50000, 600);
}

SQ_TEST(diff_ring_exact)
{
	size_t b;

	for (b = 0; b < SQD_NBACKENDS; b++)
		if (backends[b].is_ring)
			run_ring_exact(&backends[b]);
}

/* every geometry, every key: the contract's guarantee */
static void run_ring_geometries(const struct sqd_ops *be)
{
	static const struct {
		unsigned shift;
		uint64_t base;
	} geoms[] = {
		{ 0, 0 },
		{ 0, UINT64_MAX - 100 },
		{ 1, UINT64_MAX },
		{ 3, 12345 },
		{ 7, (uint64_t)1 << 40 },
		{ 16, UINT64_MAX - ((uint64_t)1 << 30) },
		{ 40, 0 },
		{ 52, 0 },
		{ 63, 0 },
		{ 63, UINT64_MAX },
	};
	struct sqd_run r;
	char name[64];
	size_t g;

	r.be = be;
	r.mode = SQD_RING;
	for (g = 0; g < SQ_NELEM(geoms); g++) {
		r.shift = geoms[g].shift;
		r.base = geoms[g].base;
		snprintf(name, sizeof(name), "ring-shift%u-base%llu", r.shift,
			 (unsigned long long)r.base);
		run_both(&r, name, 8000, 60000, 600);
	}
}

SQ_TEST(diff_ring_geometries)
{
	size_t b;

	for (b = 0; b < SQD_NBACKENDS; b++)
		if (backends[b].is_ring)
			run_ring_geometries(&backends[b]);
}

/* ---- cross-backend equivalence ---------------------------------------- */

/* the set of queued ids, for picking a random one */
static unsigned xq_ids[SQD_XMAX], xq_pos[SQD_XMAX];	/* pos: index + 1 */
static unsigned xq_n;

static void xq_add(unsigned id)
{
	xq_ids[xq_n] = id;
	xq_pos[id] = ++xq_n;
}

static void xq_del(unsigned id)
{
	unsigned i = xq_pos[id] - 1, last = xq_ids[--xq_n];

	xq_ids[i] = last;
	xq_pos[last] = i + 1;
	xq_pos[id] = 0;
}

/*
 * run_cross - one stream into @n backends; all must answer alike.  With
 * the ring among them (Tg = 1), keys are at or past its time (any
 * distance), and now and then its clock moves.  With @ties (tie kinds
 * only) every enqueue and requeue first gives the node one random prio
 * in every backend; otherwise every prio stays 0.
 */
static void run_cross(const struct sqd_ops *const *bes, size_t n,
		      const char *name, unsigned nids_max, unsigned long ops,
		      bool ties)
{
	const struct sqd_ops *ring = NULL;
	bool ret0, ret;
	unsigned nids = nids_max, id;
	unsigned long i;
	long f0, f, p0, p;
	uint64_t key, t;
	size_t b;
	static const unsigned nid_choices[] = { 16, 256, 4096, SQD_XMAX };
	size_t target = 0;

	seed_run(name, "all");
	ctx.shift = 0;
	ctx.base = 0;
	max_queued = 0;
	memset(xq_pos, 0, sizeof(xq_pos));
	xq_n = 0;
	sqm_init(&model);	/* only for queued_key() in key_exact: empty */
	last_popped = 0;
	for (b = 0; b < n; b++) {
		bes[b]->init(0, 0);
		if (bes[b]->is_ring)
			ring = bes[b];
	}
	for (i = 0; i < ops; i++) {
		ctx.step = i;
		if (i % 50000 == 0) {
			do
				nids = nid_choices[below(SQ_NELEM(nid_choices))];
			while (nids > nids_max);
			target = nids * (size_t)below(5) / 4;
		}
		t = ring ? ring->time() : 0;
		/* the ring is exact at Tg = 1 for keys at or past its time,
		 * which never passes a queued key */
		key = ring ? key_ring_window(t) : key_exact();
		if (xq_n && below(8) == 0)	/* equal to a queued key */
			key = bes[0]->key(xq_ids[below(xq_n)]);
		if (ring && below(16) == 0) {	/* the clock moves on a little */
			uint64_t now = sat_add(t, below(4 * span_ticks()));

			ctx.op = "advance";
			for (b = 0; b < n; b++)	/* one clock for every ring */
				bes[b]->advance(now);
		}
		ret0 = false;
		switch (pick_op(xq_n, target)) {
		case OP_ENQUEUE:
		case OP_REQUEUE:
			id = (unsigned)below(nids);
			if (ties) {
				unsigned prio = (unsigned)below(4);

				for (b = 0; b < n; b++)
					bes[b]->set_tie(id, prio);
			}
			if (!xq_pos[id]) {
				ctx.op = "enqueue";
				for (b = 0; b < n; b++) {
					ret = bes[b]->enqueue(id, key);
					if (b == 0)
						ret0 = ret;
					DASSERT(ret == ret0, "%s enqueue returned %d\n",
						bes[b]->name, ret);
				}
				xq_add(id);
			} else {
				ctx.op = "requeue";
				for (b = 0; b < n; b++) {
					ret = bes[b]->requeue(id, key);
					if (b == 0)
						ret0 = ret;
					DASSERT(ret == ret0, "%s requeue returned %d\n",
						bes[b]->name, ret);
				}
			}
			break;
		case OP_DEQUEUE:
			if (!xq_n)
				break;
			id = xq_ids[below(xq_n)];
			ctx.op = "dequeue";
			for (b = 0; b < n; b++)
				bes[b]->dequeue(id);
			xq_del(id);
			break;
		default:
			ctx.op = "pop";
			p0 = bes[0]->pop();
			for (b = 1; b < n; b++) {
				p = bes[b]->pop();
				DASSERT(p == p0, "%s popped %ld, %s popped %ld\n",
					bes[b]->name, p, bes[0]->name, p0);
			}
			if (p0 >= 0) {
				xq_del((unsigned)p0);
				last_popped = bes[0]->key((unsigned)p0);
			}
			break;
		}
		if (xq_n > max_queued)
			max_queued = xq_n;
		f0 = bes[0]->first();
		for (b = 0; b < n; b++) {
			f = bes[b]->first();
			DASSERT(f == f0, "%s first %ld, %s first %ld\n",
				bes[b]->name, f, bes[0]->name, f0);
			DASSERT(bes[b]->count() == xq_n, "%s count %zu, want %u\n",
				bes[b]->name, bes[b]->count(), xq_n);
		}
		if (i % 49999 == 0)
			for (b = 0; b < n; b++)
				DASSERT(bes[b]->check() == 0, "%s check()\n",
					bes[b]->name);
	}
	ctx.op = "drain";
	while (xq_n) {
		p0 = bes[0]->pop();
		DASSERT(p0 >= 0, "%s empty with %u queued\n", bes[0]->name, xq_n);
		for (b = 1; b < n; b++) {
			p = bes[b]->pop();
			DASSERT(p == p0, "%s popped %ld, %s popped %ld\n",
				bes[b]->name, p, bes[0]->name, p0);
		}
		xq_del((unsigned)p0);
	}
	for (b = 0; b < n; b++) {
		DASSERT(bes[b]->empty(), "%s not empty\n", bes[b]->name);
		DASSERT(bes[b]->check() == 0, "%s check()\n", bes[b]->name);
	}
	printf("  %s: %lu operations on each of %zu backends, up to %zu queued\n",
	       name, ops, n, max_queued);
}

/* one stream into every exact backend and tie kind (prios 0), then into
 * all of them; then into the tie kinds alone, with random prios */
static void cross(bool with_rings, bool ties, const char *name)
{
	const struct sqd_ops *bes[SQD_NBACKENDS];
	size_t b, n = 0;

	for (b = 0; b < SQD_NBACKENDS; b++)
		if ((with_rings || !backends[b].is_ring) &&
		    (!ties || backends[b].has_tie))
			bes[n++] = &backends[b];
	run_cross(bes, n, name, SQD_XMAX, scaled(1000000), ties);
}

SQ_TEST(cross_exact_backends) { cross(false, false, "cross-exact"); }
SQ_TEST(cross_with_ring) { cross(true, false, "cross-all"); }
SQ_TEST(cross_tie_kinds) { cross(false, true, "cross-tie"); }

static const sq_test_entry tests[] = {
	SQ_T(diff_exact_backends),
	SQ_T(diff_ring_exact),
	SQ_T(diff_ring_geometries),
	SQ_T(cross_exact_backends),
	SQ_T(cross_with_ring),
	SQ_T(cross_tie_kinds),
};

SQ_TEST_MAIN("diff", tests)
