/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* Facility letters (-t trstr), shared by ktraceb and kdump as BSD's subr.c. */
#ifndef KTRACEB_TRSTR_H
#define KTRACEB_TRSTR_H

/* The KTRFAC_* mask for a trstr such as "cnisuw+", or -1 on an unknown letter. */
int ktr_getpoints(const char *trstr);

#endif /* KTRACEB_TRSTR_H */
