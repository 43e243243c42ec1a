#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# ktraceb against strace: the same deterministic single-threaded programs
# (tests/progs/fac_det, tests/progs/syscalls and tests/progs/flagcalls) run once under
# `strace -f -qq` and once under ktraceb; after the program's execve, kdump
# must list the same syscalls in the same order, with the same return values
# or errors.  Addresses returned (mmap, brk, ...) are compared as success or
# error only, and so are process ids, which differ between the two runs.
# Known naming differences between strace and kdump are in NAMEMAP.
# flagcalls' calls are also held argument by argument (NAMED): wherever
# either prints a name (a flag, a signal, an option, a special id), the
# other prints the same.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fac.sh"
need_tracer
if ! command -v strace >/dev/null 2>&1; then
	skip all "strace is not installed (scripts/install-deps.sh)"
	exit 0
fi

# strace name -> kdump name, where they differ (none known on x86_64 so far:
# both use the kernel's names, newfstatat, pread64, prlimit64, ...)
NAMEMAP=""
# calls whose value is an address or a process id: success or error only
OKONLY="mmap brk mremap shmat getpid getppid gettid set_tid_address"

# Number helpers shared by both awk programs: hex and octal to decimal
AWK_NUM='
function hex(s,   v, i) {
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
	return v
}
function oct(s,   v, i) {
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 8 + substr(s, i, 1)
	return v
}'

