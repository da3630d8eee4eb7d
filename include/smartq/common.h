/* SPDX-License-Identifier: MIT */
/*
 * smartq/common.h - what every smartq backend shares
 *
 * container_of (sq_entry), bit helpers with ISO fallbacks, the maps from
 * signed and floating-point times to keys, the SQ_DEBUG machinery (misuse
 * checks that name the function and the mistake, poison for dead links,
 * check()'s reports), and the verbs of every kind, documented once, with
 * the macros that write the shared ones.  Nothing here allocates or locks.
 *
 * Every backend header includes "common.h" (its own folder) and smartq.h
 * includes "smartq/X.h", so the headers find each other wherever
 * include/ (or smartq/ alone) is copied, with or without -I.
 */
#ifndef SMARTQ_COMMON_H
#define SMARTQ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef SQ_DEBUG
#include <stdio.h>
#include <stdlib.h>
#endif

/**
 * sq_entry - the struct that embeds a queue node (container_of)
 * @ptr:    pointer to the embedded node
 * @type:   type of the containing struct
 * @member: name of the node member inside @type
 *
 * Plain ISO C: offsetof and char pointer arithmetic, no typeof.
 */
#define sq_entry(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/**
 * sq_entry_const - sq_entry() for a pointer to const
 * @ptr:    pointer to the embedded node, const
 * @type:   type of the containing struct
 * @member: name of the node member inside @type
 *
 * What a tie order's less(a, b) and a find() match need: they are handed
 * const nodes, and sq_entry() would cast the qualifier away (-Wcast-qual).
 */
#define sq_entry_const(ptr, type, member)				\
	((const type *)(const void *)((const char *)(ptr) -		\
				      offsetof(type, member)))

/*
 * GNU C extensions (builtins, attributes, inline asm) are used only behind
 * SQ__GNUC, each with an ISO C fallback.  Define SQ_PORTABLE to take the
 * ISO paths on any compiler: the tests build once that way, so the
 * fallbacks are compiled and run, not just written.
 */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(SQ_PORTABLE)
#define SQ__GNUC 1
#if defined(__x86_64__)
#define SQ__X86_64 1
#endif
#endif

/*
 * SQ__PTR_MASK: branch-free pointer selects, (a ^ ((a ^ b) & mask)) or
 * (a | (b & mask)) on (uintptr_t) casts, which assume a pointer is its
 * address in a uintptr_t and NULL is 0 (every flat-memory target, 32- or
 * 64-bit); not capability machines (CHERI), nor SQ_PORTABLE: both take
 * the ISO select (?:) instead.
 */
#if defined(SQ__GNUC) && !defined(__CHERI__)
#define SQ__PTR_MASK 1
#endif

/*
 * Hints.  SQ__INLINE for the small hot helpers; SQ__SLOW for rare paths
 * (rebalancing) kept out of line, so the hot operations stay small enough
 * to inline into the caller's loop with gcc and clang alike.
 * SQ__OPAQUE(x) hides how a value was computed, so the compiler cannot
 * turn a branch-free select back into a branch (the compares that steer a
 * descent or a heap link are coin flips to a predictor).
 * SQ__KEEP_BRANCH() in one arm of an if keeps it a branch: the compiler
 * cannot merge the two arms' stores behind a conditional move.  Between
 * two stores it keeps them two: gcc does not pair them into one wider
 * store, from whose upper half a later narrow load forwards slowly.
 * SQ__GEN and SQ__GEN_INLINE are for the functions a macro generates in
 * the user's file (the tie kinds): those never called must not warn
 * there, as clang's -Wunused-function does for a file's inline functions.
 */
#ifdef SQ__GNUC
#define SQ__LIKELY(x)   __builtin_expect(!!(x), 1)
#define SQ__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SQ__INLINE      static inline __attribute__((always_inline))
#define SQ__SLOW        static __attribute__((noinline, unused))
#define SQ__OPAQUE(x)   __asm__("" : "+r"(x))
#define SQ__KEEP_BRANCH() __asm__ __volatile__("")
#define SQ__GEN         static inline __attribute__((unused))
#define SQ__GEN_INLINE  static inline __attribute__((always_inline, unused))
#else
#define SQ__LIKELY(x)   (x)
#define SQ__UNLIKELY(x) (x)
#define SQ__INLINE      static inline
#define SQ__SLOW        static inline
#define SQ__OPAQUE(x)   ((void)0)
#define SQ__KEEP_BRANCH() ((void)0)
/* not a code path but a warning's silence: clang under SQ_PORTABLE too */
#if defined(__GNUC__)
#define SQ__GEN         static inline __attribute__((unused))
#else
#define SQ__GEN         static inline
#endif
#define SQ__GEN_INLINE  SQ__GEN
#endif

