"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through a confidential
MPT lifecycle (XLS-96, ConfidentialTransfer), its proofs made by xrpl-py-confidential (the
native build of the C library xrpld links): an issuance with issuer and auditor keys; holder 1
converts 1000 and merges; holder 2 converts 100; holder 1 sends 300, holder 2 merges; each
decrypts what it expects, and so do the issuer and the auditor; holder 1 converts 200 back; the
issuer claws back holder 2's whole confidential balance. Public balances plus
ConfidentialOutstandingAmount equal OutstandingAmount at every step.

Usage: py_confidential_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step)
on any mismatch.
"""

import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.ext.confidential import MPT_CRYPTO_AVAILABLE, MPTCrypto
from xrpl.ext.confidential.transaction_builders import (
    prepare_confidential_clawback,
    prepare_confidential_convert,
    prepare_confidential_convert_back,
    prepare_confidential_merge_inbox,
    prepare_confidential_send,
)
from xrpl.models.amounts import MPTAmount
from xrpl.models.requests import LedgerEntry, Tx
from xrpl.models.requests.ledger_entry import MPToken
from xrpl.models.transactions import (
    MPTokenAuthorize,
    MPTokenIssuanceCreate,
    MPTokenIssuanceCreateFlag,
    MPTokenIssuanceSet,
    Payment,
)
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, submit, summary


def flow(client):
    check(MPT_CRYPTO_AVAILABLE, "xrpl-py-confidential's native mpt-crypto loads")
    crypto = MPTCrypto()
    issuer = Wallet.create(CryptoAlgorithm.SECP256K1)
    h1 = Wallet.create(CryptoAlgorithm.ED25519)
    h2 = Wallet.create(CryptoAlgorithm.SECP256K1)
    for w in (issuer, h1, h2):
        res, _ = submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")
    issuer_sk, issuer_pk = crypto.generate_keypair()
    auditor_sk, auditor_pk = crypto.generate_keypair()
    h1_sk, h1_pk = crypto.generate_keypair()
    h2_sk, h2_pk = crypto.generate_keypair()

    def ok(tx, wallet, what):
        res, r = submit(client, tx, wallet)
        check(res == "tesSUCCESS", f"{what}: {res}")
        return r

    flags = (
        MPTokenIssuanceCreateFlag.TF_MPT_CAN_LOCK
        | MPTokenIssuanceCreateFlag.TF_MPT_CAN_CLAWBACK
        | MPTokenIssuanceCreateFlag.TF_MPT_CAN_TRANSFER
        | MPTokenIssuanceCreateFlag.TF_MPT_CAN_HOLD_CONFIDENTIAL_BALANCE
    )
    created = ok(MPTokenIssuanceCreate(account=issuer.address, flags=flags, maximum_amount="1000000000000"), issuer, "a confidential-capable issuance")
    mpt_id = client.request(Tx(transaction=created["hash"])).result["meta"]["mpt_issuance_id"]
    ok(
        MPTokenIssuanceSet(account=issuer.address, mptoken_issuance_id=mpt_id, issuer_encryption_key=issuer_pk, auditor_encryption_key=auditor_pk),
        issuer,
        "the issuer registers its key and an auditor's",
    )
    for w in (h1, h2):
        ok(MPTokenAuthorize(account=w.address, mptoken_issuance_id=mpt_id), w, "a holder opts in")
    for w, v in ((h1, "10000"), (h2, "100")):
        ok(Payment(account=issuer.address, destination=w.address, amount=MPTAmount(mpt_issuance_id=mpt_id, value=v)), issuer, f"the issuer pays {v}")

    def token(w):
        return client.request(LedgerEntry(mptoken=MPToken(account=w.address, mpt_issuance_id=mpt_id))).result["node"]

    def issuance():
        return client.request(LedgerEntry(mpt_issuance=mpt_id)).result["node"]

    def decrypt(node, field, sk):
        blob = node.get(field, "")
        return crypto.decrypt(sk, blob[:66], blob[66:132], 0, 100000) if blob else 0

    def conserved(what, confidential):
        iss = issuance()
        public = sum(int(token(w).get("MPTAmount", "0")) for w in (h1, h2))
        coa = int(iss.get("ConfidentialOutstandingAmount", "0"))
        check(coa == confidential, f"{what}: ConfidentialOutstandingAmount {coa}")
        check(public + coa == int(iss["OutstandingAmount"]), f"{what}: public {public} + confidential {coa} = outstanding {iss['OutstandingAmount']}")

    keys = dict(issuer_pubkey=issuer_pk, auditor_pubkey=auditor_pk)
    ok(prepare_confidential_convert(client, h1, mpt_id, 1000, holder_privkey=h1_sk, holder_pubkey=h1_pk, **keys), h1, "holder 1 converts 1000")
    ok(prepare_confidential_merge_inbox(client, h1, mpt_id), h1, "holder 1 merges its inbox")
    check(decrypt(token(h1), "ConfidentialBalanceSpending", h1_sk) == 1000, "holder 1 decrypts 1000 spendable")
    ok(prepare_confidential_convert(client, h2, mpt_id, 100, holder_privkey=h2_sk, holder_pubkey=h2_pk, **keys), h2, "holder 2 converts 100")
    conserved("after the converts", 1100)

    send = prepare_confidential_send(client, h1, h2.address, mpt_id, 300, sender_privkey=h1_sk, sender_pubkey=h1_pk, receiver_pubkey=h2_pk, **keys)
    ok(send, h1, "holder 1 sends 300")
    ok(prepare_confidential_merge_inbox(client, h2, mpt_id), h2, "holder 2 merges its inbox")
    n1, n2 = token(h1), token(h2)
    check(decrypt(n1, "ConfidentialBalanceSpending", h1_sk) == 700, "holder 1 decrypts 700")
    check(decrypt(n2, "ConfidentialBalanceSpending", h2_sk) == 400, "holder 2 decrypts 400")
    check(decrypt(n1, "AuditorEncryptedBalance", auditor_sk) == 700, "the auditor reads holder 1's 700")
    check(decrypt(n2, "IssuerEncryptedBalance", issuer_sk) == 400, "the issuer reads holder 2's 400")
    conserved("after the send", 1100)

    ok(prepare_confidential_convert_back(client, h1, mpt_id, 200, holder_privkey=h1_sk, holder_pubkey=h1_pk, **keys), h1, "holder 1 converts 200 back")
    check(int(token(h1)["MPTAmount"]) == 9200, "holder 1's public balance is 9000 + 200")
    check(decrypt(token(h1), "ConfidentialBalanceSpending", h1_sk) == 500, "holder 1 decrypts 500")
    conserved("after the convert back", 900)

    n2 = token(h2)
    owed = decrypt(n2, "IssuerEncryptedBalance", issuer_sk)
    claw = prepare_confidential_clawback(client, issuer, h2.address, mpt_id, owed, issuer_sk, issuer_pk, n2["IssuerEncryptedBalance"])
    ok(claw, issuer, f"the issuer claws back holder 2's {owed}")
    check(decrypt(token(h2), "ConfidentialBalanceSpending", h2_sk) == 0, "holder 2 decrypts 0")
    conserved("after the clawback", 500)


if __name__ == "__main__":
    flow(JsonRpcClient(sys.argv[1]))
    summary()
