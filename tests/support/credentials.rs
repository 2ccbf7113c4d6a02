//! Credential builders (XLS-70) and what takes credentials (XLS-80 permissioned domains,
//! DepositPreauth by credentials), shared by the credential, deposit-authorization,
//! permissioned-DEX and API tests.

use super::engine::{Tx, Who};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::AccountId;

/// CredentialCreate: the sender issues a credential of type `t` to `subject`.
pub fn create(subject: &impl Who, t: &[u8]) -> Tx {
    Tx::new("CredentialCreate")
        .account("Subject", &subject.account_id())
        .blob("CredentialType", t)
}

/// CredentialAccept: the sender accepts `issuer`'s credential of type `t`.
pub fn accept(issuer: &impl Who, t: &[u8]) -> Tx {
    Tx::new("CredentialAccept")
        .account("Issuer", &issuer.account_id())
        .blob("CredentialType", t)
}

/// An array of `Credential` objects, one per `(issuer, type)`.
pub fn creds_array(pairs: &[(AccountId, &[u8])]) -> StValue {
    StValue::Array(
        pairs
            .iter()
            .map(|(issuer, t)| {
                let mut o = StObject::new();
                o.set(Field::named("Issuer"), StValue::AccountId(*issuer));
                o.set(Field::named("CredentialType"), StValue::Blob(t.to_vec()));
                (Field::named("Credential"), o)
            })
            .collect(),
    )
}

/// `tx` with the array field `field` holding one `Credential` per `(issuer, type)`.
pub fn with_creds(mut tx: Tx, field: &str, pairs: &[(AccountId, &[u8])]) -> Tx {
    tx.0.set(Field::named(field), creds_array(pairs));
    tx
}

/// PermissionedDomainSet creating a domain that accepts these credentials.
pub fn domain_set(pairs: &[(AccountId, &[u8])]) -> Tx {
    with_creds(
        Tx::new("PermissionedDomainSet"),
        "AcceptedCredentials",
        pairs,
    )
}
