"""Drive a running ledgerd with xrpl-py, unmodified: the authorized-trust-line flow and the
payment-channel flow of the product document, over HTTP JSON-RPC or WebSocket.

Usage: py_flow.py http://127.0.0.1:PORT ws://127.0.0.1:PORT (http|ws)
Exits non-zero (with the failing step) on any mismatch.
"""

import sys

from xrpl.clients import JsonRpcClient, WebsocketClient
from xrpl.constants import CryptoAlgorithm
from xrpl.core.binarycodec import encode_for_signing_claim
from xrpl.core.keypairs import is_valid_message
from xrpl.core.keypairs import sign as kp_sign
from xrpl.models.amounts import IssuedCurrencyAmount
from xrpl.account import get_latest_transaction
from xrpl.models.requests import (
    AccountChannels,
    AccountTx,
    AccountInfo,
    AccountLines,
    ChannelAuthorize,
    ChannelVerify,
    GenericRequest,
    Ledger,
    LedgerData,
    ServerInfo,
    StreamParameter,
    Subscribe,
    Tx,
)
from xrpl.models.transactions import (
    AccountSet,
    AccountSetAsfFlag,
    Payment,
    PaymentChannelClaim,
    PaymentChannelCreate,
    PaymentChannelFund,
    TrustSet,
    TrustSetFlag,
)
from xrpl.models.requests import AccountObjects, AccountObjectType, DepositAuthorized, SubmitMultisigned
from xrpl.models.transactions import (
    AccountDelete,
    CheckCash,
    CheckCreate,
    EscrowCreate,
    EscrowFinish,
    Clawback,
    DepositPreauth,
    SignerEntry,
    SignerListSet,
    TicketCreate,
)
from xrpl.transaction import XRPLReliableSubmissionException, autofill, multisign, sign, simulate, submit_and_wait
from xrpl.wallet import Wallet

LSF_REQUIRE_AUTH = 0x00040000
GENESIS = Wallet.from_seed("snoPBrXtMeMyMHUVTgbuqAfg1SUTb", algorithm=CryptoAlgorithm.SECP256K1)
steps = 0


def check(cond, what):
    global steps
    steps += 1
    if not cond:
        print(f"FAIL: {what}", flush=True)
        sys.exit(1)
    print(f"ok {steps} - {what}", flush=True)


def ok(result):
    return result.get("meta", {}).get("TransactionResult") == "tesSUCCESS"


def submit(client, tx, wallet):
    return submit_and_wait(tx, client, wallet).result


def submit_expect_fail(client, tx, wallet, code):
    try:
        r = submit_and_wait(tx, client, wallet).result
        return r.get("meta", {}).get("TransactionResult") == code
    except XRPLReliableSubmissionException as e:
        return code in str(e)


def request(client, req):
    resp = client.request(req)
    if not resp.is_successful():
        print(f"request failed: {resp.result}", flush=True)
    return resp.result


def balance(client, address):
    return int(request(client, AccountInfo(account=address, ledger_index="validated"))["account_data"]["Balance"])


def usd(issuer, value, currency="USD"):
    return IssuedCurrencyAmount(currency=currency, issuer=issuer.address, value=str(value))


