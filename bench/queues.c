/* SPDX-License-Identifier: MIT */
/*
 * bench/queues.c - the harness's queues: every backend, then the peers
 *
 * The backends come from the one list, SQ_KINDS(X) in include/smartq.h:
 * kind.h is included once per entry, and queue.h, which it includes,
 * writes the loops of that backend against the macro API.  No backend is
 * named here.  The peers (peers.h, peers-stream.h) are written out below,
 * each with its printed name.
 */
#define _GNU_SOURCE		/* tsearch's twalk VISIT, in peers.h */
#include <string.h>

#include "bench.h"
#include "smartq.h"
#include "peers.h"
#include "peers-stream.h"

/* The timer mixes fire a tick at once where a queue can (BQ_EXPIRE in
 * queue.h: the ring's expire, the wheel's); -DBQ_NO_EXPIRE times a
 * pop_due loop for every queue instead, as headers from before the
 * ring's expire need (make compare COMPARE_FLAGS=-DBQ_NO_EXPIRE). */

/* Headers from before the common clock (make compare builds against an
 * older tree too) name the ring's init_geom, not the macro. */
#ifndef SQ_INIT_GEOM
#define SQ_INIT_GEOM(K, q, shift, base) SQ__FN(K, _init_geom)(q, shift, base)
#endif

unsigned bq_gran_shift;

#define BQ_CAT3(a, b, c)  a##b##c
#define BQ_XCAT3(a, b, c) BQ_CAT3(a, b, c)
#define BQ_STR_(x)        #x
#define BQ_STR(x)         BQ_STR_(x)

/*
 * Entry i of SQ_KINDS, as a token (BQ_KIND) or its exact flag
 * (BQ_KIND_IS_EXACT, usable in #if): the list becomes the arguments of
 * BQ_ARG<i>, which keeps its i-th.
 */
#define BQ_ONE(k, e)            +1
#define BQ_NKINDS               (0 SQ_KINDS(BQ_ONE))
#define BQ_TOKEN(k, e)          k,
#define BQ_FLAG(k, e)           e,
#define BQ_APPLY(m, args)       m args
#define BQ_ARG0(a, ...)                         a
#define BQ_ARG1(a, b, ...)                      b
#define BQ_ARG2(a, b, c, ...)                   c
#define BQ_ARG3(a, b, c, d, ...)                d
#define BQ_ARG4(a, b, c, d, e, ...)             e
#define BQ_ARG5(a, b, c, d, e, f, ...)          f
#define BQ_ARG6(a, b, c, d, e, f, g, ...)       g
#define BQ_ARG7(a, b, c, d, e, f, g, h, ...)    h
#define BQ_KIND_(i)             BQ_APPLY(BQ_ARG##i, (SQ_KINDS(BQ_TOKEN) ~))
#define BQ_KIND(i)              BQ_KIND_(i)
#define BQ_KIND_IS_EXACT_(i)    BQ_APPLY(BQ_ARG##i, (SQ_KINDS(BQ_FLAG) ~))
#define BQ_KIND_IS_EXACT(i)     BQ_KIND_IS_EXACT_(i)

#if BQ_NKINDS > 8
#error "bench/queues.c: more than 8 backends in SQ_KINDS: add a BQ_ARG and a slot"
#endif

/* ---- the backends: one slot per SQ_KINDS entry --------------------- */

#if BQ_NKINDS > 0
#define BQ_SLOT 0
#include "kind.h"
#undef BQ_SLOT
#endif
#if BQ_NKINDS > 1
#define BQ_SLOT 1
#include "kind.h"
#undef BQ_SLOT
#endif
#if BQ_NKINDS > 2
#define BQ_SLOT 2
#include "kind.h"
#undef BQ_SLOT
#endif
#if BQ_NKINDS > 3
#define BQ_SLOT 3
#include "kind.h"
#undef BQ_SLOT
#endif
#if BQ_NKINDS > 4
#define BQ_SLOT 4
#include "kind.h"
#undef BQ_SLOT
#endif
#if BQ_NKINDS > 5
#define BQ_SLOT 5
#include "kind.h"
#undef BQ_SLOT
#endif
#if BQ_NKINDS > 6
#define BQ_SLOT 6
#include "kind.h"
#undef BQ_SLOT
#endif
#if BQ_NKINDS > 7
#define BQ_SLOT 7
#include "kind.h"
#undef BQ_SLOT
#endif

