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
 * With -DROSS_SMARTQ_TIES=hook (the backends of SQ_TIE_KINDS), none of
 * that: the queue is the tie kind that ross-smartq.h declares, which
 * orders equal keys by tie_before() itself.
 *
 * -DROSS_SMARTQ_CHECK=ON (smartq.cmake) walks every invariant after every
 * operation, O(n) each: for tests.
 */
#include <ross.h>

#ifdef ROSS_SMARTQ_HOOK
#define Q ross_evq		/* ross-smartq.h's tie kind */
#else
#define Q ROSS_SMARTQ_KIND
#endif

struct tw_pq {
	SQ_QUEUE(Q) q;		/* the events; in group mode the parked heaps */
#ifndef ROSS_SMARTQ_HOOK
	tw_event *group;	/* the tie heap at gkey; NULL iff empty */
	uint64_t gkey;
#endif
	unsigned int n, max_size;
};

static uint64_t ev_key(const tw_event *e)
{
	return sq_key_from_double(TW_STIME_DBL(e->recv_ts) + 0.0);
}

static tw_event *ev_of(SQ_NODE(Q) *n)
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

#ifdef ROSS_SMARTQ_CHECK
static void pq_check(const tw_pq *pq);
#define PQ_CHECK(pq) pq_check(pq)
#else
#define PQ_CHECK(pq) ((void)0)
#endif

#ifdef ROSS_SMARTQ_HOOK
/* ross-smartq.h's less for the tie kind: defined here, where tw_event is
 * complete, so it inlines into this file's queue operations. */
bool tw_sq_node_before(const SQ_NODE(Q) *a, const SQ_NODE(Q) *b)
{
	return tie_before(sq_entry_const(a, tw_event, sq.node),
			  sq_entry_const(b, tw_event, sq.node));
}

static tw_event *pq_first(const tw_pq *pq)
{
	SQ_NODE(Q) *n = SQ_FIRST(Q, &pq->q);

	return n ? ev_of(n) : NULL;
}

static void pq_init(tw_pq *pq)
{
	SQ_INIT(Q, &pq->q);
}

void tw_pq_enqueue(tw_pq *pq, tw_event *e)
{
	e->state.owner = TW_pe_pq;
	SQ_NODE_INIT(Q, &e->sq.node);
	if (++pq->n > pq->max_size)
		pq->max_size = pq->n;
	SQ_ENQUEUE(Q, &pq->q, &e->sq.node, ev_key(e));
	PQ_CHECK(pq);
}

tw_event *tw_pq_dequeue(tw_pq *pq)
{
	SQ_NODE(Q) *n = SQ_POP(Q, &pq->q);
	tw_event *e;

	if (!n)
		return NULL;
	e = ev_of(n);
	pq->n--;
	e->state.owner = 0;
	PQ_CHECK(pq);
	return e;
}

void tw_pq_delete_any(tw_pq *pq, tw_event *e)
{
	if (pq->n == 0)
		tw_error(TW_LOC, "tw_pq_delete_any: the queue is empty");
	e->state.owner = 0;
	pq->n--;
	SQ_DEQUEUE(Q, &pq->q, &e->sq.node);
	PQ_CHECK(pq);
}

#ifdef ROSS_SMARTQ_CHECK
static void pq_check(const tw_pq *pq)
{
	if (SQ_CHECK(Q, &pq->q))
		tw_error(TW_LOC, "smartq queue check: the tie kind's check");
	if (SQ_COUNT(Q, &pq->q) != pq->n || pq->n > pq->max_size)
		tw_error(TW_LOC, "smartq queue check: %u events counted",
			 pq->n);
}
#endif

#else /* the group */

/*
 * The tie heaps.  A node's first child is sq.child; siblings are chained
 * by next; prev is the left sibling, or the parent for a first child, or
 * NULL for a root.  Every parent goes before each of its children.
 */

/* add_child - root @b becomes the first child of @a. */
static void add_child(tw_event *a, tw_event *b)
{
	b->next = a->sq.child;
	if (b->next)
		b->next->prev = b;
	b->prev = a;
	a->sq.child = b;
}

/* meld - one heap of roots @a and @b: the later becomes the earlier's
 * first child.  The winner's next and prev are left as they were. */
