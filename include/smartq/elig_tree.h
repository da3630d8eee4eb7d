/* SPDX-License-Identifier: MIT */
/*
 * smartq/elig_tree.h - the eligible pick, once for rb and gavl (erb, egavl)
 *
 * The kinds erb (smartq/rb_elig.h) and egavl (smartq/gavl_elig.h) are the
 * rb and gavl queues (ordered by key: a deadline) whose nodes also carry
 * an eligibility value elig (a virtual runtime, a release time), and one
 * more question: sq_K_pick_eligible(q, limit), the first node in key
 * order whose elig is at most limit, in O(log n).  That is EEVDF's pick
 * (Linux 6.6 on): the eligible task with the earliest virtual deadline.
 * The scheduler of an EDF system with release times asks the same.
 *
 *   operation       cost       notes
 *   enqueue         O(log n)   as the tree's, plus a walk up while the new
 *                              elig lowers a subtree's minimum
 *   first           O(1)       the tree's cached first node
 *   pick_eligible   O(log n)   O(1) when the first node is eligible
 *   pop, dequeue    O(log n)   as the tree's (gavl's pop still cuts without
 *                              rotating), plus a walk up while a minimum
 *                              rises
 *   requeue         O(log n)   in place when the order holds
 *   set_elig        O(log n)   a walk up while a minimum changes
 *
 * The augment.  Every node keeps the smallest elig in its subtree:
 *
 *   (A) min(x) = min(elig(x), min(left(x)), min(right(x))),
 *       a missing child counting as no constraint,
 *
 * on top of the tree's own invariants ((9) after rb's (1)-(8) in
 * rb_elig.h, (6) after gavl's (1)-(5) in gavl_elig.h), and sq_K_check()
 * verifies all of them.  The pick descends from the root: a left subtree
 * whose minimum is within the limit holds the answer (its nodes come
 * first); else the node itself, if eligible; else the answer is in the
 * right subtree, whose minimum then must be within the limit.  One path,
 * no backtracking.
 *
 * The tree is the plain kind's, balancing code and all, through its hooks
 * (struct sq_rb__aug, struct sq_gavl__aug; NULL for the plain kind, which
 * then pays nothing): a rotation hands the lifted node the old top's
 * minimum and recomputes the old top's (sq_elig__rotated()); insert,
 * erase and pop recompute from the lowest changed node up, before the
 * fix-up rotates, and stop at the first minimum that does not change
 * (sq_elig__propagate()).
 *
 * One layer for two link types.  The functions below take a tree's link
 * as void * and the kind's struct sq_elig__tree, a constant table of how
 * to read its links.  They are always inlined and every caller passes the
 * table's address, so each kind gets the code a copy written for its own
 * link would have (no call through the table is left at -O2).  Two
 * token-pasting macros write the rest: SQ__ELIG_TREE() a kind's table and
 * typed hooks; SQ__ELIG_KIND() its verbs, each a call or two.
 *
 * Reading order: the table, the augment (compute, rotated, propagate),
 * the pick, the check; then the two macros, the verbs documented above
 * the second.  cppcheck's cross-file pass takes the functions one
 * expansion defines, which share its line, for one function and follows
 * calls none of them makes: the kinds' headers suppress its ctu findings
 * on those lines.
 *
 * Eligibility is "elig <= limit" on uint64_t, compared as unsigned; map a
 * signed or wrapping clock first (sq_key_from_i64(), or the caller's own
 * offset from a base, as the kernel keys vruntime off min_vruntime).
 */
#ifndef SMARTQ_ELIG_TREE_H
#define SMARTQ_ELIG_TREE_H

#include "common.h"

/**
 * struct sq_elig__tree - how the layer reads one kind's tree links
 * @left:    a link's left child, NULL if none
 * @right:   its right child, NULL if none
 * @parent:  its parent, NULL at the root
 * @next:    the link after it in key order, NULL after the last
 * @prev:    the link before it, NULL before the first
 * @node_at: bytes from a link to the start of its node (0 or less)
 * @elig_at: bytes from a link to its node's elig (SQ__ELIG_AT)
 * @min_at:  bytes from a link to its node's subtree minimum
 * @broken:  check()'s message for a wrong minimum, with the number the
 *           kind's header gives (A)
 */
struct sq_elig__tree {
	void *(*left)(const void *l);
	void *(*right)(const void *l);
	void *(*parent)(const void *l);
	void *(*next)(const void *l);
	void *(*prev)(const void *l);
	ptrdiff_t node_at, elig_at, min_at;
	const char *broken;
};

/* Where @member of a node @type is, in bytes from its tree link @link. */
#define SQ__ELIG_AT(type, link, member)					\
	((ptrdiff_t)offsetof(type, member) - (ptrdiff_t)offsetof(type, link))