/*
 * SQ__STEP(n) - count n steps of work inside an operation's loops.  It is
 * nothing in a user's build; the cost suite (tests/cost.c) defines it, before
 * the include, to add to a counter, and proves each operation's bound by
 * counting at N and 8N rather than timing.
 */
#ifndef SQ__STEP
#define SQ__STEP(n) ((void)0)
#endif

/*
 * SQ__CHILD(type, x, left, right, s) - the child pointer of @x on side @s
 * (0: member @left, 1: member @right), picked by its offset, so the
 * trees' rebalancing exists once for both sides, and a side that is a
 * coin flip to a predictor costs no branch (gcc makes a branch of a C
 * select between the two words).  SQ__CHILD_AT is the offset alone: gcc
 * keeps a store through an offset computed first, into a variable, free
 * of the branch it makes of the same store in one expression (the
 * descents' last turn).  A tree's header names its own shorthand over it
 * and #undefs that at its end, unseen by the other headers and the user.
 */
/* NOLINTBEGIN(bugprone-macro-parentheses): type is a type name */
#define SQ__CHILD(type, x, left, right, s)				\
	(*(type **)(void *)((char *)(x) + offsetof(type, left) +	\
		(size_t)(s) * (offsetof(type, right) - offsetof(type, left))))
/* NOLINTEND(bugprone-macro-parentheses) */
#define SQ__CHILD_AT(type, left, right, s) \
	(offsetof(type, left) + \
	 (size_t)(s) * (offsetof(type, right) - offsetof(type, left)))

/*
 * SQ__LOAD_BOTH(l, r) - in a descent that loads both children and selects
 * one without a branch: clang would load only the chosen child, at an
 * address that waits for the compare; this keeps both loads ahead of it.
 */
#if defined(SQ__GNUC) && defined(__clang__)
#define SQ__LOAD_BOTH(l, r)	\
	do {			\
		SQ__OPAQUE(l);	\
		SQ__OPAQUE(r);	\
	} while (0)
#else
#define SQ__LOAD_BOTH(l, r) ((void)0)
#endif

/*
 * sq__ctz64 - index of the lowest set bit; @x must not be 0.
 * On x86-64 it is tzcnt, encoded as rep bsf so every x86-64 runs it (as
 * bsf where there is no BMI1: the same answer for x != 0); compilers
 * without -mbmi emit a plain bsf, several cycles slower on AMD.
 */
static inline unsigned sq__ctz64(uint64_t x)
{
#if defined(SQ__X86_64)
	uint64_t r;

	/* {AT&T|Intel} operand orders: right with -masm=intel too */
	__asm__("tzcnt {%1, %0|%0, %1}" : "=r"(r) : "r"(x) : "cc");
	return (unsigned)r;
#elif defined(SQ__GNUC)
	return (unsigned)__builtin_ctzll(x);
#else
	unsigned n = 0;

	while (!(x & 1u)) {
		x >>= 1;
		n++;
	}
	return n;
#endif
}

/*
 * A two-level bitmap, as the ring's slots and the ladder's buckets keep
 * it: bit @i of @map says item i is occupied, bit w of *@summary that
 * word w of @map is not zero, so the first occupied item is two ctz away.
 */
SQ__INLINE void sq__bits_set(uint64_t *map, uint64_t *summary, unsigned i)
{
	map[i >> 6] |= (uint64_t)1 << (i & 63);
	*summary |= (uint64_t)1 << (i >> 6);
}

SQ__INLINE void sq__bits_clear(uint64_t *map, uint64_t *summary, unsigned i)
{
	unsigned w = i >> 6;

	map[w] &= ~((uint64_t)1 << (i & 63));
	if (!map[w])
		*summary &= ~((uint64_t)1 << w);
}

/* sq__clz64 - number of leading zero bits; @x must not be 0. */
static inline unsigned sq__clz64(uint64_t x)
{
#ifdef SQ__GNUC
	return (unsigned)__builtin_clzll(x);
#else
	unsigned n = 0;

	while (!(x & ((uint64_t)1 << 63))) {
		x <<= 1;
		n++;
	}
	return n;
#endif
}

