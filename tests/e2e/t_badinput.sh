#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# ktraceb refuses bad input before it runs anything: a bad -t letter, bad
# numbers, a trace path that is a symlink, a directory or a FIFO, -a on a file
# somebody else owns.  Each time: a non-zero status, a short error on stderr,
# the command not run (it would create $TMP/ran), the path left as it was.
. "$(dirname "$0")/lib.sh"
need_tracer

# the command form of the usage (other forms may come on other lines)
USAGE_RX='^(usage: |       )ktraceb \[-a[a-zA-Z]*\] .*\[-f trfile\] .*\[-t trstr\] command \[args \.\.\.\]$'

# refused NAME [ktraceb args...]: ktraceb ... touch $TMP/ran must fail unrun
refused()
{
	local name=$1
	shift
	rm -f "$TMP/ran"
	ktr "$name" "$@" touch "$TMP/ran"
	check "${name}_fails" t_num "$KRC" -ne 0 "exit status"
	check "${name}_not_killed" t_num "$KRC" -lt 124 "exit status"
	check "${name}_command_not_run" test ! -e "$TMP/ran"
}

# usage errors: EX_USAGE (64) and the usage line
refused bad_trstr -t cx -f "$TMP/bad.ktr"
check bad_trstr_exit_64 t_krc 64 bad_trstr
check bad_trstr_message t_eq "$(head -n 1 "$TMP/bad_trstr.err")" "ktraceb: unknown facility in cx"
check bad_trstr_usage t_grep "$USAGE_RX" "$TMP/bad_trstr.err"
check bad_trstr_usage_first t_grep '^usage: ktraceb ' "$TMP/bad_trstr.err"
check bad_trstr_no_file test ! -e "$TMP/bad.ktr"

refused unknown_option -Q -f "$TMP/bad.ktr"
check unknown_option_exit_64 t_krc 64 unknown_option

ktr no_command -f "$TMP/bad.ktr"
check no_command_exit_64 t_krc 64 no_command
check no_command_usage t_grep '^usage: ktraceb ' "$TMP/no_command.err"

refused bufsize_not_pow2 -b 3000 -f "$TMP/bad.ktr"
refused bufsize_garbage -b 16x -f "$TMP/bad.ktr"
refused bufsize_zero -b 0 -f "$TMP/bad.ktr"
refused iosize_garbage -s abc -f "$TMP/bad.ktr"
refused iosize_negative -s -5 -f "$TMP/bad.ktr"

# one_line_error NAME PATH: a single stderr line "ktraceb: PATH: ..."
one_line_error()
{
	check "${1}_one_line" t_lines 1 "$TMP/$1.err"
	check "${1}_names_path" t_grep "^ktraceb: $2: " "$TMP/$1.err"
}

# a symlink to a file that does not exist: the target must not appear
ln -s "$TMP/target-new" "$TMP/link-new"
refused symlink_dangling -f "$TMP/link-new"
one_line_error symlink_dangling "$TMP/link-new"
check symlink_dangling_target_not_created test ! -e "$TMP/target-new"
check symlink_dangling_still_symlink test -L "$TMP/link-new"

# a symlink to an existing file: the file must keep its contents
echo precious >"$TMP/target-old"
ln -s "$TMP/target-old" "$TMP/link-old"
refused symlink_existing -f "$TMP/link-old"
one_line_error symlink_existing "$TMP/link-old"
check symlink_existing_target_intact t_eq "$(cat "$TMP/target-old")" precious
check symlink_existing_still_symlink test -L "$TMP/link-old"
refused symlink_append -a -f "$TMP/link-old"
one_line_error symlink_append "$TMP/link-old"
check symlink_append_target_intact t_eq "$(cat "$TMP/target-old")" precious

mkdir "$TMP/dir"
refused directory -f "$TMP/dir"
one_line_error directory "$TMP/dir"
check directory_still_directory test -d "$TMP/dir"
refused directory_append -a -f "$TMP/dir"

mkfifo "$TMP/fifo"
KTR_TIMEOUT=20 refused fifo -f "$TMP/fifo"
one_line_error fifo "$TMP/fifo"
check fifo_still_fifo test -p "$TMP/fifo"
KTR_TIMEOUT=20 refused fifo_append -a -f "$TMP/fifo"
check fifo_append_still_fifo test -p "$TMP/fifo"

# -a on a file owned by someone else
echo "not yours" >"$TMP/others"
chown nobody "$TMP/others"
refused append_not_owned -a -f "$TMP/others"
one_line_error append_not_owned "$TMP/others"
check append_not_owned_intact t_eq "$(cat "$TMP/others")" "not yours"

# without privileges (and no root daemon to ask) nothing runs untraced
if ! command -v runuser >/dev/null || ! runuser -u nobody -- test -x "$KTRACEB" 2>/dev/null; then
	skip unprivileged "user nobody cannot run $KTRACEB"
elif ! daemon_gone 10; then
	skip unprivileged "a ktraceb daemon is running: it may trace for nobody"
else
	mkdir -m 777 "$TMP/nobody"
	rm -f "$TMP/nobody/ran"
	timeout -k 5 60 runuser -u nobody -- "$KTRACEB" -f "$TMP/nobody/x.ktr" \
		touch "$TMP/nobody/ran" >"$TMP/nobody.out" 2>"$TMP/nobody.err"
	KRC=$?
	check unprivileged_fails t_num "$KRC" -ne 0
	check unprivileged_command_not_run test ! -e "$TMP/nobody/ran"
	check unprivileged_says_why t_grep '^ktraceb: ' "$TMP/nobody.err"
fi

e2e_done
