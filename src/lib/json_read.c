// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/json_read.c - the lenient JSON reader: one recursive descent, its depth bounded, every
 * node in the document's arena, one line of error at the first thing it did not expect. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/json_read.h"
#include "lib/util.h"

/* What the tree may take of memory: its values, members and strings, generously. */
#define JSON_MAX_MEM (64u * 1024 * 1024)

struct parser {
	const char *p, *end;
	const char *line_start;		/* for the column of p */
	int line;
	size_t values;			/* parsed so far, against JSON_MAX_VALUES */
	const char *name;
	struct arena *mem;
	char *err;
	size_t errlen;
};

/* A growing array of one node type, malloc()ed while its object or array is open. */
struct vec {
	unsigned char *data;
	size_t n, cap, size;
};

static int fail_at(struct parser *ps, int line, int col, const char *fmt, ...) PRINTF(4, 5);
static int fail_at(struct parser *ps, int line, int col, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return set_err(ps->err, ps->errlen, "%s:%d:%d: %s", ps->name, line, col, what);
}

static int col_of(const struct parser *ps)
{
	return (int)(ps->p - ps->line_start) + 1;
}

#define fail(ps, ...) fail_at((ps), (ps)->line, col_of(ps), __VA_ARGS__)

static void newline(struct parser *ps)
{
	ps->line++;
	ps->line_start = ps->p + 1;
}

static int skip_block_comment(struct parser *ps)
{
	int line = ps->line, col = col_of(ps);

	for (ps->p += 2; ps->p + 1 < ps->end; ps->p++) {
		if (ps->p[0] == '*' && ps->p[1] == '/') {
			ps->p += 2;
			return 0;
		}
		if (*ps->p == '\n')
			newline(ps);
	}
	return fail_at(ps, line, col, "a comment begun here has no closing '*/'");
}

/* Spaces, newlines and both kinds of comment; -1 only for a comment never closed. */
static int skip_space(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n') {
			newline(ps);
			ps->p++;
		} else if (c == ' ' || c == '\t' || c == '\r') {
			ps->p++;
		} else if (c == '/' && ps->p + 1 < ps->end && ps->p[1] == '/') {
			while (ps->p < ps->end && *ps->p != '\n')
				ps->p++;
		} else if (c == '/' && ps->p + 1 < ps->end && ps->p[1] == '*') {
			if (skip_block_comment(ps))
				return -1;
		} else {
			break;
		}
	}
	return 0;
}

static bool at(const struct parser *ps, char c)
{
	return ps->p < ps->end && *ps->p == c;
}

static void *vec_push(struct vec *v)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 8;
		unsigned char *d = realloc(v->data, cap * v->size);

		if (!d)
			return NULL;
		v->data = d;
		v->cap = cap;
	}
	return memset(v->data + v->size * v->n++, 0, v->size);
}

/* The vector's nodes moved into the arena, the vector freed; NULL: out of memory. */
static void *vec_keep(struct parser *ps, struct vec *v)
{
	void *kept = v->n ? arena_alloc(ps->mem, v->n * v->size) : NULL;

	if (kept)
		memcpy(kept, v->data, v->n * v->size);
	free(v->data);
	v->data = NULL;
	return kept;
}

/* Four hex digits after "\u"; -1 when they are not. */
static long hex4(const char *q, const char *end)
{
	long code = 0;

	if (end - q < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		int c = q[i], d = c >= '0' && c <= '9' ? c - '0' :
				  c >= 'a' && c <= 'f' ? c - 'a' + 10 :
				  c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return -1;
		code = code * 16 + d;
	}
	return code;
}

