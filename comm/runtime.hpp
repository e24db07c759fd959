#pragma once
// The MPI runtime as the rest of mdremap sees it (BRIEF section 11): whether this
// process is one rank of several, the reductions the thermo and the rebuild decision need, the
// point-to-point exchange the domain decomposition runs on, and how errors end a parallel run.
// The only unit that includes mpi.h; built without MPI (MDREMAP_MPI=OFF) every call is the
// one-rank identity, so callers carry no #ifdef.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mdremap/error.hpp"

namespace mdremap::comm {

// MPI for the process's lifetime: initialised only when an MPI launcher started the process
// (mpirun, srun: their environment variables), so `mdremap md deck` without mpirun never
// touches MPI (no singleton start-up, nothing for sanitizers to see). Construct first in main,
// before Kokkos; the destructor finalises.
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

bool built_with_mpi();
bool active();  // MPI initialised (launched by mpirun), even with one rank
int rank();     // 0 without MPI
int size();     // 1 without MPI

// What `mdremap info` reports about MPI.
struct MpiInfo {
  bool built = false;
  bool active = false;
  int ranks = 1;
  std::string library;  // MPI_Get_library_version's first line ("" without MPI)
  // GPU-aware: the library reads and writes device memory itself (MPIX_Query_cuda_support()
  // where mpi-ext.h declares it); otherwise buffers are staged through host memory.
  bool cuda_aware = false;
  std::string cuda_aware_note;  // how that was decided
};
MpiInfo mpi_info();
// Whether the exchange may hand device pointers to MPI (queried once, at run time).
bool cuda_aware();

// Reductions over all ranks (identity on one).
void sum_in_place(double* values, int count);
double sum(double v);
double max(double v);
std::int64_t sum(std::int64_t v);
// Every rank waits until all have come here (nothing on one).
void barrier();

// One exchange of a swap: `send_bytes` from `send` to rank `dest`, `recv_bytes` into `recv`
// from rank `source` (either may be this rank). The partners must agree on the sizes (exchange
// them first with sendrecv_count): a part of zero bytes is not posted at all.
void sendrecv(const void* send, std::size_t send_bytes, int dest, void* recv,
              std::size_t recv_bytes, int source, int tag);
// Exchanges one count with the same partners (sizes the following sendrecv).
std::int64_t sendrecv_count(std::int64_t send, int dest, int source, int tag);

// Rank 0's string on every rank.
void broadcast(std::string& s);

// Every rank sends send_bytes[r] bytes of `send` (consecutive per destination, in rank order)
// to rank r and receives what every rank sent it, concatenated in source-rank order.
void alltoallv(const void* send, const std::vector<std::size_t>& send_bytes,
               std::vector<unsigned char>& recv);

// Gathers `bytes` bytes from every rank onto rank 0, in rank order: rank 0's `out` holds them
// all, the others' is emptied. (Outputs written by rank 0 of a decomposed run.)
void gather_to_root(const void* send, std::size_t bytes, std::vector<unsigned char>& out);
template <class T>
void gather_to_root(const std::vector<T>& send, std::vector<T>& out) {
  std::vector<unsigned char> raw;
  gather_to_root(send.data(), send.size() * sizeof(T), raw);
  out.resize(raw.size() / sizeof(T));
  if (!raw.empty()) std::memcpy(out.data(), raw.data(), raw.size());
}

// An error raised on every rank at the same point, from the same data (the deck, reduced
// thermo): rank 0 reports it once and every rank ends with `exit_code`, no abort needed.
class CollectiveError : public Error {
 public:
  CollectiveError(const std::string& what, int exit_code) : Error(what), code_(exit_code) {}
  int exit_code() const { return code_; }

 private:
  int code_;
};

// Every rank tells the others whether its part failed (`exit_code` 0: it did not) and with
// what message. Nobody failed: returns. Every rank failed alike (the same message: the same
// deck read everywhere): a CollectiveError that rank 0 reports once. Some ranks failed, or
// differently (a deck missing in one rank's working directory): each failing rank prints its
// message naming itself and the job ends with MPI_Abort(the largest exit code), so that no rank
// waits forever in a collective the failed ones never reach. One rank: throws the error.
void agree_on_failure(int exit_code, const std::string& message);

// Runs `f` on every rank, which all run the same code (reading the deck): an Error it throws on
// any rank ends every rank (agree_on_failure; exit 2 for bad input, else 1).
template <class F>
auto on_every_rank(F&& f) -> decltype(f()) {
  using R = decltype(f());
  int code = 0;
  std::string message;
  auto run = [&](auto&& body) {
    try {
      body();
    } catch (const CollectiveError& e) {
      code = e.exit_code(), message = e.what();
    } catch (const InputError& e) {
      code = 2, message = e.what();
    } catch (const std::bad_alloc&) {
      code = 1,
      message = "out of memory (std::bad_alloc): the system is too large for this machine";
    } catch (const std::exception& e) {
      code = 1, message = e.what();
    }
  };
  if constexpr (std::is_void_v<R>) {
    run([&] { f(); });
    agree_on_failure(code, message);
  } else {
    std::optional<R> result;
    run([&] { result.emplace(f()); });
    agree_on_failure(code, message);
    return std::move(*result);
  }
}

// Runs `f` on rank 0 only (opening files, which one process must own) and tells every rank
// how it went: its failure is a CollectiveError everywhere, rank 0 holding the message.
void on_root(void (*f)(void*), void* arg);
template <class F>
void on_root(F&& f) {
  on_root([](void* p) { (*static_cast<std::remove_reference_t<F>*>(p))(); },
          const_cast<void*>(static_cast<const void*>(&f)));
}

// Ends the run on every rank after `message` was printed by this one (an error only this rank
// met: the others may be waiting in a collective). Without MPI: std::exit(code).
[[noreturn]] void abort(int exit_code);

}  // namespace mdremap::comm
