/*
 * smartq.c - ROSS's event queue (core/queue/tw-queue.h) over smartq
 *
 * Built in place of core/queue/splay.c by ROSS configured with
 * -DQUEUE=smartq -DSMARTQ_DIR=<smartq> [-DSMARTQ_KIND=ladder|rb|binom|gavl]
 * (ross-smartq.patch, smartq.cmake).  Not tring: Time Warp rollbacks
 * re-enqueue events below the time already processed, which a time ring
 * only takes late (FIFO below its time), not in time order.
 *
 * Order.  ROSS pops by recv_ts and, between equal recv_ts, by content,
 * never by arrival: with USE_RAND_TIEBREAKER (ROSS's default) by priority,
 * then the random tie-breaker lineage compared element by element, the
 * shorter lineage first, then event id, then sending PE; without it by
 * sending LP, destination LP, event id.  splay.c compares so, and so does
 * tie_before() here.  smartq orders by a 64-bit key and is FIFO among
 * equal keys, so the key is sq_key_from_double(recv_ts + 0.0) (the + 0.0
 * folds -0.0 into 0.0, which ROSS's compare treats as equal) and the
 * content order lives beside it in tie heaps:
 *
 *  - the group: a pairing heap (Fredman, Sedgewick, Sleator and Tarjan,
 *    1986) in tie_before order of every queued event whose key is the
 *    least key, gkey; its root is the event ROSS gets next;
 *  - the smartq queue: every other event, each the root of its own tie
 *    heap (often of one), whose members all share its key, every key
 *    above gkey.
 *
 * An event at gkey joins the group; above it, the queue.  One below it (a
 * rollback's re-enqueue, a straggler) becomes the new group, and the old
 * group is parked in the queue by its root: O(1), whatever its size.
 * When the group empties, every heap at the queue's least key is popped
 * and melded into the new group.  A heap, not a sorted list: phold's
 * default timestamps (mean minus lookahead is 0) put every event of the
 * run at one time, so a group can be the whole population.
 *
 * Cost: enqueue O(1) plus the backend's enqueue; dequeue O(log g)
 * amortised (g the group's size) plus a backend pop when the group
 * empties; delete_any the same.  An event's links are its sq member and
 * its own next and prev, which the queue owns while owner is TW_pe_pq.
 *
 * -DROSS_SMARTQ_CHECK=ON (smartq.cmake) walks every invariant after every
 * operation, O(n) each: for tests.
 */
#include <ross.h>

#define K ROSS_SMARTQ_KIND

struct tw_pq {
	SQ_QUEUE(K) q;		/* the parked tie heaps, by their roots */
	tw_event *group;	/* the tie heap at gkey; NULL iff empty */
	uint64_t gkey;
	unsigned int n, max_size;
};

static uint64_t ev_key(const tw_event *e)
{
	return sq_key_from_double(TW_STIME_DBL(e->recv_ts) + 0.0);
}

static tw_event *ev_of(SQ_NODE(K) *n)
{
	return sq_entry(n, tw_event, sq.node);
}

/*
 * tie_before - does @a go before @b, given equal recv_ts?  ROSS's order
 * (see the head of the file); two events equal in it are an error there
 * and here.
 */
static int tie_before(const tw_event *a, const tw_event *b)
{
#ifdef USE_RAND_TIEBREAKER
	int c = TW_STIME_CMP(a->sig.priority, b->sig.priority);
	unsigned int la = a->sig.tie_lineage_length;
	unsigned int lb = b->sig.tie_lineage_length;
	unsigned int i, m = la < lb ? la : lb;

	if (c)
		return c < 0;
	for (i = 0; i < m; i++)
		if (a->sig.event_tiebreaker[i] != b->sig.event_tiebreaker[i])
			return a->sig.event_tiebreaker[i] <
			       b->sig.event_tiebreaker[i];
	if (la != lb)
		return la < lb;
	if (a->event_id != b->event_id) {
		printf("ROSS smartq queue warning: identical tie-breakers, "
		       "event ids differ: a random-number collision\n");
		return a->event_id < b->event_id;
	}
	if (a->send_pe != b->send_pe)
		return a->send_pe < b->send_pe;
#else
	if (a->send_lp != b->send_lp)
		return a->send_lp < b->send_lp;
	if (a->dest_lp->gid != b->dest_lp->gid)
		return a->dest_lp->gid < b->dest_lp->gid;
	if (a->event_id != b->event_id)
		return a->event_id < b->event_id;
#endif
	tw_error(TW_LOC, "smartq queue: two events tie at ts %lf in every "
		 "field of ROSS's order", TW_STIME_DBL(a->recv_ts));
	return 0;
}

