/* SPDX-License-Identifier: MIT */
/*
 * wb_tring.c - white-box tests of the time ring backend (smartq/tring.h)
 *
 * The ring is built with 64 slots (override with -DSQ_TRING_SLOTS=N) so
 * that it wraps and the levels fill often.  Random mixes of enqueue /
 * dequeue / pop / requeue / advance / pop_due / first at several
 * granularities and base times (up to UINT64_MAX), with keys at every
 * distance (log-uniform, on the levels' boundaries, near UINT64_MAX, late)
 * are compared with tests/model.h: exactly (same nodes, same return
 * values) at Tg = 1 with no late keys, and by the ring's guarantee
 * otherwise (late nodes first and FIFO, else a key below the smallest key
 * plus Tg; time moves only in pop, advance and pop_due, forward, never
 * past a queued key that is not late).  check() runs after every step at
 * small N.  Then the places one by one: the levels and their cascades (a
 * node's level never rises), a crowded level slot put in tick order as its
 * first is dequeued, late keys, time, edge keys, requeue in place,
 * and check() catching a ring broken on purpose, level by level.  Then
 * the cost, counted with SQ__STEP (no timing): issue 22's inputs that
 * reach the ring at n and 8n nodes, at most 1.5x per operation; and under
 * SQ_DEBUG a dequeue or requeue through the wrong queue.
 * A failure prints the seed and the step.
 */
#define _POSIX_C_SOURCE 200809L	/* child.h: fork, pipes */
#ifndef SQ_TRING_SLOTS
#define SQ_TRING_SLOTS 64
#endif
/* the step counter: each loop of tring.h whose trip count depends on the
 * contents adds one (nothing in a user's build) */
static unsigned long long wb_steps;
#define SQ__STEP(n) ((void)(wb_steps += (unsigned long long)(n)))
#include "smartq/tring.h"
#include "sq_test.h"
#include "child.h"
#include "model.h"
#include "rng.h"

#include <string.h>

#define NS ((uint64_t)SQ_TRING_SLOTS)
#define HALF ((uint64_t)1 << SQ_TRING__H)	/* ticks in a half ring */
#define MAXN 2048u

static struct sq_tring ring;
static struct sqm model;
static struct sq_tring_node nodes[MAXN];

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* x << sh, saturated */
static uint64_t sat_shl(uint64_t x, unsigned sh)
{
	return sh >= 64 || x > UINT64_MAX >> sh ? UINT64_MAX : x << sh;
}

static unsigned id_of(const struct sq_tring_node *n)
{
	return (unsigned)(n - nodes);
}

/* Ns * Tg: the ring never reaches further ahead than this, in key units */
static uint64_t window_keys(unsigned shift)
{
	return sat_shl(NS, shift);
}

static void reset(unsigned shift, uint64_t base)
{
	unsigned i;

	SQ_ASSERT(sq_tring_init_geom(&ring, shift, base));
	sqm_init(&model);
	for (i = 0; i < MAXN; i++)
		sq_tring_node_init(&nodes[i]);
}

/* the levels' anchor (the ring's last half ring) and a node's level:
 * 0 in the ring or late, 1..K in a level */
static uint64_t anchor(void)
{
	return (ring.tr_cur >> SQ_TRING__H) + 1;
}

