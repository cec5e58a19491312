/* SPDX-License-Identifier: BSD-3-Clause */
/* Detection of the program's writable global variables. All ranks share one
 * address space; each rank needs its own copy of the globals that hold
 * per-rank state (privatize.c). The runtime is the shared libsimpi.so, so
 * the executable's .data and .bss (and .ldata and .lbss, under the medium
 * code model) hold only the program's own variables and
 * what the C runtime and the linker put there, told apart by name (never by
 * source file name): crt bookkeeping (completed.0, __dso_handle...), the
 * linker's copies of C library variables (stdout@GLIBC...), C++'s
 * DW.ref.__gxx_personality_v0 and <iostream>'s _ZStL8__ioinit. A stripped
 * executable has no symbol table: then globals_scan says so (stripped). */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "online/globals.h"

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* The C runtime's own bookkeeping: never privatized. */
static bool is_crt(const char *name) {
    static const char *const exact[] = {"completed.0", "completed.1", "__TMC_END__", "__dso_handle",
                                        NULL};
    for (int i = 0; exact[i]; i++)
        if (!strcmp(name, exact[i])) return true;
    return !strncmp(name, "DW.ref.", 7);
}

static void add_range(struct global_range **ranges, int *n, int *cap, char *addr, size_t len) {
    if (*n == *cap)
        *ranges = xrealloc_or_die(*ranges, sizeof **ranges * (size_t)(*cap = *cap ? *cap * 2 : 16));
    (*ranges)[(*n)++] = (struct global_range){addr, len};
}

/* Variables privatized but not counted as the program's own globals: the
 * linker's copies of C library variables (optind@GLIBC...), C++ runtime
 * objects. */
static bool from_runtime(const char *name) {
    static const char *const exact[] = {"completed.0", "completed.1",  "data_start",
                                        "_edata",      "_end",         "__bss_start",
                                        "__TMC_END__", "__dso_handle", NULL};
    for (int i = 0; exact[i]; i++)
        if (!strcmp(name, exact[i])) return true;
    return strchr(name, '@') || !strncmp(name, "__", 2) || !strncmp(name, "DW.ref.", 7) ||
           !strncmp(name, "_ZStL8__ioinit", 14) || !strncmp(name, "_ZGV", 4) ||
           !strncmp(name, "simpi_", 6);
}

static void *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 20, n = 0, got;
    char *buf = xmalloc(cap);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap) buf = xrealloc_or_die(buf, cap *= 2);
    fclose(f);
    *len = n;
    return buf;
}

/* The sections that hold writable globals: .data and .bss, and the large
 * data sections of the medium and large code models (-mcmodel=medium puts
 * arrays above 64 KiB, big Fortran COMMON blocks among them, in .ldata and
 * .lbss). */
enum { NDATA = 4 };
static const char *const data_sections[NDATA] = {".data", ".bss", ".ldata", ".lbss"};

/* Section indices of the data sections (-1: none), and the symbol and
 * string tables. */
static bool find_sections(const char *img, size_t len, int data[NDATA], const Elf64_Shdr **symtab,
                          const Elf64_Shdr **strtab) {
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > len ||
        eh->e_shstrndx >= eh->e_shnum)
        return false;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    const char *names = img + sh[eh->e_shstrndx].sh_offset;
    for (int k = 0; k < NDATA; k++)
        data[k] = -1;
    *symtab = *strtab = NULL;
    for (int i = 0; i < eh->e_shnum; i++) {
        const char *nm = names + sh[i].sh_name;
        for (int k = 0; k < NDATA; k++)
            if (!strcmp(nm, data_sections[k])) data[k] = i;
        if (sh[i].sh_type == SHT_SYMTAB) {
            *symtab = &sh[i];
            *strtab = &sh[sh[i].sh_link];
        }
    }
    return *symtab && (*symtab)->sh_offset + (*symtab)->sh_size <= len &&
           (*strtab)->sh_offset + (*strtab)->sh_size <= len;
}

/* Whether section index shndx is one of the data sections. */
static bool in_data(const int data[NDATA], int shndx) {
    for (int k = 0; k < NDATA; k++)
        if (data[k] >= 0 && data[k] == shndx) return true;
    return false;
}

