#pragma once
// Which GPU a run uses (`--device`). Without the flag Kokkos decides: KOKKOS_DEVICE_ID if set,
// else under mpirun the node-local rank modulo the visible GPUs, else GPU 0.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace mdremap::cli {

// GPUs this process can see (CUDA_VISIBLE_DEVICES applied); 0 on a CPU build or with no driver.
int visible_gpus();

// The device id `spec` names for this process: "N" for every rank, or "N,M,..." where the
// node-local rank r takes entry r modulo the list's length. Refused (InputError naming
// --device) on a CPU build, for a malformed list, or for an id no visible GPU has.
int choose_device(const std::string& spec, int local_rank);

// This process's node-local MPI rank from the launcher's environment (Open MPI, MPICH, Slurm),
// or 0 when not launched by one.
int local_rank_from_environment();

// Every visible GPU: id, name, memory (for `info`).
nlohmann::json devices_json();

}  // namespace mdremap::cli
