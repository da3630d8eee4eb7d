/* SPDX-License-Identifier: MIT */
/*
 * smartq/rb_elig.h - eligible pick on a red-black tree (KIND = erb)
 *
 * The rb queue (ordered by key: a deadline), whose nodes also carry an
 * eligibility value elig (a virtual runtime, a release time), and one
 * more question: sq_erb_pick_eligible(q, limit), the first node in key
 * order whose elig is at most limit, in O(log n).  That is EEVDF's pick
 * (Linux 6.6 on): the eligible task with the earliest virtual deadline.
 * The scheduler of an EDF system with release times asks the same.
 *
 *   operation       cost       notes
 *   enqueue         O(log n)   as rb, plus a walk up while the new elig
 *                              lowers a subtree's minimum
 *   first           O(1)       the cached leftmost
 *   pick_eligible   O(log n)   O(1) when the first node is eligible
 *   pop, dequeue    O(log n)   as rb, plus a walk up while a minimum rises
 *   requeue         O(log n)   in place when the order holds
 *   set_elig        O(log n)   a walk up while a minimum changes
 *
 * The augment.  Every node keeps erb_min, the smallest elig in its
 * subtree:
 *
 *   (9) erb_min(x) = min(elig(x), erb_min(left(x)), erb_min(right(x))),
 *       a missing child counting as no constraint,
 *
 * on top of rb's (1)-(8) (rbtree.h), and sq_erb_check() verifies all of
 * them.  The pick descends from the root: a left subtree whose minimum is
 * within the limit holds the answer (its nodes come first); else the node
 * itself, if eligible; else the answer is in the right subtree, whose
 * minimum then must be within the limit.  One path, no backtracking.
 *
 * The tree is rb's, balancing code and all: rbtree.h's shape-changing
 * bodies take hooks (struct sq_rb__aug, sq_rb__rotated_fn) that this
 * file supplies and the plain rb passes as NULL, so rb's code is the same
 * as without them and the augment costs nothing there.  The hooks follow
 * the kernel's rbtree_augmented.h: a rotation hands the lifted node the
 * old top's minimum and recomputes the old top's; insert, erase and pop
 * recompute from the lowest changed node up, before the fix-up rotates,
 * and stop at the first minimum that does not change.
 *
 * Eligibility is "elig <= limit" on uint64_t, compared as unsigned; map a
 * signed or wrapping clock first (sq_key_from_i64(), or the caller's own
 * offset from a base, as the kernel keys vruntime off min_vruntime).
 */
#ifndef SMARTQ_RB_ELIG_H
#define SMARTQ_RB_ELIG_H

#include "common.h"
#include "rbtree.h"

/**
 * struct sq_erb_node - the link a user embeds in its own struct
 * @key:     the key (deadline) the node is queued with; read it freely,
 *           change it only through sq_erb_requeue()
 * @rb_link: the tree link (internal; rbtree.h's layout rule: right after
 *           the key)
 * @elig:    the eligibility value; read it freely, change it only through
 *           sq_erb_set_elig() (0 after sq_erb_node_init())
 * @erb_min: the smallest @elig in this node's subtree (internal)
 */
struct sq_erb_node {
	uint64_t key;
	struct sq_rb__link rb_link;
	uint64_t elig;
	uint64_t erb_min;
};

/**
 * struct sq_erb - the queue
 * @erb_tree: the red-black tree, leftmost cached (internal)
 */
struct sq_erb {
	struct sq_rb erb_tree;
};

/* rbtree.h's layout rule: the key sits SQ_RB__KEY_AT bytes from the link. */
typedef char sq_erb__key_sits_where_rbtree_reads_it
	[(ptrdiff_t)offsetof(struct sq_erb_node, key) -
	 (ptrdiff_t)offsetof(struct sq_erb_node, rb_link) == SQ_RB__KEY_AT ?
	 1 : -1];

/* The sq_erb_node that holds link @l (not NULL). */
SQ__INLINE struct sq_erb_node *sq_erb__node(struct sq_rb__link *l)
{
	return sq_entry(l, struct sq_erb_node, rb_link);
}

