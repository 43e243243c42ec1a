#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The kdump reader and printers under the address and undefined-behaviour
# sanitizers: the committed corpus (tests/fuzz/corpus) and the BSD fixtures
# replayed once, then the libFuzzer target for KTR_FUZZ_RUNS inputs (default
# 1000, a count: a busy machine ran 600 in the 10 s it once had) from a copy
# of the corpus, within KTR_FUZZ_SECONDS (default 200, a bound for a machine
# that stalls; 0 skips the run).  Any crash, leak or sanitizer report
# fails.  Needs no privileges.
. "$(dirname "$0")/lib.sh"

REPLAY=$O/tests/fuzz/reader_replay
FUZZ=$O/tests/fuzz/reader_fuzz
CORPUS=$REPO/tests/fuzz/corpus
if [ ! -x "$REPLAY" ]; then
	fail build "$REPLAY not built (make O=$O check)"
	exit 1
fi

ncorpus=$(find "$CORPUS" -type f | wc -l)
check corpus_present t_num "$ncorpus" -ge 10
"$REPLAY" "$CORPUS" >"$TMP/replay.out" 2>"$TMP/replay.err"
check corpus_replay_exit_0 t_eq "$?" 0
check corpus_replay_all t_eq "$(cat "$TMP/replay.out")" "replayed $ncorpus inputs"
check corpus_replay_no_report t_nogrep 'runtime error|AddressSanitizer|LeakSanitizer' \
	"$TMP/replay.err"

FIX=${KTR_FIXTURES:-$REPO/tests/fixtures/bsd}
if [ -d "$FIX" ]; then
	"$REPLAY" "$FIX" >"$TMP/fix.out" 2>"$TMP/fix.err"
	check bsd_fixtures_replay t_eq "$?" 0
else
	skip bsd_fixtures_replay "no BSD fixtures at $FIX"
fi

secs=${KTR_FUZZ_SECONDS:-200}
nruns=${KTR_FUZZ_RUNS:-1000}
if [ "$secs" -eq 0 ]; then
	skip libfuzzer_run "KTR_FUZZ_SECONDS=0"
elif [ ! -x "$FUZZ" ]; then
	fail libfuzzer_built "$FUZZ not built (make O=$O check)"
else
	mkdir -p "$TMP/corpus" "$TMP/art"
	cp "$CORPUS"/* "$TMP/corpus/"
	# -timeout: one input that runs a minute is a hang, on any machine
	(cd "$TMP/art" && "$FUZZ" -runs="$nruns" -max_total_time="$secs" -max_len=65536 -timeout=60 \
		-rss_limit_mb=1024 -print_final_stats=1 "$TMP/corpus") >"$TMP/fuzz.out" 2>&1
	check libfuzzer_exit_0 t_eq "$?" 0
	check libfuzzer_no_crash t_eq "$(find "$TMP/art" -type f | wc -l)" 0
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TMP/fuzz.out")
	check libfuzzer_ran_all t_num "${runs:-0}" -ge "$nruns" "inputs run within $secs s"
fi
e2e_done
