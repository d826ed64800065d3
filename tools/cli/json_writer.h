/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_writer.h - the one JSON writer of the kreloc CLI (the API of
 * bpftool's json_writer: objects, arrays, named fields).
 *
 * Strings are written as pure ASCII: control characters, DEL and every
 * byte >= 0x80 are escaped as \u00XX, so any input (a symbol name from a
 * foreign map, a path) gives valid JSON.
 */
#ifndef KRELOC_JSON_WRITER_H
#define KRELOC_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct json_writer json_writer_t;

json_writer_t *jsonw_new(FILE *f);
void jsonw_destroy(json_writer_t **self);
void jsonw_pretty(json_writer_t *self, bool on);
/* End the current line and flush (between the elements of a stream). */
void jsonw_flush(json_writer_t *self);

void jsonw_start_object(json_writer_t *self);
void jsonw_end_object(json_writer_t *self);
void jsonw_start_array(json_writer_t *self);
void jsonw_end_array(json_writer_t *self);
void jsonw_name(json_writer_t *self, const char *name);

void jsonw_string(json_writer_t *self, const char *s);
void jsonw_string_len(json_writer_t *self, const char *s, size_t len);
void jsonw_uint(json_writer_t *self, uint64_t v);
void jsonw_int(json_writer_t *self, int64_t v);
void jsonw_bool(json_writer_t *self, bool v);
void jsonw_null(json_writer_t *self);
/* An address or size: the string "0x..." (JSON numbers lose 64-bit precision). */
void jsonw_hex(json_writer_t *self, uint64_t v);

void jsonw_string_field(json_writer_t *self, const char *name, const char *s);
void jsonw_uint_field(json_writer_t *self, const char *name, uint64_t v);
void jsonw_int_field(json_writer_t *self, const char *name, int64_t v);
void jsonw_bool_field(json_writer_t *self, const char *name, bool v);
void jsonw_null_field(json_writer_t *self, const char *name);
void jsonw_hex_field(json_writer_t *self, const char *name, uint64_t v);

#endif
