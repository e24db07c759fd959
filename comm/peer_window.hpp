#pragma once
// A receive window in this rank's GPU memory that one partner rank writes into itself, through
// CUDA IPC (cudaIpcGetMemHandle / cudaIpcOpenMemHandle) and peer access: the device-to-device
// path a GPU-aware MPI takes between ranks of one node, for an MPI library that is not
// GPU-aware (Debian's Open MPI 4.1 is not). The window holds two slots, used in
// turn, so a writer one exchange ahead never overwrites what the reader has not copied yet,
// and a flag word after them: the writer's kernels store the number of the exchange whose slot
// they filled (release, system scope) and the reader's kernels wait for it (acquire), so the
// step's ghost update needs no host round-trip (domain_exchange.cpp says why the slots stay safe).
// Only in CUDA builds; elsewhere available() is false and nothing else may be called.
#include <Kokkos_Macros.hpp>  // the backend macros only (the deck reader asks available())

#include <cstddef>
#include <cstdint>
#include <string>

namespace mdremap::comm {

// What a window's owner sends to the rank that writes into it (plain bytes over MPI).
struct PeerWindowInfo {
  unsigned char handle[64] = {};  // cudaIpcMemHandle_t
  std::uint64_t generation = 0;   // changes whenever the window is reallocated
  std::uint64_t slot_bytes = 0;   // each of the two slots
  std::uint64_t host = 0;         // hash of the host name: IPC only within one node
  int ok = 0;                     // the owner could export its window
};

class PeerWindow {
 public:
  static constexpr bool available() {  // a CUDA build
#ifdef KOKKOS_ENABLE_CUDA
    return true;
#else
    return false;
#endif
  }
  PeerWindow() = default;
  ~PeerWindow();
  PeerWindow(const PeerWindow&) = delete;
  PeerWindow& operator=(const PeerWindow&) = delete;

  // The owner's side: slots of at least `slot_bytes` (reallocated, with a new generation, when
  // too small; the previous allocation is freed at the next call, by when its writer has
  // replaced its mapping) and what the writer needs to open them.
  PeerWindowInfo reserve(std::size_t slot_bytes);
  void* slot(std::uint64_t use) const;  // this rank's slot for exchange number `use`
  std::uint64_t* flag() const;          // written by the partner, read here

  // The writer's side: maps the partner's window (again only when its generation changed).
  // Returns "" or why it could not (then nothing is mapped).
  std::string open_remote(const PeerWindowInfo& info);
  void* remote_slot(std::uint64_t use) const;
  std::uint64_t* remote_flag() const;
  std::size_t remote_slot_bytes() const {
    return remote_slot_bytes_;
  }

 private:
  void release_remote();
  void* local_ = nullptr;
  void* retired_ = nullptr;
  std::size_t slot_bytes_ = 0;
  std::uint64_t generation_ = 0;
  void* remote_ = nullptr;
  std::size_t remote_slot_bytes_ = 0;
  std::uint64_t remote_generation_ = 0;
};

}  // namespace mdremap::comm