static unsigned level_now(const struct sq_tring_node *n)
{
	uint64_t u = (n->key >> ring.tr_shift) >> SQ_TRING__H;

	if (sq_tring__tag(n) != SQ_TRING__LEVEL)
		return 0;
	return sq_tring__level_of(u, anchor()) + 1;
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

/* a tick as a key (its first key), saturated */
static uint64_t key_of_tick(const struct mix *mx, uint64_t tick)
{
	return sat_shl(tick, mx->shift);
}

/* A key for the next (re)queue: in the ring, at its edge, at every
 * distance past it (log-uniform, on a level's boundary), at UINT64_MAX,
 * equal to a queued key, or late. */
static uint64_t pick_key(const struct mix *mx, uint64_t *rs)
{
	uint64_t t = sq_tring_time(&ring), w = window_keys(mx->shift);
	uint64_t tg = (uint64_t)1 << mx->shift;
	uint64_t few = mx->shift < 61 ? 4 * tg : UINT64_MAX;	/* 4 ticks */
	uint64_t cur = ring.tr_cur, u, k;
	unsigned lv;

	switch (rng_below(rs, 20)) {
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
	case 7: case 8:		/* the ring's edge: the next half ring's end */
		u = (cur >> SQ_TRING__H) + 2;
		k = key_of_tick(mx, sat_shl(u, SQ_TRING__H));
		return rng_below(rs, 2) ? sat_add(k, rng_next(rs) % few) :
			k - (k - t < few ? k - t : rng_next(rs) % few);
	case 9: case 10: case 11:	/* any distance, log-uniform */
		return sat_add(t, rng_next(rs) >> rng_below(rs, 64));
	case 12: case 13:	/* a level's boundary, a half ring either side */
		lv = rng_below(rs, SQ_TRING__LEVELS);
		u = sat_shl((anchor() >> (lv * SQ_TRING__B)) + 1 +
			    rng_below(rs, 2), lv * SQ_TRING__B);
		u = rng_below(rs, 2) ? sat_add(u, rng_below(rs, 2)) :
			u - (u > anchor() + 1 ? 1 : 0);
		k = key_of_tick(mx, sat_shl(u, SQ_TRING__H));
		k = rng_below(rs, 2) ? sat_add(k, rng_next(rs) % few) : k - 1;
		return k < t ? t : k;
	case 14:
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

/* a clock for advance / pop_due: often the next due key, sometimes far,
 * sometimes behind the ring's time */
static uint64_t pick_now(const struct mix *mx, uint64_t *rs)
{
	uint64_t t = sq_tring_time(&ring);
	const struct sq_tring_node *f = sq_tring_first(&ring);

	switch (rng_below(rs, 6)) {
	case 0:
		return f ? f->key : t;
	case 1:
		return f ? sat_add(f->key, rng_below(rs, 3)) : t;
	case 2:
		return sat_add(t, rng_next(rs) >> rng_below(rs, 64));
	case 3:
		return t - (t ? rng_next(rs) % t : 0);
	default:
		return sat_add(t, rng_next(rs) % window_keys(mx->shift));
	}
}

static unsigned pick_queued(uint64_t *rs)
{
	return model.e[rng_below(rs, (unsigned)model.n)].id;
}

/* expire()'s callback in a mix: each node fired must be due and come in
 * the ring's order (exactly the model's at Tg = 1; late nodes before the
 * rest, the rest by the guarantee); it is dropped from the model and now
 * and then re-armed past now, or an idle node armed due (which must fire
 * in the same call) */
struct mix_expire {
	const struct mix *mx;
	uint64_t *rs, now, time;
	size_t step, fired, armed_due, cancelled_due;
	bool past_late;
};

static void mix_fire(struct sq_tring_node *x, void *arg)
{
	struct mix_expire *e = (struct mix_expire *)arg;
	const struct mix *mx = e->mx;
	size_t step = e->step;
	unsigned id = id_of(x), other, mid = MAXN;
	uint64_t key;

	MIX_ASSERT(!sq_tring_queued(x), "expire: fn got a queued node");
	MIX_ASSERT(sqm_queued(&model, id), "expire: fired a node the model lacks");
	MIX_ASSERT(x->key <= e->now, "expire: fired a node not due");
	if (mx->exact) {
		sqm_first(&model, &mid, NULL);
		MIX_ASSERT(mid == id, "expire: order differs from the model");
	} else if (x->key < e->time) {
		MIX_ASSERT(!e->past_late, "expire: a late node after the others");
	} else {
		e->past_late = true;
		MIX_ASSERT(sqm_gran_pop_ok(&model, e->time, mx->shift, id),
			   "expire: order breaks the ring's guarantee");
	}
	sqm_dequeue(&model, id);
	e->time = sqm_gran_time_after_pop(e->time, mx->shift, x->key);
	e->fired++;
	switch (rng_below(e->rs, 8)) {
	case 0: case 1:		/* a period: past now */
		key = sat_add(e->now, 1 + rng_below(e->rs, 3) *
			      (rng_next(e->rs) >> rng_below(e->rs, 64)));
		if (key > e->now) {
			(void)sq_tring_requeue(&ring, x, key);
			sqm_enqueue(&model, id, key);
		}
		break;
	case 2:			/* arm an idle node due now: fires too */
		other = rng_below(e->rs, mx->n);
		if (e->armed_due < 4 && other != id &&
		    !sqm_queued(&model, other)) {
			key = e->now - rng_below(e->rs, 3) *
			      (e->now > 3 ? 1 : 0);
			if (key >= e->time || !mx->exact) {
				e->armed_due++;
				(void)sq_tring_enqueue(&ring, &nodes[other], key);
				sqm_enqueue(&model, other, key);
				if (key < e->time)	/* late: after others */
					e->past_late = false;
			}
		}
		break;
	case 3:			/* cancel another node */
		if (sqm_count(&model)) {
			other = pick_queued(e->rs);
			e->cancelled_due += nodes[other].key <= e->now;
			(void)sq_tring_dequeue(&ring, &nodes[other]);
			sqm_dequeue(&model, other);
		}
		break;
	default:		/* done with it */
		break;
	}
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
		uint64_t key, fkey, now;
		bool ret, mret;

		f = sq_tring_first(&ring);
		fkey = f ? f->key : 0;

		if (cnt == 0 || (op < 40 && cnt < mx->n)) {
			do
				id = rng_below(&rs, mx->n);
			while (sqm_queued(&model, id));
			key = pick_key(mx, &rs);
			ret = rng_below(&rs, 8) ?
				sq_tring_enqueue(&ring, &nodes[id], key) :
				sq_tring_requeue(&ring, &nodes[id], key);	/* arm */
			mret = sqm_enqueue(&model, id, key);
			MIX_ASSERT(sq_tring_queued(&nodes[id]), "enqueued node not queued");
			MIX_ASSERT(nodes[id].key == key, "enqueue did not set the key");
			MIX_ASSERT(ret == (sq_tring_first(&ring) == &nodes[id]),
				   "enqueue's return disagrees with first()");
			if (mx->exact)
				MIX_ASSERT(ret == mret, "enqueue's return differs from the model");
			MIX_ASSERT(sq_tring_time(&ring) == time, "enqueue moved time");
		} else if (op < 58) {
			x = sq_tring_pop(&ring);
			MIX_ASSERT(x == f, "pop did not return first()");
			MIX_ASSERT(!sq_tring_queued(x), "popped node still queued");
			id = id_of(x);
			MIX_ASSERT(sqm_dequeue(&model, id), "popped a node the model lacks");
			time = sqm_gran_time_after_pop(time, mx->shift, x->key);
			MIX_ASSERT(sq_tring_time(&ring) == time,
				   "time after pop is not max(time, tick of the node)");
		} else if (op < 70) {
			id = rng_below(&rs, 3) ? pick_queued(&rs) : id_of(f);
			ret = sq_tring_dequeue(&ring, &nodes[id]);
			sqm_dequeue(&model, id);
			MIX_ASSERT(ret == (f == &nodes[id]),
				   "dequeue's return is not 'it was first'");
			MIX_ASSERT(!sq_tring_queued(&nodes[id]), "dequeued node still queued");
			MIX_ASSERT(sq_tring_time(&ring) == time, "dequeue moved time");
		} else if (op < 85) {
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
		} else if (op < 91) {
			now = pick_now(mx, &rs);
			time = sqm_gran_time_after_advance(&model, time, mx->shift,
							    now);
			MIX_ASSERT(sq_tring_advance(&ring, now) == time,
				   "advance's return is not the model's time");
			MIX_ASSERT(sq_tring_time(&ring) == time,
				   "time after advance is not min(now, smallest key)");
			MIX_ASSERT(sq_tring_first(&ring) == f, "advance changed first()");
		} else if (op < 97) {
			now = pick_now(mx, &rs);
			time = sqm_gran_time_after_advance(&model, time, mx->shift,
							    now);
			x = sq_tring_pop_due(&ring, now);
			if (f && fkey <= now) {
				MIX_ASSERT(x == f, "pop_due did not pop a due first()");
				sqm_dequeue(&model, id_of(x));
				time = sqm_gran_time_after_pop(time, mx->shift, x->key);
			} else {
				MIX_ASSERT(x == NULL, "pop_due popped a node not due");
			}
			MIX_ASSERT(sq_tring_time(&ring) == time, "time after pop_due");
		} else {
			struct mix_expire e;
			size_t due = 0, i;

			e.mx = mx;
			e.rs = &rs;
			e.now = pick_now(mx, &rs);
			e.time = time;
			e.step = step;
			e.fired = 0;
			e.armed_due = 0;
			e.cancelled_due = 0;
			e.past_late = false;
			for (i = 0; i < model.n; i++)
				due += model.e[i].key <= e.now;
			MIX_ASSERT(sq_tring_expire(&ring, e.now, mix_fire, &e) ==
				   e.fired, "expire's count is not the nodes fired");
			MIX_ASSERT(e.fired + e.cancelled_due >= due,
				   "expire left a due node");
			for (i = 0; i < model.n; i++)
				MIX_ASSERT(model.e[i].key > e.now,
					   "a due node is queued after expire");
			time = sqm_gran_time_after_advance(&model, e.time,
							    mx->shift, e.now);
			MIX_ASSERT(sq_tring_time(&ring) == time, "time after expire");
		}
		/* after every step: count, first, time */
		MIX_ASSERT(sq_tring_count(&ring) == sqm_count(&model), "count differs");
		MIX_ASSERT(sq_tring_empty(&ring) == (sqm_count(&model) == 0),
			   "empty() differs");
		f = sq_tring_first(&ring);
		if (f) {
			unsigned mid = MAXN;

			MIX_ASSERT(sqm_gran_pop_ok(&model, time, mx->shift, id_of(f)),
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
		MIX_ASSERT(sqm_gran_pop_ok(&model, time, mx->shift, id_of(f)),
			   "drain: first() breaks the ring's guarantee");
		if (mx->exact) {
			unsigned mid = MAXN;

			sqm_first(&model, &mid, NULL);
			MIX_ASSERT(mid == id_of(f), "drain: order differs from the model");
		}
		x = sq_tring_pop(&ring);
		MIX_ASSERT(x == f, "drain: pop is not first()");
		sqm_dequeue(&model, id_of(x));
		time = sqm_gran_time_after_pop(time, mx->shift, x->key);
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

/* @runs mixes from @seed, the first @exact of them at Tg = 1 with keys
 * never late (compared exactly), the rest at every granularity; each
 * with its own base time and from @nmin to @nmin + @nspan - 1 nodes */
static void run_mixes(uint64_t seed, unsigned runs, unsigned exact,
		      unsigned nmin, unsigned nspan, size_t steps,
		      size_t check_every)
{
	unsigned i;

	for (i = 0; i < runs; i++) {
		struct mix m;

		m.seed = rng_next(&seed);
		m.exact = i < exact;
		m.shift = m.exact ? 0 : shifts[i % SQ_NELEM(shifts)];
		m.base = pick_base(&seed);
		m.n = nmin + rng_below(&seed, nspan);
		m.steps = steps;
		m.check_every = check_every;
		run_mix(&m);
	}
}

/* Tg = 1, keys never late: the ring must match the exact model */
SQ_TEST(tring_exact_small)
{
	run_mixes(0x5eed0001, 24, 24, 2, 48, 6000, 1);
}

/* every granularity, late keys included: the guarantee at small N */
SQ_TEST(tring_mix_small)
{
	run_mixes(0x5eed0002, 48, 0, 1, 60, 5000, 1);
}

/* more nodes than slots, check() now and then */
SQ_TEST(tring_mix_large)
{
	run_mixes(0x5eed0003, 8, 3, MAXN / 2, MAXN / 2, 40000, 997);
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

/* expire()'s order, as fired: ids into a list */
struct fired {
	unsigned id[MAXN];
	size_t n;
	uint64_t rearm;		/* 0, or each node re-armed at key + this */
};

static void note_fired(struct sq_tring_node *x, void *arg)
{
	struct fired *f = (struct fired *)arg;

	SQ_ASSERT(!sq_tring_queued(x));
	SQ_ASSERT(f->n < MAXN);
	f->id[f->n++] = id_of(x);
	if (f->rearm)
		(void)sq_tring_requeue(&ring, x, x->key + f->rearm);
}

/* Tg = 16: a tick's nodes are FIFO, so pop_due() stops at one not yet due;
 * expire() fires the due ones behind it too, in their order, and leaves
 * the rest in theirs; late nodes first; re-armed nodes do not fire again */
SQ_TEST(tring_expire)
{
	static struct fired f;

	reset(4, 1600);			/* tick 100 */
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[0], 1620));	/* tick 101 */
	(void)sq_tring_enqueue(&ring, &nodes[1], 1612);		/* tick 100 */
	(void)sq_tring_enqueue(&ring, &nodes[2], 1660);		/* tick 103 */
	(void)sq_tring_enqueue(&ring, &nodes[3], 1669);		/* not due */
	(void)sq_tring_enqueue(&ring, &nodes[4], 1661);
	(void)sq_tring_enqueue(&ring, &nodes[5], 1668);		/* not due */
	(void)sq_tring_enqueue(&ring, &nodes[6], 1665);
	(void)sq_tring_enqueue(&ring, &nodes[7], 1600 + 64 * NS);	/* far */
	(void)sq_tring_enqueue(&ring, &nodes[8], 1500);		/* late */
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	f.n = 0;
	f.rearm = 1000;
	SQ_ASSERT_EQ(sq_tring_expire(&ring, 1665, note_fired, &f), 6);
	SQ_ASSERT_EQ(f.n, 6);
	SQ_ASSERT_EQ(f.id[0], 8);
	SQ_ASSERT_EQ(f.id[1], 1);
	SQ_ASSERT_EQ(f.id[2], 0);
	SQ_ASSERT_EQ(f.id[3], 2);
	SQ_ASSERT_EQ(f.id[4], 4);
	SQ_ASSERT_EQ(f.id[5], 6);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 1664);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	/* the rest of tick 103 in its order, then the re-armed, the far */
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[3]);
	SQ_ASSERT_EQ(sq_tring_count(&ring), 9);
	f.n = 0;
	f.rearm = 0;
	SQ_ASSERT_EQ(sq_tring_expire(&ring, 1669, note_fired, &f), 2);
	SQ_ASSERT_EQ(f.id[0], 3);
	SQ_ASSERT_EQ(f.id[1], 5);
	/* nothing due: time moves, nothing fires; an empty ring */
	SQ_ASSERT_EQ(sq_tring_expire(&ring, 2000, note_fired, &f), 0);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 2000);
	SQ_ASSERT_EQ(sq_tring_expire(&ring, UINT64_MAX, note_fired, &f), 7);
	SQ_ASSERT_EQ(f.id[f.n - 1], 7);
	SQ_ASSERT(sq_tring_empty(&ring));
	SQ_ASSERT_EQ(sq_tring_expire(&ring, UINT64_MAX, note_fired, &f), 0);
	SQ_ASSERT(sq_tring_check(&ring) == 0);

	/* the time past now (a pop moved it): only late nodes can be due,
	 * and those past now stay, in their order */
	reset(0, 0);
	(void)sq_tring_enqueue(&ring, &nodes[0], 500);
	(void)sq_tring_pop(&ring);				/* time 500 */
	(void)sq_tring_enqueue(&ring, &nodes[1], 400);		/* late */
	(void)sq_tring_enqueue(&ring, &nodes[2], 100);		/* late */
	(void)sq_tring_enqueue(&ring, &nodes[3], 450);		/* late */
	(void)sq_tring_enqueue(&ring, &nodes[4], 200);		/* late */
	(void)sq_tring_enqueue(&ring, &nodes[5], 600);
	f.n = 0;
	SQ_ASSERT_EQ(sq_tring_expire(&ring, 300, note_fired, &f), 2);
	SQ_ASSERT_EQ(f.id[0], 2);
	SQ_ASSERT_EQ(f.id[1], 4);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 500);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(1);
	pop_id(3);
	pop_id(5);
}

/* expire(now) against a pop_due(now) loop on a twin ring, the same random
 * keys at every distance and granularity: at Tg = 1 the same nodes in the
 * same order; at Tg > 1 the loop's nodes first, then the due nodes it
 * left (behind one not due), in the loop's ring's order; either way
 * nothing due is left, and the time is the same */
static void none_due(struct sq_tring_node *x, void *arg)
{
	SQ_ASSERT(x->key > *(const uint64_t *)arg);
}

static struct sq_tring twin;
static struct sq_tring_node tnodes[MAXN];

SQ_TEST(tring_expire_vs_pop_due)
{
	static struct fired f;
	static unsigned loop[MAXN];
	uint64_t seed = 0x5eed0e1e, rs;
	unsigned run, i, r, nl;

	for (run = 0; run < 200; run++) {
		unsigned shift = run % 3 == 0 ? 0 : shifts[run % SQ_NELEM(shifts)];
		unsigned n = 1 + rng_below(&seed, MAXN / 2);
		uint64_t base = run % 2 ? rng_next(&seed) >> 8 : 0, now;

		rs = rng_next(&seed);
		if (shift > 40)
			shift = 7;
		reset(shift, base);
		SQ_ASSERT(sq_tring_init_geom(&twin, shift, base));
		for (i = 0; i < n; i++) {
			uint64_t key = sat_add(base, rng_next(&rs) >>
					       rng_below(&rs, 64));

			sq_tring_node_init(&tnodes[i]);
			(void)sq_tring_enqueue(&ring, &nodes[i], key);
			(void)sq_tring_enqueue(&twin, &tnodes[i], key);
		}
		for (r = 0; r < 8 && sq_tring_count(&ring); r++) {
			struct sq_tring_node *x;

			now = sat_add(sq_tring_time(&ring),
				      rng_next(&rs) >> rng_below(&rs, 64));
			f.n = 0;
			f.rearm = 0;
			(void)sq_tring_expire(&ring, now, note_fired, &f);
			for (nl = 0; (x = sq_tring_pop_due(&twin, now)); nl++)
				loop[nl] = (unsigned)(x - tnodes);
			SQ_ASSERTF(f.n >= nl, "seed %llu run %u round %u: "
				   "expire fired fewer than pop_due\n",
				   (unsigned long long)seed, run, r);
			for (i = 0; i < nl; i++)
				SQ_ASSERTF(f.id[i] == loop[i], "seed %llu run %u"
					   " round %u: order differs at %u\n",
					   (unsigned long long)seed, run, r, i);
			SQ_ASSERTF(shift > 0 || f.n == nl, "seed %llu run %u: "
				   "Tg = 1: expire fired more\n",
				   (unsigned long long)seed, run);
			for (; i < f.n; i++) {	/* the ones pop_due left */
				x = sq_tring_first(&twin);
				SQ_ASSERT(x != NULL);
				if (x->key > now) {	/* behind: find it */
					x = &tnodes[f.id[i]];
					SQ_ASSERT(sq_tring_queued(x));
				} else {
					SQ_ASSERT_EQ((unsigned)(x - tnodes),
						     f.id[i]);
				}
				SQ_ASSERT(x->key <= now);
				(void)sq_tring_dequeue(&twin, x);
			}
			(void)sq_tring_advance(&twin, now);
			SQ_ASSERT_EQ(sq_tring_count(&ring), sq_tring_count(&twin));
			SQ_ASSERT_EQ(sq_tring_time(&ring), sq_tring_time(&twin));
			x = sq_tring_first(&ring);
			(void)sq_tring_visit(&ring, none_due, &now);
			SQ_ASSERT(sq_tring_check(&ring) == 0);
		}
	}
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

	/* a shift it cannot honour is refused in every build, and the queue
	 * is left as it was (not wrapped to shift & 63) */
	SQ_ASSERT(sq_tring_init_geom(&ring, 63, 12345));
	SQ_ASSERT(!sq_tring_init_geom(&ring, 64, 0));
	SQ_ASSERT(!sq_tring_init_geom(&ring, 70, 0));
	SQ_ASSERT(!sq_tring_init_geom(&ring, ~0u, 0));
	SQ_ASSERT_EQ(sq_tring_gran_shift(&ring), 63);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
}

/* Keys past the ring wait in the levels, each in the level its distance
 * picks, and cascade into the ring (or a lower level) as time reaches
 * them; equal keys stay in (re)queue order through every cascade. */
SQ_TEST(tring_levels)
{
	unsigned l, i;

	reset(0, 0);
	/* 0: in the ring; 1, 2: just past it (equal keys); 3: far;
	 * 4: the largest key; 5: the ring's last tick */
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[0], 10));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[1], 2 * HALF));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[2], 2 * HALF));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[3], 5 * NS + 3));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[4], UINT64_MAX));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[5], 2 * HALF - 1));
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[1]), SQ_TRING__LEVEL);
	SQ_ASSERT_EQ(level_now(&nodes[1]), 1);
	SQ_ASSERT_EQ(level_now(&nodes[4]), SQ_TRING__LEVELS);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[5]), SQ_TRING__SLOT);

	pop_id(0);			/* time 10: still the first half ring */
	SQ_ASSERT_EQ(sq_tring_time(&ring), 10);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[1]), SQ_TRING__LEVEL);
	pop_id(5);			/* time 2H - 1: 1 and 2 cascade */
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[1]), SQ_TRING__SLOT);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[2]), SQ_TRING__SLOT);
	/* an equal key queued now goes after the two that cascaded */
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[6], 2 * HALF));
	pop_id(1);
	/* requeue with its own key: to the tail, after 6 */
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[2], 2 * HALF));
	pop_id(6);
	pop_id(2);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 2 * HALF);
	/* only the levels are left: pop jumps time there and cascades */
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[3]);
	pop_id(3);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 5 * NS + 3);
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[4]);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[4]), SQ_TRING__LEVEL);
	/* a smaller key past the ring becomes first while only the levels
	 * hold nodes; one inside the ring then takes over */
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[7], UINT64_MAX - 1));
	SQ_ASSERT(!sq_tring_enqueue(&ring, &nodes[8], UINT64_MAX - 1));
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[9], 5 * NS + 4));
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(9);
	/* dequeue the levels' first: time stays, and its slot's first node
	 * is found again (8, the later of two equal keys) */
	SQ_ASSERT(sq_tring_dequeue(&ring, &nodes[7]));
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 5 * NS + 4);
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[8]);
	pop_id(8);
	SQ_ASSERT_EQ(sq_tring_time(&ring), UINT64_MAX - 1);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[4]), SQ_TRING__SLOT);	/* cascaded */
	pop_id(4);
	SQ_ASSERT_EQ(sq_tring_time(&ring), UINT64_MAX);
	SQ_ASSERT(sq_tring_empty(&ring));

	/* one node a level, a second one in the same slot with a smaller
	 * key (it becomes its slot's first); then time jumps to each */
	reset(0, 0);
	for (l = 0; l < SQ_TRING__LEVELS; l++) {
		uint64_t u = l ? (uint64_t)1 << (l * SQ_TRING__B) : 2;

		sq_tring_enqueue(&ring, &nodes[2 * l], (u << SQ_TRING__H) + 1);
		sq_tring_enqueue(&ring, &nodes[2 * l + 1], u << SQ_TRING__H);
		SQ_ASSERT_EQ(level_now(&nodes[2 * l]), l + 1);
		SQ_ASSERT_EQ(level_now(&nodes[2 * l + 1]), l + 1);
	}
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	for (l = 0; l < SQ_TRING__LEVELS; l++) {
		SQ_ASSERT(sq_tring_first(&ring) == &nodes[2 * l + 1]);
		for (i = 2 * l + 2; i < 2 * SQ_TRING__LEVELS; i++)
			SQ_ASSERT(level_now(&nodes[i]) >= 1);
		pop_id(2 * l + 1);
		pop_id(2 * l);
	}
	SQ_ASSERT(sq_tring_empty(&ring));
}

