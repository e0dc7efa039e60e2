/* Pairs through the C ABI beside the C peer, in one process and one run, interleaved.
 *
 * The peer is benches/c/c_peer_build.c, a verbatim copy of the project's bench peer, run
 * through build_run.c (a verbatim copy of bench/c-peer/c/build_run.c: the peer's main loop
 * over state kept between calls, both rings' state in locals): room check, descriptors
 * built in locals and copied to the slots, wrap and ring-id flip, one ack per ring-full.
 * The same work through libneuron_hal: the same ring size, addresses, sizes and ack
 * rhythm, with al_udma_m2m_copy_prepare_one per pair (single) and
 * al_udma_m2m_copy_prepare_batch per ring-full (batch; the caller fills the request array
 * in the timed loop, as a runtime would). Two floors, plain C with no ring state and no
 * checks: the 32 bytes a pair stored as two descriptors (store_floor), and the batch
 * caller's share on top of it: the request array filled, then the descriptors stored from
 * it (req_store_floor) -- no batch call through any API can beat the latter.
 *
 * The machine is shared: a round runs one cycle of 65,536 pairs (every size 1..=65536
 * once) through each path in turn, and the minimum and median of ROUNDS rounds are
 * printed, so a load swing hits every path alike.
 * Usage: capi_build ROUNDS ; prints one "name min MIN med MED" line per path (ns/pair). */
#define _POSIX_C_SOURCE 199309L
#define NEURON_HAL_ARCH 3
#include <neuron_hal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build_run.h"

#define RING 4096u
#define ROOM (RING - 16u)
#define CYCLE 65536u
#define PATHS 5

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static struct al_udma_desc txr[RING] __attribute__((aligned(256)));
static struct al_udma_desc rxr[RING] __attribute__((aligned(256)));
static struct al_udma_desc ftx[RING] __attribute__((aligned(256)));
static struct al_udma_desc frx[RING] __attribute__((aligned(256)));
static struct al_udma_m2m_copy_req reqs[ROOM];

/* The library's engine, queue 0 over txr/rxr, and where each loop stands between rounds. */
static struct al_udma *u;
static struct al_udma_q *tq, *rq;
static uint64_t single_i, batch_i, floor_i;
static uint32_t single_since;

static void fresh(void) {
    struct al_udma_q_params t = {txr, RING, 0x10000}, r = {rxr, RING, 0x20000};
    if (al_udma_attach(AL_UDMA_NUM_QUEUES_ALL, &u) || al_udma_q_init(u, 0, &t, &r) ||
        al_udma_q_handle_get(u, 0, 0, &tq) || al_udma_q_handle_get(u, 0, 1, &rq)) {
        fprintf(stderr, "setup: %s\n", neuron_hal_last_error());
        exit(1);
    }
}

static void fail(int rc) {
    fprintf(stderr, "rc %d: %s\n", rc, neuron_hal_last_error());
    exit(1);
}

/* One cycle through al_udma_m2m_copy_prepare_one, one ack per ring-full. */
static uint64_t single(void) {
    uint64_t acc = 0, end = single_i + CYCLE;
    for (uint64_t i = single_i; i < end; i++) {
        if (single_since == ROOM) {
            al_udma_cdesc_ack(tq, single_since);
            al_udma_cdesc_ack(rq, single_since);
            single_since = 0;
        }
        int rc = al_udma_m2m_copy_prepare_one(u, 0, 0x100000000ull + (i << 6),
                                              0x200000000ull + (i << 6), 1 + (uint32_t)(i & 0xffff));
        if (rc)
            fail(rc);
        single_since++;
        acc += txr[i & (RING - 1)].words[0];
    }
    single_i = end;
    return acc;
}

/* One cycle through al_udma_m2m_copy_prepare_batch, a ring-full (or the cycle's rest) a
 * call, the request array filled before each call, each call acknowledged at once. */
