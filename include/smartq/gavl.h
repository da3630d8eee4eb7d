/* SPDX-License-Identifier: MIT */
/*
 * smartq/gavl.h - GAVL: AVL tree priority queue that cuts first (KIND = gavl)
 *
 * An intrusive AVL tree ordered by a uint64_t key, after the idea of Pavel
 * Pisa's generic AVL tree (GAVL, uLUt): parent pointers, a per-node height
 * difference, the first (smallest) node cached, and a pop that "cuts" the
 * first node off without rotations.  Equal keys descend to the right, so a
 * node lands after every node already queued with its key (stable, FIFO).
 * A tie kind (SQ_GAVL_TIE, at the end) orders equal keys by the user's
 * less() first: the descent, requeue's in-place test and check() take it
 * as a parameter (sq_gavl__before()), NULL for the plain kind.
 *
 * Reading order: the rotations and the retraces of insert and erase,
 * then sq_gavl__cut_first (the pop that unlinks the first node without
 * rotating; why the height stays within one level of an AVL tree's is
 * below), erase, and the public API, where the descent (sq_gavl__insert)
 * sits.  The augmented tree's hooks are a layer the plain gavl never
 * calls.
 *
 *   operation   cost       notes
 *   enqueue     O(log n)   descent + retrace, at most one (double) rotation
 *   first       O(1)       the cached first node
 *   pop         O(log n)   cut first: no rotation, only a walk up the spine
 *                          while nodes were left-heavy; the new first is
 *                          the parent or the leftmost of the right child
 *   dequeue     O(log n)   the first node is cut; any other node is erased
 *                          with full AVL rebalancing (rotations)
 *   requeue     O(log n)   in place (no rebalancing) when the order holds
 *   next/prev   O(log n)   amortised O(1) over a whole walk
 *
 * SQ_DEBUG adds a walk to the root to dequeue and requeue (sq_gavl__on()).
 *
 * Terms.  h(x) is the height of the subtree rooted at x (an empty subtree
 * has height 0, a leaf 1).  The "spine" is the path from the root down its
 * left links to the first node: the root, the root's left child, its left
 * child, and so on.  Every node off the spine hangs below some right link.
 *
 * The invariants, kept by every operation and verified by sq_gavl_check():
 *
 *   (1) order: an in-order walk meets keys in non-decreasing order, equal
 *       keys in the order they were (re)queued (a tie kind's: in less()
 *       order, and those equal under less() as they were (re)queued);
 *   (2) exact balance: gv_balance = h(left) - h(right) at every node, with
 *       no exception (cuts keep it exact too: they just stop rotating);
 *   (3) off the spine the tree is AVL: -1 <= gv_balance <= 1;
 *   (4) on the spine a node is never left-heavy by more than one, but may
 *       be right-heavy by any amount: gv_balance <= 1;
 *   (5) gv_first is the first node of the walk (1), NULL when empty, and
 *       gv_count is the number of nodes.
 *
 * Why cutting first is allowed.  The first node has no left child.  Pop
 * replaces it by its right subtree, so the left side of its parent lost
 * exactly one level.  A true AVL tree would now walk up and rotate every
 * spine node that became right-heavy by two.  GAVL does not: it walks up
 * only while a node was left-heavy (its height dropped too; it becomes
 * balanced) and stops at the first node that was not, which just becomes
 * one step more right-heavy -- (4) allows it, and (2) stays exact.  The
 * right subtrees hanging off the spine are untouched, so (3) holds.  Pops
 * in a row stay cheap: no rotation, no compare, and a walk that stops as
 * soon as a node absorbs the lost level.
 *
 * The height bound.  Let N(h) be the fewest nodes of an AVL tree of height
 * h: N(0) = 0, N(1) = 1, N(h) = N(h-1) + N(h-2) + 1; the largest AVL height
 * for n nodes is H(n) = max { h : N(h) <= n }.  Let M(h) be the fewest
 * nodes of a tree of height h >= 1 that keeps (3) and (4).  Its root is a
 * spine node: either left-heavy by one or balanced (its left is again such
 * a tree of height h-1, its right an AVL tree of height h-2 or h-1), or
 * right-heavy (its right is an AVL tree of height h-1, its left may be
 * empty).  So M(h) = min(M(h-1) + N(h-2) + 1, N(h-1) + 1), which is
 * N(h-1) + 1 by induction (M(1) = 1; 2 N(h-2) + 2 >= N(h-1) + 1).  Hence a
 * tree of height h holds n > N(h-1) nodes, H(n) >= h-1, and
 *
 *	height <= H(n) + 1:
 *
 * a GAVL tree is at most one level taller than the tallest AVL tree with
 * as many nodes (about 1.44 log2 n + 1), still well below a red-black
 * tree's 2 log2(n + 1).  check() verifies this bound explicitly.
 *
 * Rebalancing.  Enqueue and the erase of any node but the first retrace
 * like an AVL tree and rotate where a balance reaches +2, or -2 and below
 * (a spine node already right-heavy gets its rotation then, which repairs
 * it, so inserts undo what pops degrade).  The rotations use the general
 * formulas, exact for any balance, a degraded spine node's too; the one
 * that ends an insert's retrace has a short form.  They never compare
 * keys and exist once for both sides (SQ_GAVL__CHILD), so no rotation
 * branches on which side it turns (a coin flip to a predictor).  The only
 * compare is the descent loop of sq_gavl__insert(), which inlines into
 * the caller and selects the child without a branch.
 *
 * A node that is not queued has gv_balance == SQ_GAVL__UNQUEUED, a value no
 * queued node can have (a queued balance lies in [-height, 1]), so queued()
 * is one compare and still answers while SQ_DEBUG poisons the dead links.
 */
