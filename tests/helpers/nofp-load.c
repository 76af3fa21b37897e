// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A user stack as a distribution binary leaves it: built without frame pointers, so that
 * %rbp holds data when the program enters the kernel, and the kernel's frame-pointer walk
 * of the user stack reads that data as frames. main -> outer() -> inner(), and inner()
 * makes N failing fchdir(-1) (-EBADF) with %rbp pointing at:
 *
 *	nofp-load text N	text: "lbrsnap-garbage!", read as the next frame and a return
 *				address (0x2165676162726167), which no mapping holds
 *	nofp-load loop N	a frame that points at itself with a return address into
 *				outer(): the walk reads it until the stack buffer is full
 *
 * The tests strip it and keep its symbols in a separate debug file (objcopy
 * --only-keep-debug), as debuginfo packages do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

static int loop_mode;

__attribute__((noinline)) long inner(void)
{
	long frame[2], ret;

	if (loop_mode) {
		frame[0] = (long)frame;
		frame[1] = (long)__builtin_return_address(0);
	} else {
		memcpy(frame, "lbrsnap-garbage!", sizeof(frame));
	}
	/* %rbp saved around the call, its push told to the unwinders (gdb unwinds by CFI) */
	asm volatile("push %%rbp\n\t.cfi_adjust_cfa_offset 8\n\t"
		     "mov %[fp], %%rbp\n\tsyscall\n\t"
		     "pop %%rbp\n\t.cfi_adjust_cfa_offset -8"
		     : "=a"(ret) : "0"((long)SYS_fchdir), "D"(-1L), [fp] "r"(frame)
		     : "rcx", "r11", "memory");
	return ret;
}

__attribute__((noinline)) long outer(void)
{
	long ret = inner();

	asm volatile("" ::: "memory");	/* no tail call: outer stays on the stack */
	return ret;
}

int main(int argc, char **argv)
{
	long i, n = argc > 2 ? strtol(argv[2], NULL, 0) : 1, bad = 0;

	if (argc < 2 || (strcmp(argv[1], "text") && strcmp(argv[1], "loop"))) {
		fprintf(stderr, "usage: nofp-load text|loop [N]\n");
		return 2;
	}
	loop_mode = !strcmp(argv[1], "loop");
	for (i = 0; i < n; i++)
		bad += outer() != -9;	/* -EBADF */
	return bad ? 1 : 0;
}
