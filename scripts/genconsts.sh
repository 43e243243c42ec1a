#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The constant tables kdump names ioctl requests and socket options (and a
# few flag sets) by, made from the kernel's own uapi headers (Debian's
# linux-libc-dev), as the syscall tables are made from the kernel's tables
# (gensyscalls.sh): the script scans the headers and compiles a small C
# program that prints each value, and the table it writes is committed in
# src/decode/tables/; the build turns the committed table into C.
#
#   scripts/genconsts.sh ioctls [INCDIR] > src/decode/tables/ioctls.tbl
#   scripts/genconsts.sh consts SPEC [INCDIR] > src/decode/tables/consts.tbl
#   scripts/genconsts.sh c-ioctls TBL > $(O)/gen/ioctls.c
#   scripts/genconsts.sh c-consts TBL > $(O)/gen/consts.c
#   scripts/genconsts.sh check-ioctls TBL [INCDIR]   (the build machine's headers
#   scripts/genconsts.sh check-consts TBL SPEC [INCDIR]   agree with the table)
#
# ioctls: every "#define NAME _IO*(...)" (also DRM_IOW, _SIOR and the like)
# of the headers under INCDIR (default /usr/include) in linux/, asm/,
# asm-generic/, sound/, drm/, mtd/, scsi/, rdma/, misc/, xen/, video/, and
# the requests some headers give as plain numbers (TCGETS 0x5401), kept
# where the number's type byte is the header's own (IOCTL_NUMBERS below).
# A line "NAME<TAB>0xVALUE<TAB>header"; a name defined by two headers keeps
# the first (asm/ before asm-generic/).  Values are the build machine's
# (x86_64: struct sizes in _IOR/_IOW are its own).
#
# consts: the tables of SPEC (src/decode/tables/consts.spec): for each, the
# defines and enumerators of one header whose names match, from a first
# name on, up to the first define of another name (a header's option
# block), numbers only, a name whose value is another name's (an alias) or
# a value already taken left out.  A line "TABLE<TAB>NAME<TAB>0xVALUE".
set -eu
export LC_ALL=C
mode=${1:-}
[ -n "$mode" ] && shift
me=genconsts.sh
CC=${CC:-gcc}

usage()
{
	echo "usage: $me ioctls [INCDIR] | consts SPEC [INCDIR] | c-ioctls TBL | c-consts TBL" \
		"| check-ioctls TBL [INCDIR] | check-consts TBL SPEC [INCDIR]" >&2
	exit 2
}

# Headers whose requests are plain numbers: header, names (ERE), type byte.
IOCTL_NUMBERS='asm-generic/ioctls.h ^(TC|TIOC|FIO) 0x54
asm-generic/sockios.h ^(FIO|SIOC) 0x89
linux/sockios.h ^SIOC 0x89
linux/wireless.h ^SIOC 0x8b
linux/kd.h ^[A-Z] 0x4b
linux/vt.h ^VT_ 0x56
linux/cdrom.h ^(CDROM|DVD_|CDROM_) 0x53
linux/hdreg.h ^HDIO_ 0x03
linux/lp.h ^LP 0x06
linux/fb.h ^FBIO 0x46
linux/mroute.h ^SIOC 0x89
linux/mroute6.h ^SIOC 0x89
linux/loop.h ^LOOP_ 0x4c
scsi/sg.h ^SG_ 0x22
scsi/scsi_ioctl.h ^SCSI_IOCTL_ 0x53'

# hex("0x54"): the number (mawk has no strtonum)
AWK_HEX='function hex(s,   v, i) {
	v = 0
	s = tolower(s)
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}'

