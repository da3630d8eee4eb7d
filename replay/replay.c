/* SPDX-License-Identifier: MIT */
/*
 * replay/replay.c - the seeds' scheduler benchmarks, run on smartq's queues
 *
 * sq-replay runs hackbench (OSDL, December 2003) and tbench with one client
 * (Desnoyers, September 2010) through replay/model.h, a single-CPU model
 * of 2.6.35's CFS in simulated time, once per run queue, and prints them
 * in the mails' layouts: the 2003 table (groups across, a row per run
 * queue) and the 2010 Throughput lines (one per granularity policy).  Run
 * with --help for the options; doc/replay.md reads the results.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define RP_MAX_GROUPS 16

struct rp_options {
	int hackbench, tbench;
	uint32_t groups[RP_MAX_GROUPS];
	size_t ngroups;
	uint32_t loops;
	const struct rp_kind *queues[RP_NKINDS];
	size_t nq;
	const struct rp_policy *policies[RP_NPOLICIES];
	size_t np;
	const struct rp_policy *hb_policies[RP_NPOLICIES];
	size_t nhp;
	double duration;
	uint32_t hogs;
	uint64_t seed;
	int check;
	int rq_cost;		/* 0 none, 1 fixed, 2 live calibration */
	const char *csv, *json;
};

static void rp_die(const char *fmt, const char *arg)
{
	fprintf(stderr, "sq-replay: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (--help lists the options)\n");
	exit(2);
}

static void rp_usage(void)
{
	size_t k;

	printf(
"usage: sq-replay [options]\n"
"\n"
"The seeds' scheduler benchmarks in a model of 2.6.35's CFS and of 6.6's\n"
"EEVDF on one CPU, in simulated time, once per run queue: hackbench (2003)\n"
"and tbench with one client (2010), printed in the mails' layouts.\n"
"\n"
"  -w, --workload W      hackbench, tbench or all (default all)\n"
"  -g, --groups LIST     hackbench groups, comma-separated (default\n"
"                        50,100,150,200, the 2003 table's)\n"
"  -l, --loops N         hackbench messages from each sender to each\n"
"                        receiver (default 100, hackbench's)\n"
"  -q, --queues LIST     run queues, comma-separated (default all):");
	for (k = 0; k < RP_NKINDS; k++)
		printf(" %s", rp_kind_label(&rp_kinds[k]));
	printf("\n"
"  -p, --policies LIST   tbench's policies (default all):");
	for (k = 0; k < RP_NPOLICIES; k++)
		printf(" %s", rp_policies[k].name);
	printf("\n"
"      --hb-policy LIST  hackbench's policies (default mainline,eevdf)\n"
"  -d, --duration S      tbench's simulated seconds (default 60)\n"
"  -s, --seed N          tbench daemons' phases and jitter (default 1)\n"
"      --hogs N          tbench beside N CPU-bound tasks (default 0: the\n"
"                        seed's idle system; more shows where the\n"
"                        policies part)\n"
"      --check           compare every first() with the truth (slow)\n"
"      --rq-cost C       charge each run-queue operation into simulated\n"
"                        time: live (default: calibrated on this machine,\n"
"                        scaled by its clock to the modelled 2 GHz), fixed\n"
"                        (the tests' invented table) or none\n"
"      --csv FILE        also write the results as CSV\n"
"      --json FILE       also write the results as JSON\n"
"  -h, --help            this text\n"
"\n"
"list = 2.4's O(n) list scanned on every pick; parray = 2.6.0's O(1)\n"
"priority-array bitmap; the rest are smartq's backends.  \"sim\" is\n"
"simulated time; \"rq\" is the CPU time this machine took for the run\n"
"queue's operations alone, replayed on a shadow queue.\n");
}

/* Split a comma list and call @fn on each item. */
static void rp_each(char *list, void (*fn)(struct rp_options *, const char *),
		    struct rp_options *o)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		fn(o, tok);
}

static void rp_add_queue(struct rp_options *o, const char *name)
{
	const struct rp_kind *k = rp_kind_find(name);

	if (!k)
		rp_die("--queues: no queue \"%s\"", name);
	if (o->nq == RP_NKINDS)
		rp_die("--queues: \"%s\": too many queues", name);
	o->queues[o->nq++] = k;
}

