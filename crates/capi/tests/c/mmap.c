/* The NDL's mmap pairing from C (ndl_mmap_mem, ndl_mmap_resource, ndl_munmap and the
 * bounds-checked ndl_mapping_read / _write) over the emulated driver of generation
 * NEURON_HAL_ARCH in the process (ndl_use_emulated_kernel). What the driver lets a process
 * map (reference/mmap-README.md): its own memory chunks, read-write, and the arch's special
 * resources, RESOURCE_ALL read-only; everything else is refused with an errno and a sentence.
 * Usage: mmap [BLOCK ID RESOURCE]... ; maps each special resource given and prints, per
 * line, what it got, for tests/mmap.rs to compare with reference/mmap-special.tsv. */
#define NEURON_HAL_EMULATOR /* declares ndl_use_emulated_kernel: the tests' library has it */
#include <neuron_hal.h>
#include <stdlib.h>

#include "check.h"
#include "neuron_ioctl_min.h"

static struct ndl_device *dev;

static uint64_t alloc(uint64_t size, int host, uint32_t mem_type) {
    uint64_t h = 0;
    struct neuron_ioctl_mem_alloc_v2_mem_type64 a = {size, 0, (uint32_t)host, 0, 0, 0, mem_type, &h, 0};
    CHECK_RC(ndl_handle_ioctl(dev, NEURON_IOCTL_MEM_ALLOC_V2MT64, &a), 0);
    return h;
}

static uint64_t chunk_size(uint64_t h) {
    struct neuron_ioctl_mem_get_extended_info i = {h, 1, 0, 0, 0, 0, 0};
    CHECK_RC(ndl_handle_ioctl(dev, NEURON_IOCTL_MEM_GET_EXTENDED_INFO, &i), 0);
    return i.size;
}

static void buf_copy(uint64_t h, void *buf, uint64_t size, uint64_t off, int to_mem) {
    struct neuron_ioctl_mem_buf_copy64 c = {h, buf, size, off, (uint32_t)to_mem};
    CHECK_RC(ndl_handle_ioctl(dev, NEURON_IOCTL_MEM_BUF_COPY64, &c), 0);
}

/* The caller's own chunk maps whole and read-write: what MEM_BUF_COPY put there is what the
 * mapping reads, and what the mapping writes is what MEM_BUF_COPY reads back. */
static void own_chunk(const char *what, uint64_t size, int host, uint32_t mem_type) {
    static unsigned char pattern[65536], seen[65536];
    uint64_t h = alloc(size, host, mem_type);
    for (uint64_t i = 0; i < size; i++)
        pattern[i] = (unsigned char)(i * 13 + size);
    buf_copy(h, pattern, size, 0, 1);

    struct ndl_mapping *map = NULL;
    void *addr = NULL;
    uint64_t len = 0;
    int rc = ndl_mmap_mem(dev, h, &map, &addr, &len);
    CHECK(rc == 0 && addr != NULL && len == chunk_size(h));
    if (rc != 0 || len > sizeof seen)
        return;
    memset(seen, 0, sizeof seen);
    CHECK_RC(ndl_mapping_read(map, 0, seen, len), 0);
    int same = !memcmp(seen, pattern, size);

    const char word[] = "written through the mapping";
    CHECK_RC(ndl_mapping_write(map, 100, word, sizeof word), 0);
    buf_copy(h, seen, sizeof word, 100, 0);
    int back = !memcmp(seen, word, sizeof word);

    /* Out of the mapping, NULL: refused, nothing copied. */
    CHECK_RC(ndl_mapping_read(map, len - 1, seen, 2), -EINVAL);
    CHECK(strstr(neuron_hal_last_error(), "ndl_mapping_read"));
    CHECK_RC(ndl_mapping_write(map, len, word, 1), -EINVAL);
    CHECK_RC(ndl_mapping_read(map, 0, NULL, 4), -EINVAL);
    CHECK_RC(ndl_mapping_read(map, 0, NULL, 0), 0);
    CHECK_RC(ndl_mapping_read(map, 0, seen, (size_t)-1), -EINVAL);

    CHECK_RC(ndl_munmap(map), 0);
    CHECK_RC(ndl_munmap(map), -EBADF);
    CHECK_RC(ndl_mapping_read(map, 0, seen, 4), -EBADF);
    printf("chunk %s size %llu rc %d len %llu same %d written %d\n", what, (unsigned long long)size, rc,
           (unsigned long long)len, same, back);
    struct neuron_ioctl_mem_free f = {h};
    CHECK_RC(ndl_handle_ioctl(dev, NEURON_IOCTL_MEM_FREE, &f), 0);
}

