/* SPDX-License-Identifier: MIT */
/*
 * tring_union.c - the ring's node inside a caller's union, as an event
 * loop lays out its timers (libuv's uv_timer_t keeps its queue link in a
 * union with another, smaller, list link).  tests/tring_warn.sh builds it
 * with gcc -O2/-O3 -Wall -Warray-bounds=2 -Werror: every operation,
 * inlined into the caller, must compile clean.
 *
 * With -DSQ_UNDERSIZED the storage is a 24-byte pointer array cast to the
 * 32-byte node, the mistake that gives gcc's "partly outside array bounds"
 * warnings at the node's links: the script expects them there (the check
 * can fail), and nowhere else.
 */
#include "smartq/tring.h"

struct small_link {
	struct small_link *next, *prev;
};

#ifndef SQ_UNDERSIZED
struct timer {
	void *data;
	unsigned flags;
	union {
		struct sq_tring_node tn;
		struct small_link ln;
	} u;
	uint64_t due, repeat;
};
#define TN(t) (&(t)->u.tn)
#define OF(n) sq_entry(n, struct timer, u.tn)
#else
struct timer {
	void *data;
	union {
		void *heap[3];		/* too small for the node */
		struct small_link ln;
	} u;
};
#define TN(t) ((struct sq_tring_node *)(void *)&(t)->u.heap)
#define OF(n) sq_entry((void *)(n), struct timer, u.heap)
#endif

static struct sq_tring ring;
static struct timer timers[4];
static struct timer one;

static void rearm(struct timer *t, uint64_t due)
{
	if (sq_tring_queued(TN(t)))
		(void)sq_tring_dequeue(&ring, TN(t));
	(void)sq_tring_enqueue(&ring, TN(t), due);
}

static void stop(struct timer *t)
{
	if (sq_tring_queued(TN(t)))
		(void)sq_tring_dequeue(&ring, TN(t));
}

int main(void)
{
	struct sq_tring_node *n;
	uint64_t now = 1000;
	unsigned i, fired = 0;

	sq_tring_init_at(&ring, now);
	sq_tring_node_init(TN(&one));
	for (i = 0; i < 4; i++)
		sq_tring_node_init(TN(&timers[i]));
	rearm(&one, now + 5);
	rearm(&one, now + 3600000);		/* an hour: a level */
	(void)sq_tring_requeue(&ring, TN(&one), now + 7200000);
	for (i = 0; i < 4; i++)
		rearm(&timers[i], now + 10 * i);
	stop(&timers[1]);
	(void)sq_tring_advance(&ring, now + 1);
	/* expiry by dequeue of the first, one re-armed twice */
	while ((n = sq_tring_first(&ring)) != NULL && n->key < now + 100) {
		struct timer *t = OF(n);

		now = n->key;
		stop(t);
		fired++;
		if (t == &timers[0] && fired < 3)
			rearm(t, now + 7);
	}
	/* the rest by pop_due and pop */
	while (sq_tring_pop_due(&ring, now + 3600000) != NULL)
		fired++;
	while (sq_tring_pop(&ring) != NULL)
		fired++;
	one.u.ln.next = &one.u.ln;	/* the other arm, once idle */
	return fired == 6 && sq_tring_check(&ring) == 0 ? 0 : 1;
}