static const struct rp_policy *rp_policy_find(const char *name)
{
	size_t k;

	for (k = 0; k < RP_NPOLICIES; k++)
		if (!strcmp(rp_policies[k].name, name))
			return &rp_policies[k];
	return NULL;
}

static void rp_add_hb_policy(struct rp_options *o, const char *name)
{
	const struct rp_policy *p = rp_policy_find(name);

	if (!p)
		rp_die("--hb-policy: no policy \"%s\"", name);
	if (o->nhp == RP_NPOLICIES)
		rp_die("--hb-policy: \"%s\": too many policies", name);
	o->hb_policies[o->nhp++] = p;
}

static void rp_add_policy(struct rp_options *o, const char *name)
{
	const struct rp_policy *p = rp_policy_find(name);

	if (!p)
		rp_die("--policies: no policy \"%s\"", name);
	if (o->np == RP_NPOLICIES)
		rp_die("--policies: \"%s\": too many policies", name);
	o->policies[o->np++] = p;
}

static uint64_t rp_number(const char *opt, const char *s, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v == 0 || v > max)
		rp_die(opt, s);
	return v;
}

static void rp_add_groups(struct rp_options *o, const char *s)
{
	if (o->ngroups == RP_MAX_GROUPS)
		rp_die("--groups: \"%s\": at most 16 sizes", s);
	o->groups[o->ngroups++] = (uint32_t)rp_number(
		"--groups: \"%s\" is not a number from 1 to 100000", s, 100000);
}

static void rp_parse(struct rp_options *o, int argc, char **argv)
{
	static const struct option longs[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "groups", required_argument, NULL, 'g' },
		{ "loops", required_argument, NULL, 'l' },
		{ "queues", required_argument, NULL, 'q' },
		{ "policies", required_argument, NULL, 'p' },
		{ "hb-policy", required_argument, NULL, 'P' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "hogs", required_argument, NULL, 'H' },
		{ "check", no_argument, NULL, 'c' },
		{ "rq-cost", required_argument, NULL, 'R' },
		{ "csv", required_argument, NULL, 'C' },
		{ "json", required_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *workload = "all";
	unsigned long hogs;
	char *end;
	size_t k;
	int c;

	memset(o, 0, sizeof(*o));
	o->loops = 100;
	o->duration = 60;
	o->seed = 1;
	o->rq_cost = 2;
	while ((c = getopt_long(argc, argv, "w:g:l:q:p:d:s:h", longs,
				NULL)) != -1) {
		switch (c) {
		case 'w':
			workload = optarg;
			break;
		case 'g':
			rp_each(optarg, rp_add_groups, o);
			break;
		case 'l':
			o->loops = (uint32_t)rp_number(
				"--loops: \"%s\" is not a number from 1 to "
				"1000000", optarg, 1000000);
			break;
		case 'q':
			rp_each(optarg, rp_add_queue, o);
			break;
		case 'p':
			rp_each(optarg, rp_add_policy, o);
			break;
		case 'P':
			rp_each(optarg, rp_add_hb_policy, o);
			break;
		case 'd':
			o->duration = strtod(optarg, &end);
			if (*end || end == optarg || !(o->duration > 0) ||
			    o->duration > 1e6)
				rp_die("--duration: \"%s\" is not a number of "
				       "seconds above 0, up to 1e6", optarg);
			break;
		case 's':
			o->seed = strtoull(optarg, &end, 10);
			if (*end || end == optarg)
				rp_die("--seed: \"%s\" is not a number", optarg);
			break;
		case 'H':
			hogs = strtoul(optarg, &end, 10);
			o->hogs = (uint32_t)hogs;
			if (*end || end == optarg || *optarg == '-' ||
			    hogs > 1000)
				rp_die("--hogs: \"%s\" is not a number from 0 "
				       "to 1000", optarg);
			break;
		case 'c':
			o->check = 1;
			break;
		case 'R':
			if (!strcmp(optarg, "none"))
				o->rq_cost = 0;
			else if (!strcmp(optarg, "fixed"))
				o->rq_cost = 1;
			else if (!strcmp(optarg, "live"))
				o->rq_cost = 2;
			else
				rp_die("--rq-cost: \"%s\" is not live, fixed or "
				       "none", optarg);
			break;
		case 'C':
			o->csv = optarg;
			break;
		case 'J':
			o->json = optarg;
			break;
		case 'h':
			rp_usage();
			exit(0);
		default:
			rp_die("%s", "unknown option");
		}
	}
	if (optind < argc)
		rp_die("unexpected argument \"%s\"", argv[optind]);
	if (!strcmp(workload, "all"))
		o->hackbench = o->tbench = 1;
	else if (!strcmp(workload, "hackbench"))
		o->hackbench = 1;
	else if (!strcmp(workload, "tbench"))
		o->tbench = 1;
	else
		rp_die("--workload: \"%s\" is not hackbench, tbench or all",
		       workload);
	if (!o->ngroups) {
		static const uint32_t seed_groups[] = { 50, 100, 150, 200 };

		for (k = 0; k < 4; k++)
			o->groups[o->ngroups++] = seed_groups[k];
	}
	if (!o->nq)
		for (k = 0; k < RP_NKINDS; k++)
			o->queues[o->nq++] = &rp_kinds[k];
	if (!o->np)
		for (k = 0; k < RP_NPOLICIES; k++)
			o->policies[o->np++] = &rp_policies[k];
	if (!o->nhp) {
		o->hb_policies[o->nhp++] = rp_policy_find("mainline");
		o->hb_policies[o->nhp++] = rp_policy_find("eevdf");
	}
}

/* ---- the run queue's cost --------------------------------------------- */

/* This machine's clock in MHz (/proc/cpuinfo), 0 if unknown. */
static double rp_host_mhz(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	double mhz = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "cpu MHz", 7)) {
			const char *c = strchr(line, ':');

			if (c)
				mhz = strtod(c + 1, NULL);
			break;
		}
	fclose(f);
	return mhz;
}

