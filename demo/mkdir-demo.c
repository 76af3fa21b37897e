// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * mkdir-demo - make demo's user program where kernel call traces cannot run (no fexit, no
 * kprobes): mkdir(2)'s shape in user space, so that --calls has a real failing leaf to find.
 *
 *   mkdir-demo DIR...
 *
 * demo_mkdirat(DIR) calls demo_filename_create(DIR), which asks demo_lookup_excl(DIR) (EEXIST
 * if DIR exists, as the kernel's lookup_one_qstr_excl) and demo_may_create(".") (write access
 * to the parent), then demo_vfs_mkdir(DIR) makes it. Each returns 0 or -errno, passed up.
 * Built with -g (return types from DWARF) and frame pointers (user stacks walk to main).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa, used))

static NOIPA int demo_lookup_excl(const char *path)
{
	struct stat st;

	if (!stat(path, &st))
		return -EEXIST;
	return errno == ENOENT ? 0 : -errno;
}

static NOIPA int demo_may_create(const char *parent)
{
	return access(parent, W_OK | X_OK) ? -errno : 0;
}

static NOIPA int demo_filename_create(const char *path)
{
	int err = demo_lookup_excl(path);

	if (err)
		return err;
	return demo_may_create(".");
}

static NOIPA int demo_vfs_mkdir(const char *path)
{
	return mkdir(path, 0777) ? -errno : 0;
}

static NOIPA int demo_mkdirat(const char *path)
{
	int err = demo_filename_create(path);

	if (err)
		return err;
	return demo_vfs_mkdir(path);
}

int main(int argc, char **argv)
{
	int i, err, status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: mkdir-demo DIR...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		err = demo_mkdirat(argv[i]);
		if (err) {
			fprintf(stderr, "mkdir-demo: cannot create directory '%s': %s\n", argv[i],
				strerror(-err));
			status = 1;
		}
	}
	return status;
}
