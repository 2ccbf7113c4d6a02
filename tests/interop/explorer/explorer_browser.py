"""The explorer in a real browser: Debian's chromium, headless, driven by Playwright, while
xrpl-py changes the ledger over JSON-RPC. Run by tests/interop/explorer.rs:

    python explorer_browser.py ADMIN_URL PUBLIC_URL QUIET_URL SCREENSHOTS CHROMIUM

ADMIN_URL is a port whose loopback callers are admin, PUBLIC_URL a port of the same server
with no admin callers and no faucet, QUIET_URL a second server that closes no ledger by
itself (for counting a page view's requests). Screenshots of each view go to SCREENSHOTS.
Prints numbered checks and "N passed, 0 failed"; the first failed check exits non-zero.
"""

import datetime
import os
import re
import sys
import urllib.request
import zoneinfo
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import sync_playwright
from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.amounts import IssuedCurrencyAmount
from xrpl.models.currencies import XRP, IssuedCurrency
from xrpl.models.requests import AccountInfo, ChannelAuthorize, AccountObjects, GenericRequest, Tx
from xrpl.models.transactions import (
    AccountSet,
    Memo,
    AccountSetAsfFlag,
    AMMCreate,
    OfferCreate,
    Payment,
    PaymentChannelClaim,
    PaymentChannelCreate,
    TrustSet,
    TrustSetFlag,
)
from xrpl.transaction import sign, submit_and_wait
from xrpl.transaction import submit as submit_only
from xrpl.wallet import Wallet

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from flow_lib import GENESIS, check, summary  # noqa: E402

FOLLOW = sys.argv[1] == "follow"
if FOLLOW:
    READER, FORK, HASH, DEST, SHOTS, CHROMIUM = sys.argv[2:8]
    ADMIN = PUBLIC = QUIET = READER
else:
    ADMIN, PUBLIC, QUIET, SHOTS, CHROMIUM = sys.argv[1:6]
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 20_000
# The viewer's time zone, unlike the server's (UTC): dates must be shown in this one.
VIEWER_ZONE = "Asia/Tokyo"
RIPPLE_EPOCH = 946684800
client = JsonRpcClient(ADMIN)
# xrpl-py's synchronous calls run their own event loop, which Playwright's thread holds.
xrpl_thread = ThreadPoolExecutor(max_workers=1)


def request(req, on=client):
    """xrpl-py's request (to `on`) on its own thread; the result (or its error fields)."""
    return xrpl_thread.submit(on.request, req).result().result


def submit(tx, wallet):
    r = xrpl_thread.submit(submit_and_wait, tx, client, wallet).result().result
    code = r["meta"]["TransactionResult"]
    check(code == "tesSUCCESS", f"{tx.transaction_type.value}: {code}")
    return r


def funded(n):
    wallets = [Wallet.create(CryptoAlgorithm.SECP256K1) for _ in range(n)]
    for w in wallets:
        submit(Payment(account=GENESIS.address, destination=w.address, amount="5000000000"), GENESIS)
    return wallets


class Page:
    """One browser tab on the explorer, its console errors collected."""

    def __init__(self, browser, base):
        self.base = base
        context = browser.new_context(timezone_id=VIEWER_ZONE, locale="en-US", viewport={"width": 1280, "height": 900})
        self.page = context.new_page()
        self.errors = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, route=""):
        """A fresh page load of `route` (a hash; a new document, a new connection)."""
        self.page.goto("about:blank")
        self.page.goto(self.base + "/" + route)
        return self.ready()

    def ready(self):
        """Waits until the view of the location's hash is rendered."""
        self.page.wait_for_function(
            "() => { const v = document.querySelector('#view');"
            " return v && v.dataset.ready === '1' && v.dataset.route === location.hash; }",
            timeout=TIMEOUT_MS,
        )
        return self.page

    def view(self):
        return self.page.get_attribute("#view", "data-view")

    def search(self, text):
        self.page.fill("#q", text)
        self.page.press("#q", "Enter")
        self.ready()

    def shot(self, name):
        self.page.screenshot(path=os.path.join(SHOTS, name + ".png"), full_page=True)

    def requests(self):
        return self.page.evaluate("window.ledgerdExplorer.requests")