#ifndef SMARTQ_GAVL_H
#define SMARTQ_GAVL_H

#include "common.h"

/**
 * struct sq_gavl_node - the link a user embeds in its own struct
 * @key:        the key the node is queued with; read it freely, change it
 *              only through sq_gavl_requeue()
 * @gv_parent:  parent node, NULL at the root
 * @gv_left:    left child (smaller keys)
 * @gv_right:   right child (greater or equal keys)
 * @gv_balance: h(left) - h(right); SQ_GAVL__UNQUEUED when not queued
 */
struct sq_gavl_node {
	uint64_t key;
	struct sq_gavl_node *gv_parent, *gv_left, *gv_right;
	int gv_balance;
};

/**
 * struct sq_gavl - the queue
 * @gv_root:  root of the tree, NULL when empty
 * @gv_first: the first node, NULL when empty
 * @gv_count: number of queued nodes
 */
struct sq_gavl {
	struct sq_gavl_node *gv_root, *gv_first;
	size_t gv_count;
};

/* A tie kind's order among equal keys (SQ_GAVL_TIE), NULL for the plain
 * kind: as sq_rb__tie_fn in rbtree.h, on nodes. */
typedef struct sq_gavl_node sq_gavl__tie_item;
typedef bool (*sq_gavl__tie_fn)(const sq_gavl__tie_item *a,
				const sq_gavl__tie_item *b);

SQ__INLINE const struct sq_gavl_node *
sq_gavl__tie_node(const sq_gavl__tie_item *n)
{
	return n;
}

/* Does @n, given key @key, go before queued node @x?  By key, then by
 * @tie (if any); equal under both, no: @n goes after @x (FIFO). */
SQ__INLINE bool sq_gavl__before(const struct sq_gavl_node *n, uint64_t key,
				const struct sq_gavl_node *x,
				sq_gavl__tie_fn tie)
{
	if (tie && key == x->key)
		return tie(n, x);
	return key < x->key;
}

/* The balance of a node that is not queued; far outside [-height, 1]. */
#define SQ_GAVL__UNQUEUED 0x4000

/* check() keeps per-depth heights in arrays of this size: a sound tree is
 * at most H(SIZE_MAX) + 1 = 92 levels deep (64-bit size_t), so deeper is a
 * broken tree. */
#define SQ_GAVL__MAX_DEPTH 128

/* The rotations stay out of line (SQ__SLOW; an insert rotates at most once),
 * and sq_gavl_enqueue() itself is always inlined (SQ__INLINE): its descent
 * and retrace belong in the caller's loop, and clang's inliner declines
 * them (doc/gavl.md). */

/* ---- rebalancing: no key compares below this line until the descent ---- */

/* The child word of @x on side @s (0 left, 1 right): SQ__CHILD. */
#define SQ_GAVL__CHILD(x, s) \
	SQ__CHILD(struct sq_gavl_node, x, gv_left, gv_right, s)

/* Put @nw where @old was under @parent (or at the root). */
SQ__INLINE void sq_gavl__replace_child(struct sq_gavl *q,
				       struct sq_gavl_node *parent,
				       const struct sq_gavl_node *old,
				       struct sq_gavl_node *nw)
{
	if (!parent) {
		q->gv_root = nw;
	} else {
		/* the side is a coin flip: no branch (SQ__CHILD_AT) */
		size_t off = SQ__CHILD_AT(struct sq_gavl_node, gv_left,
					  gv_right, parent->gv_left != old);

		*(struct sq_gavl_node **)(void *)((char *)parent + off) = nw;
	}
}

/* ---- the hooks of an augmented tree ------------------------------------
 *
 * As in rbtree.h: a tree that keeps in each node a summary of its subtree
 * (gavl_elig.h: the smallest eligibility value in it) hears of every
 * change of shape through hooks (@aug, @rot), NULL for the plain tree.
 *
 * sq_gavl__rotated_fn(old, top): a rotation lifted @top above @old, whose
 * new children are linked: top takes old's summary, old's is recomputed.
 */
typedef void sq_gavl__rotated_fn(struct sq_gavl_node *old,
				 struct sq_gavl_node *top);

/**
 * struct sq_gavl__aug - the hooks of insert, erase and the cut
 * @propagate:  as struct sq_rb__aug's (rbtree.h)
 * @insert_fix: sq_gavl__insert_fix_aug() with the tree's rotated hook, out
 *              of line as sq_gavl__insert_fix() is
 * @fix:        sq_gavl__fix_aug() likewise
 */
struct sq_gavl__aug {
	void (*propagate)(struct sq_gavl_node *from,
			  const struct sq_gavl_node *stop);
	void (*insert_fix)(struct sq_gavl *q, struct sq_gavl_node *x,
			   struct sq_gavl_node *y, int b, int d, int dy);
	struct sq_gavl_node *(*fix)(struct sq_gavl *q, struct sq_gavl_node *x,
				    unsigned s);
};

/* @b seen from side @s: b itself for the left (0), -b for the right (1). */
SQ__INLINE int sq_gavl__lean(int b, unsigned s)
{
	int neg = -(int)s;

	return (b ^ neg) - neg;
}

/*
 * sq_gavl__rotate - lift the child @y of @x on side @s above it
 *
 * For s = 0 (the left child; s = 1 is the mirror image):
 *
 *          x                y
 *         / \              / \
 *        y   C    -->     A   x
 *       / \                  / \
 *      A   B                B   C
 *
 * With b = h(left) - h(right) before and b' after, seen from side s
 * (B = b for s = 0, -b for s = 1), for any values:
 *	B'(x) = B(x) - 1 - max(B(y), 0)
 *	B'(y) = B(y) - 1 + min(B'(x), 0)
 * and the subtree's height changes by
 *	max(-B'(y), 0) - 1 - max(-B(y), 0) - max(-B(x), 0)
 * (measure every height from h(A): h(y) = h(A) + 1 + max(-B(y), 0) ...).
 * @rot: the augmented tree's rotation hook, NULL for the plain tree.
 * Return: that height change.
 */
