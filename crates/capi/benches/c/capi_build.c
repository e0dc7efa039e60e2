/* Pairs through the C ABI beside the C peer, in one process and one run.
 *
 * The peer is benches/c/c_peer_build.c, a verbatim copy of the project's bench peer,
 * compiled with -Dmain=c_peer_main: its own loop (room check, descriptors built in locals
 * and copied to the slots, wrap and ring-id flip, one ack per ring-full). The same work
 * through libneuron_hal: the same ring size, addresses, sizes and ack rhythm, with
 * al_udma_m2m_copy_prepare_one per pair (single) and al_udma_m2m_copy_prepare_batch per
 * ring-full (batch, requests filled in the timed loop). Best of ROUNDS runs each.
 * Usage: capi_build PAIRS ; prints one "name ns/pair" line per path. */
#define _POSIX_C_SOURCE 199309L
#define NEURON_HAL_ARCH 3
#include <neuron_hal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RING 4096u
#define ROOM (RING - 16u)
#define ROUNDS 5

int c_peer_main(int argc, char **argv);

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static struct al_udma_desc txr[RING] __attribute__((aligned(256)));
static struct al_udma_desc rxr[RING] __attribute__((aligned(256)));
static struct al_udma_m2m_copy_req reqs[ROOM];

static struct al_udma *fresh(struct al_udma_q **tq, struct al_udma_q **rq) {
    struct al_udma *u;
    struct al_udma_q_params t = {txr, RING, 0x10000}, r = {rxr, RING, 0x20000};
    if (al_udma_attach(AL_UDMA_NUM_QUEUES_ALL, &u) || al_udma_q_init(u, 0, &t, &r) ||
        al_udma_q_handle_get(u, 0, 0, tq) || al_udma_q_handle_get(u, 0, 1, rq)) {
        fprintf(stderr, "setup: %s\n", neuron_hal_last_error());
        exit(1);
    }
    return u;
}

static double single(uint64_t pairs, uint64_t *acc) {
    struct al_udma_q *tq, *rq;
    struct al_udma *u = fresh(&tq, &rq);
    uint32_t since = 0;
    double t0 = now();
    for (uint64_t i = 0; i < pairs; i++) {
        if (since == ROOM) {
            al_udma_cdesc_ack(tq, since);
            al_udma_cdesc_ack(rq, since);
            since = 0;
        }
        int rc = al_udma_m2m_copy_prepare_one(u, 0, 0x100000000ull + (i << 6),
                                              0x200000000ull + (i << 6), 1 + (uint32_t)(i & 0xffff));
        if (rc) {
            fprintf(stderr, "rc %d at %llu: %s\n", rc, (unsigned long long)i, neuron_hal_last_error());
            exit(1);
        }
        since++;
        *acc += txr[i & (RING - 1)].words[0];
    }
    double dt = now() - t0;
    al_udma_destroy(u);
    return dt / (double)pairs;
}

static double batch(uint64_t pairs, uint64_t *acc) {
    struct al_udma_q *tq, *rq;
    struct al_udma *u = fresh(&tq, &rq);
    double t0 = now();
    for (uint64_t i = 0; i < pairs;) {
        uint32_t n = pairs - i < ROOM ? (uint32_t)(pairs - i) : ROOM;
        for (uint32_t k = 0; k < n; k++, i++)
            reqs[k] = (struct al_udma_m2m_copy_req){0x100000000ull + (i << 6), 0x200000000ull + (i << 6),
                                                    1 + (uint32_t)(i & 0xffff), 0, 0};
        int rc = al_udma_m2m_copy_prepare_batch(u, 0, reqs, n, NULL);
        if (rc) {
            fprintf(stderr, "rc %d: %s\n", rc, neuron_hal_last_error());
            exit(1);
        }
        *acc += txr[(i - 1) & (RING - 1)].words[0];
        al_udma_cdesc_ack(tq, n);
        al_udma_cdesc_ack(rq, n);
    }
    double dt = now() - t0;
    al_udma_destroy(u);
    return dt / (double)pairs;
}

static double peer(uint64_t pairs) {
    char n[32], ring[16];
    char *argv[] = {"c_peer_build", n, ring, NULL};
    snprintf(n, sizeof n, "%llu", (unsigned long long)pairs);
    snprintf(ring, sizeof ring, "%u", RING);
    fflush(stdout);
    double t0 = now();
    if (c_peer_main(3, argv) != 0)
        exit(1);
    return (now() - t0) / (double)pairs;
}

int main(int argc, char **argv) {
    uint64_t pairs = argc > 1 ? strtoull(argv[1], 0, 0) : 50000000ull, acc = 0;
    double best[3] = {1e30, 1e30, 1e30};
    for (int r = 0; r < ROUNDS; r++) {
        double v[3] = {peer(pairs), single(pairs, &acc), batch(pairs, &acc)};
        for (int k = 0; k < 3; k++)
            if (v[k] < best[k])
                best[k] = v[k];
    }
    printf("c_peer_loop %.2f\ncapi_single %.2f\ncapi_batch %.2f\n(checksum %llu)\n", best[0],
           best[1], best[2], (unsigned long long)acc);
    return 0;
}
