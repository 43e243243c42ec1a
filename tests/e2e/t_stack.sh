#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# User stacks (ktraceb -k, issue 24) on programs with known call chains,
# built with frame pointers and -g (tests/progs/stack_chain.c, stack_cxx.cc;
# each prints the source lines the frames must show):
#  - the whole chain raw_openat <- open_config (open_flags inlined in it)
#    <- main, each frame function+offset (object) at file:line
#  - C++ names demangled
#  - the call made in libc (no frame pointers there): the first frame is
#    libc's, and no later frame is printed as a caller without its doubt
#  - the objects (OBJ) and the selection (INFO) in the file; -J's frames as
#    data
#  - a stripped program named from its debug file under
#    /usr/lib/debug/.build-id, even after the program is gone; with neither,
#    the build id and offset, no made-up name
#  - a hostile OBJ path (a FIFO) makes kdump neither hang nor name frames
. "$(dirname "$0")/lib.sh"
need_tracer
CHAIN=$PROGS/stack_chain
CXX=$PROGS/stack_cxx
for p in "$CHAIN" "$CXX"; do
	if [ ! -x "$p" ]; then
		fail build "$p not built (make O=$O test)"
		exit 1
	fi
done
TARGET=$TMP/config.txt
echo config >"$TARGET"

# line P ROLE: the line number the program printed as "LINE ROLE N"
line()
{
	awk -v r="$2" '$1 == "LINE" && $2 == r { print $3; exit }' "$TMP/$1.out"
}

# frames P N: the frame lines of the N-th STACK (1-based) after a CALL openat of TARGET
frames()
{
	awk -v want="$2" -v path="\"$TARGET\"" '
	/ CALL  openat\(/ { n = 0; delete f; infr = 0; next }
	/ STACK  / { infr = 1; next }
	infr && /^ +#[0-9]/ { f[++n] = $0; next }
	infr { infr = 0 }
	/ NAMI  / && index($0, path) { if (++hit == want) { for (i = 1; i <= n; i++) print f[i]; exit } }
	' "$TMP/$1.kd"
}

# --- the whole chain ----------------------------------------------------------------
ktr chain -k -e trace=openat -f "$TMP/chain.ktr" "$CHAIN" "$TARGET"
check chain_runs t_krc 0 chain
kd chain "$TMP/chain.ktr"
check chain_kdump_ok t_kdump_ok chain
frames chain 1 >"$TMP/raw.frames"
SRC='tests/progs/stack_chain\.c'
check frame0_raw_openat t_grep "^ +#0 +raw_openat\+0x[0-9a-f]+ \($CHAIN\) at .*$SRC:$(line chain raw)\$" \
	"$TMP/raw.frames"
check frame1_open_config_inlined t_grep \
	"^ +#1 +open_config\+0x[0-9a-f]+ \($CHAIN\) at .*$SRC:$(line chain call), inlined open_flags at .*$SRC:$(line chain inlined)\$" \
	"$TMP/raw.frames"
check frame2_main t_grep "^ +#2 +main\+0x[0-9a-f]+ \($CHAIN\) at .*$SRC:$(line chain main)\$" "$TMP/raw.frames"
check frame3_libc_start t_grep "^ +#3 +__libc_start_call_main\+0x[0-9a-f]+ \(.*libc\.so\.6\)" "$TMP/raw.frames"
check whole_chain_no_doubt t_nogrep '\[' "$TMP/raw.frames"

# --- through libc: the first frame right, the rest doubted or true ----------------------
frames chain 2 >"$TMP/libc.frames"
check libc_frame0 t_grep '^ +#0 +[_a-z0-9]*open[_a-z0-9]*\+0x[0-9a-f]+ \(.*libc\.so\.6\)' "$TMP/libc.frames"
# a frame below it is a real caller of this path, or says why it may not be
check libc_no_made_up_caller t_eq "$(tail -n +2 "$TMP/libc.frames" | grep -v '\[' |
	grep -Evc ' (open_config_libc|main|__libc_start_call_main|__libc_start_main[_a-z]*|_start|_IO_[a-z_]+|fopen[0-9]*|__fopen_internal)\+0x')" 0

# --- what the file holds ------------------------------------------------------------
check objects_described t_grep $'\tOBJ\t[0-9a-f]{40} '"$CHAIN"'$' "$TMP/chain.norm"
check libc_described t_grep $'\tOBJ\t[0-9a-f]+ .*libc\\.so\\.6$' "$TMP/chain.norm"
check objects_once t_eq "$(qn "$TMP/chain.norm" '$4 == "OBJ"' | tr -d ' ')" \
	"$(q "$TMP/chain.norm" '$4 == "OBJ"' | cut -f5 | sort -u | wc -l | tr -d ' ')"
check selection_said t_grep $'\tINFO\tsyscall selection: trace=openat$' "$TMP/chain.norm"
check one_stack_per_call t_eq "$(qn "$TMP/chain.norm" '$4 == "STACK"')" "$(qn "$TMP/chain.norm" '$4 == "CALL"')"

