/* SPDX-License-Identifier: MIT */
/*
 * smartq/binomial.h - binomial heap with a cached minimum   (KIND = binom)
 *
 * The structure William Lee Irwin III suggested for the CFS timeline in
 * 2007: the next node to run sits at a root, not at a leaf.
 *
 * A binomial tree B_k is a single node when k = 0, and otherwise two B_(k-1)
 * linked so that the root with the larger value becomes the first child of
 * the other.  Its root has k children, of degrees k-1, k-2, ... 0, and it
 * holds 2^k nodes.  A heap of n nodes keeps one B_k for each set bit k of n,
 * exactly like the digits of a binary number; adding a node is adding 1.
 *
 *	link(a, b), a < b, both B_2:        the result, a B_3:
 *
 *	   a        b                            a
 *	  / \       |\                        /  |  \
 *	 o   o      o o                      b   o   o
 *	 |          |                       / \  |
 *	 o          o                      o   o o
 *	                                   |
 *	                                   o
 *
 * Reading order: sq_binom__carry (adding a tree is adding 1, the link
 * above), sq_binom__insert and sq_binom__scan_min (the cached minimum),
 * then sq_binom__remove (a node's children become a heap that is carried
 * back in); the public verbs after them are thin.
 *
 * Stability.  A heap alone is not stable, so each node carries a stamp
 * from a counter in the queue, taken on every enqueue and requeue, and all
 * comparisons are on (key, stamp).  Every pair is distinct, the order is
 * total, and pops come out in exactly the order of the smartq trees:
 * smallest key first, earliest (re)queued among equal keys.  A tie kind
 * (SQ_BINOM_TIE, at the end) compares on (key, less, stamp): the user's
 * less() between equal keys, the stamp between nodes equal under both.
 * Every compare goes through sq_binom__challenge() or
 * sq_binom__newest_before(), which take the tie order as a parameter,
 * NULL for the plain kind, which then compiles as if there were none.
 * When the counter reaches 2^58 (the stamp's width, SQ_BINOM__DEG_BITS),
 * the next enqueue or requeue first renumbers the queued nodes 0, 1, ...
 * in their order (sq_binom__renumber(): O(n log n) once, nothing
 * amortised), so a queue that runs for ever neither wraps its counter nor
 * changes its order.
 *
 * Intrusive.  Nodes move, keys never do: an arbitrary dequeue takes the
 * node's tree apart along the path from its root (see sq_binom__remove())
 * instead of sifting the node up by swapping keys with its ancestors.
 *
 * Invariants (sq_binom_check() verifies each of them):
 *  1. The occupied degrees are exactly the set bits of bh_count: for each
 *     bit d set, bh_roots[d] is a root of degree d with bh_parent NULL;
 *     for each bit clear, bh_roots[d] is NULL (the carry tests the slot,
 *     the pop's scan of the other roots walks the bits).
 *  2. Each tree is a true binomial tree: a node of degree d (the low six
 *     bits of bh_seqdeg) has exactly d children, linked from bh_child (the
 *     child of highest degree) along bh_next with degrees d-1, d-2, ... 0,
 *     each child's bh_parent pointing back at it.  So a tree of degree d
 *     holds 2^d nodes, and the i-th child from bh_child has degree d-1-i:
 *     the pop and the dequeue count degrees instead of reading them.
 *  3. Heap order: every node is less than each of its children on
 *     (key, stamp) (a tie kind: (key, less, stamp)).
 *  4. Every queued node's stamp is below the queue's counter, and the
 *     counter is at most 2^58 (the stamp's width).
 *  5. The nodes in the trees number bh_count.
 *  6. bh_min is the smallest root (hence the smallest node), NULL if empty.
 *  A node not on a queue has bh_parent pointing at itself.
 *
 * Costs (n nodes):
 *	enqueue		O(1) amortised, O(log n) worst case (the carry chain)
 *	first		O(1): the cached minimum
 *	pop		O(log n): release its children and carry them in,
 *			the new minimum found among them and the other roots
 *	dequeue		O(log n): as pop, along the path from the root
 *	requeue		O(log n); in place when the node stays above its
 *			children and below its parent
 *	sizes		a queue is 64 root pointers plus three words (536
 *			bytes on LP64); a node is key, stamp and degree in
 *			one word, and three pointers (40 bytes on LP64)
 *
 * In the hold loop (pop, advance the key, enqueue) each link undoes a root
 * that a pop released, so a loop links as often as the popped root had
 * children: about log2(n) - 1 at any n (the minimum tends to sit in the
 * largest tree; at n = 2^k the enqueue carries through all k trees the
 * pop left, the amortised bound's worst case).  With the release that is
 * some 2 log2(n) small steps, against one descent in the trees.  Links
 * and the search for the minimum select without branching
 * (sq_binom__challenge()) and keep the winner's key in registers, so a
 * loop costs instructions, not mispredictions.  What it waits for is the
 * pop's walk along the popped root's children, one dependent load each:
 * so the walk is counted by degree (sq_binom__release() says why), and
 * the new minimum is challenged child by child as the chain delivers
 * them, not in a scan of all roots after it.  The measurements are in
 * doc/binomial.md.
 *
 * Context: no allocation, no locks (the caller serialises), no recursion.
 */
#ifndef SMARTQ_BINOMIAL_H
#define SMARTQ_BINOMIAL_H

#include "common.h"

