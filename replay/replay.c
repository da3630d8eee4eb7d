/* SPDX-License-Identifier: MIT */
/*
 * replay/replay.c - the seeds' scheduler benchmarks, run on smartq's queues
 *
 * sq-replay runs hackbench (OSDL, December 2003) and tbench with one client
 * (Desnoyers, September 2010) through replay/model.h, a single-CPU model
 * of 2.6.35's CFS and 6.6's EEVDF in simulated time, once per run queue,
 * and prints them in the mails' layouts: the 2003 table (groups across, a
 * row per run queue) and the 2010 Throughput lines (one per policy).  Run
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
	int rq_cost;		/* RP_COST_* */
	int sensitivity, full, calibrate;
	const char *csv, *json;
};

enum { RP_COST_NONE, RP_COST_FIXED, RP_COST_LIVE, RP_COST_RECORDED };
static const char *const rp_cost_names[] = { "none", "fixed", "live",
					     "recorded" };

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
"      --hb-policy LIST  hackbench's policies (default mainline,eevdf;\n"
"                        --full: all)\n"
"      --ipc I           hackbench's channels: socket (default, as the\n"
"                        2003 hackbench) or pipe (its -pipe)\n"
"      --buf BYTES       their buffer: a socket's sndbuf (default 65535,\n"
"                        wmem_default of 2.4 and 2.6.0) or a pipe's size\n"
"                        (default 4096, one page)\n"
"  -d, --duration S      tbench's simulated seconds (default 60)\n"
"  -s, --seed N          tbench daemons' phases and jitter (default 1)\n"
"      --hogs N          tbench beside N CPU-bound tasks (default 0: the\n"
"                        seed's idle system; more shows where the\n"
"                        policies part)\n"
"      --background F    tbench's assumed daemons' bursts times F\n"
"                        (default 1; 0: no background at all)\n"
"      --ctxsw NS        the assumed cost of a context switch (default 2000)\n"
"      --check           compare every first() with the truth (slow)\n"
"      --rq-cost C       charge each run-queue operation into simulated\n"
"                        time: recorded (default: the calibration in\n"
"                        replay/rq-cost.h, measured once, deterministic),\n"
"                        live (calibrated now on this machine, scaled by\n"
"                        its clock to the modelled 2 GHz), fixed (the\n"
"                        tests' invented table) or none\n"
"      --rq-scale F      the run queue's per-operation costs times F\n"
"                        (default 1)\n"
"      --sensitivity     only the sensitivity table: the headline figures\n"
"                        with each assumption varied (doc/replay.md)\n"
"      --full            everything: all policies in hackbench, the pipe\n"
"                        variant, and the sensitivity table\n"
"      --calibrate       calibrate the chosen queues now and print them as\n"
"                        replay/rq-cost.h (run it under the timing lock)\n"
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

