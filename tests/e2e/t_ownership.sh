#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# BSD's ktrcanset, the one ownership check (the daemon's ktr_perm__canset,
# BPF's canset()), cell by cell: every way a tracing begins or moves
# (target) by root, the processes' owner (the test user) and another user
# (nobody), on the owner's own process, a set-id one (a set-uid root copy,
# run by the owner) and one root traces already.  Each row of the table
# below is done for real, and says once whether the process ends up
# traced into the caller's file:
#   p        -p P                  g      -g P (P leads its group)
#   d        -d -p P, P's child    i      -i -p P, a child P forks after
#   exec     -p of a shell that then execs a program (the set-id copy for
#            "setid"): is the new image traced?
#   Gin      -G of a group of the caller's with the process in it
#   Gmove    -G of an empty group of the caller's; root moves the process in
#   takeover -R -p P, then the daemon killed and a new one started: the
#            recording kept, dumped (-D) by the caller
# "traced by root": root's -d -i -p on the tree, the shell; for the groups
# the process is in a group root traces, the caller's group a sub-group of it.
. "$(dirname "$0")/lib.sh"
own_bpffs "$@" # takeover: the pins a kill -9 leaves, seen by no other build's daemon
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs
if ! user_setup; then
	skip all "$USER_WHY"
	e2e_done
fi
OUSER=nobody
OUID=$(id -u "$OUSER" 2>/dev/null) || {
	skip all "no user $OUSER for another user"
	e2e_done
}
OGID=$(id -g "$OUSER")
ODIR=$TMP/o
RDIR=$TMP/r
mkdir -p "$ODIR" "$RDIR"
chown "$OUID:$OGID" "$ODIR"
# the set-id copies: run by the owner, set-uid root
for p in att_tree att_tick; do
	cp "$PROGS/$p" "$UBIN/suid_${p#att_}"
	chown root:root "$UBIN/suid_${p#att_}"
	chmod 4755 "$UBIN/suid_${p#att_}"
done

CGM=$(awk '$9 == "cgroup2" && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
T=
if [ -n "$CGM" ] && mkdir "$CGM/ktr-own-$$" 2>/dev/null; then
	T=$CGM/ktr-own-$$
fi
own_cleanup()
{
	local p d
	for p in ${E2E_PIDS:-}; do
		tkill -KILL "$p" 2>/dev/null
	done
	if [ -n "$T" ]; then
		sleep 0.3
		for d in $(find "$T" -depth -type d 2>/dev/null); do
			while read -r p; do echo "$p" >"$CGM/cgroup.procs" 2>/dev/null; done <"$d/cgroup.procs"
			rmdir "$d" 2>/dev/null
		done
	fi
	user_cleanup
}
trap own_cleanup EXIT

# oktr P ARGS...: the other user's capability ktraceb, like uktr
oktr()
{
	local p=$1
	shift
	timeout -k 5 "$KTR_TIMEOUT" "${USER_LIMITS[@]}" setpriv --reuid="$OUID" --regid="$OGID" \
		--init-groups -- "$UBIN/ktraceb" "$@" >"$TMP/$p.out" 2>"$TMP/$p.err" </dev/null
	KRC=$?
}

# as CALLER P ARGS...: ktraceb as root, the owner or the other user
as()
{
	case $1 in
	root) ktr "${@:2}" ;;
	owner) uktr "${@:2}" ;;
	other) oktr "${@:2}" ;;
	esac
}

# dir_of CALLER: where the caller's trace files go; ids_of CALLER: uid:gid
dir_of()
{
	case $1 in
	root) echo "$RDIR" ;;
	owner) echo "$UDIR" ;;
	other) echo "$ODIR" ;;
	esac
}
ids_of()
{
	case $1 in
	root) echo 0:0 ;;
	owner) echo "$KUID:$KGID" ;;
	other) echo "$OUID:$OGID" ;;
	esac
}

# root's daemon kept up by a trace of an idle process: it serves both users, and
# no cell waits for a cold start (a client waits 10 s: a daemon still loading answers
# the next try)
keeper()
{
	bg keeper sleep 600
	for ((i = 0; i < 6; i++)); do
		ktr keep -t c -f "$TMP/keep$1.ktr" -p "$BGPID"
		[ "$KRC" -eq 0 ] && break
	done
	check "keeper$1_exit_0" t_krc 0 keep
}
keeper 1

