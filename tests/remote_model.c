/* SPDX-License-Identifier: MIT */
/*
 * remote_model.c - smartq/remote.h's own code under every schedule of two
 * posters and the owner, to a bound
 *
 * A stateless model checker.  The header calls SQ__R_STEP(what) before
 * each atomic step on a word another thread may touch (every load, store,
 * exchange and CAS of a node's state word and key slots, of the inbox's
 * head and of its links, the two steps of a push and the drain's empty
 * test included); this file defines it to park the calling thread there.
 * The three threads are coroutines (ucontext) running the header's own
 * verbs of kind SQ_K, and a scheduler picks which parked thread takes its
 * next step.  Each schedule is run from the start; a depth-first search
 * over the scheduler's choices covers every schedule with at most BOUND
 * preemptions (a switch away from a thread that could go on; CHESS's
 * preemption bound: every bug found so far needed one), then random
 * schedules with no bound.  A thread at a "pause" (a spin waiting for
 * another thread) that has gone round its loop once with no shared word
 * changed is not run again until one changes: it would only spin.
 * Sequential consistency: the memory orders are argued in doc/remote.md
 * and run on weaker hardware orders by tests/remote.c (aarch64, armhf).
 *
 * The promise checked, against a record of every publication (a post's
 * publishing CAS, seen as its node's SEQ counting up in that step):
 *   - a drain applies a node's publications in order, each at most once,
 *     each with the command, key and slack its poster published;
 *   - when a drain ends, it has applied, for each node, the newest
 *     publication of a post that had returned before the drain began, or
 *     a later one;
 *   - a node the owner fires was queued by the newest arm applied;
 *   - at the end (posters done, one more drain) each node is as its last
 *     publication left it (armed within [key, key + slack], or fired since,
 *     or not queued), IDLE says so, and check() passes;
 *   - no schedule is stuck (every thread spinning) or runs away.
 * The three schedules that broke the earlier inbox are also run as
 * scripts: an arm holding W while a cancel returns and a drain runs; a
 * poster stopped between its exchange and its link while another's post
 * returns; a poster stopped between its publish and its exchange while
 * another post for that node returns.
 *
 *	remote_model [-b BOUND] [-r RANDOM_RUNS] [-s SEED] [-n]
 *
 * -n leaves the scripts out (to see that the search alone finds what they
 * find: tests/remote_mutants.sh).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

static void mc_step(const char *what);
#define SQ__R_STEP(what) mc_step(what)

#include "smartq.h"
#include "rng.h"

#ifdef SQ_TIE_BASE
#define SQ_K SQ__XCAT2(tie_, SQ_TIE_BASE)
SQ_TIE(SQ_TIE_BASE, SQ_K, tie_less);
#define REMOTE_KIND(K) SQ_REMOTE_KIND(K)	/* expands SQ_K first */
REMOTE_KIND(SQ_K)
/* equal keys in the order of the nodes' addresses */
static bool tie_less(const SQ_NODE(SQ_K) *a, const SQ_NODE(SQ_K) *b)
{
	return (uintptr_t)a < (uintptr_t)b;
}
#endif
#ifndef SQ_K
#define SQ_K rb
#endif
#define K SQ_K
#define STR2(x) #x
#define STR(x) STR2(x)

enum { NODES = 2, THREADS = 3, OWNER = 2 };
enum { MAXOPS = 4, MAXPUB = 16, MAXSTEPS = 4000 };

/* ---- the scenarios --------------------------------------------------- */

enum op_kind { OP_END, OP_ARM, OP_CANCEL, OP_DRAIN, OP_FIRE };

struct op {
	enum op_kind kind;
	unsigned node;
	uint64_t key, slack;
};

struct scenario {
	const char *name;
	struct op ops[THREADS][MAXOPS];	/* two posters, then the owner */
};