/**
 * struct sq_binom_node - the link a user embeds in the struct to be queued
 * @key:       the priority, smallest first; readable, set by enqueue/requeue
 * @bh_seqdeg: the (re)queue stamp, which breaks ties between equal keys,
 *             shifted left by SQ_BINOM__DEG_BITS, or'ed with the number of
 *             children (the degree)
 * @bh_parent: parent in its tree, NULL for a root, the node itself when
 *             the node is not queued
 * @bh_child:  first child, the one of highest degree; NULL if degree 0
 * @bh_next:   next sibling, of the next lower degree (unused on roots)
 *
 * bh_next is kept apart from bh_parent: side by side, gcc merges a link's
 * two stores to the loser into one 16-byte store, slower in the hold loop.
 */
struct sq_binom_node {
	uint64_t key;
	uint64_t bh_seqdeg;
	struct sq_binom_node *bh_parent;
	struct sq_binom_node *bh_child;
	struct sq_binom_node *bh_next;
};

/*
 * The degree lives in the low six bits of bh_seqdeg (a heap of fewer than
 * 2^64 nodes has degrees 0..63), the stamp above them.  Stamps are
 * distinct, so the order on (key, bh_seqdeg) is the order on (key, stamp)
 * whatever the degrees, and a link can bump the winner's degree without
 * changing the order.  The stamp has 58 bits: 2^58 enqueues and requeues
 * are nine years at 10^9 a second.
 */
#define SQ_BINOM__DEG_BITS 6
#define SQ_BINOM__DEG_MASK ((uint64_t)63)
/* the first stamp that does not fit: the counter is renumbered there */
#define SQ_BINOM__SEQ_END ((uint64_t)1 << (64 - SQ_BINOM__DEG_BITS))

/* sq_binom__degree - the number of children of @n. */
SQ__INLINE unsigned sq_binom__degree(const struct sq_binom_node *n)
{
	return (unsigned)(n->bh_seqdeg & SQ_BINOM__DEG_MASK);
}

SQ__INLINE uint64_t sq_binom__stamp(const struct sq_binom_node *n)
{
	return n->bh_seqdeg >> SQ_BINOM__DEG_BITS;
}

SQ__INLINE void sq_binom__set_degree(struct sq_binom_node *n, unsigned d)
{
	n->bh_seqdeg = (n->bh_seqdeg & ~SQ_BINOM__DEG_MASK) | d;
}

/**
 * struct sq_binom - a binomial heap
 * @bh_roots: the root of degree d at index d, NULL where bit d of
 *            @bh_count is clear
 * @bh_min:   the smallest root, NULL when empty
 * @bh_count: number of queued nodes; its set bits are the occupied degrees
 * @bh_seq:   the next stamp to give, at most SQ_BINOM__SEQ_END; a plain
 *            field, so a test can start it near the end
 */
struct sq_binom {
	struct sq_binom_node *bh_roots[64];
	struct sq_binom_node *bh_min;
	size_t bh_count;
	uint64_t bh_seq;
};

/*
 * sq_binom__mask - all ones if @c, else 0.  The comparisons that decide
 * links and the minimum are coin flips to a branch predictor, so their
 * results select with arithmetic instead of a branch.  SQ__OPAQUE hides
 * the mask's origin, or clang turns it back into a branch inside loops.
 * 64 bits wide: it selects keys and stamps, 64-bit on every target (a
 * uintptr_t mask would select half of each on a 32-bit one).
 */
SQ__INLINE uint64_t sq_binom__mask(bool c)
{
	uint64_t m = (uint64_t)0 - (uint64_t)c;

	SQ__OPAQUE(m);
	return m;
}

/* sq_binom__before - (ak, as) < (bk, bs): the (key, seq) order on values
 * already in registers, so a chain of compares never waits for a load. */
SQ__INLINE bool sq_binom__before(uint64_t ak, uint64_t as, uint64_t bk,
				 uint64_t bs)
{
#if defined(SQ__GNUC) && defined(__SIZEOF_INT128__)
	__extension__ typedef unsigned __int128 sq_binom__u128;

	return ((sq_binom__u128)ak << 64 | as) <
	       ((sq_binom__u128)bk << 64 | bs);
#else
	return ak < bk || (ak == bk && as < bs);
#endif
}

/*
 * sq_binom__tie_fn - the order among equal keys of a tie kind
 * (SQ_BINOM_TIE): true if @a goes before @b.  It compares nodes
 * (sq_binom__tie_item); the plain kind passes NULL.
 */
typedef struct sq_binom_node sq_binom__tie_item;
typedef bool (*sq_binom__tie_fn)(const sq_binom__tie_item *a,
				 const sq_binom__tie_item *b);

SQ__INLINE const struct sq_binom_node *
sq_binom__tie_node(const sq_binom__tie_item *n)
{
	return n;
}

/*
 * sq_binom__tie_before - (ak, @a, as) < (bk, @b, bs): (key, less, seq),
 * @tie not NULL.  @b may be NULL, a sentinel that only keys and
 * sequences compare against (sq_binom__tie_pop()'s start).  One call of
 * @tie: stamps are distinct, so between equal keys the younger node (the
 * larger stamp) goes first exactly when @tie puts it before the older,
 * and a is first when that answer differs from "a is the older".  Both
 * the nodes handed to @tie and the answer are selected without a branch:
 * which one is younger is a coin flip to a predictor.
 */
