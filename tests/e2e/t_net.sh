#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Sockets: tests/progs/fac_net (traced with -i) exchanges UDP datagrams and a
# TCP stream over 127.0.0.1 and ::1, the IPv6 UDP server in a child process
# and the IPv6 TCP server in a second thread.  Every bind, connect, accept,
# sendto, recvfrom, getsockname and getpeername must have a STRU struct
# sockaddr with the address and port the program printed, in the right
# process and thread, and every payload must be in a GIO record.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fac.sh"
need_tracer

ktr n -i -f "$TMP/n.ktr" "$PROGS/fac_net"
kd n "$TMP/n.ktr" -m 0
N=$TMP/n.norm
OUT=$TMP/n.out
gio "$TMP/n.kd" >"$TMP/n.gio"
PID=$(awk '$1 == "pid" { print $2 }' "$OUT")
PID=${PID:-none}
CHILD=$(awk '$1 == "child" { print $2 }' "$OUT")
check exit_0 t_krc 0 n
check kdump_clean t_kdump_ok n
check no_loss t_grep ', 0 lost$' "$TMP/n.err"
check child_exit_0 t_eq "$(awk '$1 == "child" { print $4 }' "$OUT")" 0

# the sockaddr STRU records: "pid tid call fd body" (fd: the call's first argument)
q "$N" '$4 == "CALL" || $4 == "STRU"' | awk -F'\t' '
	$4 == "CALL" { c = $5; fd = c; sub(/\(.*/, "", c); sub(/^[^(]*\(/, "", fd); sub(/,.*/, "", fd)
		call[$2] = c; cfd[$2] = fd }
	$4 == "STRU" && $5 ~ /^struct sockaddr / { print $1 "\t" $2 "\t" call[$2] "\t" cfd[$2] "\t" $5 }' \
	>"$TMP/n.sa"

# sockaddr_want ADDR PORT: the STRU body kdump should print
sockaddr_want()
{
	case $1 in
	*:*) echo "struct sockaddr { AF_INET6 [$1]:$2 }" ;;
	*) echo "struct sockaddr { AF_INET $1:$2 }" ;;
	esac
}

naddr=0
while read -r key _ pid _ tid _ fd _ addr _ port _ ret; do
	case $key in
	*_bind) call=bind ;;
	getsockname) call=getsockname ;;
	*_sendto) call=sendto ;;
	*_recvfrom) call=recvfrom ;;
	*_connect) call=connect ;;
	*_accept) call=accept ;;
	*_getpeername) call=getpeername ;;
	*) continue ;;
	esac
	naddr=$((naddr + 1))
	want=$(sockaddr_want "$addr" "$port")
	check "sockaddr_${naddr}_${key}_${call}" t_num "$(awk -F'\t' -v p="$pid" -v t="$tid" -v c="$call" \
		-v fd="$fd" -v w="$want" '$1 == p && $2 == t && $3 == c && $4 == fd && $5 == w' "$TMP/n.sa" |
		wc -l | tr -d ' ')" -ge 1 "$pid:$tid $call($fd) $want"
	if [ "$call" != getsockname ] && [ "$call" != getpeername ]; then
		check "ret_${naddr}_${key}" t_eq "$(q "$N" '$1 == p && $2 == t && $4 == "RET" && $5 ~ r' \
			p="$pid" t="$tid" r="^$call $(retrx "$ret")\$" | wc -l | tr -d ' ' | sed 's/^[1-9][0-9]*$/ok/')" ok \
			"RET $call $ret in $pid:$tid"
	fi
done < <(grep -E '^[a-z0-9_]+ pid [0-9]+ tid [0-9]+ fd [0-9]+ addr ' "$OUT")
check sockaddr_reports t_num "$naddr" -ge 22
check sockaddr_stru_count t_eq "$(wc -l <"$TMP/n.sa" | tr -d ' ')" "$naddr"
# the ports: the servers' come from getsockname, the clients' are ephemeral
check tcp4_port_nonzero t_match "$(awk '$1 == "tcp4_connect" { print $11 }' "$OUT")" '^[1-9][0-9]*$'
check udp6_child_pid t_eq "$(awk '$1 == "udp6_srv_recvfrom" { print $3; exit }' "$OUT")" "${CHILD:-none}"
check tcp6_server_thread t_match "$(awk '$1 == "tcp6_accept" { print $5 }' "$OUT")" '^[0-9]+$'
check tcp6_server_other_tid t_num "$(awk '$1 == "tcp6_accept" { print $5 }' "$OUT")" -ne "$PID"

# payloads
ndata=0
while read -r key _ pid _ tid _ fd _ ret _ hex; do
	case $key in
	*_sendto | *_srv_send) call=sendto dir=wrote ;;
	*_recvfrom | *_cli_recv) call=recvfrom dir=read ;;
	*_cli_write) call=write dir=wrote ;;
	*_srv_read) call=read dir=read ;;
	*) continue ;;
	esac
	ndata=$((ndata + 1))
	check "gio_${key}" t_gio "$TMP/n.gio" "$pid" "$call" "$fd" "$dir" "$ret" "$hex" "$(retrx "$ret")"
	check "gio_${key}_tid" t_eq "$(awk -v p="$pid" -v c="$call" -v fd="$fd" -v h="$hex" \
		'$1 == p && $3 == c && $4 == fd && $7 == h { print $2 }' "$TMP/n.gio")" "$tid"
done < <(grep -E '^[a-z0-9_]+ pid [0-9]+ tid [0-9]+ fd [0-9]+ ret -?[0-9]+ hex ' "$OUT")
check data_reports t_eq "$ndata" 16

# the calls are decoded
check socket_inet6_dgram t_grep $'\tCALL\tsocket\\(AF_INET6,SOCK_DGRAM,' "$N"
check socket_inet_stream t_grep $'\tCALL\tsocket\\(AF_INET,SOCK_STREAM,' "$N"
check child_traced t_eq "$(q "$N" '$1 == c && $4 == "EXIT"' c="${CHILD:-none}" | cut -f5)" "exited 0"

e2e_done
