/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-rank images of the program. The executable (a position-independent
 * one, as compilers build by default) is mapped again for every rank but
 * one, each time at an address of its own, the way the dynamic loader maps
 * a library: its code and read-only data from the file (pages the kernel
 * shares with the program's own, so code costs no memory per rank), its
 * writable data privately, its uninitialised data as anonymous memory. The
 * code addresses its data relative to itself, so a rank running in its
 * image reads and writes its own globals with no copying and no remapping
 * at a switch: its pages stay mapped, as a process's do.
 *
 * Each image is relocated as ld.so relocates the program: relative
 * relocations add the image's own load bias; references to the program's
 * own symbols go to the image's; references to other libraries (the C
 * library, libsimpi, libgfortran) are resolved to what the program itself
 * was given (its resolved GOT, or dlvsym for the symbol's version); TLS
 * relocations are the program's (every image uses the program's
 * thread-local block, which privatize.c keeps per rank). Then the image's
 * constructors run (C++ static initialisers; simpi's own boot constructor
 * sees an image is loading and returns), and its exception frames are
 * registered with the unwinder.
 *
 * One part of the program itself stays in use: the variables the program
 * reaches at fixed offsets but libraries reach through the program's copy
 * (copy relocations: stdout, optind, environ, std::cout). Each image has
 * its own copies (made from the program's when it is relocated); the
 * libraries reach them through their GOT slots and data pointers, which
 * are found once (every loaded library's relocations that point into the
 * program's copies) and set to the rank's image at each switch
 * (images_enter: a few stores, no system call), so the C library and the
 * rank see the same variables. At the end they point back to the
 * program's own, for its destructors.
 *
 * Limits: the program must be position-independent (ET_DYN) with only the
 * relocation types listed below; a library the program loads with dlopen
 * once running reaches the program's own copies of those variables (the
 * values they start with); each image adds a few memory mappings,
 * and vm.max_map_count bounds how many images fit (privatize.c then falls
 * back to remapping). Debuggers and backtraces do not know the images. */
#define _GNU_SOURCE /* dlvsym, dl_iterate_phdr */
#include "online/images.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/alloc.h"

#if defined(__x86_64__)
#define IMG_MACHINE EM_X86_64
#define R_NONE R_X86_64_NONE
#define R_ABS64 R_X86_64_64
#define R_COPY R_X86_64_COPY
#define R_GLOB_DAT R_X86_64_GLOB_DAT
#define R_JUMP_SLOT R_X86_64_JUMP_SLOT
#define R_RELATIVE R_X86_64_RELATIVE
#define R_IRELATIVE R_X86_64_IRELATIVE
#define R_IS_TLS(t)                                                                                \
    ((t) == R_X86_64_DTPMOD64 || (t) == R_X86_64_DTPOFF64 || (t) == R_X86_64_TPOFF64)
#define R_TLS_WORDS(t) 1
#elif defined(__aarch64__)
#define IMG_MACHINE EM_AARCH64
#define R_NONE R_AARCH64_NONE
#define R_ABS64 R_AARCH64_ABS64
#define R_COPY R_AARCH64_COPY
#define R_GLOB_DAT R_AARCH64_GLOB_DAT
#define R_JUMP_SLOT R_AARCH64_JUMP_SLOT
#define R_RELATIVE R_AARCH64_RELATIVE
#define R_IRELATIVE R_AARCH64_IRELATIVE
#define R_IS_TLS(t)                                                                                \
    ((t) == R_AARCH64_TLS_DTPMOD || (t) == R_AARCH64_TLS_DTPREL || (t) == R_AARCH64_TLS_TPREL ||   \
     (t) == R_AARCH64_TLSDESC)
#define R_TLS_WORDS(t) ((t) == R_AARCH64_TLSDESC ? 2 : 1)
#else
#define IMG_MACHINE EM_NONE /* no images: privatize.c remaps */
#endif

/* .eh_frame_hdr's usual encoding of its pointer: pc-relative, signed 4 bytes */
#define EH_PCREL_SDATA4 0x1b

/* A variable of a library the program holds a copy of (a copy
 * relocation): its place in the program (a virtual address) and size. */
struct copy_var {
    uintptr_t at;
    size_t size;
};

/* A library's reference to one of those copies (a GOT slot or a pointer
 * in its data): set to the entered rank's image at each switch. */
struct redirect {
    uintptr_t *slot;
    uintptr_t at; /* what it points to, in the program's virtual addresses */
};

struct rela_table {
    const Elf64_Rela *r;
    size_t n;
};

static struct {
    bool parsed, active;
    int fd;           /* the executable */
    const char *file; /* mapped read-only */
    size_t file_len;
    uintptr_t home;   /* the program's load bias */
    uintptr_t lo, hi; /* page-aligned span of its segments (virtual addresses) */
    const Elf64_Phdr *ph;
    int nph, loads;
    struct rela_table rela[2]; /* DT_RELA, DT_JMPREL */
    const uint64_t *relr;
    size_t nrelr;
    const Elf64_Sym *dynsym;
    const char *dynstr;
    size_t dynstr_len;
    const Elf64_Half *versym;
    const Elf64_Verneed *verneed;
    uintptr_t init, init_array, preinit_array, eh_frame_hdr;
    size_t init_n, preinit_n;
    struct copy_var *copies; /* the copy relocations */
    size_t ncopies;
    struct redirect *redirects; /* the libraries' references to them */
    size_t nredirects, redirects_cap;
    int32_t entered; /* whose copies the libraries' references point to */
    uintptr_t *ext;  /* resolved external symbols, by symbol index */
    bool *ext_done;
    size_t nsyms;
    int32_t n;
    uintptr_t *bias;   /* per rank: its image's load bias, or 0 */
    uintptr_t *sorted; /* the images' biases, ascending */
    int32_t nimages;
    int maps_each;
} im = {.fd = -1};

static size_t pagesz(void) {
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}
static uintptr_t page_down(uintptr_t a) {
    return a / pagesz() * pagesz();
}
static uintptr_t page_up(uintptr_t a) {
    return (a + pagesz() - 1) / pagesz() * pagesz();
}

static bool fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *why, size_t len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return false;
}

