// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include "symbols/build-id.h"
#include "lbrfile/lbrfile.h"
#include "capture/proc-maps.h"

/* Build ids by path: every process maps the same libraries */
struct bid_cache {
	char *path;
	__u64 ino;
	int len;			/* <= 0: none */
	__u8 id[LBRFILE_BUILD_ID_MAX];
};

struct proc_maps {
	__u32 *seen;			/* open addressing, 0 is empty (pid 0 has no maps) */
	size_t cap, nr;
	struct bid_cache *bids;
	size_t nr_bids;
	__u64 gone;
};

int proc_maps__new(struct proc_maps **out)
{
	struct proc_maps *pm = calloc(1, sizeof(*pm));

	if (!pm)
		return -ENOMEM;
	pm->cap = 1024;
	pm->seen = calloc(pm->cap, sizeof(*pm->seen));
	if (!pm->seen) {
		free(pm);
		return -ENOMEM;
	}
	*out = pm;
	return 0;
}

void proc_maps__free(struct proc_maps *pm)
{
	size_t i;

	if (!pm)
		return;
	for (i = 0; i < pm->nr_bids; i++)
		free(pm->bids[i].path);
	free(pm->bids);
	free(pm->seen);
	free(pm);
}

static __u32 *slot(__u32 *tab, size_t cap, __u32 pid)
{
	size_t i = (pid * 2654435761u) & (cap - 1);

	while (tab[i] && tab[i] != pid)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

/* Marks pid seen; returns true if it was already */
static int mark_seen(struct proc_maps *pm, __u32 pid, bool *was)
{
	__u32 *s;
	size_t i;

	if (2 * (pm->nr + 1) > pm->cap) {
		__u32 *tab = calloc(pm->cap * 2, sizeof(*tab));

		if (!tab)
			return -ENOMEM;
		for (i = 0; i < pm->cap; i++)
			if (pm->seen[i])
				*slot(tab, pm->cap * 2, pm->seen[i]) = pm->seen[i];
		free(pm->seen);
		pm->seen = tab;
		pm->cap *= 2;
	}
	s = slot(pm->seen, pm->cap, pid);
	*was = *s == pid;
	if (!*was) {
		*s = pid;
		pm->nr++;
	}
	return 0;
}

/* The build id of a mapped file; cached by path and inode, a replaced file reads anew */
static void map_build_id(struct proc_maps *pm, __u32 pid, const char *path,
			 struct lbrfile_map *m)
{
	struct bid_cache *b, *grown;
	char root_path[4096 + 32];
	size_t i;

	for (i = 0; i < pm->nr_bids; i++) {
		b = &pm->bids[i];
		if (b->ino == m->ino && !strcmp(b->path, path))
			goto found;
	}
	grown = realloc(pm->bids, (pm->nr_bids + 1) * sizeof(*grown));
	if (!grown)
		return;
	pm->bids = grown;
	b = &pm->bids[pm->nr_bids];
	b->path = strdup(path);
	if (!b->path)
		return;
	b->ino = m->ino;
	/* through the process's root: the file it mapped, whatever our mount namespace */
	snprintf(root_path, sizeof(root_path), "/proc/%u/root%s", pid, path);
	b->len = build_id__read(root_path, b->id, sizeof(b->id));
	if (b->len < 0)
		b->len = build_id__read(path, b->id, sizeof(b->id));
	pm->nr_bids++;
found:
	if (b->len > 0) {
		m->build_id_size = b->len;
		memcpy(m->build_id, b->id, b->len);
	}
}

static int read_comm(__u32 pid, char *comm)
{
	char path[64];
	FILE *fp;
	int ret = -errno;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	fp = fopen(path, "re");
	if (!fp)
		return ret;
	ret = fgets(comm, LBRSNAP_COMM_LEN, fp) ? 0 : -ENODATA;
	fclose(fp);
	comm[strcspn(comm, "\n")] = 0;
	return ret;
}

/*
 * Executable file mappings of pid. A process that has exited (no /proc entry) or is a zombie
 * (its mm released: an empty maps file) is gone: written with LBRFILE_PROC_GONE.
 */
static int read_and_write(struct proc_maps *pm, __u32 pid, const char *comm,
			  struct lbrfile_writer *w)
{
	struct lbrfile_proc proc = { .pid = pid };
	struct lbrfile_map *maps = NULL, *grown;
	char path[64], *line = NULL, *paths = NULL, *p;
	size_t line_cap = 0, paths_len = 0, nr = 0;
	struct timespec ts;
	FILE *fp;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	proc.time_ns = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	memcpy(proc.comm, comm, strnlen(comm, sizeof(proc.comm)));
	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	fp = fopen(path, "re");
	while (fp && getline(&line, &line_cap, fp) > 0) {
		unsigned long long start, end, pgoff, ino;
		unsigned int maj, min;
		char perms[8];
		int n = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
			   &maj, &min, &ino, &n) < 7 || !n)
			continue;
		p = line + n;
		p[strcspn(p, "\n")] = 0;
		/* code from files and the vdso; anonymous code (JIT) has nothing to name it */
		if (perms[2] != 'x' || !*p)
			continue;
		grown = realloc(maps, (nr + 1) * sizeof(*maps));
		if (!grown)
			goto nomem;
		maps = grown;
		memset(&maps[nr], 0, sizeof(*maps));
		maps[nr] = (struct lbrfile_map) {
			.start = start, .end = end, .pgoff = pgoff, .ino = ino,
			.dev_major = maj, .dev_minor = min, .path_off = paths_len,
			.prot = PROT_EXEC | (perms[0] == 'r' ? PROT_READ : 0) |
				(perms[1] == 'w' ? PROT_WRITE : 0),
		};
		if (*p == '/')
			map_build_id(pm, pid, p, &maps[nr]);
		grown = realloc(paths, paths_len + strlen(p) + 1);
		if (!grown)
			goto nomem;
		paths = (char *)grown;
		memcpy(paths + paths_len, p, strlen(p) + 1);
		paths_len += strlen(p) + 1;
		nr++;
	}
	if (fp)
		read_comm(pid, proc.comm);
	proc.nr_maps = nr;
	if (!nr) {
		proc.flags = LBRFILE_PROC_GONE;
		pm->gone++;
	}
	ret = lbrfile_writer__proc(w, &proc, maps, paths, paths_len);
	goto cleanup;
nomem:
	ret = -ENOMEM;
cleanup:
	if (fp)
		fclose(fp);
	free(line);
	free(maps);
	free(paths);
	return ret;
}

int proc_maps__see(struct proc_maps *pm, __u32 pid, const char *comm,
		   struct lbrfile_writer *w)
{
	bool was;
	int ret;

	if (!pid)
		return 0;
	ret = mark_seen(pm, pid, &was);
	if (ret || was)
		return ret;
	return read_and_write(pm, pid, comm, w);
}

int proc_maps__reread(struct proc_maps *pm, __u32 pid, struct lbrfile_writer *w)
{
	char comm[LBRSNAP_COMM_LEN] = "";
	bool was;
	int ret;

	ret = mark_seen(pm, pid, &was);
	if (ret)
		return ret;
	read_comm(pid, comm);
	return read_and_write(pm, pid, comm, w);
}

__u64 proc_maps__nr_procs(const struct proc_maps *pm)
{
	return pm ? pm->nr : 0;
}

__u64 proc_maps__nr_gone(const struct proc_maps *pm)
{
	return pm ? pm->gone : 0;
}
