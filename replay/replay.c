/* SPDX-License-Identifier: MIT */
/*
 * replay/replay.c - the seeds' scheduler benchmarks on a real scheduler
 *
 * sq-replay runs hackbench (OSDL, December 2003) and tbench with one
 * client (Desnoyers, September 2010) as tasks of replay/sched.h, an M:N
 * user-space scheduler (hackbench on 1 and 2 CPUs) whose policies (replay/policy.h) keep their run
 * queues in smartq's queues, timed by this machine's clock, and prints
 * them in the mails' layouts beside the mails' figures.  --help lists the
 * options; doc/replay.md reads the results.
 */
#define _GNU_SOURCE		/* sched_setaffinity(): pinning the CPUs */
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work.h"

#define RP_MAX_LIST 16

struct rp_options {
	int hackbench, tbench, virt;
	unsigned groups[RP_MAX_LIST];
	size_t ngroups;
	unsigned loops, fds, runs, tb_runs;
	size_t datasize, buf;
	const struct rp_rqops *queues[RP_MAX_LIST];
	size_t nq;
	const struct rp_policy *hb_pol[RP_MAX_LIST], *tb_pol[RP_MAX_LIST];
	size_t nhp, ntp;
	struct rp_tb_opts tb;
	unsigned bg[RP_MAX_LIST][3];	/* tasks, burst us, sleep us */
	size_t nbg;
	const struct rp_rqops *tbq[RP_MAX_LIST];
	size_t ntq;
	unsigned hz;			/* 0: each policy's own */
	const char *csv;
	unsigned cpus[RP_MAX_LIST];	/* hackbench's CPU counts */
	size_t ncpus;
	unsigned pin[RP_MAXCPU];	/* CPU i's core */
	size_t npin;
};

static unsigned rp_pins[RP_MAXCPU];
static size_t rp_npins;

/* Pin the calling thread to CPU @i's core (--pin). */
static void rp_pin(unsigned i)
{
	cpu_set_t set;

	if (i >= rp_npins)
		return;
	CPU_ZERO(&set);
	CPU_SET(rp_pins[i], &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "sq-replay: cannot pin to core %u\n",
			rp_pins[i]);
}

/* The cores this process may run on (before it pins itself). */
static unsigned rp_ncores;

static unsigned rp_cores(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return (unsigned)CPU_COUNT(&set);
}

/* The chosen policies, copied so that --hz can change their tick. */
static struct rp_policy rp_mine[2 * RP_MAX_LIST];
static size_t rp_nmine;

static const struct rp_policy *rp_own(const struct rp_policy *p,
				      unsigned hz)
{
	struct rp_policy *c = &rp_mine[rp_nmine++];

	*c = *p;
	if (hz)
		c->tick_ns = 1000000000u / hz;
	return c;
}

/* The 2003 mail's 1 CPU block, and the 2010 mail's three lines. */
static const unsigned rp_seed_groups[4] = { 50, 100, 150, 200 };
/* the 2003 mail's rows for 1, 2, 4 and 8 CPUs */
static const unsigned rp_seed_cpus[4] = { 1, 2, 4, 8 };
static const double rp_seed_24[4][4] = {
	{ 15.52, 37.63, 74.34, 110.62 }, { 10.50, 30.42, 64.26, 112.46 },
	{ 7.07, 22.75, 54.10, 101.45 }, { 7.02, 24.63, 61.48, 114.93 },
};
static const double rp_seed_26[4][4] = {
	{ 9.91, 17.86, 27.55, 39.77 }, { 7.44, 13.45, 19.68, 26.68 },
	{ 5.16, 9.25, 13.64, 18.65 }, { 4.08, 7.15, 10.31, 13.84 },
};