/* (9) at @l, from its children's minima. */
SQ__INLINE uint64_t sq_erb__compute(struct sq_rb__link *l)
{
	uint64_t m = sq_erb__node(l)->elig, c;

	if (l->rb_left) {
		c = sq_erb__node(l->rb_left)->erb_min;
		m = c < m ? c : m;
	}
	if (l->rb_right) {
		c = sq_erb__node(l->rb_right)->erb_min;
		m = c < m ? c : m;
	}
	return m;
}

/* ---- the hooks (struct sq_rb__aug, sq_rb__rotated_fn) -------------------- */

SQ__INLINE void sq_erb__rotated(struct sq_rb__link *old,
				struct sq_rb__link *top)
{
	sq_erb__node(top)->erb_min = sq_erb__node(old)->erb_min;
	sq_erb__node(old)->erb_min = sq_erb__compute(old);
}

/* @from's minimum whatever it held, then up to @stop (not included),
 * ending at the first minimum that stays: none above it changes either. */
static inline void sq_erb__propagate(struct sq_rb__link *from,
				     const struct sq_rb__link *stop)
{
	if (from == stop)
		return;
	sq_erb__node(from)->erb_min = sq_erb__compute(from);
	while ((from = sq_rb__parent(from)) != stop) {
		SQ__STEP(1);
		struct sq_erb_node *n = sq_erb__node(from);
		uint64_t m = sq_erb__compute(from);

		if (m == n->erb_min)
			return;
		n->erb_min = m;
	}
}

SQ__SLOW void sq_erb__insert_fixup(struct sq_rb *q, struct sq_rb__link *n)
{
	sq_rb__insert_fixup_aug(q, n, sq_erb__rotated);
}

SQ__SLOW void sq_erb__erase_fixup(struct sq_rb *q, struct sq_rb__link *p,
				  unsigned side)
{
	sq_rb__erase_fixup_aug(q, p, side, sq_erb__rotated);
}

static const struct sq_rb__aug sq_erb__aug = {
	sq_erb__propagate, sq_erb__insert_fixup, sq_erb__erase_fixup
};

/* Link @n with @key (rbtree.h's insert gives it its minimum). */
SQ__INLINE bool sq_erb__insert(struct sq_erb *q, struct sq_erb_node *n,
			       uint64_t key)
{
	return sq_rb__insert_aug(&q->erb_tree, &n->rb_link, key, NULL,
				 &sq_erb__aug);
}

/* ---- public API --------------------------------------------------------- */

/**
 * sq_erb_init - make an empty queue
 * @q: the queue
 * Return: nothing.
 * Complexity: O(1).
 */
static inline void sq_erb_init(struct sq_erb *q)
{
	sq_rb_init(&q->erb_tree);
}

/**
 * sq_erb_init_at - make an empty queue whose clock starts at @now
 * @q:   the queue
 * @now: ignored: a tree has no clock
 * Return: nothing.
 * Complexity: O(1).
 */
static inline void sq_erb_init_at(struct sq_erb *q, uint64_t now)
{
	(void)now;
	sq_erb_init(q);
}

/* the clock verbs: no clock, exact (common.h) */
SQ__NO_CLOCK(erb)

/**
 * sq_erb_node_init - mark a node as not queued, with elig 0
 * @n: the node
 * Return: nothing.
 * Complexity: O(1).
 */
static inline void sq_erb_node_init(struct sq_erb_node *n)
{
	n->key = 0;
	n->rb_link.rb_parent_color = (uintptr_t)&n->rb_link;
	n->rb_link.rb_left = NULL;
	n->rb_link.rb_right = NULL;
	n->elig = 0;
	n->erb_min = 0;
}

/**
 * sq_erb_queued - is a node on a queue now
 * @n: a node that went through sq_erb_node_init() at least once
 * Return: true between enqueue and dequeue/pop, false otherwise.
 * Complexity: O(1).
 */
SQ__INLINE bool sq_erb_queued(const struct sq_erb_node *n)
{
	return n->rb_link.rb_parent_color != (uintptr_t)&n->rb_link;
}

/**
 * sq_erb_empty - is the queue empty
 * @q: the queue
 * Return: true if no node is queued.
 * Complexity: O(1).
 */
static inline bool sq_erb_empty(const struct sq_erb *q)
{
	return sq_rb_empty(&q->erb_tree);
}

