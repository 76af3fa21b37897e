// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdio.h>
#include <string.h>
#include "lbrfile/lbrfile.h"
#include "lbrfile/ret-value.h"
#include "util/num-text.h"

/* Kernel-internal codes (include/linux/errno.h) that can leak into return values. */
static const char *const kernel_errnos[] = {
	[512 - 512] = "ERESTARTSYS",		[513 - 512] = "ERESTARTNOINTR",
	[514 - 512] = "ERESTARTNOHAND",		[515 - 512] = "ENOIOCTLCMD",
	[516 - 512] = "ERESTART_RESTARTBLOCK",	[517 - 512] = "EPROBE_DEFER",
	[518 - 512] = "EOPENSTALE",		[519 - 512] = "ENOPARAM",
	[521 - 512] = "EBADHANDLE",		[522 - 512] = "ENOTSYNC",
	[523 - 512] = "EBADCOOKIE",		[524 - 512] = "ENOTSUPP",
	[525 - 512] = "ETOOSMALL",		[526 - 512] = "ESERVERFAULT",
	[527 - 512] = "EBADTYPE",		[528 - 512] = "EJUKEBOX",
	[529 - 512] = "EIOCBQUEUED",		[530 - 512] = "ERECALLCONFLICT",
	[531 - 512] = "ENOGRACE",
};

const char *lbr_errno__name(int err)
{
	if (err >= 512 && err < 512 + (int)(sizeof(kernel_errnos) / sizeof(kernel_errnos[0])))
		return kernel_errnos[err - 512];
	if (err <= 0 || err >= 512)
		return NULL;
	return strerrorname_np(err);
}

int lbr_errno__from_name(const char *name)
{
	const char *n;
	int err;

	for (err = 1; err <= LBR_MAX_ERRNO; err++) {
		n = lbr_errno__name(err);
		if (n && !strcmp(n, name))
			return err;
	}
	return 0;
}

int lbr_ret__errno(enum lbrsnap_ret_kind kind, __s64 value)
{
	switch (kind) {
	case LBRSNAP_RET_SIGNED:
	case LBRSNAP_RET_POINTER:
		/* IS_ERR(): the top 4095 addresses, the same bits as -4095..-1 */
		if (value < 0 && value >= -LBR_MAX_ERRNO)
			return -value;
		return 0;
	default:
		return 0;
	}
}

enum lbrsnap_ret_kind lbr_ret__record_kind(const struct lbr_attach_point *ap, __u32 ev_flags)
{
	if (!(ev_flags & LBRSNAP_EV_HAS_RET))
		return LBRSNAP_RET_NONE;
	if (!ap || ap->ret_kind == LBRSNAP_RET_NONE || ap->ret_kind > LBRSNAP_RET_POINTER)
		return LBRSNAP_RET_SIGNED;
	return ap->ret_kind;
}

int lbr_ret__format(enum lbrsnap_ret_kind kind, __s64 value, char *buf, size_t len)
{
	const char *name;
	int err;

	switch (kind) {
	case LBRSNAP_RET_UNSIGNED:
		return num_text__u64(buf, len, value);
	case LBRSNAP_RET_BOOL:
		return snprintf(buf, len, "%s", value ? "true" : "false");
	case LBRSNAP_RET_POINTER:
		if (!value)
			return snprintf(buf, len, "NULL");
		err = lbr_ret__errno(kind, value);
		if (!err)
			return num_text__hex(buf, len, value);
		name = lbr_errno__name(err);
		if (name)
			return snprintf(buf, len, "ERR_PTR(-%s)", name);
		return snprintf(buf, len, "ERR_PTR(%lld)", (long long)value);
	default:
		return num_text__s64(buf, len, value);
	}
}

const char *lbr_ret__kind_name(enum lbrsnap_ret_kind kind)
{
	static const char *const names[] = {
		[LBRSNAP_RET_NONE] = "none",
		[LBRSNAP_RET_SIGNED] = "signed",
		[LBRSNAP_RET_UNSIGNED] = "unsigned",
		[LBRSNAP_RET_BOOL] = "bool",
		[LBRSNAP_RET_POINTER] = "pointer",
	};

	return (unsigned int)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "none";
}
