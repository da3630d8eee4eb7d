/* SPDX-License-Identifier: MIT */
/*
 * wb_tring.c - white-box tests of the time ring backend (smartq/tring.h)
 *
 * The ring is built with 64 slots (override with -DSQ_TRING_SLOTS=N) so
 * that the window wraps and the overflow fills often.  Random mixes of
 * enqueue / dequeue / pop / requeue / first at several granularities and
 * base times (up to UINT64_MAX) are compared with tests/model.h: exactly
 * (same nodes, same return values) at Tg = 1 with no late keys, and by the
 * ring's guarantee otherwise (late nodes first and FIFO, else a key below
 * the smallest key plus Tg; time moves only on pop, forward).  check()
 * runs after every step at small N.  Then the places one by one: keys far
 * past the horizon and their migration, late keys, time, edge keys,
 * requeue in place, and check() catching a ring broken on purpose.
 * A failure prints the seed and the step.
 */
#ifndef SQ_TRING_SLOTS
#define SQ_TRING_SLOTS 64
#endif
#include "smartq/tring.h"
#include "sq_test.h"
#include "model.h"
#include "rng.h"

#include <string.h>

#define NS ((uint64_t)SQ_TRING_SLOTS)
#define MAXN 2048u

static struct sq_tring ring;
static struct sqm model;
static struct sq_tring_node nodes[MAXN];

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static unsigned id_of(const struct sq_tring_node *n)
{
	return (unsigned)(n - nodes);
}

/* the window's width in key units (Ns * Tg), saturated */
static uint64_t window_keys(unsigned shift)
{
	return shift + sq__ctz64(NS) >= 64 ? UINT64_MAX : NS << shift;
}

static void reset(unsigned shift, uint64_t base)
{
	unsigned i;

	sq_tring_init_geom(&ring, shift, base);
	sqm_init(&model);
	for (i = 0; i < MAXN; i++)
		sq_tring_node_init(&nodes[i]);
}

/* ---- random mixes against the model ------------------------------------ */

struct mix {
	uint64_t seed;
	unsigned shift;
	uint64_t base;
	unsigned n;		/* node ids 0 .. n-1 */
	size_t steps;
	size_t check_every;	/* 1: check() after every step */
	bool exact;		/* Tg = 1, no late keys: compare exactly */
};

#define MIX_ASSERT(c, what)                                                  \
	SQ_ASSERTF(c, "wb_tring: seed %llu shift %u base %llu n %u step %zu: " \
		   "%s\n", (unsigned long long)mx->seed, mx->shift,          \
		   (unsigned long long)mx->base, mx->n, step, what)

/* a key for the next (re)queue: mostly in the window, some at the horizon,
 * far past it, at UINT64_MAX, equal to a queued key, or late */
static uint64_t pick_key(const struct mix *mx, uint64_t *rs)
{
	uint64_t t = sq_tring_time(&ring), w = window_keys(mx->shift);
	uint64_t tg = (uint64_t)1 << mx->shift;
	uint64_t few = mx->shift < 61 ? 4 * tg : UINT64_MAX;	/* 4 ticks */
	uint64_t k;

	switch (rng_below(rs, 16)) {
	case 0: case 1: case 2: case 3:
		return sat_add(t, rng_next(rs) % w);
	case 4: case 5:
		return sat_add(t, rng_next(rs) % few);	/* a few ticks */
	case 6:
		if (sqm_count(&model)) {	/* an equal key, never late */
			k = model.e[rng_below(rs, (unsigned)model.n)].key;
			return k >= t ? k : t;
		}
		return t;
	case 7: case 8:
		return sat_add(sat_add(t, w - (w / 2 > tg ? 2 * tg : 0)),
			       rng_next(rs) % few);	/* the horizon */
	case 9: case 10:
		return sat_add(sat_add(t, w), rng_next(rs) % sat_add(w, w));
	case 11:
		k = UINT64_MAX - rng_below(rs, 3);
		return mx->exact && k < t ? t : k;
	default:
		if (mx->exact || t == 0)
			return sat_add(t, rng_next(rs) % w);
		if (rng_below(rs, 2))
			return t - 1 - rng_next(rs) % (t < few ? t : few);
		return rng_next(rs) % t;
	}
}

