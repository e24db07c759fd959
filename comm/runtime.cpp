#include "comm/runtime.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#ifdef MDREMAP_HAS_MPI
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: MPIX_Query_cuda_support where built with it
#endif
#endif

namespace mdremap::comm {

namespace {

bool g_active = false;
int g_rank = 0;
int g_size = 1;

#ifdef MDREMAP_HAS_MPI
// Environment variables the common launchers set in every process they start.
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
                        "MPI_LOCALNRANKS", "SLURM_PROCID"})
    if (std::getenv(v)) return true;
  return false;
}

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  std::fprintf(stderr, "mdremap: error (rank %d): %s failed: %.*s\n", g_rank, what, len, text);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

int to_int_bytes(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw Error("MPI message of more than 2^31 - 1 bytes: use more ranks");
  return static_cast<int>(bytes);
}
#endif

}  // namespace

Session::Session(int& argc, char**& argv) {
#ifdef MDREMAP_HAS_MPI
  if (!launched_by_mpi()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  g_active = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
#else
  (void)argc;
  (void)argv;
  // Started by mpirun -np N > 1 without MPI built in, N processes would each run the whole
  // system alone, writing the same files: refused (rank 0 of the launcher says so).
  for (const char* size : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    const char* v = std::getenv(size);
    if (v && std::atoi(v) > 1) {
      const char* r = std::getenv("OMPI_COMM_WORLD_RANK");
      if (!r) r = std::getenv("PMI_RANK");
      if (!r || std::atoi(r) == 0)
        std::fprintf(stderr,
                     "mdremap: error: started as %s MPI processes, but this mdremap was built "
                     "without MPI (MDREMAP_MPI=OFF or no MPI found): rebuild with MPI, or run "
                     "one process\n",
                     v);
      std::exit(2);
    }
  }
#endif
}

Session::~Session() {
#ifdef MDREMAP_HAS_MPI
  if (g_active) MPI_Finalize();
  g_active = false;
#endif
}

bool built_with_mpi() {
#ifdef MDREMAP_HAS_MPI
  return true;
#else
  return false;
#endif
}
bool active() {
  return g_active;
}
int rank() {
  return g_rank;
}
int size() {
  return g_size;
}

bool cuda_aware() {
  static const bool aware = mpi_info().cuda_aware;
  return aware;
}

MpiInfo mpi_info() {
  MpiInfo m;
  m.built = built_with_mpi();
  m.active = g_active;
  m.ranks = g_size;
#ifdef MDREMAP_HAS_MPI
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);  // callable before MPI_Init
  m.library.assign(version, len);
  const auto eol = m.library.find_first_of(",\r\n");  // "Open MPI v4.1.4, package: ..."
  if (eol != std::string::npos) m.library.resize(eol);
  while (!m.library.empty() && (m.library.back() == ',' || m.library.back() == ' '))
    m.library.pop_back();
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  if (g_active) {
    m.cuda_aware = MPIX_Query_cuda_support() == 1;
    m.cuda_aware_note =
        m.cuda_aware
            ? "MPIX_Query_cuda_support() = 1"
            : "MPIX_Query_cuda_support() = 0: CUDA IPC between GPUs of one node, else host staging";
  } else {
    m.cuda_aware_note = "queried under mpirun only";
  }
#else
  m.cuda_aware_note =
      "mpi-ext.h has no MPIX_Query_cuda_support: CUDA IPC between GPUs of one node, else host "
      "staging";
#endif
#endif
  return m;
}

void sum_in_place(double* values, int count) {
#ifdef MDREMAP_HAS_MPI
  if (g_size > 1)
    check(MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD),
          "MPI_Allreduce");
#else
  (void)values;
  (void)count;
#endif
}

double sum(double v) {
  sum_in_place(&v, 1);
  return v;
}

double max(double v) {
#ifdef MDREMAP_HAS_MPI
  if (g_size > 1)
    check(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
#endif
  return v;
}

void barrier() {
#ifdef MDREMAP_HAS_MPI
  if (g_size > 1) check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
#endif
}

std::int64_t sum(std::int64_t v) {
#ifdef MDREMAP_HAS_MPI
  if (g_size > 1) {
    long long w = v;
    check(MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD),
          "MPI_Allreduce");
    v = w;
  }
#endif
  return v;
}

void sendrecv(const void* send, std::size_t send_bytes, int dest, void* recv,
              std::size_t recv_bytes, int source, int tag) {
#ifdef MDREMAP_HAS_MPI
  if (g_active) {
    // Empty parts are not posted: the partner knows the count (sendrecv_count) and posts none
    // either, so a rank with nothing to exchange along an axis may skip the call altogether.
    MPI_Request req[2];
    int n = 0;
    if (recv_bytes > 0)
      check(MPI_Irecv(recv, to_int_bytes(recv_bytes), MPI_BYTE, source, tag, MPI_COMM_WORLD,
                      &req[n++]),
            "MPI_Irecv");
    if (send_bytes > 0)
      check(
          MPI_Isend(send, to_int_bytes(send_bytes), MPI_BYTE, dest, tag, MPI_COMM_WORLD, &req[n++]),
          "MPI_Isend");
    check(MPI_Waitall(n, req, MPI_STATUSES_IGNORE), "MPI_Waitall");
    return;
  }
#endif
  // One process: this rank is its only partner.
  if (dest != 0 || source != 0 || send_bytes != recv_bytes)
    throw Error("exchange with another rank in a run of one process");
  (void)tag;
  if (send_bytes > 0 && send != recv) std::memmove(recv, send, send_bytes);
}

std::int64_t sendrecv_count(std::int64_t send, int dest, int source, int tag) {
  long long s = send, r = 0;
  sendrecv(&s, sizeof s, dest, &r, sizeof r, source, tag);
  return r;
}

