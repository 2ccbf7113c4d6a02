"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through DynamicMPT
(XLS-94) as xrpl-py's test_mptoken_issuance_dynamic_mpt uses it: metadata and transfer fee
mutable by default, capability flags enabled by MPTokenIssuanceSet's TF_MPT_SET_* flags,
ImmutableFlags given at creation or added later, and the changes they forbid refused with
tecNO_PERMISSION; each issuance read back with account_objects of type mpt_issuance.

Usage: py_dynamic_mpt_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step)
on any mismatch.
"""

import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.requests import AccountObjects, AccountObjectType, Tx
from xrpl.models.transactions import (
    MPTokenIssuanceCreate,
    MPTokenIssuanceCreateFlag,
    MPTokenIssuanceImmutableFlag,
    MPTokenIssuanceSet,
    MPTokenIssuanceSetFlag,
    Payment,
)
from xrpl.utils import str_to_hex
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, submit, summary


def issue(client, issuer, **fields):
    res, r = submit(client, MPTokenIssuanceCreate(account=issuer.address, **fields), issuer)
    check(res == "tesSUCCESS", f"MPTokenIssuanceCreate {fields}: {res}")
    return client.request(Tx(transaction=r["hash"])).result["meta"]["mpt_issuance_id"]


def read(client, issuer, mpt_id):
    objs = client.request(AccountObjects(account=issuer.address, type=AccountObjectType.MPT_ISSUANCE)).result
    return next(o for o in objs["account_objects"] if o["mpt_issuance_id"] == mpt_id)


def mset(client, issuer, mpt_id, **fields):
    tx = MPTokenIssuanceSet(account=issuer.address, mptoken_issuance_id=mpt_id, **fields)
    return submit(client, tx, issuer)[0]


def capabilities(client, issuer):
    mpt_id = issue(client, issuer, asset_scale=2, immutable_flags=MPTokenIssuanceImmutableFlag.TIF_MPT_CAN_TRADE)
    check(read(client, issuer, mpt_id)["ImmutableFlags"] == 0x10, "ImmutableFlags recorded at creation")
    res = mset(client, issuer, mpt_id, flags=MPTokenIssuanceSetFlag.TF_MPT_SET_CAN_TRADE)
    check(res == "tecNO_PERMISSION", f"an immutable capability stays off: {res}")
    both = MPTokenIssuanceSetFlag.TF_MPT_SET_CAN_LOCK | MPTokenIssuanceSetFlag.TF_MPT_SET_REQUIRE_AUTH
    check(mset(client, issuer, mpt_id, flags=both) == "tesSUCCESS", "two capabilities enabled")
    check(read(client, issuer, mpt_id)["Flags"] == 0x06, "lsfMPTCanLock | lsfMPTRequireAuth")
    res = mset(client, issuer, mpt_id, flags=MPTokenIssuanceSetFlag.TF_MPT_LOCK)
    check(res == "tesSUCCESS", f"the enabled CanLock allows a lock: {res}")
    check(read(client, issuer, mpt_id)["Flags"] == 0x07, "and the issuance is locked")


def fields(client, issuer):
    meta = str_to_hex('{"ticker":"DYN"}')
    mpt_id = issue(
        client, issuer, flags=MPTokenIssuanceCreateFlag.TF_MPT_CAN_TRANSFER, transfer_fee=100, mptoken_metadata=meta
    )
    check(mset(client, issuer, mpt_id, transfer_fee=200) == "tesSUCCESS", "TransferFee replaced")
    check(mset(client, issuer, mpt_id, mptoken_metadata=str_to_hex("v2")) == "tesSUCCESS", "metadata replaced")
    o = read(client, issuer, mpt_id)
    check(o["TransferFee"] == 200 and o["MPTokenMetadata"].upper() == str_to_hex("v2").upper(), f"read back: {o}")
    freeze = MPTokenIssuanceImmutableFlag.TIF_MPT_TRANSFER_FEE
    check(mset(client, issuer, mpt_id, immutable_flags=freeze) == "tesSUCCESS", "TransferFee frozen")
    freeze = MPTokenIssuanceImmutableFlag.TIF_MPT_METADATA
    check(mset(client, issuer, mpt_id, immutable_flags=freeze) == "tesSUCCESS", "metadata frozen")
    check(read(client, issuer, mpt_id)["ImmutableFlags"] == 0x30000, "ImmutableFlags accumulate")
    res = mset(client, issuer, mpt_id, transfer_fee=0)
    check(res == "tecNO_PERMISSION", f"a frozen fee is not even removed: {res}")
    res = mset(client, issuer, mpt_id, mptoken_metadata="")
    check(res == "tecNO_PERMISSION", f"nor frozen metadata: {res}")

    plain = issue(client, issuer, mptoken_metadata=meta)
    res = mset(client, issuer, plain, transfer_fee=300)
    check(res == "tecNO_PERMISSION", f"a fee needs CanTransfer: {res}")
    res = mset(client, issuer, plain, flags=MPTokenIssuanceSetFlag.TF_MPT_SET_CAN_TRANSFER, transfer_fee=300)
    check(res == "tesSUCCESS", f"given in the same transaction: {res}")
    check(mset(client, issuer, plain, mptoken_metadata="") == "tesSUCCESS", "empty metadata")
    o = read(client, issuer, plain)
    check("MPTokenMetadata" not in o and o["TransferFee"] == 300 and o["Flags"] == 0x20, f"read back: {o}")
    check(mset(client, issuer, plain, transfer_fee=0) == "tesSUCCESS", "a zero fee")
    check("TransferFee" not in read(client, issuer, plain), "removes TransferFee")


def main():
    client = JsonRpcClient(sys.argv[1])
    issuer = Wallet.create(CryptoAlgorithm.SECP256K1)
    res, _ = submit(client, Payment(account=GENESIS.address, destination=issuer.address, amount="1000000000"), GENESIS)
    check(res == "tesSUCCESS", "genesis funds the issuer")
    capabilities(client, issuer)
    fields(client, issuer)
    summary()


if __name__ == "__main__":
    main()
