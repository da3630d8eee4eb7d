/* SPDX-License-Identifier: MIT */
/*
 * mix.h - one random operation stream against the model, for a
 * backend's white-box suite
 *
 * The white-box suites check a structure's own invariants after every
 * step of a random stream; the stream, its comparison with the model
 * (tests/model.h) and the loop over seeds are written once, here, for the
 * one backend MIX_K the includer names:
 *
 *	#define MIX_K rb		(a token of SQ_KINDS)
 *	#define MIX_NMAX 48		(ids, and nodes: mix_node[0 .. NMAX))
 *	#include "mix.h"
 *
 *	static const struct mix_run run = {
 *		.name = "rb_random_small", .seed = 0x5eed0000u,
 *		.streams = 300, .steps = 2000, .keys = keys, .nkeys = 3,
 *		.check = tree_matches,
 *	};
 *	mix_run(&run);
 *
 * Each stream starts from an empty queue, runs its steps, then pops the
 * queue empty; after every operation its result, the count and the first
 * node must agree with the model, and every .every steps (default 1)
 * mix_matches() and the suite's .check must hold.  A failure names the
 * run, the seed, the step and the operation.  The pieces, for a suite's
 * own loop:
 *
 *	mix_init(&q);
 *	ok = mix_step(&q, &rng_state, RNG_KEYS_TIES, &what);
 *	ok = mix_matches(&q);		count, first, each node's queued()
 *					and key against the model
 *	ok = mix_walk_matches(&q, sq_rb_next, sq_rb_prev);
 *					an in-order walk both ways
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
#include "sq_test.h"

#if !defined(MIX_K) || !defined(MIX_NMAX)
#error "define MIX_K (a backend token) and MIX_NMAX before mix.h"
#endif

static SQ_NODE(MIX_K) mix_node[MIX_NMAX];	/* node i is the model's id i */
static struct sqm mix_model;
static unsigned mix_n = MIX_NMAX;	/* the ids mix_step uses: 0 .. mix_n - 1 */

static void mix_init(SQ_QUEUE(MIX_K) *q)
{
	unsigned i;

	SQ_INIT(MIX_K, q);
	sqm_init(&mix_model);
	for (i = 0; i < MIX_NMAX; i++)
		SQ_NODE_INIT(MIX_K, &mix_node[i]);
}

/* count, empty and first agree with the model: O(1) but the model's scan */
static bool mix_agrees(const SQ_QUEUE(MIX_K) *q)
{
	unsigned id = 0;
	bool have = sqm_first(&mix_model, &id, NULL);

	return SQ_COUNT(MIX_K, q) == sqm_count(&mix_model) &&
	       SQ_EMPTY(MIX_K, q) == !have &&
	       SQ_FIRST(MIX_K, q) == (have ? &mix_node[id] : NULL);
}

/* mix_agrees(), and every node's queued() and key agree with the model */
static bool mix_matches(const SQ_QUEUE(MIX_K) *q)
{
	unsigned i;

	if (!mix_agrees(q))
		return false;
	for (i = 0; i < mix_n; i++) {
		bool queued = sqm_queued(&mix_model, i);

		if (SQ_QUEUED(MIX_K, &mix_node[i]) != queued ||
		    (queued && mix_node[i].key != sqm_key(&mix_model, i)))
			return false;
	}
	return true;
}

/* mix_walk_matches - for a backend with in-order next/prev (the trees):
 * from first by @next visits the model's order, keys included, and from
 * the last by @prev the same backwards */
static inline bool
mix_walk_matches(const SQ_QUEUE(MIX_K) *q,
		 SQ_NODE(MIX_K) *(*next)(const SQ_NODE(MIX_K) *),
		 SQ_NODE(MIX_K) *(*prev)(const SQ_NODE(MIX_K) *))
{
	unsigned order[MIX_NMAX];
	size_t n = sqm_order(&mix_model, order), i;
	const SQ_NODE(MIX_K) *x = SQ_FIRST(MIX_K, q);

	for (i = 0; i < n; i++, x = next(x))
		if (x != &mix_node[order[i]] ||
		    x->key != sqm_key(&mix_model, order[i]))
			return false;
	if (x != NULL)
		return false;
	x = n ? &mix_node[order[n - 1]] : NULL;
	for (i = n; i-- > 0; x = prev(x))
		if (x != &mix_node[order[i]])
			return false;
	return x == NULL;
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
		i = sqm_find(&mix_model, mix_n, rng_below(s, mix_n), false);
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
		i = sqm_find(&mix_model, mix_n, rng_below(s, mix_n), false);
		if (i < 0)
			return true;
		return SQ_REQUEUE(MIX_K, q, &mix_node[i], key) ==
		       sqm_requeue(&mix_model, (unsigned)i, key);
	}
	i = sqm_find(&mix_model, mix_n, rng_below(s, mix_n), true);
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

