"""Time travel and snapshots through xrpl-py, unmodified, over HTTP JSON-RPC: a 30-day
escrow finished after one ledger_accept whose close_time (ripple epoch seconds) is past its
FinishAfter, and ledger_snapshot / ledger_revert through GenericRequest restoring the exact
ledger hash. The server closes only on ledger_accept.

Usage: time_travel.py http://127.0.0.1:PORT. Exits non-zero (with the failing step) on any
mismatch.
"""

import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.requests import AccountObjects, AccountObjectType, GenericRequest, Ledger, Tx
from xrpl.models.transactions import EscrowCreate, EscrowFinish, Payment
from xrpl.transaction import autofill_and_sign, submit
from xrpl.wallet import Wallet

GENESIS = Wallet.from_seed("snoPBrXtMeMyMHUVTgbuqAfg1SUTb", algorithm=CryptoAlgorithm.SECP256K1)
steps = 0


def check(cond, what):
    global steps
    steps += 1
    if not cond:
        print(f"FAIL: {what}", flush=True)
        sys.exit(1)
    print(f"ok {steps} - {what}", flush=True)


def call(client, command, **params):
    return client.request(GenericRequest(command=command, **params)).result


def closed(client):
    return client.request(Ledger(ledger_index="closed")).result


def submit_accept(client, tx, wallet):
    signed = autofill_and_sign(tx, client, wallet)
    submit(signed, client)
    call(client, "ledger_accept")
    t = client.request(Tx(transaction=signed.get_hash())).result
    check(t.get("validated") is True, f"{tx.transaction_type.value} validated")
    return t["meta"]["TransactionResult"], t


def flow(client):
    dest = Wallet.create(CryptoAlgorithm.ED25519)
    res, _ = submit_accept(client, Payment(account=GENESIS.address, destination=dest.address, amount="50000000"), GENESIS)
    check(res == "tesSUCCESS", "genesis funds the destination")

    finish_after = closed(client)["ledger"]["close_time"] + 30 * 86400
    create = EscrowCreate(account=GENESIS.address, destination=dest.address, amount="10000000", finish_after=finish_after)
    res, t = submit_accept(client, create, GENESIS)
    check(res == "tesSUCCESS", "a 30-day escrow is created")
    seq = t.get("Sequence", t.get("tx_json", {}).get("Sequence"))
    finish = EscrowFinish(account=dest.address, owner=GENESIS.address, offer_sequence=seq)
    res, _ = submit_accept(client, finish, dest)
    check(res == "tecNO_PERMISSION", f"finishing it today is refused ({res})")

    snap = call(client, "ledger_snapshot")
    before = closed(client)
    check(snap.get("ledger_hash") == before["ledger_hash"], f"ledger_snapshot {snap.get('snapshot')}")

    a = call(client, "ledger_accept", close_time=finish_after + 60)
    check(a.get("ledger_current_index") == before["ledger_index"] + 2, f"ledger_accept with close_time {finish_after + 60}")
    check(closed(client)["ledger"]["close_time"] >= finish_after, "the close time is past FinishAfter")
    res, t = submit_accept(client, finish, dest)
    check(res == "tesSUCCESS", f"EscrowFinish succeeds after the jump ({res})")

    rev = call(client, "ledger_revert", snapshot=snap["snapshot"])
    check(rev.get("ledger_hash") == before["ledger_hash"], "ledger_revert answers the snapshot ledger")
    back = closed(client)
    check(back["ledger_hash"] == before["ledger_hash"], "the closed ledger hash is exactly the snapshot one")
    objs = client.request(AccountObjects(account=GENESIS.address, type=AccountObjectType.ESCROW)).result
    mine = [o for o in objs["account_objects"] if o.get("Destination") == dest.address]
    check(len(mine) == 1, "the escrow is back")
    gone = client.request(Tx(transaction=t["hash"])).result
    check(gone.get("error") == "txnNotFound", f"the undone EscrowFinish is not found ({gone.get('error')})")
    again = call(client, "ledger_revert", snapshot=snap["snapshot"])
    check(again.get("error") == "snapshotNotFound", f"a snapshot reverts once ({again.get('error')})")


flow(JsonRpcClient(sys.argv[1]))
print(f"{steps} passed, 0 failed", flush=True)
