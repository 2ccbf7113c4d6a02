//! `validation_create` (rippled `ValidationCreate.cpp`): admin; the validator key pair of a
//! seed, in every form rippled prints: `validation_seed` (base58 family seed),
//! `validation_key` (the seed as RFC 1751 words), `validation_public_key` (node public key,
//! `n...`) and `validation_private_key` (node private key, `p...`). The pair is the
//! secp256k1 root pair of the seed, untweaked (`generateSecretKey(secp256k1, seed)`), not
//! an account's. `secret` is read as rippled's `parseGenericSeed` reads it (hex, base58
//! seed, RFC 1751 words, else a passphrase); without it the seed is random. Nothing here is
//! logged; the request's `secret` is masked in the reply's echo like every secret.

use crate::protocol::base58::{self, version};
use crate::protocol::keys::{KeyPair, KeyType};
use crate::protocol::seed::{parse_generic_seed, Seed};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::as_string;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer the validator keys of `secret`, or of a random seed.
pub fn handle(_ctx: &Context, params: &Params) -> HandlerResult {
    let bad_seed = || RpcError::new(ErrorCode::BadSeed);
    let seed = match params.get("secret") {
        None => Seed::random(),
        Some(v) => {
            let text = as_string(v).ok_or_else(|| RpcError::invalid_field("secret"))?;
            parse_generic_seed(&text).ok_or_else(bad_seed)?
        }
    };
    let pair = KeyPair::node_from_seed(&seed).map_err(|_| bad_seed())?;
    let private = base58::encode(version::NODE_PRIVATE, pair.secret().expose_secret());
    let mut out = Map::new();
    out.insert("validation_key".into(), Value::from(seed.to_rfc1751()));
    out.insert("validation_private_key".into(), Value::from(private));
    out.insert(
        "validation_public_key".into(),
        Value::from(pair.public.to_node_base58()),
    );
    out.insert(
        "validation_seed".into(),
        Value::from(seed.to_base58(KeyType::Secp256k1)),
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn create(secret: &str) -> Map<String, Value> {
        let cpu = crate::rpc::cpu_pool::CpuPool::new(1, 4).unwrap();
        let services = crate::rpc::context::Services::standalone(Default::default(), cpu);
        let ctx = Context {
            role: crate::rpc::role::Role::Admin,
            api_version: 1,
            transport: crate::rpc::context::Transport::Http,
            session: None,
            services: std::sync::Arc::new(services),
            forwarded: None,
            raw_json: false,
        };
        let mut params = Params::new();
        params.insert("secret".into(), Value::from(secret));
        handle(&ctx, &params).unwrap()
    }

    /// rippled's `Seed_test` ("Node keypair generation & signing (secp256k1)") and
    /// `PublicKey_test` vectors for the seed of "masterpassphrase".
    #[test]
    fn the_masterpassphrase_vector() {
        let want = [
            ("validation_key", "I IRE BOND BOW TRIO LAID SEAT GOAL HEN IBIS IBIS DARE"),
            ("validation_private_key", "pnen77YEeUd4fFKG7iycBWcwKpTaeFRkW2WFostaATy1DSupwXe"),
            ("validation_public_key", "n94a1u4jAz288pZLtw6yFWVbi89YamiC6JBXPVUj5zmExe5fTVg9"),
            ("validation_seed", "snoPBrXtMeMyMHUVTgbuqAfg1SUTb"),
        ];
        // The same seed in each of the forms `secret` takes.
        for secret in [
            "masterpassphrase",
            "snoPBrXtMeMyMHUVTgbuqAfg1SUTb",
            "DEDCE9CE67B451D852FD4E846FCDE31C",
            "I IRE BOND BOW TRIO LAID SEAT GOAL HEN IBIS IBIS DARE",
        ] {
            let out = create(secret);
            for (k, v) in want {
                assert_eq!(out[k], v, "{secret}: {k}");
            }
        }
    }
}
