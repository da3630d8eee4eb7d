/* SPDX-License-Identifier: MIT */
/*
 * clock.h - the harnesses' one clock and one median (sq-bench, sq-elig,
 * sq-remote)
 *
 *	bq_clock_probe();		once, before the first read
 *	t0 = bq_clock_begin(); ...; t1 = bq_clock_end();   ticks
 *	bq_clock_hz()			ticks a second (against the below)
 *	bq_mono_ns()			CLOCK_MONOTONIC, in ns (wall time)
 *	bq_median_sort(v, n)		sorts v, returns its median
 *
 * On x86 a tick is the TSC, read serialised: lfence;rdtsc;lfence at the
 * start (nothing before finishes late, nothing after starts early) and
 * rdtscp;lfence at the end (lfence;rdtsc;lfence without rdtscp).
 * Elsewhere, or with -DBQ_NO_TSC, a tick is a nanosecond of
 * CLOCK_MONOTONIC.
 */
#ifndef SQ_BENCH_CLOCK_H
#define SQ_BENCH_CLOCK_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#if (defined(__x86_64__) || defined(__i386__)) && !defined(BQ_NO_TSC)
#include <cpuid.h>
#define BQ_HAVE_TSC 1
#else
#define BQ_HAVE_TSC 0
#endif

static inline uint64_t bq_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if BQ_HAVE_TSC
static int bq_have_rdtscp;

static inline uint64_t bq_clock_begin(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
			     : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t bq_clock_end(void)
{
	uint32_t lo, hi, aux;

	if (bq_have_rdtscp)
		__asm__ __volatile__("rdtscp\n\tlfence"
				     : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	else
		__asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
				     : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline void bq_clock_probe(void)
{
	unsigned a, b, c, d;

	bq_have_rdtscp = __get_cpuid(0x80000001u, &a, &b, &c, &d) &&
			 (d & (1u << 27));
}
#else
static inline uint64_t bq_clock_begin(void) { return bq_mono_ns(); }
static inline uint64_t bq_clock_end(void) { return bq_mono_ns(); }
static inline void bq_clock_probe(void) { }
#endif

/* Ticks per second, measured against CLOCK_MONOTONIC over ~100 ms. */
static inline double bq_clock_hz(void)
{
#if BQ_HAVE_TSC
	struct timespec nap = { 0, 100000000 };
	uint64_t t0, t1, c0, c1;

	t0 = bq_mono_ns();
	c0 = bq_clock_begin();
	nanosleep(&nap, NULL);
	t1 = bq_mono_ns();
	c1 = bq_clock_end();
	return (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
#else
	return 1e9;
#endif
}

static inline int bq_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* sort @v (@n > 0) and return its median (of the middle two when even) */
static inline double bq_median_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), bq_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

#endif /* SQ_BENCH_CLOCK_H */
