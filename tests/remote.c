/* SPDX-License-Identifier: MIT */
/*
 * remote.c - smartq/remote.h under real threads: a stress test
 *
 * Up to REMOTE_PRODUCERS threads arm, re-arm (some with slack) and cancel
 * timers on one queue of kind SQ_K that the main thread owns: each its
 * private timers and, all of them, the shared ones.  The owner loops:
 * drain, then expire by pop_due on a virtual clock the producers read to
 * choose their keys.  A key is unique to its arm (time, producer, count),
 * so the owner sees a timer fire twice for one arm as the same key twice.
 * Each producer also has one node at a time that it gives back: it arms
 * and cancels it, posts a last cancel, and hands it to the owner, who
 * frees it once SQ_REMOTE_IDLE says so and hands the producer a new one
 * from malloc (often the same memory): ASan and TSan see a post that
 * touches a freed node.  At the end (producers joined, a last drain):
 *
 *   - a private timer's state is its last command's: armed at k, it is
 *     queued at k or has fired at k; cancelled, it is not queued and it
 *     did not fire in a loop whose drain began after the cancel was
 *     posted (the producer notes the owner's loop count after posting;
 *     an RMW of both on one word before it orders the two);
 *   - a shared timer's state is one producer's last command for it;
 *   - no timer fired twice for one arm; every node is idle (after the
 *     queue is emptied); check() passes.
 *
 * Built per backend (-DSQ_K=...), with -pthread, by tests/remote.mk: o2,
 * ThreadSanitizer (gcc and clang), ASan+UBSan, and aarch64 and armhf
 * under qemu-user.  REMOTE_OPS (a macro) sets the commands per producer.
 *
 *	remote-K [-p PRODUCERS] [-1]
 *
 * -p: 1 to 16 producers (3 by default), more threads than cores; -1: every
 * thread on the first CPU the process may use (Linux), so each post and
 * drain can be preempted anywhere by another.
 */
#define _GNU_SOURCE	/* sched_setaffinity, for -1 */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smartq.h"

#ifndef SQ_K
#define SQ_K rb
#endif
#ifndef REMOTE_OPS
#define REMOTE_OPS 100000
#endif
#define REMOTE_PRODUCERS 16			/* at most */
#define REMOTE_PRIVATE 8			/* per producer */
#define REMOTE_SHARED 8
#define REMOTE_TIMERS (REMOTE_PRODUCERS * REMOTE_PRIVATE + REMOTE_SHARED)
#define REMOTE_GIVEN 64		/* a given-back node's commands */

#define STR2(x) #x
#define STR(x) STR2(x)

struct timer {
	unsigned id;
	SQ_REMOTE_NODE(SQ_K) node;
	/* owner only */
	uint64_t fired_key;		/* the last key it fired at */
	unsigned long fired_loop;	/* the loop it fired in */
	bool fired;
	/* its producer's last command (shared: each producer's) */
	bool last_arm[REMOTE_PRODUCERS];
	uint64_t last_key[REMOTE_PRODUCERS];
	uint64_t last_slack[REMOTE_PRODUCERS];
	unsigned long cancel_seen[REMOTE_PRODUCERS];	/* loop count after */
	bool used[REMOTE_PRODUCERS];
};

static SQ_REMOTE(SQ_K) remote;
static struct timer timers[REMOTE_TIMERS];
static unsigned producers = 3;
/* each producer's node to give back: the owner stores a new one in
 * lent, the producer stores it in returned when done with it */
static _Atomic(struct timer *) lent[REMOTE_PRODUCERS];
static _Atomic(struct timer *) returned[REMOTE_PRODUCERS];
static unsigned long given_back;
static atomic_ulong owner_loop;		/* the owner's loop count */
static atomic_uint producers_done;
static atomic_uint sync_point;	/* its RMWs order a post and a loop */
static unsigned failures;
static unsigned long fires;

#define FAIL(...)                                      \
	do {                                           \
		fprintf(stderr, "remote-" STR(SQ_K) ": " __VA_ARGS__); \
		failures++;                            \
	} while (0)

