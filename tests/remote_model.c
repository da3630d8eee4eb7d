/* SPDX-License-Identifier: MIT */
/*
 * remote_model.c - every interleaving of two posters and the owner over
 * the state machine of smartq/remote.h
 *
 * A model checker for one node: each thread is the header's code cut at
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
 * The owner also fires the node (pops it, as pop_due does) between
 * drains.  Each scenario is then run with the machine broken on purpose
 * (a drain that ignores W; no sequence count): the search must find the
 * fault, so the checker is known to bite.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smartq.h"

enum { NODE = 0, STUB = 1, NIL = 2 };	/* the links */
enum { ARM = (int)SQ__R_ARM, CANCEL = (int)SQ__R_CANCEL };

/* poster program counters */
enum { A_LOAD, A_CAS, A_KEY, A_PUB, A_PUSH_NULL, A_PUSH_XCHG, A_PUSH_LINK,
       A_FIN };
/* owner program counters */
enum { O_IDLE, O_EMPTY, O_LAST, O_POP0, O_POP1, O_POP3, O_STUB_NULL,
       O_STUB_XCHG, O_STUB_LINK, O_POP4, O_TAKE0, O_TAKE_W, O_TAKE_K,
       O_TAKE_CAS, O_END };

#define MAXCMD 3
#define MAXFIRE 2

struct poster {
	uint64_t s, cur;
	uint8_t pc, idx, prev;
	/* cppcheck-suppress unusedStructMember ; zeroed, compared by memcmp */
	uint8_t pad[5];
};

/* everything; no padding the compiler may leave undefined (memcmp) */
struct ms {
	uint64_t S;			/* the state word */
	uint64_t os;			/* owner's s */
	struct poster P[2];
	uint8_t key;			/* the key slot */
	uint8_t head, next[2], tail;	/* the inbox */
	uint8_t in_list[2];		/* ghost: linked in the inbox */
	uint8_t queued, qkey;		/* the owner's queue */
	uint8_t pub_cmd, pub_key, pub_serial, applied_serial;	/* ghost */
	uint8_t fired_since_apply, fires;
	uint8_t opc, last, popped, onext, oprev, okey;
	/* cppcheck-suppress unusedStructMember ; zeroed, compared by memcmp */
	uint8_t pad[2];
};

struct scenario {
	const char *name;
	int n[2];
	int cmd[2][MAXCMD];
	int key[2][MAXCMD];
};

static const struct scenario *SC;
static int broken;		/* 0: the header's machine; 1, 2: faults */
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

