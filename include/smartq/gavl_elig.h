/* SPDX-License-Identifier: MIT */
/*
 * smartq/gavl_elig.h - eligible pick on a GAVL tree (KIND = egavl)
 *
 * What smartq/rb_elig.h is for rb, on gavl: the gavl queue (ordered by
 * key, a deadline) whose nodes also carry an eligibility value elig, and
 * sq_egavl_pick_eligible(q, limit), the first node in key order whose
 * elig is at most limit, in O(log n).
 *
 *   operation       cost       notes
 *   enqueue         O(log n)   as gavl, plus a walk up while the new elig
 *                              lowers a subtree's minimum
 *   first           O(1)       the cached first node
 *   pick_eligible   O(log n)   O(1) when the first node is eligible
 *   pop             O(log n)   still a cut without rotations, plus a walk
 *                              up while a minimum rises
 *   dequeue         O(log n)   as gavl, plus that walk
 *   requeue         O(log n)   in place when the order holds
 *   set_elig        O(log n)   a walk up while a minimum changes
 *
 * The augment.  Every node keeps eg_min, the smallest elig in its
 * subtree:
 *
 *   (6) eg_min(x) = min(elig(x), eg_min(left(x)), eg_min(right(x))),
 *
 * on top of gavl's (1)-(5) (gavl.h), and sq_egavl_check() verifies all of
 * them.  The pick is rb_elig.h's: one path down, left while the left
 * subtree holds an eligible node, else this node if eligible, else right.
 *
 * The tree is gavl's, balancing code and all, through gavl.h's hooks
 * (struct sq_gavl__aug, sq_gavl__rotated_fn), which the plain gavl passes
 * as NULL.  The cut-first pop changes no shape but its own: the first
 * node's right subtree moves up whole, so only the minima from its parent
 * up can change, and the walk that fixes them ends at the first that
 * stays.  The node embeds a struct sq_gavl_node: its key reads as
 * n->gavl.key, or SQ_KEY(egavl, n).
 */
#ifndef SMARTQ_GAVL_ELIG_H
#define SMARTQ_GAVL_ELIG_H

#include "common.h"
#include "gavl.h"

/**
 * struct sq_egavl_node - the link a user embeds in its own struct
 * @gavl:   the tree node; @gavl.key is the key (deadline) the node is
 *          queued with: read it freely, change it only through
 *          sq_egavl_requeue()
 * @elig:   the eligibility value; read it freely, change it only through
 *          sq_egavl_set_elig() (0 after sq_egavl_node_init())
 * @eg_min: the smallest @elig in this node's subtree (internal)
 */
struct sq_egavl_node {
	struct sq_gavl_node gavl;
	uint64_t elig;
	uint64_t eg_min;
};

/**
 * struct sq_egavl - the queue
 * @eg_tree: the GAVL tree, first cached (internal)
 */
struct sq_egavl {
	struct sq_gavl eg_tree;
};

/* The sq_egavl_node that holds tree node @g (not NULL). */
SQ__INLINE struct sq_egavl_node *sq_egavl__node(struct sq_gavl_node *g)
{
	return sq_entry(g, struct sq_egavl_node, gavl);
}

/* (6) at @g, from its children's minima. */
SQ__INLINE uint64_t sq_egavl__compute(struct sq_gavl_node *g)
{
	uint64_t m = sq_egavl__node(g)->elig, c;

	if (g->gv_left) {
		c = sq_egavl__node(g->gv_left)->eg_min;
		m = c < m ? c : m;
	}
	if (g->gv_right) {
		c = sq_egavl__node(g->gv_right)->eg_min;
		m = c < m ? c : m;
	}
	return m;
}

/* ---- the hooks (struct sq_gavl__aug, sq_gavl__rotated_fn) ---------------- */

SQ__INLINE void sq_egavl__rotated(struct sq_gavl_node *old,
				  struct sq_gavl_node *top)
{
	sq_egavl__node(top)->eg_min = sq_egavl__node(old)->eg_min;
	sq_egavl__node(old)->eg_min = sq_egavl__compute(old);
}

