"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through Sponsor
(XLS-68), the story of sponsor_flow.mjs: a sponsored account creation (Payment
TF_SPONSOR_CREATED_ACCOUNT), a pre-funded Sponsorship (SponsorshipSet) read back by
ledger_entry and account_objects, a trust line whose fee and reserve the Sponsorship pays,
a trust line whose fee the sponsor pays co-signing with xrpl-py's `sign_as_sponsor`
(its SponsorSignature over the SPN\\0 sponsor signing data), the first line's sponsorship
ended by a SponsorshipTransfer, and account_objects' `sponsored` partition.

Usage: py_sponsor_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step)
on any mismatch.
"""

import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.amounts import IssuedCurrencyAmount
from xrpl.models.requests import AccountInfo, AccountObjects, AccountObjectType, LedgerEntry
from xrpl.models.requests.ledger_entry import RippleState, Sponsorship
from xrpl.models.transactions import (
    Payment,
    PaymentFlag,
    SponsorshipSet,
    SponsorshipTransfer,
    TrustSet,
)
from xrpl.models.transactions.sponsorship_transfer import SponsorshipTransferFlag
from xrpl.models.transactions.transaction import SponsorFlag
from xrpl.transaction import autofill, sign, sign_as_sponsor, submit_and_wait
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, submit, summary


def root(client, address):
    return client.request(AccountInfo(account=address)).result["account_data"]


def entry(client, **selector):
    r = client.request(LedgerEntry(**selector))
    check(r.is_successful(), f"ledger_entry by {', '.join(selector)}" + ("" if r.is_successful() else f": {r.result}"))
    return r.result


def objects(client, address, **filters):
    return client.request(AccountObjects(account=address, **filters)).result["account_objects"]


def fund(client, wallets):
    for w in wallets:
        res, _ = submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")


def sponsored_creation(client, sponsor):
    """1. One drop creates an account whose base reserve the sponsor carries."""
    fresh = Wallet.create(CryptoAlgorithm.SECP256K1)
    pay = Payment(account=sponsor.address, destination=fresh.address, amount="1", flags=PaymentFlag.TF_SPONSOR_CREATED_ACCOUNT)
    res, _ = submit(client, pay, sponsor)
    check(res == "tesSUCCESS", f"sponsored account creation: {res}")
    fr = root(client, fresh.address)
    check(fr.get("Sponsor") == sponsor.address and fr["Balance"] == "1", "the new account has Sponsor and one drop")
    check(root(client, sponsor.address).get("SponsoringAccountCount") == 1, "SponsoringAccountCount 1")


def prefunded(client, sponsor, sponsee, gw):
    """2-3. A Sponsorship pays a trust line's fee and its reserve; returns the line's index."""
    res, _ = submit(client, SponsorshipSet(account=sponsor.address, sponsee=sponsee.address, fee_amount_delta="1000", remaining_owner_count_delta=2), sponsor)
    check(res == "tesSUCCESS", f"SponsorshipSet: {res}")
    sp = entry(client, sponsorship=Sponsorship(sponsor=sponsor.address, sponsee=sponsee.address))
    node = sp["node"]
    check(node["LedgerEntryType"] == "Sponsorship" and node["FeeAmount"] == "1000" and node["RemainingOwnerCount"] == 2, "ledger_entry sponsorship")
    for who, w in (("sponsor", sponsor), ("sponsee", sponsee)):
        objs = objects(client, w.address, type=AccountObjectType.SPONSORSHIP)
        check(len(objs) == 1 and objs[0]["index"] == sp["index"], f"account_objects type sponsorship of the {who}")

    before = root(client, sponsee.address)["Balance"]
    line = TrustSet(
        account=sponsee.address,
        limit_amount=IssuedCurrencyAmount(currency="USD", issuer=gw.address, value="100"),
        sponsor=sponsor.address,
        sponsor_flags=SponsorFlag.SPF_SPONSOR_FEE | SponsorFlag.SPF_SPONSOR_RESERVE,
        fee="12",
    )
    res, _ = submit(client, line, sponsee)
    check(res == "tesSUCCESS", f"pre-funded sponsored TrustSet: {res}")
    ln = entry(client, ripple_state=RippleState(accounts=[sponsee.address, gw.address], currency="USD"))
    on_line = ln["node"].get("LowSponsor") or ln["node"].get("HighSponsor")
    check(on_line == sponsor.address, "the line carries the sponsor on the sponsee side")
    sr = root(client, sponsee.address)
    check(sr.get("SponsoredOwnerCount") == 1 and root(client, sponsor.address).get("SponsoringOwnerCount") == 1, "SponsoredOwnerCount and SponsoringOwnerCount 1")
    check(sr["Balance"] == before, "the sponsee paid nothing")
    after = entry(client, index=sp["index"])["node"]
    check(after["FeeAmount"] == "988" and after["RemainingOwnerCount"] == 1, "the Sponsorship paid the fee and one owner count")
    return ln["index"]


def cosigned(client, sponsor, gw):
    """4. carol's TrustSet, its fee paid through the sponsor's SponsorSignature."""
    carol = Wallet.create(CryptoAlgorithm.SECP256K1)
    fund(client, [carol])
    carol_before = root(client, carol.address)["Balance"]
    sponsor_before = int(root(client, sponsor.address)["Balance"])
    tx = TrustSet(
        account=carol.address,
        limit_amount=IssuedCurrencyAmount(currency="EUR", issuer=gw.address, value="5"),
        sponsor=sponsor.address,
        sponsor_flags=SponsorFlag.SPF_SPONSOR_FEE,
        signing_pub_key=carol.public_key,
    )
    prepared = autofill(tx, client)
    by_sponsor = sign_as_sponsor(sponsor, prepared)
    sig = by_sponsor.tx.sponsor_signature
    check(sig.signing_pub_key == sponsor.public_key and sig.txn_signature, "sign_as_sponsor filled SponsorSignature")
    signed = sign(by_sponsor.tx, carol)
    r = submit_and_wait(signed, client).result
    res = r["meta"]["TransactionResult"]
    check(res == "tesSUCCESS", f"co-signed sponsored TrustSet: {res}")
    check(r["tx_json"]["SponsorSignature"]["SigningPubKey"] == sponsor.public_key, "the validated transaction carries the sponsor's key")
    check(root(client, carol.address)["Balance"] == carol_before, "carol paid no fee")
    paid = sponsor_before - int(root(client, sponsor.address)["Balance"])
    check(paid == int(prepared.fee), f"the sponsor paid the fee: {paid} of {prepared.fee}")


def transfer_end(client, sponsor, sponsee, line_index):
    """5. The sponsee ends its line's sponsorship: the sponsor field and the counts go."""
    end = SponsorshipTransfer(account=sponsee.address, object_id=line_index, flags=SponsorshipTransferFlag.TF_SPONSORSHIP_END)
    res, _ = submit(client, end, sponsee)
    check(res == "tesSUCCESS", f"SponsorshipTransfer end: {res}")
    node = entry(client, index=line_index)["node"]
    check("LowSponsor" not in node and "HighSponsor" not in node, "the line carries no sponsor")
    gone = "SponsoredOwnerCount" not in root(client, sponsee.address) and "SponsoringOwnerCount" not in root(client, sponsor.address)
    check(gone, "the counts are gone")


def partition(client, sponsee):
    """6. `sponsored` partitions the sponsee's objects: none sponsored now."""
    spon = objects(client, sponsee.address, sponsored=True)
    own = objects(client, sponsee.address, sponsored=False)
    every = objects(client, sponsee.address)
    check(len(spon) == 0 and len(own) == len(every) == 2, f"sponsored partition: {len(spon)} + {len(own)} of {len(every)}")


def flow(client):
    sponsor = Wallet.create(CryptoAlgorithm.SECP256K1)
    sponsee = Wallet.create(CryptoAlgorithm.ED25519)
    gw = Wallet.create(CryptoAlgorithm.SECP256K1)
    fund(client, [sponsor, sponsee, gw])
    sponsored_creation(client, sponsor)
    line_index = prefunded(client, sponsor, sponsee, gw)
    cosigned(client, sponsor, gw)
    transfer_end(client, sponsor, sponsee, line_index)
    partition(client, sponsee)


def main():
    flow(JsonRpcClient(sys.argv[1]))
    summary()


if __name__ == "__main__":
    main()
