/* SPDX-License-Identifier: MIT */
/*
 * mix.h - one random operation stream against the model, for a
 * backend's white-box suite
 *
 * The white-box suites check a structure's own invariants after every
 * step of a random stream; the stream and its comparison with the model
 * (tests/model.h) are written once, here, for the one backend MIX_K the
 * includer names:
 *
 *	#define MIX_K rb		(a token of SQ_KINDS)
 *	#define MIX_NMAX 48		(ids, and nodes: mix_node[0 .. NMAX))
 *	#include "mix.h"
 *
 *	mix_init(&q);
 *	ok = mix_step(&q, &rng_state, RNG_KEYS_TIES, &what);
 *	ok = mix_matches(&q);		count, first, queued() against the model
 *
 * mix_step runs one operation (enqueue, pop, pop_due, dequeue, the first
 * node's dequeue, requeue of a queued or an idle node) on both and
 * returns false when a result differs; what names the operation.
 * The ordering a suite can see (walks, rings' rules) stays its own.
 */
#ifndef SQ_TESTS_MIX_H
#define SQ_TESTS_MIX_H

#include <stdbool.h>
#include <stdint.h>

#include "smartq.h"
#include "model.h"
#include "rng.h"

#if !defined(MIX_K) || !defined(MIX_NMAX)
#error "define MIX_K (a backend token) and MIX_NMAX before mix.h"
#endif

static SQ_NODE(MIX_K) mix_node[MIX_NMAX];	/* node i is the model's id i */
static struct sqm mix_model;

static void mix_init(SQ_QUEUE(MIX_K) *q)
{
	unsigned i;

	SQ_INIT(MIX_K, q);
	sqm_init(&mix_model);
	for (i = 0; i < MIX_NMAX; i++)
		SQ_NODE_INIT(MIX_K, &mix_node[i]);
}

/* count, empty, first and every node's queued() agree with the model */
static bool mix_matches(const SQ_QUEUE(MIX_K) *q)
{
	unsigned id = 0, i;
	bool have = sqm_first(&mix_model, &id, NULL);

	if (SQ_COUNT(MIX_K, q) != sqm_count(&mix_model) ||
	    SQ_EMPTY(MIX_K, q) != !have ||
	    SQ_FIRST(MIX_K, q) != (have ? &mix_node[id] : NULL))
		return false;
	for (i = 0; i < MIX_NMAX; i++)
		if (SQ_QUEUED(MIX_K, &mix_node[i]) != sqm_queued(&mix_model, i))
			return false;
	return true;
}

/* pop, or pop_due(@now) when @due; false if the answer differs */
static bool mix_pop(SQ_QUEUE(MIX_K) *q, bool due, uint64_t now)
{
	SQ_NODE(MIX_K) *got;
	uint64_t key = 0;
	unsigned id = 0;

	if (due && (!sqm_first(&mix_model, NULL, &key) || key > now))
		return SQ_POP_DUE(MIX_K, q, now) == NULL;
	sqm_pop(&mix_model, &id, NULL);
	got = due ? SQ_POP_DUE(MIX_K, q, now) : SQ_POP(MIX_K, q);
	return got == &mix_node[id] && !SQ_QUEUED(MIX_K, got);
}

static bool mix_step(SQ_QUEUE(MIX_K) *q, uint64_t *s, unsigned keys,
		     const char **what)
{
	uint64_t key = rng_key(s, keys);
	unsigned op = rng_below(s, 16), id = 0;
	int i;

	if (op < 6 || sqm_count(&mix_model) == 0) {
		*what = "enqueue";
		i = sqm_find(&mix_model, MIX_NMAX, rng_below(s, MIX_NMAX), false);
		if (i < 0)
			return true;
		return SQ_ENQUEUE(MIX_K, q, &mix_node[i], key) ==
		       sqm_enqueue(&mix_model, (unsigned)i, key);
	}
	if (op < 9) {
		*what = op < 8 ? "pop" : "pop_due";
		return mix_pop(q, op == 8, key);
	}
	if (op == 9) {
		*what = "requeue (arm)";
		i = sqm_find(&mix_model, MIX_NMAX, rng_below(s, MIX_NMAX), false);
		if (i < 0)
			return true;
		return SQ_REQUEUE(MIX_K, q, &mix_node[i], key) ==
		       sqm_requeue(&mix_model, (unsigned)i, key);
	}
	i = sqm_find(&mix_model, MIX_NMAX, rng_below(s, MIX_NMAX), true);
	if (op < 13) {
		bool was_first;

		*what = "dequeue";
		if (op == 12) {		/* the first node: the pop-like path */
			sqm_first(&mix_model, &id, NULL);
			i = (int)id;
		}
		sqm_first(&mix_model, &id, NULL);
		was_first = id == (unsigned)i;
		sqm_dequeue(&mix_model, (unsigned)i);
		return SQ_DEQUEUE(MIX_K, q, &mix_node[i]) == was_first &&
		       !SQ_QUEUED(MIX_K, &mix_node[i]);
	}
	*what = "requeue";
	if (rng_below(s, 4) == 0)
		key = sqm_key(&mix_model, (unsigned)i);	/* behind its equals */
	return SQ_REQUEUE(MIX_K, q, &mix_node[i], key) ==
	       sqm_requeue(&mix_model, (unsigned)i, key);
}

#endif /* SQ_TESTS_MIX_H */
