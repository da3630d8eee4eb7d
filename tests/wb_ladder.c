/* SPDX-License-Identifier: MIT */
/*
 * wb_ladder.c - white-box tests of the ladder queue backend
 * (smartq/ladder.h)
 *
 * Built with a small ladder (64 buckets in rung 0, 4 in a spawned rung,
 * 4 rungs, 4 nodes to a bucket before it spawns), so a few dozen nodes
 * already make rungs, spawns, spills, epochs and rung exhaustion: keys
 * below 1000 fit in the rungs, full-range keys run out of them.  (The
 * default geometry runs every shared suite: contract, diff, fuzz; and
 * this one as wb_ladder-default, -DWB_LADDER_DEFAULT_GEOMETRY, without
 * the two tests that build the small ladder's shapes by hand.)
 *
 * The random operation stream of tests/mix.h on 12 nodes per bucket
 * threshold (48), half of them queued first, compared after
 * every step with the model and with sq_ladder_check() and visit(); a hold
 * loop on 2000 nodes against the model with keys in the past, crowds of
 * equal keys and full-range keys; equal keys in FIFO order through an
 * epoch; the edge keys 0 and UINT64_MAX and crowds next to them; keys below
 * the epoch and a spilled bottom; rung exhaustion (the fallback sort, and
 * a bottom that cannot spill); a crowd of one key fed to the bottom from
 * its bucket (keys arriving in front of it, and with no rung free); blocks
 * of keys each below the last, spilled into a rung that reaches down;
 * dequeue from each tier; and check() catching queues broken on purpose.
 * A failure prints the seed.
 * With the default geometry, the cost of adversarial patterns (every key
 * equal, sawtooth, monotone, crowds of one key in every tier, requeue to
 * the same key, the first of each tier dequeued) in loop steps per
 * operation, which must not grow from N to 8N (SQ__STEP counts them).
 * Under SQ_DEBUG, dequeue and requeue through the wrong queue abort.
 */
#define _POSIX_C_SOURCE 200809L	/* tests/child.h forks */

#ifndef WB_LADDER_DEFAULT_GEOMETRY
#define WB_SMALL 1
#define SQ_LADDER_BUCKETS 64
#define SQ_LADDER_SPLIT 4
#define SQ_LADDER_RUNGS 4
#define SQ_LADDER_THRES 4
#else
#define WB_SMALL 0
#endif
/* the step counter of smartq/common.h: counts loop iterations */
static unsigned long wb_steps;
#define SQ__STEP(n) ((void)(wb_steps += (unsigned long)(n)))
#include "smartq.h"
#include "sq_test.h"
#include "child.h"
#include "model.h"
#include "rng.h"

/* ---- random steps against the model (tests/mix.h) ---------------------- */

#define MIX_K ladder
#define MIX_NMAX (12 * SQ_LADDER_THRES)	/* enough to crowd a bucket */
#include "mix.h"

/* what the structure went through, so the tests can insist it happened */
static unsigned long seen_rungs[SQ_LADDER_RUNGS + 1];
static unsigned long seen_pile, seen_runs;	/* in use; two runs or more */

/* counts the queued nodes visit() calls it for */
static void count_visit(struct sq_ladder_node *n, void *arg)
{
	size_t *c = (size_t *)arg;

	*c += sq_ladder_queued(n);
}

/* find's match: the node with the id *arg (mix_node[id]) */
static bool is_node(const struct sq_ladder_node *n, void *arg)
{
	return n == &mix_node[*(const unsigned *)arg];
}

/* find of the key of every queued node, any node and that node: the
 * model's answers (a fed crowd's first nodes are in the bottom, the rest
 * in its bucket) */
static bool ladder_finds(const struct sq_ladder *q)
{
	unsigned i;
	long want;

	for (i = 0; i < MIX_NMAX; i++) {
		uint64_t key;

		if (!sqm_queued(&mix_model, i))
			continue;
		key = sqm_key(&mix_model, i);
		want = sqm_find_key(&mix_model, key, NULL, NULL);
		if (sq_ladder_find(q, key, NULL, NULL) != &mix_node[want] ||
		    sq_ladder_find(q, key, is_node, &i) != &mix_node[i] ||
		    sq_ladder_find(q, key + 1, is_node, &i) != NULL ||
		    (sqm_find_key(&mix_model, key + 1, NULL, NULL) < 0 &&
		     sq_ladder_find(q, key + 1, NULL, NULL) != NULL))
			return false;
	}
	return true;
}

/* The ladder against the model: check(), visit's count, find. */
static bool ladder_matches(struct sq_ladder *q)
{
	size_t c = 0;

	seen_rungs[q->ld_nrungs]++;
	seen_pile += q->ld_pmap != 0;
	seen_runs += (q->ld_pmap & (q->ld_pmap - 1)) != 0;
	return sq_ladder_check(q) == 0 &&
	       sq_ladder_visit(q, count_visit, &c) == sqm_count(&mix_model) &&
	       c == sqm_count(&mix_model) && ladder_finds(q);
}

/* ---- tests ------------------------------------------------------------- */

SQ_TEST(ladder_empty)
{
	struct sq_ladder q;
	struct sq_ladder_node n;

	sq_ladder_init_at(&q, 12345);
	sq_ladder_node_init(&n);
	SQ_ASSERT(sq_ladder_empty(&q));
	SQ_ASSERT_EQ(sq_ladder_count(&q), 0);
	SQ_ASSERT(sq_ladder_first(&q) == NULL);
	SQ_ASSERT(sq_ladder_pop(&q) == NULL);
	SQ_ASSERT(sq_ladder_pop_due(&q, UINT64_MAX) == NULL);
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	SQ_ASSERT(!sq_ladder_queued(&n));

	SQ_ASSERT(sq_ladder_enqueue(&q, &n, 42));
	SQ_ASSERT(sq_ladder_queued(&n));
	SQ_ASSERT(sq_ladder_first(&q) == &n);
	SQ_ASSERT(!sq_ladder_requeue(&q, &n, 42));	/* same first and key */
	SQ_ASSERT(sq_ladder_requeue(&q, &n, 43));	/* first key changed */
	SQ_ASSERT_EQ(n.key, 43);
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	SQ_ASSERT(sq_ladder_pop_due(&q, 42) == NULL);
	SQ_ASSERT(sq_ladder_pop_due(&q, 43) == &n);
	SQ_ASSERT(!sq_ladder_queued(&n));
	SQ_ASSERT(sq_ladder_empty(&q));
	SQ_ASSERT(sq_ladder_check(&q) == 0);

	SQ_ASSERT(sq_ladder_requeue(&q, &n, 1));	/* arms an idle node */
	SQ_ASSERT(sq_ladder_dequeue(&q, &n));
	SQ_ASSERT(!sq_ladder_queued(&n));
	SQ_ASSERT(sq_ladder_first(&q) == NULL);
	SQ_ASSERT(sq_ladder_check(&q) == 0);
#ifdef SQ_DEBUG
	/* dead links are poisoned, distinct and non-NULL */
	SQ_ASSERT(n.ld_next == (struct sq_ladder_node *)SQ__POISON(1));
	SQ_ASSERT(n.ld_prev == (struct sq_ladder_node *)SQ__POISON(2));
	SQ_ASSERT(!sq_ladder_queued(&n));
#endif
}

