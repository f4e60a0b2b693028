// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_json_read.c - unit tests of the lenient JSON reader: texts into trees (told back
 * compactly), the lenient forms, and each refusal's exact line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/defs.h"
#include "lib/json_read.h"

#include "tests/unit.h"

/* The tree told back in one line: objects {k:v,bare}, arrays [..], strings "..". */
static size_t tell(const struct json_value *v, char *buf, size_t len, size_t n);

static size_t put(char *buf, size_t len, size_t n, const char *s)
{
	size_t l = strlen(s);

	if (n + l < len)
		memcpy(buf + n, s, l + 1);
	return n + l;
}

static size_t tell_object(const struct json_value *v, char *buf, size_t len, size_t n)
{
	n = put(buf, len, n, "{");
	for (size_t i = 0; i < v->obj.n; i++) {
		const struct json_member *m = &v->obj.members[i];

		n = put(buf, len, n, i ? "," : "");
		n = put(buf, len, n, m->key);
		if (m->value) {
			n = put(buf, len, n, ":");
			n = tell(m->value, buf, len, n);
		}
	}
	return put(buf, len, n, "}");
}

static size_t tell(const struct json_value *v, char *buf, size_t len, size_t n)
{
	char num[64];

	switch (v->type) {
	case JSON_OBJECT:
		return tell_object(v, buf, len, n);
	case JSON_ARRAY:
		n = put(buf, len, n, "[");
		for (size_t i = 0; i < v->arr.n; i++) {
			n = put(buf, len, n, i ? "," : "");
			n = tell(&v->arr.items[i], buf, len, n);
		}
		return put(buf, len, n, "]");
	case JSON_STRING:
		n = put(buf, len, n, "\"");
		n = put(buf, len, n, v->str.s);
		return put(buf, len, n, "\"");
	case JSON_INT:
		snprintf(num, sizeof(num), "%lld", v->i);
		return put(buf, len, n, num);
	case JSON_REAL:
		snprintf(num, sizeof(num), "%gr", v->r);
		return put(buf, len, n, num);
	case JSON_BOOL:
		return put(buf, len, n, v->b ? "true" : "false");
	case JSON_NULL:
		return put(buf, len, n, "null");
	}
	return n;
}

struct read_case {
	const char *text;
	const char *want;		/* the tree told back, or the error line */
};

static const struct read_case good[] = {
	{ "{\"a\":1}", "{a:1}" },
	{ "  {\"a\" : [1, -2, 0, -0]}\n", "{a:[1,-2,0,0]}" },
	{ "{\"run\":1,\"sleep\":2,\"run\":3}", "{run:1,sleep:2,run:3}" },
	{ "// a comment\n{ /* one */ \"a\" /* two */ : /* three */ 1 // four\n}", "{a:1}" },
	{ "{\"a\":[1,2,],\"b\":{\"c\":true,},}", "{a:[1,2],b:{c:true}}" },
	{ "{\"suspend\",\"run\":5}", "{suspend,run:5}" },
	{ "{\"run\":5,\"suspend\"}", "{run:5,suspend}" },
	{ "{\"run\":5,\n\t\"suspend\"\n}", "{run:5,suspend}" },
	{ "{\"suspend\",}", "{suspend}" },
	{ "[true,false,null,{},[],\"\"]", "[true,false,null,{},[],\"\"]" },
	{ "[1.5,-2.5e-2,1E3,0.0]", "[1.5r,-0.025r,1000r,0r]" },
	{ "[9223372036854775807,-9223372036854775808]",
	  "[9223372036854775807,-9223372036854775808]" },
	{ "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\"\\/\b\f\n\r\t\"" },
	{ "\"\\u00e9\\u20ac\\ud83d\\ude00 \\u0041\"", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 A\"" },
	{ "\xef\xbb\xbf{\"a\":1}", "{a:1}" },
	{ "{\"a\":{\"b\":{\"c\":[[[]]]}}}", "{a:{b:{c:[[[]]]}}}" },
	{ "{\"\":1,\"a b\":\"c d\"}", "{:1,a b:\"c d\"}" },
	{ "7", "7" },
};

