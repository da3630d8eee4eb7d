/* SPDX-License-Identifier: MIT */
/*
 * smartq/remote.h - timers across threads: one thread owns a queue, any
 * thread arms, re-arms and cancels its nodes through an inbox
 *
 *	SQ_REMOTE(K) r;                       a queue of kind K and its inbox
 *	SQ_REMOTE_NODE(K) n;                  a node: the plain one is n.base
 *	SQ_REMOTE_INIT(K, &r);                owner: the owner is this thread
 *	SQ_REMOTE_NODE_INIT(K, &n);           owner: not queued, nothing pending
 *	SQ_REMOTE_ARM(K, &r, &n, key);        any thread: queue n at key
 *	SQ_REMOTE_ARM_SLACK(K, &r, &n, key, slack)   ... unless it already is,
 *	                                      at a key in [key, key + slack];
 *	                                      else at key + slack (as
 *	                                      SQ_REQUEUE_SLACK in smartq.h)
 *	SQ_REMOTE_CANCEL(K, &r, &n);          any thread: take n off
 *	SQ_REMOTE_DRAIN(K, &r);               owner: apply what was posted
 *	SQ_REMOTE_Q(K, &r);                   owner: the plain queue, for every
 *	                                      plain verb between drains
 *	SQ_REMOTE_IDLE(K, &r, &n);            owner: n may be freed or reused
 *
 * A command takes effect at the owner's next drain: per node, commands
 * apply in the order they were posted and the last one wins; a node
 * posted many times before a drain is in the inbox once and is applied
 * once (a storm of re-arms costs one requeue).  Nothing allocates; the
 * owner waits for no poster but one caught between the two steps of its
 * push (a drain applies every post that returned before it began), and
 * a cancel never waits.  Arms of one node
 * take turns on its state word for the few instructions of an arm (two
 * stores and a CAS); posters of different nodes never meet but in the
 * inbox's one exchange.
 * The state machine, its memory orders and the proof are in
 * doc/remote.md.
 *
 * Between drains the owner may pop, requeue or dequeue a node through the
 * plain queue while other threads post for it: a command pending then
 * applies at the next drain to whatever the owner left, so it wins over
 * the owner's own earlier verbs (the owner can post to itself, too, to
 * keep its verbs in the one order).
 *
 * Freeing a node: only the owner frees or reuses a node, only when
 * SQ_REMOTE_IDLE says so, and only once no other thread can still post
 * for it (an idle node that a thread then posts for is pending again).
 * Telling the other threads first is the user's contract.
 *
 * Needs C11 atomics (<stdatomic.h>); where there are none (C99, C++, or
 * __STDC_NO_ATOMICS__) SQ_HAVE_REMOTE is 0 and the macros name the type
 * sq_remote_needs_C11_atomics, so a use fails to compile saying why.
 *
 * SQ_REMOTE_KIND(K) declares the remote kind of any kind K (one token):
 * smartq.h declares it for every backend of SQ_KINDS and for erb and
 * egavl; a tie kind (SQ_TIE) needs one line after its SQ_TIE.
 *
 * Under SQ_DEBUG: an owner verb (drain, q, idle) from a thread other than
 * the one that called init, and a node posted to a second queue while it
 * is pending on the first, stop the program with a message.
 */
#ifndef SMARTQ_REMOTE_H
#define SMARTQ_REMOTE_H

#include "common.h"

#if defined(__cplusplus) || !defined(__STDC_VERSION__) || \
	__STDC_VERSION__ < 201112L || defined(__STDC_NO_ATOMICS__)

#define SQ_HAVE_REMOTE 0
#define SQ_REMOTE(K)                sq_remote_needs_C11_atomics
#define SQ_REMOTE_NODE(K)           sq_remote_needs_C11_atomics
#define SQ_REMOTE_KIND(K)           /* nothing without C11 atomics */

#else /* C11 with atomics */

#define SQ_HAVE_REMOTE 1
#include <errno.h>
#include <stdatomic.h>

