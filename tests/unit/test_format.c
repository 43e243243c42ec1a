// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The on-disk layout of include/ktraceb/ktr.h against the numbers of the
 * DragonFly x86_64 format (reference bsd-ktrace.md §1.1, §1.2, §1.3) and the
 * ktraceb extension records (docs/FORMAT.md).  The header's _Static_asserts
 * cover a few offsets at compile time; these checks cover every field and
 * report the actual value when one moves.
 */
#include <stddef.h>
#include <stdint.h>

#include "ktraceb/ktr.h"
#include "../lib/test.h"

#define OFF(s, f)   offsetof(struct s, f)
#define FSIZE(s, f) sizeof(((struct s *)0)->f)

TEST(header_layout)
{
	ASSERT_EQ(sizeof(struct ktr_header), 64, "sizeof ktr_header");
	ASSERT_EQ(_Alignof(struct ktr_header), 8, "alignment");
	ASSERT_EQ(OFF(ktr_header, ktr_len), 0, "ktr_len");
	ASSERT_EQ(FSIZE(ktr_header, ktr_len), 4, "ktr_len size");
	ASSERT_EQ(OFF(ktr_header, ktr_type), 4, "ktr_type");
	ASSERT_EQ(FSIZE(ktr_header, ktr_type), 2, "ktr_type size");
	ASSERT_EQ(OFF(ktr_header, ktr_flags), 6, "ktr_flags");
	ASSERT_EQ(FSIZE(ktr_header, ktr_flags), 2, "ktr_flags size");
	ASSERT_EQ(OFF(ktr_header, ktr_pid), 8, "ktr_pid");
	ASSERT_EQ(FSIZE(ktr_header, ktr_pid), 4, "ktr_pid size");
	ASSERT_EQ(OFF(ktr_header, ktr_tid), 12, "ktr_tid");
	ASSERT_EQ(FSIZE(ktr_header, ktr_tid), 4, "ktr_tid size");
	ASSERT_EQ(OFF(ktr_header, ktr_comm), 16, "ktr_comm");
	ASSERT_EQ(FSIZE(ktr_header, ktr_comm), 17, "ktr_comm size = MAXCOMLEN + 1");
	ASSERT_EQ(OFF(ktr_header, ktr_time_sec), 40, "ktr_time.tv_sec");
	ASSERT_EQ(FSIZE(ktr_header, ktr_time_sec), 8, "tv_sec size");
	ASSERT_EQ(OFF(ktr_header, ktr_time_usec), 48, "ktr_time.tv_usec");
	ASSERT_EQ(FSIZE(ktr_header, ktr_time_usec), 8, "tv_usec size");
	ASSERT_EQ(OFF(ktr_header, ktr_mono_ns), 56, "ktr_buf slot holds mono ns");
	ASSERT_EQ(FSIZE(ktr_header, ktr_mono_ns), 8, "ktr_mono_ns size");
	ASSERT_EQ(KTR_MAXCOMLEN, 16, "MAXCOMLEN");
}

/* A header built byte by byte at the reference offsets (little-endian x86_64). */
TEST(header_bytes)
{
	unsigned char b[64] = { 0 };
	struct ktr_header h;

	b[0] = 0x18; /* len 24 */
	b[4] = 0x02; /* type 2 */
	b[6] = 0x01; /* flags: THREADED | cpu 3 */
	b[7] = 0x03;
	b[8] = 0xd2; /* pid 1234 */
	b[9] = 0x04;
	b[12] = 0xd3; /* tid 1235 */
	b[13] = 0x04;
	memcpy(b + 16, "0123456789abcdef", 16);
	b[40] = 0x10; /* sec 0x10 */
	b[48] = 0x20; /* usec 0x20 */
	b[56] = 0x01; /* mono 0x0201 */
	b[57] = 0x02;
	memcpy(&h, b, sizeof(h));
	ASSERT_EQ(h.ktr_len, 24, "len");
	ASSERT_EQ(h.ktr_type, KTR_SYSRET, "type");
	ASSERT_EQ(h.ktr_flags & KTRH_THREADED, 1, "threaded");
	ASSERT_EQ(KTRH_CPUID_DECODE(h.ktr_flags), 3, "cpu");
	ASSERT_EQ(h.ktr_pid, 1234, "pid");
	ASSERT_EQ(h.ktr_tid, 1235, "tid");
	ASSERT_EQ(h.ktr_comm[15], 'f', "comm last char");
	ASSERT_EQ(h.ktr_comm[16], 0, "comm NUL");
	ASSERT_EQ(h.ktr_time_sec, 0x10, "sec");
	ASSERT_EQ(h.ktr_time_usec, 0x20, "usec");
	ASSERT_EQ(h.ktr_mono_ns, 0x201, "mono");
}

