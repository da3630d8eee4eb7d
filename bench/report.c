/* SPDX-License-Identifier: MIT */
/*
 * bench/report.c - what the harness prints and writes
 *
 * The header (settings, CPU, clock, compiler, granularity, peers), one
 * line per timed pass in the seeds' layout ("NAME = 831.97 cycles/loop"),
 * the two summary tables (median cycles and ns per loop over both
 * passes), and the same results as CSV and JSON.
 */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime, nanosleep (clock.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "clock.h"
#include "smartq.h"	/* SQ_VERSION_STRING */

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

double bq_median(const double *v, size_t n)
{
	double *s = (double *)bq_xrealloc(NULL, n * sizeof(*s)), m;

	memcpy(s, v, n * sizeof(*s));
	m = bq_median_sort(s, n);
	free(s);
	return m;
}

double bq_min(const double *v, size_t n)
{
	double m = v[0];
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

/*
 * "model name", then "(family F, model M)" when /proc/cpuinfo has them: a
 * virtual machine often shows only "AMD EPYC", and the family tells which
 * generation the numbers came from (25 is Zen 3/4, 26 Zen 5).
 */
void bq_cpu_model(char *buf, size_t len)
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

/* The granularity given to the backends exact only to one, and its window
 * as the seed's 1024-slot ring would have it. */
static void bq_print_gran(const struct bq_options *o)
{
	uint64_t window = bq_seed_window(bq_gran_shift);

	printf("granularity (backends exact only to one): Tg = 2^%u = %llu; "
	       "a 1024-slot window %llu %s 2 x max increment\n",
	       bq_gran_shift, (unsigned long long)1 << bq_gran_shift,
	       (unsigned long long)window,
	       window >= 2 * (uint64_t)o->inc_max ? ">=" : "<");
}

void bq_print_compiler(void)
{
	printf("compiler: %s (%s), flags %s\n", BQ_BUILD_CC, BQ_COMPILER,
	       BQ_BUILD_CFLAGS);
}

void bq_print_header(const struct bq_options *o, const struct bq_machine *m)
{
	printf("smartq %s bench: workload %s, increments %s (max %lu), "
	       "%zu loops x %zu reps per pass (warm-up %zu), seed %llu\n",
	       SQ_VERSION_STRING, bq_workload_names[o->workload],
	       bq_dist_names[o->dist], (unsigned long)o->inc_max, o->loops,
	       o->reps, o->warmup, (unsigned long long)o->seed);
	if (o->cpu >= 0)
		printf("cpu: %s, pinned to CPU %d\n", m->cpu, o->cpu);
	else
		printf("cpu: %s (not pinned)\n", m->cpu);
	printf("clock: %s\n", m->clock);
	bq_print_compiler();
	bq_print_gran(o);
	printf("peers (for comparison, marked [peer]): tsearch = libc tsearch "
	       "RB tree, malloc per node; %s; %s; tr_seed = the 2007 seed's "
	       "ring (Ns 1024, Tg 2048, bitmap scan); heap = array binary "
	       "heap; calq = Brown's calendar queue (1988); radix = radix heap "
	       "(Ahuja et al. 1990) of (key, node) arrays; heap4 = 4-ary heap "
	       "of (key, node), libev's layout; wheel = hierarchical timing "
	       "wheel, 64 slots a level, cascading, exact to Tg\n",
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
	if (o->dropped)
		printf("%s left out: it cannot hold keys up to 2 x max "
		       "increment apart in order\n", o->dropped);
	if (o->event)
		printf("events: %zu bytes each, the queue's node at the "
		       "start\n", o->event);
	if (o->too_big[0])
		printf("left out, node larger than --event %zu: %s\n",
		       o->event, o->too_big);
}

/* The workloads that count queue calls and deadline reprograms. */
static bool bq_timer_mix(const struct bq_options *o)
{
	return o->workload == BQ_TIMER || o->workload == BQ_SPREAD ||
	       o->workload == BQ_CHURN;
}

/* One timed pass, in the seeds' layout; the timer mix adds its count. */
void bq_print_pass(const struct bq_options *o, const struct bq_queue *qu,
		   const double *pass)
{
	printf("%s = %.2f cycles/loop   (min %.2f)%s", qu->name,
	       bq_median(pass, o->reps), bq_min(pass, o->reps),
	       qu->peer ? "  [peer]" : "");
	if (bq_timer_mix(o))
		printf("   deadline reprogrammed on %.1f%% of steps, "
		       "%.2f queue calls a step",
		       100.0 * (double)bq.reprograms /
		       (double)(o->reps * o->loops),
		       (double)bq.ops / (double)(o->reps * o->loops));
	printf("\n");
}

/* One summary table: a row per N, a column per queue, medians * @scale,
 * per loop (@per 0), per queue call (1) or per node fired (2). */
static void bq_summary(const struct bq_options *o, const struct bq_result *res,
		       double scale, int per)
{
	size_t i, k, nq = o->nq;

	printf("%9s", "N");
	for (k = 0; k < nq; k++)
		printf(" %9s%s", o->queues[k]->name, o->queues[k]->peer ? "*" : " ");
	printf("\n");
	for (i = 0; i < o->nn; i++) {
		printf("%9zu", o->ns[i]);
		for (k = 0; k < nq; k++) {
			const struct bq_result *r = &res[i * nq + k];
			double d = per == 1 ? r->ops : per == 2 ? r->fired : 1;

			printf(" %9.1f ", d > 0 ? r->median * scale / d : 0.0);
		}
		printf("\n");
	}
}

void bq_print_summaries(const struct bq_options *o,
			const struct bq_result *res,
			const struct bq_machine *m)
{
	printf("\nSummary: median cycles/loop over both passes "
	       "(%s workload; * = peer)\n", bq_workload_names[o->workload]);
	bq_summary(o, res, 1.0, 0);
	printf("\nSummary: median ns/loop (%s %.1f MHz)\n",
	       m->tsc ? "TSC" : "clock", m->hz / 1e6);
	bq_summary(o, res, 1e9 / m->hz, 0);
	/* the mix makes one queue call a step: a loop is an operation; the
	 * timer mixes count their fires too */
	if (o->workload == BQ_MIX || bq_timer_mix(o)) {
		printf("\nSummary: median ns per node fired (%s)\n",
		       o->workload == BQ_MIX ? "a loop is one operation of"
		       " the mix" : "a timer expired");
		bq_summary(o, res, 1e9 / m->hz, 2);
	}
	/* A ring pops by its granularity, so its expiries fire more timers
	 * a step than an exact queue's: compare costs per call. */
	if (bq_timer_mix(o)) {
		printf("\nSummary: median ns per queue call (calls a step "
		       "differ when an expiry fires several timers)\n");
		bq_summary(o, res, 1e9 / m->hz, 1);
	}
}

/* --chase: each median in dependent loads of the same N's run. */
void bq_print_chase(const struct bq_options *o, const struct bq_result *res,
		    const struct bq_machine *m)
{
	size_t i, k, nq = o->nq;

	printf("\nSummary: median ns/loop in dependent loads (pointer chase "
	       "over 32 MiB, timed after each N)\n%9s %9s", "N", "load ns");
	for (k = 0; k < nq; k++)
		printf(" %9s%s", o->queues[k]->name, o->queues[k]->peer ? "*" : " ");
	printf("\n");
	for (i = 0; i < o->nn; i++) {
		double load = res[i * nq].chase;

		printf("%9zu %9.1f", o->ns[i], load);
		for (k = 0; k < nq; k++)
			printf(" %9.2f ", load > 0 ? res[i * nq + k].median *
			       1e9 / m->hz / load : 0.0);
		printf("\n");
	}
}

void bq_write_csv(const struct bq_options *o, const struct bq_result *res,
		  const struct bq_machine *m)
{
	FILE *f = fopen(o->csv, "w");
	size_t i, k, nq = o->nq;

	if (!f) {
		bq_die("--csv %s: %s", o->csv, strerror(errno));
		return;		/* not reached; for the analyzers */
	}
	fprintf(f, "workload,dist,n,queue,peer,loops,reps,"
		"min_cycles,median_cycles,min_ns,median_ns,calls_per_loop,"
		"fired_per_loop\n");
	for (i = 0; i < o->nn; i++)
		for (k = 0; k < nq; k++) {
			const struct bq_result *r = &res[i * nq + k];

			fprintf(f, "%s,%s,%zu,%s,%d,%zu,%zu,%.2f,%.2f,%.2f,"
				"%.2f,%.4f,%.4f\n",
				bq_workload_names[o->workload],
				bq_dist_names[o->dist], o->ns[i],
				o->queues[k]->name, o->queues[k]->peer,
				o->loops, 2 * o->reps, r->min, r->median,
				r->min * 1e9 / m->hz, r->median * 1e9 / m->hz,
				r->ops, r->fired);
		}
	if (fclose(f))
		bq_die("--csv %s: write failed", o->csv);
}

/* The JSON's settings: everything but the results. */
static void bq_json_settings(FILE *f, const struct bq_options *o,
			     const struct bq_machine *m)
{
	char pinned[16] = "null";

	if (o->cpu >= 0)
		snprintf(pinned, sizeof(pinned), "%d", o->cpu);
	fprintf(f, "{\n  \"version\": \"%s\",\n  \"cpu\": ", SQ_VERSION_STRING);
	bq_json_str(f, m->cpu);
	fprintf(f, ",\n  \"clock\": ");
	bq_json_str(f, m->clock);
	fprintf(f, ",\n  \"clock_hz\": %.0f,\n  \"compiler\": ", m->hz);
	bq_json_str(f, BQ_BUILD_CC " (" BQ_COMPILER ")");
	fprintf(f, ",\n  \"cflags\": ");
	bq_json_str(f, BQ_BUILD_CFLAGS);
	fprintf(f, ",\n  \"workload\": \"%s\",\n  \"dist\": \"%s\",\n"
		"  \"inc_max\": %lu,\n  \"loops\": %zu,\n"
		"  \"reps_per_pass\": %zu,\n  \"warmup\": %zu,\n"
		"  \"seed\": %llu,\n  \"cpu_pinned\": %s,\n"
		"  \"gran_shift\": %u,\n",
		bq_workload_names[o->workload], bq_dist_names[o->dist],
		(unsigned long)o->inc_max, o->loops, o->reps, o->warmup,
		(unsigned long long)o->seed, pinned, bq_gran_shift);
	fprintf(f, "  \"linux_rb\": ");
#ifdef BQ_HAVE_LINUX_RB
	bq_json_str(f, BQ_LINUX_RB_VERSION);
#else
	fprintf(f, "null");
#endif
}

void bq_write_json(const struct bq_options *o, const struct bq_result *res,
		   const struct bq_machine *m)
{
	FILE *f = fopen(o->json, "w");
	size_t i, k, nq = o->nq;

	if (!f) {
		bq_die("--json %s: %s", o->json, strerror(errno));
		return;		/* not reached; for the analyzers */
	}
	bq_json_settings(f, o, m);
	fprintf(f, ",\n  \"results\": [");
	for (i = 0; i < o->nn; i++)
		for (k = 0; k < nq; k++) {
			const struct bq_result *r = &res[i * nq + k];

			fprintf(f, "%s\n    {\"n\": %zu, \"queue\": \"%s\", "
				"\"peer\": %s, \"min_cycles\": %.2f, "
				"\"median_cycles\": %.2f, "
				"\"min_ns\": %.2f, \"median_ns\": %.2f, "
				"\"calls_per_loop\": %.4f, "
				"\"fired_per_loop\": %.4f}",
				(i + k) ? "," : "", o->ns[i],
				o->queues[k]->name,
				o->queues[k]->peer ? "true" : "false",
				r->min, r->median, r->min * 1e9 / m->hz,
				r->median * 1e9 / m->hz, r->ops, r->fired);
		}
	fprintf(f, "\n  ]\n}\n");
	if (fclose(f))
		bq_die("--json %s: write failed", o->json);
}
