// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* debugfs.c - the kreloc module's debugfs files: the live model and lookup. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "debugfs.h"
#include "ksymfile.h"
#include "../../../lib/kreloc_note.h"

/* Reads of the whole model before giving up on a kernel whose modules keep changing. */
#define LIVE_TRIES 20

int kreloc_lockdown(const char *root, char *mode, size_t len)
{
	char path[4200], buf[256], *l, *r;
	ssize_t n;
	int fd;

	mode[0] = '\0';
	kr_path_in(path, sizeof(path), root, "/sys/kernel/security/lockdown");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r && (size_t)(r - l - 1) < len) {
		memcpy(mode, l + 1, (size_t)(r - l - 1));
		mode[r - l - 1] = '\0';
	}
	return 0;
}

const char *kreloc_eperm_reason(const char *root, const char *path, char *why, size_t len)
{
	char mode[32];

	kreloc_lockdown(root, mode, sizeof(mode));
	if (*mode && strcmp(mode, "none"))
		snprintf(why, len, "refused by kernel lockdown (mode '%s' in "
			 "%s/sys/kernel/security/lockdown: debugfs refuses files that can be "
			 "written, and 'confidentiality' also kernel addresses)%s", mode,
			 root ? root : "", geteuid() ? "; you are not root either" : "");
	else
		snprintf(why, len, "refused by your credentials: %s shows kernel "
			 "addresses only to readers that may see them (root with CAP_SYSLOG, "
			 "kptr_restrict, perf_event_paranoid), as /sys/module/*/sections does",
			 strstr(path, "/kreloc") ? "kreloc" : "the kernel");
	return why;
}

static int open_err(const char *root, char *err, size_t errlen, const char *path, int e)
{
	char why[512];

	if (e == EPERM || e == EACCES)
		ksnap_seterr(err, errlen, "%s: %s: %s", path, strerror(e),
			     kreloc_eperm_reason(root, path, why, sizeof(why)));
	else
		ksnap_seterr(err, errlen, "%s: %s", path, strerror(e));
	return -e;
}

static FILE *open_in(const char *dir, const char *name, char *path, size_t plen)
{
	if ((size_t)snprintf(path, plen, "%s/%s", dir, name) >= plen) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "re");
}

static void chomp(char *line, ssize_t *len)
{
	while (*len && (line[*len - 1] == '\n' || line[*len - 1] == '\r'))
		line[--*len] = '\0';
}

int kreloc_read_info(struct ksnap *s, FILE *f, const char *path, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	int ret = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		const char *why;
		char *eq;

		lineno++;
		chomp(line, &len);
		if (!line[0] || line[0] == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq) {
			ret = ksnap_seterr(err, errlen, "%s:%lu: expected KEY=VALUE", path, lineno);
			break;
		}
		*eq = '\0';
		why = ksnap_set_header(s, line, eq + 1);
		if (why) {
			ret = ksnap_seterr(err, errlen, "%s:%lu: %s: %s", path, lineno, line, why);
			break;
		}
	}
	if (!ret && ferror(f))
		ret = ksnap_seterr(err, errlen, "%s: read error: %s", path, strerror(errno));
	free(line);
	if (!ret && (!s->osrelease || !s->arch || !s->status))
		ret = ksnap_seterr(err, errlen, "%s: OSRELEASE, ARCH or STATUS missing", path);
	return ret;
}

/* A table file: each non-comment line goes to cb with its columns. */
static int read_table(FILE *f, const char *path,
		      const char *(*cb)(void *ctx, char **tok, int n), void *ctx,
		      char *err, size_t errlen)
{
	char *line = NULL, *tok[16];
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	int ret = 0, n;

	while ((len = getline(&line, &cap, f)) >= 0) {
		const char *why;

		lineno++;
		chomp(line, &len);
		if (line[0] == '#')
			continue;
		/* Columns past the 16th are what a newer kreloc added: ignored. */
		n = ksnap_split(line, tok, 16);
		if (!n)
			continue;
		why = cb(ctx, tok, n < 0 ? 16 : n);
		if (why) {
			ret = ksnap_seterr(err, errlen, "%s:%lu: %s", path, lineno, why);
			break;
		}
	}
	if (!ret && ferror(f))
		ret = ksnap_seterr(err, errlen, "%s: read error: %s", path, strerror(errno));
	free(line);
	return ret;
}

