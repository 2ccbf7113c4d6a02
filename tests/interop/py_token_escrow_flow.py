"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through token escrows
(TokenEscrow): an issuer allows trust line locking (ASF_ALLOW_TRUSTLINE_LOCKING); a holder
escrows 50 USD to a destination without a trust line, which only the destination itself may
finish (its line made then); an issuer may not escrow its own issue; an MPT escrow finished by a third party moves LockedAmount into the
destination's MPTAmount.

Usage: py_token_escrow_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step)
on any mismatch.
"""

import sys
import time

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.amounts import IssuedCurrencyAmount, MPTAmount
from xrpl.models.requests import AccountInfo, AccountLines, Ledger, LedgerEntry
from xrpl.models.requests.ledger_entry import MPToken
from xrpl.models.transactions import (
    AccountSet,
    AccountSetAsfFlag,
    EscrowCreate,
    EscrowFinish,
    MPTokenAuthorize,
    MPTokenIssuanceCreate,
    MPTokenIssuanceCreateFlag,
    Payment,
    TrustSet,
)
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, submit, summary


# How far ahead of the last close an escrow's FinishAfter lies: far enough that a loaded
# machine cannot close past it before the EscrowCreate applies (tecNO_PERMISSION).
LEAD = 10


def close_time(client):
    return client.request(Ledger(ledger_index="validated")).result["ledger"]["close_time"]


def wait_past(client, t):
    for _ in range(60):
        if close_time(client) > t:
            return
        time.sleep(0.5)


def usd(issuer, value):
    return IssuedCurrencyAmount(currency="USD", issuer=issuer.address, value=value)


def usd_balance(client, who):
    lines = client.request(AccountLines(account=who.address)).result["lines"]
    return next((line["balance"] for line in lines if line["currency"] == "USD"), None)


def iou_part(client, issuer, alice, carol):
    res, _ = submit(client, AccountSet(account=issuer.address, set_flag=AccountSetAsfFlag.ASF_ALLOW_TRUSTLINE_LOCKING), issuer)
    check(res == "tesSUCCESS", f"ASF_ALLOW_TRUSTLINE_LOCKING: {res}")
    flags = client.request(AccountInfo(account=issuer.address)).result["account_flags"]
    check(flags["allowTrustLineLocking"] is True, "account_info shows allowTrustLineLocking")
    res, _ = submit(client, TrustSet(account=alice.address, limit_amount=usd(issuer, "1000")), alice)
    check(res == "tesSUCCESS", f"alice trusts the issuer: {res}")
    res, _ = submit(client, Payment(account=issuer.address, destination=alice.address, amount=usd(issuer, "200")), issuer)
    check(res == "tesSUCCESS", f"the issuer pays alice 200 USD: {res}")
    own = EscrowCreate(account=issuer.address, destination=alice.address, amount=usd(issuer, "1"), finish_after=close_time(client) + 100)
    res, _ = submit(client, own, issuer)
    check(res == "tecNO_PERMISSION", f"no escrow of one's own issue: {res}")
    now = close_time(client)
    create = EscrowCreate(account=alice.address, destination=carol.address, amount=usd(issuer, "50"), finish_after=now + LEAD)
    res, r = submit(client, create, alice)
    check(res == "tesSUCCESS", f"alice escrows 50 USD to carol, who has no line: {res}")
    seq = r["tx_json"]["Sequence"]
    check(usd_balance(client, alice) == "150", "the 50 USD left alice's line")
    wait_past(client, now + LEAD)
    finish = EscrowFinish(account=alice.address, owner=alice.address, offer_sequence=seq)
    res, _ = submit(client, finish, alice)
    check(res == "tecNO_LINE", f"another finisher cannot make carol's line: {res}")
    res, _ = submit(client, EscrowFinish(account=carol.address, owner=alice.address, offer_sequence=seq), carol)
    check(res == "tesSUCCESS", f"carol finishes it herself: {res}")
    check(usd_balance(client, carol) == "50", f"carol's new line holds 50: {usd_balance(client, carol)}")


def mpt_part(client, issuer, alice, carol):
    flags = MPTokenIssuanceCreateFlag.TF_MPT_CAN_ESCROW | MPTokenIssuanceCreateFlag.TF_MPT_CAN_TRANSFER
    res, r = submit(client, MPTokenIssuanceCreate(account=issuer.address, flags=flags), issuer)
    check(res == "tesSUCCESS", f"an issuance that may be escrowed: {res}")
    mpt_id = r["meta"]["mpt_issuance_id"]
    for w in (alice, carol):
        res, _ = submit(client, MPTokenAuthorize(account=w.address, mptoken_issuance_id=mpt_id), w)
        check(res == "tesSUCCESS", f"{w.address} holds the MPT: {res}")
    res, _ = submit(client, Payment(account=issuer.address, destination=alice.address, amount=MPTAmount(mpt_issuance_id=mpt_id, value="500")), issuer)
    check(res == "tesSUCCESS", f"the issuer sends alice 500: {res}")
    now = close_time(client)
    create = EscrowCreate(account=alice.address, destination=carol.address, amount=MPTAmount(mpt_issuance_id=mpt_id, value="120"), finish_after=now + LEAD)
    res, r = submit(client, create, alice)
    check(res == "tesSUCCESS", f"alice escrows 120 of the MPT to carol: {res}")
    token = lambda w: client.request(LedgerEntry(mptoken=MPToken(mpt_issuance_id=mpt_id, account=w.address))).result["node"]
    node = token(alice)
    check(node["MPTAmount"] == "380" and node["LockedAmount"] == "120", f"alice's token locks 120: {node}")
    wait_past(client, now + LEAD)
    res, _ = submit(client, EscrowFinish(account=issuer.address, owner=alice.address, offer_sequence=r["tx_json"]["Sequence"]), issuer)
    check(res == "tesSUCCESS", f"the issuer finishes it: {res}")
    check(token(carol)["MPTAmount"] == "120", "carol holds 120")
    check("LockedAmount" not in token(alice), "nothing locked left on alice's token")


def main():
    client = JsonRpcClient(sys.argv[1])
    issuer = Wallet.create(CryptoAlgorithm.SECP256K1)
    alice = Wallet.create(CryptoAlgorithm.ED25519)
    carol = Wallet.create(CryptoAlgorithm.SECP256K1)
    for w in (issuer, alice, carol):
        res, _ = submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")
    iou_part(client, issuer, alice, carol)
    mpt_part(client, issuer, alice, carol)
    summary()


if __name__ == "__main__":
    main()
