/* SPDX-License-Identifier: MIT */
/*
 * remote.c - smartq/remote.h measured: make bench-remote [REMOTE_ARGS=...]
 *
 * 1. The owner's own path with the inbox empty, against the plain queue:
 *    the hold loop (first, pop, enqueue at key + inc) and expiry (pop_due
 *    a tick's timers, re-arm each), through SQ_REMOTE_Q with a drain per
 *    iteration, for every backend of SQ_KINDS; ns per iteration, the
 *    minimum of the repetitions, and the ratio remote / plain.
 * 2. P producer threads (1 up to the cores) arming (3 in 4) and cancelling
 *    random timers of their own on one owner thread, which drains and
 *    expires in a loop: commands per second with the inbox, with a pthread
 *    mutex around the same backend (every producer's command and every
 *    loop of the owner take it) and with a mutex around an array heap
 *    with an index in each node (libevent's shape), side by side.
 *
 * The last line is the smallest ratio of part 2 (every kind run), inbox
 * over a mutex, as N.NNx.  Wall-clock time (CLOCK_MONOTONIC); a benchmark, never a test.
 *
 *   -n N      timers in part 1 (1024)      -l L   loops per point (1000000)
 *   -r R      repetitions (5)              -p P   most producers (the cores)
 *   -c C      commands per producer (1000000)
 *   -k KIND   the backend of part 2 (all: every one of SQ_KINDS)
 *   -s        part 2 with a core per thread (Linux): the owner on CPU 0,
 *             producer i on CPU (i + 1) mod the cores; by default the
 *             scheduler places them, and two threads that share a core
 *             take turns, so each drain finds more commands coalesced
 */
#define _GNU_SOURCE		/* pthread_setaffinity_np, CPU_SET */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "smartq.h"
#include "clock.h"

static unsigned opt_n = 1024, opt_reps = 5, opt_p, opt_cores;
static bool opt_spread;
static unsigned long opt_loops = 1000000, opt_cmds = 1000000;
static const char *opt_kind = "all";

/* wall time: threads on several cores share no TSC reading */
static double now_s(void)
{
	return (double)bq_mono_ns() / 1e9;
}

static uint64_t rng_next(uint64_t *s)	/* xorshift64 */
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* an opaque sink, so the loops are not optimised away */
static volatile uint64_t sink;

/* ---- part 1: the owner's path ----------------------------------------- */

/* a queue of type QT into @qp, set up by INIT on q_, and @total nodes of
 * type NT into @np, each set up by NODE_INIT on n_ + j: for both parts,
 * remote and plain */
#define SETUP(qp, np, total, QT, NT, INIT, NODE_INIT)                          \
	do {                                                                   \
		QT *q_ = malloc(sizeof(*q_));                                  \
		NT *n_ = calloc((total), sizeof(*n_));                         \
		size_t j;                                                      \
		if (!q_ || !n_)                                                \
			exit(1);                                               \
		INIT;                                                          \
		for (j = 0; j < (total); j++)                                  \
			NODE_INIT;                                             \
		(qp) = q_;                                                     \
		(np) = n_;                                                     \
	} while (0)

/* part 1's queue: N nodes queued at key expression KEY */
#define OWNER_SETUP(K, r, n, KEY)                                              \
	SETUP(r, n, opt_n, SQ_REMOTE(K), SQ_REMOTE_NODE(K),                   \
	      SQ_REMOTE_INIT(K, q_),                                           \
	      (SQ_REMOTE_NODE_INIT(K, n_ + j),                                 \
	       (void)SQ_ENQUEUE(K, SQ_REMOTE_Q(K, q_), &n_[j].base, KEY)))

