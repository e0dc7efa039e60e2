/* Bad input from C: every refused call returns its -errno, writes nothing (rings and
 * out-structs keep a 0xA5 pattern, ring state is unchanged) and the process goes on.
 * Usage: bad_input EMPTY_DIR REV_OFFSET ; prints "survived N checks" */
#include <neuron_hal.h>
#include <stdlib.h>

#include "check.h"

#define RING 32 /* 16 usable slots: 16 stay in reserve */

static struct al_udma_desc tx[RING], rx[RING];
static int checks;
#define EXPECT(call, want) do { checks++; CHECK_RC(call, want); } while (0)

static int rings_untouched(int from) {
    return all_bytes(&tx[from], sizeof(tx[0]) * (RING - from), 0xA5) &&
           all_bytes(&rx[from], sizeof(rx[0]) * (RING - from), 0xA5);
}

static int named(const char *fn) { return strstr(neuron_hal_last_error(), fn) != NULL; }

/* Re-entry from a register callback: the engine is busy, so the call is refused. */
static struct al_udma *reenter;
static int reentry_rc = 1;
static size_t rev_offset;
static uint32_t rd(void *ctx, size_t off) { (void)ctx; return off == rev_offset ? 4 : 0; }
static void wr(void *ctx, size_t off, uint32_t v) {
    (void)ctx; (void)off; (void)v;
    if (reenter && reentry_rc == 1)
        reentry_rc = al_udma_m2m_copy_prepare_one(reenter, 0, 0x1000, 0x2000, 64);
}