/*
 * Keys from other time types.  Every backend orders uint64_t keys as
 * unsigned; these maps carry signed and floating-point times onto that
 * order and back, exactly, for every value.
 */
#define SQ__SIGN64 ((uint64_t)1 << 63)

/**
 * sq_key_from_i64 - an int64_t as a key with the same order
 * @v: any value, INT64_MIN..INT64_MAX
 * Return: @v with its sign bit flipped: INT64_MIN maps to 0, -1 to
 *         2^63 - 1, 0 to 2^63, INT64_MAX to UINT64_MAX.
 * Complexity: O(1).
 */
static inline uint64_t sq_key_from_i64(int64_t v)
{
	return (uint64_t)v ^ SQ__SIGN64;
}

/**
 * sq_key_to_i64 - the int64_t a key came from
 * @k: any key
 * Return: the v with sq_key_from_i64(v) == @k (the map is a bijection).
 * Complexity: O(1).
 */
static inline int64_t sq_key_to_i64(uint64_t k)
{
	uint64_t u = k ^ SQ__SIGN64;

	/* no out-of-range unsigned-to-signed conversion (implementation
	 * defined in ISO C): negative values are built from their complement */
	return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)~u - 1;
}

/* Doubles are IEEE 754 binary64, stored like a uint64_t of the same
 * target (true of every target smartq is tested on, big-endian included). */
typedef char sq__double_is_64_bits[sizeof(double) == sizeof(uint64_t) ? 1 : -1];

/**
 * sq_key_from_double_ptr - the double at @d as a key with the same order
 * @d: any double, NaNs and infinities included, read through the pointer
 * Return: the key; for numbers it orders as < does, and it is total:
 *         -NaN < -inf < negative numbers < -0.0 < +0.0 < positive
 *         numbers < +inf < +NaN (a NaN by the sign bit of its encoding,
 *         NaNs among themselves by payload).  -0.0 and +0.0 are distinct
 *         keys, -0.0 first; add 0.0 to a time first to merge them.
 *         The bits are copied, never loaded as a number, so even a
 *         signalling NaN maps exactly on every target.
 * Complexity: O(1).
 */
static inline uint64_t sq_key_from_double_ptr(const double *d)
{
	uint64_t b;

	memcpy(&b, d, sizeof(b));
	/* positive: above every negative; negative: the magnitude's order
	 * reversed */
	return (b & SQ__SIGN64) ? ~b : (b | SQ__SIGN64);
}

/**
 * sq_key_to_double_ptr - store at @d the double key @k came from
 * @k: any key
 * @d: where the double goes, bit for bit
 * Return: nothing; *@d is the double with sq_key_from_double_ptr(@d) == @k,
 *         exact on every target (NaN payloads, signalling NaNs and the
 *         sign of zero survive the round trip).
 * Complexity: O(1).
 */
static inline void sq_key_to_double_ptr(uint64_t k, double *d)
{
	uint64_t b = (k & SQ__SIGN64) ? (k ^ SQ__SIGN64) : ~k;

	memcpy(d, &b, sizeof(b));
}

/**
 * sq_key_from_double - a double as a key with the same order
 * @d: any double, NaNs and infinities included
 * Return: sq_key_from_double_ptr(&@d): the order written there.
 *         Exact for every double the caller holds, with one exception
 *         the ABI makes: where doubles pass through the x87 stack (i386
 *         without SSE2 math, mostly unoptimised builds), a signalling NaN
 *         passed or returned by value is quieted on the way; the _ptr
 *         pair keeps it.
 * Complexity: O(1).
 */
static inline uint64_t sq_key_from_double(double d)
{
	return sq_key_from_double_ptr(&d);
}

/**
 * sq_key_to_double - the double a key came from
 * @k: any key
 * Return: the d with sq_key_from_double(d) == @k, bit for bit (NaN payloads
 *         and the sign of zero survive the round trip), but for the x87
 *         exception of sq_key_from_double(): a signalling NaN may come back
 *         quieted; sq_key_to_double_ptr() is exact everywhere.
 * Complexity: O(1).
 */
static inline double sq_key_to_double(uint64_t k)
{
	double d;

	sq_key_to_double_ptr(k, &d);
	return d;
}

/*
 * SQ_REQUEUE_SLACK's window (smartq.h), [key, key + slack]:
 * sq__within_slack - is @at in it; sq__slack_end - its end, which
 * saturates at UINT64_MAX.
 */
static inline bool sq__within_slack(uint64_t at, uint64_t key, uint64_t slack)
{
	return at >= key && at - key <= slack;
}

