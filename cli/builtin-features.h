/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* lbrsnap features: which newer attach types the running kernel takes */
#ifndef LBRSNAP_BUILTIN_FEATURES_H
#define LBRSNAP_BUILTIN_FEATURES_H

int cmd_features(int argc, char **argv);

#endif
