/* SPDX-License-Identifier: MIT */
/*
 * bench/test-peers.c - the streaming peers (peers-stream.h) against a
 * model
 *
 * A randomized differential test: every operation the harness uses
 * (enqueue, dequeue, requeue, pop, pop_due, first, queued, count, and
 * the wheel's expire), mixed,
 * on the radix heap, the 4-ary heap and the timing wheel, against a
 * plain array ordered by (key, sequence number), checking each answer
 * and, in the small phase, check() after every step.  Keys are monotone
 * (never below the last popped), the peers' one precondition; the
 * increments are drawn from small (ties), wide and near-2^64 ranges.
 * The wheel runs at granularity 1 (where it must equal the model) and
 * 2^5 (where each pop must lie within 32 of the least key).
 *
 *	test-peers [SEED [STEPS]]
 *
 * On a failure it prints the seed, the step and what differed, exits 1.
 */
#define _GNU_SOURCE		/* tsearch's twalk VISIT, in peers.h */
#include <inttypes.h>
#include <string.h>

#include "bench.h"
#include "smartq/common.h"	/* peers.h uses its bit helpers */
#include "peers.h"
#include "peers-stream.h"

#define T_NODES 512

struct bq_state bq;		/* bench.h declares it; unused here */

static uint64_t t_seed, t_rng;
static size_t t_step;
static const char *t_who;

