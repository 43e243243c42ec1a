/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What the two JSON sinks, JSON lines (-J, kdump_json.c) and the Chrome
 * trace-event timeline (-P, kdump_chrome.c), write alike: strings, and
 * each event's decoded values (a syscall's arguments by name, its return,
 * a signal, a user record) as JSON members.  Decoded values are the text
 * decoders' own words (src/decode/): a syscall's arguments, its return and
 * a structure's members come as the fields the decoder gives (decode.h),
 * each with its decoded text and raw value; the text of a whole record
 * ("text" members) is caught in a memory stream of the sink's (struct
 * kd_capture).  A formatter, not a sink.
 *
 * Strings: every byte is one character; printable ASCII as is, the rest
 * as JSON escapes (\n, \", \u00e9 for byte 0xe9: decode.h KTR_ESC_JSON),
 * so any byte string (a path, GIO data) is valid JSON and comes back byte
 * for byte as the string's code points (Python: s.encode("latin-1")).
 */
#ifndef KTRACEB_KDUMP_JSONOUT_H
#define KTRACEB_KDUMP_JSONOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "kdump_opts.h"
#include "kdump_event.h"

/* A quoted JSON string of len bytes. */
void kd_json_str(FILE *out, const void *p, size_t len);
/* A quoted JSON string of a C string. */
void kd_json_cstr(FILE *out, const char *s);
/* The header's comm, at most KTR_MAXCOMLEN bytes, as a JSON string. */
void kd_json_comm(FILE *out, const struct ktr_header *h);

/* A hex string of a build id's bytes: "ab01..." */
void kd_json_hex_id(FILE *out, const __u8 *id, unsigned int len);

/* A memory stream a record's text is caught in, reused event after event. */
struct kd_capture;
struct kd_capture *kd_capture__new(void);
void kd_capture__free(struct kd_capture *c);
/* The stream, emptied; NULL when out of memory. */
FILE *kd_capture__start(struct kd_capture *c);
/* The text written since kd_capture__start, valid until the next start; NULL if none. */
const char *kd_capture__text(struct kd_capture *c, size_t *len);

/*
 * Where a kind's JSON members go (kdump_kind.h): the output, kdump's
 * options, and memory streams for a structure's text and its fields.
 */
struct kd_json_out {
	FILE *out;
	const struct kdump_opts *o;
	struct kd_capture *cap;
};

/*
 * The members of each kind of valid event, each ',"key":value' (so after
 * at least one member); c catches the decoders' text.
 */
/* CALL: ,"syscall","nr","args":[{"name","value","raw"}...] (as_object: "args":{name:value}) */
void kd_json_call(FILE *out, const struct kd_event *ev, const struct kdump_opts *o,
		  bool as_object);
/* RET: ,"syscall","nr","retval","error"[,"errno"],"value" */
void kd_json_ret(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);
/* GIO: ,"fd","dir","len"[,"data"[,"truncated"]]; data up to -m bytes, none with -s */
void kd_json_genio(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);
/* PSIG: ,"signo","signal","action"[,"handler","mask"],"code"[,"code_name"] */
void kd_json_psig(FILE *out, const struct kd_event *ev);
/* EXIT: ,"status" then ,"exit_code" or ,"signal","core" */
void kd_json_exit(FILE *out, const struct kd_event *ev);
/* USER: a KTRU record's kind, names, arguments and span; else ,"len","data" */
void kd_json_user(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);
/* LOST: ,"lost","lost_total" */
void kd_json_lost(FILE *out, const struct kd_event *ev);
/* END: why (a name: "write_error"...), error and errno, by_pid/by_uid, records, lost, unwritten */
void kd_json_end(FILE *out, const struct kd_event *ev);
/*
 * STRU: a Linux structure's members as the decoder gives them, never its
 * text: ,"fields":{...} or [...], or ,"value":v, and what was left out
 * ("more_items", "more_bytes"); a structure the decoder does not know, or
 * of a size it cannot have ("bad_size"), as ,"data":"<hex>"
 * (kdump_jsonfield.c, docs/JSON.md).
 */
void kd_json_struct(FILE *out, const char *name, const void *data, size_t len, int decode);
/* ,"data":"<hex>": another system's structure, its bytes. */
void kd_json_struct_data(FILE *out, const void *data, size_t len);
/* The name of a span's slice ("fw:load_firmware"). */
void kd_json_span_name(const struct kd_event *ev, char *buf, size_t size);

#endif /* KTRACEB_KDUMP_JSONOUT_H */
