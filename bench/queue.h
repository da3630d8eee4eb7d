/* SPDX-License-Identifier: MIT */
/*
 * bench/queue.h - the harness's per-queue code, written once
 *
 * Not a normal header: queues.c includes it once per queue (through
 * kind.h for each backend of SQ_KINDS), each time with
 *
 *	BQ_K        the token the macro API pastes (a backend, or peer_heap)
 *	BQ_NAME     its printed name ("heap")
 *	BQ_PEER     1 for a peer (measured for comparison), else 0
 *	BQ_GRAN     the order the correctness pass demands: each popped key
 *	            is less than the next popped key + BQ_GRAN (1: exact)
 *	BQ_INIT(q)  optional, how to initialise the queue (default SQ_INIT)
 *	BQ_FINI(q)  optional, how to release what the queue allocated itself
 *	BQ_SPAN     optional, how far apart keys may lie and still come out
 *	            in order (default 0: any distance)
 *	BQ_EXACT    optional, 0 for a queue exact only to a granularity
 *	            (default 1: exact)
 *	BQ_EXPIRE(q, now, fn, arg)  optional, how the timer mixes fire every
 *	            node due at now in one call, each popped before fn(node,
 *	            arg) (a ring's or a wheel's tick at a time); default a
 *	            pop_due loop, as for an exact queue
 *
 * and it defines static functions bq_<K>_hold(), _sched(), _timer(),
 * _churn(), _updown(), _mix(), _setup(), _teardown(), _verify() and the
 * table entry bq_<K>_ops, every
 * one written against the common macro API (SQ_POP(K, q) and friends), so
 * the timing loop has one shape for every queue and the algorithms stay in
 * their headers.  Each include ends by undefining its parameters.
 *
 * The loops read only pre-generated tables (bq.inc, bq.rnd), so no random
 * number generator is timed, and return the sum of the keys they popped,
 * which the caller stores into a volatile sink: nothing can be hoisted.
 */

#ifndef BQ_INIT
#define BQ_INIT(q) SQ_INIT(BQ_K, q)
#endif
#ifndef BQ_FINI
#define BQ_FINI(q) ((void)(q))
#endif
#ifndef BQ_SPAN
#define BQ_SPAN 0
#endif
#ifndef BQ_EXACT
#define BQ_EXACT 1
#endif

#define BQ_FN(name) BQ_XCAT3(bq_, BQ_K, _##name)

#ifndef BQ_EXPIRE
#define BQ_EXPIRE(q, now, fn, arg) BQ_FN(pop_due_loop)(q, now, fn, arg)

static inline size_t BQ_FN(pop_due_loop)(SQ_QUEUE(BQ_K) *q, uint64_t now,
					 void (*fn)(SQ_NODE(BQ_K) *, void *),
					 void *arg)
{
	SQ_NODE(BQ_K) *n;
	size_t fired = 0;

	while ((n = SQ_POP_DUE(BQ_K, q, now)) != NULL) {
		fn(n, arg);
		fired++;
	}
	return fired;
}
#endif

/*
 * The events: bq.n of them, each bq.event bytes (--event) with the
 * queue's node at its start, or each just the node (bq.event 0), so that
 * every queue of a run can be given events of one size.  BQ_AT(mem,
 * stride, i) is event i's node.
 */
#ifndef BQ_AT
#define BQ_AT(mem, stride, i) \
	((SQ_NODE(BQ_K) *)(void *)((mem) + (size_t)(i) * (stride)))
#endif

static SQ_QUEUE(BQ_K) BQ_FN(q);
static char *BQ_FN(mem);
static size_t BQ_FN(stride);

/*
 * hold: the seeds' smart-queue loop.  Pick the first node, pop it, move its
 * key on by an increment (a task's vruntime after a slice), enqueue it.
 */
static uint64_t BQ_FN(hold)(size_t loops)
{
	SQ_QUEUE(BQ_K) *q = &BQ_FN(q);
	const uint32_t *inc = bq.inc;
	uint64_t t = bq.tick, sink = 0;
	size_t i;

	for (i = 0; i < loops; i++) {
		SQ_NODE(BQ_K) *n = SQ_POP(BQ_K, q);
		uint64_t key = n->key;

		sink += key;
		SQ_ENQUEUE(BQ_K, q, n, key + inc[(t + i) & BQ_TAB_MASK]);
	}
	bq.tick = t + loops;
	bq.ops += 2 * (uint64_t)loops;	/* a pop and an enqueue */
	return sink;
}