/* A node's level never rises and it moves at most once a level: time
 * moved by pop, advance and pop_due over keys at every distance. */
SQ_TEST(tring_cascade_bound)
{
	static unsigned lvl[MAXN], moves[MAXN];
	uint64_t rs = 0x5eed0005;
	unsigned round, i, n = 600;

	for (round = 0; round < 6; round++) {
		reset(round % 3 == 2 ? 7 : 0, round < 3 ? 0 : rng_next(&rs) >> 2);
		for (i = 0; i < n; i++) {
			uint64_t k = sat_add(sq_tring_time(&ring),
					     rng_next(&rs) >> rng_below(&rs, 64));

			sq_tring_enqueue(&ring, &nodes[i], k);
			lvl[i] = level_now(&nodes[i]);
			moves[i] = 0;
		}
		SQ_ASSERT(sq_tring_check(&ring) == 0);
		while (!sq_tring_empty(&ring)) {
			struct sq_tring_node *f = sq_tring_first(&ring);
			uint64_t d = f->key - sq_tring_time(&ring);

			switch (rng_below(&rs, 3)) {
			case 0:
				sq_tring_pop(&ring);
				break;
			case 1:	/* part of the way to the first */
				sq_tring_advance(&ring, sq_tring_time(&ring) +
						 (d ? rng_next(&rs) % d : 0));
				break;
			default:
				sq_tring_pop_due(&ring, f->key);
			}
			SQ_ASSERT(sq_tring_check(&ring) == 0);
			for (i = 0; i < n; i++) {
				unsigned now;

				if (!sq_tring_queued(&nodes[i]))
					continue;
				now = level_now(&nodes[i]);
				SQ_ASSERTF(now <= lvl[i], "wb_tring: node %u rose "
					   "from level %u to %u\n", i, lvl[i], now);
				moves[i] += now != lvl[i];
				lvl[i] = now;
			}
		}
		for (i = 0; i < n; i++)
			SQ_ASSERT(moves[i] <= SQ_TRING__LEVELS);
	}
}

