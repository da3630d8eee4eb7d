/* SPDX-License-Identifier: MIT */
/*
 * remote_model.c - every interleaving of two posters and the owner over
 * the state machine of smartq/remote.h
 *
 * A model checker: each thread is the header's code cut at
 * its atomic operations (every load, store, exchange and CAS of the
 * state word, the key, the inbox's head and links is one step; what a
 * thread does between them is part of the step), the state word's moves
 * are the header's own sq_remote__publish, __taken and __left, and the
 * inbox is Vyukov's queue with its stub, as sq_remote__push and __pop
 * walk it.  From the initial state a depth-first search takes every
 * enabled step of every thread, in every order, remembering the states
 * it has seen (a state is everything: shared words, each thread's
 * program counter and locals, the ghost record below), so every
 * schedule is covered.  Sequential consistency: the weaker orders are
 * argued in doc/remote.md and tested by tests/remote.c on aarch64 and
 * armhf.
 *
 * Checked on every path:
 *   - a push never finds its link already in the inbox (at most one entry
 *     per node);
 *   - each command a drain applies is the newest one published, and none
 *     is applied twice (a ghost serial number per publication);
 *   - from every state where the posters are done, the owner alone drains
 *     to quiescence (nothing pending, inbox empty, the stub home), and
 *     then the node is as its last command left it: armed at its key (or
 *     fired at it since), or not queued;
 *   - no state but the end is stuck.
 * The owner also fires a node (pops it, as pop_due does) between
 * drains.  The scenarios post for one node, then for two (whose entries
 * then interleave in the inbox); the largest, four million states, runs
 * with -DREMOTE_MODEL_BIG (make check).  Each scenario is then run with
 * the machine broken on purpose, so the checker is known to bite: a drain
 * that ignores W and a state word without SEQ must be found in every
 * scenario, a cancel that clears W (as an arm's publish does) in some.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smartq.h"

enum { NODES = 2, STUB = NODES, NIL };	/* the links: nodes, the stub */
enum { ARM = (int)SQ__R_ARM, CANCEL = (int)SQ__R_CANCEL };

/* poster program counters */
enum { A_LOAD, A_CAS, A_KEY, A_PUB, A_CCAS, A_PUSH_NULL, A_PUSH_XCHG,
       A_PUSH_LINK, A_FIN };
/* owner program counters */
enum { O_IDLE, O_EMPTY, O_LAST, O_POP0, O_POP1, O_POP3, O_STUB_NULL,
       O_STUB_XCHG, O_STUB_LINK, O_POP4, O_TAKE0, O_TAKE_W, O_TAKE_K,
       O_TAKE_CAS, O_END };
/* the owner's choices when idle */
enum { C_DRAIN, C_FIRE0, C_FIRE1, C_STOP, C_CHOICES };

#define MAXCMD 3
#define MAXFIRE 2

/* a state word's value: the model's few posts keep SEQ small */
typedef uint16_t word;

struct poster {
	word s, cur;
	uint8_t pc, idx, prev;
};

/* everything; states are copied and compared as bytes (memcpy, memcmp),
 * each made from a zeroed one, so padding is always zero */
struct ms {
	word S[NODES];			/* each node's state word */
	word os;			/* owner's s */
	struct poster P[2];
	uint8_t key[NODES];		/* each node's key slot */
	uint8_t head, next[NODES + 1], tail;	/* the inbox */
	uint8_t in_list[NODES + 1];	/* ghost: linked in the inbox */
	uint8_t queued[NODES], qkey[NODES];	/* the owner's queue */
	/* ghost, per node: the newest publication, the last applied */
	uint8_t pub_cmd[NODES], pub_key[NODES], pub_serial[NODES];
	uint8_t applied_serial[NODES], fired_since_apply[NODES];
	uint8_t fires;
	uint8_t opc, last, popped, onext, oprev, okey;
};

struct scenario {
	const char *name;
	int n[2];
	int cmd[2][MAXCMD];
	int key[2][MAXCMD];
	int node[2][MAXCMD];		/* which node each command is for */
	int big;			/* millions of states: make check */
};

static const struct scenario *SC;
static int broken;		/* 0: the header's machine; 1-3: faults */
static const char *fault;	/* the first violation found */

