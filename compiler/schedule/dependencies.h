// Derives the token masks of an instruction stream from what each instruction reads and writes
// (spec::Footprints), for any stream, not only the conv emitter's.
#pragma once

#include <vector>

#include "hw/spec/isa.h"

namespace npu::compiler {

// Overwrites every wait/signal mask so that each cross-queue conflict (RAW, WAR, WAW) between an
// instruction and an earlier one is ordered by a token, with as few tokens as the queues' own
// ordering allows:
//   1. For instruction i on queue Q and each other queue P, find the latest earlier P
//      instruction j whose footprint conflicts with i's (interval maps per space, queue and
//      access kind).
//   2. Keep a vector clock per instruction: the latest instruction of each queue known to have
//      completed before it starts. Q's next instruction inherits it (a compute or vector
//      instruction also knows its predecessor completed; the DMA queues start several
//      descriptors at once, so there only the predecessor's start knowledge carries over).
//   3. Among the queues whose j is newer than what i already knows, wait on the fewest whose
//      completions imply all the others: i waits on P, j signals Q, and i learns everything j
//      knew when it completed (DMA queues retire in order, so j completing means every earlier
//      P instruction has).
// Each instruction signals a queue at most once; waits and signals on a queue pair pair up in
// order, and every wait points backwards, so the stream order is a legal schedule. Same-queue
// conflicts need no tokens: queues run in order and the DMA hardware holds back overlapping
// descriptors.
void AssignDependencies(std::vector<spec::Instruction>& insns);

}  // namespace npu::compiler
