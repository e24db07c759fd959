#include "cli/remap_flags.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include <climits>

#include "cli/numeric_flag.hpp"
#include "io/deck.hpp"
#include "mdremap/remap/remap_deck.hpp"

namespace mdremap::cli {

namespace {

// "a | b (its note) | c" of the values `app` accepts.
std::string value_list(const remap::RemapKey& k, const std::vector<std::string>& values) {
  std::string s;
  for (const auto& v : values) {
    s += (s.empty() ? "" : " | ") + v;
    if (const auto it = k.notes.find(v); it != k.notes.end()) s += " (" + it->second + ")";
  }
  return s;
}

// The flag's value as --help names it: the key's type (the flag holds its text for the deck).
const char* type_name(remap::KeyKind kind) {
  switch (kind) {
    case remap::KeyKind::Int:
    case remap::KeyKind::Int64:
      return "INT";
    case remap::KeyKind::Real:
      return "FLOAT";
    case remap::KeyKind::Bool:
      return "BOOLEAN";
    case remap::KeyKind::Choice:
      return "TEXT";
  }
  return "TEXT";
}

// The flag's own check of a number (the deck checks the rest of the key's range): integers at
// least the key's lower bound, reals above an open lower bound of 0.
void check_number(CLI::Option* opt, const remap::RemapKey& k) {
  using remap::KeyKind;
  if (!std::isfinite(k.lo)) return;
  const auto lo = static_cast<long long>(k.lo);
  if (k.kind == KeyKind::Int)
    opt->check(number_in<int>(static_cast<int>(lo), INT_MAX, fmt::format("INT >= {}", lo)));
  else if (k.kind == KeyKind::Int64)
    opt->check(number_in<long long>(lo, LLONG_MAX, fmt::format("INT >= {}", lo)));
  else if (k.kind == KeyKind::Real && k.lo_open && k.lo == 0)
    opt->check(positive_real());
}

// The flags' keys in the order they are applied: mode, reorder, then the layer's.
std::vector<std::pair<std::string, std::string>> flag_keys(const RemapFlags& f) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* k : {"mode", "reorder"})
    if (const auto it = f.values.find(k); it != f.values.end())
      out.emplace_back(it->first, it->first == "mode" ? "--remap" : "--reorder");
  for (const auto& k : remap::remap_keys())
    if (!k.flag.empty() && f.values.count(k.name)) out.emplace_back(k.name, k.flag);
  return out;
}

}  // namespace

std::string RemapFlags::value(const std::string& key) const {
  const auto it = values.find(key);
  return it == values.end() ? std::string() : it->second;
}

void add_remap_flags(CLI::App* cmd, RemapFlags& f, const remap::RemapApp& app, bool with_mode) {
  if (with_mode)
    cmd->add_option("--remap", f.values["mode"],
                    app.mode_help + ": " + remap::strategy_list() + " (remap.mode)");
  cmd->add_option("--reorder", f.values["reorder"],
                  app.reorder_help + ": " + remap::reorder_list(app.reorders) + " (remap.reorder)");
  for (const auto& k : remap::app_keys(app)) {
    if (k.flag.empty()) continue;
    std::string help = k.help;
    if (k.kind == remap::KeyKind::Choice) help += ": " + value_list(k, remap::app_values(app, k));
    CLI::Option* opt = cmd->add_option(k.flag, f.values[k.name], help + " (remap." + k.name + ")");
    opt->type_name(type_name(k.kind));
    check_number(opt, k);
  }
}

void apply_remap_flags(const RemapFlags& f, io::Deck& deck) {
  for (const auto& [key, flag] : flag_keys(f)) {
    const std::string v = f.value(key);
    if (!v.empty()) deck.apply_override("remap." + key + "=" + v, f.name_flags ? flag : "");
  }
}

}  // namespace mdremap::cli
