/* SPDX-License-Identifier: MIT */
/*
 * bench/kind.h - one backend of SQ_KINDS as a harness queue
 *
 * Not a normal header: queues.c includes it once per entry of SQ_KINDS(X)
 * (include/smartq.h), with BQ_SLOT the entry's index, so a backend joins
 * the harness by its list entry alone.  It names the backend BQ_K and
 * includes queue.h.  An exact backend starts with SQ_INIT; one exact only
 * to a granularity (flag 0: the ring) starts with SQ_INIT_GEOM(K, q, shift,
 * 0) at the run's granularity, and the correctness pass holds it to that;
 * its timer mixes fire a tick at once with its expire (SQ__FN(K, _expire)),
 * unless BQ_NO_EXPIRE.
 */
#define BQ_K    BQ_KIND(BQ_SLOT)
#define BQ_NAME BQ_STR(BQ_K)
#define BQ_PEER 0
#if BQ_KIND_IS_EXACT(BQ_SLOT)
#define BQ_GRAN 1
#else
#define BQ_GRAN ((uint64_t)1 << bq_gran_shift)
#define BQ_EXACT 0
#define BQ_INIT(q) ((void)SQ_INIT_GEOM(BQ_K, q, bq_gran_shift, 0))
#ifndef BQ_NO_EXPIRE
#define BQ_EXPIRE(q, now, fn, arg) SQ__FN(BQ_K, _expire)(q, now, fn, arg)
#endif
#endif
#include "queue.h"
