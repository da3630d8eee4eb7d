/* SPDX-License-Identifier: MIT */
/*
 * smartq.h - intrusive priority queues for time-keyed work
 *
 * Five backends behind one API.  The backend is one token K, so a user
 * swaps the data structure by changing it (or a macro that names it):
 *
 *	#define RUNQ rb
 *	SQ_QUEUE(RUNQ) rq;
 *	SQ_INIT(RUNQ, &rq);
 *	SQ_ENQUEUE(RUNQ, &rq, &task->node, task->vruntime);
 *
 *   K      structure                       enqueue   first  pop       dequeue
 *   rb     red-black tree, leftmost cached O(log n)  O(1)   O(log n)  O(log n)
 *   gavl   AVL tree, first cached,         O(log n)  O(1)   O(log n)  O(log n)
 *          pop cuts the first node
 *   binom  binomial heap, minimum cached   O(1) am.  O(1)   O(log n)  O(log n)
 *   ladder ladder queue: top, rungs of     O(1) am.  O(1)   O(1) am.  O(1) am.
 *          buckets, sorted bottom
 *   tring  time ring: slots + bitmap +     O(1)      O(1)   O(1) am.  O(1) am.
 *          levels that cascade
 *
 *   (am. = amortised: over a run, not each operation; the rest hold for
 *   every operation.)  tring is exact to its granularity Tg: first and
 *   pop return a node within Tg of the minimum (see smartq/tring.h).
 *   Inputs known to exceed these bounds are listed in README.md and
 *   counted by tests/cost.c.
 *
 *   find(q, key, match, arg), the first node of exactly that key, in queue
 *   order among equal keys, for which match holds; t = the nodes of that
 *   key that match rejects (a key with many ties costs them, by design):
 *     rb, gavl       O(log n + t): a descent, then the walk in order
 *     ladder, tring  O(the list the key routes to + t): a bucket, the
 *                    bottom, the top; a ring slot, a level slot, late
 *     binom          no key search in a heap: every node of a smaller
 *                    key and its children, O(n) for the largest keys
 *
 * Eligible pick (EEVDF's): erb and egavl (smartq/rb_elig.h, gavl_elig.h,
 * one layer in smartq/elig_tree.h) are rb and gavl whose nodes also carry
 * an eligibility value elig, with SQ_PICK_ELIGIBLE(K, q, limit), the
 * first node in key order with elig <= limit, in O(log n), and
 * SQ_SET_ELIG(K, q, n, elig).  Every verb above works on them too; they
 * are not in SQ_KINDS (the harness and the kind-wide tests are for the
 * plain queues).
 *
 * Timers across threads (smartq/remote.h, where C11 atomics exist):
 * SQ_REMOTE(K) is a queue of kind K one thread owns, with an inbox into
 * which any thread posts arms and cancels; the owner drains it.
 *
 * Every backend: keys are uint64_t compared unsigned, all values valid;
 * equal keys come out in the order they were enqueued (or requeued), or
 * in a tie kind's, by the user's less() first (SQ_TIE: rb, gavl, binom);
 * first() never walks; dequeue() takes any queued node; nothing allocates
 * or locks: the caller owns the memory and serialises access.
 */
#ifndef SMARTQ_H
#define SMARTQ_H

/*
 * The version, written here only: make install, make single, CMake, Meson
 * and the .pc file read these three lines (mk/version.sh).  SQ_VERSION is
 * for #if (0.2.0 is 200); the string is spelled from the numbers.
 */
#define SQ_VERSION_MAJOR 0
#define SQ_VERSION_MINOR 2
#define SQ_VERSION_PATCH 0
#define SQ_VERSION \
	(SQ_VERSION_MAJOR * 10000 + SQ_VERSION_MINOR * 100 + SQ_VERSION_PATCH)
#define SQ__VERSION_STR(x)  #x
#define SQ__VERSION_XSTR(x) SQ__VERSION_STR(x)
#define SQ_VERSION_STRING                                                     \
	SQ__VERSION_XSTR(SQ_VERSION_MAJOR) "."                                \
	SQ__VERSION_XSTR(SQ_VERSION_MINOR) "."                                \
	SQ__VERSION_XSTR(SQ_VERSION_PATCH)

#include "smartq/common.h"
#include "smartq/rbtree.h"
#include "smartq/gavl.h"
#include "smartq/binomial.h"
#include "smartq/tring.h"
#include "smartq/ladder.h"
#include "smartq/rb_elig.h"
#include "smartq/gavl_elig.h"

/*
 * SQ_KINDS(X) - X(K, exact) once per backend, K its token and exact 1
 * when pops come out in exact key order for every key, 0 when exact only
 * to a granularity (the ring; at granularity 1 it is exact too, for every
 * key not below its time).  The tests, the fuzzer, the harness and the
 * build (mk/kinds.mk, through the preprocessor) take the list from here:
 * a new backend is its header, its entry here, its white-box test and its
 * doc.
 */
#define SQ_KINDS(X) SQ__KINDS(X)
/* the list itself, under a name of its own so that a test can extend it */
#define SQ__KINDS(X) X(rb, 1) X(gavl, 1) X(binom, 1) X(ladder, 1) X(tring, 0)