/* The elig and the subtree minimum of link @l's node: real uint64_t
 * members of the kind's node, read through uint64_t lvalues. */
SQ__INLINE uint64_t *sq_elig__elig(const struct sq_elig__tree *t, void *l)
{
	return (uint64_t *)(void *)((char *)l + t->elig_at);
}

SQ__INLINE uint64_t *sq_elig__min(const struct sq_elig__tree *t, void *l)
{
	return (uint64_t *)(void *)((char *)l + t->min_at);
}

/* @m, or child @c's minimum if @c exists and is smaller. */
SQ__INLINE uint64_t sq_elig__lower(const struct sq_elig__tree *t, void *c,
				   uint64_t m)
{
	uint64_t cm;

	if (!c)
		return m;
	cm = *sq_elig__min(t, c);
	return cm < m ? cm : m;
}

/* (A) at @l, from its children's minima. */
SQ__INLINE uint64_t sq_elig__compute(const struct sq_elig__tree *t, void *l)
{
	uint64_t m = sq_elig__lower(t, t->left(l), *sq_elig__elig(t, l));

	return sq_elig__lower(t, t->right(l), m);
}

/* ---- the hooks the tree's rebalancing calls ------------------------------ */

/* A rotation lifted @top above @old: top's subtree holds what old's held. */
SQ__INLINE void sq_elig__rotated(const struct sq_elig__tree *t, void *old,
				 void *top)
{
	*sq_elig__min(t, top) = *sq_elig__min(t, old);
	*sq_elig__min(t, old) = sq_elig__compute(t, old);
}

/* @from's minimum whatever it held, then up to @stop (not included),
 * ending at the first minimum that stays: none above it changes either. */
SQ__INLINE void sq_elig__propagate(const struct sq_elig__tree *t, void *from,
				   const void *stop)
{
	if (from == stop)
		return;
	*sq_elig__min(t, from) = sq_elig__compute(t, from);
	while ((from = t->parent(from)) != stop) {
		SQ__STEP(1);
		uint64_t m = sq_elig__compute(t, from);

		if (m == *sq_elig__min(t, from))
			return;
		*sq_elig__min(t, from) = m;
	}
}

/* ---- the pick and the check ---------------------------------------------- */

/* sq_K_pick_eligible(): @first, if eligible, else one path down from
 * @root; NULL if no node is eligible.  It returns the node, converted at
 * its one exit, so the compiler keeps the NULL returns apart and the
 * first node's path is a load, a compare and an add. */
SQ__INLINE void *sq_elig__pick(const struct sq_elig__tree *t, void *first,
			       void *root, uint64_t limit)
{
	void *l = first, *left;

	if (!l)
		return NULL;
	if (*sq_elig__elig(t, l) > limit) {
		for (l = root; l; ) {
			SQ__STEP(1);
			left = t->left(l);
			if (left && *sq_elig__min(t, left) <= limit)
				l = left;
			else if (*sq_elig__elig(t, l) <= limit)
				break;
			else
				l = t->right(l);
		}
		if (!l)
			return NULL;
	}
	return (char *)l + t->node_at;
}

/* (A) at every link from @first on, in key order; the tree's own check
 * has passed, so the walk ends and meets every node once. */
SQ__INLINE int sq_elig__check(const struct sq_elig__tree *t, void *first,
			      const char *who)
{
	void *l;

	for (l = first; l; l = t->next(l)) {
		SQ__STEP(1);
		SQ__CHECK(*sq_elig__min(t, l) == sq_elig__compute(t, l), who, l,
			  t->broken);
	}
	return 0;
}

/* ---- a kind's link and hooks --------------------------------------------- */

/*
 * SQ__ELIG_TREE(K, L, link, left, right, next, prev, min, num) - kind
 * @K's link: struct sq_K_node holds the tree link (type @L) as member
 * @link, and the subtree minimum as @min; a link's children are its
 * members @left and @right, its neighbours in key order @next(l) and
 * @prev(l), its parent sq_K__parent(), which the kind's header writes
 * first (only it knows where a parent pointer hides); @num is the number
 * it gives (A).  It defines sq_K__node(l), the node of link @l; the table
 * sq_K__tree; and the rotated and propagate hooks the tree's bodies take,
 * typed for @L.
 */
