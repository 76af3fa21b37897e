// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Syscall names by number (built in: the x86-64 numbers are ABI), their arguments from
 * the running kernel's tracefs formats, events/syscalls/sys_enter_NAME/format, as perf
 * trace reads them: the fields after __syscall_nr, in order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbrfile/arg-value.h"
#include "capture/syscall-table.h"
#include "util/tracefs-util.h"

static const char *const syscall_names[] = {
#include "syscall-names.h"
};

/*
 * Syscalls whose tracefs event is named after the kernel's function (SYSCALL_DEFINE of
 * newuname) rather than the syscall: the record and the filter keep the syscall's name, the
 * arguments come from the event's format. These are all the x86-64 syscalls with no event of
 * their name but one of another, the same on 6.1, 6.18 and 7.2 (the other names without an
 * event are syscalls the kernel does not build, or has no event for).
 */
static const struct {
	const char *name, *event;
} event_names[] = {
	{ "stat", "newstat" },
	{ "fstat", "newfstat" },
	{ "lstat", "newlstat" },
	{ "uname", "newuname" },
	{ "sendfile", "sendfile64" },
	{ "umount2", "umount" },
};

/* The tracefs event name of syscall name */
static const char *event_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++) {
		if (!strcmp(event_names[i].name, name))
			return event_names[i].event;
	}
	return name;
}

struct syscall_table {
	struct lbr_syscall sc[LBRSNAP_NR_SYSCALLS];
};

/*
 * One "\tfield:TYPE NAME;\toffset:..." line: TYPE and NAME split at the last space (a
 * pointer's '*' stays with the type: "const char * filename").
 */
static int parse_field(char *line, char **type, char **name)
{
	char *p = strstr(line, "field:"), *semi, *sp;

	if (!p)
		return -EINVAL;
	p += 6;
	semi = strchr(p, ';');
	if (!semi)
		return -EINVAL;
	*semi = 0;
	sp = strrchr(p, ' ');
	if (!sp)
		return -EINVAL;
	*name = sp + 1;
	*sp = 0;
	while (sp > p && sp[-1] == ' ')
		*--sp = 0;
	*type = p;
	return 0;
}

/* The arguments of syscall sc->name; a syscall without an event keeps none. */
static int load_args(struct lbr_syscall *sc)
{
	char path[320], *line = NULL, *type, *name;
	bool after_nr = false;
	size_t cap = 0;
	int err = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "events/syscalls/sys_enter_%s/format",
		 event_name(sc->name));
	fp = tracefs_util__fopen(path);
	if (!fp)
		return 0;
	while (!err && getline(&line, &cap, fp) > 0) {
		struct lbr_arg_desc *a = &sc->args[sc->nr_args];

		if (parse_field(line, &type, &name))
			continue;
		if (!strcmp(name, "__syscall_nr")) {
			after_nr = true;
			continue;
		}
		if (!after_nr || sc->nr_args >= LBRSNAP_MAX_ARGS)
			continue;
		a->name = strdup(name);
		a->type = strdup(type);
		a->size = 8;
		a->kind = lbr_arg__type_is_string(type) ? LBRSNAP_ARG_STRING :
			  strchr(type, '*') ? LBRSNAP_RET_POINTER : LBRSNAP_RET_UNSIGNED;
		sc->nr_args++;
		if (!a->name || !a->type)
			err = -ENOMEM;
	}
	free(line);
	fclose(fp);
	return err;
}

int syscall_table__load(struct syscall_table **out)
{
	struct syscall_table *t = calloc(1, sizeof(*t));
	size_t nr;
	int err = 0;

	if (!t)
		return -ENOMEM;
	for (nr = 0; nr < sizeof(syscall_names) / sizeof(syscall_names[0]) && !err; nr++) {
		struct lbr_syscall *sc = &t->sc[nr];

		if (!syscall_names[nr] || nr >= LBRSNAP_NR_SYSCALLS)
			continue;
		sc->nr = nr;
		sc->name = syscall_names[nr];
		err = load_args(sc);
	}
	if (err) {
		syscall_table__free(t);
		return err;
	}
	*out = t;
	return 0;
}

void syscall_table__free(struct syscall_table *t)
{
	size_t i, j;

	if (!t)
		return;
	for (i = 0; i < LBRSNAP_NR_SYSCALLS; i++) {
		for (j = 0; j < t->sc[i].nr_args; j++) {
			free((char *)t->sc[i].args[j].name);
			free((char *)t->sc[i].args[j].type);
		}
	}
	free(t);
}

const struct lbr_syscall *syscall_table__get(const struct syscall_table *t, __u32 nr)
{
	if (nr >= LBRSNAP_NR_SYSCALLS || !t->sc[nr].name)
		return NULL;
	return &t->sc[nr];
}

__u8 syscall_table__str_mask(const struct syscall_table *t, __u32 nr)
{
	const struct lbr_syscall *sc = syscall_table__get(t, nr);
	__u8 mask = 0;
	__u32 i;

	for (i = 0; sc && i < sc->nr_args; i++) {
		if (sc->args[i].kind == LBRSNAP_ARG_STRING)
			mask |= 1 << i;
	}
	return mask;
}

int syscall_table__nr(const char *name)
{
	size_t nr, i;

	/* the event's name, as tracefs and perf trace spell it, is the syscall's too */
	for (i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++) {
		if (!strcmp(event_names[i].event, name))
			name = event_names[i].name;
	}
	for (nr = 0; nr < sizeof(syscall_names) / sizeof(syscall_names[0]); nr++) {
		if (syscall_names[nr] && !strcmp(syscall_names[nr], name))
			return nr;
	}
	return -ENOENT;
}