static unsigned pick_queued(uint64_t *rs)
{
	return model.e[rng_below(rs, (unsigned)model.n)].id;
}

static void run_mix(const struct mix *mx)
{
	uint64_t rs = mx->seed, time;
	struct sq_tring_node *f, *x;
	size_t step;

	reset(mx->shift, mx->base);
	time = sq_tring_time(&ring);
	SQ_ASSERT_EQ(time, mx->base & ~(((uint64_t)1 << mx->shift) - 1));
	for (step = 0; step < mx->steps; step++) {
		unsigned op = rng_below(&rs, 100), id;
		size_t cnt = sqm_count(&model);
		uint64_t key, fkey;
		bool ret, mret;

		f = sq_tring_first(&ring);
		fkey = f ? f->key : 0;

		if (cnt == 0 || (op < 40 && cnt < mx->n)) {
			do
				id = rng_below(&rs, mx->n);
			while (sqm_queued(&model, id));
			key = pick_key(mx, &rs);
			ret = sq_tring_enqueue(&ring, &nodes[id], key);
			mret = sqm_enqueue(&model, id, key);
			MIX_ASSERT(sq_tring_queued(&nodes[id]), "enqueued node not queued");
			MIX_ASSERT(nodes[id].key == key, "enqueue did not set the key");
			MIX_ASSERT(ret == (sq_tring_first(&ring) == &nodes[id]),
				   "enqueue's return disagrees with first()");
			if (mx->exact)
				MIX_ASSERT(ret == mret, "enqueue's return differs from the model");
			MIX_ASSERT(sq_tring_time(&ring) == time, "enqueue moved time");
		} else if (op < 62) {
			x = sq_tring_pop(&ring);
			MIX_ASSERT(x == f, "pop did not return first()");
			MIX_ASSERT(!sq_tring_queued(x), "popped node still queued");
			id = id_of(x);
			MIX_ASSERT(sqm_dequeue(&model, id), "popped a node the model lacks");
			time = sqm_tring_time_after_pop(time, mx->shift, x->key);
			MIX_ASSERT(sq_tring_time(&ring) == time,
				   "time after pop is not max(time, tick of the node)");
		} else if (op < 77) {
			id = pick_queued(&rs);
			sq_tring_dequeue(&ring, &nodes[id]);
			sqm_dequeue(&model, id);
			MIX_ASSERT(!sq_tring_queued(&nodes[id]), "dequeued node still queued");
			MIX_ASSERT(sq_tring_time(&ring) == time, "dequeue moved time");
		} else if (op < 95) {
			id = rng_below(&rs, 4) ? pick_queued(&rs) : id_of(f);
			key = rng_below(&rs, 4) ? pick_key(mx, &rs) : nodes[id].key;
			ret = sq_tring_requeue(&ring, &nodes[id], key);
			mret = sqm_requeue(&model, id, key);
			x = sq_tring_first(&ring);
			MIX_ASSERT(nodes[id].key == key, "requeue did not set the key");
			MIX_ASSERT(sq_tring_queued(&nodes[id]), "requeued node not queued");
			MIX_ASSERT(ret == (x != f || x->key != fkey),
				   "requeue's return is not 'first or its key changed'");
			if (mx->exact)
				MIX_ASSERT(ret == mret, "requeue's return differs from the model");
			MIX_ASSERT(sq_tring_time(&ring) == time, "requeue moved time");
		}
		/* after every step: count, first, time */
		MIX_ASSERT(sq_tring_count(&ring) == sqm_count(&model), "count differs");
		MIX_ASSERT(sq_tring_empty(&ring) == (sqm_count(&model) == 0),
			   "empty() differs");
		f = sq_tring_first(&ring);
		if (f) {
			unsigned mid = MAXN;

			MIX_ASSERT(sqm_tring_pop_ok(&model, time, mx->shift, id_of(f)),
				   "first() breaks the ring's guarantee");
			if (mx->exact) {
				sqm_first(&model, &mid, NULL);
				MIX_ASSERT(mid == id_of(f), "first() differs from the model");
			}
		} else {
			MIX_ASSERT(sqm_count(&model) == 0, "first() NULL on a non-empty ring");
		}
		if (step % mx->check_every == 0 || step + 1 == mx->steps)
			MIX_ASSERT(sq_tring_check(&ring) == 0, "check() failed");
	}
	/* drain */
	while ((f = sq_tring_first(&ring)) != NULL) {
		MIX_ASSERT(sqm_tring_pop_ok(&model, time, mx->shift, id_of(f)),
			   "drain: first() breaks the ring's guarantee");
		if (mx->exact) {
			unsigned mid = MAXN;

			sqm_first(&model, &mid, NULL);
			MIX_ASSERT(mid == id_of(f), "drain: order differs from the model");
		}
		x = sq_tring_pop(&ring);
		MIX_ASSERT(x == f, "drain: pop is not first()");
		sqm_dequeue(&model, id_of(x));
		time = sqm_tring_time_after_pop(time, mx->shift, x->key);
		MIX_ASSERT(sq_tring_time(&ring) == time, "drain: time after pop");
	}
	MIX_ASSERT(sqm_count(&model) == 0 && sq_tring_count(&ring) == 0,
		   "drain left nodes");
	MIX_ASSERT(sq_tring_pop(&ring) == NULL, "pop of an empty ring");
	MIX_ASSERT(sq_tring_check(&ring) == 0, "check() of the drained ring");
}

