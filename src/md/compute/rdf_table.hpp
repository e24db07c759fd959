#pragma once
// The radial distribution function as it is written (H5MD observables/rdf, compute.rdf.file):
// bin centres, g(r) and the coordination number, normalised as LAMMPS' compute rdf does.
// Kokkos-free: the normalisation is host arithmetic on the device's accumulated counts.
#include <cstdint>
#include <vector>

namespace mdremap::md {

struct RdfTable {
  std::vector<double> r;      // bin centres (i + 1/2) r_max / bins
  std::vector<double> g;      // g(r), averaged over the samples
  std::vector<double> coord;  // neighbours within the bin's outer edge, per atom (LAMMPS' coord)
  std::int64_t samples = 0;
};

// From the sums over the samples of each bin's ordered-pair count times the box volume at that
// sample (`weighted`), the number of samples and the sum of their volumes: g = weighted /
// (samples N (N - 1) V_shell), each sample normalised by its own volume; coord sums g V_shell
// (N - 1) / V over the bins up to each (V the mean volume). This is LAMMPS' normalisation for
// one group of N atoms (density (N - 1) / V of the other atoms), and MDAnalysis' InterRDF with
// the atoms' self pairs excluded (exclusion_block (1, 1)).
RdfTable normalise_rdf(const std::vector<double>& weighted, double r_max, std::int64_t samples,
                       double volume_sum, std::int64_t natoms);

}  // namespace mdremap::md