/* plain and remote, one pair per kind: hold and expiry, ns per iteration */
#define OWNER_PATH(K, exact)                                                   \
	static double K##_hold(bool remote)                                    \
	{                                                                      \
		SQ_REMOTE(K) *r;                                               \
		SQ_REMOTE_NODE(K) *n;                                          \
		SQ_QUEUE(K) *q;                                                \
		uint64_t rng = 42, sum = 0;                                    \
		unsigned long i;                                               \
		double t;                                                      \
		OWNER_SETUP(K, r, n, rng_next(&rng) >> 44);                    \
		q = SQ_REMOTE_Q(K, r);                                         \
		t = now_s();                                                   \
		for (i = 0; i < opt_loops; i++) {                              \
			SQ_NODE(K) *f;                                         \
			uint64_t k;                                            \
			if (remote) {                                          \
				sum += SQ_REMOTE_DRAIN(K, r);                  \
				q = SQ_REMOTE_Q(K, r);                         \
			}                                                      \
			f = SQ_POP(K, q);                                      \
			k = SQ_KEY(K, f) + (rng_next(&rng) >> 44);             \
			(void)SQ_ENQUEUE(K, q, f, k);                          \
		}                                                              \
		t = now_s() - t;                                               \
		sink += sum;                                                   \
		free(n);                                                       \
		free(r);                                                       \
		return t * 1e9 / (double)opt_loops;                            \
	}                                                                      \
	static double K##_expiry(bool remote)                                  \
	{                                                                      \
		SQ_REMOTE(K) *r;                                               \
		SQ_REMOTE_NODE(K) *n;                                          \
		SQ_QUEUE(K) *q;                                                \
		SQ_NODE(K) *f;                                                 \
		uint64_t rng = 42, tick = 0, sum = 0;                          \
		unsigned long done = 0;                                        \
		double t;                                                      \
		OWNER_SETUP(K, r, n, rng_next(&rng) % 1024u);                  \
		q = SQ_REMOTE_Q(K, r);                                         \
		t = now_s();                                                   \
		while (done < opt_loops) {                                     \
			if (remote) {                                          \
				sum += SQ_REMOTE_DRAIN(K, r);                  \
				q = SQ_REMOTE_Q(K, r);                         \
			}                                                      \
			while ((f = SQ_POP_DUE(K, q, tick)) != NULL) {         \
				(void)SQ_ENQUEUE(K, q, f, tick + 1 +           \
						 rng_next(&rng) % 1024u);      \
				done++;                                        \
			}                                                      \
			tick++;                                                \
		}                                                              \
		t = now_s() - t;                                               \
		sink += sum;                                                   \
		free(n);                                                       \
		free(r);                                                       \
		return t * 1e9 / (double)done;                                 \
	}
SQ_KINDS(OWNER_PATH)

struct owner_path {
	const char *name;
	double (*hold)(bool);
	double (*expiry)(bool);
};
#define OWNER_ROW(K, exact) { #K, K##_hold, K##_expiry },
static const struct owner_path owner_paths[] = { SQ_KINDS(OWNER_ROW) };

/* the minimum of the repetitions, plain and remote alternating */
static void best_of(double (*fn)(bool), double *plain, double *remote)
{
	unsigned i;

	*plain = *remote = 1e30;
	for (i = 0; i < opt_reps; i++) {
		double a = fn(false), b = fn(true);

		if (a < *plain)
			*plain = a;
		if (b < *remote)
			*remote = b;
	}
}

static void part_owner(void)
{
	size_t i;

	printf("the owner's path, inbox empty: ns per iteration, N = %u, "
	       "min of %u\n", opt_n, opt_reps);
	printf("%-8s %9s %9s %6s   %9s %9s %6s\n", "kind", "hold", "remote",
	       "ratio", "expiry", "remote", "ratio");
	for (i = 0; i < sizeof(owner_paths) / sizeof(owner_paths[0]); i++) {
		double hp, hr, ep, er;

		best_of(owner_paths[i].hold, &hp, &hr);
		best_of(owner_paths[i].expiry, &ep, &er);
		printf("%-8s %9.2f %9.2f %5.2fx   %9.2f %9.2f %5.2fx\n",
		       owner_paths[i].name, hp, hr, hr / hp, ep, er, er / ep);
	}
}

/* ---- part 2: producers ------------------------------------------------- */

#define PER_PRODUCER 1024u	/* timers of each producer */

/* an array heap with an index in each node, as libevent's min_heap */
struct heap_node {
	uint64_t key;
	size_t idx;		/* SIZE_MAX: not in the heap */
};
struct heap {
	struct heap_node **a;
	size_t n;
};

static void heap_set(struct heap *h, size_t i, struct heap_node *x)
{
	h->a[i] = x;
	x->idx = i;
}

static void heap_up(struct heap *h, size_t i, struct heap_node *x)
{
	while (i > 0 && h->a[(i - 1) / 2]->key > x->key) {
		heap_set(h, i, h->a[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	heap_set(h, i, x);
}

static void heap_down(struct heap *h, size_t i, struct heap_node *x)
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->a[c + 1]->key < h->a[c]->key)
			c++;
		if (h->a[c]->key >= x->key)
			break;
		heap_set(h, i, h->a[c]);
		i = c;
	}
	heap_set(h, i, x);
}