/* check() after every step against the model, many seeds, every key
 * class: the stream makes epochs, spawns and spills, and full-range and
 * edge keys run out of rungs */
SQ_TEST(ladder_random_small)
{
	static const unsigned keys[] = { RNG_KEYS_TIES, RNG_KEYS_SMALL,
					 RNG_KEYS_FULL, RNG_KEYS_EDGES };
	static const struct mix_run run = {
		.name = "ladder_random_small", .seed = 0x1add0000u,
		.streams = WB_SMALL ? 200 : 40, .steps = 3000,
		.prefill = MIX_NMAX / 2,
		.keys = keys, .nkeys = SQ_NELEM(keys), .check = ladder_matches,
	};
	unsigned r;

	mix_run(&run);
	/* the structure went through every depth, the last rung included;
	 * a larger ladder spawns several rungs in one pop, so there only
	 * the first two and the last */
	for (r = 0; r <= SQ_LADDER_RUNGS; r++)
		SQ_ASSERTF(seen_rungs[r] > 0 ||
			   (!WB_SMALL && r > 2 && r < SQ_LADDER_RUNGS),
			   "never saw %u rungs\n", r);
	/* and, with 4 rungs, the pile of several runs */
	SQ_ASSERTF(!WB_SMALL || (seen_pile > 0 && seen_runs > 0),
		   "never used the pile (%lu, %lu)\n", seen_pile, seen_runs);
	fprintf(stderr, "  pile in use at %lu steps, of several runs at %lu\n",
		seen_pile, seen_runs);
}

/*
 * A hold loop on 2000 nodes against the model: pop the first and give it a
 * key near the popped one, one in eight in the past (below the epoch: the
 * bottom); now and then cancel, arm or re-arm any node.  Keys 0..5000 with
 * steps up to 3000, the same with steps below 4 (crowds of equal keys),
 * and half full-range keys.  check() every 1024 steps.
 */
SQ_TEST(ladder_hold_large)
{
	enum { N = 2000 };
	static struct sq_ladder_node n[N];
	static struct sqm m;
	unsigned cls, step, i, id = 0;

	for (cls = 0; cls < 3; cls++) {
		uint64_t seed = 0x1add0b5u + cls, s = seed, now = 0;
		struct sq_ladder q;
		struct sq_ladder_node *x;

		sq_ladder_init(&q);
		sqm_init(&m);
		for (i = 0; i < N; i++) {
			uint64_t key = cls == 2 ? rng_next(&s)
						: rng_below(&s, 5000);

			sq_ladder_node_init(&n[i]);
			SQ_ASSERT(sq_ladder_enqueue(&q, &n[i], key) ==
				  sqm_enqueue(&m, i, key));
		}
		for (step = 0; step < 40000; step++) {
			uint64_t d = rng_below(&s, cls == 1 ? 4 : 3000);
			uint64_t key = rng_below(&s, 8) ? now + d
					: now - (d < now ? d : now);
			bool got, want;

			if (cls == 2 && rng_below(&s, 2))
				key = rng_next(&s);
			i = rng_below(&s, N);
			switch (rng_below(&s, 8)) {
			case 0:		/* cancel a node, or arm an idle one */
				if (sqm_queued(&m, i)) {
					want = sqm_first(&m, &id, NULL) &&
					       id == i;
					sqm_dequeue(&m, i);
					got = sq_ladder_dequeue(&q, &n[i]);
				} else {
					want = sqm_enqueue(&m, i, key);
					got = sq_ladder_requeue(&q, &n[i], key);
				}
				break;
			case 1:		/* re-arm a queued node */
				if (!sqm_queued(&m, i))
					continue;
				want = sqm_requeue(&m, i, key);
				got = sq_ladder_requeue(&q, &n[i], key);
				break;
			default:	/* hold: pop and enqueue again */
				if (!sqm_pop(&m, &id, &now))
					continue;
				x = sq_ladder_pop(&q);
				SQ_ASSERTF(x == &n[id],
					   "seed %llu step %u: pop\n",
					   (unsigned long long)seed, step);
				want = sqm_enqueue(&m, id, key);
				got = sq_ladder_enqueue(&q, x, key);
			}
			SQ_ASSERTF(got == want && sq_ladder_count(&q) ==
				   sqm_count(&m),
				   "seed %llu step %u: result or count\n",
				   (unsigned long long)seed, step);
			if ((step & 1023) == 0)
				SQ_ASSERTF(sq_ladder_check(&q) == 0,
					   "seed %llu step %u: check()\n",
					   (unsigned long long)seed, step);
		}
		while (sqm_pop(&m, &id, NULL))
			SQ_ASSERT(sq_ladder_pop(&q) == &n[id]);
		SQ_ASSERT(sq_ladder_pop(&q) == NULL);
		SQ_ASSERT(sq_ladder_check(&q) == 0);
	}
}

/* Equal keys keep FIFO order through the top, a spawn, a width-1 bucket
 * and the bottom; a requeue goes behind its equals. */
SQ_TEST(ladder_fifo_equal_keys)
{
	static struct sq_ladder_node n[300];
	static unsigned want[300];
	struct sq_ladder q;
	unsigned i, w = 0, k;

	sq_ladder_init(&q);
	for (i = 0; i < 100; i++) {
		sq_ladder_node_init(&n[i]);
		SQ_ASSERT(sq_ladder_enqueue(&q, &n[i], 7) == (i == 0));
	}
	SQ_ASSERT(sq_ladder_requeue(&q, &n[0], 7));	/* first changed */
	SQ_ASSERT(!sq_ladder_requeue(&q, &n[50], 7));
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	for (i = 1; i < 100; i++)
		if (i != 50)
			want[w++] = i;
	want[w++] = 0;
	want[w++] = 50;
	mix_expect_pops(&q, n, want, w);

	/* three keys, interleaved, crowded far beyond the threshold: node 0
	 * starts the era alone in the bottom, the rest wait in the top; its
	 * pop makes the epoch (rung 0), whose buckets hold one key each */
	sq_ladder_init(&q);
	for (i = 0; i < 300; i++) {
		sq_ladder_node_init(&n[i]);
		sq_ladder_enqueue(&q, &n[i], i ? 1000 + (i % 3) * 500 : 1);
	}
	SQ_ASSERT(q.ld_ntop == 299);
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	SQ_ASSERT(sq_ladder_pop(&q) == &n[0]);
	SQ_ASSERT(q.ld_nrungs == 1 && q.ld_ntop == 0);
	/* a late arrival of key 1500 goes behind the other 1500s */
	SQ_ASSERT(!sq_ladder_requeue(&q, &n[0], 1500));
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	w = 0;
	for (k = 0; k < 3; k++) {
		for (i = 1; i < 300; i++)
			if (i % 3 == k)
				want[w++] = i;
		if (k == 1)
			want[w++] = 0;
	}
	mix_expect_pops(&q, n, want, w);
}

