"""The transaction queue through xrpl-py, unmodified, over HTTP JSON-RPC, on a server that
closes only on ledger_accept and whose [transaction_queue] expects 3 transactions per
ledger (minimum, target and maximum all 3), so the open ledger escalates after 4.

Usage: py_txq_flow.py http://127.0.0.1:PORT autofill|queue
  autofill: once the open ledger is past its expected size, autofill's Fee (`fee`'s
    drops.open_ledger_fee) pays the escalated cost and submit_and_wait finishes.
  queue: a burst of base-fee payments from one account over submit: ten terQUEUED, the
    eleventh telCAN_NOT_QUEUE_FULL; a replacement at 12 drops is telCAN_NOT_QUEUE_FEE, at
    13 queued in its place; ledger_accept drains them, in Sequence order, into validated
    ledgers, and the eleventh, kept as a local transaction (as xrpld keeps what it was
    submitted), is retried after each drain and applies once the queue has room; the
    payment the replacement took the place of never applies.
"""

import sys
import threading

from xrpl.clients import JsonRpcClient
from xrpl.models.requests import AccountInfo, Fee, GenericRequest, SubmitOnly, Tx
from xrpl.models.transactions import Payment
from xrpl.transaction import autofill, sign, submit_and_wait
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, summary

url, part = sys.argv[1], sys.argv[2]
client = JsonRpcClient(url)
BASE_FEE = 10


def submit_blob(signed):
    return client.request(SubmitOnly(tx_blob=signed.blob())).result


def accept(on=client):
    on.request(GenericRequest(command="ledger_accept"))


def payment(sender, fee=None, destination=GENESIS.address, amount="1000000", **fields):
    return Payment(account=sender.address, destination=destination, amount=amount, fee=fee, **fields)


def fund(wallets):
    """Genesis funds each wallet at the base fee (the open ledger is below its expected
    size), then one close: the next open ledger starts empty, and the escalation multiplier
    (the closed ledger's median fee level, at least 500 x the base level) stays at its least."""
    for w in wallets:
        tx = autofill(payment(GENESIS, str(BASE_FEE), w.address, "100000000000"), client)
        r = submit_blob(sign(tx, GENESIS))
        check(r["engine_result"] == "tesSUCCESS", f"genesis funds {w.address}: {r['engine_result']}")
    accept()


def escalated(filler):
    """Base-fee payments of `filler` into the empty open ledger until one is queued: the
    fifth (4 fill the 3 expected); its open_ledger_cost."""
    base = autofill(payment(filler, str(BASE_FEE)), client)
    for k in range(10):
        tx = payment(filler, str(BASE_FEE), sequence=base.sequence + k, last_ledger_sequence=base.last_ledger_sequence)
        r = submit_blob(sign(tx, filler))
        if r["engine_result"] == "terQUEUED":
            cost = int(r["open_ledger_cost"])
            check(
                k == 4 and r["queued"] is True and r["applied"] is False and cost > BASE_FEE,
                f"4 base-fee payments fill the open ledger (3 expected), the 5th is queued: open_ledger_cost {cost} drops",
            )
            return cost
        check(r["engine_result"] == "tesSUCCESS", f"filler payment {k + 1} applies: {r['engine_result']}")
    check(False, "ten base-fee payments and none queued: the open ledger never escalated")


def autofill_part():
    filler, alice = Wallet.create(), Wallet.create()
    fund([filler, alice])
    cost = escalated(filler)
    drops = client.request(Fee()).result["drops"]
    tx = autofill(payment(alice), client)
    check(
        int(tx.fee) >= cost,
        f"autofill (fee's open_ledger_fee {drops['open_ledger_fee']}) pays the escalated fee: Fee {tx.fee} >= open_ledger_cost {cost}",
    )
    closer_client, stop = JsonRpcClient(url), threading.Event()

    def closer():
        while not stop.wait(1.0):
            accept(closer_client)

    thread = threading.Thread(target=closer, daemon=True)
    thread.start()
    try:
        r = submit_and_wait(tx, client, alice).result
    finally:
        stop.set()
        thread.join()
    check(
        r["validated"] is True and r["meta"]["TransactionResult"] == "tesSUCCESS",
        f"submit_and_wait finishes: {r['meta']['TransactionResult']} in validated ledger {r['ledger_index']}",
    )


