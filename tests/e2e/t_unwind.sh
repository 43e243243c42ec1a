#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Whole user stacks without frame pointers (ktraceb -k, issue 30): Debian's
# libc, ld.so and libstdc++ keep none, so kdump unwinds each call's stack
# copy by DWARF.  On real programs (tests/progs/stack_debian.c, built -O2 -g
# as Debian builds, a PIE, and again -O0 with frame pointers;
# stack_throw.cc):
#  - main -> load_settings -> open_config -> fopen (an openat) and
#    main -> probe_cache -> access (ENOENT): every frame, named, each of the
#    program's at its file:line, as strace -k names them (same objects,
#    same addresses, frame for frame); in a second thread too; in a forked
#    child that does not exec (its parent's mappings)
#  - the PIE's frames at their offsets, nothing kernel-looking
#  - C++: a call made while an exception unwinds, names demangled
#  - a stripped program, named from its debug file found by build id
#  - a program gone before kdump runs: the trace alone unwinds it; with
#    its object nowhere, the unwind says where and why it ends
#  - a flight recorder's dump: the objects and mappings in it, the copies
#    cut to what its records hold
#  - -K: a copy too short for the stack says where it ends; -K 0 is the
#    kernel's walk, cut at its first frame that is none
#  - a ring half full sheds the copies (and so does a trace's budget):
#    every call keeps a stack record
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
SD=$PROGS/stack_debian
SDFP=$PROGS/stack_debian_fp
ST=$PROGS/stack_throw
for p in "$SD" "$SDFP" "$ST"; do
	if [ ! -x "$p" ]; then
		fail build "$p not built (make O=$O test)"
		exit 1
	fi
done
TARGET=$TMP/settings.conf
echo settings >"$TARGET"
DEBUG_ROOT=/usr/lib/debug/.build-id

# line P ROLE: the line the program printed as "LINE ROLE N"
line()
{
	awk -v r="$2" '$1 == "LINE" && $2 == r { print $3; exit }' "$TMP/$1.out"
}

# stack JSON SYSCALL PATH: the frames of the stack of the SYSCALL whose path
# argument was PATH, one line each: "function|object's name|address|file:line",
# then "STOP reason" if the unwind ends early
stack()
{
	python3 - "$@" <<'EOF'
import json, os, sys
src, call, path = sys.argv[1], sys.argv[2], sys.argv[3]
last = {}
for l in open(src):
    r = json.loads(l)
    if r.get("type") == "CALL":
        last[r["tid"]] = [r.get("syscall"), None]
    elif r.get("type") == "STACK" and r["tid"] in last:
        last[r["tid"]][1] = r
    elif r.get("type") == "NAMI" and r.get("path") == path and last.get(r["tid"], [None])[0] == call:
        s = last[r["tid"]][1]
        for f in s["frames"]:
            where = "%s:%s" % (os.path.basename(f["file"]), f["line"]) if "file" in f else ""
            print("%s|%s|%#x|%s" % (f.get("function", "?"), os.path.basename(f.get("object", "?")),
                                    f.get("address", f.get("ip", 0)), where))
        if "stop" in s:
            print("STOP " + s["stop"])
        break
EOF
}