/*
 * CPU time per operation of kind @k at N = 4^b queued tasks, keys spread
 * over 6 ms of vruntime and moving forward as CFS's do: a loop of first(),
 * one of pop and enqueue again later, one of dequeue at random and enqueue
 * again.  The pairs are split as enqueue = dequeue = half a dequeue pair,
 * pop = the rest of a pop pair.  @scale: this machine's ns to simulated ns.
 */
static void rp_calibrate(const struct rp_kind *k, struct rp_cost_table *c,
			 double scale)
{
	const uint32_t nmax = 1u << (2 * (RP_NB - 1));
	uint64_t rng = 12345, base = RP_VBASE, sink = 0;
	uint32_t n = 0, want = 1, b;

	k->init(nmax);
	for (b = 0; b < RP_NB; b++, want *= 4) {
		uint32_t reps = (1u << 20) / want, r;
		uint64_t t0, t1, t2, t3;
		double first, popp, deqp;

		if (reps < 32)
			reps = 32;
		while (n < want)
			k->enqueue(n++, base + rp_rand(&rng) % 6000000);
		t0 = rp_cpu_ns();
		for (r = 0; r < reps; r++)
			sink += k->first();
		t1 = rp_cpu_ns();
		for (r = 0; r < reps; r++) {
			uint32_t i = k->pop();

			base += 1000;
			k->enqueue(i, base + rp_rand(&rng) % 6000000);
		}
		t2 = rp_cpu_ns();
		for (r = 0; r < reps; r++) {
			uint32_t i = (uint32_t)(rp_rand(&rng) % n);

			k->dequeue(i);
			k->enqueue(i, base + rp_rand(&rng) % 6000000);
		}
		t3 = rp_cpu_ns();
		first = (double)(t1 - t0) / reps;
		popp = (double)(t2 - t1) / reps;
		deqp = (double)(t3 - t2) / reps;
		c->ns[RP_OP_FIRST][b] = first * scale;
		c->ns[RP_OP_ENQ][b] = c->ns[RP_OP_DEQ][b] = deqp / 2 * scale;
		c->ns[RP_OP_POP][b] = (popp > deqp / 2 ? popp - deqp / 2 : 0) *
				      scale;
	}
	k->fini();
	if (sink == 1)		/* keeps the first() loop */
		putchar(' ');
}

