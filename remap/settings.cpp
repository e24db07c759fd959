// Key declarations (settings.hpp): the builders and the keys several strategies share.
#include "mdremap/remap/settings.hpp"

#include <utility>

namespace mdremap::remap {

namespace {

RemapKey make(std::string name, KeyKind kind, std::string help) {
  RemapKey k;
  k.name = std::move(name);
  k.kind = kind;
  k.help = std::move(help);
  return k;
}

}  // namespace

RemapKey RemapKey::integer(std::string name, std::string help,
                           std::function<long long(const RemapSettings&)> get,
                           std::function<void(RemapSettings&, long long)> set) {
  RemapKey k = make(std::move(name), KeyKind::Int, std::move(help));
  k.get_int = std::move(get);
  k.set_int = std::move(set);
  return k;
}

RemapKey RemapKey::integer64(std::string name, std::string help,
                             std::function<long long(const RemapSettings&)> get,
                             std::function<void(RemapSettings&, long long)> set) {
  RemapKey k = integer(std::move(name), std::move(help), std::move(get), std::move(set));
  k.kind = KeyKind::Int64;
  return k;
}

RemapKey RemapKey::real(std::string name, std::string help,
                        std::function<double(const RemapSettings&)> get,
                        std::function<void(RemapSettings&, double)> set) {
  RemapKey k = make(std::move(name), KeyKind::Real, std::move(help));
  k.get_real = std::move(get);
  k.set_real = std::move(set);
  return k;
}

RemapKey RemapKey::boolean(std::string name, std::string help,
                           std::function<bool(const RemapSettings&)> get,
                           std::function<void(RemapSettings&, bool)> set) {
  RemapKey k = make(std::move(name), KeyKind::Bool, std::move(help));
  k.get_bool = std::move(get);
  k.set_bool = std::move(set);
  return k;
}

RemapKey RemapKey::choice(std::string name, std::string help, std::vector<std::string> values,
                          std::function<std::string(const RemapSettings&)> get,
                          std::function<void(RemapSettings&, const std::string&)> set) {
  RemapKey k = make(std::move(name), KeyKind::Choice, std::move(help));
  k.values = std::move(values);
  k.get_text = std::move(get);
  k.set_text = std::move(set);
  return k;
}

RemapKey& RemapKey::within(double l, double h, std::string p, bool open) {
  lo = l;
  hi = h;
  lo_open = open;
  problem = std::move(p);
  return *this;
}

RemapKey& RemapKey::at_least(double l, std::string p) {
  return within(l, std::numeric_limits<double>::infinity(), std::move(p));
}

RemapKey& RemapKey::with_flag(std::string f) {
  flag = std::move(f);
  return *this;
}

RemapKey& RemapKey::noting(const std::string& value, std::string note) {
  notes[value] = std::move(note);
  return *this;
}

RemapKey& RemapKey::checked(std::function<std::string(const RemapSettings&)> c) {
  check = std::move(c);
  return *this;
}

RemapKey cache_key() {
  return RemapKey::boolean(
      "cache",
      "dup, padding, sharing: keep the remapped copy while the data is unchanged (seed 000 §5.2)",
      [](const RemapSettings& s) { return s.options.cache; },
      [](RemapSettings& s, bool v) { s.options.cache = v; });
}

RemapKey block_key() {
  return RemapKey::integer(
             "block", "sharing: threads per block; labelprop: threads per cluster",
             [](const RemapSettings& s) { return s.options.block_threads; },
             [](RemapSettings& s, long long v) { s.options.block_threads = static_cast<int>(v); })
      .within(1, 1024, "must be 1..1024");
}

RemapKey partition_bytes_key() {
  const char* problem = "must be 0 (half the device's L2) or at least 64";
  return RemapKey::integer64(
             "partition_bytes",
             "reorder partition, throttle: the data a cache-fit part may touch, in bytes (seed "
             "002 Algorithm 1); 0: half the device's L2",
             [](const RemapSettings& s) { return s.partition_bytes; },
             [](RemapSettings& s, long long v) {
               s.partition_bytes = v;
               s.options.throttle.cache_bytes = v;
             })
      .at_least(0, problem)
      .checked([problem](const RemapSettings& s) {
        return s.partition_bytes != 0 && s.partition_bytes < 64 ? std::string(problem)
                                                                : std::string();
      });
}

const char* to_string(Toggle t) {
  switch (t) {
    case Toggle::Off:
      return "off";
    case Toggle::On:
      return "on";
    case Toggle::Auto:
      return "auto";
  }
  return "?";
}

}  // namespace mdremap::remap
