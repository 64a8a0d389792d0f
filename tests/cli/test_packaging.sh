#!/usr/bin/env bash
# The Debian packages and the install tree, checked from the build that BIN_DIR belongs to (nothing is configured
# or built here: cpack and cmake --install reuse what is built). Checks package names, versions, Depends, file
# lists, that the app links no CUDA, that the desktop entry and metainfo validate, and that an installed app runs
# and finds its installed CUDA module. Usage: bash test_packaging.sh BIN_DIR SCRATCH
set -u
BIN_DIR=${1:?usage: test_packaging.sh BIN_DIR SCRATCH}
SCRATCH=${2:?usage: test_packaging.sh BIN_DIR SCRATCH}
BUILD_DIR=$(cd "$BIN_DIR/.." && pwd)
CACHE="$BUILD_DIR/CMakeCache.txt"

skip() { echo "SKIP: $*"; exit 0; }
[[ "${GPULAB_APP:-1}" =~ ^(0|OFF|off|FALSE|false)$ ]] && skip "built without the app (-DGPULAB_APP=OFF): no packages"
[[ -f "$CACHE" ]] || { echo "FAIL: $CACHE not found: BIN_DIR must be a build folder's bin/"; exit 1; }
for tool in cpack dpkg-deb dpkg-shlibdeps readelf ldd; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (apt-get install dpkg-dev cmake binutils)"
done

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# has TEXT NEEDLE WHAT: fail unless TEXT contains NEEDLE (fixed string).
has() { grep -qF -- "$2" <<<"$1" || fail "$3: lacks '$2'"; }
hasnt() { ! grep -qiE -- "$2" <<<"$1" || fail "$3: must not mention '$2': $(grep -iE -- "$2" <<<"$1" | head -3)"; }

VERSION=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$CACHE")
[[ -n "$VERSION" ]] || { echo "FAIL: no CMAKE_PROJECT_VERSION in $CACHE"; exit 1; }
ARCH=$(dpkg --print-architecture)
HAVE_MODULE=0
[[ -f "$BIN_DIR/libgpulab_cuda.so" ]] && HAVE_MODULE=1

rm -rf "$SCRATCH" && mkdir -p "$SCRATCH"
# ---- cpack ------------------------------------------------------------------------------------------------------
# -B keeps the .debs and CPack's staging folder in SCRATCH, out of the build tree.
# The time limit keeps a hung packaging step from eating the CI job (a normal run takes well under a minute).
if ! (cd "$BUILD_DIR" && timeout 420 cpack -G DEB -B "$SCRATCH/pkg") >"$SCRATCH/cpack.log" 2>&1; then
  echo "FAIL: cpack -G DEB failed:"; tail -30 "$SCRATCH/cpack.log"; exit 1
fi
APP_DEB="$SCRATCH/pkg/gpulab_${VERSION}_${ARCH}.deb"
CUDA_DEB="$SCRATCH/pkg/gpulab-cuda_${VERSION}_${ARCH}.deb"
[[ -f "$APP_DEB" ]] || { echo "FAIL: no $APP_DEB; cpack made: $(ls "$SCRATCH/pkg")"; exit 1; }

field() { dpkg-deb -f "$1" "$2"; }

# ---- gpulab -----------------------------------------------------------------------------------------------------
[[ "$(field "$APP_DEB" Package)" == gpulab ]] || fail "gpulab.deb: Package is '$(field "$APP_DEB" Package)'"
[[ "$(field "$APP_DEB" Version)" == "$VERSION" ]] || fail "gpulab.deb: Version '$(field "$APP_DEB" Version)' != $VERSION"
[[ "$(field "$APP_DEB" Architecture)" == "$ARCH" ]] || fail "gpulab.deb: Architecture is not $ARCH"
APP_DEPENDS=$(field "$APP_DEB" Depends)
has "$APP_DEPENDS" "libqt6widgets6" "gpulab Depends (shlibdeps)"
has "$APP_DEPENDS" "libc6" "gpulab Depends (shlibdeps)"
# The app must install and start on a machine without CUDA: nothing of it may be pulled in.
hasnt "$APP_DEPENDS" "cuda|cublas|nvidia" "gpulab Depends"
APP_FILES=$(dpkg-deb -c "$APP_DEB" | awk '{print $NF}')
for f in ./usr/bin/gpulab ./usr/bin/gpulab-bench ./usr/share/applications/gpulab.desktop \
         ./usr/share/metainfo/io.github.gpulab.metainfo.xml ./usr/share/icons/hicolor/scalable/apps/gpulab.svg \
         ./usr/share/gpulab/recordings/; do
  grep -qxF -- "$f" <<<"$APP_FILES" || fail "gpulab.deb lacks $f"
