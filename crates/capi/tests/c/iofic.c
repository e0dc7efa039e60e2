/* The IOFIC calls of seed 004 §4 through the C ABI, over a C-side recording register block:
 *  1. the group primitives al_iofic_config / _unmask / _mask / _read_cause / _clear_cause on a
 *     level whose base is the UDMA unit's secondary controller (regs.base = 0x3a000), plus
 *     the refused calls, which must not touch a register;
 *  2. al_udma_iofic_m2s_error_ints_unmask and _s2m_ of generation NEURON_HAL_ARCH on an engine
 *     brought up over the recorder (revision 4), each call's accesses on their own.
 * Prints each part's trace for tests/iofic.rs, which runs the same steps with iofic::Group
 * and iofic::udma over mmio's FakeRegs. Usage: iofic REV_OFFSET */
#include <neuron_hal.h>
#include <stdlib.h>

#include "check.h"
#include "recorder.h"

/* The secondary level in a UDMA unit (iofic.tsv layout secondary_base_abs). */
#define LEVEL 0x3a000u

static void primitives(void) {
    static struct recorder rec;
    struct neuron_hal_regs regs = {&rec, rec_read32, rec_write32, LEVEL};
    *rec_reg(&rec, LEVEL + 0x40 + 0x10) = 0x00000c00; /* group 1's mask */
    *rec_reg(&rec, LEVEL + 0xc0 + 0x00) = 0x00001234; /* group 3's latched causes */
    uint32_t cause = 0;

    CHECK_RC(al_iofic_config(&regs, 2, 0x28), 0); /* SET_ON_POSEDGE | MASK_MSI_X */
    CHECK_RC(al_iofic_unmask(&regs, 2, 0x505), 0);
    CHECK_RC(al_iofic_mask(&regs, 1, 0x30), 0);
    CHECK_RC(al_iofic_read_cause(&regs, 3, &cause), 0);
    CHECK_RC(al_iofic_clear_cause(&regs, 3, 0x4), 0);
    CHECK_RC(al_iofic_config(&regs, 15, 0x8), 0); /* the level's last 0x40 window */
    CHECK(cause == 0x1234);

    /* Refused: no register is touched. */
    int before = rec.n;
    struct neuron_hal_regs no_read = regs;
    no_read.read32 = NULL;
    CHECK_RC(al_iofic_config(&regs, 16, 0x28), -EINVAL); /* 16 groups of 0x40 in 0x400 */
    CHECK(strstr(neuron_hal_last_error(), "al_iofic_config") && strstr(neuron_hal_last_error(), "0x10"));
    CHECK_RC(al_iofic_unmask(&regs, -1, 1), -EINVAL);
    CHECK_RC(al_iofic_mask(NULL, 0, 1), -EINVAL);
    CHECK_RC(al_iofic_clear_cause(&no_read, 0, 1), -EINVAL);
    CHECK_RC(al_iofic_read_cause(&regs, 0, NULL), -EINVAL);
    CHECK(strstr(neuron_hal_last_error(), "cause is NULL"));
    /* Misaligned pointers: refused before any access (never a misaligned Rust access). */
    static uint32_t words[4];
    static struct neuron_hal_regs copies[2];
    copies[0] = regs;
    const struct neuron_hal_regs *skewed = (const struct neuron_hal_regs *)((const char *)copies + 4);
    CHECK_RC(al_iofic_config(skewed, 0, 0x28), -EINVAL);
    CHECK(strstr(neuron_hal_last_error(), "misaligned"));
    CHECK_RC(al_iofic_read_cause(&regs, 0, (uint32_t *)((char *)words + 1)), -EINVAL);
    CHECK_RC(al_udma_revision_get(&regs, (uint32_t *)((char *)words + 2)), -EINVAL);
    CHECK_RC(al_udma_revision_get(&regs, NULL), -EINVAL);
    CHECK(rec.n == before);

    printf("primitives\n");
    rec_print(&rec, 0);
    printf("cause %x\n", cause);
}

static void error_ints(size_t rev_offset) {
    static struct recorder rec;
    struct al_udma *udma, *attached;
    *rec_reg(&rec, rev_offset) = 4; /* UDMA revision 4 */
    struct al_udma_params params = {{&rec, rec_read32, rec_write32, 0}, 16};
    CHECK_RC(al_udma_init(&params, &udma), 0);
    int mark = rec.n;
    CHECK_RC(al_udma_iofic_m2s_error_ints_unmask(udma), 0);
    printf("m2s\n");
    rec_print(&rec, mark);
    mark = rec.n;
    CHECK_RC(al_udma_iofic_s2m_error_ints_unmask(udma), 0);
    printf("s2m\n");
    rec_print(&rec, mark);
    CHECK_RC(al_udma_destroy(udma), 0);

    /* No register block, no handle, a destroyed handle: refused, nothing written. */
    mark = rec.n;
    CHECK_RC(al_udma_attach(1, &attached), 0);
    CHECK_RC(al_udma_iofic_m2s_error_ints_unmask(attached), -EOPNOTSUPP);
    CHECK_RC(al_udma_iofic_s2m_error_ints_unmask(NULL), -EINVAL);
    CHECK_RC(al_udma_iofic_s2m_error_ints_unmask(udma), -EBADF);
    CHECK_RC(al_udma_destroy(attached), 0);
    CHECK(rec.n == mark);
}

int main(int argc, char **argv) {
    if (argc < 2)
        return 100;
    primitives();
    error_ints((size_t)strtoull(argv[1], 0, 0));
    return check_failures;
}
