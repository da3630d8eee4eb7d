/* SPDX-License-Identifier: MIT */
/*
 * two_rings.h - SQ_KINDS with a second backend exact only to a
 * granularity: tring2, the ring under another name (every sq_tring2_*
 * name is a macro for the sq_tring_* one).  tests/diff.c and
 * tests/fuzz/fuzz.c are built once more with `-include tests/two_rings.h`
 * (make's diff-two-rings and fuzz-regress-two-rings): code that assumed
 * one inexact kind, or called the ring by name, would fail or leave
 * tring2 untested there, so a new ring-like backend joins both by its
 * SQ_KINDS entry alone.
 */
#ifndef SQ_TESTS_TWO_RINGS_H
#define SQ_TESTS_TWO_RINGS_H

#include "smartq.h"

/* smartq.h's list, and the ring once more */
#undef SQ_KINDS
#define SQ_KINDS(X) SQ__KINDS(X) X(tring2, 0)

#define sq_tring2             sq_tring
#define sq_tring2_node        sq_tring_node
#define sq_tring2_init        sq_tring_init
#define sq_tring2_init_at     sq_tring_init_at
#define sq_tring2_init_geom   sq_tring_init_geom
#define sq_tring2_node_init   sq_tring_node_init
#define sq_tring2_enqueue     sq_tring_enqueue
#define sq_tring2_first       sq_tring_first
#define sq_tring2_dequeue     sq_tring_dequeue
#define sq_tring2_pop         sq_tring_pop
#define sq_tring2_pop_due     sq_tring_pop_due
#define sq_tring2_requeue     sq_tring_requeue
#define sq_tring2_empty       sq_tring_empty
#define sq_tring2_count       sq_tring_count
#define sq_tring2_queued      sq_tring_queued
#define sq_tring2_key         sq_tring_key
#define sq_tring2_check       sq_tring_check
#define sq_tring2_visit       sq_tring_visit
#define sq_tring2_visit_until sq_tring_visit_until
#define sq_tring2_find        sq_tring_find
#define sq_tring2_time        sq_tring_time
#define sq_tring2_gran_shift  sq_tring_gran_shift
#define sq_tring2_advance     sq_tring_advance

#endif /* SQ_TESTS_TWO_RINGS_H */
