#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# CSW: tests/progs/fac_sleep sleeps N times in nanosleep(2).  With -t cw each
# sleep must show, between the CALL and the RET of nanosleep, the thread
# stopping in the kernel ("sleep") and resuming; stops and resumes alternate
# per thread.  Without w in the facilities there is no CSW record.
#
# A kernel does not report a switch from a task it hides from tracing (the
# agent of some virtual machines, this project's CI's among them): the
# switch program notices such a resume at the thread's next stop, where it
# writes it with the wait message "unseen" (csw.bpf.c).  A sleep whose
# resume came so counts, and KTRACEB_REFUSE_PROG=switch_in, which makes
# every resume unseen, tests that way on any machine.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_fac.sh"
. "$(dirname "$0")/lib_json.sh"
need_tracer

NSLEEP=6

# csw_checks P: the CSW records of run P against fac_sleep's report
csw_checks()
{
	local p=$1 n=$TMP/$1.norm pid tid
	pid=$(awk '$1 == "pid" { print $2 }' "$TMP/$p.out")
	tid=$(awk '$1 == "pid" { print $4 }' "$TMP/$p.out")
	pid=${pid:-none} tid=${tid:-none}
	check "${p}_exit_0" t_krc 0 "$p"
	check "${p}_kdump_clean" t_kdump_ok "$p"
	check "${p}_slept" t_eq "$(awk '$1 == "slept" { print $2 }' "$TMP/$p.out")" "$NSLEEP"
	check "${p}_csw_own_thread" t_eq "$(q "$n" '$4 == "CSW"' | cut -f1,2 | sort -u | tr '\t' :)" "$pid:$tid"
	check "${p}_csw_format" t_eq "$(q "$n" '$4 == "CSW" && $5 !~ /^(stop|resume) (user|kernel)( "[a-z]*")?$/' |
		wc -l | tr -d ' ')" 0
	# a resume has no wait message but "unseen"
	check "${p}_resume_wmesg" t_eq "$(q "$n" '$4 == "CSW" && $5 ~ /^resume .* "/ && $5 !~ / "unseen"$/' |
		wc -l | tr -d ' ')" 0
	check "${p}_stops" t_num "$(qn "$n" '$4 == "CSW" && $5 ~ /^stop /')" -ge "$NSLEEP"
	check "${p}_resumes" t_num "$(qn "$n" '$4 == "CSW" && $5 ~ /^resume /')" -ge "$NSLEEP"
	# stop and resume alternate in a thread (the first record may be either)
	check "${p}_alternate" t_eq "$(q "$n" '$2 == t && $4 == "CSW"' t="$tid" | cut -f5 |
		awk '{ if ($1 == last) bad++; last = $1 } END { print bad + 0 }')" 0
	# every sleep: a stop in the kernel, asleep, then a resume, inside the
	# call, or the thread's next switch an unseen resume
	check "${p}_each_sleep_switches" t_eq "$(sleeps_switched "$n" "$tid")" "$NSLEEP"
}

# sleeps_switched NORM TID: the nanosleeps of TID that show a stop "sleep" and
# then a resume: inside the call, or, unseen, first of its next switches
sleeps_switched()
{
	q "$1" '$2 == t' t="$2" | awk -F'\t' '
		late && $4 == "CSW" { if ($5 ~ /^resume .* "unseen"$/) ok++; late = 0 }
		$4 == "CALL" && $5 ~ /^nanosleep\(/ { ins = 1; stop = 0; res = 0; next }
		ins && $4 == "CSW" && $5 ~ /^stop kernel "sleep"$/ { stop = 1 }
		ins && $4 == "CSW" && $5 ~ /^resume kernel/ && stop { res = 1 }
		ins && $4 == "RET" { if (stop && res) ok++; else if (stop) late = 1; ins = 0 }
		END { print ok + 0 }'
}

ktr cw -t cw -f "$TMP/cw.ktr" "$PROGS/fac_sleep" "$NSLEEP" 20
kd cw "$TMP/cw.ktr"
csw_checks cw
check cw_no_nami t_eq "$(qn "$TMP/cw.norm" '$4 == "NAMI"')" 0

# kdump -J: a CSW's own members (switch, mode, wmesg), no captured text
kj cwj "$TMP/cw.ktr"
check json_csw_exit_0 t_eq "$KDRC" 0
check json_csw_lines_ok lines_ok cwj
check json_csw_count t_eq "$(sel cwj 'r["type"] == "CSW"' | wc -l | tr -d ' ')" \
	"$(qn "$TMP/cw.norm" '$4 == "CSW"')"
check json_csw_members t_eq "$(sel cwj 'r["type"] == "CSW" and not (r.get("switch") in ("out", "in")
	and r.get("mode") in ("user", "kernel") and "text" not in r)' | wc -l | tr -d ' ')" 0
