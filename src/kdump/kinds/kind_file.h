/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What a kind's file (kdump_kind.h) includes: the event, the decoder's
 * state its decode function fills, the text and JSON formatters, and what
 * its count (-Y) and timeline (-P) hooks add to and draw with.
 */
#ifndef KTRACEB_KDUMP_KIND_FILE_H
#define KTRACEB_KDUMP_KIND_FILE_H

#include <errno.h>
#include <string.h>
#include <sys/wait.h>

#include "decode.h"
#include "kdump_body.h"
#include "kdump_data.h"
#include "kdump_decoder_int.h"
#include "kdump_fmt.h"
#include "kdump_jsonout.h"
#include "kdump_kind.h"
#include "kdump_summary.h"
#include "kdump_timeline.h"

/* ARGS's text and JSON (args.c), which ENVS's are too */
void kd_args_text(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);
int kd_args_json(struct kd_json_out *j, const struct kd_event *ev);

#endif /* KTRACEB_KDUMP_KIND_FILE_H */