# strace_stack STRACE_OUT SYSCALL PATH: strace -k's frames of that call, as
# "object's name|address"
strace_stack()
{
	awk -v call="$2" -v path="\"$3\"" '
	index($0, call "(") && index($0, path) { on = 1; next }
	on && /^ > / {
		obj = $2; sub(/\(.*/, "", obj); n = split(obj, p, "/")
		addr = $NF; gsub(/[][]/, "", addr)
		print p[n] "|" addr; next
	}
	on { exit }' "$1"
}

# ours STACKFILE: our frames as strace names them: "object's name|address"
ours()
{
	grep -v '^STOP' "$1" | awk -F'|' '{ print $2 "|" $3 }'
}

# chain P PROG MODE: trace PROG MODE TARGET with -k into P.ktr, its JSON into
# P.json, its openat and access stacks into P.open, P.access
chain()
{
	ktr "$1" -k -e trace=openat,access -f "$TMP/$1.ktr" "$2" "$3" "$TARGET"
	kd "$1" "$TMP/$1.ktr"
	"$KDUMP" -J -f "$TMP/$1.ktr" >"$TMP/$1.json" 2>/dev/null
	stack "$TMP/$1.json" openat "$TARGET" >"$TMP/$1.open"
	stack "$TMP/$1.json" access "$TARGET.cache-missing" >"$TMP/$1.access"
}

# names FILE: the function names of a stack file, space-separated
names()
{
	grep -v '^STOP' "$1" | cut -d'|' -f1 | tr '\n' ' ' | sed 's/ $//'
}

# the frames every build of the chain must show, as Debian's libc exports them
# (fopen's static inner function is named from libc6-dbg when installed)
OPEN_RX='^__open64 _IO_file_open _IO_file_fopen [^ ]+ open_config load_settings worker( main)? '
OPEN_RX+='[^ ]+ __libc_start_main _start$'
OPEN_THREAD_RX='^__open64 _IO_file_open _IO_file_fopen [^ ]+ open_config load_settings worker '
OPEN_THREAD_RX+='start_thread (__clone3|clone3|clone)$'
ACCESS_RX='^access probe_cache worker( main)? [^ ]+ __libc_start_main _start$'

# check_chain P PROG: the two stacks of a main-thread run, whole and at the right lines
check_chain()
{
	local p=$1 prog=$2 b
	b=$(basename "$prog")
	check "${p}_runs" t_krc 0 "$p"
	check "${p}_kdump_ok" t_kdump_ok "$p"
	check "${p}_open_whole" t_match "$(names "$TMP/$p.open")" "$OPEN_RX"
	check "${p}_access_whole" t_match "$(names "$TMP/$p.access")" "$ACCESS_RX"
	check "${p}_no_stop" t_nogrep '^STOP' "$TMP/$p.open"
	check "${p}_open_config_line" t_grep "^open_config\|$b\|0x[0-9a-f]+\|stack_debian\.c:$(line "$p" open_config)\$" \
		"$TMP/$p.open"
	check "${p}_load_settings_line" t_grep \
		"^load_settings\|$b\|0x[0-9a-f]+\|stack_debian\.c:$(line "$p" load_settings)\$" "$TMP/$p.open"
	check "${p}_probe_cache_line" t_grep \
		"^probe_cache\|$b\|0x[0-9a-f]+\|stack_debian\.c:$(line "$p" probe_cache)\$" "$TMP/$p.access"
	check "${p}_libc_frames" t_grep '^__open64\|libc\.so\.6\|' "$TMP/$p.open"
	check "${p}_text_has_no_doubt" t_nogrep '\[(not|no |the walk)' "$TMP/$p.kd"
}

# check_strace P PROG MODE: strace -k's frames of the same calls, the same here
check_strace()
{
	local p=$1
	if ! command -v strace >/dev/null || ! strace -k -e trace=none true >/dev/null 2>&1; then
		skip "${p}_as_strace" "no strace with -k"
		return
	fi
	strace -f -k -e trace=openat,access -o "$TMP/$p.strace" "$2" "$3" "$TARGET" >/dev/null 2>&1
	strace_stack "$TMP/$p.strace" openat "$TARGET" >"$TMP/$p.sopen"
	strace_stack "$TMP/$p.strace" access "$TARGET.cache-missing" >"$TMP/$p.saccess"
	check "${p}_strace_open_frames" t_num "$(wc -l <"$TMP/$p.sopen")" -ge 8
	check "${p}_open_as_strace" t_eq "$(ours "$TMP/$p.open")" "$(cat "$TMP/$p.sopen")"
	check "${p}_access_as_strace" t_eq "$(ours "$TMP/$p.access")" "$(cat "$TMP/$p.saccess")"
}

# --- Debian's way: -O2 -g, a PIE without frame pointers -------------------------------
check pie t_match "$(file -L "$SD" 2>/dev/null || echo pie)" 'pie|shared object'
chain o2 "$SD" main
check_chain o2 "$SD"
check_strace o2 "$SD" main
# a PIE's frames at their offsets in the file: no kernel-looking address
check o2_pie_offsets t_nogrep '\|stack_debian\|0x[0-9a-f]{7,}\|' "$TMP/o2.open"
check o2_no_kernel_looking t_nogrep '0xffff' "$TMP/o2.kd"
check o2_one_stack_per_call t_eq "$(qn "$TMP/o2.norm" '$4 == "STACK"')" \
	"$(qn "$TMP/o2.norm" '$4 == "CALL"')"
check o2_json_unwind t_eq "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("type") == "STACK":
        print(r["unwind"], r["stack_bytes"] > 0, "build_id" in r["frames"][0]); break
' "$TMP/o2.json")" "dwarf True True"

# --- with frame pointers (-O0): the same stacks ------------------------------------------
chain fp "$SDFP" main
check_chain fp "$SDFP"
check_strace fp "$SDFP" main

# --- in a second thread: its stack in a mapping of its own ------------------------------
chain thr "$SD" thread
check thr_runs t_krc 0 thr
check thr_open_whole t_match "$(names "$TMP/thr.open")" "$OPEN_THREAD_RX"
check thr_worker_line t_grep "^worker\|stack_debian\|0x[0-9a-f]+\|stack_debian\.c:$(line thr worker_load)\$" \
	"$TMP/thr.open"
TID=$(awk '$1 == "tid" { print $2 }' "$TMP/thr.out")
check thr_other_tid t_grep "^ *[0-9]+:${TID:-none} +stack_debian +STACK " "$TMP/thr.kd"
check_strace thr "$SD" thread

# --- a flight recorder (-R): its objects and mappings in the dump, the copies cut to fit ---
ktr flight -R 4m,exit -k -e trace=openat -f "$TMP/flight.ktr" "$SD" thread "$TARGET.missing"
"$KDUMP" -J -f "$TMP/flight.ktr" >"$TMP/flight.json" 2>/dev/null
stack "$TMP/flight.json" openat "$TARGET.missing" >"$TMP/flight.open"
check flight_dumped t_krc 1 flight
check flight_whole t_match "$(names "$TMP/flight.open")" "$OPEN_THREAD_RX"

# --- a child that does not exec: unwound with its parent's mappings ----------------------
ktr fork -i -k -e trace=openat -f "$TMP/fork.ktr" python3 -c "import os
pid = os.fork()
if pid == 0:
    open('$TARGET')
    os._exit(0)
os.waitpid(pid, 0)"
"$KDUMP" -J -f "$TMP/fork.ktr" >"$TMP/fork.json" 2>/dev/null
stack "$TMP/fork.json" openat "$TARGET" >"$TMP/fork.open"
check fork_runs t_krc 0 fork
check fork_child_whole t_grep '^_start\|' "$TMP/fork.open"
check fork_child_no_stop t_nogrep '^STOP' "$TMP/fork.open"

# --- C++: a call made while an exception unwinds (the landing pad's) --------------------
ktr cxx -k -e trace=openat -f "$TMP/cxx.ktr" "$ST" "$TARGET"
kd cxx "$TMP/cxx.ktr"
"$KDUMP" -J -f "$TMP/cxx.ktr" >"$TMP/cxx.json" 2>/dev/null
stack "$TMP/cxx.json" openat "$TARGET" >"$TMP/cxx.open"
check cxx_runs t_krc 0 cxx
check cxx_whole t_match "$(names "$TMP/cxx.open")" \
	'^__open64 cfg::Journal::flush\(char const\*\) cfg::Journal::~Journal\(\) cfg::Loader::load\(char const\*\)( \[clone \.cold\])? main [^ ]+ __libc_start_main _start$'
check cxx_flush_line t_grep "^cfg::Journal::flush\(char const\*\)\|stack_throw\|0x[0-9a-f]+\|stack_throw\.cc:$(line cxx flush)\$" \
	"$TMP/cxx.open"
check cxx_dtor_line t_grep "^cfg::Journal::~Journal\(\)\|stack_throw\|0x[0-9a-f]+\|stack_throw\.cc:$(line cxx dtor)\$" \
	"$TMP/cxx.open"
if command -v strace >/dev/null; then
	strace -k -e trace=openat -o "$TMP/cxx.strace" "$ST" "$TARGET" >/dev/null 2>&1
	check cxx_as_strace t_eq "$(ours "$TMP/cxx.open")" \
		"$(strace_stack "$TMP/cxx.strace" openat "$TARGET")"
fi

# --- stripped, its debug file found by build id; then gone --------------------------------
BID=$(readelf -n "$SD" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
DEBUG_FILE=$DEBUG_ROOT/${BID:0:2}/${BID:2}.debug
OBJECT_FILE=$DEBUG_ROOT/${BID:0:2}/${BID:2}
if [ -n "$BID" ] && command -v objcopy >/dev/null && mkdir -p "$DEBUG_ROOT/${BID:0:2}" 2>/dev/null &&
	[ ! -e "$DEBUG_FILE" ] && [ ! -e "$OBJECT_FILE" ]; then
	trap 'rm -f "$DEBUG_FILE" "$OBJECT_FILE"; e2e_cleanup' EXIT
	mkdir -p "$TMP/strip" "$TMP/gone"
	cp "$SD" "$TMP/strip/stack_debian"
	objcopy --only-keep-debug "$SD" "$DEBUG_FILE"
	strip --strip-all "$TMP/strip/stack_debian"
	chain strip "$TMP/strip/stack_debian" main
	check strip_whole t_match "$(names "$TMP/strip.open")" "$OPEN_RX"
	check strip_named_by_debug_file t_grep \
		"^open_config\|stack_debian\|0x[0-9a-f]+\|stack_debian\.c:$(line strip open_config)\$" "$TMP/strip.open"
	rm -f "$DEBUG_FILE"

	# gone before kdump runs: the stack bytes and registers are in the trace
	cp "$SD" "$TMP/gone/stack_debian"
	chain gone "$TMP/gone/stack_debian" main
	rm -f "$TMP/gone/stack_debian"
	kd gone "$TMP/gone.ktr"
	"$KDUMP" -J -f "$TMP/gone.ktr" >"$TMP/gone.json" 2>/dev/null
	stack "$TMP/gone.json" openat "$TARGET" >"$TMP/gone.open"
	# nowhere on this machine: libc's frames, the program's first one by build id, and why it ends
	check gone_libc_frames t_match "$(names "$TMP/gone.open")" '^__open64 _IO_file_open _IO_file_fopen [^ ]+ \?$'
	check gone_ends_said t_grep '^STOP the object of frame #4 is not on this machine' "$TMP/gone.open"
	check gone_text_build_id t_grep "^ +#4 +build id $BID \+0x[0-9a-f]+ \(no file with this build id\)\$" \
		"$TMP/gone.kd"
	check gone_text_ends t_grep '^ +\[the unwind ends here: the object of frame #4 is not on this machine' \
		"$TMP/gone.kd"
	# its object found by build id (/usr/lib/debug/.build-id/xx/rest): the whole stack again
	cp "$SD" "$OBJECT_FILE"
	"$KDUMP" -J -f "$TMP/gone.ktr" >"$TMP/gone2.json" 2>/dev/null
	stack "$TMP/gone2.json" openat "$TARGET" >"$TMP/gone2.open"
	check gone_unwound_by_build_id t_match "$(names "$TMP/gone2.open")" "$OPEN_RX"
	rm -f "$OBJECT_FILE"
	trap 'e2e_cleanup' EXIT
else
	skip debug_file "no build id, objcopy, or $DEBUG_ROOT not writable (or its files are there)"
fi

# --- -K: a copy too short says where it ends; -K 0 is the kernel's walk --------------------
ktr short -k -K 1k -e trace=openat -f "$TMP/short.ktr" python3 -c "open('$TARGET')"
"$KDUMP" -J -f "$TMP/short.ktr" >"$TMP/short.json" 2>/dev/null
stack "$TMP/short.json" openat "$TARGET" >"$TMP/short.open"
check short_runs t_krc 0 short
check short_first_frame t_grep '^__open64\|libc\.so\.6\|' "$TMP/short.open"
check short_end_said t_grep \
	'^STOP the stack copy ends at 0x[0-9a-f]+, 1024 bytes above the stack pointer \(ktraceb -K copies more\)$' \
	"$TMP/short.open"
ktr long -k -e trace=openat -f "$TMP/long.ktr" python3 -c "open('$TARGET')"
"$KDUMP" -J -f "$TMP/long.ktr" >"$TMP/long.json" 2>/dev/null
stack "$TMP/long.json" openat "$TARGET" >"$TMP/long.open"
check long_whole t_grep '^_start\|' "$TMP/long.open"
check long_longer t_num "$(wc -l <"$TMP/long.open")" -gt "$(wc -l <"$TMP/short.open")"

chain walk "$SD" main
ktr walk -k -K 0 -e trace=openat,access -f "$TMP/walk.ktr" "$SD" main "$TARGET"
kd walk "$TMP/walk.ktr"
"$KDUMP" -J -f "$TMP/walk.ktr" >"$TMP/walk.json" 2>/dev/null
stack "$TMP/walk.json" openat "$TARGET" >"$TMP/walk.open"
check walk_frame0 t_grep '^__open64\|libc\.so\.6\|' "$TMP/walk.open"
check walk_no_kernel_looking t_nogrep '0xffff' "$TMP/walk.kd"
check walk_no_made_up_frame t_nogrep '\[(not code|no call|no object)' "$TMP/walk.kd"
check walk_said_as_walk t_eq "$(python3 -c '
import json, sys
print(sorted({json.loads(l).get("unwind") for l in open(sys.argv[1]) if "\"STACK\"" in l}))
' "$TMP/walk.json")" "['frame pointers']"

# --- stacks a hostile trace made up: kdump ends, says what does not fit ----------------
python3 - "$TMP/o2.ktr" "$TMP/forged.ktr" <<'EOF'
import random, struct, sys
random.seed(30)
data, out, off = open(sys.argv[1], "rb").read(), bytearray(), 0
while off + 64 <= len(data):
    ln, typ = struct.unpack_from("<ih", data, off)
    hdr, pay = bytearray(data[off:off + 64]), bytearray(data[off + 64:off + 64 + ln])
    if typ == 31 and len(pay) > 48:
        for _ in range(3):  # the registers, the pc, the stack: anything
            i = random.randrange(16, len(pay) - 8)
            pay[i:i + 8] = random.getrandbits(64).to_bytes(8, "little")
        out += hdr + pay
        bad = bytearray(pay)
        struct.pack_into("<H", bad, 10, 255)  # too many registers
        out += hdr + bad
        bad = bytearray(pay)
        struct.pack_into("<I", bad, 12, 1 << 30)  # more stack than the record holds
        out += hdr + bad
    elif typ == 20 and len(pay) == 48:
        out += hdr + pay
        struct.pack_into("<QQ", pay, 0, random.getrandbits(64), random.getrandbits(64))
        out += hdr + pay
        fork = bytearray(pay)
        struct.pack_into("<Q", fork, 0, struct.unpack_from("<i", hdr, 8)[0])
        fork[45] = 2  # its own parent
        out += hdr + fork
    else:
        out += hdr + pay
    off += 64 + ln
open(sys.argv[2], "wb").write(out)
EOF
timeout -k 5 60 "$KDUMP" -f "$TMP/forged.ktr" >"$TMP/forged.kd" 2>"$TMP/forged.kderr"
KDRC=$?
check forged_kdump_ends t_num "$KDRC" -le 1 "no crash, no hang"
check forged_invalid_said t_grep 'STACK +invalid record' "$TMP/forged.kd"
check forged_stacks_read t_grep 'STACK +[0-9]+ frames?' "$TMP/forged.kd"

# --- a ring half full: the copies are shed, every call keeps its stack record -------------
# The daemon is stopped (SIGSTOP) while the calls are made, so that the
# 64 KiB ring fills whatever the machine's speed: a quick drain on an idle
# machine kept it from half full.  The calls wait for "go" until the command
# has started (its objects told: -k holds it at its exec and mappings).
daemon_gone 10
mkfifo "$TMP/shed.go"
timeout -k 5 "$KTR_TIMEOUT" "$KTRACEB" -b 65536 -k -K 16k -e trace=getppid -f "$TMP/shed.ktr" \
	"$PROGS/getppid_loop" 3000 "$TMP/shed.pid" "$TMP/shed.go" >"$TMP/shed.out" 2>"$TMP/shed.err" </dev/null &
SHED=$!
wait_line "$TMP/shed.out" '^pid [0-9]+$' 30
SHED_D=$(daemon_pid)
[ -n "$SHED_D" ] && tkill -STOP "$SHED_D"
timeout 10 sh -c 'echo go >"$1"' sh "$TMP/shed.go"
wait_line "$TMP/shed.out" '^calls ' 30
[ -n "$SHED_D" ] && tkill -CONT "$SHED_D"
wait "$SHED"
KRC=$?
kd shed "$TMP/shed.ktr"
if grep -q -- '-b ignored' "$TMP/shed.err"; then
	skip shed "a ktraceb daemon with another ring size was running"
else
	check shed_runs t_krc 0 shed
	check shed_kdump_ok t_kdump_ok shed
	check shed_said t_grep 'STACK +[0-9]+ frames? \(the kernel.s frame-pointer walk: the stack copy was shed' \
		"$TMP/shed.kd"
	read -r nrec nlost _ <<<"$(ktr_summary shed)"
	# a stack record the full ring had no room for is counted lost, as any record
	check shed_stack_per_call t_num $(($(qn "$TMP/shed.norm" '$4 == "STACK"') + ${nlost:-0})) \
		-ge "$(qn "$TMP/shed.norm" '$4 == "CALL"')"
	check shed_calls_kept_or_lost t_num $(($(qn "$TMP/shed.norm" '$4 == "CALL" && $5 ~ /^getppid/') + ${nlost:-0})) \
		-ge 3000
fi
daemon_gone 10

e2e_done