static uint64_t t_random(void)	/* splitmix64 */
{
	uint64_t z = (t_rng += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void t_fail(const char *what)
{
	printf("test-peers: FAIL: %s, seed %" PRIu64 ", step %zu: %s "
	       "(rerun: test-peers %" PRIu64 ")\n", t_who, t_seed, t_step,
	       what, t_seed);
	exit(1);
}

/* The model: each node's key, sequence number and whether it is queued. */
struct t_model {
	uint64_t key[T_NODES], seq[T_NODES], next_seq, last;
	bool queued[T_NODES];
	size_t count;
};

static long t_model_first(const struct t_model *m)
{
	long best = -1;
	size_t i;

	for (i = 0; i < T_NODES; i++)
		if (m->queued[i] && (best < 0 || m->key[i] < m->key[best] ||
				     (m->key[i] == m->key[best] &&
				      m->seq[i] < m->seq[best])))
			best = (long)i;
	return best;
}

static void t_model_add(struct t_model *m, size_t i, uint64_t key)
{
	m->key[i] = key;
	m->seq[i] = m->next_seq++;
	m->queued[i] = true;
	m->count++;
}

/* A key for the next enqueue: never below the last popped. */
static uint64_t t_key(const struct t_model *m, unsigned range)
{
	uint64_t r = t_random(), room = UINT64_MAX - m->last;
	uint64_t inc = range == 0 ? r % 4u
		     : range == 1 ? r % 100000u
		     : range == 2 ? r >> (r % 64u)
		     : r;

	return inc > room ? m->last + (t_random() % (room + 1)) : m->last + inc;
}

#define T_EPOCH 50000u

/* Pop everything, in the model's order (to the granularity). */
#define T_DRAIN(P)							\
	do {								\
		struct sq_peer_##P##_node *d;				\
		long w;							\
									\
		while ((w = t_model_first(&m)) >= 0) {			\
			d = sq_peer_##P##_pop(&q);			\
			if (!d || !m.queued[d - node] ||		\
			    (g ? d->key - m.key[w] >= gran : d != &node[w])) \
				t_fail("the drain's pop is not the "	\
				       "model's first");		\
			m.queued[d - node] = false;			\
			m.count--;					\
		}							\
		if (sq_peer_##P##_pop(&q) || sq_peer_##P##_check(&q) != 0 || \
		    !sq_peer_##P##_empty(&q))				\
			t_fail("the drained queue is not empty and sound"); \
	} while (0)

/*
 * One peer P, G the log2 of the granularity it is held to (0: exact, so
 * every answer must be the model's; else each pop within 2^G of the
 * least key).
 */
#define T_PEER(P, INIT)							\
static void t_##P(unsigned g, size_t steps, size_t small)		\
{									\
	static struct sq_peer_##P q;					\
	static struct sq_peer_##P##_node node[T_NODES];		\
	static struct t_model m;					\
	uint64_t gran = (uint64_t)1 << g;				\
	unsigned range = 0;						\
	size_t i;							\
									\
	for (t_step = 0; t_step < steps; t_step++) {			\
		uint64_t r = t_random(), key;				\
		size_t k = (size_t)(r >> 32) % T_NODES;			\
		long f;							\
		struct sq_peer_##P##_node *n, *first;			\
		bool ans, want;						\
									\
		if (t_step % T_EPOCH == 0) {	/* a new queue */	\
			if (t_step)					\
				T_DRAIN(P);				\
			memset(&m, 0, sizeof(m));			\
			INIT;						\
			for (i = 0; i < T_NODES; i++)			\
				sq_peer_##P##_node_init(&node[i]);	\
			/* every other epoch near the top of the keys */ \
			if (t_step / T_EPOCH % 2)			\
				m.last = UINT64_MAX - (t_random() >> 24); \
		}							\
		if (t_step % 4096 == 0)					\
			range = (unsigned)(t_random() % 4u);		\
		f = t_model_first(&m);					\
		first = sq_peer_##P##_first(&q);			\
		if ((f < 0) != (first == NULL))				\
			t_fail("first() empty and the model not, or "	\
			       "the other way");			\
		if (f >= 0 && (g ? first->key - m.key[f] >= gran	\
				 : first != &node[f]))			\
			t_fail("first() is not the model's first");	\
		switch (r % 8u) {					\
		case 0: case 1:	/* enqueue an idle node */		\
			if (m.queued[k])				\
				break;					\
			key = t_key(&m, range);				\
			ans = sq_peer_##P##_enqueue(&q, &node[k], key);	\
			t_model_add(&m, k, key);			\
			if (!g && ans != (t_model_first(&m) == (long)k))	\
				t_fail("enqueue's 'now first' is wrong");	\
			break;						\
		case 2:		/* cancel */				\
			if (!m.queued[k])				\
				break;					\
			ans = sq_peer_##P##_dequeue(&q, &node[k]);	\
			m.queued[k] = false;				\
			m.count--;					\
			if (!g && ans != (f == (long)k))		\
				t_fail("dequeue's 'was first' is wrong");	\
			break;						\
		case 3: case 4:	/* re-arm, armed or idle */		\
			key = t_key(&m, range);				\
			ans = sq_peer_##P##_requeue(&q, &node[k], key);	\
			want = m.queued[k] && f == (long)k; /* was first */ \
			if (m.queued[k]) {				\
				m.queued[k] = false;			\
				m.count--;				\
			}						\
			r = m.key[k];	/* the old key */		\
			t_model_add(&m, k, key);			\
			if (t_model_first(&m) == (long)k)		\
				want = !want || r != key;		\
			if (!g && ans != want)				\
				t_fail("requeue's answer is wrong");	\
			break;						\
		case 5: case 6:	/* pop */				\
			n = sq_peer_##P##_pop(&q);			\
			if ((n == NULL) != (f < 0))			\
				t_fail("pop() empty and the model not, " \
				       "or the other way");		\
			if (!n)						\
				break;					\
			i = (size_t)(n - node);				\
			if (!m.queued[i] || sq_peer_##P##_queued(n))	\
				t_fail("pop() returned a node not "	\
				       "queued, or left it queued");	\
			if (g ? n->key - m.key[f] >= gran : i != (size_t)f) \
				t_fail("pop() is not the model's first");	\
			m.queued[i] = false;				\
			m.count--;					\
			m.last = n->key > m.last ? n->key : m.last;	\
			break;						\
		default:	/* expire what is due by a clock */	\
			key = f < 0 ? m.last : m.key[f] + (r % 3u);	\
			while ((n = sq_peer_##P##_pop_due(&q, key))) {	\
				i = (size_t)(n - node);			\
				if (!m.queued[i] || n->key > key)	\
					t_fail("pop_due() popped a node " \
					       "not queued or not due");	\
				if (!g && (long)i != t_model_first(&m))	\
					t_fail("pop_due() is not the "	\
					       "model's first");	\
				m.queued[i] = false;			\
				m.count--;				\
				m.last = n->key > m.last ? n->key : m.last; \
			}						\
			f = t_model_first(&m);				\
			if (f >= 0 && m.key[f] <= key &&		\
			    key - m.key[f] >= (g ? gran : 0))		\
				t_fail("pop_due() left a due node");	\
			break;						\
		}							\
		if (sq_peer_##P##_count(&q) != m.count ||		\
		    sq_peer_##P##_empty(&q) != (m.count == 0) ||	\
		    sq_peer_##P##_queued(&node[k]) != m.queued[k])	\
			t_fail("count(), empty() or queued() is wrong");	\
		if ((t_step < small || t_step % 997 == 0) &&		\
		    sq_peer_##P##_check(&q) != 0)			\
			t_fail("check() failed");			\
	}								\
	T_DRAIN(P);							\
}

T_PEER(radix, sq_peer_radix_init(&q))
T_PEER(heap4, sq_peer_heap4_init(&q))
T_PEER(wheel, sq_peer_wheel_init_geom(&q, g))

/*
 * The wheel's expire (the harness's timer mixes fire a tick at once with
 * it): random keys, then expiries by a clock; each expiry must fire
 * exactly the nodes with keys <= now, in order of tick (of key at
 * granularity 1, equal keys FIFO), each idle when fired; now and then
 * the callback re-arms its node past now, which must not fire again.
 */
struct t_fire {
	struct sq_peer_wheel *q;
	struct sq_peer_wheel_node *node;
	struct t_model *m;
	uint64_t now, prev;
	unsigned g;
	size_t fired;
};

static void t_fired(struct sq_peer_wheel_node *n, void *arg)
{
	struct t_fire *e = (struct t_fire *)arg;
	size_t i = (size_t)(n - e->node);
	long f = t_model_first(e->m);

	if (!e->m->queued[i] || sq_peer_wheel_queued(n) || n->key > e->now)
		t_fail("expire() fired a node not queued, queued or not due");
	if (e->g ? (n->key >> e->g) < (e->prev >> e->g) : f != (long)i)
		t_fail("expire() fired out of order");
	e->prev = n->key;
	e->m->queued[i] = false;
	e->m->count--;
	e->fired++;
	if (t_random() % 4u == 0) {	/* a period, past now */
		uint64_t key = e->now + 1 + t_random() % 5000u;

		(void)sq_peer_wheel_enqueue(e->q, n, key);
		t_model_add(e->m, i, key);
	}
}

static void t_wheel_expire(unsigned g, size_t rounds)
{
	static struct sq_peer_wheel q;
	static struct sq_peer_wheel_node node[T_NODES];
	static struct t_model m;
	struct t_fire e;
	size_t i, r, due;

	memset(&m, 0, sizeof(m));
	sq_peer_wheel_init_geom(&q, g);
	for (i = 0; i < T_NODES; i++) {
		uint64_t key = t_random() % 100000u;

		sq_peer_wheel_node_init(&node[i]);
		(void)sq_peer_wheel_enqueue(&q, &node[i], key);
		t_model_add(&m, i, key);
	}
	for (t_step = 0, r = 0; r < rounds; r++, t_step++) {
		e.q = &q;
		e.node = node;
		e.m = &m;
		e.g = g;
		e.prev = 0;
		e.fired = 0;
		e.now = m.last + t_random() % 3000u;
		for (due = 0, i = 0; i < T_NODES; i++)
			due += m.queued[i] && m.key[i] <= e.now;
		if (sq_peer_wheel_expire(&q, e.now, t_fired, &e) != e.fired ||
		    e.fired != due)
			t_fail("expire() did not fire what was due");
		m.last = e.now;
		if (sq_peer_wheel_count(&q) != m.count)
			t_fail("count() after expire()");
		if (sq_peer_wheel_check(&q) != 0)
			t_fail("check() after expire()");
		for (i = 0; i < T_NODES; i++)	/* idle ones armed again */
			if (!m.queued[i] && t_random() % 2u) {
				uint64_t key = m.last + t_random() % 100000u;

				(void)sq_peer_wheel_enqueue(&q, &node[i], key);
				t_model_add(&m, i, key);
			}
	}
}

int main(int argc, char **argv)
{
	size_t steps = argc > 2 ? (size_t)strtoull(argv[2], NULL, 0) : 400000;
	unsigned g;

	t_seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 46;
	t_rng = t_seed;
	t_who = "radix";
	t_radix(0, steps, 20000);
	t_rng = t_seed;
	t_who = "heap4";
	t_heap4(0, steps, 20000);
	for (g = 0; g <= 5; g += 5) {
		t_rng = t_seed;
		t_who = g ? "wheel (granularity 32)" : "wheel";
		t_wheel(g, steps, 20000);
		t_wheel_expire(g, steps / 400);
	}
	printf("test-peers: radix, heap4, wheel agree with the model "
	       "(seed %" PRIu64 ", %zu steps each)\n", t_seed, steps);
	return 0;
}