/* time in the high bits, then producer and count: unique per arm */
static uint64_t key_of(uint64_t time, unsigned p, uint64_t count)
{
	return (time << 24) | ((uint64_t)p << 20) | (count & 0xfffffu);
}

static uint64_t rng_next(uint64_t *s)	/* xorshift64 */
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* producer @p cancels @tm and records it as its last command */
static void post_cancel(struct timer *tm, unsigned p)
{
	tm->used[p] = true;
	SQ_REMOTE_CANCEL(SQ_K, &remote, &tm->node);
	(void)atomic_fetch_add(&sync_point, 1);
	tm->last_arm[p] = false;
	tm->cancel_seen[p] = atomic_load_explicit(&owner_loop,
						  memory_order_relaxed);
}

/* producer @p arms @tm at @key (lazily with @slack, if any) and records it */
static void post_arm(struct timer *tm, unsigned p, uint64_t key,
		     uint64_t slack)
{
	tm->used[p] = true;
	if (slack)
		SQ_REMOTE_ARM_SLACK(SQ_K, &remote, &tm->node, key, slack);
	else
		SQ_REMOTE_ARM(SQ_K, &remote, &tm->node, key);
	tm->last_arm[p] = true;
	tm->last_key[p] = key;
	tm->last_slack[p] = slack;
}

/* producer @p's node to give back: arm and cancel it, end with a cancel,
 * hand it to the owner and wait for the next */
static void give_back(unsigned p, uint64_t *rng, uint64_t *count)
{
	struct timer *tm;

	while ((tm = atomic_load_explicit(&lent[p], memory_order_acquire)) ==
	       NULL)
		sched_yield();
	atomic_store_explicit(&lent[p], NULL, memory_order_relaxed);
	for (unsigned i = 0; i < REMOTE_GIVEN; i++) {
		uint64_t r = rng_next(rng);
		uint64_t now = atomic_load_explicit(&owner_loop,
						    memory_order_relaxed);

		if (r & 1)
			SQ_REMOTE_CANCEL(SQ_K, &remote, &tm->node);
		else
			SQ_REMOTE_ARM(SQ_K, &remote, &tm->node,
				      key_of(now + (r >> 50) % 4u, p, ++*count));
	}
	SQ_REMOTE_CANCEL(SQ_K, &remote, &tm->node);
	atomic_store_explicit(&returned[p], tm, memory_order_release);
}

/* owner, at the end of loop @loop: a node given back was cancelled last,
 * and its cancel returned before it was given back, so once a drain that
 * began after this owner saw it has run, it is idle: free it (its memory
 * goes back to malloc, and is often the next node's) and lend a new one */
static void lend(unsigned long loop)
{
	static unsigned long seen[REMOTE_PRODUCERS];

	for (unsigned p = 0; p < producers; p++) {
		struct timer *tm = atomic_load_explicit(&returned[p],
							memory_order_acquire);

		if (!tm)
			continue;
		if (!seen[p]) {
			seen[p] = loop;
			continue;
		}
		if (!SQ_REMOTE_IDLE(SQ_K, &remote, &tm->node)) {
			FAIL("a node given back after its cancel returned is "
			     "not idle after a drain (%s)\n",
			     SQ_QUEUED(SQ_K, &tm->node.base) ? "queued" :
							      "pending");
			continue;	/* leaked: the test has failed */
		}
		seen[p] = 0;
		memset(tm, 0xdb, sizeof(*tm));
		free(tm);
		atomic_store_explicit(&returned[p], NULL, memory_order_relaxed);
		given_back++;
		tm = calloc(1, sizeof(*tm));
		if (!tm) {
			fprintf(stderr, "remote: out of memory\n");
			exit(1);
		}
		tm->id = REMOTE_TIMERS;
		SQ_REMOTE_NODE_INIT(SQ_K, &tm->node);
		atomic_store_explicit(&lent[p], tm, memory_order_release);
	}
}

