#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# time limit: 600
# (hundreds of kdump -J and -P runs, each checked: tests/run.sh gives it more than the default)
#
# kdump -J (JSON lines) and -P (Chrome timeline) on traces of real programs,
# read back with Python's json module (tests/lib/json_check.py): every line
# parses, and the fields hold what the programs report on their stdout:
# pids, paths, return values and errno names (tests/progs/syscalls), GIO
# bytes byte for byte (fac_io), signals with their handler and si_code
# (fac_sig), spans (uev_spans, utrace.h), lost records (a 4 KiB ring); -p, -t
# and -m filter as they do the text.  The timeline keeps Chrome's rules,
# also for a trace that starts inside a read (ktraceb -p on a blocked cat)
# and ends inside one (-c -p), and for spans cut at both ends.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_json.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer

# --- syscalls: pids, paths, return values, errno --------------------------------
mkdir -p "$TMP/work"
ktr s -f "$TMP/s.ktr" "$PROGS/syscalls" "$TMP/work"
check s_exit_0 t_krc 0 s
PID=$(awk '$1 == "pid" { print $2 }' "$TMP/s.out")
PID=${PID:-none}
kj s "$TMP/s.ktr"
check s_kdump_clean t_kdump_ok s
check s_lines_parse lines_ok s
kd s "$TMP/s.ktr"
check s_one_line_per_record t_eq $(($(wc -l <"$TMP/s.jsonl") - 1)) "$(qn "$TMP/s.norm" '$4 != "-"')"
check s_pid_is_the_programs t_eq "$(sel s 'r["type"] == "RET" and r["syscall"] == "getppid"' \
	'"%d %d %d" % (r["pid"], r["tid"], r["retval"])')" \
	"$PID $PID $(awk '$1 == "getppid" { print $3 }' "$TMP/s.out")"
check s_comm t_eq "$(sel s 'r["type"] == "RET" and r["syscall"] == "getppid"' 'r["comm"]')" syscalls
# create DIR/sub/a ret 3: the openat's path and return value
A=$(awk '$1 == "create" { print $2 }' "$TMP/s.out")
ACRET=$(awk '$1 == "create" { print $4 }' "$TMP/s.out")
check s_create_path_and_ret t_eq "$(sel s 'r["type"] in ("NAMI", "RET") and r["pid"] == '"$PID" \
	'r.get("path", r.get("retval"))' | grep -m1 -A1 -Fx "$A" | tail -n 1)" "$ACRET"
check s_create_nami_syscall t_match "$(sel s 'r["type"] == "NAMI" and r["path"] == "'"$A"'"' \
	'r["syscall"]' | head -n 1)" '^(open|openat|creat)$'
# a failing call: errno name and number, as the program saw them
check s_unlink_missing_errno t_eq "$(sel s 'r["type"] == "RET" and r["error"] and r["syscall"] in ("unlink", "unlinkat")' \
	'"%d %d %s" % (r["retval"], r["error"], r["errno"])' | head -n 1)" \
	"-1 $(awk '$1 == "unlink_missing" { print $6 }' "$TMP/s.out") ENOENT"
check s_close_bad_ebadf t_eq "$(sel s 'r["type"] == "RET" and r["syscall"] == "close" and r["error"]' \
	'r["errno"]' | head -n 1)" EBADF
# the CALL's arguments by name
# (the arguments the call takes: an openat's mode only with O_CREAT)
check s_openat_arg_names t_eq "$(sel s 'r["type"] == "CALL" and r["syscall"] == "openat"' \
	'" ".join(a["name"] for a in r["args"])' | head -n 1)" "dfd filename flags"
check s_openat_creat_arg_names t_eq "$(sel s 'r["type"] == "CALL" and r["syscall"] == "openat" and "O_CREAT" in r["args"][2]["value"]' \
	'" ".join(a["name"] for a in r["args"])' | head -n 1)" "dfd filename flags mode"
check s_write_args t_eq "$(sel s 'r["type"] == "CALL" and r["syscall"] == "write" and r["args"][0]["value"] == "1"' \
	'r["args"][2]["value"]' | head -n 1)" \
	"$(hexof "$(awk '$1 == "write" && $3 == 1 { print $5 }' "$TMP/s.out")")"
