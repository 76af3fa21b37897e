// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbrsnap.data writer (format in lbrfile.h): sections are appended as the capture produces
 * them, buffered, under a temporary name that close renames (out-file.h). What the reader
 * would refuse (a malformed attach point, record or MAPS section) is refused here before it
 * is written.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/align.h"
#include "util/out-file.h"
#include "lbrfile/lbrfile.h"

struct lbrfile_writer {
	struct out_file out;
	FILE *fp;		/* buffered, on out */
	char *meta;
	size_t meta_len;
	bool meta_done;
	__u64 nr_recs;
	__u64 bytes;		/* written so far (buffered or not): --max-size */
	int err;		/* first write error, reported by close */
};

int lbrfile_writer__create(const char *path, struct lbrfile_writer **out)
{
	struct lbrfile_header hdr = { .version = LBRFILE_VERSION, .header_size = sizeof(hdr) };
	struct lbrfile_writer *w;
	int err;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->out = (struct out_file)OUT_FILE_INIT;
	/* sections only ever follow one another: a FIFO gets them as they come */
	err = out_file__open_stream(&w->out, path);
	if (err)
		goto cleanup;
	w->fp = out_file__stdio(&w->out);
	if (!w->fp) {
		err = -errno;
		goto cleanup;
	}
	memcpy(hdr.magic, LBRFILE_MAGIC, 8);
	if (fwrite(&hdr, sizeof(hdr), 1, w->fp) != 1) {
		err = -(errno ?: EIO);
		goto cleanup;
	}
	w->bytes = sizeof(hdr);
	*out = w;
	return 0;
cleanup:
	lbrfile_writer__abort(w);
	return err;
}

static int write_section(struct lbrfile_writer *w, __u32 type, const void *a, size_t alen,
			 const void *b, size_t blen)
{
	static const char zero[8];
	struct lbrfile_section sec = { .type = type, .size = alen + blen };
	size_t pad = ALIGN(sec.size, 8) - sec.size;
	__u64 before = w->bytes;

	if (w->err)
		return w->err;
	if (fwrite(&sec, sizeof(sec), 1, w->fp) != 1 ||
	    (alen && fwrite(a, alen, 1, w->fp) != 1) ||
	    (blen && fwrite(b, blen, 1, w->fp) != 1) ||
	    (pad && fwrite(zero, pad, 1, w->fp) != 1))
		w->err = -(errno ?: EIO);	/* ENOSPC says more than EIO */
	else
		w->bytes += sizeof(sec) + sec.size + pad;
	/* a MiB boundary crossed: stdio has written about that much more to the file */
	if (!w->err && (before ^ w->bytes) >> 20)
		out_file__write_behind(&w->out);
	return w->err;
}

__u64 lbrfile_writer__bytes(const struct lbrfile_writer *w)
{
	return w->bytes;
}

static int flush_meta(struct lbrfile_writer *w)
{
	if (w->meta_done)
		return 0;
	w->meta_done = true;
	return write_section(w, LBRFILE_SEC_META, w->meta, w->meta_len, NULL, 0);
}

