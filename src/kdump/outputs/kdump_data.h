/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Bytes as kdump's text shows them: quoted strings (decode.h's escaper,
 * KTR_ESC_CR), and GIO data as DragonFly's quoted text lines or FreeBSD's
 * hexdump, chosen as FreeBSD does.
 */
#ifndef KTRACEB_KDUMP_DATA_H
#define KTRACEB_KDUMP_DATA_H

#include <stddef.h>
#include <stdio.h>

/* "..." with \n \t \r \\ \" and \ooo for the rest. */
void kd_putquoted(FILE *out, const void *p, size_t len);
/* GIO data, already clipped: quoted text lines or a hexdump. */
void kd_dump_data(FILE *out, const unsigned char *p, size_t len);

#endif /* KTRACEB_KDUMP_DATA_H */