#define ARM(n, k)         { OP_ARM, n, k, 0 }
#define ARM_SLACK(n, k, s) { OP_ARM, n, k, s }
#define CANCEL(n)         { OP_CANCEL, n, 0, 0 }
#define DRAIN             { OP_DRAIN, 0, 0, 0 }
#define FIRE              { OP_FIRE, 0, 0, 0 }

static const struct scenario scenarios[] = {
	{ "arm, cancel", {
		{ ARM(0, 10) }, { CANCEL(0) }, { DRAIN, DRAIN } } },
	{ "arm twice, cancel", {
		{ ARM(0, 10), CANCEL(0) }, { ARM(0, 20) }, { DRAIN, DRAIN } } },
	{ "re-arm with slack, fire", {
		{ ARM(0, 10), ARM_SLACK(0, 12, 5) }, { CANCEL(0), ARM(0, 30) },
		{ DRAIN, FIRE, DRAIN } } },
	{ "two nodes, crossed", {
		{ ARM(0, 10), CANCEL(1) }, { ARM(1, 20), CANCEL(0) },
		{ DRAIN, DRAIN } } },
	{ "two nodes, each poster its own", {
		{ ARM(0, 10), ARM(0, 11) }, { CANCEL(1), ARM(1, 21) },
		{ DRAIN, FIRE, DRAIN } } },
};
#define NSCENARIOS (sizeof(scenarios) / sizeof(scenarios[0]))

/* ---- the world one schedule runs in ---------------------------------- */

struct pub {			/* one publication of a node */
	uint64_t cmd, key, slack;
};

struct thread {
	ucontext_t ctx;
	const char *at;		/* the step it is parked before */
	bool done, paused;
	bool waited;		/* it has paused before, and ran since */
	unsigned since;		/* the epoch when it last ran from a pause */
	const struct op *op;	/* the post it is making */
	uint64_t my_seq;	/* that post's publication, once made */
};

static struct {
	SQ_REMOTE(K) r;
	SQ_REMOTE_NODE(K) n[NODES];
	struct thread t[THREADS];
	const struct scenario *sc;
	unsigned cur;			/* the thread running */
	bool running;			/* in a thread, not the scheduler */
	unsigned steps;			/* steps taken by all */
	unsigned epoch;			/* steps that changed a shared word */
	uint64_t words;			/* shared_words() after the last */
	uint64_t seen_seq[NODES];	/* SEQ at the last look */
	struct pub pub[NODES][MAXPUB];	/* by SEQ, 1 the first */
	uint64_t returned[NODES];	/* newest SEQ of a returned post */
	uint64_t applied[NODES];	/* the SEQ last applied */
	bool fired_since[NODES];	/* fired after its last apply */
} mc;

/* the schedule run, for a failure: written step by step, never cleared
 * (memset of mc stays small: it runs once a schedule) */
static char trace[MAXSTEPS];
static const char *labels[MAXSTEPS];

static ucontext_t sched_ctx;
static char stacks[THREADS][256 * 1024];
static const char *failure;
static char failure_buf[256];

/* the first failure of a schedule, formatted; later ones are its echo */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (failure)
		return;
	va_start(ap, fmt);
	vsnprintf(failure_buf, sizeof(failure_buf), fmt, ap);
	va_end(ap);
	failure = failure_buf;
}

static uint64_t seq_of(unsigned i)
{
	return atomic_load_explicit(&mc.n[i].sq_r.sq_state,
				    memory_order_relaxed) / SQ__R_SEQ1;
}

/* the thread running took a step: a node whose SEQ counted up was
 * published by it, with the command of the post it is making */
