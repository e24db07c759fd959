#pragma once
// How ghost positions travel between the ranks' GPUs (parallel.transfer, comm/domain_exchange):
// `Auto`: GPU-aware MPI where the library is, else CUDA IPC between the ranks' GPUs where every
// pair can (comm/peer_window.hpp), else host staging; `Host`: host staging always; `Peer`: CUDA
// IPC, even beside a GPU-aware MPI, or an error.
namespace mdremap::comm {

enum class Transfer { Auto, Host, Peer };

}  // namespace mdremap::comm
