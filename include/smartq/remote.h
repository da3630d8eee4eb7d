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
 * The promise: once a post has returned, the next drain that begins
 * applies it or a later post of the same node; per node, commands apply
 * in the order they were published and the last one wins, so a cancel
 * that returned is never followed by a fire of the key it cancelled
 * unless a later arm re-armed the node.  A node posted many times
 * before a drain is in the inbox once and is applied once (a storm of
 * re-arms costs one requeue).  Nothing allocates and nothing locks.
 * Posters of different nodes never wait for each other (they meet only
 * in the inbox's one exchange).  Two waits remain, each for another
 * thread's few instructions, not for a lock: arms of one node take turns
 * writing its key (two stores and a CAS), and any post of a node whose
 * push is under way waits until that pusher has exchanged the inbox's
 * head; a drain waits for a poster caught between the two steps of its
 * push.  The state machine, its memory orders and the proof are in
 * doc/remote.md; tests/remote_model.c runs this code under every
 * schedule of two posters and the owner to a bound.
 *
 * Reading order: the state word and its two helpers (published, taken),
 * then sq_remote__post (an arm, a cancel, a push, a rider's wait), then
 * the owner's side: sq_remote__drain, sq_remote__pop (Vyukov's queue)
 * and sq_remote__take (the seqlock read of a key slot).  SQ_REMOTE_KIND
 * at the end only binds a kind's requeue and dequeue to the drain.
 *
 * Between drains the owner may pop, requeue or dequeue a node through the
 * plain queue while other threads post for it: a command pending then
 * applies at the next drain to whatever the owner left, so it wins over
 * the owner's own earlier verbs (the owner can post to itself, too, to
 * keep its verbs in the one order).
 *
 * Freeing a node: only the owner frees or reuses a node, only when
 * SQ_REMOTE_IDLE says so, and only once no other thread can still post
 * for it.  IDLE true means the node is not queued, no command is pending
 * and no push or arm of it is under way; a post still running (one that
 * has read the state word and not yet written it) may still land, which
 * is why the second rule is the user's: tell the other threads first.
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
 * the one that called init, a post for a node that SQ_REMOTE_NODE_INIT
 * never initialised, and a node posted to a second queue while it is
 * pending on the first, stop the program with a message.
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
 *	bit  2    Q     the node is in the inbox, or its pusher is pushing it
 *	bit  3    P     its pusher has not yet exchanged the inbox's head
 *	bit  4    W     an arm is writing the key slot that K does not name
 *	bit  5    K     the key slot (0 or 1) of the newest arm published
 *	bits 6-63 SEQ   posts so far: a drain's snapshot that a post overtook
 *	                fails its CAS even when the bits above came back
 *
 * Q goes 0 -> 1 only in a post's publishing CAS, which sets P with it;
 * that poster (the pusher) exchanges the inbox's head, clears P, then
 * links the node.  Q goes 1 -> 0 only in a drain that popped the node.
 * So the node is in the inbox at most once, and P is clear whenever a
 * drain can reach the node.
 */
#define SQ__R_NONE   ((uint64_t)0)
#define SQ__R_ARM    ((uint64_t)1)
#define SQ__R_CANCEL ((uint64_t)2)
#define SQ__R_CMD    ((uint64_t)3)
#define SQ__R_Q      ((uint64_t)4)
#define SQ__R_P      ((uint64_t)8)
#define SQ__R_W      ((uint64_t)16)
#define SQ__R_K      ((uint64_t)32)
#define SQ__R_SEQ1   ((uint64_t)64)

/*
 * SQ__R_STEP(what) - the hook before every atomic step on a word another
 * thread may touch, @what naming the step.  Nothing by default;
 * tests/remote_model.c defines it to stop the thread there and run
 * another, so it runs this header's own code under every schedule.
 */
#ifndef SQ__R_STEP
#define SQ__R_STEP(what) ((void)0)
#endif

/* node_init's mark, checked by every post under SQ_DEBUG */
#define SQ__R_MAGIC  ((uint64_t)0x5351726e6f646521)	/* "SQRnode!" */

/*
 * sq_remote__published - the word after a post's publishing CAS over
 * @cur: @cmd pending, Q set (and P with it if this post sets Q), SEQ
 * counted.  An arm (the holder of W) also releases W and makes its slot
 * the named one; a cancel writes no key, leaving W and K as they are.
 */
