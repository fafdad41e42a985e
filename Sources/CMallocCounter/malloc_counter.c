// Counts heap allocations of the benchmark process by defining the allocator entry points in
// the executable: the dynamic linker resolves every library's malloc to these, and they forward
// to glibc's own implementations (__libc_*). Cheaper and simpler than an LD_PRELOAD interposer.
#include "malloc_counter.h"
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static _Atomic uint64_t allocations;
static _Atomic int counting;

static inline void note(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed))
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

uint64_t gestured_allocation_count(void) { return atomic_load(&allocations); }
void gestured_count_allocations(int on) { atomic_store(&counting, on); }

void *malloc(size_t n) { note(); return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { note(); return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { note(); return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t a, size_t n) { note(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { note(); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    note();
    void *p = __libc_memalign(a, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
