// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>

#include "ktr_tracefs.h"

#define TRACEFS_DIR	  "/sys/kernel/tracing"
#define TRACEFS_DEBUG_DIR "/sys/kernel/debug/tracing"

static bool name_char(char c, bool glob)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || (glob && (c == '*' || c == '?'));
}

bool ktr_tracefs__name_ok(const char *name, bool glob, const char **why)
{
	size_t len = strnlen(name, KTR_TP_NAME_MAX);
	const char *colon = memchr(name, ':', len);

	*why = NULL;
	if (len >= KTR_TP_NAME_MAX)
		*why = "name too long";
	else if (!colon || colon == name || colon[1] == '\0')
		*why = "not subsys:event";
	for (size_t i = 0; !*why && i < len; i++)
		if (name + i != colon && !name_char(name[i], glob))
			*why = glob ? "only letters, digits, _, -, * and ? in names" :
				      "only letters, digits, _ and - in names";
	return !*why;
}

static const char *tracefs__why(int err);

static bool tracefs__has_events(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/available_events", dir);
	return access(path, F_OK) == 0;
}

const char *ktr_tracefs__dir(const char **why)
{
	if (access(TRACEFS_DIR "/available_events", F_OK) < 0 && errno == EACCES) {
		*why = tracefs__why(EACCES);
		return NULL;
	}
	if (tracefs__has_events(TRACEFS_DIR))
		return TRACEFS_DIR;
	if (tracefs__has_events(TRACEFS_DEBUG_DIR))
		return TRACEFS_DEBUG_DIR;
	if (mount("none", TRACEFS_DIR, "tracefs", 0, NULL) == 0 && tracefs__has_events(TRACEFS_DIR))
		return TRACEFS_DIR;
	*why = errno == EPERM ? "tracefs is not mounted at " TRACEFS_DIR
				" and mounting it needs root" :
				"tracefs is not mounted at " TRACEFS_DIR " and cannot be mounted";
	return NULL;
}

static const char *tracefs__why(int err)
{
	return err == EACCES || err == EPERM ?
		       "reading tracefs needs root (a user's own daemon cannot read it)" :
		       "cannot read tracefs";
}

FILE *ktr_tracefs__events(const char *dir, const char **why)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/available_events", dir);
	f = fopen(path, "re");
	if (!f)
		*why = tracefs__why(errno);
	return f;
}

/* "TYPE NAME" or "TYPE NAME[N]" of a format line into a field; false if malformed. */
static bool format__decl(const char *decl, struct ktr_tpfield *fl)
{
	const char *end = decl + strlen(decl), *name, *br;
	size_t tl, nl;

	while (end > decl && end[-1] == ' ')
		end--;
	br = memchr(decl, '[', (size_t)(end - decl));
	name = end;
	/* the name is the last word before any [N] */
	if (br && end[-1] == ']') {
		const char *lastbr = end;

		while (lastbr > decl && *lastbr != '[')
			lastbr--;
		name = lastbr;
		fl->tp_flags |= KTR_TPF_ARRAY;
	}
	{
		const char *ne = name;

		while (name > decl && name[-1] != ' ' && name[-1] != '*')
			name--;
		nl = (size_t)(ne - name);
	}
	tl = (size_t)(end - decl);
	if (nl == 0 || nl >= sizeof(fl->tp_name) || name == decl)
		return false;
	memcpy(fl->tp_name, name, nl);
	/* the type as the format says it, name left out: "char[16]", "__data_loc char[]" */
	{
		char type[128];
		size_t pre = (size_t)(name - decl), post = tl - pre - nl;

		while (pre > 0 && decl[pre - 1] == ' ')
			pre--;
		if (pre + post >= sizeof(fl->tp_type) || pre + post >= sizeof(type))
			return false;
		memcpy(type, decl, pre);
		memcpy(type + pre, name + nl, post);
		type[pre + post] = '\0';
		memcpy(fl->tp_type, type, pre + post + 1);
	}
	if (strncmp(decl, "__data_loc ", 11) == 0)
		fl->tp_flags = (fl->tp_flags & ~KTR_TPF_ARRAY) | KTR_TPF_DATA_LOC;
	if (strstr(fl->tp_type, "char") && (fl->tp_flags & (KTR_TPF_ARRAY | KTR_TPF_DATA_LOC)) &&
	    !strchr(fl->tp_type, '*'))
		fl->tp_flags |= KTR_TPF_STRING;
	return true;
}

/* One "\tfield:...;\toffset:N;\tsize:N;\tsigned:N;" line; 1 taken, 0 skipped, -1 malformed. */
static int format__field(char *line, struct ktr_tp_fmt *out)
{
	struct ktr_tpfield fl = { 0 };
	char *decl = line + strspn(line, " \t"), *semi;
	unsigned int off, size;
	int sgn;

	if (strncmp(decl, "field:", 6) != 0)
		return 0;
	decl += 6;
	semi = strchr(decl, ';');
	if (!semi)
		return -1;
	*semi = '\0';
	if (sscanf(semi + 1, " offset:%u; size:%u; signed:%d;", &off, &size, &sgn) != 3 ||
	    off + size > KTR_TP_MAX_BYTES || size == 0)
		return -1;
	if (!format__decl(decl, &fl))
		return -1;
	if (off + size > out->fixed)
		out->fixed = off + size;
	fl.tp_offset = (__u16)off;
	fl.tp_size = (__u16)size;
	fl.tp_flags |= sgn ? KTR_TPF_SIGNED : 0;
	if ((fl.tp_flags & KTR_TPF_DATA_LOC) && size == 4 && out->nloc < 6)
		out->loc[out->nloc++] = off;
	if (strncmp(fl.tp_name, "common_", 7) == 0)
		return 0;
	if (out->f.tf_nfields >= KTR_TP_MAXFIELDS)
		return -1;
	out->fields[out->f.tf_nfields++] = fl;
	return 1;
}

int ktr_tracefs__format(const char *dir, const char *name, struct ktr_tp_fmt *out, const char **why)
{
	char path[PATH_MAX], line[512];
	const char *colon = strchr(name, ':');
	bool have_id = false, bad = false;
	unsigned int id;
	FILE *f;

	if (!ktr_tracefs__name_ok(name, false, why))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/events/%.*s/%s/format", dir, (int)(colon - name), name,
		 colon + 1);
	f = fopen(path, "re");
	if (!f) {
		*why = errno == ENOENT ? "no such event" : tracefs__why(errno);
		return -errno;
	}
	while (!bad && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "ID: %u", &id) == 1)
			have_id = true;
		else
			bad = format__field(line, out) < 0;
	}
	fclose(f);
	if (bad || !have_id || id == 0 || id > 0xffff || out->fixed < 8) {
		*why = "cannot parse its format";
		return -EINVAL;
	}
	out->f.tf_id = id;
	snprintf(out->f.tf_name, sizeof(out->f.tf_name), "%s", name);
	return 0;
}