# the members say what the text view's CSW lines say, line for line
check json_csw_as_text t_eq "$(sel cwj 'r["type"] == "CSW"' '("stop " if r["switch"] == "out"
	else "resume ") + r["mode"] + (" \"" + r["wmesg"] + "\"" if "wmesg" in r else "")')" \
	"$(q "$TMP/cw.norm" '$4 == "CSW" { print $5 }')"
check json_csw_sleeps t_num "$(sel cwj '(r["type"] == "CSW" and r["switch"] == "out" and r["mode"] == "kernel"
	and r.get("wmesg") == "sleep")' | wc -l | tr -d ' ')" -ge "$NSLEEP"
check json_csw_resumes t_num "$(sel cwj '(r["type"] == "CSW" and r["switch"] == "in"
	and r.get("wmesg", "unseen") == "unseen")' | wc -l | tr -d ' ')" -ge "$NSLEEP"

# --- resumes the kernel did not report -------------------------------------------------
# KTRACEB_REFUSE_PROG=switch_in (a fresh daemon's): no switch that puts a
# thread on a CPU is taken as reported.  Every resume is then written at the
# thread's next stop, right before it, as "unseen" (but where the CPU had
# no switch since the program was attached: the thread's first stop may
# have none); stops and resumes still alternate, and each sleep has its
# stop and then its unseen resume, but the last, unless the thread is
# switched out again before it exits.
daemon_gone 30
KTRACEB_REFUSE_PROG=switch_in ktr hid -t cw -f "$TMP/hid.ktr" "$PROGS/fac_sleep" "$NSLEEP" 20
kd hid "$TMP/hid.ktr"
HID_TID=$(awk '$1 == "pid" { print $4 }' "$TMP/hid.out")
check hid_exit_0 t_krc 0 hid
check hid_kdump_clean t_kdump_ok hid
check hid_resumes_unseen t_eq "$(qn "$TMP/hid.norm" '$4 == "CSW" && $5 ~ /^resume / && $5 !~ / "unseen"$/')" 0
check hid_each_stop_after_unseen t_eq "$(q "$TMP/hid.norm" '$2 == t && $4 == "CSW"' t="${HID_TID:-none}" |
	cut -f5 | awk 'NR > 1 && $1 == "stop" && last !~ /^resume .* "unseen"$/ { bad++ } { last = $0 }
	END { print bad + 0 }')" 0
check hid_stops t_num "$(qn "$TMP/hid.norm" '$2 == t && $4 == "CSW" && $5 ~ /^stop kernel "sleep"$/' \
	t="${HID_TID:-none}")" -ge "$NSLEEP"
check hid_each_sleep_switches t_num "$(sleeps_switched "$TMP/hid.norm" "${HID_TID:-none}")" -ge "$((NSLEEP - 1))"
# (the daemon so made gone before the next trace)
daemon_gone 30

ktr w -t w -f "$TMP/w.ktr" "$PROGS/fac_sleep" "$NSLEEP" 20
kd w "$TMP/w.ktr"
check w_exit_0 t_krc 0 w
check w_only_csw t_eq "$(q "$TMP/w.norm" '$4 ~ /^(CALL|RET|NAMI|GIO|PSIG|STRU)$/' | wc -l | tr -d ' ')" 0
check w_stops t_num "$(qn "$TMP/w.norm" '$4 == "CSW" && $5 ~ /^stop kernel "sleep"$/')" -ge "$NSLEEP"

# kdump -t w shows only them, -t c hides them
kd cwt "$TMP/cw.ktr" -t w
# (and the END, never filtered out, as LOST)
check kdump_t_w_only_csw t_eq "$(q "$TMP/cwt.norm" '$4 != "CSW" && $4 != "-" && $4 != "END"' | wc -l | tr -d ' ')" 0
check kdump_t_w_all_csw t_eq "$(qn "$TMP/cwt.norm" '$4 == "CSW"')" "$(qn "$TMP/cw.norm" '$4 == "CSW"')"
kd cwc "$TMP/cw.ktr" -t c
check kdump_t_c_no_csw t_eq "$(qn "$TMP/cwc.norm" '$4 == "CSW"')" 0

# without w: none, by default or with -t c
for t in default c; do
	if [ "$t" = default ]; then
		ktr "n$t" -f "$TMP/n$t.ktr" "$PROGS/fac_sleep" "$NSLEEP" 20
	else
		ktr "n$t" -t "$t" -f "$TMP/n$t.ktr" "$PROGS/fac_sleep" "$NSLEEP" 20
	fi
	kd "n$t" "$TMP/n$t.ktr"
	check "no_w_${t}_exit_0" t_krc 0 "n$t"
	check "no_w_${t}_no_csw" t_eq "$(qn "$TMP/n$t.norm" '$4 == "CSW"')" 0
	check "no_w_${t}_has_nanosleep" t_eq "$(qn "$TMP/n$t.norm" '$4 == "RET" && $5 == "nanosleep 0"')" \
		"$NSLEEP"
done

e2e_done
