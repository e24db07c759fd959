// The optional thermo columns (include/mdremap/thermo_columns.hpp).
#include "mdremap/thermo_columns.hpp"

#include "mdremap/error.hpp"

namespace mdremap {

const std::vector<ThermoColumn>& thermo_column_catalogue() {
  static const std::vector<ThermoColumn> c = {
      {"vol", "volume", "sigma3", false, [](const ThermoSample& s) { return s.volume; }},
      {"density", "density", "sigma-3", false, [](const ThermoSample& s) { return s.density; }},
      {"enthalpy", "enthalpy", "epsilon", false, [](const ThermoSample& s) { return s.enthalpy; }},
      {"pxx", "pressure_xx", "epsilon sigma-3", true,
       [](const ThermoSample& s) { return s.ptensor[0]; }},
      {"pyy", "pressure_yy", "epsilon sigma-3", true,
       [](const ThermoSample& s) { return s.ptensor[1]; }},
      {"pzz", "pressure_zz", "epsilon sigma-3", true,
       [](const ThermoSample& s) { return s.ptensor[2]; }},
      {"pxy", "pressure_xy", "epsilon sigma-3", true,
       [](const ThermoSample& s) { return s.ptensor[3]; }},
      {"pxz", "pressure_xz", "epsilon sigma-3", true,
       [](const ThermoSample& s) { return s.ptensor[4]; }},
      {"pyz", "pressure_yz", "epsilon sigma-3", true,
       [](const ThermoSample& s) { return s.ptensor[5]; }},
      {"msd", "msd", "sigma2", false, [](const ThermoSample& s) { return s.msd[3]; }, true},
  };
  return c;
}

const ThermoColumn& find_thermo_column(const std::string& name) {
  std::string names;
  for (const auto& c : thermo_column_catalogue()) {
    if (name == c.name) return c;
    names += names.empty() ? c.name : std::string(", ") + c.name;
  }
  throw Error("unknown thermo column '" + name + "' (the columns: " + names + ")");
}

bool thermo_columns_need_tensor(const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (find_thermo_column(n).pressure_tensor) return true;
  return false;
}

bool thermo_columns_need_msd(const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (find_thermo_column(n).msd) return true;
  return false;
}

}  // namespace mdremap