int lbrfile_writer__meta(struct lbrfile_writer *w, const char *key, const char *fmt, ...)
{
	char *val = NULL, *n;
	va_list ap;
	int len;

	if (w->meta_done)
		return -EBUSY;
	va_start(ap, fmt);
	len = vasprintf(&val, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -ENOMEM;
	/* values are single lines: newlines would split the key=value text */
	for (n = val; *n; n++) {
		if (*n == '\n')
			*n = ' ';
	}
	n = realloc(w->meta, w->meta_len + strlen(key) + len + 3);
	if (!n) {
		free(val);
		return -ENOMEM;
	}
	w->meta = n;
	w->meta_len += sprintf(w->meta + w->meta_len, "%s=%s\n", key, val);
	free(val);
	return 0;
}

int lbrfile_writer__attach(struct lbrfile_writer *w, const struct lbr_attach_point *ap)
{
	struct lbrfile_attach a = {
		.id = ap->id, .kind = ap->kind, .flags = ap->flags, .mem_bytes = ap->mem_bytes,
		.ret_kind = ap->ret_kind, .ret_size = ap->ret_size,
	};
	struct {
		struct lbrfile_attach a;
		struct lbrfile_attach_args aa;
	} hdr = { .a = a, .aa = { .nr_args = ap->nr_args, .sys = ap->sys } };
	const char *strs[3 + 3 * LBRSNAP_MAX_ARGS] = { ap->spec, ap->target, ap->ret_type ?: "" };
	size_t len = 0, n = 3, i;
	char *names, *p;
	int err;

	if (ap->nr_args > LBRSNAP_MAX_ARGS)
		return -EINVAL;
	for (i = 0; i < ap->nr_args; i++) {
		hdr.aa.kind[i] = ap->args[i].kind;
		hdr.aa.size[i] = ap->args[i].size;
	}
	/* what readers would refuse is not written */
	if (lbr_attach__check(LBRFILE_VERSION, &hdr.a, &hdr.aa))
		return -EINVAL;
	err = flush_meta(w);
	if (err)
		return err;
	for (i = 0; i < ap->nr_args; i++) {
		strs[n++] = ap->args[i].name ?: "";
		strs[n++] = ap->args[i].type ?: "";
		strs[n++] = ap->args[i].enums ?: "";
	}
	for (i = 0; i < n; i++)
		len += strlen(strs[i]) + 1;
	names = malloc(len);
	if (!names)
		return -ENOMEM;
	for (i = 0, p = names; i < n; i++)
		p = stpcpy(p, strs[i]) + 1;
	err = write_section(w, LBRFILE_SEC_ATTACH, &hdr, sizeof(hdr), names, len);
	free(names);
	return err;
}

int lbrfile_writer__syscall(struct lbrfile_writer *w, const struct lbr_syscall *sc)
{
	struct lbrfile_syscall y = { .nr = sc->nr, .nr_args = sc->nr_args };
	size_t len = strlen(sc->name) + 1, i;
	char *names, *p;
	int err;

	if (sc->nr_args > LBRSNAP_MAX_ARGS || sc->nr >= LBRSNAP_NR_SYSCALLS)
		return -EINVAL;
	err = flush_meta(w);
	if (err)
		return err;
	for (i = 0; i < sc->nr_args; i++)
		len += strlen(sc->args[i].type) + strlen(sc->args[i].name) + 2;
	names = malloc(len);
	if (!names)
		return -ENOMEM;
	p = stpcpy(names, sc->name) + 1;
	for (i = 0; i < sc->nr_args; i++) {
		p = stpcpy(p, sc->args[i].name) + 1;
		p = stpcpy(p, sc->args[i].type) + 1;
	}
	err = write_section(w, LBRFILE_SEC_SYSCALL, &y, sizeof(y), names, len);
	free(names);
	return err;
}

int lbrfile_writer__record(struct lbrfile_writer *w, const void *data, size_t size)
{
	struct lbr_record rec;
	int err;

	if (lbr_record__parse(data, size, &rec))
		return -EINVAL;
	err = flush_meta(w);
	if (err)
		return err;
	err = write_section(w, LBRFILE_SEC_RECORD, data, lbr_record__size(&rec), NULL, 0);
	if (!err)
		w->nr_recs++;
	return err;
}

int lbrfile_writer__loss(struct lbrfile_writer *w, __u32 ap, enum lbrsnap_loss cause,
			 __u64 count)
{
	struct lbrfile_loss l = { .ap = ap, .cause = cause, .count = count };
	int err = flush_meta(w);

	return err ?: write_section(w, LBRFILE_SEC_LOSS, &l, sizeof(l), NULL, 0);
}

int lbrfile_writer__kallsyms(struct lbrfile_writer *w, const char *text, size_t len)
{
	struct lbrfile_section sec = { .type = LBRFILE_SEC_KALLSYMS, .size = len };
	size_t pad = ALIGN(len, 8) - len;
	static const char zero[8];
	off_t start;
	int err = flush_meta(w);

	if (err)
		return err;
	/* what came before is on the disk: a failure from here on is the copy's alone */
	if (fflush(w->fp))
		return w->err = -(errno ?: EIO);
	start = lseek(w->out.fd, 0, SEEK_CUR);
	err = write_all(w->out.fd, &sec, sizeof(sec)) ?: write_all(w->out.fd, text, len) ?:
	      write_all(w->out.fd, zero, pad);
	if (!err)
		return 0;
	if ((err == -ENOSPC || err == -EDQUOT || err == -EFBIG) && start >= 0 &&
	    !ftruncate(w->out.fd, start) && lseek(w->out.fd, start, SEEK_SET) == start)
		return err;
	return w->err = err;
}

int lbrfile_writer__error(const struct lbrfile_writer *w)
{
	return w->err;
}

int lbrfile_writer__counts(struct lbrfile_writer *w, const struct lbrfile_counts *counts)
{
	int err = flush_meta(w);

	return err ?: write_section(w, LBRFILE_SEC_COUNTS, counts, sizeof(*counts), NULL, 0);
}

int lbrfile_writer__proc(struct lbrfile_writer *w, const struct lbrfile_proc *proc,
			 const struct lbrfile_map *maps, const char *paths, size_t paths_len)
{
	size_t maps_size = proc->nr_maps * sizeof(*maps);
	struct lbr_proc check;
	char *buf;
	int err = flush_meta(w);

	if (err)
		return err;
	buf = malloc(sizeof(*proc) + maps_size + paths_len);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, proc, sizeof(*proc));
	/* a process whose maps could not be read has none: maps and paths may be NULL */
	if (maps_size)
		memcpy(buf + sizeof(*proc), maps, maps_size);
	if (paths_len)
		memcpy(buf + sizeof(*proc) + maps_size, paths, paths_len);
	/* what readers would refuse is not written */
	err = lbr_proc__parse(buf, sizeof(*proc) + maps_size + paths_len, &check);
	if (!err)
		err = write_section(w, LBRFILE_SEC_MAPS, buf, sizeof(*proc) + maps_size + paths_len,
				    NULL, 0);
	free(buf);
	return err;
}

int lbrfile_writer__lbr_gap(struct lbrfile_writer *w, const struct lbrfile_lbr_gap *gap)
{
	int err = flush_meta(w);

	return err ?: write_section(w, LBRFILE_SEC_LBR_GAP, gap, sizeof(*gap), NULL, 0);
}

int lbrfile_writer__close(struct lbrfile_writer *w)
{
	int err;

	err = flush_meta(w);
	if (!err)
		err = write_section(w, LBRFILE_SEC_END, &w->nr_recs, sizeof(w->nr_recs), NULL, 0);
	if (!err)
		err = out_file__commit(&w->out);
	lbrfile_writer__abort(w);
	return err;
}

void lbrfile_writer__abort(struct lbrfile_writer *w)
{
	if (!w)
		return;
	out_file__abort(&w->out);
	free(w->meta);
	free(w);
}
