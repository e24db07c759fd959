#!/usr/bin/env bash
# The second hardening pass's findings replayed, one reproducing command each: what mdremap
# printed (first lines of stderr) and its exit code, and the files afterwards.
#
#   docs/results/2026-12-02-hardening/demo.sh BINARY REPO     (run as root: tmpfs mounts)
set -u
bin=$(realpath "$1")
repo=$(realpath "$2")
W=$(mktemp -d)
cleanup() {
  umount "$W/disk" 2>/dev/null
  rm -rf "$W"
}
trap cleanup EXIT
cd "$W" || exit 1
export OMP_NUM_THREADS=2
cat >ok.yaml <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
run: {steps: 20, thermo: 10}
YAML
show() {
  echo "\$ mdremap $*"
  timeout 60 "$bin" "$@" >out.txt 2>err.txt </dev/null
  local rc=$?
  head -c 300 out.txt | head -1 | sed 's/^/  stdout: /'
  head -c 600 err.txt | head -3 | sed 's/^/  /'
  echo "  [exit $rc]"
}
echo "## 1 checkpoint on a nearly full disk"
mkdir disk && mount -t tmpfs -o size=1024k tmpfs disk
"$bin" md ok.yaml -q --set restart.file=disk/ck.h5 >/dev/null 2>&1
cp disk/ck.h5 good.h5
free=$(df -k --output=avail disk | tail -1)
dd if=/dev/zero of=disk/filler bs=1k count=$((free - 40)) status=none 2>/dev/null
show md ok.yaml -q --steps 10 --set restart.file=disk/ck.h5
cmp -s disk/ck.h5 good.h5 && echo "  -> the previous checkpoint is kept" || echo "  -> the checkpoint was replaced"
rm -f disk/filler
show md ok.yaml -q --steps 5 --restart disk/ck.h5
echo "## 9 trajectory on a full disk"
dd if=/dev/zero of=disk/filler bs=1k count=$(($(df -k --output=avail disk | tail -1) - 200)) status=none 2>/dev/null
show md ok.yaml -q --steps 200 --set output.h5md.file=disk/t.h5 --set output.h5md.every=1 --set 'output.h5md.fields=[position, velocity, force]'
rm -f disk/filler disk/t.h5*
echo "## 2 an output that is another run's staging file"
: >t.h5.partial
show md ok.yaml -q --thermo-csv t.h5.partial
rm -f t.h5.partial
echo "## 3 cg and sp outputs over their inputs"
cp "$repo/inputs/cg_laplace3d.yaml" deck.yaml
show cg deck.yaml --summary deck.yaml
printf 'p cnf 3 2\n1 -2 0\n2 3 0\n' >f.cnf
show sp "$repo/inputs/sp_random3sat.yaml" -q --cnf f.cnf --assignment-out f.cnf
echo "## 4 special files and symbolic links"
show sp "$repo/inputs/sp_random3sat.yaml" -q --cnf f.cnf --assignment-out /dev/null
test -c /dev/null && echo "  -> /dev/null is still a character device"
ln -s real.json link.json
show cg deck.yaml --summary link.json
test -L link.json && test -f real.json && echo "  -> link.json is still a link, its target written"
echo "## 5 a --matrix path is a string"
mkdir -p mm && printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 4\n2 2 4\n' >'mm/good #x.mtx'
show cg deck.yaml --matrix 'mm/good #x.mtx'
echo "## 6 CG convergence judged on the true residual"
show cg deck.yaml -q --set solver.tolerance=1e-300
echo "## 7 huge declared sizes"
printf '%%%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 3\n1 1 1\n2 2 1\n3 3 1\n' >huge.mtx
show cg deck.yaml -q --matrix huge.mtx
printf 'p cnf 2000000000 1\n1 -2000000000 0\n' >huge.cnf
show sp "$repo/inputs/sp_random3sat.yaml" -q --cnf huge.cnf
echo "## 10 a continued run keeps what the interrupted run wrote"
out=(--set output.h5md.file=t.h5 --set output.h5md.every=5 --thermo-csv t.csv --set restart.file=ck.h5 --set restart.every=10)
"$bin" md ok.yaml -q --steps 20 "${out[@]}" >/dev/null 2>&1
mv t.h5 t.h5.partial && mv t.csv t.csv.partial
show md ok.yaml -q --steps 20 --restart ck.h5 "${out[@]}"
echo "  -> t.csv rows: $(($(wc -l <t.csv) - 1)), steps $(sed -n 2p t.csv | cut -d, -f1)..$(tail -1 t.csv | cut -d, -f1)"
echo "## 11 compare --plot with a quote in the name"
show compare ok.yaml --modes gather,dup --steps 10 --rounds 1 --plot "it's.png"
ls it 2>/dev/null && echo "  -> stray file 'it'" || echo "  -> no stray file; $(ls -1 ./*.png 2>/dev/null | wc -l) png written"
echo "## 12 messages"
show md ok.yaml --remap padding --steps 5
show md ok.yaml --set 'output.h5md.fields=[]' --set output.h5md.file=e.h5
show cg deck.yaml -q --spmv bogus
show md ok.yaml --set potential.cutoff=-1e-330
show cg deck.yaml -q --matrix .
