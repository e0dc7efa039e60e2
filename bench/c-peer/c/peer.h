/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The C peer of udma-desc's single copy pair (bench yardstick only).
 *
 * Written from the published descriptor layout alone (reference/udma-bitfields.tsv and seed 004
 * section 1): TX len_ctrl LEN 15:0, RING_ID 25:24, FIRST 26, LAST 27, DMB 30; TX meta_ctrl
 * default 0x01080003, write barrier bit 26; RX len_ctrl INT_EN 28, STRONG_ORDER_WR 29; length
 * 65536 encoded as 0; rings keep 16 slots in reserve; ring id starts at 1, +1 mod 4 per wrap.
 */
#ifndef UDMA_C_PEER_H
#define UDMA_C_PEER_H

#include <stdint.h>

struct c_peer_desc {
	uint32_t w[4];
} __attribute__((aligned(16)));

struct c_peer_ring {
	struct c_peer_desc *slots;
	uint32_t size;     /* power of two */
	uint32_t next;     /* next slot to write */
	uint32_t rid;      /* ring id of the current lap */
	uint32_t completed;
};

struct c_peer_req {
	uint64_t src;
	uint64_t dst;
	uint32_t size;
	uint32_t barrier;  /* 0 none, 1 DMB, 2 write barrier, 3 SOW */
	uint32_t dst_int;
};

/* One pair: room on both rings, build each descriptor in a local, copy into its slot,
 * advance with wrap and ring-id flip. 0, -1 bad request, -12 no room. */
int c_peer_copy_prepare_one(struct c_peer_ring *tx, struct c_peer_ring *rx,
			    const struct c_peer_req *req);

/* Acknowledge n completed descriptors on both rings (once per lap). */
void c_peer_ack(struct c_peer_ring *tx, struct c_peer_ring *rx, uint32_t n);

/* The bench loop: n pairs from *req with size 1 + (i & 0xfff), then one ack of n.
 * Returns the number of refused pairs (0 when all went in). */
uint32_t c_peer_lap(struct c_peer_ring *tx, struct c_peer_ring *rx,
		    const struct c_peer_req *req, uint32_t n);

#endif
