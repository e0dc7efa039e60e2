/* The shared pair-build peer as a library (see build_run.c). */
#ifndef UDMA_C_PEER_BUILD_RUN_H
#define UDMA_C_PEER_BUILD_RUN_H

#include <stdint.h>

/* Both rings of n descriptors (a power of two) and the one state they share, as in the
 * peer's main (next slot, ring id, completion index); the pair counter i (sizes
 * 1 + (i & 0xffff), addresses from i << 6) and the pairs since the last acknowledgement
 * (one per lap of n - 16 pairs). */
struct c_peer_build_state {
	void *tx_base, *rx_base;
	uint32_t n, next, ring_id, cdesc;
	uint64_t i;
	uint32_t since;
};

/* Two rings of n descriptors, as main allocates them. 0 or -12. */
int c_peer_build_init(struct c_peer_build_state *s, uint32_t n);
void c_peer_build_free(struct c_peer_build_state *s);

/* The next `pairs` pairs of main's loop. Returns the read-back checksum main prints, or
 * UINT64_MAX if a pair was refused. */
uint64_t c_peer_build_run(struct c_peer_build_state *s, uint64_t pairs);

#endif