/* Two-level paste of its own: this header stands alone. */
#define SQ__RCAT3(a, b, c)  a##b##c
#define SQ__RXCAT3(a, b, c) SQ__RCAT3(a, b, c)
#define SQ__RFN(K, verb)    SQ__RXCAT3(sq_remote_, K, verb)

#define SQ_REMOTE(K)                     struct SQ__RXCAT3(sq_remote_, K, )
#define SQ_REMOTE_NODE(K)                struct SQ__RFN(K, _node)
#define SQ_REMOTE_INIT(K, r)             SQ__RFN(K, _init)(r)
#define SQ_REMOTE_NODE_INIT(K, n)        SQ__RFN(K, _node_init)(n)
#define SQ_REMOTE_ARM(K, r, n, key)      SQ__RFN(K, _arm)(r, n, key, 0)
#define SQ_REMOTE_ARM_SLACK(K, r, n, key, slack) \
	SQ__RFN(K, _arm)(r, n, key, slack)
#define SQ_REMOTE_CANCEL(K, r, n)        SQ__RFN(K, _cancel)(r, n)
#define SQ_REMOTE_DRAIN(K, r)            SQ__RFN(K, _drain)(r)
#define SQ_REMOTE_Q(K, r)                SQ__RFN(K, _q)(r)
#define SQ_REMOTE_IDLE(K, r, n)          SQ__RFN(K, _idle)(r, n)

/*
 * The node's state word, one atomic 64-bit value:
 *
 *	bits 0-1  CMD   the pending command: 0 none, ARM, CANCEL
 *	bit  2    Q     the node is in the inbox (or its poster is pushing it)
 *	bit  3    W     an arm is writing its key (a cancel takes no W)
 *	bits 4-63 SEQ   posts so far: a drain's snapshot that a post overtook
 *	                fails its CAS even when the bits above came back
 *
 * Q goes 0 -> 1 only in a post's publishing CAS (whose poster then pushes
 * the node) and 1 -> 0 only in a drain that has popped the node, so the
 * node is in the inbox at most once.  doc/remote.md draws the machine.
 */
#define SQ__R_NONE   ((uint64_t)0)
#define SQ__R_ARM    ((uint64_t)1)
#define SQ__R_CANCEL ((uint64_t)2)
#define SQ__R_CMD    ((uint64_t)3)
#define SQ__R_Q      ((uint64_t)4)
#define SQ__R_W      ((uint64_t)8)
#define SQ__R_SEQ1   ((uint64_t)16)

/*
 * The machine's moves on the state word, apart from W's taking, as
 * functions so that tests/remote_model.c runs the very same ones:
 *   publish    an arm (holding W) makes @cmd pending, sets Q, counts itself
 *   cancelled  the same for a cancel, which holds no W and leaves W as is
 *   taken      a drain took the command of @s: nothing pending, not in inbox
 *   left       a drain found a poster writing: only Q is cleared
 */
SQ__INLINE uint64_t sq_remote__publish(uint64_t cur, uint64_t cmd)
{
	return ((cur & ~(SQ__R_W | SQ__R_CMD)) | cmd | SQ__R_Q) + SQ__R_SEQ1;
}

/* a cancel writes no key, so it needs no W: it publishes in one CAS,
 * even over a poster holding W, whose publish then comes after it */
SQ__INLINE uint64_t sq_remote__cancelled(uint64_t s)
{
	return ((s & ~SQ__R_CMD) | SQ__R_CANCEL | SQ__R_Q) + SQ__R_SEQ1;
}

SQ__INLINE uint64_t sq_remote__taken(uint64_t s)
{
	return s & ~(SQ__R_Q | SQ__R_CMD);
}

SQ__INLINE uint64_t sq_remote__left(uint64_t s)
{
	return s & ~SQ__R_Q;
}

/* the inbox's link: Vyukov's intrusive MPSC queue */
struct sq_remote_link {
	_Atomic(struct sq_remote_link *) sq_next;
};

/* what every remote node carries beside its plain node */
struct sq_remote_cmd {
	struct sq_remote_link sq_link;
	atomic_uint_least64_t sq_state;
	atomic_uint_least64_t sq_key;	/* the pending arm's key and slack: */
	atomic_uint_least64_t sq_slack;	/* written under W, read by a drain */
	_Atomic(const void *) sq_home;	/* SQ_DEBUG: the inbox last posted to */
};

