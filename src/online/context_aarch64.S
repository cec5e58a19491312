/* SPDX-License-Identifier: BSD-3-Clause */
/* Context switch for aarch64 (AAPCS64): saves x19-x30 and d8-d15 below the
 * current stack pointer, stores sp, and restores the other context.
 *   void simpi_ctx_swap(void **save_sp, void *load_sp)
 * A new context starts in simpi_ctx_start with entry in x19 and arg in x20. */
#if defined(__aarch64__)
    .text
    .globl simpi_ctx_swap
    .type simpi_ctx_swap, %function
simpi_ctx_swap:
    sub sp, sp, #160
    stp x19, x20, [sp, #0]
    stp x21, x22, [sp, #16]
    stp x23, x24, [sp, #32]
    stp x25, x26, [sp, #48]
    stp x27, x28, [sp, #64]
    stp x29, x30, [sp, #80]
    stp d8, d9, [sp, #96]
    stp d10, d11, [sp, #112]
    stp d12, d13, [sp, #128]
    stp d14, d15, [sp, #144]
    mov x9, sp
    str x9, [x0]
    mov sp, x1
    ldp x19, x20, [sp, #0]
    ldp x21, x22, [sp, #16]
    ldp x23, x24, [sp, #32]
    ldp x25, x26, [sp, #48]
    ldp x27, x28, [sp, #64]
    ldp x29, x30, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    add sp, sp, #160
    ret
    .size simpi_ctx_swap, .-simpi_ctx_swap

    .globl simpi_ctx_start
    .type simpi_ctx_start, %function
simpi_ctx_start:
    mov x0, x20
    blr x19
    brk #0
    .size simpi_ctx_start, .-simpi_ctx_start

/*   void simpi_call_on_stack(void (*fn)(void *), void *arg, void *top)
 * Calls fn(arg) with the stack pointer at top (16-byte aligned), then
 * returns on the caller's stack, kept in x29 meanwhile. */
    .globl simpi_call_on_stack
    .type simpi_call_on_stack, %function
simpi_call_on_stack:
    stp x29, x30, [sp, #-16]!
    mov x29, sp
    mov sp, x2
    mov x3, x0
    mov x0, x1
    blr x3
    mov sp, x29
    ldp x29, x30, [sp], #16
    ret
    .size simpi_call_on_stack, .-simpi_call_on_stack
#endif
    .section .note.GNU-stack,"",%progbits
