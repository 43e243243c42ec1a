// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* Linux errno names and the KTR_SYSRET printer. */
#include <errno.h>
#include <string.h>
#include "ktraceb/ktr.h"
#include "decode_int.h"

#define E(x) [x] = #x
static const char *const errnames[] = {
	E(EPERM),
	E(ENOENT),
	E(ESRCH),
	E(EINTR),
	E(EIO),
	E(ENXIO),
	E(E2BIG),
	E(ENOEXEC),
	E(EBADF),
	E(ECHILD),
	E(EAGAIN),
	E(ENOMEM),
	E(EACCES),
	E(EFAULT),
	E(ENOTBLK),
	E(EBUSY),
	E(EEXIST),
	E(EXDEV),
	E(ENODEV),
	E(ENOTDIR),
	E(EISDIR),
	E(EINVAL),
	E(ENFILE),
	E(EMFILE),
	E(ENOTTY),
	E(ETXTBSY),
	E(EFBIG),
	E(ENOSPC),
	E(ESPIPE),
	E(EROFS),
	E(EMLINK),
	E(EPIPE),
	E(EDOM),
	E(ERANGE),
	E(EDEADLK),
	E(ENAMETOOLONG),
	E(ENOLCK),
	E(ENOSYS),
	E(ENOTEMPTY),
	E(ELOOP),
	E(ENOMSG),
	E(EIDRM),
	E(ECHRNG),
	E(EL2NSYNC),
	E(EL3HLT),
	E(EL3RST),
	E(ELNRNG),
	E(EUNATCH),
	E(ENOCSI),
	E(EL2HLT),
	E(EBADE),
	E(EBADR),
	E(EXFULL),
	E(ENOANO),
	E(EBADRQC),
	E(EBADSLT),
	E(EBFONT),
	E(ENOSTR),
	E(ENODATA),
	E(ETIME),
	E(ENOSR),
	E(ENONET),
	E(ENOPKG),
	E(EREMOTE),
	E(ENOLINK),
	E(EADV),
	E(ESRMNT),
	E(ECOMM),
	E(EPROTO),
	E(EMULTIHOP),
	E(EDOTDOT),
	E(EBADMSG),
	E(EOVERFLOW),
	E(ENOTUNIQ),
	E(EBADFD),
	E(EREMCHG),
	E(ELIBACC),
	E(ELIBBAD),
	E(ELIBSCN),
	E(ELIBMAX),
	E(ELIBEXEC),
	E(EILSEQ),
	E(ERESTART),
	E(ESTRPIPE),
	E(EUSERS),
	E(ENOTSOCK),
	E(EDESTADDRREQ),
	E(EMSGSIZE),
	E(EPROTOTYPE),
	E(ENOPROTOOPT),
	E(EPROTONOSUPPORT),
	E(ESOCKTNOSUPPORT),
	E(EOPNOTSUPP),
	E(EPFNOSUPPORT),
	E(EAFNOSUPPORT),
	E(EADDRINUSE),
	E(EADDRNOTAVAIL),
	E(ENETDOWN),
	E(ENETUNREACH),
	E(ENETRESET),
	E(ECONNABORTED),
	E(ECONNRESET),
	E(ENOBUFS),
	E(EISCONN),
	E(ENOTCONN),
	E(ESHUTDOWN),
	E(ETOOMANYREFS),
	E(ETIMEDOUT),
	E(ECONNREFUSED),
	E(EHOSTDOWN),
	E(EHOSTUNREACH),
	E(EALREADY),
	E(EINPROGRESS),
	E(ESTALE),
	E(EUCLEAN),
	E(ENOTNAM),
	E(ENAVAIL),
	E(EISNAM),
	E(EREMOTEIO),
	E(EDQUOT),
	E(ENOMEDIUM),
	E(EMEDIUMTYPE),
	E(ECANCELED),
	E(ENOKEY),
	E(EKEYEXPIRED),
	E(EKEYREVOKED),
	E(EKEYREJECTED),
	E(EOWNERDEAD),
	E(ENOTRECOVERABLE),
	E(ERFKILL),
	E(EHWPOISON),
};
_Static_assert(EHWPOISON == 133, "Linux errno numbering");