/* ---- output ---------------------------------------------------------- */

struct rp_row {
	const char *workload;
	const struct rp_kind *q;
	const struct rp_policy *pol;
	uint32_t groups;
	struct rp_result r;
};

static struct rp_cost_table rp_tables[RP_NKINDS];

static void rp_fail(const struct rp_row *w)
{
	fprintf(stderr, "sq-replay: error: %s on %s, policy %s",
		w->workload, rp_kind_label(w->q), w->pol->name);
	if (w->groups)
		fprintf(stderr, ", %u groups", (unsigned)w->groups);
	fprintf(stderr, ": %s\n", w->r.err);
	exit(1);
}

static void rp_rule(size_t ng)
{
	size_t i;

	for (i = 0; i < 22 + 10 * ng; i++)
		putchar('-');
	printf("\n");
}

/* @rows: per policy, per queue, per group count */
static void rp_hackbench_table(const struct rp_options *o,
			       const struct rp_row *rows)
{
	size_t i, k, p;
	const size_t ng = o->ngroups;

	printf("hackbench: groups of 20 senders and 20 receivers, %u "
	       "messages of %u bytes from each sender to each receiver, "
	       "pipes of %u bytes\nmodel: 1 CPU, HZ 250; sim = simulated "
	       "seconds, the same work and costs for every queue\n\n",
	       (unsigned)o->loops, (unsigned)RP_HB_MSG, (unsigned)RP_HB_PIPE);
	printf("Test set 1: Performance of hackbench (sim: simulated "
	       "seconds; rq: ms of this machine's CPU\nin run-queue "
	       "operations; lower number is better)\n\n");
	printf("number of groups      ");
	for (i = 0; i < ng; i++)
		printf(" %9u", (unsigned)o->groups[i]);
	printf("\n");
	for (p = 0; p < o->nhp; p++) {
		const struct rp_policy *pol = o->hb_policies[p];

		rp_rule(ng);
		printf("1 CPU, %s (policy %s)\n", pol->title, pol->name);
		for (k = 0; k < o->nq; k++) {
			const struct rp_row *w = &rows[(p * o->nq + k) * ng];

			printf("%-10s  sim s     ", rp_kind_label(o->queues[k]));
			for (i = 0; i < ng; i++)
				printf(" %9.2f", (double)w[i].r.sim_ns / 1e9);
			printf("\n            rq sim s  ");
			for (i = 0; i < ng; i++)
				printf(" %9.2f", (double)w[i].r.rq_sim_ns / 1e9);
			printf("\n            rq ms     ");
			for (i = 0; i < ng; i++)
				printf(" %9.1f", (double)w[i].r.rq_ns / 1e6);
			printf("\n            switches k");
			for (i = 0; i < ng; i++)
				printf(" %9.0f", (double)w[i].r.switches / 1e3);
			printf("\n            runnable  ");
			for (i = 0; i < ng; i++)
				printf(" %9.0f", w[i].r.runnable);
			printf("\n            Jain      ");
			for (i = 0; i < ng; i++)
				printf(" %9.3f", w[i].r.jain);
			printf("\n");
		}
		rp_rule(ng);
		printf("rq growth from %u to %u groups (x%.1f the groups):",
		       (unsigned)o->groups[0], (unsigned)o->groups[ng - 1],
		       (double)o->groups[ng - 1] / o->groups[0]);
		for (k = 0; k < o->nq; k++) {
			const struct rp_row *w = &rows[(p * o->nq + k) * ng];

			printf(" %s x%.1f", rp_kind_label(o->queues[k]),
			       w[0].r.rq_ns ? (double)w[ng - 1].r.rq_ns /
					      (double)w[0].r.rq_ns : 0.0);
		}
		printf("\n\n");
	}
	printf("runnable = mean runnable tasks at a pick; Jain = Jain's "
	       "fairness index over the\ntasks' CPU time when the first "
	       "task finished\n\n");
}

