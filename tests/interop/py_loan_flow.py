"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through a loan's
life under the server's default rules (LendingProtocolV1_1 on), the way xrpl-py's
test_lending_protocol does: a closed-ended XRP vault takes a deposit while it subscribes
and invests once time travel has passed its SubscriptionDate; a broker over it lends to a
borrower whose signer list (two signers) co-signs the LoanSet with
sign_loan_set_by_counterparty and combine_loanset_counterparty_signers (autofill counts
one base fee per co-signer); the loan is listed for the borrower; LoanDelete of a
running loan is tecHAS_OBLIGATIONS; impairing it on time is tecTOO_SOON
(fixCleanup3_4_0); once time travel has passed its due date the owner impairs it; the
borrower's LoanPay pays it off (and unimpairs it); the owner deletes it.

Usage: py_loan_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step) on
any mismatch.
"""

import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.requests import AccountObjects, GenericRequest, LedgerEntry, ServerState
from xrpl.models.transactions import (
    LoanBrokerSet,
    LoanDelete,
    LoanManage,
    LoanPay,
    LoanSet,
    Payment,
    SignerEntry,
    SignerListSet,
)
from xrpl.models.transactions.loan_manage import LoanManageFlag
from xrpl.models.transactions.loan_pay import LoanPayFlag
from xrpl.transaction import (
    autofill_and_sign,
    combine_loanset_counterparty_signers,
    sign_loan_set_by_counterparty,
)
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, investing_vault, summary
from flow_lib import submit as submit_and_read


def result(client, tx, wallet):
    return submit_and_read(client, tx, wallet)[0]


def flow(client):
    owner = Wallet.create(CryptoAlgorithm.SECP256K1)
    depositor = Wallet.create(CryptoAlgorithm.SECP256K1)
    borrower = Wallet.create(CryptoAlgorithm.ED25519)
    signers = [Wallet.create(CryptoAlgorithm.SECP256K1) for _ in range(2)]
    for w in [owner, depositor, borrower, *signers]:
        res = result(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")
    validated = client.request(ServerState()).result["state"]["validated_ledger"]
    base = int(validated["base_fee"])
    entries = [SignerEntry(account=s.address, signer_weight=1) for s in signers]
    res = result(client, SignerListSet(account=borrower.address, signer_quorum=2, signer_entries=entries), borrower)
    check(res == "tesSUCCESS", f"the borrower's signer list: {res}")

    vault_id = investing_vault(client, owner, depositor, "100000000")
    res = result(client, LoanBrokerSet(account=owner.address, vault_id=vault_id), owner)
    check(res == "tesSUCCESS", f"LoanBrokerSet: {res}")
    broker_id = client.request(AccountObjects(account=owner.address, type="loan_broker")).result["account_objects"][0]["index"]

    tx = LoanSet(account=owner.address, loan_broker_id=broker_id, principal_requested="50000000", counterparty=borrower.address)
    signed = autofill_and_sign(tx, client, owner)
    check(signed.fee == str(base * 3), f"autofill's fee counts both co-signers: {signed.fee}")
    parts = [sign_loan_set_by_counterparty(s, signed, multisign=True).tx for s in signers]
    combined = combine_loanset_counterparty_signers(parts)
    res = result(client, combined.tx, None)
    check(res == "tesSUCCESS", f"LoanSet co-signed by the borrower's signers: {res}")
    loans = client.request(AccountObjects(account=borrower.address, type="loan")).result["account_objects"]
    check(len(loans) == 1 and loans[0]["PrincipalOutstanding"] == "50000000", f"the borrower's loan: {loans}")
    loan_id = loans[0]["index"]
    vault = client.request(LedgerEntry(index=vault_id)).result["node"]
    check(vault["AssetsTotal"] == "100000000", f"cash basis: no interest in AssetsTotal: {vault}")

    res = result(client, LoanDelete(account=owner.address, loan_id=loan_id), owner)
    check(res == "tecHAS_OBLIGATIONS", f"LoanDelete of a running loan: {res}")
    impair = LoanManage(account=owner.address, loan_id=loan_id, flags=LoanManageFlag.TF_LOAN_IMPAIR)
    res = result(client, impair, owner)
    check(res == "tecTOO_SOON", f"LoanManage impair of a loan on time: {res}")
    due = client.request(LedgerEntry(index=loan_id)).result["node"]["NextPaymentDueDate"]
    client.request(GenericRequest(command="ledger_accept", close_time=due + 10))
    res = result(client, impair, owner)
    check(res == "tesSUCCESS", f"LoanManage impair of an overdue loan: {res}")
    node = client.request(LedgerEntry(index=loan_id)).result["node"]
    check(node["Flags"] == 0x20000, f"the loan is impaired: {node['Flags']}")
    pay = LoanPay(account=borrower.address, loan_id=loan_id, amount="50000000")
    res = result(client, pay, borrower)
    check(res == "tecEXPIRED", f"LoanPay of an overdue loan without tfLoanLatePayment: {res}")
    late = LoanPay(
        account=borrower.address,
        loan_id=loan_id,
        amount="50000000",
        flags=LoanPayFlag.TF_LOAN_LATE_PAYMENT,
    )
    res = result(client, late, borrower)
    check(res == "tesSUCCESS", f"LoanPay late: {res}")
    node = client.request(LedgerEntry(index=loan_id)).result["node"]
    check(node["Flags"] == 0 and "PaymentRemaining" not in node, f"paid off and unimpaired: {node}")
    res = result(client, LoanDelete(account=owner.address, loan_id=loan_id), owner)
    check(res == "tesSUCCESS", f"LoanDelete: {res}")
    loans = client.request(AccountObjects(account=borrower.address, type="loan")).result["account_objects"]
    check(loans == [], "no loan left")


if __name__ == "__main__":
    flow(JsonRpcClient(sys.argv[1]))
    summary()
