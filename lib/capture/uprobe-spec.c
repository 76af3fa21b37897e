// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * User-space attach point specs (API in uprobe-spec.h).
 *
 * Everything libbpf would find wrong at attach time is found here first, so that a bad spec
 * is one line naming its bad part and nothing gets attached: libbpf resolves the function
 * again from the same symbol tables when it attaches.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "capture/uprobe-spec.h"
#include "symbols/elf-funcs.h"

/* Where the dynamic linker looks when ld.so.conf names nothing else (x86-64 Debian first) */
static const char *const lib_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib",
	"/usr/lib", "/usr/local/lib",
};

static bool is_file(const char *path, bool exec)
{
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	return !exec || !access(path, X_OK);
}

/*
 * Whether a library is one this machine's processes load: ld.so.conf also names the
 * directories of other ABIs (/usr/lib32), where a library of the same name is 32-bit.
 */
static bool is_native_elf(const char *path)
{
	Elf64_Ehdr eh;
	bool ok;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = read(fd, &eh, sizeof(eh)) == sizeof(eh) && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	     eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_machine == EM_X86_64;
	close(fd);
	return ok;
}

/* dir/name if it is a file (a library: of this ABI); *out is its real path */
static bool try_dir(const char *dir, size_t dlen, const char *name, bool exec, char **out)
{
	char path[PATH_MAX];

	if (!dlen)
		return false;
	snprintf(path, sizeof(path), "%.*s/%s", (int)dlen, dir, name);
	if (!is_file(path, exec) || (!exec && !is_native_elf(path)))
		return false;
	*out = realpath(path, NULL);
	return *out != NULL;
}

/* Each directory of a ':'-separated list */
static bool try_list(const char *list, const char *name, bool exec, char **out)
{
	size_t len;

	while (list && *list) {
		len = strcspn(list, ":");
		if (try_dir(list, len, name, exec, out))
			return true;
		list += len + (list[len] == ':');
	}
	return false;
}

/* The directories /etc/ld.so.conf.d/ adds (one absolute path a line) */
static bool try_ld_conf(const char *name, char **out)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0, len;
	bool found = false;
	struct dirent *de;
	FILE *fp;
	DIR *d;

	d = opendir("/etc/ld.so.conf.d");
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 5, ".conf"))
			continue;
		snprintf(path, sizeof(path), "/etc/ld.so.conf.d/%s", de->d_name);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		while (!found && getline(&line, &cap, fp) > 0) {
			len = strcspn(line, " \t\n#");
			found = line[0] == '/' && try_dir(line, len, name, false, out);
		}
		fclose(fp);
	}
	free(line);
	closedir(d);
	return found;
}

int uprobe_spec__resolve_path(const char *name, char **out)
{
	size_t i;

	*out = NULL;
	if (strchr(name, '/')) {
		if (!is_file(name, false))
			return -ENOENT;
		*out = realpath(name, NULL);
		return *out ? 0 : -errno;
	}
	/* a library by its name, as the dynamic linker finds it; a program on $PATH */
	if (strstr(name, ".so")) {
		if (try_list(getenv("LD_LIBRARY_PATH"), name, false, out) ||
		    try_ld_conf(name, out))
			return 0;
		for (i = 0; i < sizeof(lib_dirs) / sizeof(lib_dirs[0]); i++) {
			if (try_dir(lib_dirs[i], strlen(lib_dirs[i]), name, false, out))
				return 0;
		}
		return -ENOENT;
	}
	return try_list(getenv("PATH"), name, true, out) ? 0 : -ENOENT;
}

/*
 * The function's address and size in the file's symbol tables. A name defined at two
 * addresses (two static functions of different files) is ambiguous: -ENOTUNIQ.
 */
struct func_find {
	const char *func;
	__u64 addr, size;
	bool found;
};

static int func_find__sym(const char *name, const GElf_Sym *sym, void *ctx)
{
	struct func_find *ff = ctx;

	if (strcmp(name, ff->func))
		return 0;
	if (ff->found && ff->addr != sym->st_value)
		return -ENOTUNIQ;
	ff->found = true;
	ff->addr = sym->st_value;
	if (sym->st_size)
		ff->size = sym->st_size;
	return 0;
}

