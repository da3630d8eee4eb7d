/* SPDX-License-Identifier: MIT */
/*
 * fuzz.c - differential fuzz target: every backend against the model
 *
 * One input is a little program.  Every operation in it is applied to all
 * queues of SQ_KINDS, and to a tie kind (SQ_TIE) of each backend of
 * SQ_TIE_KINDS, at once, and every answer is compared with the reference
 * model (tests/model.h):
 *
 *   - the exact backends must agree with the model exactly (same node, same
 *     key, same return values), hence with each other; the tie kinds, which
 *     order equal keys by the item's prio (three classes), with a model that
 *     orders them so;
 *   - the ring is held to the contract's rule (sqm_tring_pop_ok: late keys
 *     first and FIFO, otherwise a key below the smallest key plus Tg), and
 *     to the exact order while the ring's granularity is 1 and no key has
 *     left its window;
 *   - after every operation check() == 0, count/empty/first agree, and the
 *     nodes touched report queued() and key correctly (all nodes every
 *     FZ_SWEEP operations and at the end).
 *
 * The plain exact queues share one model, the tie kinds another, and the
 * ring has its own: a pop may take a different node on each side, and the
 * memberships then differ.  An
 * operation that names "a queued node" picks it separately on each side.
 *
 * Input format (bytes past the end read as 0, so every input is valid):
 *
 *   byte 0        gran_shift = byte % (FZ_MAX_SHIFT + 1)
 *   byte 1        base time class: 0 -> 0, 1 -> u16, 2 -> UINT64_MAX - u16,
 *                 3 -> u64 (the value bytes follow), then u16 << gran_shift
 *                 for 4, and UINT64_MAX - horizon + u16 for 5.
 *   then ops      op byte, then its operands (see fz_step)
 *
 * Keys are drawn by a mode byte (see fz_key): 0, near UINT64_MAX, equal to
 * a queued key, the last key again, near the ring's time, across the
 * window, far past the horizon, below the ring's time (late), raw.
 *
 * Built two ways from this one file:
 *   - with libFuzzer (make fuzz): LLVMFuzzerTestOneInput is the entry;
 *   - without (FZ_STANDALONE, make test): a main() that feeds every file
 *     of tests/fuzz/corpus/ and tests/fuzz/crashes/ (or the files and
 *     directories named on the command line) through the same entry.
 *
 * A failed comparison prints the operation number, what differed, and
 * aborts, so libFuzzer saves the input and the regression runner fails.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smartq.h"

#define FZ_NODES   256u		/* node pool: ids 0 .. FZ_NODES - 1 */
#define FZ_MAX_OPS 2048u	/* operations per input, at most */
#define FZ_SWEEP   32u		/* full queued()/key sweep every N ops */
#define FZ_MAX_SHIFT 63u	/* granularity shifts tried: 0 .. 63 */

#define SQM_CAP FZ_NODES
#include "../model.h"

/* every backend's node and queue, named by its token (SQ_KINDS), and
 * a tie kind of each backend of SQ_TIE_KINDS, ordered among equal keys
 * by the item's prio (fz_tie_rb, ...) */
/* NOLINTBEGIN(bugprone-macro-parentheses): K is a member's name */
#define FZ_NODE(K, exact) SQ_NODE(K) K;
#define FZ_QUEUE(K, exact) SQ_QUEUE(K) K;
#define FZ_TIE_KIND(B) SQ_TIE(B, fz_tie_##B, fz_tie_##B##_less);
#define FZ_TIE_NODE(B) FZ_NODE(fz_tie_##B, 1)
#define FZ_TIE_QUEUE(B) FZ_QUEUE(fz_tie_##B, 1)
/* NOLINTEND(bugprone-macro-parentheses) */
SQ_TIE_KINDS(FZ_TIE_KIND)

struct fz_item {
	SQ_KINDS(FZ_NODE)
	SQ_TIE_KINDS(FZ_TIE_NODE)
	unsigned id;
	unsigned prio;		/* the tie kinds' order among equal keys */
};

