// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "bench-progs.h"

static void bench_progs__add(struct bench_prog *progs, int *nr, int max, __u32 id,
			     const char *prefix)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int i, fd;

	for (i = 0; i < *nr; i++)
		if (progs[i].id == id)
			return;
	if (*nr == max)
		return;
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return;
	if (bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    strncmp(info.name, prefix, strlen(prefix))) {
		close(fd);
		return;
	}
	progs[*nr].fd = fd;
	progs[*nr].id = id;
	memcpy(progs[*nr].name, info.name, sizeof(info.name));
	(*nr)++;
}

void bench_progs__find(struct bench_prog *progs, int *nr, int max, pid_t pid,
		       const char *prefix)
{
	char path[64], fpath[320], line[256];
	struct dirent *de;
	unsigned int id;
	FILE *fp;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(fpath, sizeof(fpath), "%s/%s", path, de->d_name);
		fp = fopen(fpath, "r");
		if (!fp)
			continue;
		while (fgets(line, sizeof(line), fp))
			if (sscanf(line, "prog_id: %u", &id) == 1)
				bench_progs__add(progs, nr, max, id, prefix);
		fclose(fp);
	}
	closedir(d);
}

int bench_progs__read(struct bench_prog *progs, int nr)
{
	int i;

	for (i = 0; i < nr; i++) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		if (bpf_obj_get_info_by_fd(progs[i].fd, &info, &len))
			return -errno;
		progs[i].ns = info.run_time_ns;
		progs[i].cnt = info.run_cnt;
	}
	return 0;
}
