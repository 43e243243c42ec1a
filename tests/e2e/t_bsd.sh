#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# kdump on every BSD's ktrace files (docs/BSD.md): the seven real files of
# tests/fixtures/bsd, each detected as its system and header, printed whole
# (one line per record, as many as the fixtures' README counts) with that
# system's syscall names, checked by hand against the paths and return values
# in the file (an open of a path returns an fd, the next calls use it, a close
# ends it); then DragonFly and FreeBSD v1 files this script writes byte by
# byte; then cut and corrupted copies: a one-line error and exit 1, never a
# crash.  Needs no privileges.
. "$(dirname "$0")/lib.sh"
need_kdump

FIX=${KTR_FIXTURES:-$REPO/tests/fixtures/bsd}
if [ ! -f "$FIX/README.md" ]; then
	skip fixtures "no BSD fixtures in $FIX"
	e2e_done
fi

# readme_count NAME: the records the fixtures' README counts for NAME
readme_count()
{
	awk -F'|' -v f="$1.ktrace.out" '
	{ g = $2; gsub(/ /, "", g) }
	g == f { n = $(NF - 1); sub(/^ */, "", n); sub(/ .*/, "", n); print n }' "$FIX/README.md"
}

# fd_flow NAME PATH USES: after PATH is opened (CALL open, NAMI, RET open N),
# the same process's next call on fd N is one of USES (a regex), and a later
# close(N) returns 0.
fd_flow()
{
	awk -F'\t' -v path="\"$2\"" -v uses="^($3)\\\\(" '
	function fdarg(s) { sub(/^[^(]*\(/, "", s); sub(/[,)].*/, "", s); return s }
	$4 == "NAMI" && $5 == path && want == "" { want = "open"; pid = $1; next }
	want == "open" && $1 == pid && $4 == "RET" && $5 ~ /^open [0-9]+$/ {
		split($5, r, " "); fd = sprintf("0x%x", r[2]); want = "use"; next
	}
	want == "use" && $1 == pid && $4 == "CALL" && fdarg($5) == fd {
		if ($5 !~ uses) { print "first use of " fd ": " $5; exit 1 }
		want = "close"; next
	}
	want == "close" && $1 == pid && $4 == "CALL" && $5 == "close(" fd ")" { want = "closed"; next }
	want == "closed" && $1 == pid && $4 == "RET" { ok = ($5 == "close 0"); exit }
	END {
		if (ok) exit 0
		printf "    %s: open of %s: stopped at %s\n", FILENAME, path, want > "/dev/stderr"
		exit 1
	}' "$TMP/$1.norm"
}

# expect NAME LINE: that exact record (pid tid comm TAG body, tab-separated)
expect()
{
	grep -Fq -- "$(printf '%s' "$2" | tr '|' '\t')" "$TMP/$1.norm" && return 0
	echo "    no record '$2' in $TMP/$1.norm" >&2
	return 1
}

# name system/arch/header  file  path  uses-of-its-fd
FIXTURES="
freebsd-i386-v0-2010|FreeBSD trace, i386, ktr_header v0 (44 bytes, little-endian)|/var/run/ld-elf.so.hints|read
freebsd-i386-v0-2012|FreeBSD trace, i386, ktr_header v0 (44 bytes, little-endian)|/usr/local/lib/libexecinfo.so.1|fstat
freebsd-amd64-v0-2016|FreeBSD trace, amd64, ktr_header v0 (56 bytes, little-endian)|/var/run/ld-elf.so.hints|read
openbsd-amd64-2016|OpenBSD trace, amd64, ktr_header (64 bytes, little-endian)|/var/run/ld.so.hints|fstat
openbsd-amd64-2020|OpenBSD trace, amd64, ktr_header (64 bytes, little-endian)|/usr/lib/libc.so.95.1|fstat
netbsd-i386-v0-2003|NetBSD trace, i386, ktr_header v0 (44 bytes, little-endian)|/etc/ld.so.conf|__fstat13
darwin-ppc-2005|Darwin trace, powerpc, ktr_header (44 bytes, big-endian)|/System/Library/Perl/5.8.6/darwin-thread-multi-2level/CORE/libperl.dylib|fstat
"
nfix=0
while IFS='|' read -r b desc path uses; do
	[ -n "$b" ] || continue
	nfix=$((nfix + 1))
	f=$FIX/$b.ktrace.out
	kd "$b" "$f" -s
	check "${b}_clean" t_kdump_ok "$b"
	check "${b}_detected" t_eq "$(head -n 1 "$TMP/$b.kd" | sed 's/^ *0:0 *kdump *INFO  //')" \
		"$desc"
	n=$(readme_count "$b")
	check "${b}_whole" t_eq "$(($(wc -l <"$TMP/$b.kd") - 1))" "$n" "records in the README"
	check "${b}_every_call_named" t_nogrep '	(CALL|RET)	\[[0-9]+\]' "$TMP/$b.norm"
	check "${b}_no_garbage" t_nogrep 'invalid record|UNKNOWN' "$TMP/$b.kd"
	check "${b}_every_line_a_record" t_eq "$(grep -Ec '^ *-?[0-9]+:-?[0-9]+ ' "$TMP/$b.kd")" \
		"$(wc -l <"$TMP/$b.kd")"
	check "${b}_open_use_close" fd_flow "$b" "$path" "$uses"
done <<<"$FIXTURES"
check seven_fixtures t_eq "$nfix" 7

# Records checked by hand against the bytes of the files
check freebsd2010_enoent expect freebsd-i386-v0-2010 \
	'1077|100048|ls|RET|open -1 errno 2 ENOENT'
check freebsd2010_read_128 expect freebsd-i386-v0-2010 '1077|100048|ls|RET|read 128/0x80'
check freebsd2010_sysctl expect freebsd-i386-v0-2010 '1077|100048|ls|SCTL|"kern.osreldate"'
check freebsd2010_execve_args expect freebsd-i386-v0-2010 \
	'1077|100048|ktrace|CALL|execve(0xbfbfe858,0xbfbfed74,0xbfbfed7c)'
check freebsd2012_abi expect freebsd-i386-v0-2012 '17990|100207|ktrace|CTOR|sv_flags 0x4109'
check freebsd2012_signal t_grep '	PSIG	SIGINT SIG_DFL' "$TMP/freebsd-i386-v0-2012.norm"
check freebsd2016_abi expect freebsd-amd64-v0-2016 '825|100080|ktrace|CTOR|sv_flags 0x10209'
check freebsd2016_lstat_enoent expect freebsd-amd64-v0-2016 \
	'825|100080|ldpreload|RET|lstat -1 errno 2 ENOENT'
check openbsd2016_start t_match "$(sed -n 2p "$TMP/openbsd-amd64-2016.kd")" '^ +-1:-1 +STRT  $'
check openbsd2016_enotty expect openbsd-amd64-2016 '11670|1011670|pg|RET|fcntl -1 errno 25 ENOTTY'
check openbsd2016_hints expect openbsd-amd64-2016 '11670|1011670|pg|RET|open 3'
check openbsd2020_msyscall t_grep '	CALL	msyscall\(' "$TMP/openbsd-amd64-2020.norm"
check openbsd2020_sysctl_with_mib t_grep '	CALL	sysctl\(' "$TMP/openbsd-amd64-2020.norm"
check netbsd_emul expect netbsd-i386-v0-2003 '7504|0|ktrace|EMUL|"netbsd"'
check netbsd_open_fd4 expect netbsd-i386-v0-2003 '7504|0|rc|RET|open 4'
check netbsd_libedit_enoent t_grep 'NAMI	"/usr/pkg/lib/libedit.so.2"' \
	"$TMP/netbsd-i386-v0-2003.norm"
check darwin_ktrace_first expect darwin-ppc-2005 '830|0|ktrace|RET|ktrace 0'
check darwin_execve_enoent expect darwin-ppc-2005 '830|0|ktrace|RET|execve -1 errno 2 ENOENT'
check darwin_shared_region t_grep '	CALL	shared_region_map_file_np\(0x3,' \
	"$TMP/darwin-ppc-2005.norm"

# -H: the detected system in the first line, the tid in its column
kd h "$FIX/freebsd-i386-v0-2010.ktrace.out" -H
check tidcol_detected t_grep '^ +0 +0 kdump +INFO  FreeBSD trace, i386, ktr_header v0' "$TMP/h.kd"
check tidcol_tid t_grep '^  1077 100048 ls ' "$TMP/h.kd"
# -Y: the BSD names reach the summary too
kd y "$FIX/openbsd-amd64-2016.ktrace.out" -Y
check summary_bsd_names t_grep ' mmap$' "$TMP/y.kd"

# --- files written here, byte by byte ------------------------------------------

# le VALUE BYTES: VALUE little-endian, as printf %b escapes
le()
{
	local i
	for ((i = 0; i < $2; i++)); do
		printf '\\x%02x' $((($1 >> (8 * i)) & 255))
	done
}

# str TEXT BYTES: TEXT NUL-padded to BYTES
str()
{
	local i
	printf '%s' "$1"
	for ((i = ${#1}; i < $2; i++)); do
		printf '\\x00'
	done
}

# dfly TYPE PAYLOAD-ESCAPES LEN: a DragonFly record of pid 77, lwp 1, comm cat,
# with a kernel address in ktr_buf as DragonFly's kernel writes it
dfly()
{
	printf '%b' "$(le "$3" 4)$(le "$1" 2)$(le 1 2)$(le 77 4)$(le 1 4)$(str cat 17)$(str '' 7)$(le 1700000000 8)$(le 5 8)$(le -2141945856 8)$2"
}

D=$TMP/dragonfly.ktr
{
	dfly 1 "$(le 5 2)$(le 3 2)$(le 0 4)$(le 4202496 8)$(le 0 8)$(le 0 8)" 32 # open(path, O_RDONLY)
	dfly 3 "/etc/passwd" 11
	dfly 2 "$(le 5 2)$(le 0 2)$(le 0 4)$(le 3 8)" 16                         # open 3
	dfly 1 "$(le 3 2)$(le 3 2)$(le 0 4)$(le 3 8)$(le 4210688 8)$(le 64 8)" 32 # read(3, buf, 64)
	dfly 2 "$(le 3 2)$(le 0 2)$(le 35 4)$(le 0 8)" 16                        # EAGAIN (35)
	dfly 1 "$(le 6 2)$(le 1 2)$(le 0 4)$(le 3 8)" 16                          # close(3)
	dfly 2 "$(le 6 2)$(le 0 2)$(le 0 4)$(le 0 8)" 16
} >"$D"
kd dfly "$D"
check dragonfly_clean t_kdump_ok dfly
check dragonfly_detected t_grep 'INFO  DragonFly BSD trace, x86_64' "$TMP/dfly.kd"
check dragonfly_open_not_fstat expect dfly '77|1|cat|CALL|open(0x402000,0,0)'
check dragonfly_open_ret expect dfly '77|1|cat|RET|open 3'
check dragonfly_read_fd expect dfly '77|1|cat|CALL|read(0x3,0x404000,0x40)'
check dragonfly_errno expect dfly '77|1|cat|RET|read -1 errno 35 EAGAIN'
check dragonfly_close expect dfly '77|1|cat|CALL|close(0x3)'

# One record of a type DragonFly never wrote (its kdump skips it) does not make
# the file ktraceb's: every record has a kernel address at byte 56, where
# ktraceb keeps its clock, and there is no INFO record first.
D9=$TMP/dragonfly-type9.ktr
{
	dfly 1 "$(le 5 2)$(le 3 2)$(le 0 4)$(le 4202496 8)$(le 0 8)$(le 0 8)" 32
	dfly 9 "$(le 0 8)" 8
	dfly 3 "/etc/passwd" 11
	dfly 2 "$(le 5 2)$(le 0 2)$(le 0 4)$(le 3 8)" 16
} >"$D9"
kd dfly9 "$D9"
check dragonfly_type9_clean t_eq "$KDRC" 0
check dragonfly_type9_detected t_grep 'INFO  DragonFly BSD trace, x86_64' "$TMP/dfly9.kd"
check dragonfly_type9_open_not_fstat expect dfly9 '77|1|cat|CALL|open(0x402000,0,0)'
check dragonfly_type9_open_ret expect dfly9 '77|1|cat|RET|open 3'
check dragonfly_type9_other expect dfly9 '77|1|cat|OTHR|'

# fbsd1 TYPE PAYLOAD-ESCAPES LEN: a FreeBSD amd64 record, versioned header, on CPU 3
fbsd1()
{
	printf '%b' "$(le "$3" 4)$(le $(($1 | 0x4000)) 2)$(le 1 2)$(le 900 4)$(str sh 20)$(le 1700000000 8)$(le 123456789 8)$(le 100123 8)$(le 3 4)$(le 0 4)$2"
}
V=$TMP/freebsd-v1.ktr
{
	fbsd1 10 "$(le $((0x009f0209)) 4)" 4                                          # PROCCTOR
	fbsd1 1 "$(le 5 2)$(le 2 2)$(le 0 4)$(le 4202496 8)$(le 0 8)" 24              # open
	fbsd1 3 "/etc/hosts" 10
	fbsd1 2 "$(le 5 2)$(le 0 2)$(le 0 4)$(le 4 8)" 16                             # open 4
	fbsd1 1 "$(le 189 2)$(le 2 2)$(le 0 4)$(le 4 8)$(le 140737488346112 8)" 24    # fstat(4, sb)
	fbsd1 8 "$(str stat 5)$(le 0 8)" 13                                           # STRUCT
	fbsd1 2 "$(le 189 2)$(le 0 2)$(le 0 4)$(le 0 8)" 16
	fbsd1 1 "$(le 6 2)$(le 1 2)$(le 0 4)$(le 4 8)" 16                             # close(4)
	fbsd1 2 "$(le 6 2)$(le 0 2)$(le 9 4)$(le 0 8)" 16                             # EBADF
} >"$V"
kd v1 "$V" -c -T
check freebsd_v1_clean t_kdump_ok v1
check freebsd_v1_detected t_grep 'INFO  FreeBSD trace, amd64, ktr_header v1 \(64 bytes' "$TMP/v1.kd"
check freebsd_v1_cpu_and_ns t_grep '^  900:100123  3 sh       1700000000\.123456789 CALL  open\(0x402000,0\)$' \
	"$TMP/v1.kd"
check freebsd_v1_fstat t_grep 'CALL  fstat\(0x4,0x7fffffffdc00\)$' "$TMP/v1.kd"
check freebsd_v1_struct t_grep 'STRU  struct stat, 8 bytes' "$TMP/v1.kd"
check freebsd_v1_errno t_grep 'RET   close -1 errno 9 EBADF$' "$TMP/v1.kd"

# --- cut and corrupted copies ---------------------------------------------------

# rd FILE OFF N BE: an unsigned N-byte integer at OFF
rd()
{
	local v=0 b i=0
	for b in $(od -An -v -tu1 -j "$2" -N "$3" "$1"); do
		if [ "$4" = 1 ]; then v=$((v * 256 + b)); else v=$((v + (b << (8 * i)))); fi
		i=$((i + 1))
	done
	echo "$v"
}

# poke FILE OFF BYTE...: overwrite bytes in place
poke()
{
	local f=$1 off=$2 b
	shift 2
	for b; do
		printf '%b' "\\x$b" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
		off=$((off + 1))
	done
}

# rejected NAME: kdump failed with one "kdump: " line, no crash, no hang
rejected()
{
	check "${1}_exit_1" t_num "$KDRC" -eq 1 "exit status"
	check "${1}_one_line" t_lines 1 "$TMP/$1.kderr"
	check "${1}_error_prefix" t_grep '^kdump: ' "$TMP/$1.kderr"
}

# name  header size  offset and size of ktr_len  offset of the type  big-endian
LAYOUTS="
freebsd-i386-v0-2010 44 0 4 4 0
freebsd-amd64-v0-2016 56 0 4 4 0
openbsd-amd64-2020 64 56 8 0 0
netbsd-i386-v0-2003 44 0 4 4 0
darwin-ppc-2005 44 0 4 4 1
"
while read -r b hsz loff lsz toff be; do
	[ -n "$b" ] || continue
	f=$FIX/$b.ktrace.out
	n=$(readme_count "$b")
	size=$(stat -c %s "$f")
	head -c $((size - 3)) "$f" >"$TMP/$b.cut"
	kd "$b-cut" "$TMP/$b.cut" -s
	rejected "$b-cut"
	check "${b}-cut_says_why" t_grep 'data too short' "$TMP/$b-cut.kderr"
	check "${b}-cut_prints_the_rest" t_eq "$(($(wc -l <"$TMP/$b-cut.kd") - 1))" $((n - 1))
	# record 20's offset, walking the headers
	off=0
	for ((i = 1; i < 20; i++)); do
		off=$((off + hsz + $(rd "$f" $((off + loff)) "$lsz" "$be")))
	done
	cp "$f" "$TMP/$b.len"
	chmod u+w "$TMP/$b.len"
	poke "$TMP/$b.len" $((off + loff + (be ? 0 : 3))) 7f # ktr_len above 2^30
	kd "$b-len" "$TMP/$b.len" -s
	rejected "$b-len"
	check "${b}-len_says_why" t_grep 'bogus length' "$TMP/$b-len.kderr"
	check "${b}-len_prints_the_rest" t_eq "$(($(wc -l <"$TMP/$b-len.kd") - 1))" 19
	cp "$f" "$TMP/$b.type"
	chmod u+w "$TMP/$b.type"
	poke "$TMP/$b.type" $((off + toff + be)) 7e # a type no system has
	kd "$b-type" "$TMP/$b.type" -s
	rejected "$b-type"
	check "${b}-type_says_why" t_grep 'unknown record type' "$TMP/$b-type.kderr"
	# a file cut inside its first record is no system's
	head -c $((hsz + 2)) "$f" | tail -c +3 >"$TMP/$b.head"
	kd "$b-head" "$TMP/$b.head"
	rejected "$b-head"
done <<<"$LAYOUTS"

# 40 copies of each fixture with 4 random bytes changed: no crash, no hang,
# at most one line of error
bad=
RANDOM=12
for b in $(sed -n 's/^| \([a-z0-9-]*\)\.ktrace\.out .*/\1/p' "$FIX/README.md"); do
	f=$FIX/$b.ktrace.out
	size=$(stat -c %s "$f")
	for ((k = 0; k < 40; k++)); do
		cp "$f" "$TMP/flip"
		chmod u+w "$TMP/flip"
		for ((j = 0; j < 4; j++)); do
			poke "$TMP/flip" $(((RANDOM * 32768 + RANDOM) % size)) "$(printf '%02x' $((RANDOM % 256)))"
		done
		timeout -k 2 60 "$KDUMP" -f "$TMP/flip" >/dev/null 2>"$TMP/flip.err" </dev/null
		rc=$?
		if [ "$rc" -gt 1 ] || [ "$(wc -l <"$TMP/flip.err")" -gt 1 ]; then
			bad="$bad $b#$k: exit $rc;"
			cp "$TMP/flip" "$TMP/flip-$b-$k"
		fi
	done
done
check flipped_fixtures_survive t_eq "${bad:-none}" none

e2e_done