#define FZ_TIE_LESS(B)							\
	static bool fz_tie_##B##_less(const SQ_NODE(fz_tie_##B) *a,	\
				      const SQ_NODE(fz_tie_##B) *b)	\
	{								\
		return sq_entry_const(a, struct fz_item, fz_tie_##B)->prio < \
		       sq_entry_const(b, struct fz_item, fz_tie_##B)->prio; \
	}
SQ_TIE_KINDS(FZ_TIE_LESS)

static struct fz_state {
	SQ_KINDS(FZ_QUEUE)
	SQ_TIE_KINDS(FZ_TIE_QUEUE)
	struct sqm exact;		/* the model of the exact backends */
	struct sqm tie;			/* the model of the tie kinds */
	struct sqm ring;		/* the model of the ring */
	uint64_t ring_time;		/* the ring's time, per the model */
	unsigned shift;			/* the ring's granularity shift */
	uint64_t horizon;		/* SQ_TRING_SLOTS << shift, saturated */
	bool ring_exact;		/* Tg == 1 and every key stayed in the window */
	uint64_t last_key;
	unsigned op;			/* operation number, for messages */
	const char *opname;
	const uint8_t *p, *end;
	struct fz_item item[FZ_NODES];
} S;

static const char *fz_input_name = "(libFuzzer input)";
static bool fz_trace;		/* regression runner: FZ_TRACE=1 in the env */

/* with FZ_TRACE set, the exact side's operations as C-like lines */
#define FZ_TRACE(...)					\
	do {						\
		if (fz_trace)				\
			fprintf(stderr, __VA_ARGS__);	\
	} while (0)

#if defined(__GNUC__) || defined(__clang__)
#define FZ_NORETURN __attribute__((noreturn, format(printf, 1, 2)))
#else
#define FZ_NORETURN
#endif

static void fz_fail(const char *fmt, ...) FZ_NORETURN;

static void fz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz: %s: op %u (%s), shift %u, ring time %" PRIu64
		": ", fz_input_name, S.op, S.opname ? S.opname : "setup",
		S.shift, S.ring_time);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

#define FZ_REQUIRE(cond, ...)				\
	do {						\
		if (!(cond))				\
			fz_fail(__VA_ARGS__);		\
	} while (0)

/* ---- find's predicate and visit_until's stop, on ids ------------------ */

/* find looks for id % mod == rem, or with mod 0 the one id rem; the same
 * function answers for the backends and the models.  A backend's calls
 * also count any node of another key than the one asked for. */
struct fz_match {
	unsigned mod, rem;
	uint64_t key;
	unsigned long wrong_key;
};

static bool fz_match_id(unsigned id, void *arg)
{
	const struct fz_match *m = (const struct fz_match *)arg;

	return m->mod ? id % m->mod == m->rem : id == m->rem;
}

static bool fz_match_node(const struct fz_item *it, uint64_t key, void *arg)
{
	struct fz_match *m = (struct fz_match *)arg;

	m->wrong_key += key != m->key;
	return fz_match_id(it->id, m);
}

/* visit_until's function: marks the nodes it meets, stops at call @at
 * (1-based; 0 never) */
struct fz_stop {
	unsigned at, calls, twice;
	unsigned char seen[FZ_NODES];
};

static bool fz_stop_at(const struct fz_item *it, void *arg)
{
	struct fz_stop *st = (struct fz_stop *)arg;

	st->twice += st->seen[it->id]++ != 0;
	return ++st->calls == st->at;
}

/* ---- one adapter per backend, written against the macro API ----------- */

struct fz_ops {
	const char *name;
	bool (*enqueue)(struct fz_item *it, uint64_t key);
	struct fz_item *(*first)(void);
	bool (*dequeue)(struct fz_item *it);
	struct fz_item *(*pop)(void);
	struct fz_item *(*pop_due)(uint64_t now);
	bool (*requeue)(struct fz_item *it, uint64_t key);
	bool (*empty)(void);
	size_t (*count)(void);
	bool (*queued)(const struct fz_item *it);
	uint64_t (*key)(const struct fz_item *it);
	int (*check)(void);
	bool (*init_geom)(unsigned shift, uint64_t base);
	uint64_t (*time)(void);
	unsigned (*gran_shift)(void);
	struct fz_item *(*find)(uint64_t key, struct fz_match *m);
	struct fz_item *(*visit_until)(struct fz_stop *st);
	bool exact;
	bool tie;		/* a tie kind: ordered by prio among equal keys */
};

#define FZ_ADAPTER(K, exact)						\
static struct fz_item *fz_##K##_item(SQ_NODE(K) *n)			\
{									\
	return n ? sq_entry(n, struct fz_item, K) : NULL;		\
}									\
static bool fz_##K##_enqueue(struct fz_item *it, uint64_t key)		\
{									\
	return SQ_ENQUEUE(K, &S.K, &it->K, key);			\
}									\
static struct fz_item *fz_##K##_first(void)				\
{									\
	return fz_##K##_item(SQ_FIRST(K, &S.K));			\
}									\
static bool fz_##K##_dequeue(struct fz_item *it)			\
{									\
	return SQ_DEQUEUE(K, &S.K, &it->K);				\
}									\
static struct fz_item *fz_##K##_pop(void)				\
{									\
	return fz_##K##_item(SQ_POP(K, &S.K));				\
}									\
static struct fz_item *fz_##K##_pop_due(uint64_t now)			\
{									\
	return fz_##K##_item(SQ_POP_DUE(K, &S.K, now));			\
}									\
static bool fz_##K##_requeue(struct fz_item *it, uint64_t key)		\
{									\
	return SQ_REQUEUE(K, &S.K, &it->K, key);			\
}									\
static bool fz_##K##_empty(void)					\
{									\
	return SQ_EMPTY(K, &S.K);					\
}									\
static size_t fz_##K##_count(void)					\
{									\
	return SQ_COUNT(K, &S.K);					\
}									\
static bool fz_##K##_queued(const struct fz_item *it)			\
{									\
	return SQ_QUEUED(K, &it->K);					\
}									\
static uint64_t fz_##K##_key(const struct fz_item *it)			\
{									\
	return SQ_KEY(K, &it->K);					\
}									\
static int fz_##K##_check(void)						\
{									\
	return SQ_CHECK(K, &S.K);					\
}									\
static bool fz_##K##_init_geom(unsigned shift, uint64_t base)		\
{									\
	return SQ_INIT_GEOM(K, &S.K, shift, base);			\
}									\
static uint64_t fz_##K##_time(void)					\
{									\
	return SQ_TIME(K, &S.K);					\
}									\
static unsigned fz_##K##_gran_shift(void)				\
{									\
	return SQ_GRAN_SHIFT(K, &S.K);					\
}									\
static bool fz_##K##_match(const SQ_NODE(K) *n, void *arg)		\
{									\
	return fz_match_node(sq_entry_const(n, struct fz_item, K),	\
			     SQ_KEY(K, n), arg);				\
}									\
static struct fz_item *fz_##K##_find(uint64_t key, struct fz_match *m)	\
{									\
	return fz_##K##_item(SQ_FIND(K, &S.K, key,			\
				     m ? fz_##K##_match : NULL, m));	\
}									\
static bool fz_##K##_stop(SQ_NODE(K) *n, void *arg)			\
{									\
	return fz_stop_at(fz_##K##_item(n), arg);			\
}									\
static struct fz_item *fz_##K##_visit_until(struct fz_stop *st)	\
{									\
	return fz_##K##_item(SQ_VISIT_UNTIL(K, &S.K, fz_##K##_stop, st)); \
}

SQ_KINDS(FZ_ADAPTER)
#define FZ_TIE_ADAPTER(B) FZ_ADAPTER(fz_tie_##B, 1)
SQ_TIE_KINDS(FZ_TIE_ADAPTER)

#define FZ_OPS(K, exact) {							\
	#K, fz_##K##_enqueue, fz_##K##_first, fz_##K##_dequeue,		\
	fz_##K##_pop, fz_##K##_pop_due, fz_##K##_requeue, fz_##K##_empty, fz_##K##_count,	\
	fz_##K##_queued, fz_##K##_key, fz_##K##_check, fz_##K##_init_geom,	\
	fz_##K##_time, fz_##K##_gran_shift, fz_##K##_find,		\
	fz_##K##_visit_until, exact, false },
#define FZ_TIE_OPS(B) {							\
	"tie_" #B, fz_fz_tie_##B##_enqueue, fz_fz_tie_##B##_first,	\
	fz_fz_tie_##B##_dequeue, fz_fz_tie_##B##_pop,			\
	fz_fz_tie_##B##_pop_due, fz_fz_tie_##B##_requeue,		\
	fz_fz_tie_##B##_empty, fz_fz_tie_##B##_count,			\
	fz_fz_tie_##B##_queued, fz_fz_tie_##B##_key,			\
	fz_fz_tie_##B##_check, fz_fz_tie_##B##_init_geom,		\
	fz_fz_tie_##B##_time, fz_fz_tie_##B##_gran_shift,		\
	fz_fz_tie_##B##_find, fz_fz_tie_##B##_visit_until, true, true },

static const struct fz_ops fz_all[] = {
	SQ_KINDS(FZ_OPS) SQ_TIE_KINDS(FZ_TIE_OPS)
};
#define FZ_NALL (sizeof(fz_all) / sizeof(fz_all[0]))

/*
 * The exact backends in two groups, each with its model: the plain ones
 * (FIFO among equal keys) and the tie kinds (by prio, then FIFO); and the
 * one backend that is exact only to a granularity.
 */
struct fz_group {
	struct sqm *m;
	const struct fz_ops *be[FZ_NALL];
	size_t n;
	bool tie;
};
static struct fz_group fz_groups[2];
#define FZ_NGROUPS 2
static const struct fz_ops *fz_ring;

/* the order a group's model gives @id among equal keys */
static unsigned fz_tie_of(const struct fz_group *g, unsigned id)
{
	return g->tie ? S.item[id].prio : 0;
}

static void fz_sort_backends(void)
{
	size_t b;

	if (fz_groups[0].n)
		return;
	fz_groups[0].m = &S.exact;
	fz_groups[1].m = &S.tie;
	fz_groups[1].tie = true;
	for (b = 0; b < FZ_NALL; b++) {
		struct fz_group *g = &fz_groups[fz_all[b].tie];

		if (fz_all[b].exact)
			g->be[g->n++] = &fz_all[b];
		else if (!fz_ring)
			fz_ring = &fz_all[b];
		else
			fz_fail("fuzz.c drives one inexact backend, not %s too",
				fz_all[b].name);
	}
	if (!fz_ring || fz_groups[0].n < 2 || !fz_groups[1].n)
		fz_fail("fuzz.c needs the ring, two exact backends and a tie "
			"kind");
}

/* the ring's clock, through the verbs every backend has */
static void fz_ring_init(unsigned shift, uint64_t base)
{
	if (!fz_ring->init_geom(shift, base))
		fz_fail("%s: geometry %u refused", fz_ring->name, shift);
}

static uint64_t fz_ring_time(void)
{
	return fz_ring->time();
}

static unsigned fz_ring_shift(void)
{
	return fz_ring->gran_shift();
}

/* ---- reading the input ------------------------------------------------- */

static unsigned fz_u8(void)
{
	return S.p < S.end ? *S.p++ : 0u;
}

static unsigned fz_u16(void)
{
	unsigned lo = fz_u8();

	return lo | fz_u8() << 8;
}

static uint64_t fz_u64(void)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)fz_u8() << (8 * i);
	return v;
}

static uint64_t fz_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t fz_sub_sat(uint64_t a, uint64_t b)
{
	return a < b ? 0 : a - b;
}

/* is @key in the ring's window [time, time + Ns * Tg) now */
static bool fz_in_window(uint64_t key)
{
	return key >= S.ring_time && key - S.ring_time < S.horizon;
}

/* the @k-th queued (or not queued) id of model @m, counting round */
static bool fz_pick(const struct sqm *m, unsigned k, bool queued,
		    unsigned *id)
{
	size_t n = queued ? sqm_count(m) : FZ_NODES - sqm_count(m);
	unsigned i;

	if (n == 0)
		return false;
	k %= (unsigned)n;
	for (i = 0; i < FZ_NODES; i++) {
		if (sqm_queued(m, i) != queued)
			continue;
		if (k-- == 0) {
			*id = i;
			return true;
		}
	}
	fz_fail("fz_pick: model count disagrees with its ids");
}

static uint64_t fz_key(void)
{
	unsigned mode = fz_u8(), id;
	uint64_t key;

	switch (mode % 11) {
	case 0:
		key = 0;
		break;
	case 1:
		key = UINT64_MAX - (fz_u8() & 3u);
		break;
	case 2:			/* equal to a queued key */
		if (fz_pick(&S.exact, fz_u8(), true, &id))
			key = sqm_key(&S.exact, id);
		else
			key = S.last_key;
		break;
	case 3:			/* the same key again */
		key = S.last_key;
		break;
	case 4:			/* just at the ring's time */
		key = fz_add_sat(S.ring_time, fz_u8());
		break;
	case 5:			/* anywhere across the window */
		key = fz_add_sat(S.ring_time,
				 S.shift < 48 ? (uint64_t)fz_u16() << S.shift
					      : fz_u64());
		break;
	case 6:			/* past the horizon, any distance (the levels) */
		key = fz_add_sat(fz_add_sat(S.ring_time, S.horizon),
				 fz_u64() >> (fz_u8() & 63u));
		break;
	case 7:			/* late: below the ring's time */
		key = fz_sub_sat(S.ring_time, 1 + (uint64_t)fz_u8());
		break;
	case 8:			/* the last slot of the window, or just past */
		key = fz_add_sat(S.ring_time, S.horizon);
		key = fz_sub_sat(key, 2) + (fz_u8() & 3u);
		break;
	case 9:			/* a small step from the last key */
		key = fz_add_sat(S.last_key, fz_u8() & 7u);
		break;
	default:
		key = fz_u64();
		break;
	}
	S.last_key = key;
	return key;
}

/* ---- checks ------------------------------------------------------------ */

static unsigned fz_id(const struct fz_item *it)
{
	return it ? it->id : FZ_NODES;
}

/* queued() and the key of one node, against every model */
static void fz_check_node(const struct fz_item *it)
{
	const struct fz_group *g;
	bool q;
	size_t b;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++) {
		q = sqm_queued(g->m, it->id);
		for (b = 0; b < g->n; b++) {
			FZ_REQUIRE(g->be[b]->queued(it) == q,
				   "%s: queued(node %u) is %d, model says %d",
				   g->be[b]->name, it->id, !q, q);
			if (q)
				FZ_REQUIRE(g->be[b]->key(it) ==
					   sqm_key(g->m, it->id),
					   "%s: node %u key %" PRIu64 ", model %"
					   PRIu64, g->be[b]->name, it->id,
					   g->be[b]->key(it),
					   sqm_key(g->m, it->id));
		}
	}
	q = sqm_queued(&S.ring, it->id);
	FZ_REQUIRE(fz_ring->queued(it) == q,
		   "ring: queued(node %u) is %d, model says %d",
		   it->id, !q, q);
	if (q)
		FZ_REQUIRE(fz_ring->key(it) == sqm_key(&S.ring, it->id),
			   "ring: node %u key %" PRIu64 ", model %" PRIu64,
			   it->id, fz_ring->key(it), sqm_key(&S.ring, it->id));
}

