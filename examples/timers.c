/* SPDX-License-Identifier: MIT */
/*
 * timers.c - a timer service on smartq, driving one hardware deadline
 *
 * A system has many software timers but one hardware comparator that
 * raises an interrupt at a single deadline.  The service keeps the timers
 * in a queue keyed by deadline and keeps the hardware programmed for the
 * first one.  Reprogramming is slow on real hardware, so it is done only
 * when the first deadline changes, which the queue reports:
 *
 *	SQ_REQUEUE  arms a timer, idle or armed, and returns true when the
 *	            first timer or its deadline changed;
 *	SQ_DEQUEUE  cancels, and returns true when the first timer went;
 *	SQ_POP_DUE  takes the first timer if it is due, for the expiry loop.
 *
 * The story below (a TCP connection, a watchdog, a poller) arms, cancels
 * and re-arms timers; the interrupt handler pops every expired timer and
 * re-arms the periodic ones.  What to check in the output: timers fire in
 * deadline order, those with equal deadlines in the order they were armed,
 * cancelled ones never fire, and "hw" lines appear only when the first
 * deadline changed.
 *
 * Build with -DSQ_K=<backend>, any token of SQ_KINDS in smartq.h
 * (make examples builds one per backend): the output is the same for each.
 */
#include <inttypes.h>
#include <stdio.h>

#include <smartq.h>

#ifndef SQ_K
#error "build with -DSQ_K=<backend>, a token of SQ_KINDS in smartq.h"
#endif

#define END 3000u	/* ms simulated */

struct timer {
	const char *name;
	uint64_t period;	/* ms, 0 for a one-shot timer */
	unsigned fired;
	SQ_NODE(SQ_K) node;
};

enum { WATCHDOG, POLL, RETRANSMIT, KEEPALIVE, FLUSH, STATS, DELACK, NTIMERS };

static struct timer timers[NTIMERS] = {
	{ "watchdog",   1000, 0, { 0 } },
	{ "poll",        300, 0, { 0 } },
	{ "retransmit",    0, 0, { 0 } },
	{ "keepalive",     0, 0, { 0 } },
	{ "flush",         0, 0, { 0 } },
	{ "stats",         0, 0, { 0 } },
	{ "delack",        0, 0, { 0 } },
};

/* What happens when: arm (or re-arm) a timer @in ms from now, or cancel it. */
enum verb { ARM, CANCEL };
static const struct action {
	uint64_t at;
	enum verb verb;
	int timer;
	uint64_t in;
	const char *why;
} script[] = {
	{    0, ARM,    WATCHDOG,   1000, "boot" },
	{    0, ARM,    POLL,        300, "boot" },
	{    0, ARM,    RETRANSMIT,  200, "segment sent" },
	{    0, ARM,    KEEPALIVE,  2500, "connection idle" },
	{    0, ARM,    FLUSH,        50, "dirty buffer" },
	{    0, ARM,    STATS,        50, "same deadline as flush" },
	{  120, CANCEL, RETRANSMIT,    0, "ACK received" },
	{  450, ARM,    DELACK,       40, "segment received" },
	{  470, ARM,    DELACK,       50, "more data: delay the ACK" },
	{  700, ARM,    KEEPALIVE,  2500, "traffic: push keepalive back" },
	{ 1200, ARM,    WATCHDOG,   1000, "watchdog petted" },
	{ 1300, ARM,    RETRANSMIT,  900, "segment sent" },
	{ 1310, ARM,    RETRANSMIT,  100, "duplicate ACKs: retransmit sooner" },
	{ 2000, CANCEL, POLL,          0, "device closed" },
	{ 2100, CANCEL, STATS,         0, "not armed: nothing to do" },
	{ 2900, CANCEL, KEEPALIVE,     0, "connection closed" },
	{ 2950, CANCEL, WATCHDOG,      0, "shutdown: the last timer" },
};
#define NACTIONS (sizeof(script) / sizeof(script[0]))

static SQ_QUEUE(SQ_K) tq;

/* The simulated hardware: one deadline, and a count of how often it was set. */
static bool hw_armed;
static uint64_t hw_deadline;
static unsigned hw_writes;

/* The check: no timer fires before one with an earlier deadline. */
static uint64_t last_fired;
static bool in_order = true;

/* Point the hardware at the first timer, or switch it off. */
static void hw_program(void)
{
	SQ_NODE(SQ_K) *first = SQ_FIRST(SQ_K, &tq);

	hw_writes++;
	hw_armed = first != NULL;
	if (first) {
		hw_deadline = first->key;
		printf("            hw -> %" PRIu64 "\n", hw_deadline);
	} else {
		printf("            hw -> off\n");
	}
}

/* Arm an idle timer or move an armed one: requeue does both. */
static void timer_arm(struct timer *t, uint64_t deadline)
{
	if (SQ_REQUEUE(SQ_K, &tq, &t->node, deadline))
		hw_program();
}

static void timer_cancel(struct timer *t)
{
	if (SQ_QUEUED(SQ_K, &t->node) && SQ_DEQUEUE(SQ_K, &tq, &t->node))
		hw_program();
}

static void perform(const struct action *a)
{
	struct timer *t = &timers[a->timer];

	if (a->verb == ARM) {
		printf("%4" PRIu64 " ms  arm     %-10s at %4" PRIu64 "  %s\n",
		       a->at, t->name, a->at + a->in, a->why);
		timer_arm(t, a->at + a->in);
	} else {
		printf("%4" PRIu64 " ms  cancel  %-10s          %s\n", a->at,
		       t->name, a->why);
		timer_cancel(t);
	}
}

/* The interrupt: fire everything due at @now, then program the next one. */
static void expire(uint64_t now)
{
	SQ_NODE(SQ_K) *n;

	while ((n = SQ_POP_DUE(SQ_K, &tq, now)) != NULL) {
		struct timer *t = sq_entry(n, struct timer, node);
		uint64_t deadline = n->key;

		in_order = in_order && deadline >= last_fired;
		last_fired = deadline;
		t->fired++;
		printf("%4" PRIu64 " ms  fire    %s\n", deadline, t->name);
		if (t->period)
			SQ_REQUEUE(SQ_K, &tq, &t->node, deadline + t->period);
	}
	hw_program();
}

int main(void)
{
	size_t next = 0, i;

	SQ_INIT(SQ_K, &tq);
	for (i = 0; i < NTIMERS; i++)
		SQ_NODE_INIT(SQ_K, &timers[i].node);

	/* Whichever comes first, the interrupt or the script's next step. */
	for (;;) {
		uint64_t at = next < NACTIONS ? script[next].at : END;

		if (hw_armed && hw_deadline <= at && hw_deadline < END)
			expire(hw_deadline);
		else if (next < NACTIONS)
			perform(&script[next++]);
		else
			break;
	}

	printf("\n%-10s %5s\n", "timer", "fired");
	for (i = 0; i < NTIMERS; i++)
		printf("%-10s %5u\n", timers[i].name, timers[i].fired);
	printf("%zu timers still armed at %u ms; hardware written %u times\n",
	       SQ_COUNT(SQ_K, &tq), END, hw_writes);
	printf("fired in deadline order: %s\n", in_order ? "yes" : "NO");
	return in_order && SQ_CHECK(SQ_K, &tq) == 0 ? 0 : 1;
}