int main(int argc, char **argv) {
    struct al_udma *udma, *other;
    struct al_udma_q *q;
    struct al_udma_slots slots;
    struct al_udma_q_params t = {tx, RING, 0x10000}, r = {rx, RING, 0x20000};
    if (argc < 3)
        return 100;
    rev_offset = (size_t)strtoull(argv[2], 0, 0);
    /* The NDL's state is process-wide: its root comes first. */
    EXPECT(ndl_set_device_root(NULL), -EINVAL);
    EXPECT(ndl_set_device_root(argv[1]), 0);
    memset(tx, 0xA5, sizeof tx);
    memset(rx, 0xA5, sizeof rx);

    /* NULL and foreign handles. */
    EXPECT(al_udma_m2m_copy_prepare_one(NULL, 0, 0x1000, 0x2000, 64), -EINVAL);
    CHECK(named("al_udma_m2m_copy_prepare_one") && strstr(neuron_hal_last_error(), "NULL"));
    EXPECT(al_udma_destroy(NULL), -EINVAL);
    EXPECT(al_udma_available_get(NULL), -EINVAL);
    EXPECT(al_udma_attach(16, NULL), -EINVAL);
    EXPECT(al_udma_init(NULL, &udma), -EINVAL);
    EXPECT(al_udma_m2m_copy_prepare_one((struct al_udma *)&t, 0, 0, 0, 64), -EBADF);
    EXPECT(ndl_close_device(NULL), -EINVAL);
    EXPECT(ndl_munmap(NULL), -EINVAL);

    /* Queue counts and queue ids. */
    EXPECT(al_udma_attach(0, &udma), -EINVAL);
    EXPECT(al_udma_attach(17, &udma), -EINVAL);
    EXPECT(al_udma_attach(4, &udma), 0);
    EXPECT(al_udma_q_init(udma, 4, &t, &r), -EINVAL); /* above the queue count */
    EXPECT(al_udma_q_init(udma, 16, &t, &r), -EINVAL);
    EXPECT(al_udma_q_init(udma, 0xFFFFFFFFu, &t, &r), -EINVAL);
    EXPECT(al_udma_q_init(udma, 0, NULL, &r), -EINVAL);
    EXPECT(al_udma_q_handle_get(udma, 4, 0, &q), -EINVAL);
    EXPECT(al_udma_m2m_copy_prepare_one(udma, 1, 0x1000, 0x2000, 64), -EINVAL); /* no rings */
    CHECK(named("al_udma_q_init first"));

    /* Ring memory and geometry. */
    struct al_udma_q_params bad = t;
    bad.ring = (struct al_udma_desc *)((char *)tx + 4);
    EXPECT(al_udma_q_init(udma, 0, &bad, &r), -EINVAL); /* misaligned */
    bad = t, bad.ring = NULL;
    EXPECT(al_udma_q_init(udma, 0, &bad, &r), -EINVAL);
    bad = t, bad.size = 48;
    EXPECT(al_udma_q_init(udma, 0, &bad, &r), -EINVAL); /* not a power of two */
    bad = t, bad.size = 16;
    EXPECT(al_udma_q_init(udma, 0, &bad, &r), -EINVAL); /* below 32 */
    bad = t, bad.bus_addr = 0x10010;
    EXPECT(al_udma_q_init(udma, 0, &bad, &r), -EINVAL); /* not 256-byte aligned */
    EXPECT(al_udma_q_init(udma, 0, &t, &r), 0);
    CHECK(rings_untouched(0));

    /* Sizes 0 and 65537, bad barriers: refused, nothing taken, nothing written. */
    EXPECT(al_udma_m2m_copy_prepare_one(udma, 0, 0x1000, 0x2000, 0), -EINVAL);
    CHECK(named("transfer size 0"));
    EXPECT(al_udma_m2m_copy_prepare_one(udma, 0, 0x1000, 0x2000, 65537), -EINVAL);
    CHECK(named("65537"));
    struct al_udma_m2m_copy_req reqs[RING];
    for (int i = 0; i < RING; i++)
        reqs[i] = (struct al_udma_m2m_copy_req){0x1000u + 64u * (unsigned)i, 0x2000, 64, 0, 0};
    reqs[3].barrier = 4;
    EXPECT(al_udma_m2m_copy_prepare_batch(udma, 0, reqs, 8, &slots), -EINVAL);
    EXPECT(al_udma_q_handle_get(udma, 0, 0, &q), 0);
    EXPECT(al_udma_available_get(q), RING - 16); /* no slot taken */
    CHECK(rings_untouched(8)); /* the batch's free slots may have been written */
    memset(tx, 0xA5, sizeof tx);
    memset(rx, 0xA5, sizeof rx);
    reqs[3].barrier = AL_UDMA_BARRIER_SOW;
    EXPECT(al_udma_m2m_copy_prepare_batch(udma, 0, reqs, 8, &slots),
           NEURON_HAL_ARCH == 2 ? -EINVAL : 0); /* SOW: not on V2 */
    reqs[3].barrier = 0;
    if (NEURON_HAL_ARCH == 2) { /* refused as the bad barrier was: no slot taken */
        EXPECT(al_udma_available_get(q), RING - 16);
        CHECK(rings_untouched(8));
    } else { /* give the 8 slots back: outstanding until acknowledged */
        struct al_udma_q *tq, *rq;
        EXPECT(al_udma_q_handle_get(udma, 0, 0, &tq), 0);
        EXPECT(al_udma_q_handle_get(udma, 0, 1, &rq), 0);
        EXPECT(al_udma_cdesc_ack(tq, 9), -EINVAL); /* more than outstanding */
        EXPECT(al_udma_cdesc_ack(tq, 8), 0);
        EXPECT(al_udma_cdesc_ack(rq, 8), 0);
    }
    memset(tx, 0xA5, sizeof tx);
    memset(rx, 0xA5, sizeof rx);
    EXPECT(al_udma_m2m_copy_prepare_batch(udma, 0, NULL, 4, &slots), -EINVAL);
    EXPECT(al_udma_m2m_build_copy_descriptor(NULL, &tx[0], 1, 1, 0, 0, 64, 0, 0), -EINVAL);
    EXPECT(al_udma_m2m_build_copy_descriptor(&rx[0], &tx[0], 4, 1, 0, 0, 64, 0, 0), -EINVAL);
    EXPECT(al_udma_m2m_build_copy_descriptor(&rx[0], &tx[0], 1, 1, 0, 0, 65537, 0, 0), -EINVAL);
    CHECK(rings_untouched(0));

    /* Full rings: the 16 usable slots, then -ENOMEM with nothing written. */
    EXPECT(al_udma_q_handle_get(udma, 0, 0, &q), 0);
    int start = al_udma_available_get(q);
    CHECK(start == RING - 16);
    EXPECT(al_udma_m2m_copy_prepare_batch(udma, 0, reqs, (uint32_t)start + 1, &slots), -ENOMEM);
    CHECK(rings_untouched(0));
    for (int i = 0; i < start; i++)
        EXPECT(al_udma_m2m_copy_prepare_one(udma, 0, 0x1000, 0x2000, 64), 0);
    EXPECT(al_udma_available_get(q), 0);
    EXPECT(al_udma_m2m_copy_prepare_one(udma, 0, 0x1000, 0x2000, 64), -ENOMEM);
    CHECK(named("ring full"));
    int used = start + (NEURON_HAL_ARCH == 2 ? 0 : 8); /* V3/V4 took 8 slots above */
    CHECK(rings_untouched(used));
    struct al_udma_m2m_block blk = {0x1000, 0x2000, 64};
    EXPECT(al_udma_m2m_build_packet(udma, 0, &blk, 1, NULL, &slots), -ENOMEM);
    struct al_udma_m2m_crc_req crc = {0x1000, 0x3000, 64, 0, 0, 0, 0, 0, 0};
    EXPECT(al_udma_m2m_crc_prepare_one(udma, 0, &crc, &slots), -ENOMEM);
    EXPECT(al_udma_m2m_reserve_descriptors(udma, 0, 1, &slots), -ENOMEM);
    CHECK(rings_untouched(used));

    /* Packets, reservations, doorbells on an engine without registers. */
    EXPECT(al_udma_q_init(udma, 2, &t, &r), 0); /* fresh state, same memory */
    memset(tx, 0xA5, sizeof tx);
    memset(rx, 0xA5, sizeof rx);
    EXPECT(al_udma_m2m_build_packet(udma, 2, &blk, 0, NULL, &slots), -EINVAL);
    struct al_udma_m2m_packet_opts opts = {0, 0, 0, 0, 1};
    EXPECT(al_udma_m2m_build_packet(udma, 2, &blk, 1, &opts, &slots), -EINVAL);
    opts = (struct al_udma_m2m_packet_opts){0, 0, 1, 4, 0}; /* CME index above 3 */
    EXPECT(al_udma_m2m_build_packet(udma, 2, &blk, 1, &opts, &slots), -EINVAL);
    crc.iv_index = 8;
    EXPECT(al_udma_m2m_crc_prepare_one(udma, 2, &crc, &slots), -EINVAL);
    EXPECT(al_udma_m2m_set_descriptors(udma, 2, tx, rx, 1), -EINVAL); /* nothing reserved */
    CHECK(rings_untouched(0));
    EXPECT(al_udma_m2m_reserve_descriptors(udma, 2, 2, &slots), 0);
    EXPECT(al_udma_m2m_reserve_descriptors(udma, 2, 2, &slots), -EINVAL); /* one waits */
    EXPECT(al_udma_m2m_set_descriptors(udma, 2, tx, rx, 3), -EINVAL);     /* wrong count */
    EXPECT(al_udma_m2m_copy_start(udma, 2, 1, 1), -EOPNOTSUPP);
    EXPECT(al_udma_q_handle_get(udma, 2, 1, &q), 0);
    EXPECT(al_udma_desc_action_add(q, 1), -EOPNOTSUPP);
    EXPECT(al_udma_desc_action_add(q, 0), -EINVAL);
    EXPECT(al_udma_desc_action_add(q, RING + 1), -EINVAL);
    EXPECT(al_udma_q_enable(q, 1), -EOPNOTSUPP);
    EXPECT(al_udma_iofic_m2s_error_ints_unmask(udma), -EOPNOTSUPP);

    /* Another generation's function, then calls after destroy. */
    EXPECT(al_udma_attach_v2(16, &other), 0);
    EXPECT(al_udma_m2m_copy_prepare_one_v3(other, 0, 0x1000, 0x2000, 64), -EINVAL);
    CHECK(named("a V2 engine"));
    EXPECT(al_udma_destroy_v2(other), 0);
    EXPECT(al_udma_destroy(udma), 0);
    EXPECT(al_udma_destroy(udma), -EBADF);
    CHECK(named("destroyed"));
    EXPECT(al_udma_m2m_copy_prepare_one(udma, 0, 0x1000, 0x2000, 64), -EBADF);
    EXPECT(al_udma_available_get(q), -EBADF);
    EXPECT(al_udma_q_handle_get(udma, 0, 0, &q), -EBADF);

    /* Re-entry from a register callback while the engine is in use: -EBUSY. */
    struct al_udma_params params = {{NULL, rd, wr, 0}, 16};
    EXPECT(al_udma_init(&params, &udma), 0);
    reenter = udma;
    EXPECT(al_udma_q_init(udma, 0, &t, &r), 0);
    reenter = NULL;
    CHECK(reentry_rc == -EBUSY);
    params.regs.write32 = NULL;
    EXPECT(al_udma_init(&params, &other), -EINVAL);
    EXPECT(al_udma_m2m_copy_start(udma, 0, 0, 0), -EINVAL); /* RX count 0 */
    EXPECT(al_udma_m2m_copy_start(udma, 0, 1, RING + 1), -EINVAL);
    EXPECT(al_udma_destroy(udma), 0);

    /* The IOFIC primitives and the revision read. */
    uint32_t v;
    EXPECT(al_iofic_unmask(NULL, 0, 1), -EINVAL);
    EXPECT(al_iofic_config(&params.regs, 16, 0x28), -EINVAL); /* write32 NULL too */
    params.regs.write32 = wr;
    EXPECT(al_iofic_config(&params.regs, 16, 0x28), -EINVAL);
    EXPECT(al_iofic_config(&params.regs, -1, 0x28), -EINVAL);
    EXPECT(al_iofic_read_cause(&params.regs, 0, NULL), -EINVAL);
    EXPECT(al_udma_revision_get(&params.regs, NULL), -EINVAL);
    EXPECT(al_udma_revision_get(&params.regs, &v), 0);

    /* The NDL: an index above 63, a root without nodes, a second root. */
    EXPECT(ndl_device_ioctl(64, 0, NULL), -EINVAL);
    struct ndl_device *dev;
    EXPECT(ndl_open_device(0, &dev), -ENOENT);
    EXPECT(ndl_open_device(0, NULL), -EINVAL);
    EXPECT(ndl_device_ioctl(0, 0, NULL), -ENOENT);
    EXPECT(ndl_misc_ioctl(0, NULL), -ENOENT);
    EXPECT(ndl_set_device_root("/"), -EBUSY);
    EXPECT(neuron_hal_generation_from_pci_device_id(0x1234), -ENODEV);

    printf("survived %d checks\n", checks);
    return check_failures;
}
