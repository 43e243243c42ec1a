/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* A command traced from its exec: the way ktraceb runs with a command. */
#ifndef KTRACEB_KTR_COMMAND_H
#define KTRACEB_KTR_COMMAND_H

struct ktr_options;

/* Run o's command, traced into o's file, and wait for it: its exit status. */
int ktr_command__run(const struct ktr_options *o);

#endif /* KTRACEB_KTR_COMMAND_H */
