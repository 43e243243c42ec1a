#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# A live service traced as an operator would (issue 35): Debian's own
# python3 (/usr/bin/python3.11 carries USDT probes: python:function__entry
# and __return, python:line, gc, import, audit) serving HTTP on loopback.
#  1 ktraceb -p PID with the defaults (cnisu) records its system calls, arms
#    none of python's probes (each semaphore read from the process's memory
#    stays 0), writes no USER record, and says nothing of probes
#  2 -e usdt:python:function__entry -e usdt:python:line arm those two alone
#    (their semaphores up, the others down), say so in one line, record the
#    handler's entries, write what was asked into the file, and the
#    semaphores go down again once the trace is cleared.  (CPython 3.11
#    fires its function probes in Python-to-Python calls only while
#    python:line is armed too: function__entry alone records next to none.)
#  3 a glob (-e usdt:python:[fl]*) arms the probes it matches: every call of
#    a known function, entry and return, and its lines; no gc, audit or
#    import probe
#  4 two trace files, each with a process of the same program: each process
#    arms its own file's probes; a later request into a file must bring the
#    file's patterns
#  5 the ktraceb provider's probes (spans of <ktraceb/utrace.h>) are
#    recorded with the defaults
#  6 -e usdt:list; bad -e usdt: patterns: one line, exit 64
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
PY=/usr/bin/python3
if [ ! -x "$PY" ] || ! command -v readelf >/dev/null; then
	skip all "needs Debian's /usr/bin/python3 and readelf (scripts/install-deps.sh)"
	e2e_done
fi
PYBIN=$(readlink -f "$PY")
if ! readelf -n "$PYBIN" 2>/dev/null | grep -q 'Provider: python'; then
	skip all "$PYBIN has no USDT probes"
	e2e_done
fi
WWW=$TMP/www
mkdir -p "$WWW"
seq 1 200 >"$WWW/f.txt"

# --- python's semaphores, read from the process's memory (as root) ------------------
# py_sema NAME: the link-time address of python:NAME's semaphore in $PYBIN
py_sema()
{
	readelf -n "$PYBIN" | awk -v n="$1" '
		$1 == "Provider:" { p = $2 } $1 == "Name:" { nm = $2 }
		/Semaphore:/ && p == "python" && nm == n { print $NF; exit }'
}
# py_bias PID: where $PYBIN is loaded in PID against its link-time addresses
py_bias()
{
	local start vaddr
	start=$(awk -v f="$PYBIN" '$6 == f && $3 ~ /^0+$/ { split($1, a, "-"); print a[1]; exit }' \
		"/proc/$1/maps")
	vaddr=$(readelf -lW "$PYBIN" | awk '$1 == "LOAD" && $2 ~ /^0x0+$/ { print $3; exit }')
	echo $((0x$start - vaddr))
}
# sem PID NAME: python:NAME's semaphore in PID now (how many consumers armed it)
sem()
{
	local addr
	addr=$(($(py_sema "$2") + $(py_bias "$1")))
	dd if="/proc/$1/mem" bs=2 count=1 iflag=skip_bytes skip="$addr" 2>/dev/null |
		od -An -tu2 | tr -d ' '
}
# sems PID: "name=value" of every python probe with a semaphore
sems()
{
	local n
	for n in function__entry function__return line gc__start gc__done audit \
		import__find__load__start import__find__load__done; do
		printf '%s=%s ' "$n" "$(sem "$1" "$n")"
	done
}
ALL_DOWN="function__entry=0 function__return=0 line=0 gc__start=0 gc__done=0 audit=0 import__find__load__start=0 import__find__load__done=0 "

# --- the service and its client ---------------------------------------------------------
# server P: Debian's python3 -m http.server on a free loopback port: SRV, PORT
server()
{
	(cd "$WWW" && exec "$PY" -m http.server 0 --bind 127.0.0.1) >"$TMP/$1.pout" 2>&1 &
	SRV=$!
	disown "$SRV"
	E2E_PIDS="${E2E_PIDS:-} $SRV"
	wait_line "$TMP/$1.pout" '^Serving HTTP on .* port [0-9]+ ' 20
	PORT=$(sed -n 's/^Serving HTTP on .* port \([0-9]*\) .*/\1/p' "$TMP/$1.pout" | head -n 1)
}
# get PORT N: N GETs of /f.txt, untraced; prints how many were answered
get()
{
	"$PY" - "$1" "$2" <<'EOF'
import sys, urllib.request
ok = 0
for _ in range(int(sys.argv[2])):
    with urllib.request.urlopen("http://127.0.0.1:%s/f.txt" % sys.argv[1], timeout=20) as r:
        ok += r.status == 200 and len(r.read()) > 0
print(ok)
EOF
}
# sem_wait PID NAME VALUE SECONDS: until python:NAME's semaphore is VALUE
sem_wait()
{
	local i
	for ((i = 0; i < $4 * 10; i++)); do
		[ "$(sem "$1" "$2")" = "$3" ] && return 0
		sleep 0.1
	done
	echo "    python:$2 in pid $1 is $(sem "$1" "$2"), not $3, after $4 s" >&2
	return 1
}
# stop P PID: clear PID's trace, end it, wait for its file to be complete
stop()
{
	ktr "$1c" -c -p "$2"
	tkill "$2" 2>/dev/null
	wait_exit "$2" 20
	daemon_gone 20
}

