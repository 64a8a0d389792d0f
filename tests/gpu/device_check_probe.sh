# Sourced by device-check.sh: before anything is built, nlohmann-json and GoogleTest must be found (or GoogleTest
# built from the sources in the deps folder); when they cannot, the run is refused at once, naming what is
# missing (exit 3): the GPU tests are never dropped silently. Sets PREFIX_PATH to include a GoogleTest it built.
mkdir -p "$BUILD/_deps" || exit 2
PROBE="$BUILD/_deps/probe"
rm -rf "$PROBE" && mkdir -p "$PROBE/src"
cat >"$PROBE/src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(gpulab_deps_probe LANGUAGES CXX)
find_package(nlohmann_json 3 QUIET)
find_package(GTest QUIET)
if(NOT nlohmann_json_FOUND)
  message(FATAL_ERROR "probe: nlohmann_json not found")
endif()
message(STATUS "probe: nlohmann_json ${nlohmann_json_VERSION} at ${nlohmann_json_DIR}")
if(GTest_FOUND)
  message(STATUS "probe: GTest found at ${GTest_DIR}${GTEST_INCLUDE_DIRS}")
  add_executable(gtest_links t.cpp)
  target_link_libraries(gtest_links PRIVATE GTest::gtest_main nlohmann_json::nlohmann_json)
  set_target_properties(gtest_links PROPERTIES CXX_STANDARD 20)
endif()
EOF
cat >"$PROBE/src/t.cpp" <<'EOF'
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
TEST(Probe, Links) { EXPECT_EQ(nlohmann::json::parse("[1]").size(), 1u); }
EOF
probe() {  # probe PREFIX_PATH: configures (and, when GTest was found, links) the probe; its log goes to build.log
  rm -rf "$PROBE/b"
  : >"$PROBE/log"
  step "dependency-probe" "$(cap "$(fixed_cap dependency-probe)" 60)" "$PROBE/log" cmake -S "$PROBE/src" -B "$PROBE/b" -G "$GENERATOR" \
       -DCMAKE_BUILD_TYPE=Release ${1:+"-DCMAKE_PREFIX_PATH=$1"} "${EXTRA_CMAKE[@]}" >/dev/null
  local rc=$?
  if [ $rc -eq 0 ]; then
    if ! grep -q "probe: GTest found" "$PROBE/log"; then rc=2
    elif ! timeout 60 cmake --build "$PROBE/b" >>"$PROBE/log" 2>&1; then rc=3
    fi
  fi
  cat "$PROBE/log" >>"$BUILD_LOG"
  return $rc
}
probe "$PREFIX_PATH"
rc=$?
if [ $rc -eq 1 ]; then
  grep -q "probe: nlohmann_json not found" "$PROBE/log" &&
    refuse "nlohmann-json (nlohmann_jsonConfig.cmake) was not found${DEPS_ARG:+ in $DEPS_ARG} nor on this machine"
  refuse "the dependency probe failed to configure (no C++ compiler?); see build.log"
fi
if [ $rc -ne 0 ]; then
  # GoogleTest missing (2) or its prebuilt library does not link with this compiler (3): build its sources.
  GTEST_SRC=""
  [ -n "$DEPS_ARG" ] && [ -f "$DEPS_PREFIX/src/googletest/CMakeLists.txt" ] && GTEST_SRC=$DEPS_PREFIX/src/googletest
  if [ -z "$GTEST_SRC" ]; then
    [ $rc -eq 2 ] && refuse "GoogleTest (GTestConfig.cmake or libgtest + gtest.h) was not found${DEPS_ARG:+ in $DEPS_ARG}, nor its sources (usr/src/googletest)"
    refuse "the GoogleTest found does not link with this compiler (see build.log) and no sources were given"
  fi
  note "      GoogleTest $([ $rc -eq 2 ] && echo "not found" || echo "prebuilt does not link here"): building it from $GTEST_SRC"
  GT="$BUILD/_deps/googletest"
  LAUNCHER=""
  command -v ccache >/dev/null 2>&1 && LAUNCHER=ccache
  # shellcheck disable=SC2016  # expanded by the inner shell
  step "googletest-from-source" "$(cap "$(fixed_cap googletest-from-source)" 300)" "$BUILD_LOG" bash -c '
    cmake -S "$1" -B "$2-build" -G "$3" -DCMAKE_BUILD_TYPE=Release -DBUILD_GMOCK=OFF -DINSTALL_GTEST=ON \
          -DCMAKE_INSTALL_PREFIX="$2" -DCMAKE_POSITION_INDEPENDENT_CODE=ON ${5:+-DCMAKE_CXX_COMPILER_LAUNCHER=$5} "${@:6}" &&
      cmake --build "$2-build" -j "$4" && cmake --install "$2-build"' _ "$GTEST_SRC" "$GT" "$GENERATOR" "$JOBS" "$LAUNCHER" "${EXTRA_CMAKE[@]}" ||
    refuse "GoogleTest could not be built from $GTEST_SRC (see build.log)"
  PREFIX_PATH="$GT${PREFIX_PATH:+;$PREFIX_PATH}"
  probe "$PREFIX_PATH" || refuse "GoogleTest built from $GTEST_SRC still does not link (see build.log)"
fi
note "      found: $(grep -o 'probe: nlohmann_json .*' "$PROBE/log" | cut -d' ' -f2-); $(grep -o 'probe: GTest found .*' "$PROBE/log" | cut -d' ' -f2,4-)"