static void *producer(void *arg)
{
	unsigned p = (unsigned)(uintptr_t)arg;
	uint64_t rng = 0x9e3779b97f4a7c15u * (p + 1u), count = 0;
	unsigned long paced = 0;
	long i;

	for (i = 0; i < REMOTE_OPS; i++) {
		if (i % 4096 == 4095)
			give_back(p, &rng, &count);
		/* 16 commands a loop at most, so the clock moves while they
		 * come and timers fire between them */
		if (!(i & 15)) {
			while (atomic_load_explicit(&owner_loop,
					memory_order_relaxed) <= paced)
				sched_yield();
			paced = atomic_load_explicit(&owner_loop,
						     memory_order_relaxed);
		}
		uint64_t r = rng_next(&rng);
		unsigned t = (r & 1) ? p * REMOTE_PRIVATE + (unsigned)(r >> 1) % REMOTE_PRIVATE
				     : REMOTE_PRODUCERS * REMOTE_PRIVATE +
				       (unsigned)(r >> 1) % REMOTE_SHARED;
		struct timer *tm = &timers[t];
		unsigned what = (unsigned)(r >> 40) % 8u;
		uint64_t now = atomic_load_explicit(&owner_loop,
						    memory_order_relaxed);

		if (what < 2)
			post_cancel(tm, p);
		else	/* 1 arm in 6 lazily: within 4 ticks stays */
			post_arm(tm, p, key_of(now + (r >> 50) % 4u, p, ++count),
				 what == 7 ? (uint64_t)4 << 24 : 0);
	}
	/* end each private timer with a known command: half cancelled */
	for (i = 0; i < REMOTE_PRIVATE; i++) {
		struct timer *tm = &timers[p * REMOTE_PRIVATE + (unsigned)i];

		if (i & 1)
			post_cancel(tm, p);
		else
			post_arm(tm, p, key_of((uint64_t)1 << 39, p, ++count), 0);
	}
	atomic_fetch_add(&producers_done, 1);
	return NULL;
}

/* the owner's loop: count it (and the RMW the producers' matches),
 * drain, expire what is due */
static void owner_step(unsigned long loop)
{
	SQ_NODE(SQ_K) *n;
	uint64_t due = ((uint64_t)loop << 24) | 0xffffffu;

	atomic_store_explicit(&owner_loop, loop, memory_order_relaxed);
	(void)atomic_fetch_add(&sync_point, 1);
	if (!SQ_REMOTE_DRAIN(SQ_K, &remote))
		sched_yield();		/* nothing came: let the producers run */
	while ((n = SQ_POP_DUE(SQ_K, SQ_REMOTE_Q(SQ_K, &remote), due)) != NULL) {
		struct timer *tm = sq_entry(sq_entry(n, SQ_REMOTE_NODE(SQ_K), base),
					    struct timer, node);
		uint64_t k = SQ_KEY(SQ_K, n);

		if (tm->fired && tm->fired_key == k)
			FAIL("timer %u fired twice at key %" PRIx64 "\n",
			     tm->id, k);
		tm->fired = true;
		fires++;
		tm->fired_key = k;
		tm->fired_loop = loop;
	}
	lend(loop);
}

static void check_end(void)
{
	unsigned t, p;

	for (t = 0; t < REMOTE_TIMERS; t++) {
		struct timer *tm = &timers[t];
		SQ_NODE(SQ_K) *b = &tm->node.base;
		bool queued = SQ_QUEUED(SQ_K, b);
		bool ok = false, any = false;

		for (p = 0; p < REMOTE_PRODUCERS; p++) {
			bool mine = t < REMOTE_PRODUCERS * REMOTE_PRIVATE ?
				    t / REMOTE_PRIVATE == p : tm->used[p];

			if (!mine)
				continue;
			any = true;
			if (tm->last_arm[p])	/* at its key, or within slack */
				ok |= queued ? sq__within_slack(SQ_KEY(SQ_K, b),
						tm->last_key[p], tm->last_slack[p])
					     : tm->fired &&
					       sq__within_slack(tm->fired_key,
						tm->last_key[p], tm->last_slack[p]);
			else
				ok |= !queued;
			/* a private timer cancelled last: no fire after */
			if (t < REMOTE_PRODUCERS * REMOTE_PRIVATE &&
			    !tm->last_arm[p] && tm->fired &&
			    tm->fired_loop > tm->cancel_seen[p])
				FAIL("timer %u fired in loop %lu, after its "
				     "last cancel (seen at loop %lu)\n", t,
				     tm->fired_loop, tm->cancel_seen[p]);
		}
		if (any && !ok)
			FAIL("timer %u: %s%s at %" PRIx64 ", not its last "
			     "command's\n", t, queued ? "queued" : "not queued",
			     tm->fired ? " (fired)" : "",
			     queued ? SQ_KEY(SQ_K, b) : tm->fired_key);
	}
	if (SQ_CHECK(SQ_K, SQ_REMOTE_Q(SQ_K, &remote)))
		FAIL("check() failed\n");
}

