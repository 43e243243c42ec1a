// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Opening what a trace names, as a hostile trace would want it opened
 * (kdump_files.h).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "decode.h"
#include "kdump_files.h"
#include "ktr_kernfs.h"

#define SAID_MAX    64 /* files said to be skipped; more are skipped silently */
#define KERNEL_FILE "a file of the kernel's (/proc, /sys, /dev), not an object's"

static __u32 said[SAID_MAX];
static unsigned int nsaid;

bool kd_path_clean(const char *path)
{
	const char *p = path;

	if (!path || path[0] != '/' || strnlen(path, PATH_MAX) >= PATH_MAX)
		return false;
	while (*p) {
		const char *c = p + 1, *e = strchrnul(c, '/');
		size_t n = e - c;

		/* "//", "/./", "/../", and a trailing "/", ".", ".." */
		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		p = e;
	}
	return true;
}

static const char *file_kind(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFIFO:
		return "a FIFO, not a regular file";
	case S_IFCHR:
		return "a character device, not a regular file";
	case S_IFBLK:
		return "a block device, not a regular file";
	case S_IFSOCK:
		return "a socket, not a regular file";
	case S_IFDIR:
		return "a directory, not a regular file";
	default:
		return "not a regular file";
	}
}

/*
 * Is the file at pfd (O_PATH) on none of the kernel's file systems, and
 * outside /dev (devtmpfs is a tmpfs) as its link in /proc/self/fd names it?
 * Else *why.
 */
static bool file_not_kernel(int pfd, const char **why)
{
	char self[64], target[PATH_MAX];
	struct statfs sfs;
	ssize_t n;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	n = readlink(self, target, sizeof(target) - 1);
	if (fstatfs(pfd, &sfs) < 0 || n <= 0) {
		*why = "cannot tell where it is (is /proc mounted?)";
		return false;
	}
	target[n] = '\0';
	if (ktr_kernfs__is(sfs.f_type) || ktr_kernfs__path(target)) {
		*why = KERNEL_FILE;
		return false;
	}
	return true;
}

int kd_file_open(const char *path, const char **why)
{
	struct stat st, st2;
	char self[64];
	int pfd, fd;

	*why = NULL;
	if (!kd_path_clean(path)) {
		*why = "not an absolute path without \".\" and \"..\"";
		return -1;
	}
	if (ktr_kernfs__path(path)) {
		*why = KERNEL_FILE;
		return -1;
	}
	/* O_PATH opens nothing: a device's driver is not called, a FIFO not waited on */
	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			*why = strerror(errno);
		return -1;
	}
	if (fstat(pfd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*why = file_kind(st.st_mode);
		close(pfd);
		return -1;
	}
	/* a link to one (/tmp/x -> /proc/kmsg): its files look regular, and reading one acts */
	if (!file_not_kernel(pfd, why)) {
		close(pfd);
		return -1;
	}
	/* the very file looked at, opened for reading through its descriptor */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	close(pfd);
	if (fd < 0) {
		*why = "cannot be opened again for reading (is /proc mounted?)";
		return -1;
	}
	if (fstat(fd, &st2) < 0 || st2.st_dev != st.st_dev || st2.st_ino != st.st_ino ||
	    !S_ISREG(st2.st_mode)) {
		*why = "changed while it was opened";
		close(fd);
		return -1;
	}
	return fd;
}

void kd_file_skipped(const char *what, const char *why)
{
	__u32 h = 2166136261u;

	for (const char *p = what; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	for (unsigned int i = 0; i < nsaid; i++)
		if (said[i] == h)
			return;
	if (nsaid == SAID_MAX)
		return;
	said[nsaid++] = h;
	fputs("kdump: skipped ", stderr);
	ktr_put_escaped(stderr, what, strlen(what), KTR_ESC_CR);
	fprintf(stderr, ": %s\n", why);
}

void kd_files__reset(void)
{
	nsaid = 0;
}

char *kd_build_id_path(const __u8 *id, size_t len, const char *suffix)
{
	size_t size = sizeof(KD_DEBUG_DIR "/.build-id/") + 2 * len + 1 + strlen(suffix);
	char *p;
	int at;

	if (len < 2 || len > 64 || !(p = malloc(size)))
		return NULL;
	at = snprintf(p, size, KD_DEBUG_DIR "/.build-id/%02x/", id[0]);
	for (size_t i = 1; i < len; i++)
		at += snprintf(p + at, size - at, "%02x", id[i]);
	snprintf(p + at, size - at, "%s", suffix);
	return p;
}

/* The build id in an ELF file, zero-padded to 20 (longer ones: their first 20), or 0. */
static size_t elf_build_id(Elf *e, __u8 out[20])
{
	const void *bid;
	ssize_t len = dwelf_elf_gnu_build_id(e, &bid);

	memset(out, 0, 20);
	if (len <= 0)
		return 0;
	memcpy(out, bid, len < 20 ? len : 20);
	return len;
}

Elf *kd_elf_open_matching(const char *path, const __u8 *id, size_t len, int *fdp, const char **why)
{
	__u8 want[20] = { 0 }, got[20];
	unsigned char magic[SELFMAG];
	int fd = kd_file_open(path, why);
	Elf *e;

	if (fd < 0)
		return NULL;
	/* an ELF file, or nothing is parsed */
	if (pread(fd, magic, sizeof(magic), 0) != sizeof(magic) ||
	    memcmp(magic, ELFMAG, SELFMAG) != 0) {
		*why = "not an ELF file";
		close(fd);
		return NULL;
	}
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	memcpy(want, id, len < 20 ? len : 20);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_build_id(e, got) == 0 ||
	    memcmp(got, want, 20) != 0) {
		*why = "not the object of that build id";
		if (e)
			elf_end(e);
		close(fd);
		return NULL;
	}
	*fdp = fd;
	return e;
}

