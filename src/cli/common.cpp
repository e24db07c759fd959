#include "cli/common.hpp"

#include "cli/run_log.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cli/device_choice.hpp"
#include "cli/run_log.hpp"
#include "comm/runtime.hpp"
#include "io/deck.hpp"
#include "io/h5md_writer.hpp"
#include "io/paths.hpp"
#include "io/staged_file.hpp"
#include "io/staged_output.hpp"
#include "mdremap/error.hpp"
#include "neighbor/avx512.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif
#include <H5public.h>

namespace mdremap::cli {

void write_summary(io::StagedFile& out, const nlohmann::json& j) {
  io::write_staged(out, [&](std::ostream& f) { f << j.dump(2) << "\n"; });
}

void write_summary(const std::string& path, const nlohmann::json& j) {
  io::write_staged(path, [&](std::ostream& f) { f << j.dump(2) << "\n"; });
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
  // MPI: built in or not, this process's ranks, whether the exchange hands device memory to MPI
  // (GPU-aware) or stages it through the host. A decomposed run's H5MD file is written by every
  // rank together where HDF5 is the MPI flavour; checkpoints are gathered onto rank 0, which writes
  // them (and the H5MD file without parallel HDF5).
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

void check_output(const std::string& flag, const std::string& path) {
  if (path.empty()) return;
  try {
    io::check_writable(path);
  } catch (const Error& e) {
    throw InputError(flag, 0, e.what());
  }
}

void print_run_header(const std::string& what, const std::string& deck_path, const io::Deck& deck) {
  fmt::print("mdremap {} | backend {} | {}\n", MDREMAP_VERSION, device_backend(), what);
  if (!verbose()) fmt::print("# deck: {} (-v prints it resolved)\n", deck_path);
  std::string text = fmt::format("# resolved deck ({}):\n", deck_path);
  const std::string y = deck.resolved_yaml();
  for (size_t pos = 0, nl; pos < y.size(); pos = nl + 1) {
    nl = y.find('\n', pos);
    if (nl == std::string::npos) nl = y.size();
    text += fmt::format("#   {}\n", y.substr(pos, nl - pos));
  }
  std::fflush(stdout);
  detail(text);
}

ProgressLine::ProgressLine(bool enabled, double plain_interval, double since)
    : enabled_(enabled), tty_(stdout_is_tty()), interval_(plain_interval), last_(since) {}

bool ProgressLine::due(double seconds, bool now) {
  if (!enabled_ || (seconds - last_ < (tty_ ? 0.25 : interval_) && !now)) return false;
  last_ = seconds;
  return true;
}

void ProgressLine::show(const std::string& line) {
  if (tty_) {
    std::printf("\r\033[K%s", line.c_str());
    shown_ = true;
  } else {
    std::printf("progress: %s\n", line.c_str());
  }
  std::fflush(stdout);
}

void ProgressLine::clear() {
  if (shown_) std::printf("\r\033[K");
  shown_ = false;
}

}  // namespace mdremap::cli
