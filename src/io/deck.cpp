#include "io/deck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace mdremap::io {

struct DeckSource {
  std::string file;
  std::set<std::string> overridden;  // dotted paths set on the command line
};

int edit_distance(const std::string& a, const std::string& b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  int best_d = 1 << 30;
  for (const auto& c : candidates) {
    const int d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  const int limit = std::max<int>(2, static_cast<int>(word.size()) / 2);
  return best_d <= limit ? best : std::string();
}

namespace {

int line_of(const YAML::Node& n) {
  if (!n.IsDefined()) return 0;
  const auto m = n.Mark();
  return m.is_null() ? 0 : m.line + 1;
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, bool>) return "true or false";
  if constexpr (std::is_integral_v<T>) return "an integer";
  if constexpr (std::is_floating_point_v<T>) return "a number";
  if constexpr (std::is_same_v<T, std::string>) return "a string";
  return "a list";
}

}  // namespace

DeckSection::DeckSection(std::shared_ptr<DeckSource> src, YAML::Node node, YAML::Node resolved,
                         std::string path)
    : src_(std::move(src)), node_(node), resolved_(resolved), path_(std::move(path)) {
  if (node_.IsDefined() && !node_.IsNull() && !node_.IsMap())
    fail("", "expected a map of keys (section '" + path_ + "')");
}

YAML::Node DeckSection::child(const std::string& key) const {
  known_.insert(key);
  if (!node_.IsDefined() || node_.IsNull()) return YAML::Node(YAML::NodeType::Undefined);
  return node_[key];
}

bool DeckSection::has(const std::string& key) const {
  known_.insert(key);
  return node_.IsDefined() && node_.IsMap() && node_[key].IsDefined() && !node_[key].IsNull();
}

void DeckSection::fail(const std::string& key, const std::string& problem) const {
  const std::string full = key.empty() ? path_ : path_of(key);
  if (src_->overridden.count(full)) throw InputError("--set " + full, 0, problem);
  YAML::Node n = (!key.empty() && node_.IsDefined() && node_.IsMap()) ? node_[key] : node_;
  int line = line_of(n);
  if (line == 0) line = line_of(node_);
  throw InputError(src_->file, line, key.empty() ? problem : "'" + full + "': " + problem);
}

template <class T>
T DeckSection::get(const std::string& key, const T& fallback) {
  YAML::Node n = child(key);
  T value = fallback;
  if (n.IsDefined() && !n.IsNull()) {
    if (n.IsMap() ||
        (n.IsSequence() && !std::is_same_v<T, std::vector<int>> &&
         !std::is_same_v<T, std::vector<double>> && !std::is_same_v<T, std::vector<std::string>>))
      fail(key, std::string("expected ") + type_name<T>());
    try {
      value = n.as<T>();
    } catch (const YAML::Exception&) {
      std::string shown = n.IsScalar() ? n.Scalar() : std::string("a list");
      fail(key, fmt::format("expected {}, got '{}'", type_name<T>(), shown));
    }
  }
  if constexpr (std::is_floating_point_v<T>) {
    resolved_[key] = fmt::format("{}", value);  // shortest exact form: 0.3, not 0.2999...
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    YAML::Node seq(YAML::NodeType::Sequence);
    for (double v : value) seq.push_back(fmt::format("{}", v));
    resolved_[key] = seq;
  } else {
    resolved_[key] = value;
  }
  return value;
}

template <class T>
T DeckSection::require(const std::string& key) {
  if (!has(key)) fail(key, "is required");
  return get<T>(key, T{});
}

template bool DeckSection::get<bool>(const std::string&, const bool&);
template int DeckSection::get<int>(const std::string&, const int&);
template long DeckSection::get<long>(const std::string&, const long&);
template long long DeckSection::get<long long>(const std::string&, const long long&);
template unsigned long DeckSection::get<unsigned long>(const std::string&, const unsigned long&);
template unsigned long long DeckSection::get<unsigned long long>(const std::string&,
                                                                 const unsigned long long&);
template double DeckSection::get<double>(const std::string&, const double&);
template std::string DeckSection::get<std::string>(const std::string&, const std::string&);
template std::vector<int> DeckSection::get<std::vector<int>>(const std::string&,
                                                             const std::vector<int>&);
template std::vector<double> DeckSection::get<std::vector<double>>(const std::string&,
                                                                   const std::vector<double>&);
template std::vector<std::string> DeckSection::get<std::vector<std::string>>(
    const std::string&, const std::vector<std::string>&);
