/* SPDX-License-Identifier: MIT */
/*
 * replay/ctx.h - hand-switched stacks for replay's user-space tasks
 *
 *   rp_ctx_make(c, stack, size, entry)   a context that will call entry()
 *   rp_ctx_swap(from, to)                save the running context in from,
 *                                        resume to
 *
 * A switch saves only what the ABI says a call preserves, so it is a call
 * that returns on another stack: on x86-64 (System V) rbx, rbp, r12-r15
 * and rsp; on aarch64 x19-x30, sp and d8-d15.  Elsewhere, or with
 * RP_CTX_UCONTEXT defined, POSIX ucontext (swapcontext also saves the
 * signal mask, a system call per switch: correct, slower).  RP_CTX_NAME
 * says which one was built.  entry() must never return.
 */
#ifndef RP_CTX_H
#define RP_CTX_H

#include <stddef.h>
#include <stdint.h>

/* ThreadSanitizer follows a switch of stacks only when told (its fiber
 * API): each context is a fiber, created with it. */
#if defined(__SANITIZE_THREAD__)
#define RP_CTX_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RP_CTX_TSAN 1
#endif
#endif
#ifdef RP_CTX_TSAN
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
#define RP_CTX_FIBER void *fiber;
#define RP_CTX_FIBER_MAKE(c) ((c)->fiber = __tsan_create_fiber(0))
#define RP_CTX_FIBER_SWAP(from, to)					\
	do {								\
		(from)->fiber = __tsan_get_current_fiber();		\
		__tsan_switch_to_fiber((to)->fiber, 0);			\
	} while (0)
#else
#define RP_CTX_FIBER
#define RP_CTX_FIBER_MAKE(c) ((void)(c))
#define RP_CTX_FIBER_SWAP(from, to) ((void)(from), (void)(to))
#endif

#if !defined(RP_CTX_UCONTEXT) && defined(__x86_64__) && defined(__ELF__)
#define RP_CTX_NAME "x86-64 asm"

struct rp_ctx {
	void *sp;
	RP_CTX_FIBER
};

/* rp_ctx__swap(save, sp): push the callee-saved registers, store the stack
 * pointer in *save, load sp, pop the ones saved there, return there. */
void rp_ctx__swap(void **save, void *sp);
__asm__(".text\n"
	".p2align 4\n"
	".type rp_ctx__swap, @function\n"
	"rp_ctx__swap:\n"
	"\tpushq %rbp\n\tpushq %rbx\n\tpushq %r12\n"
	"\tpushq %r13\n\tpushq %r14\n\tpushq %r15\n"
	"\tmovq %rsp, (%rdi)\n"
	"\tmovq %rsi, %rsp\n"
	"\tpopq %r15\n\tpopq %r14\n\tpopq %r13\n"
	"\tpopq %r12\n\tpopq %rbx\n\tpopq %rbp\n"
	"\tret\n"
	".size rp_ctx__swap, .-rp_ctx__swap\n");

static void rp_ctx_make(struct rp_ctx *c, void *stack, size_t size,
			void (*entry)(void))
{
	/* entry's return address sits at a 16-byte boundary, so entry starts
	 * with rsp = 8 mod 16, as after a call; six zeroed registers below */
	uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
	void **sp = (void **)(top - 16);
	int i;

	*sp = (void *)(uintptr_t)entry;
	for (i = 0; i < 6; i++)
		*--sp = NULL;
	c->sp = sp;
	RP_CTX_FIBER_MAKE(c);
}

static void rp_ctx_swap(struct rp_ctx *from, const struct rp_ctx *to)
{
	RP_CTX_FIBER_SWAP(from, to);
	rp_ctx__swap(&from->sp, to->sp);
}

#elif !defined(RP_CTX_UCONTEXT) && defined(__aarch64__) && defined(__ELF__)
#define RP_CTX_NAME "aarch64 asm"

struct rp_ctx {
	void *sp;
	RP_CTX_FIBER
};

/* A frame of 176 bytes: x19..x30 (x30 the return address), d8..d15. */
void rp_ctx__swap(void **save, void *sp);
__asm__(".text\n"
	".p2align 4\n"
	".type rp_ctx__swap, %function\n"
	"rp_ctx__swap:\n"
	"\tsub sp, sp, #176\n"
	"\tstp x19, x20, [sp, #0]\n\tstp x21, x22, [sp, #16]\n"
	"\tstp x23, x24, [sp, #32]\n\tstp x25, x26, [sp, #48]\n"
	"\tstp x27, x28, [sp, #64]\n\tstp x29, x30, [sp, #80]\n"
	"\tstp d8, d9, [sp, #96]\n\tstp d10, d11, [sp, #112]\n"
	"\tstp d12, d13, [sp, #128]\n\tstp d14, d15, [sp, #144]\n"
	"\tmov x9, sp\n\tstr x9, [x0]\n\tmov sp, x1\n"
	"\tldp x19, x20, [sp, #0]\n\tldp x21, x22, [sp, #16]\n"
	"\tldp x23, x24, [sp, #32]\n\tldp x25, x26, [sp, #48]\n"
	"\tldp x27, x28, [sp, #64]\n\tldp x29, x30, [sp, #80]\n"
	"\tldp d8, d9, [sp, #96]\n\tldp d10, d11, [sp, #112]\n"
	"\tldp d12, d13, [sp, #128]\n\tldp d14, d15, [sp, #144]\n"
	"\tadd sp, sp, #176\n"
	"\tret\n"
	".size rp_ctx__swap, .-rp_ctx__swap\n");

static void rp_ctx_make(struct rp_ctx *c, void *stack, size_t size,
			void (*entry)(void))
{
	uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
	void **f = (void **)(top - 176);
	int i;

	for (i = 0; i < 22; i++)
		f[i] = NULL;
	f[11] = (void *)(uintptr_t)entry;	/* x30, at byte 88 */
	c->sp = f;
	RP_CTX_FIBER_MAKE(c);
}

static void rp_ctx_swap(struct rp_ctx *from, const struct rp_ctx *to)
{
	RP_CTX_FIBER_SWAP(from, to);
	rp_ctx__swap(&from->sp, to->sp);
}

#else
#define RP_CTX_NAME "ucontext"
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

struct rp_ctx {
	ucontext_t uc;
	RP_CTX_FIBER
};

static void rp_ctx_make(struct rp_ctx *c, void *stack, size_t size,
			void (*entry)(void))
{
	if (getcontext(&c->uc)) {
		perror("sq-replay: getcontext");
		exit(2);
	}
	c->uc.uc_stack.ss_sp = stack;
	c->uc.uc_stack.ss_size = size;
	c->uc.uc_link = NULL;
	makecontext(&c->uc, entry, 0);
	RP_CTX_FIBER_MAKE(c);
}

static void rp_ctx_swap(struct rp_ctx *from, const struct rp_ctx *to)
{
	RP_CTX_FIBER_SWAP(from, to);
	if (swapcontext(&from->uc, &to->uc)) {
		perror("sq-replay: swapcontext");
		exit(2);
	}
}
#endif

#endif /* RP_CTX_H */
