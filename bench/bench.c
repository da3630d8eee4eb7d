/* SPDX-License-Identifier: MIT */
/*
 * bench/bench.c - the smart-queue harness: cycles per loop for every
 * smartq backend and its peers, in the layout of the 2007 LKML tables
 *
 * For each N: a correctness pass over every queue (a broken queue stops
 * the run before it can publish a number), then each queue timed twice in
 * mirrored order (A B C ... C B A, to expose warm-up bias).  A timing is:
 * build the queue with N nodes, warm up, then --reps repetitions of
 * --loops steps of the workload between two serialised time stamps; the
 * minimum and median of the repetitions are reported, in cycles and ns.
 *
 * This file is the clock and the measuring; bench.h says where the rest
 * is.  Run with --help for the options.
 */
#define _GNU_SOURCE		/* sched_setaffinity */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "clock.h"

/* the clock: bench/clock.h (-DBQ_NO_TSC forces the portable one on x86) */

/* The machine's clock and CPU, for the header and the ns figures. */
static void bq_machine_probe(struct bq_machine *m)
{
	bq_clock_probe();
	m->hz = bq_clock_hz();
	m->tsc = BQ_HAVE_TSC;
	bq_cpu_model(m->cpu, sizeof(m->cpu));
#if BQ_HAVE_TSC
	snprintf(m->clock, sizeof(m->clock),
		 "rdtsc: lfence;rdtsc;lfence ... %s, TSC %.1f MHz "
		 "measured against CLOCK_MONOTONIC",
		 bq_have_rdtscp ? "rdtscp;lfence"
				: "lfence;rdtsc;lfence (no rdtscp on this CPU)",
		 m->hz / 1e6);
#else
	snprintf(m->clock, sizeof(m->clock),
		 "CLOCK_MONOTONIC (not x86, or built with BQ_NO_TSC): "
		 "'cycles' below are nanoseconds");
#endif
}

/* ---- measuring ------------------------------------------------------ */

static volatile uint64_t bq_sink;

/*
 * @qu, set up, runs @w in chunks of 1024 steps, each between two time
 * stamps, until @max_steps are done or the chunks took @max_ticks (a
 * queue that collapses cannot hold the advice's minute).  Return: the
 * ticks; *@steps: the steps run.
 */
uint64_t bq_timed_run(const struct bq_queue *qu, enum bq_workload w,
		      size_t max_steps, uint64_t max_ticks, size_t *steps)
{
	uint64_t ticks = 0;
	size_t done = 0;

	while (done < max_steps && ticks < max_ticks) {
		size_t chunk = max_steps - done < 1024 ? max_steps - done : 1024;
		uint64_t c0, c1, s;

		c0 = bq_clock_begin();
		s = qu->run(w, chunk);
		c1 = bq_clock_end();
		bq_sink += s;
		ticks += c1 - c0;
		done += chunk;
	}
	*steps = done;
	return ticks;
}

/* One pass of one queue: @reps samples of cycles per loop into @out.
 * Return: the queue calls a loop made (the timer mixes and the mix count
 * them); *@fired: the nodes the mix fired a loop. */
static double bq_measure(const struct bq_options *o, const struct bq_queue *qu,
			 double *out, double *fired)
{
	size_t r;

	bq_reset();
	qu->setup();
	if (o->warmup)
		bq_sink += qu->run(o->workload, o->warmup);
	bq.reprograms = 0;
	bq.ops = 0;
	bq.fired = 0;
	for (r = 0; r < o->reps; r++) {
		uint64_t c0, c1, s;

		c0 = bq_clock_begin();
		s = qu->run(o->workload, o->loops);
		c1 = bq_clock_end();
		bq_sink += s;
		out[r] = (double)(c1 - c0) / (double)o->loops;
	}
	qu->teardown();
	*fired = (double)bq.fired / (double)(o->reps * o->loops);
	return (double)bq.ops / (double)(o->reps * o->loops);
}

/*
 * --chase: ns a load from memory that waits for the one before, the
 * figure a queue at large N is held against.  A random cycle (Sattolo's
 * shuffle) through the 64-byte lines of 32 MiB, well past the last-level
 * cache of the machines measured so far, so that the prefetcher cannot
 * guess the next line; the median of 5 runs of 2^20 steps, after one.
 * The cycle is built once, so every N of a run chases the same pages;
 * from one run to the next they differ, and so did the figure (62 to
 * 140 ns across the runs of one make compare).
 */
#define BQ_CHASE_LINES ((size_t)1 << 19)	/* 32 MiB of 64-byte lines */
#define BQ_CHASE_STEPS ((size_t)1 << 20)

static size_t *bq_chase_line;

