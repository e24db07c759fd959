#include "io/gsd_file.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "io/staged_file.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {

namespace gsd {

namespace {

constexpr std::uint64_t kMagic = 0x65DF65DF65DF65DFull;
constexpr std::uint32_t kVersion2 = 2u << 16;  // 0xaaaabbbb: 2.0
constexpr std::size_t kHeaderBytes = 256;
constexpr std::size_t kEntryBytes = 32;
constexpr std::size_t kSegment = 64;  // name list allocation unit; v1's fixed name length

// Little-endian fields of the header and of an index entry, packed by hand (the format is
// little-endian; so is every machine this builds for).
template <class T>
T load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
void store(unsigned char* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

Entry unpack(const unsigned char* p) {
  Entry e;
  e.frame = load<std::uint64_t>(p);
  e.n = load<std::uint64_t>(p + 8);
  e.location = load<std::int64_t>(p + 16);
  e.m = load<std::uint32_t>(p + 24);
  e.id = load<std::uint16_t>(p + 28);
  e.type = p[30];
  e.flags = p[31];
  return e;
}
void pack(const Entry& e, unsigned char* p) {
  store(p, e.frame);
  store(p + 8, e.n);
  store(p + 16, e.location);
  store(p + 24, e.m);
  store(p + 28, e.id);
  p[30] = e.type;
  p[31] = e.flags;
}

// The values as T; false where a floating-point value has no T (an integer chunk asked for
// as floats in the file: not finite, not whole, or out of T's range).
template <class T>
bool convert(const unsigned char* raw, std::uint8_t type, std::size_t count, std::vector<T>& out) {
  out.resize(count);
  bool ok = true;
  auto each = [&](auto tag) {
    using S = decltype(tag);
    for (std::size_t i = 0; i < count; ++i) {
      const S v = load<S>(raw + i * sizeof(S));
      if constexpr (std::is_integral_v<T> && std::is_floating_point_v<S>) {
        // 2^63 is exact in double; every whole value below it fits in int64.
        if (!(v == std::trunc(v) && v >= -0x1p63 && v < 0x1p63)) {
          ok = false;
          continue;
        }
      }
      out[i] = static_cast<T>(v);
    }
  };
  switch (type) {
    case kUInt8:
    case kCharacter:
      each(std::uint8_t{});
      break;
    case kUInt16:
      each(std::uint16_t{});
      break;
    case kUInt32:
      each(std::uint32_t{});
      break;
    case kUInt64:
      each(std::uint64_t{});
      break;
    case kInt8:
      each(std::int8_t{});
      break;
    case kInt16:
      each(std::int16_t{});
      break;
    case kInt32:
      each(std::int32_t{});
      break;
    case kInt64:
      each(std::int64_t{});
      break;
    case kFloat:
      each(float{});
      break;
    case kDouble:
      each(double{});
      break;
  }
  return ok;
}

}  // namespace

std::size_t size_of(std::uint8_t type) {
  switch (type) {
    case kUInt8:
    case kInt8:
    case kCharacter:
      return 1;
    case kUInt16:
    case kInt16:
      return 2;
    case kUInt32:
    case kInt32:
    case kFloat:
      return 4;
    case kUInt64:
    case kInt64:
    case kDouble:
      return 8;
  }
  return 0;
}

Reader::Reader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {
  in_.seekg(0, std::ios::end);
  const std::streamoff end = in_.tellg();
  if (end < 0) fail("cannot read the file");
  size_ = static_cast<std::uint64_t>(end);
  if (size_ < kHeaderBytes) fail("too short for a GSD header (256 bytes)");
  unsigned char h[kHeaderBytes];
  bytes(0, kHeaderBytes, h, "header");
  if (load<std::uint64_t>(h) != kMagic) fail("not a GSD file (no GSD magic number)");
  const auto index_location = load<std::uint64_t>(h + 8);
  const auto index_allocated = load<std::uint64_t>(h + 16);
  const auto namelist_location = load<std::uint64_t>(h + 24);
  const auto namelist_allocated = load<std::uint64_t>(h + 32);
  const auto version = load<std::uint32_t>(h + 44);
  const std::uint32_t major = version >> 16;
  if (major != 1 && major != 2)
    fail(fmt::format("GSD file layer version {}.{} is not supported (1.x and 2.x are)", major,
                     version & 0xffff));
  schema_.assign(reinterpret_cast<const char*>(h + 112),
                 strnlen(reinterpret_cast<const char*>(h + 112), 64));
  // The blocks must lie inside the file (a corrupt size would otherwise allocate at will).
  auto inside = [&](std::uint64_t at, std::uint64_t count, std::uint64_t unit, const char* what) {
    if (count > size_ / unit || at > size_ || count * unit > size_ - at)
      fail(fmt::format("the {} lies outside the file (corrupt or truncated)", what));
  };
  inside(index_location, index_allocated, kEntryBytes, "index");
  inside(namelist_location, namelist_allocated, kSegment, "name list");

  std::vector<unsigned char> names(namelist_allocated * kSegment);
  bytes(namelist_location, names.size(), names.data(), "name list");
  std::vector<std::string> list;
  for (std::size_t at = 0; at < names.size();) {
    if (names[at] == 0) break;
    std::size_t len = 0;
    const std::size_t limit = major == 1 ? kSegment : names.size() - at;
    while (len < limit && at + len < names.size() && names[at + len] != 0) ++len;
    list.emplace_back(reinterpret_cast<const char*>(&names[at]), len);
    at += major == 1 ? kSegment : len + 1;
  }
  if (list.size() > std::numeric_limits<std::uint16_t>::max()) fail("too many chunk names");
  for (std::size_t k = 0; k < list.size(); ++k)
    ids_.emplace(list[k], static_cast<std::uint16_t>(k));

  std::vector<unsigned char> raw(index_allocated * kEntryBytes);
  bytes(index_location, raw.size(), raw.data(), "index");
  for (std::uint64_t k = 0; k < index_allocated; ++k) {
    const Entry e = unpack(&raw[k * kEntryBytes]);
    if (e.location == 0) break;
    const std::size_t unit = size_of(e.type);
    if (unit == 0) fail(fmt::format("index entry {} has an unknown data type {}", k, e.type));
    if (e.id >= list.size())
      fail(fmt::format("index entry {} names chunk {} of {}", k, e.id, list.size()));
    if (e.location < 0) fail(fmt::format("index entry {} has a negative location", k));
    if (e.m == 0 && e.n != 0)
      fail(fmt::format("chunk '{}' has {} rows of no values", list[e.id], e.n));
    if (e.m != 0 && e.n > size_ / e.m)
      fail(fmt::format("chunk '{}' is larger than the file", list[e.id]));
    inside(static_cast<std::uint64_t>(e.location), e.n * e.m, unit,
           ("chunk '" + list[e.id] + "'").c_str());
    if (!entries_.empty() && e.frame < entries_.back().frame)
      fail(fmt::format("index entry {} goes back to frame {}", k, e.frame));
    at_[{e.frame, e.id}] = entries_.size();
    entries_.push_back(e);
    frames_ = e.frame + 1;
  }
}

void Reader::fail(const std::string& problem) const {
  throw InputError(name_, 0, problem);
}

void Reader::bytes(std::uint64_t offset, std::uint64_t count, void* out, const std::string& what) {
  in_.clear();
  in_.seekg(static_cast<std::streamoff>(offset));
  in_.read(static_cast<char*>(out), static_cast<std::streamsize>(count));
  if (!in_ || static_cast<std::uint64_t>(in_.gcount()) != count)
    fail("cannot read the " + what + " (truncated file?)");
}

const Entry* Reader::find(std::uint64_t frame, const std::string& chunk) const {
  auto id = ids_.find(chunk);
  if (id == ids_.end()) return nullptr;
  auto it = at_.find({frame, id->second});
  return it == at_.end() ? nullptr : &entries_[it->second];
}

template <class T>
std::vector<T> Reader::read(const Entry& e, const std::string& what) {
  if (e.type == kCharacter) fail("chunk '" + what + "' holds text, not numbers");
  const std::size_t count = e.n * e.m;
  std::vector<unsigned char> raw(count * size_of(e.type));
  if (!raw.empty()) bytes(static_cast<std::uint64_t>(e.location), raw.size(), raw.data(), what);
  std::vector<T> out;
  if (!convert(raw.data(), e.type, count, out))
    fail("chunk '" + what + "' holds a value that is not a whole number in range");
  return out;
}

std::vector<std::string> Reader::read_strings(const Entry& e, const std::string& what) {
  if (e.type != kInt8 && e.type != kUInt8 && e.type != kCharacter)
    fail("chunk '" + what + "' is not text (int8 rows)");
  std::vector<char> raw(e.n * e.m);
  if (!raw.empty()) bytes(static_cast<std::uint64_t>(e.location), raw.size(), raw.data(), what);
  std::vector<std::string> out;
  for (std::uint64_t r = 0; r < e.n; ++r) {
    const char* s = raw.data() + r * e.m;
    out.emplace_back(s, strnlen(s, e.m));
  }
  return out;
}

template std::vector<double> Reader::read<double>(const Entry&, const std::string&);
template std::vector<std::int64_t> Reader::read<std::int64_t>(const Entry&, const std::string&);

Writer::Writer(StagedFile& out, const std::string& application, const std::string& schema,
               std::uint32_t schema_version, std::vector<std::string> names)
    : out_(out),
      application_(application),
      schema_(schema),
      schema_version_(schema_version),
      names_(std::move(names)) {
  std::string list;
  for (const auto& n : names_) list += n + '\0';
  namelist_segments_ = list.size() / kSegment + 1;  // room for the list's closing NUL
  index_capacity_ = 256;
  index_location_ = kHeaderBytes;
  namelist_location_ = index_location_ + index_capacity_ * kEntryBytes;
  end_ = namelist_location_ + namelist_segments_ * kSegment;
  write_header();
  const std::vector<unsigned char> zeros(index_capacity_ * kEntryBytes, 0);
  write_at(index_location_, zeros.data(), zeros.size());
  std::vector<char> block(namelist_segments_ * kSegment, '\0');
  std::memcpy(block.data(), list.data(), list.size());
  write_at(namelist_location_, block.data(), block.size());
}

void Writer::write_header() {
  unsigned char h[kHeaderBytes] = {};
  store(h, kMagic);
  store(h + 8, index_location_);
  store(h + 16, index_capacity_);
  store(h + 24, namelist_location_);
  store(h + 32, namelist_segments_);
  store(h + 40, schema_version_);
  store(h + 44, kVersion2);
  std::memcpy(h + 48, application_.data(), std::min<std::size_t>(application_.size(), 63));
  std::memcpy(h + 112, schema_.data(), std::min<std::size_t>(schema_.size(), 63));
  write_at(0, h, sizeof(h));
}

void Writer::write_at(std::uint64_t offset, const void* data, std::size_t count) {
  const char* p = static_cast<const char*>(data);
  while (count > 0) {
    const ssize_t w = ::pwrite(out_.fd(), p, count, static_cast<off_t>(offset));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0)
      throw Error("cannot write GSD file '" + out_.target() + "': " +
                  (w < 0 ? std::strerror(errno) : std::string("nothing written (disk full?)")));
    p += w;
    offset += static_cast<std::uint64_t>(w);
    count -= static_cast<std::size_t>(w);
  }
}

void Writer::chunk(const std::string& name, std::uint8_t type, std::uint64_t n, std::uint32_t m,
                   const void* data) {
  int id = -1;
  for (std::size_t k = 0; k < names_.size(); ++k)
    if (names_[k] == name) id = static_cast<int>(k);
  if (id < 0) throw Error("GSD writer: chunk '" + name + "' was not declared");
  if (id <= last_id_) throw Error("GSD writer: chunk '" + name + "' out of order in the frame");
  last_id_ = id;
  Entry e;
  e.frame = frame_;
  e.n = n;
  e.m = m;
  e.id = static_cast<std::uint16_t>(id);
  e.type = type;
  e.location = static_cast<std::int64_t>(end_);
  const std::size_t bytes = n * m * size_of(type);
  write_at(end_, data, bytes);
  end_ += bytes;
  pending_.push_back(e);
}

void Writer::end_frame() {
  if (index_.size() + pending_.size() > index_capacity_) {
    // A larger index at the end of the file, then the header that points to it.
    std::uint64_t capacity = index_capacity_;
    while (index_.size() + pending_.size() > capacity) capacity *= 2;
    std::vector<unsigned char> block(capacity * kEntryBytes, 0);
    for (std::size_t k = 0; k < index_.size(); ++k) pack(index_[k], &block[k * kEntryBytes]);
    for (std::size_t k = 0; k < pending_.size(); ++k)
      pack(pending_[k], &block[(index_.size() + k) * kEntryBytes]);
    const std::uint64_t at = end_;
    write_at(at, block.data(), block.size());
    end_ += block.size();
    index_location_ = at;
    index_capacity_ = capacity;
    write_header();
  } else {
    std::vector<unsigned char> block(pending_.size() * kEntryBytes);
    for (std::size_t k = 0; k < pending_.size(); ++k) pack(pending_[k], &block[k * kEntryBytes]);
    write_at(index_location_ + index_.size() * kEntryBytes, block.data(), block.size());
  }
  index_.insert(index_.end(), pending_.begin(), pending_.end());
  pending_.clear();
  last_id_ = -1;
  ++frame_;
}

}  // namespace gsd

bool gsd_magic_at(const char* bytes) {
  std::uint64_t v;
  std::memcpy(&v, bytes, sizeof(v));
  return v == 0x65DF65DF65DF65DFull;
}

}  // namespace mdremap::io