/* Two-level paste, so that K may itself be a macro (#define MYQ rb). */
#define SQ__CAT2(a, b)     a##b
#define SQ__XCAT2(a, b)    SQ__CAT2(a, b)
#define SQ__CAT3(a, b, c)  a##b##c
#define SQ__XCAT3(a, b, c) SQ__CAT3(a, b, c)
#define SQ__FN(K, verb)    SQ__XCAT3(sq_, K, verb)

#define SQ_QUEUE(K)                 struct SQ__XCAT2(sq_, K)
#define SQ_NODE(K)                  struct SQ__FN(K, _node)
#define SQ_INIT(K, q)               SQ__FN(K, _init)(q)
#define SQ_INIT_AT(K, q, now)       SQ__FN(K, _init_at)(q, now)
#define SQ_NODE_INIT(K, n)          SQ__FN(K, _node_init)(n)
#define SQ_ENQUEUE(K, q, n, key)    SQ__FN(K, _enqueue)(q, n, key)
#define SQ_FIRST(K, q)              SQ__FN(K, _first)(q)
#define SQ_DEQUEUE(K, q, n)         SQ__FN(K, _dequeue)(q, n)
#define SQ_POP(K, q)                SQ__FN(K, _pop)(q)
#define SQ_REQUEUE(K, q, n, key)    SQ__FN(K, _requeue)(q, n, key)
#define SQ_EMPTY(K, q)              SQ__FN(K, _empty)(q)
#define SQ_COUNT(K, q)              SQ__FN(K, _count)(q)
#define SQ_QUEUED(K, n)             SQ__FN(K, _queued)(n)
#define SQ_CHECK(K, q)              SQ__FN(K, _check)(q)
#define SQ_POP_DUE(K, q, now)       SQ__FN(K, _pop_due)(q, now)
#define SQ_VISIT(K, q, fn, arg)     SQ__FN(K, _visit)(q, fn, arg)
#define SQ_VISIT_UNTIL(K, q, fn, arg) SQ__FN(K, _visit_until)(q, fn, arg)
#define SQ_FIND(K, q, key, match, arg) SQ__FN(K, _find)(q, key, match, arg)
#define SQ_KEY(K, n)                SQ__FN(K, _key)(n)
#define SQ_PICK_ELIGIBLE(K, q, limit) SQ__FN(K, _pick_eligible)(q, limit)
#define SQ_SET_ELIG(K, q, n, elig)  SQ__FN(K, _set_elig)(q, n, elig)

/*
 * SQ_TIE(K, name, less) - declare the kind @name: backend K (rb, gavl or
 * binom) ordered among equal keys by the user's @less, which is defined
 * after it (see SQ_RB_TIE in smartq/rbtree.h).  K is one token here too.
 */
#define SQ_TIE(K, name, less)       SQ__XCAT2(SQ__TIE_, K)(name, less)
#define SQ__TIE_rb                  SQ_RB_TIE
#define SQ__TIE_gavl                SQ_GAVL_TIE
#define SQ__TIE_binom               SQ_BINOM_TIE

/* SQ_TIE_KINDS(X) - X(K) for each backend that SQ_TIE takes */
#define SQ_TIE_KINDS(X) X(rb) X(gavl) X(binom)

/*
 * The clock, on every backend: the ring's granularity (2^shift) and time
 * (keys below it are late); an exact backend's: SQ__NO_CLOCK in common.h.
 */
#define SQ_INIT_GEOM(K, q, shift, base) SQ__FN(K, _init_geom)(q, shift, base)
#define SQ_TIME(K, q)               SQ__FN(K, _time)(q)
#define SQ_GRAN_SHIFT(K, q)         SQ__FN(K, _gran_shift)(q)
#define SQ_ADVANCE(K, q, now)       SQ__FN(K, _advance)(q, now)
/* fn(node, arg) on every node due by @now, each popped first; the count */
#define SQ_EXPIRE(K, q, now, fn, arg) SQ__FN(K, _expire)(q, now, fn, arg)

/*
 * SQ_FOREACH(K, q, n) - walk the queue in order, for the backends with an
 * in-order next() (rb, gavl): for each queued node n, first to last.  The
 * body must not dequeue n (take the next node first to do that).
 */
#define SQ_FOREACH(K, q, n) \
	for ((n) = SQ_FIRST(K, q); (n) != NULL; (n) = SQ__FN(K, _next)(n))

/*
 * SQ_REQUEUE_SLACK(K, q, n, key, slack) - re-arm lazily, for a timer that
 * may fire anywhere in [key, key + slack] (Linux's timer slack): a node
 * queued at a key in that window stays (false: nothing changed); any
 * other goes to key + slack, the window's end (SQ_REQUEUE's result), so a
 * keepalive re-armed on every packet, each window a little later than the
 * last, moves once per slack.  Any kind, the tie kinds too: it is
 * SQ_QUEUED, SQ_KEY and SQ_REQUEUE, so @n, @key and @slack are evaluated
 * more than once.  Complexity: O(1) when it stays, else SQ_REQUEUE's.
 */
#define SQ_REQUEUE_SLACK(K, q, n, key, slack)				\
	((SQ_QUEUED(K, n) && sq__within_slack(SQ_KEY(K, n), (key), (slack))) \
		 ? false : SQ_REQUEUE(K, q, n, sq__slack_end((key), (slack))))

/* Timers across threads, where C11 atomics exist: smartq/remote.h. */
#include "smartq/remote.h"

#endif /* SMARTQ_H */
