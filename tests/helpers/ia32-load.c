// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ia32-load - makes N ia32 syscalls from a 64-bit task (int $0x80: the kernel runs them with
 * the ia32 table and TS_COMPAT set), for the test that sys_enter/sys_exit records never
 * name them as x86-64 syscalls.
 *
 *   ia32-load N
 *
 * Each is getpid, ia32 number 20 (x86-64's 20 is writev, which this program never calls).
 * Exit status 0 when every call returned the pid; a kernel without ia32 emulation kills it
 * with SIGSEGV or returns -ENOSYS (status 3): the test skips then.
 */
#include <stdlib.h>
#include <unistd.h>

#define IA32_NR_GETPID 20

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1, i, ret;

	for (i = 0; i < n; i++) {
		/* the 64-bit task's r8-r11 do not survive an int $0x80 */
		asm volatile("int $0x80" : "=a"(ret) : "a"(IA32_NR_GETPID)
			     : "r8", "r9", "r10", "r11", "memory");
		if (ret != getpid())
			return 3;
	}
	return 0;
}