static tw_event *meld(tw_event *a, tw_event *b)
{
	if (tie_before(b, a)) {
		add_child(b, a);
		return b;
	}
	add_child(a, b);
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

/* merge - one list, in tie order, of the sorted lists @a and @b (of
 * roots, through next). */
static tw_event *merge(tw_event *a, tw_event *b)
{
	tw_event *r, **t = &r;

	while (a && b) {
		if (tie_before(b, a)) {
			*t = b;
			b = *(t = &b->next);
		} else {
			*t = a;
			a = *(t = &a->next);
		}
	}
	*t = a ? a : b;
	return r;
}

/*
 * group_from_queue - the group becomes every heap at the queue's least
 * key, or NULL when the queue is empty.  Their roots are merge-sorted
 * (bottom up: bin i holds a sorted run of 2^i roots) and chained, each
 * the first child of the one before: a heap whose pops take O(1) while
 * nothing else joins it, where melding them one by one would leave a
 * root of g children for the pairing passes to sort out.
 */
static void group_from_queue(tw_pq *pq)
{
	SQ_NODE(Q) *n = SQ_POP(Q, &pq->q);
	tw_event *bin[64] = { NULL }, *g = NULL, *x, *y, *after;
	unsigned int i;

	pq->group = NULL;
	if (!n)
		return;
	pq->gkey = ev_key(ev_of(n));
	do {
		x = ev_of(n);
		x->next = NULL;
		for (i = 0; bin[i]; i++) {
			x = merge(bin[i], x);
			bin[i] = NULL;
		}
		bin[i] = x;
	} while ((n = SQ_POP_DUE(Q, &pq->q, pq->gkey)) != NULL);
	for (i = 0; i < 64; i++)
		if (bin[i])
			g = g ? merge(bin[i], g) : bin[i];
	for (x = g, y = g->next; y; x = y, y = after) {
		after = y->next;
		add_child(x, y);
	}
	g->next = g->prev = NULL;
	pq->group = g;
}

static tw_event *pq_first(const tw_pq *pq)
{
	return pq->group;
}

static void pq_init(tw_pq *pq)
{
	SQ_INIT(Q, &pq->q);
	pq->group = NULL;
}

void tw_pq_enqueue(tw_pq *pq, tw_event *e)
{
	uint64_t key = ev_key(e);

	e->state.owner = TW_pe_pq;
	e->next = e->prev = e->sq.child = NULL;
	SQ_NODE_INIT(Q, &e->sq.node);
	if (++pq->n > pq->max_size)
		pq->max_size = pq->n;

	if (!pq->group) {
		pq->group = e;
		pq->gkey = key;
	} else if (key == pq->gkey) {
		pq->group = meld(pq->group, e);
		pq->group->next = pq->group->prev = NULL;
	} else if (key > pq->gkey) {
		SQ_ENQUEUE(Q, &pq->q, &e->sq.node, key);
	} else {
		SQ_ENQUEUE(Q, &pq->q, &pq->group->sq.node, pq->gkey);
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
	if (SQ_QUEUED(Q, &e->sq.node)) {
		/* the root of a parked heap: the rest parks by its new root */
		tw_event *rest = heap_rest(e);

		SQ_DEQUEUE(Q, &pq->q, &e->sq.node);
		if (rest)
			SQ_ENQUEUE(Q, &pq->q, &rest->sq.node, ev_key(rest));
	} else {
		heap_cut(e);
	}
	PQ_CHECK(pq);
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
		if (SQ_QUEUED(Q, &x->sq.node) != (parked && x == r))
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

static void pq_check_root(SQ_NODE(Q) *node, void *arg)
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

	if (SQ_CHECK(Q, &pq->q))
		tw_error(TW_LOC, "smartq queue check: the backend's check");
	if (!pq->group) {
		if (pq->n || !SQ_EMPTY(Q, &pq->q))
			tw_error(TW_LOC, "smartq queue check: no group, %u "
				 "events", pq->n);
		return;
	}
	w.n = heap_check(pq->group, pq->gkey, 0);
	SQ_VISIT(Q, &pq->q, pq_check_root, &w);
	if (w.n != pq->n || pq->n > pq->max_size)
		tw_error(TW_LOC, "smartq queue check: %u events found, %u "
			 "counted", w.n, pq->n);
}
#endif
#endif /* the group */

tw_pq *tw_pq_create(void)
{
	tw_pq *pq = (tw_pq *)tw_calloc(TW_LOC, "smartq queue", sizeof(*pq), 1);

	pq_init(pq);
	pq->n = pq->max_size = 0;
	return pq;
}

tw_stime tw_pq_minimum(tw_pq *pq)
{
	tw_event *e = pq_first(pq);

	return e ? e->recv_ts : TW_STIME_MAX;
}

#ifdef USE_RAND_TIEBREAKER
tw_event_sig const *tw_pq_minimum_sig_ptr(tw_pq const *pq)
{
	tw_event *e = pq_first(pq);

	return e ? &e->sig : &g_tw_max_sig;
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
