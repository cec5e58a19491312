/* Detection of the program's writable global variables. All ranks share one
 * address space, so a global that holds per-rank state is shared by every
 * rank. At start-up the program's own symbol table (/proc/self/exe) is read
 * and the variables in .data and .bss that come from the program (not from
 * simpi or the C runtime) are counted, to warn once. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "online/globals.h"

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"

#ifndef SIMPI_FILE_NAMES
#define SIMPI_FILE_NAMES ":"
#endif

/* Whether a local symbol of source file `file` belongs to simpi (by base
 * name: a program file named like one of simpi's is not told apart). */
static bool simpi_file(const char *file) {
    char key[256];
    snprintf(key, sizeof key, ":%s:", file);
    return strstr(SIMPI_FILE_NAMES, key) != NULL;
}

static bool from_runtime(const char *file, const char *name) {
    if (file && simpi_file(file)) return true;
    if (file && (strstr(file, "crtstuff") || strstr(file, "crt1") || strstr(file, "crti")))
        return true;
    return strchr(name, '@') || !strncmp(name, "__", 2) || !strncmp(name, "simpi_", 6) ||
           !strncmp(name, "sim_", 4) || !strcmp(name, "_edata") || !strcmp(name, "_end") ||
           !strcmp(name, "data_start") || !strcmp(name, "completed.0");
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

/* Section indices of .data and .bss, and the symbol and string tables. */
static bool find_sections(const char *img, size_t len, int *data, int *bss,
                          const Elf64_Shdr **symtab, const Elf64_Shdr **strtab) {
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > len ||
        eh->e_shstrndx >= eh->e_shnum)
        return false;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    const char *names = img + sh[eh->e_shstrndx].sh_offset;
    *data = *bss = -1;
    *symtab = *strtab = NULL;
    for (int i = 0; i < eh->e_shnum; i++) {
        const char *nm = names + sh[i].sh_name;
        if (!strcmp(nm, ".data")) *data = i;
        if (!strcmp(nm, ".bss")) *bss = i;
        if (sh[i].sh_type == SHT_SYMTAB) {
            *symtab = &sh[i];
            *strtab = &sh[sh[i].sh_link];
        }
    }
    return *symtab && (*symtab)->sh_offset + (*symtab)->sh_size <= len &&
           (*strtab)->sh_offset + (*strtab)->sh_size <= len;
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

struct globals_info globals_scan(struct global_range **ranges, int *nranges) {
    struct globals_info g = {0};
    uintptr_t base = 0;
    int cap = 0;
    if (ranges) {
        *ranges = NULL;
        *nranges = 0;
        dl_iterate_phdr(first_object, &base);
    }
    size_t len;
    char *img = read_all("/proc/self/exe", &len);
    const Elf64_Shdr *symtab, *strtab;
    int data, bss;
    if (!img || !find_sections(img, len, &data, &bss, &symtab, &strtab)) {
        free(img);
        return g;
    }
    const Elf64_Sym *sym = (const Elf64_Sym *)(img + symtab->sh_offset);
    const char *str = img + strtab->sh_offset;
    size_t n = symtab->sh_size / sizeof *sym;
    const char *file = NULL;
    for (size_t i = 0; i < n; i++) {
        if (sym[i].st_name >= strtab->sh_size) continue;
        const char *name = str + sym[i].st_name;
        int type = ELF64_ST_TYPE(sym[i].st_info), bind = ELF64_ST_BIND(sym[i].st_info);
        if (type == STT_FILE) file = name;
        if (type != STT_OBJECT || sym[i].st_size == 0) continue;
        if (sym[i].st_shndx != data && sym[i].st_shndx != bss) continue;
        if (from_runtime(bind == STB_LOCAL ? file : NULL, name)) continue;
        if (g.count < GLOBALS_NAMED) snprintf(g.names[g.count], sizeof g.names[0], "%s", name);
        g.count++;
        g.bytes += (int64_t)sym[i].st_size;
        if (!ranges) continue;
        if (*nranges == cap)
            *ranges =
                xrealloc_or_die(*ranges, sizeof **ranges * (size_t)(cap = cap ? cap * 2 : 16));
        (*ranges)[(*nranges)++] =
            (struct global_range){(char *)(base + sym[i].st_value), sym[i].st_size};
    }
    if (ranges && *nranges) *nranges = merge_ranges(*ranges, *nranges);
    free(img);
    return g;
}
