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
 * The per-queue loops live in queue.h, included once per queue; the peers
 * in peers.h.  Run with --help for the options.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smartq.h"
#include "peers.h"

/* -DBQ_NO_TSC forces the portable clock on x86 too. */
#if (defined(__x86_64__) || defined(__i386__)) && !defined(BQ_NO_TSC)
#include <cpuid.h>
#define BQ_HAVE_TSC 1
#else
#define BQ_HAVE_TSC 0
#endif

#ifndef BQ_BUILD_CC
#define BQ_BUILD_CC "cc"
#endif
#if defined(BQ_HAVE_LINUX_RB) && !defined(BQ_LINUX_RB_VERSION)
#define BQ_LINUX_RB_VERSION "(version unknown)"
#endif
#ifndef BQ_BUILD_CFLAGS
#define BQ_BUILD_CFLAGS "(unknown: built outside make)"
#endif

#if defined(__clang__)
#define BQ_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define BQ_COMPILER "gcc " __VERSION__
#else
#define BQ_COMPILER "unknown compiler"
#endif

#define BQ_CAT3(a, b, c)  a##b##c
#define BQ_XCAT3(a, b, c) BQ_CAT3(a, b, c)

/*
 * The pre-generated tables: 65536 entries, 256 KiB each, read in order
 * (the prefetcher streams them).  They must be long: with 4096 entries the
 * sequence repeated often enough for the CPU's branch predictor to learn
 * it, and the trees looked up to 3x faster at N = 1024..2048 than with
 * 65536 or 262144 entries (which agree).
 */
#define BQ_TAB      65536u
#define BQ_TAB_MASK (BQ_TAB - 1u)

enum bq_workload {
	BQ_HOLD, BQ_SCHED, BQ_TIMER, BQ_UPDOWN, BQ_SPREAD, BQ_NWORKLOADS
};
enum bq_dist {
	BQ_UNIFORM, BQ_EXP, BQ_TIES, BQ_TRI, BQ_NEGTRI, BQ_BIMODAL, BQ_CAMEL,
	BQ_LOGUNIFORM, BQ_NDISTS
};

static const char *const bq_workload_names[] = {
	"hold", "sched", "timer", "updown", "spread"
};
static const char *const bq_dist_names[] = {
	"uniform", "exp", "ties", "triangular", "negtriangular", "bimodal",
	"camel", "loguniform"
};

/* What one timing run of one queue reads; reset before every setup. */
struct bq_state {
	size_t n;		/* nodes in the queue */
	uint64_t *keys;		/* their initial keys, bq.n of them */
	uint32_t inc[BQ_TAB];	/* key increments (slices, timeouts) */
	uint32_t rnd[BQ_TAB];	/* random words: the workloads' choices */
	uint64_t tick;		/* position in the tables */
	uint64_t now;		/* timer: deadline of the last expiry */
	uint32_t *sleep;	/* sched: FIFO of sleeping node indices */
	uint64_t sleep_head, sleep_tail, sleep_mask;	/* (updown: popped) */
	size_t phase_left;	/* updown: steps left in this phase */
	int down;		/* updown: 1 while draining */
	uint64_t reprograms;	/* timer: deadline reprogrammed, so far */
	int ref_set;		/* correctness pass: the first exact queue's */
	uint64_t ref_sink, ref_reprograms;	/* keys popped, answers */
};
static struct bq_state bq;

/* A random index in [0, n) from a 32-bit random word. */
static inline size_t bq_pick(uint32_t r, size_t n)
{
	return (size_t)(((uint64_t)r * n) >> 32);
}

struct bq_queue {
	const char *name;
	int peer;
	void (*setup)(void);
	uint64_t (*run)(enum bq_workload w, size_t loops);
	void (*teardown)(void);
	const char *(*verify)(enum bq_workload w, size_t steps, int fault);
};

/* tring's granularity, chosen at run time so the keys fit its window. */
static unsigned bq_tring_shift;

/* ---- the queues: one include of queue.h each ---------------------- */

