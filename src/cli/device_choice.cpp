#include "cli/device_choice.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "io/number.hpp"
#include "mdremap/error.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace mdremap::cli {

int visible_gpus() {
#ifdef KOKKOS_ENABLE_CUDA
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
  return n;
#else
  return 0;
#endif
}

int local_rank_from_environment() {
  for (const char* var : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                          "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "PMI_LOCAL_RANK"}) {
    const char* v = std::getenv(var);
    int r = 0;
    if (v != nullptr && io::parse_number<int>(v, r).empty() && r >= 0) return r;
  }
  return 0;
}

int choose_device(const std::string& spec, int local_rank) {
#ifndef KOKKOS_ENABLE_CUDA
  throw InputError("--device", 0,
                   fmt::format("this mdremap runs on the CPU ({}): --device chooses a GPU; use "
                               "the cuda build",
                               Kokkos::DefaultExecutionSpace::name()));
#endif
  std::vector<int> ids;
  std::stringstream ss(spec);
  for (std::string item; std::getline(ss, item, ',');) {
    int id = -1;
    const std::string problem = io::parse_number<int>(item, id);
    if (!problem.empty() || id < 0)
      throw InputError("--device", 0,
                       fmt::format("'{}': expected a GPU id (0, 1, ...) or a comma list of them",
                                   item.substr(0, 40)));
    ids.push_back(id);
  }
  if (ids.empty() || spec.back() == ',')
    throw InputError("--device", 0, "expected a GPU id (0, 1, ...) or a comma list of them");
  const int n = visible_gpus();
  for (int id : ids)
    if (id >= n)
      throw InputError("--device", 0,
                       fmt::format("no GPU {}: this process sees {} GPU{} (0..{}; "
                                   "CUDA_VISIBLE_DEVICES applies)",
                                   id, n, n == 1 ? "" : "s", n - 1));
  return ids[static_cast<std::size_t>(local_rank) % ids.size()];
}

nlohmann::json devices_json() {
  nlohmann::json list = nlohmann::json::array();
#ifdef KOKKOS_ENABLE_CUDA
  for (int d = 0; d < visible_gpus(); ++d) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) continue;
    list.push_back({{"id", d},
                    {"name", prop.name},
                    {"memory_bytes", prop.totalGlobalMem},
                    {"pci_bus", fmt::format("{:04x}:{:02x}:{:02x}", prop.pciDomainID, prop.pciBusID,
                                            prop.pciDeviceID)}});
  }
#endif
  return list;
}

}  // namespace mdremap::cli
