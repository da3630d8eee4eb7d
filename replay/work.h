/* SPDX-License-Identifier: MIT */
/*
 * replay/work.h - the seeds' workloads as tasks of replay/sched.h
 *
 * hackbench, as Rusty Russell's program of December 2001 that OSDL ran in
 * 2003: each group has @fds receivers, each reading its own channel (a
 * socket pair), and @fds senders, each writing @loops messages of
 * @datasize bytes to every receiver of its group.  A parent forks them,
 * each tells it that it is ready and waits; the time runs from the
 * parent's start signal to the last child's exit.
 *
 * tbench with one client: the client sends a request and blocks for the
 * reply; the server reads it, computes, replies.  Beside them, @bg
 * background tasks that compute for @burst and sleep for @sleep, forever.
 * The latency of an operation runs from the request's write to the
 * reply's last byte; max_latency is the largest, as dbench reports it,
 * after a warmup (as dbench's), which leaves out how the tasks start.
 */
#ifndef RP_WORK_H
#define RP_WORK_H

#include "policy.h"

struct rp_hb {
	unsigned groups, fds, loops;
	size_t datasize, buf;
	struct rp_chan *chan;		/* groups * fds */
	/* the start: each child writes a byte to ready and waits on wake */
	struct rp_chan ready, wake;
	char *go;			/* the start signal's bytes */
	size_t nchildren;
};

/* hackbench's ready(): tell the parent, then wait for its start signal
 * (a poll() of wakefd there; a read of the byte here, one for each) */
static void rp_hb_ready(struct rp_hb *hb)
{
	char b = 1;

	rp_write(&hb->ready, &b, 1);
	(void)rp_read(&hb->wake, &b, 1);
}

/* hackbench's main(): fork every child (each runs to its ready() and
 * blocks), wait for them all, then the time starts and every child is
 * woken at once; its reaping is left out (the run ends at the last exit) */
static void rp_hb_parent(struct rp_task *t)
{
	struct rp_hb *hb = (struct rp_hb *)t->arg;
	struct rp_sched *s = t->s;
	char buf[512];
	size_t i, got = 0;

	for (i = 1; i <= hb->nchildren; i++)
		rp_fork(s, s->task[t->id + i]);
	while (got < hb->nchildren)
		got += rp_read(&hb->ready, buf, sizeof(buf));
	rp_mark_start(s);
	rp_write(&hb->wake, hb->go, hb->nchildren);
}

struct rp_result {
	double seconds;			/* hackbench: completion time */
	double mbps, max_lat_ms;	/* tbench */
	double stolen_ms;		/* see rp_now() */
	uint64_t nstolen;
	uint64_t ops, switches, picks, preempt_wakeup, preempt_tick, recalcs;
	uint64_t migrations, remote_wakes;	/* SMP */
	uint64_t sink;
	int err;
	char errmsg[160];
};

static void rp_hb_receiver(struct rp_task *t)
{
	struct rp_hb *hb = (struct rp_hb *)t->arg;
	struct rp_chan *c = &hb->chan[t->user[0]];
	size_t left = (size_t)hb->fds * hb->loops * hb->datasize;
	char data[512];

	rp_hb_ready(hb);
	while (left) {
		size_t want = hb->datasize < left ? hb->datasize : left;
		size_t n = rp_read(c, data, want < sizeof(data) ? want
								: sizeof(data));

		left -= n;
		t->user[1] += (unsigned char)data[0];
	}
}

static void rp_hb_sender(struct rp_task *t)
{
	struct rp_hb *hb = (struct rp_hb *)t->arg;
	struct rp_chan *c = &hb->chan[t->user[0] * hb->fds];
	char data[512];
	unsigned i, j;

	memset(data, (int)(t->id & 0x7f), sizeof(data));
	rp_hb_ready(hb);
	for (i = 0; i < hb->loops; i++)
		for (j = 0; j < hb->fds; j++)
			rp_write(&c[j], data, hb->datasize);
}

static void rp__result(struct rp_result *r, const struct rp_sched *s)
{
	unsigned i, n = s->smp ? s->smp->n : 1;

	for (i = 0; i < n; i++) {
		const struct rp_sched *c = s->smp ? s->smp->cpu[i] : s;

		r->switches += c->switches;
		r->picks += c->picks;
		r->preempt_wakeup += c->preempt_wakeup;
		r->preempt_tick += c->preempt_tick;
		r->recalcs += c->recalcs;
		r->stolen_ms += (double)c->stolen / 1e6;
		r->nstolen += c->nstolen;
		r->migrations += c->migrations;
		r->remote_wakes += c->remote_wakes;
	}
	r->err = s->err;
	memcpy(r->errmsg, s->errmsg, sizeof(r->errmsg));
}

