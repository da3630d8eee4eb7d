/* SPDX-License-Identifier: MIT */
/*
 * threads.c - an event loop owns the timers of its connections; worker
 * threads re-arm and cancel them (smartq/remote.h)
 *
 * Eight connections, each with an idle timeout of 300 ms.  Two workers
 * serve their requests: a request re-arms its connection's timeout as it
 * is read and again as its reply is written, lazily (SQ_REMOTE_ARM_SLACK:
 * the timeout may come up to 40 ms late, so a timer already due in that
 * window stays put and a busy connection's timer seldom moves); a
 * worker closes some connections itself, cancelling their timers.  The
 * loop thread owns the queue: each 10 ms tick it drains the workers'
 * commands and expires by pop_due what is due, closing those connections.
 *
 * The workers run beside the loop; only their script is fixed, so the
 * output is the same on every run: each tick the loop lets the workers
 * do that tick's requests and waits for them before it drains (a real
 * loop would not wait: a command posted during a drain applies at the
 * next).  What to check: a connection times out 300 to 340 ms after its
 * last request (the slack), a connection a worker closed never
 * times out, and the drains apply fewer commands than were posted.
 *
 * Build with -DSQ_K=<backend>, -std=c11 and -pthread (make examples).
 */
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#include <smartq.h>

#ifndef SQ_K
#error "build with -DSQ_K=<backend>, a token of SQ_KINDS in smartq.h"
#endif
/* without C11 atomics SQ_REMOTE names sq_remote_needs_C11_atomics */

#define CONNS 8
#define WORKERS 2
#define TICK 10u		/* ms */
#define END 1500u		/* ms */
#define TIMEOUT 300u		/* ms of idleness */
#define SLACK 40u		/* ms a re-arm may leave a timeout early */

/* a key per ms and connection: timeouts of one ms fire by connection */
#define KEY(ms, c) ((uint64_t)(ms) * CONNS + (uint64_t)(c))

struct conn {
	int id;
	SQ_REMOTE_NODE(SQ_K) timer;	/* the loop's queue holds it */
	unsigned last_request;		/* ms: written by its worker */
	int closed_by_worker;
	int timed_out;			/* loop only */
};

static SQ_REMOTE(SQ_K) loop_timers;
static struct conn conns[CONNS];
static atomic_uint now_ms;		/* the tick the workers may serve */
static atomic_uint served;		/* workers done with it */
static unsigned long posted;

/* the script: connection c sends requests until 100 (c + 1) ms, every
 * (c + 3) ticks; the connections 0, 3, 6 are then closed by a worker */
static int request_at(int c, unsigned t)
{
	return t <= 100u * (unsigned)(c + 1) && (t / TICK) % (unsigned)(c + 3) == 0;
}

static void *worker(void *arg)
{
	int w = (int)(intptr_t)arg, c;
	unsigned t = 0, posts = 0;

	while (t < END) {
		unsigned next;

		while ((next = atomic_load(&now_ms)) == t)
			sched_yield();	/* the loop has not ticked */
		t = next;
		for (c = w; c < CONNS; c += WORKERS) {
			struct conn *k = &conns[c];

			if (k->closed_by_worker)
				continue;
			if (request_at(c, t)) {
				int io;

				/* the request read, then its reply written:
				 * each re-arms, the drain applies one */
				k->last_request = t;
				for (io = 0; io < 2; io++)
					SQ_REMOTE_ARM_SLACK(SQ_K, &loop_timers,
							    &k->timer,
							    KEY(t + TIMEOUT, c),
							    (uint64_t)SLACK * CONNS);
				posts += 2;
			} else if (c % 3 == 0 && t == 100u * (unsigned)(c + 1) + TICK) {
				k->closed_by_worker = 1;
				SQ_REMOTE_CANCEL(SQ_K, &loop_timers, &k->timer);
				posts++;
			}
		}
		atomic_fetch_add(&served, 1);
	}
	return (void *)(uintptr_t)posts;
}

int main(void)
{
	pthread_t th[WORKERS];
	unsigned long applied = 0;
	unsigned t;
	int c, bad = 0;

	SQ_REMOTE_INIT(SQ_K, &loop_timers);	/* this thread owns it */
	for (c = 0; c < CONNS; c++) {
		conns[c].id = c;
		SQ_REMOTE_NODE_INIT(SQ_K, &conns[c].timer);
	}
	for (c = 0; c < WORKERS; c++)
		if (pthread_create(&th[c], NULL, worker, (void *)(intptr_t)c))
			return 1;
	printf("%d connections, %d workers, idle timeout %u ms, slack %u ms\n",
	       CONNS, WORKERS, TIMEOUT, SLACK);
	for (t = TICK; t <= END; t += TICK) {
		SQ_NODE(SQ_K) *n;

		atomic_store(&now_ms, t);	/* the workers serve tick t */
		while (atomic_load(&served) < WORKERS * (t / TICK))
			sched_yield();
		applied += SQ_REMOTE_DRAIN(SQ_K, &loop_timers);
		while ((n = SQ_POP_DUE(SQ_K, SQ_REMOTE_Q(SQ_K, &loop_timers),
				       KEY(t, CONNS - 1))) != NULL) {
			struct conn *k = sq_entry(sq_entry(n, SQ_REMOTE_NODE(SQ_K),
							   base),
						  struct conn, timer);
			unsigned due = (unsigned)(SQ_KEY(SQ_K, n) / CONNS);

			printf("%5u ms  conn %d timed out (due %u, last request %u)\n",
			       t, k->id, due, k->last_request);
			k->timed_out++;
			if (due < k->last_request + TIMEOUT ||
			    due > k->last_request + TIMEOUT + SLACK)
				bad++;
		}
	}
	for (c = 0; c < WORKERS; c++) {
		void *p;

		pthread_join(th[c], &p);
		posted += (unsigned long)(uintptr_t)p;
	}
	for (c = 0; c < CONNS; c++) {
		struct conn *k = &conns[c];

		if (k->closed_by_worker)
			printf("conn %d closed by its worker, timeout cancelled\n", c);
		/* each connection ends once: closed by a worker or timed out */
		if (k->timed_out != !k->closed_by_worker)
			bad++;
		if (!SQ_REMOTE_IDLE(SQ_K, &loop_timers, &k->timer))
			bad++;		/* else its memory could go now */
	}
	printf("%lu commands posted, %lu applied by the drains\n", posted, applied);
	if (bad)
		printf("FAILED: %d timeouts out of place\n", bad);
	return bad ? 1 : 0;
}