def flow(client):
    info = request(client, ServerInfo())["info"]
    check("validated_ledger" in info and info["validated_ledger"]["seq"] >= 1, "server_info has a validated ledger")

    issuer = Wallet.create(CryptoAlgorithm.SECP256K1)
    busy_issuer = Wallet.create(CryptoAlgorithm.SECP256K1)
    holder = Wallet.create(CryptoAlgorithm.SECP256K1)
    holder2 = Wallet.create(CryptoAlgorithm.ED25519)
    payer = Wallet.create(CryptoAlgorithm.SECP256K1)
    payee = Wallet.create(CryptoAlgorithm.ED25519)
    for w in (issuer, busy_issuer, holder, holder2, payer, payee):
        r = submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(ok(r), f"genesis funds {w.address}")

    # RequireAuth is refused while the issuer's owner directory holds a line.
    r = submit(client, TrustSet(account=holder.address, limit_amount=usd(busy_issuer, 100)), holder)
    check(ok(r), "holder trusts busy_issuer")
    check(
        submit_expect_fail(client, AccountSet(account=busy_issuer.address, set_flag=AccountSetAsfFlag.ASF_REQUIRE_AUTH), busy_issuer, "tecOWNERS"),
        "RequireAuth refused with tecOWNERS while the issuer has a line",
    )

    # RequireAuth on an empty issuer.
    r = submit(client, AccountSet(account=issuer.address, set_flag=AccountSetAsfFlag.ASF_REQUIRE_AUTH), issuer)
    check(ok(r), "issuer turns RequireAuth on")
    flags = request(client, AccountInfo(account=issuer.address, ledger_index="validated"))["account_data"]["Flags"]
    check(flags & LSF_REQUIRE_AUTH, "account_info shows lsfRequireAuth")

    # Holder's line, unauthorized: the issuer cannot pay it.
    r = submit(client, TrustSet(account=holder.address, limit_amount=usd(issuer, 1000)), holder)
    check(ok(r), "holder creates a USD line to the issuer")
    check(
        submit_expect_fail(client, Payment(account=issuer.address, destination=holder.address, amount=usd(issuer, 10)), issuer, "tecPATH_DRY"),
        "issuer payment to an unauthorized line fails with tecPATH_DRY",
    )

    # Issuer authorizes; both sides show it; the payment now succeeds.
    auth = TrustSet(account=issuer.address, limit_amount=usd(holder, 0), flags=TrustSetFlag.TF_SET_AUTH)
    check(ok(submit(client, auth, issuer)), "issuer authorizes the holder's USD line")
    lines = request(client, AccountLines(account=holder.address, peer=issuer.address, ledger_index="validated"))["lines"]
    line = [x for x in lines if x["currency"] == "USD"]
    check(len(line) == 1 and line[0].get("peer_authorized") is True, "holder's line shows peer_authorized")
    lines = request(client, AccountLines(account=issuer.address, peer=holder.address, ledger_index="validated"))["lines"]
    line = [x for x in lines if x["currency"] == "USD"]
    check(len(line) == 1 and line[0].get("authorized") is True, "issuer's view shows authorized")
    r = submit(client, Payment(account=issuer.address, destination=holder.address, amount=usd(issuer, 10)), issuer)
    check(ok(r), "issuer pays 10 USD to the authorized line")
    lines = request(client, AccountLines(account=holder.address, peer=issuer.address, ledger_index="validated"))["lines"]
    check([x["balance"] for x in lines if x["currency"] == "USD"] == ["10"], "holder holds 10 USD")

    # A second currency is authorized separately.
    r = submit(client, TrustSet(account=holder.address, limit_amount=usd(issuer, 500, "EUR")), holder)
    check(ok(r), "holder creates a EUR line")
    check(
        submit_expect_fail(client, Payment(account=issuer.address, destination=holder.address, amount=usd(issuer, 5, "EUR")), issuer, "tecPATH_DRY"),
        "EUR is not authorized by the USD authorization",
    )
    auth = TrustSet(account=issuer.address, limit_amount=usd(holder, 0, "EUR"), flags=TrustSetFlag.TF_SET_AUTH)
    check(ok(submit(client, auth, issuer)), "issuer authorizes EUR")
    r = submit(client, Payment(account=issuer.address, destination=holder.address, amount=usd(issuer, 5, "EUR")), issuer)
    check(ok(r), "EUR payment succeeds after authorization")

    # Pre-authorization of a second holder before its TrustSet.
    pre = TrustSet(account=issuer.address, limit_amount=usd(holder2, 0), flags=TrustSetFlag.TF_SET_AUTH)
    check(ok(submit(client, pre, issuer)), "issuer pre-authorizes holder2 before its line exists")
    r = submit(client, TrustSet(account=holder2.address, limit_amount=usd(issuer, 300)), holder2)
    check(ok(r), "holder2 sets its limit on the pre-authorized line")
    lines = request(client, AccountLines(account=holder2.address, peer=issuer.address, ledger_index="validated"))["lines"]
    line = [x for x in lines if x["currency"] == "USD"]
    check(len(line) == 1 and line[0].get("peer_authorized") is True and line[0]["limit"] == "300", "holder2's line is authorized with limit 300")
    r = submit(client, Payment(account=issuer.address, destination=holder2.address, amount=usd(issuer, 7)), issuer)
    check(ok(r), "issuer pays the pre-authorized holder2")

    # Payment channel: create, fund, authorize a claim on the server, verify locally, redeem.
    create = PaymentChannelCreate(
        account=payer.address, amount="10000000", destination=payee.address, settle_delay=86400, public_key=payer.public_key
    )
    check(ok(submit(client, create, payer)), "payer creates a channel")
    chans = request(client, AccountChannels(account=payer.address, destination_account=payee.address, ledger_index="validated"))["channels"]
    check(len(chans) == 1 and chans[0]["amount"] == "10000000", "account_channels lists the channel")
    channel_id = chans[0]["channel_id"]
    check(ok(submit(client, PaymentChannelFund(account=payer.address, channel=channel_id, amount="5000000"), payer)), "payer funds the channel")

    sig = request(client, ChannelAuthorize(channel_id=channel_id, amount="3000000", seed=payer.seed, key_type=CryptoAlgorithm.SECP256K1))["signature"]
    msg = bytes.fromhex(encode_for_signing_claim({"channel": channel_id, "amount": "3000000"}))
    check(is_valid_message(msg, bytes.fromhex(sig), payer.public_key), "xrpl-py verifies the server's claim signature")
    local = kp_sign(msg, payer.private_key)
    check(local.upper() == sig.upper(), "the claim signed locally by xrpl-py equals the server's")
    v = request(client, ChannelVerify(channel_id=channel_id, amount="3000000", public_key=payer.public_key, signature=sig))
    check(v.get("signature_verified") is True, "channel_verify accepts the claim")
    v = request(client, ChannelVerify(channel_id=channel_id, amount="3000001", public_key=payer.public_key, signature=sig))
    check(v.get("signature_verified") is False, "channel_verify rejects a changed amount")

    before = balance(client, payee.address)
    claim = PaymentChannelClaim(
        account=payee.address, channel=channel_id, balance="3000000", amount="3000000", signature=sig, public_key=payer.public_key
    )
    r = submit(client, claim, payee)
    check(ok(r), "payee redeems the claim")
    fee = int(r["tx_json"]["Fee"]) if "tx_json" in r else int(r["Fee"])
    check(balance(client, payee.address) == before + 3000000 - fee, "payee's balance rose by the claim less the fee")
    chans = request(client, AccountChannels(account=payer.address, ledger_index="validated"))["channels"]
    check(chans[0]["balance"] == "3000000" and chans[0]["amount"] == "15000000", "the channel's balance and amount are updated")
    history(client, payer, r["hash"])
    custody(client)
    deferred(client)
    dex(client)
    nfts(client)
    return issuer


