/* SPDX-License-Identifier: MIT */
/*
 * bench/advise.c - sq-bench --advise: which queue for this shape of work
 *
 * The user states the shape (N kept queued, how far ahead keys land, as a
 * distribution or a recorded trace, the shares of cancels and re-arms,
 * exact order or within a granularity, other threads posting).  Every
 * backend that fits and the strongest peers run that mix (queue.h's
 * mix(): one queue call a step), each in --rounds runs in alternating
 * order, every run held to its share of --time, after the same
 * correctness pass as the plain harness.  The answer is one line: the
 * cheapest backend in ns per operation of the mix (and per node fired),
 * its ratio to the runner-up and to the best peer, the spread of its
 * runs, and the command that gives it again.
 */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime (clock.h) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "clock.h"

/* The peers worth beating, strongest first; the wheel only when order
 * within a granularity is enough (it is exact only to one). */
static const char *const bq_advise_peers[] = {
	"heap4", "radix", "calq", "heap", "wheel",
};

/* One queue's runs. */
struct bq_adv {
	const struct bq_queue *qu;
	double ns[50];		/* ns per operation, one a round */
	double fired;		/* nodes fired a step, over the runs */
	double median, min, max;
};

static double bq_now_s(void)
{
	return (double)bq_mono_ns() / 1e9;
}

/* ---- the trace: recorded delays, or recorded steps ------------------ */

static const struct {
	const char *word;
	enum bq_op op;
	int delay;		/* 1: the word takes a delay */
} bq_trace_words[] = {
	{ "arm", BQ_OP_ARM, 1 }, { "rearm", BQ_OP_REARM, 1 },
	{ "cancel", BQ_OP_CANCEL, 0 }, { "fire", BQ_OP_FIRE, 0 },
};

/* One delay of @file's line @line, from @s; the rest of the line must be
 * blank. */
static uint32_t bq_trace_delay(const char *s, const char *file, size_t line)
{
	char *e;
	unsigned long long v;

	s += strspn(s, " \t");
	errno = 0;
	if (*s < '0' || *s > '9')
		bq_die("--trace %s:%zu: expected a delay (a number of key "
		       "units), found '%s'", file, line, s);
	v = strtoull(s, &e, 10);
	if (errno || v > UINT32_MAX)
		bq_die("--trace %s:%zu: delay %s is past 2^32-1 (record keys "
		       "in a coarser unit)", file, line, s);
	if (e[strspn(e, " \t\r\n")])
		bq_die("--trace %s:%zu: unexpected '%s' after the delay", file,
		       line, e);
	return (uint32_t)v;
}

/*
 * Read --trace FILE: each line a DELAY (how far past now a node was
 * armed), or a step: 'arm DELAY', 'rearm DELAY', 'cancel', 'fire'; blank
 * lines and '#' comments skipped; one kind of line or the other.
 */
void bq_read_trace(struct bq_options *o)
{
	FILE *f = fopen(o->trace, "r");
	char buf[256];
	size_t line = 0, n = 0, cap = 0;
	int steps = -1;		/* -1 not known yet, 0 delays, 1 steps */

	if (!f)
		bq_die("--trace %s: %s", o->trace, strerror(errno));
	/* cppcheck-suppress nullPointerRedundantCheck ; bq_die returns not */
	while (fgets(buf, sizeof(buf), f)) {
		char *s = buf + strspn(buf, " \t");
		size_t w, k;
		int is_step;

		line++;
		s[strcspn(s, "#\r\n")] = '\0';
		if (!*s)
			continue;
		is_step = !(*s >= '0' && *s <= '9');
		if (steps >= 0 && is_step != steps)
			bq_die("--trace %s:%zu: a %s among %s: give delays only, "
			       "or steps only", o->trace, line,
			       is_step ? "step" : "bare delay",
			       steps ? "steps" : "delays");
		steps = is_step;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			o->trace_inc = (uint32_t *)bq_xrealloc(o->trace_inc,
					cap * sizeof(*o->trace_inc));
			o->trace_op = (uint8_t *)bq_xrealloc(o->trace_op,
					cap * sizeof(*o->trace_op));
		}
		if (!is_step) {
			o->trace_inc[n] = bq_trace_delay(s, o->trace, line);
			o->trace_op[n++] = BQ_OP_AUTO;
			continue;
		}
		w = strcspn(s, " \t");
		for (k = 0; k < sizeof(bq_trace_words) /
				sizeof(bq_trace_words[0]); k++)
			if (strlen(bq_trace_words[k].word) == w &&
			    !strncmp(s, bq_trace_words[k].word, w))
				break;
		if (k == sizeof(bq_trace_words) / sizeof(bq_trace_words[0]))
			bq_die("--trace %s:%zu: '%.*s' is not a step (arm DELAY, "
			       "rearm DELAY, cancel, fire) nor a delay",
			       o->trace, line, (int)w, s);
		/* bq_die does not return: k is in bounds here */
		/* cppcheck-suppress arrayIndexOutOfBounds */
		o->trace_op[n] = (uint8_t)bq_trace_words[k].op;
		o->trace_inc[n] = 1;
		/* cppcheck-suppress arrayIndexOutOfBounds */
		if (bq_trace_words[k].delay)
			o->trace_inc[n] = bq_trace_delay(s + w, o->trace, line);
		else if (s[w + strspn(s + w, " \t")])
			bq_die("--trace %s:%zu: '%.*s' takes no delay",
			       o->trace, line, (int)w, s);
		n++;
	}
	if (ferror(f))
		bq_die("--trace %s: read error", o->trace);
	fclose(f);
	if (!n)
		bq_die("--trace %s: no delays or steps in it", o->trace);
	o->trace_len = n;
	if (!steps) {		/* delays only: the steps are --cancel's */
		free(o->trace_op);
		o->trace_op = NULL;
	}
}