static int find_func(Elf *elf, const char *func, __u64 *addr, __u64 *size)
{
	struct func_find ff = { .func = func, .addr = *addr, .size = *size };
	int ret = elf_funcs__for_each(elf, func_find__sym, &ff);

	if (ret)
		return ret;
	if (!ff.found)
		return -ENOENT;
	*addr = ff.addr;
	*size = ff.size;
	return 0;
}

/* Splits "PATH:A" (or "PATH:A:B" for usdt) at its last colons */
static int split(const char *text, bool usdt, char **path, char **a, char **b)
{
	const char *c1 = strrchr(text, ':'), *c2 = NULL;

	if (!c1)
		return -EINVAL;
	if (usdt) {
		c2 = c1;
		c1 = c2 > text ? memrchr(text, ':', c2 - text) : NULL;
		if (!c1)
			return -EINVAL;
		*b = strdup(c2 + 1);
		if (!*b)
			return -ENOMEM;
	}
	*path = strndup(text, c1 - text);
	*a = c2 ? strndup(c1 + 1, c2 - c1 - 1) : strdup(c1 + 1);
	if (!*path || !*a)
		return -ENOMEM;
	if (!**path || !**a || (usdt && !**b))
		return -EINVAL;
	return 0;
}

/* "FUNC+OFF": the offset, a number in C's notation */
static int split_off(struct uprobe_spec *u, bool ret, char *err, size_t err_len)
{
	char *plus = strchr(u->func, '+'), *end;

	if (!plus)
		return 0;
	if (ret) {
		snprintf(err, err_len, "'+%s': a return probe takes no offset", plus + 1);
		return -EINVAL;
	}
	errno = 0;
	u->off = strtoull(plus + 1, &end, 0);
	if (!plus[1] || *end || errno || plus[1] == '-') {
		snprintf(err, err_len, "bad offset '%s': expected a number of bytes", plus + 1);
		return -EINVAL;
	}
	*plus = 0;
	return 0;
}

static int check_func(struct uprobe_spec *u, char *err, size_t err_len)
{
	__u64 addr = 0, size = 0;
	Elf *elf;
	int fd, ret;

	fd = open(u->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, err_len, "cannot open %s: %s", u->path, strerror(-ret));
		return ret;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, err_len, "%s is not an ELF file", u->path);
		ret = -ENOEXEC;
		goto cleanup;
	}
	ret = find_func(elf, u->func, &addr, &size);
	u->addr = addr;
	if (ret == -ENOENT)
		snprintf(err, err_len, "no function '%s' in %s (not in .symtab or .dynsym)",
			 u->func, u->path);
	else if (ret == -ENOTUNIQ)
		snprintf(err, err_len, "function '%s' is defined more than once in %s",
			 u->func, u->path);
	else if (u->off && size && u->off >= size) {
		snprintf(err, err_len, "bad offset %#llx: %s is %llu bytes long",
			 (unsigned long long)u->off, u->func, (unsigned long long)size);
		ret = -ERANGE;
	}
cleanup:
	elf_end(elf);
	close(fd);
	return ret;
}

int uprobe_spec__parse(const char *text, bool usdt, bool ret, struct uprobe_spec *u,
		       char *err, size_t err_len)
{
	char *path = NULL;
	int r;

	memset(u, 0, sizeof(*u));
	r = split(text, usdt, &path, usdt ? &u->provider : &u->func, &u->name);
	if (r == -EINVAL)
		snprintf(err, err_len, "bad spec '%s': expected %s", text,
			 usdt ? "PATH:PROVIDER:NAME" : ret ? "PATH:FUNC" : "PATH:FUNC[+OFF]");
	if (!r && !usdt)
		r = split_off(u, ret, err, err_len);
	if (!r) {
		r = uprobe_spec__resolve_path(path, &u->path);
		if (r == -ENOENT)
			snprintf(err, err_len, "no such file '%s'%s", path, strchr(path, '/') ? "" :
				 strstr(path, ".so") ? " in the library directories" :
				 " on $PATH");
		else if (r)
			snprintf(err, err_len, "cannot resolve '%s': %s", path, strerror(-r));
	}
	if (!r && !usdt)
		r = check_func(u, err, err_len);
	free(path);
	if (r)
		uprobe_spec__free(u);
	return r;
}

void uprobe_spec__free(struct uprobe_spec *u)
{
	free(u->path);
	free(u->func);
	free(u->provider);
	free(u->name);
	memset(u, 0, sizeof(*u));
}
