//! The RPC layer: envelopes, the one handler table, errors, parameter parsing, masking,
//! and one handler file per method under `handlers/`.