/* 0, UINT64_MAX and crowds right next to them: no overflow at either end */
SQ_TEST(ladder_edge_keys)
{
	static struct sq_ladder_node n[200];
	static unsigned want[200];
	struct sq_ladder q;
	unsigned i, w = 0;

	sq_ladder_init(&q);
	for (i = 0; i < 200; i++) {
		uint64_t key = i < 100 ? UINT64_MAX - (i % 10) : i % 10;

		sq_ladder_node_init(&n[i]);
		sq_ladder_enqueue(&q, &n[i], key);
		SQ_ASSERT(sq_ladder_check(&q) == 0);
	}
	/* the small keys 0..9 in key order, FIFO within each, then the
	 * large ones from UINT64_MAX - 9 up */
	for (i = 0; i < 10; i++) {
		unsigned j;

		for (j = 100 + i; j < 200; j += 10)
			want[w++] = j;
	}
	for (i = 10; i-- > 0;) {
		unsigned j;

		for (j = i; j < 100; j += 10)
			want[w++] = j;
	}
	mix_expect_pops(&q, n, want, w);

	/* a crowd at UINT64_MAX alone, then one at 0 arriving later */
	sq_ladder_init(&q);
	for (i = 0; i < 50; i++) {
		sq_ladder_node_init(&n[i]);
		sq_ladder_enqueue(&q, &n[i], UINT64_MAX);
	}
	SQ_ASSERT(sq_ladder_pop(&q) == &n[0]);
	for (i = 50; i < 100; i++) {
		sq_ladder_node_init(&n[i]);
		SQ_ASSERT(sq_ladder_enqueue(&q, &n[i], 0) == (i == 50));
	}
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	w = 0;
	for (i = 50; i < 100; i++)
		want[w++] = i;
	for (i = 1; i < 50; i++)
		want[w++] = i;
	mix_expect_pops(&q, n, want, w);
}

/* Keys below the epoch (the present, the past) come out first, in order,
 * while the rungs hold the future; the bottom spills into a rung. */
SQ_TEST(ladder_epoch_crossing)
{
	static struct sq_ladder_node n[400];
	struct sq_ladder q;
	unsigned i, spills = 0;
	uint64_t last = 0;
	struct sq_ladder_node *x;

	sq_ladder_init(&q);
	for (i = 0; i < 200; i++) {
		sq_ladder_node_init(&n[i]);
		sq_ladder_enqueue(&q, &n[i], 10000 + (uint64_t)i * 37 % 1000);
	}
	x = sq_ladder_pop(&q);			/* epoch: rungs */
	SQ_ASSERT(x && x->key == 10000);
	SQ_ASSERT(q.ld_nrungs >= 1 && q.ld_ntop == 0);
	for (i = 200; i < 400; i++) {		/* the past, descending */
		unsigned before = q.ld_nrungs;

		sq_ladder_node_init(&n[i]);
		SQ_ASSERT(sq_ladder_enqueue(&q, &n[i], 5000 - i));
		SQ_ASSERT(sq_ladder_first(&q) == &n[i]);
		spills += q.ld_nrungs > before;
		SQ_ASSERT(sq_ladder_check(&q) == 0);
	}
	SQ_ASSERT(spills > 0);		/* the bottom became a rung */
	sq_ladder_node_init(&n[0]);
	SQ_ASSERT(!sq_ladder_enqueue(&q, &n[0], UINT64_MAX));	/* the top */
	SQ_ASSERT(q.ld_ntop == 1);
	for (i = 0; i < 400; i++) {
		x = sq_ladder_pop(&q);
		SQ_ASSERT(x != NULL && x->key >= last);
		last = x->key;
		SQ_ASSERT(sq_ladder_check(&q) == 0);
	}
	SQ_ASSERT(last == UINT64_MAX && sq_ladder_empty(&q));
}

/* The head of @q's first non-empty top list, or NULL. */
static struct sq_ladder_node *top_head(const struct sq_ladder *q)
{
	unsigned i;

	for (i = 0; i < SQ_LADDER__TOPS; i++)
		if (q->ld_top[i].ll_first)
			return q->ld_top[i].ll_first;
	return NULL;
}

#if WB_SMALL
/*
 * Rung exhaustion.  One key at 2^60 makes rung 0's buckets 2^55 wide; a
 * crowd of 100 keys inside 2^20 (n[2..101]) then needs rungs of widths
 * 2^53, 2^51 ... down to 1, far more than the 4 this ladder has: the last
 * rung's crowded bucket goes to the pile, sorted, which feeds the bottom
 * THRES at a time.  The epoch pops n[0].
 */
static void crowd_past_rungs(struct sq_ladder *q, struct sq_ladder_node *n)
{
	uint64_t s = 0xe4a05u;
	unsigned i;

	sq_ladder_init(q);
	sq_ladder_node_init(&n[0]);
	sq_ladder_enqueue(q, &n[0], 0);		/* starts the era */
	sq_ladder_node_init(&n[1]);
	sq_ladder_enqueue(q, &n[1], (uint64_t)1 << 60);
	for (i = 2; i < 102; i++) {
		sq_ladder_node_init(&n[i]);
		sq_ladder_enqueue(q, &n[i], ((uint64_t)1 << 20) +
				  rng_below(&s, 1u << 20) / 4 * 4);
	}
	SQ_ASSERT(sq_ladder_pop(q) == &n[0]);		/* the epoch */
	SQ_ASSERT(sq_ladder_check(q) == 0);
}

/* The pile of crowd_past_rungs(); keys in the past spill into it too, as
 * no rung is free, so the bottom stays short.  Order stays exact and FIFO
 * throughout. */
