/* SPDX-License-Identifier: MIT */
/*
 * smartq/rbtree.h - red-black tree priority queue, leftmost cached (KIND = rb)
 *
 * An intrusive red-black tree ordered by a uint64_t key, with the leftmost
 * (smallest) node cached so first() never walks.  The descent sends an
 * equal key to the right, so a node lands after every node already queued
 * with its key (stable, FIFO).  A tie kind (SQ_RB_TIE, at the end) orders
 * equal keys by the user's less() first: the descent, requeue's in-place
 * test and check() take it as a parameter (sq_rb__before()), NULL for the
 * plain kind, which then compiles as if it were not there.
 *
 * Reading order: the public API (at the end) is thin; the queue's work
 * is in "the link-level operations" (the comparing descent, erase by
 * link, the cached leftmost), which call the two rebalancing parts,
 * "insert fix-up" and "erase fix-up", each case drawn.  The packed
 * parent word and the augmented tree's hooks come first only because
 * the rest uses them; a plain rb calls no hook.
 *
 *   operation   cost       notes
 *   enqueue     O(log n)   descent + at most 2 rotations
 *   first       O(1)       the cached leftmost
 *   pop         O(log n)   the leftmost has no left child: its successor is
 *                          its right child or its parent, found in O(1);
 *                          rebalancing is amortised O(1)
 *   dequeue     O(log n)   at most 3 rotations
 *   requeue     O(log n)   in place (no relinking) when the order holds
 *   next/prev   O(log n)   amortised O(1) over a whole walk
 *
 * SQ_DEBUG adds a walk to the root to dequeue and requeue (sq_rb__on()).
 *
 * Layout.  A node is 32 bytes on LP64: the key and a link of three words
 * (the parent pointer with the colour in bit 0, the two children).  Bit 0
 * is free because a link, a uintptr_t and two pointers, is aligned to at
 * least 2 bytes (every ABI we know aligns it to 4 or 8; a compile-time
 * check below refuses any other) and a pointer cast to uintptr_t is its
 * address (every flat-memory target, 32- or 64-bit; there is no ISO path:
 * the word is the layout).  Bit 0 set means black, clear red, so a red
 * node's word is just its parent's address.  A node that is not queued
 * has its parent word pointing at itself (no queued node is its own
 * parent), so queued() is one compare and works while SQ_DEBUG poisons
 * the child links of a dequeued node.
 *
 * The balancing code works on the link alone (struct sq_rb__link) and
 * reads a link's key just before it (the layout rule, at the link's
 * definition), so another node type (rb_elig.h's) embeds the same link
 * and reuses the tree without a second copy of its key.  The public
 * functions convert node <-> link at the boundary (a constant offset,
 * folded into the addressing).
 *
 * The red-black properties, kept by every operation and verified by
 * sq_rb_check():
 *
 *   (1) every node is red or black;
 *   (2) the root is black;
 *   (3) the NULL leaves count as black;
 *   (4) a red node has no red child;
 *   (5) every path from a node down to a NULL leaf passes the same number
 *       of black nodes (its black height).
 *
 * From (4) and (5) the longest root-to-leaf path is at most twice the
 * shortest, so the height is at most 2 log2(n + 1).  On top of those the
 * queue keeps: (6) an in-order walk meets keys in non-decreasing order,
 * equal keys in the order they were (re)queued (a tie kind's: in less()
 * order, and those equal under less() as they were (re)queued); (7)
 * rb_leftmost is the first node of that walk, NULL when empty; (8) rb_count
 * is the number of nodes.
 *
 * The balancing code (insert fix-up, erase, erase fix-up) never compares
 * keys.  Each fix-up is written once for both sides, as in gavl.h: the
 * side is a number (0 left, 1 right) and a child word is picked by its
 * offset (SQ_RB__CHILD), so no rotation branches on which side it turns.
 * The only compare is the descent loop of sq_rb__insert(), which inlines
 * into the caller and selects each child without a branch.  The fix-up
 * loops stay out of line (SQ__SLOW): the hold loop's pop and enqueue then
 * inline into the caller with both compilers (clang otherwise inlines the
 * insert fix-up into enqueue and then keeps enqueue out of line).
 */
#ifndef SMARTQ_RBTREE_H
#define SMARTQ_RBTREE_H

#include "common.h"

/**
 * struct sq_rb__link - the tree link: what the balancing code works on
 * @rb_parent_color: parent link address | colour bit (1 = black); for a
 *                   struct sq_rb_node that is not queued, its own address
 * @rb_left:  left child (smaller keys)
 * @rb_right: right child (greater or equal keys)
 *
 * Layout rule: a link's uint64_t key sits SQ_RB__KEY_AT bytes from the
 * link, where struct sq_rb_node has it (the key first, the link right
 * after it: -8 on LP64); sq_rb__key() reads it there.  Any other node
 * that embeds a link proves the rule at compile time.  The key is a real
 * uint64_t member, read through a uint64_t lvalue: no struct type is
 * punned for another.
 */
struct sq_rb__link {
	uintptr_t rb_parent_color;
	struct sq_rb__link *rb_left, *rb_right;
};

/**
 * struct sq_rb_node - the link a user embeds in its own struct
 * @key:     the key the node is queued with; read it freely, change it
 *           only through sq_rb_requeue()
 * @rb_link: the tree link (internal)
 *
 * The key comes first, as in every smartq node, so "{ 0 }" zero-fills a
 * node embedded in an initialiser list without a missing-braces warning.
 */
struct sq_rb_node {
	uint64_t key;
	struct sq_rb__link rb_link;
};

/**
 * struct sq_rb - the queue
 * @rb_root:     root of the tree, NULL when empty
 * @rb_leftmost: the first node's link, NULL when empty
 * @rb_count:    number of queued nodes
 */
struct sq_rb {
	struct sq_rb__link *rb_root, *rb_leftmost;
	size_t rb_count;
};