def custody(client):
    """Issue 13's flows with xrpl-py's own helpers: a signer list, multi-signed payments
    (xrpl-py multisign through submit_multisigned and submit), tickets, deposit
    preauthorization with deposit_authorized, clawback and a multi-signed account deletion."""
    cold, hot, token = (Wallet.create(CryptoAlgorithm.SECP256K1) for _ in range(3))
    signer_a, signer_b = Wallet.create(CryptoAlgorithm.ED25519), Wallet.create(CryptoAlgorithm.SECP256K1)
    for w in (cold, hot, token):
        check(ok(submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)), f"genesis funds {w.address}")
    entries = [SignerEntry(account=w.address, signer_weight=1) for w in (signer_a, signer_b)]
    check(ok(submit(client, SignerListSet(account=cold.address, signer_quorum=2, signer_entries=entries), cold)), "cold sets a signer list, quorum 2")
    lists = request(client, AccountInfo(account=cold.address, signer_lists=True, ledger_index="validated"))
    check(lists["signer_lists"][0]["SignerQuorum"] == 2, "account_info signer_lists (xrpl-py asks API v2: top level)")

    def multisigned(tx):
        filled = autofill(tx, client, 2)
        return multisign(filled, [sign(filled, signer_a, multisign=True), sign(filled, signer_b, multisign=True)])

    pay = multisigned(Payment(account=cold.address, destination=hot.address, amount="1000000"))
    r = request(client, SubmitMultisigned(tx_json=pay))
    check(r.get("engine_result") == "tesSUCCESS", f"submit_multisigned of xrpl-py multisign: {r.get('engine_result')}")
    request(client, GenericRequest(method="ledger_accept"))
    pay2 = multisigned(Payment(account=cold.address, destination=hot.address, amount="2000000"))
    check(ok(submit_and_wait(pay2, client).result), "a multi-signed payment through submit (submit_and_wait) validates")

    check(ok(submit(client, TicketCreate(account=hot.address, ticket_count=2), hot)), "TicketCreate of two")
    tickets = request(client, AccountObjects(account=hot.address, type=AccountObjectType.TICKET, ledger_index="validated"))["account_objects"]
    check(len(tickets) == 2, "account_objects type ticket lists both")
    ticketed = Payment(account=hot.address, destination=cold.address, amount="1000", sequence=0, ticket_sequence=tickets[0]["TicketSequence"])
    check(ok(submit(client, ticketed, hot)), "a payment with a ticket")

    check(ok(submit(client, AccountSet(account=token.address, set_flag=AccountSetAsfFlag.ASF_DEPOSIT_AUTH), token)), "token requires deposit authorization")
    auth = request(client, DepositAuthorized(source_account=hot.address, destination_account=token.address))
    check(auth["deposit_authorized"] is False, "deposit_authorized says no")
    check(ok(submit(client, DepositPreauth(account=token.address, authorize=hot.address), token)), "token preauthorizes hot")
    auth = request(client, DepositAuthorized(source_account=hot.address, destination_account=token.address, ledger_index="validated"))
    check(auth["deposit_authorized"] is True, "deposit_authorized says yes")
    check(ok(submit(client, Payment(account=hot.address, destination=token.address, amount="1000000"), hot)), "the preauthorized deposit arrives")

    issuer = Wallet.create(CryptoAlgorithm.SECP256K1)
    check(ok(submit(client, Payment(account=GENESIS.address, destination=issuer.address, amount="1000000000"), GENESIS)), "genesis funds the issuer")
    check(ok(submit(client, AccountSet(account=issuer.address, set_flag=AccountSetAsfFlag.ASF_ALLOW_TRUSTLINE_CLAWBACK), issuer)), "the issuer allows clawback")
    check(ok(submit(client, TrustSet(account=hot.address, limit_amount=usd(issuer, 1000)), hot)), "hot trusts the issuer")
    check(ok(submit(client, Payment(account=issuer.address, destination=hot.address, amount=usd(issuer, 100)), issuer)), "the issuer pays 100 USD")
    check(ok(submit(client, Clawback(account=issuer.address, amount=usd(hot, 25)), issuer)), "the issuer claws back 25")
    lines = request(client, AccountLines(account=hot.address, ledger_index="validated"))["lines"]
    check(lines[0]["balance"] == "75", f"hot holds 75 USD: {lines[0]['balance']}")

    for _ in range(256):
        request(client, GenericRequest(method="ledger_accept"))
    gone = multisigned(AccountDelete(account=cold.address, destination=hot.address))
    r = submit_and_wait(gone, client).result
    check(ok(r) and int(gone.fee) >= 2000000, f"the cold wallet is deleted by its signers (fee {gone.fee})")
    after = client.request(AccountInfo(account=cold.address, ledger_index="validated"))
    check(after.result.get("error") == "actNotFound", "account_info of the deleted account: actNotFound")


