// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * KTR_STRUCT as fields (decode.h): dispatch by name with a length check,
 * arrays, and the file and time structures.  Layouts are the x86_64 kernel ABI, copied into local fixed
 * width structs (the record bytes have no alignment guarantee).
 */
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <fcntl.h>
#include "struct_int.h"

struct k_stat {
	__u64 dev, ino, nlink;
	__u32 mode, uid, gid, pad0;
	__u64 rdev;
	__s64 size, blksize, blocks;
	__s64 atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns;
	__s64 unused[3];
};
_Static_assert(sizeof(struct k_stat) == 144, "x86_64 struct stat");

static void field_time(struct ktr_fields *f, const char *name, __s64 sec, __s64 frac, int ndigits)
{
	ktr_field(f, name);
	ktr_print_time(f->out, sec, frac, ndigits);
}

static void field_mode(struct ktr_fields *f, unsigned int mode, int flags)
{
	ktr_field(f, "mode");
	if (flags & KTR_DEC_RAW)
		fprintf(f->out, "%#o", mode);
	else
		ktr_print_modestr(f->out, mode);
}

/* A dev_t as MAJOR:MINOR, as statx gives it (raw number with -n) */
static void field_dev(struct ktr_fields *f, const char *name, __u64 dev, int flags)
{
	if (flags & KTR_DEC_RAW) {
		ktr_field_u64(f, name, dev);
		return;
	}
	ktr_field(f, name);
	fprintf(f->out, "%u:%u", major(dev), minor(dev));
}

static void print_stat(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	struct k_stat s;

	memcpy(&s, p, sizeof(s));
	field_dev(f, "dev", s.dev, flags);
	ktr_field_u64(f, "ino", s.ino);
	field_mode(f, s.mode, flags);
	ktr_field_u64(f, "nlink", s.nlink);
	ktr_field_u64(f, "uid", s.uid);
	ktr_field_u64(f, "gid", s.gid);
	field_dev(f, "rdev", s.rdev, flags);
	ktr_field_s64(f, "size", s.size);
	ktr_field_s64(f, "blksize", s.blksize);
	ktr_field_s64(f, "blocks", s.blocks);
	field_time(f, "atime", s.atime, s.atime_ns, 9);
	field_time(f, "mtime", s.mtime, s.mtime_ns, 9);
	field_time(f, "ctime", s.ctime, s.ctime_ns, 9);
}

struct k_statx_ts {
	__s64 sec;
	__u32 nsec;
	__s32 pad;
};
struct k_statx {
	__u32 mask, blksize;
	__u64 attributes;
	__u32 nlink, uid, gid;
	__u16 mode, pad0;
	__u64 ino, size, blocks, attributes_mask;
	struct k_statx_ts atime, btime, ctime, mtime;
	__u32 rdev_major, rdev_minor, dev_major, dev_minor;
	__u64 mnt_id;
	__u64 spare[13];
};
_Static_assert(sizeof(struct k_statx) == 256, "struct statx");
#define K_STATX_MNT_ID	      0x1000 /* newer than some libc headers */
#define K_STATX_MNT_ID_UNIQUE 0x4000

/*
 * The fields statx filled are those its mask names (the kernel leaves the
 * others zero, or stale): dev, blksize and the attributes are always set.
 */
