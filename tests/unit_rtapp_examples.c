// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_rtapp_examples.c - every rt-app example Debian ships, found at run time: read
 * and checked, or refused with a line that names the key. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/defs.h"
#include "task/rtapp.h"

#include "tests/unit.h"

#define DOC "/usr/share/doc/rt-app"
#define EXAMPLES DOC "/examples"
#define MAX_FILES 256

/* rt-app's own use cases, which interbench must run as they are. */
static const char *const must_accept[] = {
	"mp3-short.json", "mp3-long.json", "video-short.json", "video-long.json",
	"browser-short.json", "browser-long.json",
};

struct files {
	char *path[MAX_FILES];
	size_t n;
};

static bool is_json(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".json");
}

static void add_file(struct files *fs, const char *path)
{
	if (fs->n < MAX_FILES)
		fs->path[fs->n++] = strdup(path);
}

/* The .json files under dir, a few folders deep. */
static void find_json(struct files *fs, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth < 3)
			find_json(fs, path, depth + 1);
		else if (S_ISREG(st.st_mode) && is_json(e->d_name))
			add_file(fs, path);
	}
	closedir(d);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool must_be_accepted(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	for (size_t i = 0; i < ARRAY_SIZE(must_accept); i++)
		if (!strcmp(base, must_accept[i]))
			return true;
	return false;
}

/* A refusal names the file first and a key between quotes, on one line. */
static bool names_a_key(const char *path, const char *err)
{
	const char *q = strchr(err, '\'');

	return !strncmp(err, path, strlen(path)) && q && strchr(q + 1, '\'') &&
	       !strchr(err, '\n');
}

static void one_example(const char *path)
{
	static const struct rtapp_limits lim = { .max_threads = RTAPP_MAX_THREADS,
						 .nproc_room = -1 };
	const char *shown = path + strlen(DOC) + 1;
	char err[1024] = "", note[1024] = "", name[1400];
	struct rtapp_file f;
	int read = rtapp_load(&f, path, err, sizeof(err)), checked = -1, n = 0;
	const char *ignored;

	if (!read)
		checked = rtapp_check(&f, &lim, err, sizeof(err));
	if (!read && !checked) {
		rtapp_ignored_note(&f, note, sizeof(note));
		n = rtapp_nthreads(&f);
	}
	rtapp_free(&f);
	if (!read && !checked) {
		ignored = strstr(note, ": accepted without effect: ");
		snprintf(name, sizeof(name), "rtapp example %s: accepted, %d thread%s%s%s", shown,
			 n, n == 1 ? "" : "s", ignored ? "; without effect: " : "",
			 ignored ? ignored + strlen(": accepted without effect: ") : "");
		check(name, true);
		return;
	}
	snprintf(name, sizeof(name), "rtapp example %s: %s: %s", shown,
		 read ? "refused" : "fails the checks", err);
	snprintf(detail, sizeof(detail), "%s", read ? must_be_accepted(path) ?
		 "rt-app's own use case must be accepted" : "the line names no key" :
		 "an example must pass the checks");
	check(name, read && !must_be_accepted(path) && names_a_key(path, err));
}

void unit_rtapp_examples(void)
{
	struct files fs = { .n = 0 };
	struct stat st;

	if (stat(EXAMPLES, &st) || !S_ISDIR(st.st_mode)) {
		skip("rtapp: Debian's rt-app examples", EXAMPLES " is absent (apt install rt-app)");
		return;
	}
	find_json(&fs, EXAMPLES, 0);
	if (!stat(DOC "/taskset.json", &st))
		add_file(&fs, DOC "/taskset.json");
	qsort(fs.path, fs.n, sizeof(fs.path[0]), by_path);
	for (size_t i = 0; i < ARRAY_SIZE(must_accept); i++) {
		bool found = false;

		for (size_t k = 0; k < fs.n; k++)
			found |= must_be_accepted(fs.path[k]) &&
				 !strcmp(strrchr(fs.path[k], '/') + 1, must_accept[i]);
		snprintf(detail, sizeof(detail), "not under " EXAMPLES);
		if (!found)
			check(must_accept[i], false);
	}
	for (size_t k = 0; k < fs.n; k++) {
		one_example(fs.path[k]);
		free(fs.path[k]);
	}
}
