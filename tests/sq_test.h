/* SPDX-License-Identifier: MIT */
/*
 * sq_test.h - one way to write a smartq test, two ways to run it
 *
 * With SQ_HAVE_CMOCKA (the Makefile defines it when cmocka is installed)
 * tests run under cmocka; otherwise under the small runner below, which
 * keeps the same sources and ends with "suite: N passed, N failed".
 *
 *	SQ_TEST(rb_empty)
 *	{
 *		SQ_ASSERT(...);
 *		SQ_ASSERT_EQ(a, b);
 *		SQ_ASSERTF(cond, "seed %llu\n", seed);
 *	}
 *	static const sq_test_entry tests[] = { SQ_T(rb_empty), ... };
 *	SQ_TEST_MAIN("wb_rb", tests)
 */
#ifndef SQ_TEST_H
#define SQ_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SQ_TEST(name)                                   \
	static void name##_body(void);                  \
	static void name(void **sq_state)               \
	{                                               \
		(void)sq_state;                         \
		name##_body();                          \
	}                                               \
	static void name##_body(void)

#define SQ_NELEM(a) (sizeof(a) / sizeof((a)[0]))

#ifdef SQ_HAVE_CMOCKA
#include <cmocka.h>

typedef struct CMUnitTest sq_test_entry;
#define SQ_T(name) cmocka_unit_test(name)
#define SQ_ASSERT(c) assert_true(c)
#define SQ_ASSERT_EQ(a, b) assert_int_equal((a), (b))
#define SQ_ASSERTF(c, ...)                              \
	do {                                            \
		if (!(c)) {                             \
			fprintf(stderr, __VA_ARGS__);   \
			fail_msg("%s", #c);             \
		}                                       \
	} while (0)
#define SQ_TEST_MAIN(suite, arr)                                        \
	int main(void)                                                  \
	{                                                               \
		return cmocka_run_group_tests_name(suite, arr, NULL, NULL) \
			       ? 1 : 0;                                 \
	}

#else /* plain C runner */

typedef struct {
	const char *name;
	void (*fn)(void **state);
} sq_test_entry;

#define SQ_T(name) { #name, name }

static jmp_buf sq__test_jmp;

static void sq__test_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: assertion failed: %s\n", file, line, what);
	fflush(stderr);
	longjmp(sq__test_jmp, 1);
}

#define SQ_ASSERT(c)                                                  \
	do {                                                          \
		if (!(c))                                             \
			sq__test_fail(__FILE__, __LINE__, #c);        \
	} while (0)
#define SQ_ASSERT_EQ(a, b)                                                   \
	do {                                                                 \
		unsigned long long sq__a = (unsigned long long)(a);          \
		unsigned long long sq__b = (unsigned long long)(b);          \
		if (sq__a != sq__b) {                                        \
			fprintf(stderr, "%s:%d: %llu != %llu\n", __FILE__,   \
				__LINE__, sq__a, sq__b);                     \
			sq__test_fail(__FILE__, __LINE__, #a " == " #b);     \
		}                                                            \
	} while (0)
#define SQ_ASSERTF(c, ...)                                           \
	do {                                                         \
		if (!(c)) {                                          \
			fprintf(stderr, __VA_ARGS__);                \
			sq__test_fail(__FILE__, __LINE__, #c);       \
		}                                                    \
	} while (0)

static int sq__test_run(const char *suite, const sq_test_entry *t, size_t n)
{
	/* volatile: they live across setjmp/longjmp */
	volatile size_t i, passed = 0, failed = 0;

	printf("[==========] %s: running %zu test(s)\n", suite, n);
	for (i = 0; i < n; i++) {
		printf("[ RUN      ] %s\n", t[i].name);
		fflush(stdout);
		if (setjmp(sq__test_jmp) == 0) {
			t[i].fn(NULL);
			printf("[       OK ] %s\n", t[i].name);
			passed++;
		} else {
			printf("[  FAILED  ] %s\n", t[i].name);
			failed++;
		}
	}
	printf("%s: %zu passed, %zu failed\n", suite, (size_t)passed,
	       (size_t)failed);
	return failed ? 1 : 0;
}

#define SQ_TEST_MAIN(suite, arr)                                \
	int main(void)                                          \
	{                                                       \
		return sq__test_run(suite, arr, SQ_NELEM(arr)); \
	}

#endif /* SQ_HAVE_CMOCKA */
#endif /* SQ_TEST_H */