/*
 * sched: a CFS-like run queue.  Mostly the hold step (the leftmost task
 * runs a slice and goes back); 1 in 16 steps a random queued task blocks
 * (an arbitrary dequeue) and 1 in 16 the longest sleeper wakes, placed
 * near the current minimum (min + increment/16), as CFS places a woken
 * task near min_vruntime.
 */
static uint64_t BQ_FN(sched)(size_t loops)
{
	SQ_QUEUE(BQ_K) *q = &BQ_FN(q);
	char *mem = BQ_FN(mem);
	size_t stride = BQ_FN(stride);
	const uint32_t *inc = bq.inc, *rnd = bq.rnd;
	uint64_t t = bq.tick, sink = 0;
	size_t i;

	for (i = 0; i < loops; i++) {
		uint32_t r = rnd[(t + i) & BQ_TAB_MASK];
		uint32_t d = inc[(t + i) & BQ_TAB_MASK];
		SQ_NODE(BQ_K) *n;
		uint64_t key;

		if ((r & 15u) == 0 && SQ_COUNT(BQ_K, q) > 1) {
			n = BQ_AT(mem, stride, bq_pick(r, bq.n));
			if (SQ_QUEUED(BQ_K, n)) {
				SQ_DEQUEUE(BQ_K, q, n);
				bq.sleep[bq.sleep_tail++ & bq.sleep_mask] = n;
				continue;
			}
		} else if ((r & 15u) == 1 && bq.sleep_head != bq.sleep_tail) {
			n = (SQ_NODE(BQ_K) *)
				bq.sleep[bq.sleep_head++ & bq.sleep_mask];
			key = SQ_FIRST(BQ_K, q)->key + (d >> 4);
			SQ_ENQUEUE(BQ_K, q, n, key);
			continue;
		}
		n = SQ_POP(BQ_K, q);
		key = n->key;
		sink += key;
		SQ_ENQUEUE(BQ_K, q, n, key + d);
	}
	bq.tick = t + loops;
	return sink;
}

/* an expiry's callback: a fired timer is touched (its key summed) and,
 * in the timer mix, re-armed at a key past now */
struct BQ_FN(fire) {
	SQ_QUEUE(BQ_K) *q;
	uint64_t sink, at;	/* at 0: it stays idle */
};

static inline void BQ_FN(fired)(SQ_NODE(BQ_K) *n, void *arg)
{
	struct BQ_FN(fire) *f = (struct BQ_FN(fire) *)arg;

	f->sink += n->key;
	if (f->at)
		(void)SQ_REQUEUE(BQ_K, f->q, n, f->at);
}

/*
 * timer: N timers, written as a timer service is (examples/timers.c):
 * re-arm with requeue, armed or not; cancel with dequeue; expire every
 * timer due in one call (BQ_EXPIRE: a pop_due loop, or the queue's own
 * expiry of a tick); and reprogram the one hardware deadline only when
 * an answer says the first deadline moved.  6 in 8 steps re-arm a random
 * timer at now + timeout (a retransmit timer on every acknowledgement);
 * 1 in 8 cancel one (it stays idle until re-armed, so about 1 timer in 7
 * is idle); 1 in 8 the deadline passes: "now" becomes the first deadline,
 * every timer due fires and is re-armed (a periodic timer, at now + a
 * period of at least 1), and the deadline is reprogrammed.  A fire counts
 * as a queue call whichever verb made it.
 */
static uint64_t BQ_FN(timer)(size_t loops)
{
	SQ_QUEUE(BQ_K) *q = &BQ_FN(q);
	SQ_NODE(BQ_K) *n;
	char *mem = BQ_FN(mem);
	size_t stride = BQ_FN(stride);
	const uint32_t *inc = bq.inc, *rnd = bq.rnd;
	uint64_t t = bq.tick, now = bq.now, reprograms = 0, fired = 0;
	uint64_t ops = loops;	/* one call a step, plus the expiries' */
	struct BQ_FN(fire) f;
	size_t i;

	f.q = q;
	f.sink = 0;
	for (i = 0; i < loops; i++) {
		uint32_t r = rnd[(t + i) & BQ_TAB_MASK];
		uint32_t d = inc[(t + i) & BQ_TAB_MASK];
		size_t k;

		if ((r & 7u) > 1u) {
			n = BQ_AT(mem, stride, bq_pick(r, bq.n));
			reprograms += SQ_REQUEUE(BQ_K, q, n, now + d);
		} else if (r & 7u) {
			n = BQ_AT(mem, stride, bq_pick(r, bq.n));
			reprograms += SQ_QUEUED(BQ_K, n) &&
				      SQ_DEQUEUE(BQ_K, q, n);
		} else if ((n = SQ_FIRST(BQ_K, q)) != NULL) {
			/* a clock never runs back: a ring's first may lie
			 * below a key it popped earlier (within Tg) */
			now = n->key > now ? n->key : now;
			/* a period of 0 (ties) would fire again at once */
			f.at = now + d + (d == 0);
			k = BQ_EXPIRE(q, now, BQ_FN(fired), &f);
			fired += k;
			ops += 2 * k;	/* a fire and a re-arm each */
			reprograms++;
		}
	}
	bq.tick = t + loops;
	bq.now = now;
	bq.reprograms += reprograms;
	bq.ops += ops;
	bq.fired += fired;
	return f.sink;
}

