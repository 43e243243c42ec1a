# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Helpers for the facility tests (t_genio, t_psig, t_execargs, t_struct,
# t_net, t_csw, t_strace_compare, t_summary), sourced after lib.sh.

# Awk functions for kdump's escapes, shared by gio and vecs: ord_init()
# fills ord[] (character -> hex); unesc(s, j) turns the escape whose first
# character after the backslash is s[j] into hex, and leaves in UNESC_I the
# index of its last character.
AWK_ESC='
function ord_init(   i) {
	for (i = 32; i < 127; i++)
		ord[sprintf("%c", i)] = sprintf("%02x", i)
	ord["\t"] = "09"
}
function unesc(s, j,   c, n, v) {
	c = substr(s, j, 1)
	UNESC_I = j
	if (c == "n") return "0a"
	if (c == "t") return "09"
	if (c == "r") return "0d"
	if (c == "\\") return "5c"
	if (c == "\"") return "22"
	if (c !~ /[0-7]/) return "??"
	v = 0
	for (n = 0; n < 3 && c ~ /[0-7]/; n++) {
		v = v * 8 + c
		c = substr(s, ++j, 1)
	}
	UNESC_I = j - 1
	return sprintf("%02x", v)
}'

# gio KDUMPFILE: one line per GIO record of kdump's output (run with -m 0),
# the data turned back into bytes, whichever layout kdump chose:
#	pid tid call fd dir n hex ret...
# call is the name of the thread's CALL before the record, ret the body of
# its RET after it ("write 100/0x64"), hex the data as lowercase hex digits
# ("-" when there is none).  Text data is un-escaped as kdump escaped it:
# \n \t \r \\ \" \ooo \0, a newline ends a line and the next one starts with
# a TAB, a "\" at the end of a line folds it.
gio()
{
	LC_ALL=C awk "$AWK_ESC"'
	BEGIN {
		ord_init()
	}
	function isrec(line,   f) {
		split(line, f, " ")
		return f[1] ~ /^[0-9]+(:[0-9]+)?$/ && f[3] ~ /^[A-Z]+$/ && line ~ /^ *[0-9]/
	}
	function flush() {
		if (!open)
			return
		if (tid in pend)
			print pend[tid] " (no RET)"
		pend[tid] = pid " " tid " " (tid in call ? call[tid] : "?") " " hdr " " \
			(hex == "" ? "-" : hex)
		open = 0
	}
	# un-escape one line of text data; returns 1 once the closing quote is seen
	function text(s,   i, c, d, n, v) {
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "\"")
				return 1
			if (c != "\\") {
				hex = hex ord[c]
				continue
			}
			if (i == length(s)) {	# a fold
				fold = 1
				return 0
			}
			hex = hex unesc(s, i + 1)
			i = UNESC_I
		}
		return 0
	}
	{
		line = $0
		if (isrec(line)) {
			flush()
			split(line, f, " ")
			split(f[1], pt, ":")
			pid = pt[1]
			tid = (2 in pt) ? pt[2] : pt[1]
			tag = f[3]
			body = line
			sub(/^ *[^ ]+ +[^ ]+ +[A-Z]+ */, "", body)
			if (tag == "CALL") {
				c = body
				sub(/\(.*/, "", c)
				call[tid] = c
			} else if (tag == "RET" && (tid in pend)) {
				print pend[tid] " " body
				delete pend[tid]
			} else if (tag == "GIO") {
				# "fd 3 wrote 80 bytes" -> "3 wrote 80"
				split(body, g, " ")
				hdr = g[2] " " g[3] " " g[4]
				hex = ""
				open = 1
				mode = ""
				done = 0
			}
			next
		}
		if (!open || done)
			next
		if (mode == "" && line ~ /^       0x[0-9a-f]+ /)
			mode = "hex"
		else if (mode == "" && line ~ /^       "/) {
			mode = "text"
			fold = 0
			done = text(substr(line, 9))
			next
		}
		if (mode == "hex") {
			s = line
			sub(/^       0x[0-9a-f]+ /, "", s)
			k = index(s, "  |")
			if (k)
				s = substr(s, 1, k - 1)
			gsub(/ /, "", s)
			hex = hex s
		} else if (mode == "text") {
			if (!fold)
				hex = hex "0a"
			fold = 0
			if (line == "       \"") {
				done = 1
				next
			}
			sub(/^\t/, "", line)
			done = text(line)
		}
	}
	END {
		flush()
		for (t in pend)
			print pend[t] " (no RET)"
	}' "$1"
}