/* may the ring answer @it as its first node now */
static void fz_check_ring_first(const struct fz_item *it, const char *what)
{
	unsigned id = FZ_NODES;

	FZ_REQUIRE(it != NULL, "ring: %s is NULL with %zu queued", what,
		   sqm_count(&S.ring));
	FZ_REQUIRE(sqm_tring_pop_ok(&S.ring, S.ring_time, S.shift, it->id),
		   "ring: %s is node %u (key %" PRIu64 "), not allowed "
		   "by the ring's rule", what, it->id,
		   sqm_queued(&S.ring, it->id) ? sqm_key(&S.ring, it->id) : 0);
	if (S.ring_exact) {
		sqm_first(&S.ring, &id, NULL);
		FZ_REQUIRE(it->id == id, "ring (Tg 1, keys in window): %s is "
			   "node %u, the exact order says %u", what, it->id,
			   id);
	}
}

/* find(@key) on one queue against its model, with match @m (NULL: any) */
static void fz_check_find_one(const struct fz_ops *o, struct sqm *m,
			      uint64_t key, struct fz_match *mt)
{
	long want = sqm_find_key(m, key, mt ? fz_match_id : NULL, mt);
	const struct fz_item *got;

	if (mt) {
		mt->key = key;
		mt->wrong_key = 0;
	}
	got = o->find(key, mt);
	FZ_REQUIRE(got ? (long)got->id == want : want < 0,
		   "%s: find(%" PRIu64 ", %s %u/%u) is node %u, model %ld",
		   o->name, key, mt ? "match" : "any", mt ? mt->rem : 0,
		   mt ? mt->mod : 0, fz_id(got), want);
	FZ_REQUIRE(!mt || mt->wrong_key == 0, "%s: find(%" PRIu64 ") asked "
		   "match about %lu nodes of other keys", o->name, key,
		   mt->wrong_key);
}

