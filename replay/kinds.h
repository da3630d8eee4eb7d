/* SPDX-License-Identifier: MIT */
/*
 * replay/kinds.h - which smartq backends replay runs, and which are exact
 *
 * The one place in replay/ that knows smartq's backend list.  A backend
 * joins replay by its entry in the list (later: by its entry in smartq.h's
 * SQ_KINDS alone); nothing else in replay/ names one.
 *
 *   RP_SQ_KINDS(X)    every smartq backend, X(token)
 *   RP_SQ_INEXACT(X)  the backends exact only to a stated guarantee; every
 *                     other backend must return the exact, stable order, so
 *                     all of them must produce the same decision trace
 */
#ifndef RP_KINDS_H
#define RP_KINDS_H

#include <smartq.h>

#ifndef RP_SQ_KINDS
#define RP_SQ_KINDS(X) X(rb) X(gavl) X(binom) X(tring)
#endif

/* The ring: exact to its granularity, and late keys come out first. */
#ifndef RP_SQ_INEXACT
#define RP_SQ_INEXACT(X) X(tring)
#endif

#endif /* RP_KINDS_H */
