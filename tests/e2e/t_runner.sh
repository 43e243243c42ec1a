#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The runner and the library's signals, on scripts of their own (no root,
# no BPF):
#  - tkill refuses an empty, 0, 1, negative or foreign pid and signals none
#    of them; it signals the test's own processes;
#  - a script that stops its own process group (kill -STOP 0, what a kill of
#    an empty pid did) is ended at the runner's timeout and counted as a
#    FAIL: the runner is not in its group and does not hang;
#  - what a script leaves running in its session is killed when it ends;
#  - a script's whole-file SKIP is counted and shown with its reason;
#  - a script whose header asks for a longer time limit gets it.
. "$(dirname "$0")/lib.sh"
need_kdump

# gone PID: no such process, or a zombie (its parent killed, init reaps it)
gone()
{
	[ ! -d "/proc/$1" ] || [ "$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# --- tkill ---------------------------------------------------------------------
sleep 600 &
MINE=$!
E2E_PIDS=$MINE
n=0
for p in '' 0 1 -1 -"$MINE" x12 "$MINE " 0"$MINE"; do
	n=$((n + 1))
	tkill -0 "$p" 2>>"$TMP/refused.err"
	check "refuses_bad_pid_$n" t_eq "$?" 1 "tkill -0 '$p'"
done
check refused_said t_grep '^    tkill: refused' "$TMP/refused.err"
tkill 2>/dev/null
check refuses_no_pid t_eq "$?" 1
# the runner (or the shell that started this script) is not the test's
if [ "$PPID" -gt 1 ]; then
	tkill -0 "$PPID" 2>"$TMP/parent.err"
	check refuses_parent t_eq "$?" 1
	check refuses_parent_said t_grep "refused pid $PPID " "$TMP/parent.err"
fi
check signals_own tkill -0 "$MINE"
disown "$MINE" # no "Killed" note from bash
tkill -KILL "$MINE"
check own_killed wait_until 10 gone "$MINE"
check wait_until_true wait_until 2 true
wait_until 1 false 2>/dev/null
check wait_until_bounded t_eq "$?" 1

# --- the runner ------------------------------------------------------------------
D=$TMP/e2e
mkdir "$D"
cat >"$D/t_fake_stop.sh" <<'EOF'
echo "PASS: e2e/fake/before_stop"
sleep 600 &
echo $! >"$1/stop.child"
kill -STOP 0
echo "PASS: e2e/fake/after_stop"
EOF
cat >"$D/t_fake_leaves.sh" <<'EOF'
sleep 600 &
echo $! >"$1/leaves.child"
echo "PASS: e2e/fake/leaves"
EOF
cat >"$D/t_fake_skips.sh" <<'EOF'
echo "SKIP: e2e/fake/all (no such thing here)"
EOF
# a script that asks for a longer limit in its header gets it
cat >"$D/t_fake_long.sh" <<'EOF'
# time limit: 30
sleep 5
echo "PASS: e2e/fake/long"
EOF
sed -i "s|\"\$1/|\"$TMP/|" "$D"/t_*.sh
# 8 s a script: a loaded machine's shell starts within that; the stopped one never ends
START=$SECONDS
KTR_E2E_DIR=$D KTR_TEST_TIMEOUT=8 timeout 120 sh "$REPO/tests/run.sh" t_fake_ >"$TMP/run.out" 2>&1
RC=$?
TOOK=$((SECONDS - START))
check run_status_1 t_eq "$RC" 1
check run_bounded t_num "$TOOK" -lt 60 "the runner took $TOOK s"
check run_stopped_counted t_grep '^FAIL: t_fake_stop\.sh \(timed out after 8s or killed\)$' "$TMP/run.out"
check run_before_stop t_grep '^PASS: e2e/fake/before_stop$' "$TMP/run.out"
check run_skip_shown t_grep '^SKIP: e2e/fake/all \(no such thing here\)$' "$TMP/run.out"
check run_own_limit t_grep '^PASS: e2e/fake/long$' "$TMP/run.out"
check run_summary t_grep '^3 passed, 1 failed, 1 skipped$' "$TMP/run.out"
for c in stop leaves; do
	p=$(cat "$TMP/$c.child" 2>/dev/null)
	check "${c}_child_started" t_match "$p" '^[0-9]+$'
	check "${c}_child_reaped" wait_until 10 gone "${p:-x}"
done
e2e_done
