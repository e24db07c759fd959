#include "cg/npy.hpp"

#include <fmt/format.h>

#include <ostream>

#include "io/staged_output.hpp"
#include "mdremap/error.hpp"

namespace mdremap::cg {

namespace {

static_assert(sizeof(double) == 8 && sizeof(std::int64_t) == 8 && sizeof(std::int32_t) == 4);

template <class T>
void write_npy(const std::string& path, const std::vector<T>& v, const char* descr) {
  std::string header =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({},), }}", descr, v.size());
  // Magic (6) + version (2) + header length (2) + header, padded with spaces to a multiple of 64
  // and ended by a newline.
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  io::write_staged(path, [&](std::ostream& out) {
    const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    out.write(reinterpret_cast<const char*>(magic), 8);
    const auto len = static_cast<std::uint16_t>(header.size());
    const unsigned char le[2] = {static_cast<unsigned char>(len & 0xff),
                                 static_cast<unsigned char>(len >> 8)};
    out.write(reinterpret_cast<const char*>(le), 2);
    out << header;
    out.write(reinterpret_cast<const char*>(v.data()),
              static_cast<std::streamsize>(v.size() * sizeof(T)));
  });
}

}  // namespace

void write_system_npy(const std::string& prefix, const LinearSystem& s) {
  // The .npy descriptors below assume a little-endian host (x86-64, aarch64).
  write_npy(prefix + "_rowptr.npy", s.a.rowptr, "<i8");
  write_npy(prefix + "_col.npy", s.a.col, "<i4");
  write_npy(prefix + "_val.npy", s.a.val, "<f8");
  write_npy(prefix + "_b.npy", s.b, "<f8");
  if (!s.xstar.empty()) write_npy(prefix + "_xstar.npy", s.xstar, "<f8");
}

}  // namespace mdremap::cg