#define BQ_K rb
#define BQ_NAME "rb"
#define BQ_PEER 0
#define BQ_GRAN 1
#include "queue.h"

#define BQ_K gavl
#define BQ_NAME "gavl"
#define BQ_PEER 0
#define BQ_GRAN 1
#include "queue.h"

#define BQ_K binom
#define BQ_NAME "binom"
#define BQ_PEER 0
#define BQ_GRAN 1
#include "queue.h"

#define BQ_K tring
#define BQ_NAME "tring"
#define BQ_PEER 0
#define BQ_GRAN ((uint64_t)1 << bq_tring_shift)
#define BQ_INIT(q) sq_tring_init_geom(q, bq_tring_shift, 0)
#include "queue.h"

#define BQ_K peer_tsearch
#define BQ_NAME "tsearch"
#define BQ_PEER 1
#define BQ_GRAN 1
#define BQ_FINI(q) sq_peer_tsearch_destroy(q)
#include "queue.h"

#ifdef BQ_HAVE_BSD_TREE
#define BQ_K peer_bsd_rb
#define BQ_NAME "bsd_rb"
#define BQ_PEER 1
#define BQ_GRAN 1
#include "queue.h"
#endif

#ifdef BQ_HAVE_LINUX_RB
#define BQ_K peer_linux_rb
#define BQ_NAME "linux_rb"
#define BQ_PEER 1
#define BQ_GRAN 1
#include "queue.h"
#endif

#define BQ_K peer_tr_seed
#define BQ_NAME "tr_seed"
#define BQ_PEER 1
#define BQ_GRAN BQ_TR_GRAN
#include "queue.h"

#define BQ_K peer_heap
#define BQ_NAME "heap"
#define BQ_PEER 1
#define BQ_GRAN 1
#define BQ_FINI(q) sq_peer_heap_destroy(q)
#include "queue.h"

#define BQ_K peer_cal
#define BQ_NAME "calq"
#define BQ_PEER 1
#define BQ_GRAN 1
#define BQ_FINI(q) sq_peer_cal_destroy(q)
#include "queue.h"

/* In the default run's order: the backends, then the peers. */
static const struct bq_queue *const bq_all[] = {
	&bq_rb_ops, &bq_gavl_ops, &bq_binom_ops, &bq_tring_ops,
	&bq_peer_tsearch_ops,
#ifdef BQ_HAVE_BSD_TREE
	&bq_peer_bsd_rb_ops,
#endif
#ifdef BQ_HAVE_LINUX_RB
	&bq_peer_linux_rb_ops,
#endif
	&bq_peer_tr_seed_ops, &bq_peer_heap_ops, &bq_peer_cal_ops,
};
#define BQ_NQUEUES (sizeof(bq_all) / sizeof(bq_all[0]))

/* ---- the clock ----------------------------------------------------- */

#if BQ_HAVE_TSC
static int bq_have_rdtscp;