/* Where a link's key is, in bytes from the link: see struct sq_rb__link. */
#define SQ_RB__KEY_AT ((ptrdiff_t)offsetof(struct sq_rb_node, key) - \
		       (ptrdiff_t)offsetof(struct sq_rb_node, rb_link))

/* Bit 0 of a link's address holds the colour: refuse an odd alignment. */
struct sq_rb__align_probe {
	char c;
	struct sq_rb__link l;
};
typedef char sq_rb__link_alignment_is_at_least_2
	[offsetof(struct sq_rb__align_probe, l) >= 2 ? 1 : -1];

#define SQ_RB__BLACK ((uintptr_t)1)

/* The key of link @l, by the layout rule (struct sq_rb__link). */
SQ__INLINE uint64_t sq_rb__key(const struct sq_rb__link *l)
{
	return *(const uint64_t *)(const void *)
		((const char *)l + SQ_RB__KEY_AT);
}

SQ__INLINE void sq_rb__set_key(struct sq_rb__link *l, uint64_t key)
{
	*(uint64_t *)(void *)((char *)l + SQ_RB__KEY_AT) = key;
}

/*
 * sq_rb__tie_fn - a tie kind's order among equal keys (SQ_RB_TIE): true if
 * @a goes before @b; NULL for the plain kind, which the always-inlined
 * descent folds away.  It compares links; sq_rb__tie_node() is a link's
 * node.
 */
typedef struct sq_rb__link sq_rb__tie_item;
typedef bool (*sq_rb__tie_fn)(const sq_rb__tie_item *a,
			      const sq_rb__tie_item *b);

SQ__INLINE const struct sq_rb_node *sq_rb__tie_node(const sq_rb__tie_item *l)
{
	return sq_entry_const(l, struct sq_rb_node, rb_link);
}

/*
 * sq_rb__before - does @n, given key @key, go before queued link @x?
 * By key; between equal keys by @tie, if any; equal under both, no:
 * @n goes after @x (FIFO).
 */
SQ__INLINE bool sq_rb__before(const struct sq_rb__link *n, uint64_t key,
			      const struct sq_rb__link *x, sq_rb__tie_fn tie)
{
	uint64_t xk = sq_rb__key(x);

	if (tie && key == xk)
		return tie(n, x);
	return key < xk;
}

/* The sq_rb_node that holds link @l (one that is in an sq_rb_node), NULL
 * for NULL.  @l is not const: the tree's own link pointers never are, and
 * a const one would need a cast that drops it (-Wcast-qual). */
SQ__INLINE struct sq_rb_node *sq_rb__node(struct sq_rb__link *l)
{
	return l ? sq_entry(l, struct sq_rb_node, rb_link) : NULL;
}

/* ---- the packed parent word ------------------------------------------ */

SQ__INLINE struct sq_rb__link *sq_rb__parent(const struct sq_rb__link *n)
{
	return (struct sq_rb__link *)(n->rb_parent_color & ~SQ_RB__BLACK);
}

/* The parent of a node known to be red: no mask needed. */
SQ__INLINE struct sq_rb__link *sq_rb__red_parent(const struct sq_rb__link *n)
{
	return (struct sq_rb__link *)n->rb_parent_color;
}

SQ__INLINE bool sq_rb__is_black(const struct sq_rb__link *n)
{
	return (n->rb_parent_color & SQ_RB__BLACK) != 0;
}

/* True for a real red node; a NULL leaf counts as black (property 3). */
SQ__INLINE bool sq_rb__is_red(const struct sq_rb__link *n)
{
	return n && !(n->rb_parent_color & SQ_RB__BLACK);
}

SQ__INLINE void sq_rb__set_parent(struct sq_rb__link *n, struct sq_rb__link *p)
{
	n->rb_parent_color = (uintptr_t)p | (n->rb_parent_color & SQ_RB__BLACK);
}

SQ__INLINE void sq_rb__set_parent_color(struct sq_rb__link *n,
					struct sq_rb__link *p, uintptr_t color)
{
	n->rb_parent_color = (uintptr_t)p | color;
}

/* The child word of @x on side @s (0 left, 1 right): SQ__CHILD. */
#define SQ_RB__CHILD(x, s) \
	SQ__CHILD(struct sq_rb__link, x, rb_left, rb_right, s)

/* Make @parent (or the root, when @parent is NULL) point at @new_child
 * where it pointed at @old_child. */
SQ__INLINE void sq_rb__replace_child(struct sq_rb *q,
				     struct sq_rb__link *parent,
				     const struct sq_rb__link *old_child,
				     struct sq_rb__link *new_child)
{
	if (!parent)
		q->rb_root = new_child;
	else if (parent->rb_left == old_child)
		parent->rb_left = new_child;
	else
		parent->rb_right = new_child;
}

/* ---- the hooks of an augmented tree ------------------------------------
 *
 * A tree that keeps in each node a summary of its subtree (rb_elig.h: the
 * smallest eligibility value in it) hears of every change of shape
 * through hooks, as with the kernel's rbtree_augmented.h.  The bodies
 * that change shape take them as an argument (@aug, @rot) and the plain
 * tree passes NULL: those bodies are always inlined, the hooks are
 * constants at every call, and every test of them folds away.
 *
 * sq_rb__rotated_fn(old, top): a rotation lifted @top above @old, whose
 * new children are linked.  top's subtree holds what old's held, so top
 * takes old's summary; old's is recomputed from its children.
 */
typedef void sq_rb__rotated_fn(struct sq_rb__link *old,
			       struct sq_rb__link *top);

