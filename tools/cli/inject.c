// SPDX-License-Identifier: GPL-2.0
/*
 * inject.c - `kreloc inject`: a copy of a perf.data in which every module
 * memory region that lived during the recording is a kernel map of its
 * own, from its load to its unload (its init regions to ->init's end), in
 * the recording's clock, so that plain `perf report` and `perf script`
 * name the samples of modules loaded, reloaded or unloaded while perf
 * recorded.
 *
 * What perf does with what is written (tools/perf/util/machine.c, the
 * same in perf 6.1 and 7.3):
 *   - a PERF_RECORD_MMAP2 of kernel cpumode whose file name starts with
 *     '/' is a module map (machine__process_kernel_mmap_event()): its dso
 *     is found by the short name the file name gives ("[NAME]" for
 *     .../NAME.ko), its symbols are read from that file, checked against
 *     the build id the event carries (PERF_RECORD_MISC_MMAP_BUILD_ID);
 *   - a PERF_RECORD_KSYMBOL with PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER
 *     removes the kernel map holding its address unless it is vmlinux's
 *     (machine__process_ksymbol_unregister()): a map's end;
 *   - events are processed in time order (ordered events, flushed at each
 *     FINISHED_ROUND up to the round before's last time), so each event
 *     written here goes into the round a record of its time belongs to.
 * Each map points at a small ELF file of the region's symbols (symfile.h
 * says why not at the .ko), written into a directory beside the output and
 * listed in the build-id feature, so `perf buildid-list` and `perf archive`
 * know them.  Its name, NAME@LOAD_GEN[.REGION].ko, makes perf's dso
 * "[NAME@LOAD_GEN]" ("[NAME@LOAD_GEN.init.text]"...): two loads of one
 * module, and two modules at one address, are kept apart.  The modules
 * perf mapped when the recording started are given the same maps, perf's
 * own removed first: perf places a module's map at /proc/modules' base
 * with its size, which is not where .text is, covers other modules' memory
 * on 6.4+ (the regions are allocated apart), and outlives an unload.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "main.h"
#include "ofile.h"
#include "perfdata.h"
#include "symfile.h"

static const char inject_help[] =
	"Usage: kreloc inject -i|--input PERF.DATA -o|--output OUT --snapshot FILE\n"
	"                     [--modules-dir DIR] [--system-map FILE | --kallsyms FILE |\n"
	"                     --vmlinux FILE] [--symbols-dir DIR] [--json]\n"
	"Write OUT, a copy of the perf.data recorded on the snapshot's boot in which\n"
	"every module region that lived during the recording is a timed kernel map:\n"
	"plain `perf report -i OUT` and `perf script -i OUT` then name the samples of\n"
	"modules loaded, reloaded or unloaded while perf recorded, their init\n"
	"functions and every section where the loader really put it.  Each map is\n"
	"a DSO named [MODULE@LOAD_GEN] ([MODULE@LOAD_GEN.init.text], ...).\n"
	"  -i, --input FILE     the recording (perf record's file, not a pipe's)\n"
	"  -o, --output FILE    the copy (mode 0600; never the input)\n"
	"  --snapshot FILE      `kreloc snapshot` of the boot, taken after the recording\n"
	"                       ended (format 3: with times)\n"
	"  --modules-dir DIR    where the modules' .ko files are (by build id;\n"
	"                       DEBUGINFOD_URLS fetches those not found); a module\n"
	"                       without its .ko gets its sections' names as symbols\n"
	"  --system-map, --kallsyms, --vmlinux FILE\n"
	"                       optional: checked against the snapshot (the core\n"
	"                       kernel's symbols are perf's own business)\n"
	"  --symbols-dir DIR    where the maps' symbol files go (default OUT.kreloc);\n"
	"                       perf reads them from there: keep it beside OUT, or\n"
	"                       move both with perf archive\n"
	"  --json               a summary as JSON\n"
	"The recording must be in a clock kreloc records: perf's default\n"
	"(local_clock) or -k monotonic; of the snapshot's boot (build id, release,\n"
	"where _text is); and it must have ended before the snapshot was taken.\n"
	"Otherwise nothing is written, and the reason is given (exit 1).\n";

struct imap {
	size_t rec, mem;
	char *name;			/* NAME@GEN or NAME@GEN.REGION */
	char *path;			/* its symbol file */
	uint64_t start, len, from, until;
	bool exec, have_ko;
	unsigned char bid[20];
	size_t nr_syms;
};