static void heap_erase(struct heap *h, struct heap_node *x)
{
	struct heap_node *last = h->a[--h->n];
	size_t i = x->idx;

	x->idx = SIZE_MAX;
	if (last == x)
		return;
	if (i > 0 && h->a[(i - 1) / 2]->key > last->key)
		heap_up(h, i, last);
	else
		heap_down(h, i, last);
}

static void heap_arm(struct heap *h, struct heap_node *x, uint64_t key)
{
	if (x->idx != SIZE_MAX)
		heap_erase(h, x);
	x->key = key;
	heap_up(h, h->n++, x);
}

static struct heap_node *heap_pop_due(struct heap *h, uint64_t now)
{
	struct heap_node *x = h->n ? h->a[0] : NULL;

	if (!x || x->key > now)
		return NULL;
	heap_erase(h, x);
	return x;
}

enum { WAY_REMOTE, WAY_MUTEX, WAY_HEAP };

struct run {
	int way;
	unsigned producers;
	void *q;			/* the remote or plain queue, or heap */
	void *nodes;			/* PER_PRODUCER per producer */
	pthread_mutex_t lock;
	atomic_uint started, done;
};

/* the command stream of producer @p: arm (3 in 4) or cancel timer @*t */
static bool next_cmd(uint64_t *rng, unsigned *t, uint64_t *key)
{
	uint64_t r = rng_next(rng);

	*t = (unsigned)(r % PER_PRODUCER);
	*key = (uint64_t)1 << 40 | (r >> 40);	/* never due */
	return (r >> 20) % 4u != 0;
}

struct producer_arg {
	struct run *run;
	unsigned p;
};

#define PRODUCERS(K, exact)                                                    \
	static void K##_produce(struct run *run, unsigned p)                   \
	{                                                                      \
		uint64_t rng = 0x9e3779b97f4a7c15u * (p + 1u), key;            \
		unsigned long i;                                               \
		unsigned t;                                                    \
		if (run->way == WAY_REMOTE) {                                  \
			SQ_REMOTE(K) *r = run->q;                              \
			SQ_REMOTE_NODE(K) *n = (SQ_REMOTE_NODE(K) *)run->nodes \
					       + (size_t)p * PER_PRODUCER;     \
			for (i = 0; i < opt_cmds; i++) {                       \
				if (next_cmd(&rng, &t, &key))                  \
					SQ_REMOTE_ARM(K, r, &n[t], key);       \
				else                                           \
					SQ_REMOTE_CANCEL(K, r, &n[t]);         \
			}                                                      \
		} else {                                                       \
			SQ_QUEUE(K) *q = run->q;                               \
			SQ_NODE(K) *n = (SQ_NODE(K) *)run->nodes +             \
					(size_t)p * PER_PRODUCER;              \
			for (i = 0; i < opt_cmds; i++) {                       \
				bool arm = next_cmd(&rng, &t, &key);           \
				pthread_mutex_lock(&run->lock);                \
				if (arm)                                       \
					(void)SQ_REQUEUE(K, q, &n[t], key);    \
				else if (SQ_QUEUED(K, &n[t]))                  \
					(void)SQ_DEQUEUE(K, q, &n[t]);         \
				pthread_mutex_unlock(&run->lock);              \
			}                                                      \
		}                                                              \
	}                                                                      \
	static double K##_producers(int way, unsigned producers);
SQ_KINDS(PRODUCERS)

static void heap_produce(struct run *run, unsigned p)
{
	uint64_t rng = 0x9e3779b97f4a7c15u * (p + 1u), key;
	struct heap_node *n = (struct heap_node *)run->nodes +
			      (size_t)p * PER_PRODUCER;
	struct heap *h = run->q;
	unsigned long i;
	unsigned t;

	for (i = 0; i < opt_cmds; i++) {
		bool arm = next_cmd(&rng, &t, &key);

		pthread_mutex_lock(&run->lock);
		if (arm)
			heap_arm(h, &n[t], key);
		else if (n[t].idx != SIZE_MAX)
			heap_erase(h, &n[t]);
		pthread_mutex_unlock(&run->lock);
	}
}

static void (*produce)(struct run *, unsigned);

