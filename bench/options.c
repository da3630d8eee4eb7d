/* SPDX-License-Identifier: MIT */
/*
 * bench/options.c - the harness's command line (sq-bench --help)
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#include "bench.h"

/* The queue names of one kind (0 backends, 1 peers), space-separated. */
static void bq_print_names(FILE *f, int peer, const char *sep)
{
	size_t i;
	int first = 1;

	for (i = 0; i < bq_nqueues; i++)
		if (bq_all[i]->peer == peer) {
			fprintf(f, "%s%s", first ? "" : sep, bq_all[i]->name);
			first = 0;
		}
}

static void bq_usage(FILE *f)
{
	fprintf(f,
"usage: sq-bench [options]\n"
"\n"
"The smart-queue harness: cycles per loop of every smartq backend\n"
"  (");
	bq_print_names(f, 0, ", ");
	fprintf(f, ")\n"
"and of peers measured in the same run\n"
"  (");
	bq_print_names(f, 1, ", ");
	fprintf(f, ";\n"
"bsd_rb when libbsd was found at build time, linux_rb when the build was\n"
"given a kernel source tree as LINUX_SRC=).  For each N every queue first\n"
"passes a correctness check (else: an error and exit status 1), then is\n"
"timed twice, in mirrored order.\n"
"\n"
"  -n, --n LIST          queue sizes: comma-separated numbers or ranges A..B\n"
"                        (A, 2A, 4A, ... up to B); k, M and G suffixes\n"
"                        multiply by 2^10, 2^20 and 2^30.  Default 1..2048;\n"
"                        e.g. 1..1M, or 10,100,1000\n"
"  -q, --queues LIST     comma-separated queue names, or 'all' (default),\n"
"                        'backends', 'peers'\n"
"  -w, --workload W      hold (default): pop the first, advance its key,\n"
"                          enqueue it (the seeds' loop)\n"
"                        sched: hold steps, plus 1/16 a random task blocks\n"
"                          (dequeue) and 1/16 a sleeper wakes near the minimum\n"
"                        timer: a timer service: 6/8 re-arm a random timer\n"
"                          (requeue, armed or idle), 1/8 cancel one (dequeue),\n"
"                          1/8 expire what is due (pop_due) and re-arm it\n"
"                        updown: pop all N (now = the last key popped), then\n"
"                          enqueue all N at now+increment, and again; a loop\n"
"                          is one pop and one enqueue\n"
"                        spread: the timer mix with a server's horizons: unless\n"
"                          given, -d loguniform -m 3600000 --gran-shift 0\n"
"                          (keys in ms: timeouts 1 ms .. 1 h, ring at 1 ms)\n"
"                        churn: long timers, the same defaults as spread: 63\n"
"                          steps in 64 re-arm a random timer (requeue), the\n"
"                          64th advances the clock by 1 and fires every\n"
"                          timer due (pop_due; idle until re-armed)\n"
"                        mix: your own shape: --cancel and --rearm shares of\n"
"                          the steps cancel (dequeue) and re-arm (requeue) a\n"
"                          random queued node; the rest arm an idle node at\n"
"                          now+increment (enqueue) while fewer than N are\n"
"                          queued, else fire the first (pop; now = its key)\n"
	);
	fprintf(f,
"  -d, --dist D          key increments, each at most MAX (bench/README.md\n"
"                        gives their sources):\n"
"                        uniform (default): 1..MAX\n"
"                        exp: exponential, mean MAX/8, capped at MAX\n"
"                        ties: 0, MAX/4, MAX/2 or 3MAX/4 (many equal keys)\n"
"                        triangular: density rising to MAX, mean 2MAX/3\n"
"                        negtriangular: density falling from 0, mean MAX/3\n"
"                        bimodal: s(0.95238 U + 9.5238 w.p. 0.1),\n"
"                          s = MAX/10.47618\n"
"                        camel: 99.9%% of the mass in two humps, each 0.05%% of\n"
"                          [0, MAX) wide, centred on MAX/4 and 3MAX/4\n"
"                        loguniform: exp(U ln MAX), 1..MAX, as many in\n"
"                          1..10 as in 10..100 (timeouts of every scale)\n"
"  -m, --inc-max MAX     largest increment (default 1048576, at most\n"
"                        2^32-1); with N near 1M, a MAX of 2^20 leaves the\n"
"                        narrow distributions few distinct keys: use -m 3G\n"
"  -l, --loops L         loops per repetition (default 200000)\n"
"  -r, --reps R          timed repetitions per pass (default 9)\n"
"      --warmup W        untimed loops before each pass (default: L)\n"
"  -s, --seed S          random seed (default 1)\n"
"  -c, --cpu C           pin to CPU C (sched_setaffinity); default not pinned\n"
"      --gran-shift G    granularity 2^G for the backends exact only to a\n"
"                        granularity (the ring; flag 0 in SQ_KINDS); default:\n"
"                        the smallest whose 1024-slot window (the seed\n"
"                        ring's) holds 2*MAX\n"
"      --csv FILE        also write the results as CSV\n"
"      --json FILE       also write the results as JSON\n"
"      --event B         every queue's events are B bytes (a multiple of 8),\n"
"                        its node at the start; a queue whose node is larger\n"
"                        is left out.  Default: each queue's own node size\n"
"      --chase           after each N, time a dependent load from memory (a\n"
"                        pointer chase over 32 MiB, one cache line a step)\n"
"                        and print each queue's ns/loop in such loads\n"
"      --fault QUEUE     corrupt QUEUE before its correctness pass (to test\n"
"                        that the pass catches it: the run must fail)\n"
"      --cancel P        mix: share P (0..1) of the steps cancel (0)\n"
"      --rearm P         mix: share P of the steps re-arm (0); every cancel\n"
"                        needs an arm, so 2 x cancel + rearm must be below 1\n"
"      --trace FILE      mix: recorded delays or steps instead of -d/-m, one\n"
"                        a line: 'DELAY' (key minus now at an arm), or\n"
"                        'arm DELAY', 'rearm DELAY', 'cancel', 'fire' (the\n"
"                        steps then come from the file); '#' comments\n"
"\n"
"  --advise              run your shape (the mix) on every backend that fits\n"
"                        and the strongest peers, print one recommendation,\n"
"                        its ratios, the spread between runs and the command\n"
"                        that reproduces it.  With it: -n N (one size,\n"
"                        10000), -d/-m or --trace, --cancel, --rearm, and\n"
"      --gran T          order within T key units is enough: the ring and\n"
"                        the wheel join at Tg = T rounded down to a power of\n"
"                        two (default: exact order, exact queues only)\n"
"      --remote          other threads post (arm, cancel) through the inbox\n"
"      --time S          seconds the whole advice may take (40, at most 600)\n"
"      --rounds R        runs of each queue, alternating order (3)\n"
"                        --advise alone is a timer service: -n 10000\n"
"                        -d loguniform -m 3600000 --cancel 0.3 --rearm 0.3\n"
"                        --gran 1 (keys in ms: timeouts 1 ms .. 1 h)\n"
"  -h, --help            this text\n"
"\n"
"Clock: serialised rdtsc on x86 (lfence;rdtsc;lfence to start, rdtscp;lfence\n"
"to stop), CLOCK_MONOTONIC in ns elsewhere (then 'cycles' are ns).\n");
}