static void rp_tbench_lines(const struct rp_options *o,
			    const struct rp_row *rows)
{
	size_t k, p;

	for (k = 0; k < o->nq; k++) {
		printf("tbench 1, on UP (model: simulated %g s, run queue %s",
		       o->duration, rp_kind_label(o->queues[k]));
		if (o->hogs)
			printf(", beside %u CPU-bound tasks", (unsigned)o->hogs);
		printf(")\n\n");
		for (p = 0; p < o->np; p++) {
			const struct rp_row *w = &rows[k * o->np + p];

			printf("* %s\n", w->pol->title);
			printf("Throughput %g MB/sec 1 clients 1 procs "
			       "max_latency=%.3f ms\n", w->r.mbps,
			       w->r.max_latency_ms);
			printf("  (%" PRIu64 " context switches, Jain's index "
			       "client/server %.3f, rq %.1f ms, rq in sim "
			       "%.1f ms)\n\n", w->r.switches, w->r.jain,
			       (double)w->r.rq_ns / 1e6,
			       (double)w->r.rq_sim_ns / 1e6);
		}
	}
}

static void rp_write_csv(const char *path, const struct rp_row *rows, size_t n,
			 const struct rp_options *o)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		rp_die("--csv: cannot write \"%s\"", path);
	fprintf(f, "workload,queue,smartq,exact,policy,groups,loops,"
		"duration_s,hogs,sim_s,rq_sim_s,rq_ms,rq_ops,switches,picks,runnable,jain,"
		"throughput_mbs,max_latency_ms,trace\n");
	for (i = 0; i < n; i++) {
		const struct rp_row *w = &rows[i];
		int hb = w->groups != 0;

		fprintf(f, "%s,%s,%d,%d,%s,%u,%u,%.3f,%u,%.6f,%.6f,%.3f,%"
			PRIu64
			",%" PRIu64 ",%" PRIu64 ",%.2f,%.6f,%.3f,%.3f,%016" PRIx64
			"\n", w->workload, rp_kind_label(w->q), w->q->smartq,
			w->q->exact, w->pol->name, (unsigned)w->groups,
			hb ? (unsigned)o->loops : 0u, hb ? 0.0 : o->duration,
			hb ? 0u : (unsigned)o->hogs,
			(double)w->r.sim_ns / 1e9,
			(double)w->r.rq_sim_ns / 1e9, (double)w->r.rq_ns / 1e6,
			w->r.rq_ops, w->r.switches, w->r.picks, w->r.runnable,
			w->r.jain, w->r.mbps, w->r.max_latency_ms, w->r.hash);
	}
	if (fclose(f))
		rp_die("--csv: write to \"%s\" failed", path);
}

static void rp_write_json(const char *path, const struct rp_row *rows,
			  size_t n, const struct rp_options *o)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		rp_die("--json: cannot write \"%s\"", path);
	fprintf(f, "{\n  \"version\": \"%s\",\n  \"model\": \"CFS 2.6.35 "
		"and EEVDF 6.6, 1 CPU, HZ 250\",\n  \"hackbench_policies\": "
		"\"%s%s%s\",\n  \"loops\": %u,\n  \"duration_s\": %.3f,\n  \"hogs\": %u,\n"
		"  \"seed\": %" PRIu64 ",\n  \"results\": [", SQ_VERSION_STRING,
		o->hb_policies[0]->name, o->nhp > 1 ? "," : "",
		o->nhp > 1 ? o->hb_policies[1]->name : "", (unsigned)o->loops, o->duration,
		(unsigned)o->hogs, o->seed);
	for (i = 0; i < n; i++) {
		const struct rp_row *w = &rows[i];

		fprintf(f, "%s\n    {\"workload\": \"%s\", \"queue\": \"%s\", "
			"\"smartq\": %s, \"exact\": %s, \"policy\": \"%s\", "
			"\"groups\": %u, \"sim_s\": %.6f, \"rq_ms\": %.3f, "
			"\"rq_ops\": %" PRIu64 ", \"switches\": %" PRIu64
			", \"picks\": %" PRIu64 ", \"runnable\": %.2f, "
			"\"jain\": %.6f, "
			"\"throughput_mbs\": %.3f, \"max_latency_ms\": %.3f, "
			"\"trace\": \"%016" PRIx64 "\"}",
			i ? "," : "", w->workload, rp_kind_label(w->q),
			w->q->smartq ? "true" : "false",
			w->q->exact ? "true" : "false", w->pol->name,
			(unsigned)w->groups, (double)w->r.sim_ns / 1e9,
			(double)w->r.rq_ns / 1e6, w->r.rq_ops, w->r.switches,
			w->r.picks, w->r.runnable, w->r.jain, w->r.mbps,
			w->r.max_latency_ms, w->r.hash);
	}
	fprintf(f, "\n  ]\n}\n");
	if (fclose(f))
		rp_die("--json: write to \"%s\" failed", path);
}