# -J: the frames as data
"$KDUMP" -J -f "$TMP/chain.ktr" >"$TMP/chain.json" 2>&1
check json_frames t_eq "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("type") == "STACK" and r["frames"] and r["frames"][0].get("function") == "raw_openat":
        f = r["frames"]
        print(f[0]["line"], f[1]["function"], f[1]["inlined"][0]["function"], f[1]["inlined"][0]["line"],
              f[2]["function"], len(f[0]["build_id"]), "doubt" in f[0])
        break
' "$TMP/chain.json")" "$(line chain raw) open_config open_flags $(line chain inlined) main 40 False"

# --- C++ ------------------------------------------------------------------------------
ktr cxx -k -e trace=openat -f "$TMP/cxx.ktr" "$CXX" "$TARGET"
kd cxx "$TMP/cxx.ktr"
frames cxx 1 >"$TMP/cxx.frames"
check cxx_demangled t_grep \
	"^ +#0 +cfg::Loader::raw_open\(char const\*\)\+0x[0-9a-f]+ \($CXX\) at .*stack_cxx\.cc:$(line cxx raw)\$" \
	"$TMP/cxx.frames"
check cxx_caller t_grep "^ +#1 +cfg::Loader::load\(\)\+0x[0-9a-f]+ .* at .*stack_cxx\.cc:$(line cxx load)\$" \
	"$TMP/cxx.frames"

# --- stripped, with a debug file found by build id; then the program gone -------------
DEBUG_ROOT=/usr/lib/debug/.build-id
cp "$CHAIN" "$TMP/stripped_chain"
BID=$(readelf -n "$CHAIN" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
DEBUG_FILE=$DEBUG_ROOT/${BID:0:2}/${BID:2}.debug
if [ -n "$BID" ] && command -v objcopy >/dev/null && mkdir -p "$DEBUG_ROOT/${BID:0:2}" 2>/dev/null &&
	[ ! -e "$DEBUG_FILE" ]; then
	trap 'rm -f "$DEBUG_FILE"; e2e_cleanup' EXIT
	objcopy --only-keep-debug "$CHAIN" "$DEBUG_FILE"
	strip --strip-all "$TMP/stripped_chain"
	ktr strip -k -e trace=openat -f "$TMP/strip.ktr" "$TMP/stripped_chain" "$TARGET"
	cp "$TMP/strip.out" "$TMP/stripgone.out"
	kd strip "$TMP/strip.ktr"
	frames strip 1 >"$TMP/strip.frames"
	check stripped_named_by_debug_file t_grep \
		"^ +#1 +open_config\+0x[0-9a-f]+ \($TMP/stripped_chain\) at .*$SRC:$(line strip call), inlined open_flags" \
		"$TMP/strip.frames"
	rm -f "$TMP/stripped_chain"
	kd stripgone "$TMP/strip.ktr"
	frames stripgone 1 >"$TMP/stripgone.frames"
	check gone_named_by_debug_file t_grep \
		"^ +#0 +raw_openat\+0x[0-9a-f]+ \($DEBUG_FILE\) at .*$SRC:$(line strip raw)\$" "$TMP/stripgone.frames"
	rm -f "$DEBUG_FILE"
	trap 'e2e_cleanup' EXIT
else
	skip debug_file "no build id, objcopy, or $DEBUG_ROOT not writable (or the file is there)"
fi

# --- neither program nor debug file: the build id, no name --------------------------
cp "$CHAIN" "$TMP/gone_chain"
ktr gone -k -e trace=openat -f "$TMP/gone.ktr" "$TMP/gone_chain" "$TARGET"
rm -f "$TMP/gone_chain"
kd gone "$TMP/gone.ktr"
frames gone 1 >"$TMP/gone.frames"
check gone_build_id_only t_grep "^ +#0 +build id $BID \+0x[0-9a-f]+ \(no file with this build id\)\$" \
	"$TMP/gone.frames"
check gone_no_name t_nogrep 'raw_openat|open_config' "$TMP/gone.frames"

# --- a hostile OBJ: its path a FIFO nobody writes ---------------------------------------
mkfifo "$TMP/fifo"
python3 - "$TMP/gone.ktr" "$TMP/fifo.ktr" "$TMP/fifo" <<'EOF'
import struct, sys
src, dst, fifo = sys.argv[1], sys.argv[2], sys.argv[3].encode()
data, out, off = open(src, "rb").read(), bytearray(), 0
while off + 64 <= len(data):
    ln, typ = struct.unpack_from("<ih", data, off)
    hdr, pay = bytearray(data[off:off + 64]), data[off + 64:off + 64 + ln]
    if typ == 21 and b"gone_chain" in pay:
        pay = pay[:24 + 32 * pay[21]] + fifo + b"\0"
        struct.pack_into("<i", hdr, 0, len(pay))
    out += hdr + pay
    off += 64 + ln
open(dst, "wb").write(out)
EOF
kd fifo "$TMP/fifo.ktr"
check fifo_kdump_ends t_eq "$KDRC" 0
check fifo_not_named t_grep "^ +#0 +build id $BID " "$TMP/fifo.kd"

e2e_done
