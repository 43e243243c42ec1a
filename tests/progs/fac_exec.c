// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fac_exec exec OUT N LEN ENVLEN: execve(2) itself as "fac_exec child OUT
 * ARG..." with N arguments of LEN bytes each (printable characters, quotes
 * and backslashes, and in every tenth one a tab, a newline and UTF-8), and
 * the environment plus FAC_BIG=<ENVLEN bytes>.
 * fac_exec child OUT [ARG...]: writes the argument vector it received, each
 * string followed by a NUL, to OUT.argv and its environment to OUT.envp, so
 * that t_execargs.sh can compare the ARGS and ENVS records with them; prints
 * "child pid P argc N envc M".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static int dump(const char *out, const char *ext, char **v)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s.%s", out, ext);
	f = fopen(path, "w");
	if (!f)
		return -1;
	for (; *v; v++)
		fwrite(*v, 1, strlen(*v) + 1, f);
	return fclose(f);
}

static char *make_arg(int i, size_t len)
{
	char *s = malloc(len + 1);
	size_t j = 0;

	if (!s)
		exit(1);
	j = (size_t)snprintf(s, len + 1, "%05d-", i);
	if (i % 10 == 0 && len > j + 5) {
		memcpy(s + j, "\t\n\xc3\xa9 ", 5);
		j += 5;
	}
	for (; j < len; j++)
		s[j] = (char)(33 + (i * 7 + j * 3) % 94);
	s[len] = '\0';
	return s;
}

static int do_exec(char *self, char *out, int n, size_t len, size_t envlen)
{
	char **argv = calloc((size_t)n + 4, sizeof(char *));
	char **envp;
	size_t ne = 0;
	char *big;

	if (!argv)
		return 1;
	argv[0] = self;
	argv[1] = "child";
	argv[2] = out;
	for (int i = 0; i < n; i++)
		argv[i + 3] = make_arg(i, len);
	while (environ[ne])
		ne++;
	envp = calloc(ne + 2, sizeof(char *));
	big = malloc(envlen + 9);
	if (!envp || !big)
		return 1;
	memcpy(envp, environ, ne * sizeof(char *));
	memcpy(big, "FAC_BIG=", 8);
	for (size_t j = 0; j < envlen; j++)
		big[8 + j] = (char)('a' + j % 26);
	big[8 + envlen] = '\0';
	envp[ne] = big;
	printf("exec pid %d argc %d envc %zu\n", getpid(), n + 3, ne + 1);
	fflush(stdout);
	execve("/proc/self/exe", argv, envp);
	perror("execve");
	return 1;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "child") == 0) {
		size_t ne = 0;

		while (environ[ne])
			ne++;
		if (dump(argv[2], "argv", argv) < 0 || dump(argv[2], "envp", environ) < 0) {
			perror(argv[2]);
			return 1;
		}
		printf("child pid %d argc %d envc %zu\n", getpid(), argc, ne);
		return 0;
	}
	if (argc == 6 && strcmp(argv[1], "exec") == 0)
		return do_exec(argv[0], argv[2], atoi(argv[3]), strtoul(argv[4], NULL, 0),
			       strtoul(argv[5], NULL, 0));
	fprintf(stderr, "usage: fac_exec exec OUT N LEN ENVLEN | child OUT [ARG...]\n");
	return 2;
}
