#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# ktraceb -G RUNTIME:NAME: a container by its runtime and its name or id,
# found through the runtime's CLI (podman or docker inspect, run as the
# caller) and its first process's /proc/PID/cgroup.  No runtime is needed:
# a fake podman and docker on PATH answer inspect as the real ones do, with
# the pid of a process the test puts in a group of its own named as the
# runtime names its scopes (libpod-ID.scope, docker-ID.scope).  Traced by
# name and by a short id, cleared by name (-c -G says the file's end); one
# line and no trace file for an unknown runtime, an unknown container, a
# stopped one whose runtime says no cgroup manager, and a runtime whose CLI
# is not there.  A container made but not started is waited for where its
# runtime will make its group (podman with cgroupfs, docker with systemd's
# slices) and traced from its first process: the one moved into the group
# when it is made, its execve of the entrypoint on; cleared by name while
# not running.  The trace names each container: kdump's CGRP records say
# its runtime, name and id.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs

CGM=$(awk '$9 == "cgroup2" && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
if [ -z "$CGM" ]; then
	skip all "no cgroup2 mounted (t_cgroup.sh mounts one; this test uses the machine's)"
	e2e_done
fi
TOP=ktr-e2e-cont-$$
PID_=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
DID=fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210
PBOX=$CGM/$TOP/libpod-$PID_.scope
DBOX=$CGM/$TOP/docker-$DID.scope
mkdir -p "$PBOX" "$DBOX" || {
	fail setup "cannot make groups in $CGM"
	e2e_done
}

# every process back to the root group, every group made here removed
ct_cleanup()
{
	local p d
	for p in ${E2E_PIDS:-}; do
		tkill -KILL "$p" 2>/dev/null
	done
	sleep 0.3
	for d in $(find "$CGM/$TOP" "$CGM/${SLICE:-none}.slice" -depth -type d 2>/dev/null); do
		while read -r p; do echo "$p" >"$CGM/cgroup.procs" 2>/dev/null; done <"$d/cgroup.procs"
		rmdir "$d" 2>/dev/null
	done
	user_cleanup
}
trap ct_cleanup EXIT

# inbg NAME GROUP CMD...: CMD started in GROUP (a directory), its pid in BGPID
inbg()
{
	local name=$1 grp=$2
	shift 2
	bg "$name" sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$grp" "$@"
}

inbg web "$PBOX" "$ATT_TICK" 30 0 5201
WEB=$(wait_role "$TMP/web.pout" pid)
inbg db "$DBOX" "$ATT_TICK" 30 0 5202
DB=$(wait_role "$TMP/db.pout" pid)

# fake_runtime NAME ID PID MISSING_MSG MISSING_RC PLACE DRIVER NEWID SLASH: a
# CLI that answers "NAME inspect --format '{{.Id}} {{.State.Pid}} {{.Name}}'
# X" for X = web (or the id, or its first 12; its name SLASH web, docker's
# with a slash), "stopped" (pid 0), "created" (NEWID, pid 0), anything else
# as unknown; and where a container not running will
# have its group: PLACE for "created" (podman: its cgroup manager and
# parent; docker: its parent, DRIVER its daemon's cgroup driver), nothing
# for "stopped"
mkdir -p "$TMP/bin" "$TMP/nobin"
fake_runtime()
{
	cat >"$TMP/bin/$1" <<EOF
#!/bin/sh
case "\$1 \$2 \$3" in
"inspect --format {{.Id}} {{.State.Pid}} {{.Name}}") ;;
"inspect --format {{.HostConfig.CgroupManager}} {{.HostConfig.CgroupParent}}" | \\
"inspect --format {{.HostConfig.CgroupParent}}")
	[ "\$4" = created ] && echo "$6" || echo
	exit 0 ;;
