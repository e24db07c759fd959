// `mdremap info`: the backends, the device and the build options.
#include "cli/info_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "cli/common.hpp"

namespace mdremap::cli {

void add_info_command(CLI::App& app, InfoOptions& o) {
  auto* info = app.add_subcommand("info", "Print backends, devices and build options");
  info->add_option("--summary", o.summary, "Write the same information as JSON");
}

int run_info(const InfoOptions& o) {
  check_output("--summary", o.summary);
  auto j = build_info();
  fmt::print("mdremap {}\n", j["version"].get<std::string>());
  fmt::print("  backend        {} (Kokkos {} with: {})\n", j["backend"].get<std::string>(),
             j["kokkos_version"].get<std::string>(), j["kokkos_backends"].get<std::string>());
  fmt::print("  exec space     {} (concurrency {})\n", j["execution_space"].get<std::string>(),
             j["concurrency"].get<int>());
  if (j.contains("device")) {
    const auto& d = j["device"];
    fmt::print("  device         {} (sm {}, {} SMs, L2 {} MB, {} GB)\n",
               d["name"].get<std::string>(), d["compute_capability"].get<std::string>(),
               d["multiprocessors"].get<int>(), d["l2_bytes"].get<long>() / 1000000,
               d["memory_bytes"].get<long>() / 1000000000);
  }
  for (const auto& d : j["devices"])
    fmt::print("  GPU {:<10} {} ({} GB, PCI {}){}\n", d["id"].get<int>(),
               d["name"].get<std::string>(), d["memory_bytes"].get<long>() / 1000000000,
               d["pci_bus"].get<std::string>(),
               j.contains("device") && j["device"]["id"] == d["id"] ? "  <- this run" : "");
  fmt::print("  HDF5           {}\n", j["hdf5_version"].get<std::string>());
  fmt::print("  VTK output     {}\n", j["vtk"].get<bool>() ? "yes" : "no (built without VTK)");
  fmt::print("  compiler       {} ({})\n", j["compiler"].get<std::string>(),
             j["build_type"].get<std::string>());
  const auto& mpi = j["mpi"];
  if (!mpi["built"].get<bool>())
    fmt::print("  MPI            no (built without MPI: MDREMAP_MPI=OFF or no MPI found)\n");
  else
    fmt::print(
        "  MPI            {}; {}; GPU-aware: {} ({}); {}\n", mpi["library"].get<std::string>(),
        mpi["active"].get<bool>() ? fmt::format("{} rank(s) in this run", mpi["ranks"].get<int>())
                                  : std::string("not started (run under mpirun for ranks)"),
        mpi["gpu_aware"].get<bool>() ? "yes" : "no", mpi["gpu_aware_note"].get<std::string>(),
        mpi["outputs"].get<std::string>());
  fmt::print("  host loops     {}\n", j["host_simd"].get<std::string>() == "avx512"
                                          ? "AVX-512 (full-list force and list build)"
                                          : "portable (no AVX-512 at compile time)");
  if (!o.summary.empty()) write_summary(o.summary, j);
  return 0;
}

}  // namespace mdremap::cli