/**
 * struct sq_rb__aug - the hooks of insert, erase and pop
 * @propagate:    recompute the summary of @from (whatever it held: a new
 *                leaf's, a node moved into an erased one's place), then
 *                of each node above it up to @stop, not included (NULL:
 *                through the root); above @from it may end at a node whose
 *                summary did not change: nothing further up changes then
 * @insert_fixup: sq_rb__insert_fixup_aug() with the tree's rotated hook,
 *                out of line as sq_rb__insert_fixup() is
 * @erase_fixup:  sq_rb__erase_fixup_aug() likewise
 */
struct sq_rb__aug {
	void (*propagate)(struct sq_rb__link *from,
			  const struct sq_rb__link *stop);
	void (*insert_fixup)(struct sq_rb *q, struct sq_rb__link *n);
	void (*erase_fixup)(struct sq_rb *q, struct sq_rb__link *p,
			    unsigned side);
};

/* The last step of every rotation: @top takes @old's place and parent
 * word (so its colour); @old becomes @top's child with @color. */
SQ__INLINE void sq_rb__rotate_finish(struct sq_rb *q, struct sq_rb__link *old,
				     struct sq_rb__link *top, uintptr_t color,
				     sq_rb__rotated_fn *rot)
{
	struct sq_rb__link *parent = sq_rb__parent(old);

	top->rb_parent_color = old->rb_parent_color;
	sq_rb__set_parent_color(old, top, color);
	sq_rb__replace_child(q, parent, old, top);
	if (rot)
		rot(old, top);
}

/* ---- insert fix-up (no compare) ---------------------------------------- */

/*
 * sq_rb__insert_fixup - restore (2) and (4) after linking red leaf @n
 *
 * n is red.  While its parent p is red too, the grandparent g exists (the
 * root is black) and is black; u is p's sibling.  The code handles both
 * sides at once: s is p's side under g (0 left, 1 right), u is on side
 * !s.  Pictures show s = 0 (p a left child; s = 1 is their mirror image);
 * upper case is black, lower case red, A B C are subtrees that keep their
 * black height.
 *
 *  Case 1, u red: push g's black down to p and u.  Nothing moves, but g
 *  is red now and may clash with its own parent: go on from g.
 *
 *            G                      g
 *           / \                    / \
 *          p   u       ==>        P   U
 *          |                      |
 *          n                      n
 *
 *  Case 2, u black, n inside (p's child on side !s): rotate p down to
 *  side s, so the red pair points outward; then it is case 3 with the
 *  roles of n and p swapped.
 *
 *            G                      G
 *           / \                    / \
 *          p   U       ==>        n   U
 *         / \                    / \
 *        A   n                  p   C
 *           / \                / \
 *          B   C              A   B
 *
 *  Case 3, u black, n outside: rotate g down to side !s and trade
 *  colours between p and g.  The top of the subtree is black again, with
 *  the same black height: finished.  t is the subtree that changes
 *  parent (the code's variable of that name).
 *
 *            G                      P
 *           / \                    / \
 *          p   U       ==>        n   g
 *         / \                        / \
 *        n   t                      t   U
 *
 * @rot: the augmented tree's rotation hook, NULL for the plain tree.
 */
SQ__INLINE void sq_rb__insert_fixup_aug(struct sq_rb *q, struct sq_rb__link *n,
					sq_rb__rotated_fn *rot)
{
	struct sq_rb__link *p = sq_rb__red_parent(n), *g, *u, *t;
	unsigned s;

	for (;;) {
		SQ__STEP(1);
		if (SQ__UNLIKELY(!p)) {
			/* n is the root: (2) says black. */
			sq_rb__set_parent_color(n, NULL, SQ_RB__BLACK);
			return;
		}
		if (sq_rb__is_black(p))
			return;
		g = sq_rb__red_parent(p);	/* p is red, so g is black */
		s = g->rb_left != p;		/* p's side */
		u = SQ_RB__CHILD(g, !s);
		if (sq_rb__is_red(u)) {
			/* Case 1 */
			sq_rb__set_parent_color(u, g, SQ_RB__BLACK);
			sq_rb__set_parent_color(p, g, SQ_RB__BLACK);
			n = g;
			p = sq_rb__parent(n);
			sq_rb__set_parent_color(n, p, 0);
			continue;
		}
		t = SQ_RB__CHILD(p, !s);
		if (n == t) {
			/* Case 2 */
			t = SQ_RB__CHILD(n, s);
			SQ_RB__CHILD(p, !s) = t;
			SQ_RB__CHILD(n, s) = p;
			if (t)
				sq_rb__set_parent_color(t, p, SQ_RB__BLACK);
			sq_rb__set_parent_color(p, n, 0);
			if (rot)
				rot(p, n);
			p = n;
			t = SQ_RB__CHILD(n, !s);
		}
		/* Case 3 */
		SQ_RB__CHILD(g, s) = t;
		SQ_RB__CHILD(p, !s) = g;
		if (t)
			sq_rb__set_parent_color(t, g, SQ_RB__BLACK);
		sq_rb__rotate_finish(q, g, p, 0, rot);
		return;
	}
}

SQ__SLOW void sq_rb__insert_fixup(struct sq_rb *q, struct sq_rb__link *n)
{
	sq_rb__insert_fixup_aug(q, n, NULL);
}

/* ---- erase fix-up (no compare) ----------------------------------------- */