SQ__INLINE int sq_gavl__rotate(struct sq_gavl *q, struct sq_gavl_node *x,
			       unsigned s, sq_gavl__rotated_fn *rot)
{
	struct sq_gavl_node *y = SQ_GAVL__CHILD(x, s), *p = x->gv_parent;
	struct sq_gavl_node *b = SQ_GAVL__CHILD(y, !s);
	int bx = sq_gavl__lean(x->gv_balance, s);
	int by = sq_gavl__lean(y->gv_balance, s), nx, ny;

	SQ_GAVL__CHILD(x, s) = b;
	/* no branch on "is B empty": then the write goes to x's own
	 * parent word, which is overwritten just below */
	(b ? b : x)->gv_parent = x;
	SQ_GAVL__CHILD(y, !s) = x;
	x->gv_parent = y;
	y->gv_parent = p;
	sq_gavl__replace_child(q, p, x, y);

	nx = bx - 1 - (by > 0 ? by : 0);
	ny = by - 1 + (nx < 0 ? nx : 0);
	x->gv_balance = sq_gavl__lean(nx, s);
	y->gv_balance = sq_gavl__lean(ny, s);
	if (rot)
		rot(x, y);
	return (ny < 0 ? -ny : 0) - 1 - (by < 0 ? -by : 0) - (bx < 0 ? -bx : 0);
}

/*
 * sq_gavl__fix - @x leans by two or more to side @s: rotate it back
 *
 * For s = 0 (x has balance +2; s = 1, balance -2 or less, is the mirror
 * image).  A single rotation when the child y on side s does not lean
 * the other way; otherwise the double rotation, which lifts y's inner
 * child z above both:
 *
 *          x                  z
 *         / \               /   \
 *        y   D             y     x
 *       / \       -->     / \   / \
 *      A   z             A   B C   D
 *         / \
 *        B   C
 *
 * For s = 0, y may be a degraded spine node (balance -2 or less).  Then
 * the first rotation can lower the subtree under x by one level, which
 * x's balance must see before the second; with that, the general formulas
 * keep every balance exact, y stays on the spine and x, z end up AVL.
 * For s = 1, y is never on the spine, so it is AVL (-1..1), and x itself
 * may be a spine node right-heavy by more than two: it then stays on the
 * spine, still right-heavy but less.
 * @rot: the augmented tree's rotation hook, NULL for the plain tree.
 * Return: the new root of the subtree.
 */
SQ__INLINE struct sq_gavl_node *sq_gavl__fix_aug(struct sq_gavl *q,
						 struct sq_gavl_node *x,
						 unsigned s,
						 sq_gavl__rotated_fn *rot)
{
	struct sq_gavl_node *y = SQ_GAVL__CHILD(x, s);

	if (sq_gavl__lean(y->gv_balance, s) >= 0) {
		sq_gavl__rotate(q, x, s, rot);
		return y;
	}
	/* the first rotation may lower x's side s: keep b(x) exact */
	x->gv_balance += sq_gavl__lean(sq_gavl__rotate(q, y, !s, rot), s);
	sq_gavl__rotate(q, x, s, rot);
	return x->gv_parent;
}

SQ__SLOW struct sq_gavl_node *sq_gavl__fix(struct sq_gavl *q,
					   struct sq_gavl_node *x, unsigned s)
{
	return sq_gavl__fix_aug(q, x, s, NULL);
}

/*
 * sq_gavl__insert_fix - the rotation that ends an insert's retrace
 * @y: x's child on side s, the node the retrace came up through
 * @b: x's balance before the insert (the caller may have stored b + d)
 * @d: the side that grew: +1 for x's left (s = 0), -1 for its right (s = 1)
 * @dy: the side that grew under y, the same way: y's balance now
 *
 * As sq_gavl__fix(), for the one case an insert meets: the retrace came up
 * through the child y on side s, which was balanced before and now leans
 * by exactly one, and x leaned the same way as d before: by one, or by
 * more when x is a spine node that cuts left right-heavy (then d = -1).
 * With y's lean known the general formulas shrink.  Seen from side s
 * (B = b * d), B(x) = |b| + 1 >= 2, and with z the inner child of y:
 *
 *   single rotation (B(y) = +1, dy = d):  B'(y) = 0,  B'(x) = B(x) - 2
 *   double rotation (B(y) = -1, dy = -d):
 *	B'(y) = max(-B(z), 0),  B'(x) = B(x) - 2 - max(B(z), 0),
 *	B'(z) = min(B(x) - 2, max(B(z), 0))
 *
 * (B'(z) = h(y') - h(x'): h(y') = h(z), h(x') = h(z) + 1 - ... worked from
 * the heights in sq_gavl__fix()), and the subtree gets its old height
 * back, so the retrace ends here.  Written in the stored balances (z is
 * AVL: -1..1, and d is +1 or -1), max(-B(z), 0) * d is (d - b(z)) / 2,
 * max(B(z), 0) * d is (b(z) + d) / 2, and B(x) - 2 is 0 exactly when
 * b = d: no product, no lean taken and undone, no branch on z.
 * @rot: the augmented tree's rotation hook, NULL for the plain tree (the
 * double rotation is two for it: z above y, then z above x).
 */
