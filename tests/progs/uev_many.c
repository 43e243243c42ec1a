// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * uev_many: 1,500 USDT probe sites in one file (plain sys/sdt.h, no
 * semaphores), each fired once, for t_user.sh: ktraceb attaches at most
 * 1,024 sites of a file, so a file full of notes cannot take the probe
 * sites every trace shares.  Prints "fired 1500".
 */
#include <stdio.h>
#include <sys/sdt.h>

#define SITE(n) STAP_PROBE1(uevmany, site, (n));
#define X5(n)	SITE(n) SITE(n + 1) SITE(n + 2) SITE(n + 3) SITE(n + 4)
#define X10(n)	X5(n) X5(n + 5)
#define X50(n)	X10(n) X10(n + 10) X10(n + 20) X10(n + 30) X10(n + 40)
#define X100(n) X50(n) X50(n + 50)
#define X500(n) X100(n) X100(n + 100) X100(n + 200) X100(n + 300) X100(n + 400)

int main(void)
{
	X500(0)
	X500(500)
	X500(1000)
	printf("fired 1500\n");
	return 0;
}