/*
 * sq_rb__erase_fixup - restore (5) below @p after a black node went away
 *
 * One child x of p (NULL at first; @side says which: 0 left, 1 right) is
 * "short": paths through it count one black fewer than paths through its
 * sibling s, which therefore exists (on side !side).
 * x is black or NULL (a red one would just have been painted black).
 * The code handles both sides at once; pictures show x as the left child
 * (side 0; side 1 is their mirror image).  Upper case black, lower case
 * red, (c) either colour; of s's children, "near" (N) is the one on x's
 * side and "far" (F) the other.
 *
 *  Case 1, s red: rotate p down towards x and trade colours of p and s.
 *  x's new sibling is the old near child, black; cases 2-4 follow and,
 *  p being red now, end at once.
 *
 *            P                      S
 *           / \                    / \
 *          X   s       ==>        p   F
 *             / \                / \
 *            N   F              X   N
 *
 *  Case 2, s black, both its children black: paint s red, so the s side
 *  is short too.  A red p then takes the black back and we are done;
 *  a black p makes the whole subtree short: go on with x = p.
 *
 *           (p)                    (p)
 *           / \                    / \
 *          X   S       ==>        X   s
 *             / \                    / \
 *            N   F                  N   F
 *
 *  Case 3, s black, near red, far black: rotate s down away from x.  The
 *  old near child becomes the sibling, the old s its far child, which is
 *  case 4 (that is where s gets painted black).
 *
 *           (p)                    (p)
 *           / \                    / \
 *          X   S       ==>        X   n
 *             / \                      \
 *            n   F                      S
 *                                        \
 *                                         F
 *
 *  Case 4, s black, far red: rotate p down towards x; s takes p's colour,
 *  p and far turn black.  x's side has gained the black it lacked and
 *  the far side kept its count: finished.
 *
 *           (p)                    (s)
 *           / \                    / \
 *          X   S       ==>        P   F
 *             / \                / \
 *           (n)  f              X  (n)
 *
 * @rot: the augmented tree's rotation hook, NULL for the plain tree.
 */
SQ__INLINE void sq_rb__erase_fixup_aug(struct sq_rb *q, struct sq_rb__link *p,
				       unsigned side, sq_rb__rotated_fn *rot)
{
	struct sq_rb__link *x, *s, *near, *far;

	for (;;) {
		SQ__STEP(1);
		s = SQ_RB__CHILD(p, !side);
		if (!sq_rb__is_black(s)) {
			/* Case 1 */
			near = SQ_RB__CHILD(s, side);
			SQ_RB__CHILD(p, !side) = near;
			SQ_RB__CHILD(s, side) = p;
			sq_rb__set_parent_color(near, p, SQ_RB__BLACK);
			sq_rb__rotate_finish(q, p, s, 0, rot);
			s = near;
		}
		far = SQ_RB__CHILD(s, !side);
		if (!sq_rb__is_red(far)) {
			near = SQ_RB__CHILD(s, side);
			if (!sq_rb__is_red(near)) {
				/* Case 2 */
				sq_rb__set_parent_color(s, p, 0);
				if (!sq_rb__is_black(p)) {
					p->rb_parent_color |= SQ_RB__BLACK;
					return;
				}
				x = p;
				p = sq_rb__parent(x);
				if (!p)
					return;
				side = p->rb_left != x;
				continue;
			}
			/* Case 3: near is red; the old s becomes the far
			 * child, painted black in case 4. */
			far = SQ_RB__CHILD(near, !side);
			SQ_RB__CHILD(s, side) = far;
			SQ_RB__CHILD(near, !side) = s;
			SQ_RB__CHILD(p, !side) = near;
			if (far)
				sq_rb__set_parent_color(far, s, SQ_RB__BLACK);
			if (rot)
				rot(s, near);
			far = s;
			s = near;
		}
		/* Case 4 */
		near = SQ_RB__CHILD(s, side);
		SQ_RB__CHILD(p, !side) = near;
		SQ_RB__CHILD(s, side) = p;
		sq_rb__set_parent_color(far, s, SQ_RB__BLACK);
		if (near)
			sq_rb__set_parent(near, p);
		sq_rb__rotate_finish(q, p, s, SQ_RB__BLACK, rot);
		return;
	}
}

SQ__SLOW void sq_rb__erase_fixup(struct sq_rb *q, struct sq_rb__link *p,
				    unsigned side)
{
	sq_rb__erase_fixup_aug(q, p, side, NULL);
}

/* The erase fix-up of the plain tree (@aug NULL) or of an augmented one. */
SQ__INLINE void sq_rb__erase_fixup_with(struct sq_rb *q, struct sq_rb__link *p,
					unsigned side,
					const struct sq_rb__aug *aug)
{
	(aug ? aug->erase_fixup : sq_rb__erase_fixup)(q, p, side);
}

/* ---- erase (no compare) ------------------------------------------------ */

/* @aug: after the unlink, before the fix-up's rotations: the nodes from
 * @low up lost the erased node, and @y (if not NULL) took its place */
SQ__INLINE void sq_rb__erase_propagate(struct sq_rb__link *y,
				       struct sq_rb__link *low,
				       const struct sq_rb__aug *aug)
{
	if (!aug)
		return;
	if (y) {
		aug->propagate(low, y);
		low = y;
	}
	aug->propagate(low, NULL);
}

/*
 * sq_rb__erase - unlink @n from the tree and rebalance
 *
 * Does not touch rb_leftmost, rb_count or @n's own fields.
 *
 *  - n has at most one child c: c (necessarily a red leaf, by (4) and (5))
 *    takes n's place and n's black colour; nothing else changes.  With no
 *    child, a red n goes without trace, a black n leaves its parent short.
 *  - n has two children: its in-order successor y (leftmost of n's right
 *    subtree, so without left child) takes n's place and colour; y's old
 *    right child c moves into y's old place.  If c exists it is a red leaf
 *    and is painted black; otherwise a black y leaves its old parent short.
 *
 * Colours left out (y takes n's; c, if any, is a red leaf turned black):
 *
 *   y is n's right child            y further down n's right subtree
 *
 *        n             y                 n               y
 *       / \           / \               / \             / \
 *      a   y   -->   a   c             a   r    -->    a   r
 *           \                             /               /
 *            c                          ...             ...
 *                                       /               /
 *                                      y               c
 *                                       \
 *                                        c
 *
 * @aug: the hooks of an augmented tree, NULL for the plain one.
 */
