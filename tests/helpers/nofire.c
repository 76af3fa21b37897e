// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * nofire.so - a machine whose hardware watchpoints never fire, for LD_PRELOAD.
 *
 * Some virtual machines open breakpoint perf events and never deliver the debug exception:
 * the events count nothing. Where watchpoints do fire, this library makes the preloaded
 * process see such a machine: a PERF_TYPE_BREAKPOINT event opened through libc's syscall()
 * opens as a software dummy event, which is accepted, enabled and read like the breakpoint
 * and counts 0. perf (the tests' oracle) and lbrsnap both open their events that way; every
 * other call passes through unchanged.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

typedef long (*syscall_fn)(long nr, ...);

long syscall(long nr, ...)
{
	static syscall_fn real;
	struct perf_event_attr dummy;
	const struct perf_event_attr *attr;
	long a[6];
	va_list ap;
	size_t size;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real)
		real = (syscall_fn)dlsym(RTLD_NEXT, "syscall");

	attr = (const struct perf_event_attr *)a[0];
	if (nr != __NR_perf_event_open || !attr || attr->type != PERF_TYPE_BREAKPOINT)
		return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);

	/* the caller's fields kept (size, flags, period), the breakpoint's cleared */
	size = attr->size && attr->size < sizeof(dummy) ? attr->size : sizeof(dummy);
	memset(&dummy, 0, sizeof(dummy));
	memcpy(&dummy, attr, size);
	dummy.size = size;
	dummy.type = PERF_TYPE_SOFTWARE;
	dummy.config = PERF_COUNT_SW_DUMMY;
	dummy.bp_type = 0;
	dummy.bp_addr = 0;
	dummy.bp_len = 0;
	return real(nr, (long)&dummy, a[1], a[2], a[3], a[4], a[5]);
}
