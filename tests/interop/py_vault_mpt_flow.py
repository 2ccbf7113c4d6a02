"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through a vault of
an MPT asset (xrpl-py's test_vault_with_mptoken): an issuer's transferable MPT, a
depositor holding 1000, a vault of it, a deposit, a withdrawal by assets, the issuer's
clawback of the rest, the vault deleted with its pseudo-account's MPToken.

Usage: py_vault_mpt_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step)
on any mismatch.
"""

import re
import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.amounts import MPTAmount
from xrpl.models.currencies import MPTCurrency
from xrpl.models.requests import AccountObjects, GenericRequest, ServerState
from xrpl.models.transactions import (
    MPTokenAuthorize,
    MPTokenIssuanceCreate,
    MPTokenIssuanceCreateFlag,
    Payment,
    VaultClawback,
    VaultCreate,
    VaultDelete,
    VaultDeposit,
    VaultWithdraw,
)
from xrpl.transaction import XRPLReliableSubmissionException, submit_and_wait
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, summary


def submit(client, tx, wallet):
    """The validated result, and the result code; a refusal gives only its code."""
    try:
        r = submit_and_wait(tx, client, wallet).result
    except XRPLReliableSubmissionException as e:
        code = re.search(r"te[cfmlr][A-Z_]+", str(e))
        return None, code.group(0) if code else str(e)
    return r, r["meta"]["TransactionResult"]


def held(client, mpt_id, account):
    """The account's MPTAmount of mpt_id (None without an MPToken)."""
    objs = client.request(AccountObjects(account=account, type="mptoken")).result["account_objects"]
    for o in objs:
        if o["MPTokenIssuanceID"] == mpt_id:
            return o.get("MPTAmount", "0")
    return None


def flow(client):
    issuer = Wallet.create(CryptoAlgorithm.SECP256K1)
    owner = Wallet.create(CryptoAlgorithm.ED25519)
    depositor = Wallet.create(CryptoAlgorithm.SECP256K1)
    for w in (issuer, owner, depositor):
        _, res = submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")
    inc = str(client.request(ServerState()).result["state"]["validated_ledger"]["reserve_inc"])

    flags = [MPTokenIssuanceCreateFlag.TF_MPT_CAN_TRANSFER, MPTokenIssuanceCreateFlag.TF_MPT_CAN_CLAWBACK]
    r, res = submit(client, MPTokenIssuanceCreate(account=issuer.address, flags=flags), issuer)
    check(res == "tesSUCCESS", f"MPTokenIssuanceCreate: {res}")
    mpt_id = r["meta"]["mpt_issuance_id"]
    _, res = submit(client, MPTokenAuthorize(account=depositor.address, mptoken_issuance_id=mpt_id), depositor)
    check(res == "tesSUCCESS", f"MPTokenAuthorize: {res}")
    pay = Payment(account=issuer.address, destination=depositor.address, amount=MPTAmount(mpt_issuance_id=mpt_id, value="1000"))
    _, res = submit(client, pay, issuer)
    check(res == "tesSUCCESS", f"the issuer pays 1000: {res}")

    _, res = submit(client, VaultCreate(account=owner.address, asset=MPTCurrency(mpt_issuance_id=mpt_id), fee=inc), owner)
    check(res == "tesSUCCESS", f"VaultCreate with an MPT asset: {res}")
    vault = client.request(AccountObjects(account=owner.address, type="vault")).result["account_objects"][0]
    vault_id, pseudo = vault["index"], vault["Account"]
    check(vault["Asset"] == {"mpt_issuance_id": mpt_id}, f"the vault's Asset: {vault['Asset']}")
    check(held(client, mpt_id, pseudo) == "0", "the pseudo-account holds an empty MPToken")

    amount = MPTAmount(mpt_issuance_id=mpt_id, value="300")
    _, res = submit(client, VaultDeposit(account=depositor.address, vault_id=vault_id, amount=amount), depositor)
    check(res == "tesSUCCESS", f"VaultDeposit of 300: {res}")
    info = client.request(GenericRequest(method="vault_info", vault_id=vault_id)).result["vault"]
    check(info["AssetsTotal"] == "300" and info["shares"]["OutstandingAmount"] == "300", f"vault_info: {info}")
    check(held(client, mpt_id, pseudo) == "300", "the pseudo-account holds the 300")

    amount = MPTAmount(mpt_issuance_id=mpt_id, value="100")
    _, res = submit(client, VaultWithdraw(account=depositor.address, vault_id=vault_id, amount=amount), depositor)
    check(res == "tesSUCCESS", f"VaultWithdraw of 100: {res}")
    check(held(client, mpt_id, depositor.address) == "800", "the depositor holds 800")
    claw = VaultClawback(account=issuer.address, vault_id=vault_id, holder=depositor.address)
    _, res = submit(client, claw, issuer)
    check(res == "tesSUCCESS", f"VaultClawback of the rest: {res}")
    _, res = submit(client, VaultDelete(account=owner.address, vault_id=vault_id), owner)
    check(res == "tesSUCCESS", f"VaultDelete: {res}")
    r = client.request(GenericRequest(method="account_info", account=pseudo))
    check(r.result.get("error") == "actNotFound", f"the pseudo-account is gone: {r.result}")


if __name__ == "__main__":
    flow(JsonRpcClient(sys.argv[1]))
    summary()
