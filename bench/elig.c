/* SPDX-License-Identifier: MIT */
/*
 * bench/elig.c - the eligible pick: erb against an O(n) scan and against
 * the kernel's augmented rbtree (make bench-elig [LINUX_SRC=...])
 *
 * N tasks, each with an eligibility value (a vruntime) and a key (its
 * virtual deadline: the vruntime plus a slice).  Two loops per N:
 *
 *   pick  pick_eligible at limits drawn from the range of the values
 *         (from none eligible to all), the tree unchanged; mostly the
 *         first task is eligible, and the pick is O(1);
 *   desc  the same tasks, but the earlier half of the deadlines have
 *         values past every limit (tasks that ran ahead), at limits from
 *         the smallest value of the later half to its largest: the pick
 *         descends the tree, the scan walks past half the queue;
 *   run   EEVDF's step: pick the eligible task with the earliest deadline
 *         at the limit V (the average value), or the first when none is;
 *         dequeue it, charge its runtime to its value and its deadline,
 *         enqueue it, and V moves on by runtime / N.
 *
 * for four queues: erb (smartq/rb_elig.h); egavl (smartq/gavl_elig.h);
 * scan, erb's tree walked in key order until a node is eligible (the O(n)
 * answer); and linux, the
 * kernel's own rbtree_augmented.h and lib/rbtree.c from a kernel source
 * the build was given (LINUX_SRC, as bench.mk's linux_rb peer), with the
 * subtree-minimum callbacks and the pick loop of EEVDF written here.
 * Before timing, every queue's pick is compared with the scan's at 4096
 * limits, and the run loop's picks with erb's, so the figures are of
 * queues that agree.  Each point is timed --reps times; the minimum and
 * the median of ns per operation are printed, with ticks of the
 * harnesses' one clock (bench/clock.h: the serialised TSC on x86).
 *
 *	sq-elig [-n LIST] [--reps R] [--loops L] [--seed S]
 */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime, nanosleep (clock.h) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "smartq.h"
#include "clock.h"

#ifdef BQ_HAVE_LINUX_RB
#include <linux/rbtree_augmented.h>	/* $(LINUX_SRC)/tools/include */
#endif

#define EL_TAB 65536u		/* limits and runtimes, read in order */