/*
 * churn: long timers, as a server holds them (one per connection): 63
 * steps in 64 re-arm a random timer at now + timeout with requeue
 * (activity on its connection: armed or fired, it is armed again); the
 * 64th the clock ticks by 1 (a millisecond with -w churn's defaults) and
 * every timer due fires and stays idle until its next re-arm.  Most long
 * timers are re-armed long before they fire, so a far timer is filed and
 * moved again and again: the cost a ring pays for its far levels.
 */
static uint64_t BQ_FN(churn)(size_t loops)
{
	SQ_QUEUE(BQ_K) *q = &BQ_FN(q);
	SQ_NODE(BQ_K) *n;
	char *mem = BQ_FN(mem);
	size_t stride = BQ_FN(stride);
	const uint32_t *inc = bq.inc, *rnd = bq.rnd;
	uint64_t t = bq.tick, now = bq.now, reprograms = 0, fired = 0;
	uint64_t ops = loops;
	struct BQ_FN(fire) f;
	size_t i;

	f.q = q;
	f.sink = 0;
	f.at = 0;		/* a fired timer stays idle */
	for (i = 0; i < loops; i++) {
		if (((t + i) & 63u) != 63u) {
			n = BQ_AT(mem, stride,
				  bq_pick(rnd[(t + i) & BQ_TAB_MASK], bq.n));
			reprograms += SQ_REQUEUE(BQ_K, q, n,
					now + inc[(t + i) & BQ_TAB_MASK]);
			continue;
		}
		now++;
		fired += BQ_EXPIRE(q, now, BQ_FN(fired), &f);
		reprograms++;
	}
	bq.tick = t + loops;
	bq.now = now;
	bq.reprograms += reprograms;
	bq.ops += ops + fired;
	bq.fired += fired;
	return f.sink;
}

/*
 * updown: the event-set literature's up/down model.  Pop every node
 * ("now" becomes the last key popped), then enqueue them all again at now
 * plus an increment, and again: the queue swings between N and empty, so
 * a structure that resizes does so every phase.  A loop is one pop and
 * one enqueue, as in hold; the popped nodes wait in the sleep FIFO.
 */
static uint64_t BQ_FN(updown)(size_t loops)
{
	SQ_QUEUE(BQ_K) *q = &BQ_FN(q);
	const uint32_t *inc = bq.inc;
	uint64_t t = bq.tick, now = bq.now, sink = 0;
	size_t i, left = bq.phase_left;
	int down = bq.down;

	for (i = 0; i < 2 * loops; i++) {
		SQ_NODE(BQ_K) *n;

		if (down) {
			n = SQ_POP(BQ_K, q);
			now = n->key;
			sink += now;
			bq.sleep[bq.sleep_tail++ & bq.sleep_mask] = n;
		} else {
			n = (SQ_NODE(BQ_K) *)
				bq.sleep[bq.sleep_head++ & bq.sleep_mask];
			SQ_ENQUEUE(BQ_K, q, n, now + inc[(t + i) & BQ_TAB_MASK]);
		}
		if (--left == 0) {
			down = !down;
			left = bq.n;
		}
	}
	bq.tick = t + 2 * loops;
	bq.ops += 2 * (uint64_t)loops;	/* a pop and an enqueue */
	bq.now = now;
	bq.phase_left = left;
	bq.down = down;
	return sink;
}

/*
 * A queued node for a cancel or a re-arm: the first queued one from a
 * random index on (about two looks with half the nodes idle).
 */
