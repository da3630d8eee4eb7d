/* SPDX-License-Identifier: MIT */
/*
 * elig.h - the eligible pick against an O(n) scan, for a white-box suite
 *
 * One random stream for every kind with an eligible pick (erb, egavl),
 * written once: the includer names the kind,
 *
 *	#define ELIG_K erb
 *	#include "elig.h"
 *
 * and calls elig_run(&run).  The model is tests/model.h's queue (order by
 * key, then by the time of the last enqueue or requeue) plus one elig per
 * id; its pick is a scan of the queue order for the first id whose elig
 * is within the limit.  Every step (enqueue, pop, pop_due, dequeue,
 * requeue, set_elig of a queued or an idle node) is compared with the
 * model, then pick_eligible at several limits (0, UINT64_MAX, a queued
 * node's elig and its neighbours, a random one) and, every .every steps,
 * check() and the whole order.  A failure prints the seed and the step.
 */
#ifndef SQ_TESTS_ELIG_H
#define SQ_TESTS_ELIG_H

#include <stdbool.h>
#include <stdint.h>

#include "smartq.h"
#include "model.h"
#include "rng.h"
#include "sq_test.h"

#ifndef ELIG_K
#error "define ELIG_K (erb or egavl) before elig.h"
#endif

#define ELIG_NMAX 64

static SQ_NODE(ELIG_K) elig_node[ELIG_NMAX];	/* node i is the model's id i */
static uint64_t elig_val[ELIG_NMAX];		/* the model's elig of id i */
static struct sqm elig_model;

static void elig_init(SQ_QUEUE(ELIG_K) *q)
{
	unsigned i;

	SQ_INIT(ELIG_K, q);
	sqm_init(&elig_model);
	for (i = 0; i < ELIG_NMAX; i++) {
		SQ_NODE_INIT(ELIG_K, &elig_node[i]);
		elig_val[i] = 0;
	}
}

/* The model's pick: the first queued id in order with elig <= @limit. */
static SQ_NODE(ELIG_K) *elig_scan(uint64_t limit)
{
	unsigned order[ELIG_NMAX];
	size_t n = sqm_order(&elig_model, order), i;

	for (i = 0; i < n; i++)
		if (elig_val[order[i]] <= limit)
			return &elig_node[order[i]];
	return NULL;
}

static bool elig_pick_matches(const SQ_QUEUE(ELIG_K) *q, uint64_t limit)
{
	return SQ_PICK_ELIGIBLE(ELIG_K, q, limit) == elig_scan(limit);
}

/* The pick at the limits where answers change, count and first, every
 * node's state, key and elig. */
static bool elig_matches(const SQ_QUEUE(ELIG_K) *q, uint64_t *s)
{
	unsigned first = 0, i;
	bool have = sqm_first(&elig_model, &first, NULL);

	if (SQ_COUNT(ELIG_K, q) != sqm_count(&elig_model) ||
	    SQ_FIRST(ELIG_K, q) != (have ? &elig_node[first] : NULL))
		return false;
	for (i = 0; i < ELIG_NMAX; i++) {
		bool queued = sqm_queued(&elig_model, i);

		if (SQ_QUEUED(ELIG_K, &elig_node[i]) != queued ||
		    elig_node[i].elig != elig_val[i] ||
		    (queued && SQ_KEY(ELIG_K, &elig_node[i]) !=
		     sqm_key(&elig_model, i)))
			return false;
	}
	if (!elig_pick_matches(q, 0) || !elig_pick_matches(q, UINT64_MAX) ||
	    !elig_pick_matches(q, rng_next(s)))
		return false;
	i = (unsigned)sqm_find(&elig_model, ELIG_NMAX,
			       rng_below(s, ELIG_NMAX), true);
	if (have) {
		uint64_t v = elig_val[i];

		if (!elig_pick_matches(q, v) ||
		    (v > 0 && !elig_pick_matches(q, v - 1)) ||
		    (v < UINT64_MAX && !elig_pick_matches(q, v + 1)))
			return false;
	}
	return true;
}

/* The whole order: first to last by next(), against the model's. */
static bool elig_order_matches(const SQ_QUEUE(ELIG_K) *q)
{
	unsigned order[ELIG_NMAX];
	size_t n = sqm_order(&elig_model, order), i;
	const SQ_NODE(ELIG_K) *x = SQ_FIRST(ELIG_K, q);

	for (i = 0; i < n; i++, x = SQ__FN(ELIG_K, _next)(x))
		if (x != &elig_node[order[i]])
			return false;
	return x == NULL;
}

static bool elig_pop(SQ_QUEUE(ELIG_K) *q, bool due, uint64_t now)
{
	SQ_NODE(ELIG_K) *got;
	uint64_t key = 0;
	unsigned id = 0;

	if (due && (!sqm_first(&elig_model, NULL, &key) || key > now))
		return SQ_POP_DUE(ELIG_K, q, now) == NULL;
	sqm_pop(&elig_model, &id, NULL);
	got = due ? SQ_POP_DUE(ELIG_K, q, now) : SQ_POP(ELIG_K, q);
	return got == &elig_node[id] && !SQ_QUEUED(ELIG_K, got);
}

