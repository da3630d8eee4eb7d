// SPDX-License-Identifier: MIT
//
// cxx.cpp - smartq from C++11: every backend through the macro API
//
// The headers promise to compile as C++ (g++ -std=c++11, strict warnings);
// this unit also runs them: a traits struct per backend made of the
// SQ_* macros, and one template that drives any of them through enqueue,
// first, requeue (also of an idle node), dequeue, pop, pop_due, visit,
// visit_until, find (with a predicate that reads its struct through
// sq_entry_const), FIFO among equal keys, extreme keys,
// sq_entry and check(); and a tie kind (SQ_TIE) of each backend of
// SQ_TIE_KINDS, ordered among equal keys by the task's weight, through
// the same and then through its tie order.  Built with the plain runner
// of sq_test.h.

#include <stdint.h>
#include <string.h>

#include "smartq.h"
#include "sq_test.h"

// The backend is one token, as in C: K becomes a type with static members.
// Every backend of SQ_KINDS gets one, and a test.
#define SQX_TRAITS(K, exact)                                                 \
	struct K##_traits {                                                  \
		typedef SQ_QUEUE(K) queue;                                   \
		typedef SQ_NODE(K) node;                                     \
		static void init(queue *q) { SQ_INIT_AT(K, q, 0); }          \
		static void node_init(node *n) { SQ_NODE_INIT(K, n); }       \
		static bool enqueue(queue *q, node *n, uint64_t key)         \
		{ return SQ_ENQUEUE(K, q, n, key); }                         \
		static node *first(const queue *q) { return SQ_FIRST(K, q); } \
		static bool dequeue(queue *q, node *n)                       \
		{ return SQ_DEQUEUE(K, q, n); }                              \
		static node *pop(queue *q) { return SQ_POP(K, q); }          \
		static node *pop_due(queue *q, uint64_t now)                 \
		{ return SQ_POP_DUE(K, q, now); }                            \
		static size_t visit(const queue *q, void (*fn)(node *, void *), \
				    void *arg)                               \
		{ return SQ_VISIT(K, q, fn, arg); }                          \
		static node *visit_until(const queue *q,                     \
					 bool (*fn)(node *, void *), void *arg) \
		{ return SQ_VISIT_UNTIL(K, q, fn, arg); }                    \
		static node *find(const queue *q, uint64_t key,              \
				  bool (*match)(const node *, void *), void *arg) \
		{ return SQ_FIND(K, q, key, match, arg); }                   \
		static bool requeue(queue *q, node *n, uint64_t key)         \
		{ return SQ_REQUEUE(K, q, n, key); }                         \
		static bool empty(const queue *q) { return SQ_EMPTY(K, q); } \
		static size_t count(const queue *q) { return SQ_COUNT(K, q); } \
		static bool queued(const node *n) { return SQ_QUEUED(K, n); } \
		static int check(const queue *q) { return SQ_CHECK(K, q); }  \
	};

SQ_KINDS(SQX_TRAITS)
SQX_TRAITS(erb, 1)	// the eligible picks: not in SQ_KINDS, same verbs
SQX_TRAITS(egavl, 1)

template <class T> struct task {
	int weight;			// so the link is not at offset 0
	typename T::node link;
	unsigned id;
};

template <class T> static unsigned id_of(typename T::node *n)
{
	return sq_entry(n, task<T>, link)->id;
}

template <class T> static void count_node(typename T::node *n, void *arg)
{
	(void)n;
	++*static_cast<unsigned *>(arg);
}

// visit_until: stop at the node of id *arg
template <class T> static bool stop_at_id(typename T::node *n, void *arg)
{
	return id_of<T>(n) == *static_cast<unsigned *>(arg);
}

// find: the task of id *arg, read through a const node
template <class T> static bool has_id(const typename T::node *n, void *arg)
{
	return sq_entry_const(n, task<T>, link)->id ==
	       *static_cast<const unsigned *>(arg);
}

