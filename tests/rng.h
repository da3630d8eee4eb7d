/* SPDX-License-Identifier: MIT */
/*
 * rng.h - the tests' one random number generator and one way to pick keys
 *
 * splitmix64: small, good enough for tests, and a whole run repeats from
 * the one 64-bit seed a failure prints.
 *
 *	uint64_t s = seed;
 *	rng_next(&s);			64 random bits
 *	rng_below(&s, n);		in [0, n), n > 0
 *	rng_key(&s, RNG_KEYS_EDGES);	a key from one of the classes below
 */
#ifndef SQ_TESTS_RNG_H
#define SQ_TESTS_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static inline unsigned rng_below(uint64_t *s, unsigned n)
{
	return (unsigned)(rng_next(s) % n);
}

/* key classes for rng_key() */
enum rng_keys {
	RNG_KEYS_TIES,		/* 0..7: most keys equal to another */
	RNG_KEYS_SMALL,		/* 0..999 */
	RNG_KEYS_FULL,		/* the whole 64-bit range */
	RNG_KEYS_EDGES,		/* 0, 1, 2, UINT64_MAX - 2 .. UINT64_MAX, any */
	RNG_KEYS_CLASSES	/* how many */
};

static inline uint64_t rng_key(uint64_t *s, unsigned cls)
{
	switch (cls) {
	case RNG_KEYS_TIES:
		return rng_below(s, 8);
	case RNG_KEYS_SMALL:
		return rng_below(s, 1000);
	case RNG_KEYS_FULL:
		return rng_next(s);
	default:
		switch (rng_below(s, 5)) {
		case 0:
			return 0;
		case 1:
			return UINT64_MAX;
		case 2:
			return UINT64_MAX - rng_below(s, 3);
		case 3:
			return rng_below(s, 3);
		default:
			return rng_next(s);
		}
	}
}

#endif /* SQ_TESTS_RNG_H */
