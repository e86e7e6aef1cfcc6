// Large allocations on transparent huge pages. A run copies a model's weights several times
// (lowering, packing, the program, its sealed bytes, the firmware's parse, the DRAM model), tens of
// megabytes of fresh memory each, and on the virtual machines measured here every 4 KiB page
// fault costs about 9 us: a third of a resnet18 timing-only run went to page faults. glibc's
// malloc asks for huge pages when the tunable glibc.malloc.hugetlb=1 is set (glibc >= 2.35);
// tunables are read only at start-up, so the tool sets it and re-executes itself once, before
// doing anything. Measured in docs/performance.md.
#pragma once

namespace npu::tools {

// If GLIBC_TUNABLES is unset, sets it to glibc.malloc.hugetlb=1 and re-executes /proc/self/exe
// with the same arguments; returns only if it does not (already set, NPU_NO_HUGE_PAGES=1, or the
// exec failed), and the run goes on unchanged.
void ReexecWithHugePageMalloc(char** argv);

}  // namespace npu::tools
