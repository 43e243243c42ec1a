#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# GIO: tests/progs/fac_io moves known text and binary data through a pipe, a
# regular file and a socket pair (read/write, pread64/pwrite64, readv/writev,
# sendto/recvfrom, sendmsg/recvmsg) and reports every transfer; each must be
# one GIO record with the fd, the direction, the byte count and the very bytes
# the program saw (kdump -m 0, as text or as a hexdump), between the CALL and
# the RET of its syscall.  Then -s 16 clips the data but not the RET, kdump -m
# clips what is shown, kdump -s hides it, and -t without i has no GIO.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fac.sh"
need_tracer

mkdir -p "$TMP/w"

# KEY syscall direction, for every line of fac_io's report
KEYS="pipe_write:write:wrote pipe_read:read:read writev:writev:wrote readv:readv:read
file_write:write:wrote file_pread:pread64:read file_read:read:read
file_pwrite_text:pwrite64:wrote file_write100:write:wrote
sock_send:sendto:wrote sock_recv:recvfrom:read sock_write:write:wrote sock_read:read:read
sendmsg:sendmsg:wrote recvmsg:recvmsg:read"

# run P [ktraceb options]: trace fac_io, kdump -m 0, GIO records in $TMP/P.gio
run()
{
	local p=$1
	shift
	rm -f "$TMP/w"/*
	ktr "$p" "$@" -f "$TMP/$p.ktr" "$PROGS/fac_io" "$TMP/w"
	kd "$p" "$TMP/$p.ktr" -m 0
	gio "$TMP/$p.kd" >"$TMP/$p.gio"
	PID=$(awk '$1 == "pid" { print $2 }' "$TMP/$p.out")
	PID=${PID:-none}
}

# all_transfers P: every transfer of the report has its GIO record
all_transfers()
{
	local p=$1 e key call dir fd ret hex
	for e in $KEYS; do
		IFS=: read -r key call dir <<<"$e"
		fd=$(progkv "$TMP/$p.out" "$key" fd)
		ret=$(progkv "$TMP/$p.out" "$key" ret)
		hex=$(progkv "$TMP/$p.out" "$key" hex)
		if [ -z "$ret" ] || [ "$ret" -le 0 ]; then
			fail "${p}_${key}_ran" "fac_io reported '$key' ret '${ret}'"
			continue
		fi
		check "${p}_${key}" t_gio "$TMP/$p.gio" "$PID" "$call" "$fd" "$dir" "$ret" "$hex" \
			"$(retrx "$ret")"
	done
}

# --- default facilities -------------------------------------------------------
run d
check d_exit_0 t_krc 0 d
check d_kdump_clean t_kdump_ok d
all_transfers d

# the data is printed as text when it is text: the pipe's line is there whole
text=$(progkv "$TMP/d.out" pipe_write hex | xxd -r -p)
check d_text_shown_quoted t_grepx "       \"$text\"" "$TMP/d.kd"
# ... and binary data as a hexdump: the file's first 16 bytes, in groups of two
h=$(progkv "$TMP/d.out" file_write hex)
row=$(printf '%s' "${h:0:32}" | sed -E 's/(....)/\1 /g; s/ $//')
check d_binary_hexdump_row t_grep "^       0x0000 $row  \|" "$TMP/d.kd"
# the file's text with newlines, tab, quotes, backslash and CR, folded over lines
check d_text_escapes t_grep '^		indented \\"quoted\\" back\\\\slash\\r$' "$TMP/d.kd"
check d_text_fold t_grep '^	.*[^\\]\\$' "$TMP/d.kd"
# a GIO record sits between the CALL and the RET of its syscall, in one thread
check d_gio_inside_call t_eq "$(q "$TMP/d.norm" '$1 == pid && $4 ~ /^(CALL|RET|GIO)$/' pid="$PID" |
	awk -F'\t' '$4 == "GIO" && prev != "CALL" { bad++ } { prev = $4 } END { print bad + 0 }')" 0
# a GIO has its return's time: both are made at the return (kdump -T, the
# thread's next record is the RET, at the same nanosecond; the times compared
# as text, since awk's numbers keep only some 16 digits)
kd dt "$TMP/d.ktr" -T
check d_gio_time_is_ret_time t_eq "$(awk -v p="$PID" '$1 ~ /^[0-9]+:[0-9]+$/ && split($1, id, ":") &&
	id[1] == p { if (gio != "") { n++; if ($4 == "RET" && $3 "" == gio) same++ }
	gio = ($4 == "GIO") ? $3 "" : "" } END { print n + 0, same + 0 }' "$TMP/dt.kd" |
	awk '{ print ($1 >= 15 && $1 == $2) ? "ok" : $0 }')" ok
# the report's own write to stdout: fd 1, as many bytes as the report has
check d_stdout_report t_eq "$(awk -v p="$PID" '$1 == p && $4 == 1 && $5 == "wrote" { print $6 }' \
	"$TMP/d.gio")" "$(wc -c <"$TMP/d.out" | tr -d ' ')"
check d_stdout_report_data t_same "$(awk -v p="$PID" '$1 == p && $4 == 1 && $5 == "wrote" { print $7 }' \
	"$TMP/d.gio")" "$(xxd -p "$TMP/d.out" | tr -d '\n')"

# --- -t ci: the same records --------------------------------------------------
run ci -t ci
check ci_exit_0 t_krc 0 ci
all_transfers ci
check ci_no_nami t_eq "$(qn "$TMP/ci.norm" '$4 == "NAMI"')" 0

# --- -t c: no GIO at all ------------------------------------------------------
run c -t c
check c_exit_0 t_krc 0 c
check c_no_gio t_eq "$(qn "$TMP/c.norm" '$4 == "GIO"')" 0
check c_has_writes t_num "$(qn "$TMP/c.norm" '$4 == "RET" && $5 ~ /^write /')" -ge 4

# --- -t i: GIO without CALL/RET -----------------------------------------------
run i -t i
check i_exit_0 t_krc 0 i
check i_no_calls t_eq "$(qn "$TMP/i.norm" '$4 == "CALL" || $4 == "RET"')" 0
h=$(progkv "$TMP/i.out" file_write hex)
check i_file_write_data t_eq "$(awk -v p="$PID" -v h="$h" '$1 == p && $5 == "wrote" && $7 == h' \
	"$TMP/i.gio" | wc -l | tr -d ' ')" 1

# --- -s 16: 16 bytes of data, the whole count in RET --------------------------
run s16 -s 16
check s16_exit_0 t_krc 0 s16
fd=$(progkv "$TMP/s16.out" file_write100 fd)
h=$(progkv "$TMP/s16.out" file_write100 hex)
check s16_write100_ran t_eq "$(progkv "$TMP/s16.out" file_write100 ret)" 100
check s16_write100_clipped t_gio "$TMP/s16.gio" "$PID" write "${fd:-x}" wrote 16 "${h:0:32}" \
	"$(retrx 100)"
check s16_no_gio_over_16 t_eq "$(awk '$6 > 16' "$TMP/s16.gio" | wc -l | tr -d ' ')" 0
check s16_call_len_100 t_grep $'\tCALL\twrite\\(('"${fd:-x}|$(hexof "${fd:-0}")"'),0x[0-9a-f]+,(100|0x64)\)$' \
	"$TMP/s16.norm"
h=$(progkv "$TMP/s16.out" pipe_read hex)
check s16_read_clipped t_gio "$TMP/s16.gio" "$PID" read "$(progkv "$TMP/s16.out" pipe_read fd)" read 16 \
	"${h:0:32}" "$(retrx "$(progkv "$TMP/s16.out" pipe_read ret)")"

# --- kdump -m and -s on the default trace -------------------------------------
kd m "$TMP/d.ktr"
gio "$TMP/m.kd" >"$TMP/m.gio"
PID=$(awk '$1 == "pid" { print $2 }' "$TMP/d.out")
h=$(progkv "$TMP/d.out" file_write100 hex)
# -m 64 (the default) shows 64 of the 100 bytes but says 100 in the header
check kdump_m_default_64 t_eq "$(awk -v p="$PID" '$1 == p && $3 == "write" && $6 == 100 { print $7 }' \
	"$TMP/m.gio")" "${h:0:128}"
kd m5 "$TMP/d.ktr" -m 5
gio "$TMP/m5.kd" >"$TMP/m5.gio"
check kdump_m5 t_eq "$(awk -v p="$PID" '$1 == p && $3 == "write" && $6 == 100 { print $7 }' \
	"$TMP/m5.gio")" "${h:0:10}"
kd s "$TMP/d.ktr" -s
check kdump_s_headers_kept t_eq "$(qn "$TMP/s.norm" '$4 == "GIO"')" "$(qn "$TMP/d.norm" '$4 == "GIO"')"
check kdump_s_no_data t_eq "$(qn "$TMP/s.norm" '$4 == "-"')" 0

e2e_done