CONDITION = "A0258020E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855810100"
FULFILLMENT = "A0028000"


def deferred(client):
    """Issue 14's flows: a condition escrow finished with its fulfillment, a check cashed,
    and simulate, which changes nothing."""
    alice, bob = Wallet.create(CryptoAlgorithm.SECP256K1), Wallet.create(CryptoAlgorithm.ED25519)
    for w in (alice, bob):
        check(ok(submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)), f"genesis funds {w.address}")
    close_time = request(client, Ledger(ledger_index="validated"))["ledger"]["close_time"]
    r = submit(client, EscrowCreate(account=alice.address, destination=bob.address, amount="10000000", condition=CONDITION, cancel_after=close_time + 3600), alice)
    check(ok(r), "EscrowCreate with a crypto-condition")
    seq = r["tx_json"]["Sequence"]
    r = submit(client, EscrowFinish(account=bob.address, owner=alice.address, offer_sequence=seq, condition=CONDITION, fulfillment=FULFILLMENT), bob)
    check(ok(r), f"EscrowFinish with the fulfillment (xrpl-py autofilled the fee: {r['tx_json']['Fee']})")
    r = submit(client, CheckCreate(account=alice.address, destination=bob.address, send_max="5000000"), alice)
    node = next(n["CreatedNode"] for n in r["meta"]["AffectedNodes"] if n.get("CreatedNode", {}).get("LedgerEntryType") == "Check")
    r = submit(client, CheckCash(account=bob.address, check_id=node["LedgerIndex"], amount="3000000"), bob)
    check(ok(r) and r["meta"]["delivered_amount"] == "3000000", "CheckCash delivers 3 XRP")
    before = balance(client, alice.address)
    sim = simulate(Payment(account=alice.address, destination=bob.address, amount="1000000"), client).result
    check(sim["engine_result"] == "tesSUCCESS" and sim["applied"] is False and sim["meta"]["TransactionResult"] == "tesSUCCESS", "simulate answers tesSUCCESS with metadata")
    request(client, GenericRequest(method="ledger_accept"))
    check(balance(client, alice.address) == before, "and the ledger did not change")