static inline uint64_t sq__slack_end(uint64_t key, uint64_t slack)
{
	return key + slack < key ? UINT64_MAX : key + slack;
}

/*
 * SQ_DEBUG: misuse checks and poisoned links.
 *
 * SQ__MISUSE(cond, fn, mistake) stops the program with "fn: mistake" on
 * stderr when @cond holds.  Without SQ_DEBUG @cond is never evaluated, so
 * release builds pay nothing; @fn and @mistake (a name and a string, no
 * side effects) count as used, so a function that has a name parameter
 * only for the message needs no (void) for it.
 *
 * SQ__POISON(i) is a distinct non-NULL, non-dereferenceable address for
 * dead link number @i (1, 2, 3 ...), written into a node's links when it
 * leaves a queue, so a use after dequeue faults at once and the faulting
 * address tells which link was followed.
 */
#ifdef SQ_DEBUG
static inline void sq__die(const char *fn, const char *mistake)
{
	fprintf(stderr, "%s: %s\n", fn, mistake);
	fflush(stderr);
	abort();
}
#define SQ__MISUSE(cond, fn, mistake)			\
	do {						\
		if (cond)				\
			sq__die((fn), (mistake));	\
	} while (0)
#define SQ__POISON(i) ((void *)(uintptr_t)(0x5a0000u + 0x100u * (unsigned)(i)))
#else
#define SQ__MISUSE(cond, fn, mistake) ((void)(fn), (void)(mistake))
#endif

/*
 * __remove: each backend's internal sq_K__remove(q, n ...) takes queued
 * @n out and leaves it not queued, its dead links poisoned under
 * SQ_DEBUG, as a pop leaves the node it returns.  It checks nothing: the
 * public verbs check for misuse before they call it.
 */

/*
 * SQ__CHECK(cond, fn, node, what) - one invariant inside a check() walk.
 *
 * When @cond is false the enclosing function returns -1; under SQ_DEBUG it
 * first prints "fn: check failed: what (node 0x...)" so a broken structure
 * says which invariant broke and where.  Only check() functions use it.
 */
#ifdef SQ_DEBUG
#define SQ__CHECK(cond, fn, node, what)					\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s: check failed: %s (node %p)\n", \
				(fn), (what), (const void *)(node));	\
			return -1;					\
		}							\
	} while (0)
#else
#define SQ__CHECK(cond, fn, node, what)		\
	do {					\
		(void)(fn);			\
		if (!(cond))			\
			return -1;		\
	} while (0)
#endif

/*
 * The verbs of every kind K, documented once here; a backend's header
 * says only what is its own (a cost, an order, an invariant), and
 * smartq.h's table gives every cost.  Each call takes what the caller
 * serialises; nothing allocates.
 *
 *   void sq_K_init(struct sq_K *q)             an empty queue
 *   void sq_K_node_init(struct sq_K_node *n)   mark @n not queued
 *   bool sq_K_queued(const struct sq_K_node *n)  is @n on a queue now:
 *        between its enqueue and its dequeue or pop (@n went through
 *        node_init at least once)
 *   bool sq_K_empty(const struct sq_K *q), size_t sq_K_count(...)
 *        no node is queued; the number of queued nodes
 *   struct sq_K_node *sq_K_first(const struct sq_K *q)  the node pop
 *        would return (earliest queued among equal keys), NULL if empty;
 *        never walks, changes nothing.  Non-const, like strchr: the
 *        queue's owner owns every node (find, next and prev too)
 *   uint64_t sq_K_key(const struct sq_K_node *n)  the key @n is queued
 *        with, n->key (SQ_KEY: a tie kind's node wraps it)
 *     all O(1) (init: a backend with arrays clears them)
 *
 *   bool sq_K_enqueue(q, n, key)  insert @n, not queued, with @key,
 *        after every node queued with an equal key; true if @n is now
 *        the first node (a timer re-arms its deadline)
 *   bool sq_K_dequeue(q, n)  remove @n, queued on @q; true if it was the
 *        first node; @n is not queued afterwards
 *   struct sq_K_node *sq_K_pop(q)  remove and return the first node, not
 *        queued any more; NULL if empty
 *   struct sq_K_node *sq_K_pop_due(q, now)  pop() if the first key is
 *        <= @now, else NULL and nothing changes (the expiry loop:
 *        while ((n = pop_due(q, now)))); costs what pop does
 *   bool sq_K_requeue(q, n, key)  give @n the new @key: re-arm it; a
 *        node that is not queued is enqueued; @n ends after every other
 *        node with @key; true if the first node or the first key changed
 *   struct sq_K_node *sq_K_find(q, key, match, arg)  the first node in
 *        queue order (the earliest (re)queued; of a tie kind, by less)
 *        with exactly @key for which match(node, @arg) holds (@match
 *        NULL: any), NULL if none; @match must not change the queue.
 *        Its cost is the kind's; t, the nodes of @key that @match
 *        rejects, add to it by design
 *   int sq_K_check(q)  walk the whole structure: 0 if every invariant
 *        the kind's header numbers holds, -1 if not (under SQ_DEBUG the
 *        broken invariant and the node are printed first); O(n)
 *   next(n), prev(n) (the trees)  the node after (before) queued @n in
 *        queue order, NULL at the end; O(log n), amortised O(1) a step
 *   visit, visit_until: SQ__VISIT below; the clock verbs: SQ__NO_CLOCK
 *
 * Under SQ_DEBUG, enqueue of a queued node, dequeue of one that is not
 * queued, dequeue or requeue through a queue the node is not on, and a
 * visit, visit_until or find function that changes the queue stop the
 * program with a message naming the verb the user called.
 */

