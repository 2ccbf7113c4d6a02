"""What the xrpl-py flows share: the genesis wallet, numbered checks, a submission that
reads a refusal back as its engine result, and the summary line tests/interop/flows.rs looks for.
"""

import re
import sys

from xrpl.constants import CryptoAlgorithm
from xrpl.models.currencies import XRP
from xrpl.models.requests import AccountObjects, GenericRequest, Ledger, ServerState
from xrpl.models.transactions import VaultCreate, VaultDeposit
from xrpl.transaction import XRPLReliableSubmissionException, submit_and_wait
from xrpl.wallet import Wallet

GENESIS = Wallet.from_seed("snoPBrXtMeMyMHUVTgbuqAfg1SUTb", algorithm=CryptoAlgorithm.SECP256K1)
_steps = 0


def check(cond, what):
    """One numbered step; a false `cond` prints FAIL and exits non-zero."""
    global _steps
    _steps += 1
    if not cond:
        print(f"FAIL: {what}", flush=True)
        sys.exit(1)
    print(f"ok {_steps} - {what}", flush=True)


def submit(client, tx, wallet):
    """The result code and the result; a failure xrpl-py raises on gives its code."""
    try:
        r = submit_and_wait(tx, client, wallet).result
    except XRPLReliableSubmissionException as e:
        code = re.search(r"te[cfmlr][A-Z_]+", str(e))
        return (code.group(0) if code else str(e)), {}
    return r["meta"]["TransactionResult"], r


def summary():
    """The line the Rust side requires after the last step."""
    print(f"{_steps} passed, 0 failed", flush=True)


def investing_vault(client, owner, depositor, drops):
    """A closed-ended XRP vault of `owner` (LendingProtocolV1_1, which ledgerd's default
    rule book enables: a new broker needs one) that subscribes for ten minutes, `drops`
    deposited by `depositor` meanwhile, then one ledger_accept whose close_time passes the
    SubscriptionDate: the vault invests, the phase in which it may get a broker and lend.
    Its RedemptionDate is 30 days on. Returns the vault's ID."""
    inc = str(client.request(ServerState()).result["state"]["validated_ledger"]["reserve_inc"])
    now = client.request(Ledger(ledger_index="validated")).result["ledger"]["close_time"]
    subscription = now + 600
    create = VaultCreate(
        account=owner.address,
        asset=XRP(),
        fee=inc,
        vault_kind=1,
        subscription_date=subscription,
        redemption_date=subscription + 30 * 86400,
    )
    res = submit(client, create, owner)[0]
    check(res == "tesSUCCESS", f"VaultCreate closed-ended: {res}")
    vault = client.request(AccountObjects(account=owner.address, type="vault")).result["account_objects"][0]
    check(vault["VaultKind"] == 1 and vault["LEVersion"] == 1, f"a closed-ended, cash-basis vault: {vault}")
    deposit = VaultDeposit(account=depositor.address, vault_id=vault["index"], amount=drops)
    res = submit(client, deposit, depositor)[0]
    check(res == "tesSUCCESS", f"VaultDeposit while it subscribes: {res}")
    client.request(GenericRequest(command="ledger_accept", close_time=subscription + 10))
    res = submit(client, deposit, depositor)[0]
    check(res == "tecEXPIRED", f"VaultDeposit once it invests: {res}")
    return vault["index"]
