// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include "ktraceb/ktr.h"
#include "trstr.h"

int ktr_getpoints(const char *trstr)
{
	int facs = 0;

	for (; *trstr != '\0'; trstr++) {
		switch (*trstr) {
		case 'c':
			/* with the structures they pass and exec's argv/envp */
			facs |= KTRFAC_SYSCALL | KTRFAC_SYSRET | KTRFAC_STRUCT | KTRFAC_ARGS |
				KTRFAC_ENVS;
			break;
		case 'n':
			facs |= KTRFAC_NAMEI;
			break;
		case 'i':
			facs |= KTRFAC_GENIO;
			break;
		case 's':
			facs |= KTRFAC_PSIG;
			break;
		case 'u':
			facs |= KTRFAC_USER;
			break;
		case 'w':
			facs |= KTRFAC_CSW;
			break;
		case 'k':
			facs |= KTRFAC_TRACEPOINT;
			break;
		case '+':
			facs |= KTR_DEF_POINTS;
			break;
		default:
			return -1;
		}
	}
	return facs;
}