SQ__INLINE void sq_rb__erase(struct sq_rb *q, struct sq_rb__link *n,
			     const struct sq_rb__aug *aug)
{
	struct sq_rb__link *left = n->rb_left, *right = n->rb_right;
	struct sq_rb__link *parent, *short_parent, *y, *c;
	uintptr_t pc = n->rb_parent_color;

	parent = (struct sq_rb__link *)(pc & ~SQ_RB__BLACK);
	if (!left || !right) {
		unsigned side = parent && parent->rb_left != n;

		c = left ? left : right;
		sq_rb__replace_child(q, parent, n, c);
		sq_rb__erase_propagate(NULL, parent, aug);
		if (c) {
			c->rb_parent_color = pc;	/* n was black */
			return;
		}
		if ((pc & SQ_RB__BLACK) && parent)
			sq_rb__erase_fixup_with(q, parent, side, aug);
		return;
	}

	y = right;
	if (!y->rb_left) {
		short_parent = y;
		c = y->rb_right;
	} else {
		do {
			SQ__STEP(1);
			short_parent = y;
			y = y->rb_left;
		} while (y->rb_left);
		c = y->rb_right;
		short_parent->rb_left = c;
		y->rb_right = right;
		sq_rb__set_parent(right, y);
	}
	y->rb_left = left;
	sq_rb__set_parent(left, y);
	sq_rb__replace_child(q, parent, n, y);
	if (c) {
		sq_rb__set_parent_color(c, short_parent, SQ_RB__BLACK);
		y->rb_parent_color = pc;
		sq_rb__erase_propagate(y, short_parent, aug);
	} else {
		bool y_was_black = sq_rb__is_black(y);

		y->rb_parent_color = pc;
		sq_rb__erase_propagate(y, short_parent, aug);
		/* c's place: y's right, or y's parent's left */
		if (y_was_black)
			sq_rb__erase_fixup_with(q, short_parent,
						short_parent == y, aug);
	}
}

/* The node after the cached leftmost @n, in O(1): n has no left child, so
 * by (4) and (5) its right child, if any, is a red leaf, and otherwise
 * the successor is n's parent. */
SQ__INLINE struct sq_rb__link *
sq_rb__after_leftmost(const struct sq_rb__link *n)
{
	return n->rb_right ? n->rb_right : sq_rb__parent(n);
}

/* Mark @n unlinked; under SQ_DEBUG poison its child links. */
SQ__INLINE void sq_rb__unlink(struct sq_rb__link *n)
{
	n->rb_parent_color = (uintptr_t)n;
#ifdef SQ_DEBUG
	n->rb_left = (struct sq_rb__link *)SQ__POISON(1);
	n->rb_right = (struct sq_rb__link *)SQ__POISON(2);
#endif
}

/* ---- the link-level operations ---------------------------------------- */

/* The link after @n in order (@s = 1) or before it (@s = 0), NULL at the
 * end: the mirror images, one by side. */
SQ__INLINE struct sq_rb__link *sq_rb__step(const struct sq_rb__link *n,
					   unsigned s)
{
	struct sq_rb__link *p, *c = s ? n->rb_right : n->rb_left;

	if (c) {
		while (SQ_RB__CHILD(c, !s)) {
			SQ__STEP(1);
			c = SQ_RB__CHILD(c, !s);
		}
		return c;
	}
	while ((p = sq_rb__parent(n)) != NULL && n == SQ_RB__CHILD(p, s)) {
		SQ__STEP(1);
		n = p;
	}
	return p;
}

SQ__INLINE struct sq_rb__link *sq_rb__next(const struct sq_rb__link *n)
{
	return sq_rb__step(n, 1);
}

SQ__INLINE struct sq_rb__link *sq_rb__prev(const struct sq_rb__link *n)
{
	return sq_rb__step(n, 0);
}

/*
 * sq_rb__insert - the comparing descent, then the compare-free fix-up
 *
 * Stores @key as @n's key (layout rule) and links @n.  Equal keys go
 * right (of a tie kind: those that @tie does not put after @n), so @n
 * lands after every node equal to it; the node stays leftmost only if the
 * descent never turned right.  True if @n is now the first.
 */
SQ__INLINE bool sq_rb__insert(struct sq_rb *q, struct sq_rb__link *n,
			      uint64_t key, sq_rb__tie_fn tie,
			      const struct sq_rb__aug *aug)
{
	struct sq_rb__link *cur = q->rb_root, *parent = NULL;
	bool leftmost, went_left = false;

	if (tie)
		sq_rb__set_key(n, key);	/* the user's less may read it */
	/* Both children loaded, one selected: a conditional move, so the
	 * descent has no data-dependent branch to mispredict (which way a
	 * new key turns is a coin flip to a predictor). */
	while (cur) {
		SQ__STEP(1);
		struct sq_rb__link *l = cur->rb_left, *r = cur->rb_right;

		SQ__LOAD_BOTH(l, r);
		parent = cur;
		went_left = sq_rb__before(n, key, cur, tie);
		cur = went_left ? l : r;
	}
	sq_rb__set_key(n, key);
	n->rb_parent_color = (uintptr_t)parent;	/* red */
	n->rb_left = NULL;
	n->rb_right = NULL;
	if (!parent) {
		n->rb_parent_color = SQ_RB__BLACK;	/* (2): a black root */
		q->rb_root = n;
		/* apart from the leftmost's store below: SQ__KEEP_BRANCH
		 * (doc/rbtree.md, "The empty tree") */
		SQ__KEEP_BRANCH();
		leftmost = true;
	} else {
		/* the last turn is not branched on either (SQ__CHILD);
		 * left of the old first means no right turn on the way.
		 * The plain kind compares again (kept apart from the loop's
		 * select, it stays branch-free); a tie kind does not call
		 * its less twice. */
		bool left = tie ? went_left : key < sq_rb__key(parent);
		size_t off = SQ__CHILD_AT(struct sq_rb__link, rb_left,
					  rb_right, !left);

		*(struct sq_rb__link **)(void *)((char *)parent + off) = n;
		/* rarely the first */
		leftmost = parent == q->rb_leftmost && left;
	}
	if (leftmost)
		q->rb_leftmost = n;
	q->rb_count++;
	if (aug)	/* a leaf's summary is its own; its ancestors gain it */
		aug->propagate(n, NULL);
	/* a red leaf under a red parent breaks (4); elsewhere nothing:
	 * no call */
	if (parent && !sq_rb__is_black(parent))
		(aug ? aug->insert_fixup : sq_rb__insert_fixup)(q, n);
	return leftmost;
}