TEST(header_flags)
{
	ASSERT_EQ(KTRH_THREADED, 0x0001, "KTRH_THREADED");
	ASSERT_EQ(KTRH_CPUID_ENCODE(3), 0x0300, "encode 3");
	ASSERT_EQ(KTRH_CPUID_ENCODE(255), 0xff00, "encode 255");
	ASSERT_EQ(KTRH_CPUID_ENCODE(256), 0x0000, "cpu is 8 bits");
	ASSERT_EQ(KTRH_CPUID_DECODE(0x0301), 3, "decode");
	ASSERT_EQ(KTRH_CPUID_DECODE(KTRH_CPUID_ENCODE(200) | KTRH_THREADED), 200, "round trip");
}

TEST(record_types)
{
	ASSERT_EQ(KTR_SYSCALL, 1, "SYSCALL");
	ASSERT_EQ(KTR_SYSRET, 2, "SYSRET");
	ASSERT_EQ(KTR_NAMEI, 3, "NAMEI");
	ASSERT_EQ(KTR_GENIO, 4, "GENIO");
	ASSERT_EQ(KTR_PSIG, 5, "PSIG");
	ASSERT_EQ(KTR_CSW, 6, "CSW");
	ASSERT_EQ(KTR_USER, 7, "USER");
	/* FreeBSD numbers (reference §5.2) */
	ASSERT_EQ(KTR_STRUCT, 8, "STRUCT");
	ASSERT_EQ(KTR_PROCCTOR, 10, "PROCCTOR");
	ASSERT_EQ(KTR_PROCDTOR, 11, "PROCDTOR");
	ASSERT_EQ(KTR_ARGS, 16, "ARGS");
	ASSERT_EQ(KTR_ENVS, 17, "ENVS");
	/* extensions: in 8..31, which a DragonFly kdump skips */
	ASSERT_TRUE(KTR_FILEINFO > KTR_USER && KTR_FILEINFO <= KTR_TYPE_MAX, "FILEINFO range");
	ASSERT_TRUE(KTR_LOST > KTR_USER && KTR_LOST <= KTR_TYPE_MAX, "LOST range");
	ASSERT_TRUE(KTR_EXIT > KTR_USER && KTR_EXIT <= KTR_TYPE_MAX, "EXIT range");
	ASSERT_TRUE(KTR_FILEINFO > 18 && KTR_LOST > 18 && KTR_EXIT > 18,
		    "no clash with FreeBSD types 1..18");
	ASSERT_EQ(KTR_TYPE_MAX, 31, "types fit a 32-bit facility mask");
}

TEST(syscall_payload)
{
	ASSERT_EQ(sizeof(struct ktr_syscall), 8, "sizeof without args");
	ASSERT_EQ(OFF(ktr_syscall, ktr_code), 0, "code");
	ASSERT_EQ(FSIZE(ktr_syscall, ktr_code), 2, "code size");
	ASSERT_EQ(OFF(ktr_syscall, ktr_narg), 2, "narg");
	ASSERT_EQ(FSIZE(ktr_syscall, ktr_narg), 2, "narg size");
	ASSERT_EQ(OFF(ktr_syscall, ktr_args), 8, "args");
	ASSERT_EQ(sizeof(((struct ktr_syscall *)0)->ktr_args[0]), 8, "register_t size");
	/* ktr_len = offsetof(struct ktr_syscall, ktr_args[narg]) = 8 + 8n */
	ASSERT_EQ(offsetof(struct ktr_syscall, ktr_args[KTR_MAXARGS]), 56, "6 args");
	ASSERT_EQ(KTR_MAXARGS, 6, "Linux has 6 register args");
}