/* @from's minimum whatever it held, then up to @stop (not included),
 * ending at the first minimum that stays: none above it changes either. */
static inline void sq_egavl__propagate(struct sq_gavl_node *from,
				       const struct sq_gavl_node *stop)
{
	if (from == stop)
		return;
	sq_egavl__node(from)->eg_min = sq_egavl__compute(from);
	while ((from = from->gv_parent) != stop) {
		SQ__STEP(1);
		struct sq_egavl_node *n = sq_egavl__node(from);
		uint64_t m = sq_egavl__compute(from);

		if (m == n->eg_min)
			return;
		n->eg_min = m;
	}
}

SQ__SLOW void sq_egavl__insert_fix(struct sq_gavl *q, struct sq_gavl_node *x,
				   struct sq_gavl_node *y, int b, int d, int dy)
{
	sq_gavl__insert_fix_aug(q, x, y, b, d, dy, sq_egavl__rotated);
}

SQ__SLOW struct sq_gavl_node *sq_egavl__fix(struct sq_gavl *q,
					    struct sq_gavl_node *x, unsigned s)
{
	return sq_gavl__fix_aug(q, x, s, sq_egavl__rotated);
}

static const struct sq_gavl__aug sq_egavl__aug = {
	sq_egavl__propagate, sq_egavl__insert_fix, sq_egavl__fix
};

/* ---- public API --------------------------------------------------------- */

/**
 * sq_egavl_init - make an empty queue
 * @q: the queue
 * Return: nothing.
 * Complexity: O(1).
 */
static inline void sq_egavl_init(struct sq_egavl *q)
{
	sq_gavl_init(&q->eg_tree);
}

/**
 * sq_egavl_init_at - make an empty queue whose clock starts at @now
 * @q:   the queue
 * @now: ignored: a tree has no clock
 * Return: nothing.
 * Complexity: O(1).
 */
static inline void sq_egavl_init_at(struct sq_egavl *q, uint64_t now)
{
	(void)now;
	sq_egavl_init(q);
}

/* the clock verbs: no clock, exact (common.h) */
SQ__NO_CLOCK(egavl)

/**
 * sq_egavl_node_init - mark a node as not queued, with elig 0
 * @n: the node
 * Return: nothing.
 * Complexity: O(1).
 */
static inline void sq_egavl_node_init(struct sq_egavl_node *n)
{
	sq_gavl_node_init(&n->gavl);
	n->elig = 0;
	n->eg_min = 0;
}

/**
 * sq_egavl_queued - is a node on a queue now
 * @n: a node that went through sq_egavl_node_init() at least once
 * Return: true between enqueue and dequeue/pop, false otherwise.
 * Complexity: O(1).
 */
SQ__INLINE bool sq_egavl_queued(const struct sq_egavl_node *n)
{
	return sq_gavl_queued(&n->gavl);
}

/**
 * sq_egavl_empty - is the queue empty
 * @q: the queue
 * Return: true if no node is queued.
 * Complexity: O(1).
 */
static inline bool sq_egavl_empty(const struct sq_egavl *q)
{
	return sq_gavl_empty(&q->eg_tree);
}

/**
 * sq_egavl_count - number of queued nodes
 * @q: the queue
 * Return: the count.
 * Complexity: O(1).
 */
static inline size_t sq_egavl_count(const struct sq_egavl *q)
{
	return sq_gavl_count(&q->eg_tree);
}

/**
 * sq_egavl_first - the node with the smallest key, eligible or not
 * @q: the queue
 * Return: the first node (earliest queued among equal keys), NULL if empty.
 * Complexity: O(1), the cached first node.
 */
static inline struct sq_egavl_node *sq_egavl_first(const struct sq_egavl *q)
{
	struct sq_gavl_node *g = q->eg_tree.gv_first;

	return g ? sq_egavl__node(g) : NULL;
}

/**
 * sq_egavl_key - the key a node is queued with (SQ_KEY)
 * @n: a node
 * Return: n->gavl.key.
 * Complexity: O(1).
 */
