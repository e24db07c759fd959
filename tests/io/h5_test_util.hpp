#pragma once
// Minimal HDF5 C API readers for the output tests (H5MD writer, MD output): failures become test
// failures (EXPECT), not exceptions, and an unreadable object reads as empty.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstring>
#include <string>
#include <vector>

namespace mdremap::io::test {

struct H5 {
  hid_t id;
  herr_t (*closer)(hid_t);
  ~H5() {
    if (id >= 0) closer(id);
  }
};

inline std::vector<hsize_t> shape(hid_t file, const std::string& path) {
  H5 set{H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose};
  EXPECT_GE(set.id, 0) << path;
  if (set.id < 0) return {};
  H5 space{H5Dget_space(set.id), H5Sclose};
  std::vector<hsize_t> dims(H5Sget_simple_extent_ndims(space.id));
  H5Sget_simple_extent_dims(space.id, dims.data(), nullptr);
  return dims;
}

template <class T>
std::vector<T> read_all(hid_t file, const std::string& path, hid_t mem_type) {
  H5 set{H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose};
  EXPECT_GE(set.id, 0) << path;
  if (set.id < 0) return {};
  H5 space{H5Dget_space(set.id), H5Sclose};
  std::vector<T> out(H5Sget_simple_extent_npoints(space.id));
  EXPECT_GE(H5Dread(set.id, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), 0) << path;
  return out;
}

template <class T>
std::vector<T> read_attr(hid_t file, const std::string& obj, const std::string& name,
                         hid_t mem_type) {
  H5 attr{H5Aopen_by_name(file, obj.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
  EXPECT_GE(attr.id, 0) << obj << "@" << name;
  if (attr.id < 0) return {};
  H5 space{H5Aget_space(attr.id), H5Sclose};
  std::vector<T> out(H5Sget_simple_extent_npoints(space.id));
  H5Aread(attr.id, mem_type, out.data());
  return out;
}

// A string attribute (scalar or array); H5MD wants fixed-length strings.
inline std::vector<std::string> read_string_attr(hid_t file, const std::string& obj,
                                                 const std::string& name) {
  H5 attr{H5Aopen_by_name(file, obj.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
  EXPECT_GE(attr.id, 0) << obj << "@" << name;
  if (attr.id < 0) return {};
  H5 type{H5Aget_type(attr.id), H5Tclose};
  EXPECT_EQ(H5Tget_class(type.id), H5T_STRING);
  EXPECT_EQ(H5Tis_variable_str(type.id), 0) << "H5MD wants fixed-length strings";
  H5 space{H5Aget_space(attr.id), H5Sclose};
  const std::size_t width = H5Tget_size(type.id);
  const auto count = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.id));
  std::vector<char> buf(width * count + 1, '\0');
  H5Aread(attr.id, type.id, buf.data());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i)
    out.emplace_back(buf.data() + i * width, strnlen(buf.data() + i * width, width));
  return out;
}

inline bool exists(hid_t file, const std::string& path) {
  return H5Lexists(file, path.c_str(), H5P_DEFAULT) > 0;
}

}  // namespace mdremap::io::test