static int rp_seed_cpu_index(unsigned cpus)
{
	int i;

	for (i = 0; i < 4; i++)
		if (rp_seed_cpus[i] == cpus)
			return i;
	return -1;
}
static const struct {
	const char *policy;
	double mbps, lat_ms;
} rp_seed_tb[3] = {
	{ "cfs-2.6.35", 184.875, 12.158 },
	{ "cfs-dynamic", 185.99, 14.683 },
	{ "cfs-smaller", 188.784, 8.061 },
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
"hackbench (2003) and tbench with one client (2010) as tasks of an M:N\n"
"user-space scheduler (context switch: " RP_CTX_NAME "), timed by the\n"
"wall clock, printed in the mails' layouts.\n"
"\n"
"  -w, --workload W       hackbench, tbench or all (default all)\n"
"  -g, --groups LIST      hackbench groups (default 50,100,150,200)\n"
"  -l, --loops N          messages from each sender to each receiver (100)\n"
"      --fds N            senders and receivers per group (20)\n"
"      --datasize N       bytes a message (100)\n"
"      --buf N            a channel's capacity in bytes (65536)\n"
"      --runs N           hackbench runs a point, their mean (3)\n"
"      --cpus LIST        hackbench's CPU counts (default 1,2): a CPU is\n"
"                         an OS thread pinned to a core; on the virtual\n"
"                         clock up to 8, on the wall clock up to the cores\n"
"      --pin LIST         CPU i's core (default 1,0: 1 CPU on core 1)\n"
"  -q, --queues LIST      hackbench's run queues (default all):");
	for (k = 0; k < RP_NQUEUES; k++)
		printf(" %s", rp_rqops[k].name);
	printf("\n"
"      --hb-policies LIST hackbench's (default linux-2.4,linux-2.6.0,\n"
"                         cfs-2.6.35,eevdf-6.6)\n"
"  -p, --tb-policies LIST tbench's (default cfs-2.6.35,cfs-dynamic,\n"
"                         cfs-smaller,eevdf-6.6); every policy:");
	for (k = 0; k < RP_NPOLICIES; k++)
		printf(" %s", rp_policies[k].name);
	printf("\n"
"  -d, --duration S       tbench seconds measured per policy (5)\n"
"      --warmup S         and before them, not counted (1)\n"
"      --tb-runs N        runs a line, the one of the median max_latency\n"
"                         is printed (3)\n"
"      --background LIST  tbench's backgrounds, one run of every policy\n"
"                         each: N/BURST/SLEEP, N tasks computing BURST us\n"
"                         then asleep SLEEP us (0: a CPU hog); default\n"
"                         4/2000/8000,4/2000/0\n"
"      --tb-queues LIST   tbench's run queues (default rb)\n"
"      --server-us N      the server's computing per request (20)\n"
"      --client-us N      the client's between requests (10)\n"
"      --req N, --reply N request and reply bytes (256, 4096)\n"
"      --hz N             every policy's tick at N a second (default:\n"
"                         2.4 100, 2.6.0 1000, CFS and EEVDF 250)\n"
"      --virtual          the virtual clock of the tests (deterministic)\n"
"      --csv FILE         rows bench,policy,queue,cpus,x,y\n"
"  -h, --help\n");
}

static size_t rp_splitc(char *arg, char **out, size_t max, const char *sep)
{
	size_t n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(arg, sep, &save); tok;
	     tok = strtok_r(NULL, sep, &save)) {
		if (n == max)
			rp_die("too many items in a list at %s", tok);
		out[n++] = tok;
	}
	return n;
}

static size_t rp_split(char *arg, char **out, size_t max)
{
	return rp_splitc(arg, out, max, ",");
}

static unsigned long rp_num(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end)
		rp_die("not a number: %s", s);
	return v;
}

static void rp_policies_arg(char *arg, const struct rp_policy **out,
			    size_t *n)
{
	char *item[RP_MAX_LIST];
	size_t i;

	*n = rp_split(arg, item, RP_MAX_LIST);
	for (i = 0; i < *n; i++)
		if (!(out[i] = rp_policy_find(item[i])))
			rp_die("no policy %s", item[i]);
}

static void rp_background(struct rp_options *o, char *arg)
{
	char *item[RP_MAX_LIST];
	size_t i;

	o->nbg = rp_split(arg, item, RP_MAX_LIST);
	for (i = 0; i < o->nbg; i++) {
		char *f[3];

		if (rp_splitc(item[i], f, 3, "/") != 3)
			rp_die("--background: N/BURST/SLEEP, not %s", item[i]);
		o->bg[i][0] = (unsigned)rp_num(f[0]);
		o->bg[i][1] = (unsigned)rp_num(f[1]);
		o->bg[i][2] = (unsigned)rp_num(f[2]);
	}
}