static size_t put_utf8(char *o, long c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | (c >> 6 & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | (c >> 12 & 0x3f));
	o[2] = (char)(0x80 | (c >> 6 & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* "\uXXXX" at *q, a surrogate pair taken whole; the code point, or -1 (err set). */
static long unicode_escape(struct parser *ps, const char **q)
{
	const char *at_u = *q;
	long c = hex4(at_u + 2, ps->end), lo;

	ps->p = at_u;
	if (c < 0)
		return fail(ps, "expected four hex digits after '\\u'");
	*q = at_u + 6;
	if (c >= 0xdc00 && c <= 0xdfff)
		return fail(ps, "a low surrogate '\\u%04lx' with no high one before it", c);
	if (c >= 0xd800 && c <= 0xdbff) {
		lo = ps->end - *q >= 2 && (*q)[0] == '\\' && (*q)[1] == 'u' ? hex4(*q + 2, ps->end) : -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(ps, "a high surrogate '\\u%04lx' not followed by a low one", c);
		*q += 6;
		c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (!c)
		return fail(ps, "'\\u0000' in a string");
	return c;
}

/* The escape at *q written to *o; both move past it. */
static int decode_escape(struct parser *ps, const char **q, char **o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit = (*q)[1] ? strchr(from, (*q)[1]) : NULL;
	long c;

	if (hit) {
		*(*o)++ = to[hit - from];
		*q += 2;
		return 0;
	}
	if ((*q)[1] != 'u') {
		ps->p = *q;
		return fail(ps, "an unknown escape '\\%c' in a string", (*q)[1]);
	}
	c = unicode_escape(ps, q);
	if (c < 0)
		return -1;
	*o += put_utf8(*o, c);
	return 0;
}

/* Where the string opened at ps->p closes; NULL (err set) at a control character or the end. */
static const char *string_end(struct parser *ps)
{
	int col = col_of(ps);

	for (const char *q = ps->p + 1; q < ps->end; q++) {
		if (*q == '"')
			return q;
		if ((unsigned char)*q < 0x20) {
			ps->p = q;
			fail(ps, "a string holds a raw %s: write it as an escape",
			     *q == '\n' ? "newline" : "control character");
			return NULL;
		}
		if (*q == '\\' && q + 1 < ps->end)
			q++;
	}
	fail_at(ps, ps->line, col, "a string begun here has no closing '\"'");
	return NULL;
}

/* A string needs no more bytes than its escaped form: "\u" and a pair are longer than UTF-8. */
static int parse_string(struct parser *ps, struct json_value *v)
{
	const char *close = string_end(ps), *q;
	char *out, *o;

	if (!close)
		return -1;
	out = arena_alloc(ps->mem, (size_t)(close - ps->p));
	if (!out)
		return fail(ps, "out of memory");
	for (q = ps->p + 1, o = out; q < close;) {
		if (*q != '\\')
			*o++ = *q++;
		else if (decode_escape(ps, &q, &o))
			return -1;
	}
	*o = '\0';
	v->type = JSON_STRING;
	v->str.s = out;
	v->str.len = (size_t)(o - out);
	ps->p = close + 1;
	return 0;
}

static bool is_digit(const struct parser *ps, const char *q)
{
	return q < ps->end && *q >= '0' && *q <= '9';
}

/* Past the digits at q, of which there must be one. */
static const char *digits_end(const struct parser *ps, const char *q)
{
	if (!is_digit(ps, q))
		return NULL;
	while (is_digit(ps, q))
		q++;
	return q;
}

/* The end of the number at ps->p in JSON's grammar; NULL (err set) where it breaks it. */
static const char *number_end(struct parser *ps, bool *real)
{
	const char *q = ps->p + (*ps->p == '-');

	q = is_digit(ps, q) && *q == '0' ? q + 1 : digits_end(ps, q);
	if (!q) {
		fail(ps, "expected a value");
		return NULL;
	}
	if (q < ps->end && *q == '.') {
		*real = true;
		q = digits_end(ps, q + 1);
		if (!q) {
			fail(ps, "expected a digit after the decimal point");
			return NULL;
		}
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		*real = true;
		q += q + 1 < ps->end && (q[1] == '+' || q[1] == '-') ? 2 : 1;
		q = digits_end(ps, q);
		if (!q)
			fail(ps, "expected a digit in the exponent");
	}
	return q;
}

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.';
}

static int parse_number(struct parser *ps, struct json_value *v)
{
	bool real = false;
	const char *q = number_end(ps, &real);
	char buf[64], *end;

	if (!q)
		return -1;
	if (q < ps->end && word_char(*q))
		return fail(ps, "a malformed number");
	if ((size_t)(q - ps->p) >= sizeof(buf))
		return fail(ps, "a number longer than %zu characters", sizeof(buf) - 1);
	memcpy(buf, ps->p, (size_t)(q - ps->p));
	buf[q - ps->p] = '\0';
	errno = 0;
	if (real) {
		v->type = JSON_REAL;
		v->r = strtod(buf, &end);
		if (!isfinite(v->r))
			return fail(ps, "a number out of range");
	} else {
		v->type = JSON_INT;
		v->i = strtoll(buf, &end, 10);
		if (errno == ERANGE)
			return fail(ps, "an integer out of range");
	}
	ps->p = q;
	return 0;
}

/* true, false, null or a number: what is left of a value. */
static int parse_scalar(struct parser *ps, struct json_value *v)
{
	static const struct { const char *word; enum json_type type; bool b; } words[] = {
		{ "true", JSON_BOOL, true }, { "false", JSON_BOOL, false }, { "null", JSON_NULL, false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i].word);

		if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, words[i].word, n) &&
		    (ps->p + n == ps->end || !word_char(ps->p[n]))) {
			v->type = words[i].type;
			v->b = words[i].b;
			ps->p += n;
			return 0;
		}
	}
	if (*ps->p == '\'')
		return fail(ps, "expected a value (strings are written in double quotes)");
	if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
		return parse_number(ps, v);
	return fail(ps, "expected a value");
}