void bq_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sq-bench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

static uint64_t bq_parse_num(const char *s, const char **end, const char *what)
{
	char *e;
	unsigned long long v;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		bq_die("%s: not a number: '%s'", what, s);
	v = strtoull(s, &e, 0);
	if (errno)
		bq_die("%s: out of range: '%s'", what, s);
	if (*e == 'k' || *e == 'K') {
		v *= 1024u;
		e++;
	} else if (*e == 'M') {
		v *= 1048576u;
		e++;
	} else if (*e == 'G') {
		v *= 1073741824u;
		e++;
	}
	if (end)
		*end = e;
	else if (*e)
		bq_die("%s: not a number: '%s'", what, s);
	return v;
}

static void bq_add_n(struct bq_options *o, uint64_t n)
{
	if (n < 1 || n > ((uint64_t)1 << 30))
		bq_die("-n: N must be between 1 and 2^30, not %llu",
		       (unsigned long long)n);
	o->ns = (size_t *)bq_xrealloc(o->ns, (o->nn + 1) * sizeof(*o->ns));
	o->ns[o->nn++] = (size_t)n;
}

static void bq_parse_ns(struct bq_options *o, const char *s)
{
	const char *p = s;

	o->nn = 0;
	while (*p) {
		uint64_t a = bq_parse_num(p, &p, "-n");

		if (p[0] == '.' && p[1] == '.') {
			uint64_t b;

			p += 2;
			b = bq_parse_num(p, &p, "-n");
			if (a < 1 || b < a)
				bq_die("-n: bad range in '%s'", s);
			for (; a <= b; a *= 2)
				bq_add_n(o, a);
		} else {
			bq_add_n(o, a);
		}
		if (*p == ',')
			p++;
		else if (*p)
			bq_die("-n: cannot parse '%s'", s);
	}
	if (!o->nn)
		bq_die("-n: empty list");
}