# progkv FILE KEY FIELD: the word after FIELD on the program's report line KEY
progkv()
{
	awk -v k="$2" -v f="$3" '$1 == k { for (i = 2; i < NF; i++) if ($i == f) { print $(i + 1); exit } }' "$1"
}

# t_gio GIOFILE PID CALL FD DIR N HEX [RET]: exactly one GIO record of PID
# with this call, fd, direction, count and data (and RET value if given)
t_gio()
{
	local f=$1 pid=$2 call=$3 fd=$4 dir=$5 n=$6 hex=$7 ret=${8:-} got
	got=$(awk -v p="$pid" -v c="$call" -v fd="$fd" -v d="$dir" -v n="$n" -v h="$hex" \
		'$1 == p && $3 == c && $4 == fd && $5 == d && $6 == n && $7 == h' "$f")
	if [ -z "$got" ]; then
		echo "    no GIO record: pid $pid $call fd $fd $dir $n bytes, data ${hex:0:100}..." >&2
		echo "    GIO records of $call fd $fd:" >&2
		awk -v c="$call" -v fd="$fd" '$3 == c && $4 == fd' "$f" | cut -c1-300 |
			sed 's/^/      /' >&2
		awk -v c="$call" -v fd="$fd" -v h="$hex" '$3 == c && $4 == fd { print $7; print h }' \
			"$f" | head -n 2 | { read -r a; read -r b; t_same "$a" "$b" "data of the first"; }
		return 1
	fi
	if [ "$(printf '%s\n' "$got" | wc -l)" -ne 1 ]; then
		echo "    several GIO records match: $got" >&2
		return 1
	fi
	if [ -n "$ret" ]; then
		t_match "$(printf '%s\n' "$got" | cut -d' ' -f8-)" "^$call $ret\$" || return 1
	fi
	return 0
}

# t_grepx STRING FILE: some line of FILE is STRING exactly
t_grepx()
{
	grep -Fxq -- "$1" "$2" && return 0
	echo "    no line of $2 is '$1'" >&2
	return 1
}