def dex(client):
    """Issue 15's flows with xrpl-py's models: offers read back with book_offers, a
    cross-currency payment found with ripple_path_find and sent with its paths, an AMM
    created, deposited into, traded against and withdrawn, and an unauthorized holder's
    offer refused."""
    from xrpl.models.currencies import XRP, IssuedCurrency
    from xrpl.models.requests import AMMInfo, AccountOffers, BookOffers, RipplePathFind
    from xrpl.models.transactions import AMMCreate, AMMDeposit, AMMDepositFlag, AMMWithdraw, AMMWithdrawFlag, OfferCancel, OfferCreate

    gw, alice, bob, carol = (Wallet.create(CryptoAlgorithm.SECP256K1) for _ in range(4))
    for w in (gw, alice, bob, carol):
        check(ok(submit(client, Payment(account=GENESIS.address, destination=w.address, amount="2000000000"), GENESIS)), f"genesis funds {w.address}")
    check(ok(submit(client, AccountSet(account=gw.address, set_flag=AccountSetAsfFlag.ASF_DEFAULT_RIPPLE), gw)), "the gateway ripples by default")
    for w in (alice, carol):
        check(ok(submit(client, TrustSet(account=w.address, limit_amount=usd(gw, 10000)), w)), f"{w.address} trusts USD")
    check(ok(submit(client, Payment(account=gw.address, destination=alice.address, amount=usd(gw, 1000)), gw)), "alice holds 1000 USD")
    for drops, value in (("110000000", 100), ("50000000", 50)):
        check(ok(submit(client, OfferCreate(account=alice.address, taker_pays=drops, taker_gets=usd(gw, value)), alice)), f"alice offers {value} USD")
    usd_cur = IssuedCurrency(currency="USD", issuer=gw.address)
    book = request(client, BookOffers(taker_gets=usd_cur, taker_pays=XRP(), ledger_index="validated"))["offers"]
    check(len(book) == 2 and float(book[0]["quality"]) <= float(book[1]["quality"]), "book_offers lists both, best quality first")
    check(len(request(client, AccountOffers(account=alice.address))["offers"]) == 2, "account_offers lists them")

    found = request(client, RipplePathFind(source_account=bob.address, destination_account=carol.address, destination_amount=usd(gw, 10)))
    alt = found["alternatives"][0]
    check(isinstance(alt["source_amount"], str), f"ripple_path_find finds an XRP source for 10 USD: {alt['source_amount']} drops")
    send_max = str(int(int(alt["source_amount"]) * 1.01) + 1)
    r = submit(client, Payment(account=bob.address, destination=carol.address, amount=usd(gw, 10), send_max=send_max, paths=alt["paths_computed"]), bob)
    check(ok(r) and r["meta"]["delivered_amount"]["value"] == "10", "the payment sent with those paths delivers 10 USD")

    for o in request(client, AccountOffers(account=alice.address))["offers"]:
        check(ok(submit(client, OfferCancel(account=alice.address, offer_sequence=o["seq"]), alice)), f"alice cancels offer {o['seq']}")
    r = submit(client, AMMCreate(account=alice.address, amount="100000000", amount2=usd(gw, 100), trading_fee=500), alice)
    check(ok(r), f"AMMCreate 100 XRP / 100 USD (fee autofilled: {r['tx_json']['Fee']})")
    amm = request(client, AMMInfo(asset=XRP(), asset2=usd_cur))["amm"]
    check(amm["amount"] == "100000000" and amm["amount2"]["value"] == "100" and amm["trading_fee"] == 500, "amm_info shows the pool")
    r = submit(client, AMMDeposit(account=alice.address, asset=XRP(), asset2=usd_cur, amount="10000000", flags=AMMDepositFlag.TF_SINGLE_ASSET), alice)
    check(ok(r), "AMMDeposit of 10 XRP alone")
    r = submit(client, Payment(account=bob.address, destination=carol.address, amount=usd(gw, 1), send_max="5000000"), bob)
    check(ok(r) and r["meta"]["delivered_amount"]["value"] == "1", "a payment of 1 USD for XRP trades against the pool")
    amm = request(client, AMMInfo(asset=XRP(), asset2=usd_cur))["amm"]
    check(int(amm["amount"]) > 110000000 and float(amm["amount2"]["value"]) < 100, f"the pool took XRP and paid USD: {amm['amount']} / {amm['amount2']['value']}")
    r = submit(client, AMMWithdraw(account=alice.address, asset=XRP(), asset2=usd_cur, flags=AMMWithdrawFlag.TF_WITHDRAW_ALL), alice)
    check(ok(r), "AMMWithdraw tfWithdrawAll by the only provider")
    gone = client.request(AMMInfo(asset=XRP(), asset2=usd_cur))
    check(not gone.is_successful() and gone.result.get("error") == "actNotFound", "the AMM is gone")

    gw2 = Wallet.create(CryptoAlgorithm.SECP256K1)
    check(ok(submit(client, Payment(account=GENESIS.address, destination=gw2.address, amount="2000000000"), GENESIS)), "genesis funds gateway 2")
    check(ok(submit(client, AccountSet(account=gw2.address, set_flag=AccountSetAsfFlag.ASF_REQUIRE_AUTH), gw2)), "gateway 2 requires authorization")
    buy = OfferCreate(account=bob.address, taker_pays=usd(gw2, 10), taker_gets="10000000")
    check(submit_expect_fail(client, buy, bob, "tecNO_LINE"), "an offer to buy its USD without a line: tecNO_LINE")
    check(ok(submit(client, TrustSet(account=bob.address, limit_amount=usd(gw2, 100)), bob)), "bob trusts gateway 2")
    check(submit_expect_fail(client, buy, bob, "tecNO_AUTH"), "and without its authorization: tecNO_AUTH")


