/* SPDX-License-Identifier: MIT */
/*
 * replay/elig.h - EEVDF's eligible pick, replay's own: a treap
 *
 * The runnable tasks but curr, ordered by (deadline, enqueue order), each
 * node carrying the smallest vruntime of its subtree, as Linux 6.8 keys
 * its tree (6.6 kept it by vruntime with a min_deadline augment; the pick
 * is the same).  The earliest eligible deadline is found in one descent:
 * go left while the left subtree holds an eligible task, else take the
 * node if eligible, else go right.  A treap, not a red-black tree, for
 * brevity: replay needs O(log n) expected, and the priorities are a hash
 * of the task index, so every run is the same.  Included by model.h.
 *
 * Eligible (entity_eligible): vruntime at most V, the runnable tasks'
 * mean vruntime (every task is nice 0, so the weights are equal), in the
 * kernel's exact form: (v - base) * nr <= sum of (v_j - base).
 */
#ifndef RP_ELIG_H
#define RP_ELIG_H

struct rp_elig {
	uint32_t l, r, prio;
	uint64_t minv;		/* the subtree's smallest vruntime */
};

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

static void rp_el_pull(struct rp_sim *s, uint32_t x)
{
	struct rp_elig *e = &s->el[x];
	uint64_t m = s->t[x].vruntime;

	if (e->l != RP_NONE && s->el[e->l].minv < m)
		m = s->el[e->l].minv;
	if (e->r != RP_NONE && s->el[e->r].minv < m)
		m = s->el[e->r].minv;
	e->minv = m;
}

static uint32_t rp_el_merge(struct rp_sim *s, uint32_t a, uint32_t b)
{
	if (a == RP_NONE)
		return b;
	if (b == RP_NONE)
		return a;
	if (s->el[a].prio >= s->el[b].prio) {
		s->el[a].r = rp_el_merge(s, s->el[a].r, b);
		rp_el_pull(s, a);
		return a;
	}
	s->el[b].l = rp_el_merge(s, a, s->el[b].l);
	rp_el_pull(s, b);
	return b;
}

/* Split @x into the nodes before @k and the rest. */
static void rp_el_split(struct rp_sim *s, uint32_t x, uint32_t k,
			uint32_t *lo, uint32_t *hi)
{
	if (x == RP_NONE) {
		*lo = *hi = RP_NONE;
		return;
	}
	if (rp_el_before(s, x, k)) {
		rp_el_split(s, s->el[x].r, k, &s->el[x].r, hi);
		*lo = x;
	} else {
		rp_el_split(s, s->el[x].l, k, lo, &s->el[x].l);
		*hi = x;
	}
	rp_el_pull(s, x);
}

static void rp_el_insert(struct rp_sim *s, uint32_t i)
{
	uint32_t lo, hi;

	s->el[i].l = s->el[i].r = RP_NONE;
	s->el[i].minv = s->t[i].vruntime;
	rp_el_split(s, s->eroot, i, &lo, &hi);
	s->eroot = rp_el_merge(s, rp_el_merge(s, lo, i), hi);
}

static uint32_t rp_el_remove_at(struct rp_sim *s, uint32_t x, uint32_t i)
{
	if (x == RP_NONE)
		return RP_NONE;		/* not there: the caller checks */
	if (x == i)
		return rp_el_merge(s, s->el[x].l, s->el[x].r);
	if (rp_el_before(s, i, x))
		s->el[x].l = rp_el_remove_at(s, s->el[x].l, i);
	else
		s->el[x].r = rp_el_remove_at(s, s->el[x].r, i);
	rp_el_pull(s, x);
	return x;
}

static void rp_el_remove(struct rp_sim *s, uint32_t i)
{
	s->eroot = rp_el_remove_at(s, s->eroot, i);
}

/* The earliest deadline among the eligible tasks of the tree, or RP_NONE */
static uint32_t rp_el_pick(const struct rp_sim *s)
{
	uint32_t x = s->eroot;

	while (x != RP_NONE) {
		const struct rp_elig *e = &s->el[x];

		if (e->l != RP_NONE && rp_elig_v(s, s->el[e->l].minv))
			x = e->l;
		else if (rp_eligible(s, x))
			return x;
		else if (e->r != RP_NONE && rp_elig_v(s, s->el[e->r].minv))
			x = e->r;
		else
			return RP_NONE;
	}
	return RP_NONE;
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

#endif /* RP_ELIG_H */