static const struct read_case bad[] = {
	{ "", "t.json:1:1: expected a value, found the end of the text" },
	{ "   \n  ", "t.json:2:3: expected a value, found the end of the text" },
	{ "{\"a\" 1}", "t.json:1:6: expected ':' after the key \"a\"" },
	{ "{\"a\":1 \"b\":2}", "t.json:1:8: expected ',' or '}' after the member \"a\"" },
	{ "[1 2]", "t.json:1:4: expected ',' or ']' after an item of the array" },
	{ "{,}", "t.json:1:2: expected a string key or '}'" },
	{ "{\"a\":1,,}", "t.json:1:8: expected a string key or '}'" },
	{ "[,]", "t.json:1:2: expected a value" },
	{ "{a:1}", "t.json:1:2: expected a string key or '}'" },
	{ "{'a':1}", "t.json:1:2: expected a string key or '}'" },
	{ "['a']", "t.json:1:2: expected a value (strings are written in double quotes)" },
	{ "{\"a\":}", "t.json:1:6: expected a value" },
	{ "{\"a\":1", "t.json:1:7: expected ',' or '}' after the member \"a\"" },
	{ "[1,", "t.json:1:4: expected a value, found the end of the text" },
	{ "{\n  \"a\": 1,\n  \"b\": ,\n}", "t.json:3:8: expected a value" },
	{ "{\"a\":01}", "t.json:1:6: a malformed number" },
	{ "{\"a\":1.}", "t.json:1:6: expected a digit after the decimal point" },
	{ "{\"a\":1e}", "t.json:1:6: expected a digit in the exponent" },
	{ "{\"a\":-}", "t.json:1:6: expected a value" },
	{ "{\"a\":12abc}", "t.json:1:6: a malformed number" },
	{ "[99999999999999999999]", "t.json:1:2: an integer out of range" },
	{ "[1e999]", "t.json:1:2: a number out of range" },
	{ "[tru]", "t.json:1:2: expected a value" },
	{ "[nulls]", "t.json:1:2: expected a value" },
	{ "/* never closed", "t.json:1:1: a comment begun here has no closing '*/'" },
	{ "{\"a\":1}\n/* x\n", "t.json:2:1: a comment begun here has no closing '*/'" },
	{ "[\"abc]", "t.json:1:2: a string begun here has no closing '\"'" },
	{ "[\"a\nb\"]", "t.json:1:4: a string holds a raw newline: write it as an escape" },
	{ "[\"a\tb\"]", "t.json:1:4: a string holds a raw control character: write it as an "
		       "escape" },
	{ "[\"\\q\"]", "t.json:1:3: an unknown escape '\\q' in a string" },
	{ "[\"\\u12\"]", "t.json:1:3: expected four hex digits after '\\u'" },
	{ "[\"\\ud800x\"]", "t.json:1:3: a high surrogate '\\ud800' not followed by a low one" },
	{ "[\"\\udc00\"]", "t.json:1:3: a low surrogate '\\udc00' with no high one before it" },
	{ "[\"\\u0000\"]", "t.json:1:3: '\\u0000' in a string" },
	{ "{} x", "t.json:1:4: expected the end of the text after the top-level value" },
	{ "{}{}", "t.json:1:3: expected the end of the text after the top-level value" },
};

static bool test_good(const struct read_case *c)
{
	struct json_doc doc;
	char err[256] = "", got[512] = "";

	EXPECT(!json_parse(&doc, "t.json", c->text, strlen(c->text), err, sizeof(err)),
	       "refused: %s", err);
	tell(doc.root, got, sizeof(got), 0);
	json_free(&doc);
	EXPECT(!strcmp(got, c->want), "read as '%s', want '%s'", got, c->want);
	return true;
}

static bool test_bad(const struct read_case *c)
{
	struct json_doc doc;
	char err[256] = "";
	int ret = json_parse(&doc, "t.json", c->text, strlen(c->text), err, sizeof(err));

	json_free(&doc);
	EXPECT(ret < 0, "accepted");
	EXPECT(!strcmp(err, c->want), "'%s', want '%s'", err, c->want);
	return true;
}

/* Where each member and value begins, 1-based, a tab one column. */
static bool test_positions(void)
{
	static const char text[] = "{\n\t\"a\": [1,\n  \"x\"],\n\t\"b\"\n}";
	const struct json_member *a, *b;
	struct json_doc doc;
	char err[256];

	EXPECT(!json_parse(&doc, "t.json", text, strlen(text), err, sizeof(err)), "%s", err);
	a = json_member_of(doc.root, "a");
	b = json_member_of(doc.root, "b");
	EXPECT(a && a->line == 2 && a->col == 2, "a at %d:%d", a ? a->line : 0, a ? a->col : 0);
	EXPECT(a->value->line == 2 && a->value->col == 7, "a's value at %d:%d", a->value->line,
	       a->value->col);
	EXPECT(a->value->arr.items[1].line == 3 && a->value->arr.items[1].col == 3,
	       "\"x\" at %d:%d", a->value->arr.items[1].line, a->value->arr.items[1].col);
	EXPECT(b && b->line == 4 && !b->value, "b: line %d, value %p", b ? b->line : 0,
	       b ? (void *)b->value : NULL);
	EXPECT(doc.root->line == 1 && doc.root->col == 1, "root at %d:%d", doc.root->line,
	       doc.root->col);
	json_free(&doc);
	return true;
}

/* A repeated key is two members; json_member_of() finds the first. */
static bool test_repeated(void)
{
	static const char text[] = "{\"run\":1,\"run\":2}";
	const struct json_member *m;
	struct json_doc doc;
	char err[256];

	EXPECT(!json_parse(&doc, "t.json", text, strlen(text), err, sizeof(err)), "%s", err);
	m = json_member_of(doc.root, "run");
	EXPECT(doc.root->obj.n == 2 && m == &doc.root->obj.members[0] && m->value->i == 1,
	       "%zu members, the first found holds %lld", doc.root->obj.n, m ? m->value->i : -1);
	EXPECT(!json_member_of(doc.root, "ru") && !json_member_of(m->value, "run"),
	       "found a key that is not there");
	json_free(&doc);
	return true;
}