void broadcast(std::string& s) {
#ifdef MDREMAP_HAS_MPI
  if (g_size > 1) {
    long long n = static_cast<long long>(s.size());
    check(MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD), "MPI_Bcast");
    s.resize(static_cast<std::size_t>(n));
    if (n > 0)
      check(MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  }
#else
  (void)s;
#endif
}

void alltoallv(const void* send, const std::vector<std::size_t>& send_bytes,
               std::vector<unsigned char>& recv) {
  recv.clear();
#ifdef MDREMAP_HAS_MPI
  if (g_size > 1) {
    if (send_bytes.size() != static_cast<std::size_t>(g_size))
      throw Error("alltoallv: one byte count per rank expected");
    std::vector<int> scount(g_size), sdispl(g_size), rcount(g_size), rdispl(g_size);
    long long stotal = 0, rtotal = 0;
    for (int r = 0; r < g_size; ++r) {
      scount[r] = to_int_bytes(send_bytes[r]);
      sdispl[r] = static_cast<int>(stotal);
      stotal += scount[r];
    }
    check(MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, MPI_COMM_WORLD),
          "MPI_Alltoall");
    for (int r = 0; r < g_size; ++r) {
      rdispl[r] = static_cast<int>(rtotal);
      rtotal += rcount[r];
    }
    if (stotal > std::numeric_limits<int>::max() || rtotal > std::numeric_limits<int>::max())
      throw Error("alltoallv: more than 2 GB on one rank: not supported");
    recv.resize(static_cast<std::size_t>(rtotal));
    check(MPI_Alltoallv(send, scount.data(), sdispl.data(), MPI_BYTE, recv.data(), rcount.data(),
                        rdispl.data(), MPI_BYTE, MPI_COMM_WORLD),
          "MPI_Alltoallv");
    return;
  }
#endif
  std::size_t total = 0;
  for (std::size_t b : send_bytes) total += b;
  recv.assign(static_cast<const unsigned char*>(send),
              static_cast<const unsigned char*>(send) + total);
}

void gather_to_root(const void* send, std::size_t bytes, std::vector<unsigned char>& out) {
  out.clear();
#ifdef MDREMAP_HAS_MPI
  if (g_size > 1) {
    long long mine = static_cast<long long>(bytes);
    std::vector<long long> all(g_rank == 0 ? g_size : 0);
    check(MPI_Gather(&mine, 1, MPI_LONG_LONG, all.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD),
          "MPI_Gather");
    std::vector<int> counts, displs;
    if (g_rank == 0) {
      long long total = 0;
      for (long long c : all) {
        counts.push_back(static_cast<int>(c));
        displs.push_back(static_cast<int>(total));
        total += c;
      }
      // MPI counts are int: a gathered array beyond 2 GB would need chunks (a 4M-atom frame's
      // largest array is 96 MB).
      if (total > std::numeric_limits<int>::max())
        throw Error("gathering more than 2 GB onto rank 0 for an output: not supported");
      out.resize(static_cast<std::size_t>(total));
    }
    check(MPI_Gatherv(send, static_cast<int>(bytes), MPI_BYTE, out.data(), counts.data(),
                      displs.data(), MPI_BYTE, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
    return;
  }
#endif
  const auto* p = static_cast<const unsigned char*>(send);
  out.assign(p, p + bytes);
}

void on_root(void (*f)(void*), void* arg) {
  std::exception_ptr failure;
  int code = 0;
  if (g_rank == 0) {
    try {
      f(arg);
    } catch (const CollectiveError& e) {
      failure = std::current_exception();
      code = e.exit_code();
    } catch (const InputError&) {
      failure = std::current_exception();
      code = 2;
    } catch (const std::exception&) {
      failure = std::current_exception();
      code = 1;
    }
  }
#ifdef MDREMAP_HAS_MPI
  if (g_size > 1) check(MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
#endif
  if (code == 0) return;
  if (g_rank != 0) throw CollectiveError("(reported by rank 0)", code);
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& e) {
    throw CollectiveError(e.what(), code);
  }
}

void agree_on_failure(int exit_code, const std::string& message) {
  if (!g_active || g_size == 1) {
    if (exit_code != 0) throw CollectiveError(message, exit_code);
    return;
  }
#ifdef MDREMAP_HAS_MPI
  // One reduction: how many failed, the largest code, and the range of the failed messages'
  // hashes (equal: every rank met the same error).
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : message) h = (h ^ c) * 1099511628211ull;
  const bool failed = exit_code != 0;
  long long v[4] = {failed ? 1 : 0, exit_code, failed ? static_cast<long long>(h >> 1) : -1,
                    failed ? -static_cast<long long>(h >> 1) : -1};
  long long all[4];
  check(MPI_Allreduce(v, all, 4, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  long long nfailed = 0;
  check(MPI_Allreduce(&v[0], &nfailed, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  if (nfailed == 0) return;
  const int code = static_cast<int>(all[1]);
  if (nfailed == g_size && all[2] == -all[3]) throw CollectiveError(message, code);
  if (failed) {
    std::fprintf(stderr, "mdremap: error (MPI rank %d of %d): %s\n", g_rank, g_size,
                 printable_message(message).c_str());
    std::fflush(stderr);
  }
  // Every failed rank has printed before the job ends.
  MPI_Barrier(MPI_COMM_WORLD);
  abort(code);
#else
  if (exit_code != 0) throw CollectiveError(message, exit_code);
#endif
}

void abort(int exit_code) {
  std::fflush(stdout);
  std::fflush(stderr);
#ifdef MDREMAP_HAS_MPI
  if (g_active && g_size > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
#endif
  std::exit(exit_code);
}

}  // namespace mdremap::comm