/* Load address of the main program (0 unless it is position-independent). */
static int first_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    *(uintptr_t *)data = (uintptr_t)info->dlpi_addr;
    return 1; /* the first entry is the program itself */
}

static int by_address(const void *a, const void *b) {
    const struct global_range *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Sorts the ranges and merges overlapping or adjacent ones. */
static int merge_ranges(struct global_range *r, int n) {
    qsort(r, (size_t)n, sizeof *r, by_address);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (k && r[i].addr <= r[k - 1].addr + r[k - 1].len) {
            char *end = r[i].addr + r[i].len;
            if (end > r[k - 1].addr + r[k - 1].len) r[k - 1].len = (size_t)(end - r[k - 1].addr);
        } else {
            r[k++] = r[i];
        }
    }
    return k;
}

/* The library holding the program's main, when it is not the executable
 * (globals_add_library): its globals are the program's too. */
static char library_path[4096];
static uintptr_t library_base;

struct locate {
    uintptr_t addr;
    int index; /* of the object seen next */
};

/* Notes the object (past the first, the executable) whose loaded
 * segments hold the address. */
static int object_of(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct locate *l = data;
    int index = l->index++;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type != PT_LOAD || l->addr < lo || l->addr >= lo + ph->p_memsz) continue;
        if (index > 0 && info->dlpi_name && info->dlpi_name[0])
            globals_add_library(info->dlpi_name, (uintptr_t)info->dlpi_addr);
        return 1;
    }
    return 0;
}

void globals_locate_main(const void *main_fn) {
    struct locate l = {(uintptr_t)main_fn, 0};
    dl_iterate_phdr(object_of, &l);
}

void globals_add_library(const char *path, uintptr_t base) {
    snprintf(library_path, sizeof library_path, "%s", path);
    library_base = base;
}

const char *globals_library(void) {
    return library_path[0] ? library_path : NULL;
}

static void scan_object(const char *path, uintptr_t base, struct globals_info *g,
                        struct global_range **ranges, int *nranges, int *cap);

struct globals_info globals_scan(struct global_range **ranges, int *nranges) {
    struct globals_info g = {0};
    uintptr_t base = 0;
    int cap = 0;
    if (ranges) {
        *ranges = NULL;
        *nranges = 0;
    }
    dl_iterate_phdr(first_object, &base);
    scan_object("/proc/self/exe", base, &g, ranges, nranges, &cap);
    if (library_path[0] && !g.stripped)
        scan_object(library_path, library_base, &g, ranges, nranges, &cap);
    if (ranges && *nranges) *nranges = merge_ranges(*ranges, *nranges);
    return g;
}

/* Adds the writable globals of one object (the executable, or the library
 * of main), loaded at base, to g and the ranges. */
static void scan_object(const char *path, uintptr_t base, struct globals_info *g,
                        struct global_range **ranges, int *nranges, int *cap) {
    size_t len;
    char *img = read_all(path, &len);
    const Elf64_Shdr *symtab, *strtab;
    int data[NDATA];
    if (!img || !find_sections(img, len, data, &symtab, &strtab)) {
        g->stripped = img != NULL;
        free(img);
        return;
    }
    const Elf64_Sym *sym = (const Elf64_Sym *)(img + symtab->sh_offset);
    const char *str = img + strtab->sh_offset;
    size_t n = symtab->sh_size / sizeof *sym;
    for (size_t i = 0; i < n; i++) {
        if (sym[i].st_name >= strtab->sh_size) continue;
        const char *name = str + sym[i].st_name;
        int type = ELF64_ST_TYPE(sym[i].st_info);
        if (type != STT_OBJECT || sym[i].st_size == 0) continue;
        if (!in_data(data, sym[i].st_shndx)) continue;
        if (is_crt(name)) continue;
        if (ranges)
            add_range(ranges, nranges, cap, (char *)(base + sym[i].st_value), sym[i].st_size);
        if (from_runtime(name)) continue; /* privatized, but not the program's own */
        if (g->count < GLOBALS_NAMED) snprintf(g->names[g->count], sizeof g->names[0], "%s", name);
        g->count++;
        g->bytes += (int64_t)sym[i].st_size;
    }
    free(img);
}