static uint64_t batch(void) {
    uint64_t acc = 0, i = batch_i, end = batch_i + CYCLE;
    while (i < end) {
        uint32_t n = end - i < ROOM ? (uint32_t)(end - i) : ROOM;
        for (uint32_t k = 0; k < n; k++, i++)
            reqs[k] = (struct al_udma_m2m_copy_req){0x100000000ull + (i << 6), 0x200000000ull + (i << 6),
                                                    1 + (uint32_t)(i & 0xffff), 0, 0};
        int rc = al_udma_m2m_copy_prepare_batch(u, 0, reqs, n, NULL);
        if (rc)
            fail(rc);
        acc += txr[(i - 1) & (RING - 1)].words[0];
        al_udma_cdesc_ack(tq, n);
        al_udma_cdesc_ack(rq, n);
    }
    batch_i = end;
    return acc;
}

static inline void put(struct al_udma_desc *d, uint32_t w0, uint64_t addr) {
    *d = (struct al_udma_desc){{w0, 0, (uint32_t)addr, (uint32_t)(addr >> 32)}};
}

/* The stores alone: two descriptors a pair, nothing else. */
static uint64_t store_floor(void) {
    uint64_t end = floor_i + CYCLE;
    for (uint64_t i = floor_i; i < end; i++) {
        uint32_t at = (uint32_t)i & (RING - 1);
        put(&ftx[at], 1 + (uint32_t)(i & 0xffff), 0x100000000ull + (i << 6));
        put(&frx[at], 1 + (uint32_t)(i & 0xffff), 0x200000000ull + (i << 6));
    }
    floor_i = end;
    return ftx[(end - 1) & (RING - 1)].words[0];
}

/* The batch caller's floor: the request array filled a ring-full at a time, then the two
 * descriptors of each request stored from it. */
static uint64_t req_store_floor(void) {
    uint64_t i = floor_i, end = floor_i + CYCLE;
    while (i < end) {
        uint32_t n = end - i < ROOM ? (uint32_t)(end - i) : ROOM;
        for (uint32_t k = 0; k < n; k++, i++)
            reqs[k] = (struct al_udma_m2m_copy_req){0x100000000ull + (i << 6), 0x200000000ull + (i << 6),
                                                    1 + (uint32_t)(i & 0xffff), 0, 0};
        /* Each a volatile read: the stores must not be merged with the fill above. */
        for (uint32_t k = 0; k < n; k++) {
            const volatile struct al_udma_m2m_copy_req *q = &reqs[k];
            put(&ftx[k], q->size, q->src);
            put(&frx[k], q->size, q->dst);
        }
    }
    floor_i = end;
    return ftx[0].words[0];
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 300;
    if (rounds < 1)
        rounds = 1;
    static const char *names[PATHS] = {"c_peer_loop", "capi_single", "capi_batch", "store_floor",
                                       "req_store_floor"};
    double *t = calloc((size_t)rounds * PATHS, sizeof *t);
    struct c_peer_build_state peer;
    if (!t || c_peer_build_init(&peer, RING))
        return 1;
    fresh();
    volatile uint64_t acc = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        acc += c_peer_build_run(&peer, CYCLE);
        double t1 = now();
        acc += single();
        double t2 = now();
        /* Back to an empty ring, untimed, so each batch call has a ring-full of room. */
        if (single_since) {
            al_udma_cdesc_ack(tq, single_since);
            al_udma_cdesc_ack(rq, single_since);
            single_since = 0;
        }
        double t3 = now();
        acc += batch();
        double t4 = now();
        acc += store_floor();
        double t5 = now();
        acc += req_store_floor();
        double t6 = now();
        double v[PATHS] = {t1 - t0, t2 - t1, t4 - t3, t5 - t4, t6 - t5};
        for (int k = 0; k < PATHS; k++)
            t[(size_t)k * rounds + r] = v[k] / CYCLE;
    }
    for (int k = 0; k < PATHS; k++) {
        double *p = &t[(size_t)k * rounds];
        qsort(p, (size_t)rounds, sizeof *p, cmp);
        printf("%s min %.3f med %.3f\n", names[k], p[0], p[rounds / 2]);
    }
    printf("(checksum %llu)\n", (unsigned long long)acc);
    al_udma_destroy(u);
    c_peer_build_free(&peer);
    free(t);
    return 0;
}
