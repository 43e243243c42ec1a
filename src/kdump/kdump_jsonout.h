/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What the two JSON sinks, JSON lines (-J, kdump_json.c) and the Chrome
 * trace-event timeline (-P, kdump_chrome.c), write alike: strings escaped
 * in one place, and each record's decoded values (a syscall's arguments by
 * name, its return, a signal, a user record) as JSON members.  Decoded
 * values are the text decoders' own words (src/decode/), caught in a
 * memory stream and written as JSON strings.
 *
 * Strings: every byte is one character; printable ASCII as is, the rest
 * as JSON escapes (\n, \", \u00e9 for byte 0xe9), so any byte string
 * (a path, GIO data) is valid JSON and comes back byte for byte as the
 * string's code points (Python: s.encode("latin-1")).
 */
#ifndef KTRACEB_KDUMP_JSONOUT_H
#define KTRACEB_KDUMP_JSONOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "ktraceb/ktr.h"

struct kdump;
struct kd_event;

/* A quoted JSON string of len bytes. */
void kd_json_str(FILE *out, const void *p, size_t len);
/* A quoted JSON string of a C string. */
void kd_json_cstr(FILE *out, const char *s);
/* The header's comm, at most KTR_MAXCOMLEN bytes, as a JSON string. */
void kd_json_comm(FILE *out, const struct ktr_header *h);

/*
 * A stream for a decoder's text (kd_json_capture) and the text written
 * since, as a JSON string (kd_json_captured).  NULL when out of memory.
 */
FILE *kd_json_capture(struct kdump *kd);
void kd_json_captured(struct kdump *kd, FILE *out);
/* The text caught since kd_json_capture, valid until the next capture; NULL if none. */
const char *kd_json_capture_text(struct kdump *kd, size_t *len);

/*
 * The members of each record type, each one ',"key":value' (so after at
 * least one member).  Each returns -EINVAL, having written nothing, for a
 * payload its type cannot have.
 */
/* CALL: ,"syscall","nr","args":[{"name","value","raw"}...] (as_object: "args":{name:value}) */
int kd_json_call(struct kdump *kd, FILE *out, const struct kd_event *ev, bool as_object);
/* RET: ,"syscall","nr","retval","error"[,"errno"],"value" */
int kd_json_ret(struct kdump *kd, FILE *out, const struct kd_event *ev);
/* GIO: ,"fd","dir","len"[,"data"[,"truncated"]]; data up to -m bytes, none with -s */
int kd_json_genio(struct kdump *kd, FILE *out, const struct kd_event *ev);
/* PSIG: ,"signo","signal","action"[,"handler","mask"],"code"[,"code_name"] */
int kd_json_psig(struct kdump *kd, FILE *out, const struct kd_event *ev);
/* EXIT: ,"status" then ,"exit_code" or ,"signal","core" */
int kd_json_exit(struct kdump *kd, FILE *out, const struct kd_event *ev);
/* USER: a KTRU record's kind, names, arguments and span; else ,"len","data" */
int kd_json_user(struct kdump *kd, FILE *out, const struct kd_event *ev);
/* The name of a syscall's slice or of a span ("openat", "fw:load_firmware"). */
void kd_json_span_name(const struct kd_event *ev, char *buf, size_t size);

#endif /* KTRACEB_KDUMP_JSONOUT_H */
