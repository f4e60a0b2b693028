// SPDX-License-Identifier: GPL-2.0-or-later
/* formats/read_file.c - a file read back for --compare: the format its text is in, its runs,
 * the repeats among them pooled and --vary's variants apart. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/format.h"
#include "formats/readers.h"
#include "lib/util.h"
#include "model/record.h"

#define RESULTS_MAX_BYTES (64 * MIB)

/* ---- runs and rows ---- */

/*
 * What variant v of a split run showed: the log's "Variant B:" line, else
 * the CSV's row values ("reads bfq", "sched_ext enabled: lavd"); and the
 * sched_ext scheduler its rows ran under, when the variant says.
 */
static void variant_state_of(struct run_record *n, int v)
{
	const struct result *r = n->nres ? &n->res[0] : NULL;
	char *st = n->variant_state;

	if (n->variant_states[v][0])
		snprintf(st, sizeof(n->variant_state), "%s", n->variant_states[v]);
	else if (r && r->variant_scx[0])
		snprintf(st, sizeof(n->variant_state), "sched_ext %s", r->variant_scx);
	else if (r && r->knob_value[0])
		snprintf(st, sizeof(n->variant_state), "reads %s", r->knob_value);
	if (!strncmp(st, "sched_ext ", 10))
		record_scx_of(n->scx, sizeof(n->scx), st + 10);
}

/* Variant v's results of run r into n, a copy of r's header. */
static int split_one(const struct run_record *r, struct run_record *n, int v)
{
	int cnt = 0;

	*n = *r;
	n->res = NULL;
	n->nres = n->cap = 0;
	for (int k = 0; k < r->nres; k++)
		cnt += r->res[k].variant_index == v;
	n->res = calloc((size_t)cnt + 1, sizeof(*n->res));
	if (!n->res)
		return -ENOMEM;
	n->cap = cnt + 1;
	for (int k = 0; k < r->nres; k++)
		if (r->res[k].variant_index == v)
			n->res[n->nres++] = r->res[k];
	snprintf(n->variant, sizeof(n->variant), "%c %s", 'A' + v,
		 n->nres ? n->res[0].variant : "");
	variant_state_of(n, v);
	return 0;
}

/* Move the rows of r into g; false (and nothing moved) when out of memory. */
static bool pool_run(struct run_record *g, struct run_record *r)
{
	if (g->cap - g->nres < r->nres) {
		int cap = g->nres + r->nres;
		struct result *p = realloc(g->res, (size_t)cap * sizeof(*p));

		if (!p)
			return false;
		g->res = p;
		g->cap = cap;
	}
	if (r->nres)
		memcpy(g->res + g->nres, r->res, (size_t)r->nres * sizeof(*r->res));
	g->nres += r->nres;
	g->nruns += r->nruns;
	g->interrupted |= r->interrupted;
	if (!g->seconds)
		g->seconds = r->seconds;
	free(r->res);
	return true;
}

/*
 * Runs of the same kernel, comment, run keys, work mode and scheduling
 * knobs are repeats: pool them into the first, keeping the order in which
 * each group first appears.
 */
static void merge_repeats(struct result_file *f)
{
	int out = 0;

	for (int i = 0; i < f->nruns; i++) {
		struct run_record *r = &f->runs[i];
		int j;

		for (j = 0; j < out; j++)
			if (run_comparable(&f->runs[j], r))
				break;
		if (j < out && pool_run(&f->runs[j], r))
			continue;
		/* a new pair, or no memory to pool it: a group of its own */
		if (i != out)
			f->runs[out] = *r;
		out++;
	}
	f->nruns = out;
}

/*
 * A --vary run's results, one run per variant: --compare then puts its
 * variants side by side as it does separate runs, each labelled with its
 * letter and value, and gives the same verdicts.
 */
static int split_variants(struct result_file *f)
{
	for (int i = 0; i < f->nruns; i++) {
		struct run_record *r = &f->runs[i];
		int most = -1, keep = 0;

		for (int k = 0; k < r->nres; k++)
			most = r->res[k].variant[0] && r->res[k].variant_index > most ?
			       r->res[k].variant_index : most;
		if (most < 0 || r->variant[0])
			continue;
		for (int v = 1; v <= most; v++) {
			struct run_record *n = file_new_run(f);

			if (!n)
				return -ENOMEM;
			r = &f->runs[i];	/* file_new_run may move the runs */
			if (split_one(r, n, v))
				return -ENOMEM;
		}
		for (int k = 0; k < r->nres; k++)
			if (r->res[k].variant_index == 0)
				r->res[keep++] = r->res[k];
		r->nres = keep;
		snprintf(r->variant, sizeof(r->variant), "A %s", keep ? r->res[0].variant : "");
		variant_state_of(r, 0);
	}
	return 0;
}