struct rp_hb_opts {
	unsigned groups, fds, loops;
	size_t datasize, buf;
	/* called at every tick (the tests' checks), or NULL */
	void (*on_tick)(struct rp_sched *s, void *arg);
	void *arg;
	/* SMP: CPUs (0 or 1: the M:1 scheduler), the real threads' pinning,
	 * the tests' hook on the balancer's moves */
	unsigned cpus;
	void (*pin)(unsigned i);
	void (*on_move)(struct rp_sched *from, struct rp_task *t, unsigned to,
			unsigned asked, bool idle, void *arg);
};

/*
 * rp_hackbench - one run; the time is the scheduler's clock (wall or
 * virtual) from the start signal to the last exit
 */
static void rp_hackbench(struct rp_result *r, const struct rp_policy *pol,
			 const struct rp_rqops *rq, bool virt,
			 const struct rp_hb_opts *o)
{
	struct rp_sched one, *cpus = NULL, *sp = &one;
	struct rp_smp smp;
	struct rp_hb hb;
	unsigned g, i, fds = o->fds, groups = o->groups;

	memset(r, 0, sizeof(*r));
	if (o->datasize > 512 || o->datasize > o->buf || !o->datasize) {
		r->err = 1;
		snprintf(r->errmsg, sizeof(r->errmsg),
			 "datasize: 1 to 512 and at most the buffer");
		return;
	}
	if (o->cpus > 1) {
		unsigned n = o->cpus > RP_MAXCPU ? RP_MAXCPU : o->cpus;

		cpus = (struct rp_sched *)rp_xcalloc(n, sizeof(*cpus));
		rp_smp_init(&smp, cpus, n, pol, rq, virt);
		smp.pin = o->pin;
		smp.on_move = o->on_move;
		smp.on_move_arg = o->arg;
		/* cppcheck-suppress knownConditionTrueFalse ; n >= 2 here */
		for (i = 0; i < n; i++) {
			cpus[i].on_tick = o->on_tick;
			cpus[i].on_tick_arg = o->arg;
		}
		sp = &cpus[0];
	} else {
		rp_init(sp, pol, rq, virt);
		sp->on_tick = o->on_tick;
		sp->on_tick_arg = o->arg;
	}
	hb.groups = groups;
	hb.fds = fds;
	hb.loops = o->loops;
	hb.datasize = o->datasize;
	hb.buf = o->buf;
	hb.chan = (struct rp_chan *)rp_xcalloc((size_t)groups * fds,
					       sizeof(*hb.chan));
	for (i = 0; i < groups * fds; i++)
		rp_chan_init(&hb.chan[i], sp, o->buf);
	hb.nchildren = 2 * (size_t)groups * fds;
	rp_chan_init(&hb.ready, sp, hb.nchildren);
	rp_chan_init(&hb.wake, sp, hb.nchildren);
	hb.go = (char *)rp_xcalloc(1, hb.nchildren);
	(void)rp_spawn(sp, rp_hb_parent, &hb);
	for (g = 0; g < groups; g++) {
		for (i = 0; i < fds; i++) {
			struct rp_task *c = rp_spawn(sp, rp_hb_receiver, &hb);

			c->user[0] = g * fds + i;
			c->unborn = true;
		}
		for (i = 0; i < fds; i++) {
			struct rp_task *c = rp_spawn(sp, rp_hb_sender, &hb);

			c->user[0] = g;
			c->unborn = true;
		}
	}
	rp_start(sp);
	(void)rp_run(sp);
	r->seconds = (double)(sp->t1 - sp->t0) / 1e9;
	for (i = 0; i < groups * fds; i++) {
		r->ops += hb.chan[i].bytes / o->datasize;
		rp_chan_fini(&hb.chan[i]);
	}
	rp_chan_fini(&hb.ready);
	rp_chan_fini(&hb.wake);
	free(hb.go);
	rp__result(r, sp);
	r->sink = sp->virt ? sp->vclock : 0;
	if (!r->err && r->ops != (uint64_t)groups * fds * fds * o->loops) {
		r->err = 1;
		snprintf(r->errmsg, sizeof(r->errmsg), "messages lost");
	}
	free(hb.chan);
	rp_fini(sp);
	free(cpus);
}