/*
 * The tie heaps.  A node's first child is sq.child; siblings are chained
 * by next; prev is the left sibling, or the parent for a first child, or
 * NULL for a root.  Every parent goes before each of its children.
 */

/* meld - one heap of roots @a and @b: the later becomes the earlier's
 * first child.  The winner's next and prev are left as they were. */
static tw_event *meld(tw_event *a, tw_event *b)
{
	tw_event *t;

	if (tie_before(b, a)) {
		t = a;
		a = b;
		b = t;
	}
	b->next = a->sq.child;
	if (b->next)
		b->next->prev = b;
	b->prev = a;
	a->sq.child = b;
	return a;
}

/* merge_pairs - one heap of the sibling list @first: meld them in pairs
 * left to right, then the pairs right to left (the two-pass pairing,
 * which gives the O(log n) amortised pop).  Iterative: the pairs wait on
 * a stack through their next. */
static tw_event *merge_pairs(tw_event *first)
{
	tw_event *pairs = NULL, *r = NULL;

	while (first) {
		tw_event *a = first, *b = a->next;

		if (b) {
			first = b->next;
			a = meld(a, b);
		} else {
			first = NULL;
		}
		a->next = pairs;
		pairs = a;
	}
	while (pairs) {
		tw_event *a = pairs;

		pairs = a->next;
		r = r ? meld(a, r) : a;
	}
	r->next = r->prev = NULL;
	return r;
}

/* heap_rest - the heap left when root @r is taken out of it, or NULL. */
static tw_event *heap_rest(tw_event *r)
{
	tw_event *c = r->sq.child;

	r->sq.child = NULL;
	return c ? merge_pairs(c) : NULL;
}

/* heap_cut - take non-root @x out of its heap: its children, made one
 * heap, take its place among its siblings.  The root is not touched, so a
 * parked heap stays queued by it.  They all went after x's parent, so the
 * order holds. */
static void heap_cut(tw_event *x)
{
	tw_event *sub = heap_rest(x), *p = x->prev, *nx = x->next;

	if (sub) {
		sub->prev = p;
		sub->next = nx;
		if (nx)
			nx->prev = sub;
	} else {
		sub = nx;
		if (nx)
			nx->prev = p;
	}
	if (p->sq.child == x)
		p->sq.child = sub;
	else
		p->next = sub;
	x->next = x->prev = NULL;
}

#ifdef ROSS_SMARTQ_CHECK
static void pq_check(const tw_pq *pq);
#define PQ_CHECK(pq) pq_check(pq)
#else
#define PQ_CHECK(pq) ((void)0)
#endif

/* group_from_queue - the group becomes every heap at the queue's least
 * key, or NULL when the queue is empty. */
static void group_from_queue(tw_pq *pq)
{
	SQ_NODE(K) *n = SQ_POP(K, &pq->q);
	tw_event *g;

	pq->group = NULL;
	if (!n)
		return;
	g = ev_of(n);
	pq->gkey = ev_key(g);
	while ((n = SQ_POP_DUE(K, &pq->q, pq->gkey)) != NULL)
		g = meld(g, ev_of(n));
	g->next = g->prev = NULL;
	pq->group = g;
}

tw_pq *tw_pq_create(void)
{
	tw_pq *pq = (tw_pq *)tw_calloc(TW_LOC, "smartq queue", sizeof(*pq), 1);

	SQ_INIT(K, &pq->q);
	pq->group = NULL;
	pq->n = pq->max_size = 0;
	return pq;
}

void tw_pq_enqueue(tw_pq *pq, tw_event *e)
{
	uint64_t key = ev_key(e);

	e->state.owner = TW_pe_pq;
	e->next = e->prev = e->sq.child = NULL;
	SQ_NODE_INIT(K, &e->sq.node);
	if (++pq->n > pq->max_size)
		pq->max_size = pq->n;

	if (!pq->group) {
		pq->group = e;
		pq->gkey = key;
	} else if (key == pq->gkey) {
		pq->group = meld(pq->group, e);
		pq->group->next = pq->group->prev = NULL;
	} else if (key > pq->gkey) {
		SQ_ENQUEUE(K, &pq->q, &e->sq.node, key);
	} else {
		SQ_ENQUEUE(K, &pq->q, &pq->group->sq.node, pq->gkey);
		pq->group = e;
		pq->gkey = key;
	}
	PQ_CHECK(pq);
}

tw_event *tw_pq_dequeue(tw_pq *pq)
{
	tw_event *r = pq->group;

	if (!r)
		return NULL;
	pq->n--;
	pq->group = heap_rest(r);
	if (!pq->group)
		group_from_queue(pq);
	r->next = r->prev = NULL;
	r->state.owner = 0;
	PQ_CHECK(pq);
	return r;
}