SQ_TEST(ladder_rungs_run_out)
{
	static struct sq_ladder_node n[300];
	struct sq_ladder q;
	unsigned i;
	uint64_t last;
	struct sq_ladder_node *x, *y;

	crowd_past_rungs(&q, n);
	SQ_ASSERT_EQ(q.ld_nrungs, SQ_LADDER_RUNGS);
	SQ_ASSERT(q.ld_rung[SQ_LADDER_RUNGS - 1].lr_shift > 0);
	SQ_ASSERT_EQ(q.ld_nbottom, SQ_LADDER_THRES);	/* fed from the pile */
	SQ_ASSERT(q.ld_pmap != 0);
	/* ties inside the pile stay FIFO: requeue one to a piled key */
	x = q.ld_run[sq_ladder__oldest(&q)].ll_last;
	SQ_ASSERT(x != &n[2]);
	SQ_ASSERT(!sq_ladder_requeue(&q, &n[2], x->key));
	SQ_ASSERT(sq_ladder_find(&q, x->key, NULL, NULL) == x);
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	/* past keys spill into the pile: no rung free */
	for (i = 200; i < 300; i++) {
		sq_ladder_node_init(&n[i]);
		SQ_ASSERT(sq_ladder_enqueue(&q, &n[i], 300 - i));
		SQ_ASSERT(q.ld_nbottom <= SQ_LADDER__SPILL + SQ_LADDER_THRES);
	}
	SQ_ASSERT_EQ(q.ld_nrungs, SQ_LADDER_RUNGS);
	SQ_ASSERT(q.ld_pcur <= 100);	/* the pile takes the past now */
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	for (i = 300; i-- > 200;)
		SQ_ASSERT(sq_ladder_pop(&q) == &n[i]);
	for (last = 0, i = 0; (y = sq_ladder_pop(&q)) != NULL; i++) {
		SQ_ASSERT(y->key >= last);
		SQ_ASSERT(y != &n[2] || !sq_ladder_queued(x));	/* FIFO */
		last = y->key;
		SQ_ASSERT(sq_ladder_check(&q) == 0);
	}
	SQ_ASSERT_EQ(i, 101);
	SQ_ASSERT(q.ld_pmap == 0);
	SQ_ASSERT(last == (uint64_t)1 << 60);
}
/* check() against a broken pile: each damage is caught, undone passes */
SQ_TEST(ladder_check_catches_pile)
{
	static struct sq_ladder_node n[120];
	struct sq_ladder q;
	struct sq_ladder_node *a, *bt;
	struct sq_ladder__list *home;
	uint64_t k, save;
	unsigned i, r, young;

	crowd_past_rungs(&q, n);
	for (i = 102; i < 110; i++) {		/* runs of rank 0 and 1 */
		sq_ladder_node_init(&n[i]);
		sq_ladder_enqueue(&q, &n[i], q.ld_pcur + 1000 * i);
	}
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	SQ_ASSERT((q.ld_pmap & (q.ld_pmap - 1)) != 0);	/* two runs or more */
	r = sq_ladder__oldest(&q);
	young = sq__ctz64(q.ld_pmap);
	a = q.ld_run[r].ll_first;
	bt = q.ld_bottom.ll_last;
	SQ_ASSERT(a->ld_next != NULL);
	fprintf(stderr, "(check failures printed below are expected)\n");

	q.ld_pmap ^= (uint64_t)1 << young;	/* a run's bit */
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_pmap ^= (uint64_t)1 << young;
	q.ld_run[63].ll_first = q.ld_run[63].ll_last = NULL;
	q.ld_pmap ^= (uint64_t)1 << 63;		/* an empty run's bit */
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_pmap ^= (uint64_t)1 << 63;
	SQ_ASSERT(sq_ladder_check(&q) == 0);

	k = a->key;				/* a run out of order */
	a->key = a->ld_next->key + 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	a->key = q.ld_pcur - 1;			/* below the pile's cur */
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	a->key = k;
	home = a->ld_home;			/* a piled node's home */
	a->ld_home = &q.ld_run[young];
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	a->ld_home = home;
	save = q.ld_pcur;			/* the pile's cur */
	q.ld_pcur = a->key + 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_pcur = save;
	SQ_ASSERT(sq_ladder_check(&q) == 0);

	k = bt->key;			/* a bottom key in the pile's range */
	bt->key = q.ld_pcur + 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	bt->key = q.ld_pcur;		/* a fed node: allowed */
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	bt->key = k;
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	fprintf(stderr, "(end of expected check failures)\n");
	while (sq_ladder_pop(&q))
		SQ_ASSERT(sq_ladder_check(&q) == 0);
	SQ_ASSERT(q.ld_pmap == 0);
}
#endif

/* pop everything, in the model's order */
static void expect_model_order(struct sq_ladder *q, struct sq_ladder_node *n,
			       struct sqm *m, const char *what)
{
	unsigned id, k = 0;

	while (sqm_pop(m, &id, NULL)) {
		SQ_ASSERTF(sq_ladder_pop(q) == &n[id], "%s: pop %u\n", what,
			   k);
		k++;
	}
	SQ_ASSERT(sq_ladder_pop(q) == NULL);
	SQ_ASSERT(sq_ladder_check(q) == 0);
}

/* find's match: the node *arg */
static bool is_at(const struct sq_ladder_node *n, void *arg)
{
	return n == (const struct sq_ladder_node *)arg;
}

/*
 * A crowd of one key reaches the front through an epoch: it stays in its
 * bucket and the bottom takes THRES of it at a time (fed); keys enqueued
 * in front of it spill below it, handing the fed nodes back; a requeue to
 * its key goes behind it.  At most THRES of the crowd are ever in the
 * bottom, check() rejects more, and the order is the model's.
 */
