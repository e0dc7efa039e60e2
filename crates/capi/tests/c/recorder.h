/* A C-side recording register block for the capi tests: registers keep what is written (0
 * before, or a preset), and every access the library makes through the callbacks is kept
 * in order, to print as "R offset value" / "W offset value" (hex) for the Rust side to
 * compare with mmio's FakeRegs trace of the same steps. */
#ifndef CAPI_TEST_RECORDER_H
#define CAPI_TEST_RECORDER_H

#include <neuron_hal.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_ACCESSES 4096
#define MAX_REGS 1024

struct recorder {
    size_t off[MAX_ACCESSES];
    uint32_t val[MAX_ACCESSES];
    char op[MAX_ACCESSES];
    int n;
    size_t keys[MAX_REGS];
    uint32_t vals[MAX_REGS];
    int nk;
};

/* The register at `off` (created as 0). */
static inline uint32_t *rec_reg(struct recorder *r, size_t off) {
    for (int i = 0; i < r->nk; i++)
        if (r->keys[i] == off)
            return &r->vals[i];
    if (r->nk == MAX_REGS)
        abort();
    r->keys[r->nk] = off;
    r->vals[r->nk] = 0;
    return &r->vals[r->nk++];
}

static inline void rec_record(struct recorder *r, char op, size_t off, uint32_t v) {
    if (r->n == MAX_ACCESSES)
        abort();
    r->op[r->n] = op;
    r->off[r->n] = off;
    r->val[r->n++] = v;
}

static inline uint32_t rec_read32(void *ctx, size_t off) {
    struct recorder *r = (struct recorder *)ctx;
    uint32_t v = *rec_reg(r, off);
    rec_record(r, 'R', off, v);
    return v;
}

static inline void rec_write32(void *ctx, size_t off, uint32_t v) {
    struct recorder *r = (struct recorder *)ctx;
    *rec_reg(r, off) = v;
    rec_record(r, 'W', off, v);
}

/* Prints the accesses from `from` on. */
static inline void rec_print(const struct recorder *r, int from) {
    for (int i = from; i < r->n; i++)
        printf("%c %zx %x\n", r->op[i], r->off[i], r->val[i]);
}

#endif