SQ__INLINE void sq_gavl__insert_fix_aug(struct sq_gavl *q,
					struct sq_gavl_node *x,
					struct sq_gavl_node *y, int b, int d,
					int dy, sq_gavl__rotated_fn *rot)
{
	unsigned s = d < 0;
	struct sq_gavl_node *p = x->gv_parent;
	struct sq_gavl_node *z = SQ_GAVL__CHILD(y, !s), *l, *r;
	int bz, up;

	if (dy == d) {
		/* single: z is y's inner subtree, it moves under x */
		SQ_GAVL__CHILD(x, s) = z;
		(z ? z : x)->gv_parent = x;	/* as in sq_gavl__rotate() */
		SQ_GAVL__CHILD(y, !s) = x;
		x->gv_parent = y;
		y->gv_parent = p;
		sq_gavl__replace_child(q, p, x, y);
		x->gv_balance = b - d;
		y->gv_balance = 0;
		if (rot)
			rot(x, y);
		return;
	}
	bz = z->gv_balance;
	l = SQ_GAVL__CHILD(z, s);
	r = SQ_GAVL__CHILD(z, !s);
	SQ_GAVL__CHILD(y, !s) = l;
	(l ? l : y)->gv_parent = y;	/* y's word is rewritten below */
	SQ_GAVL__CHILD(x, s) = r;
	(r ? r : x)->gv_parent = x;
	SQ_GAVL__CHILD(z, s) = y;
	SQ_GAVL__CHILD(z, !s) = x;
	y->gv_parent = z;
	x->gv_parent = z;
	z->gv_parent = p;
	sq_gavl__replace_child(q, p, x, z);
	up = (bz + d) / 2;		/* d when z leaned to side s, else 0 */
	y->gv_balance = (d - bz) / 2;	/* d when it leaned away, else 0 */
	x->gv_balance = b - d - up;
	z->gv_balance = up & -(int)(b != d);
	if (rot) {
		rot(y, z);
		rot(x, z);
	}
}

SQ__SLOW void sq_gavl__insert_fix(struct sq_gavl *q, struct sq_gavl_node *x,
				  struct sq_gavl_node *y, int b, int d, int dy)
{
	sq_gavl__insert_fix_aug(q, x, y, b, d, dy, NULL);
}

/*
 * sq_gavl__insert_fixup - retrace after a new leaf was linked in
 * @p: the leaf's parent (not NULL)
 * @g: p's parent, as the descent had it (NULL when p is the root)
 * @gg: g's parent, likewise (NULL when g is NULL or the root)
 * @d: +1 when the leaf is p's left child, -1 when its right
 *
 * Walk up while the subtree that holds the leaf grew by one level, which
 * is while the node above was balanced: it now leans by d (+1 when the
 * grown side is its left, -1 when its right), and its own subtree grew.
 * The first node that was not balanced ends the walk: if it leaned the
 * other way it is balanced now; if it leaned the same way (by one, or a
 * spine node right-heavy by any amount) it rotates, which restores its
 * old height.  d is computed, not branched on: the side is a coin flip to
 * a predictor, and "was balanced" is the only test each step.
 *
 * The walk's tests wait on loads, and the hold loop's next steps wait on
 * a mispredicted test: so the second node up is the descent's @g, already
 * in a register (its test waits for one load, its balance, not two), and
 * the walk stays a node ahead: the third is the descent's @gg, and each
 * step loads the parent word of the node above the one it tests.  Where
 * the walk stops to rotate, the node it came through and its side are in
 * registers too, and single against double is whether the two sides
 * agree: the rotation's one mispredictable test waits on no load.
 */
SQ__INLINE void sq_gavl__insert_fixup(struct sq_gavl *q, struct sq_gavl_node *p,
				      struct sq_gavl_node *g,
				      struct sq_gavl_node *gg, int d,
				      const struct sq_gavl__aug *aug)
{
	struct sq_gavl_node *n;
	int b = p->gv_balance, dy;

	/* The first step apart: the leaf's side of p was empty, so p was a
	 * leaf (b = 0: it now leans by d and grew) or leaned the other way
	 * (b != 0 has the sign of -d, whatever its size: it is one step
	 * less heavy now and no taller).  b + d is right in both cases, and
	 * this step never rotates.  The next node up is the descent's g,
	 * not a load of p's parent word. */
	p->gv_balance = b + d;
	if (b)
		return;
	for (;;) {
		SQ__STEP(1);
		dy = d;
		n = p;
		p = g;
		if (!p)
			return;
		g = gg;
		d = 2 * (int)(p->gv_left == n) - 1;
		b = p->gv_balance;
		if (b)
			break;
		p->gv_balance = d;
		gg = g ? g->gv_parent : NULL;
	}
	p->gv_balance = b + d;
	if ((b ^ d) >= 0)	/* b leans the same way as d */
		(aug ? aug->insert_fix : sq_gavl__insert_fix)(q, p, n, b, d,
							       dy);
}

/*
 * sq_gavl__erase_fixup - retrace after the @left (or right) subtree of @p
 * lost one level
 *
 * Walk up while the subtree got lower.  A rotation that leaves the subtree
 * as high as before (its lifted child was balanced) ends the walk.
 */
SQ__INLINE void sq_gavl__erase_fixup(struct sq_gavl *q, struct sq_gavl_node *p,
				     bool left,
				     const struct sq_gavl__aug *aug)
{
	while (p) {
		SQ__STEP(1);
		struct sq_gavl_node *up;
		int b;

		if (left) {
			b = --p->gv_balance;
			if (b == -1)
				return;			/* was balanced */
			if (b <= -2) {
				bool same = p->gv_right->gv_balance == 0;

				p = (aug ? aug->fix : sq_gavl__fix)(q, p, 1);
				if (same)
					return;
			}
		} else {
			b = ++p->gv_balance;
			if (b == 1)
				return;			/* was balanced */
			if (b >= 2) {
				bool same = p->gv_left->gv_balance == 0;

				p = (aug ? aug->fix : sq_gavl__fix)(q, p, 0);
				if (same)
					return;
			}
		}
		up = p->gv_parent;
		if (up)
			left = up->gv_left == p;
		p = up;
	}
}

