"""mpt-crypto's own C verifiers, timed for comparison with ledgerd's (`cargo run --release
--example confidential_verify`). The C library is the one xrpld links, as compiled into the
xrpl-py-confidential wheel (pinned in tests/interop/requirements.txt; run this with that venv's
python: tests/interop/.venv/bin/python examples/confidential/mpt_crypto_c_bench.py).

Makes one proof of each kind with the C library, then verifies it ROUNDS x N times and prints,
for each kind, the median over rounds of verifications per second on one core. It also checks
each verification succeeds and that a proof with one byte changed is refused.
"""

import os
import statistics
import time

from _mpt_crypto import ffi, lib

ROUNDS, N = 5, 40


def buf(n, data=None):
    b = ffi.new(f"uint8_t[{n}]")
    if data is not None:
        ffi.memmove(b, data, n)
    return b


def keypair():
    sk, pk = buf(32), buf(33)
    assert lib.mpt_generate_keypair(sk, pk) == 0
    return sk, pk


def blinding():
    r = buf(32)
    assert lib.mpt_generate_blinding_factor(r) == 0
    return r


def encrypt(amount, pk, r):
    ct = buf(66)
    assert lib.mpt_encrypt_amount(amount, pk, r, ct) == 0
    return ct


def commit(amount, r):
    c = buf(33)
    assert lib.mpt_get_pedersen_commitment(amount, r, c) == 0
    return c


def ids():
    acc, dest, iss = ffi.new("account_id*"), ffi.new("account_id*"), ffi.new("mpt_issuance_id*")
    ffi.memmove(acc.bytes, os.urandom(20), 20)
    ffi.memmove(dest.bytes, os.urandom(20), 20)
    ffi.memmove(iss.bytes, os.urandom(24), 24)
    return acc[0], dest[0], iss[0]


def rate(verify):
    rates = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(N):
            assert verify()
        rates.append(N / (time.perf_counter() - start))
    return statistics.median(rates)


def tampered(proof, size):
    bad = buf(size, bytes(ffi.buffer(proof, size)))
    bad[size // 2] ^= 1
    return bad


def main():
    acc, dest, iss = ids()
    ctx = buf(32)
    results = {}

    sk, pk = keypair()
    assert lib.mpt_get_convert_context_hash(acc, iss, 7, ctx) == 0
    pok = buf(64)
    assert lib.mpt_get_convert_proof(pk, sk, ctx, pok) == 0
    results["key proof (Convert), 64 B"] = rate(lambda: lib.mpt_verify_convert_proof(pok, pk, ctx) == 0)
    assert lib.mpt_verify_convert_proof(tampered(pok, 64), pk, ctx) != 0

    isk, ipk = keypair()
    bal = encrypt(500, ipk, blinding())
    assert lib.mpt_get_clawback_context_hash(acc, iss, 8, dest, ctx) == 0
    claw = buf(64)
    assert lib.mpt_get_clawback_proof(isk, ipk, ctx, 500, bal, claw) == 0
    results["Clawback, 64 B"] = rate(lambda: lib.mpt_verify_clawback_proof(claw, 500, ipk, bal, ctx) == 0)
    assert lib.mpt_verify_clawback_proof(tampered(claw, 64), 500, ipk, bal, ctx) != 0

    spending = encrypt(1000, pk, blinding())
    rho = blinding()
    pcb = commit(1000, rho)
    params = ffi.new("mpt_pedersen_proof_params*")
    ffi.memmove(params.pedersen_commitment, pcb, 33)
    params.amount = 1000
    ffi.memmove(params.ciphertext, spending, 66)
    ffi.memmove(params.blinding_factor, rho, 32)
    assert lib.mpt_get_convert_back_context_hash(acc, iss, 9, 0, ctx) == 0
    back = buf(816)
    assert lib.mpt_get_convert_back_proof(sk, pk, ctx, 200, params, back) == 0
    results["ConvertBack, 816 B"] = rate(lambda: lib.mpt_verify_convert_back_proof(back, pk, spending, pcb, 200, ctx) == 0)
    assert lib.mpt_verify_convert_back_proof(tampered(back, 816), pk, spending, pcb, 200, ctx) != 0

    for n in (3, 4):
        r = blinding()
        parts = ffi.new(f"mpt_confidential_participant[{n}]")
        for i, key in enumerate([pk] + [keypair()[1] for _ in range(n - 1)]):
            ffi.memmove(parts[i].pubkey, key, 33)
            ffi.memmove(parts[i].ciphertext, encrypt(300, key, r), 66)
        pcm = commit(300, r)
        assert lib.mpt_get_send_context_hash(acc, iss, 10, dest, 0, ctx) == 0
        send, out_len = buf(946), ffi.new("size_t*")
        out_len[0] = 946
        assert lib.mpt_get_confidential_send_proof(sk, pk, 300, parts, n, r, ctx, pcm, params, send, out_len) == 0
        name = f"Send, {n} participants, 946 B"
        results[name] = rate(lambda: lib.mpt_verify_send_proof(send, parts, n, spending, pcm, pcb, ctx) == 0)
        assert lib.mpt_verify_send_proof(tampered(send, 946), parts, n, spending, pcm, pcb, ctx) != 0

    print(f"mpt-crypto C verifiers (xrpl-py-confidential), one core, median of {ROUNDS} rounds of {N}:")
    for name, per_second in results.items():
        print(f"  {name:36} {per_second:10.1f} verifications/s")


if __name__ == "__main__":
    main()