/* ---- the peers ------------------------------------------------------ */

#define BQ_K peer_tsearch
#define BQ_NAME "tsearch"
#define BQ_PEER 1
#define BQ_GRAN 1
#define BQ_FINI(q) sq_peer_tsearch_destroy(q)
#include "queue.h"

#ifdef BQ_HAVE_BSD_TREE
#define BQ_K peer_bsd_rb
#define BQ_NAME "bsd_rb"
#define BQ_PEER 1
#define BQ_GRAN 1
#include "queue.h"
#endif

#ifdef BQ_HAVE_LINUX_RB
#define BQ_K peer_linux_rb
#define BQ_NAME "linux_rb"
#define BQ_PEER 1
#define BQ_GRAN 1
#include "queue.h"
#endif

#define BQ_K peer_tr_seed
#define BQ_NAME "tr_seed"
#define BQ_PEER 1
#define BQ_GRAN BQ_TR_GRAN
#define BQ_EXACT 0
#define BQ_SPAN ((uint64_t)BQ_TR_SLOTS * BQ_TR_GRAN)
#include "queue.h"

#define BQ_K peer_heap
#define BQ_NAME "heap"
#define BQ_PEER 1
#define BQ_GRAN 1
#define BQ_FINI(q) sq_peer_heap_destroy(q)
#include "queue.h"

#define BQ_K peer_cal
#define BQ_NAME "calq"
#define BQ_PEER 1
#define BQ_GRAN 1
#define BQ_FINI(q) sq_peer_cal_destroy(q)
#include "queue.h"

#define BQ_K peer_radix
#define BQ_NAME "radix"
#define BQ_PEER 1
#define BQ_GRAN 1
#define BQ_FINI(q) sq_peer_radix_destroy(q)
#include "queue.h"

#define BQ_K peer_heap4
#define BQ_NAME "heap4"
#define BQ_PEER 1
#define BQ_GRAN 1
#define BQ_FINI(q) sq_peer_heap4_destroy(q)
#include "queue.h"

/* exact to the run's granularity, as the ring is */
#define BQ_K peer_wheel
#define BQ_NAME "wheel"
#define BQ_PEER 1
#define BQ_GRAN ((uint64_t)1 << bq_gran_shift)
#define BQ_EXACT 0
#define BQ_INIT(q) sq_peer_wheel_init_geom(q, bq_gran_shift)
#ifndef BQ_NO_EXPIRE
#define BQ_EXPIRE(q, now, fn, arg) sq_peer_wheel_expire(q, now, fn, arg)
#endif
#include "queue.h"

/* ---- the registry --------------------------------------------------- */

#define BQ_OPS(k, e) &bq_##k##_ops,

const struct bq_queue *const bq_all[] = {
	SQ_KINDS(BQ_OPS)
	&bq_peer_tsearch_ops,
#ifdef BQ_HAVE_BSD_TREE
	&bq_peer_bsd_rb_ops,
#endif
#ifdef BQ_HAVE_LINUX_RB
	&bq_peer_linux_rb_ops,
#endif
	&bq_peer_tr_seed_ops, &bq_peer_heap_ops, &bq_peer_cal_ops,
	&bq_peer_radix_ops, &bq_peer_heap4_ops, &bq_peer_wheel_ops,
};
const size_t bq_nqueues = sizeof(bq_all) / sizeof(bq_all[0]);

_Static_assert(sizeof(bq_all) / sizeof(bq_all[0]) <= BQ_MAX_QUEUES,
	       "bench.h: raise BQ_MAX_QUEUES");

const struct bq_queue *bq_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < bq_nqueues; i++)
		if (strlen(bq_all[i]->name) == len &&
		    !strncmp(bq_all[i]->name, name, len))
			return bq_all[i];
	return NULL;
}

/*
 * The granularity a ring is given unless --gran-shift says otherwise: the
 * seed's geometry scaled to the run, the smallest power of two whose
 * 1024-slot window holds twice the largest increment (Tg = 2048 for the
 * default MAX = 2^20, the seed's own), so the keys always fit the window.
 */
uint64_t bq_seed_window(unsigned gran_shift)
{
	return (uint64_t)BQ_TR_SLOTS << gran_shift;
}

unsigned bq_fit_gran(uint32_t inc_max)
{
	unsigned shift = 0;

	while (bq_seed_window(shift) < 2 * (uint64_t)inc_max)
		shift++;
	return shift;
}
