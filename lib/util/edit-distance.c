// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Edit distance (API in edit-distance.h). */
#include "util/edit-distance.h"
#include <string.h>

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, prev, tmp;
	size_t row[128];

	if (la >= 128 || lb >= 128)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = a[i - 1] == b[j - 1] ? prev :
				 1 + (prev < row[j] ? (prev < row[j - 1] ? prev : row[j - 1]) :
				      (row[j] < row[j - 1] ? row[j] : row[j - 1]));
			prev = tmp;
		}
	}
	return row[lb];
}

void closest_names__init(struct closest_names *c)
{
	int i;

	for (i = 0; i < 3; i++) {
		c->name[i] = NULL;
		c->dist[i] = (size_t)-1;
	}
}

void closest_names__add(struct closest_names *c, const char *cand, size_t d)
{
	int i, k;

	for (i = 0; i < 3; i++) {
		if (c->name[i] && !strcmp(c->name[i], cand))
			return;
		if (d < c->dist[i]) {
			for (k = 2; k > i; k--) {
				c->name[k] = c->name[k - 1];
				c->dist[k] = c->dist[k - 1];
			}
			c->name[i] = cand;
			c->dist[i] = d;
			return;
		}
	}
}