/* The file's bytes for a virtual address range, or NULL. */
static const void *at_vaddr(uintptr_t va, size_t len) {
    for (int i = 0; i < im.nph; i++) {
        const Elf64_Phdr *p = &im.ph[i];
        if (p->p_type == PT_LOAD && va >= p->p_vaddr && va + len <= p->p_vaddr + p->p_filesz &&
            p->p_offset + p->p_filesz <= im.file_len)
            return im.file + p->p_offset + (va - p->p_vaddr);
    }
    return NULL;
}

static int program_bias(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    *(uintptr_t *)data = (uintptr_t)info->dlpi_addr;
    return 1; /* the first entry is the program itself */
}

static bool map_file(char *why, size_t len) {
    im.fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (im.fd < 0 || fstat(im.fd, &st) != 0)
        return fail(why, len, "cannot open the program: %s", strerror(errno));
    im.file_len = (size_t)st.st_size;
    im.file = mmap(NULL, im.file_len, PROT_READ, MAP_PRIVATE, im.fd, 0);
    if (im.file == MAP_FAILED) {
        im.file = NULL;
        return fail(why, len, "cannot map the program: %s", strerror(errno));
    }
    return true;
}

static bool read_segments(char *why, size_t len) {
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)im.file;
    if (im.file_len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != IMG_MACHINE)
        return fail(why, len, "the program is not a 64-bit ELF file of this machine");
    if (eh->e_type != ET_DYN)
        return fail(why, len, "the program is not position-independent (linked with -no-pie)");
    if (eh->e_phoff + (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > im.file_len)
        return fail(why, len, "the program's headers are truncated");
    im.ph = (const Elf64_Phdr *)(const void *)(im.file + eh->e_phoff);
    im.nph = eh->e_phnum;
    im.lo = UINTPTR_MAX;
    for (int i = 0; i < im.nph; i++) {
        const Elf64_Phdr *p = &im.ph[i];
        if (p->p_type == PT_GNU_EH_FRAME) im.eh_frame_hdr = p->p_vaddr;
        if (p->p_type != PT_LOAD) continue;
        if (p->p_align < pagesz() || (p->p_vaddr - p->p_offset) % pagesz())
            return fail(why, len, "a segment of the program is not page-aligned");
        im.loads++;
        if (page_down(p->p_vaddr) < im.lo) im.lo = page_down(p->p_vaddr);
        if (page_up(p->p_vaddr + p->p_memsz) > im.hi) im.hi = page_up(p->p_vaddr + p->p_memsz);
    }
    return im.loads > 0 || fail(why, len, "the program has no loadable segment");
}