static SQ_NODE(BQ_K) *BQ_FN(queued_near)(uint32_t r, size_t total)
{
	size_t j = bq_pick(r, total);
	SQ_NODE(BQ_K) *n;

	while (!SQ_QUEUED(BQ_K, n = BQ_AT(BQ_FN(mem), BQ_FN(stride), j)))
		j = j + 1 == total ? 0 : j + 1;
	return n;
}

/*
 * mix: the user's own shape (-w mix, --advise).  Each step is the
 * table's: arm an idle node at now + increment (enqueue), fire the first
 * (pop; now becomes its key, a clock that never runs back), cancel a
 * random queued node (dequeue; it goes idle) or re-arm one at now +
 * increment (requeue).  BQ_OP_AUTO arms while fewer than N are queued
 * and fires otherwise; an arm with no idle node fires, and any other
 * step on an empty queue arms, so every queue makes the same calls.  One
 * queue call a step: ns a step is ns per operation of the mix.
 */
static uint64_t BQ_FN(mix)(size_t loops)
{
	SQ_QUEUE(BQ_K) *q = &BQ_FN(q);
	SQ_NODE(BQ_K) *n;
	const uint32_t *inc = bq.inc, *rnd = bq.rnd;
	const uint8_t *op = bq.op;
	uint64_t t = bq.tick, now = bq.now, sink = 0, fired = 0;
	size_t i, total = bq.n + bq.spare;

	for (i = 0; i < loops; i++) {
		size_t at = (size_t)((t + i) & BQ_TAB_MASK);
		unsigned o = op[at];

		if (o == BQ_OP_AUTO)
			o = SQ_COUNT(BQ_K, q) < bq.n ? BQ_OP_ARM : BQ_OP_FIRE;
		if (o == BQ_OP_ARM && bq.sleep_head == bq.sleep_tail)
			o = BQ_OP_FIRE;
		else if (o != BQ_OP_ARM && SQ_EMPTY(BQ_K, q))
			o = BQ_OP_ARM;
		switch (o) {
		case BQ_OP_ARM:
			n = (SQ_NODE(BQ_K) *)
				bq.sleep[bq.sleep_head++ & bq.sleep_mask];
			SQ_ENQUEUE(BQ_K, q, n, now + inc[at]);
			break;
		case BQ_OP_FIRE:
			n = SQ_POP(BQ_K, q);
			now = n->key > now ? n->key : now;
			sink += n->key;
			fired++;
			bq.sleep[bq.sleep_tail++ & bq.sleep_mask] = n;
			break;
		case BQ_OP_CANCEL:
			n = BQ_FN(queued_near)(rnd[at], total);
			SQ_DEQUEUE(BQ_K, q, n);
			bq.sleep[bq.sleep_tail++ & bq.sleep_mask] = n;
			break;
		default:	/* BQ_OP_REARM */
			n = BQ_FN(queued_near)(rnd[at], total);
			(void)SQ_REQUEUE(BQ_K, q, n, now + inc[at]);
			break;
		}
	}
	bq.tick = t + loops;
	bq.now = now;
	bq.fired += fired;
	bq.ops += loops;
	return sink;
}

static uint64_t BQ_FN(run)(enum bq_workload w, size_t loops)
{
	switch (w) {
	case BQ_SCHED:
		return BQ_FN(sched)(loops);
	case BQ_TIMER:
	case BQ_SPREAD:
		return BQ_FN(timer)(loops);
	case BQ_UPDOWN:
		return BQ_FN(updown)(loops);
	case BQ_CHURN:
		return BQ_FN(churn)(loops);
	case BQ_MIX:
		return BQ_FN(mix)(loops);
	case BQ_HOLD:
	case BQ_NWORKLOADS:
		break;
	}
	return BQ_FN(hold)(loops);
}

/* N nodes with the run's initial keys, in index order; the mix's spare
 * nodes after them, idle, in the sleep FIFO. */
static void BQ_FN(setup)(void)
{
	SQ_QUEUE(BQ_K) *q = &BQ_FN(q);
	size_t i, stride = bq.event ? bq.event : sizeof(SQ_NODE(BQ_K));
	size_t total = bq.n + bq.spare;
	char *mem = (char *)bq_xalloc_lines(total * stride);

	memset(mem, 0, total * stride);
	BQ_FN(mem) = mem;
	BQ_FN(stride) = stride;
	BQ_INIT(q);
	for (i = 0; i < bq.n; i++) {
		SQ_NODE_INIT(BQ_K, BQ_AT(mem, stride, i));
		SQ_ENQUEUE(BQ_K, q, BQ_AT(mem, stride, i), bq.keys[i]);
	}
	for (; i < total; i++) {
		SQ_NODE_INIT(BQ_K, BQ_AT(mem, stride, i));
		bq.sleep[bq.sleep_tail++ & bq.sleep_mask] = BQ_AT(mem, stride, i);
	}
}

