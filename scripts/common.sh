# Sourced by scripts/run.sh and scripts/test.sh (and .ci/run): puts nvcc on PATH, installs
# missing Debian packages when run as root, and sets the build settings.
#   BUILD_DIR   build folder (default: build, relative to the repository root)
#   CUDA_ARCHS  CMAKE_CUDA_ARCHITECTURES (default: 90a, Hopper)
#   JOBS        parallel build jobs (default: 2)

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
BUILD_DIR="${BUILD_DIR:-build}"
CUDA_ARCHS="${CUDA_ARCHS:-90a}"
JOBS="${JOBS:-2}"

# nvcc: the CUDA toolkit installs it under /usr/local/cuda/bin, which is often not on PATH.
if ! command -v nvcc >/dev/null 2>&1; then
  for d in /usr/local/cuda/bin /usr/local/cuda-13/bin /usr/local/cuda-13.0/bin; do
    if [ -x "$d/nvcc" ]; then export PATH="$d:$PATH"; break; fi
  done
fi

# Debian packages the build needs; apt only runs when one is missing.
ensure_deps() {
  local pkgs=(cmake make g++ libgtest-dev libcli11-dev)
  command -v dpkg >/dev/null 2>&1 || return 0  # not Debian: the user provides them
  local missing=() p
  for p in "${pkgs[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing missing packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "warning: missing Debian packages: ${missing[*]} (run as root to install them, or:" \
         "sudo apt-get install ${missing[*]})" >&2
  fi
}

# CUTLASS headers for the sm_100a path: the nvidia-cutlass wheel ships them (pure Python
# package, headers under cutlass_library/source). Without them the path is configured off.
ensure_cutlass() {
  command -v python3 >/dev/null 2>&1 || return 0
  python3 -c "import cutlass_library" >/dev/null 2>&1 && return 0
  echo "== installing CUTLASS headers: pip install nvidia-cutlass==4.2.0.0"
  python3 -m pip install -q --disable-pip-version-check nvidia-cutlass==4.2.0.0 ||
    echo "warning: could not install nvidia-cutlass; the sm_100a path will be off" >&2
}

configure() {
  if ! command -v nvcc >/dev/null 2>&1; then
    echo "error: nvcc not found on PATH nor in /usr/local/cuda/bin: install the CUDA 13 toolkit" >&2
    exit 2
  fi
  local py=()
  command -v python3 >/dev/null 2>&1 && py=(-DPython3_EXECUTABLE="$(command -v python3)")
  cmake -S "$REPO_ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHS" "${py[@]}"
}