SQ_TEST(ladder_crowd_fed)
{
	enum { M = 10 * SQ_LADDER_THRES + 3, F = 8 * SQ_LADDER_THRES };
	static struct sq_ladder_node n[1 + M + F];
	static struct sqm m;
	const uint64_t c = 1000000;
	struct sq_ladder q;
	const struct sq_ladder_node *x;
	uint64_t s = 0xc40dfedu, key;
	unsigned i, fed;

	sq_ladder_init(&q);
	sqm_init(&m);
	for (i = 0; i < 1 + M + F; i++)
		sq_ladder_node_init(&n[i]);
	sq_ladder_enqueue(&q, &n[0], 0);
	for (i = 1; i <= M; i++) {
		sq_ladder_enqueue(&q, &n[i], c);
		sqm_enqueue(&m, i, c);
	}
	SQ_ASSERT(sq_ladder_pop(&q) == &n[0]);		/* epoch: fed */
	SQ_ASSERT_EQ(q.ld_nbottom, SQ_LADDER_THRES);
	SQ_ASSERT(q.ld_nrungs == 1 && q.ld_rung[0].lr_cur == c);
	SQ_ASSERT(n[SQ_LADDER_THRES].ld_home == &q.ld_bottom);
	SQ_ASSERT(n[SQ_LADDER_THRES + 1].ld_home != &q.ld_bottom);
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	/* find: the crowd's first node is in the bottom, a later one in the
	 * bucket */
	SQ_ASSERT(sq_ladder_find(&q, c, NULL, NULL) == &n[1]);
	SQ_ASSERT(sq_ladder_find(&q, c, is_at, &n[M]) == &n[M]);

	/* one key in front; THRES + 1 of key cur in the bottom is damage */
	SQ_ASSERT(sq_ladder_enqueue(&q, &n[M + 1], 5));
	sqm_enqueue(&m, M + 1, 5);
	fprintf(stderr, "(one check failure printed below is expected)\n");
	n[M + 1].key = c;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	n[M + 1].key = 5;
	SQ_ASSERT(sq_ladder_check(&q) == 0);

	/* keys in front of the crowd; a member requeued to its key */
	for (i = M + 2; i < 1 + M + F; i++) {
		key = 1 + rng_below(&s, (unsigned)c - 1);
		SQ_ASSERT(sq_ladder_enqueue(&q, &n[i], key) ==
			  sqm_enqueue(&m, i, key));
		if (i == M + F / 2) {
			SQ_ASSERT(!sq_ladder_requeue(&q, &n[M / 2], c));
			sqm_requeue(&m, M / 2, c);
		}
		SQ_ASSERT(sq_ladder_check(&q) == 0);
		for (fed = 0, x = q.ld_bottom.ll_first; x; x = x->ld_next)
			fed += x->key == c;
		SQ_ASSERT(fed <= SQ_LADDER_THRES);
		SQ_ASSERT(sq_ladder_find(&q, c, NULL, NULL) ==
			  &n[sqm_find_key(&m, c, NULL, NULL)]);
	}
	SQ_ASSERT(q.ld_nbottom < F);	/* spilled below the crowd */
	expect_model_order(&q, n, &m, "ladder_crowd_fed");
}

/*
 * Blocks of keys, each below the last, with a pop after each: spills go
 * into a rung that reaches below its cut, so they do not use up the rungs
 * and the bottom stays short; the order is the model's.
 */
SQ_TEST(ladder_spill_reuse)
{
	enum { B = 40, K = 2 * SQ_LADDER_THRES + 2 };
	static struct sq_ladder_node n[B * K];
	static struct sqm m;
	struct sq_ladder q;
	uint64_t s = 0xb10c5u, key;
	unsigned b, i, id = 0, most = 0, pid = 0;

	sq_ladder_init(&q);
	sqm_init(&m);
	for (b = 0; b < B; b++) {
		for (i = 0; i < K; i++, id++) {
			key = ((uint64_t)(B - b) << 30) + rng_below(&s, 1u << 20);
			sq_ladder_node_init(&n[id]);
			SQ_ASSERT(sq_ladder_enqueue(&q, &n[id], key) ==
				  sqm_enqueue(&m, id, key));
			most = q.ld_nbottom > most ? (unsigned)q.ld_nbottom
						   : most;
		}
		SQ_ASSERT(sqm_pop(&m, &pid, NULL));
		SQ_ASSERT(sq_ladder_pop(&q) == &n[pid]);
		SQ_ASSERT(sq_ladder_check(&q) == 0);
	}
	SQ_ASSERTF(most <= 3 * SQ_LADDER_THRES + 1,
		   "the bottom grew to %u nodes\n", most);
	expect_model_order(&q, n, &m, "ladder_spill_reuse");
}

/*
 * A crowd of one key heads the bottom, keys just above it are spilled and
 * the crowd kept: that spill spends what it moved only, so when keys come
 * in front of the crowd the inserts that brought it still pay for moving
 * it, and the bottom stays short; the order is the model's.
 */
SQ_TEST(ladder_spill_keeps_budget)
{
	enum { C = 40 * SQ_LADDER_THRES, A = SQ_LADDER_THRES };
	static struct sq_ladder_node n[1 + C + A + C / 4];
	static struct sqm m;
	const uint64_t x = (uint64_t)1 << 39;
	struct sq_ladder q;
	unsigned i, id = 0, most = 0;

	sq_ladder_init(&q);
	sqm_init(&m);
	for (i = 0; i < 1 + C + A + C / 4; i++) {
		uint64_t key = !i ? x << 1 : i <= C ? x :
			       i <= C + A ? x + (i - C) : i - C - A;

		sq_ladder_node_init(&n[id]);
		SQ_ASSERT(sq_ladder_enqueue(&q, &n[id], key) ==
			  sqm_enqueue(&m, id, key));
		id++;
		if (i == C + A) {	/* the keys above spilled, the crowd kept */
			SQ_ASSERT(q.ld_nbottom <= C + SQ_LADDER_THRES);
			SQ_ASSERT(4 * q.ld_bins >= C);
		}
		if (i > C + 2 * A)	/* a spill was tried since */
			most = q.ld_nbottom > most ? (unsigned)q.ld_nbottom
						   : most;
		SQ_ASSERT(sq_ladder_check(&q) == 0);
	}
	SQ_ASSERTF(most <= 2 * SQ_LADDER__SPILL,
		   "the bottom grew to %u nodes\n", most);
	expect_model_order(&q, n, &m, "ladder_spill_keeps_budget");
}

#if WB_SMALL
/*
 * A crowd of one key, not at its bucket's start, on the last rung with
 * every rung held (a key above the crowd keeps each): no rung to spread it
 * over, so the pile takes it, unsorted (one walk finds it is one key), and
 * feeds the bottom from there; it is never walked in its bucket again.
 */
SQ_TEST(ladder_crowd_no_rung)
{
	enum { M = 20 };
	static struct sq_ladder_node n[M + 6];
	const uint64_t x = (uint64_t)1 << 40, k = x + ((uint64_t)1 << 49) + 7;
	const uint64_t above[] = { x + ((uint64_t)1 << 53),
				   x + ((uint64_t)1 << 51),
				   (uint64_t)1 << 60 };
	struct sq_ladder q;
	unsigned i;

	sq_ladder_init(&q);
	for (i = 0; i < M + 6; i++)
		sq_ladder_node_init(&n[i]);
	sq_ladder_enqueue(&q, &n[0], 0);		/* starts the era */
	for (i = 1; i <= M; i++)			/* the crowd */
		sq_ladder_enqueue(&q, &n[i], k);
	sq_ladder_enqueue(&q, &n[M + 1], x);
	for (i = 0; i < 3; i++)
		sq_ladder_enqueue(&q, &n[M + 2 + i], above[i]);
	SQ_ASSERT(sq_ladder_pop(&q) == &n[0]);	/* epoch, rungs 0..3 */
	SQ_ASSERT_EQ(q.ld_nrungs, SQ_LADDER_RUNGS);
	SQ_ASSERT(((k - q.ld_rung[SQ_LADDER_RUNGS - 1].lr_start) &
		   (((uint64_t)1 << q.ld_rung[SQ_LADDER_RUNGS - 1].lr_shift) -
		    1)) != 0);			/* not at a bucket's start */
	SQ_ASSERT(sq_ladder_pop(&q) == &n[M + 1]);	/* x; then the crowd */
	SQ_ASSERT_EQ(q.ld_nbottom, SQ_LADDER_THRES);
	SQ_ASSERT(q.ld_pmap != 0 && q.ld_pcur == k);	/* in the pile */
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	for (i = 1; i <= M; i++) {
		SQ_ASSERT(sq_ladder_pop(&q) == &n[i]);
		SQ_ASSERT(sq_ladder_check(&q) == 0);
	}
	SQ_ASSERT(sq_ladder_pop(&q) == &n[M + 3]);	/* x + 2^51 */
	SQ_ASSERT(sq_ladder_pop(&q) == &n[M + 2]);	/* x + 2^53 */
	SQ_ASSERT(sq_ladder_pop(&q) == &n[M + 4]);	/* 2^60 */
	SQ_ASSERT(sq_ladder_empty(&q));
}
#endif

