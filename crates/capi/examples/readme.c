#define NEURON_HAL_ARCH 3 /* trn2; 2 = trn1/inf2, 4 = trn3: the _v3 symbols, chosen at compile time */
#include <neuron_hal.h>
#include <stdio.h>

int main(void) {
    static struct al_udma_desc tx[64], rx[64]; /* caller-owned rings */
    struct al_udma_q_params t = {tx, 64, 0x10000}, r = {rx, 64, 0x20000};
    struct al_udma *udma; /* no register block: on a host the driver rings the doorbells */
    if (al_udma_attach(AL_UDMA_NUM_QUEUES_ALL, &udma) || al_udma_q_init(udma, 0, &t, &r))
        return fprintf(stderr, "%s\n", neuron_hal_last_error()), 1;
    int rc = al_udma_m2m_copy_prepare_one(udma, 0, 0x1000, 0x2000, 65536);
    printf("rc %d, TX word 0 %08x, RX word 0 %08x\n", rc, tx[0].words[0], rx[0].words[0]);
    return al_udma_destroy(udma);
}