static void observe(void)
{
	for (unsigned i = 0; i < NODES; i++) {
		uint64_t s = seq_of(i);

		if (s == mc.seen_seq[i])
			continue;
		struct thread *t = &mc.t[mc.cur];

		if (s != mc.seen_seq[i] + 1 || !t->op || t->op->node != i ||
		    s >= MAXPUB) {
			fail("node %u: SEQ went from %" PRIu64 " to %" PRIu64
			     " in one step not a publish", i, mc.seen_seq[i], s);
			mc.seen_seq[i] = s;
			continue;
		}
		mc.pub[i][s].cmd = t->op->kind == OP_ARM ? SQ__R_ARM :
							   SQ__R_CANCEL;
		mc.pub[i][s].key = t->op->key;
		mc.pub[i][s].slack = t->op->slack;
		t->my_seq = s;
		mc.seen_seq[i] = s;
	}
}

/* the shared words, hashed: a spinning thread waits for them to change */
static uint64_t shared_words(void)
{
	uint64_t h = 0xcbf29ce484222325u;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 0x100000001b3u)
	MIX((uintptr_t)atomic_load(&mc.r.sq_in.sq_head));
	MIX((uintptr_t)atomic_load(&mc.r.sq_in.sq_stub.sq_next));
	for (unsigned i = 0; i < NODES; i++) {
		const struct sq_remote_cmd *c = &mc.n[i].sq_r;

		MIX((uintptr_t)atomic_load(&c->sq_link.sq_next));
		MIX(atomic_load(&c->sq_state));
	}
	for (unsigned i = 0; i < THREADS; i++)
		MIX(mc.t[i].done);
#undef MIX
	return h;
}

static void mc_step(const char *what)
{
	struct thread *t = &mc.t[mc.cur];

	if (!mc.running)
		return;		/* the scheduler's own end checks */
	observe();
	t->at = what;
	t->paused = !strcmp(what, "pause");
	swapcontext(&t->ctx, &sched_ctx);
}

/* ---- the threads ----------------------------------------------------- */

static void check_promise(const uint64_t required[NODES])
{
	for (unsigned i = 0; i < NODES; i++)
		if (mc.applied[i] < required[i])
			fail("node %u: a drain ended having applied publication "
			     "%" PRIu64 ", but publication %" PRIu64
			     " had returned before it began", i, mc.applied[i],
			     required[i]);
}

/* the kind's apply, with the record checked first */
static void apply(void *rv, struct sq_remote_cmd *c, uint64_t cmd,
		  uint64_t key, uint64_t slack)
{
	unsigned i = (unsigned)(sq_entry(c, SQ_REMOTE_NODE(K), sq_r) - mc.n);
	uint64_t s = seq_of(i);	/* the take's CAS left the word as it was */

	if (s <= mc.applied[i])
		fail("node %u: publication %" PRIu64 " applied after %" PRIu64,
		     i, s, mc.applied[i]);
	else if (mc.pub[i][s].cmd != cmd ||
		 (cmd == SQ__R_ARM && (mc.pub[i][s].key != key ||
				       mc.pub[i][s].slack != slack)))
		fail("node %u: publication %" PRIu64 " applied with command "
		     "%" PRIu64 " not the one published", i, s, cmd);
	mc.applied[i] = s;
	mc.fired_since[i] = false;
	SQ__RXCAT3(sq_remote_, K, __apply)(rv, c, cmd, key, slack);
}

static void drain(void)
{
	uint64_t required[NODES];

	memcpy(required, mc.returned, sizeof(required));
	(void)sq_remote__drain(&mc.r.sq_in, apply, &mc.r);
	check_promise(required);
}

static void fire(void)
{
	SQ_QUEUE(K) *q = SQ_REMOTE_Q(K, &mc.r);
	SQ_NODE(K) *b;

	while ((b = SQ_POP(K, q)) != NULL) {
		unsigned i = (unsigned)(sq_entry(b, SQ_REMOTE_NODE(K), base) -
					mc.n);

		if (mc.pub[i][mc.applied[i]].cmd != SQ__R_ARM)
			fail("node %u fired, but publication %" PRIu64
			     " applied last is a cancel", i, mc.applied[i]);
		mc.fired_since[i] = true;
	}
}