/* Drop runs that hold no rows (stopped before the first row ended). */
static void drop_empty(struct result_file *f)
{
	int out = 0;

	for (int i = 0; i < f->nruns; i++) {
		if (!f->runs[i].nres) {
			free(f->runs[i].res);
			continue;
		}
		f->runs[out++] = f->runs[i];
	}
	f->nruns = out;
}

int results_parse(const char *text, size_t len, struct result_file *f, char *err, size_t errlen)
{
	int ret;

	memset(f, 0, sizeof(*f));
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {	/* a byte order mark */
		text += 3;
		len -= 3;
	}
	if (!len)
		return set_err(err, errlen, "empty file");
	if (memchr(text, '\0', len))
		return set_err(err, errlen, "binary data, not an interbench log or CSV file");
	ret = format_of(text, len)->parse(text, len, f, err, errlen);
	if (!ret && split_variants(f))
		ret = set_err(err, errlen, "out of memory");
	if (!ret) {
		merge_repeats(f);
		drop_empty(f);
		if (!f->nruns)
			ret = set_err(err, errlen, "no results in it (every run stopped before its "
				   "first row)");
	}
	if (ret)
		results_free(f);
	return ret;
}

/*
 * The whole of fd into a new buffer, at most max bytes: a size from fstat()
 * is not trusted, as /proc files say 0 and pipes say nothing. -EFBIG when
 * there is more.
 */
static int read_all(int fd, size_t max, char **out, size_t *len)
{
	size_t cap = 64 * 1024, n = 0;
	char *buf = malloc(cap), *nb;
	ssize_t r;

	while (buf) {
		if (n == cap) {
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			nb = n < cap ? realloc(buf, cap) : NULL;
			if (!nb)
				break;
			buf = nb;
		}
		r = read_full(fd, buf + n, cap - n);
		if (r < 0) {
			free(buf);
			return (int)r;
		}
		n += (size_t)r;
		if (n < cap) {
			*out = buf;
			*len = n;
			return 0;
		}
	}
	free(buf);
	return n > max ? -EFBIG : -ENOMEM;
}

/*
 * The only I/O here: the whole file into memory, then the pure parser.
 * Returns 0; -EINVAL when the file named is not one --compare can read
 * (missing, a directory or device, not a log or CSV: the command line's
 * error); another -errno when the machine failed us (permissions, I/O,
 * memory). err says which, in one line.
 */
int results_read(const char *path, struct result_file *f, char *err, size_t errlen)
{
	struct stat st;
	size_t len = 0;
	char *buf = NULL;
	int fd, ret;

	memset(f, 0, sizeof(*f));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		ret = errno == ENOENT || errno == ENOTDIR ? -EINVAL : -errno;
		set_err(err, errlen, "cannot open: %s", strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode) || S_ISCHR(st.st_mode) ||
	    S_ISBLK(st.st_mode) || (S_ISREG(st.st_mode) && st.st_size > (off_t)RESULTS_MAX_BYTES)) {
		set_err(err, errlen, "%s", S_ISDIR(st.st_mode) ? "is a directory" :
			S_ISREG(st.st_mode) ? "too big for a log or CSV file" :
			"a device, not a log or CSV file");
		close(fd);
		return -EINVAL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);	/* a pipe may be slow */
	ret = read_all(fd, RESULTS_MAX_BYTES, &buf, &len);
	close(fd);
	if (ret == -EFBIG) {
		set_err(err, errlen, "too big for a log or CSV file (over %llu MiB)",
			RESULTS_MAX_BYTES / MIB);
		return -EINVAL;
	}
	if (ret) {
		set_err(err, errlen, "cannot read: %s", strerror(-ret));
		return ret;
	}
	ret = results_parse(buf, len, f, err, errlen) ? -EINVAL : 0;
	free(buf);
	return ret;
}