static uint64_t el_rng = 0x5eed5eedu;
static uint64_t el_rand(void)	/* splitmix64 */
{
	uint64_t z = (el_rng += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* one task of the run: the same values for every queue */
static size_t el_n;
static uint64_t *el_elig, *el_key;
static uint64_t *el_vals, *el_vals_desc;	/* el_elig is one of them */
static uint64_t el_lim[EL_TAB], el_desc[EL_TAB], el_ran[EL_TAB];
static uint64_t el_v;		/* V: the limit of the run loop */
static uint64_t el_sink;

/* values and slices: vruntimes spread over a range that grows with N (as a
 * run queue's lag does), deadlines a slice later */
#define EL_SLICE 3000000u	/* 3 ms in ns: the base slice of 6.6 */
static int el_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void el_make(size_t n)
{
	uint64_t span = (uint64_t)EL_SLICE * 4u + 4096u * (uint64_t)n;
	uint64_t mid, lo = UINT64_MAX, hi = 0;
	size_t i;

	el_n = n;
	el_v = (uint64_t)1 << 40;
	for (i = 0; i < n; i++) {
		el_vals[i] = el_v - span / 2 + el_rand() % span;
		el_key[i] = el_vals[i] + 1 + el_rand() % EL_SLICE;
	}
	/* desc: the earlier half of the deadlines past every limit */
	memcpy(el_vals_desc, el_key, n * sizeof(*el_key));
	qsort(el_vals_desc, n, sizeof(*el_vals_desc), el_cmp_u64);
	mid = el_vals_desc[n / 2];
	for (i = 0; i < n; i++)
		if (n == 1 || el_key[i] >= mid) {
			lo = el_vals[i] < lo ? el_vals[i] : lo;
			hi = el_vals[i] > hi ? el_vals[i] : hi;
		}
	for (i = 0; i < n; i++)
		el_vals_desc[i] = n > 1 && el_key[i] < mid ?
				  hi + 1 + el_vals[i] % span : el_vals[i];
	el_elig = el_vals;
	for (i = 0; i < EL_TAB; i++) {
		el_lim[i] = el_v - span / 2 + el_rand() % span;
		el_desc[i] = lo + el_rand() % (hi - lo + 1);
		el_ran[i] = 1 + el_rand() % (EL_SLICE / 4u);
	}
}

/* ---- erb, and the scan over it ---------------------------------------- */

static struct sq_erb el_erb;
static struct sq_erb_node *el_en;

static void erb_setup(void)
{
	size_t i;

	sq_erb_init(&el_erb);
	for (i = 0; i < el_n; i++) {
		sq_erb_node_init(&el_en[i]);
		sq_erb_set_elig(&el_erb, &el_en[i], el_elig[i]);
		sq_erb_enqueue(&el_erb, &el_en[i], el_key[i]);
	}
}

static long erb_pick(uint64_t limit)
{
	struct sq_erb_node *n = sq_erb_pick_eligible(&el_erb, limit);

	return n ? (long)(n - el_en) : -1;
}

static long scan_pick(uint64_t limit)
{
	struct sq_erb_node *n;

	for (n = sq_erb_first(&el_erb); n; n = sq_erb_next(n))
		if (n->elig <= limit)
			return (long)(n - el_en);
	return -1;
}

/* One EEVDF step on erb, through @pick (erb's or the scan). */
static inline long erb_step(long (*pick)(uint64_t), uint64_t ran)
{
	long i = pick(el_v);
	struct sq_erb_node *n;

	if (i < 0)
		i = sq_erb_first(&el_erb) - el_en;
	n = &el_en[i];
	sq_erb_dequeue(&el_erb, n);
	sq_erb_set_elig(&el_erb, n, n->elig + ran);
	sq_erb_enqueue(&el_erb, n, n->elig + EL_SLICE);
	el_v += ran / el_n;
	return i;
}

static long erb_run_step(uint64_t ran) { return erb_step(erb_pick, ran); }
static long scan_run_step(uint64_t ran) { return erb_step(scan_pick, ran); }

/* ---- egavl ------------------------------------------------------------- */

static struct sq_egavl el_eg;
static struct sq_egavl_node *el_egn;

static void egavl_setup(void)
{
	size_t i;

	sq_egavl_init(&el_eg);
	for (i = 0; i < el_n; i++) {
		sq_egavl_node_init(&el_egn[i]);
		sq_egavl_set_elig(&el_eg, &el_egn[i], el_elig[i]);
		sq_egavl_enqueue(&el_eg, &el_egn[i], el_key[i]);
	}
}

static long egavl_pick(uint64_t limit)
{
	struct sq_egavl_node *n = sq_egavl_pick_eligible(&el_eg, limit);

	return n ? (long)(n - el_egn) : -1;
}

static long egavl_run_step(uint64_t ran)
{
	long i = egavl_pick(el_v);
	struct sq_egavl_node *n;

	if (i < 0)
		i = sq_egavl_first(&el_eg) - el_egn;
	n = &el_egn[i];
	sq_egavl_dequeue(&el_eg, n);
	sq_egavl_set_elig(&el_eg, n, n->elig + ran);
	sq_egavl_enqueue(&el_eg, n, n->elig + EL_SLICE);
	el_v += ran / el_n;
	return i;
}

/* ---- the kernel's augmented rbtree -------------------------------------- */

#ifdef BQ_HAVE_LINUX_RB
struct el_kn {
	struct rb_node kn_link;
	uint64_t deadline, vruntime, min_vruntime;
};

static struct rb_root_cached el_kroot;
static struct el_kn *el_kns;

static inline struct el_kn *el_kentry(const struct rb_node *l)
{
	return (struct el_kn *)(uintptr_t)((const char *)l -
					   offsetof(struct el_kn, kn_link));
}

/* The subtree minimum, in the shape RB_DECLARE_CALLBACKS wants: true
 * (stop) when @exit and nothing changed. */
static inline bool el_kcompute(struct el_kn *n, bool exit)
{
	uint64_t m = n->vruntime;

	if (n->kn_link.rb_left && el_kentry(n->kn_link.rb_left)->min_vruntime < m)
		m = el_kentry(n->kn_link.rb_left)->min_vruntime;
	if (n->kn_link.rb_right && el_kentry(n->kn_link.rb_right)->min_vruntime < m)
		m = el_kentry(n->kn_link.rb_right)->min_vruntime;
	if (exit && n->min_vruntime == m)
		return true;
	n->min_vruntime = m;
	return false;
}

/* the kernel's macro, with its own warnings (rb_parent's mask) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"
RB_DECLARE_CALLBACKS(static, el_kcb, struct el_kn, kn_link, min_vruntime,
		     el_kcompute)
#pragma GCC diagnostic pop

/* As the kernel's rb_add_augmented_cached(): descend (equal keys go
 * right), link, propagate from the parent, insert with the callbacks. */
static inline void el_kenqueue(struct el_kn *n)
{
	struct rb_node **link = &el_kroot.rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	n->min_vruntime = n->vruntime;
	while (*link) {
		parent = *link;
		if (n->deadline < el_kentry(parent)->deadline) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&n->kn_link, parent, link);
	el_kcb.propagate(parent, NULL);
	rb_insert_augmented_cached(&n->kn_link, &el_kroot, leftmost, &el_kcb);
}

static void linux_setup(void)
{
	size_t i;

	el_kroot = RB_ROOT_CACHED;
	for (i = 0; i < el_n; i++) {
		el_kns[i].vruntime = el_elig[i];
		el_kns[i].deadline = el_key[i];
		el_kenqueue(&el_kns[i]);
	}
}

/* EEVDF's pick: the leftmost if eligible, else down the tree, left when
 * the left subtree holds an eligible task, else this one if eligible,
 * else right. */
static long linux_pick(uint64_t limit)
{
	struct rb_node *node = el_kroot.rb_root.rb_node, *left;
	struct rb_node *first = el_kroot.rb_leftmost;

	if (first && el_kentry(first)->vruntime <= limit)
		return (long)(el_kentry(first) - el_kns);
	while (node) {
		left = node->rb_left;
		if (left && el_kentry(left)->min_vruntime <= limit) {
			node = left;
			continue;
		}
		if (el_kentry(node)->vruntime <= limit)
			return (long)(el_kentry(node) - el_kns);
		node = node->rb_right;
	}
	return -1;
}

static long linux_run_step(uint64_t ran)
{
	long i = linux_pick(el_v);
	struct el_kn *n;

	if (i < 0)
		i = el_kentry(el_kroot.rb_leftmost) - el_kns;
	n = &el_kns[i];
	rb_erase_augmented_cached(&n->kn_link, &el_kroot, &el_kcb);
	n->vruntime += ran;
	n->deadline = n->vruntime + EL_SLICE;
	el_kenqueue(n);
	el_v += ran / el_n;
	return i;
}
#endif

/* ---- the queues and the clock ----------------------------------------- */

struct el_queue {
	const char *name;
	void (*setup)(void);
	long (*pick)(uint64_t limit);
	long (*run_step)(uint64_t ran);
};

static const struct el_queue el_queues[] = {
	{ "erb", erb_setup, erb_pick, erb_run_step },
	{ "egavl", egavl_setup, egavl_pick, egavl_run_step },
#ifdef BQ_HAVE_LINUX_RB
	{ "linux", linux_setup, linux_pick, linux_run_step },
#endif
	{ "scan", erb_setup, scan_pick, scan_run_step },
};
#define EL_NQ (sizeof(el_queues) / sizeof(el_queues[0]))

/* One timed pass of @loops operations of @q (@mode 0: the pick loop, 1:
 * desc, 2: the run loop), on a fresh tree: ns and cycles per operation. */
static void el_time(const struct el_queue *q, int mode, size_t loops,
		    double *ns, double *cy)
{
	double t0, t1;
	uint64_t c0, c1, acc = 0;
	size_t i;

	el_elig = mode == 1 ? el_vals_desc : el_vals;
	q->setup();
	el_v = (uint64_t)1 << 40;
	t0 = (double)bq_mono_ns();
	c0 = bq_clock_begin();
	if (mode == 2)
		for (i = 0; i < loops; i++)
			acc += (uint64_t)q->run_step(el_ran[i & (EL_TAB - 1)]);
	else
		for (i = 0; i < loops; i++)
			acc += (uint64_t)q->pick((mode ? el_desc : el_lim)
						 [i & (EL_TAB - 1)]);
	c1 = bq_clock_end();
	t1 = (double)bq_mono_ns();
	el_sink += acc;
	el_elig = el_vals;
	*ns = (t1 - t0) / (double)loops;
	*cy = (double)(c1 - c0) / (double)loops;
}

/* The scan walks past half the queue in desc, and often far in the run
 * loop at large N: fewer operations there, the same elsewhere. */
static size_t el_loops(const struct el_queue *q, int mode, size_t loops)
{
	if (q->pick != scan_pick || el_n <= 64 || mode == 0)
		return loops;
	return loops * 64 / el_n + 100;
}

/* Every queue's picks against the scan's, then each queue's run loop
 * against erb's: the same tasks, in the same order. */
static void el_verify(size_t n)
{
	static long want[4096], got[4096];
	size_t i, k;
	int d;

	for (d = 0; d < 2; d++) {
		const uint64_t *lim = d ? el_desc : el_lim;

		el_elig = d ? el_vals_desc : el_vals;
		erb_setup();
		for (i = 0; i < 4096; i++)
			want[i] = scan_pick(lim[i]);
		for (k = 0; k < EL_NQ; k++) {
			el_queues[k].setup();
			for (i = 0; i < 4096; i++)
				if (el_queues[k].pick(lim[i]) != want[i]) {
					fprintf(stderr, "sq-elig: N=%zu: %s's pick "
						"at limit %zu differs from the "
						"scan's\n", n, el_queues[k].name, i);
					exit(1);
				}
		}
	}
	el_elig = el_vals;
	erb_setup();
	el_v = (uint64_t)1 << 40;
	for (i = 0; i < 4096; i++)
		want[i] = erb_run_step(el_ran[i]);
	for (k = 1; k < EL_NQ; k++) {
		el_queues[k].setup();
		el_v = (uint64_t)1 << 40;
		for (i = 0; i < 4096; i++)
			got[i] = el_queues[k].run_step(el_ran[i]);
		if (memcmp(want, got, sizeof(want)) != 0) {
			fprintf(stderr, "sq-elig: N=%zu: %s's run differs from "
				"erb's\n", n, el_queues[k].name);
			exit(1);
		}
	}
}

static void el_cpu(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10)) {
			printf("# cpu: %s", strchr(line, ':') + 2);
			break;
		}
	if (f)
		fclose(f);
}