/*
 * SQ__NO_CLOCK(K) - init_at and the clock verbs of a backend without one
 *
 * Every backend has the ring's clock verbs, so code written over SQ_KINDS
 * drives any backend the same way.  An exact backend is a clock that
 * never moves and makes no key late: init_at ignores @now, its time is
 * 0, its granularity 1 (shift 0), advance changes nothing, and init_geom
 * accepts only shift 0, refusing any other (a geometry is refused, never
 * changed):
 *
 *	void     sq_K_init_at(struct sq_K *q, uint64_t now);
 *	bool     sq_K_init_geom(struct sq_K *q, unsigned gran_shift,
 *	                        uint64_t base);
 *	uint64_t sq_K_time(const struct sq_K *q);
 *	unsigned sq_K_gran_shift(const struct sq_K *q);
 *	uint64_t sq_K_advance(struct sq_K *q, uint64_t now);
 *
 * and expire, SQ__EXPIRE below.  A header expands it once, after its
 * sq_K_init(); so does a tie kind (SQ__TIE_KIND), whose backends have no
 * clock either.
 */
#define SQ__NO_CLOCK(K)							\
	SQ__GEN void sq_##K##_init_at(struct sq_##K *q, uint64_t now)	\
	{								\
		(void)now;						\
		sq_##K##_init(q);					\
	}								\
	SQ__GEN bool sq_##K##_init_geom(struct sq_##K *q,		\
					unsigned gran_shift, uint64_t base) \
	{								\
		if (gran_shift != 0)					\
			return false;					\
		sq_##K##_init_at(q, base);				\
		return true;						\
	}								\
	SQ__GEN uint64_t sq_##K##_time(const struct sq_##K *q)		\
	{								\
		(void)q;						\
		return 0;						\
	}								\
	SQ__GEN unsigned sq_##K##_gran_shift(const struct sq_##K *q)	\
	{								\
		(void)q;						\
		return 0;						\
	}								\
	SQ__GEN uint64_t sq_##K##_advance(struct sq_##K *q, uint64_t now) \
	{								\
		(void)q;						\
		(void)now;						\
		return 0;						\
	}

/*
 * SQ__EXPIRE(K) - the expiry in one call, for a backend without a clock
 *
 *	size_t sq_K_expire(struct sq_K *q, uint64_t now,
 *	                   void (*fn)(struct sq_K_node *, void *), void *arg);
 *
 * fn(node, @arg) on every node whose key is <= @now, in pop order, each
 * popped before fn sees it; fn may free it, re-arm it past @now or use
 * any verb on @q.  A node fn arms at or before @now fires in this call
 * too, so fn must not re-arm its own node so: SQ_DEBUG stops the program
 * when that node is then first.  Returns the count.  On an exact backend
 * it is the pop_due() loop, at pop()'s cost a node; the ring has its own
 * (sq_tring_expire(), which also fires the due nodes of a tick behind
 * one not due).  Expanded after sq_K_pop_due(), sq_K_first() and
 * sq_K_key().
 */
