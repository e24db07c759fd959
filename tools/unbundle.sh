# Sourced by the scripts that run on a lent GPU machine: unpacks the carried bundle
# (.carry/bundle.tar.xz, made by `tools/gpu-run.sh bundle`) into .bundle, unless a copy at least as
# new is there already, and puts its libraries on the loader's path.
#
#   source tools/unbundle.sh && unbundle "$repo"
unbundle() {
  local repo=$1 tarball=$1/.carry/bundle.tar.xz
  if [[ -f $tarball && ! ($repo/.bundle/bin/mdremap -nt $tarball) ]]; then
    rm -rf "$repo/.bundle" && mkdir -p "$repo/.bundle"
    python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
      "$tarball" "$repo/.bundle"
    touch "$repo/.bundle/bin/mdremap"  # unpacked after the tarball arrived
  fi
  # cuSPARSE (CG's anchor) is the device's own, never carried (BRIEF section 11).
  export LD_LIBRARY_PATH=$repo/.bundle/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
}