static void print_statx(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	FILE *out = f->out;
	struct k_statx s;

	memcpy(&s, p, sizeof(s));
	ktr_field_mask(f, "mask", &ktr_statx_mask_tab, s.mask, flags);
	ktr_field(f, "dev");
	fprintf(out, "%u:%u", s.dev_major, s.dev_minor);
	if (s.mask & STATX_INO)
		ktr_field_u64(f, "ino", s.ino);
	if (s.mask & (STATX_TYPE | STATX_MODE))
		field_mode(f, s.mode, flags);
	if (s.mask & STATX_NLINK)
		ktr_field_u64(f, "nlink", s.nlink);
	if (s.mask & STATX_UID)
		ktr_field_u64(f, "uid", s.uid);
	if (s.mask & STATX_GID)
		ktr_field_u64(f, "gid", s.gid);
	if (s.mask & STATX_TYPE) {
		ktr_field(f, "rdev");
		fprintf(out, "%u:%u", s.rdev_major, s.rdev_minor);
	}
	if (s.mask & STATX_SIZE)
		ktr_field_u64(f, "size", s.size);
	ktr_field_u64(f, "blksize", s.blksize);
	if (s.mask & STATX_BLOCKS)
		ktr_field_u64(f, "blocks", s.blocks);
	ktr_field_hex(f, "attributes", s.attributes);
	if (s.mask & STATX_ATIME)
		field_time(f, "atime", s.atime.sec, s.atime.nsec, 9);
	if (s.mask & STATX_BTIME)
		field_time(f, "btime", s.btime.sec, s.btime.nsec, 9);
	if (s.mask & STATX_CTIME)
		field_time(f, "ctime", s.ctime.sec, s.ctime.nsec, 9);
	if (s.mask & STATX_MTIME)
		field_time(f, "mtime", s.mtime.sec, s.mtime.nsec, 9);
	if (s.mask & (K_STATX_MNT_ID | K_STATX_MNT_ID_UNIQUE))
		ktr_field_u64(f, "mnt_id", s.mnt_id);
}

struct k_statfs {
	__s64 type, bsize;
	__u64 blocks, bfree, bavail, files, ffree;
	__s32 fsid[2];
	__s64 namelen, frsize, flags, spare[4];
};
_Static_assert(sizeof(struct k_statfs) == 120, "x86_64 struct statfs");

/* include/uapi/linux/magic.h */
static const struct ktr_sym fsmagic_sym[] = {
	{ 0xef53, "EXT4_SUPER_MAGIC" },		 { 0x01021994, "TMPFS_MAGIC" },
	{ 0x9fa0, "PROC_SUPER_MAGIC" },		 { 0x62656572, "SYSFS_MAGIC" },
	{ 0x9123683e, "BTRFS_SUPER_MAGIC" },	 { 0x58465342, "XFS_SUPER_MAGIC" },
	{ 0x794c7630, "OVERLAYFS_SUPER_MAGIC" }, { 0x63677270, "CGROUP2_SUPER_MAGIC" },
	{ 0x27e0eb, "CGROUP_SUPER_MAGIC" },	 { 0x6969, "NFS_SUPER_MAGIC" },
	{ 0x1cd1, "DEVPTS_SUPER_MAGIC" },	 { 0x73717368, "SQUASHFS_MAGIC" },
	{ 0x4d44, "MSDOS_SUPER_MAGIC" },	 { 0x65735546, "FUSE_SUPER_MAGIC" },
	{ 0x858458f6, "RAMFS_MAGIC" },		 { 0x73636673, "SECURITYFS_MAGIC" },
	{ 0xcafe4a11, "BPF_FS_MAGIC" },		 { 0x64626720, "DEBUGFS_MAGIC" },
	{ 0x74726163, "TRACEFS_MAGIC" },	 { 0x9660, "ISOFS_SUPER_MAGIC" },
	{ 0x2011bab0, "EXFAT_SUPER_MAGIC" },	 { 0x5346544e, "NTFS_SB_MAGIC" },
	{ 0xf2f52010, "F2FS_SUPER_MAGIC" },	 { 0x01021997, "V9FS_MAGIC" },
};
static const struct ktr_symtab fsmagic_tab = KTR_SYMTAB(fsmagic_sym);

static void print_statfs(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	FILE *out = f->out;
	const char *fsname;
	struct k_statfs s;

	memcpy(&s, p, sizeof(s));
	ktr_field_hex(f, "type", (__u64)s.type);
	fsname = ktr_sym_name(&fsmagic_tab, (__u64)s.type);
	if (fsname && !(flags & KTR_DEC_RAW))
		fprintf(out, "<%s>", fsname);
	ktr_field_s64(f, "bsize", s.bsize);
	ktr_field_u64(f, "blocks", s.blocks);
	ktr_field_u64(f, "bfree", s.bfree);
	ktr_field_u64(f, "bavail", s.bavail);
	ktr_field_u64(f, "files", s.files);
	ktr_field_u64(f, "ffree", s.ffree);
	ktr_field(f, "fsid");
	fprintf(out, "{ %d, %d }", s.fsid[0], s.fsid[1]);
	ktr_field_s64(f, "namelen", s.namelen);
	ktr_field_s64(f, "frsize", s.frsize);
	ktr_field_hex(f, "flags", (__u64)s.flags);
}