static void rp_options(struct rp_options *o, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "workload", 1, NULL, 'w' }, { "groups", 1, NULL, 'g' },
		{ "loops", 1, NULL, 'l' }, { "queues", 1, NULL, 'q' },
		{ "tb-policies", 1, NULL, 'p' }, { "duration", 1, NULL, 'd' },
		{ "help", 0, NULL, 'h' }, { "fds", 1, NULL, 1 },
		{ "datasize", 1, NULL, 2 }, { "buf", 1, NULL, 3 },
		{ "hb-policies", 1, NULL, 4 }, { "background", 1, NULL, 5 },
		{ "tb-queues", 1, NULL, 6 },
		{ "server-us", 1, NULL, 8 }, { "client-us", 1, NULL, 9 },
		{ "req", 1, NULL, 10 }, { "reply", 1, NULL, 11 },
		{ "virtual", 0, NULL, 12 }, { "csv", 1, NULL, 13 },
		{ "hz", 1, NULL, 14 }, { "warmup", 1, NULL, 15 },
		{ "runs", 1, NULL, 16 }, { "tb-runs", 1, NULL, 17 },
		{ "cpus", 1, NULL, 18 }, { "pin", 1, NULL, 19 },
		{ NULL, 0, NULL, 0 }
	};
	char hbp[] = "linux-2.4,linux-2.6.0,cfs-2.6.35,eevdf-6.6";
	char tbp[] = "cfs-2.6.35,cfs-dynamic,cfs-smaller,eevdf-6.6";
	char bgdef[] = "4/2000/8000,4/2000/0";
	char *item[RP_MAX_LIST];
	size_t i;
	int c;

	memset(o, 0, sizeof(*o));
	o->hackbench = o->tbench = 1;
	for (i = 0; i < 4; i++)
		o->groups[i] = rp_seed_groups[i];
	o->ngroups = 4;
	o->loops = 100;
	o->runs = 3;
	o->tb_runs = 3;
	o->fds = 20;
	o->datasize = 100;
	o->buf = 65536;
	for (i = 0; i < RP_NQUEUES; i++)
		o->queues[i] = &rp_rqops[i];
	o->nq = RP_NQUEUES;
	rp_policies_arg(hbp, o->hb_pol, &o->nhp);
	rp_policies_arg(tbp, o->tb_pol, &o->ntp);
	o->tb.seconds = 5;
	o->tb.warmup = 1;
	rp_background(o, bgdef);
	o->tbq[0] = rp_rqops_find("rb");
	o->ntq = 1;
	o->tb.server_ns = 20 * RP_US;
	o->tb.client_ns = 10 * RP_US;
	o->tb.req_size = 256;
	o->tb.rep_size = 4096;
	o->cpus[0] = 1;
	o->cpus[1] = 2;
	o->ncpus = 2;
	o->pin[0] = 1;
	o->pin[1] = 0;
	o->npin = 2;
	while ((c = getopt_long(argc, argv, "w:g:l:q:p:d:h", lo, NULL)) != -1) {
		switch (c) {
		case 'w':
			o->hackbench = !strcmp(optarg, "hackbench") ||
				       !strcmp(optarg, "all");
			o->tbench = !strcmp(optarg, "tbench") ||
				    !strcmp(optarg, "all");
			if (!o->hackbench && !o->tbench)
				rp_die("no workload %s", optarg);
			break;
		case 'g':
			o->ngroups = rp_split(optarg, item, RP_MAX_LIST);
			for (i = 0; i < o->ngroups; i++)
				o->groups[i] = (unsigned)rp_num(item[i]);
			break;
		case 'l': o->loops = (unsigned)rp_num(optarg); break;
		case 'q':
			o->nq = rp_split(optarg, item, RP_MAX_LIST);
			for (i = 0; i < o->nq; i++)
				if (!(o->queues[i] = rp_rqops_find(item[i])))
					rp_die("no queue %s", item[i]);
			break;
		case 'p': rp_policies_arg(optarg, o->tb_pol, &o->ntp); break;
		case 'd': o->tb.seconds = atof(optarg); break;
		case 1: o->fds = (unsigned)rp_num(optarg); break;
		case 2: o->datasize = rp_num(optarg); break;
		case 3: o->buf = rp_num(optarg); break;
		case 4: rp_policies_arg(optarg, o->hb_pol, &o->nhp); break;
		case 5: rp_background(o, optarg); break;
		case 6:
			o->ntq = rp_split(optarg, item, RP_MAX_LIST);
			for (i = 0; i < o->ntq; i++)
				if (!(o->tbq[i] = rp_rqops_find(item[i])))
					rp_die("no queue %s", item[i]);
			break;
		case 8: o->tb.server_ns = rp_num(optarg) * RP_US; break;
		case 9: o->tb.client_ns = rp_num(optarg) * RP_US; break;
		case 10: o->tb.req_size = rp_num(optarg); break;
		case 11: o->tb.rep_size = rp_num(optarg); break;
		case 12: o->virt = 1; break;
		case 13: o->csv = optarg; break;
		case 14: o->hz = (unsigned)rp_num(optarg); break;
		case 15: o->tb.warmup = atof(optarg); break;
		case 16:
			o->runs = (unsigned)rp_num(optarg);
			if (!o->runs)
				rp_die("--runs %s: at least 1", optarg);
			break;
		case 17:
			o->tb_runs = (unsigned)rp_num(optarg);
			if (!o->tb_runs || o->tb_runs > RP_MAX_LIST)
				rp_die("--tb-runs %s: 1 to 16", optarg);
			break;
		case 18:
			o->ncpus = rp_split(optarg, item, RP_MAX_LIST);
			for (i = 0; i < o->ncpus; i++) {
				o->cpus[i] = (unsigned)rp_num(item[i]);
				if (!o->cpus[i] || o->cpus[i] > RP_MAXCPU)
					rp_die("--cpus %s: 1 to 8", item[i]);
			}
			break;
		case 19:
			o->npin = rp_split(optarg, item, RP_MAXCPU);
			for (i = 0; i < o->npin; i++)
				o->pin[i] = (unsigned)rp_num(item[i]);
			break;
		case 'h': rp_usage(); exit(0);
		default: rp_die("%s", "bad option");
		}
	}
	if (optind < argc)
		rp_die("unexpected argument %s", argv[optind]);
	if (o->hz && (o->hz < 10 || o->hz > 100000))
		rp_die("--hz %s: from 10 to 100000", argv[optind - 1]);
	for (i = 0; i < o->nhp; i++)
		o->hb_pol[i] = rp_own(o->hb_pol[i], o->hz);
	for (i = 0; i < o->ntp; i++)
		o->tb_pol[i] = rp_own(o->tb_pol[i], o->hz);
}