/* Leftmost node of the non-empty subtree @n. */
SQ__INLINE struct sq_gavl_node *sq_gavl__leftmost(struct sq_gavl_node *n)
{
	while (n->gv_left) {
		SQ__STEP(1);
		n = n->gv_left;
	}
	return n;
}

/*
 * sq_gavl__cut_first - unlink the first node f without rotating ("Why
 * cutting first is allowed", at the top): f's right subtree R takes its
 * place, and the walk up the spine runs only while a node was left-heavy.
 * The new first node is the leftmost of R, or f's parent when R is empty.
 */
SQ__INLINE void sq_gavl__cut_first(struct sq_gavl *q, struct sq_gavl_node *f,
				   const struct sq_gavl__aug *aug)
{
	struct sq_gavl_node *p = f->gv_parent, *r = f->gv_right;
	struct sq_gavl_node *w = r ? r : f, *first = r ? r : p, *c;
#ifdef SQ__PTR_MASK
	uintptr_t keep;
#endif

	/* No branch on "is there a right subtree" (a coin flip to a
	 * predictor): w is r, or f itself when r is empty, and f's own
	 * words already say the right thing -- its parent is p, its left
	 * child is NULL.  So p becomes w's parent either way, and the walk
	 * to the new first starts below w, mostly not turning at all. */
	w->gv_parent = p;
	/* The first step down is a select too: w's left child, if any, is
	 * mostly the new first, so the loop below mostly does not run.  A
	 * mask, not "c ? c : first", which gcc turns back into a branch. */
	c = w->gv_left;
#ifdef SQ__PTR_MASK
	/* pointers as addresses, NULL as 0: see SQ__PTR_MASK */
	keep = (uintptr_t)0 - (uintptr_t)(c == NULL);
	SQ__OPAQUE(keep);
	first = (struct sq_gavl_node *)((uintptr_t)c |
					((uintptr_t)first & keep));
	w = (struct sq_gavl_node *)((uintptr_t)c | ((uintptr_t)w & keep));
#else
	first = c ? c : first;
	w = c ? c : w;
#endif
	for (c = w->gv_left; c; c = c->gv_left) {
		SQ__STEP(1);
		first = c;
	}
	q->gv_first = first;
	if (p) {
		p->gv_left = r;
		/* r's subtree is whole: the loss is from p up */
		if (aug)
			aug->propagate(p, NULL);
		while (p->gv_balance-- == 1) {
			SQ__STEP(1);
			p = p->gv_parent;
			if (!p)
				break;
		}
	} else {
		q->gv_root = r;
	}
}

/*
 * sq_gavl__erase - unlink @n, which is not the first node, and rebalance
 *
 * A node with at most one child is replaced by that child.  A node with two
 * children is replaced by its successor s (the leftmost of its right
 * subtree, never on the spine), which first leaves its own place to its
 * right child; s takes @n's links and balance.  Then retrace as an AVL
 * tree from the place that lost a level.
 */
SQ__INLINE void sq_gavl__erase(struct sq_gavl *q, struct sq_gavl_node *n,
			       const struct sq_gavl__aug *aug)
{
	struct sq_gavl_node *p = n->gv_parent;
	struct sq_gavl_node *l = n->gv_left, *r = n->gv_right;
	bool left = p && p->gv_left == n;

	if (!l || !r) {
		struct sq_gavl_node *c = l ? l : r;

		if (c)
			c->gv_parent = p;
		sq_gavl__replace_child(q, p, n, c);
		/* c's subtree is whole: the loss is from p up */
		if (aug)
			aug->propagate(p, NULL);
		sq_gavl__erase_fixup(q, p, left, aug);
		return;
	}

	if (!r->gv_left) {
		/* the successor is the right child: it moves up one level */
		r->gv_left = l;
		l->gv_parent = r;
		r->gv_parent = p;
		r->gv_balance = n->gv_balance;
		sq_gavl__replace_child(q, p, n, r);
		if (aug)	/* r in n's place: from r up */
			aug->propagate(r, NULL);
		sq_gavl__erase_fixup(q, r, false, aug);
	} else {
		struct sq_gavl_node *s = sq_gavl__leftmost(r);
		struct sq_gavl_node *sp = s->gv_parent, *sr = s->gv_right;

		sp->gv_left = sr;
		if (sr)
			sr->gv_parent = sp;
		s->gv_left = l;
		l->gv_parent = s;
		s->gv_right = r;
		r->gv_parent = s;
		s->gv_parent = p;
		s->gv_balance = n->gv_balance;
		sq_gavl__replace_child(q, p, n, s);
		if (aug) {	/* sp up to s lost s; s in n's place */
			aug->propagate(sp, s);
			aug->propagate(s, NULL);
		}
		sq_gavl__erase_fixup(q, sp, true, aug);
	}
}

/* Mark @n not queued; under SQ_DEBUG poison its dead links. */
SQ__INLINE void sq_gavl__unlink(struct sq_gavl_node *n)
{
	n->gv_balance = SQ_GAVL__UNQUEUED;
#ifdef SQ_DEBUG
	n->gv_parent = (struct sq_gavl_node *)SQ__POISON(1);
	n->gv_left = (struct sq_gavl_node *)SQ__POISON(2);
	n->gv_right = (struct sq_gavl_node *)SQ__POISON(3);
#endif
}

/* ---- the public API: the verbs are documented once, in common.h --------- */

static inline void sq_gavl_init(struct sq_gavl *q)
{
	q->gv_root = NULL;
	q->gv_first = NULL;
	q->gv_count = 0;
}