#define SQ__EXPIRE(K)							\
	SQ__GEN size_t sq_##K##_expire(struct sq_##K *q, uint64_t now,	\
				       void (*fn)(struct sq_##K##_node *,	\
						  void *),		\
				       void *arg)			\
	{								\
		struct sq_##K##_node *n;				\
		size_t fired = 0;					\
									\
		while ((n = sq_##K##_pop_due(q, now)) != NULL) {	\
			fn(n, arg);					\
			/* n is read only if queued: fn may free it */	\
			SQ__MISUSE(sq_##K##_first(q) == n &&		\
				   sq_##K##_key(n) <= now,		\
				   "sq_" #K "_expire",			\
				   "fn re-armed its node at or before now"); \
			fired++;					\
		}							\
		return fired;						\
	}

/*
 * SQ__VISIT(K) - sq_K_visit() and sq_K_visit_until(), once for every kind
 *
 *	size_t sq_K_visit(const struct sq_K *q,
 *	                  void (*fn)(struct sq_K_node *, void *), void *arg);
 *	struct sq_K_node *sq_K_visit_until(const struct sq_K *q,
 *	                  bool (*fn)(struct sq_K_node *, void *), void *arg);
 *
 * visit calls fn(node, @arg) once for every queued node and returns the
 * count; visit_until calls it in the same order until it returns true
 * and returns that node, NULL if it never did.  The order is the kind's
 * walk (its header says which: queue order for the trees).  @fn must not
 * change the queue: SQ_DEBUG stops the program when the count changes,
 * naming the verb.  O(n), or O(k) for k calls (plus what the kind's walk
 * says), no allocation, no recursion.
 *
 * A kind writes the walk once, sq_K__visit_until(q, fn, arg, who), @who
 * naming the public verb for SQ_DEBUG; visit is that walk with a
 * function that never stops it and counts.
 */
/* NOLINTBEGIN(bugprone-macro-parentheses): K is a token */
#define SQ__VISIT(K)							\
	struct sq_##K##__visit_all {					\
		void (*fn)(struct sq_##K##_node *, void *);		\
		void *arg;						\
		size_t seen;						\
	};								\
	SQ__GEN bool sq_##K##__visit_one(struct sq_##K##_node *n, void *p) \
	{								\
		struct sq_##K##__visit_all *v =				\
			(struct sq_##K##__visit_all *)p;		\
		v->fn(n, v->arg);					\
		v->seen++;						\
		return false;						\
	}								\
	SQ__GEN size_t sq_##K##_visit(const struct sq_##K *q,		\
				      void (*fn)(struct sq_##K##_node *, \
						 void *),		\
				      void *arg)			\
	{								\
		struct sq_##K##__visit_all v;				\
		v.fn = fn;						\
		v.arg = arg;						\
		v.seen = 0;						\
		(void)sq_##K##__visit_until(q, sq_##K##__visit_one, &v,	\
					    "sq_" #K "_visit");		\
		return v.seen;						\
	}								\
	SQ__GEN struct sq_##K##_node *					\
	sq_##K##_visit_until(const struct sq_##K *q,			\
			     bool (*fn)(struct sq_##K##_node *, void *), \
			     void *arg)					\
	{								\
		return sq_##K##__visit_until(q, fn, arg,		\
					     "sq_" #K "_visit_until");	\
	}
/* NOLINTEND(bugprone-macro-parentheses) */

/*
 * SQ__TIE_PLAIN(B) - the plain kind's dequeue, requeue, pop_due, find,
 * check and expire over a backend @B that has tie kinds: its sq_B__tie_*()
 * verbs (below) with no tie order (NULL: FIFO), each under its own name
 * for SQ_DEBUG's messages.  The hot pair, enqueue and pop, the header
 * writes itself, with the inlining each needs.
 */
/* NOLINTBEGIN(bugprone-macro-parentheses): B is a token */
#define SQ__TIE_PLAIN(B)						\
	static inline bool sq_##B##_dequeue(struct sq_##B *q,		\
					    struct sq_##B##_node *n)	\
	{								\
		return sq_##B##__tie_dequeue(q, n, NULL,		\
					     "sq_" #B "_dequeue");	\
	}								\
	static inline bool sq_##B##_requeue(struct sq_##B *q,		\
					    struct sq_##B##_node *n,	\
					    uint64_t key)		\
	{								\
		return sq_##B##__tie_requeue(q, n, key, NULL,		\
					     "sq_" #B "_requeue");	\
	}								\
	static inline struct sq_##B##_node *				\
	sq_##B##_pop_due(struct sq_##B *q, uint64_t now)		\
	{								\
		return sq_##B##__tie_pop_due(q, now, NULL);		\
	}								\
	static inline struct sq_##B##_node *				\
	sq_##B##_find(const struct sq_##B *q, uint64_t key,		\
		      bool (*match)(const struct sq_##B##_node *, void *), \
		      void *arg)					\
	{								\
		return sq_##B##__tie_find(q, key, match, arg, NULL,	\
					  "sq_" #B "_find");		\
	}								\
	static inline int sq_##B##_check(const struct sq_##B *q)	\
	{								\
		return sq_##B##__tie_check(q, NULL, "sq_" #B "_check");	\
	}								\
	SQ__EXPIRE(B)
