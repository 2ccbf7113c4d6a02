"""xrpl-py against a read node (serve --read-only over PostgreSQL): autofill, sign and
submit_and_wait through it (the submission is forwarded to the writer, the validation seen
in the database), then account_info and account_tx read there show the payment.
Usage: read_node.py WS_URL"""

import sys

from xrpl.clients import WebsocketClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.requests import AccountInfo, AccountTx
from xrpl.models.transactions import Payment
from xrpl.transaction import submit_and_wait
from xrpl.wallet import Wallet

url = sys.argv[1]
genesis = Wallet.from_seed("snoPBrXtMeMyMHUVTgbuqAfg1SUTb", algorithm=CryptoAlgorithm.SECP256K1)
dest = Wallet.create().address
passed = 0


def check(ok, what):
    global passed
    if not ok:
        print(f"FAIL: {what}", flush=True)
        sys.exit(1)
    passed += 1
    print(f"ok {passed} - {what}", flush=True)


with WebsocketClient(url) as client:
    pay = Payment(account=genesis.address, destination=dest, amount="60000000")
    r = submit_and_wait(pay, client, genesis).result
    check(r["meta"]["TransactionResult"] == "tesSUCCESS" and r["validated"], "payment validated through the read node")
    info = client.request(AccountInfo(account=dest, ledger_index="validated")).result
    check(info["account_data"]["Balance"] == "60000000", "account_info reads the new account")
    txs = client.request(AccountTx(account=dest)).result["transactions"]
    check(len(txs) == 1 and txs[0]["hash"] == r["hash"], "account_tx lists the payment")
print(f"{passed} passed, 0 failed", flush=True)
