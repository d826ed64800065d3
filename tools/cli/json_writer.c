// SPDX-License-Identifier: GPL-2.0
/* json_writer.c - the kreloc CLI's JSON writer (see json_writer.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "json_writer.h"

#define JSONW_MAX_DEPTH	32

struct json_writer {
	FILE *out;
	unsigned int depth;
	bool pretty;
	bool sep;		/* a value was written at this depth: next needs ',' */
	bool named;		/* jsonw_name() just wrote "name": */
	char closers[JSONW_MAX_DEPTH];
};

json_writer_t *jsonw_new(FILE *f)
{
	json_writer_t *self = calloc(1, sizeof(*self));

	if (self)
		self->out = f;
	return self;
}

void jsonw_destroy(json_writer_t **self)
{
	free(*self);
	*self = NULL;
}

void jsonw_pretty(json_writer_t *self, bool on)
{
	self->pretty = on;
}

static void indent(json_writer_t *self)
{
	unsigned int i;

	if (!self->pretty)
		return;
	fputc('\n', self->out);
	for (i = 0; i < self->depth; i++)
		fputs("  ", self->out);
}

/* Before any value or name: the separator and, pretty, the indentation. */
static void begin_value(json_writer_t *self)
{
	if (self->named) {
		self->named = false;
		return;
	}
	if (self->sep)
		fputc(',', self->out);
	if (self->depth)
		indent(self);
	self->sep = true;
}

void jsonw_flush(json_writer_t *self)
{
	if (!self->pretty)
		fputc('\n', self->out);
	fflush(self->out);
}

static void open_(json_writer_t *self, char open, char close)
{
	begin_value(self);
	fputc(open, self->out);
	if (self->depth < JSONW_MAX_DEPTH)
		self->closers[self->depth] = close;
	self->depth++;
	self->sep = false;
}

static void close_(json_writer_t *self)
{
	if (!self->depth)
		return;
	self->depth--;
	if (self->sep)
		indent(self);
	fputc(self->depth < JSONW_MAX_DEPTH ? self->closers[self->depth] : '}', self->out);
	self->sep = true;
}

void jsonw_start_object(json_writer_t *self)
{
	open_(self, '{', '}');
}

void jsonw_end_object(json_writer_t *self)
{
	close_(self);
}

void jsonw_start_array(json_writer_t *self)
{
	open_(self, '[', ']');
}

void jsonw_end_array(json_writer_t *self)
{
	close_(self);
}

static void put_string(json_writer_t *self, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	fputc('"', self->out);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"': fputs("\\\"", self->out); break;
		case '\\': fputs("\\\\", self->out); break;
		case '\n': fputs("\\n", self->out); break;
		case '\r': fputs("\\r", self->out); break;
		case '\t': fputs("\\t", self->out); break;
		case '\b': fputs("\\b", self->out); break;
		case '\f': fputs("\\f", self->out); break;
		default:
			if (c < 0x20 || c >= 0x7f) {
				fputs("\\u00", self->out);
				fputc(hex[c >> 4], self->out);
				fputc(hex[c & 15], self->out);
			} else {
				fputc(c, self->out);
			}
		}
	}
	fputc('"', self->out);
}

void jsonw_name(json_writer_t *self, const char *name)
{
	begin_value(self);
	put_string(self, name, strlen(name));
	fputs(self->pretty ? ": " : ":", self->out);
	self->named = true;
}

void jsonw_string_len(json_writer_t *self, const char *s, size_t len)
{
	begin_value(self);
	put_string(self, s, len);
}

void jsonw_string(json_writer_t *self, const char *s)
{
	if (!s) {
		jsonw_null(self);
		return;
	}
	jsonw_string_len(self, s, strlen(s));
}

void jsonw_uint(json_writer_t *self, uint64_t v)
{
	begin_value(self);
	fprintf(self->out, "%" PRIu64, v);
}

void jsonw_int(json_writer_t *self, int64_t v)
{
	begin_value(self);
	fprintf(self->out, "%" PRId64, v);
}

void jsonw_bool(json_writer_t *self, bool v)
{
	begin_value(self);
	fputs(v ? "true" : "false", self->out);
}

void jsonw_null(json_writer_t *self)
{
	begin_value(self);
	fputs("null", self->out);
}

void jsonw_hex(json_writer_t *self, uint64_t v)
{
	begin_value(self);
	fprintf(self->out, "\"0x%" PRIx64 "\"", v);
}

void jsonw_string_field(json_writer_t *self, const char *name, const char *s)
{
	jsonw_name(self, name);
	jsonw_string(self, s);
}

void jsonw_uint_field(json_writer_t *self, const char *name, uint64_t v)
{
	jsonw_name(self, name);
	jsonw_uint(self, v);
}

void jsonw_int_field(json_writer_t *self, const char *name, int64_t v)
{
	jsonw_name(self, name);
	jsonw_int(self, v);
}

void jsonw_bool_field(json_writer_t *self, const char *name, bool v)
{
	jsonw_name(self, name);
	jsonw_bool(self, v);
}

void jsonw_null_field(json_writer_t *self, const char *name)
{
	jsonw_name(self, name);
	jsonw_null(self);
}

void jsonw_hex_field(json_writer_t *self, const char *name, uint64_t v)
{
	jsonw_name(self, name);
	jsonw_hex(self, v);
}