# tree NAME KIND: the owner's att_tree (the set-uid copy for setid); P C in P, C
tree()
{
	if [ "$2" = setid ]; then
		ubg "$1" "$UBIN/suid_tree" 120
	else
		ubg "$1" "$UBIN/att_tree" 120
	fi
	P=$(wait_role "$TMP/$1.pout" parent)
	C=$(wait_role "$TMP/$1.pout" child)
}

# tick NAME KIND TAG: the owner's att_tick, its pid in P
tick()
{
	if [ "$2" = setid ]; then
		ubg "$1" "$UBIN/suid_tick" 20 0 "$3"
	else
		ubg "$1" "$UBIN/att_tick" 20 0 "$3"
	fi
	P=$(wait_role "$TMP/$1.pout" pid)
}

# rootset NAME ARGS...: root traces first (the process is "traced by root")
rootset()
{
	local n=$1
	shift
	ktr "$n.rs" -f "$RDIR/$n.rs.ktr" "$@"
	check "${n}_root_traces_first" t_krc 0 "$n.rs"
}

# group NAME CALLER [PARENT]: a group directory of the caller's, under PARENT (T)
group()
{
	local d=${3:-$T}/$1
	mkdir "$d" || return 1
	chown "$(ids_of "$2")" "$d" "$d/cgroup.procs" || return 1
	echo "$d"
}

# in_group PID DIR: root moves PID into DIR
in_group()
{
	echo "$1" >"$2/cgroup.procs"
}

NO_CELLS=() # "name file pid comm": looked at once every cell has run

# cell TARGET CALLER PROCESS WANT: the row done; WANT yes: records of the process
# come into the caller's file (awaited); no: none (looked at the end)
cell()
{
	local t=$1 who=$2 kind=$3 want=$4 n="$1_$2_$3" f pid comm=. d r
	f=$(dir_of "$who")/$n.ktr
	case $t in
	p | g | d | i)
		tree "$n" "$kind"
		[ "$kind" = rootset ] && rootset "$n" -d -i -p "$P"
		case $t in
		p) as "$who" "$n" -f "$f" -p "$P" ;;
		g) as "$who" "$n" -f "$f" -g "$P" ;;
		d) as "$who" "$n" -f "$f" -d -p "$P" ;;
		i) as "$who" "$n" -f "$f" -i -p "$P" ;;
		esac
		pid=$P
		[ "$t" = d ] && pid=$C
		if [ "$t" = i ]; then
			tkill -USR1 "$P"
			pid=$(wait_role "$TMP/$n.pout" latechild)
		fi
		;;
	exec)
		# the shell execs att_tick (its set-uid copy for setid) once told to
		ubg "$n" sh -c 'echo "shell $$"; while [ ! -e "$0" ]; do sleep 0.05; done; exec "$1" 20 0 4344' \
			"$TMP/$n.go" "$UBIN/$([ "$kind" = setid ] && echo suid_tick || echo att_tick)"
		pid=$(wait_role "$TMP/$n.pout" shell)
		comm=$([ "$kind" = setid ] && echo suid_tick || echo att_tick)
		[ "$kind" = rootset ] && rootset "$n" -p "$pid"
		as "$who" "$n" -f "$f" -p "$pid"
		touch "$TMP/$n.go"
		wait_role "$TMP/$n.pout" pid >/dev/null
		;;
	Gin | Gmove)
		if [ -z "$T" ]; then
			skip "$n" "no cgroup2 hierarchy to make a group in"
			return
		fi
		tick "$n" "$kind" 4345
		r=$T
		if [ "$kind" = rootset ]; then
			r=$(group "$n.r" root) && mkdir "$r/x" && in_group "$P" "$r/x" &&
				rootset "$n" -G "$r"
		fi
		d=$(group "$n" "$who" "$r")
		[ "$t" = Gin ] && in_group "$P" "$d"
		as "$who" "$n" -f "$f" -G "$d"
		[ "$t" = Gmove ] && in_group "$P" "$d"
		pid=$P
		;;
	esac
	if [ "$want" = yes ]; then
		check "$n" wait_kd "$n" "$f" 3 '$1 == p && $4 == "CALL" && (c == "." || $3 == c)' \
			p="$pid" c="$comm"
	else
		NO_CELLS+=("$n $f $pid $comm")
	fi
}