/*
 * The inbox.  Posters write sq_head; the owner reads sq_tail and the
 * stub: the pad keeps them off one cache line.
 */
struct sq_remote_inbox {
	_Atomic(struct sq_remote_link *) sq_head;	/* the last pushed */
	char sq_pad[64 - sizeof(void *)];
	struct sq_remote_link *sq_tail;			/* the next to pop */
	struct sq_remote_link sq_stub;
	const void *sq_owner;	/* the thread that called init (&errno) */
};

/*
 * SQ__R_SELF - the calling thread, as the address of its errno: ISO C,
 * one per thread wherever there are threads, the same in every file.
 */
#define SQ__R_SELF() ((const void *)&errno)

/* a poster waiting for another poster of the same node to finish */
static inline void sq_remote__pause(void)
{
#if defined(SQ__GNUC) && (defined(__x86_64__) || defined(__i386__))
	__builtin_ia32_pause();
#elif defined(SQ__GNUC) && (defined(__aarch64__) || \
			    (defined(__ARM_ARCH) && __ARM_ARCH >= 7))
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

static inline void sq_remote__inbox_init(struct sq_remote_inbox *in)
{
	atomic_init(&in->sq_stub.sq_next, NULL);
	atomic_init(&in->sq_head, &in->sq_stub);
	in->sq_tail = &in->sq_stub;
	in->sq_owner = SQ__R_SELF();
	memset(in->sq_pad, 0, sizeof(in->sq_pad));
}

static inline void sq_remote__cmd_init(struct sq_remote_cmd *c)
{
	atomic_init(&c->sq_link.sq_next, NULL);
	atomic_init(&c->sq_state, 0);
	atomic_init(&c->sq_key, 0);
	atomic_init(&c->sq_slack, 0);
	atomic_init(&c->sq_home, NULL);
}

/*
 * Push @l (its poster alone holds it: Q was 0).  The exchange orders the
 * pushes; until the last store links @l behind the previous head, the
 * owner's pop stops short of it (and of everything pushed after it).
 */
static inline void sq_remote__push(struct sq_remote_inbox *in,
				   struct sq_remote_link *l)
{
	struct sq_remote_link *prev;

	atomic_store_explicit(&l->sq_next, NULL, memory_order_relaxed);
	prev = atomic_exchange_explicit(&in->sq_head, l, memory_order_acq_rel);
	atomic_store_explicit(&prev->sq_next, l, memory_order_release);
}

/*
 * Owner: take the oldest link whose push is complete, or NULL.  The stub
 * keeps the list non-empty, so a pop never races a push on the last link:
 * the last one is popped only after the stub is pushed behind it.
 */
static inline struct sq_remote_link *
sq_remote__pop(struct sq_remote_inbox *in)
{
	struct sq_remote_link *tail = in->sq_tail, *next;

	next = atomic_load_explicit(&tail->sq_next, memory_order_acquire);
	if (tail == &in->sq_stub) {
		if (!next)
			return NULL;
		in->sq_tail = tail = next;
		next = atomic_load_explicit(&tail->sq_next,
					    memory_order_acquire);
	}
	if (!next) {
		/* the last link, or one whose successor is half pushed */
		if (tail != atomic_load_explicit(&in->sq_head,
						 memory_order_acquire))
			return NULL;
		sq_remote__push(in, &in->sq_stub);
		next = atomic_load_explicit(&tail->sq_next,
					    memory_order_acquire);
		if (!next)
			return NULL;
	}
	in->sq_tail = next;
	return tail;
}

/* SQ_DEBUG: stop if @c is pending (state @s) on another queue's inbox
 * than @in, then make @in its home; without SQ_DEBUG nothing, so a post
 * writes no word that only this check reads */