/* ---- the visited set: open addressing over whole states ------------ */

static struct ms *mc_states;
static unsigned char *mc_used;
static size_t seen_cap, seen_n, transitions;

static uint64_t hash_ms(const struct ms *m)
{
	const unsigned char *p = (const unsigned char *)m;
	uint64_t h = 0xcbf29ce484222325u;
	size_t i;

	for (i = 0; i < sizeof(*m); i++)
		h = (h ^ p[i]) * 0x100000001b3u;
	return h;
}

/* the table twice as large, every state in it again */
static void grow(void)
{
	struct ms *old = mc_states;
	unsigned char *was = mc_used;
	size_t i, j, cap = seen_cap;

	seen_cap = cap ? 2 * cap : (size_t)1 << 16;
	mc_states = malloc(seen_cap * sizeof(*mc_states));
	mc_used = calloc(seen_cap, 1);
	if (!mc_states || !mc_used) {
		fprintf(stderr, "remote_model: out of memory\n");
		exit(1);
	}
	for (i = 0; i < cap; i++) {
		if (!was[i])
			continue;
		j = (size_t)hash_ms(&old[i]) & (seen_cap - 1);
		while (mc_used[j])
			j = (j + 1) & (seen_cap - 1);
		mc_used[j] = 1;
		memcpy(&mc_states[j], &old[i], sizeof(*old));
	}
	free(old);
	free(was);
}

/* true if @m was new (and is now remembered) */
static int visit(const struct ms *m)
{
	size_t i;

	if (2 * (seen_n + 1) > seen_cap)
		grow();
	i = (size_t)hash_ms(m) & (seen_cap - 1);
	while (mc_used[i]) {
		if (!memcmp(&mc_states[i], m, sizeof(*m)))
			return 0;
		i = (i + 1) & (seen_cap - 1);
	}
	mc_used[i] = 1;
	memcpy(&mc_states[i], m, sizeof(*m));
	seen_n++;
	return 1;
}

static void violation(const char *what)
{
	if (!fault)
		fault = what;
}

/* ---- the machine, possibly broken ---------------------------------- */

static word publish(word cur, uint64_t cmd)
{
	uint64_t s = sq_remote__publish(cur, cmd);

	return (word)(broken == 2 ? s - SQ__R_SEQ1 : s);	/* 2: no SEQ */
}

/* a cancel's publication; 3: one that clears W as an arm's does */
static word cancelled(word s)
{
	return (word)(broken == 3 ? sq_remote__publish(s, SQ__R_CANCEL)
				  : sq_remote__cancelled(s));
}

static int writing(word s)
{
	return broken == 1 ? 0 : (s & SQ__R_W) != 0;	/* 1: W ignored */
}

/* ---- one step of one thread; 0 when it cannot step -------------------- */

static void pop_to(struct ms *m, uint8_t next)
{
	m->popped = m->tail;
	m->in_list[m->tail] = 0;
	m->tail = next;
}

static void drain_ends(struct ms *m)
{
	m->opc = O_IDLE;
}