static const struct rp_rqops *rp_queue_of(const struct rp_policy *p,
					  const struct rp_rqops *q)
{
	return p->needs_erb ? NULL : q;
}

static const char *rp_qname(const struct rp_policy *p,
			    const struct rp_rqops *q)
{
	return p->needs_erb ? "erb" : q->name;
}

static int rp_seed_index(unsigned groups)
{
	int i;

	for (i = 0; i < 4; i++)
		if (rp_seed_groups[i] == groups)
			return i;
	return -1;
}

static void rp_check(const struct rp_result *r, const char *what)
{
	if (r->err) {
		fprintf(stderr, "sq-replay: %s: %s\n", what, r->errmsg);
		exit(1);
	}
}

/* the seconds of every point: [cpus][policy][queue][groups] */
static double rp_sec[RP_MAX_LIST][RP_MAX_LIST][RP_MAX_LIST][RP_MAX_LIST];

/* One CPU count's block: a row of seconds per policy and queue. */
static void rp_hackbench_block(const struct rp_options *o, FILE *csv,
			       size_t ci, double *stolen, uint64_t *moved,
			       uint64_t *remote)
{
	unsigned cpus = o->cpus[ci];
	size_t p, q, g;

	printf("%u CPU%s (%s, %s clock%s)\n", cpus, cpus > 1 ? "s" : "",
	       RP_CTX_NAME, o->virt ? "virtual" : "wall",
	       cpus > 1 ? (o->virt ? ", virtual CPUs"
				   : ", a pinned thread a CPU") : "");
	for (p = 0; p < o->nhp; p++) {
		const struct rp_policy *pol = o->hb_pol[p];
		size_t nq = pol->needs_erb ? 1 : o->nq;

		for (q = 0; q < nq; q++) {
			char label[64];

			snprintf(label, sizeof(label), "%s (%s, %s)",
				 pol->seed_name, pol->name,
				 rp_qname(pol, o->queues[q]));
			printf("%-44s", label);
			fflush(stdout);
			for (g = 0; g < o->ngroups; g++) {
				struct rp_result r;
				struct rp_hb_opts ho;
				double *sec = &rp_sec[ci][p][q][g];
				unsigned run;

				memset(&ho, 0, sizeof(ho));
				ho.groups = o->groups[g];
				ho.fds = o->fds;
				ho.loops = o->loops;
				ho.datasize = o->datasize;
				ho.buf = o->buf;
				ho.cpus = cpus;
				ho.pin = rp_pin;
				/* the mean of the runs, as OSDL's of five */
				*sec = 0;
				for (run = 0; run < o->runs; run++) {
					rp_hackbench(&r, pol,
						     rp_queue_of(pol, o->queues[q]),
						     o->virt, &ho);
					rp_check(&r, pol->name);
					*sec += r.seconds / o->runs;
					*stolen += r.stolen_ms;
					*moved += r.migrations;
					*remote += r.remote_wakes;
				}
				printf("%9.2f", *sec);
				fflush(stdout);
				if (csv)
					fprintf(csv, "hackbench,%s,%s,%u,%u,"
						"%.4f\n", pol->name,
						rp_qname(pol, o->queues[q]),
						cpus, o->groups[g], *sec);
			}
			printf("\n");
		}
	}
}

