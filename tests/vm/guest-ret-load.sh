# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Sourced by the guest scripts that trace tests/helpers/ret-load's exact calls.

# ret_load_record COMM NAME [OPTIONS...]: lbrsnap record OPTIONS of ret-load's calls only
# (--comm COMM) into NAME.data, ret-load's output in NAME.out, the recorder's in NAME.err.
# ret-load's directory, left in $dir for the checks, is on tmpfs: the "." and ".." that
# filldir64's counts assume come from its readdir.
ret_load_record() {
	local comm=$1 name=$2
	shift 2
	dir=$(mktemp -d "/dev/shm/$comm.XXXXXX")
	test_at_exit "rm -rf '$dir'"
	lbrsnap record "$@" --comm "$comm" -o "$name.data" -- \
		ret-load --comm "$comm" --dir "$dir" > "$name.out" 2> "$name.err"
}

# Kernel addresses, which differ from boot to boot, as 0xffff<addr>
kaddr() { sed 's/0xffff[0-9a-f]\{12\}\b/0xffff<addr>/g'; }

# Functions the guest scripts trace that 7.2 renamed: the name the running kernel has.
#   do_mkdirat -> filename_mkdirat, do_rmdir -> filename_rmdir (the filename_* helpers of
#   fs/namei.c), do_filp_open -> do_file_open; same prototypes and return values.
kfunc() {
	if grep -q " [tT] $1\$" /proc/kallsyms; then
		echo "$1"
	else
		echo "$2"
	fi
}
MKDIRAT=$(kfunc do_mkdirat filename_mkdirat)
RMDIR=$(kfunc do_rmdir filename_rmdir)
FILP_OPEN=$(kfunc do_filp_open do_file_open)
# from_kgid() calls map_id_up() up to 6.12 and map_id_range_up(map, id, 1) in 7.2, where
# map_id_up() is no longer on getegid's path: the same u32 values.
case $(uname -r) in
[1-6].*) MAP_ID_UP=map_id_up ;;
*) MAP_ID_UP=map_id_range_up ;;
esac