/* The version a symbol of the program asks for (NULL: any). */
static const char *symbol_version(size_t i) {
    if (!im.versym || !im.verneed) return NULL;
    Elf64_Half v = im.versym[i] & 0x7fff;
    if (v < 2) return NULL;
    const Elf64_Verneed *vn = im.verneed;
    for (int guard = 0; guard < 1000; guard++) {
        const Elf64_Vernaux *a =
            (const Elf64_Vernaux *)(const void *)((const char *)vn + vn->vn_aux);
        for (int k = 0; k < vn->vn_cnt; k++) {
            if (a->vna_other == v)
                return a->vna_name < im.dynstr_len ? im.dynstr + a->vna_name : NULL;
            a = (const Elf64_Vernaux *)(const void *)((const char *)a + a->vna_next);
        }
        if (!vn->vn_next) break;
        vn = (const Elf64_Verneed *)(const void *)((const char *)vn + vn->vn_next);
    }
    return NULL;
}

static bool read_dynamic(char *why, size_t len) {
    const Elf64_Phdr *dyn = NULL;
    for (int i = 0; i < im.nph; i++)
        if (im.ph[i].p_type == PT_DYNAMIC) dyn = &im.ph[i];
    if (!dyn || dyn->p_offset + dyn->p_filesz > im.file_len)
        return fail(why, len, "the program has no dynamic section");
    const Elf64_Dyn *d = (const Elf64_Dyn *)(const void *)(im.file + dyn->p_offset);
    size_t nd = dyn->p_filesz / sizeof *d;
    uintptr_t rela = 0, jmprel = 0, relr = 0, symtab = 0, strtab = 0, versym = 0, verneed = 0;
    size_t relasz = 0, jmprelsz = 0, relrsz = 0, initsz = 0, preinitsz = 0;
    for (size_t i = 0; i < nd && d[i].d_tag != DT_NULL; i++) {
        uint64_t v = d[i].d_un.d_val;
        switch (d[i].d_tag) {
        case DT_RELA:
            rela = v;
            break;
        case DT_RELASZ:
            relasz = v;
            break;
        case DT_JMPREL:
            jmprel = v;
            break;
        case DT_PLTRELSZ:
            jmprelsz = v;
            break;
        case DT_PLTREL:
            if (v != DT_RELA) return fail(why, len, "the program uses REL relocations");
            break;
        case DT_REL:
        case DT_TEXTREL:
            return fail(why, len, "the program has relocations in its code or of REL type");
        case DT_RELR:
            relr = v;
            break;
        case DT_RELRSZ:
            relrsz = v;
            break;
        case DT_SYMTAB:
            symtab = v;
            break;
        case DT_STRTAB:
            strtab = v;
            break;
        case DT_STRSZ:
            im.dynstr_len = v;
            break;
        case DT_VERSYM:
            versym = v;
            break;
        case DT_VERNEED:
            verneed = v;
            break;
        case DT_INIT:
            im.init = v;
            break;
        case DT_INIT_ARRAY:
            im.init_array = v;
            break;
        case DT_INIT_ARRAYSZ:
            initsz = v;
            break;
        case DT_PREINIT_ARRAY:
            im.preinit_array = v;
            break;
        case DT_PREINIT_ARRAYSZ:
            preinitsz = v;
            break;
        default:
            break;
        }
    }
    im.init_n = initsz / 8;
    im.preinit_n = preinitsz / 8;
    im.rela[0] = (struct rela_table){at_vaddr(rela, relasz), relasz / sizeof(Elf64_Rela)};
    im.rela[1] = (struct rela_table){at_vaddr(jmprel, jmprelsz), jmprelsz / sizeof(Elf64_Rela)};
    im.relr = at_vaddr(relr, relrsz);
    im.nrelr = relrsz / 8;
    im.dynsym = at_vaddr(symtab, sizeof(Elf64_Sym));
    im.dynstr = at_vaddr(strtab, im.dynstr_len);
    im.versym = versym ? at_vaddr(versym, 2) : NULL;
    im.verneed = verneed ? at_vaddr(verneed, sizeof(Elf64_Verneed)) : NULL;
    if ((relasz && !im.rela[0].r) || (jmprelsz && !im.rela[1].r) || (relrsz && !im.relr) ||
        !im.dynsym || !im.dynstr)
        return fail(why, len, "the program's dynamic section points outside its file");
    return true;
}