TEST(sysret_payload)
{
	ASSERT_EQ(sizeof(struct ktr_sysret), 16, "sizeof");
	ASSERT_EQ(OFF(ktr_sysret, ktr_code), 0, "code");
	ASSERT_EQ(OFF(ktr_sysret, ktr_eosys), 2, "eosys");
	ASSERT_EQ(OFF(ktr_sysret, ktr_error), 4, "error");
	ASSERT_EQ(FSIZE(ktr_sysret, ktr_error), 4, "error size");
	ASSERT_EQ(OFF(ktr_sysret, ktr_retval), 8, "retval");
	ASSERT_EQ(FSIZE(ktr_sysret, ktr_retval), 8, "retval size");
}

TEST(genio_payload)
{
	ASSERT_EQ(sizeof(struct ktr_genio), 8, "sizeof");
	ASSERT_EQ(OFF(ktr_genio, ktr_fd), 0, "fd");
	ASSERT_EQ(OFF(ktr_genio, ktr_rw), 4, "rw");
	ASSERT_EQ(KTR_UIO_READ, 0, "UIO_READ");
	ASSERT_EQ(KTR_UIO_WRITE, 1, "UIO_WRITE");
}

TEST(psig_payload)
{
	ASSERT_EQ(sizeof(struct ktr_psig), 40, "sizeof");
	ASSERT_EQ(OFF(ktr_psig, signo), 0, "signo");
	ASSERT_EQ(OFF(ktr_psig, action), 8, "action");
	ASSERT_EQ(FSIZE(ktr_psig, action), 8, "action size");
	ASSERT_EQ(OFF(ktr_psig, code), 16, "code");
	ASSERT_EQ(OFF(ktr_psig, mask), 20, "mask");
	ASSERT_EQ(FSIZE(ktr_psig, mask), 16, "mask = 4 x u32");
}

TEST(csw_payload)
{
	/* FreeBSD layout; the DragonFly/old one is the first 8 bytes */
	ASSERT_EQ(sizeof(struct ktr_csw), 16, "sizeof");
	ASSERT_EQ(OFF(ktr_csw, out), 0, "out");
	ASSERT_EQ(OFF(ktr_csw, user), 4, "user");
	ASSERT_EQ(OFF(ktr_csw, wmesg), 8, "wmesg");
	ASSERT_EQ(FSIZE(ktr_csw, wmesg), 8, "wmesg size");
}

TEST(proc_ctor)
{
	ASSERT_EQ(sizeof(struct ktr_proc_ctor), 4, "sizeof");
	ASSERT_EQ(KTR_SV_ABI_LINUX, 3, "SV_ABI_LINUX");
	ASSERT_EQ(KTR_SV_ILP32, 0x100, "SV_ILP32");
	ASSERT_EQ(KTR_SV_LP64, 0x200, "SV_LP64");
	/* SV_ABI_LINUX|SV_LP64|SV_SHP|SV_TIMEKEEP|SV_SIG_DISCIGN|SV_SIG_WAITNDQ (§5.6) */
	ASSERT_EQ(KTR_SV_LINUX_AMD64, 0x3 | 0x200 | 0x10000 | 0x40000 | 0x200000 | 0x400000,
		  "linux amd64 sv_flags");
	ASSERT_EQ(KTR_SV_LINUX_AMD64 & 0xff, KTR_SV_ABI_LINUX, "ABI byte");
	ASSERT_EQ(KTR_SV_LINUX_I386, (KTR_SV_LINUX_AMD64 & ~KTR_SV_LP64) | KTR_SV_ILP32,
		  "i386 = amd64 with ILP32 instead of LP64");
}