static const unsigned shifts[] = { 0, 1, 4, 13, 40, 57, 58, 63 };

static uint64_t pick_base(uint64_t *rs)
{
	switch (rng_below(rs, 5)) {
	case 0:
		return 0;
	case 1:
		return rng_below(rs, 100000);
	case 2:
		return rng_next(rs);
	case 3:
		return UINT64_MAX - rng_below(rs, 5000);
	default:
		return UINT64_MAX;
	}
}

/* Tg = 1, keys never late: the ring must match the exact model */
SQ_TEST(tring_exact_small)
{
	uint64_t rs = 0x5eed0001, seed;
	unsigned i;

	for (i = 0; i < 24; i++) {
		struct mix m;

		seed = rng_next(&rs);
		m.seed = seed;
		m.shift = 0;
		m.base = pick_base(&rs);
		m.n = 2 + rng_below(&rs, 48);
		m.steps = 6000;
		m.check_every = 1;
		m.exact = true;
		run_mix(&m);
	}
}

/* every granularity, late keys included: the guarantee at small N */
SQ_TEST(tring_mix_small)
{
	uint64_t rs = 0x5eed0002;
	unsigned i;

	for (i = 0; i < 48; i++) {
		struct mix m;

		m.seed = rng_next(&rs);
		m.shift = shifts[i % SQ_NELEM(shifts)];
		m.base = pick_base(&rs);
		m.n = 1 + rng_below(&rs, 60);
		m.steps = 5000;
		m.check_every = 1;
		m.exact = false;
		run_mix(&m);
	}
}

/* more nodes than slots, check() now and then */
SQ_TEST(tring_mix_large)
{
	uint64_t rs = 0x5eed0003;
	unsigned i;

	for (i = 0; i < 8; i++) {
		struct mix m;

		m.seed = rng_next(&rs);
		m.shift = i < 3 ? 0 : shifts[i];
		m.base = pick_base(&rs);
		m.n = MAXN / 2 + rng_below(&rs, MAXN / 2);
		m.steps = 40000;
		m.check_every = 997;
		m.exact = i < 3;
		run_mix(&m);
	}
}