def total_requests(base):
    """The server's ledgerd_requests_total, all methods (its /metrics, admin callers only)."""
    text = urllib.request.urlopen(base + "/metrics").read().decode()
    return sum(int(float(v)) for v in re.findall(r"^ledgerd_requests_total\{[^}]*\} (\S+)$", text, re.M))


def live_ledgers(tab):
    page = tab.open()
    check(tab.view() == "home" and page.title() == "ledgerd explorer", "the explorer opens on the live ledgers")
    check(page.is_visible("#actions #close-ledger"), "the admin port offers the development actions")
    payee = Wallet.create(CryptoAlgorithm.SECP256K1)
    r = submit(Payment(account=GENESIS.address, destination=payee.address, amount="123000000"), GENESIS)
    page.wait_for_selector(f"#ledgers a[href='#/tx/{r['hash']}']", timeout=TIMEOUT_MS)
    card = page.locator(".panel", has=page.locator(f"a[href='#/tx/{r['hash']}']"))
    check(f"#{r['ledger_index']}" in card.inner_text(), "xrpl-py's payment appears live in its ledger")
    tab.shot("ledgers")
    return r


def authorized_line(tab, issuer, holder):
    """The product document's scenario: RequireAuth, the holder's line, tfSetfAuth."""
    submit(AccountSet(account=issuer.address, set_flag=AccountSetAsfFlag.ASF_REQUIRE_AUTH), issuer)
    usd = lambda who, v: IssuedCurrencyAmount(currency="USD", issuer=who.address, value=str(v))  # noqa: E731
    submit(TrustSet(account=holder.address, limit_amount=usd(issuer, 1000)), holder)
    page = tab.open(f"#/account/{holder.address}")
    row = page.locator(f"tr[data-peer='{issuer.address}'][data-currency='USD']")
    check("authorized by peer" not in row.inner_text(), "before tfSetfAuth the line is not authorized")
    check("peer requires auth" in row.inner_text(), "the issuer's RequireAuth shows on the holder's line")
    submit(TrustSet(account=issuer.address, limit_amount=usd(holder, 0), flags=TrustSetFlag.TF_SET_AUTH), issuer)
    paid = submit(Payment(account=issuer.address, destination=holder.address, amount=usd(issuer, 50)), issuer)
    page = tab.open(f"#/tx/{paid['hash']}")
    for who, change in ((holder, "+50"), (issuer, "-50")):
        rows = [r.split("\t") for r in page.locator(f"#changes tr[data-account='{who.address}']").all_inner_texts()]
        usd_rows = [r for r in rows if r[2].startswith("USD")]
        check([r[1] for r in usd_rows] == [change], f"a token payment's balance change, each side: {rows}")
    page = tab.open(f"#/account/{holder.address}")
    text = page.locator(f"tr[data-peer='{issuer.address}'][data-currency='USD']").inner_text()
    check("authorized by peer" in text and "50" in text, f"after tfSetfAuth the holder's line shows it: {text!r}")
    code = "EXPLORER".encode().hex().upper().ljust(40, "0")
    submit(TrustSet(account=holder.address, limit_amount=IssuedCurrencyAmount(currency=code, issuer=issuer.address, value="5")), holder)
    page = tab.open(f"#/account/{holder.address}")
    check(page.locator(f"tr[data-peer='{issuer.address}'][data-currency='EXPLORER']").count() == 1, "a 160-bit currency code is shown decoded")
    tab.shot("account")
    page = tab.open(f"#/account/{issuer.address}")
    text = page.locator(f"tr[data-peer='{holder.address}'][data-currency='USD']").inner_text()
    check("authorized" in text and "requireAuthorization" in page.inner_text("#view"), "the issuer's view shows it authorized the line")