/*
 * find: no input byte of its own (the format stays as it was), so each
 * step asks after one of the last key drawn, its neighbour, the first key
 * and a queued node's key, for any node, an id residue or one id (the
 * node's own, when there is one), turn by turn with the step number: one
 * find a step on each queue, so the search keeps its speed.
 */
static void fz_check_find(void)
{
	struct sqm *models[FZ_NGROUPS + 1] = { &S.exact, &S.tie, &S.ring };
	struct fz_match mt = { 0, 0, 0, 0 }, *pm;
	unsigned side, id;
	uint64_t key;
	size_t b;

	pm = (S.op / 4) % 3 ? &mt : NULL;

	for (side = 0; side <= FZ_NGROUPS; side++) {
		struct sqm *m = models[side];

		id = FZ_NODES;
		switch (S.op % 4) {
		case 0:
			key = S.last_key;
			break;
		case 1:
			key = S.last_key + 1;
			break;
		case 2:
			key = 0;
			(void)sqm_first(m, NULL, &key);
			break;
		default:
			key = fz_pick(m, S.op * 7u, true, &id) ? sqm_key(m, id)
								: UINT64_MAX;
			break;
		}
		mt.mod = (S.op / 4) % 3 == 1 ? 3 : 0;
		mt.rem = mt.mod ? S.op % 3 : id < FZ_NODES ? id : S.op % FZ_NODES;
		if (side == FZ_NGROUPS)
			fz_check_find_one(fz_ring, m, key, pm);
		else
			for (b = 0; b < fz_groups[side].n; b++)
				fz_check_find_one(fz_groups[side].be[b], m,
						  key, pm);
	}
}

