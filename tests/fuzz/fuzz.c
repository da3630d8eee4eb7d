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
 *   - a backend exact only to a granularity (flag 0 in SQ_KINDS: a ring)
 *     is held to the contract's rule (sqm_gran_pop_ok: late keys first and
 *     FIFO, otherwise a key below the smallest key plus Tg), its clock
 *     (SQ_TIME) to the model's, and to the exact order while its
 *     granularity is 1 and no key was late;
 *   - after every operation check() == 0, count/empty/first agree, and the
 *     nodes touched report queued() and key correctly (all nodes every
 *     FZ_SWEEP operations and at the end).
 *
 * The plain exact queues share one model, the tie kinds another, and each
 * ring has its own: a pop may take a different node on each side, and the
 * memberships then differ.  An operation that names "a queued node" picks
 * it separately on each side.  A ring joins by its SQ_KINDS entry alone
 * (tests/two_rings.h builds this file with a second one).
 *
 * Input format (bytes past the end read as 0, so every input is valid):
 *
 *   byte 0        gran_shift = byte % (FZ_MAX_SHIFT + 1)
 *   byte 1        base time class: 0 -> 0, 1 -> u16, 2 -> UINT64_MAX - u16,
 *                 3 -> u64 (the value bytes follow), then u16 << gran_shift
 *                 for 4, and UINT64_MAX - (u16 << gran_shift) for 5.
 *   then ops      op byte, then its operands (see fz_step)
 *
 * Keys are drawn by a mode byte (see fz_key): 0, near UINT64_MAX, equal to
 * a queued key, the last key again, near the ring's time, across a window,
 * far ahead, below the ring's time (late), at the edge of a window of
 * 2^5 .. 2^12 ticks (any ring's horizon in that range), raw.  "The ring's
 * time" is the first ring's (the base time when there is none).
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
	unsigned shift;			/* the rings' granularity shift */
	uint64_t base;			/* the base time init_geom was given */
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

	fprintf(stderr, "fuzz: %s: op %u (%s), shift %u, base %" PRIu64 ": ",
		fz_input_name, S.op, S.opname ? S.opname : "setup", S.shift,
		S.base);
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

/* find's predicate is the model's (struct sqm_match, tests/model.h) */

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
	struct fz_item *(*find)(uint64_t key, struct sqm_match *m);
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
	return sqm_match_node(sq_entry_const(n, struct fz_item, K)->id, \
			      SQ_KEY(K, n), arg);			\
}									\
static struct fz_item *fz_##K##_find(uint64_t key, struct sqm_match *m)	\
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
 * rings, the backends exact only to a granularity, each with its model
 * and its time (their pops may differ, and their times with them).
 */
struct fz_group {
	struct sqm *m;
	const struct fz_ops *be[FZ_NALL];
	size_t n;
	bool tie;
};
static struct fz_group fz_groups[2];
#define FZ_NGROUPS 2

struct fz_ring {
	const struct fz_ops *be;
	struct sqm m;
	uint64_t time;		/* its time, per the model */
	bool exact;		/* Tg == 1 and no key was late: the exact order */
};
static struct fz_ring fz_rings[FZ_NALL];
static size_t fz_nrings;
#define FZ_FOR_RINGS(r) for ((r) = fz_rings; (r) < fz_rings + fz_nrings; (r)++)

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
		else
			fz_rings[fz_nrings++].be = &fz_all[b];
	}
	if (fz_groups[0].n < 2 || !fz_groups[1].n)
		fz_fail("fuzz.c needs two exact backends and a tie kind");
}

/* the time keys are drawn around: the first ring's, else the base */
static uint64_t fz_time(void)
{
	return fz_nrings ? fz_rings[0].time : S.base;
}

