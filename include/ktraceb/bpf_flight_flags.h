/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What a flight recorder is asked to do (ktraceb -R size,compact,exit): a
 * request carries these flags (ktr_proto.h), the daemon puts them into the
 * recorder's control (struct ktr_flight_ctl, bpf_flight.h), and the
 * programs read them there.
 */
#ifndef KTRACEB_BPF_FLIGHT_FLAGS_H
#define KTRACEB_BPF_FLIGHT_FLAGS_H

#define KTR_FLIGHT_F_COMPACT 0x1 /* -R size,compact */
#define KTR_FLIGHT_F_ON_EXIT 0x2 /* -R size,exit: a non-zero exit triggers too */

#endif /* KTRACEB_BPF_FLIGHT_FLAGS_H */
