# Shared by scripts/test and scripts/demo: install what is missing, configure, build.
# Sourced, not run. Idempotent: a machine that has everything installs nothing.

CLEARWAY_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLEARWAY_BUILD="${CLEARWAY_BUILD:-$CLEARWAY_ROOT/build}"

# Debian packages the build and the tests need. librecast-dev is only the peer for benchmarks;
# chromium renders the cw-inspect previews in a test; libtbb-dev runs bake stages in parallel;
# python3 and GNU time run scripts/bench-tiles (city generator, per-command time and memory);
# emscripten compiles the runtime to WebAssembly for the preview page's path queries;
# libjemalloc2 is the tools' allocator (tools/common/CMakeLists.txt).
CLEARWAY_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libcgal-dev libgmp-dev libmpfr-dev libboost-dev libpolyclipping-dev
  libassimp-dev libcli11-dev libflatbuffers-dev flatbuffers-compiler
  libspdlog-dev doctest-dev librecast-dev libjemalloc2
  nlohmann-json3-dev libtbb-dev
  clang libclang-rt-14-dev
  chromium libpng-dev python3 time
  emscripten
)

clearway_install_deps() {
  local missing=()
  for p in "${CLEARWAY_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  echo "clearway: installing missing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  # A fresh machine has no package lists yet; update once before installing.
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

clearway_build() {
  cmake -S "$CLEARWAY_ROOT" -B "$CLEARWAY_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$CLEARWAY_BUILD" --parallel "$(nproc)"
}