static int parse_value(struct parser *ps, struct json_value *v, int depth);

/* After a key: its value, or none when ',' or '}' follows (a bare key). */
static int parse_member_value(struct parser *ps, struct json_member *m, int depth)
{
	if (skip_space(ps))
		return -1;
	if (at(ps, ',') || at(ps, '}'))
		return 0;
	if (!at(ps, ':'))
		return fail(ps, "expected ':' after the key \"%s\"", m->key);
	ps->p++;
	m->value = arena_alloc(ps->mem, sizeof(*m->value));
	if (!m->value)
		return fail(ps, "out of memory");
	return parse_value(ps, m->value, depth + 1);
}

static int parse_member(struct parser *ps, struct vec *members, int depth)
{
	struct json_member *m = vec_push(members);
	struct json_value key;

	if (!m)
		return fail(ps, "out of memory");
	if (!at(ps, '"'))
		return fail(ps, "expected a string key or '}'");
	m->line = ps->line;
	m->col = col_of(ps);
	if (parse_string(ps, &key))
		return -1;
	m->key = key.str.s;
	if (parse_member_value(ps, m, depth) || skip_space(ps))
		return -1;
	if (at(ps, ','))
		ps->p++;
	else if (!at(ps, '}'))
		return fail(ps, "expected ',' or '}' after the member \"%s\"", m->key);
	return 0;
}

static int parse_object(struct parser *ps, struct json_value *v, int depth)
{
	struct vec members = { .size = sizeof(struct json_member) };

	v->type = JSON_OBJECT;
	for (ps->p++;;) {
		if (skip_space(ps))
			goto out;
		if (at(ps, '}'))
			break;
		if (parse_member(ps, &members, depth))
			goto out;
	}
	ps->p++;
	v->obj.n = members.n;
	v->obj.members = vec_keep(ps, &members);
	if (v->obj.n && !v->obj.members)
		return fail(ps, "out of memory");
	return 0;
out:
	free(members.data);
	return -1;
}

static int parse_item(struct parser *ps, struct vec *items, int depth)
{
	struct json_value *item = vec_push(items);

	if (!item)
		return fail(ps, "out of memory");
	if (parse_value(ps, item, depth + 1) || skip_space(ps))
		return -1;
	if (at(ps, ','))
		ps->p++;
	else if (!at(ps, ']'))
		return fail(ps, "expected ',' or ']' after an item of the array");
	return 0;
}

