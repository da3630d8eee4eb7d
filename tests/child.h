/* SPDX-License-Identifier: MIT */
/*
 * child.h - run a piece of a test in a forked child and capture its stderr
 *
 * For what must stop the program (SQ_DEBUG's misuse checks) or must be
 * seen from outside (check()'s message).  POSIX: the including file
 * defines _POSIX_C_SOURCE before its first #include.
 *
 *	struct child_result res;
 *
 *	child_run(fn, &res);		res.aborted, .exit_code, .signal, .err
 *	child_expect_abort(fn, "sq_rb_enqueue: node is already queued\n",
 *			   "enqueue twice");	SIGABRT and exactly that stderr
 */
#ifndef SQ_TESTS_CHILD_H
#define SQ_TESTS_CHILD_H

#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#error "define _POSIX_C_SOURCE 200809L before the first #include"
#endif

#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sq_test.h"

struct child_result {
	bool aborted;		/* killed by SIGABRT */
	int exit_code;		/* when it exited, else -1 */
	int signal;		/* when killed, else 0 */
	char err[4096];		/* its stderr */
};

/* Under qemu-user (the cross-target tests) the emulator itself writes
 * "qemu: uncaught target signal 6 ..." to the guest's stderr as the guest
 * dies: drop that last line, so the message compared is the library's. */
static inline void child__strip_emulator_line(char *err)
{
	static const char tag[] = "qemu: uncaught target signal ";
	char *line = err, *nl;

	while ((nl = strchr(line, '\n')) != NULL && nl[1] != '\0')
		line = nl + 1;
	if (strncmp(line, tag, sizeof(tag) - 1) == 0)
		*line = '\0';
}

/* child_run - run @fn in a child (no core file); a return from @fn is
 * exit 0 */
static inline void child_run(void (*fn)(void), struct child_result *res)
{
	int fd[2], status = 0;
	size_t len = 0;
	ssize_t got;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	SQ_ASSERT(pipe(fd) == 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	SQ_ASSERT(pid >= 0);
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };

		setrlimit(RLIMIT_CORE, &no_core);
		signal(SIGABRT, SIG_DFL);
		close(fd[0]);
		dup2(fd[1], 2);
		close(fd[1]);
		fn();
		_exit(0);
	}
	close(fd[1]);
	while (len < sizeof(res->err) - 1 &&
	       (got = read(fd[0], res->err + len, sizeof(res->err) - 1 - len)) > 0)
		len += (size_t)got;
	res->err[len] = '\0';
	close(fd[0]);
	child__strip_emulator_line(res->err);
	SQ_ASSERT(waitpid(pid, &status, 0) == pid);
	if (WIFEXITED(status))
		res->exit_code = WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
		res->aborted = res->signal == SIGABRT;
	}
}

/* child_expect_abort - @fn must abort with exactly @want on stderr;
 * @what names the case in a failure */
static inline void child_expect_abort(void (*fn)(void), const char *want,
				      const char *what)
{
	struct child_result res;

	child_run(fn, &res);
	SQ_ASSERTF(res.aborted,
		   "%s: child did not abort (exit %d, signal %d), stderr:\n%s\n",
		   what, res.exit_code, res.signal, res.err);
	SQ_ASSERTF(strcmp(res.err, want) == 0,
		   "%s: stderr is\n\"%s\"\nwant\n\"%s\"\n", what, res.err, want);
}

#endif /* SQ_TESTS_CHILD_H */