/* Unlink queued link @n and mark it unlinked (common.h: __remove). */
SQ__INLINE void sq_rb__remove(struct sq_rb *q, struct sq_rb__link *n,
			      const struct sq_rb__aug *aug)
{
	if (q->rb_leftmost == n)
		q->rb_leftmost = sq_rb__after_leftmost(n);
	sq_rb__erase(q, n, aug);
	q->rb_count--;
	sq_rb__unlink(n);
}

/* Unlink and return the first link, NULL if empty; its own words are
 * left as they were. */
SQ__INLINE struct sq_rb__link *sq_rb__pop(struct sq_rb *q,
					  const struct sq_rb__aug *aug)
{
	struct sq_rb__link *n = q->rb_leftmost, *parent, *c;
	uintptr_t pc;

	if (SQ__UNLIKELY(!n))
		return NULL;
	/* n has no left child: it is case "at most one child" of erase,
	 * and n is the left child of its parent (or the root). */
	pc = n->rb_parent_color;
	parent = (struct sq_rb__link *)(pc & ~SQ_RB__BLACK);
	c = n->rb_right;
	if (parent) {
		parent->rb_left = c;
	} else {
		q->rb_root = c;
		/* a branch (SQ__KEEP_BRANCH): the next descent's loads
		 * would wait on a store behind a conditional move */
		SQ__KEEP_BRANCH();
	}
	if (aug)	/* c's subtree is whole: the loss is from parent up */
		aug->propagate(parent, NULL);
	if (c) {
		c->rb_parent_color = pc;	/* red leaf takes n's black */
		q->rb_leftmost = c;
	} else {
		q->rb_leftmost = parent;
		if ((pc & SQ_RB__BLACK) && parent)
			sq_rb__erase_fixup_with(q, parent, 0, aug);
	}
	q->rb_count--;
	return n;
}

/* Give queued link @l the key @key (sq_rb_requeue()); @tie as in
 * sq_rb__insert(); @aug: the hooks of an augmented tree, NULL for the
 * plain one.  A key rewritten in place changes no subtree's summary. */
SQ__INLINE bool sq_rb__requeue(struct sq_rb *q, struct sq_rb__link *l,
			       uint64_t key, sq_rb__tie_fn tie,
			       const struct sq_rb__aug *aug)
{
	const struct sq_rb__link *nb;
	bool was_first = q->rb_leftmost == l;

	/* In place iff prev <= (key, l) < next: l must end after every node
	 * equal to it, so an equal next forces a move.  Plain: prev->key <=
	 * key < next->key.  A tie kind's less sees l's fields as they are
	 * now, so a requeue also re-sorts a node whose tie fields changed. */
	nb = sq_rb__next(l);
	if (!nb || sq_rb__before(l, key, nb, tie)) {
		nb = was_first ? NULL : sq_rb__prev(l);
		if (!nb || !sq_rb__before(l, key, nb, tie)) {
			bool changed = was_first && sq_rb__key(l) != key;

			sq_rb__set_key(l, key);
			return changed;
		}
	}
	sq_rb__remove(q, l, aug);
	return sq_rb__insert(q, l, key, tie, aug) || was_first;
}

/* ---- public API: the verbs are documented once, in common.h ------------- */

static inline void sq_rb_init(struct sq_rb *q)
{
	q->rb_root = NULL;
	q->rb_leftmost = NULL;
	q->rb_count = 0;
}

SQ__NO_CLOCK(rb)

static inline void sq_rb_node_init(struct sq_rb_node *n)
{
	n->rb_link.rb_parent_color = (uintptr_t)&n->rb_link;
	n->rb_link.rb_left = NULL;
	n->rb_link.rb_right = NULL;
	n->key = 0;
}

SQ__INLINE bool sq_rb_queued(const struct sq_rb_node *n)
{
	return n->rb_link.rb_parent_color != (uintptr_t)&n->rb_link;
}

static inline bool sq_rb_empty(const struct sq_rb *q)
{
	return q->rb_root == NULL;
}

static inline size_t sq_rb_count(const struct sq_rb *q)
{
	return q->rb_count;
}

static inline struct sq_rb_node *sq_rb_first(const struct sq_rb *q)
{
	return sq_rb__node(q->rb_leftmost);
}

static inline uint64_t sq_rb_key(const struct sq_rb_node *n)
{
	return n->key;
}

static inline struct sq_rb_node *sq_rb_next(const struct sq_rb_node *n)
{
	return sq_rb__node(sq_rb__next(&n->rb_link));
}

static inline struct sq_rb_node *sq_rb_prev(const struct sq_rb_node *n)
{
	return sq_rb__node(sq_rb__prev(&n->rb_link));
}

#ifdef SQ_DEBUG
/* sq_rb__on - is queued link @l in @q's tree (its root is @q's root)?
 * O(log n), for the SQ_DEBUG misuse checks only: dequeue, requeue (and
 * the eligible pick's) through another queue. */
static inline bool sq_rb__on(const struct sq_rb *q, const struct sq_rb__link *l)
{
	const struct sq_rb__link *p;

	while ((p = sq_rb__parent(l)) != NULL) {
		SQ__STEP(1);
		l = p;
	}
	return q->rb_root == l;
}
#endif