/**
 * sq_erb_count - number of queued nodes
 * @q: the queue
 * Return: the count.
 * Complexity: O(1).
 */
static inline size_t sq_erb_count(const struct sq_erb *q)
{
	return sq_rb_count(&q->erb_tree);
}

/**
 * sq_erb_first - the node with the smallest key, eligible or not
 * @q: the queue
 * Return: the first node (earliest queued among equal keys), NULL if empty.
 * Complexity: O(1), the cached leftmost.
 */
static inline struct sq_erb_node *sq_erb_first(const struct sq_erb *q)
{
	struct sq_rb__link *l = q->erb_tree.rb_leftmost;

	return l ? sq_erb__node(l) : NULL;
}

/**
 * sq_erb_key - the key a node is queued with (SQ_KEY)
 * @n: a node
 * Return: n->key.
 * Complexity: O(1).
 */
static inline uint64_t sq_erb_key(const struct sq_erb_node *n)
{
	return n->key;
}

/**
 * sq_erb_next - the node after @n in queue order
 * @n: a queued node
 * Return: the next node, NULL if @n is the last.
 * Complexity: O(log n), amortised O(1) over a whole walk.
 */
static inline struct sq_erb_node *sq_erb_next(const struct sq_erb_node *n)
{
	struct sq_rb__link *l = sq_rb__next(&n->rb_link);

	return l ? sq_erb__node(l) : NULL;
}

/**
 * sq_erb_prev - the node before @n in queue order
 * @n: a queued node
 * Return: the previous node, NULL if @n is the first.
 * Complexity: O(log n), amortised O(1) over a whole walk.
 */
static inline struct sq_erb_node *sq_erb_prev(const struct sq_erb_node *n)
{
	struct sq_rb__link *l = sq_rb__prev(&n->rb_link);

	return l ? sq_erb__node(l) : NULL;
}

/**
 * sq_erb_pick_eligible - the first node in key order that is eligible
 * @q:     the queue
 * @limit: a node is eligible when its elig is <= @limit
 * Return: of the nodes with elig <= @limit, the one with the smallest key
 *         (earliest queued among equal keys); NULL if there is none.  The
 *         node stays queued.
 * Complexity: O(1) when the first node is eligible, else O(log n): one
 *             path down, steered by the subtree minima.
 */
static inline struct sq_erb_node *sq_erb_pick_eligible(const struct sq_erb *q,
							uint64_t limit)
{
	struct sq_rb__link *l = q->erb_tree.rb_leftmost, *left;

	if (!l)
		return NULL;
	if (sq_erb__node(l)->elig > limit) {
		/* the left subtree first, if it holds an eligible node; then
		 * this node; then the right: NULL there means none is */
		for (l = q->erb_tree.rb_root; l; ) {
			SQ__STEP(1);
			left = l->rb_left;
			if (left && sq_erb__node(left)->erb_min <= limit)
				l = left;
			else if (sq_erb__node(l)->elig <= limit)
				break;
			else
				l = l->rb_right;
		}
		if (!l)
			return NULL;
	}
	/* one exit: the node is converted from its link once */
	return sq_erb__node(l);
}

/**
 * sq_erb_enqueue - insert a node with a key, at its current elig
 * @q:   the queue
 * @n:   a node that is not queued
 * @key: its key; @n goes after every node already queued with this key
 * Return: true if @n is now the first node.
 * Complexity: O(log n); at most two rotations.
 */
static inline bool sq_erb_enqueue(struct sq_erb *q, struct sq_erb_node *n,
				  uint64_t key)
{
	SQ__MISUSE(sq_erb_queued(n), "sq_erb_enqueue",
		   "node is already queued");
	return sq_erb__insert(q, n, key);
}

/**
 * sq_erb_dequeue - remove a queued node
 * @q: the queue
 * @n: a node queued on @q (SQ_DEBUG stops the program when it is queued
 *     on another queue)
 * Return: true if @n was the first node; @n is not queued afterwards.
 * Complexity: O(log n); at most three rotations (SQ_DEBUG adds a walk to
 *             the root).
 */