static bool known_type(uint32_t t) {
    return t == R_NONE || t == R_ABS64 || t == R_COPY || t == R_GLOB_DAT || t == R_JUMP_SLOT ||
           t == R_RELATIVE || t == R_IRELATIVE || R_IS_TLS(t);
}

/* Checks every relocation and lists the copy relocations. */
static bool scan_relocations(char *why, size_t len) {
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < im.rela[t].n; i++) {
            const Elf64_Rela *r = &im.rela[t].r[i];
            uint32_t type = (uint32_t)ELF64_R_TYPE(r->r_info);
            size_t sym = ELF64_R_SYM(r->r_info);
            if (!known_type(type))
                return fail(why, len, "the program has a relocation of type %u", type);
            if (r->r_offset < im.lo || r->r_offset + 8 * R_TLS_WORDS(type) > im.hi)
                return fail(why, len, "a relocation of the program is outside it");
            if (sym + 1 > im.nsyms) im.nsyms = sym + 1;
            if (type != R_COPY) continue;
            im.copies = xrealloc_or_die(im.copies, (im.ncopies + 1) * sizeof *im.copies);
            im.copies[im.ncopies++] = (struct copy_var){r->r_offset, im.dynsym[sym].st_size};
        }
    im.ext = xcalloc(im.nsyms + 1, sizeof *im.ext);
    im.ext_done = xcalloc(im.nsyms + 1, sizeof *im.ext_done);
    return true;
}

static bool resolve_external(size_t sym, const Elf64_Rela *r, char *why, size_t len);

/* Every library symbol the program uses, resolved before any image is made:
 * an image either is made whole or not at all. */
static bool resolve_all(char *why, size_t len) {
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < im.rela[t].n; i++) {
            const Elf64_Rela *r = &im.rela[t].r[i];
            uint32_t type = (uint32_t)ELF64_R_TYPE(r->r_info);
            size_t sym = ELF64_R_SYM(r->r_info);
            if (sym && im.dynsym[sym].st_shndx == SHN_UNDEF && type != R_COPY && !R_IS_TLS(type) &&
                !resolve_external(sym, r, why, len))
                return false;
        }
    return true;
}

static bool parse(char *why, size_t len) {
    if (im.parsed) return true;
    if (IMG_MACHINE == EM_NONE) return fail(why, len, "not supported on this processor");
    dl_iterate_phdr(program_bias, &im.home);
    if (!map_file(why, len) || !read_segments(why, len) || !read_dynamic(why, len) ||
        !scan_relocations(why, len) || !resolve_all(why, len))
        return false;
    /* mappings per image: its segments, the gaps between them, bss */
    im.maps_each = 2 * im.loads + 1;
    im.parsed = true;
    return true;
}

