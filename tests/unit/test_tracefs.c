// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * tracefs as the daemon reads it (ktr_tracefs.c): which event names a
 * client may send, and a format file parsed into the fields KTR_TPFORMAT
 * carries, from a fake tracefs directory built here (formats copied from
 * Linux 6.x), including malformed ones.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "../lib/test.h"
#include "common/ktr_tracefs.h"

static bool name_ok(const char *name, bool glob)
{
	const char *why;

	return ktr_tracefs__name_ok(name, glob, &why);
}

TEST(event_names)
{
	char longname[80];

	memset(longname, 'a', sizeof(longname) - 1);
	longname[5] = ':';
	longname[sizeof(longname) - 1] = '\0';
	ASSERT_TRUE(name_ok("sched:sched_switch", false), "plain");
	ASSERT_TRUE(name_ok("sched:*", true), "glob");
	ASSERT_TRUE(!name_ok("sched:*", false), "glob where none is allowed");
	ASSERT_TRUE(!name_ok("sched", true), "no colon");
	ASSERT_TRUE(!name_ok(":x", true), "no subsystem");
	ASSERT_TRUE(!name_ok("x:", true), "no event");
	ASSERT_TRUE(!name_ok("../x:y", true), "dots");
	ASSERT_TRUE(!name_ok("x:y/../../z", true), "slash");
	ASSERT_TRUE(!name_ok("x:y:z", true), "two colons");
	ASSERT_TRUE(!name_ok("x:[ab]", true), "bracket glob");
	ASSERT_TRUE(!name_ok(longname, true), "too long");
}

static char dir[64];

static void put_format(const char *ev, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/events/t", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/events/t/%s", dir, ev);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/events/t/%s/format", dir, ev);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

#define COMMON                                                                         \
	"format:\n"                                                                    \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

TEST(format_parsed)
{
	struct ktr_tp_fmt fmt;
	const char *why = NULL;

	snprintf(dir, sizeof(dir), "/tmp/ktr-tracefs.XXXXXX");
	ASSERT_TRUE(mkdtemp(dir) != NULL, "temp dir");
	{
		char p[128];

		snprintf(p, sizeof(p), "%s/events", dir);
		mkdir(p, 0700);
	}
	put_format("exec", "name: exec\nID: 365\n" COMMON
			   "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
			   "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
			   "\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n"
			   "\tfield:const void * skbaddr;\toffset:32;\tsize:8;\tsigned:0;\n"
			   "\tfield:__u8 saddr[4];\toffset:40;\tsize:4;\tsigned:0;\n\n"
			   "print fmt: \"field:%s\", REC->filename\n");
	ASSERT_EQ(ktr_tracefs__format(dir, "t:exec", &fmt, &why), 0, "parsed");
	ASSERT_EQ(fmt.f.tf_id, 365, "id");
	ASSERT_STREQ(fmt.f.tf_name, "t:exec", "name");
	ASSERT_EQ(fmt.f.tf_nfields, 5, "common fields left out");
	ASSERT_EQ(fmt.fixed, 44, "entry size, common fields included");
	ASSERT_EQ(fmt.nloc, 1, "one __data_loc");
	ASSERT_EQ(fmt.loc[0], 8, "at 8");
	ASSERT_STREQ(fmt.fields[0].tp_name, "filename", "data_loc name");
	ASSERT_STREQ(fmt.fields[0].tp_type, "__data_loc char[]", "data_loc type");
	ASSERT_EQ(fmt.fields[0].tp_flags, KTR_TPF_DATA_LOC | KTR_TPF_STRING, "data_loc flags");
	ASSERT_EQ(fmt.fields[1].tp_flags, KTR_TPF_SIGNED, "pid signed");
	ASSERT_STREQ(fmt.fields[2].tp_name, "comm", "array name");
	ASSERT_STREQ(fmt.fields[2].tp_type, "char[16]", "array type");
	ASSERT_EQ(fmt.fields[2].tp_flags, KTR_TPF_ARRAY | KTR_TPF_STRING, "char array");
	ASSERT_EQ(fmt.fields[2].tp_offset, 16, "offset");
	ASSERT_EQ(fmt.fields[2].tp_size, 16, "size");
	ASSERT_STREQ(fmt.fields[3].tp_name, "skbaddr", "pointer name");
	ASSERT_STREQ(fmt.fields[3].tp_type, "const void *", "pointer type");
	ASSERT_EQ(fmt.fields[4].tp_flags, KTR_TPF_ARRAY, "byte array, not a string");

	put_format("bad_off",
		   "ID: 7\n" COMMON "\tfield:int x;\toffset:5000;\tsize:4;\tsigned:1;\n");
	ASSERT_EQ(ktr_tracefs__format(dir, "t:bad_off", &fmt, &why), -EINVAL, "past 4096");
	put_format("no_id", COMMON "\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n");
	ASSERT_EQ(ktr_tracefs__format(dir, "t:no_id", &fmt, &why), -EINVAL, "no ID");
	put_format("garbled", "ID: 8\n" COMMON "\tfield:int;\toffset:8;\tsize:4;\tsigned:1;\n");
	ASSERT_EQ(ktr_tracefs__format(dir, "t:garbled", &fmt, &why), -EINVAL, "no name");
	ASSERT_EQ(ktr_tracefs__format(dir, "t:absent", &fmt, &why), -ENOENT, "no such event");
	ASSERT_STREQ(why, "no such event", "says so");
	ASSERT_EQ(ktr_tracefs__format(dir, "t:*", &fmt, &why), -EINVAL, "a glob is no path");
	ASSERT_EQ(ktr_tracefs__format(dir, "../t:exec", &fmt, &why), -EINVAL, "nor dots");
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		ASSERT_EQ(system(cmd), 0, "cleanup");
	}
}

TEST_MAIN()
