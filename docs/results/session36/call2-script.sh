# Session 36, call 2 (nvidia-h200): the SASS of HEAD's plain-list LJ force kernels (the
# instructions a pair costs), for call 1's bound analysis.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
python3 docs/results/session36/sass-dump.py 'FullBody<mdremap::md::LJ' $B/mdremap $w/sass
python3 tools/sass-kernel-stats.py 'ParallelFor<mdremap::remap::RangeCompute<mdremap::md::FullBody<mdremap::md::LJ' $B/mdremap > $w/stats.txt 2>&1
head -c 6000 $w/stats.txt
tar czf $OUT/call2.tgz -C $w .
