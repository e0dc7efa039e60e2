/* The shared pair-build peer (c_peer_build.c, copied byte for byte from the project's shared
 * bench peers) as a library for the criterion group: its static functions are used as they
 * are, and c_peer_build_run is its main's loop over state kept between calls. As in main,
 * both rings' state lives in locals for the whole loop, so the compiler keeps it in
 * registers; the state goes back to memory once per call.
 *
 * The peer's main becomes an unused static function, which the compiler drops: build_pair
 * keeps a single caller and is inlined into it, as it is into main in the peer's own
 * binary (with two callers gcc -O2 calls it, and the rings' state goes through memory).
 *
 * In main the two rings are equal at every step (same n, same start, same steps), and gcc
 * -O2 uses that: it keeps one index, one ring id and one completion index for both, and
 * checks room once (42 instructions a pair). Here both rings are built from one saved
 * state, so they are equal too and the loop compiles as main's does. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-declaration" /* "int static" */
#define main static __attribute__((unused)) c_peer_build_main
#include "c_peer_build.c"
#undef main
#pragma GCC diagnostic pop

#include "build_run.h"

int c_peer_build_init(struct c_peer_build_state *s, uint32_t n)
{
	/* main's allocation and initial state: ring id 1, everything else 0. */
	desc_t *t = aligned_alloc(256, n * 16), *r = aligned_alloc(256, n * 16);
	if (!t || !r) {
		free(t);
		free(r);
		return -12;
	}
	memset(t, 0, n * 16);
	memset(r, 0, n * 16);
	*s = (struct c_peer_build_state){ t, r, n, 0, 1, 0, 0, 0 };
	return 0;
}

void c_peer_build_free(struct c_peer_build_state *s)
{
	free(s->tx_base);
	free(s->rx_base);
	s->tx_base = s->rx_base = 0;
}

uint64_t c_peer_build_run(struct c_peer_build_state *s, uint64_t pairs)
{
	/* As in main: both rings of the same n, from the same state; room n - RESERVE. */
	uint32_t n = s->n;
	ring_t tx = { s->tx_base, n - 1, s->next, s->ring_id, s->cdesc };
	ring_t rx = { s->rx_base, n - 1, s->next, s->ring_id, s->cdesc };
	uint32_t since = s->since, room = n - RESERVE;
	uint64_t acc = 0, end = s->i + pairs, i;
	/* main's loop body, unchanged. */
	for (i = s->i; i < end; i++) {
		if (since == room) { ack(&tx, since); ack(&rx, since); since = 0; }
		uint32_t size = 1 + (uint32_t)(i & 0xffff);
		int rc = build_pair(&tx, &rx, 0x100000000ull + (i << 6), 0x200000000ull + (i << 6), size);
		if (rc) return UINT64_MAX;
		since++;
		acc += tx.base[i & tx.mask].len_ctrl;
	}
	if (rx.next != tx.next || rx.ring_id != tx.ring_id || rx.cdesc != tx.cdesc)
		return UINT64_MAX; /* never: the rings move together */
	s->next = tx.next;
	s->ring_id = tx.ring_id;
	s->cdesc = tx.cdesc;
	s->i = end;
	s->since = since;
	return acc;
}