static int step_poster(struct ms *m, int t)
{
	struct poster *p = &m->P[t];
	int cmd = 0, x = 0;	/* the command, its node */

	if (p->idx < SC->n[t]) {
		cmd = SC->cmd[t][p->idx];
		x = SC->node[t][p->idx];
	}
	switch (p->pc) {
	case A_LOAD:
		p->s = m->S[x];
		if (cmd == CANCEL)
			p->pc = A_CCAS;	/* a cancel takes no W */
		else
			p->pc = (p->s & SQ__R_W) ? A_LOAD : A_CAS;
		return 1;
	case A_CCAS:
		if (m->S[x] != p->s) {
			p->s = m->S[x];
			return 1;
		}
		m->S[x] = cancelled(p->s);
		m->pub_cmd[x] = (uint8_t)cmd;
		m->pub_key[x] = 0;
		m->pub_serial[x]++;
		if (!(p->s & SQ__R_Q)) {
			p->pc = A_PUSH_NULL;
			return 1;
		}
		break;			/* the command is done */
	case A_CAS:
		if (m->S[x] == p->s) {
			m->S[x] = (word)(p->s | SQ__R_W);
			p->pc = A_KEY;
		} else {
			p->s = m->S[x];
			p->pc = (p->s & SQ__R_W) ? A_LOAD : A_CAS;
		}
		return 1;
	case A_KEY:
		m->key[x] = (uint8_t)SC->key[t][p->idx];
		p->cur = (word)(p->s | SQ__R_W);
		p->pc = A_PUB;
		return 1;
	case A_PUB:
		if (m->S[x] != p->cur) {
			p->cur = m->S[x];
			return 1;
		}
		m->S[x] = publish(p->cur, (uint64_t)cmd);
		m->pub_cmd[x] = (uint8_t)cmd;
		m->pub_key[x] = (uint8_t)SC->key[t][p->idx];
		m->pub_serial[x]++;
		if (!(p->cur & SQ__R_Q)) {
			p->pc = A_PUSH_NULL;
			return 1;
		}
		break;			/* the command is done */
	case A_PUSH_NULL:
		if (m->in_list[x])
			violation("a node pushed while it is in the inbox");
		m->next[x] = NIL;
		p->pc = A_PUSH_XCHG;
		return 1;
	case A_PUSH_XCHG:
		p->prev = m->head;
		m->head = (uint8_t)x;
		m->in_list[x] = 1;
		p->pc = A_PUSH_LINK;
		return 1;
	case A_PUSH_LINK:
		m->next[p->prev] = (uint8_t)x;
		break;			/* the command is done */
	default:
		return 0;		/* A_FIN */
	}
	p->idx++;
	p->pc = p->idx < SC->n[t] ? A_LOAD : A_FIN;
	return 1;
}

static void apply(struct ms *m, int x, uint64_t cmd)
{
	if (cmd != (uint64_t)m->pub_cmd[x] ||
	    (cmd == SQ__R_ARM && m->okey != m->pub_key[x]))
		violation("a drain applied a command that is not the newest");
	if (m->pub_serial[x] <= m->applied_serial[x])
		violation("a command applied twice");
	m->applied_serial[x] = m->pub_serial[x];
	m->queued[x] = cmd == SQ__R_ARM;
	m->qkey[x] = m->queued[x] ? m->okey : 0;
	m->fired_since_apply[x] = 0;
}

static int posters_done(const struct ms *m)
{
	return m->P[0].pc == A_FIN && m->P[1].pc == A_FIN;
}

static int quiet(const struct ms *m)
{
	int x;

	for (x = 0; x < NODES; x++)
		if (m->S[x] & (SQ__R_W | SQ__R_Q | SQ__R_CMD))
			return 0;
	return m->tail == STUB && m->head == STUB && m->next[STUB] == NIL;
}