SQ__INLINE bool sq_binom__tie_before(const struct sq_binom_node *a,
				     uint64_t ak, uint64_t as,
				     const struct sq_binom_node *b,
				     uint64_t bk, uint64_t bs,
				     sq_binom__tie_fn tie)
{
	const struct sq_binom_node *young, *old;
	bool a_old;

	if (ak != bk)
		return ak < bk;
	a_old = as < bs;
	if (!b)
		return a_old;
#ifdef SQ__PTR_MASK
	{
		uintptr_t d = ((uintptr_t)a ^ (uintptr_t)b) &
			      (uintptr_t)sq_binom__mask(a_old);

		young = (const struct sq_binom_node *)((uintptr_t)a ^ d);
		old = (const struct sq_binom_node *)((uintptr_t)b ^ d);
	}
#else
	young = a_old ? b : a;
	old = a_old ? a : b;
#endif
	return tie(young, old) != a_old;
}

/* sq_binom__less - the order on queued nodes: (key, seq), or (key, @tie,
 * seq); strict and total. */
SQ__INLINE bool sq_binom__less(const struct sq_binom_node *a,
			       const struct sq_binom_node *b,
			       sq_binom__tie_fn tie)
{
	if (tie)
		return sq_binom__tie_before(a, a->key, a->bh_seqdeg, b, b->key,
					    b->bh_seqdeg, tie);
	return sq_binom__before(a->key, a->bh_seqdeg, b->key, b->bh_seqdeg);
}

/*
 * sq_binom__newest_before - does @n, with key @key and the newest stamp
 * (it is being (re)queued), go before queued node @x?  Its stamp loses
 * every tie, so: a smaller key, or an equal one that @tie puts first.
 */
SQ__INLINE bool sq_binom__newest_before(const struct sq_binom_node *n,
					uint64_t key,
					const struct sq_binom_node *x,
					sq_binom__tie_fn tie)
{
	if (tie && key == x->key)
		return tie(n, x);
	return key < x->key;
}

/*
 * sq_binom__select - the move behind every link and every search for the
 * minimum: if @x (key @xk, sequence @xs) wins, it becomes the winner
 * (*@w, *@wk, *@ws) and the old winner goes to *@l; else @x goes to *@l.
 * @x wins if @c, or, when @by_order (@c unused), if it comes first on
 * (key, seq).  Without a branch: which one wins is a coin flip to a
 * predictor.  On x86-64 four conditional moves, after a test of @c or
 * after the compare (two instructions for the 128-bit order, whose borrow
 * is the condition): gcc turns four C selects into a branch, hence the
 * asm.  Elsewhere the selects go through sq_binom__mask().
 */
#ifdef SQ__X86_64
/* The four moves, made when condition @cc holds (x wins); {AT&T|Intel}
 * operand orders, so -masm=intel assembles them too. */
#define SQ_BINOM__CMOVS(cc)						\
	"cmov" cc " {%[win], %[lose]|%[lose], %[win]}\n\t"		\
	"cmov" cc " {%[x], %[win]|%[win], %[x]}\n\t"			\
	"cmov" cc " {%[xk], %[k]|%[k], %[xk]}\n\t"			\
	"cmov" cc " {%[xs], %[sq]|%[sq], %[xs]}"
#endif
SQ__INLINE void sq_binom__select(bool by_order, bool c,
				 struct sq_binom_node **w, uint64_t *wk,
				 uint64_t *ws, struct sq_binom_node **l,
				 struct sq_binom_node *x, uint64_t xk,
				 uint64_t xs)
{
#ifdef SQ__X86_64
	struct sq_binom_node *win = *w, *lose = x;
	uint64_t k = *wk, sq = *ws, tmp = xk;
	unsigned char cc = (unsigned char)c;

	/* xs - sq borrows if xs < sq; then xk - k - borrow: CF = x first */
	if (by_order)
		__asm__("cmp {%[sq], %[xs]|%[xs], %[sq]}\n\t"
			"sbb {%[k], %[tmp]|%[tmp], %[k]}\n\t"
			SQ_BINOM__CMOVS("b")
			: [win] "+&r"(win), [lose] "+&r"(lose), [k] "+&r"(k),
			  [sq] "+&r"(sq), [tmp] "+&r"(tmp)
			: [x] "r"(x), [xk] "r"(xk), [xs] "r"(xs)
			: "cc");
	else
		__asm__("test {%[c], %[c]|%[c], %[c]}\n\t"
			SQ_BINOM__CMOVS("nz")
			: [win] "+&r"(win), [lose] "+&r"(lose), [k] "+&r"(k),
			  [sq] "+&r"(sq)
			: [c] "q"(cc), [x] "r"(x), [xk] "r"(xk), [xs] "r"(xs)
			: "cc");
	*w = win;
	*l = lose;
	*wk = k;
	*ws = sq;
#else
	uint64_t m;

	if (by_order)
		c = sq_binom__before(xk, xs, *wk, *ws);
	m = sq_binom__mask(c);
#ifdef SQ__PTR_MASK
	/* a pointer select on its address: see SQ__PTR_MASK */
	uintptr_t d = ((uintptr_t)x ^ (uintptr_t)*w) & (uintptr_t)m;

	*l = (struct sq_binom_node *)((uintptr_t)x ^ d);
	*w = (struct sq_binom_node *)((uintptr_t)*w ^ d);
#else
	struct sq_binom_node *win = *w;

	*l = m ? win : x;
	*w = m ? x : win;
#endif
	*wk ^= (xk ^ *wk) & m;
	*ws ^= (xs ^ *ws) & m;
#endif
}
#undef SQ_BINOM__CMOVS

