"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through the XChain
account create flow of xrpl-py's integration tests (test_xchain_account_create_commit,
test_xchain_add_account_create_attestation and their bridge set-up): a door creates its
bridge with two witnesses; an account commits to create an account on the other chain;
the witnesses sign the create-account attestation message with xrpl-py's own codec and
keys; the first waits in an XChainOwnedCreateAccountClaimID the door owns, the second
reaches the quorum and the door creates the account.

Usage: py_xchain_account_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing
step) on any mismatch.
"""

import sys

from xrpl.account import get_balance
from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.core.binarycodec import encode
from xrpl.core.keypairs import sign
from xrpl.models import XRP, XChainBridge
from xrpl.models.requests import AccountObjects, AccountObjectType, GenericRequest
from xrpl.models.transactions import (
    Payment,
    SignerEntry,
    SignerListSet,
    XChainAccountCreateCommit,
    XChainAddAccountCreateAttestation,
    XChainCreateBridge,
)
from xrpl.utils import xrp_to_drops
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, submit, summary

REWARD = "200"


def funded(client, n):
    wallets = [Wallet.create(CryptoAlgorithm.SECP256K1) for _ in range(n)]
    for w in wallets:
        res, _ = submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")
    return wallets


def bridge_entry(client, door):
    """The door's Bridge, by account_objects (xrpl-py's LedgerEntry model sends the bridge
    selector's fields in snake case, which rippled refuses)."""
    req = AccountObjects(account=door.address, type=AccountObjectType.BRIDGE)
    return client.request(req).result["account_objects"][0]


def attestation(bridge_json, attester, witness, destination, source, count, signer=None):
    facts = {
        "XChainBridge": bridge_json,
        "OtherChainSource": source,
        "Amount": xrp_to_drops(300),
        "AttestationRewardAccount": witness.address,
        "WasLockingChainSend": 0,
        "XChainAccountCreateCount": count,
        "Destination": destination,
        "SignatureReward": REWARD,
    }
    signature = sign(bytes.fromhex(encode(facts)), (signer or witness).private_key)
    return XChainAddAccountCreateAttestation.from_xrpl(
        {
            "Account": attester.address,
            "AttestationSignerAccount": witness.address,
            **facts,
            "PublicKey": witness.public_key,
            "Signature": signature,
        }
    )


def waiting(client, door):
    req = AccountObjects(account=door.address, type=AccountObjectType.XCHAIN_OWNED_CREATE_ACCOUNT_CLAIM_ID)
    return client.request(req).result["account_objects"]


def flow(client):
    door, carol, attester, w0, w1 = funded(client, 5)
    bridge = XChainBridge(
        locking_chain_door=door.address,
        locking_chain_issue=XRP(),
        issuing_chain_door=GENESIS.address,
        issuing_chain_issue=XRP(),
    )
    tx = XChainCreateBridge(account=door.address, xchain_bridge=bridge, signature_reward=REWARD, min_account_create_amount="10000000")
    res, _ = submit(client, tx, door)
    check(res == "tesSUCCESS", f"XChainCreateBridge: {res}")
    bridge_json = tx.to_xrpl()["XChainBridge"]
    entries = [SignerEntry(account=w.address, signer_weight=1) for w in (w0, w1)]
    res, _ = submit(client, SignerListSet(account=door.address, signer_quorum=2, signer_entries=entries), door)
    check(res == "tesSUCCESS", f"the door's witnesses: {res}")

    door0 = get_balance(door.address, client)
    remote = Wallet.create().address
    commit = XChainAccountCreateCommit(account=carol.address, xchain_bridge=bridge, signature_reward=REWARD, destination=remote, amount="20000000")
    res, _ = submit(client, commit, carol)
    check(res == "tesSUCCESS", f"XChainAccountCreateCommit: {res}")
    check(get_balance(door.address, client) == door0 + 20000200, "the door holds the amount and the reward")
    check(bridge_entry(client, door)["XChainAccountCreateCount"] == "1", "the bridge counts the create")
    low = XChainAccountCreateCommit(account=carol.address, xchain_bridge=bridge, signature_reward=REWARD, destination=remote, amount="5000000")
    res, _ = submit(client, low, carol)
    check(res == "tecXCHAIN_INSUFF_CREATE_AMOUNT", f"below MinAccountCreateAmount: {res}")

    destination = Wallet.create().address
    source = Wallet.create().address
    res, _ = submit(client, attestation(bridge_json, attester, w0, destination, source, 1, signer=w1), attester)
    check(res == "temXCHAIN_BAD_PROOF", f"signed by another key: {res}")
    res, _ = submit(client, attestation(bridge_json, attester, w0, destination, source, 1), attester)
    check(res == "tesSUCCESS", f"the first attestation: {res}")
    objs = waiting(client, door)
    check(len(objs) == 1 and objs[0]["XChainAccountCreateCount"] == "1", "it waits in a claim ID the door owns")
    # xrpl-py's LedgerEntry names this selector xchain_create_account_claim_id, which
    # rippled does not know: the generic request sends rippled's name.
    by_index = GenericRequest(method="ledger_entry", xchain_owned_create_account_claim_id=objs[0]["index"])
    entry = client.request(by_index).result
    proof = entry["node"]["XChainCreateAccountAttestations"][0]["XChainCreateAccountProofSig"]
    check(proof["Destination"] == destination and proof["AttestationSignerAccount"] == w0.address, "ledger_entry by index")

    w1_before = get_balance(w1.address, client)
    res, _ = submit(client, attestation(bridge_json, attester, w1, destination, source, 1), attester)
    check(res == "tesSUCCESS", f"the second attestation: {res}")
    check(get_balance(destination, client) == 300000000, "the account is created with the amount")
    check(get_balance(w1.address, client) == w1_before + 100, "each witness gets half the reward")
    check(waiting(client, door) == [], "the claim ID is gone")
    check(bridge_entry(client, door)["XChainAccountClaimCount"] == "1", "the bridge moved its claim count on")
    res, _ = submit(client, attestation(bridge_json, attester, w0, destination, source, 1), attester)
    check(res == "tecXCHAIN_ACCOUNT_CREATE_PAST", f"a late attestation: {res}")


if __name__ == "__main__":
    flow(JsonRpcClient(sys.argv[1]))
    summary()