"info --format {{.CgroupDriver}}") echo "$7"; exit 0 ;;
*) echo "bad usage: \$*" >&2; exit 2 ;;
esac
case "\$4" in
web | $2 | ${2:0:12}) echo "$2 $3 ${9:-}web" ;;
stopped) echo "$2 0 stopped" ;;
created) echo "$8 0 created" ;;
*) echo "$4 \$4" >&2; exit $5 ;;
esac
EOF
	chmod +x "$TMP/bin/$1"
}
# not yet running: podman's with cgroupfs below this test's group, docker's
# with systemd in a slice of its own (a dash: a level of slices)
NPID=aaaaaaaaaaaaaaaa0123456789abcdef0123456789abcdef0123456789abcdef
NDID=bbbbbbbbbbbbbbbb0123456789abcdef0123456789abcdef0123456789abcdef
SLICE=ktre2e$$
fake_runtime podman "$PID_" "$WEB" "Error: no such container" 125 "cgroupfs /$TOP" "" "$NPID"
fake_runtime docker "$DID" "$DB" "Error: No such object:" 1 "$SLICE-box.slice" systemd "$NDID" /
# a PATH with no runtime on it, and what the helpers run
for t in timeout sh; do ln -s "$(command -v "$t")" "$TMP/nobin/$t"; done

# calls NORM PID TAG: getpriority(PRIO_PROCESS,TAG) calls of PID in a norm file
calls()
{
	qn "$1" '$1 == p && $4 == "CALL" && $5 ~ ("^getpriority\\(PRIO_PROCESS,(" t "|" x ")\\)$")' \
		p="$2" t="$3" x="$(printf '0x%x' "$3")"
}

# wait_calls FILE PID TAG N: until FILE holds N calls of PID (10 s at most)
wait_calls()
{
	local i
	for ((i = 0; i < 100; i++)); do
		kd wc "$1"
		[ "$(calls "$TMP/wc.norm" "$2" "$3")" -ge "$4" ] && return 0
		sleep 0.1
	done
	return 1
}

# --- podman by name: traced, then cleared by name ------------------------------------
PATH="$TMP/bin:$PATH" ktr pod -t c -f "$TMP/pod.ktr" -G podman:web
check pod_exit_0 t_krc 0 pod
check pod_silent t_lines 0 "$TMP/pod.err"
check pod_calls_come wait_calls "$TMP/pod.ktr" "$WEB" 5201 3
PATH="$TMP/bin:$PATH" ktr pod_clear -c -G podman:web
check pod_clear_exit_0 t_krc 0 pod_clear
check pod_clear_says_the_end t_grep "^ktraceb: $TMP/pod.ktr: cleared by pid [0-9]+ \\(uid 0\\); [1-9][0-9]* records written, 0 lost\$" \
	"$TMP/pod_clear.err"
kd pod "$TMP/pod.ktr"
check pod_kdump_clean t_kdump_ok pod
check pod_in_its_scope t_num "$(qn "$TMP/pod.norm" '$1 == p && $4 == "CGRP" && $5 ~ /^in "\/'"$TOP"'\/libpod-'"$PID_"'\.scope", container podman web 0123456789ab when the trace began/' p="$WEB")" -eq 1
check pod_named t_num "$(qn "$TMP/pod.norm" '$4 == "CGRP" && $5 == "container podman web " id' id="$PID_")" -eq 1
check pod_other_untraced t_no_pid "$TMP/pod.norm" "$DB"

# --- docker by its short id ----------------------------------------------------------
PATH="$TMP/bin:$PATH" ktr dock -t c -f "$TMP/dock.ktr" -G "docker:${DID:0:12}"
check dock_exit_0 t_krc 0 dock
check dock_calls_come wait_calls "$TMP/dock.ktr" "$DB" 5202 3
PATH="$TMP/bin:$PATH" ktr dock_clear -c -G "docker:$DID"
check dock_clear_exit_0 t_krc 0 dock_clear
kd dock "$TMP/dock.ktr"
check dock_in_its_scope t_num "$(qn "$TMP/dock.norm" '$1 == p && $4 == "CGRP" && $5 ~ /^in "\/'"$TOP"'\/docker-'"$DID"'\.scope", container docker web fedcba987654 when/' p="$DB")" -eq 1
check dock_named_by_id t_num "$(qn "$TMP/dock.norm" '$4 == "CGRP" && $5 == "container docker web " id' id="$DID")" -eq 1
check dock_other_untraced t_no_pid "$TMP/dock.norm" "$WEB"