static void bq_add_queue(struct bq_options *o, const struct bq_queue *qu,
			 bool explicit)
{
	size_t i;

	for (i = 0; i < o->nq; i++)
		if (o->queues[i] == qu) {
			if (explicit)
				bq_die("-q: '%s' named twice", qu->name);
			return;
		}
	o->queues[o->nq++] = qu;
}

/* -q named a queue that is not here: say why, or what there is. */
static void bq_no_queue(const char *p, size_t len)
{
	if (len == 6 && !strncmp(p, "bsd_rb", 6))
		bq_die("-q: bsd_rb was not built: libbsd's <bsd/sys/tree.h> "
		       "was not found at build time (apt-get install "
		       "libbsd-dev, then rebuild)");
	if (len == 8 && !strncmp(p, "linux_rb", 8))
		bq_die("-q: linux_rb was not built: it needs a kernel source "
		       "tree at build time (make bench LINUX_SRC=/path/to/linux)");
	fprintf(stderr, "sq-bench: -q: no queue '%.*s' (have ", (int)len, p);
	bq_print_names(stderr, 0, " ");
	fprintf(stderr, " ");
	bq_print_names(stderr, 1, " ");
	fprintf(stderr, ", or all, backends, peers)\n");
	exit(2);
}

static void bq_parse_queues(struct bq_options *o, const char *s)
{
	const char *p = s;
	size_t i;

	o->nq = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		const struct bq_queue *qu = bq_find(p, len);
		int group = -1;		/* 0 backends, 1 peers, 2 all */

		if (len == 3 && !strncmp(p, "all", 3))
			group = 2;
		else if (len == 8 && !strncmp(p, "backends", 8))
			group = 0;
		else if (len == 5 && !strncmp(p, "peers", 5))
			group = 1;
		if (group >= 0) {
			for (i = 0; i < bq_nqueues; i++)
				if (group == 2 || bq_all[i]->peer == group)
					bq_add_queue(o, bq_all[i], false);
		} else if (qu) {
			bq_add_queue(o, qu, true);
		} else {
			bq_no_queue(p, len);
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!o->nq)
		bq_die("-q: no queues");
}

static int bq_lookup(const char *const *names, size_t count, const char *s,
		     const char *what)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	bq_die("%s: unknown '%s'", what, s);
	return -1;
}

/*
 * A queue that files keys further apart than its span out of order (the
 * seed's ring, past its window) cannot pass the correctness pass when the
 * increments can pass that span: it is left out, and the header says so.
 */
