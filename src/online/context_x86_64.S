/* SPDX-License-Identifier: BSD-3-Clause */
/* Context switch for x86-64 (System V ABI): saves the callee-saved registers
 * and the x87/SSE control words on the current stack, stores the stack
 * pointer, and restores the other context the same way.
 *   void simpi_ctx_swap(void **save_sp, void *load_sp)
 * A new context's stack is prepared by ctx_init so that the first swap to it
 * "returns" into simpi_ctx_start, which calls entry(arg) from r12/r13. */
#if defined(__x86_64__)
    .text
    .globl simpi_ctx_swap
    .type simpi_ctx_swap, @function
simpi_ctx_swap:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size simpi_ctx_swap, .-simpi_ctx_swap

    .globl simpi_ctx_start
    .type simpi_ctx_start, @function
simpi_ctx_start:
    movq %r12, %rdi
    callq *%r13
    ud2
    .size simpi_ctx_start, .-simpi_ctx_start

/*   void simpi_call_on_stack(void (*fn)(void *), void *arg, void *top)
 * Calls fn(arg) with the stack pointer at top (16-byte aligned), then
 * returns on the caller's stack, kept in rbp meanwhile. */
    .globl simpi_call_on_stack
    .type simpi_call_on_stack, @function
simpi_call_on_stack:
    .cfi_startproc
    pushq %rbp
    .cfi_def_cfa_offset 16
    .cfi_offset %rbp, -16
    movq %rsp, %rbp
    .cfi_def_cfa_register %rbp
    movq %rdx, %rsp
    movq %rdi, %rax
    movq %rsi, %rdi
    callq *%rax
    movq %rbp, %rsp
    .cfi_def_cfa_register %rsp
    popq %rbp
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size simpi_call_on_stack, .-simpi_call_on_stack
#endif
    .section .note.GNU-stack,"",@progbits
