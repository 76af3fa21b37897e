/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * User-space attach points: "uprobe:PATH:FUNC[+OFF]", "uretprobe:PATH:FUNC" and
 * "usdt:PATH:PROVIDER:NAME". PATH is a file, a bare program name found on $PATH, or a
 * library name ("libc.so.6") found where the dynamic linker looks; the function must be in
 * the file's symbol tables (.symtab or .dynsym), the offset inside it.
 */
#ifndef LBRSNAP_UPROBE_SPEC_H
#define LBRSNAP_UPROBE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct uprobe_spec {
	char *path;		/* resolved, absolute, symlinks followed */
	char *func;		/* uprobe, uretprobe: the function */
	__u64 addr;		/* ... its symbol's value: where its DWARF says its code starts */
	__u64 off;		/* uprobe: bytes into the function */
	char *provider;		/* usdt */
	char *name;		/* usdt */
};

/*
 * Parses text (the spec after "uprobe:", "uretprobe:" or "usdt:") and checks it against the
 * file: the file exists and is ELF, the function is in its symbol tables and the offset
 * inside it (usdt probes are checked by usdt-notes.h). Returns 0, or a negative errno with a
 * one-line message naming the bad part in err.
 */
int uprobe_spec__parse(const char *text, bool usdt, bool ret, struct uprobe_spec *u,
		       char *err, size_t err_len);
/* Finds a bare name on $PATH, a library name in the linker's directories; absolute result */
int uprobe_spec__resolve_path(const char *name, char **out);
void uprobe_spec__free(struct uprobe_spec *u);

#endif /* LBRSNAP_UPROBE_SPEC_H */
