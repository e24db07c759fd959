# the GPU test binaries on one H100 after this session's list-storage, exchange and clock changes
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p $OUT/t
for t in test_neighbor test_phase_clock test_md_physics test_restart test_remap_md test_cluster_pair test_pair test_md_output test_integrators; do
  timeout 300 $B/$t > $OUT/t/$t.log 2>&1; echo "$t rc $? $(grep -E '^\[  PASSED  \]|^\[  FAILED  \]|tests ran' $OUT/t/$t.log | tr '\n' ' ')"
done
$B/mdremap md inputs/lj_large.yaml --steps 600 --quiet --summary $OUT/t/one.json > /dev/null 2>&1; python3 -c "import json; j=json.load(open('$OUT/t/one.json')); print('4M double 1 GPU', j['atom_steps_per_s'], j['rebuild_ms_each'])"
cd $OUT && tar czf tests.tgz t && rm -rf t