/* NOLINTEND(bugprone-macro-parentheses) */

/*
 * SQ__TIE_KIND(B, name, less) - the tie kind @name over the backend @B
 *
 * What SQ_RB_TIE, SQ_GAVL_TIE and SQ_BINOM_TIE expand to (the backends'
 * headers document them).  struct sq_@name and sq_@name_node wrap sq_@B
 * and sq_@B_node as .base, and every verb of the contract is a one-line
 * wrapper (the clock's are SQ__NO_CLOCK's: the backends with tie kinds
 * have none), so the macro API takes @name as it takes @B.  The comparing
 * paths get sq_@name__tie, which orders two nodes of equal key by the
 * user's @less (declared here, defined by the user after the macro); its
 * address is a constant, so an optimising build inlines the call as a
 * direct one.  Not always_inline: a build that does not propagate the
 * constant (gcc -O1 with ASan) must still compile the indirect call.
 *
 * What a backend provides for it: sq_B__tie_item (what its order
 * compares), sq_B__tie_fn, sq_B__tie_node() (an item's node), its verbs
 * with a tie order and a name for SQ_DEBUG's messages,
 * sq_B__tie_{enqueue,dequeue,requeue,pop,pop_due,check,find}, and
 * sq_B__visit_until(), which takes that name too (SQ__VISIT).  The
 * plain verbs call the same functions with NULL (SQ__TIE_PLAIN).
 */