/* the same at a coarse granularity: the ring holds ticks of Tg keys */
SQ_TEST(tring_levels_coarse)
{
	const unsigned sh = 10;
	const uint64_t tg = (uint64_t)1 << sh;

	reset(sh, 5 * tg + 7);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 5 * tg);
	sq_tring_enqueue(&ring, &nodes[0], 5 * tg + 900);	/* tick 5 */
	sq_tring_enqueue(&ring, &nodes[1], 5 * tg + 3);	/* tick 5, later */
	sq_tring_enqueue(&ring, &nodes[2], 2 * HALF * tg - 1);	/* last tick */
	sq_tring_enqueue(&ring, &nodes[3], 2 * HALF * tg);	/* past it */
	sq_tring_enqueue(&ring, &nodes[4], 2 * HALF * tg + tg - 1);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[2]), SQ_TRING__SLOT);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[3]), SQ_TRING__LEVEL);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(0);			/* FIFO inside a tick, not key order */
	pop_id(1);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 5 * tg);
	pop_id(2);
	SQ_ASSERT_EQ(sq_tring_time(&ring), (2 * HALF - 1) * tg);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[3]), SQ_TRING__SLOT);
	pop_id(3);
	pop_id(4);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 2 * HALF * tg);
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
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[1]), SQ_TRING__SLOT);
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[1], 1520));
	SQ_ASSERT(sq_tring_enqueue(&ring, &nodes[2], 1499));	/* late */
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[2]);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	pop_id(2);
	pop_id(1);
	pop_id(6);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 50 * NS);
}

/* enqueue/dequeue/requeue/first never move time; pop, advance and
 * pop_due move it forward, never past a key that is not late */