/*
 * sq_binom__challenge - @x, with key @xk and sequence @xs, challenges the
 * winner so far (*@w, whose key and sequence are *@wk and *@ws) in the
 * order of @tie: on (key, seq) when it is NULL; a tie kind's compare calls
 * the user's less between equal keys (once, sq_binom__tie_before()) and
 * its answer selects without a branch too.
 */
SQ__INLINE void sq_binom__challenge(struct sq_binom_node **w, uint64_t *wk,
				    uint64_t *ws, struct sq_binom_node **l,
				    struct sq_binom_node *x, uint64_t xk,
				    uint64_t xs, sq_binom__tie_fn tie)
{
	if (!tie)
		sq_binom__select(true, false, w, wk, ws, l, x, xk, xs);
	else
		sq_binom__select(false, sq_binom__tie_before(x, xk, xs, *w, *wk,
							     *ws, tie),
				 w, wk, ws, l, x, xk, xs);
}

/*
 * sq_binom__carry - add the root @t of degree @d to the roots: binary
 * addition of 2^d, so while the slot is taken, link and carry up.  The
 * caller adds 2^d to bh_count (at once or at the end).  @t must have
 * bh_parent NULL (checked under SQ_DEBUG).
 *
 * Each link joins two roots of equal degree: the larger becomes the first
 * child of the smaller, whose degree grows.  The winner's key and sequence
 * stay in registers, so the next link compares at once instead of waiting
 * for a load from the node it just chose (the chain is the carry's cost).
 */
SQ__INLINE void sq_binom__carry(struct sq_binom *q, struct sq_binom_node *t,
				unsigned d, sq_binom__tie_fn tie)
{
	struct sq_binom_node *o, *a, *b;
	uint64_t tk = t->key, ts = t->bh_seqdeg;

	SQ__MISUSE(t->bh_parent, "sq_binom__carry",
		   "the new root has a parent");
	while ((o = q->bh_roots[d]) != NULL) {
		SQ__STEP(1);
		/* a = the smaller root, b = the other; both have degree d,
		 * so ts is a's word, and ts + 1 gives a degree d + 1 */
		a = t;
		sq_binom__challenge(&a, &tk, &ts, &b, o, o->key, o->bh_seqdeg,
				    tie);
		b->bh_parent = a;
		b->bh_next = a->bh_child;
		a->bh_child = b;
		a->bh_seqdeg = ++ts;
		q->bh_roots[d] = NULL;
		d++;
		t = a;
	}
	q->bh_roots[d] = t;
}

/*
 * sq_binom__release - carry siblings into the roots, each as a tree of its
 * own: @c, of degree @hi - 1, and those after it down to degree @lo.  The
 * children of a node are binomial trees of distinct degrees, and so is
 * everything sq_binom__remove() releases.
 *
 * The loop counts degrees, known at once, instead of testing for the end
 * of the list: each bh_next may be a cache miss, and an exit on a NULL
 * bh_next would wait for the whole chain of loads, mispredicted whenever
 * the degree differs from the last pop's, stalling all that follows.
 * Counted, the exit resolves early and the rest of the pop and the
 * caller's next steps run while the chain is still loading.
 */
SQ__INLINE void sq_binom__release(struct sq_binom *q, struct sq_binom_node *c,
				  unsigned hi, unsigned lo,
				  sq_binom__tie_fn tie)
{
	struct sq_binom_node *next;

	while (hi > lo) {
		SQ__STEP(1);
		hi--;
		next = c->bh_next;
		c->bh_parent = NULL;
		sq_binom__carry(q, c, hi, tie);
		c = next;
	}
}

/* sq_binom__scan_min - the smallest root, NULL when empty.  The best key
 * and sequence so far stay in registers, as in sq_binom__carry(). */
SQ__INLINE struct sq_binom_node *sq_binom__scan_min(const struct sq_binom *q,
						    sq_binom__tie_fn tie)
{
	uint64_t occ = (uint64_t)q->bh_count, mk, ms;
	struct sq_binom_node *m, *t, *l;

	if (!occ)
		return NULL;
	m = q->bh_roots[sq__ctz64(occ)];
	mk = m->key;
	ms = m->bh_seqdeg;
	occ &= occ - 1;
	while (occ) {
		SQ__STEP(1);
		t = q->bh_roots[sq__ctz64(occ)];
		sq_binom__challenge(&m, &mk, &ms, &l, t, t->key, t->bh_seqdeg,
				    tie);
		occ &= occ - 1;
	}
	return m;
}

/* sq_binom__unlink - mark @x unqueued; poison its other links under
 * SQ_DEBUG. */
SQ__INLINE void sq_binom__unlink(struct sq_binom_node *x)
{
	x->bh_parent = x;
#ifdef SQ_DEBUG
	x->bh_child = (struct sq_binom_node *)SQ__POISON(1);
	x->bh_next = (struct sq_binom_node *)SQ__POISON(2);
#endif
}