/* ---- the places one by one ---------------------------------------------- */

static struct sq_tring_node *pop_id(unsigned expect)
{
	struct sq_tring_node *x = sq_tring_pop(&ring);

	SQ_ASSERT(x != NULL);
	SQ_ASSERT_EQ(id_of(x), expect);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	return x;
}

SQ_TEST(tring_init_geom)
{
	sq_tring_init(&ring);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 0);
	SQ_ASSERT_EQ(sq_tring_gran_shift(&ring), 0);
	SQ_ASSERT(sq_tring_empty(&ring));
	SQ_ASSERT_EQ(sq_tring_count(&ring), 0);
	SQ_ASSERT(sq_tring_first(&ring) == NULL);
	SQ_ASSERT(sq_tring_pop(&ring) == NULL);
	SQ_ASSERT(sq_tring_check(&ring) == 0);

	sq_tring_init_geom(&ring, 3, 1001);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 1000);
	SQ_ASSERT_EQ(sq_tring_gran_shift(&ring), 3);
	sq_tring_init_geom(&ring, 63, UINT64_MAX);
	SQ_ASSERT_EQ(sq_tring_time(&ring), (uint64_t)1 << 63);
	sq_tring_init_geom(&ring, 0, UINT64_MAX);
	SQ_ASSERT_EQ(sq_tring_time(&ring), UINT64_MAX);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	/* the ring's state does not depend on what was there before */
	memset(&ring, 0xa5, sizeof(ring));
	sq_tring_init_geom(&ring, 5, 77);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	SQ_ASSERT(sq_tring_pop(&ring) == NULL);
}

/* keys past the horizon wait in the overflow, in key order (FIFO on ties),
 * and move into their slots as the window reaches them, once */
SQ_TEST(tring_horizon_migration)
{
	reset(0, 0);
	/* 0: in the window; 1, 2: one past the horizon (equal keys);
	 * 3: far; 4: the largest key; 5: the horizon's last tick */
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[0], 10));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[1], NS));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[2], NS));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[3], 5 * NS + 3));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[4], UINT64_MAX));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[5], NS - 1));
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	SQ_ASSERT_EQ(sq_rb_count(&ring.tr_over), 4);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[1]), SQ_TRING__OVER);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[5]), SQ_TRING__SLOT);

	pop_id(0);			/* time 10: NS, NS migrate, in order */
	SQ_ASSERT_EQ(sq_tring_time(&ring), 10);
	SQ_ASSERT_EQ(sq_rb_count(&ring.tr_over), 2);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[1]), SQ_TRING__SLOT);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[2]), SQ_TRING__SLOT);
	/* an equal key queued now goes after the two migrants */
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[6], NS));
	pop_id(5);
	pop_id(1);
	/* requeue with its own key: to the tail, after 6 */
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[2], NS));
	pop_id(6);
	pop_id(2);
	SQ_ASSERT_EQ(sq_tring_time(&ring), NS);
	/* only the overflow is left: pop jumps time there and migrates */
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[3]);
	pop_id(3);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 5 * NS + 3);
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[4]);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[4]), SQ_TRING__OVER);
	/* a smaller key past the horizon becomes first while only the
	 * overflow is queued; one inside the window then takes over */
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[7], UINT64_MAX - 1));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[8], UINT64_MAX - 1));
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[9], 5 * NS + 4));
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(9);
	/* dequeue the overflow's first: time stays */
	sq_tring_dequeue(&ring, &nodes[7]);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 5 * NS + 4);
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[8]);
	pop_id(8);
	SQ_ASSERT_EQ(sq_tring_time(&ring), UINT64_MAX - 1);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[4]), SQ_TRING__SLOT);	/* migrated */
	pop_id(4);
	SQ_ASSERT_EQ(sq_tring_time(&ring), UINT64_MAX);
	SQ_ASSERT(sq_tring_empty(&ring));
}