# the documented jq one-liner: which files did pid PID open
if command -v jq >/dev/null 2>&1; then
	jq -r --argjson pid "$PID" 'select(.type == "NAMI" and .pid == $pid and
		(.syscall // "" | startswith("open"))) | .path' "$TMP/s.jsonl" >"$TMP/s.opened"
	check s_jq_opened t_grep "^$A\$" "$TMP/s.opened"
	check s_jq_opened_not_unlinked t_nogrep "^$TMP/work/sub/b\$" "$TMP/s.opened"
else
	skip s_jq_opened "jq is not installed"
fi
kp sp "$TMP/s.ktr"
check s_timeline_clean t_kdump_ok sp
check s_timeline_rules chrome_ok sp
check s_timeline_process_name t_eq "$(evs sp 'e["ph"] == "M" and e["name"] == "process_name" and e["pid"] == '"$PID" \
	'e["args"]["name"]' | tail -n 1)" syscalls
check s_timeline_openat_slice t_eq "$(evs sp 'e["ph"] == "E" and e["args"].get("path") == "'"$A"'"' \
	'"%s %d" % (e["name"], e["args"]["retval"])' | head -n 1)" \
	"$(sel s 'r["type"] == "NAMI" and r["path"] == "'"$A"'"' 'r["syscall"]' | head -n 1) $ACRET"
ncalls=$(sel s 'r["type"] == "CALL" and r["pid"] == '"$PID" | wc -l)
check s_timeline_one_slice_per_call t_eq "$(evs sp 'e["ph"] == "B" and e["pid"] == '"$PID" | wc -l)" \
	"$ncalls"

# -p, -t as the text view
kj sp1 "$TMP/s.ktr" -p "$PID"
check p_only_pid t_eq "$(sel sp1 'r["type"] not in ("info", "LOST", "END")' 'r["pid"]' | sort -u)" "$PID"
# the trace's END is never filtered out, as LOST: what the file misses is always said
check p_keeps_end t_eq "$(sel sp1 'r["type"] == "END"' 'r["why"]')" exited
kj st "$TMP/s.ktr" -t n
check t_n_only_nami t_eq "$(sel st 'r["type"] not in ("info", "LOST", "END")' 'r["type"]' | sort -u)" NAMI
check t_n_same_count t_eq $(($(wc -l <"$TMP/st.jsonl") - 1)) \
	"$("$KDUMP" -t n -f "$TMP/s.ktr" | norm | awk -F"\t" '$4 != "-"' | wc -l)"
kp stp "$TMP/s.ktr" -t c
check t_c_timeline_rules chrome_ok stp
check t_c_timeline_no_paths t_eq "$(evs stp 'e["ph"] == "E" and "path" in e["args"]' | wc -l)" 0

# --- GIO: the bytes round-trip ----------------------------------------------------
mkdir -p "$TMP/w"
ktr io -f "$TMP/io.ktr" "$PROGS/fac_io" "$TMP/w"
check io_exit_0 t_krc 0 io
IOPID=$(awk '$1 == "pid" { print $2 }' "$TMP/io.out")
kj io "$TMP/io.ktr" -m 0
check io_lines_parse lines_ok io
# STRU from the decoder's fields, no text: pipe's fd_pair as an array of
# the two descriptors fac_io read and wrote through
check io_stru_no_text t_eq "$(sel io 'r["type"] == "STRU" and "text" in r' | wc -l)" 0
check io_pipe_fd_pair t_eq "$(sel io 'r["type"] == "STRU" and r["pid"] == '"${IOPID:-0}"' and r["struct"] == "fd_pair"' \
	'r["fields"]' | head -n 1)" \
	"[$(awk '$1 == "pipe_read" { print $3 }' "$TMP/io.out"), $(awk '$1 == "pipe_write" { print $3 }' "$TMP/io.out")]"
# every transfer fac_io reports: one GIO of its fd and direction with the very bytes
python3 - "$TMP/io.out" "$TMP/io.jsonl" "${IOPID:-0}" >"$TMP/io.cmp" <<'EOF'
import json, sys
gio = [json.loads(l) for l in open(sys.argv[2])][1:]
gio = [r for r in gio if r["type"] == "GIO" and r["pid"] == int(sys.argv[3])]
n = bad = 0
for line in open(sys.argv[1]):
    f = line.split()
    if "hex" not in f or "fd" not in f:
        continue
    fd, hx = int(f[f.index("fd") + 1]), f[f.index("hex") + 1]
    n += 1
    if not any(r["fd"] == fd and r["data"].encode("latin-1").hex() == hx and
               r["len"] == len(hx) // 2 for r in gio):
        bad += 1
        print("no GIO of", f[0], file=sys.stderr)
print(n, bad)
EOF
read -r nio nbad <"$TMP/io.cmp"
check io_transfers_reported t_num "${nio:-0}" -ge 10
check io_bytes_round_trip t_eq "${nbad:-x}" 0
check io_dirs t_eq "$(sel io 'r["type"] == "GIO"' 'r["dir"]' | sort -u | tr '\n' ' ')" "read write "
kj io8 "$TMP/io.ktr" -m 8
check io_m8_clipped t_eq "$(sel io8 'r["type"] == "GIO" and (len(r["data"]) > 8 or (r["len"] > 8) != r.get("truncated", False))' |
	wc -l)" 0
check io_m8_some_clipped t_num "$(sel io8 'r["type"] == "GIO" and r.get("truncated")' | wc -l)" -gt 0
check io_m8_default_64 t_eq "$(sel io 'r["type"] == "GIO"' 'r["len"]' | sort -n | tail -n 1)" \
	"$(sel io8 'r["type"] == "GIO"' 'r["len"]' | sort -n | tail -n 1)"
timeout 60 "$KDUMP" -J -s -f "$TMP/io.ktr" >"$TMP/ios.jsonl"
check io_s_no_data t_eq "$(sel ios 'r["type"] == "GIO" and "data" in r' | wc -l)" 0
kp iop "$TMP/io.ktr" -m 0
check io_timeline_rules chrome_ok iop
check io_timeline_gio_instants t_eq "$(evs iop 'e["ph"] == "i" and e["name"] == "GIO"' | wc -l)" \
	"$(sel io 'r["type"] == "GIO"' | wc -l)"

# --- signals ------------------------------------------------------------------------
ktr sig -f "$TMP/sig.ktr" "$PROGS/fac_sig" caught
check sig_exit_0 t_krc 0 sig
kj sig "$TMP/sig.ktr"
check sig_lines_parse lines_ok sig
# the kernel's SIGRTMIN (32), not glibc's; SIGRT_n as strace names them
RT=$(awk '$1 == "rt" { print $2 }' "$TMP/sig.out")
SIGS="SIGUSR1 SIGUSR2 SIGHUP SIGRT_$((${RT:-0} - 32)) "
check sig_names t_eq "$(sel sig 'r["type"] == "PSIG"' 'r["signal"]' | tr '\n' ' ')" "$SIGS"
check sig_handlers t_eq "$(sel sig 'r["type"] == "PSIG"' '"%d %s" % (r["signo"], r["handler"])')" \
	"$(awk '$1 == "handler" { print $2, $3 }' "$TMP/sig.out")"
check sig_codes t_eq "$(sel sig 'r["type"] == "PSIG" and r["signo"] in (10, 12, 1)' \
	'"%d %d %s" % (r["signo"], r["code"], r["code_name"])' | tr '\n' ' ')" \
	"10 0 SI_USER 12 -6 SI_TKILL 1 -1 SI_QUEUE "
check sig_mask t_eq "$(sel sig 'r["type"] == "PSIG"' 'r["mask"]' | sort -u)" \
	"$(awk '$1 == "mask" { print $2 }' "$TMP/sig.out")"
check sig_action t_eq "$(sel sig 'r["type"] == "PSIG"' 'r["action"]' | sort -u)" caught
kp sigp "$TMP/sig.ktr"
check sig_timeline_rules chrome_ok sigp
check sig_timeline_instants t_eq "$(evs sigp 'e["ph"] == "i" and e["cat"] == "signal"' \
	'e["args"]["signal"]' | tr '\n' ' ')" "$SIGS"

# --- spans and user records (utrace.h) ----------------------------------------------
ktr sp -t cu -f "$TMP/spans.ktr" "$PROGS/uev_spans" 2
check spans_exit_0 t_krc 0 sp
kj spans "$TMP/spans.ktr"
check spans_lines_parse lines_ok spans
# enter TID DEPTH SUBSYS NAME KV / exit TID DEPTH SUBSYS NAME ok|err KV, in order per thread
awk '$1 == "enter" || $1 == "exit" { print $1, $2, $4, $5 }' "$TMP/sp.out" | sort -s -k2,2 \
	>"$TMP/spans.want"
sel spans 'r["type"] == "USER" and r["kind"] in ("span_enter", "span_exit")' \
	'"%s %d %s %s" % (r["kind"][5:], r["tid"], r["subsys"], r["name"])' | sort -s -k2,2 \
	>"$TMP/spans.got"
check spans_some t_num "$(wc -l <"$TMP/spans.want")" -gt 10
check spans_match_program t_eq "$(cat "$TMP/spans.got")" "$(cat "$TMP/spans.want")"
check spans_err_exit t_eq "$(sel spans 'r.get("kind") == "span_exit" and r["err"]' 'r["kv"] != ""' |
	sort -u)" True
