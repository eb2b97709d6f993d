#!/usr/bin/env bash
# Names from a model file never drive the terminal: ONNX files (written here byte by byte) whose op_type and
# names hold ESC sequences, BEL and invalid UTF-8 must reach stderr and dump's stdout escaped ("\x1b", "\xff"),
# with no raw control byte and nothing but UTF-8; a Japanese name stays as it is.
#
#   escaped_names.sh NNCLI
set -u
nncli=$1
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# A one-Relu-node ONNX model (opset 13, float [1, 4] in and out) in protobuf wire format, op_type and names given.
python3 - <<'EOF' || { echo "FAIL: could not write the ONNX files"; exit 1; }
def varint(n):
    out = bytearray()
    while True:
        out.append((n & 0x7f) | (0x80 if n > 0x7f else 0))
        n >>= 7
        if not n:
            return bytes(out)
def field(number, payload):  # length-delimited
    return varint(number << 3 | 2) + varint(len(payload)) + payload
def integer(number, value):
    return varint(number << 3) + varint(value)
def value_info(name):
    dims = field(1, integer(1, 1)) + field(1, integer(1, 4))
    tensor_type = integer(1, 1) + field(2, dims)  # FLOAT, shape (1, 4)
    return field(1, name) + field(2, field(1, tensor_type))
def model(op_type, node_name, output):
    node = field(1, b"x") + field(2, output) + field(3, node_name) + field(4, op_type)
    graph = field(1, node) + field(2, b"g") + field(11, value_info(b"x")) + field(12, value_info(output))
    return integer(1, 8) + field(7, graph) + field(8, field(1, b"") + integer(2, 13))
open("op_type.onnx", "wb").write(model(b"Relu\x1b]0;TITLE\x07\x1b[31mRED", b"n\xff\xfe", b"y"))
open("names.onnx", "wb").write(model(b"Relu", b"relu\xff\x1b[31m", b"y\x1b]0;T\x07\xfe"))
header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), }"
header += b" " * (117 - len(header)) + b"\n"
open("x.npy", "wb").write(b"\x93NUMPY\x01\x00" + bytes([len(header), 0]) + header + b"\x00" * 16)
open("japanese.onnx", "wb").write(model(b"Relu", "畳み込み".encode(), b"y"))
EOF
status=0
# clean FILE WHAT: no control byte but line feeds, and nothing that is not UTF-8.
clean() {
  if python3 -c "
import sys
text = open(sys.argv[1], 'rb').read().decode('utf-8')
sys.exit(any(ord(c) < 32 and c != '\n' or 127 <= ord(c) < 160 for c in text))" "$1" 2>/dev/null; then
    echo "OK: $2 holds no raw control byte and only UTF-8"
  else
    echo "FAIL: $2 holds raw control bytes or invalid UTF-8: $(od -c "$1" | head -5)"; status=1
  fi
}
has() {  # has FILE TEXT WHAT
  grep -qF -- "$2" "$1" && echo "OK: $3 shows '$2'" || { echo "FAIL: $3 lacks '$2': $(cat -v "$1")"; status=1; }
}
"$nncli" convert op_type.onnx out.nnp >out.txt 2>err.txt
rc=$?
[ $rc -eq 3 ] || { echo "FAIL: convert exited $rc, not 3 (unsupported): $(cat -v err.txt)"; status=1; }
has err.txt 'Relu\x1b]0;TITLE\x07\x1b[31mRED' "convert's error"
clean err.txt "convert's stderr"
"$nncli" -v dump -F names.onnx >out.txt 2>err.txt || { echo "FAIL: dump failed: $(cat -v err.txt)"; status=1; }
has out.txt 'relu\xff\x1b[31m' "dump's stdout"
has out.txt 'y\x1b]0;T\x07\xfe' "dump's stdout"
clean out.txt "dump's stdout"
clean err.txt "dump -v's stderr"
"$nncli" dump --format json names.onnx >out.json 2>err.txt || { echo "FAIL: dump --format json failed: $(cat -v err.txt)"; status=1; }
has out.json '\u001b]0;T\u0007' "dump's JSON"
clean out.json "dump's JSON"
"$nncli" infer --format json names.onnx x.npy >out.json 2>err.txt || {
  echo "FAIL: infer --format json failed: $(cat -v err.txt)"; status=1; }
has out.json '\u001b]0;T\u0007' "infer's JSON"
clean out.json "infer's JSON"
"$nncli" dump -F japanese.onnx >out.txt 2>err.txt || { echo "FAIL: dump failed: $(cat err.txt)"; status=1; }
has out.txt "畳み込み" "dump's stdout"
exit $status