static void BQ_FN(teardown)(void)
{
	SQ_QUEUE(BQ_K) *q = &BQ_FN(q);

	while (SQ_POP(BQ_K, q))
		;
	BQ_FINI(q);
	free(BQ_FN(mem));
	BQ_FN(mem) = NULL;
}

/*
 * The correctness pass: build, check, run the workload @steps times,
 * check, then drain with pop and require every key to come out in order
 * (to BQ_GRAN), each node once, and the queue empty at the end.  With
 * @fault the first node's key is overwritten behind the queue's back
 * first, to prove that the pass catches a broken queue.  Returns NULL when
 * sound, else what went wrong (the queue is then left as it is).
 */
static const char *BQ_FN(verify)(enum bq_workload w, size_t steps, int fault)
{
	SQ_QUEUE(BQ_K) *q = &BQ_FN(q);
	SQ_NODE(BQ_K) *n;
	size_t popped = 0, asleep, i, total = bq.n + bq.spare;
	uint64_t prev = 0, sink;

	BQ_FN(setup)();
	if (SQ_COUNT(BQ_K, q) != bq.n)
		return "count() after the enqueues is wrong";
	if (SQ_CHECK(BQ_K, q) != 0)
		return "check() failed after the enqueues";
	sink = BQ_FN(run)(w, steps);
	/* the same operations from the same start: every exact queue pops
	 * the same keys and gives the same first-changed answers */
	if ((uint64_t)(BQ_GRAN) == 1 && bq.ref_set &&
	    (sink != bq.ref_sink || bq.reprograms != bq.ref_reprograms))
		return "its pops or its first-changed answers differ from "
		       "those of the first exact queue run (same operations "
		       "from the same start)";
	if ((uint64_t)(BQ_GRAN) == 1 && !bq.ref_set) {
		bq.ref_set = 1;
		bq.ref_sink = sink;
		bq.ref_reprograms = bq.reprograms;
	}
	/* sleeping tasks, drained nodes, cancelled timers: not queued */
	for (asleep = 0, i = 0; i < total; i++)
		asleep += !SQ_QUEUED(BQ_K,
				     BQ_AT(BQ_FN(mem), BQ_FN(stride), i));
	if (SQ_COUNT(BQ_K, q) + asleep != total)
		return "count() after the workload is wrong";
	if (fault && SQ_FIRST(BQ_K, q))
		SQ_FIRST(BQ_K, q)->key = UINT64_MAX / 2;	/* the fault */
	if (SQ_CHECK(BQ_K, q) != 0)
		return "check() failed after the workload";
	while ((n = SQ_POP(BQ_K, q)) != NULL) {
		if (SQ_QUEUED(BQ_K, n))
			return "a popped node still says it is queued";
		if (popped > 0 && n->key + (uint64_t)(BQ_GRAN) <= prev)
			return "pop returned keys out of order";
		prev = n->key;
		if (++popped > total)
			return "pop returned more nodes than were queued";
	}
	if (popped + asleep != total)
		return "pop returned fewer nodes than were queued";
	if (!SQ_EMPTY(BQ_K, q) || SQ_COUNT(BQ_K, q) != 0 || SQ_FIRST(BQ_K, q))
		return "the drained queue does not say it is empty";
	if (SQ_CHECK(BQ_K, q) != 0)
		return "check() failed on the drained queue";
	BQ_FINI(q);
	free(BQ_FN(mem));
	BQ_FN(mem) = NULL;
	return NULL;
}

static const struct bq_queue BQ_FN(ops) = {
	BQ_NAME, BQ_PEER, BQ_EXACT, BQ_SPAN, sizeof(SQ_NODE(BQ_K)),
	BQ_FN(setup), BQ_FN(run), BQ_FN(teardown), BQ_FN(verify),
};

#undef BQ_FN
#undef BQ_K
#undef BQ_NAME
#undef BQ_PEER
#undef BQ_GRAN
#undef BQ_INIT
#undef BQ_FINI
#undef BQ_SPAN
#undef BQ_EXACT
#undef BQ_EXPIRE
