/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The notes of an ELF file's SHT_NOTE sections: build ids, SDT probes. */
#ifndef LBRSNAP_ELF_NOTES_H
#define LBRSNAP_ELF_NOTES_H

#include <gelf.h>

/* One note: its header, its owner's name (nh->n_namesz bytes) and descriptor (n_descsz) */
typedef int (*elf_note_fn)(const GElf_Nhdr *nh, const char *owner, const char *desc, void *ctx);

/* Calls fn on each note in file order; returns the first nonzero value fn returns, else 0. */
int elf_notes__for_each(Elf *elf, elf_note_fn fn, void *ctx);

#endif /* LBRSNAP_ELF_NOTES_H */