def nfts(client):
    """Issue 16's NFTokens with xrpl-py's models (its test_nftoken_mint): a mint with an
    Amount, Destination and Expiration creates a page and a sell offer that account_objects
    lists; get_nftoken_id reads the token from the metadata; the destination buys it."""
    from xrpl.models.requests import AccountNFTs, NFTSellOffers
    from xrpl.models.transactions import NFTokenAcceptOffer, NFTokenBurn, NFTokenMint
    from xrpl.utils import get_nftoken_id, parse_nftoken_id, str_to_hex

    owner, dest = Wallet.create(CryptoAlgorithm.SECP256K1), Wallet.create(CryptoAlgorithm.ED25519)
    for w in (owner, dest):
        check(ok(submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)), f"genesis funds {w.address}")
    r = submit(client, NFTokenMint(account=owner.address, nftoken_taxon=1, uri=str_to_hex("https://example.com/nftoken"), amount="10000", destination=dest.address, expiration=970000000, flags=8), owner)
    check(ok(r), "NFTokenMint with Amount, Destination and Expiration")
    token = get_nftoken_id(r["meta"])
    check(token == r["meta"]["nftoken_id"] and parse_nftoken_id(token)["taxon"] == 1, f"get_nftoken_id agrees with nftoken_id: {token}")
    pages = request(client, AccountObjects(account=owner.address, type=AccountObjectType.NFT_PAGE))["account_objects"]
    offers = request(client, AccountObjects(account=owner.address, type=AccountObjectType.NFT_OFFER))["account_objects"]
    check(len(pages) == 1 and len(offers) == 1 and offers[0]["index"] == r["meta"]["offer_id"], "account_objects lists the NFTokenPage and the NFTokenOffer")
    sells = request(client, NFTSellOffers(nft_id=token))["offers"]
    check(len(sells) == 1 and sells[0]["destination"] == dest.address and sells[0]["amount"] == "10000", "nft_sell_offers lists the offer to the destination")
    r = submit(client, NFTokenAcceptOffer(account=dest.address, nftoken_sell_offer=sells[0]["nft_offer_index"]), dest)
    check(ok(r) and r["meta"]["nftoken_id"] == token, "the destination accepts it")
    held = request(client, AccountNFTs(account=dest.address))["account_nfts"]
    check(len(held) == 1 and held[0]["NFTokenID"] == token and held[0]["Issuer"] == owner.address, "account_nfts of the buyer")
    check(ok(submit(client, NFTokenBurn(account=dest.address, nftoken_id=token), dest)), "the buyer burns it")