/* -s: the calling thread on CPU @cpu mod the cores */
static void pin_to(unsigned cpu)
{
#ifdef __linux__
	cpu_set_t set;

	if (!opt_spread)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu % opt_cores, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		fprintf(stderr, "bench-remote: cannot pin to CPU %u\n",
			cpu % opt_cores);
		exit(1);
	}
#else
	(void)cpu;
#endif
}

static void *producer_main(void *v)
{
	struct producer_arg *a = v;

	pin_to(a->p + 1);
	atomic_fetch_add(&a->run->started, 1);
	while (atomic_load(&a->run->started) <= a->run->producers)
		;			/* the owner starts the clock */
	produce(a->run, a->p);
	atomic_fetch_add(&a->run->done, 1);
	return NULL;
}

/* start the producers, run @owner_loop until they are done; seconds */
static double timed(struct run *run, void (*owner_loop)(struct run *))
{
	pthread_t th[64];
	struct producer_arg args[64];
	unsigned i;
	double t;

	atomic_init(&run->started, 0);
	atomic_init(&run->done, 0);
	pthread_mutex_init(&run->lock, NULL);
	pin_to(0);
	for (i = 0; i < run->producers; i++) {
		args[i].run = run;
		args[i].p = i;
		if (pthread_create(&th[i], NULL, producer_main, &args[i]))
			exit(1);
	}
	while (atomic_load(&run->started) < run->producers)
		;
	t = now_s();
	atomic_fetch_add(&run->started, 1);	/* go */
	owner_loop(run);
	t = now_s() - t;
	for (i = 0; i < run->producers; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&run->lock);
	return t;
}