/* visit_until on one queue: to the end (every node once, NULL), and to a
 * call picked by the step number (that call's node, queued) */
static void fz_check_visit_until_one(const struct fz_ops *o, struct sqm *m)
{
	static struct fz_stop st;
	size_t n = sqm_count(m);
	const struct fz_item *got;
	unsigned i;

	memset(&st, 0, sizeof(st));
	got = o->visit_until(&st);
	FZ_REQUIRE(!got && st.calls == n && !st.twice, "%s: visit_until(never)"
		   " is node %u after %u calls (%u twice), %zu queued", o->name,
		   fz_id(got), st.calls, st.twice, n);
	for (i = 0; i < FZ_NODES; i++)
		FZ_REQUIRE(st.seen[i] == sqm_queued(m, i), "%s: visit_until "
			   "met node %u %u times", o->name, i, st.seen[i]);
	if (!n)
		return;
	memset(&st, 0, sizeof(st));
	st.at = 1 + S.op % (unsigned)n;
	got = o->visit_until(&st);
	FZ_REQUIRE(got && st.calls == st.at && st.seen[got->id] == 1 &&
		   sqm_queued(m, got->id), "%s: visit_until(stop at call %u)"
		   " is node %u after %u calls", o->name, st.at, fz_id(got),
		   st.calls);
}

/* every backend of group @g against its model */
static void fz_check_group(const struct fz_group *g)
{
	unsigned id = FZ_NODES;
	uint64_t key = 0;
	bool have = sqm_first(g->m, &id, &key);
	size_t b, n = sqm_count(g->m);
	struct fz_item *f;
	int rc;

	for (b = 0; b < g->n; b++) {
		rc = g->be[b]->check();
		FZ_REQUIRE(rc == 0, "%s: check() returned %d", g->be[b]->name,
			   rc);
		FZ_REQUIRE(g->be[b]->count() == n, "%s: count %zu, model %zu",
			   g->be[b]->name, g->be[b]->count(), n);
		FZ_REQUIRE(g->be[b]->empty() == (n == 0),
			   "%s: empty() wrong with %zu queued",
			   g->be[b]->name, n);
		f = g->be[b]->first();
		FZ_REQUIRE(fz_id(f) == (have ? id : FZ_NODES),
			   "%s: first is node %u, model says %u",
			   g->be[b]->name, fz_id(f), have ? id : FZ_NODES);
		if (have)
			FZ_REQUIRE(g->be[b]->key(f) == key,
				   "%s: first key %" PRIu64 ", model %" PRIu64,
				   g->be[b]->name, g->be[b]->key(f), key);
	}
}

static void fz_check_all(void)
{
	const struct fz_group *g;
	unsigned i;
	size_t b, n;
	struct fz_item *f;
	int rc;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++)
		fz_check_group(g);

	n = sqm_count(&S.ring);
	/* time starts at base rounded down to Tg, moves only in pop() */
	FZ_REQUIRE(fz_ring_time() == S.ring_time,
		   "ring: its time is %" PRIu64 ", the model's %" PRIu64,
		   fz_ring_time(), S.ring_time);
	FZ_REQUIRE(fz_ring_shift() == S.shift,
		   "ring: its granularity shift is %u, init said %u",
		   fz_ring_shift(), S.shift);
	rc = fz_ring->check();
	FZ_REQUIRE(rc == 0, "ring: check() returned %d", rc);
	FZ_REQUIRE(fz_ring->count() == n, "ring: count %zu, model %zu",
		   fz_ring->count(), n);
	FZ_REQUIRE(fz_ring->empty() == (n == 0),
		   "ring: empty() wrong with %zu queued", n);
	f = fz_ring->first();
	if (n == 0)
		FZ_REQUIRE(f == NULL, "ring: first is node %u when empty",
			   fz_id(f));
	else
		fz_check_ring_first(f, "first()");

	fz_check_find();
	if (S.op % FZ_SWEEP == 0) {
		for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++)
			for (b = 0; b < g->n; b++)
				fz_check_visit_until_one(g->be[b], g->m);
		fz_check_visit_until_one(fz_ring, &S.ring);
	}
	if (S.op % FZ_SWEEP == 0)
		for (i = 0; i < FZ_NODES; i++)
			fz_check_node(&S.item[i]);
}

/* ---- operations, each applied to every backend ------------------------- */

static void fz_note_ring_key(uint64_t key)
{
	if (!fz_in_window(key))
		S.ring_exact = false;
}