/* ---- the candidates -------------------------------------------------- */

static bool bq_is_advise_peer(const struct bq_queue *qu, bool gran)
{
	size_t i;

	for (i = 0; i < sizeof(bq_advise_peers) / sizeof(bq_advise_peers[0]);
	     i++)
		if (!strcmp(qu->name, bq_advise_peers[i]))
			return qu->exact || gran;
	return false;
}

/* -q's queues, each one that can keep the order asked, or every backend
 * that can and the strongest peers; a queue whose node is larger than
 * --event is left out, saying so. */
static size_t bq_candidates(const struct bq_options *o, struct bq_adv *adv)
{
	size_t i, k = 0;

	for (i = 0; i < (o->queues_given ? o->nq : bq_nqueues); i++) {
		const struct bq_queue *qu = o->queues_given ? o->queues[i]
							    : bq_all[i];

		if (o->queues_given && qu->span)
			bq_die("--advise: %s files keys more than %llu apart out "
			       "of order: leave it out", qu->name,
			       (unsigned long long)qu->span);
		if (o->queues_given && !qu->exact && !o->gran)
			bq_die("--advise: %s keeps order only to a granularity: "
			       "give --gran T (the order you need, in key "
			       "units), or leave it out", qu->name);
		if (!o->queues_given &&
		    (qu->peer ? !bq_is_advise_peer(qu, o->gran > 0)
			      : !qu->exact && !o->gran))
			continue;
		if (o->event && qu->node_size > o->event) {
			printf("left out: %s (its node, %zu bytes, is larger "
			       "than --event %zu)\n", qu->name, qu->node_size,
			       o->event);
			continue;
		}
		adv[k++].qu = qu;
	}
	if (!k)
		bq_die("--advise: no queue left to run");
	return k;
}

/* ---- what is printed ------------------------------------------------- */

/* The options that make this advice again, every one spelt out. */
static void bq_advise_args(const struct bq_options *o, char *buf, size_t len)
{
	size_t used = 0, i;
	int w;

#define BQ_ADD(...)							\
	do {								\
		w = snprintf(buf + used, len - used, __VA_ARGS__);	\
		if (w > 0 && (size_t)w < len - used)			\
			used += (size_t)w;				\
	} while (0)
	BQ_ADD("-n %zu", o->ns[0]);
	if (o->trace)
		BQ_ADD(" --trace %s", o->trace);
	else
		BQ_ADD(" -d %s -m %lu", bq_dist_names[o->dist],
		       (unsigned long)o->inc_max);
	if (!o->trace_op)
		BQ_ADD(" --cancel %g --rearm %g", o->cancel, o->rearm);
	if (o->gran)
		BQ_ADD(" --gran %llu", (unsigned long long)o->gran);
	else
		BQ_ADD(" --exact");
	if (o->remote)
		BQ_ADD(" --remote");
	if (o->queues_given) {
		BQ_ADD(" -q ");
		for (i = 0; i < o->nq; i++)
			BQ_ADD("%s%s", i ? "," : "", o->queues[i]->name);
	}
	if (o->event)
		BQ_ADD(" --event %zu", o->event);
	if (o->cpu >= 0)
		BQ_ADD(" -c %d", o->cpu);
	BQ_ADD(" -s %llu --rounds %zu --time %.0f",
	       (unsigned long long)o->seed, o->rounds, o->budget);
#undef BQ_ADD
}