def channel_claim(tab, payer, payee):
    create = PaymentChannelCreate(
        account=payer.address, amount="100000000", destination=payee.address, settle_delay=3600, public_key=payer.public_key
    )
    submit(create, payer)
    chan = request(AccountObjects(account=payer.address, type="payment_channel"))["account_objects"][0]["index"]
    sig = request(ChannelAuthorize(channel_id=chan, amount="25000000", seed=payer.seed, key_type=CryptoAlgorithm.SECP256K1))["signature"]
    claim = PaymentChannelClaim(
        account=payee.address, channel=chan, balance="25000000", amount="25000000", signature=sig, public_key=payer.public_key
    )
    submit(claim, payee)
    page = tab.open(f"#/account/{payee.address}")
    row = page.locator(f"tr[data-channel='{chan}']")
    claimable = row.locator(".claimable").inner_text()
    check(claimable.replace("\n", " ") == "75 XRP", f"the channel's claimable amount after a 25 XRP claim: {claimable!r}")
    check("incoming" in row.inner_text() and "25 XRP" in row.inner_text(), "the payee sees the incoming channel and what it claimed")


def transaction_search(tab, paid):
    tab.open()
    tab.search(paid["hash"].lower())
    page = tab.page
    check(tab.view() == "tx" and page.inner_text("#tx-hash") == paid["hash"], "search by hash opens the transaction")
    payee = paid["tx_json"]["Destination"]
    change = page.inner_text(f"#changes tr[data-account='{payee}']").split("\t")
    check(change[1:] == ["+123", "XRP"], f"the payee's balance change is shown: {change}")
    check("paid" in page.inner_text("#tx-summary"), "the summary says who paid whom")
    page.click("#binary summary")
    page.wait_for_selector("#binary pre", timeout=TIMEOUT_MS)
    blob = request(Tx(transaction=paid["hash"], binary=True))["tx_blob"]
    check(blob in page.inner_text("#binary"), "the binary view shows the transaction's blob")
    shown = page.inner_text("#tx-closed").replace("\u202f", " ")
    closed = datetime.datetime.fromtimestamp(paid["tx_json"]["date"] + RIPPLE_EPOCH, zoneinfo.ZoneInfo(VIEWER_ZONE))
    hour = closed.hour % 12 or 12
    want = f"{closed.month}/{closed.day}/{closed.year}, {hour}:{closed.minute:02}:{closed.second:02} {'AM' if closed.hour < 12 else 'PM'}"
    check(shown == want, f"the close time is in the viewer's zone: {shown!r} == {want!r}")
    check(f"times in {VIEWER_ZONE}" in page.inner_text("#footer"), "the footer names the viewer's zone")
    tab.shot("transaction")
    page.locator("#view a[href^='#/object/']").first.click()
    tab.ready()
    check(tab.view() == "object" and "AccountRoot" in page.inner_text("h1") and '"Balance"' in page.inner_text("#object-json"),
          "an affected object opens as ledger_entry gives it")
    tab.open(f"#/tx/{paid['hash']}")
    ctid = request(Tx(transaction=paid["hash"]))["ctid"]
    tab.search(ctid)
    check(tab.view() == "tx" and page.inner_text("#tx-hash") == paid["hash"], "search by CTID opens the same transaction")
    tab.search(str(paid["ledger_index"]))
    check(tab.view() == "ledger" and paid["hash"] in page.inner_html("#view"), "search by ledger index lists it")
    ledger_hash = request(GenericRequest(command="ledger", ledger_index=paid["ledger_index"]))["ledger_hash"]
    tab.search(ledger_hash)
    check(tab.view() == "ledger" and f"Ledger #{paid['ledger_index']}" in page.inner_text("h1"), "search by ledger hash opens it")
    tab.search(GENESIS.address)
    check(tab.view() == "account" and GENESIS.address in page.inner_text("h1"), "search by address opens the account")
    tab.search("F" * 64)
    check("Nothing found" in page.inner_text("#view"), "an unknown hash says nothing was found")


