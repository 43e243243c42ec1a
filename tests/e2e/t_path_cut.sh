#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Paths of PATH_MAX bytes and more (tests/progs/path_cut): each chdir's NAMI
# holds the path's first 4096 bytes and is marked cut, in the text ("..."
# after its quote, as strace shows it) and in -J ("cut": true), also for a
# path that runs into a page that cannot be read, which the kernel stops
# reading at 4096 bytes.
. "$(dirname "$0")/lib.sh"
need_tracer

ktr p -f "$TMP/p.ktr" "$PROGS/path_cut"
check runs t_krc 0 p
check program_saw_enametoolong t_eq "$(cat "$TMP/p.out" | tr '\n' ' ')" "chdir 36 chdir 36 "
kd p "$TMP/p.ktr"
check kdump_clean t_kdump_ok p
A=/$(printf 'a%.0s' $(seq 4095))
B=/$(printf 'b%.0s' $(seq 4095))
check whole_buffer_cut t_eq "$(q "$TMP/p.norm" '$4 == "NAMI" && index($5, "\"/a") == 1' | cut -f5)" \
	"\"$A\"..."
check page_end_cut t_eq "$(q "$TMP/p.norm" '$4 == "NAMI" && index($5, "\"/b") == 1' | cut -f5)" \
	"\"$B\"..."
check both_named t_eq "$(q "$TMP/p.norm" '$4 == "CALL" || $4 == "NAMI" || $4 == "RET"' |
	awk -F'\t' '/chdir/ || ($4 == "NAMI" && $5 ~ /^"\/[ab]/) { print $4 }' | tr '\n' ' ')" \
	"CALL NAMI RET CALL NAMI RET "
kd j "$TMP/p.ktr" -J
check json_cut t_eq "$(grep -c '"type":"NAMI".*"path":"/[ab]\{4095\}","cut":true' "$TMP/j.kd")" 2

e2e_done
