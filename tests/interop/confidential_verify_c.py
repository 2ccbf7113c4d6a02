"""Verify proofs made by ledgerd with mpt-crypto's own C verifiers (as compiled into
xrpl-py-confidential). Reads a JSON array on stdin of {kind: "key", key, context, proof} and
{kind: "clawback", key, context, proof, amount, ciphertext} (hex); prints one line per proof,
"ok" or "refused".
"""

import json
import sys

from _mpt_crypto import ffi, lib

for case in json.load(sys.stdin):
    key = ffi.from_buffer(bytes.fromhex(case["key"]))
    context = ffi.from_buffer(bytes.fromhex(case["context"]))
    proof = ffi.from_buffer(bytes.fromhex(case["proof"]))
    if case["kind"] == "key":
        status = lib.mpt_verify_convert_proof(proof, key, context)
    else:
        ciphertext = ffi.from_buffer(bytes.fromhex(case["ciphertext"]))
        status = lib.mpt_verify_clawback_proof(proof, case["amount"], key, ciphertext, context)
    print("ok" if status == 0 else "refused")