/*
 * sq_binom__remove - take queued node @x out of the heap and mark it
 * unqueued (common.h: __remove).
 *
 * Let a0 (a root of degree k), a1, ..., am = x be the path down to x.
 * Taking x out releases binomial trees of the distinct degrees 0..k-1,
 * 2^k - 1 nodes in all, which are carried into the roots like binary
 * addition.  Because B_d is B_(d-1) rooted at a with its lower children,
 * linked with its first child, each a_i on the path gives up:
 *
 *	its children above a_(i+1)           (degrees d(a_i)-1 .. d(a_(i+1))+1)
 *	itself with the children below       (a tree of degree d(a_(i+1)))
 *
 *	         a_i                                        a_(i+1)
 *	   /   |     |     \           c2   c1   a_i       /  |  \
 *	 c2   c1  a_(i+1)   c0    =>               |        (next step)
 *	             |                             c0
 *	            ...
 *
 * and x gives up its children.  The walk goes bottom-up along bh_parent,
 * saving each node's place among its siblings before it is released;
 * the children of a_i above a_(i+1) are the first d(a_i) - d(a_(i+1)) - 1
 * of its list.  Every release is O(1), so the whole is O(log n).  bh_min
 * is kept: the minimum wins every link it takes part in, so unless it is
 * @x it is a root again afterwards.
 */
static inline void sq_binom__remove(struct sq_binom *q, struct sq_binom_node *x,
				    sq_binom__tie_fn tie)
{
	struct sq_binom_node *root = x, *below_next, *p, *up, *p_next;
	unsigned below_deg, p_deg;

	while (root->bh_parent) {
		SQ__STEP(1);
		root = root->bh_parent;
	}
	q->bh_roots[sq_binom__degree(root)] = NULL;

	below_deg = sq_binom__degree(x);
	sq_binom__release(q, x->bh_child, below_deg, 0, tie);
	below_next = x->bh_next;
	p = x->bh_parent;
	while (p) {
		SQ__STEP(1);
		up = p->bh_parent;
		p_next = p->bh_next;
		p_deg = sq_binom__degree(p);
		sq_binom__release(q, p->bh_child, p_deg, below_deg + 1, tie);
		p->bh_child = below_next;
		sq_binom__set_degree(p, below_deg);
		p->bh_parent = NULL;
		sq_binom__carry(q, p, below_deg, tie);
		below_next = p_next;
		below_deg = p_deg;
		p = up;
	}
	q->bh_count--;
	if (q->bh_min == x)
		q->bh_min = sq_binom__scan_min(q, tie);
	sq_binom__unlink(x);
}

/*
 * sq_binom__insert - add @n as a tree of degree 0, its key and stamp
 * already set and its degree 0; returns true if it is the new minimum.
 * Since @n carries the newest stamp it is below the minimum exactly when
 * its key is (or, equal, @tie puts it first), and it would win every
 * link on the way.
 */
SQ__INLINE bool sq_binom__insert(struct sq_binom *q, struct sq_binom_node *n,
				 sq_binom__tie_fn tie)
{
	n->bh_parent = NULL;
	n->bh_child = NULL;
	sq_binom__carry(q, n, 0, tie);
	q->bh_count++;
	if (!q->bh_min || sq_binom__newest_before(n, n->key, q->bh_min, tie)) {
		q->bh_min = n;
		return true;
	}
	return false;
}

/* the verbs are documented once, in common.h; init clears the 64 root
 * slots */
static inline void sq_binom_init(struct sq_binom *q)
{
	unsigned d;

	for (d = 0; d < 64; d++) {
		SQ__STEP(1);
		q->bh_roots[d] = NULL;
	}
	q->bh_min = NULL;
	q->bh_count = 0;
	q->bh_seq = 0;
}

/* init_at and the clock verbs: no clock, exact (common.h) */
SQ__NO_CLOCK(binom)

static inline void sq_binom_node_init(struct sq_binom_node *n)
{
	n->key = 0;
	n->bh_seqdeg = 0;
	n->bh_parent = n;
	n->bh_child = NULL;
	n->bh_next = NULL;
}

/* a node that is not queued is its own parent */
SQ__INLINE bool sq_binom_queued(const struct sq_binom_node *n)
{
	return n->bh_parent != n;
}

static inline bool sq_binom_empty(const struct sq_binom *q)
{
	return q->bh_count == 0;
}

static inline size_t sq_binom_count(const struct sq_binom *q)
{
	return q->bh_count;
}

/* the cached minimum */
static inline struct sq_binom_node *sq_binom_first(const struct sq_binom *q)
{
	return q->bh_min;
}

static inline uint64_t sq_binom_key(const struct sq_binom_node *n)
{
	return n->key;
}

SQ__SLOW void sq_binom__renumber(struct sq_binom *q, sq_binom__tie_fn tie);

/* sq_binom__stamp_room - make room for one more stamp: renumber when the
 * counter is at its end (a compare that is never taken, in practice) */
SQ__INLINE void sq_binom__stamp_room(struct sq_binom *q, sq_binom__tie_fn tie)
{
	if (SQ__UNLIKELY(q->bh_seq == SQ_BINOM__SEQ_END))
		sq_binom__renumber(q, tie);
}

#ifdef SQ_DEBUG
/* sq_binom__on - is queued node @n in @q's trees (its root is @q's root
 * of that degree)?  O(log n), for the SQ_DEBUG misuse checks only. */