static inline uint64_t sq_egavl_key(const struct sq_egavl_node *n)
{
	return n->gavl.key;
}

/**
 * sq_egavl_next - the node after @n in queue order
 * @n: a queued node
 * Return: the next node, NULL if @n is the last.
 * Complexity: O(log n), amortised O(1) over a whole walk.
 */
static inline struct sq_egavl_node *
sq_egavl_next(const struct sq_egavl_node *n)
{
	struct sq_gavl_node *g = sq_gavl_next(&n->gavl);

	return g ? sq_egavl__node(g) : NULL;
}

/**
 * sq_egavl_prev - the node before @n in queue order
 * @n: a queued node
 * Return: the previous node, NULL if @n is the first.
 * Complexity: O(log n), amortised O(1) over a whole walk.
 */
static inline struct sq_egavl_node *
sq_egavl_prev(const struct sq_egavl_node *n)
{
	struct sq_gavl_node *g = sq_gavl_prev(&n->gavl);

	return g ? sq_egavl__node(g) : NULL;
}

/**
 * sq_egavl_pick_eligible - the first node in key order that is eligible
 * @q:     the queue
 * @limit: a node is eligible when its elig is <= @limit
 * Return: of the nodes with elig <= @limit, the one with the smallest key
 *         (earliest queued among equal keys); NULL if there is none.  The
 *         node stays queued.
 * Complexity: O(1) when the first node is eligible, else O(log n): one
 *             path down, steered by the subtree minima.
 */
static inline struct sq_egavl_node *
sq_egavl_pick_eligible(const struct sq_egavl *q, uint64_t limit)
{
	struct sq_gavl_node *g = q->eg_tree.gv_first, *left;

	if (!g)
		return NULL;
	if (sq_egavl__node(g)->elig > limit) {
		/* the left subtree first, if it holds an eligible node; then
		 * this node; then the right: NULL there means none is */
		for (g = q->eg_tree.gv_root; g; ) {
			SQ__STEP(1);
			left = g->gv_left;
			if (left && sq_egavl__node(left)->eg_min <= limit)
				g = left;
			else if (sq_egavl__node(g)->elig <= limit)
				break;
			else
				g = g->gv_right;
		}
		if (!g)
			return NULL;
	}
	return sq_egavl__node(g);
}

/**
 * sq_egavl_enqueue - insert a node with a key, at its current elig
 * @q:   the queue
 * @n:   a node that is not queued
 * @key: its key; @n goes after every node already queued with this key
 * Return: true if @n is now the first node.
 * Complexity: O(log n): one descent, at most one (double) rotation.
 */
static inline bool sq_egavl_enqueue(struct sq_egavl *q, struct sq_egavl_node *n,
				    uint64_t key)
{
	SQ__MISUSE(sq_egavl_queued(n), "sq_egavl_enqueue",
		   "node is already queued");
	return sq_gavl__insert_aug(&q->eg_tree, &n->gavl, key, NULL,
				   &sq_egavl__aug);
}

/**
 * sq_egavl_dequeue - remove a queued node
 * @q: the queue
 * @n: a node queued on @q (SQ_DEBUG stops the program when it is queued
 *     on another queue)
 * Return: true if @n was the first node; @n is not queued afterwards.
 * Complexity: O(log n); the first node is cut without rotations (SQ_DEBUG
 *             adds a walk to the root).
 */
static inline bool sq_egavl_dequeue(struct sq_egavl *q, struct sq_egavl_node *n)
{
	bool was_first = q->eg_tree.gv_first == &n->gavl;

	SQ__MISUSE(!sq_egavl_queued(n), "sq_egavl_dequeue",
		   "node is not queued");
	SQ__MISUSE(!sq_gavl__on(&q->eg_tree, &n->gavl), "sq_egavl_dequeue",
		   "node is on another queue");
	sq_gavl__remove_aug(&q->eg_tree, &n->gavl, &sq_egavl__aug);
	return was_first;
}

/**
 * sq_egavl_pop - remove and return the first node, eligible or not
 * @q: the queue
 * Return: the node that was first, not queued any more; NULL if empty.
 * Complexity: O(log n), no rotation (the cut).
 */
