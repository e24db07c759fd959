#pragma once
// The texture memory path (seed 003 Algorithm 3, line 13: read-only data accessed randomly ->
// texture). CUDA texture objects over linear device memory; an element of T (16*k bytes) is k
// int4 texels. Builds without CUDA refuse with a message instead of falling back silently.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <string>

#include "mdremap/error.hpp"
#include "mdremap/remap/accessors.hpp"
#include "mdremap/remap/device_pattern.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace mdremap::remap {

#if defined(KOKKOS_ENABLE_CUDA)
using TextureHandle = cudaTextureObject_t;
#else
using TextureHandle = unsigned long long;
#endif

inline bool texture_path_available() {
#if defined(KOKKOS_ENABLE_CUDA)
  return true;
#else
  return false;
#endif
}

inline void require_texture_path() {
  if (!texture_path_available())
    throw Error(
        "gather path 'texture' needs CUDA texture objects (seed 003 Algorithm 3); this build runs "
        "on the " +
        std::string(Kokkos::DefaultExecutionSpace::name()) +
        " backend, which has no texture path: use gather_path readonly or global");
}

// Owns one texture object bound to a device array of T; rebinds when the array moves or grows.
template <class T>
class TextureObject {
 public:
  static constexpr int kTexels = sizeof(T) / 16 > 0 ? sizeof(T) / 16 : 1;
  TextureObject() = default;
  TextureObject(const TextureObject&) = delete;
  TextureObject& operator=(const TextureObject&) = delete;
  ~TextureObject() { release(); }

  TextureHandle bind(const T* data, std::int64_t count) {
    require_texture_path();
    if (sizeof(T) % 16 != 0)
      throw Error("gather path 'texture': elements must be a multiple of 16 bytes (int4 texels)");
    if (data == ptr_ && count == count_ && handle_ != 0) return handle_;
    release();
#if defined(KOKKOS_ENABLE_CUDA)
    int dev = 0, align = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&align, cudaDevAttrTextureAlignment, dev);
    const int max_width = max_texels();
    // Linear textures must start on the device's texture alignment (512 B on Hopper); Kokkos
    // data sit after a 128-byte allocation header. Bind from the aligned address below and
    // shift every fetch by the difference, in texels (the data are 16-byte aligned).
    const auto addr = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t base = align > 0 ? addr & ~static_cast<std::uintptr_t>(align - 1) : addr;
    if ((addr - base) % 16 != 0) throw Error("gather path 'texture': data are not 16-byte aligned");
    shift_ = static_cast<std::int64_t>((addr - base) / 16);
    if (max_width > 0 && count * kTexels + shift_ > max_width)
      throw Error("gather path 'texture': " + std::to_string(count) +
                  " elements exceed the device's 1-D linear texture width (" +
                  std::to_string(max_width / kTexels) + "); use readonly");
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = reinterpret_cast<void*>(base);
    res.res.linear.desc = cudaCreateChannelDesc<int4>();
    res.res.linear.sizeInBytes = static_cast<std::size_t>(count) * sizeof(T) + (addr - base);
    cudaTextureDesc td{};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t h = 0;
    const cudaError_t err = cudaCreateTextureObject(&h, &res, &td, nullptr);
    if (err != cudaSuccess)
      throw Error(std::string("gather path 'texture': cudaCreateTextureObject failed: ") +
                  cudaGetErrorString(err));
    handle_ = h;
#endif
    ptr_ = data;
    count_ = count;
    return handle_;
  }
  // Whether one 1-D linear texture of this device addresses count elements (with the
  // alignment shift, below 512 / 16 = 32 texels).
  // Asked on every force launch of gather path split: the device's width is queried once.
  static bool fits(std::int64_t count) {
    if (!texture_path_available()) return false;
    const int max_width = max_texels();
    return max_width <= 0 || count * kTexels + 32 <= max_width;
  }
  TextureHandle handle() const {
    return handle_;
  }
  // Texel offset of element 0 from the bound address (see bind).
  std::int64_t shift() const {
    return shift_;
  }

 private:
  // The current device's 1-D linear texture width in texels (0 where unknown), queried once: a
  // process keeps its device.
  static int max_texels() {
#if defined(KOKKOS_ENABLE_CUDA)
    static const int width = [] {
      int dev = 0, w = 0;
      cudaGetDevice(&dev);
      cudaDeviceGetAttribute(&w, cudaDevAttrMaxTexture1DLinearWidth, dev);
      return w;
    }();
    return width;
#else
    return 0;
#endif
  }
  void release() {
#if defined(KOKKOS_ENABLE_CUDA)
    if (handle_ != 0) cudaDestroyTextureObject(handle_);
#endif
    handle_ = 0;
    ptr_ = nullptr;
    count_ = 0;
  }
  TextureHandle handle_ = 0;
  std::int64_t shift_ = 0;  // texels between the bound (aligned) address and the data
  const T* ptr_ = nullptr;
  std::int64_t count_ = 0;
};