# --- 1: the defaults ----------------------------------------------------------------------
server def
check def_server_up t_eq "$(get "$PORT" 5)" 5
ktr def -f "$TMP/def.ktr" -p "$SRV"
check def_exit_0 t_krc 0 def
check def_nothing_said t_lines 0 "$TMP/def.err"
check def_served t_eq "$(get "$PORT" 40)" 40
check def_semaphores_down t_eq "$(sems "$SRV")" "$ALL_DOWN"
DEF_SRV=$SRV
stop defc "$DEF_SRV"
kd def "$TMP/def.ktr"
check def_kdump_clean t_eq "$KDRC" 0
check def_accepts_recorded t_num "$(qn "$TMP/def.norm" '$4 == "CALL" && $5 ~ /^accept4?\(/')" -ge 40
check def_sends_recorded t_num "$(qn "$TMP/def.norm" '$4 == "CALL" && $5 ~ /^send(to)?\(/')" -ge 40
check def_no_user_records t_eq "$(qn "$TMP/def.norm" '$4 == "USER"')" 0
check def_no_usdt_info t_eq "$(qn "$TMP/def.norm" '$4 == "INFO" && $5 ~ /USDT/')" 0

# --- 2: one probe named ---------------------------------------------------------------------
server one
get "$PORT" 5 >/dev/null
ktr one -e usdt:python:function__entry -e usdt:python:line -f "$TMP/one.ktr" -p "$SRV"
check one_exit_0 t_krc 0 one
check one_said_once t_lines 1 "$TMP/one.err"
check one_said_which t_grep '^ktraceb: USDT: probes that fire at high rates armed where a program has them: python:function__entry python:line \(each hit is a record: expect it to run several times slower\)$' \
	"$TMP/one.err"
check one_armed sem_wait "$SRV" line 1 20
check one_served t_eq "$(get "$PORT" 30)" 30
ARMED=${ALL_DOWN/function__entry=0/function__entry=1}
check one_only_them t_eq "$(sems "$SRV")" "${ARMED/ line=0/ line=1}"
ktr onec -c -p "$SRV"
check one_down_after_clear sem_wait "$SRV" function__entry 0 30
check one_all_down_after_clear sem_wait "$SRV" line 0 30
tkill "$SRV" 2>/dev/null
wait_exit "$SRV" 20
daemon_gone 20
kd one "$TMP/one.ktr"
check one_kdump_clean t_eq "$KDRC" 0
q "$TMP/one.norm" '$4 == "USER"' | cut -f5 >"$TMP/one.user"
check one_only_what_was_named t_eq "$(sed -E 's/^[<>] +//; s/\(.*//' "$TMP/one.user" | sort -u |
	tr '\n' ' ')" "python:function__entry python:line "
# each request's handler entered (http.server's SimpleHTTPRequestHandler.do_GET)
check one_each_request t_eq "$(grep -c 'python:function__entry(".*", "do_GET", [0-9]*)$' \
	"$TMP/one.user")" 30
check one_info_asked t_grep \
	$'\tINFO\tUSDT probes armed: ktraceb:\\* python:function__entry python:line$' "$TMP/one.norm"
check one_info_busy t_grep \
	$'\tINFO\tUSDT probes armed that fire at high rates: python:function__entry python:line$' \
	"$TMP/one.norm"
check one_json_says_usdt t_eq "$("$KDUMP" -J -f "$TMP/one.ktr" |
	grep -c '"of":"usdt","selection":"python:function__entry python:line"')" 1
check one_calls_too t_num "$(qn "$TMP/one.norm" '$4 == "CALL" && $5 ~ /^accept4?\(/')" -ge 30

# --- 3: a glob, a command: every call of a known function, entry and return --------------
cat >"$TMP/calls.py" <<'EOF'
import os, sys
def step(i):
    return os.getppid() + i
print(sum(map(step, range(int(sys.argv[1])))) > 0)
EOF
ktr glob -e 'usdt:python:[fl]*' -f "$TMP/glob.ktr" "$PY" "$TMP/calls.py" 300
check glob_exit_0 t_krc 0 glob
check glob_said_three t_grep \
	'^ktraceb: USDT: .*: python:function__entry python:function__return python:line \(' \
	"$TMP/glob.err"
kd glob "$TMP/glob.ktr"
q "$TMP/glob.norm" '$4 == "USER"' | cut -f5 >"$TMP/glob.user"
check glob_entries t_eq "$(grep -c '^> *python:function__entry(".*calls.py", "step", 2)$' \
	"$TMP/glob.user")" 300
check glob_returns t_eq "$(grep -c '^< *python:function__return(".*calls.py", "step", 3) ' \
	"$TMP/glob.user")" 300