SQ__INLINE uint64_t sq_remote__published(uint64_t cur, uint64_t cmd)
{
	uint64_t s = (cur & ~SQ__R_CMD) | cmd | SQ__R_Q;

	if (!(cur & SQ__R_Q))
		s |= SQ__R_P;
	if (cmd == SQ__R_ARM)
		s = (s & ~SQ__R_W) ^ SQ__R_K;
	return s + SQ__R_SEQ1;
}

/* a drain took the command of @s: nothing pending, not in the inbox */
SQ__INLINE uint64_t sq_remote__taken(uint64_t s)
{
	return s & ~(SQ__R_Q | SQ__R_CMD);
}

/* the inbox's link: Vyukov's intrusive MPSC queue */
struct sq_remote_link {
	_Atomic(struct sq_remote_link *) sq_next;
};

/* an arm's key and slack, written under W, read by a drain */
struct sq_remote_slot {
	atomic_uint_least64_t sq_key;
	atomic_uint_least64_t sq_slack;
};

/* what every remote node carries beside its plain node */
struct sq_remote_cmd {
	struct sq_remote_link sq_link;
	atomic_uint_least64_t sq_state;
	struct sq_remote_slot sq_slot[2];	/* K names the newest */
	_Atomic(const void *) sq_home;	/* SQ_DEBUG: the inbox last posted to */
	uint64_t sq_magic;		/* SQ__R_MAGIC once initialised */
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
 * Read through a function the compiler may not fold: errno's address is
 * a const function of the thread (glibc's __errno_location), so a
 * function that switches stacks between threads (an M:N scheduler's, in
 * the middle of it) could otherwise compare a cached, stale one.
 */
#ifdef SQ__GNUC
__attribute__((noinline, unused)) static const void *sq_remote__self(void)
{
	__asm__ __volatile__("" ::: "memory");	/* not const, not pure */
	return (const void *)&errno;
}
#define SQ__R_SELF() sq_remote__self()
#else
#define SQ__R_SELF() ((const void *)&errno)
#endif

/* a thread waiting for another's few instructions (a poster of the same
 * node, or, for a drain, a half-pushed poster) */
static inline void sq_remote__pause(void)
{
	SQ__R_STEP("pause");
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
	atomic_init(&c->sq_slot[0].sq_key, 0);
	atomic_init(&c->sq_slot[0].sq_slack, 0);
	atomic_init(&c->sq_slot[1].sq_key, 0);
	atomic_init(&c->sq_slot[1].sq_slack, 0);
	atomic_init(&c->sq_home, NULL);
	c->sq_magic = SQ__R_MAGIC;
}

/*
 * The two steps of a push: the exchange orders the pushes; until the
 * link stores @l behind the previous head, the owner's pop stops short
 * of it (and of everything pushed after it).  Between them a node's
 * pusher clears P (sq_remote__push_node), so the stub's push is split.
 */
static inline struct sq_remote_link *
sq_remote__exchange(struct sq_remote_inbox *in, struct sq_remote_link *l)
{
	SQ__R_STEP("push: clear the link");
	atomic_store_explicit(&l->sq_next, NULL, memory_order_relaxed);
	SQ__R_STEP("push: exchange the head");
	return atomic_exchange_explicit(&in->sq_head, l, memory_order_acq_rel);
}

static inline void sq_remote__link(struct sq_remote_link *prev,
				   struct sq_remote_link *l)
{
	SQ__R_STEP("push: link");
	atomic_store_explicit(&prev->sq_next, l, memory_order_release);
}

/*
 * Push @c, whose publish set Q (so it alone pushes it).  P is cleared
 * after the exchange, before the link: a post riding on this push may
 * return once the node is behind the head (any drain that begins then
 * reaches it), and a drain, reaching the node only through the link,
 * never sees P set (so a later pusher's P is never cleared by this one).
 */
static inline void sq_remote__push_node(struct sq_remote_inbox *in,
					struct sq_remote_cmd *c)
{
	struct sq_remote_link *prev = sq_remote__exchange(in, &c->sq_link);

	SQ__R_STEP("push: clear P");
	atomic_fetch_and_explicit(&c->sq_state, ~SQ__R_P,
				  memory_order_release);
	sq_remote__link(prev, &c->sq_link);
}

/*
 * Owner: take the oldest link whose push is complete, or NULL.  The stub
 * keeps the list non-empty, so a pop never races a push on the last link:
 * the last one is popped only after the stub is pushed behind it.
 */
static inline struct sq_remote_link *
sq_remote__pop(struct sq_remote_inbox *in)
{
	struct sq_remote_link *tail = in->sq_tail, *next, *head;

	SQ__R_STEP("pop: load the next link");
	next = atomic_load_explicit(&tail->sq_next, memory_order_acquire);
	if (tail == &in->sq_stub) {
		if (!next)
			return NULL;
		in->sq_tail = tail = next;
		SQ__R_STEP("pop: load the next link");
		next = atomic_load_explicit(&tail->sq_next,
					    memory_order_acquire);
	}
	if (!next) {
		/* the last link, or one whose successor is half pushed */
		SQ__R_STEP("pop: load the head");
		head = atomic_load_explicit(&in->sq_head, memory_order_acquire);
		if (tail != head)
			return NULL;
		sq_remote__link(sq_remote__exchange(in, &in->sq_stub),
				&in->sq_stub);
		SQ__R_STEP("pop: load the next link");
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
	const void *home;

	SQ__R_STEP("debug: load the home");
	home = atomic_load_explicit(&c->sq_home, memory_order_relaxed);
	SQ__MISUSE(home && home != (const void *)in &&
		   (s & (SQ__R_Q | SQ__R_CMD)), fn,
		   "node is pending on another queue's inbox");
	SQ__R_STEP("debug: store the home");
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
 * CANCEL) @c's pending command in @in, and return only once a drain that
 * begins will find @c in the inbox.
 *
 * An arm:
 *   1. take W: CAS state s -> s | W (acquire: after the last arm)
 *   2. store key, slack in the slot K does not name (relaxed: a drain
 *      reads only the named one, and no other arm writes while W is held)
 *   3. publish: CAS cur -> published(cur, ARM) (acq_rel: the stores of 2
 *      go with it; and it follows the drain that cleared Q, so a push of
 *      4 follows that drain's pop of the node)
 * A cancel writes no key: it is 3 alone, with CANCEL, keeping W and K (an
 * arm that holds W publishes after it, and wins).  Then either
 *   4. Q was clear in cur: this post set it, and pushes @c; or
 *   5. P was set in cur: the pusher of the push this post rides on has
 *      not exchanged the head yet; wait until it has (its few
 *      instructions, the only wait of a cancel, and on this node alone).
 */
static inline void sq_remote__post(struct sq_remote_inbox *in,
				   struct sq_remote_cmd *c, uint64_t cmd,
				   uint64_t key, uint64_t slack,
				   const char *fn)
{
	uint64_t cur;

	SQ__MISUSE(c->sq_magic != SQ__R_MAGIC, fn,
		   "node was not initialised (SQ_REMOTE_NODE_INIT)");
	SQ__R_STEP("post: load the state");
	cur = atomic_load_explicit(&c->sq_state, memory_order_relaxed);
	if (cmd == SQ__R_ARM) {
		struct sq_remote_slot *slot;

		for (;;) {
			if (cur & SQ__R_W) {
				sq_remote__pause();
				SQ__R_STEP("arm: load the state");
				cur = atomic_load_explicit(&c->sq_state,
							   memory_order_relaxed);
				continue;
			}
			SQ__R_STEP("arm: take W");
			if (atomic_compare_exchange_weak_explicit(&c->sq_state,
					&cur, cur | SQ__R_W,
					memory_order_acquire,
					memory_order_relaxed))
				break;
		}
		sq_remote__home(c, in, cur, fn);
		slot = &c->sq_slot[(cur & SQ__R_K) ? 0 : 1];
		SQ__R_STEP("arm: store the key");
		atomic_store_explicit(&slot->sq_key, key, memory_order_relaxed);
		SQ__R_STEP("arm: store the slack");
		atomic_store_explicit(&slot->sq_slack, slack,
				      memory_order_relaxed);
		cur |= SQ__R_W;
	} else {
		sq_remote__home(c, in, cur, fn);
	}
	for (;;) {
		SQ__R_STEP("post: publish");
		if (atomic_compare_exchange_weak_explicit(&c->sq_state, &cur,
				sq_remote__published(cur, cmd),
				memory_order_acq_rel, memory_order_relaxed))
			break;
	}
	if (!(cur & SQ__R_Q)) {
		sq_remote__push_node(in, c);
		return;
	}
	while (cur & SQ__R_P) {
		sq_remote__pause();
		SQ__R_STEP("post: wait for the push");
		cur = atomic_load_explicit(&c->sq_state, memory_order_acquire);
	}
}

/*
 * sq_remote__take - owner: @c was just popped; take its command.
 * Return: ARM (with *@key, *@slack) or CANCEL.
 *
 * A seqlock read: load s (acquire: the slot of the arm that named it),
 * read the slot K names, CAS s -> taken(s) (acq_rel: the reads stay
 * before it).  If the CAS succeeds no arm published in between (every
 * post changes SEQ, so no ABA), so no arm wrote that slot: an arm holding
 * W now writes the other one, and publishes over Q clear, pushing @c
 * again.  The owner never waits here.
 */
static inline uint64_t sq_remote__take(struct sq_remote_cmd *c,
				       uint64_t *key, uint64_t *slack)
{
	struct sq_remote_slot *slot;
	uint64_t s;

	SQ__R_STEP("take: load the state");
	s = atomic_load_explicit(&c->sq_state, memory_order_acquire);
	for (;;) {
		slot = &c->sq_slot[(s & SQ__R_K) ? 1 : 0];
		SQ__R_STEP("take: load the key");
		*key = atomic_load_explicit(&slot->sq_key,
					    memory_order_relaxed);
		SQ__R_STEP("take: load the slack");
		*slack = atomic_load_explicit(&slot->sq_slack,
					      memory_order_relaxed);
		SQ__R_STEP("take: clear Q");
		if (atomic_compare_exchange_weak_explicit(&c->sq_state, &s,
				sq_remote__taken(s),
				memory_order_acq_rel, memory_order_acquire))
			break;
	}
	SQ__MISUSE(!(s & SQ__R_CMD) || !(s & SQ__R_Q) || (s & SQ__R_P),
		   "sq_remote_drain",
		   "a node in the inbox has no command "
		   "(its memory was reused while pending?)");
	return s & SQ__R_CMD;
}

/*
 * The inbox is empty: two loads, nothing written (the owner's fast path).
 * It reads the head, not the stub's link: a poster stopped between its
 * exchange and its link has made the head new, and the drain must not
 * answer "empty" past it (nor past the posts behind it).  Relaxed: an
 * acquire load would keep the compiler from carrying the queue's fields
 * in registers across it, in the owner's loop; the drain that follows a
 * non-empty answer loads the head again, acquiring.
 */
SQ__INLINE bool sq_remote__empty(const struct sq_remote_inbox *in)
{
	SQ__R_STEP("drain: load the head");
	return in->sq_tail == &in->sq_stub &&
	       atomic_load_explicit(&in->sq_head, memory_order_relaxed) ==
		       &in->sq_stub;
}

/*
 * sq_remote__drain - owner: pop and apply each command posted before the
 * drain began (the head it saw then is the last it takes, so posters
 * cannot keep one drain going); @apply is the kind's, a constant that
 * inlines.  A poster whose exchange came before that head but whose link
 * is not stored yet is waited for (its one store, unless it is preempted
 * there): so every post that returned before the drain began is applied
 * by it.
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
	SQ__R_STEP("drain: load the last");
	last = atomic_load_explicit(&in->sq_head, memory_order_acquire);
	for (;;) {
		/* the head seen was the stub (a pop put it behind the last
		 * link): everything before it is taken once the tail is it */
		if (last == &in->sq_stub && in->sq_tail == &in->sq_stub)
			break;
		l = sq_remote__pop(in);
		if (!l) {
			/* a poster before the head seen is half pushed */
			sq_remote__pause();
			continue;
		}
		/* the link is the first member of struct sq_remote_cmd */
		struct sq_remote_cmd *c = (struct sq_remote_cmd *)(void *)l;
		uint64_t key = 0, slack = 0;
		uint64_t cmd = sq_remote__take(c, &key, &slack);

		SQ__STEP(1);
		apply(r, c, cmd, key, slack);
		applied++;
		if (l == last)
			break;
	}
	return applied;
}

/* owner: nothing pending, no poster inside a post (acquire: after it) */
static inline bool sq_remote__quiet(const struct sq_remote_cmd *c)
{
	SQ__R_STEP("idle: load the state");
	return !(atomic_load_explicit(&c->sq_state, memory_order_acquire) &
		 (SQ__R_CMD | SQ__R_Q | SQ__R_P | SQ__R_W));
}

/*
 * SQ_REMOTE_KIND(K) - the remote kind of kind K: struct sq_remote_K
 * (.sq_q, the plain queue, and the inbox), struct sq_remote_K_node
 * (.base, the plain node, and its command) and the verbs of the macros
 * above.  Only the apply is the kind's: a drain's ARM is K's requeue (it
 * enqueues a node that is not queued, moves one that is; with slack, as
 * SQ_REQUEUE_SLACK), its CANCEL K's dequeue of a queued node.
 * Complexity: post O(1) (but for the turns of posters of one node), drain
 * O(1) per command plus K's requeue or dequeue, every other verb O(1).
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