static int parse_array(struct parser *ps, struct json_value *v, int depth)
{
	struct vec items = { .size = sizeof(struct json_value) };

	v->type = JSON_ARRAY;
	for (ps->p++;;) {
		if (skip_space(ps))
			goto out;
		if (at(ps, ']'))
			break;
		if (parse_item(ps, &items, depth))
			goto out;
	}
	ps->p++;
	v->arr.n = items.n;
	v->arr.items = vec_keep(ps, &items);
	if (v->arr.n && !v->arr.items)
		return fail(ps, "out of memory");
	return 0;
out:
	free(items.data);
	return -1;
}

static int parse_value(struct parser *ps, struct json_value *v, int depth)
{
	if (skip_space(ps))
		return -1;
	v->line = ps->line;
	v->col = col_of(ps);
	if (++ps->values > JSON_MAX_VALUES)
		return fail(ps, "more than %u values", JSON_MAX_VALUES);
	if (ps->p >= ps->end)
		return fail(ps, "expected a value, found the end of the text");
	if ((*ps->p == '{' || *ps->p == '[') && depth >= JSON_MAX_DEPTH)
		return fail(ps, "arrays and objects nested deeper than %d", JSON_MAX_DEPTH);
	switch (*ps->p) {
	case '{':
		return parse_object(ps, v, depth);
	case '[':
		return parse_array(ps, v, depth);
	case '"':
		return parse_string(ps, v);
	default:
		return parse_scalar(ps, v);
	}
}

int json_parse(struct json_doc *doc, const char *name, const char *text, size_t len,
	       char *err, size_t errlen)
{
	struct parser ps = {
		.p = text, .end = text + len, .line_start = text, .line = 1,
		.name = name, .mem = &doc->mem, .err = err, .errlen = errlen,
	};

	doc->name = name;
	doc->root = NULL;
	arena_init(&doc->mem, JSON_MAX_MEM);
	if (len > JSON_MAX_TEXT)
		return set_err(err, errlen, "%s: larger than %u MiB", name,
			       JSON_MAX_TEXT / 1024 / 1024);
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		ps.p = ps.line_start = text + 3;	/* a UTF-8 byte order mark */
	doc->root = arena_alloc(&doc->mem, sizeof(*doc->root));
	if (!doc->root)
		return set_err(err, errlen, "%s: out of memory", name);
	if (parse_value(&ps, doc->root, 0) || skip_space(&ps))
		return -1;
	if (ps.p < ps.end)
		return fail(&ps, "expected the end of the text after the top-level value");
	return 0;
}

int json_read_file(struct json_doc *doc, const char *path, char *err, size_t errlen)
{
	char *text = malloc(JSON_MAX_TEXT + 1);
	ssize_t n = -ENOMEM;
	int fd = -1, ret;

	doc->name = path;
	doc->root = NULL;
	arena_init(&doc->mem, JSON_MAX_MEM);
	if (text) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -errno : read_full(fd, text, JSON_MAX_TEXT + 1);
	}
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		free(text);
		return set_err(err, errlen, "%s: %s", path, strerror((int)-n));
	}
	ret = json_parse(doc, path, text, (size_t)n, err, errlen);
	free(text);
	return ret;
}

void json_free(struct json_doc *doc)
{
	arena_free(&doc->mem);
	doc->root = NULL;
}

const struct json_member *json_member_of(const struct json_value *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->obj.n; i++)
		if (!strcmp(obj->obj.members[i].key, key))
			return &obj->obj.members[i];
	return NULL;
}

const char *json_type_name(enum json_type t)
{
	static const char *const names[] = {
		[JSON_NULL] = "null", [JSON_BOOL] = "a boolean", [JSON_INT] = "an integer",
		[JSON_REAL] = "a real number", [JSON_STRING] = "a string",
		[JSON_ARRAY] = "an array", [JSON_OBJECT] = "an object",
	};

	return (unsigned)t < ARRAY_SIZE(names) ? names[t] : "a value";
}
