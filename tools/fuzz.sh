#!/usr/bin/env bash
# Fuzzes the file loaders with libFuzzer (tests/fuzz), or replays files
# through them.
#
#   tools/fuzz.sh SECONDS [TARGET...]   fuzz each target for SECONDS
#   tools/fuzz.sh --replay [TARGET...]  run each target once over its seed
#                                       corpus and its kept crashes
#
# Builds with clang, ASan and UBSan into ./build-fuzz. A fuzz run starts from
# a scratch copy of tests/fuzz/corpus/TARGET (the committed corpus does not
# grow); an input that crashes, leaks, runs out of memory or time is copied
# to tests/regressions/fuzz/TARGET-KIND-HASH.EXT and the script exits 1 after
# the remaining targets have run. Exit status: 0 clean, 1 a target failed,
# 2 bad usage or a build failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-fuzz"
corpus_root="$root/tests/fuzz/corpus"
regressions="$root/tests/regressions/fuzz"

# Target, the longest input worth trying (bytes), the extension of its files.
# 4 KiB holds a few hundred lines: enough for every section of every format;
# the tetrahedralizer target ignores longer inputs (fuzz_tetrahedralize.cpp).
all_targets=(fuzz_tet_text fuzz_tetgen_files fuzz_obj_surface fuzz_tetrahedralize)
declare -A max_len=([fuzz_tet_text]=4096 [fuzz_tetgen_files]=4096
                    [fuzz_obj_surface]=4096 [fuzz_tetrahedralize]=4096)
declare -A extension=([fuzz_tet_text]=tet [fuzz_tetgen_files]=tetgen
                      [fuzz_obj_surface]=obj [fuzz_tetrahedralize]=obj)
# The same limits for fuzzing and replay: 2 GiB of memory (a count that asks
# for more is a bug: the loaders must check counts before they reserve), 10 s
# for one input (a hang).
limits=(-rss_limit_mb=2048 -timeout=10)
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

usage() { sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

mode=fuzz
seconds=0
case "${1:-}" in
  --replay) mode=replay ;;
  ''|-h|--help) usage ;;
  *) [[ "$1" =~ ^[1-9][0-9]*$ ]] || usage; seconds="$1" ;;
esac
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [ -n "${max_len[$t]:-}" ] || { echo "fuzz: unknown target '$t' (${all_targets[*]})" >&2; exit 2; }
done

echo "== fuzz: build (clang, ASan + UBSan + libFuzzer) in build-fuzz"
"$root/tools/install-deps.sh"
build_log="$(mktemp)"
# SOFTBODY_FUZZ compiles at -O1 with line tables (CMakeLists.txt).
if ! { cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
         -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOFTBODY_FUZZ=ON -DSOFTBODY_BUILD_TESTS=OFF &&
       cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}"; } >"$build_log" 2>&1; then
  tail -n 40 "$build_log"
  echo "fuzz: FAILED to build" >&2
  rm -f "$build_log"
  exit 2
fi
rm -f "$build_log"

# The sanitizer's summary and the first frames in this project, so that a CI
# log shows where it broke without the whole report.
show_report() {
  grep -E '^(SUMMARY|==[0-9]+== ?ERROR|fuzz check failed)|runtime error|#[0-9]+ .* /.*/(src|tests)/' "$1" \
    | head -n 12 \
    | sed -E -e "s|$root/||g" -e 's#build-fuzz/(tests/fuzz/\.\./\.\./)?\.\./##g' -e 's/^ */    /' || true
}

failed=()
if [ "$mode" = replay ]; then
  for t in "${targets[@]}"; do
    files=("$corpus_root/$t"/* )
    shopt -s nullglob
    files+=("$regressions/$t"-*)
    shopt -u nullglob
    echo "== fuzz: replay $t over ${#files[@]} files (corpus and tests/regressions/fuzz)"
    bad=0
    for f in "${files[@]}"; do
      log="$(mktemp)"
      if ! "$build/tests/fuzz/$t" "${limits[@]}" "$f" >"$log" 2>&1; then
        echo "  FAIL ${f#"$root"/}"
        show_report "$log"
        bad=$((bad + 1))
      fi
      rm -f "$log"
    done
    if [ "$bad" -gt 0 ]; then
      failed+=("$t ($bad of ${#files[@]} files)")
    else
      echo "  ok: $t, ${#files[@]} files"
    fi
  done
else
  mkdir -p "$regressions"
  for t in "${targets[@]}"; do
    echo "== fuzz: $t for ${seconds} s (max_len ${max_len[$t]})"
    scratch="$(mktemp -d "${TMPDIR:-/tmp}/softbody-fuzz-$t.XXXXXX")"
    mkdir "$scratch/corpus" "$scratch/artifacts"
    cp "$corpus_root/$t"/* "$scratch/corpus/"
    status=0
    "$build/tests/fuzz/$t" "$scratch/corpus" "${limits[@]}" -max_total_time="$seconds" \
      -max_len="${max_len[$t]}" -artifact_prefix="$scratch/artifacts/" -print_final_stats=1 \
      >"$scratch/log" 2>&1 || status=$?
    grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$scratch/log" \
      | sed 's/^/    /' || true
    kept=()
    for a in "$scratch/artifacts"/*; do
      [ -f "$a" ] || continue
      name="$(basename "$a")"            # crash-SHA1, leak-, oom-, timeout-, slow-unit-
      kind="${name%%-*}"
      [ "$kind" = slow ] && continue     # slow but finished: not a failure
      sha="${name##*-}"
      dest="$regressions/$t-$kind-${sha:0:12}.${extension[$t]}"
      cp "$a" "$dest"
      kept+=("${dest#"$root"/}")
    done
    if [ "$status" -ne 0 ] || [ ${#kept[@]} -gt 0 ]; then
      echo "  FAIL $t (exit status $status)"
      show_report "$scratch/log"
      for k in "${kept[@]}"; do echo "    reproducer: $k (replay: build-fuzz/tests/fuzz/$t $k)"; done
      failed+=("$t")
    else
      echo "  ok: $t"
    fi
    rm -rf "$scratch"
  done
fi

echo "== fuzz: summary ($mode)"
if [ ${#failed[@]} -gt 0 ]; then
  for f in "${failed[@]}"; do echo "  FAILED: $f"; done
  exit 1
fi
echo "  all ${#targets[@]} targets passed"