/* dequeue from the top, a bucket and the bottom; what it returns */
SQ_TEST(ladder_dequeue_each_tier)
{
	static struct sq_ladder_node n[100];
	struct sq_ladder q;
	unsigned i, r;
	struct sq_ladder_node *x;

	sq_ladder_init(&q);
	for (i = 0; i < 100; i++) {
		sq_ladder_node_init(&n[i]);
		sq_ladder_enqueue(&q, &n[i], (uint64_t)i * 100);
	}
	SQ_ASSERT(sq_ladder_pop(&q) == &n[0]);		/* epoch */
	sq_ladder_node_init(&n[0]);
	SQ_ASSERT(!sq_ladder_enqueue(&q, &n[0], 1000000));	/* top */
	SQ_ASSERT(sq_ladder__in_top(&q, n[0].ld_home));
	SQ_ASSERT(!sq_ladder__in_top(&q, n[99].ld_home) && n[99].ld_home !=
		  &q.ld_bottom);				/* a bucket */
	SQ_ASSERT(n[1].ld_home == &q.ld_bottom);
	SQ_ASSERT(!sq_ladder_dequeue(&q, &n[0]));
	SQ_ASSERT(q.ld_ntop == 0);
	SQ_ASSERT(!sq_ladder_dequeue(&q, &n[99]));
	SQ_ASSERT(!sq_ladder_dequeue(&q, &n[2]));
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	/* the first, and the whole bottom one by one: refills each time */
	for (i = 1; i < 99; i++) {
		if (i == 2)
			continue;
		r = q.ld_nrungs;
		SQ_ASSERT(sq_ladder_first(&q) == &n[i]);
		SQ_ASSERT(sq_ladder_dequeue(&q, &n[i]));
		SQ_ASSERT(sq_ladder_check(&q) == 0);
		(void)r;
	}
	SQ_ASSERT(sq_ladder_empty(&q));
	SQ_ASSERT_EQ(q.ld_nrungs, 0);
	x = sq_ladder_pop(&q);
	SQ_ASSERT(x == NULL);
}

#if WB_SMALL
/* flip bucket bit @b and keep the summary word in step (damage) */
static void flip_bit(struct sq_ladder *q, unsigned b)
{
	q->ld_map[b / 64] ^= (uint64_t)1 << (b % 64);
	if (q->ld_map[b / 64])
		q->ld_summary |= (uint64_t)1 << (b / 64);
	else
		q->ld_summary &= ~((uint64_t)1 << (b / 64));
}

/* check() must notice each kind of damage; undo it and it passes again. */
SQ_TEST(ladder_check_catches)
{
	static struct sq_ladder_node n[200];
	struct sq_ladder q;
	struct sq_ladder_node *b0, *b1, *bt, *bk = NULL, *tp;
	struct sq_ladder__list *home;
	struct sq_ladder__rung *g;
	uint64_t k, save;
	size_t cnt;
	unsigned i, b, nr;

	sq_ladder_init(&q);
	for (i = 0; i < 150; i++) {
		sq_ladder_node_init(&n[i]);
		sq_ladder_enqueue(&q, &n[i], (uint64_t)(i * 7919u % 151u));
	}
	SQ_ASSERT(sq_ladder_pop(&q) != NULL);		/* rungs now */
	for (i = 150; i < 160; i++) {
		sq_ladder_node_init(&n[i]);
		sq_ladder_enqueue(&q, &n[i], 1000 + i);	/* the top */
	}
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	nr = q.ld_nrungs;
	SQ_ASSERT(nr >= 1 && nr < SQ_LADDER_RUNGS);
	SQ_ASSERT(q.ld_ntop == 10 && q.ld_nbottom >= 3);
	b0 = q.ld_bottom.ll_first;
	b1 = b0->ld_next;
	bt = q.ld_bottom.ll_last;
	tp = top_head(&q);
	for (i = 0; i < 160 && !bk; i++)
		if (sq_ladder_queued(&n[i]) &&
		    !sq_ladder__in_top(&q, n[i].ld_home) &&
		    n[i].ld_home != &q.ld_bottom)
			bk = &n[i];
	SQ_ASSERT(bk != NULL);
	b = (unsigned)(bk->ld_home - q.ld_bk);
	g = &q.ld_rung[nr - 1];
	fprintf(stderr, "(check failures printed below are expected)\n");

	cnt = q.ld_count;				/* the count */
	q.ld_count = cnt + 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_count = cnt - 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_count = cnt;
	cnt = q.ld_ntop;				/* the top's count */
	q.ld_ntop = cnt - 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_ntop = cnt;
	cnt = q.ld_nbottom;				/* the bottom's */
	q.ld_nbottom = cnt + 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_nbottom = cnt;
	SQ_ASSERT(sq_ladder_check(&q) == 0);

	k = b0->key;				/* the bottom out of order */
	b0->key = b1->key + 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	b0->key = k;
	k = bt->key;			/* a bottom key in the rungs' range */
	bt->key = g->lr_cur + 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	bt->key = g->lr_cur;		/* one fed node: allowed */
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	bt->key = k;
	SQ_ASSERT(sq_ladder_check(&q) == 0);
	SQ_ASSERT(sq_ladder_check(&q) == 0);

	home = b1->ld_home;			/* links and homes */
	b1->ld_home = &q.ld_top[0];
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	b1->ld_home = home;
	b1->ld_prev = b1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	b1->ld_prev = b0;
	q.ld_bottom.ll_last = b0;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_bottom.ll_last = bt;
	home = bk->ld_home;
	bk->ld_home = &q.ld_bk[b ^ 1];
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	bk->ld_home = home;
	SQ_ASSERT(sq_ladder_check(&q) == 0);

	k = bk->key;			/* a node in the wrong bucket */
	save = (bk->key - q.ld_rung[0].lr_start) >> q.ld_rung[0].lr_shift;
	SQ_ASSERT(home >= &q.ld_bk[0] && home < &q.ld_bk[SQ_LADDER_BUCKETS]);
	bk->key = k + ((uint64_t)1 << q.ld_rung[0].lr_shift);
	SQ_ASSERT(bk->key <= q.ld_toplim);
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	bk->key = k;
	(void)save;

	flip_bit(&q, b);			/* bitmap and summary */
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	flip_bit(&q, b);
	q.ld_summary ^= (uint64_t)1 << (SQ_LADDER__WORDS - 1);
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_summary ^= (uint64_t)1 << (SQ_LADDER__WORDS - 1);
	flip_bit(&q, sq_ladder__base(nr));	/* a rung not in use */
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	flip_bit(&q, sq_ladder__base(nr));
	SQ_ASSERT(sq_ladder_check(&q) == 0);

	k = tp->key;				/* the top's range */
	tp->key = q.ld_toplim;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	for (save = q.ld_tmin; save <= q.ld_tmax; save++)	/* its list */
		if (sq_ladder__top_of(save) != sq_ladder__top_of(k))
			break;
	SQ_ASSERT(save <= q.ld_tmax);
	tp->key = save;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	tp->key = k;
	save = q.ld_toplim;			/* rung 0's end */
	q.ld_toplim = save - 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_toplim = save;
	save = q.ld_tmax;
	q.ld_tmax = q.ld_tmin - 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_tmax = save;
	SQ_ASSERT(sq_ladder_check(&q) == 0);

	save = g->lr_cur;			/* a rung's cur */
	g->lr_cur = g->lr_start + g->lr_span + 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	g->lr_cur = save;
	save = q.ld_rung[0].lr_span;		/* a rung's extent */
	q.ld_rung[0].lr_span = save + 1;
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_rung[0].lr_span = save;
	q.ld_nrungs = SQ_LADDER_RUNGS + 1;	/* the rung count */
	SQ_ASSERT(sq_ladder_check(&q) == -1);
	q.ld_nrungs = nr;

	SQ_ASSERT(sq_ladder_check(&q) == 0);
	fprintf(stderr, "(end of expected check failures)\n");
	while (sq_ladder_pop(&q))
		SQ_ASSERT(sq_ladder_check(&q) == 0);
}
#endif