static void fz_enqueue(unsigned sel, uint64_t key)
{
	struct fz_item *it;
	unsigned id;
	bool exp, got;
	size_t b;

	const struct fz_group *g;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++) {
		if (!fz_pick(g->m, sel, false, &id))
			continue;
		it = &S.item[id];
		if (!g->tie)
			FZ_TRACE("enqueue(n%u, %" PRIu64 ");\n", id, key);
		exp = sqm_enqueue_tie(g->m, id, key, fz_tie_of(g, id));
		for (b = 0; b < g->n; b++) {
			got = g->be[b]->enqueue(it, key);
			FZ_REQUIRE(got == exp, "%s: enqueue(node %u, %" PRIu64
				   ") returned %d, model %d",
				   g->be[b]->name, id, key, got, exp);
		}
		fz_check_node(it);
	}
	if (fz_pick(&S.ring, sel, false, &id)) {
		it = &S.item[id];
		fz_note_ring_key(key);
		exp = sqm_enqueue(&S.ring, id, key);
		got = fz_ring->enqueue(it, key);
		FZ_REQUIRE(got == (fz_ring->first() == it),
			   "ring: enqueue(node %u, %" PRIu64 ") returned %d "
			   "but first() is node %u", id, key, got,
			   fz_id(fz_ring->first()));
		if (S.ring_exact)
			FZ_REQUIRE(got == exp, "ring (exact): enqueue(node %u"
				   ", %" PRIu64 ") returned %d, model %d", id,
				   key, got, exp);
		fz_check_node(it);
	}
}

/* pop(), or pop_due(@now) when @due, on group @g */
static void fz_pop_group(const struct fz_group *g, bool due, uint64_t now)
{
	struct fz_item *got;
	uint64_t key = 0;
	unsigned id = FZ_NODES;
	bool have;
	size_t b;

	have = sqm_first(g->m, NULL, &key) && (!due || key <= now) &&
	       sqm_pop(g->m, &id, &key);
	if (g->tie)
		;	/* the trace follows the plain group */
	else if (due)
		FZ_TRACE("pop_due(%" PRIu64 "); /* n%u */\n", now,
			 have ? id : FZ_NODES);
	else
		FZ_TRACE("pop(); /* n%u */\n", have ? id : FZ_NODES);
	for (b = 0; b < g->n; b++) {
		got = due ? g->be[b]->pop_due(now) : g->be[b]->pop();
		FZ_REQUIRE(fz_id(got) == (have ? id : FZ_NODES),
			   "%s: pop returned node %u, model %u",
			   g->be[b]->name, fz_id(got), have ? id : FZ_NODES);
		if (got)
			FZ_REQUIRE(g->be[b]->key(got) == key,
				   "%s: popped key %" PRIu64 ", model %" PRIu64,
				   g->be[b]->name, g->be[b]->key(got), key);
	}
	if (have)
		fz_check_node(&S.item[id]);
}

static void fz_pop_exact(bool due, uint64_t now)
{
	const struct fz_group *g;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++)
		fz_pop_group(g, due, now);
}

static void fz_pop_ring(bool due, uint64_t now)
{
	struct fz_item *f = fz_ring->first(), *got;
	uint64_t key;

	/* the ring's pop_due first moves its time to the clock */
	if (due)
		S.ring_time = sqm_tring_time_after_advance(&S.ring, S.ring_time,
							   S.shift, now);
	if (due && f && fz_ring->key(f) > now) {
		FZ_REQUIRE(fz_ring->pop_due(now) == NULL, "ring: pop_due(%"
			   PRIu64 ") took node %u, key %" PRIu64 " is not due",
			   now, f->id, fz_ring->key(f));
		return;
	}
	got = due ? fz_ring->pop_due(now) : fz_ring->pop();
	FZ_REQUIRE(got == f, "ring: pop returned node %u, first() said %u",
		   fz_id(got), fz_id(f));
	if (sqm_count(&S.ring) == 0) {
		FZ_REQUIRE(got == NULL, "ring: pop on empty returned node %u",
			   fz_id(got));
		return;
	}
	fz_check_ring_first(got, "pop()");
	key = sqm_key(&S.ring, got->id);
	FZ_REQUIRE(fz_ring->key(got) == key, "ring: popped node %u key %"
		   PRIu64 ", model %" PRIu64, got->id, fz_ring->key(got), key);
	sqm_dequeue(&S.ring, got->id);
	S.ring_time = sqm_tring_time_after_pop(S.ring_time, S.shift, key);
	fz_check_node(got);
}

static void fz_pop(void)
{
	fz_pop_exact(false, 0);
	fz_pop_ring(false, 0);
}

static void fz_dequeue_exact(const struct fz_group *g, unsigned id)
{
	size_t b;

	unsigned fid = FZ_NODES;
	bool got;

	if (!g->tie)
		FZ_TRACE("dequeue(n%u);\n", id);
	(void)sqm_first(g->m, &fid, NULL);
	sqm_dequeue(g->m, id);
	for (b = 0; b < g->n; b++) {
		got = g->be[b]->dequeue(&S.item[id]);
		FZ_REQUIRE(got == (fid == id), "%s: dequeue(node %u) returned "
			   "%d, the first was node %u", g->be[b]->name, id,
			   got, fid);
	}
	fz_check_node(&S.item[id]);
}

static void fz_dequeue_ring(unsigned id)
{
	const struct fz_item *f = fz_ring->first();
	bool got;

	sqm_dequeue(&S.ring, id);
	got = fz_ring->dequeue(&S.item[id]);
	FZ_REQUIRE(got == (f == &S.item[id]), "ring: dequeue(node %u) "
		   "returned %d, the first was node %u", id, got, fz_id(f));
	fz_check_node(&S.item[id]);
}

