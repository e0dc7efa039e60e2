/* Engine and queue bring-up over a C-side recording register block: every access the
 * library makes through the callbacks is printed ("R offset value" / "W offset value", hex),
 * for the Rust test to compare with khal's own trace over a recording fake.
 * Registers keep what is written (0 before); the revision register (offset argv[1]) reads 4.
 * Usage: bringup REV_OFFSET */
#include <neuron_hal.h>
#include <stdlib.h>

#include "check.h"

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

static uint32_t *reg(struct recorder *r, size_t off) {
    for (int i = 0; i < r->nk; i++)
        if (r->keys[i] == off)
            return &r->vals[i];
    if (r->nk == MAX_REGS)
        abort();
    r->keys[r->nk] = off;
    r->vals[r->nk] = 0;
    return &r->vals[r->nk++];
}

static void record(struct recorder *r, char op, size_t off, uint32_t v) {
    if (r->n == MAX_ACCESSES)
        abort();
    r->op[r->n] = op;
    r->off[r->n] = off;
    r->val[r->n++] = v;
}

static uint32_t rec_read32(void *ctx, size_t off) {
    struct recorder *r = (struct recorder *)ctx;
    uint32_t v = *reg(r, off);
    record(r, 'R', off, v);
    return v;
}

static void rec_write32(void *ctx, size_t off, uint32_t v) {
    struct recorder *r = (struct recorder *)ctx;
    *reg(r, off) = v;
    record(r, 'W', off, v);
}

int main(int argc, char **argv) {
    static struct recorder rec;
    static struct al_udma_desc tx[64], rx[64];
    struct al_udma *udma;
    struct al_udma_q *q;
    if (argc < 2)
        return 100;
    *reg(&rec, (size_t)strtoull(argv[1], 0, 0)) = 4; /* UDMA revision 4 */

    struct al_udma_params params = {{&rec, rec_read32, rec_write32, 0}, 16};
    struct al_udma_q_params t = {tx, 64, 0x10000}, r = {rx, 64, 0x20000};
    CHECK_RC(al_udma_init(&params, &udma), 0);
    CHECK_RC(al_udma_q_init(udma, 3, &t, &r), 0);
    CHECK_RC(al_udma_m2m_copy_prepare_one(udma, 3, 0x1000, 0x2000, 4096), 0);
    CHECK_RC(al_udma_m2m_copy_start(udma, 3, 1, 1), 0);
    CHECK_RC(al_udma_q_handle_get(udma, 3, 1, &q), 0);
    CHECK_RC(al_udma_q_enable(q, 0), 0);
    CHECK_RC(al_udma_q_enable(q, 1), 0);
    CHECK_RC(al_udma_desc_action_add(q, 1), 0);
    CHECK_RC(al_udma_destroy(udma), 0);
    for (int i = 0; i < rec.n; i++)
        printf("%c %zx %x\n", rec.op[i], rec.off[i], rec.val[i]);
    return check_failures;
}
