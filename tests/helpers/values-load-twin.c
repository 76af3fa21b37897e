// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The second lbrsnap_twin of values-load: a static function of the same name as
 * values-load.c's, with other parameters. Its symbol is lbrsnap_twin_b (an asm label), so
 * each has one symbol, while DWARF names both lbrsnap_twin. Linked first, its DIE comes
 * first: a reader matching DWARF by name would type values-load.c's from this one.
 */
#define NOIPA __attribute__((noipa, used))

static int lbrsnap_twin(unsigned char c) __asm__("lbrsnap_twin_b");

static NOIPA int lbrsnap_twin(unsigned char c)
{
	return c + 1;
}

int lbrsnap_twin_b_call(int c)
{
	return lbrsnap_twin(c);
}
