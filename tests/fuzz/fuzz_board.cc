// The in-process board: sparse DRAM and the identification registers.
#include "tests/fuzz/fuzz_board.h"

#include <algorithm>
#include <cstring>

#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "hw/spec/identification_registers.h"
#include "hw/spec/memory_map.h"
#include "hw/spec/regs.h"
#include "tests/fuzz/fuzz_target.h"

namespace npu::fuzz {

namespace regs = spec::regs;

spec::NpuConfig FuzzBoardConfig() {
  spec::NpuConfig config = spec::DefaultConfig();
  config.mutable_dram()->set_size_bytes(16 << 20);
  return config;
}

std::string SealForBoard(spec::Program program) {
  static const uint64_t fingerprint = spec::Fingerprint(FuzzBoardConfig());
  program.set_arch_fingerprint(fingerprint);
  return spec::SealProgram(program);
}

FuzzBoard::FuzzBoard(const spec::NpuConfig& config)
    : config_(config),
      fingerprint_(spec::Fingerprint(config)),
      dram_bytes_(config.dram().size_bytes()) {}

bool FuzzBoard::Read32(uint64_t addr, uint32_t& value) {
  const std::optional<uint32_t> id =
      regs::IdentificationRegister(config_, fingerprint_, addr - spec::kNpuRegsBase);
  if (id) value = *id;
  return id.has_value();
}

bool FuzzBoard::Write32(uint64_t, uint32_t) { return false; }

void FuzzBoard::WaitForInterrupt() { Finding("the firmware waited for an NPU this board has not"); }

bool FuzzBoard::InsideDram(uint64_t addr, size_t bytes) const {
  return addr >= spec::kDramBase && addr - spec::kDramBase <= dram_bytes_ &&
         bytes <= dram_bytes_ - (addr - spec::kDramBase);
}

FuzzBoard::Page& FuzzBoard::PageForWrite(uint64_t page_index) {
  std::unique_ptr<Page>& page = pages_[page_index];
  if (!page) page = std::make_unique<Page>(Page{});
  return *page;
}

// Both copy page by page: `offset` walks the DRAM offsets of the transfer.
bool FuzzBoard::ReadBlock(uint64_t addr, uint8_t* data, size_t bytes) {
  if (!InsideDram(addr, bytes)) return false;
  for (uint64_t offset = addr - spec::kDramBase, done = 0; done < bytes;) {
    const uint64_t in_page = offset % kPageBytes;
    const uint64_t n = std::min<uint64_t>(kPageBytes - in_page, bytes - done);
    const auto page = pages_.find(offset / kPageBytes);
    if (page == pages_.end()) {
      std::memset(data + done, 0, n);  // never written: DRAM reads zero
    } else {
      std::memcpy(data + done, page->second->data() + in_page, n);
    }
    offset += n;
    done += n;
  }
  return true;
}

bool FuzzBoard::WriteBlock(uint64_t addr, const uint8_t* data, size_t bytes) {
  if (!InsideDram(addr, bytes)) return false;
  for (uint64_t offset = addr - spec::kDramBase, done = 0; done < bytes;) {
    const uint64_t in_page = offset % kPageBytes;
    const uint64_t n = std::min<uint64_t>(kPageBytes - in_page, bytes - done);
    std::memcpy(PageForWrite(offset / kPageBytes).data() + in_page, data + done, n);
    offset += n;
    done += n;
  }
  return true;
}

}  // namespace npu::fuzz
