/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* Names and numbers as kdump's outputs show them, for every sink alike. */
#ifndef KTRACEB_KDUMP_FMT_H
#define KTRACEB_KDUMP_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "ktraceb/ktr.h"

/* A syscall's name: "openat", "openat[257]" with sysnr (-S), "[999]" if unknown. */
void kd_fmt_scname(char *buf, size_t size, unsigned int sv_flags, int code, bool sysnr);
/* The same, straight to out: this runs for every CALL and RET. */
void kd_put_scname(FILE *out, unsigned int sv_flags, int code, bool sysnr);

/* ns as "839ns", "1.25ms", "48.2ms", "839ms", "2.50s" (three digits at most). */
void kd_fmt_ns(char *buf, size_t size, __u64 ns);

/* A call's time as strace -T shows it: " <0.000012>" (seconds, to the microsecond). */
void kd_put_duration(FILE *out, __u64 ns);

/* The header's comm, untrusted: up to its NUL or 16 bytes, '?' for what is not printable. */
void kd_fmt_comm(char comm[KTR_MAXCOMLEN + 1], const struct ktr_header *h);

/*
 * An END record's reason (KTR_END_*): its words in the text ("every traced
 * process exited"), or with key its name in JSON ("exited"); NULL if unknown.
 */
const char *kd_fmt_end_why(__u32 why, bool key);

#endif /* KTRACEB_KDUMP_FMT_H */