# t_same A B [WHAT]: A = B, for long strings: says where they differ
t_same()
{
	[ "$1" = "$2" ] && return 0
	local i
	i=$(cmp <(printf '%s' "$1") <(printf '%s' "$2") 2>&1 | awk '/differ/ { print $5 + 0; exit }
		/EOF/ { print -1 }')
	i=${i:-0}
	[ "$i" -gt 0 ] && i=$((i - 1))
	[ "$i" -lt 0 ] && i=$((${#1} < ${#2} ? ${#1} : ${#2}))
	echo "    ${3:-values} differ at offset $i (lengths ${#1}, ${#2}):" >&2
	echo "      got      ...${1:i:60}" >&2
	echo "      expected ...${2:i:60}" >&2
	return 1
}

# vecs KDFILE PID TAG: the string vectors of the ARGS (or ENVS) records of PID
# in kdump's output, one line per run of consecutive TAG records of that
# process (records of a vector too big for one record follow each other),
# as hex digits: every string's bytes, then 00.
vecs()
{
	LC_ALL=C awk -v want="$2" -v tag="$3" "$AWK_ESC"'
	BEGIN {
		ord_init()
	}
	function strings(s,   i, c, n, v, out, inq, L) {
		out = ""
		inq = 0
		L = length(s)
		for (i = 1; i <= L; i++) {
			c = substr(s, i, 1)
			if (!inq) {
				if (c == "\"")
					inq = 1
				continue
			}
			if (c == "\"") {
				out = out "00"
				inq = 0
				continue
			}
			if (c != "\\") {
				out = out ord[c]
				continue
			}
			out = out unesc(s, i + 1)
			i = UNESC_I
		}
		return out
	}
	{
		split($1, pt, ":")
		if (pt[1] != want || $1 !~ /^[0-9]+(:[0-9]+)?$/)
			next
		if ($3 == tag) {
			body = $0
			sub(/^ *[^ ]+ +[^ ]+ +[A-Z]+  /, "", body)
			cur = cur strings(body)
			inrun = 1
		} else if (inrun) {
			print cur
			cur = ""
			inrun = 0
		}
	}
	END {
		if (inrun)
			print cur
	}' "$1"
}

# hexfile FILE: the file as one line of hex digits
hexfile()
{
	xxd -p "$1" | tr -d '\n'
	echo
}

# rawvecs KTRFILE TYPE PID: like vecs, from the records in the file (as the
# tracer wrote them): one line per run of consecutive TYPE records of PID,
# their payloads joined, as hex digits
rawvecs()
{
	"$PROGS/fac_records" "$1" "$2" "$3" | awk '
	NR > 1 && $1 != prev + 1 { print cur; cur = "" }
	{ cur = cur $3; prev = $1 }
	END { if (NR) print cur }'
}

# nstrings HEX: how many NUL-terminated strings a vec line holds
nstrings()
{
	printf '%s' "$1" | fold -w 2 | grep -c '^00$'
}

# t_samefile GOT EXPECTED [WHAT]: two files of one line of hex digits are equal
t_samefile()
{
	cmp -s "$1" "$2" && return 0
	t_same "$(cat "$1")" "$(cat "$2")" "${3:-$1 and $2}"
}

# strus NORM PID: the STRU records of PID with the syscall and the last path
# looked up by it: "call<TAB>path<TAB>body" (path "-" if none)
strus()
{
	q "$1" '$1 == p' p="$2" | awk -F'\t' '
	$4 == "CALL" { c = $5; sub(/\(.*/, "", c); path = "-" }
	$4 == "NAMI" { path = $5; gsub(/^"|"$/, "", path) }
	$4 == "STRU" { print c "\t" path "\t" $5 }'
}

# field BODY NAME: the value of NAME=value in a STRU body "struct x { a=1, b=2 }"
field()
{
	printf '%s\n' "$1" | awk -v k="$2" '{
		s = $0
		sub(/^[^{]*\{ */, "", s)
		sub(/ *\}$/, "", s)
		n = split(s, f, /, /)
		for (i = 1; i <= n; i++) {
			j = index(f[i], "=")
			if (substr(f[i], 1, j - 1) == k) { print substr(f[i], j + 1); exit }
		}
	}'
}

# modestr OCTAL: the mode as ls(1) shows it ("100640" -> "-rw-r-----")
modestr()
{
	local m=$((8#$1)) t s="" i rwx=rwxrwxrwx
	case $((m & 8#170000)) in
	$((8#100000))) t=- ;;
	$((8#040000))) t=d ;;
	$((8#120000))) t=l ;;
	$((8#020000))) t=c ;;
	$((8#060000))) t=b ;;
	$((8#010000))) t=p ;;
	$((8#140000))) t=s ;;
	*) t=? ;;
	esac
	for i in 8 7 6 5 4 3 2 1 0; do
		if [ $((m >> i & 1)) -eq 1 ]; then
			s+=${rwx:8-i:1}
		else
			s+=-
		fi
	done
	[ $((m & 8#4000)) -ne 0 ] && s=${s:0:2}$([ "${s:2:1}" = x ] && echo s || echo S)${s:3}
	[ $((m & 8#2000)) -ne 0 ] && s=${s:0:5}$([ "${s:5:1}" = x ] && echo s || echo S)${s:6}
	[ $((m & 8#1000)) -ne 0 ] && s=${s:0:8}$([ "${s:8:1}" = x ] && echo t || echo T)
	echo "$t$s"
}