/* -1: every thread on the first CPU the process may use */
static void one_cpu(void)
{
#ifdef __linux__
	cpu_set_t set;
	size_t cpu;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return;
	for (cpu = 0; cpu < (size_t)CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
		;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		perror("remote: sched_setaffinity");
#else
	fprintf(stderr, "remote: -1 needs Linux; threads left unpinned\n");
#endif
}

int main(int argc, char **argv)
{
	pthread_t th[REMOTE_PRODUCERS];
	unsigned long loop = 1;
	unsigned t, applied_idle = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-1")) {
			one_cpu();
		} else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
			producers = (unsigned)strtoul(argv[++i], NULL, 10);
			if (producers < 1 || producers > REMOTE_PRODUCERS) {
				fprintf(stderr, "remote: -p takes 1 to %d\n",
					REMOTE_PRODUCERS);
				return 2;
			}
		} else {
			fprintf(stderr, "usage: remote-K [-p PRODUCERS] [-1]\n");
			return 2;
		}
	}
	SQ_REMOTE_INIT(SQ_K, &remote);
	for (t = 0; t < REMOTE_TIMERS; t++) {
		timers[t].id = t;
		SQ_REMOTE_NODE_INIT(SQ_K, &timers[t].node);
	}
	for (t = 0; t < producers; t++) {
		struct timer *tm = calloc(1, sizeof(*tm));

		if (!tm)
			return 1;
		tm->id = REMOTE_TIMERS;
		SQ_REMOTE_NODE_INIT(SQ_K, &tm->node);
		atomic_init(&lent[t], tm);
	}
	for (t = 0; t < producers; t++)
		if (pthread_create(&th[t], NULL, producer,
				   (void *)(uintptr_t)t)) {
			fprintf(stderr, "remote: pthread_create failed\n");
			return 1;
		}
	while (atomic_load(&producers_done) < producers)
		owner_step(loop++);
	for (t = 0; t < producers; t++)
		pthread_join(th[t], NULL);
	atomic_store(&owner_loop, loop);
	(void)SQ_REMOTE_DRAIN(SQ_K, &remote);	/* the last commands */
	if (SQ_REMOTE_DRAIN(SQ_K, &remote) != 0)
		FAIL("a second drain found commands\n");
	check_end();
	/* every node idle once off the queue: then it may be freed */
	while (SQ_POP(SQ_K, SQ_REMOTE_Q(SQ_K, &remote)) != NULL)
		;
	for (t = 0; t < REMOTE_TIMERS; t++)
		applied_idle += SQ_REMOTE_IDLE(SQ_K, &remote, &timers[t].node);
	if (applied_idle != REMOTE_TIMERS)
		FAIL("%u of %u nodes idle at the end\n", applied_idle,
		     (unsigned)REMOTE_TIMERS);
	for (t = 0; t < producers; t++) {	/* the nodes still out */
		struct timer *out[2] = { atomic_load(&lent[t]),
					 atomic_load(&returned[t]) };

		for (unsigned j = 0; j < 2; j++) {
			if (out[j] && !SQ_REMOTE_IDLE(SQ_K, &remote,
						      &out[j]->node))
				FAIL("a node given back is not idle at the "
				     "end\n");
			free(out[j]);
		}
	}
	printf("remote-%s: %u producers x %d commands, %lu owner loops, "
	       "%lu fired, %lu nodes given back and freed\n", STR(SQ_K),
	       producers, REMOTE_OPS, loop, fires, given_back);
	printf("remote-%s: %u passed, %u failed\n", STR(SQ_K),
	       failures ? 0u : 1u, failures);
	return failures ? 1 : 0;
}
