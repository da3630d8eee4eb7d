/* SPDX-License-Identifier: MIT */
/*
 * keys.c - the key maps of common.h: order kept, round trips exact
 *
 * sq_key_from_i64/sq_key_to_i64 and sq_key_from_double/sq_key_to_double
 * must be bijections that keep order.  Checked at every edge (0, -0.0,
 * the limits, subnormals, the infinities, NaNs of both signs and several
 * payloads), over every pair of a table of edge values, and on random
 * values and random bit patterns; seeds from SQ_SEED, printed on failure.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smartq.h"
#include "rng.h"
#include "sq_test.h"

static uint64_t seed, rng;

/* every test starts from SQ_SEED (default below), so each repeats alone */
static void seed_test(void)
{
	const char *s = getenv("SQ_SEED");

	seed = s && *s ? strtoull(s, NULL, 0) : 20070417u;
	rng = seed;
}

static uint64_t bits_of(double d)
{
	uint64_t b;

	memcpy(&b, &d, sizeof(b));
	return b;
}

static double double_of(uint64_t b)
{
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

/* the order the map promises: by sign bit, then magnitude bits */
static int ref_cmp(double a, double b)
{
	uint64_t x = bits_of(a), y = bits_of(b);
	int sx = (int)(x >> 63), sy = (int)(y >> 63);

	if (sx != sy)
		return sx ? -1 : 1;
	x &= ~((uint64_t)1 << 63);
	y &= ~((uint64_t)1 << 63);
	if (x == y)
		return 0;
	return (x < y) == !sx ? -1 : 1;	/* negatives: larger magnitude first */
}

static int key_cmp(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static void check_double_pair(double a, double b)
{
	uint64_t ka = sq_key_from_double(a), kb = sq_key_from_double(b);

	SQ_ASSERTF(key_cmp(ka, kb) == ref_cmp(a, b),
		   "order of %a and %a (bits %016llx %016llx), SQ_SEED=%llu\n",
		   a, b, (unsigned long long)bits_of(a),
		   (unsigned long long)bits_of(b), (unsigned long long)seed);
	/* for numbers (not NaN) the key order is the order of < and == */
	if (a == a && b == b && !(a == 0 && b == 0))
		SQ_ASSERTF((a < b) == (ka < kb) && (a == b) == (ka == kb),
			   "key order of %a and %a differs from <\n", a, b);
}

/*
 * i386 passes and returns doubles on the x87 stack, whose loads quiet a
 * signalling NaN: there, and only there, the by-value pair may give back a
 * signalling NaN quieted (the header's stated exception).  The _ptr pair is
 * exact everywhere.
 */
#if defined(__i386__) || defined(_M_IX86)
#define X87_QUIETS 1
#else
#define X87_QUIETS 0
#endif

#define QUIET_BIT ((uint64_t)1 << 51)

/* @bits as a load onto the x87 stack leaves them: a signalling NaN quieted */
static uint64_t quieted(uint64_t bits)
{
	int nan = (bits & 0x7ff0000000000000u) == 0x7ff0000000000000u &&
		  (bits & 0x000fffffffffffffu) != 0;

	return nan ? bits | QUIET_BIT : bits;
}

/* the by-value pair gave @got for @want: exact, or the stated exception */
static int by_value_ok(uint64_t got, uint64_t want)
{
	return got == want || (X87_QUIETS && got == quieted(want));
}

static void check_double_round_trip(uint64_t bits)
{
	uint64_t k, k2, got;
	double d, back;

	/* through pointers: exact on every target, signalling NaNs too */
	memcpy(&d, &bits, sizeof(d));
	k = sq_key_from_double_ptr(&d);
	sq_key_to_double_ptr(k, &back);
	memcpy(&got, &back, sizeof(got));
	SQ_ASSERTF(got == bits, "double %016llx came back as %016llx (ptr)\n",
		   (unsigned long long)bits, (unsigned long long)got);
	/* and the other way: every key is some double's */
	sq_key_to_double_ptr(bits, &back);
	k2 = sq_key_from_double_ptr(&back);
	SQ_ASSERTF(k2 == bits, "key %016llx does not round-trip (ptr)\n",
		   (unsigned long long)bits);

	/* by value: the same, but for the x87 exception */
	got = bits_of(sq_key_to_double(sq_key_from_double(d)));
	SQ_ASSERTF(by_value_ok(got, bits), "double %016llx came back as %016llx\n",
		   (unsigned long long)bits, (unsigned long long)got);
	sq_key_to_double_ptr(bits, &back);
	memcpy(&got, &back, sizeof(got));
	k2 = sq_key_from_double(sq_key_to_double(bits));
	sq_key_to_double_ptr(k2, &back);
	memcpy(&k, &back, sizeof(k));	/* k: the double bits k2 stands for */
	SQ_ASSERTF(by_value_ok(k, got), "key %016llx does not round-trip\n",
		   (unsigned long long)bits);
}

static const uint64_t edge_bits[] = {
	0x0000000000000000u,	/* +0.0 */
	0x8000000000000000u,	/* -0.0 */
	0x0000000000000001u,	/* smallest subnormal */
	0x8000000000000001u,
	0x000fffffffffffffu,	/* largest subnormal */
	0x800fffffffffffffu,
	0x0010000000000000u,	/* DBL_MIN */
	0x8010000000000000u,
	0x3ff0000000000000u,	/* 1.0 */
	0xbff0000000000000u,	/* -1.0 */
	0x3ff0000000000001u,	/* 1.0 + ulp */
	0x7fefffffffffffffu,	/* DBL_MAX */
	0xffefffffffffffffu,
	0x7ff0000000000000u,	/* +inf */
	0xfff0000000000000u,	/* -inf */
	0x7ff0000000000001u,	/* signalling NaN */
	0x7ff8000000000000u,	/* quiet NaN */
	0x7fffffffffffffffu,	/* NaN, all payload */
	0xfff8000000000000u,	/* negative quiet NaN */
	0xffffffffffffffffu,
};

SQ_TEST(double_edges)
{
	size_t i, j;

	seed_test();
	for (i = 0; i < SQ_NELEM(edge_bits); i++) {
		check_double_round_trip(edge_bits[i]);
		for (j = 0; j < SQ_NELEM(edge_bits); j++)
			check_double_pair(double_of(edge_bits[i]),
					  double_of(edge_bits[j]));
	}
	/* the written-down order: -NaN < -inf < -1 < -0.0 < +0.0 < 1 < inf < NaN */
	SQ_ASSERT(sq_key_from_double(-NAN) < sq_key_from_double(-INFINITY) ||
		  !(bits_of(-NAN) >> 63));
	SQ_ASSERT(sq_key_from_double(-INFINITY) < sq_key_from_double(-DBL_MAX));
	SQ_ASSERT(sq_key_from_double(-1.0) < sq_key_from_double(-0.0));
	SQ_ASSERT(sq_key_from_double(-0.0) < sq_key_from_double(0.0));
	SQ_ASSERT(sq_key_from_double(0.0) < sq_key_from_double(double_of(1)));
	SQ_ASSERT(sq_key_from_double(DBL_MAX) < sq_key_from_double(INFINITY));
	SQ_ASSERT(sq_key_from_double(INFINITY) < sq_key_from_double(NAN) ||
		  (bits_of(NAN) >> 63));
	SQ_ASSERT(sq_key_from_double(0.0) == (uint64_t)1 << 63);
}

SQ_TEST(double_random)
{
	unsigned long i;

	seed_test();
	for (i = 0; i < 200000; i++) {
		/* raw bit patterns (every class), and numbers near each other */
		uint64_t a = rng_next(&rng), b = rng_next(&rng);
		double x = (double)(int64_t)rng_next(&rng) / 4096.0;

		check_double_round_trip(a);
		check_double_pair(double_of(a), double_of(b));
		check_double_pair(x, x + 1.0);
		check_double_pair(x, -x);
		check_double_pair(x, nextafter(x, INFINITY));
	}
}

static void check_i64_pair(int64_t a, int64_t b)
{
	uint64_t ka = sq_key_from_i64(a), kb = sq_key_from_i64(b);

	SQ_ASSERTF((a < b) == (ka < kb) && (a == b) == (ka == kb),
		   "order of %lld and %lld, SQ_SEED=%llu\n", (long long)a,
		   (long long)b, (unsigned long long)seed);
	SQ_ASSERTF(sq_key_to_i64(ka) == a, "%lld did not round-trip\n",
		   (long long)a);
}

SQ_TEST(i64_edges_and_random)
{
	static const int64_t edge[] = {
		INT64_MIN, INT64_MIN + 1, -2, -1, 0, 1, 2, INT64_MAX - 1, INT64_MAX,
	};
	size_t i, j;
	unsigned long n;

	seed_test();
	for (i = 0; i < SQ_NELEM(edge); i++)
		for (j = 0; j < SQ_NELEM(edge); j++)
			check_i64_pair(edge[i], edge[j]);
	SQ_ASSERT(sq_key_from_i64(INT64_MIN) == 0);
	SQ_ASSERT(sq_key_from_i64(-1) == ((uint64_t)1 << 63) - 1);
	SQ_ASSERT(sq_key_from_i64(0) == (uint64_t)1 << 63);
	SQ_ASSERT(sq_key_from_i64(INT64_MAX) == UINT64_MAX);
	SQ_ASSERT(sq_key_to_i64(0) == INT64_MIN);
	SQ_ASSERT(sq_key_to_i64(UINT64_MAX) == INT64_MAX);
	for (n = 0; n < 200000; n++) {
		uint64_t k = rng_next(&rng);

		SQ_ASSERTF(sq_key_from_i64(sq_key_to_i64(k)) == k,
			   "key %llx does not round-trip\n", (unsigned long long)k);
		check_i64_pair(sq_key_to_i64(k), sq_key_to_i64(rng_next(&rng)));
		check_i64_pair(sq_key_to_i64(k), sq_key_to_i64(k) / 2);
	}
}

static const sq_test_entry tests[] = {
	SQ_T(double_edges),
	SQ_T(double_random),
	SQ_T(i64_edges_and_random),
};

SQ_TEST_MAIN("keys", tests)