/* path's file if it is an ELF file of build id id: its descriptor (and *name), else -1 */
static int debug__try(const char *path, const __u8 *id, size_t len, char **name)
{
	const char *why;
	int fd = -1;
	Elf *e = kd_elf_open_matching(path, id, len, &fd, &why);

	if (!e) {
		if (why)
			kd_file_skipped(path, why);
		return -1;
	}
	elf_end(e);
	*name = strdup(path);
	if (!*name) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The module's debug file: by its build id, then by its debug link (a plain name) */
static int debug__find(Dwfl_Module *mod, const char *file_name, const char *link, char **name)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &id, &vaddr), fd = -1;
	char *p;

	if (len <= 0)
		return -1; /* a debug file is believed only with the object's build id */
	p = kd_build_id_path(id, len, ".debug");
	if (p) {
		fd = debug__try(p, id, len, name);
		free(p);
	}
	if (fd >= 0 || !link)
		return fd;
	if (!link[0] || strchr(link, '/') || strcmp(link, ".") == 0 || strcmp(link, "..") == 0) {
		char what[PATH_MAX + 64];

		snprintf(what, sizeof(what), "the debug link %.4000s of %s", link,
			 file_name ? file_name : "an object");
		kd_file_skipped(what, "not a plain file name inside " KD_DEBUG_DIR);
		return -1;
	}
	/* /usr/lib/debug/<the object's directory>/<link>, the object's path being clean */
	if (file_name && kd_path_clean(file_name)) {
		const char *slash = strrchr(file_name, '/');
		size_t size = sizeof(KD_DEBUG_DIR) + (slash - file_name) + 1 + strlen(link) + 1;

		p = malloc(size);
		if (p) {
			snprintf(p, size, KD_DEBUG_DIR "%.*s/%s", (int)(slash - file_name),
				 file_name, link);
			fd = debug__try(p, id, len, name);
			free(p);
		}
	}
	return fd;
}

/* The dwz file a module's DWARF names (its .gnu_debugaltlink), or -1 */
static int debug__find_alt(Dwarf *dw, char **name)
{
	const char *altname;
	const void *altid;
	ssize_t len = dwelf_dwarf_gnu_debugaltlink(dw, &altname, &altid);
	char *p;
	int fd = -1;

	if (len <= 0)
		return -1;
	p = kd_build_id_path(altid, len, ".debug");
	if (p) {
		fd = debug__try(p, altid, len, name);
		free(p);
	}
	if (fd >= 0)
		return fd;
	if (kd_path_clean(altname) && strncmp(altname, KD_DEBUG_DIR "/", 14) == 0)
		return debug__try(altname, altid, len, name);
	{
		char what[PATH_MAX + 64];

		snprintf(what, sizeof(what), "the dwz file %.4000s", altname);
		kd_file_skipped(what,
				"not found by its build id, nor at a path inside " KD_DEBUG_DIR);
	}
	return -1;
}

/* set in a module's userdata when its dwz file was not found: its DWARF is not read */
static char alt_missing;

int kd_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		      const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		      char **debuginfo_file_name)
{
	int fd;

	/*
	 * libdwfl asks for the dwz file with a CRC of 0, once the module's
	 * DWARF is loaded (then at hand); for the debug file, before.
	 */
	if (debuglink_crc == 0 && debuglink_file) {
		Dwarf_Addr bias;
		Dwarf *dw = dwfl_module_getdwarf(mod, &bias);

		if (dw) {
			fd = debug__find_alt(dw, debuginfo_file_name);
			if (fd < 0)
				*userdata = &alt_missing;
			return fd;
		}
	}
	return debug__find(mod, file_name, debuglink_file, debuginfo_file_name);
}

bool kd_module_dwarf_usable(Dwfl_Module *mod, const char *what)
{
	void **userdata = NULL;
	Dwarf_Addr bias;
	Dwarf *dw = dwfl_module_getdwarf(mod, &bias);
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Half version;
	uint8_t type;

	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	if (!dw || (userdata && *userdata == &alt_missing))
		return false;
	/* a skeleton unit's DWARF is in a .dwo file libdw would open by any name */
	while (dwarf_get_units(dw, cu, &next, &version, &type, NULL, NULL) == 0) {
		if (type == DW_UT_skeleton || type == DW_UT_split_compile) {
			kd_file_skipped(what, "its DWARF is split (.dwo files): not looked for");
			return false;
		}
		cu = next;
	}
	return true;
}

int kd_find_no_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		   char **file_name, Elf **elfp)
{
	return -1;
}

int kd_find_no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			 const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			 char **debuginfo_file_name)
{
	return -1;
}