/* hackbench: a block per CPU count, then the ratios beside the seed's */
static void rp_run_hackbench(const struct rp_options *o, FILE *csv)
{
	size_t p, q, g, ci;
	int i24 = -1, i26 = -1;
	double stolen = 0;
	uint64_t moved = 0, remote = 0;
	unsigned cores = rp_ncores;
	bool ran[RP_MAX_LIST];

	printf("Performance of hackbench (times are in seconds, lower number "
	       "is better)\n");
	printf("%u senders x %u receivers a group, %u messages of %zu bytes, "
	       "channels of %zu bytes; the mean of %u runs\n",
	       o->fds, o->fds, o->loops, o->datasize, o->buf, o->runs);
	printf("%-44s", "number of groups");
	for (g = 0; g < o->ngroups; g++)
		printf("%9u", o->groups[g]);
	printf("\n");
	for (p = 0; p < o->nhp; p++) {
		if (!strcmp(o->hb_pol[p]->name, "linux-2.4"))
			i24 = (int)p;
		if (!strcmp(o->hb_pol[p]->name, "linux-2.6.0"))
			i26 = (int)p;
	}
	for (ci = 0; ci < o->ncpus; ci++) {
		for (p = 0; p < 44 + 9 * o->ngroups; p++)
			putchar('-');
		printf("\n");
		ran[ci] = o->virt || o->cpus[ci] <= cores;
		if (!ran[ci]) {
			printf("%u CPUs: not run (this machine gives %u cores; "
			       "--virtual runs them on the virtual clock)\n",
			       o->cpus[ci], cores);
			continue;
		}
		rp_hackbench_block(o, csv, ci, &stolen, &moved, &remote);
	}
	printf("(time the host ran another process, left out: %.1f ms; on "
	       "more than one CPU: %llu tasks moved by the balancers, %llu "
	       "wakeups posted to another CPU)\n", stolen,
	       (unsigned long long)moved, (unsigned long long)remote);
	if (i24 < 0 || i26 < 0)
		return;
	for (ci = 0; ci < o->ncpus; ci++) {
		int sc = rp_seed_cpu_index(o->cpus[ci]);

		if (!ran[ci])
			continue;
		printf("\n2.4 / 2.6.0 on %u CPU%s, ours (seed)\n", o->cpus[ci],
		       o->cpus[ci] > 1 ? "s" : "");
		for (q = 0; q < o->nq; q++) {
			printf("%-14s", o->queues[q]->name);
			for (g = 0; g < o->ngroups; g++) {
				int si = rp_seed_index(o->groups[g]);
				double x = rp_sec[ci][i24][q][g] /
					   rp_sec[ci][i26][q][g];

				if (si >= 0 && sc >= 0)
					printf("  %5.2f (%4.2f)", x,
					       rp_seed_24[sc][si] /
						       rp_seed_26[sc][si]);
				else
					printf("  %5.2f       ", x);
			}
			printf("\n");
		}
		if (sc < 0 || rp_seed_index(o->groups[0]) != 0 ||
		    rp_seed_index(o->groups[o->ngroups - 1]) != 3)
			continue;
		printf("growth from 50 to 200 groups on %u CPU%s, ours (seed)\n",
		       o->cpus[ci], o->cpus[ci] > 1 ? "s" : "");
		for (q = 0; q < o->nq; q++) {
			size_t last = o->ngroups - 1;

			printf("%-14s  linux-2.4 %5.2fx (%4.2fx)  linux-2.6.0 "
			       "%5.2fx (%4.2fx)\n", o->queues[q]->name,
			       rp_sec[ci][i24][q][last] / rp_sec[ci][i24][q][0],
			       rp_seed_24[sc][3] / rp_seed_24[sc][0],
			       rp_sec[ci][i26][q][last] / rp_sec[ci][i26][q][0],
			       rp_seed_26[sc][3] / rp_seed_26[sc][0]);
		}
	}
	/* each CPU count against the first (1 CPU) */
	for (ci = 1; ci < o->ncpus; ci++) {
		int sc = rp_seed_cpu_index(o->cpus[ci]);
		int s0 = rp_seed_cpu_index(o->cpus[0]);

		if (!ran[ci] || !ran[0])
			continue;
		printf("\n%u CPUs / %u CPU%s, ours (seed)\n", o->cpus[ci],
		       o->cpus[0], o->cpus[0] > 1 ? "s" : "");
		for (p = 0; p < o->nhp; p++) {
			const struct rp_policy *pol = o->hb_pol[p];
			bool seed = sc >= 0 && s0 >= 0 &&
				    ((int)p == i24 || (int)p == i26);

			for (q = 0; q < (pol->needs_erb ? 1 : o->nq); q++) {
				char label[40];

				snprintf(label, sizeof(label), "%s, %s",
					 pol->name,
					 rp_qname(pol, o->queues[q]));
				printf("%-24s", label);
				for (g = 0; g < o->ngroups; g++) {
					int si = rp_seed_index(o->groups[g]);
					double x = rp_sec[ci][p][q][g] /
						   rp_sec[0][p][q][g];

					if (seed && si >= 0) {
						const double (*t)[4] =
							(int)p == i24 ? rp_seed_24
								      : rp_seed_26;

						printf("  %5.2f (%4.2f)", x,
						       t[sc][si] / t[s0][si]);
					} else {
						printf("  %5.2f       ", x);
					}
				}
				printf("\n");
			}
		}
	}
}