#if !WB_SMALL
/* ---- bounded cost: steps per operation at N and 8N ---------------------- */

/*
 * Each pattern runs on n nodes and returns its operations; wb_steps counts
 * the loop iterations they took (SQ__STEP).  O(1) amortised means the
 * steps per operation do not grow with n: at 8N at most 1.5 times those at
 * N (a floor of one step per operation, so a near-free pattern passes).
 */
#define COST_N 2000u
static struct sq_ladder_node cost_nd[8 * COST_N];

typedef unsigned long (*cost_pattern)(struct sq_ladder *q, unsigned n);

/* pop everything, checking the order; the pops it made */
static unsigned long cost_drain(struct sq_ladder *q)
{
	struct sq_ladder_node *x;
	unsigned long ops = 0;
	uint64_t last = 0;

	while ((x = sq_ladder_pop(q)) != NULL) {
		SQ_ASSERT(x->key >= last);
		last = x->key;
		ops++;
	}
	return ops;
}

static void cost_init(struct sq_ladder *q, unsigned n)
{
	unsigned i;

	sq_ladder_init(q);
	for (i = 0; i < n; i++)
		sq_ladder_node_init(&cost_nd[i]);
}

/* every key equal: fill, a hold loop, drain */
static unsigned long cost_all_equal(struct sq_ladder *q, unsigned n)
{
	unsigned i;
	struct sq_ladder_node *x;

	for (i = 0; i < n; i++)
		sq_ladder_enqueue(q, &cost_nd[i], 42);
	for (i = 0; i < n; i++) {
		x = sq_ladder_pop(q);
		sq_ladder_enqueue(q, x, 42);
	}
	return 3ul * n + cost_drain(q);
}

/* a sawtooth: runs of rising keys that fall back, with pops between */
static unsigned long cost_sawtooth(struct sq_ladder *q, unsigned n)
{
	unsigned i;
	struct sq_ladder_node *x;

	for (i = 0; i < n; i++)
		sq_ladder_enqueue(q, &cost_nd[i], 1000 + (i % 97) * 10);
	for (i = 0; i < n; i++) {
		x = sq_ladder_pop(q);
		sq_ladder_enqueue(q, x, x->key + (i % 97) * 10);
	}
	return 3ul * n + cost_drain(q);
}

/* monotone: rising keys, then falling keys, each a new extreme */
static unsigned long cost_monotone(struct sq_ladder *q, unsigned n)
{
	unsigned i;
	unsigned long ops;

	for (i = 0; i < n / 2; i++)
		sq_ladder_enqueue(q, &cost_nd[i], 1000000 + (uint64_t)i * 3);
	ops = n / 2 + cost_drain(q);
	for (i = n / 2; i < n; i++)
		sq_ladder_enqueue(q, &cost_nd[i], 1000000 - (uint64_t)i * 3);
	return ops + (n - n / 2) + cost_drain(q);
}

/* crowds of one key in every tier (top, rungs, bottom), each passed by
 * enqueues of other keys and a hold loop.  The other keys are a fixed 512
 * (buckets of up to THRES nodes are sorted, at a cost that grows with
 * their size up to THRES: bounded, but not flat while it grows) */
static unsigned long cost_crowds(struct sq_ladder *q, unsigned n)
{
	unsigned i;
	uint64_t s = 0xc40d5u;
	struct sq_ladder_node *x;

	sq_ladder_enqueue(q, &cost_nd[0], 0);
	for (i = 1; i < n; i++)		/* four crowds, the rest spread */
		sq_ladder_enqueue(q, &cost_nd[i],
				  i % 8 || i >= 8 * 512 ?
					  ((uint64_t)(i % 4) + 1) << 30 :
					  rng_below(&s, 1u << 30) * 4u);
	sq_ladder_pop(q);		/* the epoch */
	for (i = 0; i < n; i++) {	/* a hold loop through the crowds */
		x = sq_ladder_pop(q);
		sq_ladder_enqueue(q, x, x->key + (i % 3 ? 0 : rng_below(&s,
							1u << 20)));
	}
	return 2ul * n + cost_drain(q);
}