/* a real number from 0 to 1000 */
static double rp_real(const char *opt, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (*end || end == s || !(v >= 0) || v > 1000) {
		fprintf(stderr, "sq-replay: %s: \"%s\" is not a number from 0 "
			"to 1000 (--help lists the options)\n", opt, s);
		exit(2);
	}
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
		{ "rq-scale", required_argument, NULL, 'S' },
		{ "ipc", required_argument, NULL, 'I' },
		{ "buf", required_argument, NULL, 'B' },
		{ "background", required_argument, NULL, 'G' },
		{ "ctxsw", required_argument, NULL, 'X' },
		{ "sensitivity", no_argument, NULL, 'V' },
		{ "full", no_argument, NULL, 'F' },
		{ "calibrate", no_argument, NULL, 'K' },
		{ "csv", required_argument, NULL, 'C' },
		{ "json", required_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *workload = "all";
	unsigned long hogs;
	uint32_t buf = 0;
	char *end;
	size_t k;
	int c;

	memset(o, 0, sizeof(*o));
	o->loops = 100;
	o->duration = 60;
	o->seed = 1;
	o->rq_cost = RP_COST_RECORDED;
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
			for (k = 0; k < 4; k++)
				if (!strcmp(optarg, rp_cost_names[k]))
					break;
			if (k == 4)
				rp_die("--rq-cost: \"%s\" is not recorded, live, "
				       "fixed or none", optarg);
			o->rq_cost = (int)k;
			break;
		case 'S':
			rp_as.rq_scale = rp_real("--rq-scale", optarg);
			break;
		case 'G':
			rp_as.background = rp_real("--background", optarg);
			break;
		case 'I':
			if (!strcmp(optarg, "socket"))
				rp_as.ipc = RP_IPC_SOCKET;
			else if (!strcmp(optarg, "pipe"))
				rp_as.ipc = RP_IPC_PIPE;
			else
				rp_die("--ipc: \"%s\" is not socket or pipe",
				       optarg);
			break;
		case 'B':
			buf = (uint32_t)rp_number("--buf: \"%s\" is not a "
				"number of bytes from 101 to 1e9", optarg,
				1000000000);
			if (buf <= RP_HB_MSG)
				rp_die("--buf: \"%s\" holds no message", optarg);
			break;
		case 'X':
			rp_as.ctxsw = rp_number("--ctxsw: \"%s\" is not a "
				"number of ns from 1 to 1e9", optarg,
				1000000000);
			break;
		case 'V':
			o->sensitivity = 1;
			break;
		case 'F':
			o->full = 1;
			break;
		case 'K':
			o->calibrate = 1;
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
	if (!o->nq && o->sensitivity && !o->full) {
		o->queues[o->nq++] = rp_kind_find("rb");
		o->queues[o->nq++] = rp_kind_find("list");
	}
	if (!o->nq)
		for (k = 0; k < RP_NKINDS; k++)
			o->queues[o->nq++] = &rp_kinds[k];
	if (o->sensitivity || o->full) {	/* the table's two queues */
		static const char *const need[] = { "rb", "list" };

		for (k = 0; k < 2; k++) {
			size_t j = 0;

			while (j < o->nq && o->queues[j] !=
					    rp_kind_find(need[k]))
				j++;
			if (j == o->nq)
				o->queues[o->nq++] = rp_kind_find(need[k]);
		}
	}
	if (!o->np)
		for (k = 0; k < RP_NPOLICIES; k++)
			o->policies[o->np++] = &rp_policies[k];
	if (!o->nhp && o->full)
		for (k = 0; k < RP_NPOLICIES; k++)
			o->hb_policies[o->nhp++] = &rp_policies[k];
	if (!o->nhp) {
		o->hb_policies[o->nhp++] = rp_policy_find("mainline");
		o->hb_policies[o->nhp++] = rp_policy_find("eevdf");
	}
	if (buf && rp_as.ipc == RP_IPC_PIPE)
		rp_as.pipe_buf = buf;
	else if (buf)
		rp_as.sock_buf = buf;
}

/* ---- the run queue's cost --------------------------------------------- */

/* The value of /proc/cpuinfo's first line starting with @field, or "" */
static void rp_cpuinfo(const char *field, char *out, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field))) {
			const char *c = strchr(line, ':');

			if (c) {
				c += strspn(c + 1, " \t") + 1;
				snprintf(out, size, "%.*s",
					 (int)strcspn(c, "\n"), c);
			}
			break;
		}
	fclose(f);
}

