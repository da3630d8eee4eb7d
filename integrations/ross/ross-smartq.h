/*
 * ross-smartq.h - the link that smartq's ROSS queue embeds in tw_event
 *
 * ROSS's core/ross-types.h includes this (with the patch beside it) when
 * it is configured with -DQUEUE=smartq, and adds `struct tw_sq_link sq`
 * to struct tw_event.  ross-smartq-config.h, which smartq.cmake writes,
 * names the backend (ROSS_SMARTQ_KIND) and the way ties are ordered
 * (ROSS_SMARTQ_HOOK: by a tie kind; else by smartq.c's tie heaps).
 *
 * While an event is in the queue, tw_event's own next and prev belong to
 * the queue too (owner TW_pe_pq), as they do to splay.c; the tie heaps
 * use them, with sq.child.
 */
#ifndef ROSS_SMARTQ_H
#define ROSS_SMARTQ_H

#include "ross-smartq-config.h"
#include "smartq.h"

#ifndef ROSS_SMARTQ_KIND
#error "ross-smartq.h: ROSS_SMARTQ_KIND unset (ross-smartq-config.h is smartq.cmake's)"
#endif

struct tw_event;

#ifdef ROSS_SMARTQ_HOOK
/* The tie kind: equal keys in ROSS's order, which smartq.c defines (it
 * needs the whole tw_event); this inline less is only its forwarder. */
SQ_TIE(ROSS_SMARTQ_KIND, ross_evq, ross_evq_less);
bool tw_sq_node_before(const SQ_NODE(ross_evq) *a,
		       const SQ_NODE(ross_evq) *b);
static inline bool ross_evq_less(const SQ_NODE(ross_evq) *a,
				 const SQ_NODE(ross_evq) *b)
{
	return tw_sq_node_before(a, b);
}

struct tw_sq_link {
	SQ_NODE(ross_evq) node;
};
#else
/**
 * struct tw_sq_link - an event's place in the queue
 * @node:  the smartq node; queued while the event is the root of a tie
 *         heap parked in the queue (see smartq.c)
 * @child: first child in its tie heap, NULL if none
 */
struct tw_sq_link {
	SQ_NODE(ROSS_SMARTQ_KIND) node;
	struct tw_event *child;
};
#endif

#endif /* ROSS_SMARTQ_H */
