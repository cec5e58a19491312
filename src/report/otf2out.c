/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing OTF2 archives as Score-P lays out MPI traces: the archive, the
 * definitions every one has, its end (otf2out.h). */
#include "report/otf2out.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/alloc.h"

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final) {
    (void)ud, (void)type, (void)loc, (void)caller, (void) final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc) {
    (void)ud, (void)type, (void)loc;
    return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

/* The first error the OTF2 library met while an archive was written (it
 * would otherwise print its own lines and go on): the archive then fails. */
static char write_error[256];
static OTF2_ErrorCallback previous_callback;

static OTF2_ErrorCode note_error(void *ud, const char *file, uint64_t line, const char *function,
                                 OTF2_ErrorCode code, const char *fmt, va_list va) {
    (void)ud, (void)file, (void)line, (void)function;
    if (!write_error[0]) {
        char text[160] = "";
        if (fmt) vsnprintf(text, sizeof text, fmt, va);
        snprintf(write_error, sizeof write_error, "%s: %s", OTF2_Error_GetDescription(code), text);
    }
    return code;
}

bool otf2out_writable(const char *dir, struct sim_error *err) {
    struct stat st;
    if (!dir) return true;
    if (lstat(dir, &st) == 0) {
        if (S_ISLNK(st.st_mode) && stat(dir, &st) != 0)
            return err_set(err,
                           "%s: a link to a path that does not exist; OTF2 archives are "
                           "written to a new folder",
                           dir);
        return err_set(err, "%s: already exists; OTF2 archives are written to a new folder", dir);
    }
    /* the folder made and removed: what the archive needs, found before a run */
    if (mkdir(dir, 0777) != 0)
        return err_set(err, "%s: cannot create the OTF2 archive's folder: %s", dir,
                       strerror(errno));
    struct statvfs fs; /* a full file system: said now, not after the run */
    bool full = statvfs(dir, &fs) == 0 && fs.f_bavail == 0;
    rmdir(dir);
    if (full) return err_set(err, "cannot write %s: its file system is full", dir);
    return true;
}

OTF2_Archive *otf2out_open(const char *dir, const char *creator, struct sim_error *err) {
    if (!otf2out_writable(dir, err)) return NULL;
    write_error[0] = '\0';
    previous_callback = OTF2_Error_RegisterCallback(note_error, NULL);
    OTF2_Archive *a =
        OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!a) {
        err_set(err, "%s: cannot create the OTF2 archive", dir);
        return NULL;
    }
    OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(a);
    OTF2_Archive_SetCreator(a, creator);
    OTF2_Archive_OpenEvtFiles(a);
    return a;
}

OTF2_GlobalDefWriter *otf2out_defs(OTF2_Archive *a, int32_t nranks, uint64_t length,
                                   uint32_t *next_string) {
    OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(a);
    OTF2_GlobalDefWriter_WriteClockProperties(d, OTF2OUT_TICKS_PER_SECOND, 0, length,
                                              OTF2_UNDEFINED_TIMESTAMP);
    static const char *const fixed[] = {
        "", "simpi", "machine", "Master thread", "MPI_COMM_WORLD", "MPI_COMM_SELF"};
    uint32_t s = 0;
    for (; s < sizeof fixed / sizeof fixed[0]; s++)
        OTF2_GlobalDefWriter_WriteString(d, s, fixed[s]);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, 1, 2, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int32_t r = 0; r < nranks; r++) {
        char name[32];
        snprintf(name, sizeof name, "MPI Rank %d", r);
        OTF2_GlobalDefWriter_WriteString(d, s, name);
        OTF2_GlobalDefWriter_WriteLocationGroup(d, (uint32_t)r, s++,
                                                OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(d, (uint64_t)r, 3, OTF2_LOCATION_TYPE_CPU_THREAD, 0,
                                           (uint32_t)r);
    }
    uint64_t *members = xmalloc(sizeof *members * (size_t)(nranks > 0 ? nranks : 1));
    for (int32_t r = 0; r < nranks; r++)
        members[r] = (uint64_t)r;
    OTF2_GlobalDefWriter_WriteGroup(d, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, (uint32_t)nranks, members);
    OTF2_GlobalDefWriter_WriteGroup(d, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, (uint32_t)nranks, members);
    OTF2_GlobalDefWriter_WriteGroup(d, 2, 0, OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, 0, members);
    free(members);
    OTF2_GlobalDefWriter_WriteComm(d, 0, 4, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_GlobalDefWriter_WriteComm(d, 1, 5, 2, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    *next_string = s;
    return d;
}

/* Removes what OTF2 wrote in the new folder dir. */
static void remove_archive(const char *dir, int32_t nranks) {
    static const char *const top[] = {"traces.otf2", "traces.def", "traces.thumb.0"};
    char path[4200];
    for (int32_t r = 0; r < nranks; r++) {
        snprintf(path, sizeof path, "%s/traces/%d.evt", dir, r);
        unlink(path);
        snprintf(path, sizeof path, "%s/traces/%d.def", dir, r);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/traces", dir);
    rmdir(path);
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, top[i]);
        unlink(path);
    }
    rmdir(dir);
}

bool otf2out_finish(OTF2_Archive *a, const char *dir, int32_t nranks, bool ok,
                    struct sim_error *err) {
    OTF2_Archive_CloseEvtFiles(a);
    if (ok) {
        OTF2_Archive_OpenDefFiles(a);
        for (int32_t r = 0; r < nranks; r++)
            OTF2_Archive_CloseDefWriter(a, OTF2_Archive_GetDefWriter(a, (OTF2_LocationRef)r));
        OTF2_Archive_CloseDefFiles(a);
    }
    if (OTF2_Archive_Close(a) != OTF2_SUCCESS && ok && !write_error[0])
        ok = err_set(err, "%s: cannot finish the OTF2 archive", dir);
    if (ok && write_error[0]) /* a file not written whole: a full disk, a folder gone... */
        ok = err_set(err, "%s: the OTF2 archive could not be written (%s)", dir, write_error);
    OTF2_Error_RegisterCallback(previous_callback, NULL);
    if (!ok) remove_archive(dir, nranks); /* the folder is ours: it was new */
    return ok;
}