/* This machine's clock in MHz, 0 if unknown. */
static double rp_host_mhz(void)
{
	char v[64];

	rp_cpuinfo("cpu MHz", v, sizeof(v));
	return strtod(v, NULL);
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

/* A calibration measured once and kept (replay/rq-cost.h): the default,
 * so that `make replay` makes the same decisions on every machine. */
struct rp_cost_record {
	const char *kind;	/* its label; NULL ends the list */
	double ns[4][RP_NB];
};
#include "rq-cost.h"

static struct rp_cost_table rp_tables[RP_NKINDS];

/* Print the chosen queues' live calibration as replay/rq-cost.h. */
static void rp_print_calibration(const struct rp_options *o)
{
	double mhz = rp_host_mhz();
	char model[128];
	size_t k;
	unsigned op, b;

	rp_cpuinfo("model name", model, sizeof(model));
	printf("/* SPDX-License-Identifier: MIT */\n"
	       "/*\n * replay/rq-cost.h - the run queues' recorded calibration"
	       "\n *\n * Generated by `sq-replay --calibrate` (make "
	       "replay-calibrate); do not edit.\n * Simulated ns per "
	       "operation of a %.0f MHz CPU at N = 1, 4, ..., 65536\n"
	       " * queued tasks: enqueue, dequeue, pop, first.\n */\n"
	       "#define RP_RECORDED_ON \"%s, %.0f MHz, %s\"\n\n"
	       "static const struct rp_cost_record rp_recorded[] = {\n",
	       RP_MODEL_MHZ, model, mhz, "cc " __VERSION__);
	for (k = 0; k < o->nq; k++) {
		struct rp_cost_table t;

		rp_calibrate(o->queues[k], &t, mhz > 0 ? mhz / RP_MODEL_MHZ
						       : 1.0);
		printf("\t{ \"%s\", {", rp_kind_label(o->queues[k]));
		for (op = 0; op < 4; op++) {
			printf("\n\t\t{");
			for (b = 0; b < RP_NB; b++)
				printf(" %.1f%s", t.ns[op][b],
				       b + 1 < RP_NB ? "," : " ");
			printf("},");
		}
		printf("\n\t} },\n");
	}
	printf("\t{ NULL, { { 0 } } },\n};\n");
}

/* Fill rp_tables for the chosen queues from the chosen source. */
static void rp_setup_costs(const struct rp_options *o)
{
	double mhz = rp_host_mhz();
	double scale = mhz > 0 ? mhz / RP_MODEL_MHZ : 1.0;
	size_t k;

	if (o->rq_cost == RP_COST_NONE)
		return;
	if (o->rq_cost == RP_COST_RECORDED)
		printf("run-queue costs: recorded on %s (replay/rq-cost.h)\n",
		       RP_RECORDED_ON);
	else if (o->rq_cost == RP_COST_LIVE)
		printf("run-queue costs: calibrated now on this machine (%.0f "
		       "MHz), scaled to a %.0f MHz CPU\n", mhz, RP_MODEL_MHZ);
	else
		printf("run-queue costs: the fixed test table\n");
	if (rp_as.rq_scale != 1.0)
		printf("  times %g (--rq-scale)\n", rp_as.rq_scale);
	for (k = 0; k < o->nq; k++) {
		const struct rp_kind *q = o->queues[k];
		struct rp_cost_table *t = &rp_tables[q - rp_kinds];
		const struct rp_cost_record *rec = rp_recorded;

		while (rec->kind && strcmp(rec->kind, rp_kind_label(q)))
			rec++;
		if (o->rq_cost == RP_COST_FIXED) {
			rp_cost_fixed(t, !strcmp(q->name, "rp_list"));
			continue;
		}
		if (o->rq_cost == RP_COST_RECORDED && rec->kind) {
			memcpy(t->ns, rec->ns, sizeof(t->ns));
		} else {
			if (o->rq_cost == RP_COST_RECORDED)
				printf("  %s is not in the recording: calibrated "
				       "now, on this machine\n",
				       rp_kind_label(q));
			rp_calibrate(q, t, scale);
		}
		printf("  %-7s ns at N=16, 1024, 16384: first %.0f %.0f %.0f, "
		       "pop %.0f %.0f %.0f, enq %.0f %.0f %.0f\n",
		       rp_kind_label(q), t->ns[RP_OP_FIRST][2],
		       t->ns[RP_OP_FIRST][5], t->ns[RP_OP_FIRST][7],
		       t->ns[RP_OP_POP][2], t->ns[RP_OP_POP][5],
		       t->ns[RP_OP_POP][7], t->ns[RP_OP_ENQ][2],
		       t->ns[RP_OP_ENQ][5], t->ns[RP_OP_ENQ][7]);
	}
	printf("\n");
}

/* ---- output ---------------------------------------------------------- */

struct rp_row {
	const char *workload;
	const struct rp_kind *q;
	const struct rp_policy *pol;
	uint32_t groups;
	int ipc;		/* hackbench's channels */
	struct rp_result r;
};

static const char *rp_ipc_name(int ipc)
{
	return ipc == RP_IPC_PIPE ? "pipe" : "socket";
}

/* hackbench's channels, in words */
static void rp_print_ipc(void)
{
	if (rp_as.ipc == RP_IPC_PIPE)
		printf("pipes of %u bytes", (unsigned)rp_as.pipe_buf);
	else
		printf("AF_UNIX socket pairs, sndbuf %u bytes (a message "
		       "charges %u)", (unsigned)rp_as.sock_buf,
		       (unsigned)rp_msg_charge(RP_IPC_SOCKET, RP_HB_MSG));
}

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
	       "messages of %u bytes from each sender to each receiver,\n",
	       (unsigned)o->loops, (unsigned)RP_HB_MSG);
	rp_print_ipc();
	printf("\nmodel: 1 CPU, HZ 250; sim = simulated seconds from the "
	       "start signal to the last\nreap, the same work and costs for "
	       "every queue\n\n");
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
		if (rp_as.background > 0)
			printf(";\nbackground: the assumed daemons, bursts x%g",
			       rp_as.background);
		else
			printf(";\nno background");
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
	fprintf(f, "workload,queue,smartq,exact,policy,ipc,groups,loops,"
		"duration_s,hogs,start_s,sim_s,rq_sim_s,rq_ms,rq_ops,switches,"
		"picks,runnable,jain,throughput_mbs,max_latency_ms,trace\n");
	for (i = 0; i < n; i++) {
		const struct rp_row *w = &rows[i];
		int hb = w->groups != 0;

		fprintf(f, "%s,%s,%d,%d,%s,%s,%u,%u,%.3f,%u,%.6f,%.6f,%.6f,"
			"%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.2f,%.6f,"
			"%.3f,%.3f,%016" PRIx64 "\n", w->workload,
			rp_kind_label(w->q), w->q->smartq, w->q->exact,
			w->pol->name, hb ? rp_ipc_name(w->ipc) : "",
			(unsigned)w->groups, hb ? (unsigned)o->loops : 0u,
			hb ? 0.0 : o->duration, hb ? 0u : (unsigned)o->hogs,
			(double)w->r.start_ns / 1e9,
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
		"and EEVDF 6.6, 1 CPU, HZ 250\",\n  \"rq_cost\": \"%s\",\n",
		SQ_VERSION_STRING, rp_cost_names[o->rq_cost]);
	if (o->rq_cost == RP_COST_RECORDED)
		fprintf(f, "  \"rq_cost_recorded_on\": \"%s\",\n",
			RP_RECORDED_ON);
	fprintf(f, "  \"assumed\": {\"rq_scale\": %g, \"ctxsw_ns\": %" PRIu64
		", \"msg_write_ns\": %" PRIu64 ", \"msg_read_ns\": %" PRIu64
		", \"fork_ns\": %" PRIu64 ", \"reap_ns\": %" PRIu64
		", \"sock_buf\": %u, \"sock_msg_charge\": %u, \"pipe_buf\": %u"
		", \"background\": %g},\n  \"hackbench_policies\": [",
		rp_as.rq_scale, rp_as.ctxsw, rp_as.msg_write, rp_as.msg_read,
		rp_as.fork, rp_as.reap, (unsigned)rp_as.sock_buf,
		(unsigned)rp_msg_charge(RP_IPC_SOCKET, RP_HB_MSG),
		(unsigned)rp_as.pipe_buf, rp_as.background);
	for (i = 0; i < o->nhp; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", o->hb_policies[i]->name);
	fprintf(f, "],\n  \"loops\": %u,\n  \"duration_s\": %.3f,\n"
		"  \"hogs\": %u,\n  \"seed\": %" PRIu64 ",\n  \"results\": [",
		(unsigned)o->loops, o->duration, (unsigned)o->hogs, o->seed);
	for (i = 0; i < n; i++) {
		const struct rp_row *w = &rows[i];
		int hb = w->groups != 0;

		fprintf(f, "%s\n    {\"workload\": \"%s\", \"queue\": \"%s\", "
			"\"smartq\": %s, \"exact\": %s, \"policy\": \"%s\", "
			"\"ipc\": \"%s\", \"groups\": %u, \"start_s\": %.6f, "
			"\"sim_s\": %.6f, \"rq_sim_s\": %.6f, \"rq_ms\": %.3f, "
			"\"rq_ops\": %" PRIu64 ", \"switches\": %" PRIu64
			", \"picks\": %" PRIu64 ", \"runnable\": %.2f, "
			"\"jain\": %.6f, "
			"\"throughput_mbs\": %.3f, \"max_latency_ms\": %.3f, "
			"\"trace\": \"%016" PRIx64 "\"}",
			i ? "," : "", w->workload, rp_kind_label(w->q),
			w->q->smartq ? "true" : "false",
			w->q->exact ? "true" : "false", w->pol->name,
			hb ? rp_ipc_name(w->ipc) : "", (unsigned)w->groups,
			(double)w->r.start_ns / 1e9, (double)w->r.sim_ns / 1e9,
			(double)w->r.rq_sim_ns / 1e9,
			(double)w->r.rq_ns / 1e6, w->r.rq_ops, w->r.switches,
			w->r.picks, w->r.runnable, w->r.jain, w->r.mbps,
			w->r.max_latency_ms, w->r.hash);
	}
	fprintf(f, "\n  ]\n}\n");
	if (fclose(f))
		rp_die("--json: write to \"%s\" failed", path);
}

/* ---- sensitivity: the headline figures under other assumptions -------- */

/* One variation of rp_as: a field set, or left as the options made it. */
struct rp_variation {
	const char *what;
	double rq_scale;	/* < 0: unchanged */
	uint64_t ctxsw;		/* 0: unchanged */
	double background;	/* < 0: unchanged */
	int ipc;		/* < 0: unchanged */
	uint32_t sock_buf;	/* 0: unchanged */
};

static const struct rp_variation rp_variations[] = {
	{ "as assumed", -1, 0, -1, -1, 0 },
	{ "run-queue cost x0 (none)", 0, 0, -1, -1, 0 },
	{ "run-queue cost x4", 4, 0, -1, -1, 0 },
	{ "run-queue cost x16", 16, 0, -1, -1, 0 },
	{ "context switch 1 us", -1, 1000, -1, -1, 0 },
	{ "context switch 8 us", -1, 8000, -1, -1, 0 },
	{ "no background", -1, 0, 0, -1, 0 },
	{ "background x2", -1, 0, 2, -1, 0 },
	{ "pipes of 4 KiB, not sockets", -1, 0, -1, RP_IPC_PIPE, 0 },
	{ "socket sndbuf 16 KiB", -1, 0, -1, RP_IPC_SOCKET, 16384 },
	{ "socket sndbuf 256 KiB", -1, 0, -1, RP_IPC_SOCKET, 262144 },
};

static void rp_vary(const struct rp_variation *v)
{
	if (v->rq_scale >= 0)
		rp_as.rq_scale = v->rq_scale;
	if (v->ctxsw)
		rp_as.ctxsw = v->ctxsw;
	if (v->background >= 0)
		rp_as.background = v->background;
	if (v->ipc >= 0)
		rp_as.ipc = v->ipc;
	if (v->sock_buf)
		rp_as.sock_buf = v->sock_buf;
}

/* A run of the sensitivity table: untimed (the simulated figures only). */
static void rp_sens_run(struct rp_result *r, const struct rp_options *o,
			const char *kind, const char *policy, uint32_t groups,
			uint32_t hogs)
{
	const struct rp_kind *q = rp_kind_find(kind);
	struct rp_row w;

	rp_cost_next = o->rq_cost ? &rp_tables[q - rp_kinds] : NULL;
	memset(&w, 0, sizeof(w));
	w.q = q;
	w.pol = rp_policy_find(policy);
	w.groups = groups;
	w.workload = groups ? "hackbench" : "tbench";
	if (groups)
		rp_hackbench(&w.r, q, w.pol, groups, o->loops, 0, 0);
	else
		rp_tbench(&w.r, q, w.pol, (uint64_t)(o->duration * 1e9), hogs,
			  o->seed, 0, 0);
	if (w.r.err)
		rp_fail(&w);
	*r = w.r;
}

static void rp_sensitivity(const struct rp_options *o)
{
	const uint32_t g = o->groups[o->ngroups - 1];
	const struct rp_assume base = rp_as;
	size_t v;

	printf("Sensitivity (rb and list; hackbench %u groups, %u loops; "
	       "tbench %g s, seed %" PRIu64 "):\n\n", (unsigned)g,
	       (unsigned)o->loops, o->duration, o->seed);
	printf("| assumption | hackbench CFS: rb s | list s | list/rb | "
	       "rb switches k | EEVDF rb s | tbench idle max ms: CFS | "
	       "EEVDF | + 1 hog: mainline | smaller | EEVDF |\n"
	       "|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (v = 0; v < sizeof(rp_variations) / sizeof(rp_variations[0]);
	     v++) {
		struct rp_result rb, list, erb, t[5];

		rp_as = base;
		rp_vary(&rp_variations[v]);
		rp_sens_run(&rb, o, "rb", "mainline", g, 0);
		rp_sens_run(&list, o, "list", "mainline", g, 0);
		rp_sens_run(&erb, o, "rb", "eevdf", g, 0);
		rp_sens_run(&t[0], o, "rb", "mainline", 0, 0);
		rp_sens_run(&t[1], o, "rb", "eevdf", 0, 0);
		rp_sens_run(&t[2], o, "rb", "mainline", 0, 1);
		rp_sens_run(&t[3], o, "rb", "smaller", 0, 1);
		rp_sens_run(&t[4], o, "rb", "eevdf", 0, 1);
		printf("| %s | %.2f | %.2f | %.3f | %.0f | %.2f | %.2f | %.2f "
		       "| %.2f | %.2f | %.2f |\n", rp_variations[v].what,
		       (double)rb.sim_ns / 1e9, (double)list.sim_ns / 1e9,
		       (double)list.sim_ns / (double)rb.sim_ns,
		       (double)rb.switches / 1e3, (double)erb.sim_ns / 1e9,
		       t[0].max_latency_ms, t[1].max_latency_ms,
		       t[2].max_latency_ms, t[3].max_latency_ms,
		       t[4].max_latency_ms);
	}
	rp_as = base;
	printf("\n");
}

int main(int argc, char **argv)
{
	struct rp_options o;
	struct rp_row *rows;
	size_t n = 0, nhb, ntb, i, k, p, v, nipc;
	int ipc[2];

	setvbuf(stdout, NULL, _IOLBF, 0);
	rp_parse(&o, argc, argv);
	if (o.calibrate) {
		rp_print_calibration(&o);
		return 0;
	}
	rp_setup_costs(&o);
	ipc[0] = rp_as.ipc;
	ipc[1] = ipc[0] == RP_IPC_PIPE ? RP_IPC_SOCKET : RP_IPC_PIPE;
	nipc = o.full ? 2 : 1;
	nhb = o.hackbench ? nipc * o.nhp * o.nq * o.ngroups : 0;
	ntb = o.tbench ? o.nq * o.np : 0;
	if (o.sensitivity)
		nhb = ntb = 0;
	rows = (struct rp_row *)rp_xcalloc(nhb + ntb, sizeof(*rows));
	for (v = 0; v < nipc && nhb; v++) {
		const size_t first = n;

		rp_as.ipc = ipc[v];
		for (p = 0; p < o.nhp; p++)
		for (k = 0; k < o.nq; k++)
			for (i = 0; i < o.ngroups; i++) {
				struct rp_row *w = &rows[n++];

				w->workload = "hackbench";
				w->q = o.queues[k];
				w->pol = o.hb_policies[p];
				w->groups = o.groups[i];
				w->ipc = rp_as.ipc;
				rp_cost_next = o.rq_cost ? &rp_tables[w->q -
								      rp_kinds]
							 : NULL;
				rp_hackbench(&w->r, w->q, w->pol, w->groups,
					     o.loops, 1, o.check);
				if (w->r.err)
					rp_fail(w);
			}
		rp_hackbench_table(&o, rows + first);
	}
	rp_as.ipc = ipc[0];
	for (k = 0; k < o.nq && ntb; k++)
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
	if (ntb)
		rp_tbench_lines(&o, rows + nhb);
	if (o.sensitivity || o.full)
		rp_sensitivity(&o);
	if (o.csv)
		rp_write_csv(o.csv, rows, n, &o);
	if (o.json)
		rp_write_json(o.json, rows, n, &o);
	free(rows);
	return 0;
}
