#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# time limit: 600
# (hundreds of kdump -J and -P runs, each checked: tests/run.sh gives it more than the default)
#
# kdump -J (JSON lines) and -P (Chrome timeline) on files made without a
# tracer: ktrgen's known records (their values, -p, -t), traces that start
# and end inside a syscall, hostile files, and the options -J and -P
# refuse (truncated files, the fuzz corpus and the BSD fixtures:
# t_json_cuts.sh).  Every output goes
# through tests/lib/json_check.py (Python's json module): JSON lines must
# parse line by line, the timeline must keep Chrome's rules.  A bad input
# gives valid JSON up to the error, then one "kdump: ..." line and a
# non-zero exit.  Needs no privileges.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_json.sh"
need_kdump

# --- ktrgen's good file: every value is known ----------------------------------
G=$TMP/good.ktr
"$PROGS/ktrgen" good "$G"
kj good "$G"
check good_exit_0 t_kdump_ok good
check good_lines_parse lines_ok good
check good_first_line t_eq "$(head -n 1 "$TMP/good.jsonl")" \
	'{"type":"info","format":"ktraceb-json","version":2,"system":"ktraceb"}'
# as many records as the text view prints
"$KDUMP" -f "$G" >"$TMP/good.txt"
check good_one_line_per_record t_eq $(($(wc -l <"$TMP/good.jsonl") - 1)) \
	"$(wc -l <"$TMP/good.txt")"
check good_types_in_text_order t_eq "$(sel good 'r["type"] != "info"' 'r["type"]' | tr '\n' ' ')" \
	"$(awk '{ printf "%s ", $3 }' "$TMP/good.txt")"
check good_info t_eq "$(sel good 'r["type"] == "INFO"' \
	'"%s %s %d" % (r["machine"], r["release"], r["format_version"])')" "x86_64 6.1.0-synthetic 1"
check good_openat_args t_eq "$(sel good 'r["type"] == "CALL" and r["syscall"] == "openat"' \
	'",".join(a["name"] + "=" + a["value"] for a in r["args"][:3])' | head -n 1)" \
	"dfd=AT_FDCWD,filename=0x7ffc1234,flags=O_RDONLY|O_CLOEXEC"
check good_openat_raw t_eq "$(sel good 'r["type"] == "CALL" and r["syscall"] == "openat"' \
	'r["args"][0]["raw"]' | head -n 1)" 0xffffffffffffff9c
check good_paths t_eq "$(sel good 'r["type"] == "NAMI"' 'r["path"]' | tr '\n' ' ')" \
	"/etc/passwd /etc/nonexistent "
check good_retval t_eq "$(sel good 'r["type"] == "RET" and r["syscall"] == "openat"' \
	'"%d %d" % (r["retval"], r["error"])' | head -n 1)" "3 0"
check good_errno_name t_eq "$(sel good 'r["type"] == "RET" and r["error"]' \
	'"%s %d %s" % (r["syscall"], r["retval"], r["errno"])' | tr '\n' ' ')" \
	"openat -1 ENOENT close -1 EBADF "
check good_pid_tid_comm t_eq "$(sel good 'r["type"] == "RET" and r["syscall"] == "getppid"' \
	'"%d %d %s %d" % (r["pid"], r["tid"], r["comm"], r["retval"])' | tr '\n' ' ')" \
	"4321 4321 sh 1234 1234 1234 cat 1 "
check good_lost t_eq "$(sel good 'r["type"] == "LOST"' '"%d %d" % (r["lost"], r["lost_total"])')" \
	"5 5"
check good_exits t_eq "$(sel good 'r["type"] == "EXIT"' \
	'r.get("exit_code", r.get("signal"))' | tr '\n' ' ')" "3 SIGKILL "
check good_times t_eq "$(sel good 'r["type"] == "CALL"' 'r["wall_ns"] - r["ts_ns"]' | sort -u)" \
	"$(sel good 'r["type"] == "INFO"' 'r["wall_offset_ns"]')"

# -p, -t: the same records as the text view keeps
kj p4321 "$G" -p 4321
check p_pids t_eq "$(sel p4321 'r["type"] not in ("info", "LOST")' 'r["pid"]' | sort -u)" 4321
check p_count t_eq $(($(wc -l <"$TMP/p4321.jsonl") - 1)) "$("$KDUMP" -p 4321 -f "$G" | wc -l)"
kj tn "$G" -t n
check t_only_nami t_eq "$(sel tn 'r["type"] != "info"' 'r["type"]' | sort -u | tr '\n' ' ')" \
	"LOST NAMI "
kj d "$G" -d -n
check d_n_raw_values t_eq "$(sel d 'r["type"] == "CALL" and r["syscall"] == "openat"' \
	'r["args"][2]["value"]' | head -n 1)" 524288

# the timeline of the same file
kp goodp "$G"
check good_timeline_exit_0 t_kdump_ok goodp
check good_timeline_rules chrome_ok goodp
check good_timeline_slices t_eq "$(evs goodp 'e["ph"] == "B"' 'e["name"]' | tr '\n' ' ')" \
	"openat openat getppid getppid close "
check good_timeline_ret t_eq "$(evs goodp 'e["ph"] == "E" and e["args"].get("errno")' \
	'"%s %s %s" % (e["name"], e["args"]["errno"], e["args"].get("path", "-"))' | tr '\n' ' ')" \
	"openat ENOENT /etc/nonexistent close EBADF - "