static int step_owner(struct ms *m, int choice)
{
	uint8_t next;
	int x;

	switch (m->opc) {
	case O_IDLE:
		if (choice == C_DRAIN) {
			m->opc = O_EMPTY;
			return 1;
		}
		if (choice == C_FIRE0 || choice == C_FIRE1) {
			x = choice == C_FIRE0 ? 0 : 1;
			if (!m->queued[x] || m->fires >= MAXFIRE)
				return 0;
			m->queued[x] = 0;	/* pop_due took it */
			m->qkey[x] = 0;
			m->fires++;
			m->fired_since_apply[x] = 1;
			return 1;
		}
		if (choice == C_STOP && posters_done(m) && quiet(m)) {
			m->opc = O_END;
			return 1;
		}
		return 0;
	case O_EMPTY:		/* tail == stub && !load(stub.next) */
		if (m->tail == STUB && m->next[STUB] == NIL)
			drain_ends(m);
		else
			m->opc = O_LAST;
		return 1;
	case O_LAST:
		m->last = m->head;
		m->opc = O_POP0;
		return 1;
	case O_POP0:		/* next = load(tail->next) */
		next = m->next[m->tail];
		if (m->tail == STUB) {
			if (next == NIL) {
				drain_ends(m);
				return 1;
			}
			m->in_list[STUB] = 0;
			m->tail = next;
			m->opc = O_POP1;
			return 1;
		}
		m->onext = next;
		goto have_next;
	case O_POP1:		/* next = load(tail->next), past the stub */
		m->onext = m->next[m->tail];
have_next:
		if (m->onext != NIL) {
			pop_to(m, m->onext);
			m->opc = O_TAKE0;
		} else {
			m->opc = O_POP3;
		}
		return 1;
	case O_POP3:		/* tail != load(head): a push half done */
		if (m->tail != m->head)
			drain_ends(m);
		else
			m->opc = O_STUB_NULL;
		return 1;
	case O_STUB_NULL:
		if (m->in_list[STUB])
			violation("the stub pushed while it is in the inbox");
		m->next[STUB] = NIL;
		m->opc = O_STUB_XCHG;
		return 1;
	case O_STUB_XCHG:
		m->oprev = m->head;
		m->head = STUB;
		m->in_list[STUB] = 1;
		m->opc = O_STUB_LINK;
		return 1;
	case O_STUB_LINK:
		m->next[m->oprev] = STUB;
		m->opc = O_POP4;
		return 1;
	case O_POP4:
		next = m->next[m->tail];
		if (next == NIL) {
			drain_ends(m);
			return 1;
		}
		pop_to(m, next);
		m->opc = O_TAKE0;
		return 1;
	case O_TAKE0:
		if (m->popped >= NODES) {
			violation("a pop returned the stub");
			return 1;
		}
		m->os = m->S[m->popped];
		m->opc = writing(m->os) ? O_TAKE_W : O_TAKE_K;
		return 1;
	case O_TAKE_W:
		x = m->popped;
		if (m->S[x] == m->os) {
			m->S[x] = (word)sq_remote__left(m->os);
			goto taken;
		}
		m->os = m->S[x];
		m->opc = writing(m->os) ? O_TAKE_W : O_TAKE_K;
		return 1;
	case O_TAKE_K:
		m->okey = m->key[m->popped];
		m->opc = O_TAKE_CAS;
		return 1;
	case O_TAKE_CAS:
		x = m->popped;
		if (m->S[x] != m->os) {
			m->os = m->S[x];
			m->opc = writing(m->os) ? O_TAKE_W : O_TAKE_K;
			return 1;
		}
		m->S[x] = (word)sq_remote__taken(m->os);
		if (!(m->os & SQ__R_CMD))
			violation("a node in the inbox with no command");
		else
			apply(m, x, m->os & SQ__R_CMD);
taken:
		if (m->popped == m->last)
			drain_ends(m);
		else
			m->opc = O_POP0;
		return 1;
	default:
		return 0;		/* O_END */
	}
}

/* The posters are done: the owner alone must reach quiescence, and each
 * node must then be as its last command left it. */
static void check_finish(const struct ms *start)
{
	struct ms m;
	int steps, x;

	memcpy(&m, start, sizeof(m));
	for (steps = 0; steps < 1000 && !(m.opc == O_IDLE && quiet(&m));
	     steps++)
		if (!step_owner(&m, C_DRAIN)) {
			violation("the owner is stuck after the posters");
			return;
		}
	if (!quiet(&m)) {
		violation("the owner alone does not reach quiescence");
		return;
	}
	for (x = 0; x < NODES; x++) {
		if (m.applied_serial[x] != m.pub_serial[x])
			violation("the last command was never applied");
		else if (m.pub_cmd[x] == ARM &&
			 !(m.queued[x] ? m.qkey[x] == m.pub_key[x]
				       : m.fired_since_apply[x]))
			violation("armed last, but not queued at its key nor "
				  "fired");
		else if (m.pub_cmd[x] != ARM && m.queued[x])
			violation("cancelled last (or never armed), but queued");
	}
}

static void explore(const struct ms *m)
{
	struct ms n;
	int t, c, moved = 0, can = 0;

	if (fault || !visit(m))
		return;
	if (m->opc == O_END)
		return;
	if (posters_done(m) && m->opc == O_IDLE)
		check_finish(m);
	for (t = 0; t < 2; t++) {
		memcpy(&n, m, sizeof(n));
		if (step_poster(&n, t)) {
			can = 1;
			transitions++;
			moved |= memcmp(&n, m, sizeof(n)) != 0;
			explore(&n);
		}
	}
	for (c = 0; c < C_CHOICES; c++) {
		memcpy(&n, m, sizeof(n));
		if (step_owner(&n, c)) {
			can = 1;
			transitions++;
			moved |= memcmp(&n, m, sizeof(n)) != 0;
			explore(&n);
			if (m->opc != O_IDLE)
				break;	/* a choice only when idle */
		}
	}
	if (!can || !moved)
		violation("a state where no thread can move");
}