# strace_list FILE: "name ret" per syscall after the first execve; ret is a
# decimal value, "-1 ENAME", or "?" when strace saw no return
strace_list()
{
	awk -v map="$NAMEMAP" -v okonly="$OKONLY" "$AWK_NUM"'
	BEGIN {
		n = split(map, m, " ")
		for (i = 1; i < n; i += 2)
			ren[m[i]] = m[i + 1]
		n = split(okonly, o, " ")
		for (i = 1; i <= n; i++)
			ok[o[i]] = 1
	}
	function num(s) {
		if (s ~ /^0x[0-9a-fA-F]+$/)
			return sprintf("%.0f", hex(substr(s, 3)))
		if (s ~ /^0[0-7]+$/)
			return sprintf("%.0f", oct(substr(s, 2)))
		return s
	}
	function emit(name, ret,   r, t) {
		if (name in ren)
			name = ren[name]
		r = ret
		if (r ~ /^\?/)
			r = "?"
		else {
			split(r, t, " ")
			if (t[1] == "-1")
				r = "-1 " t[2]
			else
				r = (name in ok) ? "ok" : num(t[1])
		}
		print name " " r
	}
	{
		sub(/^[0-9]+ +/, "")
	}
	/^(\+\+\+|---) / { next }
	!started {
		if ($0 ~ /^execve\(/ && $0 ~ / = 0$/)
			started = 1
		next
	}
	/<unfinished \.\.\.>$/ {
		pending = $0
		sub(/\(.*/, "", pending)
		next
	}
	/^<\.\.\. [a-z0-9_]+ resumed>/ {
		name = $2
		ret = $0
		sub(/.* = /, "", ret)
		emit(name, ret)
		next
	}
	{
		name = $0
		sub(/\(.*/, "", name)
		k = 0
		s = $0
		# the last " = " starts the return value
		while ((j = index(substr(s, k + 1), " = ")) > 0)
			k += j
		if (!k) {
			emit(name, "?")
			next
		}
		emit(name, substr(s, k + 3))
	}' "$1"
}

# kdump_list NORM PID: the same from kdump's records of PID, after its RET execve 0
kdump_list()
{
	q "$1" '$1 == p && ($4 == "CALL" || $4 == "RET")' p="$2" | awk -F'\t' -v okonly="$OKONLY" "$AWK_NUM"'
	BEGIN {
		n = split(okonly, o, " ")
		for (i = 1; i <= n; i++)
			ok[o[i]] = 1
	}

	!started {
		if ($4 == "RET" && $5 == "execve 0")
			started = 1
		next
	}
	$4 == "CALL" {
		if (pending != "")
			print pending " ?"
		pending = $5
		sub(/\(.*/, "", pending)
		next
	}
	$4 == "RET" {
		split($5, t, " ")
		name = pending != "" ? pending : t[1]
		if (t[2] == "-1" && t[3] == "errno") {
			e = $5
			if (match(e, /\(E[A-Z0-9]+\)$/))
				r = "-1 " substr(e, RSTART + 1, RLENGTH - 2)
			else
				r = "-1 errno" t[4]
		} else if (name in ok)
			r = "ok"
		else {
			v = t[2]
			sub(/\/.*/, "", v)
			if (v ~ /^0x/)
				v = sprintf("%.0f", hex(substr(v, 3)))
			else if (v ~ /^0[0-7]+$/) # umask: octal, as strace prints it
				v = sprintf("%.0f", oct(substr(v, 2)))
			r = v
		}
		print name " " r
		pending = ""
	}
	END {
		if (pending != "")
			print pending " ?"
	}'
}

# compare NAME PROG ARGS...: run PROG both ways and compare the lists
compare()
{
	local name=$1 n
	shift
	rm -rf "$TMP/w"
	mkdir -p "$TMP/w"
	timeout -k 5 "$KTR_TIMEOUT" strace -f -qq -o "$TMP/$name.strace" "$@" >"$TMP/$name.sout" 2>&1
	check "${name}_strace_ran" t_eq "$?" 0
	rm -rf "$TMP/w"
	mkdir -p "$TMP/w"
	ktr "$name" -f "$TMP/$name.ktr" "$@"
	check "${name}_ktraceb_exit_0" t_krc 0 "$name"
	kd "$name" "$TMP/$name.ktr"
	check "${name}_kdump_clean" t_kdump_ok "$name"
	check "${name}_no_loss" t_grep ', 0 lost$' "$TMP/$name.err"
	if [ "$name" != syscalls ]; then	# syscalls prints pids and addresses
		check "${name}_same_stdout" t_eq "$(cat "$TMP/$name.out")" "$(cat "$TMP/$name.sout")"
	fi
	local pid
	pid=$(q "$TMP/$name.norm" '$4 == "RET" && $5 == "execve 0"' | head -n 1 | cut -f1)
	strace_list "$TMP/$name.strace" >"$TMP/$name.slist"
	kdump_list "$TMP/$name.norm" "${pid:-none}" >"$TMP/$name.klist"
	n=$(wc -l <"$TMP/$name.slist" | tr -d ' ')
	check "${name}_strace_parsed" t_num "$n" -ge 40 "syscalls in strace's output"
	check "${name}_same_count" t_eq "$(wc -l <"$TMP/$name.klist" | tr -d ' ')" "$n" \
		"syscalls in kdump vs strace"
	check "${name}_same_names" t_diff "$TMP/$name.slist" "$TMP/$name.klist" names
	check "${name}_same_returns" t_diff "$TMP/$name.slist" "$TMP/$name.klist" all
	if [ "$name" = flags ]; then
		named_args strace "$TMP/$name.strace" >"$TMP/$name.sargs"
		named_args kdump "$TMP/$name.norm" >"$TMP/$name.kargs"
		check "${name}_named_calls" t_num "$(wc -l <"$TMP/$name.sargs")" -ge 35 \
			"calls with named arguments in strace's output"
		check "${name}_same_named_args" t_diff "$TMP/$name.sargs" "$TMP/$name.kargs" all
	fi
}

# the calls of flagcalls whose arguments are held one by one (issue 42)
NAMED="kill tgkill tkill name_to_handle_at add_key request_key keyctl fanotify_init fanotify_mark
setsockopt getsockopt ioctl"

# Split an argument list at its top-level separators (sep: ", " for
# strace, "," for kdump), not inside quotes, braces, brackets or parens.
AWK_SPLIT='
function splitargs(s, sep, a,   n, i, c, depth, q, cur) {
	n = 0; depth = 0; q = 0; cur = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (q) {
			cur = cur c
			if (c == "\\") { i++; cur = cur substr(s, i, 1) }
			else if (c == "\"") q = 0
			continue
		}
		if (c == "\"") q = 1
		else if (c ~ /[({[]/) depth++
		else if (c ~ /[)}\]]/) depth--
		if (depth == 0 && substr(s, i, length(sep)) == sep) {
			a[++n] = cur; cur = ""; i += length(sep) - 1
			continue
		}
		cur = cur c
	}
	if (cur != "" || n > 0) a[++n] = cur
	return n
}'

# named_args STRACE|KDUMP FILE: "call arg1 arg2 ..." per NAMED call, each
# argument a name as printed, "#" for a number or anything else strace
# shows of memory (a string, a structure, NULL), which the two runs need
# not share; the numbers a call ends with are left out (strace shows no
# third argument of some ioctls, kdump shows it)
named_args()
{
	if [ "$1" = strace ]; then
		sed -E 's/^[0-9]+ +//' "$2" | grep -E '^[a-z_0-9]+\(' | sed -E 's/\) += .*$//; s/\(/\t/'
	else
		q "$2" '$4 == "CALL"' | cut -f5 | sed -E 's/\)$//; s/\(/\t/'
	fi | awk -F'\t' -v named="$NAMED" -v sep="$([ "$1" = strace ] && echo ', ' || echo ',')" "$AWK_SPLIT"'
	BEGIN { n = split(named, t, /[ \n]+/); for (i = 1; i <= n; i++) want[t[i]] = 1 }
	!($1 in want) { next }
	{
		n = splitargs($2, sep, a)
		line = $1
		for (i = 1; i <= n; i++)
			line = line " " (a[i] ~ /^[A-Z_][A-Za-z0-9_]*/ && a[i] != "NULL" ? a[i] : "#")
		sub(/( #)+$/, "", line)
		print line
	}'
}

# t_diff STRACE KDUMP names|all: the lists (names only, or names and values) agree
t_diff()
{
	local a=$1 b=$2
	if [ "$3" = names ]; then
		cut -d' ' -f1 "$1" >"$1.names"
		cut -d' ' -f1 "$2" >"$2.names"
		a=$1.names b=$2.names
	fi
	cmp -s "$a" "$b" && return 0
	echo "    strace (<) and kdump (>) differ:" >&2
	diff "$a" "$b" | head -n 20 | sed 's/^/      /' >&2
	return 1
}

compare det "$PROGS/fac_det" "$TMP/w"
compare syscalls "$PROGS/syscalls" "$TMP/w"
compare flags "$PROGS/flagcalls"
# a real program: ls -l of a directory that does not change between the runs
mkdir -p "$TMP/lsdir/sub"
printf 'x' >"$TMP/lsdir/one"
ln -s one "$TMP/lsdir/link"
LS=$(command -v ls)
LC_ALL=C TZ=UTC compare ls "$LS" -l -n -a "$TMP/lsdir"

e2e_done