/* is any node queued on any side */
static bool fz_any_queued(void)
{
	struct fz_ring *r;

	if (sqm_count(&S.exact) || sqm_count(&S.tie))
		return true;
	FZ_FOR_RINGS(r)
		if (sqm_count(&r->m))
			return true;
	return false;
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

/* @v << @s, saturated */
static uint64_t fz_shl_sat(uint64_t v, unsigned s)
{
	return s >= 64 || v > UINT64_MAX >> s ? UINT64_MAX : v << s;
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
	unsigned mode = fz_u8(), id, b;
	uint64_t key, t = fz_time();

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
		key = fz_add_sat(t, fz_u8());
		break;
	case 5:			/* anywhere across a window */
		key = fz_add_sat(t, S.shift < 48 ? (uint64_t)fz_u16() << S.shift
						  : fz_u64());
		break;
	case 6:			/* ahead at any distance (a ring's levels) */
		key = fz_u64();
		key = fz_add_sat(t, key >> (fz_u8() & 63u));
		break;
	case 7:			/* late: below the ring's time */
		key = fz_sub_sat(t, 1 + (uint64_t)fz_u8());
		break;
	case 8:			/* the last tick of a window of 2^5..2^12
				 * ticks, or just past it */
		b = fz_u8();
		key = fz_add_sat(t, fz_shl_sat(1, S.shift + 5 + (b >> 2) % 8));
		key = fz_sub_sat(key, 2) + (b & 3u);
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
	struct fz_ring *r;
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
	FZ_FOR_RINGS(r) {
		q = sqm_queued(&r->m, it->id);
		FZ_REQUIRE(r->be->queued(it) == q,
			   "%s: queued(node %u) is %d, model says %d",
			   r->be->name, it->id, !q, q);
		if (q)
			FZ_REQUIRE(r->be->key(it) == sqm_key(&r->m, it->id),
				   "%s: node %u key %" PRIu64 ", model %" PRIu64,
				   r->be->name, it->id, r->be->key(it),
				   sqm_key(&r->m, it->id));
	}
}

/* may ring @r answer @it as its first node now */
static void fz_check_ring_first(struct fz_ring *r,
				const struct fz_item *it, const char *what)
{
	unsigned id = FZ_NODES;

	FZ_REQUIRE(it != NULL, "%s: %s is NULL with %zu queued", r->be->name,
		   what, sqm_count(&r->m));
	FZ_REQUIRE(sqm_gran_pop_ok(&r->m, r->time, S.shift, it->id),
		   "%s: %s is node %u (key %" PRIu64 "), not allowed by the "
		   "rule of time %" PRIu64, r->be->name, what, it->id,
		   sqm_queued(&r->m, it->id) ? sqm_key(&r->m, it->id) : 0,
		   r->time);
	if (r->exact) {
		sqm_first(&r->m, &id, NULL);
		FZ_REQUIRE(it->id == id, "%s (Tg 1, no key late): %s is node "
			   "%u, the exact order says %u", r->be->name, what,
			   it->id, id);
	}
}

/* find(@key) on one queue against its model, with match @m (NULL: any) */
static void fz_check_find_one(const struct fz_ops *o, struct sqm *m,
			      uint64_t key, struct sqm_match *mt)
{
	long want = sqm_find_key(m, key, mt ? sqm_match_id : NULL, mt);
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
	struct sqm_match mt = { 0, 0, 0, 0 }, *pm;
	unsigned side, id;
	uint64_t key;
	size_t b;

	pm = (S.op / 4) % 3 ? &mt : NULL;

	for (side = 0; side < FZ_NGROUPS + fz_nrings; side++) {
		struct sqm *m = side < FZ_NGROUPS ? fz_groups[side].m
						  : &fz_rings[side - FZ_NGROUPS].m;

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
		if (side >= FZ_NGROUPS)
			fz_check_find_one(fz_rings[side - FZ_NGROUPS].be, m,
					  key, pm);
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

/* ring @r against its model: its clock, check(), count, first */
static void fz_check_ring(struct fz_ring *r)
{
	const struct fz_ops *o = r->be;
	size_t n = sqm_count(&r->m);
	struct fz_item *f;
	int rc;

	/* time starts at base rounded down to Tg, moves in pop/pop_due */
	FZ_REQUIRE(o->time() == r->time, "%s: its time is %" PRIu64
		   ", the model's %" PRIu64, o->name, o->time(), r->time);
	FZ_REQUIRE(o->gran_shift() == S.shift, "%s: its granularity shift "
		   "is %u, init said %u", o->name, o->gran_shift(), S.shift);
	rc = o->check();
	FZ_REQUIRE(rc == 0, "%s: check() returned %d", o->name, rc);
	FZ_REQUIRE(o->count() == n, "%s: count %zu, model %zu", o->name,
		   o->count(), n);
	FZ_REQUIRE(o->empty() == (n == 0), "%s: empty() wrong with %zu "
		   "queued", o->name, n);
	f = o->first();
	if (n == 0)
		FZ_REQUIRE(f == NULL, "%s: first is node %u when empty",
			   o->name, fz_id(f));
	else
		fz_check_ring_first(r, f, "first()");
}

static void fz_check_all(void)
{
	const struct fz_group *g;
	struct fz_ring *r;
	unsigned i;
	size_t b;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++)
		fz_check_group(g);
	FZ_FOR_RINGS(r)
		fz_check_ring(r);

	fz_check_find();
	if (S.op % FZ_SWEEP == 0) {
		for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++)
			for (b = 0; b < g->n; b++)
				fz_check_visit_until_one(g->be[b], g->m);
		FZ_FOR_RINGS(r)
			fz_check_visit_until_one(r->be, &r->m);
	}
	if (S.op % FZ_SWEEP == 0)
		for (i = 0; i < FZ_NODES; i++)
			fz_check_node(&S.item[i]);
}

/* ---- operations, each applied to every backend ------------------------- */

/* a key below a ring's time is late: out of the exact order from then */
static void fz_note_ring_key(struct fz_ring *r, uint64_t key)
{
	if (key < r->time)
		r->exact = false;
}

static void fz_enqueue(unsigned sel, uint64_t key)
{
	const struct fz_group *g;
	struct fz_ring *r;
	struct fz_item *it;
	unsigned id;
	bool exp, got;
	size_t b;

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
	FZ_FOR_RINGS(r) {
		if (!fz_pick(&r->m, sel, false, &id))
			continue;
		it = &S.item[id];
		fz_note_ring_key(r, key);
		exp = sqm_enqueue(&r->m, id, key);
		got = r->be->enqueue(it, key);
		FZ_REQUIRE(got == (r->be->first() == it),
			   "%s: enqueue(node %u, %" PRIu64 ") returned %d "
			   "but first() is node %u", r->be->name, id, key, got,
			   fz_id(r->be->first()));
		if (r->exact)
			FZ_REQUIRE(got == exp, "%s (exact): enqueue(node %u, %"
				   PRIu64 ") returned %d, model %d",
				   r->be->name, id, key, got, exp);
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

static void fz_pop_ring(struct fz_ring *r, bool due, uint64_t now)
{
	const struct fz_ops *o = r->be;
	struct fz_item *f = o->first(), *got;
	uint64_t key;

	/* the ring's pop_due first moves its time to the clock */
	if (due)
		r->time = sqm_gran_time_after_advance(&r->m, r->time, S.shift,
						      now);
	if (due && f && o->key(f) > now) {
		FZ_REQUIRE(o->pop_due(now) == NULL, "%s: pop_due(%" PRIu64
			   ") took node %u, key %" PRIu64 " is not due",
			   o->name, now, f->id, o->key(f));
		return;
	}
	got = due ? o->pop_due(now) : o->pop();
	FZ_REQUIRE(got == f, "%s: pop returned node %u, first() said %u",
		   o->name, fz_id(got), fz_id(f));
	if (sqm_count(&r->m) == 0) {
		FZ_REQUIRE(got == NULL, "%s: pop on empty returned node %u",
			   o->name, fz_id(got));
		return;
	}
	fz_check_ring_first(r, got, "pop()");
	key = sqm_key(&r->m, got->id);
	FZ_REQUIRE(o->key(got) == key, "%s: popped node %u key %" PRIu64
		   ", model %" PRIu64, o->name, got->id, o->key(got), key);
	sqm_dequeue(&r->m, got->id);
	r->time = sqm_gran_time_after_pop(r->time, S.shift, key);
	fz_check_node(got);
}

/* pop(), or pop_due(@now) when @due, on every side */
static void fz_pop_all(bool due, uint64_t now)
{
	struct fz_ring *r;

	fz_pop_exact(due, now);
	FZ_FOR_RINGS(r)
		fz_pop_ring(r, due, now);
}

static void fz_pop(void)
{
	fz_pop_all(false, 0);
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

static void fz_dequeue_ring(struct fz_ring *r, unsigned id)
{
	const struct fz_item *f = r->be->first();
	bool got;

	sqm_dequeue(&r->m, id);
	got = r->be->dequeue(&S.item[id]);
	FZ_REQUIRE(got == (f == &S.item[id]), "%s: dequeue(node %u) "
		   "returned %d, the first was node %u", r->be->name, id, got,
		   fz_id(f));
	fz_check_node(&S.item[id]);
}

static void fz_dequeue(unsigned sel)
{
	const struct fz_group *g;
	struct fz_ring *r;
	unsigned id;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++)
		if (fz_pick(g->m, sel, true, &id))
			fz_dequeue_exact(g, id);
	FZ_FOR_RINGS(r)
		if (fz_pick(&r->m, sel, true, &id))
			fz_dequeue_ring(r, id);
}

static void fz_dequeue_first(void)
{
	const struct fz_group *g;
	struct fz_ring *r;
	struct fz_item *f;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++) {
		f = g->be[0]->first();
		if (f)
			fz_dequeue_exact(g, f->id);
	}
	FZ_FOR_RINGS(r) {
		f = r->be->first();
		if (f)
			fz_dequeue_ring(r, f->id);
	}
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

static void fz_requeue_ring(struct fz_ring *r, unsigned id, uint64_t key)
{
	const struct fz_ops *o = r->be;
	struct fz_item *f0 = o->first(), *f1;
	uint64_t k0 = f0 ? o->key(f0) : 0, k1;
	bool exp, got;

	fz_note_ring_key(r, key);
	exp = sqm_requeue(&r->m, id, key);
	got = o->requeue(&S.item[id], key);
	f1 = o->first();
	FZ_REQUIRE(f1 != NULL, "%s: empty after requeue(node %u)", o->name,
		   id);
	k1 = o->key(f1);
	FZ_REQUIRE(got == (f0 != f1 || k0 != k1),
		   "%s: requeue(node %u, %" PRIu64 ") returned %d, but "
		   "first went from node %u key %" PRIu64 " to node %u key %"
		   PRIu64, o->name, id, key, got, fz_id(f0), k0, f1->id, k1);
	if (r->exact)
		FZ_REQUIRE(got == exp, "%s (exact): requeue(node %u, %"
			   PRIu64 ") returned %d, model %d", o->name, id, key,
			   got, exp);
	fz_check_node(&S.item[id]);
}

/* requeue a queued node, or (@armed false) arm one that is not queued */
static void fz_requeue(unsigned sel, uint64_t key, bool armed)
{
	const struct fz_group *g;
	struct fz_ring *r;
	unsigned id;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++)
		if (fz_pick(g->m, sel, armed, &id))
			fz_requeue_exact(g, id, key);
	FZ_FOR_RINGS(r)
		if (fz_pick(&r->m, sel, armed, &id))
			fz_requeue_ring(r, id, key);
}

static void fz_requeue_first(uint64_t key)
{
	const struct fz_group *g;
	struct fz_ring *r;
	struct fz_item *f;

	for (g = fz_groups; g < fz_groups + FZ_NGROUPS; g++) {
		f = g->be[g->n - 1]->first();
		if (f)
			fz_requeue_exact(g, f->id, key);
	}
	FZ_FOR_RINGS(r) {
		f = r->be->first();
		if (f)
			fz_requeue_ring(r, f->id, key);
	}
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
		while (fz_any_queued()) {
			fz_pop();
			fz_check_all();
		}
		fz_pop();	/* and once more on the empty queues */
		break;
	default:
		S.opname = "pop_due";
		fz_pop_all(true, fz_key());
		break;
	}
	fz_check_all();
}

static void fz_setup(void)
{
	struct fz_ring *r;
	unsigned cls, i;
	uint64_t base;

	S.op = 0;
	S.opname = NULL;
	S.shift = fz_u8() % (FZ_MAX_SHIFT + 1);
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
		base = fz_sub_sat(UINT64_MAX, fz_shl_sat(fz_u16(), S.shift));
		break;
	}
	S.base = base;
	S.last_key = base;

	fz_sort_backends();
#define FZ_INIT(K, exact) SQ_INIT(K, &S.K);
	SQ_KINDS(FZ_INIT)
#define FZ_TIE_INIT(B) SQ_INIT(fz_tie_##B, &S.fz_tie_##B);
	SQ_TIE_KINDS(FZ_TIE_INIT)
	FZ_FOR_RINGS(r) {
		if (!r->be->init_geom(S.shift, base))
			fz_fail("%s: geometry %u refused", r->be->name,
				S.shift);
		sqm_init(&r->m);
		/* a ring's time starts at base rounded down to Tg */
		r->time = base & ~sqm__gran_mask(S.shift);
		r->exact = S.shift == 0;
	}
	sqm_init(&S.exact);
	sqm_init(&S.tie);
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
	while (fz_any_queued()) {
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
	       "(%zu exact, %zu tie kinds, rings:", runs, fz_groups[0].n,
	       fz_groups[1].n);
	for (i = 0; i < (int)fz_nrings; i++)
		printf(" %s", fz_rings[i].be->name);
#ifdef SQ_DEBUG
	printf(", SQ_DEBUG");
#endif
	printf(")\n");
	return 0;
}
#endif /* FZ_STANDALONE */