#define OWNERS(K, exact)                                                       \
	static void K##_owner(struct run *run)                                 \
	{                                                                      \
		uint64_t sum = 0;                                              \
		if (run->way == WAY_REMOTE) {                                  \
			SQ_REMOTE(K) *r = run->q;                              \
			while (atomic_load_explicit(&run->done,                \
				memory_order_acquire) < run->producers) {      \
				sum += SQ_REMOTE_DRAIN(K, r);                  \
				sum += SQ_POP_DUE(K, SQ_REMOTE_Q(K, r), 0) != NULL; \
			}                                                      \
			sum += SQ_REMOTE_DRAIN(K, r);                          \
		} else {                                                       \
			SQ_QUEUE(K) *q = run->q;                               \
			while (atomic_load_explicit(&run->done,                \
				memory_order_acquire) < run->producers) {      \
				pthread_mutex_lock(&run->lock);                \
				sum += SQ_POP_DUE(K, q, 0) != NULL;            \
				pthread_mutex_unlock(&run->lock);              \
			}                                                      \
		}                                                              \
		sink += sum;                                                   \
	}                                                                      \
	static double K##_producers(int way, unsigned producers)               \
	{                                                                      \
		struct run run;                                                \
		size_t total = (size_t)producers * PER_PRODUCER;               \
		double t;                                                      \
		memset(&run, 0, sizeof(run));                                  \
		run.way = way;                                                 \
		run.producers = producers;                                     \
		produce = K##_produce;                                         \
		if (way == WAY_REMOTE)                                         \
			SETUP(run.q, run.nodes, total, SQ_REMOTE(K),           \
			      SQ_REMOTE_NODE(K), SQ_REMOTE_INIT(K, q_),        \
			      SQ_REMOTE_NODE_INIT(K, n_ + j));                 \
		else                                                           \
			SETUP(run.q, run.nodes, total, SQ_QUEUE(K), SQ_NODE(K), \
			      SQ_INIT(K, q_), SQ_NODE_INIT(K, n_ + j));        \
		t = timed(&run, K##_owner);                                    \
		free(run.q);                                                   \
		free(run.nodes);                                               \
		return t;                                                      \
	}
SQ_KINDS(OWNERS)

static void heap_owner(struct run *run)
{
	struct heap *h = run->q;
	uint64_t sum = 0;

	while (atomic_load_explicit(&run->done, memory_order_acquire) <
	       run->producers) {
		pthread_mutex_lock(&run->lock);
		sum += heap_pop_due(h, 0) != NULL;
		pthread_mutex_unlock(&run->lock);
	}
	sink += sum;
}

static double heap_producers(unsigned producers)
{
	struct run run;
	struct heap h;
	size_t j, total = (size_t)producers * PER_PRODUCER;
	struct heap_node *n = calloc(total, sizeof(*n));
	double t;

	h.a = calloc(total, sizeof(*h.a));
	h.n = 0;
	if (!n || !h.a)
		exit(1);
	for (j = 0; j < total; j++)
		n[j].idx = SIZE_MAX;
	memset(&run, 0, sizeof(run));
	run.way = WAY_HEAP;
	run.producers = producers;
	run.q = &h;
	run.nodes = n;
	produce = heap_produce;
	t = timed(&run, heap_owner);
	free(h.a);
	free(n);
	return t;
}

struct kind_producers {
	const char *name;
	double (*run)(int way, unsigned producers);
};
#define KIND_ROW(K, exact) { #K, K##_producers },
static const struct kind_producers kinds[] = { SQ_KINDS(KIND_ROW) };

/* part 2 for one kind's @run, printed as a table; its smallest ratio */
static double producers_of(const char *name, double (*run)(int, unsigned))
{
	double worst = 1e30;
	unsigned p, i;

	printf("\n%lu commands per producer (3 in 4 arm, 1 in 4 cancel) on "
	       "one owner, %s: Mcommands/s, best of %u%s\n", opt_cmds, name,
	       opt_reps, opt_spread ? "; owner on CPU 0, producer i on "
	       "CPU i + 1 mod the cores" : "");
	printf("%3s %10s %10s %10s %7s %7s\n", "P", "inbox", "mutex", "mutex-heap",
	       "/mutex", "/heap");
	for (p = 1; p <= opt_p; p++) {
		double tr = 1e30, tm = 1e30, th = 1e30, a, b, c;
		double cmds = (double)p * (double)opt_cmds;

		for (i = 0; i < opt_reps; i++) {
			double x = run(WAY_REMOTE, p), y = run(WAY_MUTEX, p),
			       z = heap_producers(p);

			tr = x < tr ? x : tr;
			tm = y < tm ? y : tm;
			th = z < th ? z : th;
		}
		a = cmds / tr * 1e-6;
		b = cmds / tm * 1e-6;
		c = cmds / th * 1e-6;
		printf("%3u %10.2f %10.2f %10.2f %6.2fx %6.2fx\n", p, a, b, c,
		       a / b, a / c);
		worst = a / b < worst ? a / b : worst;
		worst = a / c < worst ? a / c : worst;
	}
	return worst;
}

/* part 2 for -k's kind, or every kind (all); the smallest ratio of all */
static double part_producers(void)
{
	double worst = 1e30, w;
	size_t k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (strcmp(opt_kind, "all") && strcmp(kinds[k].name, opt_kind))
			continue;
		w = producers_of(kinds[k].name, kinds[k].run);
		worst = w < worst ? w : worst;
	}
	return worst;
}

/* -k names a kind of SQ_KINDS, or all */
static bool kind_known(const char *name)
{
	size_t k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strcmp(kinds[k].name, name))
			return true;
	return !strcmp(name, "all");
}

static void usage(void)
{
	fprintf(stderr, "usage: sq-remote [-n N] [-l LOOPS] [-r REPS] "
		"[-p PRODUCERS] [-c COMMANDS] [-k KIND] [-s]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	double worst;
	int i;

	opt_cores = opt_p = cores > 0 ? (unsigned)cores : 1u;
	for (i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "-s")) {
#ifndef __linux__
			fprintf(stderr, "bench-remote: -s needs Linux\n");
			exit(2);
#endif
			opt_spread = true;
			continue;
		}
		if (!v)
			usage();
		if (!strcmp(argv[i], "-n"))
			opt_n = (unsigned)strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "-l"))
			opt_loops = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "-r"))
			opt_reps = (unsigned)strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "-p"))
			opt_p = (unsigned)strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "-c"))
			opt_cmds = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "-k"))
			opt_kind = v;
		else
			usage();
		i++;
	}
	if (!opt_n || !opt_loops || !opt_reps || !opt_p || opt_p > 64 ||
	    !opt_cmds)
		usage();
	if (!kind_known(opt_kind)) {
		fprintf(stderr, "bench-remote: no kind %s (all, or one of SQ_KINDS)\n",
			opt_kind);
		return 2;
	}
	part_owner();
	worst = part_producers();
	printf("\nsmallest ratio, inbox over a mutex: %.2fx\n", worst);
	return 0;
}