/* The cycle, once: line i's first word names the next line. */
static size_t *bq_chase_build(void)
{
	size_t *line = (size_t *)bq_xalloc_lines(BQ_CHASE_LINES * 64);
	size_t stride = 64 / sizeof(size_t), i, j, tmp;
	uint64_t rng = 0x9e3779b97f4a7c15u;

	for (i = 0; i < BQ_CHASE_LINES; i++)
		line[i * stride] = i;
	for (i = BQ_CHASE_LINES - 1; i > 0; i--) {	/* Sattolo: one cycle */
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		j = (size_t)(rng % i);
		tmp = line[i * stride];
		line[i * stride] = line[j * stride];
		line[j * stride] = tmp;
	}
	return line;
}

static double bq_chase(const struct bq_machine *m)
{
	size_t stride = 64 / sizeof(size_t), i, p = 0, r;
	const size_t *line;
	double t[6];

	if (!bq_chase_line)
		bq_chase_line = bq_chase_build();
	line = bq_chase_line;
	for (r = 0; r < 6; r++) {
		uint64_t c0 = bq_clock_begin(), c1;

		for (i = 0; i < BQ_CHASE_STEPS; i++)
			p = line[p * stride];
		c1 = bq_clock_end();
		t[r] = (double)(c1 - c0) * 1e9 / m->hz / (double)BQ_CHASE_STEPS;
	}
	bq_sink += p;
	return bq_median(t + 1, 5);
}

/* Every queue's correctness pass at this N; false (said) if one fails. */
static bool bq_verify_all(const struct bq_options *o, size_t n)
{
	size_t k, steps = o->loops < 20000 ? o->loops : 20000;

	bq.ref_set = 0;
	for (k = 0; k < o->nq; k++) {
		const struct bq_queue *qu = o->queues[k];
		int fault = o->fault && !strcmp(o->fault, qu->name);
		const char *err;

		bq_reset();
		err = qu->verify(o->workload, steps, fault);
		if (err) {
			fprintf(stderr, "sq-bench: error: %s failed its "
				"correctness pass at N=%zu (workload %s): %s\n",
				qu->name, n, bq_workload_names[o->workload],
				err);
			return false;
		}
	}
	return true;
}

/* One N: the tables, the correctness passes, then the mirrored passes
 * into @res (one result per queue). */
static bool bq_run_n(const struct bq_options *o, const struct bq_machine *m,
		     size_t n, struct bq_result *res)
{
	size_t j, k, nq = o->nq;

	bq_make_tables(o, n);
	printf("\nTesting N=%zu\n", n);
	if (!bq_verify_all(o, n))
		return false;
	for (k = 0; k < nq; k++)
		res[k].ops = res[k].fired = 0;
	for (j = 0; j < 2 * nq; j++) {
		size_t idx = j < nq ? j : 2 * nq - 1 - j;
		double *pass = res[idx].samples + (j < nq ? 0 : o->reps);
		double fired;

		res[idx].ops += bq_measure(o, o->queues[idx], pass, &fired) / 2;
		res[idx].fired += fired / 2;
		bq_print_pass(o, o->queues[idx], pass);
	}
	for (k = 0; k < nq; k++) {
		res[k].min = bq_min(res[k].samples, 2 * o->reps);
		res[k].median = bq_median(res[k].samples, 2 * o->reps);
		res[k].chase = 0;
	}
	if (o->chase) {
		res[0].chase = bq_chase(m);
		printf("dependent load (pointer chase over 32 MiB) = %.1f ns\n",
		       res[0].chase);
	}
	return true;
}

static void bq_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((size_t)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		bq_die("--cpu %d: sched_setaffinity: %s", cpu, strerror(errno));
}

int main(int argc, char **argv)
{
	struct bq_options o;
	struct bq_machine m;
	struct bq_result *res;
	size_t i, nq;
	int status = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	bq_parse_options(&o, argc, argv);
	nq = o.nq;
	if (o.cpu >= 0)
		bq_pin(o.cpu);
	bq.event = o.event;
	bq_gran_shift = o.gran_shift >= 0 ? (unsigned)o.gran_shift
					  : bq_fit_gran(o.inc_max);
	bq_machine_probe(&m);
	if (o.advise) {
		status = bq_advise(&o, &m);
		goto out;
	}
	bq_print_header(&o, &m);

	res = (struct bq_result *)bq_xrealloc(NULL, o.nn * nq * sizeof(*res));
	for (i = 0; i < o.nn * nq; i++)
		res[i].samples = (double *)bq_xrealloc(NULL,
					2 * o.reps * sizeof(double));
	for (i = 0; i < o.nn && !status; i++)
		if (!bq_run_n(&o, &m, o.ns[i], &res[i * nq]))
			status = 1;
	if (!status) {
		bq_print_summaries(&o, res, &m);
		if (o.chase)
			bq_print_chase(&o, res, &m);
		if (o.csv)
			bq_write_csv(&o, res, &m);
		if (o.json)
			bq_write_json(&o, res, &m);
	}
	for (i = 0; i < o.nn * nq; i++)
		free(res[i].samples);
	free(res);
	free(bq_chase_line);
out:
	free(o.ns);
	free(o.trace_inc);
	free(o.trace_op);
	bq_free_tables();
	return status;
}
