/* SPDX-License-Identifier: MIT */
/*
 * remote_misuse.c - smartq/remote.h's SQ_DEBUG checks stop the program
 *
 * Each case runs in a forked child (tests/child.h) and must die by
 * SIGABRT with exactly its message: an owner verb (drain, q, idle) from
 * a thread that did not call init, and a node posted to a second queue
 * while it is pending on the first, and a post for a node that
 * SQ_REMOTE_NODE_INIT never initialised (its memory all ones, with W set,
 * would spin for ever; all zeros would pass).  The correct uses beside them must
 * not die.  Always built with SQ_DEBUG.
 */
#define _POSIX_C_SOURCE 200809L
#ifndef SQ_DEBUG
#define SQ_DEBUG 1
#endif
#include <pthread.h>
#include <stdio.h>

#include "child.h"
#include "smartq.h"

static SQ_REMOTE(rb) r1, r2;
static SQ_REMOTE_NODE(rb) node;

/* run @fn on another thread and wait for it */
static void *on_thread(void *fn)
{
	void (*f)(void);

	memcpy(&f, &fn, sizeof(f));
	f();
	return NULL;
}

static void elsewhere(void (*f)(void))
{
	pthread_t t;
	void *arg;

	memcpy(&arg, &f, sizeof(arg));
	if (pthread_create(&t, NULL, on_thread, arg) == 0)
		pthread_join(t, NULL);
}

static void setup(void)
{
	SQ_REMOTE_INIT(rb, &r1);
	SQ_REMOTE_INIT(rb, &r2);
	SQ_REMOTE_NODE_INIT(rb, &node);
}

static void drain_there(void) { (void)SQ_REMOTE_DRAIN(rb, &r1); }
static void q_there(void) { (void)SQ_FIRST(rb, SQ_REMOTE_Q(rb, &r1)); }
static void idle_there(void) { (void)SQ_REMOTE_IDLE(rb, &r1, &node); }
static void arm_there(void) { SQ_REMOTE_ARM(rb, &r1, &node, 7); }

static void drain_elsewhere(void) { setup(); elsewhere(drain_there); }
static void q_elsewhere(void) { setup(); elsewhere(q_there); }
static void idle_elsewhere(void) { setup(); elsewhere(idle_there); }

static void arm_second(void)
{
	setup();
	SQ_REMOTE_ARM(rb, &r1, &node, 5);
	SQ_REMOTE_ARM(rb, &r2, &node, 6);
}

static void cancel_second(void)
{
	setup();
	SQ_REMOTE_ARM(rb, &r1, &node, 5);
	SQ_REMOTE_CANCEL(rb, &r2, &node);
}

/* node_init never ran: memory of all ones (W set: an arm would wait for
 * ever on a writer that is not there), or of zeros */
static void arm_uninit(void)
{
	SQ_REMOTE_INIT(rb, &r1);
	memset(&node, 0xff, sizeof(node));
	SQ_REMOTE_ARM(rb, &r1, &node, 5);
}

static void cancel_uninit(void)
{
	SQ_REMOTE_INIT(rb, &r1);
	memset(&node, 0, sizeof(node));
	SQ_REMOTE_CANCEL(rb, &r1, &node);
}

/* correct: posts from anywhere; a node moves to a second queue once the
 * first has applied its command and let it go */
static void correct_use(void)
{
	setup();
	elsewhere(arm_there);
	SQ_REMOTE_ARM(rb, &r1, &node, 5);
	if (SQ_REMOTE_DRAIN(rb, &r1) != 1 ||
	    !SQ_QUEUED(rb, &node.base) || SQ_REMOTE_IDLE(rb, &r1, &node))
		abort();
	SQ_REMOTE_CANCEL(rb, &r1, &node);
	if (SQ_REMOTE_DRAIN(rb, &r1) != 1 || !SQ_REMOTE_IDLE(rb, &r1, &node))
		abort();
	SQ_REMOTE_ARM(rb, &r2, &node, 6);
	if (SQ_REMOTE_DRAIN(rb, &r2) != 1 ||
	    SQ_FIRST(rb, SQ_REMOTE_Q(rb, &r2)) != &node.base)
		abort();
}

SQ_TEST(remote_misuse_owner_verbs)
{
	child_expect_abort(drain_elsewhere,
		"sq_remote_drain: called from a thread that is not the "
		"queue's owner\n", "drain from another thread");
	child_expect_abort(q_elsewhere,
		"sq_remote_rb_q: called from a thread that is not the "
		"queue's owner\n", "q from another thread");
	child_expect_abort(idle_elsewhere,
		"sq_remote_rb_idle: called from a thread that is not the "
		"queue's owner\n", "idle from another thread");
}

SQ_TEST(remote_misuse_second_queue)
{
	child_expect_abort(arm_second,
		"sq_remote_rb_arm: node is pending on another queue's inbox\n",
		"arm on a second queue while pending");
	child_expect_abort(cancel_second,
		"sq_remote_rb_cancel: node is pending on another queue's "
		"inbox\n", "cancel on a second queue while pending");
}

SQ_TEST(remote_misuse_uninitialised)
{
	child_expect_abort(arm_uninit,
		"sq_remote_rb_arm: node was not initialised "
		"(SQ_REMOTE_NODE_INIT)\n", "arm of a node of all ones");
	child_expect_abort(cancel_uninit,
		"sq_remote_rb_cancel: node was not initialised "
		"(SQ_REMOTE_NODE_INIT)\n", "cancel of a node of zeros");
}

SQ_TEST(remote_misuse_correct_use)
{
	struct child_result res;

	child_run(correct_use, &res);
	SQ_ASSERTF(res.exit_code == 0, "correct use died: %s\n", res.err);
}

static const sq_test_entry tests[] = {
	SQ_T(remote_misuse_owner_verbs),
	SQ_T(remote_misuse_second_queue),
	SQ_T(remote_misuse_uninitialised),
	SQ_T(remote_misuse_correct_use),
};
SQ_TEST_MAIN("remote_misuse", tests)