done
hasnt "$APP_FILES" "libgpulab_cuda" "gpulab.deb file list"

mkdir -p "$SCRATCH/app-root"
dpkg-deb -x "$APP_DEB" "$SCRATCH/app-root"
for exe in gpulab gpulab-bench; do
  bin="$SCRATCH/app-root/usr/bin/$exe"
  [[ -x "$bin" ]] || continue
  needed=$(readelf -d "$bin" | grep NEEDED)
  hasnt "$needed" "libcuda|libcudart|libcublas|libnvrtc" "packaged $exe NEEDED"
  hasnt "$(ldd "$bin" 2>&1)" "libcuda|libcudart|libcublas|libnvrtc" "ldd of packaged $exe"
  hasnt "$(readelf -d "$bin" | grep -E 'RPATH|RUNPATH')" "$BUILD_DIR" "packaged $exe RUNPATH"
done
# OpenBLAS is optional at build time; when the app links it, shlibdeps must have found its package.
if readelf -d "$SCRATCH/app-root/usr/bin/gpulab" | grep -q 'NEEDED.*libopenblas'; then
  has "$APP_DEPENDS" "libopenblas" "gpulab Depends (the app links OpenBLAS)"
fi

# ---- desktop entry and metainfo (as packaged) ------------------------------------------------------------------
DESKTOP="$SCRATCH/app-root/usr/share/applications/gpulab.desktop"
METAINFO="$SCRATCH/app-root/usr/share/metainfo/io.github.gpulab.metainfo.xml"
if command -v desktop-file-validate >/dev/null; then
  out=$(desktop-file-validate "$DESKTOP" 2>&1) || fail "desktop-file-validate: $out"
  [[ -z "$out" ]] || fail "desktop-file-validate has remarks: $out"
else
  echo "SKIP (part): desktop-file-validate is not installed (apt-get install desktop-file-utils)"
fi
if command -v appstreamcli >/dev/null; then
  out=$(appstreamcli validate --no-net "$METAINFO" 2>&1) || fail "appstreamcli validate: $out"
else
  echo "SKIP (part): appstreamcli is not installed (apt-get install appstream)"
fi
# The metainfo's release is written by hand: it must follow the project version.
grep -q "<release version=\"$VERSION\"" "$METAINFO" || fail "metainfo has no <release version=\"$VERSION\">"
grep -q '^Icon=gpulab$' "$DESKTOP" || fail "desktop entry's Icon is not gpulab (the installed icon's name)"

# ---- gpulab-cuda ------------------------------------------------------------------------------------------------
if [[ $HAVE_MODULE == 1 ]]; then
  if [[ ! -f "$CUDA_DEB" ]]; then
    fail "the module is built but cpack made no $CUDA_DEB"
  else
    [[ "$(field "$CUDA_DEB" Package)" == gpulab-cuda ]] || fail "gpulab-cuda.deb: Package is '$(field "$CUDA_DEB" Package)'"
    [[ "$(field "$CUDA_DEB" Version)" == "$VERSION" ]] || fail "gpulab-cuda.deb: Version is not $VERSION"
    CUDA_DEPENDS=$(field "$CUDA_DEB" Depends)
    has "$CUDA_DEPENDS" "gpulab (= $VERSION)" "gpulab-cuda Depends"
    has "$CUDA_DEPENDS" "libcublas13" "gpulab-cuda Depends"
    has "$CUDA_DEPENDS" "libcublas-13-0" "gpulab-cuda Depends"
    has "$CUDA_DEPENDS" "libcublaslt13" "gpulab-cuda Depends"
    has "$CUDA_DEPENDS" "libc6" "gpulab-cuda Depends (shlibdeps)"
    # cudart is linked statically: depending on a CUDA runtime package would be wrong.
    hasnt "$CUDA_DEPENDS" "cudart" "gpulab-cuda Depends"
    CUDA_FILES=$(dpkg-deb -c "$CUDA_DEB" | awk '{print $NF}')
    grep -qE '^\./usr/lib/([a-z0-9_]+-linux-gnu[a-z0-9_]*/)?gpulab/libgpulab_cuda\.so$' <<<"$CUDA_FILES" ||
      fail "gpulab-cuda.deb lacks usr/lib[/<multiarch>]/gpulab/libgpulab_cuda.so: $CUDA_FILES"
    hasnt "$(grep -v '/$' <<<"$CUDA_FILES" | grep -v libgpulab_cuda)" "." "gpulab-cuda.deb (other files)"
    mkdir -p "$SCRATCH/cuda-root"
    dpkg-deb -x "$CUDA_DEB" "$SCRATCH/cuda-root"
    module=$(find "$SCRATCH/cuda-root" -name libgpulab_cuda.so | head -1)
    needed=$(readelf -d "$module" | grep NEEDED)
    hasnt "$needed" "libcudart|libcuda\.so|libnvrtc" "packaged module NEEDED (cudart is static, no driver API)"
  fi
