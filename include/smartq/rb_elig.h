/* SPDX-License-Identifier: MIT */
/*
 * smartq/rb_elig.h - eligible pick on a red-black tree (KIND = erb)
 *
 * The rb queue whose nodes also carry an eligibility value elig, with
 * sq_erb_pick_eligible(q, limit): the first node in key order whose elig
 * is at most limit, in O(log n).  The pick, its costs and every verb are
 * smartq/elig_tree.h's, written once for erb and egavl.  This file holds
 * what is rb's own: the node, where an rb link keeps its parent, and the
 * hooks through which rbtree.h's rebalancing keeps the minima: its
 * fix-ups out of line as rb's own, with the rotated hook inlined.
 *
 * The augment, on top of rb's (1)-(8) (rbtree.h), verified by
 * sq_erb_check():
 *
 *   (9) erb_min(x) = min(elig(x), erb_min(left(x)), erb_min(right(x))),
 *       a missing child counting as no constraint.
 *
 * Reading order: the node; where a link's parent is; the fix-ups and
 * sq_erb__aug; the verbs that are rb's own.
 */
#ifndef SMARTQ_RB_ELIG_H
#define SMARTQ_RB_ELIG_H

#include "common.h"
#include "rbtree.h"
#include "elig_tree.h"

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

/* ---- how the layer reads an rb link, and the hooks ----------------------- */

/* The parent word holds the colour too. */
static inline void *sq_erb__parent(const void *l)
{
	return sq_rb__parent((const struct sq_rb__link *)l);
}

/* cppcheck-suppress ctuuninitvar ; macro-made: see elig_tree.h */
SQ__ELIG_TREE(erb, struct sq_rb__link, rb_link, rb_left, rb_right,
	      sq_rb__next, sq_rb__prev, erb_min, "(9)")

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

/* ---- the verbs that are rb's own ----------------------------------------- */

/* the verbs (common.h); node_init leaves elig 0 */
static inline void sq_erb_node_init(struct sq_erb_node *n)
{
	n->key = 0;
	n->rb_link.rb_parent_color = (uintptr_t)&n->rb_link;
	n->rb_link.rb_left = NULL;
	n->rb_link.rb_right = NULL;
	n->elig = 0;
	n->erb_min = 0;
}

SQ__INLINE bool sq_erb_queued(const struct sq_erb_node *n)
{
	/* cppcheck-suppress ctunullpointer ; macro-made caller: elig_tree.h */
	return n->rb_link.rb_parent_color != (uintptr_t)&n->rb_link;
}

static inline uint64_t sq_erb_key(const struct sq_erb_node *n)
{
	return n->key;
}

/* pop: the first node, eligible or not; O(log n) */
static inline struct sq_erb_node *sq_erb_pop(struct sq_erb *q)
{
	struct sq_rb__link *l = sq_rb__pop(&q->erb_tree, &sq_erb__aug);

	if (SQ__UNLIKELY(!l))
		return NULL;
	sq_rb__unlink(l);
	return sq_erb__node(l);
}

/* every other verb, pick_eligible and set_elig: elig_tree.h */
/* cppcheck-suppress [ctunullpointer,ctuuninitvar] ; see elig_tree.h */
SQ__ELIG_KIND(erb, rb, struct sq_rb__link, erb_tree, rb_link,
	      rb_leftmost, rb_root, sq_rb__walk, sq_rb__seek)

#endif /* SMARTQ_RB_ELIG_H */