template <class T> static void exercise()
{
	static typename T::queue q;
	static task<T> t[64];
	unsigned i;

	T::init(&q);
	for (i = 0; i < 64; i++) {
		t[i].weight = 1;
		t[i].id = i;
		T::node_init(&t[i].link);
		SQ_ASSERT(!T::queued(&t[i].link));
	}
	SQ_ASSERT(T::empty(&q));
	SQ_ASSERT(T::first(&q) == NULL);
	SQ_ASSERT(T::pop(&q) == NULL);
	SQ_ASSERT_EQ(T::check(&q), 0);

	// keys inside the ring's default window, so every backend is exact
	SQ_ASSERT(T::enqueue(&q, &t[0].link, 500));
	SQ_ASSERT(!T::enqueue(&q, &t[1].link, 700));
	SQ_ASSERT(!T::enqueue(&q, &t[2].link, 500));	// behind its equal
	SQ_ASSERT(T::enqueue(&q, &t[3].link, 0));
	SQ_ASSERT(!T::enqueue(&q, &t[4].link, 1000));
	SQ_ASSERT_EQ(T::count(&q), 5);
	SQ_ASSERT_EQ(T::check(&q), 0);
	SQ_ASSERT_EQ(id_of<T>(T::first(&q)), 3);

	SQ_ASSERT(T::requeue(&q, &t[3].link, 600));	// first moves back
	SQ_ASSERT_EQ(id_of<T>(T::first(&q)), 0);
	SQ_ASSERT(!T::requeue(&q, &t[4].link, 650));	// tail stays tail
	SQ_ASSERT(!T::dequeue(&q, &t[1].link));	// not the first
	SQ_ASSERT(!T::queued(&t[1].link));
	SQ_ASSERT(!T::requeue(&q, &t[1].link, 800));	// re-armed, idle
	unsigned seen = 0;
	SQ_ASSERT_EQ(T::visit(&q, count_node<T>, &seen), 5);
	SQ_ASSERT_EQ(seen, 5);
	unsigned stop = 4;
	SQ_ASSERT(T::visit_until(&q, stop_at_id<T>, &stop) == &t[4].link);
	stop = 9;				// not queued: never stops
	SQ_ASSERT(T::visit_until(&q, stop_at_id<T>, &stop) == NULL);
	// keys now 0:500 2:500 3:600 4:650 1:800
	SQ_ASSERT(T::find(&q, 500, NULL, NULL) == &t[0].link);
	unsigned want = 2;
	SQ_ASSERT(T::find(&q, 500, has_id<T>, &want) == &t[2].link);
	SQ_ASSERT(T::find(&q, 600, has_id<T>, &want) == NULL);
	SQ_ASSERT(T::find(&q, 501, NULL, NULL) == NULL);
	SQ_ASSERT(T::dequeue(&q, &t[0].link));	// the first
	SQ_ASSERT(T::requeue(&q, &t[0].link, 400));	// and back in front
	SQ_ASSERT(T::dequeue(&q, &t[1].link) == false);
	SQ_ASSERT_EQ(T::check(&q), 0);
	SQ_ASSERT(T::pop_due(&q, 399) == NULL);

	static const unsigned order[] = { 0, 2, 3, 4 };
	for (i = 0; i < 4; i++) {
		typename T::node *n = T::pop_due(&q, 1000);
		SQ_ASSERT(n != NULL);
		SQ_ASSERT_EQ(id_of<T>(n), order[i]);
		SQ_ASSERT(!T::queued(n));
		SQ_ASSERT_EQ(T::check(&q), 0);
	}
	SQ_ASSERT(T::empty(&q));

	// FIFO among many equal keys, mixed with others
	for (i = 0; i < 64; i++)
		T::enqueue(&q, &t[i].link, 1000 + (i % 2));
	for (i = 0; i < 64; i++)
		SQ_ASSERT_EQ(id_of<T>(T::pop(&q)), i < 32 ? 2 * i : 2 * (i - 32) + 1);
	SQ_ASSERT_EQ(T::check(&q), 0);

	// extreme keys, all distinct
	T::enqueue(&q, &t[0].link, UINT64_MAX);
	T::enqueue(&q, &t[1].link, 2000);
	T::enqueue(&q, &t[2].link, UINT64_MAX - 1);
	SQ_ASSERT_EQ(T::check(&q), 0);
	SQ_ASSERT_EQ(id_of<T>(T::pop(&q)), 1);
	SQ_ASSERT_EQ(id_of<T>(T::pop(&q)), 2);
	SQ_ASSERT_EQ(id_of<T>(T::pop(&q)), 0);
	SQ_ASSERT(T::empty(&q));
	SQ_ASSERT_EQ(T::check(&q), 0);
}