/* timespec and timeval: one, or the pair of utimensat/utimes. */
static void print_timespec(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__s64 t[2];

	memcpy(t, p, sizeof(t));
	ktr_field(f, NULL);
	ktr_print_time(f->out, t[0], t[1], 9);
}

static void print_timeval(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__s64 t[2];

	memcpy(t, p, sizeof(t));
	ktr_field(f, NULL);
	ktr_print_time(f->out, t[0], t[1], 6);
}

/* itimerspec and itimerval: { interval, value } */
static void print_itimer(struct ktr_fields *f, const unsigned char *p, int ndigits)
{
	__s64 t[4];

	memcpy(t, p, sizeof(t));
	field_time(f, "interval", t[0], t[1], ndigits);
	field_time(f, "value", t[2], t[3], ndigits);
}

static void print_itimerspec(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	print_itimer(f, p, 9);
}

static void print_itimerval(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	print_itimer(f, p, 6);
}

static void print_timezone(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__s32 tz[2];

	memcpy(tz, p, sizeof(tz));
	ktr_field_s64(f, "minuteswest", tz[0]);
	ktr_field_s64(f, "dsttime", tz[1]);
}

static void print_fdpair(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__s32 fd[2];

	memcpy(fd, p, sizeof(fd));
	ktr_field_s64(f, NULL, fd[0]);
	ktr_field_s64(f, NULL, fd[1]);
}

static void print_int(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__s32 v;

	memcpy(&v, p, sizeof(v));
	ktr_field_s64(f, NULL, v);
}

struct k_open_how {
	__u64 flags, mode, resolve;
};

static const struct ktr_sym resolve_sym[] = {
	{ 0x01, "RESOLVE_NO_XDEV" },	 { 0x02, "RESOLVE_NO_MAGICLINKS" },
	{ 0x04, "RESOLVE_NO_SYMLINKS" }, { 0x08, "RESOLVE_BENEATH" },
	{ 0x10, "RESOLVE_IN_ROOT" },	 { 0x20, "RESOLVE_CACHED" },
};
const struct ktr_symtab ktr_resolve_tab = KTR_SYMTAB(resolve_sym);

/*
 * struct open_how is extensible: 24 bytes today (OPEN_HOW_SIZE_VER0).  The
 * fields the recorded size holds are printed, then what is left over.
 */
static void print_open_how(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	FILE *out = f->out;
	struct k_open_how h = { 0 };

	memcpy(&h, p, len < sizeof(h) ? len : sizeof(h));
	if (len >= 8) {
		ktr_field(f, "flags");
		ktr_print_open_flags(out, h.flags, flags);
	}
	if (len >= 16) {
		ktr_field(f, "mode");
		ktr_print_octal(out, h.mode, flags);
	}
	if (len >= 24) {
		ktr_field_mask(f, "resolve", &ktr_resolve_tab, h.resolve, flags);
	}
	ktr_field_rest(f, len, len / 8 * 8 < 24 ? len / 8 * 8 : 24);
}

struct k_flock {
	__s16 type, whence;
	__u32 pad;
	__s64 start, len;
	__s32 pid, pad2;
};
_Static_assert(sizeof(struct k_flock) == 32, "x86_64 struct flock");

static const struct ktr_sym locktype_sym[] = { KTR_SYM(F_RDLCK), KTR_SYM(F_WRLCK),
					       KTR_SYM(F_UNLCK) };
static const struct ktr_symtab locktype_tab = KTR_SYMTAB(locktype_sym);
static const struct ktr_sym whence_sym[] = { KTR_SYM(SEEK_SET), KTR_SYM(SEEK_CUR),
					     KTR_SYM(SEEK_END) };
