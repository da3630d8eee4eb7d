/* SPDX-License-Identifier: MIT */
/*
 * bench/bench.h - what the harness's parts share
 *
 *   options.c  the command line, into struct bq_options
 *   tables.c   the run's initial keys and step tables (struct bq_state),
 *              from the chosen increment distribution
 *   queues.c   the queues: every backend of SQ_KINDS and the peers, each a
 *              struct bq_queue whose loops (queue.h) read those tables
 *   bench.c    the clock, the correctness pass and the timed passes, main
 *   report.c   what is printed and written: header, per-pass lines,
 *              summaries, CSV, JSON
 *   advise.c   --advise: the user's shape run on every queue that fits,
 *              one recommendation
 */
#ifndef SQ_BENCH_H
#define SQ_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * The pre-generated tables: 65536 entries, 256 KiB each, read in order
 * (the prefetcher streams them).  They must be long: with 4096 entries the
 * sequence repeated often enough for the CPU's branch predictor to learn
 * it, and the trees looked up to 3x faster at N = 1024..2048 than with
 * 65536 or 262144 entries (which agree).
 */
#define BQ_TAB      65536u
#define BQ_TAB_MASK (BQ_TAB - 1u)

/* More than the registry can hold is a compile-time error in queues.c. */
#define BQ_MAX_QUEUES 32

enum bq_workload {
	BQ_HOLD, BQ_SCHED, BQ_TIMER, BQ_UPDOWN, BQ_SPREAD, BQ_CHURN, BQ_MIX,
	BQ_NWORKLOADS
};
enum bq_dist {
	BQ_UNIFORM, BQ_EXP, BQ_TIES, BQ_TRI, BQ_NEGTRI, BQ_BIMODAL, BQ_CAMEL,
	BQ_LOGUNIFORM, BQ_NDISTS
};
extern const char *const bq_workload_names[BQ_NWORKLOADS];

/*
 * The steps of the mix workload (-w mix, --advise), one a table entry:
 * arm an idle node at now + increment, fire the first (pop it; now
 * becomes its key), cancel a random queued node, re-arm one at now +
 * increment.  BQ_OP_AUTO is an arm while fewer than N are queued, else a
 * fire, so the queue holds N as the user said.
 */
enum bq_op { BQ_OP_AUTO, BQ_OP_ARM, BQ_OP_FIRE, BQ_OP_CANCEL, BQ_OP_REARM };
extern const char *const bq_dist_names[BQ_NDISTS];

/* What one timing run of one queue reads; reset before every setup. */
struct bq_state {
	size_t n;		/* nodes in the queue */
	uint64_t *keys;		/* their initial keys, bq.n of them */
	uint32_t inc[BQ_TAB];	/* key increments (slices, timeouts) */
	uint32_t rnd[BQ_TAB];	/* random words: the workloads' choices */
	uint8_t op[BQ_TAB];	/* mix: each step's enum bq_op */
	size_t spare;		/* mix: idle nodes beside the n queued */
	uint64_t fired;		/* mix, timer mixes: nodes fired, so far */
	uint64_t tick;		/* position in the tables */
	uint64_t now;		/* timer: deadline of the last expiry;
				 * churn: the clock */
	void **sleep;		/* sched: FIFO of sleeping nodes */
	uint64_t sleep_head, sleep_tail, sleep_mask;	/* (updown: popped) */
	size_t phase_left;	/* updown: steps left in this phase */
	int down;		/* updown: 1 while draining */
	uint64_t reprograms;	/* timer: deadline reprogrammed, so far */
	uint64_t ops;		/* timer: queue calls made, so far */
	size_t event;		/* bytes an event (the node at its start);
				 * 0: each queue's own node size */
	int ref_set;		/* correctness pass: the first exact queue's */
	uint64_t ref_sink, ref_reprograms;	/* keys popped, answers */
};
extern struct bq_state bq;

/* A random index in [0, n) from a 32-bit random word. */
static inline size_t bq_pick(uint32_t r, size_t n)
{
	return (size_t)(((uint64_t)r * n) >> 32);
}

/* One queue, as queue.h defines it for a backend or a peer. */
struct bq_queue {
	const char *name;
	int peer;
	int exact;		/* 1: exact order; 0: only to a granularity */
	uint64_t span;		/* keys further apart than this come out
				 * out of order (the seed's ring); 0: none */
	size_t node_size;	/* sizeof its node: --event must hold it */
	void (*setup)(void);
	uint64_t (*run)(enum bq_workload w, size_t loops);
	void (*teardown)(void);
	const char *(*verify)(enum bq_workload w, size_t steps, int fault);
};