/* What the command line asked for. */
struct el_opts {
	size_t ns[64], nn, maxn, loops;
	unsigned reps;
};

/* el_options - parse and check the command line; 0, or 2 for a usage error */
static int el_options(int argc, char **argv, struct el_opts *o)
{
	static const size_t def_ns[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512,
					 1024, 2048, 65536 };
	size_t i;
	int a;

	o->nn = 0;
	o->maxn = 0;
	o->loops = 200000;
	o->reps = 7;
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-n") && a + 1 < argc) {
			char *s = argv[++a];

			while (*s && o->nn < 64) {
				o->ns[o->nn++] = (size_t)strtoul(s, &s, 10);
				if (*s == ',')
					s++;
			}
		} else if (!strcmp(argv[a], "--reps") && a + 1 < argc) {
			o->reps = (unsigned)strtoul(argv[++a], NULL, 10);
		} else if (!strcmp(argv[a], "--loops") && a + 1 < argc) {
			o->loops = (size_t)strtoul(argv[++a], NULL, 10);
		} else if (!strcmp(argv[a], "--seed") && a + 1 < argc) {
			el_rng = strtoull(argv[++a], NULL, 0);
		} else {
			fprintf(stderr, "usage: sq-elig [-n N,N,...] [--reps R] "
				"[--loops L] [--seed S]\n");
			return 2;
		}
	}
	if (o->nn == 0) {
		memcpy(o->ns, def_ns, sizeof(def_ns));
		o->nn = sizeof(def_ns) / sizeof(def_ns[0]);
	}
	if (o->reps < 1 || o->reps > 64 || o->loops < 1) {
		fprintf(stderr, "sq-elig: reps 1..64, loops >= 1\n");
		return 2;
	}
	for (i = 0; i < o->nn; i++) {
		if (o->ns[i] < 1) {
			fprintf(stderr, "sq-elig: N >= 1\n");
			return 2;
		}
		o->maxn = o->ns[i] > o->maxn ? o->ns[i] : o->maxn;
	}
	return 0;
}

