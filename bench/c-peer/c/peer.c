/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* See peer.h. Plain C, no intrinsics: what a C runtime writes for the single-pair path. */
#include <string.h>

#include "peer.h"

#define RING_RESERVE 16u
#define LEN_MASK 0x0000ffffu
#define RING_ID_SHIFT 24
#define RING_ID_MASK 0x03000000u
#define TX_FIRST 0x04000000u
#define TX_LAST 0x08000000u
#define TX_DMB 0x40000000u
#define RX_INT_EN 0x10000000u
#define RX_SOW 0x20000000u
#define META_DEFAULT 0x01080003u
#define META_WRITE_BARRIER 0x04000000u

static inline uint32_t avail(const struct c_peer_ring *r)
{
	return (r->completed - (r->next + RING_RESERVE)) & (r->size - 1);
}

static inline void advance(struct c_peer_ring *r)
{
	r->next = (r->next + 1) & (r->size - 1);
	if (r->next == 0)
		r->rid = (r->rid + 1) & 3;
}

int c_peer_copy_prepare_one(struct c_peer_ring *tx, struct c_peer_ring *rx,
			    const struct c_peer_req *req)
{
	struct c_peer_desc t, d;
	uint32_t len, tflags = TX_FIRST | TX_LAST, meta = META_DEFAULT, rflags = 0;

	if (req->size == 0 || req->size > 65536 || req->barrier > 3)
		return -1;
	if (avail(tx) < 1 || avail(rx) < 1)
		return -12;
	len = req->size & LEN_MASK;
	switch (req->barrier) {
	case 1: tflags |= TX_DMB; break;
	case 2: meta |= META_WRITE_BARRIER; break;
	case 3: rflags |= RX_SOW; break;
	default: break;
	}
	if (req->dst_int)
		rflags |= RX_INT_EN;

	t.w[0] = tflags | ((tx->rid << RING_ID_SHIFT) & RING_ID_MASK) | len;
	t.w[1] = meta;
	t.w[2] = (uint32_t)req->src;
	t.w[3] = (uint32_t)(req->src >> 32);
	d.w[0] = rflags | ((rx->rid << RING_ID_SHIFT) & RING_ID_MASK) | len;
	d.w[1] = 0;
	d.w[2] = (uint32_t)req->dst;
	d.w[3] = (uint32_t)(req->dst >> 32);

	memcpy(&rx->slots[rx->next], &d, sizeof(d));
	memcpy(&tx->slots[tx->next], &t, sizeof(t));
	advance(rx);
	advance(tx);
	return 0;
}

void c_peer_ack(struct c_peer_ring *tx, struct c_peer_ring *rx, uint32_t n)
{
	tx->completed = (tx->completed + n) & (tx->size - 1);
	rx->completed = (rx->completed + n) & (rx->size - 1);
}

uint32_t c_peer_lap(struct c_peer_ring *tx, struct c_peer_ring *rx,
		    const struct c_peer_req *req, uint32_t n)
{
	uint32_t i, refused = 0;
	struct c_peer_req r = *req;

	for (i = 0; i < n; i++) {
		r.size = 1 + (i & 0xfff);
		refused += c_peer_copy_prepare_one(tx, rx, &r) != 0;
	}
	c_peer_ack(tx, rx, n);
	return refused;
}
