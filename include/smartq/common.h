/* SPDX-License-Identifier: MIT */
/*
 * smartq/common.h - what every smartq backend shares
 *
 * The key type, container_of (sq_entry), bit helpers with ISO fallbacks,
 * and the SQ_DEBUG machinery: misuse checks that name the function and the
 * mistake, poison values for dead links, and the reporting used by every
 * backend's check().
 *
 * Nothing here allocates or locks.  Without SQ_DEBUG every check below
 * compiles to nothing and its condition is not evaluated.
 */
#ifndef SMARTQ_COMMON_H
#define SMARTQ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * Hints.  SQ__INLINE for the small hot helpers; SQ__SLOW for rebalancing
 * and other rare paths kept out of line, so the hot operations stay small
 * enough to inline into the caller's loop with gcc and clang alike.
 * SQ__OPAQUE(x) hides how a value was computed, so the compiler cannot
 * turn a branch-free select back into a branch (the compares that steer a
 * descent or a heap link are coin flips to a predictor).
 * SQ__KEEP_BRANCH() in one arm of an if keeps it a branch: the compiler
 * cannot merge the two arms' stores into one behind a conditional move.
 * Between two stores it keeps them two: gcc does not pair them into one
 * wider store, from whose upper half a later narrow load is forwarded
 * slowly if at all.
 */
#ifdef SQ__GNUC
#define SQ__LIKELY(x)   __builtin_expect(!!(x), 1)
#define SQ__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SQ__INLINE      static inline __attribute__((always_inline))
#define SQ__SLOW        static __attribute__((noinline, unused))
#define SQ__OPAQUE(x)   __asm__("" : "+r"(x))
#define SQ__KEEP_BRANCH() __asm__ __volatile__("")
#else
#define SQ__LIKELY(x)   (x)
#define SQ__UNLIKELY(x) (x)
#define SQ__INLINE      static inline
#define SQ__SLOW        static inline
#define SQ__OPAQUE(x)   ((void)0)
#define SQ__KEEP_BRANCH() ((void)0)
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

/* sq__popcount64 - number of set bits. */
static inline unsigned sq__popcount64(uint64_t x)
{
#ifdef SQ__GNUC
	return (unsigned)__builtin_popcountll(x);
#else
	unsigned n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
#endif
}

/*
 * SQ_DEBUG: misuse checks and poisoned links.
 *
 * SQ__MISUSE(cond, fn, mistake) stops the program with "fn: mistake" on
 * stderr when @cond holds.  Without SQ_DEBUG it expands to nothing and
 * @cond is never evaluated, so release builds pay nothing.
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
#define SQ__MISUSE(cond, fn, mistake) ((void)0)
#endif

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
		if (!(cond))			\
			return -1;		\
	} while (0)
#endif

#endif /* SMARTQ_COMMON_H */