static int count_maps(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return -1;
    int n = 0, c;
    while ((c = getc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static long max_maps(void) {
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    long v = 65530; /* Linux's default */
    if (f && fscanf(f, "%ld", &v) != 1) v = 65530;
    if (f) fclose(f);
    return v;
}

bool images_possible(int32_t n, char *why, size_t len) {
    if (!parse(why, len)) return false;
    long need = (long)n * im.maps_each, have = max_maps() - count_maps() - 1000; /* one a rank */
    if (need > have)
        return fail(why, len,
                    "%d images of %d memory mappings each would exceed vm.max_map_count (%ld)", n,
                    im.maps_each, max_maps());
    return true;
}

/* --- one image --- */

static int prot_of(uint32_t flags) {
    return (flags & PF_R ? PROT_READ : 0) | (flags & PF_W ? PROT_WRITE : 0) |
           (flags & PF_X ? PROT_EXEC : 0);
}

static bool map_segment(uintptr_t bias, const Elf64_Phdr *p) {
    uintptr_t start = page_down(p->p_vaddr), fend = p->p_vaddr + p->p_filesz;
    uintptr_t mend = p->p_vaddr + p->p_memsz;
    int prot = prot_of(p->p_flags);
    if (p->p_filesz &&
        mmap((void *)(bias + start), page_up(fend) - start, prot, MAP_PRIVATE | MAP_FIXED, im.fd,
             (off_t)(p->p_offset - (p->p_vaddr - start))) == MAP_FAILED)
        return false;
    if (!(p->p_flags & PF_W) || mend <= fend) return true;
    if (p->p_filesz && page_up(fend) > fend) /* the file's tail on the last page is not data */
        memset((void *)(bias + fend), 0, page_up(fend) - fend);
    uintptr_t anon = p->p_filesz ? page_up(fend) : start;
    return page_up(mend) <= anon ||
           mmap((void *)(bias + anon), page_up(mend) - anon, prot,
                MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) != MAP_FAILED;
}

static bool map_image(uintptr_t *bias) {
    char *res =
        mmap(NULL, im.hi - im.lo, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (res == MAP_FAILED) return false;
    *bias = (uintptr_t)res - im.lo;
    for (int i = 0; i < im.nph; i++)
        if (im.ph[i].p_type == PT_LOAD && !map_segment(*bias, &im.ph[i])) {
            munmap(res, im.hi - im.lo);
            return false;
        }
    return true;
}

static bool in_program(uintptr_t v) {
    return v >= im.home + im.lo && v < im.home + im.hi;
}

/* What a library symbol the program uses resolves to. */
static bool resolve_external(size_t sym, const Elf64_Rela *r, char *why, size_t len) {
    if (im.ext_done[sym]) return true;
    const Elf64_Sym *s = &im.dynsym[sym];
    uint32_t type = (uint32_t)ELF64_R_TYPE(r->r_info);
    uintptr_t got = *(const uintptr_t *)(im.home + r->r_offset);
    void *v = NULL;
    if (type == R_GLOB_DAT && !in_program(got)) { /* what ld.so gave the program */
        v = (void *)got;
    } else if (s->st_name < im.dynstr_len) {
        const char *name = im.dynstr + s->st_name, *ver = symbol_version(sym);
        if (ver) v = dlvsym(RTLD_DEFAULT, name, ver);
        if (!v) v = dlsym(RTLD_DEFAULT, name);
        if (!v && ELF64_ST_BIND(s->st_info) != STB_WEAK)
            return fail(why, len, "cannot resolve %s for an image of the program", name);
    }
    im.ext[sym] = (uintptr_t)v;
    im.ext_done[sym] = true;
    return true;
}

/* The value of symbol sym in the image at bias. */
static bool symbol_value(uintptr_t bias, const Elf64_Rela *r, uintptr_t *value, char *why,
                         size_t len) {
    size_t sym = ELF64_R_SYM(r->r_info);
    const Elf64_Sym *s = &im.dynsym[sym];
    if (sym == 0) {
        *value = 0;
    } else if (s->st_shndx == SHN_UNDEF) {
        if (!resolve_external(sym, r, why, len)) return false;
        *value = im.ext[sym];
    } else if (s->st_shndx == SHN_ABS) {
        *value = s->st_value;
    } else {
        *value = bias + s->st_value;
        if (ELF64_ST_TYPE(s->st_info) == STT_GNU_IFUNC) *value = ((uintptr_t(*)(void)) * value)();
    }
    return true;
}

static bool apply_rela(uintptr_t bias, const Elf64_Rela *r, char *why, size_t len) {
    uint32_t type = (uint32_t)ELF64_R_TYPE(r->r_info);
    uintptr_t *where = (uintptr_t *)(bias + r->r_offset), s;
    if (type == R_NONE || type == R_COPY) return true; /* copies: made below */
    if (type == R_RELATIVE) {
        *where = bias + (uintptr_t)r->r_addend;
    } else if (type == R_IRELATIVE) {
        *where = ((uintptr_t(*)(void))(bias + (uintptr_t)r->r_addend))();
    } else if (R_IS_TLS(type)) { /* the program's thread-local block */
        memcpy(where, (const void *)(im.home + r->r_offset), 8 * R_TLS_WORDS(type));
    } else {
        if (!symbol_value(bias, r, &s, why, len)) return false;
        *where = s + (uintptr_t)r->r_addend;
    }
    return true;
}

static void apply_relr(uintptr_t bias) {
    uintptr_t *where = NULL;
    for (size_t i = 0; i < im.nrelr; i++) {
        uint64_t e = im.relr[i];
        if (!(e & 1)) {
            where = (uintptr_t *)(bias + e);
            *where++ += bias;
            continue;
        }
        for (int k = 0; (e >>= 1) != 0; k++)
            if ((e & 1) && where) where[k] += bias;
        if (where) where += 63;
    }
}

static bool relocate(uintptr_t bias, char *why, size_t len) {
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < im.rela[t].n; i++)
            if (!apply_rela(bias, &im.rela[t].r[i], why, len)) return false;
    apply_relr(bias);
    for (int t = 0; t < 2; t++) /* the library variables as the program has them now */
        for (size_t i = 0; i < im.rela[t].n; i++) {
            const Elf64_Rela *r = &im.rela[t].r[i];
            if (ELF64_R_TYPE(r->r_info) == R_COPY)
                memcpy((void *)(bias + r->r_offset), (const void *)(im.home + r->r_offset),
                       im.dynsym[ELF64_R_SYM(r->r_info)].st_size);
        }
    return true;
}

/* C++ exceptions thrown in an image: its frames, known to the unwinder. */
static void register_frames(uintptr_t bias) {
    static void (*reg)(const void *, void *);
    if (!reg) *(void **)&reg = dlsym(RTLD_DEFAULT, "__register_frame_info");
    const unsigned char *hdr = (const unsigned char *)(bias + im.eh_frame_hdr);
    if (!reg || !im.eh_frame_hdr || hdr[0] != 1 || hdr[1] != EH_PCREL_SDATA4) return;
    int32_t rel;
    memcpy(&rel, hdr + 4, 4);
    reg(hdr + 4 + rel, xcalloc(1, 128)); /* the unwinder's object: kept for the process */
}

typedef void (*init_fn)(int, char **, char **);

static void run_array(uintptr_t bias, uintptr_t array, size_t n, int argc, char **argv) {
    for (size_t i = 0; i < n; i++) {
        uintptr_t f = ((const uintptr_t *)(bias + array))[i];
        if (f && f != (uintptr_t)-1) ((init_fn)f)(argc, argv, environ);
    }
}

static volatile int loading; /* simpi_image_loading: boot.c's constructor returns */

int simpi_image_loading(void) {
    return loading;
}

static void run_constructors(uintptr_t bias, int argc, char **argv) {
    loading = 1;
    if (im.preinit_array) run_array(bias, im.preinit_array, im.preinit_n, argc, argv);
    if (im.init) ((init_fn)(bias + im.init))(argc, argv, environ);
    if (im.init_array) run_array(bias, im.init_array, im.init_n, argc, argv);
    loading = 0;
}

static int by_bias(const void *a, const void *b) {
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

/* Maps every image first: if one cannot be mapped (memory), none is kept
 * and no constructor has run. */
static bool map_all(const bool *wanted, char *why, size_t len) {
    for (int32_t r = 0; r < im.n; r++) {
        if (!wanted[r]) continue;
        if (map_image(&im.bias[r])) continue;
        int e = errno;
        for (int32_t k = 0; k < r; k++)
            if (im.bias[k]) munmap((void *)(im.bias[k] + im.lo), im.hi - im.lo);
        memset(im.bias, 0, sizeof *im.bias * (size_t)im.n);
        return fail(why, len, "cannot map an image of the program for rank %d: %s", r, strerror(e));
    }
    return true;
}

/* The copy relocation holding program address v, or NULL. */
static const struct copy_var *copy_of(uintptr_t v) {
    for (size_t i = 0; i < im.ncopies; i++)
        if (v >= im.copies[i].at && v < im.copies[i].at + im.copies[i].size) return &im.copies[i];
    return NULL;
}

static void add_redirect(uintptr_t *slot, uintptr_t at) {
    if (im.nredirects == im.redirects_cap) {
        im.redirects_cap = im.redirects_cap ? 2 * im.redirects_cap : 16;
        im.redirects = xrealloc_or_die(im.redirects, im.redirects_cap * sizeof *im.redirects);
    }
    im.redirects[im.nredirects++] = (struct redirect){slot, at};
}

/* A pointer of a loaded object's dynamic section: relocated already by
 * the loader where the section is writable, else relative to its base. */
static uintptr_t dyn_ptr(uintptr_t base, uint64_t v) {
    return v < base ? base + v : (uintptr_t)v;
}

/* One loaded object's references to the program's copies (its GOT slots
 * and data pointers, as its relocations place them), made writable. A
 * slot may lie in what AddressSanitizer counts as a redzone (an
 * instrumented library's data): read and written unchecked. */
__attribute__((no_sanitize_address)) static int find_redirects(struct dl_phdr_info *info,
                                                               size_t size, void *data) {
    (void)size;
    (void)data;
    uintptr_t base = info->dlpi_addr;
    if (base == im.home || !base) return 0; /* the program itself */
    const Elf64_Dyn *d = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            d = (const Elf64_Dyn *)(base + info->dlpi_phdr[i].p_vaddr);
    uintptr_t rela = 0;
    size_t relasz = 0;
    for (; d && d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_RELA) rela = dyn_ptr(base, d->d_un.d_ptr);
        if (d->d_tag == DT_RELASZ) relasz = d->d_un.d_val;
    }
    const uintptr_t lo = im.home + im.lo, hi = im.home + im.hi;
    for (size_t i = 0; rela && i < relasz / sizeof(Elf64_Rela); i++) {
        const Elf64_Rela *r = (const Elf64_Rela *)rela + i;
        uint32_t type = (uint32_t)ELF64_R_TYPE(r->r_info);
        if (type != R_GLOB_DAT && type != R_ABS64) continue;
        uintptr_t *slot = (uintptr_t *)(base + r->r_offset), v = *slot;
        if (v < lo || v >= hi || !copy_of(v - im.home)) continue;
        /* GOT slots lie in pages the loader made read-only */
        if (mprotect((void *)page_down((uintptr_t)slot), pagesz(), PROT_READ | PROT_WRITE) != 0)
            return 1;
        add_redirect(slot, v - im.home);
    }
    return 0;
}

bool images_load(int32_t n, const bool *wanted, int argc, char **argv, char *why, size_t len) {
    im.n = n;
    im.bias = xcalloc((size_t)n, sizeof *im.bias);
    im.sorted = xcalloc((size_t)n, sizeof *im.sorted);
    if (!map_all(wanted, why, len)) return false;
    if (dl_iterate_phdr(find_redirects, NULL) != 0) {
        fprintf(stderr,
                "simpi: error: privatization: cannot make a library's references to the "
                "program's variables writable: %s\n",
                strerror(errno));
        _exit(1); /* the images are mapped over nothing the program uses; stop all the same */
    }
    im.entered = n;
    for (int32_t r = 0; r < n; r++) {
        uintptr_t bias = im.bias[r];
        if (!bias) continue;
        if (!relocate(bias, why, len)) { /* resolved in parse(): cannot fail */
            fprintf(stderr, "simpi: error: privatization: rank %d's image: %s\n", r,
                    why[0] ? why : strerror(errno));
            _exit(1);
        }
        register_frames(bias);
        images_enter(r); /* its constructors see the C library's variables as its own */
        run_constructors(bias, argc, argv);
        im.sorted[im.nimages++] = bias;
    }
    qsort(im.sorted, (size_t)im.nimages, sizeof *im.sorted, by_bias);
    im.active = im.nimages > 0;
    return true;
}

__attribute__((no_sanitize_address)) void images_enter(int32_t rank) {
    if (im.entered == rank || (rank < im.n && !im.bias[rank])) return;
    uintptr_t bias = rank < im.n ? im.bias[rank] : im.home;
    for (size_t i = 0; i < im.nredirects; i++)
        *im.redirects[i].slot = bias + im.redirects[i].at;
    im.entered = rank;
}

void images_end(void) {
    images_enter(im.n); /* the program's own, for its destructors */
}

void *images_in_rank(int32_t rank, const void *addr) {
    if (!im.active || rank < 0 || rank >= im.n || !im.bias[rank] || !in_program((uintptr_t)addr))
        return (void *)addr;
    return (void *)((uintptr_t)addr - im.home + im.bias[rank]);
}

const void *images_home(const void *addr) {
    if (!im.active) return addr;
    uintptr_t a = (uintptr_t)addr;
    int32_t lo = 0, hi = im.nimages; /* the last image whose bias + lo <= a */
    while (lo < hi) {
        int32_t mid = (lo + hi) / 2;
        if (im.sorted[mid] + im.lo <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || a >= im.sorted[lo - 1] + im.hi) return addr;
    return (const void *)(a - im.sorted[lo - 1] + im.home);
}
