/* The ring builders of seed 004 §1 through the C ABI of generation NEURON_HAL_ARCH: packets
 * (al_udma_m2m_build_packet), CRC operations (al_udma_m2m_crc_prepare_one) and the bulk
 * reserve + set pair (al_udma_m2m_reserve_descriptors / al_udma_m2m_set_descriptors), on an
 * attached engine over process-memory rings. Every step prints its return value, the slots
 * it reports, the descriptors in those slots and the free room on both rings, in the format
 * of tests/builders.rs, which runs the same steps on udma-desc's Rust builders and compares.
 * The seed's bit-level facts are also checked here, next to the bytes.
 * Usage: builders ; exit status = failed checks */
#include <neuron_hal.h>
#include <stdlib.h>

#include "check.h"

#define SMALL 32  /* queue 0: 16 usable slots (16 stay in reserve, udma-notes.md §4) */
#define LARGE 256 /* queue 1: room for the largest packet of every generation */
/* Seed 004 §1 build_packet: "0x80 SUNDA / 0x41 CAYMAN+MARIANA" TX descriptors per packet. */
#define CAP (NEURON_HAL_ARCH == 2 ? 0x80u : 0x41u)

/* len_ctrl bits named by seed 004 §1 (set_first/set_last/set_concat, build_packet's RX
 * 0x20000000, build_cme_packet's 0x04800000) and the ring id at bits 25:24. */
#define FIRST 0x04000000u
#define LAST 0x08000000u
#define CONCAT 0x80000000u
#define META 0x00800000u
#define SOW 0x20000000u
#define RID(w) (((w) >> 24) & 3u)

static struct al_udma_desc tx0[SMALL], rx0[SMALL], tx1[LARGE], rx1[LARGE];
static struct al_udma *udma;
static struct al_udma_q *tq[2], *rq[2];

struct ring {
    struct al_udma_desc *tx, *rx;
    uint32_t size;
};
static const struct ring rings[2] = {{tx0, rx0, SMALL}, {tx1, rx1, LARGE}};

static void dump(char which, const struct al_udma_desc *r, uint32_t size, uint32_t start, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = (start + i) % size;
        printf("%c %u %08x %08x %08x %08x\n", which, k, r[k].words[0], r[k].words[1], r[k].words[2],
               r[k].words[3]);
    }
}

/* One step's report: rc, then the slots and their bytes (success) or the sentence (failure),
 * then the room left on both rings of queue q. */
static void report(const char *step, uint32_t q, int rc, const struct al_udma_slots *s) {
    printf("step %s rc %d\n", step, rc);
    if (rc == 0 && s) {
        printf("slots tx %u+%u rx %u+%u\n", s->tx_start, s->tx_count, s->rx_start, s->rx_count);
        dump('T', rings[q].tx, rings[q].size, s->tx_start, s->tx_count);
        dump('R', rings[q].rx, rings[q].size, s->rx_start, s->rx_count);
    } else if (rc != 0) {
        printf("err %s\n", neuron_hal_last_error());
    }
    printf("avail %d %d\n", al_udma_available_get(tq[q]), al_udma_available_get(rq[q]));
}

/* A refused call wrote nothing: both rings of queue q are byte-identical to the snapshot. */
static struct al_udma_desc snap_tx[LARGE], snap_rx[LARGE];
static void snapshot(uint32_t q) {
    memcpy(snap_tx, rings[q].tx, rings[q].size * sizeof(struct al_udma_desc));
    memcpy(snap_rx, rings[q].rx, rings[q].size * sizeof(struct al_udma_desc));
}
static int unchanged(uint32_t q) {
    return !memcmp(snap_tx, rings[q].tx, rings[q].size * sizeof(struct al_udma_desc)) &&
           !memcmp(snap_rx, rings[q].rx, rings[q].size * sizeof(struct al_udma_desc));
}

