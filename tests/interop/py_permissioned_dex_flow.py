"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through the
permissioned DEX as xrpl-py's integration tests use it (test_permissioned_dex): a domain
admits holders of a credential; a member places a hybrid domain offer, read back by
ledger_entry and book_offers (domain and open book); an outsider's domain payment is
refused; another member's domain payment takes from the offer and a domain offer crosses
the rest.

Usage: py_permissioned_dex_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing
step) on any mismatch.
"""

import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.amounts import IssuedCurrencyAmount
from xrpl.models.currencies import XRP, IssuedCurrency
from xrpl.models.requests import AccountObjects, AccountObjectType, BookOffers, LedgerEntry
from xrpl.models.requests.ledger_entry import Offer as OfferSelector
from xrpl.models.transactions import (
    AccountSet,
    AccountSetAsfFlag,
    CredentialAccept,
    CredentialCreate,
    OfferCreate,
    OfferCreateFlag,
    Payment,
    PermissionedDomainSet,
    TrustSet,
)
from xrpl.models.transactions.deposit_preauth import Credential
from xrpl.utils import str_to_hex
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, submit, summary


def ok(client, tx, wallet, what):
    res, r = submit(client, tx, wallet)
    check(res == "tesSUCCESS", f"{what}: {res}")
    return r


def setup(client):
    """Funds a gateway and three accounts; the gateway's domain admits two of them."""
    gw, maker, taker, outsider = (Wallet.create(CryptoAlgorithm.SECP256K1) for _ in range(4))
    for w in (gw, maker, taker, outsider):
        ok(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS, f"genesis funds {w.address}")
    ok(client, AccountSet(account=gw.address, set_flag=AccountSetAsfFlag.ASF_DEFAULT_RIPPLE), gw, "the gateway ripples")
    member = str_to_hex("Member")
    ok(client, PermissionedDomainSet(account=gw.address, accepted_credentials=[Credential(issuer=gw.address, credential_type=member)]), gw, "PermissionedDomainSet")
    objs = client.request(AccountObjects(account=gw.address, type=AccountObjectType.PERMISSIONED_DOMAIN)).result["account_objects"]
    domain_id = objs[0]["index"]
    for w in (maker, taker):
        ok(client, CredentialCreate(account=gw.address, subject=w.address, credential_type=member), gw, "a credential issued")
        ok(client, CredentialAccept(account=w.address, issuer=gw.address, credential_type=member), w, "the credential accepted")
    for w in (maker, taker, outsider):
        limit = IssuedCurrencyAmount(currency="USD", issuer=gw.address, value="1000")
        ok(client, TrustSet(account=w.address, limit_amount=limit), w, "a USD trust line")
        usd = IssuedCurrencyAmount(currency="USD", issuer=gw.address, value="100")
        ok(client, Payment(account=gw.address, destination=w.address, amount=usd), gw, "100 USD issued")
    return gw, maker, taker, outsider, domain_id


def flow(client):
    gw, maker, taker, outsider, domain_id = setup(client)
    usd = lambda v: IssuedCurrencyAmount(currency="USD", issuer=gw.address, value=v)  # noqa: E731
    r = ok(client, OfferCreate(account=maker.address, taker_pays="20000000", taker_gets=usd("20"), domain_id=domain_id, flags=OfferCreateFlag.TF_HYBRID), maker, "a hybrid domain offer")
    seq = r["tx_json"]["Sequence"]
    node = client.request(LedgerEntry(offer=OfferSelector(account=maker.address, seq=seq))).result["node"]
    check(node["DomainID"] == domain_id and node["Flags"] == 0x40000, f"DomainID and lsfHybrid: {node}")
    check(len(node["AdditionalBooks"]) == 1, "one additional (open) book")
    book = dict(taker_pays=XRP(), taker_gets=IssuedCurrency(currency="USD", issuer=gw.address))
    offers = client.request(BookOffers(**book, domain=domain_id)).result["offers"]
    check(len(offers) == 1 and offers[0]["DomainID"] == domain_id, "book_offers of the domain")
    offers = client.request(BookOffers(**book)).result["offers"]
    check(len(offers) == 1 and offers[0]["index"] == node["index"], "the open book lists the hybrid offer")

    res, _ = submit(client, Payment(account=outsider.address, destination=outsider.address, amount=usd("1"), send_max="1000000", domain_id=domain_id), outsider)
    check(res == "tecNO_PERMISSION", f"an outsider's domain payment: {res}")
    ok(client, Payment(account=taker.address, destination=taker.address, amount=usd("5"), send_max="5000000", domain_id=domain_id), taker, "a domain payment takes 5 USD")
    node = client.request(LedgerEntry(offer=OfferSelector(account=maker.address, seq=seq))).result["node"]
    check(node["TakerGets"]["value"] == "15", f"15 USD left: {node['TakerGets']}")
    ok(client, OfferCreate(account=taker.address, taker_pays=usd("15"), taker_gets="15000000", domain_id=domain_id), taker, "a crossing domain offer")
    for w in (maker, taker):
        objs = client.request(AccountObjects(account=w.address, type=AccountObjectType.OFFER)).result["account_objects"]
        check(objs == [], "both offers consumed")


def main():
    flow(JsonRpcClient(sys.argv[1]))
    summary()


if __name__ == "__main__":
    main()