enum iev_kind { IEV_MAP, IEV_UNMAP };

struct iev {
	uint64_t time;
	size_t seq;
	enum iev_kind kind;
	uint64_t addr, len;
	const struct imap *map;		/* IEV_MAP, or the map ending */
	const char *name;		/* IEV_UNMAP: a name for the record */
};

/* A kernel map perf made when the recording started (a module's). */
struct pmap {
	uint64_t start, len;
	char name[64];			/* the module's name, '-' as '_' */
};

struct inject {
	const char *in_path, *out_path, *snap_path, *moddir, *symdir, *map;
	enum kreloc_map_kind map_kind;
	struct kreloc_snapshot *snap;
	struct kreloc_snapshot_info si;
	struct kreloc_resolver *r;
	struct pd_file pd;
	enum kreloc_clock clock;
	uint64_t t_first, t_last;	/* the recording's first and last event times */
	uint64_t since, taken;
	struct imap *maps;
	size_t nr_maps;
	struct iev *evs;
	size_t nr_evs, cap_evs;
	struct pmap *pmaps;
	size_t nr_pmaps, replaced;
	const struct pd_attr *attr;	/* whose sample_id_all fields injected events get */
	char err[1024];
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		p_err("out of memory");
		exit(EXIT_FAIL);
	}
	return p;
}

static void add_ev(struct inject *in, const struct iev *e)
{
	if (in->nr_evs == in->cap_evs) {
		in->cap_evs = in->cap_evs ? 2 * in->cap_evs : 64;
		in->evs = xrealloc(in->evs, in->cap_evs * sizeof(*in->evs));
	}
	in->evs[in->nr_evs] = *e;
	in->evs[in->nr_evs].seq = in->nr_evs;
	in->nr_evs++;
}

/* Module names as the kernel keeps them: '-' is '_'. */
static void modname(char *out, size_t len, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && i + 1 < len; i++)
		out[i] = s[i] == '-' ? '_' : s[i];
	out[i] = '\0';
}

/* ---- the recording ---- */

/* perf record -k's name of a clock id. */
static const char *clockid_name(int id)
{
	switch (id) {
	case CLOCK_REALTIME: return "realtime";
	case CLOCK_MONOTONIC: return "monotonic";
	case CLOCK_MONOTONIC_RAW: return "monotonic_raw";
	case CLOCK_BOOTTIME: return "boottime";
	case CLOCK_TAI: return "tai";
	}
	return "?";
}

/* The clock every attribute stamps with; 0, or -1 with the reason. */
static int recording_clock(struct inject *in)
{
	size_t i;

	for (i = 0; i < in->pd.nr_attr; i++) {
		const struct perf_event_attr *a = &in->pd.attr[i].attr;
		enum kreloc_clock c;

		if (!a->use_clockid) {
			c = KRELOC_CLOCK_LOCAL;
		} else if (a->clockid == CLOCK_MONOTONIC) {
			c = KRELOC_CLOCK_MONOTONIC;
		} else {
			p_err("%s: recorded with perf record -k %s (clockid %d): kreloc records "
			      "local_clock (perf's default) and CLOCK_MONOTONIC (-k monotonic) "
			      "only", in->in_path, clockid_name(a->clockid), (int)a->clockid);
			return -1;
		}
		if (i && c != in->clock) {
			p_err("%s: its events are stamped with different clocks", in->in_path);
			return -1;
		}
		in->clock = c;
		if (!(a->sample_type & PERF_SAMPLE_TIME) || !a->sample_id_all) {
			p_err("%s: its events carry no time (perf record without sample_id_all "
			      "or PERF_SAMPLE_TIME): nothing can be put in time order", in->in_path);
			return -1;
		}
	}
	return 0;
}