SQ__NO_CLOCK(gavl)

static inline void sq_gavl_node_init(struct sq_gavl_node *n)
{
	n->key = 0;
	n->gv_parent = NULL;
	n->gv_left = NULL;
	n->gv_right = NULL;
	n->gv_balance = SQ_GAVL__UNQUEUED;
}

SQ__INLINE bool sq_gavl_queued(const struct sq_gavl_node *n)
{
	return n->gv_balance != SQ_GAVL__UNQUEUED;
}

static inline bool sq_gavl_empty(const struct sq_gavl *q)
{
	return q->gv_root == NULL;
}

static inline size_t sq_gavl_count(const struct sq_gavl *q)
{
	return q->gv_count;
}

static inline struct sq_gavl_node *sq_gavl_first(const struct sq_gavl *q)
{
	return q->gv_first;
}

static inline uint64_t sq_gavl_key(const struct sq_gavl_node *n)
{
	return n->key;
}

static inline struct sq_gavl_node *sq_gavl_next(const struct sq_gavl_node *n)
{
	struct sq_gavl_node *p;

	if (n->gv_right)
		return sq_gavl__leftmost(n->gv_right);
	while ((p = n->gv_parent) && p->gv_right == n) {
		SQ__STEP(1);
		n = p;
	}
	return p;
}

static inline struct sq_gavl_node *sq_gavl_prev(const struct sq_gavl_node *n)
{
	struct sq_gavl_node *p;

	if (n->gv_left) {
		p = n->gv_left;
		while (p->gv_right) {
			SQ__STEP(1);
			p = p->gv_right;
		}
		return p;
	}
	while ((p = n->gv_parent) && p->gv_left == n) {
		SQ__STEP(1);
		n = p;
	}
	return p;
}

/* The compare: descend, link @n as a leaf, retrace, in the order of @tie
 * among equal keys (NULL: FIFO); @aug: the hooks of an augmented tree,
 * NULL for the plain one.  No misuse check. */
SQ__INLINE bool sq_gavl__insert(struct sq_gavl *q, struct sq_gavl_node *n,
				uint64_t key, sq_gavl__tie_fn tie,
				const struct sq_gavl__aug *aug)
{
	struct sq_gavl_node *parent = NULL, *gp = NULL, *ggp = NULL;
	struct sq_gavl_node *cur = q->gv_root;
	bool leftmost, went_left = false;

	/* The words that do not depend on the descent are written before
	 * it, once for every path, and the right child apart from the left,
	 * after it: for an empty tree (parent NULL too) clang would merge
	 * all five into overlapping 16-byte stores, and even the two
	 * children into one, from which the next pop's 8-byte loads cannot
	 * all forward (doc/gavl.md). */
	n->key = key;
	n->gv_left = NULL;
	n->gv_balance = 0;

	/* both children loaded, one selected: a conditional move, so the
	 * descent has no data-dependent branch to mispredict */
	while (cur) {
		SQ__STEP(1);
		struct sq_gavl_node *l = cur->gv_left, *r = cur->gv_right;

		SQ__LOAD_BOTH(l, r);
		ggp = gp;
		gp = parent;	/* the retrace's second node: see there */
		parent = cur;
		went_left = sq_gavl__before(n, key, cur, tie);
		cur = went_left ? l : r;
	}
	n->gv_parent = parent;
	n->gv_right = NULL;	/* apart from the left: see above */
	if (!parent) {
		q->gv_root = n;
		/* apart from gv_first's store below (SQ__KEEP_BRANCH) */
		SQ__KEEP_BRANCH();
		leftmost = true;
		if (aug)	/* a leaf's summary is its own */
			aug->propagate(n, NULL);
	} else {
		/* the last turn is not branched on either (SQ__CHILD);
		 * left of the old first means no right turn on the way;
		 * a tie kind does not call its less twice (as in
		 * sq_rb__insert()) */
		bool left = tie ? went_left : key < parent->key;
		size_t off = SQ__CHILD_AT(struct sq_gavl_node, gv_left,
					  gv_right, !left);

		*(struct sq_gavl_node **)(void *)((char *)parent + off) = n;
		/* rarely the first */
		leftmost = parent == q->gv_first && left;
		if (aug)	/* a leaf's summary is its own */
			aug->propagate(n, NULL);
		sq_gavl__insert_fixup(q, parent, gp, ggp, 2 * (int)left - 1,
				      aug);
	}
	q->gv_count++;
	if (leftmost)
		q->gv_first = n;
	return leftmost;
}

/* Remove @n: cut it when it is first, else erase with rebalancing. */
SQ__INLINE void sq_gavl__remove(struct sq_gavl *q, struct sq_gavl_node *n,
				const struct sq_gavl__aug *aug)
{
	if (n == q->gv_first)
		sq_gavl__cut_first(q, n, aug);
	else
		sq_gavl__erase(q, n, aug);
	q->gv_count--;
	sq_gavl__unlink(n);
}

#ifdef SQ_DEBUG
/* sq_gavl__on - is queued node @n in @q's tree (its root is @q's root)?
 * O(log n), for the SQ_DEBUG misuse checks only: dequeue, requeue (and
 * the eligible pick's) through another queue. */
static inline bool sq_gavl__on(const struct sq_gavl *q,
			       const struct sq_gavl_node *n)
{
	while (n->gv_parent) {
		SQ__STEP(1);
		n = n->gv_parent;
	}
	return q->gv_root == n;
}
#endif

/* The verbs that compare or check for misuse, once for the plain kind and
 * the tie kinds (SQ__TIE_KIND): @tie orders equal keys (NULL: FIFO), @who
 * is the verb SQ_DEBUG's messages name. */
