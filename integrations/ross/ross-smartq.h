/*
 * ross-smartq.h - the link that smartq's ROSS queue embeds in tw_event
 *
 * ROSS's core/ross-types.h includes this (with the patch beside it) when
 * it is configured with -DQUEUE=smartq, and adds `struct tw_sq_link sq`
 * to struct tw_event.  ROSS_SMARTQ_KIND, the backend, comes from the
 * ross-smartq-config.h that integrations/ross/smartq.cmake writes.
 *
 * While an event is in the queue, tw_event's own next and prev belong to
 * the queue too (owner TW_pe_pq), as they do to splay.c; smartq.c uses
 * them for the tie heaps, with sq.child.
 */
#ifndef ROSS_SMARTQ_H
#define ROSS_SMARTQ_H

#include "ross-smartq-config.h"
#include "smartq.h"

#ifndef ROSS_SMARTQ_KIND
#define ROSS_SMARTQ_KIND ladder
#endif

struct tw_event;

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

#endif /* ROSS_SMARTQ_H */