static inline bool sq_binom__on(const struct sq_binom *q,
				const struct sq_binom_node *n)
{
	while (n->bh_parent) {
		SQ__STEP(1);
		n = n->bh_parent;
	}
	return q->bh_roots[sq_binom__degree(n)] == n;
}
#endif

/*
 * The verbs that compare or check for misuse, once for the plain kind and
 * the tie kinds (SQ_BINOM_TIE, SQ__TIE_KIND in common.h): @tie is the
 * order among equal keys (NULL: FIFO), @who the public function named in
 * SQ_DEBUG's messages.
 */
SQ__INLINE bool sq_binom__tie_enqueue(struct sq_binom *q,
				      struct sq_binom_node *n, uint64_t key,
				      sq_binom__tie_fn tie, const char *who)
{
	SQ__MISUSE(sq_binom_queued(n), who, "node is already queued");
	sq_binom__stamp_room(q, tie);
	n->key = key;
	n->bh_seqdeg = q->bh_seq++ << SQ_BINOM__DEG_BITS;	/* degree 0 */
	return sq_binom__insert(q, n, tie);
}

/* dequeue: O(log n) */
SQ__INLINE bool sq_binom__tie_dequeue(struct sq_binom *q,
				      struct sq_binom_node *n,
				      sq_binom__tie_fn tie, const char *who)
{
	bool was_first = n == q->bh_min;

	SQ__MISUSE(!sq_binom_queued(n), who, "node is not queued");
	SQ__MISUSE(!sq_binom__on(q, n), who, "node is on another queue");
	sq_binom__remove(q, n, tie);
	return was_first;
}

/* enqueue: O(1) amortised, O(log n) worst case (and O(n log n) once per
 * 2^58 enqueues and requeues: the renumbering) */
static inline bool sq_binom_enqueue(struct sq_binom *q, struct sq_binom_node *n,
				    uint64_t key)
{
	return sq_binom__tie_enqueue(q, n, key, NULL, "sq_binom_enqueue");
}

/* sq_binom_pop() in the order of @tie (sq_binom__challenge()) */
SQ__INLINE struct sq_binom_node *sq_binom__tie_pop(struct sq_binom *q,
						   sq_binom__tie_fn tie)
{
	struct sq_binom_node *m = q->bh_min, *best = NULL, *c, *next, *l;
	uint64_t occ, bk = UINT64_MAX, bs = UINT64_MAX;
	unsigned d;

	if (!m)
		return NULL;
	/* The minimum is a root: no path to take apart, only its children. */
	d = sq_binom__degree(m);
	q->bh_roots[d] = NULL;
	occ = (uint64_t)q->bh_count & ~((uint64_t)1 << d);
	while (occ) {
		SQ__STEP(1);
		c = q->bh_roots[sq__ctz64(occ)];
		sq_binom__challenge(&best, &bk, &bs, &l, c, c->key,
				    c->bh_seqdeg, tie);
		occ &= occ - 1;
	}
	c = m->bh_child;
	while (d) {
		SQ__STEP(1);
		d--;
		next = c->bh_next;
		c->bh_parent = NULL;
		sq_binom__challenge(&best, &bk, &bs, &l, c, c->key,
				    c->bh_seqdeg, tie);
		sq_binom__carry(q, c, d, tie);
		c = next;
	}
	q->bh_count--;
	q->bh_min = best;
	sq_binom__unlink(m);
	return m;
}

/* pop: O(log n).  Always inlined under GNU C: a call slows clang's
 * pop + enqueue loop at small n. */
SQ__INLINE struct sq_binom_node *sq_binom_pop(struct sq_binom *q)
{
	return sq_binom__tie_pop(q, NULL);
}

SQ__INLINE struct sq_binom_node *sq_binom__tie_pop_due(struct sq_binom *q,
						       uint64_t now,
						       sq_binom__tie_fn tie)
{
	const struct sq_binom_node *m = q->bh_min;

	return m && m->key <= now ? sq_binom__tie_pop(q, tie) : NULL;
}

/*
 * sq_binom__renumber - give the queued nodes the stamps 0 .. n-1 in their
 * (key, stamp) order (a tie kind's: (key, @tie, stamp)), and the counter n:
 * pop them all, in order, onto a list through their own bh_next, then insert
 * them again in that order. Equal keys keep their order and the heap is
 * rebuilt, so nothing else changes. O(n log n), no allocation; it runs once
 * per 2^58 stamps.
 */
SQ__SLOW void sq_binom__renumber(struct sq_binom *q, sq_binom__tie_fn tie)
{
	struct sq_binom_node *head = NULL, *tail = NULL, *n;

	while ((n = sq_binom__tie_pop(q, tie)) != NULL) {
		SQ__STEP(1);
		n->bh_next = NULL;
		if (tail)
			tail->bh_next = n;
		else
			head = n;
		tail = n;
	}
	q->bh_seq = 0;
	for (; head; head = n) {
		SQ__STEP(1);
		n = head->bh_next;
		head->bh_seqdeg = q->bh_seq++ << SQ_BINOM__DEG_BITS;
		sq_binom__insert(q, head, tie);
	}
}

/*
 * sq_binom__walk - the walk behind visit, visit_until and find: tree by
 * tree, each in preorder, @fn(node, @arg) on each node.  False goes on
 * into the node's children; true stops the walk there, returning the
 * node, or, for @find, goes on past the node's subtree.  NULL if it never
 * stopped.  No allocation, no recursion: a node's children have degrees
 * d-1 .. 0 in sibling order, so a node of degree 0 ends its sibling list,
 * and a node of degree d > 0 that is not a root has a next sibling.
 */
