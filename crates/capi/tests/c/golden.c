/* Byte identity: every descriptor pair of the driver's golden vectors
 * (tests/data/desc-vectors-sample.tsv, a copy of reference/desc-vectors-sample.tsv) built
 * through the C ABI of generation NEURON_HAL_ARCH.
 *
 * Per case: al_udma_m2m_build_copy_descriptor with the case's ring ids must give the
 * kernel's 16 + 16 bytes (size 0, which the kernel encodes as 64 KiB, is refused with
 * -EINVAL and the same request for 65536 bytes gives the kernel's bytes); a case the kernel
 * refuses (-22 bad barrier, -1 size above 64 KiB) returns -EINVAL and writes nothing; SOW
 * on V2 returns -EINVAL. Then every buildable case goes through a ring as one batch, and
 * the first through copy_prepare_one: the slots must hold the builder's bytes with the
 * ring's id (1).
 * Usage: golden VECTORS.tsv ; prints "cases N built B refused R" */
#include <neuron_hal.h>
#include <stdlib.h>

#include "check.h"

#define MAX_CASES 64

struct vcase {
    unsigned id, tx_rid, rx_rid, size, barrier, dst_int;
    unsigned long long src, dst;
    int rc;
    unsigned char tx[16], rx[16];
};

static int hex16(const char *h, unsigned char out[16]) {
    for (int i = 0; i < 16; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1)
            return 0;
        out[i] = (unsigned char)v;
    }
    return 1;
}

static int load(const char *path, struct vcase *cs) {
    FILE *f = fopen(path, "r");
    char line[512], txh[64], rxh[64];
    int n = 0;
    if (!f)
        return -1;
    if (!fgets(line, sizeof line, f)) /* header row */
        return -1;
    while (n < MAX_CASES && fgets(line, sizeof line, f)) {
        struct vcase *c = &cs[n];
        if (sscanf(line, "%u %u %u %llx %llx %u %u %u %d %63s %63s", &c->id, &c->tx_rid,
                   &c->rx_rid, &c->src, &c->dst, &c->size, &c->barrier, &c->dst_int, &c->rc,
                   txh, rxh) != 11 ||
            !hex16(txh, c->tx) || !hex16(rxh, c->rx))
            return -1;
        n++;
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv) {
    static struct vcase cs[MAX_CASES];
    static struct al_udma_m2m_copy_req reqs[MAX_CASES];
    static struct al_udma_desc txr[128], rxr[128];
    struct al_udma_desc pair[2];
    int n = argc > 1 ? load(argv[1], cs) : -1, built = 0, refused = 0, nreq = 0;
    if (n <= 0) {
        fprintf(stderr, "cannot read the vectors\n");
        return 100;
    }
    for (int i = 0; i < n; i++) {
        const struct vcase *c = &cs[i];
        unsigned size = c->size == 0 ? 65536 : c->size;
        int v2_sow = NEURON_HAL_ARCH == 2 && c->barrier == AL_UDMA_BARRIER_SOW;
        if (c->size == 0) /* the kernel's silent 64 KiB: refused here */
            CHECK_RC(al_udma_m2m_build_copy_descriptor(&pair[1], &pair[0], c->rx_rid, c->tx_rid,
                                                       c->src, c->dst, 0, c->barrier,
                                                       c->dst_int),
                     -EINVAL);
        memset(pair, 0xA5, sizeof pair);
        int rc = al_udma_m2m_build_copy_descriptor(&pair[1], &pair[0], c->rx_rid, c->tx_rid,
                                                   c->src, c->dst, size, c->barrier,
                                                   c->dst_int);
        if (c->rc != 0 || v2_sow) {
            CHECK(rc == -EINVAL);
            CHECK(all_bytes(pair, sizeof pair, 0xA5)); /* nothing written */
            refused++;
            continue;
        }
        CHECK(rc == 0);
        if (memcmp(&pair[0], c->tx, 16) || memcmp(&pair[1], c->rx, 16)) {
            fprintf(stderr, "case %u: bytes differ from the vector\n", c->id);
            check_failures++;
        }
        built++;
        reqs[nreq++] = (struct al_udma_m2m_copy_req){c->src, c->dst, size, c->barrier,
                                                     c->dst_int};
    }

    /* The same requests through a ring as one batch (ring id 1 on a fresh ring). */
    struct al_udma *udma;
    struct al_udma_q_params t = {txr, 128, 0x100000}, r = {rxr, 128, 0x200000};
    struct al_udma_slots where;
    CHECK_RC(al_udma_attach(AL_UDMA_NUM_QUEUES_ALL, &udma), 0);
    CHECK_RC(al_udma_q_init(udma, 5, &t, &r), 0);
    CHECK_RC(al_udma_m2m_copy_prepare_batch(udma, 5, reqs, (uint32_t)nreq, &where), 0);
    CHECK(where.tx_start == 0 && where.tx_count == (uint32_t)nreq && where.rx_start == 0);
    for (int i = 0; i < nreq; i++) {
        const struct al_udma_m2m_copy_req *q = &reqs[i];
        CHECK_RC(al_udma_m2m_build_copy_descriptor(&pair[1], &pair[0], 1, 1, q->src, q->dst,
                                                   q->size, q->barrier, q->dst_int),
                 0);
        CHECK(memcmp(&txr[i], &pair[0], 16) == 0 && memcmp(&rxr[i], &pair[1], 16) == 0);
    }
    /* The single call: the next slot, no barrier, no interrupt. */
    CHECK_RC(al_udma_m2m_copy_prepare_one(udma, 5, reqs[0].src, reqs[0].dst, reqs[0].size), 0);
    CHECK_RC(al_udma_m2m_build_copy_descriptor(&pair[1], &pair[0], 1, 1, reqs[0].src,
                                               reqs[0].dst, reqs[0].size, 0, 0),
             0);
    CHECK(memcmp(&txr[nreq], &pair[0], 16) == 0 && memcmp(&rxr[nreq], &pair[1], 16) == 0);
    CHECK_RC(al_udma_destroy(udma), 0);
    printf("cases %d built %d refused %d\n", n, built, refused);
    return check_failures;
}