/* each poster's commands: what, at which key, for which node (A 0, B 1) */
static const struct scenario scenarios[] = {
	{ "arm A1 | arm A2", { 1, 1 }, { { ARM }, { ARM } },
	  { { 1 }, { 2 } }, { { 0 }, { 0 } } , 0 },
	{ "arm A1, cancel A | arm A2", { 2, 1 }, { { ARM, CANCEL }, { ARM } },
	  { { 1, 0 }, { 2 } }, { { 0, 0 }, { 0 } } , 0 },
	{ "cancel A | arm A1, arm A2", { 1, 2 }, { { CANCEL }, { ARM, ARM } },
	  { { 0 }, { 1, 2 } }, { { 0 }, { 0, 0 } } , 0 },
	{ "arm A1, arm A2 | cancel A, arm A3", { 2, 2 },
	  { { ARM, ARM }, { CANCEL, ARM } }, { { 1, 2 }, { 0, 3 } },
	  { { 0, 0 }, { 0, 0 } } , 0 },
	{ "arm A1, cancel A, arm A2 | cancel A, arm A3, cancel A", { 3, 3 },
	  { { ARM, CANCEL, ARM }, { CANCEL, ARM, CANCEL } },
	  { { 1, 0, 2 }, { 0, 3, 0 } }, { { 0, 0, 0 }, { 0, 0, 0 } } , 0 },
	{ "arm A1, arm B2 | arm B3, arm A4", { 2, 2 },
	  { { ARM, ARM }, { ARM, ARM } }, { { 1, 2 }, { 3, 4 } },
	  { { 0, 1 }, { 1, 0 } } , 0 },
	{ "arm A1, cancel B, arm A2 | arm B3, cancel A, arm B4", { 3, 3 },
	  { { ARM, CANCEL, ARM }, { ARM, CANCEL, ARM } },
	  { { 1, 0, 2 }, { 3, 0, 4 } }, { { 0, 1, 0 }, { 1, 0, 1 } }, 1 },
};

static const char *run(const struct scenario *sc, int brk)
{
	struct ms m;

	SC = sc;
	broken = brk;
	fault = NULL;
	free(mc_states);
	free(mc_used);
	mc_states = NULL;
	mc_used = NULL;
	seen_cap = 0;
	seen_n = 0;
	grow();
	transitions = 0;
	memset(&m, 0, sizeof(m));
	m.head = STUB;
	m.tail = STUB;
	memset(m.next, NIL, sizeof(m.next));
	m.in_list[STUB] = 1;
	m.P[0].pc = sc->n[0] ? A_LOAD : A_FIN;
	m.P[1].pc = sc->n[1] ? A_LOAD : A_FIN;
	m.opc = O_IDLE;
	explore(&m);
	return fault;
}

int main(void)
{
	size_t i;
	unsigned passed = 0, failed = 0;
	static const char *const faults[] = { "", "a drain that ignores W",
					      "no sequence count",
					      "a cancel that clears W" };
	unsigned found[4] = { 0, 0, 0, 0 };

	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
#ifndef REMOTE_MODEL_BIG
		if (scenarios[i].big)
			continue;	/* make check runs it */
#endif
		const char *f = run(&scenarios[i], 0);
		int brk, bites = 1;

		printf("%-54s %8zu states %9zu steps: %s\n", scenarios[i].name,
		       seen_n, transitions, f ? f : "ok");
		for (brk = 1; brk <= 3; brk++) {
			const char *g;

			if (brk == 3 && scenarios[i].big)
				continue;	/* found by the smaller ones */
			g = run(&scenarios[i], brk);

			printf("  broken: %-45s found: %s\n", faults[brk],
			       g ? g : "nothing");
			found[brk] += g != NULL;
			/* the first two faults show in every scenario */
			bites &= g != NULL || brk == 3;
		}
		if (!f && bites)
			passed++;
		else
			failed++;
	}
	/* the third needs a cancel beside an arm of the same node */
	printf("a cancel that clears W: found in %u scenarios\n", found[3]);
	if (found[3])
		passed++;
	else
		failed++;
	free(mc_states);
	free(mc_used);
	printf("remote_model: %u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