/* queues.c: the registry, in the default run's order (backends, peers). */
extern const struct bq_queue *const bq_all[];
extern const size_t bq_nqueues;
extern unsigned bq_gran_shift;
const struct bq_queue *bq_find(const char *name, size_t len);
unsigned bq_fit_gran(uint32_t inc_max);
uint64_t bq_seed_window(unsigned gran_shift);

struct bq_options {
	size_t *ns;
	size_t nn;
	const struct bq_queue *queues[BQ_MAX_QUEUES];
	size_t nq;
	const char *dropped;	/* a queue left out: it cannot hold the keys */
	char too_big[256];	/* queues left out: their node > --event */
	size_t event;		/* --event: bytes an event, 0: the node's */
	enum bq_workload workload;
	enum bq_dist dist;
	uint32_t inc_max;
	size_t loops, reps, warmup;
	uint64_t seed;
	int cpu;
	int gran_shift;		/* -1: fit to inc_max */
	const char *csv, *json;
	const char *fault;
	bool chase;		/* --chase: time a dependent DRAM load per N */
	/* the mix (-w mix, --advise): shares of the steps, or a trace */
	double cancel, rearm;	/* --cancel, --rearm: shares of the steps */
	const char *trace;	/* --trace FILE: recorded delays or steps */
	uint32_t *trace_inc;	/* its delays, trace_len of them */
	uint8_t *trace_op;	/* its steps (enum bq_op), or NULL: delays only */
	size_t trace_len;
	/* --advise */
	bool advise;
	double budget;		/* --time: seconds the whole advice may take */
	size_t rounds;		/* --rounds: runs of each queue */
	uint64_t gran;		/* --gran: order within this many key units
				 * is enough (0: exact order) */
	bool remote;		/* --remote: other threads post */
	bool queues_given;	/* -q named the candidates */
};

/* options.c */
void bq_parse_options(struct bq_options *o, int argc, char **argv);
void bq_die(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2), noreturn))
#endif
	;

/* tables.c */
void bq_make_tables(const struct bq_options *o, size_t n);
void bq_reset(void);
void bq_free_tables(void);

/* report.c */
struct bq_result {
	double *samples;	/* 2 * reps: both passes */
	double min, median;
	double ops;		/* timer, mix: queue calls a loop (else 0) */
	double fired;		/* mix, timer mixes: nodes fired a loop (else 0) */
	double chase;		/* --chase: ns a dependent load, this N's */
};
struct bq_machine {
	char cpu[256];		/* model name (family, model) */
	char clock[160];	/* how a time stamp is taken */
	double hz;		/* clock ticks per second */
	int tsc;		/* 1: the ticks are the TSC's, 0: ns */
};
double bq_median(const double *v, size_t n);
double bq_min(const double *v, size_t n);
void bq_cpu_model(char *buf, size_t len);
void bq_print_compiler(void);
void bq_print_header(const struct bq_options *o, const struct bq_machine *m);
void bq_print_pass(const struct bq_options *o, const struct bq_queue *qu,
		   const double *pass);
void bq_print_summaries(const struct bq_options *o,
			const struct bq_result *res,
			const struct bq_machine *m);
void bq_print_chase(const struct bq_options *o, const struct bq_result *res,
		    const struct bq_machine *m);
void bq_write_csv(const struct bq_options *o, const struct bq_result *res,
		  const struct bq_machine *m);
void bq_write_json(const struct bq_options *o, const struct bq_result *res,
		   const struct bq_machine *m);

/* bench.c: the clock and one measured run, for advise.c */
uint64_t bq_timed_run(const struct bq_queue *qu, enum bq_workload w,
		      size_t max_steps, uint64_t max_ticks, size_t *steps);

/* advise.c */
int bq_advise(struct bq_options *o, const struct bq_machine *m);
void bq_read_trace(struct bq_options *o);

/* @p, or the run ends: the harness has nothing to measure without it. */
static inline void *bq_xcheck(void *p, size_t size)
{
	if (!p) {
		fprintf(stderr, "bench: out of memory (%zu bytes)\n", size);
		exit(2);
	}
	return p;
}

static inline void *bq_xrealloc(void *p, size_t size)
{
	return bq_xcheck(realloc(p, size), size);
}

/*
 * @size bytes starting on a 64-byte cache line, so every queue's node array
 * sits the same way in every pass.  From malloc it did not: a large array
 * came from mmap (16 bytes past a page) in one pass and from the heap (on
 * a line) in the next, so half the nodes of a 32-byte array straddled two
 * lines in some passes and none in others.
 */
static inline void *bq_xalloc_lines(size_t size)
{
	return bq_xcheck(aligned_alloc(64, (size + 63) & ~(size_t)63), size);
}

#endif /* SQ_BENCH_H */
