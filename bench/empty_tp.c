// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * empty_tp OBJ [PREFIX]: attach the programs of OBJ (empty_tp.bpf.o) whose
 * names start with PREFIX ("empty_": the do-nothing ones; "clock_": the
 * ones that read the clock) to the syscall tracepoints, print "attached",
 * and stay until killed: what the kernel charges every process for two
 * programs there (bench/run.sh).
 */
#include <err.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	const char *prefix = argc == 3 ? argv[2] : "empty_";

	if (argc != 2 && argc != 3)
		errx(2, "usage: empty_tp empty_tp.bpf.o [empty_|clock_]");
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj)
		errx(1, "%s: cannot open", argv[1]);
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, strncmp(bpf_program__name(prog), prefix,
							strlen(prefix)) == 0);
	if (bpf_object__load(obj))
		errx(1, "%s: cannot load", argv[1]);
	bpf_object__for_each_program(prog, obj)
		if (bpf_program__autoload(prog) && !bpf_program__attach(prog))
			errx(1, "%s: cannot attach", bpf_program__name(prog));
	printf("attached\n");
	fflush(stdout);
	pause();
	return 0;
}
