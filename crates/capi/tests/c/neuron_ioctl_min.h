/* The slice of the Neuron driver's ioctl ABI (release 2.26.5.0) that the driver-style copy
 * test uses, as a C runtime's own copy of the driver header would declare it. Layouts from
 * reference/ioctl-structs.tsv, request codes from reference/ioctl-commands.tsv (offsets and
 * sizes asserted below). */
#ifndef NEURON_IOCTL_MIN_H
#define NEURON_IOCTL_MIN_H

#include <stddef.h>
#include <stdint.h>

struct neuron_ioctl_device_info { /* 80 bytes */
    uint32_t architecture, revision, connected_device_count, connected_devices[8];
    uint64_t bar_address[2], bar_size[2];
};
struct neuron_ioctl_compatible_version { uint32_t max, min; };
struct neuron_ioctl_mem_alloc_v2_mem_type64 {
    uint64_t size, align;
    uint32_t host_memory, dram_channel, dram_region, nc_id, mem_type;
    uint64_t *mem_handle;
    uint32_t pad;
};
struct neuron_ioctl_mem_get_extended_info {
    uint64_t mem_handle;
    uint32_t version, host_memory;
    uint64_t mmap_offset, pa, pid, size;
};
struct neuron_ioctl_mem_free { uint64_t mem_handle; };
struct neuron_ioctl_mem_buf_copy64 {
    uint64_t mem_handle;
    void *buffer;
    uint64_t size, offset;
    uint32_t copy_to_mem_handle;
};
struct neuron_ioctl_dma_queue_init {
    uint32_t eng_id, qid, tx_desc_count, rx_desc_count;
    uint64_t tx_handle, rx_handle, rxc_handle;
    uint32_t axi_port;
};
struct neuron_ioctl_dma_queue_release { uint32_t eng_id, qid; };
struct neuron_ioctl_dma_queue_copy_start { uint32_t eng_id, qid, tx_desc_count, rx_desc_count; };
struct neuron_ioctl_dma_ack_completed { uint32_t eng_id, qid, count; };
struct neuron_ioctl_dma_copy_descriptors64 {
    uint64_t mem_handle;
    void *buffer;
    uint32_t num_descs;
    uint64_t offset;
    uint32_t queue_type; /* 0 TX, 1 RX */
};
struct neuron_ioctl_h2t_dma_alloc_queues {
    uint16_t sz, nc_id, copy_queue_cnt, service_queue_cnt;
    uint32_t copy_queue_bmap, service_queue_bmap, copy_default_queue;
};
struct neuron_ioctl_h2t_dma_free_queues {
    uint16_t sz;
    uint8_t nc_id, fill0;
    uint32_t queue_bmap;
};

#define NEURON_IOCTL_DEVICE_INFO 0x80084E03u
#define NEURON_IOCTL_COMPATIBLE_VERSION 0x40084E5Du
#define NEURON_IOCTL_MEM_ALLOC_V2MT64 0x80384E66u
#define NEURON_IOCTL_MEM_FREE 0x80084E16u
#define NEURON_IOCTL_MEM_BUF_COPY64 0xC0284E18u
#define NEURON_IOCTL_MEM_GET_EXTENDED_INFO 0x80084E1Du
#define NEURON_IOCTL_DMA_QUEUE_INIT 0x80084E21u
#define NEURON_IOCTL_DMA_QUEUE_RELEASE 0x80084E22u
#define NEURON_IOCTL_DMA_QUEUE_COPY_START 0x80084E23u
#define NEURON_IOCTL_DMA_ACK_COMPLETED 0x80084E24u
#define NEURON_IOCTL_DMA_COPY_DESCRIPTORS64 0x80284E26u
#define NEURON_IOCTL_H2T_DMA_ALLOC_QUEUES 0xC0144E7Du
#define NEURON_IOCTL_H2T_DMA_FREE_QUEUES 0xC0084E7Eu

_Static_assert(sizeof(struct neuron_ioctl_device_info) == 80, "device_info");
_Static_assert(offsetof(struct neuron_ioctl_device_info, bar_address) == 48, "bar_address");
_Static_assert(sizeof(struct neuron_ioctl_mem_alloc_v2_mem_type64) == 56, "mem_alloc_v2mt64");
_Static_assert(offsetof(struct neuron_ioctl_mem_alloc_v2_mem_type64, mem_handle) == 40, "mem_handle");
_Static_assert(sizeof(struct neuron_ioctl_mem_get_extended_info) == 48, "ext_info");
_Static_assert(offsetof(struct neuron_ioctl_mem_get_extended_info, pa) == 24, "pa");
_Static_assert(sizeof(struct neuron_ioctl_mem_buf_copy64) == 40, "buf_copy64");
_Static_assert(offsetof(struct neuron_ioctl_mem_buf_copy64, copy_to_mem_handle) == 32, "to");
_Static_assert(sizeof(struct neuron_ioctl_dma_queue_init) == 48, "queue_init");
_Static_assert(offsetof(struct neuron_ioctl_dma_queue_init, axi_port) == 40, "axi_port");
_Static_assert(sizeof(struct neuron_ioctl_dma_copy_descriptors64) == 40, "copy_descriptors64");
_Static_assert(offsetof(struct neuron_ioctl_dma_copy_descriptors64, queue_type) == 32, "qt");
_Static_assert(sizeof(struct neuron_ioctl_h2t_dma_alloc_queues) == 20, "h2t_alloc");
_Static_assert(sizeof(struct neuron_ioctl_h2t_dma_free_queues) == 8, "h2t_free");
_Static_assert(sizeof(struct neuron_ioctl_dma_queue_copy_start) == 16, "copy_start");
_Static_assert(sizeof(struct neuron_ioctl_dma_ack_completed) == 12, "ack");

#endif
