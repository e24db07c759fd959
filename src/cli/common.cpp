#include "cli/common.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cli/device_choice.hpp"
#include "comm/runtime.hpp"
#include "io/h5md_writer.hpp"
#include "io/staged_file.hpp"
#include "mdremap/avx512.hpp"
#include "mdremap/error.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif
#include <H5public.h>

namespace mdremap::cli {

void write_summary(io::StagedFile& out, const nlohmann::json& j) {
  const std::string& path = out.target();
  {
    std::ofstream f(out.staging(), std::ios::app);  // emptied already; app: a device in place
    if (!f) throw Error(fmt::format("{}: cannot write summary file", path));
    f << j.dump(2) << "\n";
    f.close();
    if (!f) throw Error(fmt::format("{}: write failed (disk full?)", path));
  }
  out.commit();
}

void write_summary(const std::string& path, const nlohmann::json& j) {
  io::StagedFile out(path);
  try {
    write_summary(out, j);
  } catch (...) {
    out.discard();
    throw;
  }
}

std::string device_backend() {
#if defined(KOKKOS_ENABLE_CUDA)
  return "cuda";
#elif defined(KOKKOS_ENABLE_OPENMP)
  return "openmp";
#else
  return "serial";
#endif
}

std::string compiled_backends() {
  std::string s;
#ifdef KOKKOS_ENABLE_CUDA
  s += "cuda ";
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  s += "openmp ";
#endif
#ifdef KOKKOS_ENABLE_SERIAL
  s += "serial ";
#endif
  if (!s.empty()) s.pop_back();
  return s;
}

void check_backend(const std::string& requested) {
  if (requested.empty() || requested == device_backend()) return;
  throw InputError("--backend", 0,
                   fmt::format("backend '{}' is not what this binary runs on: it runs '{}' (built "
                               "with Kokkos {}); build the '{}' preset for it",
                               requested, device_backend(), compiled_backends(), requested));
}

nlohmann::json build_info() {
  nlohmann::json j;
  j["version"] = MDREMAP_VERSION;
  j["kokkos_version"] = fmt::format("{}.{}.{}", KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100,
                                    KOKKOS_VERSION % 100);
  j["backend"] = device_backend();
  j["kokkos_backends"] = compiled_backends();
  j["execution_space"] = Kokkos::DefaultExecutionSpace::name();
  j["concurrency"] = Kokkos::DefaultExecutionSpace().concurrency();
  j["hdf5_version"] = fmt::format("{}.{}.{}", H5_VERS_MAJOR, H5_VERS_MINOR, H5_VERS_RELEASE);
  j["vtk"] = MDREMAP_HAS_VTK != 0;
  j["compiler"] = __VERSION__;
  j["build_type"] = MDREMAP_BUILD_TYPE;
  // MPI (issue 15): built in or not, this process's ranks, whether the exchange hands device
  // memory to MPI (GPU-aware) or stages it through the host. A decomposed run's H5MD file is
  // written by every rank together where HDF5 is the MPI flavour; checkpoints are gathered
  // onto rank 0, which writes them (and the H5MD file without parallel HDF5).
  const auto mpi = comm::mpi_info();
  const bool parallel_h5 = io::H5mdWriter::collective_available();
  j["mpi"] = {{"built", mpi.built},
              {"active", mpi.active},
              {"ranks", mpi.ranks},
              {"library", mpi.library},
              {"gpu_aware", mpi.cuda_aware},
              {"gpu_aware_note", mpi.cuda_aware_note},
              {"parallel_hdf5", parallel_h5},
              {"outputs", parallel_h5 ? "H5MD written by every rank (parallel HDF5); checkpoints "
                                        "gathered to rank 0; VTK a piece per rank"
                                      : "H5MD and checkpoints gathered to rank 0 (no parallel "
                                        "HDF5); VTK a piece per rank"}};
  // The host's AVX-512 loops (full-list LJ sum and list build): compiled in where the compiler
  // targets AVX-512; otherwise the portable loops run.
#ifdef MDREMAP_HOST_AVX512
  j["host_simd"] = "avx512";
#else
  j["host_simd"] = "portable";
#endif
#ifdef KOKKOS_ENABLE_CUDA
  int dev = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&prop, dev) == cudaSuccess) {
    j["device"] = {{"id", dev},
                   {"name", prop.name},
                   {"compute_capability", fmt::format("{}.{}", prop.major, prop.minor)},
                   {"multiprocessors", prop.multiProcessorCount},
                   {"l2_bytes", prop.l2CacheSize},
                   {"memory_bytes", prop.totalGlobalMem},
                   {"shared_per_block_optin", prop.sharedMemPerBlockOptin}};
  }
#endif
  j["devices"] = devices_json();
  return j;
}

Progress::Progress(bool enabled, double plain_interval)
    : enabled_(enabled), tty_(isatty(fileno(stdout)) != 0), interval_(plain_interval) {}

void Progress::update(std::int64_t done, std::int64_t total, double seconds) {
  if (!enabled_ || total <= 0) return;
  const double every = tty_ ? 0.25 : interval_;
  if (seconds - last_ < every && done != total) return;
  if (done == total && !tty_) return;  // the run summary follows
  last_ = seconds;
  const double rate = seconds > 0 ? done / seconds : 0;
  const double eta = rate > 0 ? (total - done) / rate : 0;
  const int e = static_cast<int>(eta + 0.5);
  const std::string line =
      fmt::format("step {}/{} ({:.1f}%)  {:.1f} steps/s  ETA {}:{:02d}:{:02d}", done, total,
                  100.0 * done / total, rate, e / 3600, e / 60 % 60, e % 60);
  if (tty_) {
    std::printf("\r\033[K%s", line.c_str());
    shown_ = true;
  } else {
    std::printf("progress: %s\n", line.c_str());
  }
  std::fflush(stdout);
}

void Progress::clear() {
  if (tty_ && shown_) {
    std::printf("\r\033[K");
    shown_ = false;
  }
}

void Progress::finish() {
  clear();
}

}  // namespace mdremap::cli
