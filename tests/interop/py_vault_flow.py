"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through the vault
flow of xrpl-py's integration tests (test_single_asset_vault): create an XRP vault, deposit,
read it with vault_info, withdraw by assets and by shares, delete it.

Usage: py_vault_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step) on
any mismatch.
"""

import re
import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.amounts import MPTAmount
from xrpl.models.currencies import XRP
from xrpl.models.requests import AccountObjects, GenericRequest, ServerState
from xrpl.models.transactions import (
    Payment,
    VaultCreate,
    VaultDelete,
    VaultDeposit,
    VaultSet,
    VaultWithdraw,
)
from xrpl.transaction import XRPLReliableSubmissionException, submit_and_wait
from xrpl.utils import str_to_hex
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, summary


def submit(client, tx, wallet):
    """The result code; a failure xrpl-py raises on gives its code."""
    try:
        r = submit_and_wait(tx, client, wallet).result
    except XRPLReliableSubmissionException as e:
        code = re.search(r"te[cfmlr][A-Z_]+", str(e))
        return code.group(0) if code else str(e)
    return r["meta"]["TransactionResult"]


def flow(client):
    owner = Wallet.create(CryptoAlgorithm.SECP256K1)
    holder = Wallet.create(CryptoAlgorithm.ED25519)
    for w in (owner, holder):
        res = submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")
    inc = str(client.request(ServerState()).result["state"]["validated_ledger"]["reserve_inc"])

    res = submit(client, VaultCreate(account=owner.address, asset=XRP(), data=str_to_hex("py vault"), fee=inc), owner)
    check(res == "tesSUCCESS", f"VaultCreate: {res}")
    objs = client.request(AccountObjects(account=owner.address, type="vault")).result["account_objects"]
    check(len(objs) == 1 and objs[0]["LedgerEntryType"] == "Vault", "account_objects type vault")
    vault_id = objs[0]["index"]
    share = objs[0]["ShareMPTID"]

    res = submit(client, VaultDeposit(account=holder.address, vault_id=vault_id, amount="3000000"), holder)
    check(res == "tesSUCCESS", f"VaultDeposit: {res}")
    info = client.request(GenericRequest(method="vault_info", vault_id=vault_id)).result["vault"]
    check(info["AssetsTotal"] == "3000000" and info["shares"]["OutstandingAmount"] == "3000000", f"vault_info: {info}")

    res = submit(client, VaultSet(account=owner.address, vault_id=vault_id, data=str_to_hex("renamed")), owner)
    check(res == "tesSUCCESS", f"VaultSet: {res}")
    res = submit(client, VaultWithdraw(account=holder.address, vault_id=vault_id, amount="1000000"), holder)
    check(res == "tesSUCCESS", f"VaultWithdraw by assets: {res}")
    res = submit(client, VaultWithdraw(account=holder.address, vault_id=vault_id, amount=MPTAmount(mpt_issuance_id=share, value="2000000")), holder)
    check(res == "tesSUCCESS", f"VaultWithdraw by shares: {res}")
    res = submit(client, VaultDelete(account=owner.address, vault_id=vault_id), owner)
    check(res == "tesSUCCESS", f"VaultDelete: {res}")
    r = client.request(GenericRequest(method="vault_info", vault_id=vault_id))
    check(r.result.get("error") == "entryNotFound", f"vault_info after the delete: {r.result}")


if __name__ == "__main__":
    flow(JsonRpcClient(sys.argv[1]))
    summary()
