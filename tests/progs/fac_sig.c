// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fac_sig caught|fatal|ignored: signals for t_psig.sh, reported on stdout.
 *
 * caught: SIGUSR1 by kill(2), SIGUSR2 by tgkill(2), SIGHUP by sigqueue(3)
 * (rt_sigqueueinfo, SI_QUEUE), SIGRTMIN+3 by sigqueue too, each caught by a
 * handler installed with a known sa_mask, while SIGWINCH is blocked; the
 * handlers record si_code.  Reports "handler SIG 0xADDR", "code SIG N",
 * "mask 0xBLOCKED" (the first word of the blocked set at delivery).
 * ignored: SIGINT set to SIG_IGN and sent (discarded at once), then SIGQUIT
 * set to SIG_IGN, sent while blocked and unblocked (delivered and ignored).
 * fatal: kill(getpid(), SIGTERM) with the default action.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t codes[65];

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	codes[sig] = si->si_code;
}

static void on_sig2(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	codes[sig] = si->si_code + 1000;
}

static void catch (int sig, void (*fn)(int, siginfo_t *, void *))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGALRM);
	sigaction(sig, &sa, NULL);
	printf("handler %d %#lx\n", sig, (unsigned long)fn);
}

static void caught(void)
{
	union sigval v = { .sival_int = 42 };
	sigset_t set;
	int rt = SIGRTMIN + 3;

	catch (SIGUSR1, on_sig);
	catch (SIGUSR2, on_sig2);
	catch (SIGHUP, on_sig);
	catch (rt, on_sig2);
	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sigprocmask(SIG_BLOCK, NULL, &set);
	printf("mask %#lx\n", ((unsigned long *)&set)[0]);
	printf("rt %d\n", rt);

	syscall(SYS_kill, getpid(), SIGUSR1);
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGUSR2);
	sigqueue(getpid(), SIGHUP, v);
	sigqueue(getpid(), rt, v);
	printf("code %d %d\n", SIGUSR1, codes[SIGUSR1]);
	printf("code %d %d\n", SIGUSR2, codes[SIGUSR2] - 1000);
	printf("code %d %d\n", SIGHUP, codes[SIGHUP]);
	printf("code %d %d\n", rt, codes[rt] - 1000);
}

static void ignored(void)
{
	sigset_t set;

	signal(SIGINT, SIG_IGN);
	syscall(SYS_kill, getpid(), SIGINT);
	signal(SIGQUIT, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGQUIT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	syscall(SYS_kill, getpid(), SIGQUIT);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	printf("survived\n");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "caught";

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid %d\n", getpid());
	if (strcmp(mode, "caught") == 0)
		caught();
	else if (strcmp(mode, "ignored") == 0)
		ignored();
	else if (strcmp(mode, "fatal") == 0)
		syscall(SYS_kill, getpid(), SIGTERM);
	else
		return 2;
	return 0;
}
