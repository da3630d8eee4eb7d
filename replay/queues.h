/* SPDX-License-Identifier: MIT */
/*
 * replay/queues.h - one adapter for every run queue replay drives
 *
 * Each queue kind K (smartq's backends from SQ_KINDS in smartq.h, then the
 * two historical queues of replay/oldq.h) gets, through the macro API only:
 *
 *   - the run queue the model decides with (rp_q_K, nodes indexed by task);
 *   - a shadow of it (rp_s_K) that replays the logged operations in a
 *     tight loop between two CPU-time stamps.  The model's own calls are
 *     interleaved with its bookkeeping, so timing them one by one would
 *     measure the clock; the shadow runs the same operations on the same
 *     kind in the same order, so it ends in the same state, and each pop
 *     it makes is checked against the one the model saw.
 *
 * The table rp_kinds[] lists them in that order.
 */
#ifndef RP_QUEUES_H
#define RP_QUEUES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smartq.h>

#include "oldq.h"

/* min_vruntime at the start: far enough above 0 that place_entity's
 * min_vruntime - latency / 2 never wraps the unsigned key. */
#define RP_VBASE ((uint64_t)1 << 30)

/* One logged run-queue operation: what (2 bits) and task index (30). */
enum { RP_OP_ENQ, RP_OP_DEQ, RP_OP_POP, RP_OP_FIRST };
#define RP_OP_SHIFT 30
#define RP_IDX_MASK ((1u << RP_OP_SHIFT) - 1u)
#define RP_NONE     RP_IDX_MASK		/* first() of an empty queue */

struct rp_op {
	uint64_t key;
	uint32_t what;
};

struct rp_kind {
	const char *name;
	int smartq;	/* 1: a smartq backend, 0: a historical queue */
	int exact;	/* 1: exact and stable order */
	void (*init)(size_t ntasks);
	void (*fini)(void);
	void (*enqueue)(uint32_t idx, uint64_t key);
	void (*dequeue)(uint32_t idx);
	uint32_t (*pop)(void);		/* RP_NONE if empty */
	uint32_t (*first)(void);	/* RP_NONE if empty */
	size_t (*count)(void);
	int (*check)(void);
	/* replay @n logged ops on the shadow; returns how many disagreed */
	size_t (*shadow)(const struct rp_op *op, size_t n);
};

static void *rp_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "sq-replay: out of memory (%zu x %zu bytes)\n",
			n, size);
		exit(2);
	}
	return p;
}

#define RP_NODEIDX(n, base) \
	((n) ? (uint32_t)((n) - (base)) : RP_NONE)

/*
 * The adapter of kind K: static queues and node arrays, and the functions
 * of its rp_kind entry, every one through SQ_*(K, ...).
 */
