"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through the Batch
flow of xrpl-py's integration tests (test_batch): an independent batch of two payments,
a batch with another account's inner payment signed by sign_multiaccount_batch, the inner
transactions read back by `tx` with their ParentBatchID.

Usage: py_batch_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step) on
any mismatch.
"""

import hashlib
import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.core.binarycodec import encode
from xrpl.models.requests import AccountInfo, GenericRequest, Tx
from xrpl.models.transactions import Batch, BatchFlag, Payment
from xrpl.transaction import autofill, sign, submit, submit_and_wait
from xrpl.transaction.batch_signers import sign_multiaccount_batch
from xrpl.utils import xrp_to_drops
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, summary


def seq(client, w):
    return client.request(AccountInfo(account=w.address)).result["account_data"]["Sequence"]


client = JsonRpcClient(sys.argv[1])
alice = Wallet.create(algorithm=CryptoAlgorithm.SECP256K1)
bob = Wallet.create(algorithm=CryptoAlgorithm.ED25519)
for w in (alice, bob):
    r = submit_and_wait(
        Payment(account=GENESIS.address, destination=w.address, amount=xrp_to_drops(1000)),
        client,
        GENESIS,
    )
    check(r.result["meta"]["TransactionResult"] == "tesSUCCESS", f"genesis funds {w.address}")

pay = Payment(account=alice.address, destination=bob.address, amount="1000000")
batch = Batch(account=alice.address, flags=BatchFlag.TF_INDEPENDENT, raw_transactions=[pay, pay])
filled = autofill(batch, client)
check(int(filled.fee) >= 40, f"autofilled fee covers the batch: {filled.fee}")
before = seq(client, alice)
r = submit(sign(filled, alice), client)
check(r.result["engine_result"] == "tesSUCCESS", f"independent batch: {r.result['engine_result']}")
client.request(GenericRequest(method="ledger_accept"))
check(seq(client, alice) == before + 3, "the batch and both inner payments used sequences")
batch_id = r.result["tx_json"]["hash"]
for raw in filled.raw_transactions:
    # An inner transaction is unsigned: its ID is SHA-512-half of TXN\0 and its blob.
    blob = bytes.fromhex("54584E00" + encode(raw.to_xrpl()))
    inner_id = hashlib.sha512(blob).hexdigest()[:64].upper()
    t = client.request(Tx(transaction=inner_id)).result
    check(t.get("meta", {}).get("ParentBatchID") == batch_id, f"tx {inner_id[:8]} has ParentBatchID")
    check(t["meta"]["TransactionResult"] == "tesSUCCESS", "inner payment succeeded")

pay_back = Payment(account=bob.address, destination=alice.address, amount="5000000")
two = Batch(account=alice.address, flags=BatchFlag.TF_ALL_OR_NOTHING, raw_transactions=[pay, pay_back])
filled = autofill(two, client, 1)
signed = sign_multiaccount_batch(bob, filled)
bob_before = seq(client, bob)
r = submit(sign(signed, alice), client)
check(r.result["engine_result"] == "tesSUCCESS", f"batch with bob's BatchSigner: {r.result['engine_result']}")
client.request(GenericRequest(method="ledger_accept"))
check(seq(client, bob) == bob_before + 1, "bob's inner payment used his sequence")
summary()
