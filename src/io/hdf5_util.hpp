#pragma once
// Internal helpers over the HDF5 C API shared by the H5MD writer and the checkpoint code.
// Identifiers close themselves (RAII); a failed call throws h5::Failure with a short reason,
// which each caller turns into an mdremap::Error / InputError that names its file.
#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace mdremap::io::h5 {

// A failed HDF5 call; `what()` says which object, never the whole HDF5 error stack.
class Failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline hid_t check(hid_t id, const std::string& what) {
  if (id < 0) throw Failure(what);
  return id;
}
inline void check_status(herr_t status, const std::string& what) {
  if (status < 0) throw Failure(what);
}

// Owns one identifier; the close function matches its kind (file, group, dataset, ...).
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) {
    other.id_ = H5I_INVALID_HID;
  }
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = other.id_;
      closer_ = other.closer_;
      other.id_ = H5I_INVALID_HID;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now and reports failure (a file close is where buffered data reaches the disk).
  herr_t close() {
    herr_t status = id_ >= 0 ? closer_(id_) : 0;
    id_ = H5I_INVALID_HID;
    return status;
  }
  void reset() { static_cast<void>(close()); }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

// Silences HDF5's automatic error-stack printing while alive: we report one line ourselves.
class QuietErrors {
 public:
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// File-access properties with HDF5's own file locking off, for files whose lock StagedFile
// holds already: HDF5's flock on a second descriptor of the same file would conflict with it.
inline Handle fapl_without_locking() {
  Handle fapl(check(H5Pcreate(H5P_FILE_ACCESS), "cannot create file-access properties"), H5Pclose);
  check_status(H5Pset_file_locking(fapl.get(), false, true), "cannot switch off file locking");
  return fapl;
}

// Memory (native) and file (fixed little-endian) types for the element types we store.
template <class T>
struct Type;
template <>
struct Type<double> {
  static hid_t mem() { return H5T_NATIVE_DOUBLE; }
  static hid_t file() { return H5T_IEEE_F64LE; }
};
template <>
struct Type<std::int32_t> {
  static hid_t mem() { return H5T_NATIVE_INT32; }
  static hid_t file() { return H5T_STD_I32LE; }
};
template <>
struct Type<std::int64_t> {
  static hid_t mem() { return H5T_NATIVE_INT64; }
  static hid_t file() { return H5T_STD_I64LE; }
};
template <>
struct Type<std::uint64_t> {
  static hid_t mem() { return H5T_NATIVE_UINT64; }
  static hid_t file() { return H5T_STD_U64LE; }
};

inline Handle dataspace(const std::vector<hsize_t>& dims,
                        const std::vector<hsize_t>& maxdims = {}) {
  if (dims.empty())
    return Handle(check(H5Screate(H5S_SCALAR), "cannot create dataspace"), H5Sclose);
  return Handle(check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(),
                                       maxdims.empty() ? nullptr : maxdims.data()),
                      "cannot create dataspace"),
                H5Sclose);
}

// Fixed-length, NUL-terminated string type holding `chars` characters (H5MD asks for
// fixed-length strings; the terminator keeps C readers safe).
inline Handle string_type(std::size_t chars, bool utf8 = false) {
  Handle type(check(H5Tcopy(H5T_C_S1), "cannot create string type"), H5Tclose);
  check_status(H5Tset_size(type.get(), chars + 1), "cannot size string type");
  check_status(H5Tset_strpad(type.get(), H5T_STR_NULLTERM), "cannot set string padding");
  check_status(H5Tset_cset(type.get(), utf8 ? H5T_CSET_UTF8 : H5T_CSET_ASCII),
               "cannot set string charset");
  return type;
}

