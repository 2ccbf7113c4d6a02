"""Drive a running ledgerd with xrpl-py, unmodified, over HTTP JSON-RPC through the
credential flow of xrpl-py's integration tests (test_credential, test_deposit_preauth,
test_permissioned_domain): create a credential, read it back by ledger_entry, accept it,
preauthorize it for a destination requiring deposit authorization, pay that destination
presenting it (CredentialIDs), delete it.

Usage: py_credential_flow.py http://127.0.0.1:PORT. Exits non-zero (with the failing step)
on any mismatch.
"""

import sys

from xrpl.clients import JsonRpcClient
from xrpl.constants import CryptoAlgorithm
from xrpl.models.requests import AccountObjects, AccountObjectType, DepositAuthorized, LedgerEntry
from xrpl.models.requests.ledger_entry import Credential as CredentialSelector
from xrpl.models.transactions import (
    AccountSet,
    AccountSetAsfFlag,
    CredentialAccept,
    CredentialCreate,
    CredentialDelete,
    DepositPreauth,
    Payment,
    PermissionedDomainDelete,
    PermissionedDomainSet,
)
from xrpl.models.transactions.deposit_preauth import Credential
from xrpl.utils import str_to_hex
from xrpl.wallet import Wallet

from flow_lib import GENESIS, check, submit, summary


def flow(client):
    issuer = Wallet.create(CryptoAlgorithm.SECP256K1)
    subject = Wallet.create(CryptoAlgorithm.ED25519)
    shop = Wallet.create(CryptoAlgorithm.SECP256K1)
    for w in (issuer, subject, shop):
        res, _ = submit(client, Payment(account=GENESIS.address, destination=w.address, amount="1000000000"), GENESIS)
        check(res == "tesSUCCESS", f"genesis funds {w.address}")
    kyc = str_to_hex("KYC")

    res, _ = submit(client, CredentialCreate(account=issuer.address, subject=subject.address, credential_type=kyc, uri=str_to_hex("www.my-id.com/username")), issuer)
    check(res == "tesSUCCESS", f"CredentialCreate: {res}")
    r = client.request(LedgerEntry(credential=CredentialSelector(subject=subject.address, issuer=issuer.address, credential_type=kyc)))
    check(r.is_successful() and r.result["node"]["LedgerEntryType"] == "Credential", f"ledger_entry credential: {r.result}")
    cred_id = r.result["index"]
    objs = client.request(AccountObjects(account=issuer.address, type=AccountObjectType.CREDENTIAL)).result["account_objects"]
    check(len(objs) == 1 and objs[0]["Subject"] == subject.address, "account_objects type credential for the issuer")

    res, _ = submit(client, CredentialAccept(account=subject.address, issuer=issuer.address, credential_type=kyc), subject)
    check(res == "tesSUCCESS", f"CredentialAccept: {res}")
    node = client.request(LedgerEntry(index=cred_id)).result["node"]
    check(node["Flags"] == 0x10000, "accepted (lsfAccepted)")

    res, _ = submit(client, AccountSet(account=shop.address, set_flag=AccountSetAsfFlag.ASF_DEPOSIT_AUTH), shop)
    check(res == "tesSUCCESS", f"the shop requires deposit authorization: {res}")
    res, _ = submit(client, DepositPreauth(account=shop.address, authorize_credentials=[Credential(issuer=issuer.address, credential_type=kyc)]), shop)
    check(res == "tesSUCCESS", f"DepositPreauth by credentials: {res}")
    objs = client.request(AccountObjects(account=shop.address, type=AccountObjectType.DEPOSIT_PREAUTH)).result["account_objects"]
    check(len(objs) == 1 and objs[0]["AuthorizeCredentials"][0]["Credential"]["CredentialType"] == kyc.upper(), f"the preauthorization lists the credential: {objs}")

    da = client.request(DepositAuthorized(source_account=subject.address, destination_account=shop.address, credentials=[cred_id])).result
    check(da["deposit_authorized"] is True, f"deposit_authorized with the credential: {da}")
    res, _ = submit(client, Payment(account=subject.address, destination=shop.address, amount="1000000"), subject)
    check(res == "tecNO_PERMISSION", f"a payment without credentials: {res}")
    res, _ = submit(client, Payment(account=subject.address, destination=shop.address, amount="1000000", credential_ids=[cred_id]), subject)
    check(res == "tesSUCCESS", f"a payment with CredentialIDs: {res}")

    res, _ = submit(client, PermissionedDomainSet(account=shop.address, accepted_credentials=[Credential(issuer=issuer.address, credential_type=kyc)]), shop)
    check(res == "tesSUCCESS", f"PermissionedDomainSet: {res}")
    objs = client.request(AccountObjects(account=shop.address, type=AccountObjectType.PERMISSIONED_DOMAIN)).result["account_objects"]
    check(len(objs) == 1, "account_objects type permissioned_domain")
    res, _ = submit(client, PermissionedDomainDelete(account=shop.address, domain_id=objs[0]["index"]), shop)
    check(res == "tesSUCCESS", f"PermissionedDomainDelete: {res}")

    res, _ = submit(client, CredentialDelete(account=issuer.address, subject=subject.address, credential_type=kyc), issuer)
    check(res == "tesSUCCESS", f"CredentialDelete by the issuer: {res}")
    objs = client.request(AccountObjects(account=subject.address, type=AccountObjectType.CREDENTIAL)).result["account_objects"]
    check(objs == [], "gone from the subject's objects")


def main():
    flow(JsonRpcClient(sys.argv[1]))
    summary()


if __name__ == "__main__":
    main()
