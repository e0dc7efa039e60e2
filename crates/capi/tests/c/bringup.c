/* Engine and queue bring-up over a C-side recording register block: every access the
 * library makes through the callbacks is printed ("R offset value" / "W offset value", hex),
 * for the Rust test to compare with khal's own trace over a recording fake.
 * Registers keep what is written (0 before); the revision register (offset argv[1]) reads 4.
 * Usage: bringup REV_OFFSET */
#include <neuron_hal.h>
#include <stdlib.h>

#include "check.h"
#include "recorder.h"

int main(int argc, char **argv) {
    static struct recorder rec;
    static struct al_udma_desc tx[64], rx[64];
    struct al_udma *udma;
    struct al_udma_q *q;
    if (argc < 2)
        return 100;
    *rec_reg(&rec, (size_t)strtoull(argv[1], 0, 0)) = 4; /* UDMA revision 4 */

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
    rec_print(&rec, 0);
    return check_failures;
}