static void fz_dequeue(unsigned sel)
{
	const struct fz_group *g;
	unsigned id;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++)
		if (fz_pick(g->m, sel, true, &id))
			fz_dequeue_exact(g, id);
	if (fz_pick(&S.ring, sel, true, &id))
		fz_dequeue_ring(id);
}

static void fz_dequeue_first(void)
{
	const struct fz_group *g;
	struct fz_item *f;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++) {
		f = g->be[0]->first();
		if (f)
			fz_dequeue_exact(g, f->id);
	}
	f = fz_ring->first();
	if (f)
		fz_dequeue_ring(f->id);
}

static void fz_requeue_exact(const struct fz_group *g, unsigned id,
			     uint64_t key)
{
	bool exp = sqm_requeue_tie(g->m, id, key, fz_tie_of(g, id)), got;
	size_t b;

	if (!g->tie)
		FZ_TRACE("requeue(n%u, %" PRIu64 ");\n", id, key);
	for (b = 0; b < g->n; b++) {
		got = g->be[b]->requeue(&S.item[id], key);
		FZ_REQUIRE(got == exp, "%s: requeue(node %u, %" PRIu64
			   ") returned %d, model %d", g->be[b]->name, id,
			   key, got, exp);
	}
	fz_check_node(&S.item[id]);
}

static void fz_requeue_ring(unsigned id, uint64_t key)
{
	struct fz_item *f0 = fz_ring->first(), *f1;
	uint64_t k0 = f0 ? fz_ring->key(f0) : 0, k1;
	bool exp, got;

	fz_note_ring_key(key);
	exp = sqm_requeue(&S.ring, id, key);
	got = fz_ring->requeue(&S.item[id], key);
	f1 = fz_ring->first();
	FZ_REQUIRE(f1 != NULL, "ring: empty after requeue(node %u)", id);
	k1 = fz_ring->key(f1);
	FZ_REQUIRE(got == (f0 != f1 || k0 != k1),
		   "ring: requeue(node %u, %" PRIu64 ") returned %d, but "
		   "first went from node %u key %" PRIu64 " to node %u key %"
		   PRIu64, id, key, got, fz_id(f0), k0, f1->id, k1);
	if (S.ring_exact)
		FZ_REQUIRE(got == exp, "ring (exact): requeue(node %u, %"
			   PRIu64 ") returned %d, model %d", id, key, got,
			   exp);
	fz_check_node(&S.item[id]);
}

/* requeue a queued node, or (@armed false) arm one that is not queued */
static void fz_requeue(unsigned sel, uint64_t key, bool armed)
{
	const struct fz_group *g;
	unsigned id;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++)
		if (fz_pick(g->m, sel, armed, &id))
			fz_requeue_exact(g, id, key);
	if (fz_pick(&S.ring, sel, armed, &id))
		fz_requeue_ring(id, key);
}

static void fz_requeue_first(uint64_t key)
{
	const struct fz_group *g;
	struct fz_item *f;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++) {
		f = g->be[g->n - 1]->first();
		if (f)
			fz_requeue_exact(g, f->id, key);
	}
	f = fz_ring->first();
	if (f)
		fz_requeue_ring(f->id, key);
}

/*
 * fz_step - decode and run one operation:
 *
 *   op % 16   operands               what
 *   0..3      sel, key               enqueue a node that is not queued
 *   4, 5      -                      pop
 *   6         n                      pop n % 8 + 1 times
 *   7, 8      sel                    dequeue a queued node
 *   9         -                      dequeue the first node
 *   10        sel, key               requeue a queued node
 *   11        sel, key               requeue a node that is not queued
 *                                    (it is armed: enqueued)
 *   12        key                    requeue the first node
 *   13        n, pattern, key        enqueue n % 32 + 1 nodes: the same
 *                                    key, ascending, descending, or each
 *                                    a fresh key
 *   14        -                      pop until empty
 *   15        now                    pop_due(now): pop if the first is due
 */
static void fz_step(void)
{
	unsigned op = fz_u8() % 16, n, pat, sel, i;
	uint64_t key;

	switch (op) {
	case 0: case 1: case 2: case 3:
		S.opname = "enqueue";
		sel = fz_u8();
		fz_enqueue(sel, fz_key());
		break;
	case 4: case 5:
		S.opname = "pop";
		fz_pop();
		break;
	case 6:
		S.opname = "pop n";
		n = fz_u8() % 8 + 1;
		while (n--) {
			fz_pop();
			fz_check_all();
		}
		break;
	case 7: case 8:
		S.opname = "dequeue";
		fz_dequeue(fz_u8());
		break;
	case 9:
		S.opname = "dequeue first";
		fz_dequeue_first();
		break;
	case 10: case 11:
		S.opname = op == 10 ? "requeue" : "requeue (arm)";
		sel = fz_u8();
		fz_requeue(sel, fz_key(), op == 10);
		break;
	case 12:
		S.opname = "requeue first";
		fz_requeue_first(fz_key());
		break;
	case 13:
		S.opname = "enqueue burst";
		n = fz_u8() % 32 + 1;
		pat = fz_u8() % 4;
		key = fz_key();
		for (i = 0; i < n; i++) {
			if (pat == 1)
				key = fz_add_sat(key, 1);
			else if (pat == 2)
				key = fz_sub_sat(key, 1);
			else if (pat == 3)
				key = fz_key();
			fz_enqueue(i, key);
			fz_check_all();
		}
		break;
	case 14:
		S.opname = "drain";
		while (sqm_count(&S.exact) || sqm_count(&S.tie) ||
		       sqm_count(&S.ring)) {
			fz_pop();
			fz_check_all();
		}
		fz_pop();	/* and once more on the empty queues */
		break;
	default:
		S.opname = "pop_due";
		key = fz_key();
		fz_pop_exact(true, key);
		fz_pop_ring(true, key);
		break;
	}
	fz_check_all();
}