static void packets(void) {
    struct al_udma_slots s;
    struct al_udma_m2m_block b[3] = {{0x1000, 0x9000, 100}, {0x2000, 0xa000, 65536}, {0x3000, 0xb000, 1}};
    /* CME meta descriptor (index 2), write barrier, destination interrupt. */
    struct al_udma_m2m_packet_opts o = {AL_UDMA_BARRIER_WRITE, 1, 1, 2, 0};
    int rc = al_udma_m2m_build_packet(udma, 0, b, 3, &o, &s);
    report("packet-cme", 0, rc, &s);
    CHECK(rc == 0 && s.tx_count == 4 && s.rx_count == 3);
    /* build_cme_packet: meta_w0 = (cme_index << 24) | 0x04800000, exactly. */
    CHECK(tx0[s.tx_start].words[0] == ((2u << 24) | 0x04800000u));
    /* build_packet: FIRST on the first data descriptor, LAST on the last, CONCAT on each when
     * a CME descriptor leads (concat = (cme != 0)); ring id 1 on the first pass. */
    CHECK((tx0[1].words[0] & (FIRST | LAST | CONCAT)) == (FIRST | CONCAT) && RID(tx0[1].words[0]) == 1);
    CHECK((tx0[2].words[0] & (FIRST | LAST | CONCAT)) == CONCAT);
    CHECK((tx0[3].words[0] & (FIRST | LAST | CONCAT)) == (LAST | CONCAT));
    CHECK((tx0[2].words[0] & 0xffffu) == 0); /* 65536 is written as length 0 */
    CHECK(rx0[0].words[2] == 0x9000 && tx0[1].words[2] == 0x1000);

    b[0] = (struct al_udma_m2m_block){0x4000, 0xc000, 4096};
    b[1] = (struct al_udma_m2m_block){0x5000, 0xd000, 4096};
    rc = al_udma_m2m_build_packet(udma, 0, b, 2, NULL, &s); /* NULL options: none */
    report("packet-plain", 0, rc, &s);
    CHECK(rc == 0 && (tx0[s.tx_start].words[0] & (FIRST | LAST | CONCAT | META)) == FIRST);

    o = (struct al_udma_m2m_packet_opts){AL_UDMA_BARRIER_DMB, 0, 0, 0, 0};
    rc = al_udma_m2m_build_packet(udma, 0, b, 1, &o, &s);
    report("packet-dmb", 0, rc, &s);
    CHECK(rc == 0);

    /* Strong-ordered RX writes: refused on SUNDA ("udma strong ordering not supported in
     * TRN1!"), RX bit 29 on every RX descriptor elsewhere. */
    o = (struct al_udma_m2m_packet_opts){AL_UDMA_BARRIER_SOW, 0, 0, 0, 0};
    snapshot(0);
    rc = al_udma_m2m_build_packet(udma, 0, b, 2, &o, &s);
    report("packet-sow", 0, rc, &s);
    if (NEURON_HAL_ARCH == 2) {
        CHECK(rc == -EINVAL && unchanged(0));
    } else {
        CHECK(rc == 0 && (rx0[s.rx_start].words[0] & SOW) && (rx0[s.rx_start + 1].words[0] & SOW));
    }

    /* The notification mask is V4-only (seed); on V4 its bits are in no source: refused. */
    o = (struct al_udma_m2m_packet_opts){0, 0, 0, 0, 1};
    snapshot(0);
    rc = al_udma_m2m_build_packet(udma, 0, b, 1, &o, &s);
    report("packet-notif", 0, rc, &s);
    CHECK(rc == -EINVAL && unchanged(0));
    rc = al_udma_m2m_build_packet(udma, 0, NULL, 0, NULL, &s);
    report("packet-empty", 0, rc, &s);
    CHECK(rc == -EINVAL && unchanged(0));
}

static void cap(void) {
    static struct al_udma_m2m_block b[0x81];
    struct al_udma_slots s;
    for (uint32_t i = 0; i <= CAP; i++)
        b[i] = (struct al_udma_m2m_block){0x100000 + 4096ull * i, 0x800000 + 4096ull * i, 4096};
    snapshot(1);
    int rc = al_udma_m2m_build_packet(udma, 1, b, CAP + 1, NULL, &s);
    report("packet-over-cap", 1, rc, &s);
    CHECK(rc == -EINVAL && unchanged(1));
    rc = al_udma_m2m_build_packet(udma, 1, b, CAP, NULL, &s);
    report("packet-cap", 1, rc, &s);
    CHECK(rc == 0 && s.tx_count == CAP && s.rx_count == CAP);
}

static void crcs(void) {
    struct al_udma_slots s;
    struct al_udma_m2m_crc_req seeded = {0x6000, 0xe000, 4096, 0xffffffffu, 1, 0, 1, 0, 0};
    int rc = al_udma_m2m_crc_prepare_one(udma, 0, &seeded, &s);
    report("crc-seed", 0, rc, &s);
    /* crc_prepare_one "reserves two TX descriptors plus one RX". */
    CHECK(rc == 0 && s.tx_count == 2 && s.rx_count == 1);
    struct al_udma_m2m_crc_req cached = {0x7000, 0xe010, 65536, 0, 0, 5, 2, 1, 1};
    rc = al_udma_m2m_crc_prepare_one(udma, 0, &cached, &s);
    report("crc-cached", 0, rc, &s);
    CHECK(rc == 0);
    cached.iv_index = 8;
    snapshot(0);
    rc = al_udma_m2m_crc_prepare_one(udma, 0, &cached, &s);
    report("crc-bad-iv", 0, rc, &s);
    CHECK(rc == -EINVAL && unchanged(0));
}