static void run_thread(int ti)
{
	struct thread *t = &mc.t[ti];
	const struct op *o;

	for (o = mc.sc->ops[ti]; o->kind != OP_END; o++) {
		t->op = o;
		t->my_seq = 0;
		switch (o->kind) {
		case OP_ARM:
			SQ_REMOTE_ARM_SLACK(K, &mc.r, &mc.n[o->node], o->key,
					    o->slack);
			break;
		case OP_CANCEL:
			SQ_REMOTE_CANCEL(K, &mc.r, &mc.n[o->node]);
			break;
		case OP_DRAIN:
			drain();
			break;
		case OP_FIRE:
			fire();
			break;
		case OP_END:
			break;
		}
		observe();
		if (o->kind == OP_ARM || o->kind == OP_CANCEL) {
			if (!t->my_seq)
				fail("node %u: a post returned without "
				     "publishing", o->node);
			if (t->my_seq > mc.returned[o->node])
				mc.returned[o->node] = t->my_seq;
		}
		t->op = NULL;
	}
	if (ti == OWNER) {
		/* wait for the posters, then one more drain */
		while (!mc.t[0].done || !mc.t[1].done)
			mc_step("pause");
		drain();
	}
	observe();
	t->done = true;
	swapcontext(&t->ctx, &sched_ctx);
}

/* after the last drain, with every thread done: the end state */
static void check_end(void)
{
	SQ_QUEUE(K) *q = &mc.r.sq_q;

	for (unsigned i = 0; i < NODES; i++) {
		uint64_t last = mc.seen_seq[i];
		const struct pub *p = &mc.pub[i][last];
		bool queued = SQ_QUEUED(K, &mc.n[i].base);

		if (mc.applied[i] != last)
			fail("node %u: at the end publication %" PRIu64
			     " applied, %" PRIu64 " the last", i, mc.applied[i],
			     last);
		else if (last && p->cmd == SQ__R_ARM && !mc.fired_since[i] &&
			 (!queued || SQ_KEY(K, &mc.n[i].base) < p->key ||
			  SQ_KEY(K, &mc.n[i].base) > p->key + p->slack))
			fail("node %u: armed last at %" PRIu64 " but %s", i,
			     p->key, queued ? "queued outside its window" :
					      "not queued");
		else if (last && (p->cmd == SQ__R_CANCEL || mc.fired_since[i]) &&
			 queued)
			fail("node %u: cancelled or fired last, still queued",
			     i);
		else if (!queued && !SQ_REMOTE_IDLE(K, &mc.r, &mc.n[i]))
			fail("node %u: not queued, nothing pending, not idle",
			     i);
	}
	if (SQ_CHECK(K, q) != 0)
		fail("check() failed at the end");
	if (!sq_remote__empty(&mc.r.sq_in))
		fail("the inbox is not empty at the end");
}

/* ---- the scheduler --------------------------------------------------- */

static void world_init(const struct scenario *sc)
{
	memset(&mc, 0, sizeof(mc));
	mc.sc = sc;
	mc.cur = OWNER;		/* init is the owner's */
	SQ_REMOTE_INIT(K, &mc.r);
	for (unsigned i = 0; i < NODES; i++)
		SQ_REMOTE_NODE_INIT(K, &mc.n[i]);
	for (int i = 0; i < THREADS; i++) {
		struct thread *t = &mc.t[i];

		getcontext(&t->ctx);
		t->ctx.uc_stack.ss_sp = stacks[i];
		t->ctx.uc_stack.ss_size = sizeof(stacks[i]);
		t->ctx.uc_link = NULL;
		makecontext(&t->ctx, (void (*)(void))run_thread, 1, i);
		t->at = "start";
	}
	mc.words = shared_words();
	failure = NULL;
}

static bool enabled(unsigned i)
{
	const struct thread *t = &mc.t[i];

	return !t->done &&
	       (!t->paused || !t->waited || t->since != mc.epoch);
}

