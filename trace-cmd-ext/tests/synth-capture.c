// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * synth-capture: writes a synthetic lbrsnap.data through lbrfile_writer, for the trace.dat
 * tests (no machine here has LBR). Branch addresses are real text symbols of the kallsyms
 * given, so %pS output can be checked against it.
 *
 *   synth-capture -o FILE [-k KALLSYMS] [-c CPUS] [-n RECORDS] [-s START_NS] [-e END_NS]
 *                 [-b BRANCHES] [-S STACK_DEPTH] [-P PID] [-g] [-V] [-U FILE:OFF,...]
 *                 [-r RELEASE] [-N COMM]
 *
 * Records are spread evenly over [START, END] and round-robin over the CPUs; -g uses
 * growing gaps (2^27 - 1 ns, 2^27 ns, 1 s, 5 s, 60 s, 600 s) instead. Prints one line per
 * record: "time cpu tid nr_branches nr_stack". -P gives every record that pid and tid (with
 * comm "synth-PID"), to check whose task names win in a merge. -V varies the number of
 * branches per record from 0 to BRANCHES. -U gives every record a user stack: the file
 * offsets OFF (innermost first) of FILE, mapped whole at USER_BASE in every process (a MAPS
 * section each), so its frames are named from FILE's symbols. -r gives the kernel release the
 * capture names (default this machine's, as `lbrsnap record` writes it); -N the comm of every
 * record (with -P: any bytes, a newline too, as prctl(PR_SET_NAME) allows).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "lbrfile/lbrfile.h"

#define USER_BASE	0x555500000000ULL
#define USER_MAX	8

static const char *ufile;
static __u64 uoff[USER_MAX];
static unsigned int nr_uoff;

/* "FILE:OFF,OFF,..." */
static int parse_user(char *arg)
{
	char *p = strrchr(arg, ':'), *tok, *save = NULL;

	if (!p)
		return -EINVAL;
	*p++ = 0;
	ufile = arg;
	for (tok = strtok_r(p, ",", &save); tok && nr_uoff < USER_MAX;
	     tok = strtok_r(NULL, ",", &save))
		uoff[nr_uoff++] = strtoull(tok, NULL, 0);
	return nr_uoff ? 0 : -EINVAL;
}

/* pid's MAPS section: FILE whole, at USER_BASE */
static int write_user_maps(struct lbrfile_writer *w, __u32 pid)
{
	struct lbrfile_proc proc = { .pid = pid, .nr_maps = 1 };
	struct lbrfile_map m = { .start = USER_BASE, .prot = PROT_READ | PROT_EXEC };
	struct stat st;

	if (stat(ufile, &st))
		return -errno;
	m.end = USER_BASE + ((st.st_size + 4095) & ~4095ULL);
	m.ino = st.st_ino;
	snprintf(proc.comm, sizeof(proc.comm), "synth-%u", pid);
	return lbrfile_writer__proc(w, &proc, &m, ufile, strlen(ufile) + 1);
}

struct sym {
	unsigned long long addr;
	char name[64];
};

static struct sym *syms;
static size_t nr_syms;

static int load_syms(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], type, name[256];
	unsigned long long addr;
	size_t alloc = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr ||
		    (type != 't' && type != 'T') || strchr(line, '[') || strlen(name) > 60)
			continue;
		if (nr_syms == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			syms = realloc(syms, alloc * sizeof(*syms));
			if (!syms)
				return -ENOMEM;
		}
		syms[nr_syms].addr = addr;
		snprintf(syms[nr_syms].name, sizeof(syms[nr_syms].name), "%s", name);
		nr_syms++;
	}
	fclose(f);
	return nr_syms ? 0 : -ENOENT;
}