/* NOLINTBEGIN(bugprone-macro-parentheses): L is a type, the rest names */
#define SQ__ELIG_TREE(K, L, link, left, right, next, prev, min, num)	\
	SQ__INLINE struct sq_##K##_node *sq_##K##__node(L *l)		\
	{								\
		return sq_entry(l, struct sq_##K##_node, link);		\
	}								\
	static inline void *sq_##K##__left(const void *l)		\
	{								\
		return ((const L *)l)->left;				\
	}								\
	static inline void *sq_##K##__right(const void *l)		\
	{								\
		return ((const L *)l)->right;				\
	}								\
	static inline void *sq_##K##__next(const void *l)		\
	{								\
		return next((const L *)l);				\
	}								\
	static inline void *sq_##K##__prev(const void *l)		\
	{								\
		return prev((const L *)l);				\
	}								\
	static const struct sq_elig__tree sq_##K##__tree = {		\
		sq_##K##__left, sq_##K##__right, sq_##K##__parent,	\
		sq_##K##__next, sq_##K##__prev,				\
		-(ptrdiff_t)offsetof(struct sq_##K##_node, link),	\
		SQ__ELIG_AT(struct sq_##K##_node, link, elig),		\
		SQ__ELIG_AT(struct sq_##K##_node, link, min),		\
		num " a subtree minimum is not the least elig below"	\
	};								\
	SQ__INLINE void sq_##K##__rotated(L *old, L *top)		\
	{								\
		sq_elig__rotated(&sq_##K##__tree, old, top);		\
	}								\
	static inline void sq_##K##__propagate(L *from, const L *stop)	\
	{								\
		sq_elig__propagate(&sq_##K##__tree, from, stop);	\
	}
/* NOLINTEND(bugprone-macro-parentheses) */

/* ---- the verbs ------------------------------------------------------------
 *
 * SQ__ELIG_KIND(K, T, L, tree, link, first, root, walk, seek) writes kind
 * @K's verbs over the plain kind @T: struct sq_K holds struct sq_T as
 * @tree, whose members @first and @root are its first and root links;
 * struct sq_K_node holds the link (type @L) as @link.  @walk(t, fn, arg,
 * who) and @seek(t, key, match, arg, who) are the tree's link-level walk
 * and find.  Written by the kind's header before it: SQ__ELIG_TREE(),
 * sq_K__aug (struct sq_T__aug), and the verbs that differ:
 * sq_K_node_init(), sq_K_queued(), sq_K_key(), sq_K_pop().
 *
 * The verbs of every kind (common.h) cost as the table above says; first
 * is the first node by key, eligible or not; enqueue and requeue keep the
 * node's elig.  The two of this layer:
 *
 * sq_K_pick_eligible(q, limit) - of the nodes with elig <= @limit, the
 *   one with the smallest key (earliest queued among equal keys); NULL if
 *   there is none.  The node stays queued.  O(1) when the first node is
 *   eligible, else O(log n): one path down, steered by the subtree minima.
 * sq_K_set_elig(q, n, elig) - give @n, queued on @q or not, a new elig;
 *   it keeps its place (its key is unchanged).  @q is read only by
 *   SQ_DEBUG's check that a queued @n is on it.  O(1) when not queued,
 *   else O(log n): a walk up that ends where a subtree's minimum stays
 *   (SQ_DEBUG: to the root).
 */
/* NOLINTBEGIN(bugprone-macro-parentheses): L is a type, the rest names */
#define SQ__ELIG_KIND(K, T, L, tree, link, first, root, walk, seek)	\
	SQ__INLINE struct sq_##K##_node *sq_##K##__node_or_null(void *l) \
	{								\
		return l ? sq_##K##__node((L *)l) : NULL;		\
	}								\
	static inline void sq_##K##_init(struct sq_##K *q)		\
	{								\
		sq_##T##_init(&q->tree);				\
	}								\
	SQ__NO_CLOCK(K)							\
	static inline bool sq_##K##_empty(const struct sq_##K *q)	\
	{								\
		return sq_##T##_empty(&q->tree);			\
	}								\
	static inline size_t sq_##K##_count(const struct sq_##K *q)	\
	{								\
		return sq_##T##_count(&q->tree);			\
	}								\
	static inline struct sq_##K##_node *				\
	sq_##K##_first(const struct sq_##K *q)				\
	{								\
		return sq_##K##__node_or_null(q->tree.first);		\
	}								\
	static inline struct sq_##K##_node *				\
	sq_##K##_next(const struct sq_##K##_node *n)			\
	{								\
		return sq_##K##__node_or_null(sq_##K##__tree.next(&n->link)); \
	}								\
	static inline struct sq_##K##_node *				\
	sq_##K##_prev(const struct sq_##K##_node *n)			\
	{								\
		return sq_##K##__node_or_null(sq_##K##__tree.prev(&n->link)); \
	}								\
	static inline struct sq_##K##_node *				\
	sq_##K##_pick_eligible(const struct sq_##K *q, uint64_t limit)	\
	{								\
		return (struct sq_##K##_node *)sq_elig__pick(		\
			&sq_##K##__tree, q->tree.first, q->tree.root, limit); \
	}								\
	static inline void sq_##K##_set_elig(struct sq_##K *q,		\
					     struct sq_##K##_node *n,	\
					     uint64_t elig)		\
	{								\
		(void)q;	/* read only under SQ_DEBUG */		\
		SQ__MISUSE(sq_##K##_queued(n) &&			\
			   !sq_##T##__on(&q->tree, &n->link),		\
			   "sq_" #K "_set_elig", "node is on another queue"); \
		n->elig = elig;						\
		if (sq_##K##_queued(n))					\
			sq_##K##__propagate(&n->link, NULL);		\
	}								\
	SQ__INLINE bool sq_##K##__insert(struct sq_##K *q,		\
					 struct sq_##K##_node *n,	\
					 uint64_t key)			\
	{								\
		return sq_##T##__insert(&q->tree, &n->link, key, NULL,	\
					&sq_##K##__aug);		\
	}								\
	static inline bool sq_##K##_enqueue(struct sq_##K *q,		\
					    struct sq_##K##_node *n,	\
					    uint64_t key)		\
	{								\
		SQ__MISUSE(sq_##K##_queued(n), "sq_" #K "_enqueue",	\
			   "node is already queued");			\
		return sq_##K##__insert(q, n, key);			\
	}								\
	static inline bool sq_##K##_dequeue(struct sq_##K *q,		\
					    struct sq_##K##_node *n)	\
	{								\
		bool was_first = q->tree.first == &n->link;		\
									\
		SQ__MISUSE(!sq_##K##_queued(n), "sq_" #K "_dequeue",	\
			   "node is not queued");			\
		SQ__MISUSE(!sq_##T##__on(&q->tree, &n->link),		\
			   "sq_" #K "_dequeue", "node is on another queue"); \
		sq_##T##__remove(&q->tree, &n->link, &sq_##K##__aug); \
		return was_first;					\
	}								\
	static inline struct sq_##K##_node *				\
	sq_##K##_pop_due(struct sq_##K *q, uint64_t now)		\
	{								\
		L *f = q->tree.first;					\
									\
		return f && sq_##K##_key(sq_##K##__node(f)) <= now ?	\
		       sq_##K##_pop(q) : NULL;				\
	}								\
	static inline bool sq_##K##_requeue(struct sq_##K *q,		\
					    struct sq_##K##_node *n,	\
					    uint64_t key)		\
	{								\
		if (!sq_##K##_queued(n))				\
			return sq_##K##__insert(q, n, key);		\
		SQ__MISUSE(!sq_##T##__on(&q->tree, &n->link),		\
			   "sq_" #K "_requeue", "node is on another queue"); \
		return sq_##T##__requeue(&q->tree, &n->link, key, NULL, \
					 &sq_##K##__aug);		\
	}								\
	/* the user's function of visit_until or find, for the tree's	\
	 * link-level walk and find */					\
	struct sq_##K##__call {						\
		bool (*until)(struct sq_##K##_node *, void *);		\
		bool (*match)(const struct sq_##K##_node *, void *);	\
		void *arg;						\
	};								\
	static inline bool sq_##K##__until_one(L *l, void *p)		\
	{								\
		const struct sq_##K##__call *c;				\
									\
		c = (const struct sq_##K##__call *)p;			\
		return c->until(sq_##K##__node(l), c->arg);		\
	}								\
	static inline bool sq_##K##__match_one(const L *l, void *p)	\
	{								\
		const struct sq_##K##__call *c;				\
									\
		c = (const struct sq_##K##__call *)p;			\
		return c->match(sq_entry_const(l, struct sq_##K##_node, link), \
				c->arg);				\
	}								\
	static inline struct sq_##K##_node *sq_##K##__visit_until(	\
		const struct sq_##K *q,					\
		bool (*fn)(struct sq_##K##_node *, void *), void *arg,	\
		const char *who)					\
	{								\
		struct sq_##K##__call c = { fn, NULL, arg };		\
									\
		return sq_##K##__node_or_null(walk(&q->tree,		\
			sq_##K##__until_one, &c, who));			\
	}								\
	SQ__VISIT(K)							\
	SQ__EXPIRE(K)							\
	static inline struct sq_##K##_node *sq_##K##_find(		\
		const struct sq_##K *q, uint64_t key,			\
		bool (*match)(const struct sq_##K##_node *, void *),	\
		void *arg)						\
	{								\
		struct sq_##K##__call c = { NULL, match, arg };	\
									\
		return sq_##K##__node_or_null(seek(&q->tree, key,	\
			match ? sq_##K##__match_one : NULL, &c,		\
			"sq_" #K "_find"));				\
	}								\
	static inline int sq_##K##_check(const struct sq_##K *q)	\
	{								\
		if (sq_##T##__tie_check(&q->tree, NULL, "sq_" #K "_check")) \
			return -1;					\
		return sq_elig__check(&sq_##K##__tree, q->tree.first,	\
				      "sq_" #K "_check");		\
	}
/* NOLINTEND(bugprone-macro-parentheses) */

#endif /* SMARTQ_ELIG_TREE_H */
