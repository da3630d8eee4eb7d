/* SPDX-License-Identifier: MIT */
/*
 * runqueue.c - a CFS-style run queue on smartq
 *
 * Every runnable task waits in one queue keyed by its virtual runtime: the
 * CPU time it has had, scaled by 1024 / weight.  A task with three times
 * the weight ages three times slower, so it is picked three times as often.
 * The scheduler pops the first task, runs it for one slice, charges it and
 * puts it back, as CFS does with its red-black "timeline".
 *
 * Two kinds of blocking show the rest of the API:
 *   - "shell" sleeps after each slice (it is not put back) and wakes later;
 *   - "batch" is stopped while it waits in the middle of the queue
 *     (SQ_DEQUEUE of an arbitrary node) and continued later.
 * A task that wakes is placed at max(its vruntime, min_vruntime), so a long
 * sleep earns no burst of CPU that would starve the others.
 *
 * What to check in the output: the tasks that never block ("make",
 * "encoder", "backup") end with the same weighted runtime, runtime * 1024 /
 * weight, within one slice; their CPU shares are in the ratio of their weights.
 *
 * Build with -DSQ_K=<backend>, any token of SQ_KINDS in smartq.h
 * (make examples builds one per backend): the schedule is the same for each.
 */
#include <inttypes.h>
#include <stdio.h>

#include <smartq.h>

#ifndef SQ_K
#error "build with -DSQ_K=<backend>, a token of SQ_KINDS in smartq.h"
#endif

#define SLICE		100u	/* us of CPU per pick */
#define RUN_FOR		100000u	/* us simulated */
#define SHOW_UNTIL	2000u	/* print each pick before this time */
#define STOP_AT		20000u	/* "batch" gets SIGSTOP ... */
#define CONT_AT		60000u	/* ... and SIGCONT */
#define NICE_0_WEIGHT	1024u

struct task {
	const char *name;
	int nice;
	uint64_t weight;	/* from the kernel's nice-to-weight table */
	uint64_t sleep;		/* us asleep after each slice, 0 if CPU-bound */
	uint64_t vruntime;
	uint64_t vrem;		/* remainder of the weight scaling, carried */
	uint64_t runtime;
	uint64_t wake_at;	/* when asleep */
	SQ_NODE(SQ_K) node;
};

static struct task tasks[] = {
	{ "make",     0, 1024, 0,   0, 0, 0, 0, { 0 } },
	{ "encoder", -5, 3121, 0,   0, 0, 0, 0, { 0 } },
	{ "backup",   5,  335, 0,   0, 0, 0, 0, { 0 } },
	{ "shell",    0, 1024, 900, 0, 0, 0, 0, { 0 } },
	{ "batch",    0, 1024, 0,   0, 0, 0, 0, { 0 } },
};
#define NTASKS (sizeof(tasks) / sizeof(tasks[0]))
#define BATCH (&tasks[4])

static SQ_QUEUE(SQ_K) rq;
static uint64_t min_vruntime;	/* never goes back */

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Charge @t for @delta us of CPU: vruntime += delta * 1024 / weight. */
static void charge(struct task *t, uint64_t delta)
{
	uint64_t scaled = delta * NICE_0_WEIGHT + t->vrem;

	t->runtime += delta;
	t->vruntime += scaled / t->weight;
	t->vrem = scaled % t->weight;
}

/* A task becomes runnable: queue it no earlier than min_vruntime. */
static void wake(struct task *t, uint64_t now, bool show)
{
	t->vruntime = max_u64(t->vruntime, min_vruntime);
	SQ_ENQUEUE(SQ_K, &rq, &t->node, t->vruntime);
	if (show)
		printf("%6" PRIu64 " us  %-8s wakes at vruntime %" PRIu64 "\n",
		       now, t->name, t->vruntime);
}

