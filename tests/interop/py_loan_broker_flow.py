"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through the
LoanBroker steps of xrpl-py's test_lending_protocol: a vault owner opens a broker over its
XRP vault, reads it with ledger_entry, deposits and withdraws first-loss cover, deletes
the broker and then the vault. A LoanDelete naming the broker (no loan there)
answers tecNO_ENTRY.

Usage: py_loan_broker_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing
step) on any mismatch.
"""

import re
import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.currencies import XRP
from xrpl.models.requests import AccountInfo, AccountObjects, GenericRequest, LedgerEntry, ServerState
from xrpl.models.transactions import (
    LoanBrokerCoverDeposit,
    LoanBrokerCoverWithdraw,
    LoanBrokerDelete,
    LoanBrokerSet,
    LoanDelete,
    Payment,
    VaultCreate,
    VaultDelete,
)
from xrpl.transaction import XRPLReliableSubmissionException, submit_and_wait
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


def broker_entry(client, broker_id):
    return client.request(LedgerEntry(index=broker_id)).result


def flow(client):
    owner = Wallet.create(CryptoAlgorithm.SECP256K1)
    other = Wallet.create(CryptoAlgorithm.ED25519)
    for w in (owner, other):
        res = submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")
    inc = str(client.request(ServerState()).result["state"]["validated_ledger"]["reserve_inc"])

    res = submit(client, VaultCreate(account=owner.address, asset=XRP(), fee=inc), owner)
    check(res == "tesSUCCESS", f"VaultCreate: {res}")
    vault_id = client.request(AccountObjects(account=owner.address, type="vault")).result["account_objects"][0]["index"]

    seq = client.request(AccountInfo(account=owner.address)).result["account_data"]["Sequence"]
    res = submit(
        client,
        LoanBrokerSet(account=owner.address, vault_id=vault_id, management_fee_rate=200, debt_maximum="5000000"),
        owner,
    )
    check(res == "tesSUCCESS", f"LoanBrokerSet: {res}")
    objs = client.request(AccountObjects(account=owner.address, type="loan_broker")).result["account_objects"]
    check(len(objs) == 1 and objs[0]["VaultID"] == vault_id, f"account_objects type loan_broker: {objs}")
    broker_id = objs[0]["index"]
    r = client.request(GenericRequest(method="ledger_entry", loan_broker={"owner": owner.address, "seq": seq})).result
    check(r.get("index") == broker_id, f"ledger_entry loan_broker by owner and seq: {r}")
    check(r["node"]["ManagementFeeRate"] == 200 and r["node"]["LoanSequence"] == 1, f"the broker: {r['node']}")

    res = submit(client, LoanBrokerCoverDeposit(account=other.address, loan_broker_id=broker_id, amount="1000000"), other)
    check(res == "tecNO_PERMISSION", f"a stranger's cover deposit: {res}")
    res = submit(client, LoanBrokerCoverDeposit(account=owner.address, loan_broker_id=broker_id, amount="4000000"), owner)
    check(res == "tesSUCCESS", f"LoanBrokerCoverDeposit: {res}")
    check(broker_entry(client, broker_id)["node"]["CoverAvailable"] == "4000000", "CoverAvailable after the deposit")
    res = submit(client, LoanBrokerCoverWithdraw(account=owner.address, loan_broker_id=broker_id, amount="1500000"), owner)
    check(res == "tesSUCCESS", f"LoanBrokerCoverWithdraw: {res}")
    check(broker_entry(client, broker_id)["node"]["CoverAvailable"] == "2500000", "CoverAvailable after the withdrawal")

    res = submit(client, LoanDelete(account=owner.address, loan_id=broker_id), owner)
    check(res == "tecNO_ENTRY", f"LoanDelete of no loan: {res}")
    res = submit(client, VaultDelete(account=owner.address, vault_id=vault_id), owner)
    check(res == "tecHAS_OBLIGATIONS", f"VaultDelete under a broker: {res}")
    res = submit(client, LoanBrokerDelete(account=owner.address, loan_broker_id=broker_id), owner)
    check(res == "tesSUCCESS", f"LoanBrokerDelete: {res}")
    check(broker_entry(client, broker_id).get("error") == "entryNotFound", "the broker after the delete")
    res = submit(client, VaultDelete(account=owner.address, vault_id=vault_id), owner)
    check(res == "tesSUCCESS", f"VaultDelete: {res}")


if __name__ == "__main__":
    flow(JsonRpcClient(sys.argv[1]))
    summary()
