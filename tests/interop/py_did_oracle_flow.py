"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through the DID and
price-oracle flows of xrpl-py's integration tests (test_did_set, test_did_delete,
test_set_oracle, test_delete_oracle) and a get_aggregate_price over two oracles: the
transactions signed by the library, read back with account_objects and ledger_entry.

Usage: py_did_oracle_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step)
on any mismatch.
"""

import sys
import time

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.requests import AccountObjects, AccountObjectType, GetAggregatePrice, LedgerEntry
from xrpl.models.requests.get_aggregate_price import Oracle as AggregateOracle
from xrpl.models.requests.ledger_entry import Oracle as OracleSelector
from xrpl.models.transactions import DIDDelete, DIDSet, OracleDelete, OracleSet, Payment
from xrpl.models.transactions.oracle_set import PriceData
from xrpl.utils import str_to_hex
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, submit, summary

VALID_FIELD = "1234567890abcdefABCDEF"
MAX_ASSET_PRICE = 18446744073709551615


def objects(client, account, kind):
    r = client.request(AccountObjects(account=account, type=kind))
    return r.result["account_objects"]


def did_flow(client, owner):
    res, _ = submit(client, DIDSet(account=owner.address, did_document=VALID_FIELD, uri=VALID_FIELD, data=VALID_FIELD), owner)
    check(res == "tesSUCCESS", f"DIDSet with all fields: {res}")
    objs = objects(client, owner.address, AccountObjectType.DID)
    check(len(objs) == 1 and objs[0]["URI"] == VALID_FIELD.upper(), "account_objects type did, URI in upper-case hex")
    entry = client.request(LedgerEntry(did=owner.address)).result
    check(entry["node"]["index"] == objs[0]["index"], "ledger_entry did finds the same entry")
    res, _ = submit(client, DIDDelete(account=owner.address), owner)
    check(res == "tesSUCCESS", f"DIDDelete: {res}")
    check(objects(client, owner.address, AccountObjectType.DID) == [], "the DID is gone")


def oracle_set(owner, doc, prices, when, create=True):
    extra = {"provider": str_to_hex("provider"), "asset_class": str_to_hex("currency")} if create else {}
    series = [PriceData(base_asset=b, quote_asset=q, asset_price=p, scale=s) for (b, q, p, s) in prices]
    return OracleSet(account=owner.address, oracle_document_id=doc, last_update_time=when, price_data_series=series, **extra)


def oracle_flow(client, owner, other):
    now = int(time.time())
    prices = [("XRP", "USD", 740, 1), ("BTC", "EUR", 100, 2), ("BTC", "INR", MAX_ASSET_PRICE, 2)]
    res, _ = submit(client, oracle_set(owner, 1, prices, now), owner)
    check(res == "tesSUCCESS", f"OracleSet with three pairs: {res}")
    objs = objects(client, owner.address, AccountObjectType.ORACLE)
    check(len(objs) == 1, "account_objects type oracle lists it")
    check(objs[0]["PriceDataSeries"][2]["PriceData"]["AssetPrice"] == "ffffffffffffffff", "the largest AssetPrice in base 16")
    entry = client.request(LedgerEntry(oracle=OracleSelector(account=owner.address, oracle_document_id=1))).result
    check(entry["node"]["Owner"] == owner.address and entry["node"]["index"] == objs[0]["index"], "ledger_entry oracle")
    res, _ = submit(client, oracle_set(other, 7, [("XRP", "USD", 760, 1)], now), other)
    check(res == "tesSUCCESS", f"a second oracle: {res}")

    oracles = [AggregateOracle(account=owner.address, oracle_document_id=1), AggregateOracle(account=other.address, oracle_document_id=7)]
    r = client.request(GetAggregatePrice(base_asset="XRP", quote_asset="USD", oracles=oracles, trim=20)).result
    # rippled 3.x computes RPCs with its default 19-digit Number.
    check(r["entire_set"] == {"mean": "75", "size": 2, "standard_deviation": "1.414213562373095049"}, f"entire_set {r['entire_set']}")
    check(r["median"] == "75" and r["trimmed_set"]["size"] == 2 and r["time"] == now, f"median {r['median']}, time {r['time']}")

    res, _ = submit(client, oracle_set(owner, 1, [("XRP", "USD", None, None)], now + 1, create=False), owner)
    check(res == "tesSUCCESS", f"an update deleting XRP/USD: {res}")
    objs = objects(client, owner.address, AccountObjectType.ORACLE)
    check(len(objs[0]["PriceDataSeries"]) == 2, "two pairs left")
    res, _ = submit(client, OracleDelete(account=owner.address, oracle_document_id=1), owner)
    check(res == "tesSUCCESS", f"OracleDelete: {res}")
    res, _ = submit(client, OracleDelete(account=owner.address, oracle_document_id=1), owner)
    check(res == "tecNO_ENTRY", f"deleting it again: {res}")
    check(objects(client, owner.address, AccountObjectType.ORACLE) == [], "no oracle left")


def main():
    client = JsonRpcClient(sys.argv[1])
    owner = Wallet.create(CryptoAlgorithm.SECP256K1)
    other = Wallet.create(CryptoAlgorithm.ED25519)
    for w in (owner, other):
        res, _ = submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")
    did_flow(client, owner)
    oracle_flow(client, owner, other)
    summary()


if __name__ == "__main__":
    main()