/* run thread i one step (to where it parks next, or to its end) */
static void step(unsigned i)
{
	trace[mc.steps] = (char)('0' + i);
	labels[mc.steps] = mc.t[i].at;
	mc.steps++;
	mc.cur = i;
	if (mc.t[i].paused) {
		mc.t[i].waited = true;
		mc.t[i].since = mc.epoch;
	}
	mc.t[i].paused = false;
	mc.running = true;
	swapcontext(&sched_ctx, &mc.t[i].ctx);
	mc.running = false;
	if (shared_words() != mc.words) {
		mc.words = shared_words();
		mc.epoch++;
	}
}

static void print_trace(const char *what)
{
	fprintf(stderr, "remote_model-" STR(K) ": %s: %s\n  schedule:", what,
		failure);
	for (unsigned i = 0; i < mc.steps; i++)
		fprintf(stderr, "%s %c:%s", i % 4 ? "" : "\n   ", trace[i],
			labels[i]);
	fprintf(stderr, "\n");
}

/*
 * Choices: a decision point is each step.  choice[d] indexes the enabled
 * threads ordered with the default first (the thread that ran last, if
 * it may go on, else the lowest); taking another while the last could go
 * on is a preemption.  The DFS re-runs with the prefix it backtracks to.
 */
static unsigned choice[MAXSTEPS], nchoices[MAXSTEPS];
static unsigned pre_before[MAXSTEPS];	/* preemptions before the point */
static bool can_preempt[MAXSTEPS];	/* the last thread could go on */
static unsigned depth_forced;	/* choices below this are replayed */

/* the enabled threads at this point, the default first */
static unsigned candidates(unsigned last, unsigned out[THREADS])
{
	unsigned n = 0;

	if (last < THREADS && enabled(last))
		out[n++] = last;
	for (unsigned i = 0; i < THREADS; i++)
		if (i != last && enabled(i))
			out[n++] = i;
	return n;
}

/* run one schedule: the DFS's (replaying choice[] below depth_forced,
 * the default beyond), or with @rng a random one.  Return false if the
 * schedule failed. */
static bool run_one(const struct scenario *sc, uint64_t *rng)
{
	unsigned last = THREADS, pre = 0;

	world_init(sc);
	while (!failure) {
		unsigned c[THREADS], n = candidates(last, c), k;

		if (!n) {
			if (mc.t[0].done && mc.t[1].done && mc.t[OWNER].done)
				break;
			fail("stuck: every thread waits for another");
			break;
		}
		if (mc.steps >= MAXSTEPS - 1) {
			fail("a schedule ran past %d steps", MAXSTEPS);
			break;
		}
		if (rng) {
			k = rng_below(rng, n);
		} else if (mc.steps < depth_forced) {
			k = choice[mc.steps];
		} else {
			k = 0;
			choice[mc.steps] = 0;
		}
		nchoices[mc.steps] = n;
		pre_before[mc.steps] = pre;
		can_preempt[mc.steps] = last < THREADS && c[0] == last;
		if (k > 0 && can_preempt[mc.steps])
			pre++;
		last = c[k];
		step(last);
	}
	if (!failure)
		check_end();
	return !failure;
}

/* the next schedule of the DFS: the deepest point with an alternative
 * left within the bound; false when there is none */
static bool next_schedule(unsigned steps, unsigned bound)
{
	while (steps-- > 0) {
		unsigned k = choice[steps] + 1;

		if (k >= nchoices[steps] ||
		    pre_before[steps] + can_preempt[steps] > bound)
			continue;
		choice[steps] = k;
		depth_forced = steps + 1;
		return true;
	}
	return false;
}

static unsigned long explore(const struct scenario *sc, unsigned bound)
{
	unsigned long runs = 0;

	depth_forced = 0;
	for (;;) {
		runs++;
		if (!run_one(sc, NULL)) {
			print_trace(sc->name);
			exit(1);
		}
		if (!next_schedule(mc.steps, bound))
			return runs;
	}
}

/* ---- the scripted schedules ------------------------------------------ */