static void bq_advise_header(const struct bq_options *o,
			     const struct bq_machine *m, const struct bq_adv *adv,
			     size_t k)
{
	size_t i;

	printf("smartq advise: N = %zu kept queued; ", o->ns[0]);
	if (o->trace)
		printf("delays%s from %s (%zu lines%s)\n",
		       o->trace_op ? " and steps" : "", o->trace, o->trace_len,
		       o->trace_len > BQ_TAB ? ", the first 65536 replayed"
					     : ", replayed in a loop");
	else
		printf("each arm and re-arm at now + a %s delay of at most "
		       "%lu key units\n", bq_dist_names[o->dist],
		       (unsigned long)o->inc_max);
	if (!o->trace_op)
		printf("steps: %.0f%% cancel a random queued node, %.0f%% "
		       "re-arm one, the other %.0f%% arm one while fewer than "
		       "N are queued, else fire the first\n", 100 * o->cancel,
		       100 * o->rearm, 100 * (1 - o->cancel - o->rearm));
	if (o->gran)
		printf("order: within %llu key unit%s is enough: the ring and "
		       "the wheel run at Tg = 2^%d = %llu\n",
		       (unsigned long long)o->gran, o->gran > 1 ? "s" : "",
		       o->gran_shift,
		       1ull << o->gran_shift);
	else
		printf("order: exact (only queues that keep it exactly)\n");
	printf("cpu: %s%s\nclock: %s\n", m->cpu,
	       o->cpu >= 0 ? ", pinned" : " (not pinned)", m->clock);
	bq_print_compiler();
	printf("queues:");
	for (i = 0; i < k; i++)
		printf(" %s%s", adv[i].qu->name, adv[i].qu->peer ? "*" : "");
	printf("  (* peer); %zu round%s in alternating order, about %.0f s "
	       "in all\n", o->rounds, o->rounds > 1 ? "s" : "", o->budget);
}

static int bq_cmp_adv(const void *a, const void *b)
{
	double x = ((const struct bq_adv *)a)->median;
	double y = ((const struct bq_adv *)b)->median;

	return (x > y) - (x < y);
}

/* ns per node fired, or 0 when the mix fired none. */
static double bq_per_fired(const struct bq_adv *a)
{
	return a->fired > 0 ? a->median / a->fired : 0;
}

static void bq_advise_csv(const struct bq_options *o, const struct bq_adv *adv,
			  size_t k, const struct bq_adv *take,
			  const struct bq_adv *second,
			  const struct bq_adv *peer)
{
	FILE *f = fopen(o->csv, "w");
	size_t i;

	if (!f) {
		bq_die("--csv %s: %s", o->csv, strerror(errno));
		return;		/* not reached; for the analyzers */
	}
	fprintf(f, "n,queue,peer,runs,median_ns_op,min_ns_op,max_ns_op,"
		"fired_per_op,median_ns_fired,role\n");
	for (i = 0; i < k; i++)
		fprintf(f, "%zu,%s,%d,%zu,%.2f,%.2f,%.2f,%.4f,%.2f,%s\n",
			o->ns[0], adv[i].qu->name, adv[i].qu->peer, o->rounds,
			adv[i].median, adv[i].min, adv[i].max, adv[i].fired,
			bq_per_fired(&adv[i]),
			&adv[i] == take ? "take" : &adv[i] == second
			? "runner-up" : &adv[i] == peer ? "best-peer" : "-");
	if (fclose(f))
		bq_die("--csv %s: write failed", o->csv);
}