check spans_durations t_eq "$(sel spans 'r.get("kind") == "span_exit" and not (r["dur_ns"] >= 0)' |
	wc -l)" 0
check utrace_records t_eq "$(sel spans 'r.get("kind") == "utrace"' 'r["len"]' | sort -n | tr '\n' ' ')" \
	"$(awk '$1 == "utrace" && $4 == 0 { print $3 }' "$TMP/sp.out" | sort -n | tr '\n' ' ')"
kp spansp "$TMP/spans.ktr"
check spans_timeline_rules chrome_ok spansp
check spans_timeline_slices t_eq "$(evs spansp 'e["ph"] == "B" and e["cat"] == "span"' | wc -l)" \
	"$(grep -c '^enter' "$TMP/sp.out")"
check spans_timeline_names t_eq "$(evs spansp 'e["ph"] == "B" and e["cat"] == "span"' 'e["name"]' |
	sort -u | tr '\n' ' ')" \
	"$(awk '$1 == "enter" { print $4 ":" $5 }' "$TMP/sp.out" | sort -u | tr '\n' ' ')"

# the same trace cut inside spans: the first enter dropped, the end cut after the last enter
python3 "$REPO/tests/lib/ktr_inside.py" "$TMP/spans.ktr" "$TMP/spancut.ktr" span
kp spancut "$TMP/spancut.ktr"
check spancut_rules chrome_ok spancut
check spancut_started_before t_num "$(evs spancut 'e["ph"] == "B" and e["cat"] == "span" and e["args"].get("started_before_trace")' |
	wc -l)" -ge 1