/* the same at a coarse granularity: the window is Ns ticks of Tg keys */
SQ_TEST(tring_horizon_coarse)
{
	const unsigned sh = 10;
	const uint64_t tg = (uint64_t)1 << sh;

	reset(sh, 5 * tg + 7);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 5 * tg);
	sq_tring_enqueue(&ring, &nodes[0], 5 * tg + 900);	/* tick 5 */
	sq_tring_enqueue(&ring, &nodes[1], 5 * tg + 3);	/* tick 5, later */
	sq_tring_enqueue(&ring, &nodes[2], (5 + NS) * tg - 1);	/* last tick */
	sq_tring_enqueue(&ring, &nodes[3], (5 + NS) * tg);	/* overflow */
	sq_tring_enqueue(&ring, &nodes[4], (5 + NS) * tg + tg - 1);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[2]), SQ_TRING__SLOT);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[3]), SQ_TRING__OVER);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(0);			/* FIFO inside a tick, not key order */
	pop_id(1);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 5 * tg);
	pop_id(2);
	SQ_ASSERT_EQ(sq_tring_time(&ring), (4 + NS) * tg);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[3]), SQ_TRING__SLOT);
	pop_id(3);
	pop_id(4);
	SQ_ASSERT_EQ(sq_tring_time(&ring), (5 + NS) * tg);
}

/* keys below the ring's time are late: first, FIFO among themselves */
SQ_TEST(tring_late_fifo)
{
	reset(0, 1000);
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[0], 1500));
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[1], 900));	/* late: first */
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[2], 100));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[3], 999));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[4], 0));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[5], 1000));	/* not late */
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[6], 50 * NS));	/* overflow */
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(1);
	/* dequeue the late head: the next late node is first, time stays */
	sq_tring_dequeue(&ring, &nodes[2]);
	pop_id(3);
	/* requeue a late node with another late key: to the late tail */
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[7], 1));
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[4], 2));
	pop_id(7);
	/* requeue the late tail (in place) */
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[4], 3));
	SQ_ASSERT(!sq_tring_requeue(&ring, &nodes[4], 3));
	pop_id(4);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 1000);
	pop_id(5);
	pop_id(0);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 1500);
	/* 1200 is below time now: late, ahead of the overflow */
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[1], 1200));
	/* requeue late -> window: still first, with another key */
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[1], 1510));
	SQ_ASSERT_EQ(sq_tring__where(&nodes[1]), SQ_TRING__SLOT);
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[1], 1520));
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[2], 1499));	/* late */
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[2]);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(2);
	pop_id(1);
	pop_id(6);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 50 * NS);
}

/* enqueue/dequeue/requeue/first never move time; pop moves it forward */
SQ_TEST(tring_time_only_on_pop)
{
	reset(4, 0);
	sq_tring_enqueue(&ring, &nodes[0], 100);
	sq_tring_enqueue(&ring, &nodes[1], 200);
	sq_tring_dequeue(&ring, &nodes[0]);	/* cancel the first timer */
	SQ_ASSERT_EQ(sq_tring_time(&ring), 0);
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[1]);
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[1], 300));
	SQ_ASSERT_EQ(sq_tring_time(&ring), 0);
	pop_id(1);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 288);	/* 300 rounded down */
	/* 290 has the current tick: in the window, not late */
	sq_tring_enqueue(&ring, &nodes[2], 290);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[2]), SQ_TRING__SLOT);
	sq_tring_enqueue(&ring, &nodes[3], 5);	/* late */
	pop_id(3);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 288);	/* never back */
	pop_id(2);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 288);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
}