def book_and_pool(tab, issuer, holder, gateway):
    usd = IssuedCurrencyAmount(currency="USD", issuer=issuer.address, value="10")
    submit(OfferCreate(account=holder.address, taker_gets=usd, taker_pays="20000000"), holder)
    page = tab.open(f"#/book/USD.{issuer.address}/XRP")
    text = page.inner_text("#view")
    check("Asks" in text and "2.0000000" in text and holder.address in text, "the order book shows the holder's offer at 2 XRP")
    tab.shot("order-book")
    submit(AccountSet(account=gateway.address, set_flag=AccountSetAsfFlag.ASF_DEFAULT_RIPPLE), gateway)
    eur = IssuedCurrencyAmount(currency="EUR", issuer=gateway.address, value="500")
    submit(AMMCreate(account=gateway.address, amount="1000000000", amount2=eur, trading_fee=500), gateway)
    page = tab.open(f"#/amm/XRP/EUR.{gateway.address}")
    text = page.inner_text("#view")
    check("1,000 XRP" in text and "500 EUR" in text and "0.500 %" in text, "the AMM pool shows its assets and fee")
    tab.shot("amm")
    pool = request(GenericRequest(command="amm_info", asset={"currency": "XRP"},
                                  asset2={"currency": "EUR", "issuer": gateway.address}))["amm"]["account"]
    page = tab.open(f"#/account/{pool}")
    page.click(".amm-link")
    tab.ready()
    check(tab.view() == "amm" and "500 EUR" in page.inner_text("#view"), "the pool's account links to its pool")


def busy_ledger(browser, count=55, listed=50, page_rows=20):
    """Genesis sends `count` payments in one ledger of the quiet server (it closes only when
    told) while the live view is open: the view lists `listed` of them (by hash: a large
    ledger is not expanded); the account's transactions then take pages of `page_rows`."""
    quiet = JsonRpcClient(QUIET)
    tab = Page(browser, QUIET)
    page = tab.open()
    seq = request(AccountInfo(account=GENESIS.address), quiet)["account_data"]["Sequence"]
    for i in range(count):
        pay = Payment(account=GENESIS.address, destination=Wallet.create().address, amount="20000000",
                      sequence=seq + i, fee="10")
        r = xrpl_thread.submit(submit_only, sign(pay, GENESIS), quiet).result().result
        check(r["engine_result"] == "tesSUCCESS", f"payment {i} queued: {r['engine_result']}")
    closed = request(GenericRequest(command="ledger_accept"), quiet)["ledger_current_index"] - 1
    page.wait_for_selector(f"#ledgers [data-ledger='{closed}']", timeout=TIMEOUT_MS)
    card = page.locator(".panel", has=page.locator(f"[data-ledger='{closed}']"))
    text = card.inner_text()
    check(f"{count} transactions" in text and f"and {count - listed} more in #{closed}" in text,
          f"a ledger of {count} transactions shows {listed} of them live: {text[:80]!r}")
    check(card.locator("tbody tr").count() == listed and "fees" not in text, "by hash, not expanded")
    page = tab.open(f"#/account/{GENESIS.address}")
    rows = "#view h2:has-text('Transactions') + .panel tbody tr"
    first = page.locator(rows).count()
    check(first == page_rows, f"the first page of account_tx has {page_rows} rows: {first}")
    page.click("#older")
    page.wait_for_function(
        "n => [...document.querySelectorAll('#view h2')].find(e => e.textContent === 'Transactions')"
        ".nextElementSibling.querySelectorAll('tbody tr').length > n",
        arg=page_rows,
        timeout=TIMEOUT_MS,
    )
    total = page.locator(rows).count()
    check(total == 2 * page_rows, f"'Older transactions' pages on with account_tx's marker: {total} rows")
    check(tab.errors == [], f"no console errors: {tab.errors}")
    tab.page.close()


def hostile_text(tab, who):
    """Markup in a Domain and a memo is shown as text: nothing runs, nothing is refused."""
    markup = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'
    submit(AccountSet(account=who.address, domain=markup.encode().hex()), who)
    pay = Payment(account=who.address, destination=GENESIS.address, amount="1000000",
                  memos=[Memo(memo_data=markup.encode().hex().upper())])
    paid = submit(pay, who)
    page = tab.open(f"#/account/{who.address}")
    check(markup in page.inner_text("#view"), "an account's Domain with markup is shown as text")
    page = tab.open(f"#/tx/{paid['hash']}")
    check(markup in page.inner_text("#view"), "a memo with markup is shown as text")
    check(page.evaluate("window.pwned") is None and page.locator("#view img, #view script").count() == 0, "and nothing of it ran")