SQ_TEST(tring_time)
{
	reset(4, 0);
	sq_tring_enqueue(&ring, &nodes[0], 100);
	sq_tring_enqueue(&ring, &nodes[1], 200);
	SQ_ASSERT(sq_tring_dequeue(&ring, &nodes[0]));	/* cancel the first */
	SQ_ASSERT_EQ(sq_tring_time(&ring), 0);
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[1]);
	SQ_ASSERT(sq_tring_requeue(&ring, &nodes[1], 300));
	SQ_ASSERT_EQ(sq_tring_time(&ring), 0);
	pop_id(1);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 288);	/* 300 rounded down */
	/* 290 has the current tick: in the ring, not late */
	sq_tring_enqueue(&ring, &nodes[2], 290);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[2]), SQ_TRING__SLOT);
	sq_tring_enqueue(&ring, &nodes[3], 5);	/* late */
	pop_id(3);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 288);	/* never back */
	pop_id(2);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 288);

	/* advance: to the clock when nothing is queued, never back */
	SQ_ASSERT_EQ(sq_tring_advance(&ring, 1000), 992);
	SQ_ASSERT_EQ(sq_tring_advance(&ring, 10), 992);
	/* never past the smallest key that is not late: a due node keeps
	 * its place, and a key between it and the clock is not late */
	sq_tring_enqueue(&ring, &nodes[0], 1500);
	sq_tring_enqueue(&ring, &nodes[1], 1200);
	SQ_ASSERT_EQ(sq_tring_advance(&ring, 5000), 1200);
	sq_tring_enqueue(&ring, &nodes[2], 1300);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[2]), SQ_TRING__SLOT);
	sq_tring_enqueue(&ring, &nodes[3], 1100);	/* late */
	SQ_ASSERT(sq_tring_first(&ring) == &nodes[3]);
	/* with a late first, the limit is the smallest key after it */
	SQ_ASSERT_EQ(sq_tring_advance(&ring, 5000), 1200);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	/* pop_due: the late node, then in key order up to the clock */
	SQ_ASSERT(sq_tring_pop_due(&ring, 1350) == &nodes[3]);
	SQ_ASSERT(sq_tring_pop_due(&ring, 1350) == &nodes[1]);
	SQ_ASSERT(sq_tring_pop_due(&ring, 1350) == &nodes[2]);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 1296);
	SQ_ASSERT(sq_tring_pop_due(&ring, 1350) == NULL);
	SQ_ASSERT_EQ(sq_tring_time(&ring), 1344);	/* the clock, rounded */
	SQ_ASSERT(sq_tring_check(&ring) == 0);

	/* expiry by dequeue, then advance: later keys stay in the ring */
	reset(0, 0);
	sq_tring_enqueue(&ring, &nodes[0], 10);
	SQ_ASSERT(sq_tring_dequeue(&ring, &nodes[0]));
	SQ_ASSERT_EQ(sq_tring_advance(&ring, 100 * NS), 100 * NS);
	sq_tring_enqueue(&ring, &nodes[1], 100 * NS + 5);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[1]), SQ_TRING__SLOT);
	/* advance over levels: time jumps, the slots it reaches cascade */
	sq_tring_enqueue(&ring, &nodes[2], 1000 * NS);
	sq_tring_enqueue(&ring, &nodes[3], 1000 * NS + 1);
	sq_tring_enqueue(&ring, &nodes[4], UINT64_MAX);
	SQ_ASSERT(sq_tring_dequeue(&ring, &nodes[1]));
	SQ_ASSERT_EQ(sq_tring_advance(&ring, 900 * NS), 900 * NS);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	SQ_ASSERT_EQ(sq_tring_advance(&ring, UINT64_MAX), 1000 * NS);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[2]), SQ_TRING__SLOT);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[3]), SQ_TRING__SLOT);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	SQ_ASSERT(sq_tring_pop_due(&ring, UINT64_MAX) == &nodes[2]);
	SQ_ASSERT(sq_tring_pop_due(&ring, UINT64_MAX) == &nodes[3]);
	SQ_ASSERT(sq_tring_pop_due(&ring, UINT64_MAX) == &nodes[4]);
	SQ_ASSERT(sq_tring_pop_due(&ring, UINT64_MAX) == NULL);
	SQ_ASSERT_EQ(sq_tring_time(&ring), UINT64_MAX);
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
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[0]), SQ_TRING__SLOT);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[3]), SQ_TRING__LATE);
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[4]), SQ_TRING__LATE);
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
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[0]), SQ_TRING__SLOT);
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
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[2]), SQ_TRING__LEVEL);
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
			SQ_ASSERT(nodes[i].tr_next ==
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

			SQ_ASSERTF(sqm_gran_pop_ok(&model, time, sh, id_of(x)),
				   "hold n %u step %u\n", n, step);
			SQ_ASSERT(sq_tring_pop(&ring) == x);
			sqm_dequeue(&model, id_of(x));
			time = sqm_gran_time_after_pop(time, sh, x->key);
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
	sq_tring_enqueue(&ring, &nodes[2], 40);
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
	/* a key in the wrong slot, a late key at time, a level key
	 * inside the ring */
	k = nodes[2].key;
	nodes[2].key = 41;
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
	save = nodes[1].tr_prev;
	nodes[1].tr_prev = &nodes[2];
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[1].tr_prev = save;
	/* tags that lie: late as slot, slot as late, listed as unqueued,
	 * an overflow node's tree word as a list tag */
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[4]), SQ_TRING__LATE);
	nodes[4].tr_tag = SQ_TRING__SLOT;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[4].tr_tag = SQ_TRING__UNQUEUED;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[4].tr_tag = SQ_TRING__LATE;
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[2]), SQ_TRING__SLOT);
	nodes[2].tr_tag = SQ_TRING__LATE;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[2].tr_tag = SQ_TRING__SLOT;
	SQ_ASSERT_EQ(sq_tring__tag(&nodes[3]), SQ_TRING__LEVEL);
	tag = nodes[3].tr_tag;
	nodes[3].tr_tag = SQ_TRING__SLOT;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	nodes[3].tr_tag = tag;
	SQ_ASSERT(sq_tring_check(&ring) == 0);
}

/* check() must catch each level broken on purpose */
SQ_TEST(tring_check_catches_levels)
{
	struct sq_tring_node *save;
	unsigned l, d;
	uint64_t k, m, mtick, hi;

	/* two nodes in one slot of every level; the smaller key second (made
	 * the head: the slot stays in tick order) */
	reset(0, 0);
	for (l = 0; l < SQ_TRING__LEVELS; l++) {
		uint64_t u = l ? (uint64_t)1 << (l * SQ_TRING__B) : 2;

		sq_tring_enqueue(&ring, &nodes[2 * l], (u << SQ_TRING__H) + 1);
		sq_tring_enqueue(&ring, &nodes[2 * l + 1], u << SQ_TRING__H);
	}
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	for (l = 0; l < SQ_TRING__LEVELS; l++) {
		struct sq_tring__level *lv = &ring.tr_lv[l];
		uint64_t u = (nodes[2 * l].key >> SQ_TRING__H);

		d = sq_tring__digit(u, l);
		SQ_ASSERT(lv->lv_slot[d] == &nodes[2 * l + 1]);
		SQ_ASSERT(!((lv->lv_mixed >> d) & 1));
		/* out of tick order (the larger key made the head), not
		 * marked mixed, the cached minimum forgotten: only the order
		 * is wrong; marked mixed it is sound */
		save = lv->lv_min[d];
		mtick = lv->lv_mtick[d];
		lv->lv_min[d] = NULL;
		lv->lv_mtick[d] = 0;
		lv->lv_slot[d] = &nodes[2 * l];
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		lv->lv_mixed |= (uint64_t)1 << d;
		SQ_ASSERT(sq_tring_check(&ring) == 0);
		lv->lv_mixed &= ~((uint64_t)1 << d);
		lv->lv_slot[d] = &nodes[2 * l + 1];
		lv->lv_min[d] = save;
		lv->lv_mtick[d] = mtick;
		SQ_ASSERT(sq_tring_check(&ring) == 0);
		/* the minimum's cached tick, and the slot's largest tick
		 * below a node of a slot not marked mixed */
		lv->lv_mtick[d] = mtick + 1;
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		lv->lv_mtick[d] = mtick;
		hi = lv->lv_hi[d];
		lv->lv_hi[d] = nodes[2 * l].key - 1;	/* Tg = 1 */
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		lv->lv_hi[d] = hi;
		/* a bit for an empty slot, no bit for this one */
		m = ring.tr_lmap[l];
		ring.tr_lmap[l] ^= (uint64_t)1 << ((d + 1) & (SQ_TRING__LSLOTS - 1));
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		ring.tr_lmap[l] = m ^ ((uint64_t)1 << d);
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		ring.tr_lmap[l] = m;
		/* the levels word */
		ring.tr_levels ^= (uint64_t)1 << l;
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		ring.tr_levels ^= (uint64_t)1 << l;
		/* the cached minimum: the other node, or one for an empty slot */
		save = lv->lv_min[d];
		lv->lv_min[d] = &nodes[2 * l];
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		lv->lv_min[d] = NULL;		/* "not known" is sound */
		SQ_ASSERT(sq_tring_check(&ring) == -1);	/* with tick 0 */
		lv->lv_mtick[d] = 0;
		SQ_ASSERT(sq_tring_check(&ring) == 0);
		lv->lv_min[d] = save;
		lv->lv_mtick[d] = mtick;
		lv->lv_min[(d + 1) & (SQ_TRING__LSLOTS - 1)] = &nodes[2 * l];
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		lv->lv_min[(d + 1) & (SQ_TRING__LSLOTS - 1)] = NULL;
		/* a key that belongs to another slot, then another level */
		k = nodes[2 * l].key;
		nodes[2 * l].key = k + ((uint64_t)1 << (SQ_TRING__H + l * SQ_TRING__B));
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		nodes[2 * l].key = l ? 2 << SQ_TRING__H : 1 << (SQ_TRING__H + SQ_TRING__B);
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		nodes[2 * l].key = k;
		/* a level key inside the ring, a tag that lies, broken links */
		nodes[2 * l].key = 1;
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		nodes[2 * l].key = k;
		nodes[2 * l].tr_tag = SQ_TRING__SLOT;
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		nodes[2 * l].tr_tag = SQ_TRING__LEVEL;
		save = nodes[2 * l].tr_prev;
		nodes[2 * l].tr_prev = &nodes[2 * l];
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		nodes[2 * l].tr_prev = save;
		SQ_ASSERT(sq_tring_check(&ring) == 0);
	}
	/* the cached first: a level node that is not the first */
	save = ring.tr_first;
	ring.tr_first = &nodes[2];
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	ring.tr_first = save;
	ring.tr_ftick++;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	ring.tr_ftick--;
	/* a levels bit past the last level */
	if (SQ_TRING__LEVELS < 64) {
		ring.tr_levels |= (uint64_t)1 << SQ_TRING__LEVELS;
		SQ_ASSERT(sq_tring_check(&ring) == -1);
		ring.tr_levels &= ~((uint64_t)1 << SQ_TRING__LEVELS);
	}
	SQ_ASSERT(sq_tring_check(&ring) == 0);
}