static inline struct sq_binom_node *
sq_binom__walk(const struct sq_binom *q,
	       bool (*fn)(struct sq_binom_node *, void *), void *arg,
	       bool find, const char *who)
{
	uint64_t occ = (uint64_t)q->bh_count;
	size_t count = q->bh_count;

	(void)count;	/* read only under SQ_DEBUG */
	for (; occ; occ &= occ - 1) {
		SQ__STEP(1);
		struct sq_binom_node *root = q->bh_roots[sq__ctz64(occ)];
		struct sq_binom_node *n = root;

		for (;;) {
			SQ__STEP(1);
			struct sq_binom_node *child = n->bh_child;
			bool yes = fn(n, arg);

			/* fn may change q through its own pointer to it */
			/* cppcheck-suppress knownConditionTrueFalse */
			SQ__MISUSE(q->bh_count != count, who,
				   find ? "match changed the queue"
					: "fn changed the queue");
			if (yes && !find)
				return n;
			if (!yes && sq_binom__degree(n)) {
				n = child;
				continue;
			}
			/* n's subtree is done: climb past the last children */
			while (n != root && sq_binom__degree(n) == 0) {
				SQ__STEP(1);
				n = n->bh_parent;
			}
			if (n == root)
				break;
			n = n->bh_next;
		}
	}
	return NULL;
}

/* the walk of SQ__VISIT for every kind over this backend: O(k + log n)
 * for k calls of @fn */
static inline struct sq_binom_node *
sq_binom__visit_until(const struct sq_binom *q,
		      bool (*fn)(struct sq_binom_node *, void *), void *arg,
		      const char *who)
{
	return sq_binom__walk(q, fn, arg, false, who);
}

SQ__VISIT(binom)

/* find's question and its best answer so far, for the walk */
struct sq_binom__seek {
	uint64_t key;
	bool (*match)(const struct sq_binom_node *, void *);
	void *arg;
	sq_binom__tie_fn tie;
	struct sq_binom_node *best;
};

/* find's fn: true to go on past @n's subtree.  A subtree comes after its
 * root in queue order, (key, stamp) or a tie kind's (key, less, stamp)
 * (heap order): past a greater key, or past a node of @key that comes
 * after the best, nothing below can be the answer. */
static inline bool sq_binom__find_one(struct sq_binom_node *n, void *p)
{
	struct sq_binom__seek *f = (struct sq_binom__seek *)p;

	if (n->key != f->key)
		return n->key > f->key;
	if (f->best && sq_binom__less(f->best, n, f->tie))
		return true;
	if (f->match && !f->match(n, f->arg))
		return false;
	f->best = n;
	return true;
}

/*
 * find: a heap has no key search: the walk looks at every node that could
 * have a node with @key below it, so at each node whose key is smaller
 * (and at each rejected node with @key), and at their children: O((m +
 * 1) log n), m those nodes, which is O(n) for a key near the largest.
 * Cheap for keys near the first; for a search by key take rb or gavl.
 * @match is called on the nodes with @key in no particular order, at
 * most once each.
 */
static inline struct sq_binom_node *
sq_binom__tie_find(const struct sq_binom *q, uint64_t key,
		   bool (*match)(const struct sq_binom_node *, void *),
		   void *arg, sq_binom__tie_fn tie, const char *who)
{
	struct sq_binom__seek f;

	f.key = key;
	f.match = match;
	f.arg = arg;
	f.tie = tie;
	f.best = NULL;
	(void)sq_binom__walk(q, sq_binom__find_one, &f, true, who);
	return f.best;
}

/* requeue: O(log n); in place, without moving @n, when (@key, new
 * sequence) is still above its parent and below all its children */
static inline bool sq_binom__tie_requeue(struct sq_binom *q,
					 struct sq_binom_node *n, uint64_t key,
					 sq_binom__tie_fn tie, const char *who)
{
	struct sq_binom_node *old, *c;
	uint64_t old_key;
	bool in_place;

	if (!sq_binom_queued(n))
		return sq_binom__tie_enqueue(q, n, key, tie, who);
	SQ__MISUSE(!sq_binom__on(q, n), who, "node is on another queue");
	sq_binom__stamp_room(q, tie);	/* before the shape is looked at */
	old = q->bh_min;
	old_key = old->key;
	/*
	 * The new stamp is the newest: @n stays above its parent when the
	 * parent's key is <= @key, and below a child only when @key is
	 * strictly smaller than the child's (a tie kind: in (key, less)
	 * order, less seeing @n's fields as they are now, so a requeue also
	 * re-sorts a node whose tie fields changed).
	 */
	in_place = !n->bh_parent ||
		   !sq_binom__newest_before(n, key, n->bh_parent, tie);
	for (c = n->bh_child; in_place && c; c = c->bh_next) {
		SQ__STEP(1);
		in_place = sq_binom__newest_before(n, key, c, tie);
	}
	n->bh_seqdeg = q->bh_seq++ << SQ_BINOM__DEG_BITS |
		       (n->bh_seqdeg & SQ_BINOM__DEG_MASK);
	if (in_place) {
		n->key = key;
		if (!n->bh_parent) {
			if (n == old)
				q->bh_min = sq_binom__scan_min(q, tie);
			else if (sq_binom__newest_before(n, key, old, tie))
				q->bh_min = n;
		}
	} else {
		sq_binom__remove(q, n, tie);
		n->key = key;
		sq_binom__set_degree(n, 0);
		sq_binom__insert(q, n, tie);
	}
	return q->bh_min != old || q->bh_min->key != old_key;
}

