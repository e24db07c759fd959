#pragma once
// The optional thermo columns (run.thermo_columns), after the fixed ones (step temp e_pair ke
// etotal press): their deck names (LAMMPS' thermo_style custom keywords), their units and how a
// sample gives them. The console, output.thermo_csv and the H5MD observables write the deck's
// columns in its order.
#include <string>
#include <vector>

#include "mdremap/frame.hpp"

namespace mdremap {

struct ThermoColumn {
  const char* name;      // deck and CSV name (LAMMPS' keyword)
  const char* h5md;      // H5MD observable name
  const char* unit;      // H5MD unit string (system "lj")
  bool pressure_tensor;  // needs the pressure tensor (a pass over the list on thermo steps)
  double (*value)(const ThermoSample&);
  bool msd = false;  // needs the mean squared displacement (md/compute/msd.hpp)
};

// Every column a deck may ask for.
const std::vector<ThermoColumn>& thermo_column_catalogue();
// The column of that name; throws mdremap::Error listing the names for an unknown one.
const ThermoColumn& find_thermo_column(const std::string& name);
// Whether any of `names` needs the pressure tensor.
bool thermo_columns_need_tensor(const std::vector<std::string>& names);
// Whether any of `names` needs the mean squared displacement.
bool thermo_columns_need_msd(const std::vector<std::string>& names);

}  // namespace mdremap