static const char *cb_core(void *ctx, char **tok, int n)
{
	return ksnap_add_core(ctx, tok, n);
}

/* anchors: SYMBOL LINKED RUNTIME DELTA SECTION */
static const char *cb_anchor(void *ctx, char **tok, int n)
{
	if (n < 5)
		return "anchor: expected SYMBOL LINKED RUNTIME DELTA SECTION";
	return ksnap_add_anchor(ctx, tok[0], tok[1], tok[4]);
}

static const char *cb_module(void *ctx, char **tok, int n)
{
	return ksnap_add_module(ctx, tok, n);
}

static const char *cb_mem(void *ctx, char **tok, int n)
{
	bool ignored;

	return ksnap_add_mem(ctx, tok, n, &ignored);
}

int kreloc_read_table_file(struct ksnap *s, enum kreloc_table_file which, FILE *f,
			   const char *path, char *err, size_t errlen)
{
	switch (which) {
	case KRELOC_FILE_SECTIONS:
		return read_table(f, path, cb_core, s, err, errlen);
	case KRELOC_FILE_ANCHORS:
		return read_table(f, path, cb_anchor, s, err, errlen);
	case KRELOC_FILE_MODULES:
		return read_table(f, path, cb_module, s, err, errlen);
	case KRELOC_FILE_MODULE:
		if (!s->nr_mods)
			return ksnap_seterr(err, errlen, "%s: no module record to add to", path);
		return read_table(f, path, cb_mem, &s->mods[s->nr_mods - 1], err, errlen);
	}
	return ksnap_seterr(err, errlen, "%s: unknown kind of file", path);
}

static int kallsyms_dot_text(const char *root)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	int found = 0;
	FILE *f;

	kr_path_in(path, sizeof(path), root, "/proc/kallsyms");
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (getline(&line, &cap, f) >= 0) {
		char *sp = strchr(line, ' ');

		if (sp && (sp[1] == 't' || sp[1] == 'T') && sp[2] == ' ' && sp[3] == '.' &&
		    sp[4] != '.' && sp[4] != '\n') {
			found = 1;
			break;
		}
	}
	free(line);
	fclose(f);
	return found;
}

/* A live module's build id from /sys/module/NAME/notes, as hex; NULL if none. */
static char *sysfs_build_id(const char *root, const char *name)
{
	char path[4200], rel[300], hex[KSF_BUILD_ID_HEX];
	unsigned char buf[256];
	const u8 *id;
	ssize_t n;
	int fd, len;

	if ((size_t)snprintf(rel, sizeof(rel), "/sys/module/%s/notes/.note.gnu.build-id",
			     name) >= sizeof(rel) || kr_path_in(path, sizeof(path), root, rel))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return NULL;
	len = kreloc_note_build_id(buf, (size_t)n, false, &id);
	if (!*ksf_build_id_hex(id, len, hex))
		return NULL;
	return strdup(hex);
}

/*
 * One read of everything.  Returns 0; a negative errno with err; or 1 when
 * a module record vanished under the reader (try again).
 */