SQ__INLINE bool sq_gavl__tie_enqueue(struct sq_gavl *q, struct sq_gavl_node *n,
				     uint64_t key, sq_gavl__tie_fn tie,
				     const char *who)
{
	SQ__MISUSE(sq_gavl_queued(n), who, "node is already queued");
	return sq_gavl__insert(q, n, key, tie, NULL);
}

SQ__INLINE bool sq_gavl__tie_dequeue(struct sq_gavl *q, struct sq_gavl_node *n,
				     sq_gavl__tie_fn tie, const char *who)
{
	bool was_first = n == q->gv_first;

	(void)tie;	/* removal never compares */
	SQ__MISUSE(!sq_gavl_queued(n), who, "node is not queued");
	SQ__MISUSE(!sq_gavl__on(q, n), who, "node is on another queue");
	sq_gavl__remove(q, n, NULL);
	return was_first;
}

SQ__INLINE bool sq_gavl_enqueue(struct sq_gavl *q, struct sq_gavl_node *n,
				uint64_t key)
{
	return sq_gavl__tie_enqueue(q, n, key, NULL, "sq_gavl_enqueue");
}

static inline struct sq_gavl_node *sq_gavl_pop(struct sq_gavl *q)
{
	struct sq_gavl_node *f = q->gv_first;

	if (!f)
		return NULL;
	sq_gavl__cut_first(q, f, NULL);
	q->gv_count--;
	sq_gavl__unlink(f);
	return f;
}

/* pop and pop_due take @tie but never compare */
SQ__INLINE struct sq_gavl_node *sq_gavl__tie_pop(struct sq_gavl *q,
						 sq_gavl__tie_fn tie)
{
	(void)tie;
	return sq_gavl_pop(q);
}

SQ__INLINE struct sq_gavl_node *sq_gavl__tie_pop_due(struct sq_gavl *q,
						     uint64_t now,
						     sq_gavl__tie_fn tie)
{
	const struct sq_gavl_node *f = q->gv_first;

	(void)tie;
	return f && f->key <= now ? sq_gavl_pop(q) : NULL;
}

/* sq_gavl__visit_until - the walk behind SQ__VISIT, of every kind over
 * this backend: @fn(node, @arg) on each node in queue order, the next
 * found before @fn runs, until it returns true; that node, or NULL.  @who:
 * the verb SQ_DEBUG names when @fn changes the queue. */
static inline struct sq_gavl_node *
sq_gavl__visit_until(const struct sq_gavl *q,
		     bool (*fn)(struct sq_gavl_node *, void *), void *arg,
		     const char *who)
{
	struct sq_gavl_node *n = q->gv_first;
	size_t count = q->gv_count;

	(void)count;	/* read only under SQ_DEBUG */
	while (n) {
		SQ__STEP(1);
		struct sq_gavl_node *next = sq_gavl_next(n);
		bool stop = fn(n, arg);

		/* fn may change q through its own pointer to it */
		/* cppcheck-suppress knownConditionTrueFalse */
		SQ__MISUSE(q->gv_count != count, who, "fn changed the queue");
		if (stop)
			return n;
		n = next;
	}
	return NULL;
}

SQ__VISIT(gavl)

/* find, in O(log n + t): equal keys are in queue order in the tree (of
 * @tie, if any), so the first of @key is the leftmost, and the descent
 * needs no tie order; @who: as for the walk */
static inline struct sq_gavl_node *
sq_gavl__tie_find(const struct sq_gavl *q, uint64_t key,
		  bool (*match)(const struct sq_gavl_node *, void *), void *arg,
		  sq_gavl__tie_fn tie, const char *who)
{
	struct sq_gavl_node *cur = q->gv_root, *at = NULL;
	size_t count = q->gv_count;

	(void)count;	/* read only under SQ_DEBUG */
	(void)tie;
	/* the leftmost node whose key is >= @key */
	while (cur) {
		SQ__STEP(1);
		if (cur->key < key) {
			cur = cur->gv_right;
		} else {
			at = cur;
			cur = cur->gv_left;
		}
	}
	for (; at && at->key == key; at = sq_gavl_next(at)) {
		SQ__STEP(1);
		if (!match || match(at, arg))
			return at;
		/* match may change q through its own pointer to it */
		/* cppcheck-suppress knownConditionTrueFalse */
		SQ__MISUSE(q->gv_count != count, who,
			   "match changed the queue");
	}
	return NULL;
}

/* Give queued node @n the key @key (sq_gavl_requeue()); @tie as in
 * sq_gavl__insert(); @aug: the hooks of an augmented tree, NULL for
 * the plain one.  A key rewritten in place changes no subtree's summary. */
SQ__INLINE bool sq_gavl__requeue(struct sq_gavl *q, struct sq_gavl_node *n,
				 uint64_t key, sq_gavl__tie_fn tie,
				 const struct sq_gavl__aug *aug)
{
	struct sq_gavl_node *prev = sq_gavl_prev(n), *next, *first;
	uint64_t first_key;

	next = sq_gavl_next(n);
	/* in place iff prev <= (key, n) < next; a tie kind's less sees n's
	 * fields as they are now, so a requeue also re-sorts a node whose
	 * tie fields changed */
	if ((!prev || !sq_gavl__before(n, key, prev, tie)) &&
	    (!next || sq_gavl__before(n, key, next, tie))) {
		bool changed = !prev && n->key != key;

		n->key = key;
		return changed;
	}
	first = q->gv_first;
	first_key = first->key;
	sq_gavl__remove(q, n, aug);
	sq_gavl__insert(q, n, key, tie, aug);
	return q->gv_first != first || q->gv_first->key != first_key;
}

