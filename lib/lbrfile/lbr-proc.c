// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The MAPS section payload (format in lbr-proc.h). */
#include <errno.h>
#include <string.h>
#include "lbrfile/lbr-proc.h"

int lbr_proc__parse(const void *data, size_t size, struct lbr_proc *p)
{
	const struct lbrfile_proc *h = data;
	const struct lbrfile_map *m;
	size_t maps_size;
	__u32 i;

	if (size < sizeof(*h))
		return -EINVAL;
	if (h->nr_maps > (size - sizeof(*h)) / sizeof(*m))
		return -EINVAL;
	if ((h->flags & LBRFILE_PROC_GONE) && h->nr_maps)
		return -EINVAL;
	maps_size = h->nr_maps * sizeof(*m);
	m = (const void *)(h + 1);
	p->pid = h->pid;
	p->flags = h->flags;
	p->time_ns = h->time_ns;
	memcpy(p->comm, h->comm, LBRSNAP_COMM_LEN);
	p->comm[LBRSNAP_COMM_LEN] = 0;
	p->nr_maps = h->nr_maps;
	p->maps = m;
	p->paths = (const char *)m + maps_size;
	p->paths_len = size - sizeof(*h) - maps_size;
	/* every path inside the text and terminated; maps sorted, so lookups can bisect */
	if (p->nr_maps && (!p->paths_len || p->paths[p->paths_len - 1]))
		return -EINVAL;
	for (i = 0; i < p->nr_maps; i++) {
		if (m[i].path_off >= p->paths_len || m[i].start >= m[i].end ||
		    m[i].build_id_size > LBRFILE_BUILD_ID_MAX)
			return -EINVAL;
		if (i && m[i].start < m[i - 1].end)
			return -EINVAL;
	}
	return 0;
}

const char *lbr_proc__path(const struct lbr_proc *p, __u32 i)
{
	return i < p->nr_maps ? p->paths + p->maps[i].path_off : NULL;
}

const struct lbrfile_map *lbr_proc__find(const struct lbr_proc *p, __u64 addr)
{
	__u32 lo = 0, hi = p->nr_maps;

	while (lo < hi) {
		__u32 mid = lo + (hi - lo) / 2;

		if (addr < p->maps[mid].start)
			hi = mid;
		else if (addr >= p->maps[mid].end)
			lo = mid + 1;
		else
			return &p->maps[mid];
	}
	return NULL;
}
