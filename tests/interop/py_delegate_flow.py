"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through the
delegation flow of xrpl-py's integration test (test_delegate_set): alice gives bob Payment
and AccountDomainSet, bob pays for alice (and pays the fee), is refused an EmailHash
(terNO_DELEGATE_PERMISSION), the entry reads back by account_objects, and an empty
DelegateSet deletes it.

Usage: py_delegate_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step)
on any mismatch.
"""

import re
import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.requests import AccountInfo, AccountObjects, AccountObjectType
from xrpl.models.transactions import AccountSet, DelegateSet, GranularPermission, Payment
from xrpl.models.transactions.delegate_set import Permission
from xrpl.models.transactions.types import TransactionType
from xrpl.transaction import XRPLReliableSubmissionException, autofill_and_sign, submit, submit_and_wait
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, summary


def send(client, tx, wallet):
    """The result code and the result; a failure xrpl-py raises on gives its code."""
    try:
        r = submit_and_wait(tx, client, wallet).result
    except XRPLReliableSubmissionException as e:
        code = re.search(r"te[cfmlr][A-Z_]+", str(e))
        return (code.group(0) if code else str(e)), {}
    return r["meta"]["TransactionResult"], r


def balance(client, address):
    return int(client.request(AccountInfo(account=address)).result["account_data"]["Balance"])


def flow(client):
    alice = Wallet.create(CryptoAlgorithm.SECP256K1)
    bob = Wallet.create(CryptoAlgorithm.ED25519)
    carol = Wallet.create(CryptoAlgorithm.SECP256K1)
    for w in (alice, bob, carol):
        res, _ = send(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")

    permissions = [
        Permission(permission_value=TransactionType.PAYMENT),
        Permission(permission_value=GranularPermission.ACCOUNT_DOMAIN_SET),
    ]
    res, _ = send(client, DelegateSet(account=alice.address, authorize=bob.address, permissions=permissions), alice)
    check(res == "tesSUCCESS", f"DelegateSet: {res}")
    objs = client.request(AccountObjects(account=alice.address, type=AccountObjectType.DELEGATE)).result["account_objects"]
    check(len(objs) == 1 and objs[0]["Authorize"] == bob.address, "account_objects type delegate")
    names = [p["Permission"]["PermissionValue"] for p in objs[0]["Permissions"]]
    check(names == ["Payment", "AccountDomainSet"], f"permissions by name: {names}")

    a0, b0 = balance(client, alice.address), balance(client, bob.address)
    pay = Payment(account=alice.address, destination=carol.address, amount="1000000", delegate=bob.address, fee="15")
    res, r = send(client, pay, bob)
    check(res == "tesSUCCESS", f"bob pays for alice: {res}")
    check(r["tx_json"]["SigningPubKey"] == bob.public_key, "signed by bob")
    check(balance(client, alice.address) == a0 - 1000000, "alice sends the amount")
    check(balance(client, bob.address) == b0 - 15, "bob pays the fee")

    email = AccountSet(account=alice.address, delegate=bob.address, email_hash="10000000002000000000300000000012")
    signed = autofill_and_sign(email, client, bob)
    r = submit(signed, client).result
    check(r["engine_result"] == "terNO_DELEGATE_PERMISSION", f"EmailHash refused: {r['engine_result']}")

    res, _ = send(client, DelegateSet(account=alice.address, authorize=bob.address, permissions=[]), alice)
    check(res == "tesSUCCESS", f"empty DelegateSet: {res}")
    objs = client.request(AccountObjects(account=alice.address, type=AccountObjectType.DELEGATE)).result["account_objects"]
    check(objs == [], "deleted")


def main():
    flow(JsonRpcClient(sys.argv[1]))
    summary()


if __name__ == "__main__":
    main()
