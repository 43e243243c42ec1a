/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Where a root daemon pins what outlives it (daemon/ktr_pin.h): under
 * KTR_PIN_DIR, in a directory of its build.  The command looks there too:
 * recordings a daemon killed -9 left wait for a new daemon to take them
 * over, so it starts one (client/ktr_run.c).
 */
#ifndef KTRACEB_KTR_PIN_DIR_H
#define KTRACEB_KTR_PIN_DIR_H

#include <stdbool.h>

#define KTR_PIN_DIR "/sys/fs/bpf/ktraceb"

/*
 * Did a daemon of this build leave a recording's pins (it may wait for a
 * daemon)?  The programs kept for the next daemon (ktr_progcache.h) are not.
 */
bool ktr_pin__left(void);

#endif /* KTRACEB_KTR_PIN_DIR_H */