/*
 * A crowded level slot whose first is dequeued again and again, time
 * still: its keys (many equal ticks) arrive out of order, so the first
 * loss of its first sorts it; enqueues below its head keep it sorted, ones
 * strictly inside mix it again.  Each first is the model's (ticks, FIFO
 * among equal ticks), check() after every step, at every level and at
 * Tg = 1 and 2^7.
 */
SQ_TEST(tring_level_sort)
{
	static const unsigned gran[] = { 0, 7 };
	uint64_t rs = 0x5eed5, vals[64], base, span, t;
	unsigned g, l, i, j, id, next, step, sorts = 0;
	const struct sq_tring__level *lv;

	for (g = 0; g < 2; g++) {
		for (l = 1; l < SQ_TRING__LEVELS &&
			    SQ_TRING__B * l + SQ_TRING__H + 1 + gran[g] < 64; l++) {
			/* level l + 1's slot 1, seen from anchor 1 */
			span = (uint64_t)1 << (SQ_TRING__B * l + SQ_TRING__H);
			base = span;
			lv = &ring.tr_lv[l];

			reset(gran[g], 0);
			for (j = 0; j < 64; j++)
				vals[j] = base + rng_next(&rs) % span;
			for (next = 0; next < 300; next++) {
				t = vals[rng_below(&rs, 64)];
				sq_tring_enqueue(&ring, &nodes[next],
						 (t << gran[g]) | (next &
						 ((1u << gran[g]) - 1)));
				sqm_enqueue(&model, next, t);
				SQ_ASSERT_EQ(level_now(&nodes[next]), l + 1);
			}
			SQ_ASSERT((lv->lv_mixed >> 1) & 1);
			for (step = 0; sqm_count(&model); step++) {
				bool mixed = (lv->lv_mixed >> 1) & 1;
				uint64_t k, lo = lv->lv_slot[1] ?
					lv->lv_slot[1]->key >> gran[g] : base;

				if (step % 4 == 3 && next < MAXN && step < 1200) {
					/* below the head, inside, past the tail */
					k = step % 3 == 0 && lo > base ? lo - 1
					    : step % 3 == 1 ? vals[rng_below(&rs, 64)]
					    : base + span - 1 - (step & 7);
					sq_tring_enqueue(&ring, &nodes[next],
							 k << gran[g]);
					sqm_enqueue(&model, next++, k);
				} else {
					SQ_ASSERT(sqm_first(&model, &id, NULL));
					SQ_ASSERTF(id_of(sq_tring_first(&ring)) == id,
						   "level %u, Tg 2^%u, step %u: "
						   "first %u, model %u\n", l + 1,
						   gran[g], step,
						   id_of(sq_tring_first(&ring)), id);
					sq_tring_dequeue(&ring, &nodes[id]);
					sqm_dequeue(&model, id);
					/* a mixed slot of more than 32 left
					 * sorted: the sort ran */
					if (mixed && sqm_count(&model) > 32 &&
					    !((lv->lv_mixed >> 1) & 1))
						sorts++;
				}
				SQ_ASSERT(sq_tring_check(&ring) == 0);
			}
			for (i = 0; i < next; i++)
				SQ_ASSERT(!sq_tring_queued(&nodes[i]));
		}
	}
	SQ_ASSERT(sorts >= 4);
}

/*
 * A far slot in runs (tring.h, sq_tring__run_add()), time still: its
 * first cancelled, keys armed inside its ticks (each a run, merged by
 * rank), any node cancelled (run heads among them) or re-armed, a few
 * equal ticks; each first is the model's (tick order, FIFO among equal
 * ticks) and check() walks the runs after every step.  Then check() must
 * catch a run link broken each way.
 */
SQ_TEST(tring_level_runs)
{
	const unsigned l = 2;		/* level 3's slot 1, anchor 1 */
	const uint64_t span = (uint64_t)1 << (SQ_TRING__B * l + SQ_TRING__H);
	const struct sq_tring__level *lv = &ring.tr_lv[l];
	uint64_t rs = 0x52a11, t, r;
	unsigned i, id, next, step, most = 0;
	struct sq_tring_node *h, *link;

	reset(0, 0);
	for (next = 0; next < 200; next++) {
		t = span + rng_next(&rs) % (span / 8) * 8;
		sq_tring_enqueue(&ring, &nodes[next], t);
		sqm_enqueue(&model, next, t);
	}
	for (step = 0; step < 6000; step++) {
		unsigned op = rng_below(&rs, 8), runs = 0;

		if (sqm_count(&model) < 40 || (op < 3 && next < MAXN)) {
			/* inside its ticks; an equal tick now and then */
			t = step % 5 ? span + rng_next(&rs) % span :
			    sqm_key(&model, pick_queued(&rs));
			id = next < MAXN ? next++ : 0;
			if (sqm_queued(&model, id))
				continue;
			sq_tring_enqueue(&ring, &nodes[id], t);
			sqm_enqueue(&model, id, t);
		} else if (op < 6) {
			SQ_ASSERT(sqm_first(&model, &id, NULL));
			SQ_ASSERTF(id_of(sq_tring_first(&ring)) == id,
				   "step %u: first %u, model %u\n", step,
				   id_of(sq_tring_first(&ring)), id);
			sq_tring_dequeue(&ring, &nodes[id]);
			sqm_dequeue(&model, id);
		} else if (op == 6) {
			id = pick_queued(&rs);
			sq_tring_dequeue(&ring, &nodes[id]);
			sqm_dequeue(&model, id);
		} else {
			id = pick_queued(&rs);
			t = span + rng_next(&rs) % span;
			sq_tring_requeue(&ring, &nodes[id], t);
			sqm_requeue(&model, id, t);
		}
		SQ_ASSERT(sq_tring_check(&ring) == 0);
		for (r = lv->lv_runs[1]; r; r &= r - 1)
			runs++;
		most = runs > most ? runs : most;
	}
	SQ_ASSERT(lv->lv_runs[1] != 0);	/* the slot went in runs */
	SQ_ASSERT(most >= 4 && most <= 16);	/* and they stayed few */
	/* a run head linked elsewhere, or not a head, or a rank lost */
	for (h = lv->lv_slot[1]; !sq_tring__run_link(h->tr_next); h = h->tr_next)
		;
	h = h->tr_next == lv->lv_slot[1] ? lv->lv_slot[1] : h->tr_next;
	link = sq_tring__run_link(h);
	sq_tring__set_run_link(h, h->tr_next);
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	h->tr_tag = SQ_TRING__LEVEL;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	sq_tring__set_run_link(h, link);
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	ring.tr_lv[l].lv_runs[1] ^= (uint64_t)1 << 63;
	SQ_ASSERT(sq_tring_check(&ring) == -1);
	ring.tr_lv[l].lv_runs[1] ^= (uint64_t)1 << 63;
	SQ_ASSERT(sq_tring_check(&ring) == 0);
	while (sqm_pop(&model, &id, NULL)) {	/* and the rest in order */
		SQ_ASSERT_EQ(id_of(sq_tring_pop(&ring)), id);
		SQ_ASSERT(sq_tring_check(&ring) == 0);
	}
	for (i = 0; i < MAXN; i++)
		SQ_ASSERT(!sq_tring_queued(&nodes[i]));
}

