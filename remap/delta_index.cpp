// The 16-bit delta encoding of a strided pattern's index (include/mdremap/remap/delta_index.hpp).
#include "mdremap/remap/delta_index.hpp"

#include <algorithm>
#include <stdexcept>

namespace mdremap::remap {

namespace {

KOKKOS_INLINE_FUNCTION bool fits16(const std::int64_t d) {
  return d >= -32767 && d <= 32767;  // -32768 is the escape code
}

}  // namespace

void encode_delta16(const PatternView& pv, DeltaIndex& d) {
  if (pv.layout != PatternLayout::Strided)
    throw std::invalid_argument(
        "the 16-bit index applies to strided patterns (rows of references per thread)");
  const auto index = pv.index;
  const auto len = pv.len;
  const std::int64_t n = pv.threads, sj = pv.stride_j, st = pv.stride_t;
  using Policy = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>;

  // Escapes in all, references in all, and the most escapes of one thread.
  std::int64_t escapes = 0, refs = 0;
  int most = 0;
  Kokkos::parallel_reduce(
      "Remap::delta16_count", Policy(0, n),
      KOKKOS_LAMBDA(const std::int64_t t, std::int64_t& esc, std::int64_t& nref, int& top) {
        std::int64_t prev = t;
        int e = 0;
        const int cnt = len(t);
        for (int k = 0; k < cnt; ++k) {
          const int j = index(k * sj + t * st);
          if (!fits16(j - prev)) ++e;
          prev = j;
        }
        esc += e;
        nref += cnt;
        if (e > top) top = e;
      },
      Kokkos::Sum<std::int64_t>(escapes), Kokkos::Sum<std::int64_t>(refs), Kokkos::Max<int>(most));

  const int word_rows = (pv.rows + 1) / 2;
  const int far_rows = std::max(most, 1);
  // Grown, never shrunk (a list's rows and a rank's atoms vary a little from build to build);
  // the layouts' stride is this pattern's thread count, whatever the arrays' length.
  if (static_cast<std::int64_t>(d.words.extent(0)) < std::int64_t(word_rows) * n)
    d.words = Kokkos::View<std::uint32_t*>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "Remap::delta16_words"),
        std::int64_t(std::max(word_rows, 1)) * n);
  if (static_cast<std::int64_t>(d.far.extent(0)) < std::int64_t(far_rows) * n)
    d.far =
        Kokkos::View<int*>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "Remap::delta16_far"),
                           std::int64_t(far_rows) * n);
  d.threads = n;
  d.word_rows = word_rows;
  d.far_rows = far_rows;
  const auto words = d.words;
  const auto far = d.far;
  Kokkos::parallel_for(
      "Remap::delta16_write", Policy(0, n), KOKKOS_LAMBDA(const std::int64_t t) {
        std::int64_t prev = t;
        int e = 0;
        const int cnt = len(t);
        std::uint32_t lo = 0;
        for (int k = 0; k < cnt; ++k) {
          const int j = index(k * sj + t * st);
          const std::int64_t dj = j - prev;
          std::uint32_t c;
          if (fits16(dj)) {
            c = static_cast<std::uint16_t>(static_cast<std::int16_t>(dj));
          } else {
            c = kDeltaEscape;
            far(std::int64_t(e++) * n + t) = j;
          }
          prev = j;
          if (k & 1)
            words((k / 2) * n + t) = lo | (c << 16);
          else
            lo = c;
        }
        if (cnt & 1) words((cnt / 2) * n + t) = lo;
      });
  d.references = refs;
  d.escapes = escapes;
}

}  // namespace mdremap::remap
