/* SPDX-License-Identifier: MIT */
/*
 * smartq/gavl_elig.h - eligible pick on a GAVL tree (KIND = egavl)
 *
 * The gavl queue whose nodes also carry an eligibility value elig, with
 * sq_egavl_pick_eligible(q, limit): the first node in key order whose
 * elig is at most limit, in O(log n).  The pick, its costs and every verb
 * are smartq/elig_tree.h's, written once for erb and egavl.  This file
 * holds what is gavl's own: the node, where a gavl node keeps its parent,
 * and the hooks through which gavl.h's rebalancing keeps the minima: its
 * rotations out of line as gavl's own, with the rotated hook inlined.
 *
 * The augment, on top of gavl's (1)-(5) (gavl.h), verified by
 * sq_egavl_check():
 *
 *   (6) eg_min(x) = min(elig(x), eg_min(left(x)), eg_min(right(x))).
 *
 * Reading order: the node; where a node's parent is; the fix-ups and
 * sq_egavl__aug; the verbs that are gavl's own.  The cut-first pop moves
 * the first node's right subtree up whole, so only the minima from its
 * parent up can change, and the walk that fixes them ends at the first
 * that stays.
 */
#ifndef SMARTQ_GAVL_ELIG_H
#define SMARTQ_GAVL_ELIG_H

#include "common.h"
#include "gavl.h"
#include "elig_tree.h"

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

/* ---- how the layer reads a gavl node, and the hooks ---------------------- */

static inline void *sq_egavl__parent(const void *g)
{
	return ((const struct sq_gavl_node *)g)->gv_parent;
}

/* cppcheck-suppress ctuuninitvar ; macro-made: see elig_tree.h */
SQ__ELIG_TREE(egavl, struct sq_gavl_node, gavl, gv_left, gv_right,
	      sq_gavl_next, sq_gavl_prev, eg_min, "(6)")

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

/* find: the tree's, which needs no tie order */
static inline struct sq_gavl_node *
sq_egavl__seek(const struct sq_gavl *t, uint64_t key,
	       bool (*match)(const struct sq_gavl_node *, void *), void *arg,
	       const char *who)
{
	return sq_gavl__tie_find(t, key, match, arg, NULL, who);
}

/* ---- the verbs that are gavl's own --------------------------------------- */

/* the verbs (common.h); node_init leaves elig 0 */
static inline void sq_egavl_node_init(struct sq_egavl_node *n)
{
	sq_gavl_node_init(&n->gavl);
	n->elig = 0;
	n->eg_min = 0;
}

SQ__INLINE bool sq_egavl_queued(const struct sq_egavl_node *n)
{
	return sq_gavl_queued(&n->gavl);
}

static inline uint64_t sq_egavl_key(const struct sq_egavl_node *n)
{
	return n->gavl.key;
}

/* pop: the first node, eligible or not; O(log n), no rotation (the cut) */
static inline struct sq_egavl_node *sq_egavl_pop(struct sq_egavl *q)
{
	struct sq_gavl_node *f = q->eg_tree.gv_first;

	if (!f)
		return NULL;
	sq_gavl__remove(&q->eg_tree, f, &sq_egavl__aug);
	return sq_egavl__node(f);
}

/* every other verb, pick_eligible and set_elig: elig_tree.h */
/* cppcheck-suppress [ctunullpointer,ctuuninitvar] ; see elig_tree.h */
SQ__ELIG_KIND(egavl, gavl, struct sq_gavl_node, eg_tree, gavl,
	      gv_first, gv_root, sq_gavl__visit_until, sq_egavl__seek)

#endif /* SMARTQ_GAVL_ELIG_H */