static inline bool sq_gavl__tie_requeue(struct sq_gavl *q,
				     struct sq_gavl_node *n, uint64_t key,
				     sq_gavl__tie_fn tie, const char *who)
{
	if (!sq_gavl_queued(n))
		return sq_gavl__insert(q, n, key, tie, NULL);
	SQ__MISUSE(!sq_gavl__on(q, n), who, "node is on another queue");
	return sq_gavl__requeue(q, n, key, tie, NULL);
}

/* H(n): the largest height of an AVL tree with @n nodes. */
static inline unsigned sq_gavl__avl_max_height(size_t n)
{
	size_t lo = 0, hi = 1;	/* N(h), N(h+1) */
	unsigned h = 0;

	while (hi <= n) {
		SQ__STEP(1);
		size_t nx;

		h++;
		if (hi > SIZE_MAX - lo - 1)
			break;		/* N(h+1) > SIZE_MAX >= n */
		nx = lo + hi + 1;
		lo = hi;
		hi = nx;
	}
	return h;
}

/*
 * check: a post-order walk over parent links checks each child's link back
 * to its parent and, with subtree heights kept per depth in two fixed
 * arrays, invariants (2)-(4) and the count; then the height bound (at the
 * top); then an in-order walk checks (1), in the order of @tie, and (5).
 * O(n), O(1) extra memory.
 */
static inline int sq_gavl__tie_check(const struct sq_gavl *q,
				     sq_gavl__tie_fn tie, const char *who)
{
	unsigned lh[SQ_GAVL__MAX_DEPTH], rh[SQ_GAVL__MAX_DEPTH];
	const struct sq_gavl_node *n = q->gv_root, *prev;
	unsigned depth = 0, rights = 0, height = 0;
	size_t seen = 0;

	SQ__CHECK((n == NULL) == (q->gv_count == 0), who, n,
		  "root is NULL exactly when count is 0");
	SQ__CHECK((n == NULL) == (q->gv_first == NULL), who, q->gv_first,
		  "first is NULL exactly when the tree is empty");
	if (!n)
		return 0;
	SQ__CHECK(n->gv_parent == NULL, who, n, "root has no parent");

	for (;;) {
		SQ__STEP(1);
		/* first visit of n: go down as far as possible */
		SQ__CHECK(++seen <= q->gv_count, who, n,
			  "no more nodes in the tree than count");
		SQ__CHECK(depth + 1 < SQ_GAVL__MAX_DEPTH, who, n,
			  "no deeper than any sound GAVL tree");
		if (n->gv_left) {
			SQ__CHECK(n->gv_left->gv_parent == n, who, n->gv_left,
				  "left child points back at its parent");
			n = n->gv_left;
			depth++;
			continue;
		}
		if (n->gv_right) {
			SQ__CHECK(n->gv_right->gv_parent == n, who, n->gv_right,
				  "right child points back at its parent");
			n = n->gv_right;
			depth++;
			rights++;
			continue;
		}
		/* n is a leaf: finish it, then each ancestor it completes */
		for (;;) {
			SQ__STEP(1);
			const struct sq_gavl_node *p;
			unsigned hl = n->gv_left ? lh[depth] : 0;
			unsigned hr = n->gv_right ? rh[depth] : 0;
			unsigned h = 1 + (hl > hr ? hl : hr);
			int b = n->gv_balance;

			SQ__CHECK(b == (int)hl - (int)hr, who, n,
				  "(2) balance is h(left) - h(right)");
			SQ__CHECK(b <= 1, who, n,
				  "(4) no node is left-heavy by two");
			SQ__CHECK(rights == 0 || b >= -1, who, n,
				  "(3) off the spine the tree is AVL");
			if (h > height)
				height = h;
			p = n->gv_parent;
			if (!p)
				goto walked;
			depth--;
			if (p->gv_left == n) {
				lh[depth] = h;
				if (p->gv_right) {
					n = p->gv_right;
					SQ__CHECK(n->gv_parent == p, who, n,
						  "right child points back"
						  " at its parent");
					depth++;
					rights++;
					break;	/* first visit of n */
				}
			} else {
				rh[depth] = h;
				rights--;
			}
			n = p;
		}
	}
walked:
	SQ__CHECK(seen == q->gv_count, who, q->gv_root,
		  "(5) count is the number of nodes in the tree");
	SQ__CHECK(height <= sq_gavl__avl_max_height(seen) + 1, who, q->gv_root,
		  "height <= largest AVL height for count, + 1");

	n = sq_gavl__leftmost(q->gv_root);
	SQ__CHECK(n == q->gv_first, who, q->gv_first,
		  "(5) first is the leftmost node");
	for (prev = n, n = sq_gavl_next(n); n; prev = n, n = sq_gavl_next(n))
		SQ__CHECK(!sq_gavl__before(n, n->key, prev, tie), who, n,
			  "(1) keys do not decrease in order");
	return 0;
}

SQ__TIE_PLAIN(gavl)

/**
 * SQ_GAVL_TIE - declare a GAVL queue kind ordered by (key, less)
 * @name: the new kind's token, as for SQ_RB_TIE (rbtree.h)
 * @less: bool less(const struct sq_@name_node *a,
 *        const struct sq_@name_node *b), as for SQ_RB_TIE
 *
 * As SQ_RB_TIE, over this tree: the node wraps struct sq_gavl_node as
 * .base, and the costs are gavl's, pop still cutting the first node
 * without a compare.
 */
#define SQ_GAVL_TIE(name, less)						\
	SQ__TIE_KIND(gavl, name, less)					\
	SQ__TIE_INORDER(gavl, name)					\
	struct sq_##name##__tie_kind	/* the user's ';' ends it */

#undef SQ_GAVL__CHILD

#endif /* SMARTQ_GAVL_H */