/* lfence;rdtsc;lfence: nothing before finishes late, nothing after starts early. */
static inline uint64_t bq_clock_begin(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
			     : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* rdtscp;lfence (lfence;rdtsc;lfence on a CPU without rdtscp). */
static inline uint64_t bq_clock_end(void)
{
	uint32_t lo, hi, aux;

	if (bq_have_rdtscp)
		__asm__ __volatile__("rdtscp\n\tlfence"
				     : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	else
		__asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
				     : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static void bq_clock_probe(void)
{
	unsigned a, b, c, d;

	bq_have_rdtscp = __get_cpuid(0x80000001u, &a, &b, &c, &d) &&
			 (d & (1u << 27));
}
#else
static uint64_t bq_mono_ns(void);
static inline uint64_t bq_clock_begin(void) { return bq_mono_ns(); }
static inline uint64_t bq_clock_end(void) { return bq_mono_ns(); }
static void bq_clock_probe(void) { }
#endif

static uint64_t bq_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Clock ticks per second, measured against CLOCK_MONOTONIC over ~100 ms. */
static double bq_clock_hz(void)
{
#if BQ_HAVE_TSC
	struct timespec nap = { 0, 100000000 };
	uint64_t t0, t1, c0, c1;

	t0 = bq_mono_ns();
	c0 = bq_clock_begin();
	nanosleep(&nap, NULL);
	t1 = bq_mono_ns();
	c1 = bq_clock_end();
	return (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
#else
	return 1e9;
#endif
}

/* ---- random numbers (only ever outside the timed loops) ------------ */

static uint64_t bq_rng;

static uint64_t bq_random(void)	/* splitmix64 */
{
	uint64_t z = (bq_rng += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* ---- options -------------------------------------------------------- */

struct bq_options {
	size_t *ns;
	size_t nn;
	const struct bq_queue *queues[BQ_NQUEUES];
	size_t nq;
	enum bq_workload workload;
	enum bq_dist dist;
	uint32_t inc_max;
	size_t loops, reps, warmup;
	uint64_t seed;
	int cpu;
	int tring_shift;
	const char *csv, *json;
	const char *fault;
};

static void bq_usage(FILE *f)
{
	fprintf(f,
"usage: sq-bench [options]\n"
"\n"
"The smart-queue harness: cycles per loop of every smartq backend (rb, gavl,\n"
"binom, tring) and of peers measured in the same run (tsearch, bsd_rb when\n"
"libbsd was found at build time, linux_rb when the build was given a kernel\n"
"source tree as LINUX_SRC=, tr_seed, heap, calq).  For each N every queue\n"
"first passes a correctness check (else: an error and exit status 1), then\n"
"is timed twice, in mirrored order.\n"
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
"                        timer: 7/8 a random timer is cancelled (dequeue) and\n"
"                          re-armed at now+timeout, 1/8 the first one fires\n"
"                        updown: pop all N (now = the last key popped), then\n"
"                          enqueue all N at now+increment, and again; a loop\n"
"                          is one pop and one enqueue\n"
"                        spread: the timer mix with a server's horizons: unless\n"
"                          given, -d loguniform -m 3600000 --tring-shift 0\n"
"                          (keys in ms: timeouts 1 ms .. 1 h, ring at 1 ms)\n"
"  -d, --dist D          key increments, each at most MAX (bench/README.md\n"
"                        gives their sources):\n"
"                        uniform (default): 1..MAX\n"
"                        exp: exponential, mean MAX/8, capped at MAX\n"
"                        ties: 0, MAX/4, MAX/2 or 3MAX/4 (many equal keys)\n"
"                        triangular: density rising to MAX, mean 2MAX/3\n"
"                        negtriangular: density falling from 0, mean MAX/3\n"
"                        bimodal: s(0.95238 U + 9.5238 w.p. 0.1), s = MAX/10.47618\n"
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
"      --tring-shift G   tring granularity 2^G (default: the smallest that\n"
"                        makes its window Ns*2^G at least 2*MAX)\n"
"      --csv FILE        also write the results as CSV\n"
"      --json FILE       also write the results as JSON\n"
"      --fault QUEUE     corrupt QUEUE before its correctness pass (to test\n"
"                        that the pass catches it: the run must fail)\n"
"  -h, --help            this text\n"
"\n"
"Clock: serialised rdtsc on x86 (lfence;rdtsc;lfence to start, rdtscp;lfence\n"
"to stop), CLOCK_MONOTONIC in ns elsewhere (then 'cycles' are ns).\n");
}

static void bq_die(const char *fmt, ...)
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

static const struct bq_queue *bq_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < BQ_NQUEUES; i++)
		if (strlen(bq_all[i]->name) == len &&
		    !strncmp(bq_all[i]->name, name, len))
			return bq_all[i];
	return NULL;
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
			for (i = 0; i < BQ_NQUEUES; i++)
				if (group == 2 || bq_all[i]->peer == group)
					bq_add_queue(o, bq_all[i], false);
		} else if (qu) {
			bq_add_queue(o, qu, true);
		} else if (len == 6 && !strncmp(p, "bsd_rb", 6)) {
			bq_die("-q: bsd_rb was not built: libbsd's "
			       "<bsd/sys/tree.h> was not found at build time "
			       "(apt-get install libbsd-dev, then rebuild)");
		} else if (len == 8 && !strncmp(p, "linux_rb", 8)) {
			bq_die("-q: linux_rb was not built: it needs a kernel "
			       "source tree at build time (make bench "
			       "LINUX_SRC=/path/to/linux)");
		} else {
			bq_die("-q: no queue '%.*s' (have rb gavl binom tring "
			       "tsearch%s%s tr_seed heap, or all, backends, "
			       "peers)", (int)len, p,
			       bq_find("bsd_rb", 6) ? " bsd_rb" : "",
			       bq_find("linux_rb", 8) ? " linux_rb" : "");
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
 * The seed's ring files a key past its window in its last slot, out of
 * order: with increments that can pass the window it cannot pass the
 * correctness pass, so it is left out, and the header says so.
 */
static const char *bq_dropped;

static void bq_drop_unfit(struct bq_options *o)
{
	size_t i, k = 0;

	for (i = 0; i < o->nq; i++) {
		if (o->queues[i] == &bq_peer_tr_seed_ops &&
		    2 * (uint64_t)o->inc_max > (uint64_t)BQ_TR_SLOTS * BQ_TR_GRAN) {
			bq_dropped = o->queues[i]->name;
			continue;
		}
		o->queues[k++] = o->queues[i];
	}
	o->nq = k;
	if (!k)
		bq_die("-q: no queue left: %s cannot hold increments up to %lu",
		       bq_dropped, (unsigned long)o->inc_max);
}

static void bq_parse_options(struct bq_options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
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
		{ "tring-shift", required_argument, NULL, 'G' },
		{ "csv", required_argument, NULL, 'C' },
		{ "json", required_argument, NULL, 'J' },
		{ "fault", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	uint64_t v;
	bool warmup_set = false, dist_set = false, max_set = false;

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
	o->tring_shift = -1;

	while ((c = getopt_long(argc, argv, "n:q:w:d:m:l:r:s:c:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'n':
			bq_parse_ns(o, optarg);
			break;
		case 'q':
			bq_parse_queues(o, optarg);
			break;
		case 'w':
			o->workload = (enum bq_workload)bq_lookup(
				bq_workload_names, BQ_NWORKLOADS, optarg,
				"--workload");
			break;
		case 'd':
			o->dist = (enum bq_dist)bq_lookup(bq_dist_names,
				BQ_NDISTS, optarg, "--dist");
			dist_set = true;
			break;
		case 'm':
			v = bq_parse_num(optarg, NULL, "--inc-max");
			if (v < 4 || v > UINT32_MAX)
				bq_die("--inc-max: between 4 and 2^32-1");
			o->inc_max = (uint32_t)v;
			max_set = true;
			break;
		case 'l':
			o->loops = (size_t)bq_parse_num(optarg, NULL, "--loops");
			if (!o->loops)
				bq_die("--loops: at least 1");
			break;
		case 'r':
			o->reps = (size_t)bq_parse_num(optarg, NULL, "--reps");
			if (!o->reps || o->reps > 1000)
				bq_die("--reps: between 1 and 1000");
			break;
		case 'W':
			o->warmup = (size_t)bq_parse_num(optarg, NULL, "--warmup");
			warmup_set = true;
			break;
		case 's':
			o->seed = bq_parse_num(optarg, NULL, "--seed");
			break;
		case 'c':
			o->cpu = (int)bq_parse_num(optarg, NULL, "--cpu");
			break;
		case 'G':
			v = bq_parse_num(optarg, NULL, "--tring-shift");
			if (v > 40)
				bq_die("--tring-shift: at most 40");
			o->tring_shift = (int)v;
			break;
		case 'C':
			o->csv = optarg;
			break;
		case 'J':
			o->json = optarg;
			break;
		case 'F':
			o->fault = optarg;
			if (!bq_find(optarg, strlen(optarg)))
				bq_die("--fault: no queue '%s'", optarg);
			break;
		case 'h':
			bq_usage(stdout);
			exit(0);
		default:
			bq_usage(stderr);
			exit(2);
		}
	}
	if (optind < argc)
		bq_die("unexpected argument '%s' (see --help)", argv[optind]);
	if (!warmup_set)
		o->warmup = o->loops;
	if (o->workload == BQ_SPREAD) {
		/* a server's timers: 1 ms .. 1 h, the ring at 1 ms */
		if (!dist_set)
			o->dist = BQ_LOGUNIFORM;
		if (!max_set)
			o->inc_max = 3600000;
		if (o->tring_shift < 0)
			o->tring_shift = 0;
	}
	bq_drop_unfit(o);
}

/* ---- the tables ----------------------------------------------------- */

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
static void bq_make_tables(const struct bq_options *o, size_t n)
{
	size_t i, cap = 1;

	bq_rng = o->seed * 0x2545f4914f6cdd1du + n;
	bq.n = n;
	bq.keys = (uint64_t *)bq_xrealloc(bq.keys, n * sizeof(*bq.keys));
	/* uniform and ties keep the start they always had; the others start
	 * as the classic hold model does, one increment after time 0 */
	for (i = 0; i < n; i++)
		bq.keys[i] = o->dist == BQ_TIES
			? (bq_random() % 4u) * (o->inc_max / 4u)
			: o->dist == BQ_UNIFORM ? bq_random() % o->inc_max
			: bq_increment(o);
	for (i = 0; i < BQ_TAB; i++) {
		bq.inc[i] = bq_increment(o);
		bq.rnd[i] = (uint32_t)(bq_random() >> 32);
	}
	while (cap < n)
		cap *= 2;
	bq.sleep = (uint32_t *)bq_xrealloc(bq.sleep, cap * sizeof(*bq.sleep));
	bq.sleep_mask = cap - 1;
}

/* Every queue starts from the same state: same keys, same table position. */
static void bq_reset(void)
{
	bq.tick = 0;
	bq.now = 0;
	bq.sleep_head = bq.sleep_tail = 0;
	bq.phase_left = bq.n;
	bq.down = 1;
	bq.reprograms = 0;
}

/* ---- measuring ------------------------------------------------------ */

static volatile uint64_t bq_sink;

static int bq_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double bq_median(const double *v, size_t n)
{
	double *s = (double *)bq_xrealloc(NULL, n * sizeof(*s)), m;

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), bq_cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
	free(s);
	return m;
}

static double bq_min(const double *v, size_t n)
{
	double m = v[0];
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

/* One pass of one queue: @reps samples of cycles per loop into @out. */
static void bq_measure(const struct bq_options *o, const struct bq_queue *qu,
		       double *out)
{
	size_t r;

	bq_reset();
	qu->setup();
	if (o->warmup)
		bq_sink += qu->run(o->workload, o->warmup);
	bq.reprograms = 0;
	for (r = 0; r < o->reps; r++) {
		uint64_t c0, c1, s;

		c0 = bq_clock_begin();
		s = qu->run(o->workload, o->loops);
		c1 = bq_clock_end();
		bq_sink += s;
		out[r] = (double)(c1 - c0) / (double)o->loops;
	}
	qu->teardown();
}

/* ---- the machine ---------------------------------------------------- */

/*
 * "model name", then "(family F, model M)" when /proc/cpuinfo has them: a
 * virtual machine often shows only "AMD EPYC", and the family tells which
 * generation the numbers came from (25 is Zen 3/4, 26 Zen 5).
 */
static void bq_cpu_model(char *buf, size_t len)
{
	static const char *const keys[] = { "model name", "cpu family", "model" };
	char name[160] = "unknown", family[16] = "", model[16] = "";
	char *const val[] = { name, family, model };
	const size_t size[] = { sizeof(name), sizeof(family), sizeof(model) };
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	unsigned seen = 0;
	size_t k;

	while (f && seen != 7 && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		for (k = 0; colon && k < 3; k++) {
			size_t kl = strlen(keys[k]);

			/* the whole key, then the colon: "model" is not
			 * "model name" */
			if (strncmp(line, keys[k], kl) ||
			    line + kl + strspn(line + kl, " \t") != colon)
				continue;
			colon++;
			colon += strspn(colon, " \t");
			colon[strcspn(colon, "\n")] = '\0';
			seen |= 1u << k;
			snprintf(val[k], size[k], "%s", colon);
			break;
		}
	}
	if (f)
		fclose(f);
	if (*family && *model)
		snprintf(buf, len, "%s (family %s, model %s)", name, family,
			 model);
	else
		snprintf(buf, len, "%s", name);
}

static void bq_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* ---- main ----------------------------------------------------------- */

struct bq_result {
	double *samples;	/* 2 * reps: both passes */
	double min, median;
};

/* One summary table: a row per N, a column per queue, medians * @scale. */
static void bq_summary(const struct bq_options *o, const struct bq_result *res,
		       double scale)
{
	size_t i, k, nq = o->nq;

	printf("%9s", "N");
	for (k = 0; k < nq; k++)
		printf(" %9s%s", o->queues[k]->name, o->queues[k]->peer ? "*" : " ");
	printf("\n");
	for (i = 0; i < o->nn; i++) {
		printf("%9zu", o->ns[i]);
		for (k = 0; k < nq; k++)
			printf(" %9.1f ", res[i * nq + k].median * scale);
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	struct bq_options o;
	struct bq_result *res;
	char cpu[256], clock_desc[160];
	double hz, *pass;
	size_t i, j, k, nq;
	uint64_t window;
	FILE *f;

	setvbuf(stdout, NULL, _IOLBF, 0);
	bq_parse_options(&o, argc, argv);
	nq = o.nq;

	if (o.cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET((size_t)o.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			bq_die("--cpu %d: sched_setaffinity: %s", o.cpu,
			       strerror(errno));
	}

	/* tring: the smallest granularity whose window holds 2 * MAX. */
	if (o.tring_shift >= 0) {
		bq_tring_shift = (unsigned)o.tring_shift;
	} else {
		bq_tring_shift = 0;
		while (((uint64_t)SQ_TRING_SLOTS << bq_tring_shift) <
		       2 * (uint64_t)o.inc_max)
			bq_tring_shift++;
	}
	window = (uint64_t)SQ_TRING_SLOTS << bq_tring_shift;

	bq_clock_probe();
	hz = bq_clock_hz();
	bq_cpu_model(cpu, sizeof(cpu));
#if BQ_HAVE_TSC
	snprintf(clock_desc, sizeof(clock_desc),
		 "rdtsc: lfence;rdtsc;lfence ... %s, TSC %.1f MHz "
		 "measured against CLOCK_MONOTONIC",
		 bq_have_rdtscp ? "rdtscp;lfence"
				: "lfence;rdtsc;lfence (no rdtscp on this CPU)",
		 hz / 1e6);
#else
	snprintf(clock_desc, sizeof(clock_desc),
		 "CLOCK_MONOTONIC (not x86, or built with BQ_NO_TSC): "
		 "'cycles' below are nanoseconds");
#endif

	printf("smartq %s bench: workload %s, increments %s (max %lu), "
	       "%zu loops x %zu reps per pass (warm-up %zu), seed %llu\n",
	       SQ_VERSION_STRING, bq_workload_names[o.workload],
	       bq_dist_names[o.dist], (unsigned long)o.inc_max, o.loops,
	       o.reps, o.warmup, (unsigned long long)o.seed);
	if (o.cpu >= 0)
		printf("cpu: %s, pinned to CPU %d\n", cpu, o.cpu);
	else
		printf("cpu: %s (not pinned)\n", cpu);
	printf("clock: %s\n", clock_desc);
	printf("compiler: %s (%s), flags %s\n", BQ_BUILD_CC, BQ_COMPILER,
	       BQ_BUILD_CFLAGS);
	printf("tring: Ns = SQ_TRING_SLOTS = %u slots, Tg = 2^%u = %llu, "
	       "window %llu %s 2 x max increment\n", (unsigned)SQ_TRING_SLOTS,
	       bq_tring_shift, (unsigned long long)1 << bq_tring_shift,
	       (unsigned long long)window,
	       window >= 2 * (uint64_t)o.inc_max ? ">=" : "< (keys overflow)");
	printf("peers (for comparison, marked [peer]): tsearch = libc tsearch "
	       "RB tree, malloc per node; %s; %s; tr_seed = the 2007 seed's "
	       "ring (Ns 1024, Tg 2048, bitmap scan); heap = array binary "
	       "heap; calq = Brown's calendar queue (1988)\n",
#ifdef BQ_HAVE_BSD_TREE
	       "bsd_rb = libbsd <sys/tree.h> RB, cached minimum",
#else
	       "bsd_rb not built (no libbsd <bsd/sys/tree.h>)",
#endif
#ifdef BQ_HAVE_LINUX_RB
	       "linux_rb = Linux " BQ_LINUX_RB_VERSION " rb_root_cached "
	       "(rb_add_cached, rb_erase_cached)"
#else
	       "linux_rb not built (no LINUX_SRC kernel tree)"
#endif
	       );
	if (bq_dropped)
		printf("%s left out: its window (Ns x Tg = %u) cannot hold "
		       "keys up to 2 x max increment\n", bq_dropped,
		       BQ_TR_SLOTS * BQ_TR_GRAN);

	res = (struct bq_result *)bq_xrealloc(NULL,
					      o.nn * nq * sizeof(*res));
	for (i = 0; i < o.nn * nq; i++)
		res[i].samples = (double *)bq_xrealloc(NULL,
					2 * o.reps * sizeof(double));

	for (i = 0; i < o.nn; i++) {
		size_t n = o.ns[i];

		bq_make_tables(&o, n);
		printf("\nTesting N=%zu\n", n);
		bq.ref_set = 0;
		for (k = 0; k < nq; k++) {
			const struct bq_queue *qu = o.queues[k];
			int fault = o.fault && !strcmp(o.fault, qu->name);
			size_t steps = o.loops < 20000 ? o.loops : 20000;
			const char *err;

			bq_reset();
			err = qu->verify(o.workload, steps, fault);
			if (err) {
				fprintf(stderr, "sq-bench: error: %s failed "
					"its correctness pass at N=%zu "
					"(workload %s): %s\n", qu->name, n,
					bq_workload_names[o.workload], err);
				return 1;
			}
		}
		for (j = 0; j < 2 * nq; j++) {
			size_t idx = j < nq ? j : 2 * nq - 1 - j;
			const struct bq_queue *qu = o.queues[idx];
			struct bq_result *r = &res[i * nq + idx];

			pass = r->samples + (j < nq ? 0 : o.reps);
			bq_measure(&o, qu, pass);
			printf("%s = %.2f cycles/loop   (min %.2f)%s",
			       qu->name, bq_median(pass, o.reps),
			       bq_min(pass, o.reps), qu->peer ? "  [peer]" : "");
			if (o.workload == BQ_TIMER || o.workload == BQ_SPREAD)
				printf("   deadline reprogrammed on %.1f%% of "
				       "steps", 100.0 * (double)bq.reprograms /
				       (double)(o.reps * o.loops));
			printf("\n");
		}
		for (k = 0; k < nq; k++) {
			struct bq_result *r = &res[i * nq + k];

			r->min = bq_min(r->samples, 2 * o.reps);
			r->median = bq_median(r->samples, 2 * o.reps);
		}
	}

	printf("\nSummary: median cycles/loop over both passes "
	       "(%s workload; * = peer)\n", bq_workload_names[o.workload]);
	bq_summary(&o, res, 1.0);
	printf("\nSummary: median ns/loop (%s %.1f MHz)\n",
	       BQ_HAVE_TSC ? "TSC" : "clock", hz / 1e6);
	bq_summary(&o, res, 1e9 / hz);

	if (o.csv) {
		f = fopen(o.csv, "w");
		if (!f)
			bq_die("--csv %s: %s", o.csv, strerror(errno));
		fprintf(f, "workload,dist,n,queue,peer,loops,reps,"
			"min_cycles,median_cycles,min_ns,median_ns\n");
		for (i = 0; i < o.nn; i++)
			for (k = 0; k < nq; k++) {
				struct bq_result *r = &res[i * nq + k];

				fprintf(f, "%s,%s,%zu,%s,%d,%zu,%zu,%.2f,%.2f,"
					"%.2f,%.2f\n",
					bq_workload_names[o.workload],
					bq_dist_names[o.dist], o.ns[i],
					o.queues[k]->name, o.queues[k]->peer,
					o.loops, 2 * o.reps, r->min, r->median,
					r->min * 1e9 / hz, r->median * 1e9 / hz);
			}
		if (fclose(f))
			bq_die("--csv %s: write failed", o.csv);
	}

	if (o.json) {
		char pinned[16] = "null";

		if (o.cpu >= 0)
			snprintf(pinned, sizeof(pinned), "%d", o.cpu);
		f = fopen(o.json, "w");
		if (!f)
			bq_die("--json %s: %s", o.json, strerror(errno));
		fprintf(f, "{\n  \"version\": \"%s\",\n  \"cpu\": ",
			SQ_VERSION_STRING);
		bq_json_str(f, cpu);
		fprintf(f, ",\n  \"clock\": ");
		bq_json_str(f, clock_desc);
		fprintf(f, ",\n  \"clock_hz\": %.0f,\n  \"compiler\": ", hz);
		bq_json_str(f, BQ_BUILD_CC " (" BQ_COMPILER ")");
		fprintf(f, ",\n  \"cflags\": ");
		bq_json_str(f, BQ_BUILD_CFLAGS);
		fprintf(f, ",\n  \"workload\": \"%s\",\n  \"dist\": \"%s\",\n"
			"  \"inc_max\": %lu,\n  \"loops\": %zu,\n"
			"  \"reps_per_pass\": %zu,\n  \"warmup\": %zu,\n"
			"  \"seed\": %llu,\n  \"cpu_pinned\": %s,\n"
			"  \"tring_slots\": %u,\n  \"tring_gran_shift\": %u,\n",
			bq_workload_names[o.workload], bq_dist_names[o.dist],
			(unsigned long)o.inc_max, o.loops, o.reps, o.warmup,
			(unsigned long long)o.seed, pinned,
			(unsigned)SQ_TRING_SLOTS, bq_tring_shift);
		fprintf(f, "  \"linux_rb\": ");
#ifdef BQ_HAVE_LINUX_RB
		bq_json_str(f, BQ_LINUX_RB_VERSION);
#else
		fprintf(f, "null");
#endif
		fprintf(f, ",\n  \"results\": [");
		for (i = 0; i < o.nn; i++)
			for (k = 0; k < nq; k++) {
				struct bq_result *r = &res[i * nq + k];

				fprintf(f, "%s\n    {\"n\": %zu, \"queue\": \"%s\", "
					"\"peer\": %s, \"min_cycles\": %.2f, "
					"\"median_cycles\": %.2f, "
					"\"min_ns\": %.2f, \"median_ns\": %.2f}",
					(i + k) ? "," : "", o.ns[i],
					o.queues[k]->name,
					o.queues[k]->peer ? "true" : "false",
					r->min, r->median, r->min * 1e9 / hz,
					r->median * 1e9 / hz);
			}
		fprintf(f, "\n  ]\n}\n");
		if (fclose(f))
			bq_die("--json %s: write failed", o.json);
	}

	for (i = 0; i < o.nn * nq; i++)
		free(res[i].samples);
	free(res);
	free(o.ns);
	free(bq.keys);
	free(bq.sleep);
	return 0;
}
