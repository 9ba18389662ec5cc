# Sourced by this folder's batchN.sh (after L, the log folder, is set) and later sessions' calls.

# call_start DEFAULT_BUDGET: a call's opening: L=$OUT/logs (made), BUDGET (the environment's, else
# DEFAULT_BUDGET), an empty summary, the GPU in logs/smi.log and the source-tree stamps of the carried
# binaries in logs/stamps.txt (.device/next/stamp_*.txt, where present).
call_start() {
  L=$OUT/logs; mkdir -p $L
  BUDGET=${BUDGET:-$1}
  : > $L/summary.txt
  nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $L/smi.log
  cat .device/next/stamp_*.txt > $L/stamps.txt 2>/dev/null
  return 0
}

# limited SECONDS command...: the command under timeout min(SECONDS, BUDGET - elapsed) (BUDGET
# defaults to 540), so that a batch's summary always prints within the device's 600-second limit.
limited() {
  local t=$1; shift
  local left=$((${BUDGET:-540} - SECONDS))
  [ $left -lt $t ] && t=$left
  if [ $t -lt 5 ]; then echo "skipped (time): $*" >> $L/summary.txt; return 124; fi
  timeout $t "$@"
}

# table SET VARIANT...: from logs/SET_VARIANT_rR.log (run in $OUT), per shape: M N K, each
# variant's mxgemm time in rounds 1 and 2 (us), the first variant's cuBLAS bf16 and cuBLASLt fp8
# (round 1), and the last variant's check.
table() {
  local set=$1; shift
  local first=$1 last=${!#} t files=() r v
  t=$(mktemp -d)
  rows() { awk -v c="$2" '$1 ~ /^[0-9]+$/ && NF > 20 {print (c == "shape") ? $1 " " $2 " " $3 : (c == "NF") ? $NF : $c}' "$1"; }
  rows logs/${set}_${first}_r1.log shape > $t/shape
  for r in 1 2; do
    for v in "$@"; do rows logs/${set}_${v}_r$r.log 5 > $t/$v.$r; files+=($t/$v.$r); done
  done
  rows logs/${set}_${first}_r1.log 8 > $t/bf16
  rows logs/${set}_${first}_r1.log 16 > $t/fp8
  rows logs/${set}_${last}_r1.log NF > $t/check
  echo "== $set: M N K | $* r1 | r2 (us) | cuBLAS bf16 ($first r1) | fp8 | $last check"
  paste $t/shape "${files[@]}" $t/bf16 $t/fp8 $t/check
  rm -rf $t
}

# stamp TEXT...: TEXT after the seconds elapsed, into $L/summary.txt.
stamp() { echo "t=${SECONDS}s $*" >> $L/summary.txt; }

# unpack NAME...: .device/next/NAME.xz (a binary built here and carried) into /tmp/NAME, executable.
unpack() {
  local n
  for n in "$@"; do xz -dc .device/next/$n.xz > /tmp/$n && chmod +x /tmp/$n; done
}
