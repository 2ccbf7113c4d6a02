"""Verify proofs made by ledgerd with mpt-crypto's own C verifiers (as compiled into
xrpl-py-confidential). Reads a JSON array on stdin of {kind: "key", key, context, proof},
{kind: "clawback", key, context, proof, amount, ciphertext}, {kind: "convert_back", key,
context, proof, amount, spending, balance_commitment} and {kind: "send", parties: [[key,
ciphertext], ...], context, proof, spending, amount_commitment, balance_commitment} (hex);
prints one line per proof, "ok" or "refused".
"""

import json
import sys

from _mpt_crypto import ffi, lib

for case in json.load(sys.stdin):
    key = ffi.from_buffer(bytes.fromhex(case.get("key", "00")))
    context = ffi.from_buffer(bytes.fromhex(case["context"]))
    proof = ffi.from_buffer(bytes.fromhex(case["proof"]))
    if case["kind"] == "key":
        status = lib.mpt_verify_convert_proof(proof, key, context)
    elif case["kind"] == "convert_back":
        spending = ffi.from_buffer(bytes.fromhex(case["spending"]))
        pc_b = ffi.from_buffer(bytes.fromhex(case["balance_commitment"]))
        status = lib.mpt_verify_convert_back_proof(
            proof, key, spending, pc_b, case["amount"], context
        )
    elif case["kind"] == "send":
        parties = ffi.new("mpt_confidential_participant[]", len(case["parties"]))
        for i, (pk, ct) in enumerate(case["parties"]):
            ffi.memmove(parties[i].pubkey, bytes.fromhex(pk), 33)
            ffi.memmove(parties[i].ciphertext, bytes.fromhex(ct), 66)
        spending = ffi.from_buffer(bytes.fromhex(case["spending"]))
        pc_m = ffi.from_buffer(bytes.fromhex(case["amount_commitment"]))
        pc_b = ffi.from_buffer(bytes.fromhex(case["balance_commitment"]))
        status = lib.mpt_verify_send_proof(
            proof, parties, len(case["parties"]), spending, pc_m, pc_b, context
        )
    else:
        ciphertext = ffi.from_buffer(bytes.fromhex(case["ciphertext"]))
        status = lib.mpt_verify_clawback_proof(proof, case["amount"], key, ciphertext, context)
    print("ok" if status == 0 else "refused")