/* Prebuilt descriptors with bits 25:24 clear: set_descriptors ORs the slot's ring id in. */
static void prebuilt(struct al_udma_desc *t, struct al_udma_desc *r, uint32_t n, uint32_t tag) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len = 64 * (i + 1);
        t[i] = (struct al_udma_desc){{FIRST | LAST | len, 0x01080003u, tag + 0x100 * i, 0}};
        r[i] = (struct al_udma_desc){{len, 0, tag + 0x80000 + 0x100 * i, 0}};
    }
}

static void reserve_set(uint32_t n, uint32_t tag, const char *reserve_step, const char *set_step) {
    struct al_udma_desc t[16], r[16];
    struct al_udma_slots s;
    prebuilt(t, r, n, tag);
    int rc = al_udma_m2m_reserve_descriptors(udma, 0, n, &s);
    report(reserve_step, 0, rc, NULL);
    printf("slots tx %u+%u rx %u+%u\n", s.tx_start, s.tx_count, s.rx_start, s.rx_count);
    CHECK(rc == 0 && s.tx_count == n && s.rx_count == n);
    /* One reservation waits at a time; the set must give exactly its count. */
    struct al_udma_slots again;
    CHECK_RC(al_udma_m2m_reserve_descriptors(udma, 0, 1, &again), -EINVAL);
    CHECK_RC(al_udma_m2m_set_descriptors(udma, 0, t, r, n - 1), -EINVAL);
    rc = al_udma_m2m_set_descriptors(udma, 0, t, r, n);
    report(set_step, 0, rc, &s);
    CHECK(rc == 0);
    /* Seed: "OR-ing the ring-id phase (rid<<24) & 0x3000000 into each"; ids 1, 2, 3, 0 by
     * pass (udma-notes.md: initial ring id 1, mask 0x3). */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t kt = (s.tx_start + i) % SMALL, idt = s.tx_start + i < SMALL ? 1u : 2u;
        uint32_t kr = (s.rx_start + i) % SMALL, idr = s.rx_start + i < SMALL ? 1u : 2u;
        CHECK(tx0[kt].words[0] == (t[i].words[0] | (idt << 24)) && tx0[kt].words[1] == t[i].words[1]);
        CHECK(rx0[kr].words[0] == (r[i].words[0] | (idr << 24)) && rx0[kr].words[2] == r[i].words[2]);
    }
}

/* Hands back everything outstanding on queue 0 (the engine completed it, say). */
static void ack_all(const char *step) {
    int t = SMALL - 16 - al_udma_available_get(tq[0]), r = SMALL - 16 - al_udma_available_get(rq[0]);
    CHECK_RC(al_udma_cdesc_ack(tq[0], (uint32_t)t), 0);
    CHECK_RC(al_udma_cdesc_ack(rq[0], (uint32_t)r), 0);
    printf("step %s tx %d rx %d\n", step, t, r);
    printf("avail %d %d\n", al_udma_available_get(tq[0]), al_udma_available_get(rq[0]));
}

int main(void) {
    struct al_udma_q_params t0 = {tx0, SMALL, 0x10000}, r0 = {rx0, SMALL, 0x20000};
    struct al_udma_q_params t1 = {tx1, LARGE, 0x30000}, r1 = {rx1, LARGE, 0x40000};
    CHECK_RC(al_udma_attach(2, &udma), 0);
    CHECK_RC(al_udma_q_init(udma, 0, &t0, &r0), 0);
    CHECK_RC(al_udma_q_init(udma, 1, &t1, &r1), 0);
    for (uint32_t q = 0; q < 2; q++) {
        CHECK_RC(al_udma_q_handle_get(udma, q, 0, &tq[q]), 0);
        CHECK_RC(al_udma_q_handle_get(udma, q, 1, &rq[q]), 0);
    }
    if (check_failures)
        return check_failures;

    packets();
    crcs();
    ack_all("ack-1");
    struct al_udma_desc none[1] = {{{0}}};
    snapshot(0);
    int rc = al_udma_m2m_set_descriptors(udma, 0, none, none, 1);
    report("set-unreserved", 0, rc, NULL);
    CHECK(rc == -EINVAL && unchanged(0));
    rc = al_udma_m2m_reserve_descriptors(udma, 0, 1, NULL);
    report("reserve-null", 0, rc, NULL);
    CHECK(rc == -EINVAL && unchanged(0));
    struct al_udma_slots s;
    rc = al_udma_m2m_reserve_descriptors(udma, 0, 17, &s);
    report("reserve-too-many", 0, rc, NULL);
    CHECK(rc == -ENOMEM && unchanged(0));
    reserve_set(14, 0x40000000, "reserve-1", "set-1");
    ack_all("ack-2");
    reserve_set(12, 0x50000000, "reserve-2", "set-2"); /* crosses the wrap: ring id 1 -> 2 */
    cap();
    CHECK_RC(al_udma_destroy(udma), 0);
    return check_failures;
}