/* true if @m was new (and is now remembered) */
static int visit(const struct ms *m)
{
	size_t i = (size_t)hash_ms(m) & (seen_cap - 1);

	while (mc_used[i]) {
		if (!memcmp(&mc_states[i], m, sizeof(*m)))
			return 0;
		i = (i + 1) & (seen_cap - 1);
	}
	if (2 * (seen_n + 1) > seen_cap) {
		fprintf(stderr, "remote_model: more than %zu states\n",
			seen_cap / 2);
		exit(1);
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

static uint64_t publish(uint64_t cur, uint64_t cmd)
{
	uint64_t s = sq_remote__publish(cur, cmd);

	return broken == 2 ? s - SQ__R_SEQ1 : s;	/* 2: no SEQ */
}

static int writing(uint64_t s)
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
	int cmd = p->idx < SC->n[t] ? SC->cmd[t][p->idx] : 0;

	switch (p->pc) {
	case A_LOAD:
		p->s = m->S;
		p->pc = (p->s & SQ__R_W) ? A_LOAD : A_CAS;
		return 1;
	case A_CAS:
		if (m->S == p->s) {
			m->S = p->s | SQ__R_W;
			p->pc = A_KEY;
		} else {
			p->s = m->S;
			p->pc = (p->s & SQ__R_W) ? A_LOAD : A_CAS;
		}
		return 1;
	case A_KEY:
		m->key = (uint8_t)SC->key[t][p->idx];
		p->cur = p->s | SQ__R_W;
		p->pc = A_PUB;
		return 1;
	case A_PUB:
		if (m->S != p->cur) {
			p->cur = m->S;
			return 1;
		}
		m->S = publish(p->cur, (uint64_t)cmd);
		m->pub_cmd = (uint8_t)cmd;
		m->pub_key = (uint8_t)SC->key[t][p->idx];
		m->pub_serial++;
		if (!(p->cur & SQ__R_Q)) {
			p->pc = A_PUSH_NULL;
			return 1;
		}
		break;			/* the command is done */
	case A_PUSH_NULL:
		if (m->in_list[NODE])
			violation("a node pushed while it is in the inbox");
		m->next[NODE] = NIL;
		p->pc = A_PUSH_XCHG;
		return 1;
	case A_PUSH_XCHG:
		p->prev = m->head;
		m->head = NODE;
		m->in_list[NODE] = 1;
		p->pc = A_PUSH_LINK;
		return 1;
	case A_PUSH_LINK:
		m->next[p->prev] = NODE;
		break;			/* the command is done */
	default:
		return 0;		/* A_FIN */
	}
	p->idx++;
	p->pc = p->idx < SC->n[t] ? A_LOAD : A_FIN;
	return 1;
}

static void apply(struct ms *m, uint64_t cmd)
{
	if (cmd != (uint64_t)m->pub_cmd ||
	    (cmd == SQ__R_ARM && m->okey != m->pub_key))
		violation("a drain applied a command that is not the newest");
	if (m->pub_serial <= m->applied_serial)
		violation("a command applied twice");
	m->applied_serial = m->pub_serial;
	m->queued = cmd == SQ__R_ARM;
	m->qkey = m->queued ? m->okey : 0;
	m->fired_since_apply = 0;
}

static int posters_done(const struct ms *m)
{
	return m->P[0].pc == A_FIN && m->P[1].pc == A_FIN;
}

static int quiet(const struct ms *m)
{
	return !(m->S & (SQ__R_W | SQ__R_Q | SQ__R_CMD)) &&
	       m->tail == STUB && m->head == STUB && m->next[STUB] == NIL;
}

/* @choice: the owner's idle choice, 0 drain, 1 fire, 2 stop */
static int step_owner(struct ms *m, int choice)
{
	uint8_t next;

	switch (m->opc) {
	case O_IDLE:
		if (choice == 0) {
			m->opc = O_EMPTY;
			return 1;
		}
		if (choice == 1 && m->queued && m->fires < MAXFIRE) {
			m->queued = 0;
			m->qkey = 0;
			m->fires++;
			m->fired_since_apply = 1;
			return 1;
		}
		if (choice == 2 && posters_done(m) && quiet(m)) {
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
		if (m->popped != NODE)
			violation("a pop returned the stub");
		m->os = m->S;
		m->opc = writing(m->os) ? O_TAKE_W : O_TAKE_K;
		return 1;
	case O_TAKE_W:
		if (m->S == m->os) {
			m->S = sq_remote__left(m->os);
			goto taken;
		}
		m->os = m->S;
		m->opc = writing(m->os) ? O_TAKE_W : O_TAKE_K;
		return 1;
	case O_TAKE_K:
		m->okey = m->key;
		m->opc = O_TAKE_CAS;
		return 1;
	case O_TAKE_CAS:
		if (m->S != m->os) {
			m->os = m->S;
			m->opc = writing(m->os) ? O_TAKE_W : O_TAKE_K;
			return 1;
		}
		m->S = sq_remote__taken(m->os);
		if (!(m->os & SQ__R_CMD))
			violation("a node in the inbox with no command");
		else
			apply(m, m->os & SQ__R_CMD);
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

/* The posters are done: the owner alone must reach quiescence, and the
 * node must then be as the last command left it. */
static void check_finish(const struct ms *start)
{
	struct ms m = *start;
	int steps;

	for (steps = 0; steps < 1000 && !(m.opc == O_IDLE && quiet(&m));
	     steps++)
		if (!step_owner(&m, 0)) {
			violation("the owner is stuck after the posters");
			return;
		}
	if (!quiet(&m)) {
		violation("the owner alone does not reach quiescence");
		return;
	}
	if (m.applied_serial != m.pub_serial)
		violation("the last command was never applied");
	else if (m.pub_cmd == ARM &&
		 !(m.queued ? m.qkey == m.pub_key : m.fired_since_apply))
		violation("armed last, but not queued at its key nor fired");
	else if (m.pub_cmd == CANCEL && m.queued)
		violation("cancelled last, but queued");
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
		n = *m;
		if (step_poster(&n, t)) {
			can = 1;
			transitions++;
			moved |= memcmp(&n, m, sizeof(n)) != 0;
			explore(&n);
		}
	}
	for (c = 0; c < 3; c++) {
		n = *m;
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

static const struct scenario scenarios[] = {
	{ "arm 1 | arm 2", { 1, 1 }, { { ARM }, { ARM } }, { { 1 }, { 2 } } },
	{ "arm 1, cancel | arm 2", { 2, 1 }, { { ARM, CANCEL }, { ARM } },
	  { { 1, 0 }, { 2 } } },
	{ "cancel | arm 1, arm 2", { 1, 2 }, { { CANCEL }, { ARM, ARM } },
	  { { 0 }, { 1, 2 } } },
	{ "arm 1, arm 2 | cancel, arm 3", { 2, 2 },
	  { { ARM, ARM }, { CANCEL, ARM } }, { { 1, 2 }, { 0, 3 } } },
	{ "arm 1, cancel, arm 2 | cancel, arm 3, cancel", { 3, 3 },
	  { { ARM, CANCEL, ARM }, { CANCEL, ARM, CANCEL } },
	  { { 1, 0, 2 }, { 0, 3, 0 } } },
};

static const char *run(const struct scenario *sc, int brk)
{
	struct ms m;

	SC = sc;
	broken = brk;
	fault = NULL;
	memset(mc_used, 0, seen_cap);
	seen_n = 0;
	transitions = 0;
	memset(&m, 0, sizeof(m));
	m.head = STUB;
	m.tail = STUB;
	m.next[NODE] = NIL;
	m.next[STUB] = NIL;
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
					      "no sequence count" };

	seen_cap = (size_t)1 << 22;
	mc_states = malloc(seen_cap * sizeof(*mc_states));
	mc_used = malloc(seen_cap);
	if (!mc_states || !mc_used) {
		fprintf(stderr, "remote_model: out of memory\n");
		return 1;
	}
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		const char *f = run(&scenarios[i], 0);
		int brk, bites = 1;

		printf("%-46s %8zu states %9zu steps: %s\n", scenarios[i].name,
		       seen_n, transitions, f ? f : "ok");
		for (brk = 1; brk <= 2; brk++) {
			const char *g = run(&scenarios[i], brk);

			printf("  broken: %-37s found: %s\n", faults[brk],
			       g ? g : "NOTHING");
			/* the simplest scenario need not show every fault */
			bites &= g != NULL || i < 3;
		}
		if (!f && bites)
			passed++;
		else
			failed++;
	}
	free(mc_states);
	free(mc_used);
	printf("remote_model: %u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