inline Handle create_group(hid_t loc, const std::string& name) {
  return Handle(check(H5Gcreate2(loc, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                      "cannot create group '" + name + "'"),
                H5Gclose);
}
inline Handle open_group(hid_t loc, const std::string& name) {
  return Handle(check(H5Gopen2(loc, name.c_str(), H5P_DEFAULT), "missing group '" + name + "'"),
                H5Gclose);
}
inline Handle open_dataset(hid_t loc, const std::string& name) {
  return Handle(check(H5Dopen2(loc, name.c_str(), H5P_DEFAULT), "missing dataset '" + name + "'"),
                H5Dclose);
}
inline bool has_link(hid_t loc, const std::string& name) {
  return H5Lexists(loc, name.c_str(), H5P_DEFAULT) > 0;
}
inline bool has_attr(hid_t loc, const std::string& name) {
  return H5Aexists(loc, name.c_str()) > 0;
}

// ---- attributes -------------------------------------------------------------------------

template <class T>
void write_attr(hid_t loc, const std::string& name, const T* values,
                const std::vector<hsize_t>& dims) {
  Handle space = dataspace(dims);
  Handle attr(
      check(H5Acreate2(loc, name.c_str(), Type<T>::file(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
            "cannot create attribute '" + name + "'"),
      H5Aclose);
  check_status(H5Awrite(attr.get(), Type<T>::mem(), values),
               "cannot write attribute '" + name + "'");
}
template <class T>
void write_attr(hid_t loc, const std::string& name, T value) {
  write_attr(loc, name, &value, {});
}

inline void write_attr_strings(hid_t loc, const std::string& name,
                               const std::vector<std::string>& values, bool scalar = false) {
  std::size_t width = 0;
  for (const auto& s : values) width = std::max(width, s.size());
  Handle type = string_type(width);
  std::vector<char> buf(values.size() * (width + 1), '\0');
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i].copy(buf.data() + i * (width + 1), values[i].size());
  Handle space = scalar ? dataspace({}) : dataspace({values.size()});
  Handle attr(
      check(H5Acreate2(loc, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
            "cannot create attribute '" + name + "'"),
      H5Aclose);
  check_status(H5Awrite(attr.get(), type.get(), buf.data()),
               "cannot write attribute '" + name + "'");
}
inline void write_attr_string(hid_t loc, const std::string& name, const std::string& value) {
  write_attr_strings(loc, name, {value}, /*scalar=*/true);
}

template <class T>
T read_attr(hid_t loc, const std::string& name) {
  Handle attr(check(H5Aopen(loc, name.c_str(), H5P_DEFAULT), "missing attribute '" + name + "'"),
              H5Aclose);
  Handle space(check(H5Aget_space(attr.get()), "unreadable attribute '" + name + "'"), H5Sclose);
  if (H5Sget_simple_extent_npoints(space.get()) != 1)
    throw Failure("attribute '" + name + "' is not a scalar");
  T value{};
  check_status(H5Aread(attr.get(), Type<T>::mem(), &value), "unreadable attribute '" + name + "'");
  return value;
}

template <class T>
std::vector<T> read_attr_array(hid_t loc, const std::string& name, std::size_t expected) {
  Handle attr(check(H5Aopen(loc, name.c_str(), H5P_DEFAULT), "missing attribute '" + name + "'"),
              H5Aclose);
  Handle space(check(H5Aget_space(attr.get()), "unreadable attribute '" + name + "'"), H5Sclose);
  if (H5Sget_simple_extent_npoints(space.get()) != static_cast<hssize_t>(expected))
    throw Failure("attribute '" + name + "' has the wrong size");
  std::vector<T> values(expected);
  check_status(H5Aread(attr.get(), Type<T>::mem(), values.data()),
               "unreadable attribute '" + name + "'");
  return values;
}

// Reads a fixed-length string attribute (scalar or [k]) as strings, trimmed at the first NUL.
inline std::vector<std::string> read_attr_strings(hid_t loc, const std::string& name) {
  Handle attr(check(H5Aopen(loc, name.c_str(), H5P_DEFAULT), "missing attribute '" + name + "'"),
              H5Aclose);
  Handle type(check(H5Aget_type(attr.get()), "unreadable attribute '" + name + "'"), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) != 0)
    throw Failure("attribute '" + name + "' is not a fixed-length string");
  Handle space(check(H5Aget_space(attr.get()), "unreadable attribute '" + name + "'"), H5Sclose);
  const std::size_t width = H5Tget_size(type.get());
  const auto count = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
  std::vector<char> buf(count * width);
  check_status(H5Aread(attr.get(), type.get(), buf.data()), "unreadable attribute '" + name + "'");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) {
    const char* s = buf.data() + i * width;
    std::size_t len = 0;
    while (len < width && s[len] != '\0') ++len;
    out.emplace_back(s, len);
  }
  return out;
}
inline std::string read_attr_string(hid_t loc, const std::string& name) {
  auto values = read_attr_strings(loc, name);
  if (values.size() != 1) throw Failure("attribute '" + name + "' is not a single string");
  return values.front();
}

// ---- whole datasets ---------------------------------------------------------------------

template <class T>
void write_dataset(hid_t loc, const std::string& name, const std::vector<T>& values) {
  Handle space = dataspace({values.size()});
  Handle set(check(H5Dcreate2(loc, name.c_str(), Type<T>::file(), space.get(), H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT),
                   "cannot create dataset '" + name + "'"),
             H5Dclose);
  if (!values.empty())
    check_status(H5Dwrite(set.get(), Type<T>::mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                 "cannot write dataset '" + name + "'");
}

template <class T>
std::vector<T> read_dataset(hid_t loc, const std::string& name) {
  Handle set = open_dataset(loc, name);
  Handle space(check(H5Dget_space(set.get()), "unreadable dataset '" + name + "'"), H5Sclose);
  if (H5Sget_simple_extent_ndims(space.get()) != 1)
    throw Failure("dataset '" + name + "' is not one-dimensional");
  std::vector<T> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get())));
  if (!values.empty())
    check_status(H5Dread(set.get(), Type<T>::mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                 "unreadable dataset '" + name + "'");
  return values;
}

// A scalar fixed-length UTF-8 string dataset (decks can exceed the 64 KiB attribute limit).
inline void write_string_dataset(hid_t loc, const std::string& name, const std::string& value) {
  Handle type = string_type(value.size(), /*utf8=*/true);
  Handle space = dataspace({});
  Handle set(check(H5Dcreate2(loc, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT,
                              H5P_DEFAULT),
                   "cannot create dataset '" + name + "'"),
             H5Dclose);
  std::vector<char> buf(value.size() + 1, '\0');
  value.copy(buf.data(), value.size());
  check_status(H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()),
               "cannot write dataset '" + name + "'");
}

inline std::string read_string_dataset(hid_t loc, const std::string& name) {
  Handle set = open_dataset(loc, name);
  Handle type(check(H5Dget_type(set.get()), "unreadable dataset '" + name + "'"), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) != 0)
    throw Failure("dataset '" + name + "' is not a fixed-length string");
  std::vector<char> buf(H5Tget_size(type.get()));
  check_status(H5Dread(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()),
               "unreadable dataset '" + name + "'");
  std::size_t len = 0;
  while (len < buf.size() && buf[len] != '\0') ++len;
  return std::string(buf.data(), len);
}

}  // namespace mdremap::io::h5
