/* SPDX-License-Identifier: MIT */
/*
 * des.c - a discrete-event simulation on smartq: eight M/M/1 queues
 *
 * The future event list of a simulation is a priority queue keyed by event
 * time: pop the earliest event, advance the clock to it, handle it, which
 * schedules later events.  Here it drives eight independent single-server
 * stations, each with Poisson arrivals and exponential service times
 * (mean 1000 ns), loaded from rho = 0.1 to rho = 0.8.  Every station
 * embeds two events, its next arrival and its next departure, so the
 * queue needs no allocation: sq_entry() finds the event, and the event
 * its station.
 *
 * What to check in the output: the measured utilisation is close to rho,
 * and the mean number in the system L and the mean time in the system W
 * are close to queueing theory's L = rho / (1 - rho), W = S / (1 - rho).
 * The program checks them itself and fails if one is off by more than 10%.
 *
 * Random numbers come from a fixed seed, one stream per station, so the
 * run is the same every time.  Build with -DSQ_K=<backend>, any token of
 * SQ_KINDS in smartq.h (make examples builds one per backend): the results
 * are the same for each.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <smartq.h>

#ifndef SQ_K
#error "build with -DSQ_K=<backend>, a token of SQ_KINDS in smartq.h"
#endif

#define STATIONS	8
#define SERVICE_NS	1000.0		/* mean service time S */
#define HORIZON		200000000u	/* ns simulated: 0.2 s */
#define TOLERANCE	0.10		/* relative, for L and W */

enum kind { ARRIVAL, DEPARTURE };

struct event {
	SQ_NODE(SQ_K) node;
	enum kind kind;
	struct station *st;
};

struct station {
	double rho;		/* offered load: arrival rate * S */
	uint64_t rng;		/* this station's random stream */
	uint64_t in_system;	/* customers waiting or in service */
	uint64_t last;		/* time of the last change of in_system */
	uint64_t area;		/* integral of in_system over time, ns */
	uint64_t busy;		/* time with a customer in service, ns */
	uint64_t arrived;
	struct event arrival;
	struct event departure;
};

static SQ_QUEUE(SQ_K) fel;	/* the future event list */
static struct station stations[STATIONS];

/* splitmix64: a small, well-mixed generator; 0 is a fine state. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* An exponential variate with the given mean, rounded to whole ns. */
static uint64_t exp_ns(uint64_t *s, double mean)
{
	double u = (double)((rng_next(s) >> 11) + 1) / 9007199254740992.0;

	return (uint64_t)(-mean * log(u) + 0.5);	/* u in (0, 1] */
}

static void schedule(struct event *e, uint64_t when)
{
	SQ_ENQUEUE(SQ_K, &fel, &e->node, when);
}

/* Bring the station's time integrals up to @now. */
static void account(struct station *st, uint64_t now)
{
	uint64_t dt = now - st->last;

	st->area += st->in_system * dt;
	if (st->in_system)
		st->busy += dt;
	st->last = now;
}

static void handle(struct event *e, uint64_t now)
{
	struct station *st = e->st;

	account(st, now);
	if (e->kind == ARRIVAL) {
		st->arrived++;
		if (st->in_system++ == 0)
			schedule(&st->departure, now + exp_ns(&st->rng, SERVICE_NS));
		schedule(&st->arrival, now + exp_ns(&st->rng, SERVICE_NS / st->rho));
	} else if (--st->in_system > 0) {
		schedule(&st->departure, now + exp_ns(&st->rng, SERVICE_NS));
	}
}

static bool near(double measured, double theory)
{
	return fabs(measured - theory) <= TOLERANCE * theory;
}

/* Print one station's line; return whether it agrees with theory. */
static bool report(const struct station *st)
{
	double util = (double)st->busy / HORIZON;
	double L = (double)st->area / HORIZON;
	double W = (double)st->area / (double)st->arrived;
	double L_th = st->rho / (1 - st->rho);
	double W_th = SERVICE_NS / (1 - st->rho);
	bool ok = near(util, st->rho) && near(L, L_th) && near(W, W_th);

	printf("%4.2f %10" PRIu64 " %7.4f %8.3f %8.3f %9.1f %9.1f  %s\n",
	       st->rho, st->arrived, util, L, L_th, W, W_th, ok ? "ok" : "OFF");
	return ok;
}

int main(void)
{
	SQ_NODE(SQ_K) *n;
	uint64_t events = 0;
	size_t max_queued = 0;
	bool ok = true;
	int i;

	SQ_INIT(SQ_K, &fel);
	for (i = 0; i < STATIONS; i++) {
		struct station *st = &stations[i];

		st->rho = 0.1 * (i + 1);
		st->rng = 20070416u + (uint64_t)i;
		st->arrival.kind = ARRIVAL;
		st->arrival.st = st;
		st->departure.kind = DEPARTURE;
		st->departure.st = st;
		SQ_NODE_INIT(SQ_K, &st->arrival.node);
		SQ_NODE_INIT(SQ_K, &st->departure.node);
		schedule(&st->arrival, exp_ns(&st->rng, SERVICE_NS / st->rho));
	}

	while ((n = SQ_FIRST(SQ_K, &fel)) != NULL && n->key < HORIZON) {
		uint64_t now = n->key;

		if (SQ_COUNT(SQ_K, &fel) > max_queued)
			max_queued = SQ_COUNT(SQ_K, &fel);
		SQ_POP(SQ_K, &fel);
		handle(sq_entry(n, struct event, node), now);
		events++;
	}

	printf("%" PRIu64 " events in %u ns, at most %zu pending\n\n", events,
	       HORIZON, max_queued);
	printf("%4s %10s %7s %8s %8s %9s %9s\n", "rho", "customers", "util",
	       "L", "theory", "W ns", "theory");
	for (i = 0; i < STATIONS; i++) {
		account(&stations[i], HORIZON);
		ok = report(&stations[i]) && ok;
	}
	return ok && SQ_CHECK(SQ_K, &fel) == 0 ? 0 : 1;
}