SQ_TEST(tring_sizes)
{
	printf("wb_tring: %u slots, %u levels of %u slots, "
	       "sizeof(struct sq_tring_node) %zu, sizeof(struct sq_tring) %zu\n",
	       (unsigned)SQ_TRING_SLOTS, (unsigned)SQ_TRING__LEVELS,
	       (unsigned)SQ_TRING__LSLOTS, sizeof(struct sq_tring_node),
	       sizeof(struct sq_tring));
	/* the key, the tag and two links: 32 bytes on LP64 */
	if (sizeof(void *) == 8)
		SQ_ASSERT_EQ(sizeof(struct sq_tring_node), 32);
	/* a level is 2^B heads, 2^B cached minima and their ticks, 2^B
	 * largest ticks, 2^B run ranks, the mixed-order word and the
	 * sorted-once word */
	SQ_ASSERT_EQ(sizeof(struct sq_tring__level),
		     2 * SQ_TRING__LSLOTS * sizeof(void *) +
		     (3 * SQ_TRING__LSLOTS + 2) * sizeof(uint64_t));
}

/*
 * Cost, counted: steps (SQ__STEP) plus one a call, per operation, for an
 * input at n and 8n nodes; the bound is O(1) (amortised over the
 * cascades), so the 8n cost may be at most 1.5 times the n cost.  The
 * inputs of issue 22 that reach the ring, and the shapes around them.
 * check() runs after each input, outside the count.
 */
#define COST_N (MAXN / 8u)

static unsigned long long cost_calls;
static uint64_t cost_rs;

static void c_enq(unsigned i, uint64_t key)
{
	cost_calls++;
	(void)sq_tring_enqueue(&ring, &nodes[i], key);
}

static void c_deq(unsigned i)
{
	cost_calls++;
	(void)sq_tring_dequeue(&ring, &nodes[i]);
}

static void c_req(unsigned i, uint64_t key)
{
	cost_calls++;
	(void)sq_tring_requeue(&ring, &nodes[i], key);
}

static unsigned c_pop(void)
{
	struct sq_tring_node *x;

	cost_calls++;
	x = sq_tring_pop(&ring);
	SQ_ASSERT(x != NULL);
	return id_of(x);
}

static void c_adv(uint64_t now)
{
	cost_calls++;
	(void)sq_tring_advance(&ring, now);
}

/* start counting (what came before was setup) */
static void cost_start(void)
{
	wb_steps = 0;
	cost_calls = 0;
}

/* the count per call; check() afterwards, not counted */
static double cost_end(void)
{
	double c = (double)(wb_steps + cost_calls) / (double)cost_calls;

	SQ_ASSERT_EQ(sq_tring_check(&ring), 0);
	return c;
}

/* the largest distance (in keys, Tg = 1) the inputs step by: far into the
 * levels, but never near an overflow of 64 bits in 8 * 8n steps */
#define COST_FAR ((uint64_t)1 << 40)

/* (a) keepalives: n connections with one idle timeout, far out (one level
 * slot), re-armed round-robin as traffic arrives and the clock advances:
 * each re-arm moves the earliest timer */
static double cost_keepalive(unsigned n)
{
	uint64_t now = 0;
	unsigned i, r;

	reset(0, 0);
	for (i = 0; i < n; i++)
		(void)sq_tring_enqueue(&ring, &nodes[i], ++now + COST_FAR);
	cost_start();
	for (r = 0; r < 4 * n; r++) {
		c_adv(++now);
		c_req(r % n, now + COST_FAR);
	}
	return cost_end();
}

/* (b) an event loop's shutdown: n timers of one timeout armed as the
 * clock advanced, cancelled in the order they were armed */
static double cost_cancel_in_order(unsigned n)
{
	uint64_t now = 0;
	unsigned i;

	reset(0, 0);
	for (i = 0; i < n; i++) {
		now += 7;
		(void)sq_tring_enqueue(&ring, &nodes[i], now + COST_FAR);
	}
	cost_start();
	for (i = 0; i < n; i++)
		c_deq(i);
	return cost_end();
}

/* keys just below the ring's time (late), popped and re-armed late */
static double cost_just_late(unsigned n)
{
	unsigned i, r;
	uint64_t tm;

	reset(0, (uint64_t)1 << 30);
	tm = sq_tring_time(&ring);
	for (i = 0; i < n; i++)
		(void)sq_tring_enqueue(&ring, &nodes[i], tm - 1 - (i & 7));
	cost_start();
	for (r = 0; r < 4 * n; r++) {
		i = c_pop();
		c_enq(i, sq_tring_time(&ring) - 1 - (r & 7));
	}
	return cost_end();
}

/* the level whose slots are 2^l half rings, capped below COST_FAR */
static uint64_t cost_span(unsigned l)
{
	unsigned top = (40u - SQ_TRING__H) / SQ_TRING__B;

	return HALF << (SQ_TRING__B * (l % (top + 1)));
}

/* keys exactly on slot and level boundaries: a hold loop whose next key
 * is the first multiple of a level's slot span after the time, plus 0..2
 * spans: the ring's own slots and every level's */
static double cost_boundaries(unsigned n)
{
	unsigned i, r;

	reset(0, 0);
	for (i = 0; i < n; i++)
		(void)sq_tring_enqueue(&ring, &nodes[i],
				       cost_span(i) * (1 + i % 3));
	cost_start();
	for (r = 0; r < 4 * n; r++) {
		uint64_t d = cost_span(r * 7 + 1);

		i = c_pop();
		c_enq(i, (sq_tring_time(&ring) / d + 1 + r % 3) * d);
	}
	return cost_end();
}

/* a crowd of one key in the ring and at every level, enqueued then popped
 * (each crowd cascades down the levels as the time reaches it) */
static double cost_crowds(unsigned n)
{
	unsigned i, c = (40u - SQ_TRING__H) / SQ_TRING__B + 2;

	reset(0, 0);
	cost_start();
	for (i = 0; i < n; i++)
		c_enq(i, (i % c) ? cost_span(i % c - 1) * 3 : 5);
	for (i = 0; i < n; i++)
		(void)c_pop();
	return cost_end();
}

/* the first node of each tier dequeued again and again: late, ring, and
 * a level slot armed in order, each re-armed in its tier */
static double cost_first_of_tier(unsigned n)
{
	uint64_t tm, key;
	unsigned i, r, tier;

	reset(0, (uint64_t)1 << 30);
	tm = sq_tring_time(&ring);
	for (i = 0; i < n; i++) {
		tier = i % 3;
		key = tier == 0 ? tm - 1 - i : tier == 1 ? tm + i % NS
			: tm + COST_FAR + i;
		(void)sq_tring_enqueue(&ring, &nodes[i], key);
	}
	cost_start();
	for (r = 0; r < 4 * n; r++) {
		struct sq_tring_node *f = sq_tring_first(&ring);
		uintptr_t w = sq_tring__tag(f);

		i = id_of(f);
		key = f->key;
		c_deq(i);
		if (w == SQ_TRING__LATE)	/* late again, at the back */
			c_enq(i, tm - 1);
		else if (w == SQ_TRING__SLOT)	/* the ring's last tick */
			c_enq(i, tm + HALF + (r & (HALF - 1)));
		else				/* the level's last key */
			c_enq(i, key + 4 * n);
	}
	return cost_end();
}

/* requeue to the same key, nodes at every distance */
static double cost_requeue_same(unsigned n)
{
	unsigned i, r;

	reset(0, 0);
	cost_rs = 42;
	for (i = 0; i < n; i++)
		(void)sq_tring_enqueue(&ring, &nodes[i],
				       rng_next(&cost_rs) >> (24 + i % 40));
	cost_start();
	for (r = 0; r < 4 * n; r++) {
		i = (unsigned)(rng_next(&cost_rs) % n);
		c_req(i, nodes[i].key);
	}
	return cost_end();
}

/* monotone: keys in increasing order, a stride that crosses slots and
 * half rings, then popped */
static double cost_monotone(unsigned n)
{
	unsigned i;

	reset(0, 0);
	cost_start();
	for (i = 0; i < n; i++)
		c_enq(i, (uint64_t)i * (3 * HALF / 2 + 1));
	for (i = 0; i < n; i++)
		(void)c_pop();
	return cost_end();
}

/* sawtooth: a hold loop whose distance climbs through the levels and
 * drops back to the ring, over and over */
static double cost_sawtooth(unsigned n)
{
	unsigned i, r;

	reset(0, 0);
	for (i = 0; i < n; i++)
		(void)sq_tring_enqueue(&ring, &nodes[i], (uint64_t)i << (i % 24));
	cost_start();
	for (r = 0; r < 4 * n; r++) {
		i = c_pop();
		c_enq(i, sq_tring_time(&ring) + ((uint64_t)1 << (r % 32)));
	}
	return cost_end();
}

/* a timer service's expiry: n periodic timers of periods 1 .. 4 half
 * rings at Tg = 8, the clock ticking by a few ticks and expire() firing
 * what is due, each fired timer re-armed a period on (a fire counts as a
 * call, as a pop would) */