/* One special resource: its size, a read of its first word, and a write of that word back
 * (-EACCES where the driver maps the entry read-only). */
static void resource(uint32_t block, uint32_t id, uint32_t res) {
    struct ndl_mapping *map = NULL;
    void *addr = NULL;
    uint64_t len = 0;
    uint32_t w = 0;
    int rc = ndl_mmap_resource(dev, block, id, res, &map, &addr, &len);
    int rd = rc ? 1 : ndl_mapping_read(map, 0, &w, sizeof w);
    int wr = rc ? 1 : ndl_mapping_write(map, 0, &w, sizeof w);
    if (rc == 0)
        CHECK_RC(ndl_munmap(map), 0);
    printf("resource %u %u %u rc %d size 0x%llx read %d write %d\n", block, id, res, rc,
           (unsigned long long)len, rd, wr);
}

int main(int argc, char **argv) {
    CHECK_RC(ndl_use_emulated_kernel(NEURON_HAL_ARCH, 1), 0);
    /* The kernel is chosen once per process. */
    CHECK_RC(ndl_use_emulated_kernel(NEURON_HAL_ARCH, 1), -EBUSY);
    CHECK_RC(ndl_set_device_root("/dev"), -EBUSY);
    struct neuron_ioctl_device_info info;
    CHECK_RC(ndl_device_ioctl(0, NEURON_IOCTL_DEVICE_INFO, &info), 0);
    CHECK(info.architecture == NEURON_HAL_ARCH);
    CHECK_RC(ndl_open_device(0, &dev), 0);
    if (check_failures)
        return check_failures;

    own_chunk("host", 3 * 4096, 1, 2);
    own_chunk("device", 65536, 0, 9);
    for (int i = 1; i + 2 < argc; i += 3)
        resource((uint32_t)strtoul(argv[i], 0, 0), (uint32_t)strtoul(argv[i + 1], 0, 0),
                 (uint32_t)strtoul(argv[i + 2], 0, 0));

    /* Refused: no entry for the triple (RESOURCE_MMAP_INFO), a chunk the driver does not know
     * (MEM_GET_EXTENDED_INFO), NULL out-pointers; nothing is written to the outputs. */
    struct ndl_mapping *map = (struct ndl_mapping *)0x5a;
    void *addr = (void *)0x5a;
    uint64_t len = 0x5a;
    int rc = ndl_mmap_resource(dev, 7, 0, NEURON_DM_RESOURCE_SEMAPHORE, &map, &addr, &len);
    printf("refused resource rc %d err %s\n", rc, neuron_hal_last_error());
    rc = ndl_mmap_mem(dev, 0xdead000, &map, &addr, &len);
    printf("refused chunk rc %d err %s\n", rc, neuron_hal_last_error());
    CHECK(map == (struct ndl_mapping *)0x5a && addr == (void *)0x5a && len == 0x5a);
    CHECK_RC(ndl_mmap_resource(dev, 0, 0, 0, NULL, &addr, &len), -EINVAL);
    CHECK_RC(ndl_mmap_mem(dev, 0, &map, NULL, &len), -EINVAL);
    CHECK_RC(ndl_mmap_mem(NULL, 0, &map, &addr, &len), -EINVAL);
    /* Misaligned out-pointers and an impossible length: refused, nothing written. */
    static uint64_t words[4];
    CHECK_RC(ndl_mmap_mem(dev, 0, &map, &addr, (uint64_t *)((char *)words + 4)), -EINVAL);
    CHECK(strstr(neuron_hal_last_error(), "misaligned"));
    CHECK_RC(ndl_open_device(0, (struct ndl_device **)((char *)words + 1)), -EINVAL);
    CHECK(words[0] == 0 && words[1] == 0);
    CHECK_RC(ndl_munmap(NULL), -EINVAL);

    CHECK_RC(ndl_close_device(dev), 0);
    CHECK_RC(ndl_mmap_mem(dev, 0, &map, &addr, &len), -EBADF);
    return check_failures;
}
