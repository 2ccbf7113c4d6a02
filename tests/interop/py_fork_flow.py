"""Drive two running ledgerd servers with xrpl-py, unmodified, over HTTP JSON-RPC: an upstream,
and a fork of it (`ledgerd serve --fork ws://upstream`).

Usage:
  py_fork_flow.py upstream http://UPSTREAM STATE_FILE
      funds two new accounts on the upstream and waits until validated; writes their seeds
      and the upstream's view of them to STATE_FILE (JSON).
  py_fork_flow.py fork http://UPSTREAM http://FORK STATE_FILE
      on the fork: the accounts are there as the upstream had them; a payment between them
      applies and validates (autofilled, signed and submitted by xrpl-py); the upstream does
      not see it.
Exits non-zero (with the failing step) on any mismatch.
"""

import json
import sys

from xrpl.account import get_balance
from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.requests import AccountInfo
from xrpl.models.transactions import Payment
from xrpl.transaction import submit_and_wait
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


def sequence(client, address):
    r = client.request(AccountInfo(account=address, ledger_index="validated")).result
    return r["account_data"]["Sequence"]


def upstream_phase(url, state_file):
    client = JsonRpcClient(url)
    alice = Wallet.create(CryptoAlgorithm.ED25519)
    bob = Wallet.create(CryptoAlgorithm.SECP256K1)
    for w, drops in ((alice, "500000000"), (bob, "300000000")):
        r = submit_and_wait(Payment(account=GENESIS.address, destination=w.address, amount=drops), client, GENESIS).result
        check(r["meta"]["TransactionResult"] == "tesSUCCESS", f"the upstream funds {w.address}")
    state = {
        "alice": alice.seed,
        "bob": bob.seed,
        "alice_balance": get_balance(alice.address, client),
        "bob_balance": get_balance(bob.address, client),
        "alice_sequence": sequence(client, alice.address),
    }
    with open(state_file, "w") as f:
        json.dump(state, f)
    check(state["alice_balance"] == 500000000, f"alice's balance on the upstream: {state['alice_balance']}")


def fork_phase(up_url, fork_url, state_file):
    with open(state_file) as f:
        state = json.load(f)
    up, fork = JsonRpcClient(up_url), JsonRpcClient(fork_url)
    alice = Wallet.from_seed(state["alice"], algorithm=CryptoAlgorithm.ED25519)
    bob = Wallet.from_seed(state["bob"], algorithm=CryptoAlgorithm.SECP256K1)
    check(get_balance(alice.address, fork) == state["alice_balance"], "the fork sees alice as the upstream has her")
    check(get_balance(bob.address, fork) == state["bob_balance"], "the fork sees bob as the upstream has him")
    check(sequence(fork, alice.address) == state["alice_sequence"], "alice's sequence on the fork")

    pay = Payment(account=alice.address, destination=bob.address, amount="25000000")
    r = submit_and_wait(pay, fork, alice).result
    check(r["meta"]["TransactionResult"] == "tesSUCCESS", f"a payment on the fork: {r['meta']['TransactionResult']}")
    check(r["validated"] is True, "the payment validates on the fork")
    fee = int(r["tx_json"]["Fee"])
    check(get_balance(bob.address, fork) == state["bob_balance"] + 25000000, "bob received 25 XRP on the fork")
    check(get_balance(alice.address, fork) == state["alice_balance"] - 25000000 - fee, "alice paid 25 XRP and the fee")
    check(sequence(fork, alice.address) == state["alice_sequence"] + 1, "alice's sequence moved on the fork")

    check(get_balance(alice.address, up) == state["alice_balance"], "the upstream's alice is untouched")
    check(get_balance(bob.address, up) == state["bob_balance"], "the upstream's bob is untouched")
    check(sequence(up, alice.address) == state["alice_sequence"], "the upstream's alice sequence is untouched")


def main():
    if sys.argv[1] == "upstream":
        upstream_phase(sys.argv[2], sys.argv[3])
    else:
        fork_phase(sys.argv[2], sys.argv[3], sys.argv[4])
    print(f"{steps} passed, 0 failed", flush=True)


if __name__ == "__main__":
    main()
