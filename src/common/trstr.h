/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Facility letters (-t trstr), shared by ktraceb and kdump as BSD's subr.c:
 * one row per letter, read by ktr_getpoints() and by ktraceb -h and kdump -h.
 */
#ifndef KTRACEB_TRSTR_H
#define KTRACEB_TRSTR_H

struct ktr_trpoint {
	char letter;
	int facs; /* the KTRFAC_* bits it turns on */
	const char *name; /* the facility, as BSD names it */
	const char *help; /* for ktraceb -h; a new line goes on with 5 blanks */
	const char *records; /* for kdump -h: the records the letter shows */
};

/* The rows, in ktraceb -h's order, ended by one with letter '\0'. */
extern const struct ktr_trpoint ktr_trpoints[];

/* The KTRFAC_* mask for a trstr such as "cnisuw+", or -1 on an unknown letter. */
int ktr_getpoints(const char *trstr);

#endif /* KTRACEB_TRSTR_H */