void tw_pq_delete_any(tw_pq *pq, tw_event *e)
{
	if (e == pq->group) {
		tw_pq_dequeue(pq);
		return;
	}
	if (pq->n == 0)
		tw_error(TW_LOC, "tw_pq_delete_any: the queue is empty");
	e->state.owner = 0;
	pq->n--;
	if (SQ_QUEUED(K, &e->sq.node)) {
		/* the root of a parked heap: the rest parks by its new root */
		tw_event *rest = heap_rest(e);

		SQ_DEQUEUE(K, &pq->q, &e->sq.node);
		if (rest)
			SQ_ENQUEUE(K, &pq->q, &rest->sq.node, ev_key(rest));
	} else {
		heap_cut(e);
	}
	PQ_CHECK(pq);
}

tw_stime tw_pq_minimum(tw_pq *pq)
{
	return pq->group ? pq->group->recv_ts : TW_STIME_MAX;
}

#ifdef USE_RAND_TIEBREAKER
tw_event_sig const *tw_pq_minimum_sig_ptr(tw_pq const *pq)
{
	return pq->group ? &pq->group->sig : &g_tw_max_sig;
}
#endif

unsigned int tw_pq_get_size(tw_pq *pq)
{
	return pq->n;
}

unsigned int tw_pq_max_size(tw_pq *pq)
{
	return pq->max_size;
}

#ifdef ROSS_SMARTQ_CHECK
/* The parent of non-root @x: back along its siblings to the first. */
static const tw_event *heap_parent(const tw_event *x)
{
	while (x->prev->sq.child != x)
		x = x->prev;
	return x->prev;
}

/* heap_check - the heap at root @r: every member has @key, not queued
 * (but the root, when @parked), its links agree, every parent before its
 * children.  Returns the count.  Walks without recursion. */
static unsigned int heap_check(const tw_event *r, uint64_t key, int parked)
{
	const tw_event *x = r, *c;
	unsigned int n = 0;

	if (r->prev || r->next)
		tw_error(TW_LOC, "smartq queue check: a root has siblings");
	for (;;) {
		n++;
		if (ev_key(x) != key)
			tw_error(TW_LOC, "smartq queue check: key %llx in a "
				 "heap of %llx", (unsigned long long)ev_key(x),
				 (unsigned long long)key);
		if (x->state.owner != TW_pe_pq)
			tw_error(TW_LOC, "smartq queue check: owner %d",
				 x->state.owner);
		if (SQ_QUEUED(K, &x->sq.node) != (parked && x == r))
			tw_error(TW_LOC, "smartq queue check: queued flag");
		for (c = x->sq.child; c; c = c->next) {
			if (c->next && c->next->prev != c)
				tw_error(TW_LOC, "smartq queue check: links");
			if (!tie_before(x, c))
				tw_error(TW_LOC, "smartq queue check: a child "
					 "goes before its parent");
		}
		if (x->sq.child) {
			if (x->sq.child->prev != x)
				tw_error(TW_LOC, "smartq queue check: links");
			x = x->sq.child;
			continue;
		}
		while (x != r && !x->next)
			x = heap_parent(x);
		if (x == r)
			return n;
		x = x->next;
	}
}

struct pq_check_walk {
	const tw_pq *pq;
	unsigned int n;
};

static void pq_check_root(SQ_NODE(K) *node, void *arg)
{
	struct pq_check_walk *w = (struct pq_check_walk *)arg;
	const tw_event *r = ev_of(node);

	if (node->key != ev_key(r) || node->key <= w->pq->gkey)
		tw_error(TW_LOC, "smartq queue check: a parked heap at key "
			 "%llx, group at %llx", (unsigned long long)node->key,
			 (unsigned long long)w->pq->gkey);
	w->n += heap_check(r, node->key, 1);
}

static void pq_check(const tw_pq *pq)
{
	struct pq_check_walk w = { pq, 0 };

	if (SQ_CHECK(K, &pq->q))
		tw_error(TW_LOC, "smartq queue check: the backend's check");
	if (!pq->group) {
		if (pq->n || !SQ_EMPTY(K, &pq->q))
			tw_error(TW_LOC, "smartq queue check: no group, %u "
				 "events", pq->n);
		return;
	}
	w.n = heap_check(pq->group, pq->gkey, 0);
	SQ_VISIT(K, &pq->q, pq_check_root, &w);
	if (w.n != pq->n || pq->n > pq->max_size)
		tw_error(TW_LOC, "smartq queue check: %u events found, %u "
			 "counted", w.n, pq->n);
}
#endif