static void bq_drop_unfit(struct bq_options *o)
{
	size_t i, k = 0;

	for (i = 0; i < o->nq; i++) {
		const struct bq_queue *qu = o->queues[i];

		if (qu->span && 2 * (uint64_t)o->inc_max > qu->span) {
			o->dropped = qu->name;
			continue;
		}
		o->queues[k++] = qu;
	}
	o->nq = k;
	if (!k)
		bq_die("-q: no queue left: %s cannot hold increments up to %lu",
		       o->dropped, (unsigned long)o->inc_max);
}

/*
 * --event B: every queue's events are B bytes, its node at the start; a
 * queue whose node is larger cannot be given such events and is left out
 * (the header names it).
 */
static void bq_drop_too_big(struct bq_options *o)
{
	size_t i, k = 0, used = 0;

	if (!o->event)
		return;
	for (i = 0; i < o->nq; i++) {
		const struct bq_queue *qu = o->queues[i];

		if (qu->node_size > o->event) {
			int w = snprintf(o->too_big + used,
					 sizeof(o->too_big) - used, "%s%s (%zu)",
					 used ? ", " : "", qu->name,
					 qu->node_size);

			if (w > 0 && (size_t)w < sizeof(o->too_big) - used)
				used += (size_t)w;
			continue;
		}
		o->queues[k++] = qu;
	}
	o->nq = k;
	if (!k)
		bq_die("--event %zu: no queue's node fits (%s)", o->event,
		       o->too_big);
}