/* one random operation on both; false when a result differs */
static bool elig_step(SQ_QUEUE(ELIG_K) *q, uint64_t *s, unsigned keys,
		      unsigned eligs, unsigned n, const char **what)
{
	uint64_t key = rng_key(s, keys), e = rng_key(s, eligs);
	unsigned op = rng_below(s, 16), id = 0;
	int i;

	if (op < 5 || sqm_count(&elig_model) == 0) {
		*what = "enqueue";
		i = sqm_find(&elig_model, n, rng_below(s, n), false);
		if (i < 0)
			return true;
		SQ_SET_ELIG(ELIG_K, q, &elig_node[i], e);
		elig_val[i] = e;
		return SQ_ENQUEUE(ELIG_K, q, &elig_node[i], key) ==
		       sqm_enqueue(&elig_model, (unsigned)i, key);
	}
	if (op < 7) {
		*what = op < 6 ? "pop" : "pop_due";
		return elig_pop(q, op == 6, key);
	}
	if (op == 7) {
		*what = "requeue (arm)";
		i = sqm_find(&elig_model, n, rng_below(s, n), false);
		if (i < 0)
			return true;
		return SQ_REQUEUE(ELIG_K, q, &elig_node[i], key) ==
		       sqm_requeue(&elig_model, (unsigned)i, key);
	}
	i = sqm_find(&elig_model, n, rng_below(s, n), true);
	if (op < 10) {
		bool was_first;

		*what = "dequeue";
		if (op == 9) {		/* the first node */
			sqm_first(&elig_model, &id, NULL);
			i = (int)id;
		}
		sqm_first(&elig_model, &id, NULL);
		was_first = id == (unsigned)i;
		sqm_dequeue(&elig_model, (unsigned)i);
		return SQ_DEQUEUE(ELIG_K, q, &elig_node[i]) == was_first &&
		       !SQ_QUEUED(ELIG_K, &elig_node[i]);
	}
	if (op < 13) {
		*what = "requeue";
		if (rng_below(s, 4) == 0)
			key = sqm_key(&elig_model, (unsigned)i);
		return SQ_REQUEUE(ELIG_K, q, &elig_node[i], key) ==
		       sqm_requeue(&elig_model, (unsigned)i, key);
	}
	*what = "set_elig";
	if (op == 13)		/* an idle node, or a queued one */
		i = sqm_find(&elig_model, n, rng_below(s, n), false);
	if (i < 0)
		return true;
	if (op == 14 && rng_below(s, 2))	/* the same value again */
		e = elig_val[i];
	SQ_SET_ELIG(ELIG_K, q, &elig_node[i], e);
	elig_val[i] = e;
	return true;
}

struct elig_run {
	const char *name;	/* printed with the seed on failure */
	uint64_t seed;		/* stream i runs from seed + i */
	unsigned streams, steps;
	unsigned nodes;		/* ids in use, 1 .. ELIG_NMAX */
	unsigned every;		/* check() and the order every this many steps */
};

static void elig__after(SQ_QUEUE(ELIG_K) *q, const struct elig_run *r,
			uint64_t seed, unsigned long step, const char *what,
			bool ok, uint64_t *s)
{
	SQ_ASSERTF(ok, "%s: seed %llu step %lu: %s gave a wrong result\n",
		   r->name, (unsigned long long)seed, step, what);
	SQ_ASSERTF(elig_matches(q, s),
		   "%s: seed %llu step %lu: a node or a pick differs after %s\n",
		   r->name, (unsigned long long)seed, step, what);
	if (step % r->every != 0)
		return;
	SQ_ASSERTF(SQ_CHECK(ELIG_K, q) == 0 && elig_order_matches(q),
		   "%s: seed %llu step %lu: structure wrong after %s\n",
		   r->name, (unsigned long long)seed, step, what);
}

/* elig_run - @r's streams on fresh queues, key and elig classes varied
 * by stream, then pop until empty; everything compared with the model. */
static void elig_run(const struct elig_run *r)
{
	static SQ_QUEUE(ELIG_K) q;
	unsigned i;

	SQ_ASSERT(r->nodes >= 1 && r->nodes <= ELIG_NMAX && r->every >= 1);
	for (i = 0; i < r->streams; i++) {
		uint64_t seed = r->seed + i, s = seed;
		unsigned keys = i % RNG_KEYS_CLASSES;
		unsigned eligs = (i / RNG_KEYS_CLASSES) % RNG_KEYS_CLASSES;
		unsigned long step;
		const char *what = "";

		elig_init(&q);
		for (step = 0; step < r->steps; step++) {
			bool ok = elig_step(&q, &s, keys, eligs, r->nodes, &what);

			elig__after(&q, r, seed, step, what, ok, &s);
		}
		while (sqm_count(&elig_model) > 0) {
			bool ok = elig_pop(&q, false, 0);

			elig__after(&q, r, seed, step++, "pop (draining)", ok,
				    &s);
		}
		SQ_ASSERT(SQ_POP(ELIG_K, &q) == NULL &&
			  SQ_PICK_ELIGIBLE(ELIG_K, &q, UINT64_MAX) == NULL);
	}
}

#endif /* SQ_TESTS_ELIG_H */
