//! A caller's role (rippled `Role.h`): what the handler table requires and what the
//! transports decide for each request.

/// A caller's role, and the role a method requires (rippled's `Role`; its FORBID is the
/// transports' refusal, not a role here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Anyone (rippled's GUEST caller, USER requirement).
    User,
    /// A caller from one of the port's secure gateways that names no user (rippled's
    /// PROXY): limited as a guest, charged as the client the gateway forwards for.
    Proxy,
    /// A caller from a secure gateway that names a user with `X-User` (rippled's
    /// IDENTIFIED): unlimited like an admin, but no admin.
    Identified,
    /// A caller inside one of the port's admin networks.
    Admin,
}

impl Role {
    /// rippled's `isUnlimited`: admins and identified callers get past the limit clamps
    /// and throttles.
    pub fn is_unlimited(self) -> bool {
        matches!(self, Role::Admin | Role::Identified)
    }
}

/// What a secure gateway says of the caller it forwards (rippled's `context.headers`):
/// the `X-User` it names and the client address its `Forwarded` / `X-Forwarded-For`
/// header names, each empty when it names none. Handlers see it only for PROXY and
/// IDENTIFIED callers, as in rippled, which clears it for everyone else.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forwarded {
    /// The `X-User` header's value.
    pub user: String,
    /// The client address, as the header spells it (rippled `forwardedFor`).
    pub client: String,
}
