/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The decoder's part for -k (kdump_decode.h): KTR_OBJECT and KTR_MAPPING
 * records kept, and each KTR_USTACK's frames found (unwound from its
 * stack copy, or the kernel's walk checked) and named.
 */
#ifndef KTRACEB_KDUMP_DECODE_STACK_H
#define KTRACEB_KDUMP_DECODE_STACK_H

#include "kdump_event.h"

struct kd_decoder;
struct kd_stacks;

struct kd_stacks *kd_stacks__new(void);
void kd_stacks__free(struct kd_stacks *k);

/*
 * fn(ctx, d) gives the whole file's KTR_OBJECT and KTR_MAPPING records
 * (kd_decoder__object, kd_decoder__mapping), once, before the first stack:
 * for a file that can be read twice.
 */
void kd_stacks__set_reader(struct kd_stacks *k, void (*fn)(void *ctx, struct kd_decoder *d),
			   void *ctx);

/* Each fills ev from its record (ev->valid false if it does not fit); 0 or -ENOMEM. */
int kd_stacks__object(struct kd_stacks *k, struct kd_event *ev);
int kd_stacks__mapping(struct kd_stacks *k, struct kd_event *ev);
int kd_stacks__ustack(struct kd_stacks *k, struct kd_decoder *d, struct kd_event *ev);

/* A record given by the reader (kd_stacks__set_reader). */
void kd_stacks__add_object(struct kd_stacks *k, const struct ktr_object *o,
			   const struct ktr_object_load *loads, const char *path);
void kd_stacks__add_mapping(struct kd_stacks *k, const struct ktr_header *h,
			    const struct ktr_mapping *m);

#endif /* KTRACEB_KDUMP_DECODE_STACK_H */
