# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# What t_hostile.sh and t_hostile_files.sh share, sourced after lib.sh and
# lib_user.sh: the test user with ktr_hostile (tests/progs/ktr_hostile.c,
# which speaks the daemon's protocol directly) and suid_forker, the helpers
# that run it and read its answers, and hostile_keeper: a trace of root's
# that keeps root's daemon up (KEEP, its pid DPID, its descriptors FD0).
if ! user_setup; then
	skip all "$USER_WHY"
	e2e_done
fi
for p in ktr_hostile suid_forker; do
	if [ ! -x "$PROGS/$p" ]; then
		fail build "$PROGS/$p not built (make O=$O test)"
		e2e_done
	fi
	cp "$PROGS/$p" "$UBIN/"
done
chown root:root "$UBIN/suid_forker"
chmod 4755 "$UBIN/suid_forker"
ROOT_SOCK=/run/ktraceb/ktraceb-$BUILD_ID.sock
USER_SOCK=@ktraceb-$BUILD_ID.$KUID
DEF=0x301be  # KTR_DEF_POINTS
ROOTFAC=0x80000000
SECGROUP=ktrhostsec
GROUP_CREATED=
MNT=

hostile_cleanup()
{
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	[ -n "$GROUP_CREATED" ] && groupdel "$SECGROUP" 2>/dev/null
	user_cleanup
}
trap 'hostile_cleanup' EXIT

# hostile P SOCK ARGS...: ktr_hostile as the test user, output in $TMP/P.h,
# for HOSTILE_LIMIT seconds at most (default 120)
hostile()
{
	local p=$1
	shift
	timeout -k 5 "${HOSTILE_LIMIT:-120}" setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- \
		"$UBIN/ktr_hostile" "$@" >"$TMP/$p.h" 2>"$TMP/$p.herr" </dev/null
}

# hval P KEY: KEY=value from the first line of $TMP/P.h that has it
hval()
{
	grep -o "$2=[^ ]*" "$TMP/$1.h" | head -n 1 | cut -d= -f2-
}

fdcount()
{
	ls "/proc/$1/fd" 2>/dev/null | wc -l
}

# ms_of P CMD...: ktr P CMD..., its wall time in ms in MS
ms_of()
{
	local t0
	t0=$(date +%s%N)
	ktr "$@"
	MS=$((($(date +%s%N) - t0) / 1000000))
}

# root_works P: root's ktraceb still traces a command into a file
root_works()
{
	ktr "$1" -f "$TMP/$1.ktr" /bin/true
	[ "$KRC" -eq 0 ] && grep -q "records written" "$TMP/$1.err" && return 0
	echo "    root's ktraceb exit $KRC: $(head -n 2 "$TMP/$1.err")" >&2
	return 1
}

# hostile_keeper: root's daemon kept up by a trace of a process of the test's
hostile_keeper()
{
	bg keeper "$ATT_TICK" 200 0
	KEEP=$(wait_role "$TMP/keeper.pout" pid)
	ktr keep -f "$TMP/keep.ktr" -p "$KEEP"
	check setup_keeper_traced t_krc 0 keep
	DPID=$(daemon_pid)
	check setup_daemon_found t_num "${DPID:-0}" -gt 0
	FD0=$(fdcount "${DPID:-0}")
}