enum { END = THREADS };	/* a script's last directive */

struct directive {
	unsigned thread;	/* END: the script is over */
	const char *until;	/* the step to stop before; NULL: its end */
};

struct script {
	const char *name;
	struct scenario sc;
	struct directive d[8];
};

/* each directive runs its thread until it parks before @until, pauses
 * (it waits for another), or ends; then the rest run round robin */
static const struct script scripts[] = {
	{ "an arm holding W while a cancel returns and a drain runs",
	  { "W", { { ARM(0, 10) }, { CANCEL(0) }, { DRAIN, DRAIN } } },
	  { { 0, "arm: store the key" }, { 1, NULL }, { 2, "drain: load the head" },
	    { 2, NULL }, { 0, NULL }, { 2, NULL }, { END, NULL } } },
	{ "a half-pushed link while another post returns",
	  { "link", { { ARM(0, 10) }, { CANCEL(1) }, { DRAIN, DRAIN } } },
	  { { 0, "push: link" }, { 1, NULL }, { 2, NULL }, { 0, NULL },
	    { 2, NULL }, { END, NULL } } },
	{ "a post riding on a push not yet made",
	  { "ride", { { ARM(0, 10) }, { CANCEL(0) }, { DRAIN, DRAIN } } },
	  { { 0, "push: exchange the head" }, { 1, NULL }, { 2, NULL },
	    { 0, NULL }, { 1, NULL }, { 2, NULL }, { END, NULL } } },
};

static void run_script(const struct script *s)
{
	const struct directive *d = s->d;

	world_init(&s->sc);
	for (; d->thread != END; d++) {
		while (!failure && enabled(d->thread) &&
		       mc.steps < MAXSTEPS - 1) {
			step(d->thread);
			if (mc.t[d->thread].paused ||
			    (d->until && !strcmp(mc.t[d->thread].at, d->until)))
				break;
		}
	}
	for (unsigned i = 0; !failure && mc.steps < MAXSTEPS - 1; i++) {
		unsigned n = 0;

		for (unsigned j = 0; j < THREADS; j++)
			n += !mc.t[j].done;
		if (!n)
			break;
		if (enabled(i % THREADS))
			step(i % THREADS);
	}
	if (!failure)
		check_end();
	if (failure) {
		print_trace(s->name);
		exit(1);
	}
	printf("remote_model-" STR(K) ": script \"%s\": passed, %u steps\n",
	       s->name, mc.steps);
}

int main(int argc, char **argv)
{
	unsigned bound = 2;
	unsigned long random_runs = 20000;
	uint64_t seed = 0x5eed;
	bool scripted = true;

	for (int i = 1; i < argc; i += 2) {
		if (!strcmp(argv[i], "-n"))
			scripted = false, i--;
		else if (i + 1 == argc)
			break;
		else if (!strcmp(argv[i], "-b"))
			bound = (unsigned)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "-r"))
			random_runs = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "-s"))
			seed = strtoull(argv[i + 1], NULL, 0);
	}
	for (size_t i = 0; scripted && i < sizeof(scripts) / sizeof(scripts[0]);
	     i++)
		run_script(&scripts[i]);
	for (size_t i = 0; i < NSCENARIOS; i++) {
		unsigned long runs = explore(&scenarios[i], bound);
		uint64_t rng = seed + i;

		for (unsigned long r = 0; r < random_runs; r++) {
			uint64_t at = rng;

			if (!run_one(&scenarios[i], &rng)) {
				fprintf(stderr, "remote_model-" STR(K)
					": random schedule, seed %#" PRIx64
					"\n", at);
				print_trace(scenarios[i].name);
				return 1;
			}
		}
		printf("remote_model-" STR(K) ": \"%s\": %lu schedules "
		       "(preemption bound %u), %lu random: passed\n",
		       scenarios[i].name, runs, bound, random_runs);
	}
	printf("remote_model-" STR(K) ": 1 passed, 0 failed\n");
	return 0;
}