/* The verbs that compare or check for misuse, once for the plain kind and
 * the tie kinds (SQ__TIE_KIND): @tie orders equal keys (NULL: FIFO), @who
 * is the verb SQ_DEBUG's messages name. */
SQ__INLINE bool sq_rb__tie_enqueue(struct sq_rb *q, struct sq_rb_node *n,
				   uint64_t key, sq_rb__tie_fn tie,
				   const char *who)
{
	SQ__MISUSE(sq_rb_queued(n), who, "node is already queued");
	return sq_rb__insert(q, &n->rb_link, key, tie, NULL);
}

SQ__INLINE bool sq_rb__tie_dequeue(struct sq_rb *q, struct sq_rb_node *n,
				   sq_rb__tie_fn tie, const char *who)
{
	bool was_first = q->rb_leftmost == &n->rb_link;

	(void)tie;	/* removal never compares */
	SQ__MISUSE(!sq_rb_queued(n), who, "node is not queued");
	SQ__MISUSE(!sq_rb__on(q, &n->rb_link), who, "node is on another queue");
	sq_rb__remove(q, &n->rb_link, NULL);
	return was_first;
}

static inline bool sq_rb_enqueue(struct sq_rb *q, struct sq_rb_node *n,
				 uint64_t key)
{
	return sq_rb__tie_enqueue(q, n, key, NULL, "sq_rb_enqueue");
}

static inline struct sq_rb_node *sq_rb_pop(struct sq_rb *q)
{
	struct sq_rb__link *n = sq_rb__pop(q, NULL);

	if (SQ__UNLIKELY(!n))
		return NULL;
	sq_rb__unlink(n);
	return sq_entry(n, struct sq_rb_node, rb_link);
}

/* pop and pop_due take @tie but never compare */
SQ__INLINE struct sq_rb_node *sq_rb__tie_pop(struct sq_rb *q,
					     sq_rb__tie_fn tie)
{
	(void)tie;
	return sq_rb_pop(q);
}

SQ__INLINE struct sq_rb_node *sq_rb__tie_pop_due(struct sq_rb *q,
						 uint64_t now,
						 sq_rb__tie_fn tie)
{
	const struct sq_rb__link *f = q->rb_leftmost;

	(void)tie;
	return f && sq_rb__key(f) <= now ? sq_rb_pop(q) : NULL;
}

/*
 * sq_rb__walk - visit_until on links, for every node type that embeds the
 * link (each through a small adapter to its node): @fn(link, @arg) on
 * each link in queue order, the next found before @fn runs, until it
 * returns true; that link, or NULL.  @who: the verb SQ_DEBUG names when
 * @fn changes the queue.
 */
static inline struct sq_rb__link *
sq_rb__walk(const struct sq_rb *q, bool (*fn)(struct sq_rb__link *, void *),
	    void *arg, const char *who)
{
	struct sq_rb__link *l = q->rb_leftmost;
	size_t count = q->rb_count;

	(void)count;	/* read only under SQ_DEBUG */
	while (l) {
		SQ__STEP(1);
		struct sq_rb__link *next = sq_rb__next(l);
		bool stop = fn(l, arg);

		/* fn may change q through its own pointer to it */
		/* cppcheck-suppress knownConditionTrueFalse */
		SQ__MISUSE(q->rb_count != count, who, "fn changed the queue");
		if (stop)
			return l;
		l = next;
	}
	return NULL;
}

/*
 * sq_rb__seek - find on links, in O(log n + t): the first link of @key in
 * queue order for which @match holds (NULL: any).  Equal keys are in
 * queue order in the tree (a tie kind's too), so the first is the
 * leftmost, and the descent needs no tie order.  @who: as for the walk.
 */
static inline struct sq_rb__link *
sq_rb__seek(const struct sq_rb *q, uint64_t key,
	    bool (*match)(const struct sq_rb__link *, void *), void *arg,
	    const char *who)
{
	struct sq_rb__link *cur = q->rb_root, *at = NULL;
	size_t count = q->rb_count;

	(void)count;	/* read only under SQ_DEBUG */
	/* the leftmost link whose key is >= @key */
	while (cur) {
		SQ__STEP(1);
		if (sq_rb__key(cur) < key) {
			cur = cur->rb_right;
		} else {
			at = cur;
			cur = cur->rb_left;
		}
	}
	for (; at && sq_rb__key(at) == key; at = sq_rb__next(at)) {
		SQ__STEP(1);
		if (!match || match(at, arg))
			return at;
		/* match may change q through its own pointer to it */
		/* cppcheck-suppress knownConditionTrueFalse */
		SQ__MISUSE(q->rb_count != count, who,
			   "match changed the queue");
	}
	return NULL;
}

/* The user's function of visit_until or find, for the walk and seek. */
struct sq_rb__call {
	bool (*until)(struct sq_rb_node *, void *);
	bool (*match)(const struct sq_rb_node *, void *);
	void *arg;
};

static inline bool sq_rb__until_one(struct sq_rb__link *l, void *p)
{
	const struct sq_rb__call *c = (const struct sq_rb__call *)p;

	return c->until(sq_rb__node(l), c->arg);
}

static inline bool sq_rb__match_one(const struct sq_rb__link *l, void *p)
{
	const struct sq_rb__call *c = (const struct sq_rb__call *)p;

	return c->match(sq_entry_const(l, struct sq_rb_node, rb_link), c->arg);
}

/* visit_until (SQ__VISIT) and find of the plain kind and the tie kinds */
static inline struct sq_rb_node *
sq_rb__visit_until(const struct sq_rb *q,
		   bool (*fn)(struct sq_rb_node *, void *), void *arg,
		   const char *who)
{
	struct sq_rb__call c = { fn, NULL, arg };

	return sq_rb__node(sq_rb__walk(q, sq_rb__until_one, &c, who));
}