template double DeckSection::require<double>(const std::string&);
template int DeckSection::require<int>(const std::string&);
template long long DeckSection::require<long long>(const std::string&);
template std::string DeckSection::require<std::string>(const std::string&);
template std::vector<int> DeckSection::require<std::vector<int>>(const std::string&);
template std::vector<std::string> DeckSection::require<std::vector<std::string>>(
    const std::string&);

DeckSection DeckSection::section(const std::string& key) {
  YAML::Node n = child(key);
  if (n.IsDefined() && !n.IsNull() && !n.IsMap()) fail(key, "expected a map of keys");
  YAML::Node r = resolved_[key];
  if (!r.IsMap()) r = YAML::Node(YAML::NodeType::Map), resolved_[key] = r;
  return DeckSection(src_, n, resolved_[key], path_of(key));
}

std::vector<DeckSection> DeckSection::list(const std::string& key) {
  YAML::Node n = child(key);
  std::vector<DeckSection> out;
  if (!n.IsDefined() || n.IsNull()) return out;
  if (!n.IsSequence()) fail(key, "expected a list");
  YAML::Node r(YAML::NodeType::Sequence);
  for (size_t i = 0; i < n.size(); ++i) {
    YAML::Node ri(YAML::NodeType::Map);
    r.push_back(ri);
  }
  resolved_[key] = r;
  for (size_t i = 0; i < n.size(); ++i) {
    if (!n[i].IsMap()) fail(key, fmt::format("element {} must be a map of keys", i + 1));
    out.emplace_back(src_, n[i], resolved_[key][i], fmt::format("{}[{}]", path_of(key), i));
  }
  return out;
}

void DeckSection::finish() const {
  if (!node_.IsDefined() || !node_.IsMap()) return;
  std::vector<std::string> valid(known_.begin(), known_.end());
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const std::string k = it->first.as<std::string>();
    if (known_.count(k)) continue;
    const std::string near = nearest(k, valid);
    std::string msg = "unknown key '" + path_of(k) + "'";
    if (!near.empty())
      msg += " (did you mean '" + path_of(near) + "'?)";
    else if (!valid.empty()) {
      msg += " (valid here:";
      for (const auto& v : valid) msg += " " + v;
      msg += ")";
    }
    if (src_->overridden.count(path_of(k))) throw InputError("--set " + path_of(k), 0, msg);
    throw InputError(src_->file, line_of(it->first), msg);
  }
}

Deck Deck::from_string(const std::string& text, const std::string& name) {
  Deck d;
  d.src_ = std::make_shared<DeckSource>();
  d.src_->file = name;
  try {
    d.doc_ = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError(name, e.mark.line + 1, "YAML syntax error: " + e.msg);
  }
  if (d.doc_.IsNull()) d.doc_ = YAML::Node(YAML::NodeType::Map);
  if (!d.doc_.IsMap()) throw InputError(name, 1, "a deck must be a map of sections");
  d.resolved_ = YAML::Node(YAML::NodeType::Map);
  return d;
}

Deck Deck::from_file(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw InputError(file, 0, "cannot open deck (missing file or no permission)");
  std::stringstream ss;
  ss << in.rdbuf();
  return from_string(ss.str(), file);
}

void Deck::apply_override(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set", 0, "expected key=value, got '" + assignment + "'");
  const std::string key = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  YAML::Node value;
  try {
    value = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError("--set " + key, 0, "cannot parse value '" + text + "': " + e.msg);
  }
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string p; std::getline(ss, p, '.');) {
    if (p.empty()) throw InputError("--set", 0, "malformed key '" + key + "'");
    parts.push_back(p);
  }
  // yaml-cpp nodes are handles: walk down by reassignment of a copy chain.
  std::vector<YAML::Node> chain{doc_};
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node next = chain.back()[parts[i]];
    if (!next.IsDefined() || next.IsNull()) {
      chain.back()[parts[i]] = YAML::Node(YAML::NodeType::Map);
      next = chain.back()[parts[i]];
    } else if (!next.IsMap()) {
      throw InputError("--set " + key, 0, "'" + parts[i] + "' is not a section");
    }
    chain.push_back(next);
  }
  chain.back()[parts.back()] = value;
  std::string prefix;
  for (const auto& p : parts) {
    prefix = prefix.empty() ? p : prefix + "." + p;
  }
  src_->overridden.insert(prefix);
}

DeckSection Deck::root() {
  return DeckSection(src_, doc_, resolved_, "");
}

std::string Deck::resolved_yaml() const {
  YAML::Emitter out;
  out << resolved_;
  return out.c_str();
}

const std::string& Deck::file() const {
  return src_->file;
}

}  // namespace mdremap::io
