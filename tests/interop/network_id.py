"""On a network id above 1024 xrpl-py must fill NetworkID itself: it does so only for a
server whose build_version reads as rippled 1.11.0 or later.
Usage: network_id.py WS_URL ID"""

import sys

from xrpl.clients import WebsocketClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.transactions import Payment
from xrpl.transaction import autofill, submit_and_wait
from xrpl.wallet import Wallet

url, network = sys.argv[1], int(sys.argv[2])
genesis = Wallet.from_seed("snoPBrXtMeMyMHUVTgbuqAfg1SUTb", algorithm=CryptoAlgorithm.SECP256K1)
with WebsocketClient(url) as client:
    tx = autofill(Payment(account=genesis.address, destination=Wallet.create().address, amount="50000000"), client)
    if tx.network_id != network:
        print(f"FAIL: autofill left NetworkID {tx.network_id} (build_version {client.build_version})", flush=True)
        sys.exit(1)
    r = submit_and_wait(tx, client, genesis).result
    if r["meta"]["TransactionResult"] != "tesSUCCESS":
        print(f"FAIL: {r['meta']['TransactionResult']}", flush=True)
        sys.exit(1)
    print(f"ok 1 - xrpl-py autofilled NetworkID {network} (build_version {client.build_version}) and the payment validated")
print("1 passed, 0 failed", flush=True)