def not_found(tx_hash):
    r = client.request(Tx(transaction=tx_hash)).result
    return r.get("error") == "txnNotFound"


def queue_part():
    filler, bob = Wallet.create(), Wallet.create()
    fund([filler, bob])
    escalated(filler)
    base = autofill(payment(bob, str(BASE_FEE)), client)
    s, lls = base.sequence, base.last_ledger_sequence

    def signed(k, fee=BASE_FEE):
        return sign(payment(bob, str(fee), sequence=s + k, last_ledger_sequence=lls), bob)

    replies = [submit_blob(signed(k)) for k in range(11)]
    queued = replies[:10]
    check(
        all(r["engine_result"] == "terQUEUED" and r["queued"] is True and r["applied"] is False for r in queued),
        f"ten base-fee payments of one account queued: {[r['engine_result'] for r in queued]}",
    )
    check(
        replies[9]["account_sequence_available"] == s + 10 and replies[9]["account_sequence_next"] == s,
        f"after ten queued: account_sequence_next {replies[9]['account_sequence_next']}, available {replies[9]['account_sequence_available']}",
    )
    full = replies[10]
    check(
        full["engine_result"] == "telCAN_NOT_QUEUE_FULL"
        and full["queued"] is False
        and full["applied"] is False
        and full["kept"] is True,
        f"the eleventh: {full['engine_result']}, queued {full['queued']}, applied {full['applied']}, kept {full['kept']}",
    )
    low = submit_blob(signed(4, 12))
    check(
        low["engine_result"] == "telCAN_NOT_QUEUE_FEE" and low["queued"] is False and low["applied"] is False,
        f"replacing Sequence {s + 4} at 12 drops (under 125% of 10): {low['engine_result']}",
    )
    replacement = signed(4, 13)
    high = submit_blob(replacement)
    check(
        high["engine_result"] == "terQUEUED" and high["queued"] is True and high["applied"] is False,
        f"replacing it at 13 drops: {high['engine_result']}, queued {high['queued']}",
    )
    closes, sequence = 0, s
    while sequence < s + 11 and closes < 10:
        accept()
        closes += 1
        info = client.request(AccountInfo(account=bob.address, ledger_index="validated")).result
        sequence = info["account_data"]["Sequence"]
    check(
        sequence == s + 11,
        f"{closes} ledger_accepts drain bob's ten queued payments and the kept eleventh: Sequence {sequence}",
    )
    previous = (0, -1)
    for k in range(11):
        want = replacement if k == 4 else signed(k)
        t = client.request(Tx(transaction=want.get_hash())).result
        at = (t["ledger_index"], t["meta"]["TransactionIndex"])
        fee = "13" if k == 4 else str(BASE_FEE)
        check(
            t["validated"] is True
            and t["meta"]["TransactionResult"] == "tesSUCCESS"
            and t["tx_json"]["Sequence"] == s + k
            and t["tx_json"]["Fee"] == fee
            and at > previous,
            f"Sequence {s + k} (Fee {t['tx_json']['Fee']}) validated in ledger {at[0]} at index {at[1]}, after the one before",
        )
        previous = at
    check(not_found(signed(4).get_hash()), "the payment the replacement took the place of is in no ledger")
    check(not_found(signed(4, 12).get_hash()), "nor the refused 12-drop replacement")


if part == "autofill":
    autofill_part()
elif part == "queue":
    queue_part()
else:
    check(False, f"unknown part {part}")
summary()