static inline void sq_remote__home(struct sq_remote_cmd *c,
				   const struct sq_remote_inbox *in,
				   uint64_t s, const char *fn)
{
#ifdef SQ_DEBUG
	const void *home = atomic_load_explicit(&c->sq_home,
						memory_order_relaxed);

	SQ__MISUSE(home && home != (const void *)in &&
		   (s & (SQ__R_Q | SQ__R_CMD)), fn,
		   "node is pending on another queue's inbox");
	atomic_store_explicit(&c->sq_home, (const void *)in,
			      memory_order_relaxed);
#else
	(void)c;
	(void)in;
	(void)s;
	(void)fn;
#endif
}

/*
 * sq_remote__post - any thread: make @cmd (ARM with @key and @slack, or
 * CANCEL) @c's pending command in @in and see that @c is in the inbox.
 *
 * An arm:
 *   1. take W: CAS state s -> s | W (acquire: after the last poster)
 *   2. store key, slack (and home, under SQ_DEBUG) (relaxed: no one
 *      reads them under W)
 *   3. publish: CAS cur -> (cur & ~(W | CMD)) | ARM | Q, SEQ + 1
 *      (acq_rel: the stores of 2 go with it; and it follows a drain
 *      that cleared Q, so a push of 4 follows that drain's pop)
 *   4. if Q was 0 in cur, push @c: this post set it
 * A cancel has no key to write: it is 3 and 4 alone, its CAS keeping W
 * (an arm that holds W publishes after it, and wins), so it never waits.
 */
static inline void sq_remote__post(struct sq_remote_inbox *in,
				   struct sq_remote_cmd *c, uint64_t cmd,
				   uint64_t key, uint64_t slack,
				   const char *fn)
{
	uint64_t s = atomic_load_explicit(&c->sq_state, memory_order_relaxed);
	uint64_t cur, next;

	if (cmd == SQ__R_CANCEL) {
		sq_remote__home(c, in, s, fn);
		while (!atomic_compare_exchange_weak_explicit(&c->sq_state, &s,
				sq_remote__cancelled(s), memory_order_acq_rel,
				memory_order_relaxed))
			;
		if (!(s & SQ__R_Q))
			sq_remote__push(in, &c->sq_link);
		return;
	}
	for (;;) {
		if (s & SQ__R_W) {
			sq_remote__pause();
			s = atomic_load_explicit(&c->sq_state,
						 memory_order_relaxed);
			continue;
		}
		if (atomic_compare_exchange_weak_explicit(&c->sq_state, &s,
				s | SQ__R_W, memory_order_acquire,
				memory_order_relaxed))
			break;
	}
	sq_remote__home(c, in, s, fn);
	atomic_store_explicit(&c->sq_key, key, memory_order_relaxed);
	atomic_store_explicit(&c->sq_slack, slack, memory_order_relaxed);
	cur = s | SQ__R_W;
	do {
		next = sq_remote__publish(cur, cmd);
	} while (!atomic_compare_exchange_weak_explicit(&c->sq_state, &cur,
			next, memory_order_acq_rel, memory_order_relaxed));
	if (!(cur & SQ__R_Q))
		sq_remote__push(in, &c->sq_link);
}

/*
 * sq_remote__take - owner: @c was just popped; take its command.
 * Return: ARM (with *@key, *@slack), CANCEL, or NONE when a poster holds
 *         W: then only Q is cleared, and that poster, seeing Q clear when
 *         it publishes, pushes @c again with its command.
 *
 * A seqlock read: load s (acquire: the key of the post s published),
 * read key and slack, CAS s -> s & ~(Q | CMD) (acq_rel: the reads stay
 * before it).  If the CAS succeeds no poster took W in between (a post
 * changes SEQ, so no ABA), so the key is the one of s's command.
 */
static inline uint64_t sq_remote__take(struct sq_remote_cmd *c,
				       uint64_t *key, uint64_t *slack)
{
	uint64_t s = atomic_load_explicit(&c->sq_state, memory_order_acquire);

	for (;;) {
		if (s & SQ__R_W) {
			if (atomic_compare_exchange_weak_explicit(&c->sq_state,
					&s, sq_remote__left(s), memory_order_acq_rel,
					memory_order_acquire))
				return SQ__R_NONE;
			continue;
		}
		*key = atomic_load_explicit(&c->sq_key, memory_order_relaxed);
		*slack = atomic_load_explicit(&c->sq_slack,
					      memory_order_relaxed);
		if (atomic_compare_exchange_weak_explicit(&c->sq_state, &s,
				sq_remote__taken(s),
				memory_order_acq_rel, memory_order_acquire)) {
			SQ__MISUSE(!(s & SQ__R_CMD) || !(s & SQ__R_Q),
				   "sq_remote_drain",
				   "a node in the inbox has no command "
				   "(its memory was reused while pending?)");
			return s & SQ__R_CMD;
		}
	}
}

