// compute.rdf on the device (md/compute/rdf.hpp).
#include "md/compute/rdf.hpp"

#include <fmt/format.h>
#include <Kokkos_ScatterView.hpp>

#include "mdremap/error.hpp"
#include "neighbor/ghosts.hpp"
#include "neighbor/periodic.hpp"

namespace mdremap::md {

namespace {
// A GPU team's histogram in shared memory up to this size (3072 bins), small enough that
// several teams fit an SM.
constexpr std::size_t kTeamHistogramBytes = 12 * 1024;
}  // namespace

// Cells of r_max: the list build's stencil then spans one cell each way.
RdfCompute::RdfCompute(int bins, double r_max)
    : bins_(bins),
      r_max_(r_max),
      builder_(r_max, /*half=*/true, /*column_major=*/false, /*bin_size=*/r_max),
      counts_("rdf_counts", bins),
      weighted_("rdf_weighted", bins) {}

void RdfCompute::reset() {
  samples_ = 0;
  volume_sum_ = 0;
  Kokkos::deep_copy(weighted_, 0.0);
}

template <class S>
void RdfCompute::load_positions(Kokkos::View<const Vec4<S>*> x, std::int64_t n) {
  if (local_.extent(0) < static_cast<std::size_t>(n))
    local_ = Kokkos::View<Vec4<double>*>(
        Kokkos::view_alloc("rdf_positions", Kokkos::WithoutInitializing), n);
  auto local = local_;
  Kokkos::parallel_for(
      "Compute::rdf_positions", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const Vec4<S> p = x(i);
        local(i) = Vec4<double>{double(p.x), double(p.y), double(p.z), double(p.w)};
      });
}

template <class S>
void RdfCompute::sample(Kokkos::View<const Vec4<S>*> x, std::int64_t n, const Box<double>& box) {
  for (int d = 0; d < 3; ++d)
    if (box.len[d] < 2.0 * r_max_)
      throw Error(
          fmt::format("compute.rdf: the box edge along {} ({:.6g}) has become shorter "
                      "than twice r_max ({:.6g}): lower compute.rdf.r_max",
                      "xyz"[d], box.len[d], 2.0 * r_max_));
  load_positions<S>(x, n);
  const auto local = Kokkos::subview(local_, std::make_pair(std::int64_t(0), n));
  neighbor::wrap_positions<double>(local, box);
  neighbor::build_ghosts<double>(local, n, box, r_max_, ghosts_);
  const std::size_t total = static_cast<std::size_t>(n + ghosts_.nghost);
  if (all_.extent(0) < total)
    all_ = Kokkos::View<Vec4<double>*>(Kokkos::view_alloc("rdf_all", Kokkos::WithoutInitializing),
                                       total + total / 8);
  neighbor::update_positions<double, double>(local, ghosts_, box, all_);
  builder_.build(all_, ghosts_, box, list_);
  count_pairs(box.volume());
  ++samples_;
  volume_sum_ += box.volume();
}

void RdfCompute::count_pairs(double volume) {
  Kokkos::deep_copy(counts_, 0.0);
  const auto x = all_;
  const auto neighbors = list_.neighbors;
  const auto count = list_.counts;
  const std::int64_t sj = list_.stride_j, si = list_.stride_i;
  const double rsq_max = r_max_ * r_max_;
  const double per_r = bins_ / r_max_;
  const int bins = bins_;
  const std::int64_t n = list_.n;
  // The bin of pair (i, j), or bins when it lies beyond r_max.
  auto bin_of = [=] KOKKOS_FUNCTION(const Vec4<double>& xi, const Vec4<double>& xj) {
    const double dx = xi.x - xj.x, dy = xi.y - xj.y, dz = xi.z - xj.z;
    const double rsq = dx * dx + dy * dy + dz * dz;
    if (rsq >= rsq_max) return bins;
    const int b = static_cast<int>(Kokkos::sqrt(rsq) * per_r);
    return b < bins ? b : bins;
  };
  constexpr bool kHost = Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemSpace>::accessible;
  constexpr int kTeam = 128;
  using Scratch = Kokkos::View<unsigned*, ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  if (kHost || Scratch::shmem_size(bins) > kTeamHistogramBytes) {
    // Host threads each fill a copy (ScatterView duplicates); on a GPU, bins too many for a
    // team's shared memory go to global atomics.
    Kokkos::Experimental::ScatterView<double*> scatter(counts_);
    Kokkos::parallel_for(
        "Compute::rdf_histogram", Kokkos::RangePolicy<ExecSpace>(0, n),
        KOKKOS_LAMBDA(const std::int64_t i) {
          auto h = scatter.access();
          const Vec4<double> xi = x(i);
          for (int j = 0; j < count(i); ++j) {
            const int b = bin_of(xi, x(neighbors(j * sj + i * si)));
            if (b < bins) h(b) += 1.0;
          }
        });
    Kokkos::Experimental::contribute(counts_, scatter);
  } else {
    // A GPU team's pairs go to its own histogram in shared memory, then once per bin to the
    // global counts: the few bins would otherwise take every pair's atomic in turn. Counts are
    // integers, exact in both forms, so the sum is the same either way.
    using Member = Kokkos::TeamPolicy<ExecSpace>::member_type;
    const auto counts = counts_;
    const std::int64_t teams = (n + kTeam - 1) / kTeam;
    Kokkos::parallel_for(
        "Compute::rdf_histogram_teams",
        Kokkos::TeamPolicy<ExecSpace>(teams, kTeam)
            .set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(bins))),
        KOKKOS_LAMBDA(const Member& t) {
          Scratch h(t.team_scratch(0), bins);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(t, bins), [&](const int b) { h(b) = 0; });
          t.team_barrier();
          const std::int64_t i = t.league_rank() * std::int64_t(kTeam) + t.team_rank();
          if (i < n) {
            const Vec4<double> xi = x(i);
            for (int j = 0; j < count(i); ++j) {
              const int b = bin_of(xi, x(neighbors(j * sj + i * si)));
              if (b < bins) Kokkos::atomic_inc(&h(b));
            }
          }
          t.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(t, bins), [&](const int b) {
            if (h(b) != 0u) Kokkos::atomic_add(&counts(b), double(h(b)));
          });
        });
  }
  // Each pair once in the half list: twice as ordered pairs (i, j) and (j, i).
  const auto counts = counts_;
  const auto weighted = weighted_;
  Kokkos::parallel_for(
      "Compute::rdf_accumulate", Kokkos::RangePolicy<ExecSpace>(0, bins_),
      KOKKOS_LAMBDA(const int b) { weighted(b) += 2.0 * counts(b) * volume; });
}

RdfTable RdfCompute::average(std::int64_t natoms) const {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), weighted_);
  std::vector<double> w(h.data(), h.data() + h.extent(0));
  return normalise_rdf(w, r_max_, samples_, volume_sum_, natoms);
}

template void RdfCompute::sample<double>(Kokkos::View<const Vec4<double>*>, std::int64_t,
                                         const Box<double>&);
template void RdfCompute::sample<float>(Kokkos::View<const Vec4<float>*>, std::int64_t,
                                        const Box<double>&);

}  // namespace mdremap::md