struct rp_tb {
	struct rp_chan req, rep;
	size_t req_size, rep_size;
	uint64_t server_ns, client_ns, burst_ns, sleep_ns, warm, until;
	uint64_t ops, max_lat, bytes;
	unsigned clients_done;
	struct rp_sched *s;
};

static void rp_tb_client(struct rp_task *t)
{
	struct rp_tb *tb = (struct rp_tb *)t->arg;
	struct rp_sched *s = tb->s;
	char msg[4096 + 64];

	memset(msg, 1, sizeof(msg));
	while (rp_now(s) < tb->until) {
		uint64_t t0 = rp_now(s);

		rp_write(&tb->req, msg, tb->req_size);
		rp_read_all(&tb->rep, msg, tb->rep_size);
		if (t0 >= tb->warm) {	/* dbench counts after its warmup */
			t0 = rp_now(s) - t0;
			if (t0 > tb->max_lat)
				tb->max_lat = t0;
			tb->ops++;
			tb->bytes += tb->req_size + tb->rep_size;
		}
		t->user[1] += rp_burn(s, tb->client_ns);
	}
	msg[0] = 0;			/* the end: a request of one zero */
	rp_write(&tb->req, msg, 1);
	tb->clients_done = 1;
}

static void rp_tb_server(struct rp_task *t)
{
	struct rp_tb *tb = (struct rp_tb *)t->arg;
	struct rp_sched *s = tb->s;
	char msg[4096 + 64];

	for (;;) {
		size_t n = rp_read(&tb->req, msg, tb->req_size);

		if (n == 1 && !msg[0])
			break;
		rp_read_all(&tb->req, msg + n, tb->req_size - n);
		t->user[1] += rp_burn(s, tb->server_ns);
		rp_write(&tb->rep, msg, tb->rep_size);
	}
}

static void rp_tb_background(struct rp_task *t)
{
	struct rp_tb *tb = (struct rp_tb *)t->arg;
	struct rp_sched *s = tb->s;

	while (!tb->clients_done) {
		t->user[1] += rp_burn(s, tb->burst_ns);
		if (tb->sleep_ns && !tb->clients_done)
			rp_sleep(s, tb->sleep_ns);
	}
}

struct rp_tb_opts {
	double seconds, warmup;		/* measured, and before it */
	unsigned bg;
	uint64_t burst_ns, sleep_ns, server_ns, client_ns;
	size_t req_size, rep_size;
};

static void rp_tbench(struct rp_result *r, const struct rp_policy *pol,
		      const struct rp_rqops *rq, bool virt,
		      const struct rp_tb_opts *o)
{
	struct rp_sched s;
	struct rp_tb tb;
	unsigned i;

	memset(r, 0, sizeof(*r));
	memset(&tb, 0, sizeof(tb));
	if (o->req_size > 4096 || o->rep_size > 4096 || o->req_size < 2) {
		r->err = 1;
		snprintf(r->errmsg, sizeof(r->errmsg),
			 "request and reply sizes: 2 to 4096 bytes");
		return;
	}
	rp_init(&s, pol, rq, virt);
	tb.s = &s;
	tb.req_size = o->req_size;
	tb.rep_size = o->rep_size;
	tb.server_ns = o->server_ns;
	tb.client_ns = o->client_ns;
	tb.burst_ns = o->burst_ns;
	tb.sleep_ns = o->sleep_ns;
	rp_chan_init(&tb.req, &s, 65536);
	rp_chan_init(&tb.rep, &s, 65536);
	rp_spawn(&s, rp_tb_server, &tb);
	rp_spawn(&s, rp_tb_client, &tb);
	for (i = 0; i < o->bg; i++)
		rp_spawn(&s, rp_tb_background, &tb);
	tb.warm = rp_now(&s) + (uint64_t)(o->warmup * 1e9);
	tb.until = tb.warm + (uint64_t)(o->seconds * 1e9);
	rp_start(&s);
	(void)rp_run(&s);
	r->seconds = (double)(s.t1 - s.t0) / 1e9 - o->warmup;
	r->ops = tb.ops;
	r->mbps = (double)tb.bytes / 1e6 / r->seconds;
	r->max_lat_ms = (double)tb.max_lat / 1e6;
	for (i = 0; i < s.nt; i++)
		r->sink += s.task[i]->user[1];
	rp_chan_fini(&tb.req);
	rp_chan_fini(&tb.rep);
	rp__result(r, &s);
	rp_fini(&s);
}

#endif /* RP_WORK_H */