/* keys and times near UINT64_MAX: nothing overflows */
SQ_TEST(tring_edge_keys)
{
	reset(0, UINT64_MAX - 10);
	sq_tring_enqueue(&ring, &nodes[0], UINT64_MAX);
	sq_tring_enqueue(&ring, &nodes[1], UINT64_MAX - 10);
	sq_tring_enqueue(&ring, &nodes[2], UINT64_MAX - 5);
	sq_tring_enqueue(&ring, &nodes[3], 0);			/* late */
	sq_tring_enqueue(&ring, &nodes[4], UINT64_MAX - 11);	/* late */
	sq_tring_enqueue(&ring, &nodes[5], UINT64_MAX);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[0]), SQ_TRING__SLOT);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[3]), SQ_TRING__LATE);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[4]), SQ_TRING__LATE);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(3);
	pop_id(4);
	pop_id(1);
	pop_id(2);
	pop_id(0);
	SQ_ASSERT_EQ(sq_tring_time(&ring), UINT64_MAX);
	sq_tring_enqueue(&ring, &nodes[6], UINT64_MAX - 1);	/* late */
	pop_id(6);
	pop_id(5);
	SQ_ASSERT(sq_tring_empty(&ring));

	/* shift 63: two ticks; time 2^63 after init at UINT64_MAX */
	reset(63, UINT64_MAX);
	sq_tring_enqueue(&ring, &nodes[0], UINT64_MAX);
	sq_tring_enqueue(&ring, &nodes[1], (uint64_t)1 << 63);
	sq_tring_enqueue(&ring, &nodes[2], ((uint64_t)1 << 63) - 1);	/* late */
	sq_tring_enqueue(&ring, &nodes[3], 0);				/* late */
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(2);
	pop_id(3);
	pop_id(0);		/* same tick as 1: FIFO, not key order */
	pop_id(1);

	/* key 0 at time 0 is not late */
	reset(0, 0);
	sq_tring_enqueue(&ring, &nodes[0], 0);
	SQ_ASSERT_EQ(sq_tring__where(&nodes[0]), SQ_TRING__SLOT);
	sq_tring_enqueue(&ring, &nodes[1], 0);
	pop_id(0);
	pop_id(1);
}

/* requeue: in place at its slot's tail, else to the tail of its new place */
SQ_TEST(tring_requeue)
{
	reset(0, 0);
	sq_tring_enqueue(&ring, &nodes[0], 10);
	sq_tring_enqueue(&ring, &nodes[1], 10);
	sq_tring_enqueue(&ring, &nodes[2], 10);
	SQ_ASSERT(!sq_tring_requeue(&ring, &nodes[2], 10));	/* the tail */
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[0], 10));	/* first moves */
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[1]);
	SQ_ASSERT(!sq_tring_requeue(&ring, &nodes[2], 12));
	SQ_ASSERT(!sq_tring_requeue(&ring, &nodes[2], 3 * NS));	/* overflow */
	SQ_ASSERT_EQ(sq_tring__where(&nodes[2]), SQ_TRING__OVER);
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[2], 9));	/* back, first */
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(2);
	pop_id(1);
	/* the only node: in place, true when its key changes */
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[0], 11));
	SQ_ASSERT(!sq_tring_requeue(&ring, &nodes[0], 11));
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(0);

	/* coarse: another key in the same tick stays in place */
	reset(4, 0);
	sq_tring_enqueue(&ring, &nodes[0], 32);
	sq_tring_enqueue(&ring, &nodes[1], 40);
	SQ_ASSERT(!sq_tring_requeue(&ring, &nodes[1], 33));
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[0], 47));	/* to the tail */
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[1]);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(1);
	pop_id(0);
}