else
  echo "SKIP (part): the CUDA module is not built here: gpulab-cuda is not checked"
  [[ ! -f "$CUDA_DEB" ]] || fail "no module is built, yet cpack made $CUDA_DEB"
fi

# ---- gpulab-vulkan: only when the Vulkan module is built; gpulab itself never Depends on Vulkan -------------------
VULKAN_DEB="$SCRATCH/pkg/gpulab-vulkan_${VERSION}_${ARCH}.deb"
hasnt "$APP_DEPENDS" "vulkan" "gpulab Depends (the app runs without Vulkan)"
if [[ -f "$BIN_DIR/libgpulab_vulkan.so" ]]; then
  [[ -f "$VULKAN_DEB" ]] || fail "the Vulkan module is built but cpack made no $VULKAN_DEB"
  VK_DEPENDS=$(field "$VULKAN_DEB" Depends)
  has "$VK_DEPENDS" "gpulab (= $VERSION)" "gpulab-vulkan Depends"
  has "$VK_DEPENDS" "libvulkan1" "gpulab-vulkan Depends (shlibdeps)"
  has "$(field "$SCRATCH/pkg/gpulab_${VERSION}_${ARCH}.deb" Recommends)" "gpulab-vulkan" "gpulab Recommends"
  VK_FILES=$(dpkg-deb -c "$VULKAN_DEB" | awk '{print $NF}')
  grep -qE '^\./usr/lib/([a-z0-9_]+-linux-gnu[a-z0-9_]*/)?gpulab/libgpulab_vulkan\.so$' <<<"$VK_FILES" ||
    fail "gpulab-vulkan.deb lacks usr/lib[/<multiarch>]/gpulab/libgpulab_vulkan.so: $VK_FILES"
  hasnt "$APP_FILES" "libgpulab_vulkan" "gpulab.deb file list"
else
  echo "SKIP (part): the Vulkan module is not built here: gpulab-vulkan is not checked"
  [[ ! -f "$VULKAN_DEB" ]] || fail "no Vulkan module is built, yet cpack made $VULKAN_DEB"
fi

# ---- cmake --install into a prefix, and the installed app ------------------------------------------------------
PREFIX="$SCRATCH/prefix"
if ! cmake --install "$BUILD_DIR" --prefix "$PREFIX" >"$SCRATCH/install.log" 2>&1; then
  echo "FAIL: cmake --install failed:"; tail -20 "$SCRATCH/install.log"; exit 1
fi
PREFIX=$(realpath "$PREFIX")   # the loader reports paths from /proc/self/exe, symlinks resolved
for f in bin/gpulab bin/gpulab-bench share/applications/gpulab.desktop share/metainfo/io.github.gpulab.metainfo.xml \
         share/icons/hicolor/scalable/apps/gpulab.svg; do
  [[ -e "$PREFIX/$f" ]] || fail "cmake --install did not install $f"
done
export QT_QPA_PLATFORM=offscreen
unset GPULAB_CUDA_MODULE   # the test is about the search order, not an explicit choice
out=$("$PREFIX/bin/gpulab" --version 2>&1) || fail "installed gpulab --version exited $?: $out"
has "$out" "$VERSION" "installed gpulab --version"
for exe in gpulab gpulab-bench; do
  json="$SCRATCH/devices-$exe.json"
  if ! "$PREFIX/bin/$exe" devices --json >"$json" 2>"$SCRATCH/devices-$exe.err"; then
    fail "installed $exe devices exited $?: $(head -c 300 "$SCRATCH/devices-$exe.err")"; continue
  fi
  if [[ $HAVE_MODULE == 1 ]]; then
    # Found in the prefix, not the build folder's fallback: realpath both sides (the prefix may hold a symlink).
    module_path=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["module_path"])' "$json")
    expected=$(realpath "$(find "$PREFIX" -name libgpulab_cuda.so | head -1)" 2>/dev/null)
    [[ -n "$expected" ]] || fail "cmake --install put no libgpulab_cuda.so under $PREFIX"
    [[ -n "$module_path" && "$(realpath "$module_path")" == "$expected" ]] ||
      fail "installed $exe devices: module_path '$module_path', expected the installed $expected"
  fi
done
if [[ $HAVE_MODULE == 1 ]]; then
  out=$("$PREFIX/bin/gpulab" devices 2>&1)
  has "$out" "$PREFIX/lib" "installed gpulab devices (text) names the installed module"
fi

if [[ $failures -gt 0 ]]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "OK: gpulab$([[ $HAVE_MODULE == 1 ]] && echo " and gpulab-cuda") packages and the install tree check out"
