"""xrpl-py `generate_faucet_wallet` against ledgerd's faucet, unmodified, and a prefunded
account's printed seed used as a wallet.
Usage: faucet.py HTTP_URL FAUCET_URL PREFUNDED_SEED"""

import sys

from xrpl.account import get_balance
from xrpl.clients import JsonRpcClient
from xrpl.models.transactions import Payment
from xrpl.transaction import submit_and_wait
from xrpl.wallet import Wallet, generate_faucet_wallet

url, faucet_url, prefunded_seed = sys.argv[1], sys.argv[2], sys.argv[3]
client = JsonRpcClient(url)
results = []


def check(ok, what):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {what}", flush=True)


made = generate_faucet_wallet(client, faucet_host=faucet_url)
balance = get_balance(made.address, client)
check(balance == 1_000_000_000, f"generate_faucet_wallet() funded {made.address} ({balance} drops)")

again = generate_faucet_wallet(client, wallet=made, faucet_host=faucet_url)
balance = get_balance(again.address, client)
check(again.address == made.address and balance == 2_000_000_000,
      f"generate_faucet_wallet(wallet=...) funded it again ({balance} drops)")

dev = Wallet.from_seed(prefunded_seed)
balance = get_balance(dev.address, client)
check(balance == 10_000_000_000, f"the prefunded account {dev.address} holds 10,000 XRP ({balance} drops)")
pay = Payment(account=dev.address, destination=made.address, amount="5000000")
result = submit_and_wait(pay, client, dev).result
check(result["meta"]["TransactionResult"] == "tesSUCCESS", "the prefunded seed signs a payment that validates")
check(get_balance(made.address, client) == 2_005_000_000, "and the faucet's wallet received it")

failed = results.count(False)
print(f"{len(results) - failed} passed, {failed} failed", flush=True)
sys.exit(1 if failed else 0)