/* NOLINTBEGIN(bugprone-macro-parentheses): name and less are tokens */
#define SQ__TIE_KIND(B, name, less)					\
	struct sq_##name##_node {					\
		struct sq_##B##_node base;				\
	};								\
	struct sq_##name {						\
		struct sq_##B base;					\
	};								\
	static bool less(const struct sq_##name##_node *,		\
			 const struct sq_##name##_node *);		\
	SQ__GEN bool sq_##name##__tie(const sq_##B##__tie_item *a,	\
				      const sq_##B##__tie_item *b)	\
	{								\
		return less(sq_entry_const(sq_##B##__tie_node(a),	\
					   struct sq_##name##_node, base), \
			    sq_entry_const(sq_##B##__tie_node(b),	\
					   struct sq_##name##_node, base)); \
	}								\
	SQ__GEN_INLINE struct sq_##name##_node *			\
	sq_##name##__node(struct sq_##B##_node *n)			\
	{								\
		return n ? sq_entry(n, struct sq_##name##_node, base) : NULL; \
	}								\
	SQ__GEN void sq_##name##_init(struct sq_##name *q)		\
	{								\
		sq_##B##_init(&q->base);				\
	}								\
	SQ__NO_CLOCK(name)						\
	SQ__GEN void sq_##name##_node_init(struct sq_##name##_node *n)	\
	{								\
		sq_##B##_node_init(&n->base);				\
	}								\
	SQ__GEN bool sq_##name##_queued(const struct sq_##name##_node *n) \
	{								\
		return sq_##B##_queued(&n->base);			\
	}								\
	SQ__GEN bool sq_##name##_empty(const struct sq_##name *q)	\
	{								\
		return sq_##B##_empty(&q->base);			\
	}								\
	SQ__GEN size_t sq_##name##_count(const struct sq_##name *q)	\
	{								\
		return sq_##B##_count(&q->base);			\
	}								\
	SQ__GEN uint64_t sq_##name##_key(const struct sq_##name##_node *n) \
	{								\
		return n->base.key;					\
	}								\
	SQ__GEN_INLINE struct sq_##name##_node *			\
	sq_##name##_first(const struct sq_##name *q)			\
	{								\
		return sq_##name##__node(sq_##B##_first(&q->base));	\
	}								\
	SQ__GEN_INLINE bool sq_##name##_enqueue(struct sq_##name *q,	\
						struct sq_##name##_node *n, \
						uint64_t key)		\
	{								\
		return sq_##B##__tie_enqueue(&q->base, &n->base, key,	\
					     sq_##name##__tie,		\
					     "sq_" #name "_enqueue");	\
	}								\
	SQ__GEN_INLINE bool sq_##name##_dequeue(struct sq_##name *q,	\
						struct sq_##name##_node *n) \
	{								\
		return sq_##B##__tie_dequeue(&q->base, &n->base,	\
					     sq_##name##__tie,		\
					     "sq_" #name "_dequeue");	\
	}								\
	SQ__GEN_INLINE bool sq_##name##_requeue(struct sq_##name *q,	\
						struct sq_##name##_node *n, \
						uint64_t key)		\
	{								\
		return sq_##B##__tie_requeue(&q->base, &n->base, key,	\
					     sq_##name##__tie,		\
					     "sq_" #name "_requeue");	\
	}								\
	SQ__GEN_INLINE struct sq_##name##_node *			\
	sq_##name##_pop(struct sq_##name *q)				\
	{								\
		return sq_##name##__node(sq_##B##__tie_pop(&q->base,	\
							   sq_##name##__tie)); \
	}								\
	SQ__GEN_INLINE struct sq_##name##_node *			\
	sq_##name##_pop_due(struct sq_##name *q, uint64_t now)		\
	{								\
		return sq_##name##__node(sq_##B##__tie_pop_due(	\
				&q->base, now, sq_##name##__tie));	\
	}								\
	SQ__GEN int sq_##name##_check(const struct sq_##name *q)	\
	{								\
		return sq_##B##__tie_check(&q->base, sq_##name##__tie,	\
					   "sq_" #name "_check");	\
	}								\
	struct sq_##name##__until {					\
		bool (*fn)(struct sq_##name##_node *, void *);		\
		void *arg;						\
	};								\
	SQ__GEN bool sq_##name##__until_one(struct sq_##B##_node *n, void *v) \
	{								\
		const struct sq_##name##__until *w =			\
			(const struct sq_##name##__until *)v;		\
		return w->fn(sq_##name##__node(n), w->arg);		\
	}								\
	SQ__GEN struct sq_##name##_node *				\
	sq_##name##__visit_until(const struct sq_##name *q,		\
				 bool (*fn)(struct sq_##name##_node *,	\
					    void *),			\
				 void *arg, const char *who)		\
	{								\
		struct sq_##name##__until w;				\
		w.fn = fn;						\
		w.arg = arg;						\
		return sq_##name##__node(sq_##B##__visit_until(	\
				&q->base, sq_##name##__until_one, &w, who)); \
	}								\
	SQ__VISIT(name)							\
	SQ__EXPIRE(name)						\
	struct sq_##name##__match {					\
		bool (*fn)(const struct sq_##name##_node *, void *);	\
		void *arg;						\
	};								\
	SQ__GEN bool sq_##name##__match_one(const struct sq_##B##_node *n, \
					    void *v)			\
	{								\
		const struct sq_##name##__match *w =			\
			(const struct sq_##name##__match *)v;		\
		return w->fn(sq_entry_const(n, struct sq_##name##_node, base), \
			     w->arg);					\
	}								\
	SQ__GEN struct sq_##name##_node *				\
	sq_##name##_find(const struct sq_##name *q, uint64_t key,	\
			 bool (*match)(const struct sq_##name##_node *,	\
				       void *),				\
			 void *arg)					\
	{								\
		struct sq_##name##__match w;				\
		w.fn = match;						\
		w.arg = arg;						\
		return sq_##name##__node(sq_##B##__tie_find(&q->base, key, \
				match ? sq_##name##__match_one : NULL, &w, \
				sq_##name##__tie,			\
				"sq_" #name "_find"));			\
	}

/* SQ__TIE_INORDER(B, name) - next and prev of a tie kind over a tree */
#define SQ__TIE_INORDER(B, name)					\
	SQ__GEN struct sq_##name##_node *				\
	sq_##name##_next(const struct sq_##name##_node *n)		\
	{								\
		return sq_##name##__node(sq_##B##_next(&n->base));	\
	}								\
	SQ__GEN struct sq_##name##_node *				\
	sq_##name##_prev(const struct sq_##name##_node *n)		\
	{								\
		return sq_##name##__node(sq_##B##_prev(&n->base));	\
	}
/* NOLINTEND(bugprone-macro-parentheses) */

#endif /* SMARTQ_COMMON_H */