/*
 * sq_binom__check_tree - invariants 2-4 for the tree under root @r, whose
 * nodes are added to *@seen (at most @count in all).  A pre-order walk:
 * down to the first child, along to the next sibling, back up by
 * bh_parent, each pointer verified before it is followed.  Degrees fall
 * by one at every step down or along, so it ends on any input.
 */
static inline int sq_binom__check_tree(const struct sq_binom *q,
				       const struct sq_binom_node *r,
				       uint64_t *seen, uint64_t count,
				       sq_binom__tie_fn tie, const char *who)
{
	const struct sq_binom_node *v = r, *c;

	for (;;) {
		SQ__STEP(1);
		c = v->bh_child;
		if (c) {
			SQ__CHECK(sq_binom__degree(v) > 0, who, v,
				  "degree 0 with a child");
			SQ__CHECK(c->bh_parent == v, who, c,
				  "parent pointer wrong");
			SQ__CHECK(sq_binom__degree(c) ==
				  sq_binom__degree(v) - 1, who, c,
				  "first child degree wrong");
		} else {
			SQ__CHECK(sq_binom__degree(v) == 0, who, v,
				  "degree > 0 without children");
			/* A last child has degree 0, so its parent has not. */
			while (v != r && !v->bh_next) {
				SQ__STEP(1);
				SQ__CHECK(sq_binom__degree(v) == 0, who, v,
					  "last child degree > 0");
				v = v->bh_parent;
			}
			if (v == r)
				return 0;
			c = v->bh_next;
			SQ__CHECK(sq_binom__degree(v) > 0, who, v,
				  "sibling after degree 0");
			SQ__CHECK(c->bh_parent == v->bh_parent, who, c,
				  "parent pointer wrong");
			SQ__CHECK(sq_binom__degree(c) ==
				  sq_binom__degree(v) - 1, who, c,
				  "sibling degree wrong");
		}
		SQ__CHECK(sq_binom__less(c->bh_parent, c, tie), who, c,
			  "heap order: child before parent");
		SQ__CHECK(sq_binom__stamp(c) < q->bh_seq, who, c,
			  "stamp >= counter");
		SQ__CHECK(++*seen <= count, who, c, "more nodes than count");
		v = c;
	}
}

/* check: invariants 1-6 of this header, in the order of @tie; O(n), and
 * it ends on any heap (sq_binom__check_tree()) */
static inline int sq_binom__tie_check(const struct sq_binom *q,
				      sq_binom__tie_fn tie, const char *who)
{
	uint64_t count = (uint64_t)q->bh_count, seen = 0;
	const struct sq_binom_node *r, *min = NULL;
	unsigned d;

	SQ__CHECK(q->bh_seq <= SQ_BINOM__SEQ_END, who, q->bh_min,
		  "stamp counter past its 58 bits");
	for (d = 0; d < 64; d++) {
		SQ__STEP(1);
		r = q->bh_roots[d];
		if (!(count & ((uint64_t)1 << d))) {
			SQ__CHECK(!r, who, r, "root in a degree not in count");
			continue;
		}
		SQ__CHECK(r, who, r, "no root in a degree of count");
		SQ__CHECK(!r->bh_parent, who, r, "root has a parent");
		SQ__CHECK(sq_binom__degree(r) == d, who, r,
			  "root degree != slot");
		SQ__CHECK(sq_binom__stamp(r) < q->bh_seq, who, r,
			  "stamp >= counter");
		if (!min || sq_binom__less(r, min, tie))
			min = r;
		seen++;
		if (sq_binom__check_tree(q, r, &seen, count, tie, who))
			return -1;
	}
	SQ__CHECK(seen == count, who, q->bh_min, "node total != count");
	SQ__CHECK(q->bh_min == min, who, q->bh_min, "cached min not smallest");
	return 0;
}

/* the plain kind's dequeue, requeue, pop_due, find, check (common.h) */
SQ__TIE_PLAIN(binom)

/**
 * SQ_BINOM_TIE - declare a binomial heap kind ordered by (key, less)
 * @name: the new kind's token: struct sq_@name, struct sq_@name_node and
 *        the verbs sq_@name_init ... sq_@name_check
 * @less: bool less(const struct sq_@name_node *a,
 *        const struct sq_@name_node *b), defined by the user after the
 *        macro: true if @a goes before @b
 *
 * As SQ_RB_TIE in rbtree.h, over this heap: the node wraps struct
 * sq_binom_node as .base (key: SQ_KEY(@name, n)), @less is consulted only
 * between equal keys, and nodes equal under both keep FIFO by their
 * stamps: the order is (key, less, stamp).  Costs are binom's; a compare
 * of two equal keys calls @less once (the younger node against the
 * older) and selects with conditional moves, as the plain kind does; the
 * test for equal keys is a branch.
 */
#define SQ_BINOM_TIE(name, less)					\
	SQ__TIE_KIND(binom, name, less)					\
	struct sq_##name##__tie_kind	/* the user's ';' ends it */

#endif /* SMARTQ_BINOMIAL_H */