/* el_alloc - the arrays for up to maxn nodes; false when out of memory */
static bool el_alloc(size_t maxn)
{
	el_vals = malloc(maxn * sizeof(*el_vals));
	el_vals_desc = malloc(maxn * sizeof(*el_vals_desc));
	el_key = malloc(maxn * sizeof(*el_key));
	el_en = malloc(maxn * sizeof(*el_en));
	el_egn = malloc(maxn * sizeof(*el_egn));
#ifdef BQ_HAVE_LINUX_RB
	el_kns = malloc(maxn * sizeof(*el_kns));
	if (!el_kns)
		return false;
#endif
	return el_vals && el_vals_desc && el_key && el_en && el_egn;
}

static void el_free(void)
{
	free(el_vals);
	free(el_vals_desc);
	free(el_key);
	free(el_en);
	free(el_egn);
#ifdef BQ_HAVE_LINUX_RB
	free(el_kns);
#endif
}

/* el_measure - one N: every queue's pick, desc and run, one line each */
static void el_measure(size_t n, unsigned reps, size_t loops)
{
	static double t_ns[EL_NQ][3][64], t_cy[EL_NQ][3][64];
	unsigned r;
	size_t k;
	int m;

	el_make(n);
	el_verify(n);
	/* reps outer, queues inner: a burst of load on this shared machine
	 * falls on every queue alike */
	for (r = 0; r < reps; r++)
		for (k = 0; k < EL_NQ; k++)
			for (m = 0; m < 3; m++)
				el_time(&el_queues[k], m,
					el_loops(&el_queues[k], m, loops),
					&t_ns[k][m][r], &t_cy[k][m][r]);
	for (k = 0; k < EL_NQ; k++) {
		double mn[3], md[3], cmn[3];

		for (m = 0; m < 3; m++) {
			md[m] = bq_median_sort(t_ns[k][m], reps);
			mn[m] = t_ns[k][m][0];
			(void)bq_median_sort(t_cy[k][m], reps);
			cmn[m] = t_cy[k][m][0];
		}
		printf("%-6zu %-6s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f   "
		       "(median ns %.1f %.1f %.1f)\n", n, el_queues[k].name,
		       mn[0], cmn[0], mn[1], cmn[1], mn[2], cmn[2],
		       md[0], md[1], md[2]);
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct el_opts o;
	size_t i;
	int rc = el_options(argc, argv, &o);

	if (rc)
		return rc;
	if (!el_alloc(o.maxn))
		return 1;
#ifdef BQ_HAVE_LINUX_RB
	printf("# linux: the kernel's rbtree_augmented.h of %s\n",
	       BQ_LINUX_RB_VERSION);
#else
	printf("# linux: not built (make bench-elig LINUX_SRC=...)\n");
#endif
	el_cpu();
	bq_clock_probe();
	printf("# ns and cycles per operation: the minimum of %u passes of "
	       "%zu operations\n# (scan: fewer in desc and run above N = 64), "
	       "and the median ns\n", o.reps, o.loops);
	printf("%-6s %-6s %8s %8s %8s %8s %8s %8s\n", "N", "queue", "pick ns",
	       "pick cy", "desc ns", "desc cy", "run ns", "run cy");
	for (i = 0; i < o.nn; i++)
		el_measure(o.ns[i], o.reps, o.loops);
	printf("# sink %llu\n", (unsigned long long)(el_sink & 1));
	el_free();
	return 0;
}
