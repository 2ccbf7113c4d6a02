"""Verify key proofs made by ledgerd with mpt-crypto's own C verifier (as compiled into
xrpl-py-confidential). Reads a JSON array of {key, context, proof} (hex) on stdin; prints one
line per proof, "ok" or "refused".
"""

import json
import sys

from _mpt_crypto import ffi, lib

for case in json.load(sys.stdin):
    key = ffi.from_buffer(bytes.fromhex(case["key"]))
    context = ffi.from_buffer(bytes.fromhex(case["context"]))
    proof = ffi.from_buffer(bytes.fromhex(case["proof"]))
    print("ok" if lib.mpt_verify_convert_proof(proof, key, context) == 0 else "refused")
