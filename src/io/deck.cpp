#include "io/deck.hpp"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "io/number.hpp"

namespace mdremap::io {

struct DeckSource {
  std::string file;
  // Dotted paths set on the command line, and what set them ("--set run.steps", "--steps").
  std::map<std::string, std::string> overridden;

  // What set `full` on the command line (it, or a section or list holding it), else nullptr;
  // `at` receives the path that was set.
  const std::string* origin_of(const std::string& full, std::string& at) const {
    for (at = full; !at.empty();) {
      const auto set = overridden.find(at);
      if (set != overridden.end()) return &set->second;
      const auto cut = at.find_last_of(".[");
      at = cut == std::string::npos ? std::string() : at.substr(0, cut);
    }
    return nullptr;
  }
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

// Numbers go through the one checked parser (io/number.hpp); everything else through yaml-cpp.
template <class T>
constexpr bool kNumber = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

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
  std::string at;
  const std::string* origin = src_->origin_of(full, at);
  if (origin != nullptr)
    throw InputError(*origin, 0, at == full ? problem : "'" + full + "': " + problem);
  throw InputError(src_->file, line_of_key(key),
                   key.empty() ? problem : "'" + full + "': " + problem);
}

int DeckSection::line_of_key(const std::string& key) const {
  // The line of the key itself (a key with no value has its null value marked on the next line).
  int line = 0;
  if (!key.empty() && node_.IsDefined() && node_.IsMap())
    for (auto it = node_.begin(); it != node_.end() && line == 0; ++it)
      if (it->first.IsScalar() && it->first.Scalar() == key) line = line_of(it->first);
  return line == 0 ? line_of(node_) : line;
}

template <class T>
T DeckSection::scalar(const std::string& key, const YAML::Node& n) const {
  if (!n.IsScalar()) fail(key, std::string("expected ") + type_name<T>() + " in the list");
  if constexpr (kNumber<T>) {
    T value{};
    const std::string problem = parse_number(n.Scalar(), value);
    if (!problem.empty()) fail(key, problem);
    return value;
  } else {
    try {
      return n.as<T>();
    } catch (const YAML::Exception&) {
      fail(key, fmt::format("expected {}, got '{}'", type_name<T>(), shown_value(n.Scalar())));
    }
  }
}

template <class T>
T DeckSection::get(const std::string& key, const T& fallback) {
  YAML::Node n = child(key);
  T value = fallback;
  // A key written with no value (`dt:` or `--set integrator.dt=`) is a mistake, not a request
  // for the default.
  if (n.IsDefined() && n.IsNull())
    fail(key, "has no value (leave the key out for its default; '' is an empty string)");
  if (n.IsDefined()) {
    constexpr bool is_list = std::is_same_v<T, std::vector<int>> ||
                             std::is_same_v<T, std::vector<double>> ||
                             std::is_same_v<T, std::vector<std::string>>;
    if (n.IsMap() || (n.IsSequence() && !is_list))
      fail(key, std::string("expected ") + type_name<T>());
    if constexpr (is_list) {
      if (!n.IsSequence())
        fail(key, fmt::format("expected a list, got '{}'", shown_value(n.Scalar())));
      value.clear();
      for (std::size_t i = 0; i < n.size(); ++i)
        value.push_back(scalar<typename T::value_type>(key, n[i]));
    } else {
      value = scalar<T>(key, n);
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
    std::string msg = "unknown key '" + shown_value(path_of(k)) + "'";
    if (!near.empty())
      msg += " (did you mean '" + path_of(near) + "'?)";
    else if (!valid.empty()) {
      msg += " (valid here:";
      for (const auto& v : valid) msg += " " + v;
      msg += ")";
    }
    std::string at;
    const std::string* origin = src_->origin_of(path_of(k), at);
    if (origin != nullptr) throw InputError(*origin, 0, msg);
    throw InputError(src_->file, line_of(it->first), msg);
  }
}

namespace {

// yaml-cpp keeps every pair of a map with repeated keys and answers lookups with the first one:
// a repeated key or section would silently lose. Refused where it stands. `budget` bounds the nodes
// visited: YAML aliases can make a small text a huge tree.
void check_keys(const YAML::Node& n, const std::string& file, const std::string& path, int depth,
                long& budget) {
  // A --set value has no lines of its own: its errors name the flag only.
  const bool lines = file.rfind("--", 0) != 0;
  const auto line_of = [lines](const YAML::Node& x) {
    return lines ? ::mdremap::io::line_of(x) : 0;
  };
  if (depth > 64) throw InputError(file, line_of(n), "the deck is nested too deeply");
  if (--budget < 0)
    throw InputError(file, line_of(n), "the deck is too large (more than a million values)");
  if (n.IsSequence()) {
    for (std::size_t i = 0; i < n.size(); ++i)
      check_keys(n[i], file, fmt::format("{}[{}]", path, i), depth + 1, budget);
    return;
  }
  if (!n.IsMap()) return;
  std::map<std::string, int> seen;
  for (auto it = n.begin(); it != n.end(); ++it) {
    if (!it->first.IsScalar())
      throw InputError(file, line_of(it->first),
                       "keys must be plain names" + (path.empty() ? "" : " (in '" + path + "')"));
    const std::string key = it->first.Scalar();
    const std::string full = path.empty() ? key : path + "." + key;
    const auto [first, fresh] = seen.emplace(key, line_of(it->first));
    if (!fresh)
      throw InputError(file, line_of(it->first),
                       fmt::format("'{}' is given twice (first on line {}): give each key once",
                                   full, first->second));
    check_keys(it->second, file, full, depth + 1, budget);
  }
}

// Counts the content of one YAML document: a document holding only a null (what the parser
// reports at the end of the text) does not count.
class DocumentProbe : public YAML::EventHandler {
 public:
  bool content = false;
  int line = 0;
  void OnDocumentStart(const YAML::Mark& mark) override { line = mark.line + 1; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { content = true; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {
    content = true;
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    content = true;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    content = true;
  }
  void OnMapEnd() override {}
};

// The first YAML document of `text`; `second_line` > 0 when a second one with content follows.
// yaml-cpp's LoadAll loops forever on some texts (", #", found by fuzzing): the parser is asked
// for two documents at most.
YAML::Node load_first(const std::string& text, int& second_line) {
  second_line = 0;
  YAML::Node first = YAML::Load(text);
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentProbe one, two;
  if (parser.HandleNextDocument(one) && parser.HandleNextDocument(two) && two.content)
    second_line = std::max(1, two.line);
  return first;
}

}  // namespace

Deck Deck::from_string(const std::string& text, const std::string& name) {
  Deck d;
  d.src_ = std::make_shared<DeckSource>();
  d.src_->file = name;
  int second = 0;
  try {
    d.doc_ = load_first(text, second);
  } catch (const YAML::ParserException& e) {
    throw InputError(name, e.mark.line + 1, "YAML syntax error: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw InputError(name, e.mark.is_null() ? 0 : e.mark.line + 1, "YAML error: " + e.msg);
  }
  if (second > 0)
    throw InputError(name, second, "a second YAML document ('---'): a deck is one document");
  if (!d.doc_.IsDefined() || d.doc_.IsNull())
    throw InputError(name, 0,
                     "the deck is empty: give at least one section (inputs/lj_bench.yaml is a "
                     "complete example)");
  if (!d.doc_.IsMap()) throw InputError(name, 1, "a deck must be a map of sections");
  long budget = 1000000;
  check_keys(d.doc_, name, "", 0, budget);
  d.resolved_ = YAML::Node(YAML::NodeType::Map);
  return d;
}

Deck Deck::from_file(const std::string& file) {
  namespace fs = std::filesystem;
  // A deck is a small text file; a directory, a device or a huge file is a mistake.
  constexpr std::size_t kMaxDeckBytes = 16u << 20;
  std::error_code ec;
  const auto st = fs::status(file, ec);
  if (fs::is_directory(st)) throw InputError(file, 0, "is a directory, not a deck");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file, 0, "cannot open deck (missing file or no permission)");
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxDeckBytes) throw InputError(file, 0, "is larger than 16 MiB: not a deck");
  }
  if (in.bad()) throw InputError(file, 0, "cannot read deck");
  return from_string(text, file);
}

void Deck::apply_override(const std::string& assignment, const std::string& origin) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(origin.empty() ? "--set" : origin, 0,
                     "expected key=value, got '" + shown_value(assignment) + "'");
  const std::string key = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  const std::string where = origin.empty() ? "--set " + key : origin;
  if (text.find_first_not_of(" \t") == std::string::npos)
    throw InputError(where, 0,
                     "empty value (leave the --set out for the deck's value; '' is an empty "
                     "string)");
  YAML::Node value;
  try {
    int second = 0;
    value = load_first(text, second);
    if (second > 0)
      throw InputError(where, 0, "expected one value, got '" + shown_value(text) + "'");
  } catch (const YAML::ParserException& e) {
    throw InputError(where, 0, "cannot parse value '" + shown_value(text) + "': " + e.msg);
  } catch (const YAML::Exception& e) {
    throw InputError(where, 0, "cannot parse value '" + shown_value(text) + "': " + e.msg);
  }
  long budget = 1000000;
  check_keys(value, where, key, 1, budget);
  put(key, value, where);
}

void Deck::set_string(const std::string& key, const std::string& text, const std::string& origin) {
  if (text.empty()) throw InputError(origin, 0, "empty value");
  put(key, YAML::Node(text), origin);
}

void Deck::put(const std::string& key, const YAML::Node& value, const std::string& where) {
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string p; std::getline(ss, p, '.');) {
    if (p.empty()) throw InputError(where, 0, "malformed key '" + key + "'");
    parts.push_back(p);
  }
  if (parts.empty() || key.back() == '.') throw InputError(where, 0, "malformed key '" + key + "'");
  // yaml-cpp nodes are handles: walk down by reassignment of a copy chain. A list element is
  // reached by its index (`types[1]`, from 0 as in the deck's messages) or, inside a list of
  // maps, by its `name` (`types.B`); `prefix` is the path in index form, as messages print it.
  std::vector<YAML::Node> chain{doc_};
  std::string prefix;
  const auto descend = [&](const std::string& name, bool last) {
    prefix = prefix.empty() ? name : prefix + "." + name;
    if (last) return;
    YAML::Node next = chain.back()[name];
    if (!next.IsDefined() || next.IsNull()) {
      chain.back()[name] = YAML::Node(YAML::NodeType::Map);
      next = chain.back()[name];
    } else if (!next.IsMap() && !next.IsSequence()) {
      throw InputError(where, 0, "'" + prefix + "' is not a section");
    }
    chain.push_back(next);
  };
  const auto element = [&](std::size_t i, bool last) {
    YAML::Node list = chain.back();
    if (i >= list.size())
      throw InputError(
          where, 0,
          fmt::format("'{}' has {} entries: no index {} (from 0)", prefix, list.size(), i));
    prefix += fmt::format("[{}]", i);
    if (!last) {
      if (!list[i].IsMap()) throw InputError(where, 0, "'" + prefix + "' is not a section");
      chain.push_back(list[i]);
    }
  };
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const bool last = k + 1 == parts.size();
    std::string part = parts[k];
    std::vector<std::size_t> indices;
    const auto open = part.find('[');
    if (open != std::string::npos) {
      std::string rest = part.substr(open);
      part = part.substr(0, open);
      while (!rest.empty()) {
        const auto close = rest.find(']');
        const std::string digits = close == std::string::npos ? "" : rest.substr(1, close - 1);
        if (rest[0] != '[' || digits.empty() || digits.size() > 9 ||
            digits.find_first_not_of("0123456789") != std::string::npos)
          throw InputError(where, 0, "malformed key '" + key + "' (a list index is [N], N >= 0)");
        indices.push_back(std::stoul(digits));
        rest = rest.substr(close + 1);
      }
      if (part.empty()) throw InputError(where, 0, "malformed key '" + key + "'");
    }
    if (chain.back().IsSequence()) {
      // Inside a list reached without an index: the element whose `name` is `part`.
      YAML::Node list = chain.back();
      std::string names;
      std::size_t found = list.size();
      for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node n = list[i].IsMap() ? list[i]["name"] : YAML::Node();
        const std::string nm = n.IsScalar() ? n.Scalar() : std::string();
        if (nm == part && found == list.size()) found = i;
        names += (names.empty() ? "" : ", ") + (nm.empty() ? fmt::format("[{}]", i) : nm);
      }
      if (found == list.size())
        throw InputError(where, 0,
                         fmt::format("'{}' has no entry named '{}' (entries: {})", prefix, part,
                                     names.empty() ? "none" : names));
      element(found, last && indices.empty());
      if (!indices.empty()) throw InputError(where, 0, "malformed key '" + key + "'");
      continue;
    }
    descend(part, last && indices.empty());
    for (std::size_t j = 0; j < indices.size(); ++j) {
      if (!chain.back().IsSequence()) throw InputError(where, 0, "'" + prefix + "' is not a list");
      element(indices[j], last && j + 1 == indices.size());
    }
  }
  // The value lands where the walk ended: a map key, or a list element.
  const std::string& tail = parts.back();
  if (tail.find('[') != std::string::npos || chain.back().IsSequence()) {
    // Replace the addressed element: its parent list is chain.back().
    const auto open = prefix.find_last_of('[');
    const std::size_t i = std::stoul(prefix.substr(open + 1));
    chain.back()[i] = value;
  } else {
    chain.back()[tail] = value;
  }
  src_->overridden[prefix] = where;
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

std::string one_of(DeckSection& s, const std::string& key, const std::string& fallback,
                   const std::vector<std::string>& allowed) {
  const std::string v = s.get<std::string>(key, fallback);
  if (std::find(allowed.begin(), allowed.end(), v) != allowed.end()) return v;
  std::string msg = fmt::format("unknown value '{}'", shown_value(v));
  const std::string near = nearest(v, allowed);
  if (!near.empty()) msg += fmt::format(" (did you mean '{}'?)", near);
  msg += " (one of:";
  for (const auto& a : allowed) msg += " " + a;
  msg += ")";
  s.fail(key, msg);
}

}  // namespace mdremap::io
