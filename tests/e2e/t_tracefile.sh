#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The trace file, BSD style: default name ktrace.out, created 0600 whatever
# the umask, an existing file replaced (unlinked, not truncated through a hard
# link), -a appending a second session after the first.
. "$(dirname "$0")/lib.sh"
need_tracer

mkdir "$TMP/cwd"
cd "$TMP/cwd" && ktr default "$PROGS/exitcode" 0
cd "$TMP" || exit 1
check default_name_exit_0 t_krc 0 default
check default_name_ktrace_out test -f "$TMP/cwd/ktrace.out"
check default_name_mode_0600 t_eq "$(stat -c %a "$TMP/cwd/ktrace.out" 2>&1)" 600
check default_name_walks walk default "$TMP/cwd/ktrace.out"
check default_name_summary t_grep "^ktraceb: [0-9]+ records written to ktrace.out, 0 lost\$" \
	"$TMP/default.err"

umask 000
ktr umask0 -f "$TMP/umask0.ktr" "$PROGS/exitcode" 0
umask 022
check umask0_mode_0600 t_eq "$(stat -c %a "$TMP/umask0.ktr" 2>&1)" 600

# replace: old contents gone, a hard link to the old file keeps them
printf 'junk that is not a trace\n' >"$TMP/old.ktr"
chmod 644 "$TMP/old.ktr"
ln "$TMP/old.ktr" "$TMP/old.hard"
ktr replace -f "$TMP/old.ktr" "$PROGS/exitcode" 0
check replace_exit_0 t_krc 0 replace
check replace_mode_0600 t_eq "$(stat -c %a "$TMP/old.ktr")" 600
check replace_walks walk replace "$TMP/old.ktr"
check replace_new_inode t_eq "$(cat "$TMP/old.hard")" "junk that is not a trace"
kd replace "$TMP/old.ktr"
check replace_kdump_clean t_kdump_ok replace

# append: two sessions in one file, in order
A=$TMP/app.ktr
ktr app1 -f "$A" "$PROGS/exitcode" 1
check append_first_exit_1 t_krc 1 app1
size1=$(stat -c %s "$A")
ktr app2 -a -f "$A" "$PROGS/exitcode" 2
check append_second_exit_2 t_krc 2 app2
check append_grew t_num "$(stat -c %s "$A")" -gt "$size1"
check append_walks walk app "$A"
check append_two_fileinfo t_eq "$(walkval app 'type 24')" 2
check append_mode_0600 t_eq "$(stat -c %a "$A")" 600
kd app "$A"
check append_kdump_clean t_kdump_ok app
check append_two_info_lines t_eq "$(qn "$TMP/app.norm" '$4 == "INFO"')" 2
check append_exits_in_order t_eq "$(q "$TMP/app.norm" '$4 == "EXIT"' | cut -f5 | tr '\n' ';')" \
	"exited 1;exited 2;"
read -r nrec1 _ <<<"$(ktr_summary app1)"
read -r nrec2 _ <<<"$(ktr_summary app2)"
check append_counts_add_up t_eq "$(walkval app records)" $((${nrec1:-0} + ${nrec2:-0}))

# -a on a file that does not exist yet creates it, 0600
ktr appnew -a -f "$TMP/appnew.ktr" "$PROGS/exitcode" 0
check append_new_exit_0 t_krc 0 appnew
check append_new_mode_0600 t_eq "$(stat -c %a "$TMP/appnew.ktr" 2>&1)" 600
check append_new_walks walk appnew "$TMP/appnew.ktr"

e2e_done