/* queued() in every place, and after leaving each; poisoned links */
SQ_TEST(tring_queued_states)
{
	unsigned i;

	reset(0, 100);
	for (i = 0; i < 3; i++)
		SQ_ASSERT(!sq_tring_queued(&nodes[i]));
	sq_tring_enqueue(&ring, &nodes[0], 150);	/* slot */
	sq_tring_enqueue(&ring, &nodes[1], 5);		/* late */
	sq_tring_enqueue(&ring, &nodes[2], 100 + NS);	/* overflow */
	for (i = 0; i < 3; i++)
		SQ_ASSERT(sq_tring_queued(&nodes[i]));
	for (i = 0; i < 3; i++) {
		sq_tring_dequeue(&ring, &nodes[i]);
		SQ_ASSERT(!sq_tring_queued(&nodes[i]));
		SQ_ASSERT(sq_tring_check(&ring) == 0);
#ifdef SQ_DEBUG
		if (i < 2)
			SQ_ASSERT(nodes[i].tr_u.tr_list.tr_next ==
				  (struct sq_tring_node *)SQ__POISON(3));
#endif
	}
	SQ_ASSERT(sq_tring_empty(&ring));
	/* and through pop, then queued again */
	for (i = 0; i < 3; i++)
		sq_tring_enqueue(&ring, &nodes[i], i == 0 ? 150 : i == 1 ? 5 : 100 + NS);
	for (i = 0; i < 3; i++)
		SQ_ASSERT(!sq_tring_queued(sq_tring_pop(&ring)));
	SQ_ASSERT(sq_tring_empty(&ring));
	sq_tring_enqueue(&ring, &nodes[1], 1);
	SQ_ASSERT(sq_tring_queued(&nodes[1]));
	SQ_ASSERT(sq_tring_check(&ring) == 0);
}

/* the hold loop of the benchmark: pop, advance the key, enqueue again */
SQ_TEST(tring_hold)
{
	uint64_t rs = 0x5eed0004;
	unsigned n, i, step;

	for (n = 1; n <= 512; n *= 2) {
		uint64_t time;

		reset(rng_below(&rs, 2) ? 0 : 3, rng_next(&rs) >> 1);
		time = sq_tring_time(&ring);
		for (i = 0; i < n; i++) {
			uint64_t k = time + rng_below(&rs, 1000);

			sq_tring_enqueue(&ring, &nodes[i], k);
			sqm_enqueue(&model, i, k);
		}
		for (step = 0; step < 20000; step++) {
			struct sq_tring_node *x = sq_tring_first(&ring);
			unsigned sh = sq_tring_gran_shift(&ring);
			uint64_t inc = rng_below(&rs, 8) ? rng_below(&rs, 200) :
				rng_below(&rs, 100000);

			SQ_ASSERTF(sqm_tring_pop_ok(&model, time, sh, id_of(x)),
				   "hold n %u step %u\n", n, step);
			SQ_ASSERT(sq_tring_pop(&ring) == x);
			sqm_dequeue(&model, id_of(x));
			time = sqm_tring_time_after_pop(time, sh, x->key);
			SQ_ASSERT_EQ(sq_tring_time(&ring), time);
			sq_tring_enqueue(&ring, x, x->key + inc);
			sqm_enqueue(&model, id_of(x), x->key);
		}
		SQ_ASSERT(sq_tring_check(&ring) == 0);
	}
}