// Reads element i of T through the texture cache (device code only).
template <class T>
KOKKOS_INLINE_FUNCTION T texture_fetch(const TextureHandle tex, const std::int64_t i,
                                       const std::int64_t shift = 0) {
  T v{};
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) % 16 == 0) {
    constexpr int k = sizeof(T) / 16;
    int4 texels[k];
    for (int c = 0; c < k; ++c)
      texels[c] = tex1Dfetch<int4>(tex, static_cast<int>(shift + i * k + c));
    memcpy(&v, texels, sizeof(T));
  }
#else
  (void)tex;
  (void)i;
  (void)shift;
#endif
  return v;
}

// The gather accessor (accessors.hpp) with the data read through a texture object.
template <class T, PatternLayout L = PatternLayout::Strided>
struct TextureGatherAccess {
  TextureHandle tex = 0;
  Kokkos::View<const int*> index;
  Kokkos::View<const int*> len;
  std::int64_t stride_j = 0;
  std::int64_t stride_t = 1;
  Kokkos::View<const std::int64_t*> start;
  Kokkos::View<const double*> weights;
  std::int64_t shift = 0;  // TextureObject::shift()

  static TextureGatherAccess of(const PatternView& pv, TextureHandle tex, std::int64_t shift) {
    return {tex, pv.index, pv.len, pv.stride_j, pv.stride_t, pv.start, pv.weight, shift};
  }
  KOKKOS_INLINE_FUNCTION std::int64_t pos(const int j, const std::int64_t t) const {
    if constexpr (L == PatternLayout::Strided)
      return j * stride_j + t * stride_t;
    else
      return start(t) + j;
  }
  KOKKOS_INLINE_FUNCTION int count(const std::int64_t t) const { return len(t); }
  KOKKOS_INLINE_FUNCTION int source(const int j, const std::int64_t t) const {
    return index(pos(j, t));
  }
  KOKKOS_INLINE_FUNCTION T operator()(const int j, const std::int64_t t) const {
    return texture_fetch<T>(tex, source(j, t), shift);
  }
  KOKKOS_INLINE_FUNCTION double weight(const int j, const std::int64_t t) const {
    return weights(pos(j, t));
  }
};

// The gather accessor with each reference read through both of the L1's data pipes (gather
// path split, gather_path.hpp): element(e, k) of a 32-byte T takes its first 16 bytes by __ldg
// (the load/store pipe) and its second by a texture fetch; a 16-byte T goes through the texture
// pipe where the reference number k is odd, the load/store pipe where it is even, so that a
// thread's consecutive references use both. The values are the element's bytes whichever pipe
// reads them: a kernel sums exactly what the read-only path gives it. No test of the element's
// index guards a fetch (the strategy runs split only where the texture covers the array): a
// predicate on every load lost most of the gain.
template <class T, PatternLayout L = PatternLayout::Strided>
struct SplitGatherAccess : GatherAccess<T, GatherPath::ReadOnly, L> {
  using ReadOnly = GatherAccess<T, GatherPath::ReadOnly, L>;  // the index, the array
  static constexpr bool kNumberedElements = true;             // AccessTraits: element(e, k)
  TextureHandle tex = 0;
  std::int64_t shift = 0;  // TextureObject::shift()

  static SplitGatherAccess of(const PatternView& pv, Kokkos::View<const T*> data, TextureHandle tex,
                              std::int64_t shift) {
    return {ReadOnly::of(pv, data), tex, shift};
  }
  KOKKOS_FORCEINLINE_FUNCTION T element(const std::int64_t e, const int k) const {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDA_ARCH__)
    // 16-byte aligned: TextureObject::bind checked the array's start.
    const auto* s = reinterpret_cast<const int4*>(this->data.data() + e);
    if constexpr (sizeof(T) == 32) {
      int4 q[2];
      q[0] = __ldg(s);
      q[1] = tex1Dfetch<int4>(tex, static_cast<int>(shift + 2 * e + 1));
      T v;
      memcpy(&v, q, sizeof(T));
      return v;
    } else if constexpr (sizeof(T) == 16) {
      const int4 q = (k & 1) ? tex1Dfetch<int4>(tex, static_cast<int>(shift + e)) : __ldg(s);
      T v;
      memcpy(&v, &q, sizeof(T));
      return v;
    } else {
      (void)k;
      return load_readonly(this->data.data() + e);  // not reached: the strategy refuses other sizes
    }
#else
    (void)k;
    return this->data(e);
#endif
  }
  KOKKOS_INLINE_FUNCTION T operator()(const int j, const std::int64_t t) const {
    return element(this->source(j, t), j);
  }
};

}  // namespace mdremap::remap