static void wake_sleepers(uint64_t now)
{
	size_t i;

	for (i = 0; i < NTASKS; i++) {
		struct task *t = &tasks[i];

		if (t->sleep && t->wake_at == now && !SQ_QUEUED(SQ_K, &t->node))
			wake(t, now, now < SHOW_UNTIL);
	}
}

/* SIGSTOP: the task leaves the queue from wherever it waits. */
static void stop(struct task *t, uint64_t now)
{
	SQ_DEQUEUE(SQ_K, &rq, &t->node);
	printf("%6" PRIu64 " us  %-8s stopped at vruntime %" PRIu64
	       " (dequeued, %zu left)\n",
	       now, t->name, t->vruntime, SQ_COUNT(SQ_K, &rq));
}

/* Run the first task for one slice; return it, or NULL if the CPU idles. */
static struct task *run_one(uint64_t now)
{
	SQ_NODE(SQ_K) *n = SQ_POP(SQ_K, &rq);
	struct task *t;

	if (!n)
		return NULL;
	t = sq_entry(n, struct task, node);
	min_vruntime = max_u64(min_vruntime, t->vruntime);
	if (now < SHOW_UNTIL)
		printf("%6" PRIu64 " us  %-8s runs  (vruntime %" PRIu64 ")\n",
		       now, t->name, t->vruntime);
	charge(t, SLICE);
	if (t->sleep)
		t->wake_at = now + SLICE + t->sleep;
	else
		SQ_ENQUEUE(SQ_K, &rq, &t->node, t->vruntime);
	return t;
}

static void report(uint64_t idle)
{
	size_t i;

	printf("\n%-8s %5s %6s %9s %7s %16s\n", "task", "nice", "weight",
	       "runtime", "share", "runtime*1024/w");
	for (i = 0; i < NTASKS; i++) {
		const struct task *t = &tasks[i];

		printf("%-8s %5d %6" PRIu64 " %6" PRIu64 " us %6.2f%% %13" PRIu64
		       " us\n", t->name, t->nice, t->weight, t->runtime,
		       100.0 * (double)t->runtime / RUN_FOR,
		       t->runtime * NICE_0_WEIGHT / t->weight);
	}
	printf("%-8s %5s %6s %6" PRIu64 " us %6.2f%%\n", "(idle)", "", "", idle,
	       100.0 * (double)idle / RUN_FOR);
}

/*
 * The check a person would make: tasks that never blocked end with equal
 * weighted runtime, give or take one weighted slice of the lightest task.
 */
static bool check_fair(void)
{
	uint64_t lo = UINT64_MAX, hi = 0, slack = 0;
	size_t i;

	for (i = 0; i < NTASKS; i++) {
		const struct task *t = &tasks[i];
		uint64_t w = t->runtime * NICE_0_WEIGHT / t->weight;

		if (t->sleep || t == BATCH)
			continue;
		lo = w < lo ? w : lo;
		hi = w > hi ? w : hi;
		slack = max_u64(slack, SLICE * NICE_0_WEIGHT / t->weight);
	}
	printf("never blocked: weighted runtime %" PRIu64 "..%" PRIu64
	       " us, spread %" PRIu64 " us, one slice of the lightest %" PRIu64
	       " us: %s\n", lo, hi, hi - lo, slack,
	       hi - lo <= slack ? "fair" : "UNFAIR");
	return hi - lo <= slack;
}

int main(void)
{
	uint64_t now, idle = 0;
	size_t i;

	SQ_INIT(SQ_K, &rq);
	for (i = 0; i < NTASKS; i++) {
		SQ_NODE_INIT(SQ_K, &tasks[i].node);
		wake(&tasks[i], 0, false);
	}

	for (now = 0; now < RUN_FOR; now += SLICE) {
		wake_sleepers(now);
		if (now == STOP_AT)
			stop(BATCH, now);
		if (now == CONT_AT)
			wake(BATCH, now, true);
		if (!run_one(now))
			idle += SLICE;
	}
	report(idle);
	return check_fair() && SQ_CHECK(SQ_K, &rq) == 0 ? 0 : 1;
}