static const struct ktr_symtab whence_tab = KTR_SYMTAB(whence_sym);

static void print_flock(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	struct k_flock l;

	memcpy(&l, p, sizeof(l));
	ktr_field_enum(f, "type", &locktype_tab, l.type, flags);
	ktr_field_enum(f, "whence", &whence_tab, l.whence, flags);
	ktr_field_s64(f, "start", l.start);
	ktr_field_s64(f, "len", l.len);
	ktr_field_s64(f, "pid", l.pid);
}

static void print_winsize(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__u16 w[4];

	memcpy(w, p, sizeof(w));
	ktr_field_u64(f, "row", w[0]);
	ktr_field_u64(f, "col", w[1]);
	ktr_field_u64(f, "xpixel", w[2]);
	ktr_field_u64(f, "ypixel", w[3]);
}

/* Kernel struct termios (36 bytes, TCGETS), termios2 (44) or glibc's (60). */
static const struct ktr_sym lflag_sym[] = {
	{ 0000001, "ISIG" },	{ 0000002, "ICANON" }, { 0000010, "ECHO" },
	{ 0000020, "ECHOE" },	{ 0000040, "ECHOK" },  { 0000100, "ECHONL" },
	{ 0000200, "NOFLSH" },	{ 0000400, "TOSTOP" }, { 0001000, "ECHOCTL" },
	{ 0002000, "ECHOPRT" }, { 0004000, "ECHOKE" }, { 0010000, "FLUSHO" },
	{ 0040000, "PENDIN" },	{ 0100000, "IEXTEN" }, { 0200000, "EXTPROC" },
};
static const struct ktr_symtab lflag_tab = KTR_SYMTAB(lflag_sym);

static void print_termios(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	__u32 fl[4];

	memcpy(fl, p, sizeof(fl));
	ktr_field_hex(f, "iflag", fl[0]);
	ktr_field_hex(f, "oflag", fl[1]);
	ktr_field_hex(f, "cflag", fl[2]);
	ktr_field_mask(f, "lflag", &lflag_tab, fl[3], flags);
	ktr_field_u64(f, "line", p[16]);
}

/* d_ino u64, d_off s64, d_reclen u16, d_type u8, d_name[] */
static const char *const dtypes[16] = {
	[0] = "DT_UNKNOWN", [1] = "DT_FIFO", [2] = "DT_CHR",   [4] = "DT_DIR",	[6] = "DT_BLK",
	[8] = "DT_REG",	    [10] = "DT_LNK", [12] = "DT_SOCK", [14] = "DT_WHT",
};
#define DIRENT_HDR 19
#define DIRENT_MAX 128 /* entries shown per record */

static void print_dirents(struct ktr_fields *f, const unsigned char *p, size_t len, int flags)
{
	size_t off = 0;
	int n = 0;

	while (off + DIRENT_HDR <= len) {
		__u64 ino;
		__u16 reclen;
		__u8 type = p[off + 18];
		const char *name = (const char *)p + off + DIRENT_HDR;

		memcpy(&ino, p + off, sizeof(ino));
		memcpy(&reclen, p + off + 16, sizeof(reclen));
		if (reclen < DIRENT_HDR || reclen > len - off)
			break;
		if (n == DIRENT_MAX) {
			ktr_field_note(f, "...");
			break;
		}
		n++;
		ktr_fields_begin(f, KTR_GROUP_STRUCT);
		ktr_field_u64(f, "ino", ino);
		if (type < 16 && dtypes[type] && !(flags & KTR_DEC_RAW)) {
			ktr_field(f, "type");
			fputs(dtypes[type], f->out);
		} else {
			ktr_field_u64(f, "type", type);
		}
		ktr_field_str(f, "name", name, strnlen(name, reclen - DIRENT_HDR));
		ktr_fields_end(f, KTR_GROUP_STRUCT);
		off += reclen;
	}
	if (off < len && n < DIRENT_MAX)
		ktr_field_note(f, "<%zu bytes left>", len - off);
}

