"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through the MPT reads
of xrpl-py's integration tests (test_mptoken_issuance_create, test_mptoken_authorize,
test_mptoken_issuance_set, test_mptoken_issuance_destroy and the MPT part of test_clawback):
the issuance ID from the tx metadata, account_objects of type mpt_issuance with its
mpt_issuance_id, ledger_entry of an MPToken, the largest MPT payment and a clawback; and
Clio's mpt_holders, account_mptokens and account_mptoken_issuances through GenericRequest.

Usage: py_mpt_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step) on any
mismatch.
"""

import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.amounts import MPTAmount
from xrpl.models.requests import AccountObjects, AccountObjectType, GenericRequest, LedgerEntry, Tx
from xrpl.models.requests.ledger_entry import MPToken
from xrpl.models.transactions import (
    Clawback,
    MPTokenAuthorize,
    MPTokenAuthorizeFlag,
    MPTokenIssuanceCreate,
    MPTokenIssuanceCreateFlag,
    MPTokenIssuanceDestroy,
    MPTokenIssuanceSet,
    MPTokenIssuanceSetFlag,
    Payment,
)
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, submit, summary


def flow(client):
    issuer = Wallet.create(CryptoAlgorithm.SECP256K1)
    holder = Wallet.create(CryptoAlgorithm.ED25519)
    for w in (issuer, holder):
        res, _ = submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")

    flags = MPTokenIssuanceCreateFlag.TF_MPT_CAN_CLAWBACK | MPTokenIssuanceCreateFlag.TF_MPT_CAN_LOCK
    res, r = submit(client, MPTokenIssuanceCreate(account=issuer.address, flags=flags, maximum_amount="9223372036854775807"), issuer)
    check(res == "tesSUCCESS", f"MPTokenIssuanceCreate: {res}")
    tx = client.request(Tx(transaction=r["hash"])).result
    mpt_id = tx["meta"]["mpt_issuance_id"]
    check(len(mpt_id) == 48, f"tx meta mpt_issuance_id {mpt_id}")
    objs = client.request(AccountObjects(account=issuer.address, type=AccountObjectType.MPT_ISSUANCE)).result["account_objects"]
    check([o["mpt_issuance_id"] for o in objs] == [mpt_id], "account_objects mpt_issuance carries mpt_issuance_id")

    res, _ = submit(client, MPTokenAuthorize(account=holder.address, mptoken_issuance_id=mpt_id), holder)
    check(res == "tesSUCCESS", f"the holder opts in: {res}")
    res, _ = submit(client, Payment(account=issuer.address, destination=holder.address, amount=MPTAmount(mpt_issuance_id=mpt_id, value="9223372036854775807")), issuer)
    check(res == "tesSUCCESS", f"the issuer pays the largest amount: {res}")
    node = client.request(LedgerEntry(mptoken=MPToken(mpt_issuance_id=mpt_id, account=holder.address))).result["node"]
    check(node["MPTAmount"] == "9223372036854775807", f"ledger_entry mptoken: {node['MPTAmount']}")

    # Clio's MPT methods through xrpl-py's GenericRequest (they have no models of their own).
    holders = client.request(GenericRequest(method="mpt_holders", mpt_issuance_id=mpt_id)).result
    check([h["account"] for h in holders["mptokens"]] == [holder.address], f"mpt_holders: {holders}")
    check(holders["mptokens"][0]["mpt_amount"] == "9223372036854775807", "mpt_holders amount")
    tokens = client.request(GenericRequest(method="account_mptokens", account=holder.address)).result
    check([t["mpt_issuance_id"] for t in tokens["mptokens"]] == [mpt_id.upper()], f"account_mptokens: {tokens}")
    check(tokens["mptokens"][0]["mpt_amount"] == 9223372036854775807, "account_mptokens amount")
    issued = client.request(GenericRequest(method="account_mptoken_issuances", account=issuer.address)).result
    check([i["mpt_issuance_id"] for i in issued["mpt_issuances"]] == [mpt_id.upper()], f"account_mptoken_issuances: {issued}")
    check(issued["mpt_issuances"][0].get("mpt_can_clawback") is True, "the issuance's flags")

    res, _ = submit(client, MPTokenIssuanceSet(account=issuer.address, mptoken_issuance_id=mpt_id, holder=holder.address, flags=MPTokenIssuanceSetFlag.TF_MPT_LOCK), issuer)
    check(res == "tesSUCCESS", f"the issuer locks the holder: {res}")
    res, _ = submit(client, Clawback(account=issuer.address, amount=MPTAmount(mpt_issuance_id=mpt_id, value="500"), holder=holder.address), issuer)
    check(res == "tesSUCCESS", f"clawback of 500 from a locked holder: {res}")
    node = client.request(LedgerEntry(mptoken=MPToken(mpt_issuance_id=mpt_id, account=holder.address))).result["node"]
    check(node["MPTAmount"] == "9223372036854775307", f"after the clawback: {node['MPTAmount']}")
    check(node["Flags"] == 1, "the token is locked (lsfMPTLocked)")

    res, _ = submit(client, Clawback(account=issuer.address, amount=MPTAmount(mpt_issuance_id=mpt_id, value="9223372036854775807"), holder=holder.address), issuer)
    check(res == "tesSUCCESS", f"clawback of everything left: {res}")
    opt_out = MPTokenAuthorize(account=holder.address, mptoken_issuance_id=mpt_id, flags=MPTokenAuthorizeFlag.TF_MPT_UNAUTHORIZE)
    res, _ = submit(client, opt_out, holder)
    check(res == "tecNO_PERMISSION", f"a locked token stays (SingleAssetVault): {res}")
    res, _ = submit(client, MPTokenIssuanceSet(account=issuer.address, mptoken_issuance_id=mpt_id, holder=holder.address, flags=MPTokenIssuanceSetFlag.TF_MPT_UNLOCK), issuer)
    check(res == "tesSUCCESS", f"the issuer unlocks the holder: {res}")
    res, _ = submit(client, opt_out, holder)
    check(res == "tesSUCCESS", f"the holder opts out: {res}")
    res, _ = submit(client, MPTokenIssuanceDestroy(account=issuer.address, mptoken_issuance_id=mpt_id), issuer)
    check(res == "tesSUCCESS", f"the issuer destroys the issuance: {res}")
    objs = client.request(AccountObjects(account=issuer.address)).result["account_objects"]
    check(objs == [], "nothing left")


def main():
    flow(JsonRpcClient(sys.argv[1]))
    summary()


if __name__ == "__main__":
    main()
