// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Linux errno names, and the kernel-internal errnos (512 and up) with a
 * text of their own, since strerror() has none.
 */
#include <errno.h>
#include <string.h>
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

const char *ktr_errno_text(int err)
{
	if (err >= 512 && (size_t)(err - 512) < KTR_NELEM(kerr))
		return kerr[err - 512].text;
	return NULL;
}

void ktr_print_errno_name(FILE *out, int err)
{
	const char *name = ktr_errno_name(err);

	if (name)
		fputs(name, out);
	else
		fprintf(out, "%d", err);
}
