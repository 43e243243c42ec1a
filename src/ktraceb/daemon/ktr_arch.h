/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* The machine the tracer runs on (common/ktr_arch.h); its table is ktr_arch.c. */
#ifndef KTRACEB_DAEMON_KTR_ARCH_H
#define KTRACEB_DAEMON_KTR_ARCH_H

#include "common/ktr_arch.h"

#endif /* KTRACEB_DAEMON_KTR_ARCH_H */