static int rp_cmp_lat(const void *a, const void *b)
{
	double x = ((const struct rp_result *)a)->max_lat_ms;
	double y = ((const struct rp_result *)b)->max_lat_ms;

	return (x > y) - (x < y);
}

/* @runs runs; the one of the median max_latency (a maximum is one event:
 * the median of a few keeps one disturbed run from being the figure) */
static void rp_tbench_median(struct rp_result *r, const struct rp_policy *pol,
			     const struct rp_rqops *rq, int virt,
			     const struct rp_tb_opts *tb, unsigned runs)
{
	struct rp_result all[RP_MAX_LIST];
	double stolen = 0;
	unsigned i;

	memset(all, 0, sizeof(all));
	for (i = 0; i < runs; i++) {
		rp_tbench(&all[i], pol, rq, virt, tb);
		rp_check(&all[i], pol->name);
		stolen += all[i].stolen_ms;
	}
	qsort(all, runs, sizeof(all[0]), rp_cmp_lat);
	*r = all[runs / 2];
	r->stolen_ms = stolen;
}

/* tbench: the 2010 lines, one per policy and queue, per background */
static void rp_run_tbench_bg(const struct rp_options *o, FILE *csv,
			     const struct rp_tb_opts *tb)
{
	double base = 0;
	size_t p, q, k;

	if (tb->sleep_ns)
		printf("\ntbench 1, on UP (%s, %s clock), beside %u tasks "
		       "computing %.1f ms, asleep %.1f ms\n", RP_CTX_NAME,
		       o->virt ? "virtual" : "wall", tb->bg,
		       (double)tb->burst_ns / 1e6, (double)tb->sleep_ns / 1e6);
	else
		printf("\ntbench 1, on UP (%s, %s clock), beside %u CPU hogs\n",
		       RP_CTX_NAME, o->virt ? "virtual" : "wall", tb->bg);
	printf("%g s measured after %g s of warmup; of %u runs, the median "
	       "max_latency\n", tb->seconds, tb->warmup, o->tb_runs);
	for (p = 0; p < o->ntp; p++) {
		const struct rp_policy *pol = o->tb_pol[p];
		size_t nq = pol->needs_erb ? 1 : o->ntq;

		for (q = 0; q < nq; q++) {
			struct rp_result r;
			const char *qn = rp_qname(pol, o->tbq[q]);
			char name[64];

			rp_tbench_median(&r, pol, rp_queue_of(pol, o->tbq[q]),
					 o->virt, tb, o->tb_runs);
			printf("* %s (%s, %s)\n", pol->seed_name, pol->name, qn);
			printf("Throughput %g MB/sec 1 clients 1 procs "
			       "max_latency=%.3f ms\n", r.mbps, r.max_lat_ms);
			printf("  %llu ops, %llu switches (wakeup preemptions "
			       "%llu, tick %llu), host took %.1f ms\n",
			       (unsigned long long)r.ops,
			       (unsigned long long)r.switches,
			       (unsigned long long)r.preempt_wakeup,
			       (unsigned long long)r.preempt_tick, r.stolen_ms);
			if (!strcmp(pol->name, "cfs-2.6.35") && !base)
				base = r.max_lat_ms;
			for (k = 0; k < 3; k++)
				if (!strcmp(pol->name, rp_seed_tb[k].policy) &&
				    base)
					printf("  max_latency / mainline's: %.2f "
					       "(seed %.2f: %g MB/sec, %.3f ms)\n",
					       r.max_lat_ms / base,
					       rp_seed_tb[k].lat_ms /
						       rp_seed_tb[0].lat_ms,
					       rp_seed_tb[k].mbps,
					       rp_seed_tb[k].lat_ms);
			snprintf(name, sizeof(name), "tbench:%u/%u/%u", tb->bg,
				 (unsigned)(tb->burst_ns / RP_US),
				 (unsigned)(tb->sleep_ns / RP_US));
			if (csv)
				fprintf(csv, "%s,%s,%s,1,%.3f,%.3f\n", name,
					pol->name, qn, r.mbps, r.max_lat_ms);
		}
	}
}

