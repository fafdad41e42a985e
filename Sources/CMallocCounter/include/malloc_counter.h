#ifndef GESTURED_MALLOC_COUNTER_H
#define GESTURED_MALLOC_COUNTER_H
#include <stdint.h>

/// Allocation calls (malloc, calloc, realloc, memalign family) since the process started
/// while counting was on. Only linked into the benchmark executable.
uint64_t gestured_allocation_count(void);
void gestured_count_allocations(int on);

#endif