/* one run of mix_run(): streams of the random mix on fresh queues */
struct mix_run {
	const char *name;	/* printed with the seed on failure */
	uint64_t seed;		/* stream i runs from seed + i */
	unsigned streams;
	unsigned steps;		/* random operations in each stream */
	const unsigned *keys;	/* stream i draws keys of class keys[i % nkeys] */
	unsigned nkeys;
	unsigned nodes;		/* ids in use, 1 .. MIX_NMAX; 0: MIX_NMAX */
	unsigned prefill;	/* enqueue ids 0 .. prefill - 1 first */
	unsigned every;		/* full checks every this many steps; 0: 1 */
	/* the structure's own invariants, with the model's help; NULL: none.
	 * It may also move the queue's internals (a counter to its end). */
	bool (*check)(SQ_QUEUE(MIX_K) *q);
};

static void mix__after(SQ_QUEUE(MIX_K) *q, const struct mix_run *r,
		       uint64_t seed, unsigned long step, const char *what,
		       bool ok)
{
	unsigned every = r->every ? r->every : 1;

	SQ_ASSERTF(ok, "%s: seed %llu step %lu: %s gave a wrong result\n",
		   r->name, (unsigned long long)seed, step, what);
	SQ_ASSERTF(mix_agrees(q),
		   "%s: seed %llu step %lu: count or first differs after %s\n",
		   r->name, (unsigned long long)seed, step, what);
	if (step % every != 0)
		return;
	SQ_ASSERTF(mix_matches(q),
		   "%s: seed %llu step %lu: a node differs after %s\n",
		   r->name, (unsigned long long)seed, step, what);
	SQ_ASSERTF(!r->check || r->check(q),
		   "%s: seed %llu step %lu: structure wrong after %s\n",
		   r->name, (unsigned long long)seed, step, what);
}

/* mix_run - run @r's streams: prefill, the random steps, then pop until
 * empty, every operation compared with the model. */
static void mix_run(const struct mix_run *r)
{
	static SQ_QUEUE(MIX_K) q;	/* static: a ladder's arrays are large */
	unsigned i;

	SQ_ASSERT(r->nkeys > 0 && r->nodes <= MIX_NMAX &&
		  r->prefill <= (r->nodes ? r->nodes : MIX_NMAX));
	for (i = 0; i < r->streams; i++) {
		uint64_t seed = r->seed + i, s = seed;
		unsigned keys = r->keys[i % r->nkeys];
		unsigned long step = 0;
		const char *what = "prefill";
		unsigned id;

		mix_n = r->nodes ? r->nodes : MIX_NMAX;
		mix_init(&q);
		for (id = 0; id < r->prefill; id++, step++) {
			uint64_t key = rng_key(&s, keys);

			mix__after(&q, r, seed, step, what,
				   SQ_ENQUEUE(MIX_K, &q, &mix_node[id], key) ==
				   sqm_enqueue(&mix_model, id, key));
		}
		for (; step < r->prefill + (unsigned long)r->steps; step++) {
			bool ok = mix_step(&q, &s, keys, &what);

			mix__after(&q, r, seed, step, what, ok);
		}
		what = "pop (draining)";
		while (sqm_count(&mix_model) > 0) {
			bool ok = mix_pop(&q, false, 0);

			mix__after(&q, r, seed, step++, what, ok);
		}
		mix__after(&q, r, seed, 0, "pop of the empty queue",
			   SQ_POP(MIX_K, &q) == NULL);
	}
	mix_n = MIX_NMAX;
}

#endif /* SQ_TESTS_MIX_H */
