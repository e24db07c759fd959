#pragma once
// The GSD file layer (HOOMD-blue's format, gsd.readthedocs.io "File layer", version 2.0),
// written once here for the reader of a system frame (io/gsd_system.cpp) and the trajectory
// writer (io/gsd_writer.cpp).
//
// A file is a 256-byte header (magic 0x65DF65DF65DF65DF, the locations and sizes of the index
// and the name list, the application, the schema and its version), an index of 32-byte entries
// (frame, N, location, M, name id, type, flags; sorted by frame, then name id; the first entry
// at location 0 ends it), a name list (v2: names separated by NUL bytes, in 64-byte segments)
// and the data chunks (N x M values of one type, little-endian, C order).
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mdremap::io {

class StagedFile;

namespace gsd {

enum Type : std::uint8_t {
  kUInt8 = 1,
  kUInt16 = 2,
  kUInt32 = 3,
  kUInt64 = 4,
  kInt8 = 5,
  kInt16 = 6,
  kInt32 = 7,
  kInt64 = 8,
  kFloat = 9,
  kDouble = 10,
  kCharacter = 11,
};
// Bytes of one value of `type`; 0 for a type the format does not define.
std::size_t size_of(std::uint8_t type);

struct Entry {
  std::uint64_t frame = 0;
  std::uint64_t n = 0;
  std::int64_t location = 0;
  std::uint32_t m = 0;
  std::uint16_t id = 0;
  std::uint8_t type = 0;
  std::uint8_t flags = 0;
};

// Reads a GSD file from a seekable stream; every offset and size is checked against the file's
// length before it is used. Problems throw an InputError naming `name`.
class Reader {
 public:
  Reader(std::istream& in, std::string name);

  std::uint64_t frames() const { return frames_; }
  const std::string& schema() const { return schema_; }
  // The chunk `chunk` of frame `frame`, or null where that frame lacks it.
  const Entry* find(std::uint64_t frame, const std::string& chunk) const;
  // A chunk's N x M values converted to T (a numeric chunk; `what` names it in errors).
  template <class T>
  std::vector<T> read(const Entry& e, const std::string& what);
  // A chunk of characters (int8, uint8 or character) as rows of NUL-terminated text.
  std::vector<std::string> read_strings(const Entry& e, const std::string& what);
  [[noreturn]] void fail(const std::string& problem) const;

 private:
  void bytes(std::uint64_t offset, std::uint64_t count, void* out, const std::string& what);
  std::istream& in_;
  std::string name_;
  std::uint64_t size_ = 0;
  std::uint64_t frames_ = 0;
  std::string schema_;
  std::vector<Entry> entries_;
  std::map<std::string, std::uint16_t> ids_;
  std::map<std::pair<std::uint64_t, std::uint16_t>, std::size_t> at_;
};

// Writes a GSD file into a locked staging file (io/staged_file.hpp) with a fixed list of chunk
// names: each frame's chunks are written in the order of that list, then the frame's index
// entries, so a killed run leaves a file whose complete frames all read back.
class Writer {
 public:
  Writer(StagedFile& out, const std::string& application, const std::string& schema,
         std::uint32_t schema_version, std::vector<std::string> names);
  // Adds chunk `name` (one of the names) to the current frame: n rows of m values of `type`.
  void chunk(const std::string& name, std::uint8_t type, std::uint64_t n, std::uint32_t m,
             const void* data);
  // Ends the frame: its index entries are written (the index grows when full).
  void end_frame();
  std::uint64_t frames() const { return frame_; }

 private:
  void write_at(std::uint64_t offset, const void* data, std::size_t count);
  void write_header();
  StagedFile& out_;
  std::string application_, schema_;
  std::uint32_t schema_version_;
  std::vector<std::string> names_;
  std::uint64_t index_location_ = 0, index_capacity_ = 0, namelist_location_ = 0,
                namelist_segments_ = 0, end_ = 0, frame_ = 0;
  std::vector<Entry> index_, pending_;
  int last_id_ = -1;
};

}  // namespace gsd

// The first 8 bytes of a GSD file.
bool gsd_magic_at(const char* bytes);

}  // namespace mdremap::io