static inline bool sq_erb_dequeue(struct sq_erb *q, struct sq_erb_node *n)
{
	bool was_first = q->erb_tree.rb_leftmost == &n->rb_link;

	SQ__MISUSE(!sq_erb_queued(n), "sq_erb_dequeue", "node is not queued");
	SQ__MISUSE(!sq_rb__on(&q->erb_tree, &n->rb_link), "sq_erb_dequeue",
		   "node is on another queue");
	sq_rb__remove_aug(&q->erb_tree, &n->rb_link, &sq_erb__aug);
	return was_first;
}

/**
 * sq_erb_pop - remove and return the first node, eligible or not
 * @q: the queue
 * Return: the node that was first, not queued any more; NULL if empty.
 * Complexity: O(log n).
 */
static inline struct sq_erb_node *sq_erb_pop(struct sq_erb *q)
{
	struct sq_rb__link *l = sq_rb__pop_aug(&q->erb_tree, &sq_erb__aug);

	if (SQ__UNLIKELY(!l))
		return NULL;
	sq_rb__unlink(l);
	return sq_erb__node(l);
}

/**
 * sq_erb_pop_due - pop the first node if its key is due
 * @q:   the queue
 * @now: the caller's clock
 * Return: the first node, popped, if its key is <= @now; else NULL and
 *         nothing changes.
 * Complexity: as sq_erb_pop().
 */
static inline struct sq_erb_node *sq_erb_pop_due(struct sq_erb *q,
						 uint64_t now)
{
	const struct sq_rb__link *f = q->erb_tree.rb_leftmost;

	return f && sq_rb__key(f) <= now ? sq_erb_pop(q) : NULL;
}

/**
 * sq_erb_requeue - give a node a new key, keeping its elig
 * @q:   the queue
 * @n:   a node queued on @q, or a node that is not queued (it is
 *       enqueued); SQ_DEBUG stops the program when it is on another queue
 * @key: the new key; @n ends after every other node with this key
 * Return: true if the first node or the first key changed.
 * Complexity: O(log n); in place when the order still holds (SQ_DEBUG
 *             adds a walk to the root).
 */
static inline bool sq_erb_requeue(struct sq_erb *q, struct sq_erb_node *n,
				  uint64_t key)
{
	if (!sq_erb_queued(n))
		return sq_erb__insert(q, n, key);
	SQ__MISUSE(!sq_rb__on(&q->erb_tree, &n->rb_link), "sq_erb_requeue",
		   "node is on another queue");
	return sq_rb__requeue_aug(&q->erb_tree, &n->rb_link, key, NULL,
				  &sq_erb__aug);
}

/**
 * sq_erb_set_elig - give a node a new eligibility value
 * @q:    the queue @n is on; read only by SQ_DEBUG's check that @n is
 *        on it, when @n is queued
 * @n:    a node, queued on @q or not
 * @elig: the new value
 * Return: nothing.  The node keeps its place (its key is unchanged).
 * Complexity: O(1) when not queued, else O(log n): a walk up that ends
 *             where a subtree's minimum stays (SQ_DEBUG: to the root).
 */
static inline void sq_erb_set_elig(struct sq_erb *q, struct sq_erb_node *n,
				   uint64_t elig)
{
	(void)q;	/* read only under SQ_DEBUG */
	SQ__MISUSE(sq_erb_queued(n) && !sq_rb__on(&q->erb_tree, &n->rb_link),
		   "sq_erb_set_elig", "node is on another queue");
	n->elig = elig;
	if (sq_erb_queued(n))
		sq_erb__propagate(&n->rb_link, NULL);
}

/* The user's function of visit, visit_until or find, and visit's count,
 * for rbtree.h's link-level walk and find (sq_rb__walk(), sq_rb__seek()) */
struct sq_erb__call {
	void (*each)(struct sq_erb_node *, void *);
	bool (*until)(struct sq_erb_node *, void *);
	bool (*match)(const struct sq_erb_node *, void *);
	void *arg;
	size_t seen;
};

static inline bool sq_erb__each_one(struct sq_rb__link *l, void *p)
{
	struct sq_erb__call *c = (struct sq_erb__call *)p;

	c->each(sq_erb__node(l), c->arg);
	c->seen++;
	return false;
}

