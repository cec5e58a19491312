/* SPDX-License-Identifier: BSD-3-Clause */
/* Runner for the context tests alone (built a second time on the ucontext
 * fallback, SIMPI_FORCE_UCONTEXT). */
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "online/context.h"
#include "test.h"

int test_failures;
extern const struct test_case context_tests[];

const char *test_write_temp(const char *suffix, const char *text) {
    (void)suffix;
    (void)text;
    return NULL;
}

int main(void) {
    printf("implementation: %s\n", ctx_implementation());
    for (const struct test_case *t = context_tests; t->name; t++) {
        int before = test_failures;
        t->fn();
        printf("%s %s\n", test_failures == before ? "ok  " : "FAIL", t->name);
    }
    return test_failures ? 1 : 0;
}
