#!/usr/bin/env bash
# npu_opt as a user runs it: listing, a checked pipeline run, dump-after and disable-pass, the
# ONNX round trip when built with compiler/onnx, and exit code 2 with a message for bad input.
set -u
tool="$1"
fail() { echo "FAIL: $*"; exit 1; }

"$tool" --list-passes | grep -q "^fold-batchnorm" || fail "--list-passes lacks fold-batchnorm"
"$tool" --list-models | grep -q "^resnet18" || fail "--list-models lacks resnet18"

out=$("$tool" small_cnn --check) || fail "small_cnn --check exited $?"
echo "$out" | grep -q "check: PASS" || fail "no PASS in: $out"
echo "$out" | grep -q "fold-batchnorm.folded *2" || fail "no BN folding in: $out"

out=$("$tool" small_cnn --dump-after=fold-batchnorm --disable-pass=convert-layout-nhwc --print)
echo "$out" | grep -q "= conv(" || fail "dump after fold-batchnorm has no conv: $out"
echo "$out" | grep -q "transpose" && fail "layout pass ran although disabled"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if "$tool" mlp --export-onnx="$tmp/mlp.onnx" > /dev/null 2>&1; then
  "$tool" "$tmp/mlp.onnx" --check | grep -q "check: PASS" || fail "exported mlp does not import"
fi

expect_error() {  # expect_error "needle" args...
  local needle="$1"; shift
  out=$("$tool" "$@" 2>&1)
  [ $? -eq 2 ] || fail "'$*' did not exit 2"
  echo "$out" | grep -q "$needle" || fail "'$*' said: $out (expected '$needle')"
}
expect_error "no model named 'resnet9'" resnet9
expect_error "no pass named 'fold-all'" small_cnn --disable-pass=fold-all
expect_error "no pass named 'x'" small_cnn --dump-after=x
expect_error "no MODEL given" --print
expect_error "image size 8" resnet18 --image-size=8
echo "1 passed, 0 failed"