template <class T> static bool not_light(const typename T::node *n, void *arg)
{
	(void)arg;
	return sq_entry_const(n, task<T>, link)->weight != 0;
}

// equal keys come out by weight, FIFO among equal weights
template <class T> static void exercise_tie()
{
	static typename T::queue q;
	static task<T> t[8];
	static const unsigned order[] = { 0, 3, 6, 2, 5, 1, 4, 7 };
	unsigned i;

	T::init(&q);
	for (i = 0; i < 8; i++) {
		t[i].weight = (int)(i * 5 % 3);	// 0 2 1 0 2 1 0 2
		t[i].id = i;
		T::node_init(&t[i].link);
		T::enqueue(&q, &t[i].link, 42);
	}
	SQ_ASSERT_EQ(T::check(&q), 0);
	// find answers in the tie order: the first node of weight 1 or 2
	// is 2 (weight 1), though 1 (weight 2) came first
	SQ_ASSERT(T::find(&q, 42, NULL, NULL) == &t[0].link);
	SQ_ASSERT(T::find(&q, 42, not_light<T>, NULL) == &t[2].link);
	for (i = 0; i < 8; i++)
		SQ_ASSERT_EQ(id_of<T>(T::pop(&q)), order[i]);
	SQ_ASSERT(T::empty(&q));
}

#define SQX_TIE(B)							\
	SQ_TIE(B, cxx_tie_##B, cxx_tie_##B##_less);			\
	SQX_TRAITS(cxx_tie_##B, 1)					\
	static bool cxx_tie_##B##_less(const SQ_NODE(cxx_tie_##B) *a,	\
				       const SQ_NODE(cxx_tie_##B) *b)	\
	{								\
		typedef task<cxx_tie_##B##_traits> t;			\
		return sq_entry_const(a, t, link)->weight <		\
		       sq_entry_const(b, t, link)->weight;		\
	}
SQ_TIE_KINDS(SQX_TIE)

#define SQX_TEST(K, exact) SQ_TEST(cxx_##K) { exercise<K##_traits>(); }
SQ_KINDS(SQX_TEST)
#define SQX_TIE_TEST(B)							\
	SQ_TEST(cxx_tie_##B)						\
	{								\
		exercise<cxx_tie_##B##_traits>();			\
		exercise_tie<cxx_tie_##B##_traits>();			\
	}
SQ_TIE_KINDS(SQX_TIE_TEST)

SQX_TEST(erb, 1)
SQX_TEST(egavl, 1)

// erb's own verbs: the pick skips an ineligible first node
SQ_TEST(cxx_erb_pick)
{
	static SQ_QUEUE(erb) q;
	static task<erb_traits> t[3];
	unsigned i;

	SQ_INIT(erb, &q);
	for (i = 0; i < 3; i++) {
		t[i].id = i;
		SQ_NODE_INIT(erb, &t[i].link);
		SQ_SET_ELIG(erb, &q, &t[i].link, 30 - 10 * (uint64_t)i);
		SQ_ENQUEUE(erb, &q, &t[i].link, 100 + (uint64_t)i);
	}
	SQ_ASSERT(SQ_PICK_ELIGIBLE(erb, &q, 5) == NULL);
	SQ_ASSERT_EQ(id_of<erb_traits>(SQ_PICK_ELIGIBLE(erb, &q, 15)), 2);
	SQ_SET_ELIG(erb, &q, &t[1].link, 0);
	SQ_ASSERT_EQ(id_of<erb_traits>(SQ_PICK_ELIGIBLE(erb, &q, 15)), 1);
	SQ_ASSERT_EQ(SQ_CHECK(erb, &q), 0);
}

#define SQX_ENTRY(K, exact) SQ_T(cxx_##K),
#define SQX_TIE_ENTRY(B) SQ_T(cxx_tie_##B),
static const sq_test_entry tests[] = {
	SQ_KINDS(SQX_ENTRY) SQ_TIE_KINDS(SQX_TIE_ENTRY)
	SQX_ENTRY(erb, 1) SQX_ENTRY(egavl, 1) SQ_T(cxx_erb_pick)
};

SQ_TEST_MAIN("cxx", tests)
