/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The files a trace names, opened as a hostile trace would want them not
 * to be: the object paths of its KTR_OBJECT records, and the debug files
 * their build ids and debug links point to.
 *
 *  - A path is taken only if it is absolute and clean (no "." or ".."
 *    component, no empty one).
 *  - Nothing under /proc, /sys or /dev is opened at all.
 *  - It is opened with O_PATH (no open of a device or a FIFO happens) and
 *    looked at first: only a regular file, and not on one of the kernel's
 *    file systems (a link to /proc/kmsg, whose read takes the kernel's
 *    log: ktr_kernfs.h), is then opened for reading, through that very
 *    descriptor (/proc/self/fd), without blocking.
 *  - Debug files are looked for in the standard directory alone
 *    (/usr/lib/debug, as gdb and the elfutils tools look): by build id
 *    (.build-id/xx/rest.debug, and the object itself at .build-id/xx/rest),
 *    and by .gnu_debuglink only as a plain file name under /usr/lib/debug
 *    and the object's directory (no "/", so no ".." and no absolute
 *    escape); a dwz file (.gnu_debugaltlink) by its build id, or at an
 *    absolute path inside /usr/lib/debug.
 *
 * What is skipped for one of these reasons is said, one line on stderr per
 * file, once.
 */
#ifndef KDUMP_FILES_H
#define KDUMP_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <elfutils/libdwfl.h>
#include <linux/types.h>

#define KD_DEBUG_DIR "/usr/lib/debug"

/* Absolute, no empty, "." or ".." component, shorter than PATH_MAX. */
bool kd_path_clean(const char *path);

/*
 * The regular file at path, open for reading, or -1: *why then says why it
 * was refused (NULL when there is just no such file).
 */
int kd_file_open(const char *path, const char **why);

/* Say once, in one line on stderr, that the file at path (or a name) was skipped. */
void kd_file_skipped(const char *what, const char *why);

/* /usr/lib/debug/.build-id/xx/rest followed by suffix (".debug", or ""), malloc'd */
char *kd_build_id_path(const __u8 *id, size_t len, const char *suffix);

/*
 * libdwfl's find_debuginfo callback with the rules above, in place of
 * dwfl_standard_find_debuginfo: the module's debug file (its build id must
 * match), or its dwz file.  A descriptor, or -1.
 */
int kd_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		      const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		      char **debuginfo_file_name);

/*
 * May the module's DWARF be read?  Not if its dwz file was not found
 * (libdw would look for it by any name itself), nor if it is split into
 * .dwo files (the same).  Loads it; what names the module in a message.
 */
bool kd_module_dwarf_usable(Dwfl_Module *mod, const char *what);

/* libdwfl's find_elf callback: never a file (every module comes with its own). */
int kd_find_no_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		   char **file_name, Elf **elfp);

/* find_debuginfo for a session that wants the objects' own files alone */
int kd_find_no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			 Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			 GElf_Word debuglink_crc, char **debuginfo_file_name);

/* The ELF file of build id id at path (checked as above), or NULL; *fdp its descriptor. */
Elf *kd_elf_open_matching(const char *path, const __u8 *id, size_t len, int *fdp,
			  const char **why);

/* Forget what was said (the next file starts afresh). */
void kd_files__reset(void);

#endif /* KDUMP_FILES_H */