static char *read_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t alloc = 0, n;

	if (!f)
		return NULL;
	*len = 0;
	do {
		if (*len + 65536 > alloc) {
			alloc = alloc * 2 + 65536;
			buf = realloc(buf, alloc);
			if (!buf)
				break;
		}
		n = fread(buf + *len, 1, alloc - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	return buf;
}

static const struct sym *pick(unsigned long long i)
{
	/* skip the first symbols: they are low-level entry code on x86 */
	return &syms[(i * 7919 + nr_syms / 3) % nr_syms];
}

int main(int argc, char **argv)
{
	static const unsigned long long gaps[] = { 134217727ULL, 134217728ULL, 1000000000ULL,
						   5000000000ULL, 60000000000ULL,
						   600000000000ULL, 1000 };
	static const struct lbr_attach_point aps[] = {
		{ .id = 0, .kind = LBRSNAP_KIND_FEXIT, .flags = LBRFILE_AP_HAS_RET,
		  .spec = "fexit:do_sys_openat2", .target = "do_sys_openat2" },
		{ .id = 1, .kind = LBRSNAP_KIND_RAW_TP, .spec = "raw_tp:sys_enter",
		  .target = "sys_enter" },
	};
	const char *out = NULL, *kpath = "/proc/kallsyms";
	unsigned long long start = 1000000000ULL, end = 0, t;
	unsigned int cpus = 2, nrec = 10, max_br = 4, nstack = 3, i, j;
	unsigned char buf[4096];
	struct lbrfile_writer *w;
	struct lbrsnap_event *ev = (void *)buf;
	struct lbrsnap_branch *br;
	__u64 *stack;
	char *ktext;
	size_t klen, size;
	unsigned int fixed_pid = 0;
	const char *release = NULL, *comm = NULL;
	struct utsname u;
	int gap = 0, vary = 0;
	int c, err;

	while ((c = getopt(argc, argv, "o:k:c:n:s:e:b:S:P:gVU:r:N:")) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'k': kpath = optarg; break;
		case 'c': cpus = strtoul(optarg, NULL, 0); break;
		case 'n': nrec = strtoul(optarg, NULL, 0); break;
		case 's': start = strtoull(optarg, NULL, 0); break;
		case 'e': end = strtoull(optarg, NULL, 0); break;
		case 'b': max_br = strtoul(optarg, NULL, 0); break;
		case 'S': nstack = strtoul(optarg, NULL, 0); break;
		case 'P': fixed_pid = strtoul(optarg, NULL, 0); break;
		case 'g': gap = 1; break;
		case 'V': vary = 1; break;
		case 'r': release = optarg; break;
		case 'N': comm = optarg; break;
		case 'U':
			if (parse_user(optarg))
				return 2;
			break;
		default: return 2;
		}
	}
	if (!out || !cpus || max_br > LBRSNAP_MAX_BRANCHES || nstack > LBRSNAP_MAX_STACK) {
		fprintf(stderr, "synth-capture: bad arguments\n");
		return 2;
	}
	ktext = read_text(kpath, &klen);
	if (!ktext || load_syms(kpath)) {
		fprintf(stderr, "synth-capture: %s: no text symbols\n", kpath);
		return 1;
	}
	if (!end)
		end = start + nrec * 1000000ULL;
	err = lbrfile_writer__create(out, &w);
	if (err)
		return 1;
	err = lbrfile_writer__meta(w, "clock", "mono") ?:
	      lbrfile_writer__meta(w, "nr_cpus", "%u", cpus) ?:
	      lbrfile_writer__meta(w, "hostname", "synth") ?:
	      lbrfile_writer__meta(w, "release", "%s",
				   release ?: (uname(&u) ? "6.1.0-synth" : u.release)) ?:
	      lbrfile_writer__attach(w, &aps[0]) ?: lbrfile_writer__attach(w, &aps[1]);
	for (i = 0; ufile && !err && i < 3; i++)
		err = fixed_pid ? (i ? 0 : write_user_maps(w, fixed_pid)) :
				  write_user_maps(w, 4000 + i);
	t = start;
	for (i = 0; !err && i < nrec; i++) {
		unsigned int nbr = vary ? (i * 7) % (max_br + 1) : max_br;

		memset(buf, 0, sizeof(buf));
		ev->time_ns = t;
		ev->ap = i % 2;
		ev->flags = ev->ap == 0 ? LBRSNAP_EV_HAS_RET : 0;
		ev->ret = ev->ap == 0 ? (long long)i - 3 : 0;
		ev->cpu = i % cpus;
		ev->pid = 4000 + i % 3;
		ev->tid = ev->pid + 100 * (i % 2);
		if (fixed_pid)
			ev->pid = ev->tid = fixed_pid;
		if (comm)
			strncpy(ev->comm, comm, sizeof(ev->comm) - 1);
		else
			snprintf(ev->comm, sizeof(ev->comm), "synth-%u", ev->tid);
		ev->nr_branches = nbr;
		ev->nr_stack = nstack;
		ev->lbr_ret = nbr * LBRSNAP_BRANCH_SIZE;
		ev->seq = i;
		br = (void *)(ev + 1);
		for (j = 0; j < nbr; j++) {
			br[j].from = pick(i * 31 + j * 2)->addr + 0x10 + j;
			br[j].to = pick(i * 31 + j * 2 + 1)->addr;
			br[j].flags = 0x1 | (j << 4);
		}
		stack = (void *)(br + nbr);
		for (j = 0; j < nstack; j++)
			stack[j] = pick(i * 17 + j + 5)->addr + 0x20;
		size = lbrsnap_event_size(nbr, nstack);
		if (ufile) {
			struct lbrsnap_ustack *u = (void *)(buf + size);

			ev->flags |= LBRSNAP_EV_HAS_USTACK;
			u->nr = nr_uoff;
			for (j = 0; j < nr_uoff; j++)
				u->ip[j] = USER_BASE + uoff[j];
			size += lbrsnap_ustack_size(nr_uoff);
		}
		err = lbrfile_writer__record(w, buf, size);
		printf("%llu %u %u %u %u\n", t, ev->cpu, ev->tid, nbr, nstack);
		/* with -g every CPU sees each gap: advance only after the last CPU */
		if (gap)
			t += (i % cpus == cpus - 1) ? gaps[(i / cpus) % 7] : 7;
		else
			t = start + (end - start) * (i + 1) / nrec;
	}
	err = err ?: lbrfile_writer__loss(w, 0, LBRSNAP_LOSS_RINGBUF, 2) ?:
	      lbrfile_writer__kallsyms(w, ktext, klen);
	if (err) {
		lbrfile_writer__abort(w);
		fprintf(stderr, "synth-capture: %s: %s\n", out, strerror(-err));
		return 1;
	}
	return lbrfile_writer__close(w) ? 1 : 0;
}