TEST(fileinfo_payload)
{
	ASSERT_EQ(sizeof(struct ktr_fileinfo), 128, "sizeof");
	ASSERT_EQ(OFF(ktr_fileinfo, fi_magic), 0, "magic");
	ASSERT_EQ(FSIZE(ktr_fileinfo, fi_magic), 8, "magic size");
	ASSERT_EQ(OFF(ktr_fileinfo, fi_version), 8, "version");
	ASSERT_EQ(OFF(ktr_fileinfo, fi_hdrsize), 12, "hdrsize");
	ASSERT_EQ(OFF(ktr_fileinfo, fi_byteorder), 14, "byteorder");
	ASSERT_EQ(OFF(ktr_fileinfo, fi_machine), 16, "machine");
	ASSERT_EQ(OFF(ktr_fileinfo, fi_release), 32, "release");
	ASSERT_EQ(FSIZE(ktr_fileinfo, fi_release), 65, "release = utsname field");
	ASSERT_EQ(OFF(ktr_fileinfo, fi_flags), 97, "flags, in what was padding");
	ASSERT_EQ(OFF(ktr_fileinfo, fi_clock), 100, "clock");
	ASSERT_EQ(OFF(ktr_fileinfo, fi_wall_offset_ns), 104, "wall offset");
	ASSERT_EQ(OFF(ktr_fileinfo, fi_tool), 112, "tool");
	ASSERT_EQ(sizeof(KTR_FILEINFO_MAGIC), 8, "magic fits with its NUL");
	ASSERT_EQ(KTR_BYTEORDER_MARK, 0x0102, "byte order mark");
	ASSERT_EQ(KTR_FORMAT_VERSION, 1, "format version");
}

TEST(lost_and_exit_payloads)
{
	ASSERT_EQ(sizeof(struct ktr_lost), 16, "sizeof lost");
	ASSERT_EQ(OFF(ktr_lost, lost), 0, "lost");
	ASSERT_EQ(OFF(ktr_lost, lost_total), 8, "lost_total");
	ASSERT_EQ(sizeof(struct ktr_exit), 8, "sizeof exit");
	ASSERT_EQ(OFF(ktr_exit, status), 0, "status");
}

TEST(facility_bits)
{
	ASSERT_EQ(KTRFAC_SYSCALL, 0x002, "SYSCALL");
	ASSERT_EQ(KTRFAC_SYSRET, 0x004, "SYSRET");
	ASSERT_EQ(KTRFAC_NAMEI, 0x008, "NAMEI");
	ASSERT_EQ(KTRFAC_GENIO, 0x010, "GENIO");
	ASSERT_EQ(KTRFAC_PSIG, 0x020, "PSIG");
	ASSERT_EQ(KTRFAC_CSW, 0x040, "CSW");
	ASSERT_EQ(KTRFAC_USER, 0x080, "USER");
	ASSERT_EQ(KTRFAC_MASK, 0x00ffffff, "MASK");
	ASSERT_EQ((uint32_t)KTRFAC_ROOT, 0x80000000u, "ROOT");
	ASSERT_EQ(KTRFAC_INHERIT, 0x40000000, "INHERIT");
	/* BSD's sets in bits 1..7; ktraceb adds only extension types to them */
	ASSERT_EQ(KTR_DEF_POINTS & 0xff, 0xbe, "DEF_POINTS");
	ASSERT_EQ(KTR_ALL_POINTS & 0xff, 0xfe, "ALL_POINTS");
	ASSERT_EQ(KTR_DEF_POINTS & ~KTRFAC_MASK, 0, "no control bits in DEF_POINTS");
	ASSERT_EQ(KTRFAC_STRUCT, 1 << 8, "STRUCT");
	ASSERT_EQ(KTRFAC_ARGS, 1 << 16, "ARGS");
	ASSERT_EQ(KTRFAC_ENVS, 1 << 17, "ENVS");
	ASSERT_EQ(KTR_PATH_MAX, 4096, "PATH_MAX");
}

TEST_MAIN()
