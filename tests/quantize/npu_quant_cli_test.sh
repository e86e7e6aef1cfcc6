#!/usr/bin/env bash
# npu_quant as a user runs it: a built-in model with each observer, --dump, --json, .npy inputs,
# the committed QDQ model when built with ONNX import, and exit code 2 with a message for bad
# input (including a calibration file of the wrong shape).
set -u
tool="$1"
data="$2"  # tests/onnx/data
fail() { echo "FAIL: $*"; exit 1; }

for observer in minmax percentile mse; do
  out=$("$tool" mlp --observer="$observer" --calib-count=4 --eval-count=4) || fail "mlp exited $?"
  echo "$out" | grep -q "^fc3 .* 100.0%" || fail "no fc3 output line in: $out"
  echo "$out" | grep -q "^relu1 *gemm" || fail "no per-layer line for relu1 in: $out"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$tool" small_cnn --calib-count=2 --eval-count=2 --dump --json="$tmp/r.json") ||
  fail "small_cnn exited $?"
echo "$out" | grep -q "input  %input: i8\[1,32,32,3\] NHWC" || fail "no int8 NHWC input in: $out"
echo "$out" | grep -q "= fused_conv(" || fail "--dump printed no fused_conv: $out"
grep -q '"top1_agreement"' "$tmp/r.json" || fail "JSON report lacks top1_agreement"

# FP16: no calibration, f16 tensors, within cosine 0.9999 of float.
out=$("$tool" small_cnn --precision=fp16 --eval-count=2 --dump) || fail "fp16 exited $?"
echo "$out" | grep -q "input  %input: f16\[1,32,32,3\] NHWC" || fail "no f16 NHWC input in: $out"
echo "$out" | grep -q "no calibration: every activation and weight rounded to FP16" ||
  fail "fp16 report does not say so: $out"
echo "$out" | grep -q "^fc  *1.0000  1.0000 " || fail "fp16 output not at cosine 1.0000: $out"

if "$tool" "$data/qdq_cnn.op13.onnx" --calib="$data/qdq_cnn.input.npy" \
    --eval="$data/qdq_cnn.input.npy" > "$tmp/qdq.txt" 2>&1; then
  grep -q "fold-qdq.quantize *2" "$tmp/qdq.txt" || fail "QDQ model not folded: $(cat "$tmp/qdq.txt")"
else
  grep -q "built without ONNX import" "$tmp/qdq.txt" || fail "QDQ model: $(cat "$tmp/qdq.txt")"
fi

expect_error() {  # expect_error "needle" args...
  local needle="$1"; shift
  out=$("$tool" "$@" 2>&1)
  [ $? -eq 2 ] || fail "'$*' did not exit 2"
  echo "$out" | grep -q "$needle" || fail "'$*' said: $out (expected '$needle')"
}
expect_error "no model named 'resnet9'" resnet9
expect_error "no observer named 'kl'" mlp --observer=kl
expect_error "no model given" --dump
expect_error "input 'input' takes float32 \[1,784\]" mlp --calib="$data/small_cnn.input.npy"
expect_error "percentile 30 must be in (50, 100\]" mlp --percentile=30 --calib-count=1
expect_error "precision fp8: must be int8, w4a8 or fp16" mlp --precision=fp8
echo "1 passed, 0 failed"
