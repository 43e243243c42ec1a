#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# time limit: 600
# (hundreds of kdump -J and -P runs, each checked: tests/run.sh gives it more than the default)
#
# kdump -J (JSON lines) and -P (Chrome timeline) on broken and foreign files
# made without a tracer (the rest: t_json_input.sh): ktrgen's good file cut
# at every 7th byte and around each record's end, the fuzz corpus and the
# BSD fixtures.  Each output is valid JSON up to the error (Python's json
# module, tests/lib/json_check.py, one run over them all), with at most one
# "kdump: ..." line and the text view's exit status.  Needs no privileges.
# About a thousand kdump runs: each writes where it is checked (no copies),
# and the cut files are written in one go.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_json.sh"
need_kdump

G=$TMP/good.ktr
"$PROGS/ktrgen" good "$G"
check good_made t_num "$(stat -c %s "$G" 2>/dev/null || echo 0)" -gt 640

# truncated at every 7th byte and around each record's end: valid JSON, and
# the text view's exit status (non-zero when cut inside a record)
mkdir -p "$TMP/cut"
cuts=$(python3 - "$G" "$TMP/cut" <<'EOF2'
import struct, sys
data = open(sys.argv[1], "rb").read()
cuts, off = set(range(0, len(data), 7)), 0
while off < len(data):
    off += 64 + struct.unpack_from("<i", data, off)[0]
    cuts |= {off - 1, off, off + 1, off + 40}
cuts = sorted(c for c in cuts if 0 <= c < len(data))
for c in cuts:
    open("%s/%d.ktr" % (sys.argv[2], c), "wb").write(data[:c])
print(" ".join(str(c) for c in cuts))
EOF2
)
check cuts_made t_num "$(echo "$cuts" | wc -w)" -gt 100
nbad=0
nzero=0
for cut in $cuts; do
	"$KDUMP" -f "$TMP/cut/$cut.ktr" >/dev/null 2>&1
	trc=$?
	[ "$trc" -eq 0 ] && nzero=$((nzero + 1))
	kj "cut/$cut" "$TMP/cut/$cut.ktr"
	{ ends_cleanly "cut/$cut" && [ "$KDRC" -eq "$trc" ]; } ||
		{ nbad=$((nbad + 1)) && echo "    -J cut at $cut: exit $KDRC" >&2; }
	kp "cut/$cut" "$TMP/cut/$cut.ktr"
	{ ends_cleanly "cut/$cut" && [ "$KDRC" -eq "$trc" ]; } ||
		{ nbad=$((nbad + 1)) && echo "    -P cut at $cut: exit $KDRC" >&2; }
done
check truncated_status_as_text t_eq "$nbad" 0
check truncated_json_lines_parse many_ok lines "$TMP/cut"
check truncated_timeline_rules many_ok chrome "$TMP/cut"
check truncated_mostly_errors t_num "$nzero" -lt $(($(echo "$cuts" | wc -w) / 2))

# --- the fuzz corpus (option bytes stripped) and the BSD fixtures -----------------
mkdir -p "$TMP/corpus"
nbad=0
n=0
for f in "$REPO"/tests/fuzz/corpus/*; do
	n=$((n + 1))
	tail -c +3 "$f" >"$TMP/corpus/$n.ktr"
	kj "corpus/$n" "$TMP/corpus/$n.ktr"
	ends_cleanly "corpus/$n" || { nbad=$((nbad + 1)) && echo "    -J $f" >&2; }
	kp "corpus/$n" "$TMP/corpus/$n.ktr"
	ends_cleanly "corpus/$n" || { nbad=$((nbad + 1)) && echo "    -P $f" >&2; }
done
check corpus_present t_num "$n" -ge 10
check corpus_ends_cleanly t_eq "$nbad" 0
check corpus_json_lines_parse many_ok lines "$TMP/corpus"
check corpus_timeline_rules many_ok chrome "$TMP/corpus"

FIX=${KTR_FIXTURES:-$REPO/tests/fixtures/bsd}
if [ -d "$FIX" ]; then
	nbad=0
	for f in "$FIX"/*.ktrace.out; do
		kj bsd "$f"
		sys=$(sel bsd 'r["type"] == "info"' 'r.get("system")')
		case $(basename "$f") in
		"$sys"-*) ;;
		*) nbad=$((nbad + 1)) && echo "    $f: system $sys" >&2 ;;
		esac
		{ ends_cleanly bsd && lines_ok bsd; } || { nbad=$((nbad + 1)) && echo "    -J $f" >&2; }
		kp bsdp "$f"
		{ ends_cleanly bsdp && chrome_ok bsdp; } || { nbad=$((nbad + 1)) && echo "    -P $f" >&2; }
	done
	check bsd_fixtures_valid t_eq "$nbad" 0
else
	skip bsd_fixtures_valid "no BSD fixtures at $FIX"
fi
e2e_done