static inline struct sq_rb_node *
sq_rb__tie_find(const struct sq_rb *q, uint64_t key,
		bool (*match)(const struct sq_rb_node *, void *), void *arg,
		sq_rb__tie_fn tie, const char *who)
{
	struct sq_rb__call c = { NULL, match, arg };

	(void)tie;
	return sq_rb__node(sq_rb__seek(q, key, match ? sq_rb__match_one : NULL,
				       &c, who));
}

SQ__VISIT(rb)

SQ__INLINE bool sq_rb__tie_requeue(struct sq_rb *q, struct sq_rb_node *n,
				   uint64_t key, sq_rb__tie_fn tie,
				   const char *who)
{
	struct sq_rb__link *l = &n->rb_link;

	if (!sq_rb_queued(n))
		return sq_rb__insert(q, l, key, tie, NULL);
	SQ__MISUSE(!sq_rb__on(q, l), who, "node is on another queue");
	return sq_rb__requeue(q, l, key, tie, NULL);
}

/* check: properties (1)-(8), (6) in the order of sq_rb__before() of a
 * tie kind; O(n), iterative over parent links, O(1) extra space */
static inline int sq_rb__tie_check(const struct sq_rb *q, sq_rb__tie_fn tie,
				   const char *who)
{
	const struct sq_rb__link *cur = q->rb_root, *from = NULL, *last = NULL;
	size_t seen = 0, blacks, leaf_blacks = 0;
	bool have_leaf = false;

	if (!cur) {
		SQ__CHECK(q->rb_leftmost == NULL, who, q->rb_leftmost,
			  "leftmost set in an empty tree");
		SQ__CHECK(q->rb_count == 0, who, cur, "count of an empty tree");
		return 0;
	}
	SQ__CHECK(sq_rb__parent(cur) == NULL, who, cur, "root has a parent");
	SQ__CHECK(sq_rb__is_black(cur), who, cur, "root is red");
	blacks = 1;

	/*
	 * Walk in order without a stack: @from says where we came from (the
	 * parent: first visit; the left child: visit; the right child: done).
	 * Child links are checked against parent links before we go down, so
	 * a broken tree cannot send the walk around in a cycle.
	 */
	while (cur) {
		SQ__STEP(1);
		const struct sq_rb__link *l = cur->rb_left, *r = cur->rb_right;

		if (from == sq_rb__parent(cur)) {
			/* first arrival from above */
			SQ__CHECK(l != cur && r != cur, who, cur,
				  "node is its own child");
			SQ__CHECK(!l || l != r, who, cur,
				  "both children are one node");
			SQ__CHECK(!l || sq_rb__parent(l) == cur, who, l,
				  "left child's parent link");
			SQ__CHECK(!r || sq_rb__parent(r) == cur, who, r,
				  "right child's parent link");
			SQ__CHECK(sq_rb__is_black(cur) ||
				  (!sq_rb__is_red(l) && !sq_rb__is_red(r)),
				  who, cur, "red node with a red child");
			if (!l || !r) {
				if (!have_leaf) {
					leaf_blacks = blacks;
					have_leaf = true;
				}
				SQ__CHECK(blacks == leaf_blacks, who, cur,
					  "black heights differ");
			}
			if (l) {
				from = cur;
				cur = l;
				blacks += sq_rb__is_black(cur);
				continue;
			}
		}
		if (from != r || !r) {
			/* from the left child, or from above with no left:
			 * visit cur in order */
			SQ__CHECK(++seen <= q->rb_count, who, cur,
				  "more nodes than the count");
			if (!last)
				SQ__CHECK(q->rb_leftmost == cur, who, cur,
					  "leftmost is not the minimum");
			else
				SQ__CHECK(!sq_rb__before(cur, sq_rb__key(cur),
							 last, tie),
					  who, cur, "keys out of order");
			last = cur;
			if (r) {
				from = cur;
				cur = r;
				blacks += sq_rb__is_black(cur);
				continue;
			}
		}
		/* subtree of cur done: go up */
		blacks -= sq_rb__is_black(cur);
		from = cur;
		cur = sq_rb__parent(cur);
	}
	SQ__CHECK(seen == q->rb_count, who, last, "fewer nodes than the count");
	return 0;
}

SQ__TIE_PLAIN(rb)

/**
 * SQ_RB_TIE - declare a red-black queue kind ordered by (key, less)
 * @name: the new kind's token: struct sq_@name, struct sq_@name_node and
 *        the verbs sq_@name_init ... sq_@name_check, next and prev, so
 *        SQ_ENQUEUE(@name, ...) and every SQ_* macro take it as they take rb
 * @less: bool less(const struct sq_@name_node *a,
 *                  const struct sq_@name_node *b),
 *        a static function the user defines after the macro: true if @a
 *        goes before @b
 *
 * Between nodes of equal key the order is @less, a strict weak order
 * (as for qsort); it is consulted only there, and nodes equal under both
 * keep FIFO.  The node wraps struct sq_rb_node as .base: its key is
 * n->base.key, or SQ_KEY(@name, n) as for any kind.  While a node is
 * queued the fields @less reads must not change, except just before a
 * requeue of that node, which puts it where they now say.  Costs are
 * rb's: first() is the cached leftmost, O(1); enqueue calls @less at
 * most once per level it descends past an equal key.
 *
 *	SQ_RB_TIE(evq, ev_less);
 *	struct event { uint64_t uid; SQ_NODE(evq) node; };
 *	static bool ev_less(const SQ_NODE(evq) *a, const SQ_NODE(evq) *b)
 *	{ return sq_entry_const(a, struct event, node)->uid <
 *		 sq_entry_const(b, struct event, node)->uid; }
 */
#define SQ_RB_TIE(name, less)						\
	SQ__TIE_KIND(rb, name, less)					\
	SQ__TIE_INORDER(rb, name)					\
	struct sq_##name##__tie_kind	/* the user's ';' ends it */

#undef SQ_RB__CHILD

#endif /* SMARTQ_RBTREE_H */
