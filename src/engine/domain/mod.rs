//! PermissionedDomainSet and PermissionedDomainDelete.

pub mod permissioned_domain_delete;
pub mod permissioned_domain_set;

use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;

/// Most AcceptedCredentials of a PermissionedDomain (rippled
/// `maxPermissionedDomainCredentialsArraySize`).
pub const DOMAIN_CREDENTIALS_MAX: usize = 10;

/// The PermissionedDomain at `key`, if that key holds one.
pub fn domain_at(view: &dyn ReadView, key: &Hash256) -> Option<StObject> {
    view.read(key)
        .filter(|d| d.u16_of(sf().ledger_entry_type) == Some(lt::PERMISSIONED_DOMAIN))
        .map(|d| (*d).clone())
}
