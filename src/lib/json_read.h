/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib/json_read.h - a lenient JSON reader: text into a small tree whose objects keep their
 * members in file order, repeated keys and bare keys included. */
#ifndef LIB_JSON_READ_H
#define LIB_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/arena.h"

/*
 * Beyond strict JSON it takes what hand-written workload files (rt-app's,
 * after or before its workgen preprocessor) contain: // and block comments,
 * a comma before a closing bracket, and inside an object a key with no value
 * ("suspend", before ',' or '}'), kept as a member whose value is NULL. A
 * repeated key is kept as another member: the reader of the tree decides what
 * it means. Bounded: the text, the nesting and the number of values.
 */
#define JSON_MAX_TEXT (4u * 1024 * 1024)	/* bytes of a file */
#define JSON_MAX_DEPTH 64			/* arrays and objects inside each other */
#define JSON_MAX_VALUES (256u * 1024)		/* values in one document */

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_INT,		/* no fraction nor exponent, fits in a long long */
	JSON_REAL,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json_member;

struct json_value {
	enum json_type type;
	int line, col;			/* where it starts, from 1 */
	union {
		bool b;
		long long i;
		double r;
		struct {
			const char *s;	/* NUL-terminated UTF-8, no NUL inside */
			size_t len;
		} str;
		struct {
			struct json_value *items;
			size_t n;
		} arr;
		struct {
			struct json_member *members;	/* in file order */
			size_t n;
		} obj;
	};
};

struct json_member {
	const char *key;		/* unescaped */
	int line, col;			/* of the key */
	struct json_value *value;	/* NULL: a bare key */
};

/* A parsed document: the root and the memory every node lives in. */
struct json_doc {
	const char *name;		/* as errors name it: the file's path */
	struct json_value *root;
	struct arena mem;
};

/* 0, or -1 with "NAME:LINE:COL: what was expected" in err; json_free() either way. */
int json_parse(struct json_doc *doc, const char *name, const char *text, size_t len,
	       char *err, size_t errlen);
/* The same from a file of at most JSON_MAX_TEXT bytes; "PATH: why" when it cannot be read. */
int json_read_file(struct json_doc *doc, const char *path, char *err, size_t errlen);
void json_free(struct json_doc *doc);

const struct json_member *json_member_of(const struct json_value *obj, const char *key);
const char *json_type_name(enum json_type t);	/* "a string", "an object"... */

#endif
