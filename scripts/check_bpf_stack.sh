#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The stacks of a BPF object's chains of calls, checked at build time
# (Makefile), for each architecture's build:
#
#   scripts/check_bpf_stack.sh OBJECT
#
# The verifier refuses a program when the stacks of a chain of calls from
# it (the program, a function it calls, one that function calls, ...) sum
# to more than 512 bytes, each function's stack rounded up to 32 bytes, at
# least 32.  The same source has other stack sizes on x86_64 and arm64, so
# a chain at 512 on one may be over on the other: a loader refused on arm64
# only showed in its guest.  A function's stack here is the deepest slot
# below r10 its instructions use; its calls are those to functions by name
# (a relocation R_BPF_64_32).  Each chain over the limit is printed with
# every function's stack; exit 1.
set -euo pipefail
obj=$1
OBJDUMP=${LLVM_OBJDUMP:-$(command -v llvm-objdump || command -v llvm-objdump-14 || true)}
[ -n "$OBJDUMP" ] || {
	echo "check_bpf_stack: llvm-objdump missing (Debian's llvm)" >&2
	exit 1
}

"$OBJDUMP" -dr --no-show-raw-insn "$obj" | awk -v obj="$obj" '
function frame(f) { return int(((stack[f] > 0 ? stack[f] : 1) + 31) / 32) * 32 }
# the deepest chain from f: its bytes, its path in chain[f]
function deepest(f,    n, i, c, v, best, path) {
	if (f in total)
		return total[f]
	total[f] = frame(f) # a cycle (none in BPF) ends here
	best = 0
	path = ""
	n = split(calls[f], c, " ")
	for (i = 1; i <= n; i++) {
		if (!(c[i] in stack))
			continue
		v = deepest(c[i])
		if (v > best) {
			best = v
			path = chain[c[i]]
		}
	}
	total[f] = frame(f) + best
	chain[f] = f "(" stack[f] ")" (path != "" ? " -> " path : "")
	return total[f]
}
/^[0-9a-f]+ <[^>]+>:$/ {
	name = $2
	gsub(/[<>:]/, "", name)
	if (name !~ /^LBB/) {
		fn = name
		stack[fn] += 0
		names[++nfn] = fn
	}
	next
}
{
	s = $0
	while (match(s, /r10 - [0-9]+\)/)) {
		v = substr(s, RSTART + 6, RLENGTH - 7) + 0
		if (v > stack[fn])
			stack[fn] = v
		s = substr(s, RSTART + RLENGTH)
	}
}
/R_BPF_64_32/ && $NF !~ /^\./ { calls[fn] = calls[fn] " " $NF }
END {
	bad = 0
	for (i = 1; i <= nfn; i++) {
		if (deepest(names[i]) > 512 && !(names[i] in said)) {
			printf "check_bpf_stack: %s: %s: %d bytes of stack in a chain of calls (the verifier allows 512): %s\n",
				obj, names[i], total[names[i]], chain[names[i]] > "/dev/stderr"
			said[names[i]] = 1
			bad = 1
		}
	}
	exit bad
}'