static inline struct sq_egavl_node *sq_egavl_pop(struct sq_egavl *q)
{
	struct sq_gavl_node *f = q->eg_tree.gv_first;

	if (!f)
		return NULL;
	sq_gavl__remove_aug(&q->eg_tree, f, &sq_egavl__aug);
	return sq_egavl__node(f);
}

/**
 * sq_egavl_pop_due - pop the first node if its key is due
 * @q:   the queue
 * @now: the caller's clock
 * Return: the first node, popped, if its key is <= @now; else NULL and
 *         nothing changes.
 * Complexity: as sq_egavl_pop().
 */
static inline struct sq_egavl_node *sq_egavl_pop_due(struct sq_egavl *q,
						     uint64_t now)
{
	const struct sq_gavl_node *f = q->eg_tree.gv_first;

	return f && f->key <= now ? sq_egavl_pop(q) : NULL;
}

/**
 * sq_egavl_requeue - give a node a new key, keeping its elig
 * @q:   the queue
 * @n:   a node queued on @q, or a node that is not queued (it is
 *       enqueued); SQ_DEBUG stops the program when it is on another queue
 * @key: the new key; @n ends after every other node with this key
 * Return: true if the first node or the first key changed.
 * Complexity: O(log n); in place when the order still holds (SQ_DEBUG
 *             adds a walk to the root).
 */
static inline bool sq_egavl_requeue(struct sq_egavl *q, struct sq_egavl_node *n,
				    uint64_t key)
{
	if (!sq_egavl_queued(n))
		return sq_gavl__insert_aug(&q->eg_tree, &n->gavl, key, NULL,
					   &sq_egavl__aug);
	SQ__MISUSE(!sq_gavl__on(&q->eg_tree, &n->gavl), "sq_egavl_requeue",
		   "node is on another queue");
	return sq_gavl__requeue_aug(&q->eg_tree, &n->gavl, key, NULL,
				    &sq_egavl__aug);
}

/**
 * sq_egavl_set_elig - give a node a new eligibility value
 * @q:    the queue @n is on; read only by SQ_DEBUG's check that @n is
 *        on it, when @n is queued
 * @n:    a node, queued on @q or not
 * @elig: the new value
 * Return: nothing.  The node keeps its place (its key is unchanged).
 * Complexity: O(1) when not queued, else O(log n): a walk up that ends
 *             where a subtree's minimum stays (SQ_DEBUG: to the root).
 */
static inline void sq_egavl_set_elig(struct sq_egavl *q,
				     struct sq_egavl_node *n, uint64_t elig)
{
	(void)q;	/* read only under SQ_DEBUG */
	SQ__MISUSE(sq_egavl_queued(n) && !sq_gavl__on(&q->eg_tree, &n->gavl),
		   "sq_egavl_set_elig", "node is on another queue");
	n->elig = elig;
	if (sq_egavl_queued(n))
		sq_egavl__propagate(&n->gavl, NULL);
}

/* The user's function of visit, visit_until or find, and visit's count,
 * for gavl.h's walk and find on struct sq_gavl_node */
struct sq_egavl__call {
	void (*each)(struct sq_egavl_node *, void *);
	bool (*until)(struct sq_egavl_node *, void *);
	bool (*match)(const struct sq_egavl_node *, void *);
	void *arg;
	size_t seen;
};

static inline bool sq_egavl__each_one(struct sq_gavl_node *g, void *p)
{
	struct sq_egavl__call *c = (struct sq_egavl__call *)p;

	c->each(sq_egavl__node(g), c->arg);
	c->seen++;
	return false;
}

static inline bool sq_egavl__until_one(struct sq_gavl_node *g, void *p)
{
	const struct sq_egavl__call *c = (const struct sq_egavl__call *)p;

	return c->until(sq_egavl__node(g), c->arg);
}

static inline bool sq_egavl__match_one(const struct sq_gavl_node *g, void *p)
{
	const struct sq_egavl__call *c = (const struct sq_egavl__call *)p;

	return c->match(sq_entry_const(g, struct sq_egavl_node, gavl), c->arg);
}

