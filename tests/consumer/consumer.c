/*
 * consumer.c - a user's program, built against smartq each way a user
 * can take it: the one file (tests/single.sh), CMake and Meson
 * (tests/consumer/).
 *
 * It prints the version it was compiled against, then, for every backend,
 * pops three items queued out of order and says whether they came out in
 * key order with the tie in arrival order.  It exits 0 only if all did.
 */
#include <stdio.h>
#include <smartq.h>

/* Nodes 0, 1, 2 get keys 20, 10, 20: they must come out 1, 0, 2. */
#define CONSUMER_RUN(K, exact)                                              \
	static int run_##K(void)                                            \
	{                                                                   \
		static const uint64_t key[3] = { 20, 10, 20 };              \
		static const int want[3] = { 1, 0, 2 };                     \
		SQ_QUEUE(K) q;                                              \
		SQ_NODE(K) node[3], *n;                                     \
		int i, bad = 0;                                             \
                                                                            \
		SQ_INIT(K, &q);                                             \
		for (i = 0; i < 3; i++) {                                   \
			SQ_NODE_INIT(K, &node[i]);                          \
			SQ_ENQUEUE(K, &q, &node[i], key[i]);                \
		}                                                           \
		for (i = 0; (n = SQ_POP(K, &q)) != NULL; i++)               \
			bad |= i >= 3 || n != &node[want[i]];               \
		printf(" %s", #K);                                          \
		return bad || i != 3 || SQ_CHECK(K, &q) != 0;               \
	}
SQ_KINDS(CONSUMER_RUN)

int main(void)
{
	int bad = 0;

	printf("smartq %s:", SQ_VERSION_STRING);
#define CONSUMER_CALL(K, exact) bad += run_##K();
	SQ_KINDS(CONSUMER_CALL)
	printf(bad ? ": %d FAILED\n" : ": ok\n", bad);
	return bad != 0;
}