# --- a name with a terminal's escape in it: kdump prints it escaped ----------------
fake_runtime podman "$PID_" "$WEB" "Error: no such container" 125 "cgroupfs /$TOP" "" "$NPID" $'\033[2J'
PATH="$TMP/bin:$PATH" ktr esc -t c -f "$TMP/esc.ktr" -G podman:web
check esc_exit_0 t_krc 0 esc
check esc_calls_come wait_calls "$TMP/esc.ktr" "$WEB" 5201 3
PATH="$TMP/bin:$PATH" ktr esc_clear -c -G podman:web
kd esc "$TMP/esc.ktr"
check esc_kdump_clean t_kdump_ok esc
check esc_name_escaped t_num "$(qn "$TMP/esc.norm" '$4 == "CGRP" && index($5, "container podman \\033[2Jweb ")')" -ge 2
check esc_no_raw_escape t_eq "$(grep -c $'\033' "$TMP/esc.kd")" 0
fake_runtime podman "$PID_" "$WEB" "Error: no such container" 125 "cgroupfs /$TOP" "" "$NPID"

# --- not started yet: waited for, traced from its first process ----------------------
# starts NAME KIND GROUP TAG ID: the container KIND:created started as its
# runtime does: its group made, a process moved into it that then executes
# the entrypoint; traced (by -G KIND:created, before) from its first call
# there, cleared by name while its runtime still says it is not running
starts()
{
	local name=$1 kind=$2 grp=$3 tag=$4 id=$5 pid
	PATH="$TMP/bin:$PATH" ktr "$name" -t cn -f "$TMP/$name.ktr" -G "$kind:created"
	check "${name}_exit_0" t_krc 0 "$name"
	check "${name}_says_it_waits" t_grep "^ktraceb: -G $kind:created: not running: its group ${grp#"$CGM"} is traced from when it starts\$" \
		"$TMP/$name.err"
	check "${name}_group_not_there" t_eq "$(ls -d "$grp" 2>/dev/null)" ""
	mkdir -p "$grp"
	inbg "$name" "$grp" "$ATT_TICK" 30 0 "$tag"
	pid=$(wait_role "$TMP/$name.pout" pid)
	check "${name}_calls_come" wait_calls "$TMP/$name.ktr" "$pid" "$tag" 3
	PATH="$TMP/bin:$PATH" ktr "${name}_clear" -c -G "$kind:created"
	check "${name}_clear_exit_0" t_krc 0 "${name}_clear"
	check "${name}_clear_says_the_end" t_grep "^ktraceb: $TMP/$name.ktr: cleared by pid" "$TMP/${name}_clear.err"
	kd "$name" "$TMP/$name.ktr"
	check "${name}_kdump_clean" t_kdump_ok "$name"
	check "${name}_made" t_num "$(qn "$TMP/$name.norm" '$4 == "CGRP" && $5 == "group made: \"" g "\", container " k " created " substr(id, 1, 12)' g="${grp#"$CGM"}" k="$kind" id="$id")" -eq 1
	check "${name}_moved_in" t_num "$(qn "$TMP/$name.norm" '$1 == p && $4 == "CGRP" && index($5, "moved into \"" g "\"") == 1' p="$pid" g="${grp#"$CGM"}")" -eq 1
	check "${name}_its_execve" t_num "$(qn "$TMP/$name.norm" '$1 == p && $4 == "NAMI" && index($5, x)' p="$pid" x="$ATT_TICK")" -ge 1
	check "${name}_execve_returns" t_num "$(qn "$TMP/$name.norm" '$1 == p && $4 == "RET" && $5 ~ /^execve 0/' p="$pid")" -eq 1
	check "${name}_others_untraced" t_no_pid "$TMP/$name.norm" "$WEB"
}
starts podwait podman "$CGM/$TOP/libpod-$NPID" 5203 "$NPID"
starts dockwait docker "$CGM/$SLICE.slice/$SLICE-box.slice/docker-$NDID.scope" 5204 "$NDID"

# --- the refusals: one line, no trace file --------------------------------------------
# refused NAME LINE_RE PATH -G...: ktraceb with that PATH refuses in one line
refused()
{
	local name=$1 re=$2 path=$3
	shift 3
	PATH=$path ktr "$name" -f "$TMP/$name.ktr" "$@"
	check "${name}_exit_1" t_krc 1 "$name"
	check "${name}_one_line" t_lines 1 "$TMP/$name.err"
	check "${name}_said" t_grep "$re" "$TMP/$name.err"
	check "${name}_no_file" t_eq "$(ls "$TMP/$name.ktr" 2>/dev/null)" ""
}
refused bad_runtime '^ktraceb: -G lxc:web: unknown container runtime lxc \(podman or docker\)$' \
	"$TMP/bin:$PATH" -G lxc:web
