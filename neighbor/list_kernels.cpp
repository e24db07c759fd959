// The list-build registry: every kernel template, instantiated per {full, half} x {column, row}
// as LAMMPS's NPairKokkos is per list flags, and picked once when the builder is set up.
#include <vector>

#include "mdremap/error.hpp"
#include "neighbor/build_avx512.hpp"
#include "neighbor/build_cuda.hpp"
#include "neighbor/build_portable.hpp"

namespace mdremap::neighbor {

std::string to_string(BuildKernel k) {
  switch (k) {
    case BuildKernel::Auto:
      return "auto";
    case BuildKernel::Portable:
      return "portable";
    case BuildKernel::HostAvx512:
      return "avx512";
    case BuildKernel::CellCandidates:
      return "cell-candidates";
    case BuildKernel::CellAtoms:
      return "cell-atoms";
  }
  return "?";
}

namespace {

template <class T, class Space>
class Registry {
 public:
  // Registers Kernel<T, Space, Half, ColumnMajor> for the four list shapes, where it runs on Space.
  template <template <class, class, bool, bool> class Kernel>
  void add() {
    if constexpr (Kernel<T, Space, false, true>::runs_on) {
      add_one<Kernel<T, Space, false, true>>(false, true);
      add_one<Kernel<T, Space, false, false>>(false, false);
      add_one<Kernel<T, Space, true, true>>(true, true);
      add_one<Kernel<T, Space, true, false>>(true, false);
    }
  }
  const std::vector<ListKernel<T, Space>>& kernels() const { return all_; }

 private:
  template <class K>
  void add_one(bool half, bool column_major) {
    all_.push_back({K::kind, half, column_major, K::soa_positions, &K::run});
  }
  std::vector<ListKernel<T, Space>> all_;
};

// In order of preference: Auto takes the first that runs on the space.
template <class T, class Space>
Registry<T, Space> make_registry() {
  Registry<T, Space> r;
#if defined(KOKKOS_ENABLE_CUDA)
  r.template add<CellCandidatesBuild>();  // build_cuda.hpp
  r.template add<CellAtomsBuild>();       // build_cuda.hpp
#endif
#ifdef MDREMAP_HOST_AVX512
  r.template add<Avx512Build>();  // build_avx512.hpp
#endif
  r.template add<PortableBuild>();  // build_portable.hpp
  // A new list kind: a header with
  //   template <class T, class Space, bool Half, bool ColumnMajor> struct MyBuild {
  //     static constexpr BuildKernel kind = ...;   // its name (list_build.hpp)
  //     static constexpr bool runs_on = ...;       // the spaces it serves
  //     static constexpr bool soa_positions = ...; // positions as x, y, z blocks
  //     static BuildKernel run(const ListBuildArgs<T, Space>&);
  //   };
  // included above, and one line here: r.template add<MyBuild>();
  return r;
}

}  // namespace

template <class T, class Space>
ListKernel<T, Space> pick_list_kernel(BuildKernel want, bool half, bool column_major) {
  static const Registry<T, Space> registry = make_registry<T, Space>();
  for (const auto& k : registry.kernels())
    if ((want == BuildKernel::Auto || k.kind == want) && k.half == half &&
        k.column_major == column_major)
      return k;
  throw Error("neighbor list: no '" + to_string(want) + "' build kernel for a " +
              (half ? "half" : "full") + (column_major ? " column-major" : " row-major") +
              " list on " + Space::name() + " in this build");
}

#define MDREMAP_INSTANTIATE(Space)                                                           \
  template ListKernel<float, Space> pick_list_kernel<float, Space>(BuildKernel, bool, bool); \
  template ListKernel<double, Space> pick_list_kernel<double, Space>(BuildKernel, bool, bool);
MDREMAP_NEIGHBOR_FOR_SPACES(MDREMAP_INSTANTIATE)
#undef MDREMAP_INSTANTIATE

}  // namespace mdremap::neighbor