tmp=
cleanup()
{
	[ -z "$tmp" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
newtmp()
{
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX")
}

# values HEADER < names: "NAME<TAB>0xVALUE" for each name whose value the
# header gives.  A name the compiler refuses (a struct the header does not
# define, a macro of arguments) is dropped and the rest compiled again;
# -ftrack-macro-expansion=0 puts each error on the line that used the name.
values()
{
	h=$1
	cat >"$tmp/names"
	[ -s "$tmp/names" ] || return 0
	if try_prelude none "$tmp/names"; then
		# names refused alone may need another header's types (struct termios2)
		[ -s "$tmp/dropped" ] || return 0
		mv "$tmp/dropped" "$tmp/names2"
		try_prelude full "$tmp/names2" || :
		return 0
	fi
	try_prelude full "$tmp/names" || echo "$me: $h: does not compile, left out" >&2
}

# try_prelude none|full NAMES: print the values of the names that compile
# (those refused into $tmp/dropped); false if the header itself does not.
try_prelude()
{
	prelude=$1
	cp "$2" "$tmp/try"
	: >"$tmp/dropped"
	for round in 1 2 3 4 5 6 7 8; do
		{
			if [ "$prelude" = full ]; then
				printf '#include <sys/types.h>\n#include <sys/socket.h>\n#include <stdint.h>\n'
				printf '#include <linux/types.h>\n#include <linux/posix_types.h>\n'
				printf '#include <asm/termbits.h>\n#include <linux/fiemap.h>\n'
			fi
			printf '#include <linux/ioctl.h>\n#include <%s>\n#include <stdio.h>\n' "$h"
			printf 'int main(void)\n{\n'
			awk '{ printf "\tprintf(\"%%s\\t0x%%llx\\n\", \"%s\", (unsigned long long)(%s));\n", $1, $1 }' \
				"$tmp/try"
			printf '\treturn 0;\n}\n'
		} >"$tmp/v.c"
		if $CC -w -ftrack-macro-expansion=0 -I"$inc" $INCS -o "$tmp/v" "$tmp/v.c" \
			2>"$tmp/err"; then
			"$tmp/v"
			return 0
		fi
		# lines of v.c with an error: their names go; none: the header fails
		grep -o '^[^:]*v\.c:[0-9]*:[0-9]*: error' "$tmp/err" |
			sed 's/.*v\.c:\([0-9]*\):.*/\1/' | sort -un >"$tmp/bad" || :
		[ -s "$tmp/bad" ] || return 1
		head=$(grep -n '^int main' "$tmp/v.c" | cut -d: -f1)
		awk -v head="$head" 'NR == FNR { bad[$1 - head - 1] = 1; next }
			(FNR in bad) { print >> drop; next } { print }' drop="$tmp/dropped" \
			"$tmp/bad" "$tmp/try" >"$tmp/try2"
		mv "$tmp/try2" "$tmp/try"
		[ -s "$tmp/try" ] || return 0
	done
	return 0
}

# The headers' package, as the table's first line says.
pkgver()
{
	v=$(dpkg-query -W -f='${Version}\n' "linux-libc-dev:$(dpkg --print-architecture 2>/dev/null)" \
		2>/dev/null | head -n 1)
	echo "linux-libc-dev ${v:-unknown}"
}

# The include path: INCDIR and its multiarch asm/ directory.
set_inc()
{
	inc=${1:-/usr/include}
	INCS=
	arch=$($CC -dumpmachine 2>/dev/null || :)
	[ -n "$arch" ] && [ -d "$inc/$arch" ] && INCS="-I$inc/$arch"
	[ -d "$inc" ] || { echo "$me: $inc: no such directory" >&2; exit 1; }
}

# Where a header is: INCDIR or its multiarch directory.
header_path()
{
	for d in "$inc" "$inc/$arch"; do
		[ -f "$d/$1" ] && { echo "$d/$1"; return; }
	done
}

scan_ioctls()
{
	set_inc "${1:-}"
	newtmp
	r_def='^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Z][A-Z0-9_]*[[:space:]]+'
	r_io='([A-Z0-9]+)?_S?IO(W|R|WR|C|CTL)?[[:space:]]*\('
	: >"$tmp/all"
	for d in "$inc" "$inc/$arch"; do
		(cd "$d" && for sub in asm linux asm-generic sound drm mtd scsi rdma misc xen video; do
			[ -d "$sub" ] && grep -rlE "$r_def(\\\$|$r_io)" "$sub" 2>/dev/null || :
		done)
	done | sort -u >"$tmp/headers"
	while read -r h; do
		p=$(header_path "$h")
		# a define continued on the next line (PTP_SYS_OFFSET_PRECISE) as one line
		sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta' "$p" | grep -hE "$r_def$r_io" |
			sed -E 's/^[[:space:]]*#[[:space:]]*define[[:space:]]+([A-Z0-9_]+).*/\1/' |
			sort -u | values "$h" | sed "s|\$|	$h|" >>"$tmp/all"
	done <"$tmp/headers"
	echo "$IOCTL_NUMBERS" | while read -r h names type; do
		p=$(header_path "$h")
		[ -n "$p" ] || continue
		grep -hE "^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Z][A-Z0-9_]*[[:space:]]+(0x[0-9a-fA-F]+|[0-9]+)" "$p" |
			sed -E 's/^[[:space:]]*#[[:space:]]*define[[:space:]]+([A-Z0-9_]+).*/\1/' | grep -E "$names" |
			sort -u | values "$h" |
			awk -F'\t' -v t="$type" "$AWK_HEX"'{ v = hex($2) } v < 65536 && int(v / 256) == hex(t)' |
			sed "s|\$|	$h|" >>"$tmp/all"
	done
	printf '# ioctl requests of the uapi headers in %s (%s), made by scripts/genconsts.sh ioctls\n' \
		"$inc" "$(pkgver)"
	printf '# name\tvalue\theader\n'
	# one line per name: asm/ before asm-generic/, then the headers in order
	# values as 0x%08x: sorted as strings, they are sorted as numbers
	awk -F'\t' "$AWK_HEX"'{ k = $3; sub(/^asm\//, "0/", k); sub(/^asm-generic\//, "1/", k)
		printf "%s\t%s\t0x%08x\t%s\n", k, $1, hex($2), $3 }' "$tmp/all" |
		sort -t'	' -k2,2 -k1,1 | awk -F'\t' '!seen[$2]++ { print $2 "\t" $3 "\t" $4 }' |
		sort -t'	' -k2,2 -k1,1
}

# consts SPEC: one table per line, "table header first-name names-ERE [exclude-ERE]"
scan_consts()
{
	spec=$1
	set_inc "${2:-}"
	newtmp
	printf '# constants of the uapi headers in %s (%s), made by scripts/genconsts.sh consts %s\n' \
		"$inc" "$(pkgver)" \
		"$spec"
	printf '# table\tname\tvalue\n'
	grep -v '^#' "$spec" | grep -v '^[[:space:]]*$' | while read -r table h first names exclude; do
		p=$(header_path "$h")
		[ -n "$p" ] || { echo "$me: $h: not found, table $table left out" >&2; continue; }
		# the block: numeric defines and enumerators from first on
		awk -v first="$first" -v names="$names" -v excl="${exclude:-^$}" '
		function take(name, val) {
			if (name !~ names) { if (on && val != "") stop = 1; return }
			if (name ~ excl) return
			print name
		}
		stop { exit }
		{
			name = ""; val = ""
			if ($0 ~ /^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z_][A-Za-z0-9_]*[[:space:](]/) {
				rest = $0
				sub(/^[[:space:]]*#[[:space:]]*define[[:space:]]+/, "", rest)
				name = rest
				sub(/[^A-Za-z0-9_].*/, "", name)
				val = substr(rest, length(name) + 1)
				sub(/\/\*.*/, "", val)
				gsub(/^[[:space:]]+|[[:space:]]+$/, "", val)
				# a number, or a bit: (1 << 3), (1UL << 3)
				if (val !~ /^-?(0x[0-9a-fA-F]+|[0-9]+)[uUlL]*$/ &&
				    val !~ /^\(1[uUlL]*[[:space:]]*<<[[:space:]]*[0-9]+\)$/)
					val = ""
			} else if (match($0, /^[[:space:]]*[A-Z][A-Z0-9_]*[[:space:]]*(=[^,]*)?,/)) {
				name = $0; sub(/^[[:space:]]*/, "", name); sub(/[[:space:]=,].*/, "", name)
				val = "enum"
			}
			if (name == "") next
			if (name == first) on = 1
			if (on && val != "") take(name, val)
		}' "$p" | values "$h" | awk -F'\t' -v t="$table" '!seen[$2]++ { print t "\t" $1 "\t" $2 }'
	done
}

# C source from a committed table: bad lines stop the build.
c_ioctls()
{
	awk -F'\t' '
	BEGIN { n = 0; at = 0 } # numbers from the start: an unset n indexes as ""
	/^#/ || NF == 0 { next }
	NF != 3 || $1 !~ /^[A-Z][A-Z0-9_]*$/ || $2 !~ /^0x[0-9a-f]+$/ {
		printf "genconsts: %s:%d: bad line: %s\n", FILENAME, FNR, $0 > "/dev/stderr"; bad = 1; exit 1
	}
	{ name[n] = $1; val[n] = $2; n++ }
	END {
		if (bad) exit 1
		printf "/* Generated by scripts/genconsts.sh c-ioctls from %s: do not edit. */\n", FILENAME
		printf "#include \"decode_int.h\"\n\n"
		printf "/* Sorted by value, then by name; each name where it lies in ktr_ioctl_names. */\n"
		printf "const struct ktr_ioctlent ktr_ioctlents[] = {\n"
		for (i = 0; i < n; i++) { printf "\t{ %s, %d }, /* %s */\n", val[i], at, name[i]; at += length(name[i]) + 1 }
		printf "};\nconst size_t ktr_nioctlents = %d;\n\nconst char ktr_ioctl_names[] =", n
		for (i = 0; i < n; i++) printf "\n\t\"%s\\0\"", name[i]
		printf ";\n"
	}' "$1"
}

c_consts()
{
	awk -F'\t' '
	/^#/ || NF == 0 { next }
	NF != 3 || $1 !~ /^[a-z][a-z0-9_]*$/ || $2 !~ /^[A-Z][A-Za-z0-9_]*$/ || $3 !~ /^0x[0-9a-f]+$/ {
		printf "genconsts: %s:%d: bad line: %s\n", FILENAME, FNR, $0 > "/dev/stderr"; bad = 1; exit 1
	}
	{
		if (!($1 in seen)) { seen[$1] = 1; order[nt++] = $1 }
		body[$1] = body[$1] sprintf("\t{ %sULL, \"%s\" },\n", $3, $2)
	}
	END {
		if (bad) exit 1
		printf "/* Generated by scripts/genconsts.sh c-consts from %s: do not edit. */\n", FILENAME
		printf "#include \"decode_int.h\"\n"
		for (i = 0; i < nt; i++) {
			t = order[i]
			printf "\nstatic const struct ktr_sym %s_sym[] = {\n%s};\n", t, body[t]
			printf "const struct ktr_symtab ktr_gen_%s = KTR_SYMTAB(%s_sym);\n", t, t
		}
	}' "$1"
}

# The table against these headers: every name both have must have one value.
check()
{
	sort -t'	' -k1,1 "$1" | grep -v '^#' >"$tmp/a"
	sort -t'	' -k1,1 "$2" | grep -v '^#' >"$tmp/b"
	join -t'	' "$tmp/a" "$tmp/b" | awk -F'\t' -v f="$3" -v g="$4" '
		$f != $g { printf "genconsts: %s is %s in the table, %s in these headers\n", $1, $f, $g; bad++ }
		END { exit bad > 0 }' >&2
}

case $mode in
ioctls) scan_ioctls "${1:-}" ;;
consts)
	[ $# -ge 1 ] || usage
	scan_consts "$@"
	;;
c-ioctls)
	[ $# -eq 1 ] || usage
	c_ioctls "$1"
	;;
c-consts)
	[ $# -eq 1 ] || usage
	c_consts "$1"
	;;
check-ioctls)
	[ $# -ge 1 ] || usage
	"$0" ioctls "${2:-}" >"${TMPDIR:-/tmp}/$me.$$.tbl" 2>/dev/null
	newtmp
	mv "${TMPDIR:-/tmp}/$me.$$.tbl" "$tmp/new"
	check "$1" "$tmp/new" 2 4
	;;
check-consts)
	[ $# -ge 2 ] || usage
	"$0" consts "$2" "${3:-}" >"${TMPDIR:-/tmp}/$me.$$.tbl" 2>/dev/null
	newtmp
	awk -F'\t' '!/^#/ { print $1 ":" $2 "\t" $3 }' "$1" >"$tmp/old"
	awk -F'\t' '!/^#/ { print $1 ":" $2 "\t" $3 }' "${TMPDIR:-/tmp}/$me.$$.tbl" >"$tmp/new"
	rm -f "${TMPDIR:-/tmp}/$me.$$.tbl"
	check "$tmp/old" "$tmp/new" 2 3
	;;
*) usage ;;
esac
