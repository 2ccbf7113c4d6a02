//! A caller's role (rippled `Role.h`): what the handler table requires and what the
//! transports decide for each request.

/// A caller's role, and the role a method requires (rippled's USER and ADMIN; the secure-
/// gateway roles IDENTIFIED and PROXY are not implemented).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Anyone (rippled's GUEST caller, USER requirement).
    User,
    /// A caller inside one of the port's admin networks.
    Admin,
}