/**
 * sq_egavl_visit - call a function once for every queued node
 * @q:   the queue
 * @fn:  called as fn(node, @arg), in queue order; it must not change the
 *       queue (SQ_DEBUG stops the program when the count changes)
 * @arg: passed through to @fn
 * Return: the number of nodes visited.
 * Complexity: O(n), no allocation, no recursion.
 */
static inline size_t sq_egavl_visit(const struct sq_egavl *q,
				    void (*fn)(struct sq_egavl_node *, void *),
				    void *arg)
{
	struct sq_egavl__call c = { NULL, NULL, NULL, NULL, 0 };

	c.each = fn;
	c.arg = arg;
	(void)sq_gavl__visit_until(&q->eg_tree, sq_egavl__each_one, &c,
				   "sq_egavl_visit");
	return c.seen;
}

/**
 * sq_egavl_visit_until - call a function on queued nodes until it says stop
 * @q:   the queue
 * @fn:  called as fn(node, @arg), in queue order, until it returns true;
 *       it must not change the queue (SQ_DEBUG stops the program when the
 *       count changes)
 * @arg: passed through to @fn
 * Return: the node for which @fn returned true, NULL if it never did.
 * Complexity: O(k) for k calls of @fn, amortised O(1) a step.
 */
static inline struct sq_egavl_node *
sq_egavl_visit_until(const struct sq_egavl *q,
		     bool (*fn)(struct sq_egavl_node *, void *), void *arg)
{
	struct sq_egavl__call c = { NULL, NULL, NULL, NULL, 0 };
	struct sq_gavl_node *g;

	c.until = fn;
	c.arg = arg;
	g = sq_gavl__visit_until(&q->eg_tree, sq_egavl__until_one, &c,
				 "sq_egavl_visit_until");
	return g ? sq_egavl__node(g) : NULL;
}

/**
 * sq_egavl_find - the first queued node with a key, and with a property
 * @q:     the queue
 * @key:   the key, exactly
 * @match: NULL for any node; else called as match(node, @arg) on the nodes
 *         with @key in queue order until it returns true; it must not
 *         change the queue (SQ_DEBUG stops the program when the count
 *         changes)
 * @arg:   passed through to @match
 * Return: the first node in queue order with @key for which @match holds,
 *         NULL if none.
 * Complexity: O(log n + t), as sq_gavl_find().
 */
static inline struct sq_egavl_node *
sq_egavl_find(const struct sq_egavl *q, uint64_t key,
	      bool (*match)(const struct sq_egavl_node *, void *), void *arg)
{
	struct sq_egavl__call c = { NULL, NULL, NULL, NULL, 0 };
	struct sq_gavl_node *g;

	c.match = match;
	c.arg = arg;
	g = sq_gavl__tie_find(&q->eg_tree, key,
			      match ? sq_egavl__match_one : NULL, &c, NULL,
			      "sq_egavl_find");
	return g ? sq_egavl__node(g) : NULL;
}

/**
 * sq_egavl_check - verify every invariant of the queue
 * @q: the queue
 * Return: 0 if gavl's invariants (1)-(5) and (6) hold, -1 otherwise
 *         (under SQ_DEBUG the broken invariant and the node are printed
 *         first).
 * Complexity: O(n), O(1) extra space.
 */
static inline int sq_egavl_check(const struct sq_egavl *q)
{
	struct sq_gavl_node *g;

	if (sq_gavl__tie_check(&q->eg_tree, NULL, "sq_egavl_check") != 0)
		return -1;
	/* (1)-(5) hold: the walk below ends, and meets every node once */
	for (g = q->eg_tree.gv_first; g; g = sq_gavl_next(g)) {
		SQ__STEP(1);
		SQ__CHECK(sq_egavl__node(g)->eg_min == sq_egavl__compute(g),
			  "sq_egavl_check", g,
			  "(6) a subtree minimum is not the least elig below");
	}
	return 0;
}

#endif /* SMARTQ_GAVL_ELIG_H */