/* n arrays inside each other, the innermost empty. */
static char *nested(int n)
{
	char *s = malloc(2 * (size_t)n + 1);

	if (!s)
		return NULL;
	memset(s, '[', (size_t)n);
	memset(s + n, ']', (size_t)n);
	s[2 * n] = '\0';
	return s;
}

static bool parse_fails(const char *text, size_t len, const char *want)
{
	struct json_doc doc;
	char err[256] = "";
	int ret = json_parse(&doc, "t.json", text, len, err, sizeof(err));

	json_free(&doc);
	EXPECT(ret < 0, "accepted");
	EXPECT(!strcmp(err, want), "'%s', want '%s'", err, want);
	return true;
}

/* Nesting: JSON_MAX_DEPTH levels read, one more refused where it begins. */
static bool test_depth(void)
{
	char *deep = nested(JSON_MAX_DEPTH + 1), *ok = nested(JSON_MAX_DEPTH), want[128], err[256];
	struct json_doc doc;
	bool read, refused;

	EXPECT(deep && ok, "out of memory");
	read = !json_parse(&doc, "t.json", ok, strlen(ok), err, sizeof(err));
	json_free(&doc);
	snprintf(want, sizeof(want), "t.json:1:%d: arrays and objects nested deeper than %d",
		 JSON_MAX_DEPTH + 1, JSON_MAX_DEPTH);
	refused = parse_fails(deep, strlen(deep), want);
	free(deep);
	free(ok);
	EXPECT(read, "%d levels refused: %s", JSON_MAX_DEPTH, err);
	return refused;
}

static bool test_values(void)
{
	size_t nvals = JSON_MAX_VALUES, len = 2 * nvals + 1;
	char *many = malloc(len), want[128];
	bool refused;

	EXPECT(many, "out of memory");
	many[0] = '[';
	for (size_t i = 0; i < nvals; i++)
		memcpy(many + 1 + 2 * i, i + 1 < nvals ? "0," : "0]", 2);
	/* the array is a value too: the last 0 is one too many */
	snprintf(want, sizeof(want), "t.json:1:%zu: more than %u values", len - 1,
		 JSON_MAX_VALUES);
	refused = parse_fails(many, len, want);
	free(many);
	return refused;
}

static bool test_size(void)
{
	char *big = malloc(JSON_MAX_TEXT + 1);
	bool refused;

	EXPECT(big, "out of memory");
	memset(big, ' ', JSON_MAX_TEXT + 1);
	big[0] = '1';
	refused = parse_fails(big, JSON_MAX_TEXT + 1, "t.json: larger than 4 MiB");
	free(big);
	return refused;
}

static bool test_file(void)
{
	char path[] = "/tmp/unit_json_read.XXXXXX", err[256] = "";
	static const char text[] = "{\"tasks\": {\"t\": {\"run\": 5}}}\n";
	struct json_doc doc;
	int fd = mkstemp(path), ret;

	EXPECT(fd >= 0, "mkstemp");
	ret = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	close(fd);
	if (!ret)
		ret = json_read_file(&doc, path, err, sizeof(err));
	unlink(path);
	EXPECT(!ret, "refused: %s", err);
	EXPECT(doc.root->type == JSON_OBJECT && !strcmp(doc.name, path), "root %s, name %s",
	       json_type_name(doc.root->type), doc.name);
	json_free(&doc);
	ret = json_read_file(&doc, path, err, sizeof(err));
	json_free(&doc);
	EXPECT(ret < 0 && strstr(err, path) == err && strstr(err, ": No such file"), "%s", err);
	return true;
}

/* A test's name on one line: what the text holds of newlines and tabs shown as spaces. */
static void one_line(char *name)
{
	for (; *name; name++)
		if ((unsigned char)*name < 0x20)
			*name = ' ';
}

void unit_json_read(void)
{
	char name[200];

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		snprintf(name, sizeof(name), "json_read: '%.60s' reads as '%.50s'", good[i].text,
			 good[i].want);
		one_line(name);
		check(name, test_good(&good[i]));
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(name, sizeof(name), "json_read: '%.40s' is refused: %.90s", bad[i].text,
			 bad[i].want);
		one_line(name);
		check(name, test_bad(&bad[i]));
	}
	check("json_read: members and values know their line and column", test_positions());
	check("json_read: a repeated key is kept, json_member_of() finds the first",
	      test_repeated());
	check("json_read: nesting deeper than JSON_MAX_DEPTH is refused where it begins",
	      test_depth());
	check("json_read: more than JSON_MAX_VALUES values are refused", test_values());
	check("json_read: a text over JSON_MAX_TEXT is refused", test_size());
	check("json_read: json_read_file() reads a file, names a missing one", test_file());
}
