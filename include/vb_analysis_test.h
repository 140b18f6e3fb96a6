#ifndef VB_ANALYSIS_TEST_H
#define VB_ANALYSIS_TEST_H

#include <stddef.h>

/* Test hook: the allocator vb_analyze uses (NULL restores calloc). */
void vb_analysis_set_calloc(void *(*fn)(size_t, size_t));

#endif