static inline bool sq_erb__until_one(struct sq_rb__link *l, void *p)
{
	const struct sq_erb__call *c = (const struct sq_erb__call *)p;

	return c->until(sq_erb__node(l), c->arg);
}

static inline bool sq_erb__match_one(const struct sq_rb__link *l, void *p)
{
	const struct sq_erb__call *c = (const struct sq_erb__call *)p;

	return c->match(sq_entry_const(l, struct sq_erb_node, rb_link),
			c->arg);
}

/**
 * sq_erb_visit - call a function once for every queued node
 * @q:   the queue
 * @fn:  called as fn(node, @arg), in queue order; it must not change the
 *       queue (SQ_DEBUG stops the program when the count changes)
 * @arg: passed through to @fn
 * Return: the number of nodes visited.
 * Complexity: O(n), no allocation, no recursion.
 */
static inline size_t sq_erb_visit(const struct sq_erb *q,
				  void (*fn)(struct sq_erb_node *, void *),
				  void *arg)
{
	struct sq_erb__call c = { NULL, NULL, NULL, NULL, 0 };

	c.each = fn;
	c.arg = arg;
	(void)sq_rb__walk(&q->erb_tree, sq_erb__each_one, &c, "sq_erb_visit");
	return c.seen;
}

/**
 * sq_erb_visit_until - call a function on queued nodes until it says stop
 * @q:   the queue
 * @fn:  called as fn(node, @arg), in queue order, until it returns true;
 *       it must not change the queue (SQ_DEBUG stops the program when the
 *       count changes)
 * @arg: passed through to @fn
 * Return: the node for which @fn returned true, NULL if it never did.
 * Complexity: O(k) for k calls of @fn, amortised O(1) a step.
 */
static inline struct sq_erb_node *
sq_erb_visit_until(const struct sq_erb *q,
		   bool (*fn)(struct sq_erb_node *, void *), void *arg)
{
	struct sq_erb__call c = { NULL, NULL, NULL, NULL, 0 };
	struct sq_rb__link *l;

	c.until = fn;
	c.arg = arg;
	l = sq_rb__walk(&q->erb_tree, sq_erb__until_one, &c,
			"sq_erb_visit_until");
	return l ? sq_erb__node(l) : NULL;
}

/**
 * sq_erb_find - the first queued node with a key, and with a property
 * @q:     the queue
 * @key:   the key, exactly
 * @match: NULL for any node; else called as match(node, @arg) on the nodes
 *         with @key in queue order until it returns true; it must not
 *         change the queue (SQ_DEBUG stops the program when the count
 *         changes)
 * @arg:   passed through to @match
 * Return: the first node in queue order with @key for which @match holds,
 *         NULL if none.
 * Complexity: O(log n + t), as sq_rb_find().
 */
static inline struct sq_erb_node *
sq_erb_find(const struct sq_erb *q, uint64_t key,
	    bool (*match)(const struct sq_erb_node *, void *), void *arg)
{
	struct sq_erb__call c = { NULL, NULL, NULL, NULL, 0 };
	struct sq_rb__link *l;

	c.match = match;
	c.arg = arg;
	l = sq_rb__seek(&q->erb_tree, key, match ? sq_erb__match_one : NULL,
			&c, "sq_erb_find");
	return l ? sq_erb__node(l) : NULL;
}

/**
 * sq_erb_check - verify every invariant of the queue
 * @q: the queue
 * Return: 0 if rb's properties (1)-(8) and (9) hold, -1 otherwise (under
 *         SQ_DEBUG the broken invariant and the node are printed first).
 * Complexity: O(n), O(1) extra space.
 */
static inline int sq_erb_check(const struct sq_erb *q)
{
	struct sq_rb__link *l;

	if (sq_rb__tie_check(&q->erb_tree, NULL, "sq_erb_check") != 0)
		return -1;
	/* (1)-(8) hold: the walk below ends, and meets every node once */
	for (l = q->erb_tree.rb_leftmost; l; l = sq_rb__next(l)) {
		SQ__STEP(1);
		SQ__CHECK(sq_erb__node(l)->erb_min == sq_erb__compute(l),
			  "sq_erb_check", l,
			  "(9) a subtree minimum is not the least elig below");
	}
	return 0;
}

#endif /* SMARTQ_RB_ELIG_H */