# The table: target caller process expected ("yes": traced into the caller's file).
# Root may trace anything; the owner only his own process, not set-id, not root's;
# another user nothing of the owner's.
TAKEOVER=()
while read -r t who kind want <&3; do
	case $t in '' | '#'*) continue ;; esac
	[ "$t" = takeover ] && TAKEOVER+=("$who $kind $want") && continue
	cell "$t" "$who" "$kind" "$want"
done 3<<'EOF'
# target caller process expected
p        root   own     yes
p        root   setid   yes
p        root   rootset yes
p        owner  own     yes
p        owner  setid   no
p        owner  rootset no
p        other  own     no
p        other  setid   no
p        other  rootset no
g        root   own     yes
g        root   setid   yes
g        root   rootset yes
g        owner  own     yes
g        owner  setid   no
g        owner  rootset no
g        other  own     no
g        other  setid   no
g        other  rootset no
d        root   own     yes
d        root   setid   yes
d        root   rootset yes
d        owner  own     yes
d        owner  setid   no
d        owner  rootset no
d        other  own     no
d        other  setid   no
d        other  rootset no
i        root   own     yes
i        root   setid   yes
i        root   rootset yes
i        owner  own     yes
i        owner  setid   no
i        owner  rootset no
i        other  own     no
i        other  setid   no
i        other  rootset no
exec     root   own     yes
exec     root   setid   yes
exec     root   rootset yes
exec     owner  own     yes
exec     owner  setid   no
exec     owner  rootset no
exec     other  own     no
exec     other  setid   no
exec     other  rootset no
Gin      root   own     yes
Gin      root   setid   yes
Gin      root   rootset yes
Gin      owner  own     yes
Gin      owner  setid   no
Gin      owner  rootset no
Gin      other  own     no
Gin      other  setid   no
Gin      other  rootset no
Gmove    root   own     yes
Gmove    root   setid   yes
Gmove    root   rootset yes
Gmove    owner  own     yes
Gmove    owner  setid   no
Gmove    owner  rootset no
Gmove    other  own     no
Gmove    other  setid   no
Gmove    other  rootset no
takeover root   own     yes
takeover root   setid   yes
takeover root   rootset yes
takeover owner  own     yes
takeover owner  setid   no
takeover owner  rootset no
takeover other  own     no
takeover other  setid   no
takeover other  rootset no
EOF

# --- takeover: the recordings set, one kill -9 of the daemons, a new one ------------------
for row in "${TAKEOVER[@]}"; do
	read -r who kind want <<<"$row"
	n=takeover_${who}_$kind
	tick "$n" "$kind" 4346
	[ "$kind" = rootset ] && rootset "$n" -p "$P"
	as "$who" "$n" -R 64k -f "$(dir_of "$who")/$n.ktr" -p "$P"
	eval "TK_$who$kind=$P"
done
kill_daemons
daemon_gone 20
keeper 2 # a new root daemon takes the recordings over
for row in "${TAKEOVER[@]}"; do
	read -r who kind want <<<"$row"
	n=takeover_${who}_$kind
	f=$(dir_of "$who")/$n.ktr
	pid=$(eval "echo \$TK_$who$kind")
	as "$who" "$n.D" -D -f "$f"
	if [ "$want" = yes ]; then
		check "$n" wait_kd "$n" "$f" 3 '$1 == p && $4 == "CALL"' p="$pid"
	else
		NO_CELLS+=("$n $f $pid .")
	fi
done

# --- the cells that must trace nothing: looked at once a trace set after all of them
# has records (what they would have had came before) ----------------------------------------
bg last "$ATT_TICK" 20 0 4347
ktr last -f "$TMP/last.ktr" -p "$BGPID"
check last_traced wait_kd last "$TMP/last.ktr" 3 '$1 == p && $4 == "CALL"' p="$BGPID"
for row in "${NO_CELLS[@]}"; do
	read -r n f pid comm <<<"$row"
	kd "$n" "$f"
	check "$n" t_num "$(qn "$TMP/$n.norm" '$1 == p && ($4 == "CALL" || $4 == "RET") &&
		(c == "." || $3 == c)' p="$pid" c="$comm")" -eq 0
done
ktr clear_all -C
e2e_done