int main(int argc, char **argv)
{
	struct rp_options o;
	struct rp_row *rows;
	size_t n = 0, nhb, ntb, i, k, p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	rp_parse(&o, argc, argv);
	nhb = o.hackbench ? o.nhp * o.nq * o.ngroups : 0;
	ntb = o.tbench ? o.nq * o.np : 0;
	rows = (struct rp_row *)rp_xcalloc(nhb + ntb, sizeof(*rows));
	if (o.rq_cost) {
		double mhz = rp_host_mhz();
		double scale = mhz > 0 ? mhz / RP_MODEL_MHZ : 1.0;

		if (o.rq_cost == 2)
			printf("run-queue costs: calibrated on this machine "
			       "(%.0f MHz), scaled to a %.0f MHz CPU\n",
			       mhz, RP_MODEL_MHZ);
		else
			printf("run-queue costs: the fixed test table\n");
		for (k = 0; k < o.nq; k++) {
			size_t j = (size_t)(o.queues[k] - rp_kinds);

			if (o.rq_cost == 2)
				rp_calibrate(o.queues[k], &rp_tables[j], scale);
			else
				rp_cost_fixed(&rp_tables[j],
					      !strcmp(o.queues[k]->name,
						      "rp_list"));
			if (o.rq_cost == 2)
				printf("  %-7s ns at N=16, 1024, 16384: first "
				       "%.0f %.0f %.0f, pop %.0f %.0f %.0f, "
				       "enq %.0f %.0f %.0f\n",
				       rp_kind_label(o.queues[k]),
				       rp_tables[j].ns[RP_OP_FIRST][2],
				       rp_tables[j].ns[RP_OP_FIRST][5],
				       rp_tables[j].ns[RP_OP_FIRST][7],
				       rp_tables[j].ns[RP_OP_POP][2],
				       rp_tables[j].ns[RP_OP_POP][5],
				       rp_tables[j].ns[RP_OP_POP][7],
				       rp_tables[j].ns[RP_OP_ENQ][2],
				       rp_tables[j].ns[RP_OP_ENQ][5],
				       rp_tables[j].ns[RP_OP_ENQ][7]);
		}
		printf("\n");
	}

	for (p = 0; p < o.nhp && o.hackbench; p++)
	for (k = 0; k < o.nq; k++)
		for (i = 0; i < o.ngroups; i++) {
			struct rp_row *w = &rows[n++];

			w->workload = "hackbench";
			w->q = o.queues[k];
			w->pol = o.hb_policies[p];
			w->groups = o.groups[i];
			rp_cost_next = o.rq_cost ? &rp_tables[w->q - rp_kinds]
						 : NULL;
			rp_hackbench(&w->r, w->q, w->pol, w->groups, o.loops,
				     1, o.check);
			if (w->r.err)
				rp_fail(w);
		}
	if (o.hackbench)
		rp_hackbench_table(&o, rows);
	for (k = 0; k < o.nq && o.tbench; k++)
		for (p = 0; p < o.np; p++) {
			struct rp_row *w = &rows[n++];

			w->workload = "tbench";
			w->q = o.queues[k];
			w->pol = o.policies[p];
			rp_cost_next = o.rq_cost ? &rp_tables[w->q - rp_kinds]
						 : NULL;
			rp_tbench(&w->r, w->q, w->pol,
				  (uint64_t)(o.duration * 1e9), o.hogs, o.seed,
				  1, o.check);
			if (w->r.err)
				rp_fail(w);
		}
	if (o.tbench)
		rp_tbench_lines(&o, rows + nhb);
	if (o.csv)
		rp_write_csv(o.csv, rows, n, &o);
	if (o.json)
		rp_write_json(o.json, rows, n, &o);
	free(rows);
	return 0;
}