check spancut_unfinished t_num "$(evs spancut 'e["ph"] == "E" and e["cat"] == "span" and e["args"].get("unfinished")' |
	wc -l)" -ge 1

# --- a trace that starts and ends inside a read -------------------------------------
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/cat.out" &
CAT=$!
E2E_PIDS="${E2E_PIDS:-} $CAT"
exec 9>"$TMP/fifo"
sleep 0.3 # cat is blocked in read(0)
ktr att -f "$TMP/att.ktr" -p "$CAT"
check att_exit_0 t_krc 0 att
sleep 0.3
echo "hello json" >&9
sleep 0.3
ktr attc -c -p "$CAT"
check att_clear_exit_0 t_krc 0 attc
stable "$TMP/att.ktr" >/dev/null 2>&1
exec 9>&-
wait "$CAT" 2>/dev/null
kj att "$TMP/att.ktr" -m 0
check att_lines_parse lines_ok att
check att_first_is_ret_read t_eq "$(sel att 'r["type"] in ("CALL", "RET")' \
	'"%s %s %d" % (r["type"], r["syscall"], r["pid"])' | head -n 1)" "RET read $CAT"
check att_gio_round_trip t_eq "$(sel att 'r["type"] == "GIO" and r["dir"] == "read"' 'r["data"]' |
	head -n 1)" "hello json"
kp attp "$TMP/att.ktr"
check att_timeline_rules chrome_ok attp
check att_started_inside_read t_eq "$(evs attp 'e["ph"] == "B" and e["args"].get("started_before_trace")' \
	'e["name"]' | head -n 1)" read
check att_first_read_returns t_eq "$(evs attp 'e["ph"] == "E" and e["name"] == "read"' \
	'e["args"].get("retval")' | head -n 1)" 11
check att_ends_inside_read t_eq "$(evs attp 'e["ph"] == "E" and e["args"].get("unfinished")' \
	'e["name"]' | tail -n 1)" read

# --- lost records: a 4 KiB ring against a loop -------------------------------------
daemon_gone 10
ktr lost -b 4096 -f "$TMP/lost.ktr" "$PROGS/getppid_loop" 300000
read -r _ nlost _ <<<"$(ktr_summary lost)"
if grep -q -- '-b ignored' "$TMP/lost.err"; then
	skip lost_records "a ktraceb daemon with another ring size was running"
elif [ "${nlost:-0}" -eq 0 ]; then
	skip lost_records "no records were lost with a 4 KiB ring"
else
	kj lost "$TMP/lost.ktr" -t n
	check lost_lines_parse lines_ok lost
	check lost_total t_eq "$(sel lost 'r["type"] == "LOST"' 'r["lost_total"]' | tail -n 1)" "$nlost"
	check lost_sum t_eq "$(sel lost 'r["type"] == "LOST"' 'r["lost"]' | awk '{ s += $1 } END { print s }')" \
		"$nlost"
	kp lostp "$TMP/lost.ktr"
	check lost_timeline_rules chrome_ok lostp
	check lost_timeline_instants t_eq "$(evs lostp 'e["ph"] == "i" and e["name"] == "LOST"' | wc -l)" \
		"$(sel lost 'r["type"] == "LOST"' | wc -l)"
fi
e2e_done
