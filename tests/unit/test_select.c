// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The syscall selection language (ktr_select.h) against the x86_64 and
 * i386 tables: names, classes, ?names, /regexes, ! and status=, and the
 * bad selections that must be one-line errors.  Numbers are the kernel's
 * (syscall_x86_64.tbl, syscall_i386.tbl), written out so that a wrong
 * table cannot hide a wrong bit.
 */
#include "../lib/test.h"
#include "ktr_select.h"

#define X64_READ      0
#define X64_OPEN      2
#define X64_CLOSE     3
#define X64_STAT      4
#define X64_FSTAT     5
#define X64_MMAP      9
#define X64_SOCKET    41
#define X64_CLONE     56
#define X64_EXECVE    59
#define X64_GETPPID   110
#define X64_OPENAT    257
#define X64_OPENAT2   437
#define I386_OPEN     5
#define I386_OPENAT   295
#define I386_SOCKCALL 102

static const struct ktr_select_abi x64 = { ktr_sysent_x86_64, 0 }, i386 = { ktr_sysent_i386, 0 };

/* sel: s with arg added; returns the error reason or NULL */
static const char *sel(struct ktr_select *s, const char *arg)
{
	struct ktr_select_abi n = x64, c = i386;
	const char *why = NULL;

	n.n = ktr_nsysent_x86_64;
	c.n = ktr_nsysent_i386;
	return ktr_select__add(s, arg, &n, &c, &why) < 0 ? why : NULL;
}

TEST(names)
{
	struct ktr_select s;

	ktr_select__init(&s);
	ASSERT_TRUE(!ktr_select__active(&s), "nothing given: not active");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_READ, false), "nothing given: every call");
	ASSERT_TRUE(sel(&s, "trace=openat,close") == NULL, "two names");
	ASSERT_TRUE(ktr_select__active(&s), "active");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_OPENAT, false), "openat");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_CLOSE, false), "close");
	ASSERT_TRUE(!ktr_select__has_call(&s, X64_READ, false), "not read");
	ASSERT_TRUE(!ktr_select__has_call(&s, X64_OPEN, false), "not open");
	ASSERT_TRUE(ktr_select__has_call(&s, I386_OPENAT, true), "i386 openat by name");
	ASSERT_TRUE(!ktr_select__has_call(&s, I386_OPEN, true), "not i386 open");
	ASSERT_STREQ(s.text, "trace=openat,close", "text");
	ASSERT_TRUE(sel(&s, "trace=read") == NULL, "a second trace= adds");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_READ, false), "read added");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_OPENAT, false), "openat kept");
	ASSERT_STREQ(s.text, "trace=openat,close trace=read", "text of both");
}

TEST(classes)
{
	struct ktr_select s;

	ktr_select__init(&s);
	ASSERT_TRUE(sel(&s, "trace=%file") == NULL, "%file");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_OPENAT, false), "%file has openat");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_EXECVE, false), "%file has execve");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_OPENAT2, false), "%file has openat2");
	ASSERT_TRUE(!ktr_select__has_call(&s, X64_READ, false), "%file has no read");
	ASSERT_TRUE(!ktr_select__has_call(&s, X64_FSTAT, false), "%file has no fstat");
	ktr_select__init(&s);
	ASSERT_TRUE(sel(&s, "trace=%network,%process") == NULL, "%network,%process");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_SOCKET, false), "socket");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_CLONE, false), "clone");
	ASSERT_TRUE(ktr_select__has_call(&s, I386_SOCKCALL, true), "i386 socketcall is network");
	ASSERT_TRUE(!ktr_select__has_call(&s, X64_OPENAT, false), "no openat");
	ktr_select__init(&s);
	ASSERT_TRUE(sel(&s, "trace=%%stat") == NULL, "%%stat");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_STAT, false) &&
			    ktr_select__has_call(&s, X64_FSTAT, false),
		    "%%stat: stat and fstat");
	ktr_select__init(&s);
	ASSERT_TRUE(sel(&s, "trace=memory") == NULL, "strace's older spelling, no %");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_MMAP, false), "memory has mmap");
}

TEST(negation_regex_optional)
{
	struct ktr_select s;

	ktr_select__init(&s);
	ASSERT_TRUE(sel(&s, "trace=!getppid,read") == NULL, "!SET");
	ASSERT_TRUE(!ktr_select__has_call(&s, X64_GETPPID, false), "not getppid");
	ASSERT_TRUE(!ktr_select__has_call(&s, X64_READ, false), "not read");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_OPENAT, false), "openat");
	ktr_select__init(&s);
	ASSERT_TRUE(sel(&s, "trace=/^open") == NULL, "/regex");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_OPEN, false) &&
			    ktr_select__has_call(&s, X64_OPENAT, false) &&
			    ktr_select__has_call(&s, X64_OPENAT2, false),
		    "open, openat, openat2");
	ASSERT_TRUE(!ktr_select__has_call(&s, X64_CLOSE, false), "not close");
	ktr_select__init(&s);
	ASSERT_TRUE(sel(&s, "trace=?nosuchcall,read") == NULL, "?name of no table");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_READ, false), "the rest taken");
	ktr_select__init(&s);
	ASSERT_TRUE(sel(&s, "trace=none") == NULL, "none");
	ASSERT_TRUE(!ktr_select__has_call(&s, X64_READ, false), "none: no read");
}

TEST(status)
{
	struct ktr_select s;

	ktr_select__init(&s);
	ASSERT_TRUE(sel(&s, "status=failed") == NULL, "failed");
	ASSERT_TRUE(ktr_select__active(&s), "active");
	ASSERT_TRUE(ktr_select__has_call(&s, X64_READ, false), "every call");
	ASSERT_TRUE(ktr_select__has_status(&s, 2), "ENOENT passes");
	ASSERT_TRUE(!ktr_select__has_status(&s, 0), "success does not");
	ASSERT_TRUE(sel(&s, "status=successful") == NULL, "and successful");
	ASSERT_TRUE(!ktr_select__active(&s), "both: everything");
}

TEST(bad_selections_say_why)
{
	struct ktr_select s;

	ktr_select__init(&s);
	ASSERT_STREQ(sel(&s, "trace=opne"), "unknown system call 'opne'", "unknown name");
	ASSERT_STREQ(sel(&s, "trace=%nosuch"), "unknown syscall class '%nosuch'", "unknown class");
	ASSERT_STREQ(sel(&s, "trace="), "empty syscall selection", "empty");
	ASSERT_STREQ(sel(&s, "trace=read,,close"), "empty item in a syscall selection",
		     "empty item");
	ASSERT_STREQ(sel(&s, "trace=?nosuch"),
		     "the syscall selection '?nosuch' selects no system call", "selects nothing");
	ASSERT_STREQ(sel(&s, "trace=/("), "bad regular expression '('", "bad regex");
	ASSERT_STREQ(sel(&s, "status=unfinished"),
		     "status unfinished is strace's, not told here: successful, failed or all",
		     "status strace has and ktraceb cannot tell");
	ASSERT_STREQ(sel(&s, "status="), "unknown status '': successful, failed or all",
		     "empty status");
	ASSERT_STREQ(sel(&s, "signal=all"), "'signal=all': trace=SET or status=SET", "other keys");
	ASSERT_TRUE(!ktr_select__active(&s), "nothing taken from the bad ones");
}

TEST_MAIN()