def account_tx_hashes(client, account, limit, forward=False):
    hashes, marker = [], None
    for _ in range(100):
        page = request(client, AccountTx(account=account, limit=limit, forward=forward, marker=marker))
        hashes += [t.get("hash") or t["tx"]["hash"] for t in page["transactions"]]
        marker = page.get("marker")
        if marker is None:
            return hashes
    raise AssertionError("account_tx paging did not end")


def history(client, payer, claim_hash):
    latest = get_latest_transaction(payer.address, client).result["transactions"]
    check(len(latest) == 1 and (latest[0].get("hash") or latest[0]["tx"]["hash"]) == claim_hash, "get_latest_transaction is the claim")
    one = account_tx_hashes(client, payer.address, 400)
    paged = account_tx_hashes(client, payer.address, 1)
    check(len(one) >= 4 and paged == one, f"account_tx pages of 1 with markers ({len(paged)}) equal one page ({len(one)})")
    check(account_tx_hashes(client, payer.address, 2, forward=True) == one[::-1], "forward pages list them oldest first")
    found = request(client, Tx(transaction=claim_hash))
    check(found.get("validated") is True and found.get("hash") == claim_hash, "tx finds the claim, validated")
    old_state(client, payer)


def ledger_data_keys(client, ledger_index):
    keys, marker = [], None
    for _ in range(1000):
        page = request(client, LedgerData(ledger_index=ledger_index, limit=5, marker=marker))
        keys += [e["index"] for e in page["state"]]
        marker = page.get("marker")
        if marker is None:
            return keys
    raise AssertionError("ledger_data paging did not end")


def old_state(client, payer):
    """A ledger pushed out of memory (300 closes later) reads as it did: account_info and
    ledger_data pages there come from the history store."""
    then = request(client, AccountInfo(account=payer.address, ledger_index="validated"))
    seq, balance = then["ledger_index"], then["account_data"]["Balance"]
    keys = ledger_data_keys(client, seq)
    for _ in range(300):
        request(client, GenericRequest(method="ledger_accept"))
    now = request(client, AccountInfo(account=payer.address, ledger_index=seq))
    check(now["account_data"]["Balance"] == balance and now["validated"] is True, f"account_info at ledger {seq}, 300 ledgers back, is as it was")
    check(ledger_data_keys(client, seq) == keys and len(keys) > 5, f"ledger_data pages at ledger {seq} list the same {len(keys)} entries")


def subscription(ws_url):
    payer = Wallet.create(CryptoAlgorithm.SECP256K1)
    with WebsocketClient(ws_url) as client:
        sub = client.request(Subscribe(streams=[StreamParameter.LEDGER, StreamParameter.TRANSACTIONS]))
        check(sub.is_successful() and "ledger_index" in sub.result, "subscribe to ledger and transactions")
        r = submit(client, Payment(account=GENESIS.address, destination=payer.address, amount="50000000"), GENESIS)
        check(ok(r), "payment while subscribed")
        seen_ledger = seen_tx = False
        for _ in range(200):
            msg = next(iter(client))
            if msg.get("type") == "ledgerClosed":
                seen_ledger = True
            if msg.get("type") == "transaction" and msg.get("transaction", msg.get("tx_json", {})).get("Destination") == payer.address:
                seen_tx = msg.get("validated") is True and msg.get("engine_result") == "tesSUCCESS"
            if seen_ledger and seen_tx:
                break
        check(seen_ledger, "a ledgerClosed message arrived")
        check(seen_tx, "the validated transaction message arrived")


def main():
    http_url, ws_url, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "http":
        flow(JsonRpcClient(http_url))
    else:
        with WebsocketClient(ws_url) as client:
            flow(client)
        # xrpl-py closes its websockets connection with 1000; websockets reports the code of
        # the server's answering close frame, or 1006 when the connection was cut without one.
        code = client._websocket.close_code
        check(code == 1000, f"the server answers xrpl-py's close with a close frame: code {code}, want 1000")
        subscription(ws_url)
    print(f"{steps} passed, 0 failed", flush=True)


if __name__ == "__main__":
    main()
