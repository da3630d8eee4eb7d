/* SPDX-License-Identifier: MIT */
/*
 * replay/elig.h - EEVDF's eligible pick, on smartq's erb
 *
 * The runnable tasks but curr, in an erb queue (smartq/rb_elig.h) keyed
 * by the deadline, each node's eligibility value its vruntime: as Linux
 * 6.8 keys its tree (6.6 kept it by vruntime with a min_deadline augment;
 * the pick is the same).  Equal deadlines keep their enqueue order, so
 * the pick is the earliest deadline, oldest first, among the eligible
 * tasks.  Included by model.h.
 *
 * Eligible (entity_eligible): vruntime at most V, the runnable tasks'
 * mean vruntime (every task is nice 0, so the weights are equal), in the
 * kernel's exact form: (v - base) * nr <= sum of (v_j - base).  For an
 * integer v that is v <= base + floor(sum / nr), rp_avg_vruntime(): the
 * limit the erb pick is given.
 */
#ifndef RP_ELIG_H
#define RP_ELIG_H

static bool rp_elig_v(const struct rp_sim *s, uint64_t v)
{
	return (int64_t)(v - RP_VBASE) * (int64_t)s->nr_running <= s->vsum;
}

static bool rp_eligible(const struct rp_sim *s, uint32_t i)
{
	return rp_elig_v(s, s->t[i].vruntime);
}

/* @a before @b: earlier deadline, or the same and enqueued first */
static bool rp_el_before(const struct rp_sim *s, uint32_t a, uint32_t b)
{
	const struct rp_task *x = &s->t[a], *y = &s->t[b];

	return x->deadline != y->deadline ? x->deadline < y->deadline
					  : x->enq_seq < y->enq_seq;
}

/* V, avg_vruntime(): the floor of the mean; min_vruntime when idle */
static uint64_t rp_avg_vruntime(const struct rp_sim *s)
{
	int64_t n = (int64_t)s->nr_running, q;

	if (!n)
		return s->min_vruntime;
	q = s->vsum / n;
	if (s->vsum % n < 0)
		q--;
	return RP_VBASE + (uint64_t)q;
}

static void rp_el_insert(struct rp_sim *s, uint32_t i)
{
	sq_erb_set_elig(&s->etree, &s->el[i], s->t[i].vruntime);
	sq_erb_enqueue(&s->etree, &s->el[i], s->t[i].deadline);
}

static void rp_el_remove(struct rp_sim *s, uint32_t i)
{
	sq_erb_dequeue(&s->etree, &s->el[i]);
}

/* The earliest deadline among the eligible tasks of the tree, or RP_NONE */
static uint32_t rp_el_pick(const struct rp_sim *s)
{
	const struct sq_erb_node *n;

	n = sq_erb_pick_eligible(&s->etree, rp_avg_vruntime(s));
	return n ? (uint32_t)(n - s->el) : RP_NONE;
}

/* The same by an O(n) scan of the tasks in the tree: the checks' truth. */
static uint32_t rp_el_scan(const struct rp_sim *s, bool *any_eligible)
{
	uint32_t i, best = RP_NONE;

	*any_eligible = false;
	for (i = 0; i < s->nt; i++) {
		if (!s->t[i].in_tree || !rp_eligible(s, i))
			continue;
		*any_eligible = true;
		if (best == RP_NONE || rp_el_before(s, i, best))
			best = i;
	}
	return best;
}

#endif /* RP_ELIG_H */