/* requeue to the same key: each node in turn, bottom, rung and top */
static unsigned long cost_requeue_same(struct sq_ladder *q, unsigned n)
{
	unsigned i;
	uint64_t s = 0x5a3eu;
	struct sq_ladder_node *x;

	for (i = 0; i < n; i++)
		sq_ladder_enqueue(q, &cost_nd[i], rng_below(&s, 1u << 24));
	x = sq_ladder_pop(q);		/* the epoch; x back to the bottom */
	sq_ladder_enqueue(q, x, x->key);
	for (i = 0; i < 4 * n; i++)
		if (sq_ladder_queued(&cost_nd[i % n]))
			sq_ladder_requeue(q, &cost_nd[i % n],
					  cost_nd[i % n].key);
	return 4ul * n + n + cost_drain(q);
}

/* the first node of each tier dequeued and enqueued again, over and over */
static unsigned long cost_first_of_tiers(struct sq_ladder *q, unsigned n)
{
	unsigned i, b;
	uint64_t s = 0xf1e5u, k;
	struct sq_ladder_node *x;
	unsigned long ops = 0;
	long w;

	for (i = 0; i < n; i++)
		sq_ladder_enqueue(q, &cost_nd[i], rng_below(&s, 1u << 24));
	x = sq_ladder_pop(q);		/* the epoch; x to the top */
	sq_ladder_enqueue(q, x, (uint64_t)1 << 30);
	for (i = 0; i < n; i++) {
		x = NULL;
		if (i % 3 == 0) {
			x = top_head(q);
		} else if (i % 3 == 1 && q->ld_nrungs) {
			b = q->ld_nrungs - 1;
			w = sq_ladder__rung_first(q, b);
			x = w < 0 ? NULL : q->ld_bk[w].ll_first;
		}
		if (!x)
			x = sq_ladder_first(q);
		if (!x)
			break;
		k = x->key;
		sq_ladder_dequeue(q, x);
		sq_ladder_enqueue(q, x, k);
		ops += 2;
	}
	return ops + cost_drain(q);
}

/* steps per operation of @pat on @n nodes */
static double cost_per_op(cost_pattern pat, unsigned n)
{
	struct sq_ladder q;
	unsigned long ops;

	cost_init(&q, n);
	wb_steps = 0;
	ops = pat(&q, n);
	SQ_ASSERT(sq_ladder_empty(&q));
	return (double)wb_steps / (double)(ops ? ops : 1);
}

static bool cost_flat(const char *name, cost_pattern pat)
{
	double a = cost_per_op(pat, COST_N), b = cost_per_op(pat, 8 * COST_N);

	printf("  %-26s %6.2f steps/op at %u, %6.2f at %u\n", name, a,
	       COST_N, b, 8 * COST_N);
	return b <= 1.5 * (a > 1.0 ? a : 1.0);
}

SQ_TEST(ladder_cost_flat)
{
	unsigned bad = 0;

	/* every pattern runs and prints; then those that grew fail */
	bad += !cost_flat("every key equal", cost_all_equal);
	bad += !cost_flat("sawtooth", cost_sawtooth);
	bad += !cost_flat("monotone", cost_monotone);
	bad += !cost_flat("crowds in every tier", cost_crowds);
	bad += !cost_flat("requeue to the same key", cost_requeue_same);
	bad += !cost_flat("first of each tier", cost_first_of_tiers);
	SQ_ASSERTF(bad == 0, "%u patterns cost more per operation at 8N "
		   "than 1.5 times their cost at N\n", bad);
}
#endif


#ifdef SQ_DEBUG
/* ---- a node of another queue, caught in O(1) from its home list --------- */

static struct sq_ladder oq1, oq2;
static struct sq_ladder_node on[120];

/* oq1: bottom, rungs and top; oq2 the same shape */
static void other_setup(void)
{
	unsigned i;

	sq_ladder_init(&oq1);
	sq_ladder_init(&oq2);
	for (i = 0; i < 120; i++) {
		sq_ladder_node_init(&on[i]);
		sq_ladder_enqueue(i < 60 ? &oq1 : &oq2, &on[i],
				  (uint64_t)(i % 60) * 100);
	}
	sq_ladder_pop(&oq1);			/* the epochs */
	sq_ladder_pop(&oq2);
	sq_ladder_enqueue(&oq1, &on[0], 1000000);	/* the top */
}

static void dequeue_bottom_other(void)
{
	other_setup();
	sq_ladder_dequeue(&oq2, &on[1]);	/* oq1's first */
}

static void dequeue_bucket_other(void)
{
	other_setup();
	sq_ladder_dequeue(&oq2, &on[59]);	/* in one of oq1's rungs */
}

static void dequeue_top_other(void)
{
	other_setup();
	sq_ladder_dequeue(&oq2, &on[0]);	/* oq1's top */
}

static void requeue_other(void)
{
	other_setup();
	sq_ladder_requeue(&oq1, &on[61], 5);	/* oq2's */
}

SQ_TEST(ladder_other_queue_caught)
{
	other_setup();
	SQ_ASSERT(on[1].ld_home == &oq1.ld_bottom);
	SQ_ASSERT(sq_ladder__in_top(&oq1, on[0].ld_home));
	SQ_ASSERT(on[59].ld_home != &oq1.ld_bottom &&
		  !sq_ladder__in_top(&oq1, on[59].ld_home));
	child_expect_abort(dequeue_bottom_other,
			   "sq_ladder_dequeue: node is on another queue\n",
			   "dequeue of the other queue's first node");
	child_expect_abort(dequeue_bucket_other,
			   "sq_ladder_dequeue: node is on another queue\n",
			   "dequeue of a node in the other queue's rungs");
	child_expect_abort(dequeue_top_other,
			   "sq_ladder_dequeue: node is on another queue\n",
			   "dequeue of a node in the other queue's top");
	child_expect_abort(requeue_other,
			   "sq_ladder_requeue: node is on another queue\n",
			   "requeue of the other queue's node");
}
#endif

static const sq_test_entry tests[] = {
	SQ_T(ladder_empty),
	SQ_T(ladder_random_small),
	SQ_T(ladder_hold_large),
	SQ_T(ladder_fifo_equal_keys),
	SQ_T(ladder_edge_keys),
	SQ_T(ladder_epoch_crossing),
	SQ_T(ladder_dequeue_each_tier),
	SQ_T(ladder_crowd_fed),
	SQ_T(ladder_spill_reuse),
	SQ_T(ladder_spill_keeps_budget),
#if !WB_SMALL
	SQ_T(ladder_cost_flat),
#endif
#ifdef SQ_DEBUG
	SQ_T(ladder_other_queue_caught),
#endif
#if WB_SMALL	/* shapes built by hand for the small ladder */
	SQ_T(ladder_rungs_run_out),
	SQ_T(ladder_check_catches_pile),
	SQ_T(ladder_crowd_no_rung),
	SQ_T(ladder_check_catches),
#endif
};

SQ_TEST_MAIN("wb_ladder", tests)