check glob_step_lines t_eq "$(grep -c '^python:line(".*calls.py", "step", 3)$' "$TMP/glob.user")" 300
check glob_no_other t_eq "$(grep -Ec 'python:(gc|audit|import)' "$TMP/glob.user")" 0
check glob_calls t_eq "$(qn "$TMP/glob.norm" '$4 == "CALL" && $5 == "getppid"')" 300

# --- 4: two files, one program ------------------------------------------------------------------
server twoa
A=$SRV
APORT=$PORT
server twob
B=$SRV
BPORT=$PORT
ktr twoa -e usdt:python:line -f "$TMP/twoa.ktr" -p "$A"
ktr twob -f "$TMP/twob.ktr" -p "$B"
check two_both_set t_eq "$KRC" 0
check two_a_armed sem_wait "$A" line 1 20
get "$APORT" 10 >/dev/null
get "$BPORT" 10 >/dev/null
check two_b_down t_eq "$(sems "$B")" "$ALL_DOWN"
# a later request into twoa.ktr brings other patterns: refused, in one line
ktr twomis -a -e usdt:python:function__entry -f "$TMP/twoa.ktr" -p "$B"
check two_mismatch_refused t_num "$KRC" -ne 0
check two_mismatch_said t_grep \
	"^ktraceb: .*twoa.ktr: traced with the USDT patterns 'python:line': give the same -e usdt: patterns\$" \
	"$TMP/twomis.err"
check two_mismatch_one_line t_lines 1 "$TMP/twomis.err"
check two_b_still_down t_eq "$(sems "$B")" "$ALL_DOWN"
# the same patterns join it: then B arms them too
ktr twosame -a -e usdt:python:line -f "$TMP/twoa.ktr" -p "$B"
check two_same_joins t_krc 0 twosame
check two_b_moved_armed sem_wait "$B" line 1 20
ktr twoc -c -p "$A"
ktr twoc2 -c -p "$B"
tkill "$A" "$B" 2>/dev/null
wait_exit "$A" 20
wait_exit "$B" 20
daemon_gone 20
kd twoa "$TMP/twoa.ktr"
kd twob "$TMP/twob.ktr"
check two_a_recorded t_num "$(qn "$TMP/twoa.norm" '$4 == "USER" && $1 == a' a="$A")" -gt 0
check two_b_none t_eq "$(qn "$TMP/twob.norm" '$4 == "USER"')" 0
check two_b_calls t_num "$(qn "$TMP/twob.norm" '$4 == "CALL"')" -gt 50

# --- 5: the ktraceb provider's probes, with the defaults -----------------------------------------
bg spans "$PROGS/uev_spans" 200 20
SPANS=$BGPID
wait_line "$TMP/spans.pout" 'app round n=3' 20
ktr spans -f "$TMP/spans.ktr" -p "$SPANS"
check spans_exit_0 t_krc 0 spans
wait_exit "$SPANS" 60
daemon_gone 20
kd spans "$TMP/spans.ktr"
check spans_recorded t_num "$(qn "$TMP/spans.norm" '$4 == "USER" && $5 ~ /^> +app round /')" -gt 10
check spans_utrace t_num "$(qn "$TMP/spans.norm" '$4 == "USER" && $5 ~ /^2048( |$)/')" -gt 10

# --- 6: -e usdt:list, bad patterns -------------------------------------------------------------
server list
ktr list -e usdt:list -p "$SRV"
check list_exit_0 t_krc 0 list
check list_line_busy_not_armed t_grep "^  python:line +1  high  $PYBIN\$" "$TMP/list.out"
check list_gc_not_busy t_grep "^  python:gc__start +1  +$PYBIN\$" "$TMP/list.out"
ktr list2 -e usdt:python:line -e usdt:list -p "$SRV"
check list_armed_marked t_grep "^\\+ python:line +1  high  $PYBIN\$" "$TMP/list2.out"
check list_others_not t_grep "^  python:function__entry +1  high  $PYBIN\$" "$TMP/list2.out"
check list_arms_nothing t_eq "$(sems "$SRV")" "$ALL_DOWN"
tkill "$SRV" 2>/dev/null
i=0
for bad in 'usdt:' 'usdt::x' 'usdt:a:b:c' 'usdt:py thon' 'usdt:x/y' \
	"usdt:$(printf 'p%.0s' $(seq 70))"; do
	i=$((i + 1))
	ktr "bad$i" -e "$bad" -p "$$"
	check "bad${i}_exit_64" t_krc 64 "bad$i"
	check "bad${i}_one_line" t_lines 1 "$TMP/bad$i.err"
	check "bad${i}_said" t_grep "^ktraceb: -e usdt:" "$TMP/bad$i.err"
done
ktr badc -e usdt:python:line -c -p "$$"
check bad_with_clear t_krc 64 badc
check bad_with_clear_said t_grep '^ktraceb: -e usdt: names probes to arm: not with -c' "$TMP/badc.err"
e2e_done
