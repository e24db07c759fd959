// The engine's computes (md/engine.hpp): compute.rdf and compute.msd started with a run and
// sampled on their steps (the MSD handed to the run's observer).
#include "md/engine.hpp"

namespace mdremap::md::detail {

template <class S, class C>
void Simulation<S, C>::start_computes() {
  if (msd_) msd_->reset(atoms_, image_, box_d_, natoms_);
  if (rdf_) {
    rdf_->reset();
    rdf_->sample<S>(atoms_.x, atoms_.n, box_d_);
  }
}

template <class S, class C>
bool Simulation<S, C>::compute_due(std::int64_t step) const {
  return (rdf_ && step % p_.computes.rdf.every == 0) || (msd_ && step % p_.computes.msd.every == 0);
}

template <class S, class C>
void Simulation<S, C>::run_computes(RunObserver* obs) {
  if (rdf_ && step_ % p_.computes.rdf.every == 0) rdf_->sample<S>(atoms_.x, atoms_.n, box_d_);
  if (msd_ && step_ % p_.computes.msd.every == 0 && obs) {
    MsdSample m;
    m.step = step_;
    m.time = step_ * p_.dt;
    const std::array<double, 4> v = msd_->sample(atoms_, image_, box_d_, natoms_);
    for (int k = 0; k < 4; ++k) m.msd[k] = v[k];
    obs->msd(m);
  }
}

// The members above, instantiated for the three precisions.
#define MDREMAP_ENGINE_COMPUTES(S, C)                                   \
  template void Simulation<S, C>::start_computes();                     \
  template bool Simulation<S, C>::compute_due(std::int64_t step) const; \
  template void Simulation<S, C>::run_computes(RunObserver* obs);
MDREMAP_ENGINE_PRECISIONS(MDREMAP_ENGINE_COMPUTES)
#undef MDREMAP_ENGINE_COMPUTES

}  // namespace mdremap::md::detail
