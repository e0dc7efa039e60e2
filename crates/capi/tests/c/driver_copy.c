/* The driver-style DMA copy of reference/dma-path.md, written as a C runtime would: the NDL
 * gateways of libneuron_hal for every ioctl, the descriptor builder of generation
 * NEURON_HAL_ARCH for the rings. Descriptors are built into process-memory rings by an
 * attached engine handle (no register block: the driver owns the queue registers) and
 * handed to the driver with DMA_COPY_DESCRIPTORS64; the driver rings the doorbells. Rounds
 * go on until both rings have wrapped; every destination byte is verified each round.
 * Usage: driver_copy DEVICE_DIR ; prints "copied BYTES x ROUNDS on engine E queue Q" */
#include <neuron_hal.h>
#include <stdlib.h>

#include "check.h"
#include "neuron_ioctl_min.h"

#define RING 64
#define BYTES (4 * 65536 + 1000) /* 5 pieces, the last partial */
#define PIECES ((BYTES + 65535) / 65536)
#define ROUNDS 12 /* 12 x (PIECES + 1) = 72 entries: both 64-slot rings wrap */
#define MARKER 0xabcdef01u /* the driver's completion marker (dma-path.md step 5) */
/* The H2T engine of core 0 (dma-path.md step 1): V2 32, V3/V4 128. */
#define H2T_ENGINE (NEURON_HAL_ARCH == 2 ? 32u : 128u)

static struct ndl_device *dev;

static int dev_ioctl(uint32_t cmd, void *arg) { return ndl_handle_ioctl(dev, cmd, arg); }

static uint64_t alloc(uint64_t size, int host, uint32_t mem_type) {
    uint64_t h = 0;
    struct neuron_ioctl_mem_alloc_v2_mem_type64 a = {size, 0, (uint32_t)host, 0, 0, 0, mem_type, &h, 0};
    CHECK_RC(dev_ioctl(NEURON_IOCTL_MEM_ALLOC_V2MT64, &a), 0);
    return h;
}

static uint64_t bus_addr(uint64_t h) {
    struct neuron_ioctl_mem_get_extended_info i = {h, 1, 0, 0, 0, 0, 0};
    CHECK_RC(dev_ioctl(NEURON_IOCTL_MEM_GET_EXTENDED_INFO, &i), 0);
    return i.pa;
}

static void buf_copy(uint64_t h, void *buf, uint64_t size, uint64_t off, int to_mem) {
    struct neuron_ioctl_mem_buf_copy64 c = {h, buf, size, off, (uint32_t)to_mem};
    CHECK_RC(dev_ioctl(NEURON_IOCTL_MEM_BUF_COPY64, &c), 0);
}

/* Hands slots [start, start + n) of a process ring to the driver (two pieces on a wrap). */
static void deliver(uint64_t ring_h, struct al_udma_desc *ring, uint32_t start, uint32_t n, uint32_t type) {
    while (n > 0) {
        uint32_t run = start + n > RING ? RING - start : n;
        struct neuron_ioctl_dma_copy_descriptors64 d = {ring_h, &ring[start], run, 16u * start, type};
        CHECK_RC(dev_ioctl(NEURON_IOCTL_DMA_COPY_DESCRIPTORS64, &d), 0);
        start = (start + run) % RING;
        n -= run;
    }
}

