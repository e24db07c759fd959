# Sourced by the scripts that run a peer (LAMMPS, ExaMiniMD) on the bench system: prints the
# LAMMPS-style commands of inputs/lj_bench.yaml's system at CELLS^3 fcc cells (density 0.8442,
# T 1.44 seed 87287, lj/cut 2.5, skin 0.3, rebuilt every 20 steps without check). The caller
# appends its own integrator, thermo and run lines.
#
#   source tools/lj-deck.sh && { lj_deck 20; echo "fix 1 all nve"; echo "run 100"; } >in.lmp
lj_deck() {
  local cells=${1:?usage: lj_deck CELLS}
  cat <<EOF
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 $cells 0 $cells 0 $cells
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 1.44 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
neigh_modify delay 0 every 20 check no
EOF
}