refused no_such '^ktraceb: -G podman:nosuch: no such podman container: Error: no such container nosuch$' \
	"$TMP/bin:$PATH" -G podman:nosuch
refused no_such_docker '^ktraceb: -G docker:nosuch: no such docker container: Error: No such object: nosuch$' \
	"$TMP/bin:$PATH" -G docker:nosuch
# a runtime that warns before its error (a rootless podman without a user
# session): the error, its last line, is what ktraceb says
fake_runtime podman "$PID_" "$WEB" $'level=warning msg=no systemd user session\nError: no such container' \
	125 "cgroupfs /$TOP" "" "$NPID"
refused no_such_warned '^ktraceb: -G podman:nosuch: no such podman container: Error: no such container nosuch$' \
	"$TMP/bin:$PATH" -G podman:nosuch
fake_runtime podman "$PID_" "$WEB" "Error: no such container" 125 "cgroupfs /$TOP" "" "$NPID"
refused stopped "^ktraceb: -G podman:stopped: podman container ${PID_:0:12} is not running and its cgroup manager \\(none\\) is neither systemd nor cgroupfs\$" \
	"$TMP/bin:$PATH" -G podman:stopped
refused no_cli '^ktraceb: -G docker:web: cannot run docker: No such file or directory$' \
	"$TMP/nobin" -G docker:web
refused no_name '^ktraceb: -G podman:: no container named \(podman:NAME or podman:ID\)$' \
	"$TMP/bin:$PATH" -G podman:
# --- a user waits for a container's group only below a group of his own ----------
# (a rootless podman's: the user's delegated tree); not where another's or
# root's group will be made
if user_setup; then
	mkdir "$CGM/$TOP/u"
	chown "$KUID:$KGID" "$CGM/$TOP/u"
	fake_runtime podman "$PID_" "$WEB" "Error: no such container" 125 "cgroupfs /$TOP/u" "" "$NPID"
	PATH="$TMP/bin:$PATH" uktr uwait -t c -f "$UDIR/uwait.ktr" -G podman:created
	check user_waits_below_his_group t_krc 0 uwait
	check user_waits_said t_grep "^ktraceb: -G podman:created: not running: its group /$TOP/u/libpod-$NPID is traced from when it starts\$" \
		"$TMP/uwait.err"
	PATH="$TMP/bin:$PATH" uktr uwait_clear -c -G podman:created
	check user_wait_cleared t_krc 0 uwait_clear
	UNEW=cccccccccccccccc0123456789abcdef0123456789abcdef0123456789abcdef
	fake_runtime podman "$PID_" "$WEB" "Error: no such container" 125 "cgroupfs /$TOP" "" "$UNEW"
	PATH="$TMP/bin:$PATH" uktr uroot -t c -f "$UDIR/uroot.ktr" -G podman:created
	check user_wait_in_roots_refused t_krc 1 uroot
	check user_wait_in_roots_said t_grep "^ktraceb: -G /$TOP/libpod-$UNEW: not there yet, and not below a group of yours\$" \
		"$TMP/uroot.err"
	# a rootless container's process: the user's ids and every capability,
	# but in a user namespace of his own (unshare -r), none over him: his to
	# trace, as ptrace lets him (forked into his group after his -G)
	# (a machine where users may not make user namespaces has no rootless containers)
	if setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- unshare -r true 2>/dev/null; then
		mkdir "$CGM/$TOP/u/rootless"
		chown "$KUID:$KGID" "$CGM/$TOP/u/rootless"
		uktr urootless -t c -f "$UDIR/urootless.ktr" -G "/$TOP/u/rootless"
		check user_rootless_set t_krc 0 urootless
		inbg urootless "$CGM/$TOP/u/rootless" setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- \
			unshare -r sh -c '"$0" "$@"; :' "$ATT_TICK" 30 0 5205
		pid=$(wait_role "$TMP/urootless.pout" pid)
		check user_rootless_has_caps t_grep '^CapPrm:[[:space:]]*0*[1-9a-f]' "/proc/$pid/status"
		check user_rootless_calls_come wait_calls "$UDIR/urootless.ktr" "$pid" 5205 3
		uktr urootless_clear -c -G "/$TOP/u/rootless"
		check user_rootless_cleared t_krc 0 urootless_clear
	else
		skip user_rootless "users may not make user namespaces here"
	fi
else
	skip user_wait "$USER_WHY"
fi
e2e_done