check good_timeline_names t_eq "$(evs goodp 'e["ph"] == "M" and e["name"] == "process_name"' \
	'"%d=%s" % (e["pid"], e["args"]["name"])' | tr '\n' ' ')" "1234=cat 4321=sh "
check good_timeline_us t_eq "$(evs goodp 'e["ph"] == "B"' 'e["ts"]' | head -n 1)" 1.0
check good_timeline_instants t_eq "$(evs goodp 'e["ph"] == "i"' 'e["name"]' | tr '\n' ' ')" \
	"LOST EXIT EXIT "
kp p1234 "$G" -p 1234
check p_timeline t_eq "$(evs p1234 'e["ph"] != "M"' 'e["pid"]' | sort -u)" 1234

# --- a trace that starts and ends inside a syscall -----------------------------
# records: INFO, CALL openat, NAMI, RET ... : drop the first CALL, cut before the last RET
python3 "$REPO/tests/lib/ktr_inside.py" "$G" "$TMP/inside.ktr" syscall
kp inside "$TMP/inside.ktr"
check inside_exit_0 t_kdump_ok inside
check inside_rules chrome_ok inside
check inside_started_before t_eq "$(evs inside \
	'e["ph"] == "B" and e["args"].get("started_before_trace")' 'e["name"]')" openat
check inside_unfinished t_eq "$(evs inside 'e["ph"] == "E" and e["args"].get("unfinished")' \
	'e["name"]')" close
kj insidej "$TMP/inside.ktr"
check inside_json_lines lines_ok insidej

# --- hostile files: valid JSON up to the error ----------------------------------
# (the outputs checked by one run of json_check.py each: a busy machine
# takes a second to start python)
mkdir -p "$TMP/hostile"
for mode in neglen hugelen badnarg short badtype garbage flip; do
	"$PROGS/ktrgen" "$mode" "$TMP/$mode.ktr" 7
	"$KDUMP" -f "$TMP/$mode.ktr" >/dev/null 2>&1
	trc=$?
	kj "hostile/$mode" "$TMP/$mode.ktr"
	check "${mode}_json_ends_cleanly" ends_cleanly "hostile/$mode"
	check "${mode}_json_status_as_text" t_eq "$KDRC" "$trc"
	cp "$TMP/hostile/$mode.kderr" "$TMP/hostile/$mode.jkderr"
	kp "hostile/$mode" "$TMP/$mode.ktr"
	check "${mode}_timeline_ends_cleanly" ends_cleanly "hostile/$mode"
	check "${mode}_timeline_status_as_text" t_eq "$KDRC" "$trc"
done
check hostile_json_lines_parse many_ok lines "$TMP/hostile"
check hostile_timeline_rules many_ok chrome "$TMP/hostile"
check hugelen_error_line t_eq "$(cat "$TMP/hostile/hugelen.jkderr")" "kdump: bogus length 0x7fffffff"
check hugelen_records_before t_eq "$(sel hostile/hugelen 'r["type"] == "EXIT"' 'r["pid"]' | wc -l)" 2

# flipped bytes: 40 seeds, each through both
mkdir -p "$TMP/flip"
nbad=0
for seed in $(seq 1 40); do
	"$PROGS/ktrgen" flip "$TMP/flip/$seed.ktr" "$seed"
	kj "flip/$seed" "$TMP/flip/$seed.ktr"
	ends_cleanly "flip/$seed" || nbad=$((nbad + 1))
	kp "flip/$seed" "$TMP/flip/$seed.ktr"
	ends_cleanly "flip/$seed" || nbad=$((nbad + 1))
done
check flip_ends_cleanly t_eq "$nbad" 0
check flip_json_lines_parse many_ok lines "$TMP/flip"
check flip_timeline_rules many_ok chrome "$TMP/flip"

# --- empty input, and not a trace at all ----------------------------------------
: >"$TMP/empty.ktr"
kj empty "$TMP/empty.ktr"
check empty_json_exit_0 t_kdump_ok empty
check empty_json_info_only t_eq "$(cat "$TMP/empty.jsonl")" \
	'{"type":"info","format":"ktraceb-json","version":2}'
kp emptyp "$TMP/empty.ktr"
check empty_timeline_rules chrome_ok emptyp
check empty_timeline_no_events t_eq "$(cat "$TMP/emptyp.count")" 0

# --- options -J and -P cannot honour: one line, exit 1 like kdump's other usage errors --
for opts in "-J -T" "-J -E" "-J -R" "-J -H" "-J -S" "-J -Y" "-J -G" "-J -P" "-P -l" "-P -c" \
	"-P -T" "-P -Y"; do
	name=refuse_$(echo "$opts" | tr -d ' -')
	timeout 60 "$KDUMP" $opts -f "$G" >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
	check "${name}_exit_1" t_eq "$rc" 1
	check "${name}_one_line" t_lines 1 "$TMP/$name.err"
	check "${name}_says_why" t_grep "^kdump: -[JP] cannot be used with -[A-Za-z]\$" "$TMP/$name.err"
	check "${name}_no_output" t_lines 0 "$TMP/$name.out"
done
# what they do honour
timeout 60 "$KDUMP" -P -S -f "$G" >"$TMP/PS.json" 2>&1
check P_S_names_with_numbers t_eq "$($JC events "$TMP/PS.json" 'e["ph"] == "B"' 'e["name"]' |
	head -n 1)" "openat[257]"
timeout 60 "$KDUMP" -J -l -f "$G" >"$TMP/Jl.jsonl" 2>&1
check J_l_same t_eq "$(cat "$TMP/Jl.jsonl")" "$(cat "$TMP/good.jsonl")"
e2e_done
