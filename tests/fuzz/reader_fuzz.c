// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * libFuzzer target for the kdump reader and printers: any input must end
 * with a status, never a crash, a hang or a leak.  Built by `make check`
 * and `make test` as $(O)/tests/fuzz/reader_fuzz (clang, libFuzzer, ASan,
 * UBSan) and, without libFuzzer, as $(O)/tests/fuzz/reader_replay, which
 * runs the committed corpus once (replay.c); t_fuzz.sh runs both:
 *
 *   build/tests/fuzz/reader_fuzz -max_len=65536 corpus/
 *
 * The first two input bytes pick the kdump options, so every printer path,
 * the -Y summary, the -G span tree, the -J JSON lines and the -P timeline
 * are reached: byte 1 bit 0 -G, bit 3 -J, bit 4 -P (the first that fits;
 * -J and -P drop the options kdump refuses with them).
 */
#include <stdint.h>
#include <stdio.h>

#include "decode.h"
#include "kdump_pipeline.h"
#include "kdump_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kdump_opts o = { .maxdata = KD_MAXDATA_DEFAULT };
	struct ktr_reader *r = NULL;
	struct kdump *kd = NULL;
	FILE *in, *out;

	if (size > 1) {
		o.flags = data[0] & (KD_CPU | KD_TIDCOL | KD_ABSTIME | KD_ELAPSED | KD_RELTIME |
				     KD_NOGIO | KD_SYSNR | KD_SUMMARY);
		o.maxdata = data[0] & 1 ? 0 : KD_MAXDATA_DEFAULT;
		if ((data[1] & 1) && !(o.flags & KD_SUMMARY))
			o.flags |= KD_TREE;
		/* -J, -P: without the options kdump.c refuses with them */
		else if (data[1] & 8)
			o.flags = (o.flags & (KD_NOGIO | KD_CPU)) | KD_JSON;
		else if (data[1] & 16)
			o.flags = (o.flags & (KD_NOGIO | KD_SYSNR)) | KD_CHROME;
		o.decode = (data[1] & 2 ? KTR_DEC_RAW : 0) | (data[1] & 4 ? KTR_DEC_DECIMAL : 0);
		/* -y, -yy (not with -G, -P) and -D (text only) */
		if ((data[1] & 32) && !(o.flags & (KD_TREE | KD_CHROME)))
			o.flags |= KD_FDS | (data[1] & 64 ? KD_FDS_SOCK : 0);
		if ((data[1] & 128) && !(o.flags & (KD_JSON | KD_CHROME)))
			o.flags |= KD_DURATION;
		data += 2;
		size -= 2;
	}
	in = fmemopen((void *)data, size, "r");
	out = fopen("/dev/null", "w");
	if (!in || !out)
		goto cleanup;
	r = ktr_reader__open(in, 0);
	kd = kdump__new(&o, out);
	/* JSON sinks end their output after an error too, as kdump.c does */
	if (r && kd && (kdump__run(kd, r) == 0 || (o.flags & (KD_JSON | KD_CHROME))))
		kdump__finish(kd);
cleanup:
	kdump__free(kd);
	ktr_reader__close(r);
	if (out)
		fclose(out);
	if (in)
		fclose(in);
	return 0;
}
