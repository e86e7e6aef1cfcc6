// SramBankTimer.
#include "hw/spec/sram_bank_timer.h"

#include <algorithm>

#include "hw/spec/sram_words.h"

namespace npu::spec {
namespace {

// a * b / c, rounded down, exactly: in 64 bits where the product fits (a 128-bit division is a
// library call, and this is the compiler's innermost timing loop), else in 128.
uint64_t MulDiv(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t product = 0;
  if (!__builtin_mul_overflow(a, b, &product)) return product / c;
  return static_cast<uint64_t>(static_cast<unsigned __int128>(a) * b / c);
}

}  // namespace

SramBankTimer::SramBankTimer(const NpuConfig& c)
    : banks_(c.sram().banks()),
      width_(c.sram().bank_width_bytes()),
      free_(banks_, 0),
      streams_(banks_),
      words_(banks_, 0) {}

uint64_t SramBankTimer::Stream::HeldBefore(uint64_t t) const {
  if (t <= start) return 0;
  if (t >= start + cycles) return words;
  return MulDiv(words, t - start, cycles);
}

uint64_t SramBankTimer::FinishAfter(uint64_t bank, uint64_t from, uint64_t words) const {
  const Stream& stream = streams_[bank];
  const uint64_t end = stream.start + stream.cycles;
  if (stream.words == 0 || from >= end) return from + words;
  if (from < stream.start) {  // the cycles before the stream are all free
    if (stream.start - from >= words) return from + words;
    words -= stream.start - from;
    from = stream.start;
  }
  // Cycles of [from, t) the stream leaves: t - from less the words it holds there, one more
  // every cycle or not (a stream holds at most one word per cycle), so this grows by 0 or 1.
  const uint64_t held_from = stream.HeldBefore(from);
  const auto left = [&](uint64_t t) { return (t - from) - (stream.HeldBefore(t) - held_from); };
  const uint64_t left_in_stream = left(end);
  if (left_in_stream < words) return end + (words - left_in_stream);
  // The first t with left(t) = words: near words * cycles / (cycles - stream words). Gallop
  // from that guess to a bracket, then bisect (left never decreases; a stream that leaves few
  // cycles can make the guess far off).
  const uint64_t spare = stream.cycles - stream.words;  // > 0: the stream leaves some cycles
  const uint64_t guess = from + MulDiv(words, stream.cycles, spare);
  uint64_t lo = from, hi = end;  // left(lo) < words <= left(hi)
  const uint64_t t = std::clamp(guess, from + 1, end);
  uint64_t step = 1;
  if (left(t) >= words) {  // walk down from the guess
    hi = t;
    for (; hi - lo > step && left(hi - step) >= words; step *= 2) hi -= step;
    if (hi - lo > step) lo = hi - step;
  } else {  // walk up
    lo = t;
    for (; hi - lo > step && left(lo + step) < words; step *= 2) lo += step;
    if (hi - lo > step) hi = lo + step;
  }
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (left(mid) >= words ? hi : lo) = mid;
  }
  return hi;
}

SramBankTimer::Booking SramBankTimer::Book(const SramAccess& a, uint64_t at) {
  std::fill(words_.begin(), words_.end(), 0);
  AddBankWords(a, width_, words_);
  Booking booking{at, 0};
  for (uint64_t b = 0; b < banks_; ++b) {
    if (words_[b] == 0) continue;
    booking.words += words_[b];
    free_[b] = FinishAfter(b, std::max(at, free_[b]), words_[b]);
    booking.finish = std::max(booking.finish, free_[b]);
  }
  return booking;
}

uint64_t SramBankTimer::BookStream(uint64_t addr, uint64_t words, uint64_t at, uint64_t cycles) {
  if (words == 0) return at;
  const uint64_t first = addr / width_ % banks_;
  uint64_t start = at;
  for (uint64_t i = 0; i < banks_; ++i) {
    const uint64_t b = (first + i) % banks_;
    words_[b] = words / banks_ + (i < words % banks_ ? 1 : 0);
    if (words_[b] == 0) continue;
    start = std::max({start, free_[b], streams_[b].start + streams_[b].cycles});
  }
  for (uint64_t b = 0; b < banks_; ++b) {
    // A stream never holds more than one word per cycle (ConvComputeCycles ensures it).
    if (words_[b] > 0) streams_[b] = {start, cycles, std::min(words_[b], cycles)};
  }
  return start;
}

}  // namespace npu::spec
