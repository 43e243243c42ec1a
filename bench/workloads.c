// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * workloads MODE N: the benchmark's small workloads (bench/run.sh).
 *   orc N        open, read and close /etc/hostname N times
 *   forkexec N   fork and exec /bin/true N times, one after another
 *   threads2 N   two threads, each writing 64 bytes to /dev/null N times
 */
#include <err.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

static long n_iter;

static void *writer(void *arg)
{
	char buf[64];
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	(void)arg;
	if (fd < 0)
		err(1, "/dev/null");
	memset(buf, 'k', sizeof(buf));
	for (long i = 0; i < n_iter; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			err(1, "write");
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	char buf[256];

	if (argc != 3 || (n_iter = strtol(argv[2], NULL, 10)) <= 0)
		errx(2, "usage: workloads orc|forkexec|threads2 N");
	if (strcmp(argv[1], "orc") == 0) {
		for (long i = 0; i < n_iter; i++) {
			int fd = open("/etc/hostname", O_RDONLY | O_CLOEXEC);

			if (fd < 0)
				err(1, "/etc/hostname");
			if (read(fd, buf, sizeof(buf)) < 0)
				err(1, "read");
			close(fd);
		}
	} else if (strcmp(argv[1], "forkexec") == 0) {
		for (long i = 0; i < n_iter; i++) {
			pid_t pid = fork();
			int status;

			if (pid < 0)
				err(1, "fork");
			if (pid == 0) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
			    WEXITSTATUS(status))
				errx(1, "/bin/true failed");
		}
	} else if (strcmp(argv[1], "threads2") == 0) {
		pthread_t a, b;

		pthread_create(&a, NULL, writer, NULL);
		pthread_create(&b, NULL, writer, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
	} else {
		errx(2, "unknown workload %s", argv[1]);
	}
	return 0;
}