static void fz_setup(void)
{
	unsigned cls, i;
	uint64_t base;

	S.op = 0;
	S.opname = NULL;
	S.shift = fz_u8() % (FZ_MAX_SHIFT + 1);
	S.horizon = (uint64_t)SQ_TRING_SLOTS;
	for (i = 0; i < S.shift && S.horizon != UINT64_MAX; i++)
		S.horizon = S.horizon > UINT64_MAX / 2 ? UINT64_MAX
						       : S.horizon * 2;
	cls = fz_u8() % 6;
	switch (cls) {
	case 0:
		base = 0;
		break;
	case 1:
		base = fz_u16();
		break;
	case 2:
		base = UINT64_MAX - fz_u16();
		break;
	case 3:
		base = fz_u64();
		break;
	case 4:
		base = S.shift < 48 ? (uint64_t)fz_u16() << S.shift : fz_u64();
		break;
	default:
		base = fz_add_sat(UINT64_MAX - S.horizon, fz_u16());
		break;
	}
	/* tring.h: the ring's time starts at base rounded down to Tg */
	S.ring_time = base & ~sqm__gran_mask(S.shift);
	S.ring_exact = S.shift == 0;
	S.last_key = base;

	fz_sort_backends();
#define FZ_INIT(K, exact) SQ_INIT(K, &S.K);
	SQ_KINDS(FZ_INIT)
#define FZ_TIE_INIT(B) SQ_INIT(fz_tie_##B, &S.fz_tie_##B);
	SQ_TIE_KINDS(FZ_TIE_INIT)
	fz_ring_init(S.shift, base);
	sqm_init(&S.exact);
	sqm_init(&S.tie);
	sqm_init(&S.ring);
	for (i = 0; i < FZ_NODES; i++) {
		/* dirty the nodes first: node_init must set every field */
		memset(&S.item[i], 0xa5, sizeof(S.item[i]));
#define FZ_NODE_INIT(K, exact) SQ_NODE_INIT(K, &S.item[i].K);
		SQ_KINDS(FZ_NODE_INIT)
#define FZ_TIE_NODE_INIT(B) SQ_NODE_INIT(fz_tie_##B, &S.item[i].fz_tie_##B);
		SQ_TIE_KINDS(FZ_TIE_NODE_INIT)
		S.item[i].id = i;
		S.item[i].prio = (i * 7u) % 3u;	/* ties: three classes */
	}
	fz_check_all();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned i;

	S.p = data;
	S.end = data + size;
	fz_setup();
	while (S.p < S.end && S.op < FZ_MAX_OPS) {
		S.op++;
		fz_step();
	}
	/* a last full sweep, then everything must drain in order */
	S.op = 0;
	S.opname = "final drain";
	fz_check_all();
	while (sqm_count(&S.exact) || sqm_count(&S.tie) ||
		       sqm_count(&S.ring)) {
		fz_pop();
		fz_check_all();
	}
	for (i = 0; i < FZ_NODES; i++)
		fz_check_node(&S.item[i]);
	return 0;
}

#ifdef FZ_STANDALONE
/* ---- the regression runner: every corpus and crash file, no libFuzzer -- */
#include <dirent.h>

static unsigned char fz_buf[1u << 20];

static int fz_run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		perror(path);
		return -1;
	}
	n = fread(fz_buf, 1, sizeof(fz_buf), f);
	if (ferror(f)) {
		perror(path);
		fclose(f);
		return -1;
	}
	fclose(f);
	fz_input_name = path;
	LLVMFuzzerTestOneInput(fz_buf, n);
	return 0;
}

static int fz_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* run every regular file in @dir, in name order; -1 on error */
static int fz_run_dir(const char *dir, unsigned *runs)
{
	static char names[4096][256];
	static char *sorted[4096];
	char path[1024];
	struct dirent *de;
	unsigned n = 0, i;
	DIR *d = opendir(dir);

	if (!d)
		return 1;	/* not a directory */
	while ((de = readdir(d)) != NULL && n < 4096) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= 256)
			continue;
		strcpy(names[n], de->d_name);
		sorted[n] = names[n];
		n++;
	}
	closedir(d);
	qsort(sorted, n, sizeof(sorted[0]), fz_cmp);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sorted[i]);
		if (fz_run_file(path))
			return -1;
		(*runs)++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const dflt[] = { "tests/fuzz/corpus",
					    "tests/fuzz/crashes" };
	const char *const *args = argc > 1 ? (const char *const *)argv + 1
					   : dflt;
	int nargs = argc > 1 ? argc - 1 : 2, i, rc;
	unsigned runs = 0;

	fz_trace = getenv("FZ_TRACE") != NULL;
	for (i = 0; i < nargs; i++) {
		rc = fz_run_dir(args[i], &runs);
		if (rc == 1) {		/* a file, not a directory */
			if (fz_run_file(args[i]))
				return 1;
			runs++;
		} else if (rc) {
			return 1;
		}
	}
	if (runs == 0) {
		fprintf(stderr, "fuzz-regress: no inputs found (run from the "
			"top of the source tree)\n");
		return 1;
	}
	printf("fuzz-regress: %u inputs, all backends agree with the model "
	       "(ring %u slots%s)\n", runs, (unsigned)SQ_TRING_SLOTS,
#ifdef SQ_DEBUG
	       ", SQ_DEBUG"
#else
	       ""
#endif
	       );
	return 0;
}
#endif /* FZ_STANDALONE */