static void c_rearm(struct sq_tring_node *x, void *arg)
{
	(void)arg;
	cost_calls++;
	(void)sq_tring_requeue(&ring, x, x->key + 8 * HALF * (1 + id_of(x) % 4) +
			       id_of(x) % 7);
}

static double cost_expire(unsigned n)
{
	uint64_t now = 0;
	unsigned i;

	reset(3, 0);
	for (i = 0; i < n; i++)
		(void)sq_tring_enqueue(&ring, &nodes[i],
				       1 + (uint64_t)i * 37 % (32 * HALF));
	cost_start();
	while (cost_calls < 4 * (unsigned long long)n) {
		now += 1 + (now & 15);
		cost_calls++;
		(void)sq_tring_expire(&ring, now, c_rearm, NULL);
	}
	return cost_end();
}

static const struct {
	const char *name;
	double (*run)(unsigned n);
} cost_inputs[] = {
	{ "keepalive re-arm", cost_keepalive },
	{ "cancel in arm order", cost_cancel_in_order },
	{ "keys just below the time", cost_just_late },
	{ "slot and level boundaries", cost_boundaries },
	{ "a crowd at every level", cost_crowds },
	{ "first of each tier dequeued", cost_first_of_tier },
	{ "requeue to the same key", cost_requeue_same },
	{ "monotone", cost_monotone },
	{ "sawtooth", cost_sawtooth },
	{ "expire a tick at a time", cost_expire },
};

SQ_TEST(tring_cost_flat)
{
	unsigned k, bad = 0;

	for (k = 0; k < sizeof(cost_inputs) / sizeof(cost_inputs[0]); k++) {
		double c1 = cost_inputs[k].run(COST_N);
		double c8 = cost_inputs[k].run(8 * COST_N);

		printf("  cost %-28s %7.2f -> %7.2f per op (n %u -> %u)%s\n",
		       cost_inputs[k].name, c1, c8, COST_N, 8 * COST_N,
		       c8 <= 1.5 * c1 ? "" : "  > 1.5x");
		bad += !(c8 <= 1.5 * c1);
	}
	SQ_ASSERTF(bad == 0, "%u inputs grow more than 1.5x\n", bad);
}

#ifdef SQ_DEBUG
/*
 * SQ_DEBUG: a dequeue or requeue through a queue the node is not on is
 * caught where O(1) sees it: the place its tag and key name on that queue
 * is empty, or could not hold it, or does not have it as its lone node.
 * Each case runs in a forked child whose stderr is captured.
 */
static struct sq_tring oq1, oq2;
static struct sq_tring_node on[4];

static void other_setup(void)
{
	unsigned i;

	sq_tring_init(&oq1);
	sq_tring_init(&oq2);
	for (i = 0; i < 4; i++)
		sq_tring_node_init(&on[i]);
	sq_tring_enqueue(&oq1, &on[0], 3);		/* ring */
	sq_tring_enqueue(&oq1, &on[1], COST_FAR);	/* a level */
	sq_tring_enqueue(&oq2, &on[2], 5);
	sq_tring_enqueue(&oq2, &on[3], 3);	/* oq1's slot's tick too */
}

static void dequeue_ring_other(void)
{
	other_setup();
	sq_tring_dequeue(&oq2, &on[0]);	/* oq2's slot 3 has on[3] */
}

static void dequeue_level_other(void)
{
	other_setup();
	sq_tring_dequeue(&oq2, &on[1]);	/* oq2 has no level node */
}

static void requeue_other(void)
{
	other_setup();
	sq_tring_requeue(&oq1, &on[2], 1);	/* oq1's slot 5 is empty */
}

static void dequeue_empty_other(void)
{
	other_setup();
	sq_tring_init(&oq2);
	sq_tring_dequeue(&oq2, &on[0]);
}

/* a node 2 bytes into aligned storage: its tag could not hold a run link
 * (only its address is read before the check stops the program) */
static uint64_t odd_store[8];

static void enqueue_misaligned(void)
{
	sq_tring_init(&oq1);
	sq_tring_enqueue(&oq1, (struct sq_tring_node *)(void *)
			 ((char *)odd_store + 2), 7);
}

static void requeue_misaligned(void)
{
	sq_tring_init(&oq1);
	sq_tring_requeue(&oq1, (struct sq_tring_node *)(void *)
			 ((char *)odd_store + 2), 7);
}

/* fn re-arms its node due: it would fire again, for ever */
static void rearm_now(struct sq_tring_node *x, void *arg)
{
	(void)sq_tring_requeue(&oq1, x, *(const uint64_t *)arg);
}

static void expire_rearm_due(void)
{
	uint64_t now = 10;

	sq_tring_init(&oq1);
	sq_tring_node_init(&on[0]);
	sq_tring_enqueue(&oq1, &on[0], 5);
	(void)sq_tring_expire(&oq1, now, rearm_now, &now);
}

SQ_TEST(tring_expire_rearm_due_caught)
{
	child_expect_abort(expire_rearm_due,
			   "sq_tring_expire: fn re-armed its node at or before"
			   " now\n", "expire whose fn re-arms its node due");
}

SQ_TEST(tring_other_queue_caught)
{
	child_expect_abort(enqueue_misaligned,
			   "sq_tring_enqueue: node is not 4-byte aligned\n",
			   "enqueue of a node not 4-byte aligned");
	child_expect_abort(requeue_misaligned,
			   "sq_tring_requeue: node is not 4-byte aligned\n",
			   "requeue of a node not 4-byte aligned");
	child_expect_abort(dequeue_ring_other,
			   "sq_tring_dequeue: node is on another queue\n",
			   "dequeue of a ring node whose slot is not its own");
	child_expect_abort(dequeue_level_other,
			   "sq_tring_dequeue: node is on another queue\n",
			   "dequeue of the other queue's level node");
	child_expect_abort(requeue_other,
			   "sq_tring_requeue: node is on another queue\n",
			   "requeue of the other queue's node");
	child_expect_abort(dequeue_empty_other,
			   "sq_tring_dequeue: node is on another queue\n",
			   "dequeue through an empty queue");
}

/* SQ_DEBUG: refirst's preconditions (the late list empty, its slot not
 * past the first occupied one) are checked; no public verb can break
 * them, a white-box call does */
static void refirst_with_late(void)
{
	sq_tring_init_at(&oq1, 100);
	sq_tring_node_init(&on[0]);
	sq_tring_enqueue(&oq1, &on[0], 5);		/* late */
	sq_tring__refirst(&oq1, sq_tring__slot_of(oq1.tr_cur));
}

static void refirst_past_first(void)
{
	sq_tring_init(&oq1);
	sq_tring_node_init(&on[0]);
	sq_tring_node_init(&on[1]);
	sq_tring_enqueue(&oq1, &on[0], 3);
	sq_tring_enqueue(&oq1, &on[1], 10);
	sq_tring__refirst(&oq1, 5);	/* would make 10 the first */
}

SQ_TEST(tring_internal_preconditions_caught)
{
	child_expect_abort(refirst_with_late,
			   "sq_tring__refirst: the late list is not empty\n",
			   "refirst with a late node");
	child_expect_abort(refirst_past_first,
			   "sq_tring__refirst: a non-empty slot between time "
			   "and @s\n", "refirst from past the first slot");
}
#endif

static const sq_test_entry tests[] = {
	SQ_T(tring_init_geom),
	SQ_T(tring_levels),
	SQ_T(tring_levels_coarse),
	SQ_T(tring_cascade_bound),
	SQ_T(tring_late_fifo),
	SQ_T(tring_expire),
	SQ_T(tring_expire_vs_pop_due),
	SQ_T(tring_time),
	SQ_T(tring_edge_keys),
	SQ_T(tring_requeue),
	SQ_T(tring_queued_states),
	SQ_T(tring_check_catches),
	SQ_T(tring_check_catches_levels),
	SQ_T(tring_hold),
	SQ_T(tring_exact_small),
	SQ_T(tring_mix_small),
	SQ_T(tring_mix_large),
	SQ_T(tring_level_sort),
	SQ_T(tring_level_runs),
	SQ_T(tring_sizes),
	SQ_T(tring_cost_flat),
#ifdef SQ_DEBUG
	SQ_T(tring_other_queue_caught),
	SQ_T(tring_expire_rearm_due_caught),
	SQ_T(tring_internal_preconditions_caught),
#endif
};

SQ_TEST_MAIN("wb_tring", tests)