/*
 * The inbox is empty: two loads, nothing written (the owner's fast path).
 * Relaxed: an acquire load would keep the compiler from carrying the
 * queue's fields in registers across it, in the owner's loop; the pops
 * that follow a non-empty answer read the same link again, acquiring.
 */
SQ__INLINE bool sq_remote__empty(const struct sq_remote_inbox *in)
{
	return in->sq_tail == &in->sq_stub &&
	       !atomic_load_explicit(&in->sq_stub.sq_next,
				     memory_order_relaxed);
}

/*
 * sq_remote__drain - owner: pop and apply each command posted before the
 * drain began (the head it saw then is the last it takes, so posters
 * cannot keep one drain going); @apply is the kind's, a constant that
 * inlines.  A post whose exchange came before that head but whose link
 * is not stored yet is waited for (a poster between its push's two
 * steps): so every post that returned before the drain is applied by it.
 * Return: the commands applied.
 */
SQ__INLINE size_t sq_remote__drain(struct sq_remote_inbox *in,
				   void (*apply)(void *r,
						 struct sq_remote_cmd *c,
						 uint64_t cmd, uint64_t key,
						 uint64_t slack),
				   void *r)
{
	struct sq_remote_link *last, *l;
	size_t applied = 0;

	SQ__MISUSE(in->sq_owner != SQ__R_SELF(), "sq_remote_drain",
		   "called from a thread that is not the queue's owner");
	if (sq_remote__empty(in))
		return 0;
	last = atomic_load_explicit(&in->sq_head, memory_order_acquire);
	for (;;) {
		/* the head seen was the stub (a pop put it behind the last
		 * link): everything before it is taken once the tail is it */
		if (last == &in->sq_stub && in->sq_tail == &in->sq_stub)
			break;
		l = sq_remote__pop(in);
		if (!l) {
			/* a post that began before this drain is half pushed
			 * (its exchange done, its link not yet stored): it is
			 * one store from done, and every post that returned
			 * before the drain began must be applied by it */
			sq_remote__pause();
			continue;
		}
		/* the link is the first member of struct sq_remote_cmd */
		struct sq_remote_cmd *c = (struct sq_remote_cmd *)(void *)l;
		uint64_t key = 0, slack = 0;
		uint64_t cmd = sq_remote__take(c, &key, &slack);

		SQ__STEP(1);
		if (cmd != SQ__R_NONE) {
			apply(r, c, cmd, key, slack);
			applied++;
		}
		if (l == last)
			break;
	}
	return applied;
}

/* owner: nothing pending, no poster inside a post (acquire: after it) */
static inline bool sq_remote__quiet(const struct sq_remote_cmd *c)
{
	return !(atomic_load_explicit(&c->sq_state, memory_order_acquire) &
		 (SQ__R_CMD | SQ__R_Q | SQ__R_W));
}

/*
 * SQ_REMOTE_KIND(K) - the remote kind of kind K: struct sq_remote_K
 * (.sq_q, the plain queue, and the inbox), struct sq_remote_K_node
 * (.base, the plain node, and its command) and the verbs of the macros
 * above.  Only the apply is the kind's: a drain's ARM is K's requeue (it
 * enqueues a node that is not queued, moves one that is; with slack, as
 * SQ_REQUEUE_SLACK), its CANCEL K's dequeue of a queued node.  Complexity: post O(1) (but for the turns
 * of posters of one node), drain O(1) per command plus K's requeue or
 * dequeue, every other verb O(1).
 */