static const struct option bq_longopts[] = {
	{ "n", required_argument, NULL, 'n' },
	{ "queues", required_argument, NULL, 'q' },
	{ "workload", required_argument, NULL, 'w' },
	{ "dist", required_argument, NULL, 'd' },
	{ "inc-max", required_argument, NULL, 'm' },
	{ "loops", required_argument, NULL, 'l' },
	{ "reps", required_argument, NULL, 'r' },
	{ "warmup", required_argument, NULL, 'W' },
	{ "seed", required_argument, NULL, 's' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "gran-shift", required_argument, NULL, 'G' },
	{ "csv", required_argument, NULL, 'C' },
	{ "json", required_argument, NULL, 'J' },
	{ "fault", required_argument, NULL, 'F' },
	{ "chase", no_argument, NULL, 'D' },
	{ "event", required_argument, NULL, 'E' },
	{ "cancel", required_argument, NULL, 'X' },
	{ "rearm", required_argument, NULL, 'R' },
	{ "trace", required_argument, NULL, 'T' },
	{ "advise", no_argument, NULL, 'A' },
	{ "gran", required_argument, NULL, 'g' },
	{ "remote", no_argument, NULL, 'P' },
	{ "exact", no_argument, NULL, 'x' },
	{ "time", required_argument, NULL, 't' },
	{ "rounds", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Which of the options that have workload-dependent defaults were given. */
struct bq_given {
	bool warmup, dist, inc_max, n, workload, cancel, rearm, gran, exact;
	bool budget, loops, reps, gran_shift;
};

/* A share of the steps: a number from 0 to 1. */
static double bq_parse_share(const char *s, const char *what)
{
	char *e;
	double v;

	errno = 0;
	v = strtod(s, &e);
	if (errno || e == s || *e || !(v >= 0.0 && v <= 1.0))
		bq_die("%s: a share of the steps from 0 to 1 (0.3 is 30%%), "
		       "not '%s'", what, s);
	return v;
}

static void bq_defaults(struct bq_options *o)
{
	memset(o, 0, sizeof(*o));
	bq_parse_ns(o, "1..2048");
	bq_parse_queues(o, "all");
	o->workload = BQ_HOLD;
	o->dist = BQ_UNIFORM;
	o->inc_max = 1u << 20;
	o->loops = 200000;
	o->reps = 9;
	o->seed = 1;
	o->cpu = -1;
	o->gran_shift = -1;
	o->budget = 40;
	o->rounds = 3;
}

/* The numeric options; the rest are in bq_option(). */
static void bq_number_option(struct bq_options *o, int c, const char *arg,
			     struct bq_given *given)
{
	uint64_t v;

	switch (c) {
	case 'm':
		v = bq_parse_num(arg, NULL, "--inc-max");
		if (v < 4 || v > UINT32_MAX)
			bq_die("--inc-max: between 4 and 2^32-1");
		o->inc_max = (uint32_t)v;
		given->inc_max = true;
		break;
	case 'l':
		o->loops = (size_t)bq_parse_num(arg, NULL, "--loops");
		if (!o->loops)
			bq_die("--loops: at least 1");
		given->loops = true;
		break;
	case 'r':
		o->reps = (size_t)bq_parse_num(arg, NULL, "--reps");
		if (!o->reps || o->reps > 1000)
			bq_die("--reps: between 1 and 1000");
		given->reps = true;
		break;
	case 'W':
		o->warmup = (size_t)bq_parse_num(arg, NULL, "--warmup");
		given->warmup = true;
		given->loops = true;
		break;
	case 's':
		o->seed = bq_parse_num(arg, NULL, "--seed");
		break;
	case 'c':
		o->cpu = (int)bq_parse_num(arg, NULL, "--cpu");
		break;
	case 'E':
		v = bq_parse_num(arg, NULL, "--event");
		if (v < 8 || v > 4096 || v % 8)
			bq_die("--event: a multiple of 8 from 8 to 4096 bytes");
		o->event = (size_t)v;
		break;
	case 't':
		v = bq_parse_num(arg, NULL, "--time");
		if (v < 1 || v > 600)
			bq_die("--time: seconds from 1 to 600");
		o->budget = (double)v;
		given->budget = true;
		break;
	case 'o':
		v = bq_parse_num(arg, NULL, "--rounds");
		if (v < 1 || v > 50)
			bq_die("--rounds: from 1 to 50");
		o->rounds = (size_t)v;
		given->budget = true;
		break;
	case 'g':
		v = bq_parse_num(arg, NULL, "--gran");
		if (v < 1 || v > ((uint64_t)1 << 40))
			bq_die("--gran: key units from 1 to 2^40");
		o->gran = v;
		given->gran = true;
		break;
	default:	/* 'G' */
		v = bq_parse_num(arg, NULL, "--gran-shift");
		if (v > 40)
			bq_die("--gran-shift: at most 40");
		o->gran_shift = (int)v;
		given->gran_shift = true;
		break;
	}
}

static void bq_option(struct bq_options *o, int c, const char *arg,
		      struct bq_given *given)
{
	switch (c) {
	case 'n':
		bq_parse_ns(o, arg);
		given->n = true;
		break;
	case 'q':
		bq_parse_queues(o, arg);
		o->queues_given = true;
		break;
	case 'w':
		o->workload = (enum bq_workload)bq_lookup(bq_workload_names,
			BQ_NWORKLOADS, arg, "--workload");
		given->workload = true;
		break;
	case 'X':
		o->cancel = bq_parse_share(arg, "--cancel");
		given->cancel = true;
		break;
	case 'R':
		o->rearm = bq_parse_share(arg, "--rearm");
		given->rearm = true;
		break;
	case 'T':
		o->trace = arg;
		break;
	case 'A':
		o->advise = true;
		break;
	case 'P':
		o->remote = true;
		break;
	case 'x':
		o->gran = 0;
		given->exact = true;
		break;
	case 'd':
		o->dist = (enum bq_dist)bq_lookup(bq_dist_names, BQ_NDISTS,
						  arg, "--dist");
		given->dist = true;
		break;
	case 'C':
		o->csv = arg;
		break;
	case 'J':
		o->json = arg;
		break;
	case 'F':
		o->fault = arg;
		if (!bq_find(arg, strlen(arg)))
			bq_die("--fault: no queue '%s'", arg);
		break;
	case 'D':
		o->chase = true;
		break;
	case 'h':
		bq_usage(stdout);
		exit(0);
	case 'm': case 'l': case 'r': case 'W': case 's': case 'c': case 'G':
	case 'E': case 't': case 'o': case 'g':
		bq_number_option(o, c, arg, given);
		break;
	default:
		bq_usage(stderr);
		exit(2);
	}
}

/*
 * --advise: one size, the mix, and a timer service's shape for whatever
 * is not given (keys in ms: timeouts 1 ms .. 1 h, 30% of the steps
 * cancel, 30% re-arm, order within 1 ms).  Each option's default stands
 * alone: --exact, --cancel 0 --rearm 0 make a simulator's hold.
 */
static void bq_advise_options(struct bq_options *o, const struct bq_given *g)
{
	if (g->workload && o->workload != BQ_MIX)
		bq_die("--advise runs your own mix (--cancel, --rearm, --trace), "
		       "not -w %s", bq_workload_names[o->workload]);
	if (g->loops || g->reps)
		bq_die("--advise times each queue by --time and --rounds, not "
		       "by -l, -r or --warmup");
	if (g->gran_shift)
		bq_die("--advise: say the order you need with --gran T (key "
		       "units) or --exact, not --gran-shift");
	if (g->gran && g->exact)
		bq_die("--advise: --gran and --exact disagree: give one");
	o->workload = BQ_MIX;
	if (!g->n) {
		o->nn = 0;
		bq_add_n(o, 10000);
	} else if (o->nn != 1) {
		bq_die("--advise: -n takes one size, the N you keep queued, "
		       "not a list");
	}
	if (o->trace && (g->dist || g->inc_max))
		bq_die("--advise: --trace gives the delays: drop -d and -m");
	if (!g->dist)
		o->dist = BQ_LOGUNIFORM;
	if (!g->inc_max)
		o->inc_max = 3600000;
	if (!g->cancel)
		o->cancel = 0.3;
	if (!g->rearm)
		o->rearm = 0.3;
	if (!g->gran && !g->exact)
		o->gran = 1;
	o->gran_shift = 0;
	while (o->gran >> (o->gran_shift + 1))
		o->gran_shift++;
}

void bq_parse_options(struct bq_options *o, int argc, char **argv)
{
	struct bq_given given;
	int c;

	memset(&given, 0, sizeof(given));

	bq_defaults(o);
	while ((c = getopt_long(argc, argv, "n:q:w:d:m:l:r:s:c:h", bq_longopts,
				NULL)) != -1)
		bq_option(o, c, optarg, &given);
	if (optind < argc)
		bq_die("unexpected argument '%s' (see --help)", argv[optind]);
	if (o->advise)
		bq_advise_options(o, &given);
	else if ((given.cancel || given.rearm || o->trace) &&
		 o->workload != BQ_MIX)
		bq_die("--cancel, --rearm and --trace shape the mix: add "
		       "-w mix (or --advise)");
	else if (given.gran || o->remote || given.exact || given.budget)
		bq_die("--gran, --exact, --remote, --time and --rounds are "
		       "--advise's (the plain harness takes --gran-shift)");
	if (o->workload == BQ_MIX) {
		if (o->trace)
			bq_read_trace(o);
		if (o->trace_op && (given.cancel || given.rearm))
			bq_die("--trace %s has its own steps: drop --cancel and "
			       "--rearm", o->trace);
		if (!o->trace_op && 2 * o->cancel + o->rearm >= 1.0)
			bq_die("--cancel %g --rearm %g: every cancelled node was "
			       "armed first, so 2 x cancel + rearm must be below "
			       "1 (the rest are arms and fires)", o->cancel,
			       o->rearm);
	}
	if (!given.warmup)
		o->warmup = o->loops;
	if (o->workload == BQ_SPREAD || o->workload == BQ_CHURN) {
		/* a server's timers: 1 ms .. 1 h, the ring at 1 ms */
		if (!given.dist)
			o->dist = BQ_LOGUNIFORM;
		if (!given.inc_max)
			o->inc_max = 3600000;
		if (o->gran_shift < 0)
			o->gran_shift = 0;
	}
	bq_drop_unfit(o);
	bq_drop_too_big(o);
}
