// An independent checker of the token protocol, for tests and for the compiler's own
// self-check: abstractly executes the four in-order queues with counting tokens.
#pragma once

#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// Ok if the stream is well-formed:
//   1. no mask names the instruction's own queue or a queue beyond the four;
//   2. executing the queues (each in order, an instruction runs once every queue it waits on
//      has given a token, and gives tokens when it finishes) runs every instruction (else:
//      deadlock, naming each blocked queue head and the queues it waits on);
//   3. no token is left over (else: unbalanced, naming the first unconsumed signal);
//   4. the k-th wait on each queue pair takes the k-th signal, and that signal comes earlier in
//      the stream (else: a dependency pointing forward, naming both instructions).
// Errors are FailedPrecondition and name instruction indices ("#12 conv").
Status CheckTokenProtocol(const std::vector<spec::Instruction>& insns);

}  // namespace npu::compiler
