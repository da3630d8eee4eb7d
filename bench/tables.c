/* SPDX-License-Identifier: MIT */
/*
 * bench/tables.c - the run's keys and step tables
 *
 * For each N, before any queue runs: N initial keys and the two step
 * tables (increments of the chosen distribution, random words for the
 * workloads' choices), the same for every queue.  The generator runs only
 * here, never inside a timed loop.  bench/README.md gives each
 * distribution's shape, parameters and source.
 */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

struct bq_state bq;

const char *const bq_workload_names[BQ_NWORKLOADS] = {
	"hold", "sched", "timer", "updown", "spread", "churn", "mix"
};
const char *const bq_dist_names[BQ_NDISTS] = {
	"uniform", "exp", "ties", "triangular", "negtriangular", "bimodal",
	"camel", "loguniform"
};

static uint64_t bq_rng;

static uint64_t bq_random(void)	/* splitmix64 */
{
	uint64_t z = (bq_rng += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* A double in (0, 1) from the generator. */
static double bq_unit(void)
{
	return ((double)(bq_random() >> 11) + 0.5) / 9007199254740992.0;
}

/*
 * The camel: two humps, each 0.05% of [0, 1) wide, centred on 1/4 and
 * 3/4, holding 99.9% of the mass between them; the rest spread evenly
 * over what the humps leave (Riboe's form: a hump in the middle of each
 * half, its back on both sides).
 */
#define BQ_CAMEL_MASS  0.999
#define BQ_CAMEL_WIDTH 0.0005

static double bq_camel(void)
{
	double u = bq_unit(), x;

	if (u < BQ_CAMEL_MASS) {
		double c = u < BQ_CAMEL_MASS / 2 ? 0.25 : 0.75;

		return c + (bq_unit() - 0.5) * BQ_CAMEL_WIDTH;
	}
	do
		x = bq_unit();
	while (fabs(x - 0.25) < BQ_CAMEL_WIDTH / 2 ||
	       fabs(x - 0.75) < BQ_CAMEL_WIDTH / 2);
	return x;
}

/* One increment in 1..MAX (ties: 0..3MAX/4) of the run's distribution. */
static uint32_t bq_increment(const struct bq_options *o)
{
	double max = (double)o->inc_max, x;
	uint64_t r;

	switch (o->dist) {
	case BQ_UNIFORM:
		return 1u + (uint32_t)(bq_random() % o->inc_max);
	case BQ_TIES:
		return (uint32_t)(bq_random() % 4u) * (o->inc_max / 4u);
	case BQ_EXP:
		x = -log(bq_unit()) * max / 8.0;
		break;
	case BQ_TRI:
		x = max * sqrt(bq_unit());
		break;
	case BQ_NEGTRI:
		x = max * (1.0 - sqrt(bq_unit()));
		break;
	case BQ_BIMODAL:
		r = bq_random();
		x = 0.95238 * bq_unit() + ((r >> 11) % 10u == 0 ? 9.5238 : 0.0);
		x *= max / (0.95238 + 9.5238);
		break;
	case BQ_LOGUNIFORM:
		x = exp(bq_unit() * log(max));
		break;
	case BQ_CAMEL:
	default:
		x = max * bq_camel();
		break;
	}
	if (x < 1.0)
		return 1;
	return x >= max ? o->inc_max : (uint32_t)x;
}

/* Initial keys for N nodes, and the step tables: the same for every queue. */
void bq_make_tables(const struct bq_options *o, size_t n)
{
	size_t i, cap = 1;

	bq_rng = o->seed * 0x2545f4914f6cdd1du + n;
	bq.n = n;
	bq.keys = (uint64_t *)bq_xrealloc(bq.keys, n * sizeof(*bq.keys));
	/* uniform and ties keep the start they always had; the others start
	 * as the classic hold model does, one increment after time 0 (a
	 * trace's delays, from its end, so the steps start at its start) */
	for (i = 0; i < n; i++)
		bq.keys[i] = o->trace ? o->trace_inc[(n - 1 - i) % o->trace_len]
			: o->dist == BQ_TIES
			? (bq_random() % 4u) * (o->inc_max / 4u)
			: o->dist == BQ_UNIFORM ? bq_random() % o->inc_max
			: bq_increment(o);
	for (i = 0; i < BQ_TAB; i++) {
		double u;

		bq.inc[i] = o->trace ? o->trace_inc[i % o->trace_len]
				     : bq_increment(o);
		bq.rnd[i] = (uint32_t)(bq_random() >> 32);
		u = bq_unit();
		bq.op[i] = (uint8_t)(o->trace_op ? o->trace_op[i % o->trace_len]
				     : u < o->cancel ? BQ_OP_CANCEL
				     : u < o->cancel + o->rearm ? BQ_OP_REARM
				     : BQ_OP_AUTO);
	}
	/* the mix keeps as many idle nodes as queued ones, to arm */
	bq.spare = o->workload == BQ_MIX ? n : 0;
	while (cap < n + bq.spare)
		cap *= 2;
	bq.sleep = (void **)bq_xrealloc(bq.sleep, cap * sizeof(*bq.sleep));
	bq.sleep_mask = cap - 1;
}

/* Every queue starts from the same state: same keys, same table position. */
void bq_reset(void)
{
	bq.tick = 0;
	bq.now = 0;
	bq.sleep_head = bq.sleep_tail = 0;
	bq.phase_left = bq.n;
	bq.down = 1;
	bq.reprograms = 0;
	bq.ops = 0;
	bq.fired = 0;
}

void bq_free_tables(void)
{
	free(bq.keys);
	free(bq.sleep);
	bq.keys = NULL;
	bq.sleep = NULL;
}
