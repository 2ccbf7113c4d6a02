//! PermissionedDomainSet and PermissionedDomainDelete.

pub mod permissioned_domain_delete;
pub mod permissioned_domain_set;