def admin_actions(tab):
    page = tab.open()
    page.click("#take-snapshot")
    page.wait_for_selector("#action-out:has-text('Snapshot #')", timeout=TIMEOUT_MS)
    newcomer = Wallet.create(CryptoAlgorithm.SECP256K1)
    page.fill("#fund-address", newcomer.address)
    page.fill("#fund-amount", "250")
    page.click("#fund")
    page.wait_for_selector("#action-out:has-text('Funded')", timeout=TIMEOUT_MS)
    page.click("#close-ledger")
    page.wait_for_selector("#action-out:has-text('Closed ledger')", timeout=TIMEOUT_MS)
    bal = request(AccountInfo(account=newcomer.address, ledger_index="validated"))["account_data"]["Balance"]
    check(bal == "250000000", "the faucet action funded the account with 250 XRP")
    page.click("#revert")
    page.wait_for_selector("#action-out:has-text('Reverted to snapshot')", timeout=TIMEOUT_MS)
    gone = request(AccountInfo(account=newcomer.address)).get("error")
    check(gone == "actNotFound", "reverting to the snapshot undid the funding")


def public_port(browser):
    tab = Page(browser, PUBLIC)
    page = tab.open()
    check(page.locator("#actions").is_hidden() and page.locator("#close-ledger").count() == 0, "a non-admin port offers no actions")
    check(page.locator("#fund").count() == 0, "nor the faucet")
    tab.open(f"#/account/{GENESIS.address}")
    check("Balance" in page.inner_text("#view"), "its account view works")
    check(tab.errors == [], f"no console errors on the public port: {tab.errors}")
    tab.page.close()


def page_cost(browser):
    """What one page view asks of a server that closes no ledger by itself."""
    before = total_requests(QUIET)
    idle = total_requests(QUIET)
    check(idle == before, "no requests until a browser connects")
    tab = Page(browser, QUIET)
    tab.open()
    tab.page.wait_for_timeout(500)
    home = tab.requests()
    check(total_requests(QUIET) - before == home, f"the ledgers view made {home} requests, as the server counted")
    tab.open(f"#/account/{GENESIS.address}")
    tab.page.wait_for_timeout(500)
    account = tab.requests()
    check(total_requests(QUIET) - before == home + account, f"a page load of an account made {account}, as the server counted")
    print(f"page cost: ledgers view {home} requests, account view {account}", flush=True)
    check(tab.errors == [], f"no console errors: {tab.errors}")
    tab.page.close()


def read_node_and_fork(browser):
    """The writer paid 123 XRP to DEST in HASH before the fork was made."""
    tab = Page(browser, READER)
    page = tab.open()
    check(page.locator("#actions").is_hidden() and page.locator("#close-ledger").count() == 0, "a read node offers no actions")
    tab.search(HASH)
    check(tab.view() == "tx" and page.inner_text("#tx-hash") == HASH, "the read node finds the writer's payment by hash")
    tab.search(DEST)
    check("123 XRP" in page.inner_text("#view"), "and shows its destination's balance")
    tab.shot("read-node")
    check(tab.errors == [], f"no console errors on the read node: {tab.errors}")
    tab = Page(browser, FORK)
    page = tab.open(f"#/account/{DEST}")
    check("123 XRP" in page.inner_text("#view"), "the fork shows the account as the writer left it")
    page.click("#close-ledger")
    page.wait_for_selector("#action-out:has-text('Closed ledger')", timeout=TIMEOUT_MS)
    check(True, "the fork, writable, closes a ledger from the page")
    check(tab.errors == [], f"no console errors on the fork: {tab.errors}")


def main():
    os.makedirs(SHOTS, exist_ok=True)
    if FOLLOW:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            read_node_and_fork(browser)
            browser.close()
        summary()
        return
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        tab = Page(browser, ADMIN)
        paid = live_ledgers(tab)
        issuer, holder, payer, payee, gateway = funded(5)
        authorized_line(tab, issuer, holder)
        channel_claim(tab, payer, payee)
        transaction_search(tab, paid)
        book_and_pool(tab, issuer, holder, gateway)
        hostile_text(tab, payee)
        admin_actions(tab)
        check(tab.errors == [], f"no console errors on the admin port: {tab.errors}")
        public_port(browser)
        page_cost(browser)
        busy_ledger(browser)
        browser.close()
    summary()


main()