int main(int argc, char **argv) {
    static unsigned char src[BYTES], back[BYTES], zero[BYTES];
    static struct al_udma_desc txr[RING], rxr[RING];
    struct al_udma_m2m_copy_req reqs[PIECES + 1];
    if (argc < 2)
        return 100;
    CHECK_RC(ndl_set_device_root(argv[1]), 0);

    /* The three gateways: per-device (O_RDONLY, cached), misc (O_WRONLY), handle (O_RDWR). */
    struct neuron_ioctl_device_info info;
    CHECK_RC(ndl_device_ioctl(0, NEURON_IOCTL_DEVICE_INFO, &info), 0);
    CHECK(info.architecture == NEURON_HAL_ARCH);
    struct neuron_ioctl_compatible_version ver = {0, 0};
    CHECK_RC(ndl_misc_ioctl(NEURON_IOCTL_COMPATIBLE_VERSION, &ver), 0);
    CHECK(ver.max >= ver.min && ver.max > 0);
    CHECK_RC(ndl_open_device(0, &dev), 0);
    if (check_failures)
        return check_failures;

    /* A service queue of core 0's H2T engine. */
    struct neuron_ioctl_h2t_dma_alloc_queues q = {sizeof q, 0, 0, 1, 0, 0, 0};
    CHECK_RC(dev_ioctl(NEURON_IOCTL_H2T_DMA_ALLOC_QUEUES, &q), 0);
    uint32_t qid = 0;
    while (qid < 16 && !(q.service_queue_bmap & (1u << qid)))
        qid++;
    CHECK(qid < 16);

    /* Memory: source (host), destination (HBM), the two rings, the completion words. */
    uint64_t src_h = alloc(BYTES, 1, 2), dst_h = alloc(BYTES, 0, 9);
    uint64_t tx_h = alloc(16 * RING, 1, 17), rx_h = alloc(16 * RING, 1, 17), comp_h = alloc(8, 1, 2);
    uint64_t src_pa = bus_addr(src_h), dst_pa = bus_addr(dst_h), comp_pa = bus_addr(comp_h);
    struct neuron_ioctl_dma_queue_init qi = {H2T_ENGINE, qid, RING, RING, tx_h, rx_h, 0, 0};
    CHECK_RC(dev_ioctl(NEURON_IOCTL_DMA_QUEUE_INIT, &qi), 0);

    /* The process-side rings: an engine handle without registers. */
    struct al_udma *udma;
    struct al_udma_q *tq, *rq;
    struct al_udma_q_params t = {txr, RING, bus_addr(tx_h)}, r = {rxr, RING, bus_addr(rx_h)};
    CHECK_RC(al_udma_attach(AL_UDMA_NUM_QUEUES_ALL, &udma), 0);
    CHECK_RC(al_udma_q_init(udma, qid, &t, &r), 0);
    CHECK_RC(al_udma_q_handle_get(udma, qid, 0, &tq), 0);
    CHECK_RC(al_udma_q_handle_get(udma, qid, 1, &rq), 0);
    if (check_failures)
        return check_failures;

    for (uint32_t i = 0; i < BYTES; i++)
        src[i] = (unsigned char)(i * 7 + (i >> 13));
    buf_copy(src_h, src, BYTES, 0, 1);
    int wrapped = 0;
    for (int round = 0; round < ROUNDS && !check_failures; round++) {
        uint32_t marker[2] = {MARKER, 0}, landed = 0;
        buf_copy(dst_h, zero, BYTES, 0, 1);
        buf_copy(comp_h, marker, 8, 0, 1);
        for (uint32_t p = 0; p < PIECES; p++) {
            uint32_t size = p + 1 < PIECES ? 65536 : BYTES - 65536 * p;
            reqs[p] = (struct al_udma_m2m_copy_req){src_pa + 65536ull * p, dst_pa + 65536ull * p,
                                                    size, AL_UDMA_BARRIER_NONE, 0};
        }
        /* The driver's own copies: write barrier on the last data pair, then the marker. */
        reqs[PIECES - 1].barrier = AL_UDMA_BARRIER_WRITE;
        reqs[PIECES] = (struct al_udma_m2m_copy_req){comp_pa, comp_pa + 4, 4, 0, 0};
        struct al_udma_slots s;
        CHECK_RC(al_udma_m2m_copy_prepare_batch(udma, qid, reqs, PIECES + 1, &s), 0);
        wrapped |= s.tx_start + s.tx_count > RING;
        deliver(tx_h, txr, s.tx_start, s.tx_count, 0);
        deliver(rx_h, rxr, s.rx_start, s.rx_count, 1);
        struct neuron_ioctl_dma_queue_copy_start cs = {H2T_ENGINE, qid, s.tx_count, s.rx_count};
        CHECK_RC(dev_ioctl(NEURON_IOCTL_DMA_QUEUE_COPY_START, &cs), 0);
        for (int spin = 0; spin < 1000000 && landed != MARKER && !check_failures; spin++)
            buf_copy(comp_h, &landed, 4, 4, 0);
        CHECK(landed == MARKER);
        struct neuron_ioctl_dma_ack_completed ack = {H2T_ENGINE, qid, s.tx_count};
        CHECK_RC(dev_ioctl(NEURON_IOCTL_DMA_ACK_COMPLETED, &ack), 0);
        CHECK_RC(al_udma_cdesc_ack(tq, s.tx_count), 0);
        CHECK_RC(al_udma_cdesc_ack(rq, s.rx_count), 0);
        memset(back, 0, sizeof back);
        buf_copy(dst_h, back, BYTES, 0, 0);
        for (uint32_t i = 0; i < BYTES; i++)
            if (back[i] != src[i]) {
                fprintf(stderr, "round %d: byte %u is %02x, want %02x\n", round, i, back[i], src[i]);
                check_failures++;
                break;
            }
    }
    CHECK(wrapped);

    /* A served node cannot be mapped shared (ndl-fuse opens it FOPEN_DIRECT_IO): the mmap
     * pairing of a live chunk of ours, and of a special resource, gets through the info
     * ioctl and fails at mmap(2) with -ENODEV, named in the sentence; nothing is written. */
    struct ndl_mapping *map = NULL;
    void *addr = NULL;
    uint64_t size = 0;
    CHECK_RC(ndl_mmap_mem(dev, comp_h, &map, &addr, &size), -ENODEV);
    CHECK(strstr(neuron_hal_last_error(), "ndl_mmap_mem: mmap of ") &&
          strstr(neuron_hal_last_error(), "No such device"));
    CHECK_RC(ndl_mmap_resource(dev, NEURON_DM_BLOCK_TPB, 0, NEURON_DM_RESOURCE_SEMAPHORE, &map, &addr, &size),
             -ENODEV);
    CHECK(strstr(neuron_hal_last_error(), "ndl_mmap_resource: mmap of "));
    CHECK(map == NULL && addr == NULL && size == 0);

    struct neuron_ioctl_dma_queue_release rel = {H2T_ENGINE, qid};
    CHECK_RC(dev_ioctl(NEURON_IOCTL_DMA_QUEUE_RELEASE, &rel), 0);
    struct neuron_ioctl_h2t_dma_free_queues fq = {sizeof fq, 0, 0, q.service_queue_bmap};
    CHECK_RC(dev_ioctl(NEURON_IOCTL_H2T_DMA_FREE_QUEUES, &fq), 0);
    uint64_t chunks[5] = {src_h, dst_h, tx_h, rx_h, comp_h};
    for (int i = 0; i < 5; i++) {
        struct neuron_ioctl_mem_free f = {chunks[i]};
        CHECK_RC(dev_ioctl(NEURON_IOCTL_MEM_FREE, &f), 0);
    }
    CHECK_RC(al_udma_destroy(udma), 0);
    /* A freed chunk: the driver no longer knows it (MEM_GET_EXTENDED_INFO -EINVAL). */
    CHECK_RC(ndl_mmap_mem(dev, comp_h, &map, &addr, &size), -EINVAL);
    CHECK(strstr(neuron_hal_last_error(), "MEM_GET_EXTENDED_INFO"));
    CHECK_RC(ndl_close_device(dev), 0);
    CHECK_RC(ndl_handle_ioctl(dev, NEURON_IOCTL_DEVICE_INFO, &info), -EBADF);
    if (!check_failures)
        printf("copied %d x %d on engine %u queue %u\n", BYTES, ROUNDS, H2T_ENGINE, qid);
    return check_failures;
}