/* Sorted by name. */
static const struct ktr_structdec structs_file[] = {
	{ "fd_pair", 8, 8, 0, print_fdpair },
	{ "flock", 32, 32, 0, print_flock },
	{ "int", 4, 4, 0, print_int },
	{ "itimerspec", 32, 32, 0, print_itimerspec },
	{ "itimerval", 32, 32, 0, print_itimerval },
	{ "linux_dirent64", 0, (size_t)-1, 0, print_dirents },
	{ "open_how", 1, 24, 0, print_open_how },
	{ "stat", 144, 144, 0, print_stat },
	{ "statfs", 120, 120, 0, print_statfs },
	{ "statx", 256, 256, 0, print_statx },
	{ "termios", 36, 60, 0, print_termios },
	{ "timespec", 16, 32, 16, print_timespec },
	{ "timeval", 16, 32, 16, print_timeval },
	{ "timezone", 8, 8, 0, print_timezone },
	{ "winsize", 8, 8, 0, print_winsize },
};

static const size_t nstructs_file = KTR_NELEM(structs_file);

static const struct ktr_structdec *find_struct(const char *name)
{
	static const struct {
		const struct ktr_structdec *tab;
		const size_t *n;
	} fams[] = {
		{ structs_file, &nstructs_file },
		{ ktr_structs_net, &ktr_nstructs_net },
		{ ktr_structs_proc, &ktr_nstructs_proc },
	};

	for (size_t f = 0; f < KTR_NELEM(fams); f++)
		for (size_t i = 0; i < *fams[f].n; i++)
			if (strcmp(fams[f].tab[i].name, name) == 0)
				return &fams[f].tab[i];
	return NULL;
}

#define ARRAY_MAX 256 /* elements shown per record */

static void give_array(struct ktr_fields *f, const struct ktr_structdec *d, const unsigned char *p,
		       size_t len, int flags)
{
	size_t n = len / d->elem;

	ktr_fields_begin(f, KTR_GROUP_ARRAY);
	for (size_t i = 0; i < n && i < ARRAY_MAX; i++) {
		ktr_fields_begin(f, KTR_GROUP_STRUCT);
		d->fn(f, p + i * d->elem, d->elem, flags);
		ktr_fields_end(f, KTR_GROUP_STRUCT);
	}
	if (n > ARRAY_MAX)
		ktr_field_note(f, "... %zu more", n - ARRAY_MAX);
	ktr_fields_end(f, KTR_GROUP_ARRAY);
}

enum ktr_struct_found ktr_decode_struct(const struct ktr_field_sink *s, const char *name,
					const void *data, size_t len, int flags)
{
	const struct ktr_structdec *d = NULL;
	struct ktr_fields f;

	if (strcmp(name, "string") != 0) {
		d = find_struct(name);
		if (!d)
			return KTR_STRUCT_UNKNOWN;
		if (len < d->min || len > d->max || (d->elem && len % d->elem))
			return KTR_STRUCT_BAD_SIZE;
	}
	if (ktr_fields_init(&f, s) < 0)
		return KTR_STRUCT_NOMEM;
	if (!d) /* a string a syscall returned (readlink, getcwd): not NUL-terminated */
		ktr_field_str(&f, NULL, data, len);
	else if (d->fn == print_dirents) { /* variable-size records: walks them itself */
		ktr_fields_begin(&f, KTR_GROUP_ARRAY);
		print_dirents(&f, data, len, flags);
		ktr_fields_end(&f, KTR_GROUP_ARRAY);
	} else if (d->elem && (d->max > 2 * d->elem || len > d->elem)) {
		/* arrays, except the 1..2 element time pairs when single */
		give_array(&f, d, data, len, flags);
	} else {
		ktr_fields_begin(&f, KTR_GROUP_STRUCT);
		d->fn(&f, data, len, flags);
		ktr_fields_end(&f, KTR_GROUP_STRUCT);
	}
	ktr_fields_done(&f);
	return KTR_STRUCT_DECODED;
}