static int read_once(struct ksnap *s, const char *root, const char *dir, char *err,
		     size_t errlen)
{
	char sub[512], path[4096 + 512 + 2];
	FILE *f;
	size_t i;
	int r;

	memset(s, 0, sizeof(*s));
	s->version = KSNAP_VERSION;
	f = open_in(dir, "info", path, sizeof(path));
	if (!f)
		return open_err(root, err, errlen, path, errno);
	r = kreloc_read_info(s, f, path, err, errlen);
	fclose(f);
	if (r)
		return -EBADMSG;
	f = open_in(dir, "sections", path, sizeof(path));
	if (!f)
		return open_err(root, err, errlen, path, errno);
	r = read_table(f, path, cb_core, s, err, errlen);
	fclose(f);
	if (r)
		return -EBADMSG;
	f = open_in(dir, "anchors", path, sizeof(path));
	if (f) {
		r = read_table(f, path, cb_anchor, s, err, errlen);
		fclose(f);
		if (r)
			return -EBADMSG;
	} else if (errno != ENOENT) {
		return open_err(root, err, errlen, path, errno);
	}
	f = open_in(dir, "modules", path, sizeof(path));
	if (!f && errno == ENOENT) {
		s->no_modules = 1;
		return 0;
	}
	if (!f)
		return open_err(root, err, errlen, path, errno);
	r = read_table(f, path, cb_module, s, err, errlen);
	fclose(f);
	if (r)
		return -EBADMSG;
	for (i = 0; i < s->nr_mods; i++) {
		struct ks_mod *m = &s->mods[i];

		if ((size_t)(m->load_gen.ok ?
			     snprintf(sub, sizeof(sub), "module/%s@%" PRIu64, m->name, m->load_gen.v) :
			     snprintf(sub, sizeof(sub), "module/%s", m->name)) >= sizeof(sub))
			return kr_seterr(EBADMSG, err, errlen, "%s: module name too long", m->name);
		f = open_in(dir, sub, path, sizeof(path));
		if (!f && errno == ENOENT)
			return 1;	/* unloaded or pruned since `modules` was read */
		if (!f)
			return open_err(root, err, errlen, path, errno);
		r = read_table(f, path, cb_mem, m, err, errlen);
		fclose(f);
		if (r)
			return -EBADMSG;
		if (!m->build_id && (!strcmp(m->state, "live") || !strcmp(m->state, "coming")))
			m->build_id = sysfs_build_id(root, m->name);
	}
	return 0;
}

/* GENERATION as info shows it now; -1 if unreadable or absent. */
static int generation_now(const char *dir, uint64_t *gen)
{
	char path[4200], *line = NULL;
	size_t cap = 0;
	int found = -1;
	FILE *f = open_in(dir, "info", path, sizeof(path));

	if (!f)
		return -1;
	while (getline(&line, &cap, f) >= 0) {
		if (!strncmp(line, "GENERATION=", 11)) {
			struct kval v;

			line[strcspn(line, "\r\n")] = '\0';
			if (!ksnap_parse_dec(line + 11, &v) && v.ok) {
				*gen = v.v;
				found = 0;
			}
		}
	}
	free(line);
	fclose(f);
	return found;
}

int kreloc_live(struct ksnap *s, const char *root, char *err, size_t errlen)
{
	char dir[4096];
	const char *endian, *why;
	struct stat st;
	int tries, r, dot;
	uint64_t gen;

	memset(s, 0, sizeof(*s));
	kr_path_in(dir, sizeof(dir), root, KRELOC_DEBUGFS_DIR);
	if (stat(dir, &st)) {
		if (errno == ENOENT) {
			char dbg[4096];

			kr_path_in(dbg, sizeof(dbg), root, "/sys/kernel/debug");
			if (stat(dbg, &st) == 0 && st.st_nlink <= 2)
				return kr_seterr(ENOENT, err, errlen, "kreloc not loaded: %s missing "
						 "(is debugfs mounted on %s?)", dir, dbg);
			return kr_seterr(ENOENT, err, errlen, "kreloc not loaded: %s missing", dir);
		}
		return open_err(root, err, errlen, dir, errno);
	}
	for (tries = 0; tries < LIVE_TRIES; tries++) {
		r = read_once(s, root, dir, err, errlen);
		if (r < 0)
			goto fail;
		/* One moment: nothing changed while the files were read. */
		if (!r && (!s->generation.ok ||
			   (!generation_now(dir, &gen) && gen == s->generation.v)))
			break;
		ksnap_free(s);
	}
	if (tries == LIVE_TRIES)
		return kr_seterr(EAGAIN, err, errlen, "%s: the module records changed during each "
				 "of %d reads (GENERATION kept moving): try again", dir, LIVE_TRIES);
	endian = ksnap_arch_endian(s->arch);
	if (!endian) {
		const uint16_t one = 1;

		endian = *(const unsigned char *)&one ? "little" : "big";
	}
	s->endian = strdup(endian);
	dot = !strcmp(s->arch, "ppc64") ? kallsyms_dot_text(root) : 0;
	s->abi = strdup(dot < 0 ? "-" : ksnap_abi(s->arch, dot));
	why = ksnap_finish(s);
	if (why || !s->endian || !s->abi) {
		r = kr_seterr(ENOMEM, err, errlen, "%s", why ? why : "out of memory");
		goto fail;
	}
	return 0;
fail:
	ksnap_free(s);
	return r;
}