#define RP_ADAPTER(K)							\
static SQ_QUEUE(K) rp_q_##K, rp_s_##K;					\
static SQ_NODE(K) *rp_n_##K, *rp_sn_##K;				\
static void rp_##K##_init(size_t nt)					\
{									\
	size_t i;							\
									\
	rp_n_##K = (SQ_NODE(K) *)rp_xcalloc(nt, sizeof(*rp_n_##K));	\
	rp_sn_##K = (SQ_NODE(K) *)rp_xcalloc(nt, sizeof(*rp_sn_##K));	\
	SQ_INIT_AT(K, &rp_q_##K, RP_VBASE);				\
	SQ_INIT_AT(K, &rp_s_##K, RP_VBASE);				\
	for (i = 0; i < nt; i++) {					\
		SQ_NODE_INIT(K, &rp_n_##K[i]);				\
		SQ_NODE_INIT(K, &rp_sn_##K[i]);				\
	}								\
}									\
static void rp_##K##_fini(void)						\
{									\
	while (SQ_POP(K, &rp_q_##K))					\
		;							\
	while (SQ_POP(K, &rp_s_##K))					\
		;							\
	free(rp_n_##K);							\
	free(rp_sn_##K);						\
	rp_n_##K = rp_sn_##K = NULL;					\
}									\
static void rp_##K##_enqueue(uint32_t i, uint64_t key)			\
{									\
	(void)SQ_ENQUEUE(K, &rp_q_##K, &rp_n_##K[i], key);		\
}									\
static void rp_##K##_dequeue(uint32_t i)				\
{									\
	(void)SQ_DEQUEUE(K, &rp_q_##K, &rp_n_##K[i]);			\
}									\
static uint32_t rp_##K##_pop(void)					\
{									\
	SQ_NODE(K) *n = SQ_POP(K, &rp_q_##K);				\
									\
	return RP_NODEIDX(n, rp_n_##K);					\
}									\
static uint32_t rp_##K##_first(void)					\
{									\
	SQ_NODE(K) *n = SQ_FIRST(K, &rp_q_##K);				\
									\
	return RP_NODEIDX(n, rp_n_##K);					\
}									\
static size_t rp_##K##_count(void)					\
{									\
	return SQ_COUNT(K, &rp_q_##K);					\
}									\
static int rp_##K##_check(void)						\
{									\
	return SQ_CHECK(K, &rp_q_##K);					\
}									\
static size_t rp_##K##_shadow(const struct rp_op *op, size_t n)	\
{									\
	SQ_QUEUE(K) *q = &rp_s_##K;					\
	SQ_NODE(K) *sn = rp_sn_##K, *x;					\
	size_t i, bad = 0;						\
									\
	for (i = 0; i < n; i++) {					\
		uint32_t idx = op[i].what & RP_IDX_MASK;		\
									\
		switch (op[i].what >> RP_OP_SHIFT) {			\
		case RP_OP_ENQ:						\
			(void)SQ_ENQUEUE(K, q, &sn[idx], op[i].key);	\
			break;						\
		case RP_OP_DEQ:						\
			(void)SQ_DEQUEUE(K, q, &sn[idx]);		\
			break;						\
		case RP_OP_POP:						\
			x = SQ_POP(K, q);				\
			bad += RP_NODEIDX(x, sn) != idx;		\
			break;						\
		default:						\
			x = SQ_FIRST(K, q);				\
			bad += RP_NODEIDX(x, sn) != idx;		\
			break;						\
		}							\
	}								\
	return bad;							\
}

/* SQ_KINDS(X) expands X(K, exact) for every smartq backend. */
#define RP__SQ_ADAPTER(K, EXACT) RP_ADAPTER(K)
SQ_KINDS(RP__SQ_ADAPTER)
RP_ADAPTER(rp_list)
RP_ADAPTER(rp_parray)

#define RP__ENTRY(K, SMARTQ, EXACT)					\
	{ #K, SMARTQ, EXACT, rp_##K##_init, rp_##K##_fini,		\
	  rp_##K##_enqueue, rp_##K##_dequeue, rp_##K##_pop,		\
	  rp_##K##_first, rp_##K##_count, rp_##K##_check,		\
	  rp_##K##_shadow },
#define RP__SQ_ENTRY(K, EXACT) RP__ENTRY(K, 1, EXACT)

static const struct rp_kind rp_kinds[] = {
	SQ_KINDS(RP__SQ_ENTRY)
	RP__ENTRY(rp_list, 0, 1)
	RP__ENTRY(rp_parray, 0, 0)
};
#define RP_NKINDS (sizeof(rp_kinds) / sizeof(rp_kinds[0]))

/* The printed name: "list" and "parray" for the historical queues. */
static const char *rp_kind_label(const struct rp_kind *k)
{
	return k->smartq ? k->name : k->name + 3;
}

static const struct rp_kind *rp_kind_find(const char *label)
{
	size_t k;

	for (k = 0; k < RP_NKINDS; k++)
		if (!strcmp(rp_kind_label(&rp_kinds[k]), label))
			return &rp_kinds[k];
	return NULL;
}

#endif /* RP_QUEUES_H */