/* check() must catch a ring broken on purpose */
SQ_TEST(tring_check_catches)
{
	struct sq_tring_node *save;
	uint64_t w, k;
	uintptr_t tag;
	unsigned s;

	reset(0, 0);
	sq_tring_enqueue(&ring, &nodes[0], 10);
	sq_tring_enqueue(&ring, &nodes[1], 10);
	sq_tring_enqueue(&ring, &nodes[2], 70);
	sq_tring_enqueue(&ring, &nodes[3], 5 * NS);
	pop_id(0);
	sq_tring_enqueue(&ring, &nodes[4], 3);		/* late */
	SQ_ASSERT(sq_tring_check(&ring) == 0);
#ifdef SQ_DEBUG
	fprintf(stderr, "wb_tring: the check failures printed next are expected\n");
#endif

	/* a bit for an empty slot */
	s = 11;
	ring.tr_map[s >> 6] ^= (uint64_t)1 << (s & 63);
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	ring.tr_map[s >> 6] ^= (uint64_t)1 << (s & 63);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	/* no bit for a non-empty slot */
	s = 10;
	ring.tr_map[s >> 6] ^= (uint64_t)1 << (s & 63);
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	ring.tr_map[s >> 6] ^= (uint64_t)1 << (s & 63);
	/* the summary */
	w = ring.tr_summary;
	ring.tr_summary = 0;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	ring.tr_summary = w | ((uint64_t)1 << 63);
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	ring.tr_summary = w;
	/* the cached first */
	ring.tr_first = &nodes[2];
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	ring.tr_first = &nodes[4];
	/* the count */
	ring.tr_count++;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	ring.tr_count -= 2;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	ring.tr_count++;
	/* a key in the wrong slot, a late key at time, an overflow key
	 * inside the window */
	k = nodes[2].key;
	nodes[2].key = 71;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[2].key = k;
	nodes[4].key = sq_tring_time(&ring);
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[4].key = 3;
	k = nodes[3].key;
	nodes[3].key = 20;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[3].key = k;
	/* broken list links, a node not marked as queued */
	save = nodes[1].tr_u.tr_list.tr_prev;
	nodes[1].tr_u.tr_list.tr_prev = &nodes[2];
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[1].tr_u.tr_list.tr_prev = save;
	/* tags that lie: late as slot, slot as late, listed as unqueued,
	 * an overflow node's tree word as a list tag */
	SQ_ASSERT_EQ(sq_tring__where(&nodes[4]), SQ_TRING__LATE);
	nodes[4].tr_u.tr_list.tr_tag = SQ_TRING__SLOT;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[4].tr_u.tr_list.tr_tag = SQ_TRING__UNQUEUED;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[4].tr_u.tr_list.tr_tag = SQ_TRING__LATE;
	SQ_ASSERT_EQ(sq_tring__where(&nodes[2]), SQ_TRING__SLOT);
	nodes[2].tr_u.tr_list.tr_tag = SQ_TRING__LATE;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[2].tr_u.tr_list.tr_tag = SQ_TRING__SLOT;
	SQ_ASSERT_EQ(sq_tring__where(&nodes[3]), SQ_TRING__OVER);
	tag = nodes[3].tr_u.tr_list.tr_tag;
	nodes[3].tr_u.tr_list.tr_tag = SQ_TRING__SLOT;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[3].tr_u.tr_list.tr_tag = tag;
	SQ_ASSERT(sq_tring_check(&ring) == 0);
}

SQ_TEST(tring_sizes)
{
	printf("wb_tring: %u slots, sizeof(struct sq_tring_node) %zu, "
	       "sizeof(struct sq_tring) %zu\n", (unsigned)SQ_TRING_SLOTS,
	       sizeof(struct sq_tring_node), sizeof(struct sq_tring));
	/* the tree link (its first word the tag) and one key: no bigger
	 * than an rb node, 32 bytes on LP64 */
	SQ_ASSERT_EQ(sizeof(struct sq_tring_node), sizeof(struct sq_rb_node));
	if (sizeof(void *) == 8)
		SQ_ASSERT_EQ(sizeof(struct sq_tring_node), 32);
}

static const sq_test_entry tests[] = {
	SQ_T(tring_init_geom),
	SQ_T(tring_horizon_migration),
	SQ_T(tring_horizon_coarse),
	SQ_T(tring_late_fifo),
	SQ_T(tring_time_only_on_pop),
	SQ_T(tring_edge_keys),
	SQ_T(tring_requeue),
	SQ_T(tring_queued_states),
	SQ_T(tring_check_catches),
	SQ_T(tring_hold),
	SQ_T(tring_exact_small),
	SQ_T(tring_mix_small),
	SQ_T(tring_mix_large),
	SQ_T(tring_sizes),
};

SQ_TEST_MAIN("wb_tring", tests)