/* A kernel MMAP or MMAP2 event: its start, length and file name. */
static bool kernel_mmap(const struct perf_event_header *ev, size_t len, uint64_t *start,
			uint64_t *mlen, uint64_t *pgoff, const char **name, size_t *nlen)
{
	const unsigned char *p = (const unsigned char *)ev;
	size_t off;

	if ((ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL)
		return false;
	if (ev->type == PERF_RECORD_MMAP)
		off = 8 + 8 + 24;
	else if (ev->type == PERF_RECORD_MMAP2)
		off = 8 + 8 + 24 + 24 + 8;
	else
		return false;
	if (len <= off)
		return false;
	memcpy(start, p + 16, 8);
	memcpy(mlen, p + 24, 8);
	memcpy(pgoff, p + 32, 8);
	*name = (const char *)p + off;
	*nlen = strnlen(*name, len - off);
	return true;
}

/*
 * A first pass: the times the recording spans, where perf saw _text, and
 * the module maps perf made when it started.
 */
static int prepass(struct inject *in)
{
	const struct perf_event_header *ev;
	uint64_t pos = 0, t, start, mlen, pgoff;
	const char *name;
	size_t len, nlen;
	int ret;

	in->t_first = UINT64_MAX;
	while ((ret = pd_next(&in->pd, &pos, &ev, &len, in->err, sizeof(in->err))) > 0) {
		if (pd_event_time(&in->pd, ev, len, &t) && t) {
			if (t < in->t_first)
				in->t_first = t;
			if (t > in->t_last)
				in->t_last = t;
		}
		if (!kernel_mmap(ev, len, &start, &mlen, &pgoff, &name, &nlen))
			continue;
		if (!strncmp(name, "[kernel.kallsyms]", 17)) {
			/* pgoff: where perf saw the reference symbol (_text, _stext). */
			if (pgoff && in->si.ref_runtime.known &&
			    !strcmp(name + 17, strcmp(in->si.arch, "aarch64") ? "_text" : "_stext") &&
			    pgoff != in->si.ref_runtime.value) {
				p_err("%s: recorded on another boot: perf saw %s at 0x%" PRIx64
				      ", the snapshot's boot had it at 0x%" PRIx64, in->in_path,
				      name + 17, pgoff, in->si.ref_runtime.value);
				return -1;
			}
			continue;
		}
		if (name[0] == '/' || name[0] == '[') {
			const char *b = strrchr(name, '/'), *e;
			struct pmap *m;

			b = b ? b + 1 : name + (name[0] == '[');
			e = strstr(b, ".ko");
			if (!e)
				e = strchr(b, ']');
			if (!e)
				continue;
			in->pmaps = xrealloc(in->pmaps, (in->nr_pmaps + 1) * sizeof(*in->pmaps));
			m = &in->pmaps[in->nr_pmaps++];
			m->start = start;
			m->len = mlen;
			modname(m->name, sizeof(m->name), b, (size_t)(e - b));
		}
	}
	if (ret < 0) {
		p_err("%s: %s", in->in_path, in->err);
		return -1;
	}
	if (in->t_first == UINT64_MAX) {
		p_err("%s: no event with a time", in->in_path);
		return -1;
	}
	return 0;
}

/* The recording must be of the snapshot's kernel: arch, release, build id. */
static int check_identity(struct inject *in)
{
	char buf[256];
	const unsigned char *p;
	size_t len, off = 0;

	if (!pd_feature_string(&in->pd, PD_FEAT_ARCH, buf, sizeof(buf)) &&
	    strcmp(buf, in->si.arch)) {
		p_err("%s: recorded on %s, the snapshot is of %s", in->in_path, buf, in->si.arch);
		return -1;
	}
	if (!pd_feature_string(&in->pd, PD_FEAT_OSRELEASE, buf, sizeof(buf)) &&
	    strcmp(buf, in->si.osrelease)) {
		p_err("%s: recorded on Linux %s, the snapshot is of %s", in->in_path, buf,
		      in->si.osrelease);
		return -1;
	}
	p = pd_feature(&in->pd, PD_FEAT_BUILD_ID, &len);
	while (p && off + sizeof(struct perf_event_header) + 4 + 24 <= len) {
		struct perf_event_header h;
		const char *fname;
		size_t idlen = 20, i;

		memcpy(&h, p + off, sizeof(h));
		if (h.size < sizeof(h) + 4 + 24 || off + h.size > len)
			break;
		fname = (const char *)p + off + sizeof(h) + 4 + 24;
		if (h.misc & PD_MISC_BUILD_ID_SIZE)
			idlen = p[off + sizeof(h) + 4 + 20];
		if ((h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL &&
		    !strncmp(fname, "[kernel.kallsyms]", 17) && idlen <= 20 &&
		    strcmp(in->si.build_id, "-")) {
			for (i = 0; i < idlen; i++)
				snprintf(buf + 2 * i, 3, "%02x", p[off + sizeof(h) + 4 + i]);
			buf[2 * idlen] = '\0';
			if (strcmp(buf, in->si.build_id)) {
				p_err("%s: recorded on a kernel of build id %s, the snapshot's is %s",
				      in->in_path, buf, in->si.build_id);
				return -1;
			}
		}
		off += h.size;
	}
	return 0;
}

/* The snapshot's times must frame the recording. */
static int check_times(struct inject *in)
{
	const char *c = in->clock == KRELOC_CLOCK_LOCAL ? "perf's clock" : "CLOCK_MONOTONIC";

	if (kreloc_snapshot_time(in->snap, KRELOC_TIME_TAKEN, in->clock, &in->taken) ||
	    kreloc_snapshot_time(in->snap, KRELOC_TIME_SINCE, in->clock, &in->since)) {
		p_err("%s: no times in %s (a snapshot of format %u, or of a kreloc module "
		      "older than 0.2): take it again with this kreloc", in->snap_path, c,
		      in->si.format);
		return -1;
	}
	if (in->t_last > in->taken) {
		p_err("%s: the recording ends at %" PRIu64 " ns (%s), after the snapshot was "
		      "taken (%" PRIu64 " ns): take the snapshot after perf record has ended "
		      "(or it is of another boot)", in->in_path, in->t_last, c, in->taken);
		return -1;
	}
	if (in->t_first < in->since) {
		p_err("%s: the recording begins at %" PRIu64 " ns (%s), before kreloc recorded "
		      "module events (%" PRIu64 " ns): load kreloc first (or the snapshot is of "
		      "another boot)", in->in_path, in->t_first, c, in->since);
		return -1;
	}
	return 0;
}

/* ---- the maps ---- */

struct symctx {
	struct symfile *sf;
	uint64_t lo, hi;
	int err;
};

static int add_sym(void *ctx, const struct kreloc_symbol *y)
{
	struct symctx *c = ctx;
	bool func = y->type == 't' || y->type == 'T' || y->type == 'w' || y->type == 'W';

	if (y->address < c->lo || y->address >= c->hi || !*y->name)
		return 0;
	if (symfile_add(c->sf, y->name, y->address - c->lo, y->size, func))
		c->err = -1;
	return c->err;
}

/* Write map m's symbol file; 0, or -1 with the reason printed. */
static int write_symfile(struct inject *in, struct imap *m)
{
	struct symfile sf = { 0 };
	struct symctx c = { &sf, m->start, m->start + m->len, 0 };
	struct kreloc_module_file_info fi;
	struct kreloc_mem_info mi;
	struct kreloc_module_info rec;
	struct ofile o;
	unsigned char *img;
	size_t len, i;
	int ret = 0;

	sf.machine = symfile_machine(in->si.arch);
	sf.big_endian = !strcmp(in->si.endian, "big");
	sf.size = m->len;
	kreloc_snapshot_module(in->snap, m->rec, &rec, sizeof(rec));
	m->have_ko = !kreloc_resolver_module_file(in->r, m->rec, &fi, sizeof(fi)) &&
		     fi.status == KRELOC_FILE_OK;
	if (m->have_ko) {
		if (kreloc_resolver_module_symbols_all(in->r, m->rec, add_sym, &c) < 0 || c.err) {
			p_err("%s@%" PRIu64 ": %s", rec.name, rec.load_gen.value,
			      c.err ? "out of memory" : kreloc_errmsg());
			symfile_free(&sf);
			return -1;
		}
	} else {
		/* No .ko: its sections, by name, are all a sample can be given. */
		for (i = 0; i < rec.nr_mem; i++)
			if (!kreloc_snapshot_module_mem(in->snap, m->rec, i, &mi, sizeof(mi)) &&
			    mi.kind == KRELOC_MEM_SECTION && mi.address.known &&
			    mi.address.value >= c.lo && mi.address.value < c.hi &&
			    symfile_add(&sf, mi.name, mi.address.value - c.lo, 0, m->exec))
				ret = -1;
	}
	m->nr_syms = sf.nr;
	img = ret ? NULL : symfile_image(&sf, &len);
	if (!img) {
		p_err("out of memory");
		symfile_free(&sf);
		return -1;
	}
	memcpy(m->bid, sf.build_id, sizeof(m->bid));
	symfile_free(&sf);
	if (ofile_open(&o, m->path, in->err, sizeof(in->err))) {
		p_err("%s", in->err);
		free(img);
		return -1;
	}
	ret = fwrite(img, 1, len, o.f) != len;
	free(img);
	if (ofile_commit(&o, ret, in->err, sizeof(in->err)) || ret) {
		p_err("%s", ret ? strerror(errno ? errno : EIO) : in->err);
		return -1;
	}
	return 0;
}

/* Do perf map p and record rec's regions overlap, and is it rec's module? */
static bool pmap_of(struct inject *in, const struct pmap *p, size_t rec, const char *name)
{
	struct kreloc_module_info mi;
	struct kreloc_mem_info k;
	char n[64];
	size_t i;

	modname(n, sizeof(n), name, strlen(name));
	if (strcmp(p->name, n) || kreloc_snapshot_module(in->snap, rec, &mi, sizeof(mi)))
		return false;
	for (i = 0; i < mi.nr_mem; i++)
		if (!kreloc_snapshot_module_mem(in->snap, rec, i, &k, sizeof(k)) &&
		    k.kind == KRELOC_MEM_REGION && k.address.known && k.size.known &&
		    k.address.value < p->start + p->len && p->start < k.address.value + k.size.value)
			return true;
	return false;
}

static int cmp_pmap(const void *a, const void *b)
{
	const struct pmap *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Every region of every record that held memory while the recording ran,
 * as a map; perf's own maps of the same modules to be removed first.
 */
static int plan(struct inject *in)
{
	size_t i, j;
	/* Before every sample, after perf's own maps (time 0): its removal, then ours. */
	const uint64_t t_unmap = 1, t_map = 2;
	unsigned char *replace = calloc(in->nr_pmaps + 1, 1);

	if (!replace) {
		p_err("out of memory");
		return -1;
	}
	qsort(in->pmaps, in->nr_pmaps, sizeof(*in->pmaps), cmp_pmap);
	for (i = 0; i < in->si.nr_modules; i++) {
		struct kreloc_module_info rec;

		if (kreloc_snapshot_module(in->snap, i, &rec, sizeof(rec)))
			continue;
		for (j = 0; j < rec.nr_mem; j++) {
			struct kreloc_mem_info k;
			uint64_t from, until;
			struct imap *m;
			size_t p;

			if (kreloc_snapshot_module_mem(in->snap, i, j, &k, sizeof(k)) ||
			    k.kind != KRELOC_MEM_REGION || !k.address.known || !k.size.known ||
			    !k.size.value ||
			    kreloc_snapshot_module_mem_time(in->snap, i, j, in->clock, &from, &until))
				continue;
			/* Did it hold memory while perf recorded? */
			if (from > in->t_last || until < in->t_first)
				continue;
			in->maps = xrealloc(in->maps, (in->nr_maps + 1) * sizeof(*in->maps));
			m = &in->maps[in->nr_maps++];
			memset(m, 0, sizeof(*m));
			m->rec = i;
			m->mem = j;
			m->start = k.address.value;
			m->len = k.size.value;
			m->from = from;
			m->until = until;
			m->exec = !strcmp(k.name, "text") || !strcmp(k.name, "init.text");
			if (asprintf(&m->name, "%s@%" PRIu64 "%s%s", rec.name, rec.load_gen.value,
				     strcmp(k.name, "text") ? "." : "",
				     strcmp(k.name, "text") ? k.name : "") < 0) {
				p_err("out of memory");
				free(replace);
				return -1;
			}
			for (p = 0; p < in->nr_pmaps; p++)
				if (from <= in->t_first && pmap_of(in, &in->pmaps[p], i, rec.name))
					replace[p] = 1;
		}
	}
	/* perf's maps of those modules go first, lowest first (each unmaps what holds its start). */
	for (i = 0; i < in->nr_pmaps; i++) {
		struct iev e = { .time = t_unmap, .kind = IEV_UNMAP, .name = "kreloc:replaced" };

		if (!replace[i])
			continue;
		e.addr = in->pmaps[i].start;
		e.len = in->pmaps[i].len;
		add_ev(in, &e);
		in->replaced++;
	}
	free(replace);
	for (i = 0; i < in->nr_maps; i++) {
		const struct imap *m = &in->maps[i];
		struct iev e = { .kind = IEV_MAP, .addr = m->start, .len = m->len, .map = m };

		/* Loaded before the recording: a time before every sample, and after perf's. */
		e.time = m->from > t_map ? m->from : t_map;
		add_ev(in, &e);
		if (m->until <= in->t_last) {
			e.time = m->until;
			e.kind = IEV_UNMAP;
			e.name = m->name;
			add_ev(in, &e);
		}
	}
	return 0;
}

static int cmp_iev(const void *a, const void *b)
{
	const struct iev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- the events written ---- */

#define EV_MAX 4096

/* Injected event e as the kernel would have written it; its length. */
static size_t make_event(const struct inject *in, const struct iev *e, unsigned char *buf)
{
	struct perf_event_header h = { .misc = PERF_RECORD_MISC_KERNEL };
	size_t n, off = sizeof(h);
	uint32_t u32;
	uint64_t u64;
	uint16_t u16;

	memset(buf, 0, EV_MAX);
	if (e->kind == IEV_MAP) {
		const struct imap *m = e->map;
		uint32_t pid = UINT32_MAX, tid = 0, prot = m->exec ? 5 : 1, flags = 2;

		h.type = PERF_RECORD_MMAP2;
		h.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		memcpy(buf + off, &pid, 4);
		memcpy(buf + off + 4, &tid, 4);
		memcpy(buf + off + 8, &m->start, 8);
		memcpy(buf + off + 16, &m->len, 8);
		/* pgoff 0; then the build id: size, 3 reserved bytes, 20 bytes */
		buf[off + 32] = sizeof(m->bid);
		memcpy(buf + off + 36, m->bid, sizeof(m->bid));
		memcpy(buf + off + 56, &prot, 4);
		memcpy(buf + off + 60, &flags, 4);
		off += 64;
		n = strlen(m->path) + 1;
		memcpy(buf + off, m->path, n);
		off += (n + 7) & ~(size_t)7;
	} else {
		h.type = PERF_RECORD_KSYMBOL;
		u64 = e->addr;
		memcpy(buf + off, &u64, 8);
		u32 = e->len > UINT32_MAX ? UINT32_MAX : (uint32_t)e->len;
		memcpy(buf + off + 8, &u32, 4);
		u16 = PERF_RECORD_KSYMBOL_TYPE_UNKNOWN;
		memcpy(buf + off + 12, &u16, 2);
		u16 = PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER;
		memcpy(buf + off + 14, &u16, 2);
		off += 16;
		n = strlen(e->name) + 1;
		memcpy(buf + off, e->name, n);
		off += (n + 7) & ~(size_t)7;
	}
	off += pd_id_trailer(&in->pd, in->attr, e->time, buf + off);
	h.size = (uint16_t)off;
	memcpy(buf, &h, sizeof(h));
	return off;
}

/* The build-id feature's records for the symbol files. */
static unsigned char *build_ids(const struct inject *in, size_t *len)
{
	unsigned char *b = NULL;
	size_t i, at = 0;

	for (i = 0; i < in->nr_maps; i++) {
		const struct imap *m = &in->maps[i];
		struct perf_event_header h = { 0, PERF_RECORD_MISC_KERNEL | PD_MISC_BUILD_ID_SIZE, 0 };
		size_t n = (strlen(m->path) + 1 + 63) & ~(size_t)63;	/* perf's NAME_ALIGN */
		int32_t pid = -1;

		h.size = (uint16_t)(sizeof(h) + 4 + 24 + n);
		b = xrealloc(b, at + h.size);
		memset(b + at, 0, h.size);
		memcpy(b + at, &h, sizeof(h));
		memcpy(b + at + sizeof(h), &pid, 4);
		memcpy(b + at + sizeof(h) + 4, m->bid, sizeof(m->bid));
		b[at + sizeof(h) + 4 + 20] = sizeof(m->bid);
		memcpy(b + at + sizeof(h) + 4 + 24, m->path, strlen(m->path));
		at += h.size;
	}
	*len = at;
	return b;
}

/*
 * Copy the recording with the injected events among its own: each goes
 * into the round whose events first reach its time (before that round's
 * FINISHED_ROUND, which flushes only up to the round before's last time),
 * the earliest place perf still takes it in order.  Those after the
 * recording's last event are left out.
 */
static int write_out(struct inject *in, struct pd_out *o)
{
	const struct perf_event_header *ev;
	unsigned char buf[EV_MAX];
	uint64_t pos = 0, t, max = 0;
	size_t len, next = 0, n, blen;
	unsigned char *bids;
	int ret;

	if (pd_write_begin(o, &in->pd))
		return -1;
	while ((ret = pd_next(&in->pd, &pos, &ev, &len, in->err, sizeof(in->err))) > 0) {
		if (ev->type == PD_RECORD_FINISHED_ROUND)
			for (; next < in->nr_evs && in->evs[next].time <= max; next++) {
				n = make_event(in, &in->evs[next], buf);
				if (pd_write_event(o, buf, n))
					return -1;
			}
		if (pd_write_event(o, ev, len))
			return -1;
		if (pd_event_time(&in->pd, ev, len, &t) && t > max)
			max = t;
	}
	if (ret < 0)
		return -1;
	for (; next < in->nr_evs && in->evs[next].time <= in->t_last; next++) {
		n = make_event(in, &in->evs[next], buf);
		if (pd_write_event(o, buf, n))
			return -1;
	}
	bids = build_ids(in, &blen);
	ret = pd_write_end(o, &in->pd, bids, blen);
	free(bids);
	return ret;
}

/* ---- the command ---- */

static int parse_opts(int argc, char **argv, struct inject *in)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "snapshot", required_argument, NULL, 's' },
		{ "modules-dir", required_argument, NULL, 'd' },
		{ "system-map", required_argument, NULL, 'm' },
		{ "kallsyms", required_argument, NULL, 'k' },
		{ "vmlinux", required_argument, NULL, 'v' },
		{ "symbols-dir", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, nmaps = 0;
	struct stat sb;

	while ((c = getopt_long(argc, argv, "+:i:o:s:d:m:k:v:S:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'i': in->in_path = optarg; break;
		case 'o': in->out_path = optarg; break;
		case 's': in->snap_path = optarg; break;
		case 'd': in->moddir = optarg; break;
		case 'm': in->map = optarg; in->map_kind = KRELOC_MAP_SYSTEM_MAP; nmaps++; break;
		case 'k': in->map = optarg; in->map_kind = KRELOC_MAP_KALLSYMS; nmaps++; break;
		case 'v': in->map = optarg; in->map_kind = KRELOC_MAP_VMLINUX; nmaps++; break;
		case 'S': in->symdir = optarg; break;
		case 'j': json_output = true; break;
		case 'h': fputs(inject_help, stdout); return EXIT_OK;
		default: return opt_err("inject", c, argv);
		}
	}
	if (optind != argc)
		return usage_err("inject", "unexpected argument '%s'", argv[optind]);
	if (!in->in_path || !in->out_path || !in->snap_path)
		return usage_err("inject", "-i PERF.DATA, -o OUT and --snapshot FILE are required");
	if (nmaps > 1)
		return usage_err("inject", "give at most one of --system-map, --kallsyms and "
				 "--vmlinux");
	if (!strcmp(in->out_path, "-"))
		return usage_err("inject", "-o -: perf.data is written with seeks; give a file");
	if (in->moddir && (stat(in->moddir, &sb) || !S_ISDIR(sb.st_mode)))
		return usage_err("inject", "--modules-dir %s: %s", in->moddir,
				 errno ? strerror(errno) : "not a directory");
	return -1;
}

/* Refuse to write over the input (through any name). */
static int same_file(const char *a, const char *b)
{
	struct stat x, y;

	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

static int setup(struct inject *in)
{
	bool dbg = debuginfod_wanted();
	KRELOC_OPTS(kreloc_resolver_opts, ro, .map_kind = in->map ? in->map_kind : KRELOC_MAP_NONE,
		    .map_path = in->map, .modules_dir = in->moddir, .debuginfod = dbg,
		    .modules_only = !in->map);
	int ret;

	ret = snapshot_open(in->snap_path, &in->snap);
	if (ret)
		return ret;
	kreloc_snapshot_info(in->snap, &in->si, sizeof(in->si));
	ret = kreloc_resolver_new(in->snap, &ro, &in->r);
	if (ret)
		return lib_err(ret);
	if (pd_open(&in->pd, in->in_path, in->err, sizeof(in->err))) {
		p_err("%s", in->err);
		return EXIT_FAIL;
	}
	if (recording_clock(in) || check_identity(in) || prepass(in) || check_times(in))
		return EXIT_FAIL;
	return EXIT_OK;
}

static void summary(const struct inject *in, const char *symdir)
{
	char c[2][24];
	size_t i;

	if (!json_output) {
		for (i = 0; i < in->nr_maps; i++) {
			const struct imap *m = &in->maps[i];

			snprintf(c[0], sizeof(c[0]), "%" PRIu64, m->from);
			snprintf(c[1], sizeof(c[1]), "%" PRIu64, m->until);
			printf("[%s] 0x%" PRIx64 " 0x%" PRIx64 " %s..%s %zu %s\n", m->name,
			       m->start, m->len, m->from ? c[0] : "-",
			       m->until != UINT64_MAX ? c[1] : "-", m->nr_syms,
			       m->have_ko ? "symbols" : "sections");
		}
		printf("kreloc inject: %s: %zu module maps (%zu of perf's replaced), %s clock, "
		       "symbol files in %s\n", in->out_path, in->nr_maps, in->replaced,
		       clock_name(in->clock), symdir);
		return;
	}
	json_doc_begin();
	jsonw_string_field(json_wtr, "output", in->out_path);
	jsonw_string_field(json_wtr, "symbols_dir", symdir);
	jsonw_string_field(json_wtr, "clock", clock_name(in->clock));
	jsonw_uint_field(json_wtr, "replaced", in->replaced);
	jsonw_name(json_wtr, "maps");
	jsonw_start_array(json_wtr);
	for (i = 0; i < in->nr_maps; i++) {
		const struct imap *m = &in->maps[i];

		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "dso", m->name);
		jsonw_hex_field(json_wtr, "start", m->start);
		jsonw_hex_field(json_wtr, "size", m->len);
		if (m->from)
			jsonw_uint_field(json_wtr, "from_ns", m->from);
		if (m->until != UINT64_MAX)
			jsonw_uint_field(json_wtr, "until_ns", m->until);
		jsonw_uint_field(json_wtr, "symbols", m->nr_syms);
		jsonw_bool_field(json_wtr, "from_ko", m->have_ko);
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
	json_doc_end();
}

int do_inject(int argc, char **argv)
{
	struct inject in = { .map_kind = KRELOC_MAP_NONE };
	char *symdir = NULL, *abs = NULL, err[1024] = "";
	struct pd_out o = { .err = err, .errlen = sizeof(err) };
	struct ofile of;
	size_t i;
	int ret;

	ret = parse_opts(argc, argv, &in);
	if (ret >= 0)
		return ret;
	if (same_file(in.in_path, in.out_path))
		return usage_err("inject", "-o %s is the input: write a new file", in.out_path);
	if (!in.symdir && asprintf(&symdir, "%s.kreloc", in.out_path) < 0) {
		p_err("out of memory");
		return EXIT_FAIL;
	}
	in.symdir = in.symdir ? in.symdir : symdir;
	ret = setup(&in);
	if (ret)
		goto out;
	ret = EXIT_FAIL;
	if (plan(&in))
		goto out;
	qsort(in.evs, in.nr_evs, sizeof(*in.evs), cmp_iev);
	/* The events of the tracking attribute (perf's dummy event), else the first. */
	in.attr = &in.pd.attr[0];
	for (i = 0; i < in.pd.nr_attr; i++)
		if (in.pd.attr[i].attr.mmap) {
			in.attr = &in.pd.attr[i];
			break;
		}
	/* perf takes a kernel map's file name for a module's only if it is absolute. */
	if ((mkdir(in.symdir, 0700) && errno != EEXIST) || !(abs = realpath(in.symdir, NULL))) {
		p_err("--symbols-dir %s: %s", in.symdir, strerror(errno));
		goto out;
	}
	for (i = 0; i < in.nr_maps; i++) {
		free(in.maps[i].path);
		if (asprintf(&in.maps[i].path, "%s/%s.ko", abs, in.maps[i].name) < 0) {
			in.maps[i].path = NULL;
			p_err("out of memory");
			goto out;
		}
		if (write_symfile(&in, &in.maps[i]))
			goto out;
	}
	if (ofile_open(&of, in.out_path, err, sizeof(err))) {
		p_err("%s", err);
		goto out;
	}
	if (of.kind != OFILE_REPLACE) {
		ofile_commit(&of, true, err, sizeof(err));
		p_err("%s: not a regular file (perf.data is written with seeks)", in.out_path);
		goto out;
	}
	o.f = of.f;
	ret = write_out(&in, &o) ? EXIT_FAIL : EXIT_OK;
	if (ret)
		p_err("%s: %s", in.out_path, *err ? err : in.err);
	if (ofile_commit(&of, ret != EXIT_OK, err, sizeof(err)) && !ret) {
		p_err("%s", err);
		ret = EXIT_FAIL;
	}
	if (!ret)
		summary(&in, abs);
out:
	for (i = 0; i < in.nr_maps; i++) {
		free(in.maps[i].name);
		free(in.maps[i].path);
	}
	free(in.maps);
	free(in.evs);
	free(in.pmaps);
	pd_close(&in.pd);
	kreloc_resolver_free(in.r);
	kreloc_snapshot_free(in.snap);
	free(symdir);
	free(abs);
	return ret;
}