/* errno names the kernel uses in its ERR lines, for the exit code. */
static int errno_of(const char *name)
{
	static const struct { const char *n; int e; } t[] = {
		{ "EPERM", EPERM }, { "EACCES", EACCES }, { "ENOENT", ENOENT },
		{ "EINVAL", EINVAL }, { "ENOTUNIQ", ENOTUNIQ }, { "ENODATA", ENODATA },
		{ "ENOMEM", ENOMEM }, { "EFAULT", EFAULT }, { "E2BIG", E2BIG },
		{ "ERANGE", ERANGE },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].n, name))
			return t[i].e;
	return EIO;
}

/*
 * The kernel's "ERR ENAME reason" line, as it is, into err; returns the
 * negative errno.  ENAME is a number on kernels without
 * CONFIG_SYMBOLIC_ERRNAME.
 */
static int err_line(const char *root, const char *path, const char *spec, const char *line,
		    char *err, size_t errlen)
{
	const char *name = line + 4;
	char ename[32], why[512];
	struct kval v;
	int e;

	snprintf(ename, sizeof(ename), "%.*s", (int)strcspn(name, " "), name);
	if (ename[0] >= '0' && ename[0] <= '9')
		e = !ksnap_parse_dec(ename, &v) && v.ok && v.v && v.v <= 4095 ? (int)v.v : EIO;
	else
		e = errno_of(ename);
	if (e == EPERM || e == EACCES)
		ksnap_seterr(err, errlen, "%s: %s: %s; %s", path, spec, line,
			     kreloc_eperm_reason(root, path, why, sizeof(why)));
	else
		ksnap_seterr(err, errlen, "%s: %s: %s", path, spec, line);
	return -e;
}

int kreloc_lookup(const char *root, const char *spec, struct lookup_answer *a, char *err,
		  size_t errlen)
{
	char path[4200], buf[1024], *tok[8], why[512];
	struct kval v;
	ssize_t n;
	int fd, e = 0;

	memset(a, 0, sizeof(*a));
	kr_path_in(path, sizeof(path), root, KRELOC_DEBUGFS_DIR "/lookup");
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == ENOENT)
			return 1;
		return open_err(root, err, errlen, path, e);
	}
	if (write(fd, spec, strlen(spec)) < 0)
		e = errno;
	/* The answer, or after a failed write the kernel's reason. */
	n = lseek(fd, 0, SEEK_SET) ? -1 : read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
	} else {
		buf[0] = '\0';
	}
	if (!strncmp(buf, "ERR ", 4))
		return err_line(root, path, spec, buf, err, errlen);
	if (e) {
		if (e == EPERM || e == EACCES)
			ksnap_seterr(err, errlen, "%s: %s: %s; %s", path, spec, strerror(e),
				     kreloc_eperm_reason(root, path, why, sizeof(why)));
		else
			ksnap_seterr(err, errlen, "%s: %s: %s", path, spec, strerror(e));
		return -e;
	}
	/*
	 * "SPEC ADDRESS PROBE_ADDRESS MODULE TYPE".  PROBE_ADDRESS, not
	 * ADDRESS, is where a probe goes: on ppc64 ELFv2 a probe at the global
	 * entry never fires for local calls.
	 */
	if (ksnap_split(buf, tok, 8) < 5 || ksnap_parse_hex(tok[1], &v) || !v.ok)
		return kr_seterr(EIO, err, errlen, "%s: unexpected answer '%s'", path, buf);
	a->addr = v.v;
	if (ksnap_parse_hex(tok[2], &v) || !v.ok)
		return kr_seterr(EIO, err, errlen, "%s: unexpected answer '%s'", path, buf);
	a->probe = v.v;
	if ((size_t)snprintf(a->module, sizeof(a->module), "%s",
			     strcmp(tok[3], "-") && strcmp(tok[3], "vmlinux") ? tok[3] : "") >=
	    sizeof(a->module) ||
	    (size_t)snprintf(a->type, sizeof(a->type), "%s", tok[4]) >= sizeof(a->type))
		return kr_seterr(EIO, err, errlen, "%s: unexpected answer '%s'", path, buf);
	return 0;
}