static void rp_run_tbench(const struct rp_options *o, FILE *csv)
{
	size_t b;

	for (b = 0; b < o->nbg; b++) {
		struct rp_tb_opts tb = o->tb;

		tb.bg = o->bg[b][0];
		tb.burst_ns = (uint64_t)o->bg[b][1] * RP_US;
		tb.sleep_ns = (uint64_t)o->bg[b][2] * RP_US;
		rp_run_tbench_bg(o, csv, &tb);
	}
}

int main(int argc, char **argv)
{
	struct rp_options o;
	FILE *csv = NULL;

	rp_options(&o, argc, argv);
	memcpy(rp_pins, o.pin, sizeof(rp_pins));
	rp_npins = o.npin;
	rp_ncores = rp_cores();
	if (!o.virt)
		rp_pin(0);	/* the 1-CPU runs, and CPU 0's thread */
	if (o.csv) {
		csv = fopen(o.csv, "w");
		if (!csv)
			rp_die("cannot write %s", o.csv);
		fprintf(csv, "bench,policy,queue,cpus,x,y\n");
	}
	if (o.hackbench)
		rp_run_hackbench(&o, csv);
	if (o.tbench)
		rp_run_tbench(&o, csv);
	if (csv && fclose(csv))
		rp_die("cannot write %s", o.csv);
	return 0;
}
