# Session 23, call 4 (nvidia-h100-x1): sell's inner loop unrolled by 4 (#pragma unroll 4, more
# loads in flight a thread) against the loop as it was (the session-22 build, base): sell's
# SpMV (200 timed) and CG iteration, and cuSPARSE's SpMV, on the four stand-ins natural and the
# large case natural, 3 interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
rm -rf .base && mkdir -p .base && python3 -c "import tarfile; tarfile.open('.carry/base.tar.xz').extractall('.base')"
w=$(mktemp -d); mkdir -p $w/diag
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for r in 1 2 3; do for m in offshore parabolic_fem apache2 ecology2 large; do
  for build in base unroll cusparse; do
    a=(--spmv sell); bin=$B/mdremap; lib=$PWD/.bundle/lib
    [[ $build == base ]] && { bin=$PWD/.base/bin/mdremap; lib=$PWD/.base/lib; }
    [[ $build == cusparse ]] && a=(--spmv cusparse)
    LD_LIBRARY_PATH=$lib:/usr/local/cuda/lib64 timeout 120 $bin cg inputs/cg_$m.yaml --quiet --set solver.repeats=1 \
      --set spmv.timing_repeats=200 --set spmv.transactions=false --summary $w/diag/$m.$build.r$r.json "${a[@]}" >/dev/null 2>&1 || echo "$m $build rc=$?"
  done
done; done
python3 - $w/diag <<'PY' | tee $w/diag/summary.txt
import json,glob,sys,statistics,collections
d=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+'/*.json'):
    m,b,r,_=f.split('/')[-1].split('.')
    s=json.load(open(f)); d[(m,b)].append((s['spmv']['time_ms'], s['time_per_iteration_ms']))
for m in ['offshore','parabolic_fem','apache2','ecology2','large']:
    md=lambda b,i: statistics.median(x[i] for x in d[(m,b)])
    c=md('cusparse',0)
    print('%-14s SpMV ms: cusparse %.4f, sell base %.4f (%.3fx cuSPARSE), unroll %.4f (%.3fx); CG iteration ms: base %.4f, unroll %.4f'%(m,c,md('base',0),c/md('base',0),md('unroll',0),c/md('unroll',0),md('base',1),md('unroll',1)))
PY
tar czf $OUT/call4.tgz -C $w diag