/* NOLINTBEGIN(bugprone-macro-parentheses): K is a token */
#define SQ_REMOTE_KIND(K)						\
	struct sq_remote_##K##_node {					\
		struct sq_##K##_node base;				\
		struct sq_remote_cmd sq_r;				\
	};								\
	struct sq_remote_##K {						\
		struct sq_remote_inbox sq_in;				\
		struct sq_##K sq_q;					\
	};								\
	SQ__GEN void sq_remote_##K##_init(struct sq_remote_##K *r)	\
	{								\
		sq_remote__inbox_init(&r->sq_in);			\
		sq_##K##_init(&r->sq_q);				\
	}								\
	SQ__GEN void sq_remote_##K##_node_init(struct sq_remote_##K##_node *n) \
	{								\
		sq_##K##_node_init(&n->base);				\
		sq_remote__cmd_init(&n->sq_r);				\
	}								\
	SQ__GEN_INLINE void sq_remote_##K##_arm(struct sq_remote_##K *r, \
						struct sq_remote_##K##_node *n, \
						uint64_t key, uint64_t slack) \
	{								\
		sq_remote__post(&r->sq_in, &n->sq_r, SQ__R_ARM, key, slack, \
				"sq_remote_" #K "_arm");		\
	}								\
	SQ__GEN_INLINE void sq_remote_##K##_cancel(struct sq_remote_##K *r, \
						   struct sq_remote_##K##_node *n) \
	{								\
		sq_remote__post(&r->sq_in, &n->sq_r, SQ__R_CANCEL, 0, 0, \
				"sq_remote_" #K "_cancel");		\
	}								\
	SQ__GEN_INLINE void sq_remote_##K##__apply(void *rv,		\
						   struct sq_remote_cmd *c, \
						   uint64_t cmd, uint64_t key, \
						   uint64_t slack)	\
	{								\
		struct sq_remote_##K *r = (struct sq_remote_##K *)rv;	\
		struct sq_remote_##K##_node *n = sq_entry(c,		\
			struct sq_remote_##K##_node, sq_r);		\
		bool queued = sq_##K##_queued(&n->base);		\
									\
		if (cmd == SQ__R_CANCEL) {				\
			if (queued)					\
				(void)sq_##K##_dequeue(&r->sq_q, &n->base); \
		} else if (!queued || !sq__within_slack(		\
				sq_##K##_key(&n->base), key, slack)) {	\
			(void)sq_##K##_requeue(&r->sq_q, &n->base,	\
					sq__slack_end(key, slack));	\
		}							\
	}								\
	SQ__GEN_INLINE size_t sq_remote_##K##_drain(struct sq_remote_##K *r) \
	{								\
		return sq_remote__drain(&r->sq_in, sq_remote_##K##__apply, r); \
	}								\
	SQ__GEN_INLINE struct sq_##K *					\
	sq_remote_##K##_q(struct sq_remote_##K *r)			\
	{								\
		SQ__MISUSE(r->sq_in.sq_owner != SQ__R_SELF(),		\
			   "sq_remote_" #K "_q",			\
			   "called from a thread that is not the queue's owner"); \
		return &r->sq_q;					\
	}								\
	SQ__GEN bool sq_remote_##K##_idle(struct sq_remote_##K *r,	\
					  const struct sq_remote_##K##_node *n) \
	{								\
		SQ__MISUSE(r->sq_in.sq_owner != SQ__R_SELF(),		\
			   "sq_remote_" #K "_idle",			\
			   "called from a thread that is not the queue's owner"); \
		(void)r;						\
		return sq_remote__quiet(&n->sq_r) &&			\
		       !sq_##K##_queued(&n->base);			\
	}
/* NOLINTEND(bugprone-macro-parentheses) */

/* smartq.h includes this header last: every backend is declared then */
#ifdef SQ_KINDS
#define SQ__REMOTE_KIND_X(K, exact) SQ_REMOTE_KIND(K)
SQ_KINDS(SQ__REMOTE_KIND_X)
#endif
#ifdef SMARTQ_RB_ELIG_H
SQ_REMOTE_KIND(erb)
#endif
#ifdef SMARTQ_GAVL_ELIG_H
SQ_REMOTE_KIND(egavl)
#endif

#endif /* C11 with atomics */
#endif /* SMARTQ_REMOTE_H */