/*
 * Kernel-internal errnos (include/linux/errno.h).  A traced task can return
 * them to the tracepoint when a signal interrupts a syscall; user space never
 * sees them, so strerror() has no text: we give our own.
 */
static const struct {
	const char *name, *text;
} kerr[] = {
	[512 - 512] = { "ERESTARTSYS", "To be restarted if SA_RESTART is set" },
	[513 - 512] = { "ERESTARTNOINTR", "To be restarted" },
	[514 - 512] = { "ERESTARTNOHAND", "To be restarted if no handler" },
	[515 - 512] = { "ENOIOCTLCMD", "No ioctl command" },
	[516 - 512] = { "ERESTART_RESTARTBLOCK", "Interrupted by signal" },
	[517 - 512] = { "EPROBE_DEFER", "Driver requests probe retry" },
	[518 - 512] = { "EOPENSTALE", "Open found a stale dentry" },
	[519 - 512] = { "ENOPARAM", "Parameter not supported" },
	[521 - 512] = { "EBADHANDLE", "Illegal NFS file handle" },
	[522 - 512] = { "ENOTSYNC", "Update synchronization mismatch" },
	[523 - 512] = { "EBADCOOKIE", "Cookie is stale" },
	[524 - 512] = { "ENOTSUPP", "Operation is not supported" },
	[525 - 512] = { "ETOOSMALL", "Buffer or request is too small" },
	[526 - 512] = { "ESERVERFAULT", "An untranslatable error occurred" },
	[527 - 512] = { "EBADTYPE", "Type not supported by server" },
	[528 - 512] = { "EJUKEBOX", "Request initiated, but will not complete before timeout" },
	[529 - 512] = { "EIOCBQUEUED", "iocb queued, will get completion event" },
	[530 - 512] = { "ERECALLCONFLICT", "Conflict with recalled state" },
	[531 - 512] = { "ENOGRACE", "NFS file lock reclaim refused" },
};

const char *ktr_errno_name(int err)
{
	if (err > 0 && (size_t)err < KTR_NELEM(errnames))
		return errnames[err];
	if (err >= 512 && (size_t)(err - 512) < KTR_NELEM(kerr))
		return kerr[err - 512].name;
	return NULL;
}

static bool returns_address(unsigned int sv_flags, int code)
{
	const char *name = ktr_syscall_name(sv_flags, code);

	return name && (strcmp(name, "mmap") == 0 || strcmp(name, "mmap2") == 0 ||
			strcmp(name, "brk") == 0 || strcmp(name, "mremap") == 0 ||
			strcmp(name, "shmat") == 0);
}

/* umask returns the old mask: octal, as its argument is printed */
static bool returns_mode(unsigned int sv_flags, int code)
{
	const char *name = ktr_syscall_name(sv_flags, code);

	return name && strcmp(name, "umask") == 0;
}

static void print_error(FILE *out, int error, int flags)
{
	const char *name = ktr_errno_name(error);

	fprintf(out, "-1 errno %d", error);
	if (flags & KTR_DEC_RAW)
		return;
	if (error >= 512 && name)
		fprintf(out, " %s (%s)", name, kerr[error - 512].text);
	else if (name)
		fprintf(out, " %s (%s)", strerror(error), name);
	else
		fprintf(out, " Unknown error %d", error);
}

void ktr_print_sysret(FILE *out, unsigned int sv_flags, int code, int error, __s64 retval,
		      int flags)
{
	if (ktr_bsd_abi(sv_flags)) {
		ktr_bsd_print_sysret(out, sv_flags, error, retval, flags);
		return;
	}
	if (error) {
		print_error(out, error, flags);
		return;
	}
	if (flags & KTR_DEC_RAW)
		ktr_print_num(out, (__u64)retval, flags);
	else if (returns_mode(sv_flags, code))
		fprintf(out, "%#llo", (unsigned long long)retval);
	else if (returns_address(sv_flags, code))
		fprintf(out, "%#llx", (unsigned long long)retval);
	else if (retval < 0 || retval > 9)
		fprintf(out, "%lld/%#llx", (long long)retval, (unsigned long long)retval);
	else
		fprintf(out, "%lld", (long long)retval);
}