/* The table, the one recommendation, and how to have it again. */
static void bq_advise_report(const struct bq_options *o, struct bq_adv *adv,
			     size_t k)
{
	const struct bq_adv *take = NULL, *second = NULL, *peer = NULL;
	char args[512];
	size_t i;

	qsort(adv, k, sizeof(*adv), bq_cmp_adv);
	printf("\n%-8s %10s %21s %12s\n", "queue", "ns/op", "runs: min .. max",
	       "ns/fired");
	for (i = 0; i < k; i++) {
		printf("%-8s %10.1f %10.1f .. %-8.1f ", adv[i].qu->name,
		       adv[i].median, adv[i].min, adv[i].max);
		if (adv[i].fired > 0)
			printf("%12.1f", bq_per_fired(&adv[i]));
		else
			printf("%12s", "-");
		printf("%s\n", adv[i].qu->peer ? "  [peer]" : "");
		if (adv[i].qu->peer && !peer)
			peer = &adv[i];
		else if (!adv[i].qu->peer && !take)
			take = &adv[i];
		else if (!adv[i].qu->peer && !second)
			second = &adv[i];
	}
	printf("(ns/op: median ns per operation of this mix, one queue call "
	       "each; ns/fired: per node fired, a timer expired or an event "
	       "run)\n\n");
	if (!take) {
		printf("advise: no smartq backend ran (-q named peers only)\n");
		return;
	}
	printf("advise: take %s: %.1f ns per operation of this mix",
	       take->qu->name, take->median);
	if (take->fired > 0)
		printf(", %.1f ns per node fired", bq_per_fired(take));
	if (second)
		printf("; %.2fx the runner-up %s", take->median / second->median,
		       second->qu->name);
	if (peer)
		printf("; %.2fx the best peer %s", take->median / peer->median,
		       peer->qu->name);
	printf("; its runs spread %.1f%%\n",
	       100 * (take->max - take->min) / take->median);
	if (second && take->max >= second->min)
		printf("note: %s's and %s's runs overlap: level on this "
		       "machine, either will do\n", take->qu->name,
		       second->qu->name);
	if (peer && peer->median < take->median)
		printf("note: the peer %s is cheaper here (%.2fx %s)\n",
		       peer->qu->name, peer->median / take->median,
		       take->qu->name);
	if (!take->qu->exact)
		printf("note: %s at Tg = 2^%d pops a node within Tg of the "
		       "smallest key, FIFO within a tick\n", take->qu->name,
		       o->gran_shift);
	if (o->remote)
		printf("note: other threads post through the inbox "
		       "(smartq/remote.h): a post and its apply at the drain "
		       "cost about the same for every kind, and the owner's "
		       "path with the inbox empty is within 1.05x of the plain "
		       "queue (doc/remote.md), so the order above holds; make "
		       "bench-remote measures the inbox here\n");
	bq_advise_args(o, args, sizeof(args));
	printf("reproduce: make advise ADVISE='%s'\n", args);
	if (o->csv)
		bq_advise_csv(o, adv, k, take, second, peer);
}

/* ---- the runs -------------------------------------------------------- */

/* One run of @a: built, warmed, timed for about @allot seconds in all. */
static void bq_advise_run(struct bq_adv *a, size_t round, double allot,
			  const struct bq_machine *m)
{
	double t0 = bq_now_s(), left;
	size_t steps;
	uint64_t ticks;

	bq_reset();
	a->qu->setup();
	/* warm: every node popped about twice, in at most a third of it */
	left = allot / 3 - (bq_now_s() - t0);
	(void)bq_timed_run(a->qu, BQ_MIX, 2 * bq.n + 65536,
			   (uint64_t)((left > 0.01 ? left : 0.01) * m->hz),
			   &steps);
	bq.ops = bq.fired = 0;
	left = allot - (bq_now_s() - t0);
	ticks = bq_timed_run(a->qu, BQ_MIX, (size_t)-1,
			     (uint64_t)((left > allot / 4 ? left : allot / 4) *
					m->hz), &steps);
	a->ns[round] = (double)ticks * 1e9 / m->hz / (double)steps;
	a->fired += (double)bq.fired / (double)steps;
	a->qu->teardown();
}

int bq_advise(struct bq_options *o, const struct bq_machine *m)
{
	static struct bq_adv adv[BQ_MAX_QUEUES];
	double start = bq_now_s(), allot;
	size_t k, i, r, runs, steps;

	k = bq_candidates(o, adv);
	bq_advise_header(o, m, adv, k);
	bq_make_tables(o, o->ns[0]);
	/* the plain harness's correctness pass, on this mix */
	bq.ref_set = 0;
	steps = 20000;
	for (i = 0; i < k; i++) {
		const char *err;

		bq_reset();
		err = adv[i].qu->verify(BQ_MIX, steps, 0);
		if (err) {
			fprintf(stderr, "sq-bench: error: %s failed its "
				"correctness pass on this mix: %s\n",
				adv[i].qu->name, err);
			return 1;
		}
	}
	runs = k * o->rounds;
	for (r = 0; r < o->rounds; r++)
		for (i = 0; i < k; i++) {
			size_t idx = r % 2 ? k - 1 - i : i;

			/* what is left of --time, shared by the runs left */
			allot = (o->budget - (bq_now_s() - start)) /
				(double)runs--;
			bq_advise_run(&adv[idx], r, allot > 0.02 ? allot : 0.02,
				      m);
		}
	for (i = 0; i < k; i++) {
		adv[i].median = bq_median(adv[i].ns, o->rounds);
		adv[i].min = bq_min(adv[i].ns, o->rounds);
		adv[i].max = adv[i].ns[0];
		for (r = 1; r < o->rounds; r++)
			adv[i].max = fmax(adv[i].max, adv[i].ns[r]);
		adv[i].fired /= (double)o->rounds;
	}
	bq_advise_report(o, adv, k);
	printf("took %.0f s\n", bq_now_s() - start);
	return 0;
}
