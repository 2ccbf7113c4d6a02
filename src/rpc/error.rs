//! rippled's RPC error table (`ErrorCodes.h` / `ErrorCodes.cpp`): token, number, default
//! message and HTTP status, plus the error value handlers return.
//!
//! Numbers are stable by rippled's policy ("only append"), so they are spelled out here.

use serde_json::{Map, Value};
use std::borrow::Cow;

macro_rules! error_table {
    ($( $variant:ident = $code:literal, $token:literal, $message:literal, $http:literal; )*) => {
        /// One row of rippled's error table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $(
                #[doc = $message]
                $variant,
            )*
        }

        impl ErrorCode {
            /// Every row, in table order (used by the uniqueness test).
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The `error_code` number.
            pub fn code(self) -> i32 {
                match self { $(ErrorCode::$variant => $code,)* }
            }

            /// The `error` token.
            pub fn token(self) -> &'static str {
                match self { $(ErrorCode::$variant => $token,)* }
            }

            /// The default `error_message`.
            pub fn message(self) -> &'static str {
                match self { $(ErrorCode::$variant => $message,)* }
            }

            /// The HTTP status rippled uses only with `ripplerpc >= 3.0` (kept for completeness).
            pub fn http_status(self) -> u16 {
                match self { $(ErrorCode::$variant => $http,)* }
            }
        }
    };
}

error_table! {
    Unknown = -1, "unknown", "An unknown error code.", 200;
    BadSyntax = 1, "badSyntax", "Syntax error.", 400;
    JsonRpc = 2, "json_rpc", "JSON-RPC transport error.", 500;
    Forbidden = 3, "forbidden", "Bad credentials.", 403;
    WrongNetwork = 4, "wrongNetwork", "Wrong network.", 503;
    NoPermission = 6, "noPermission", "You don't have permission for this command.", 401;
    NoEvents = 7, "noEvents", "Current transport does not support events.", 405;
    TooBusy = 9, "tooBusy", "The server is too busy to help you now.", 503;
    SlowDown = 10, "slowDown", "You are placing too much load on the server.", 429;
    HighFee = 11, "highFee", "Current transaction fee exceeds your limit.", 402;
    NotEnabled = 12, "notEnabled", "Not enabled in configuration.", 501;
    NotReady = 13, "notReady", "Not ready to handle this request.", 503;
    AmendmentBlocked = 14, "amendmentBlocked", "Amendment blocked, need upgrade.", 503;
    NoClosed = 15, "noClosed", "Closed ledger is unavailable.", 503;
    NoCurrent = 16, "noCurrent", "Current ledger is unavailable.", 503;
    NoNetwork = 17, "noNetwork", "Not synced to the network.", 503;
    NotSynced = 18, "notSynced", "Not synced to the network.", 503;
    ActNotFound = 19, "actNotFound", "Account not found.", 200;
    LgrNotFound = 21, "lgrNotFound", "Ledger not found.", 404;
    LgrNotValidated = 22, "lgrNotValidated", "Ledger not validated.", 202;
    MasterDisabled = 23, "masterDisabled", "Master key is disabled.", 403;
    TxnNotFound = 29, "txnNotFound", "Transaction not found.", 404;
    InvalidHotWallet = 30, "invalidHotWallet", "Invalid hotwallet.", 400;
    InvalidParams = 31, "invalidParams", "Invalid parameters.", 400;
    UnknownCommand = 32, "unknownCmd", "Unknown method.", 405;
    NoPathRequest = 33, "noPathRequest", "No pathfinding request in progress.", 404;
    ActMalformed = 35, "actMalformed", "Account malformed.", 200;
    AlreadyMultisig = 36, "alreadyMultisig", "Already multisigned.", 200;
    AlreadySingleSig = 37, "alreadySingleSig", "Already single-signed.", 200;
    BadFeature = 40, "badFeature", "Feature unknown or invalid.", 500;
    BadIssuer = 41, "badIssuer", "Issuer account malformed.", 400;
    BadMarket = 42, "badMarket", "No such market.", 404;
    BadSecret = 43, "badSecret", "Secret does not match account.", 403;
    BadSeed = 44, "badSeed", "Disallowed seed.", 403;
    ChannelMalformed = 45, "channelMalformed", "Payment channel is malformed.", 400;
    ChannelAmtMalformed = 46, "channelAmtMalformed", "Payment channel amount is malformed.", 400;
    CommandMissing = 47, "commandMissing", "Missing command entry.", 400;
    DstActMalformed = 48, "dstActMalformed", "Destination account is malformed.", 400;
    DstActMissing = 49, "dstActMissing", "Destination account not provided.", 400;
    DstActNotFound = 50, "dstActNotFound", "Destination account not found.", 404;
    DstAmtMalformed = 51, "dstAmtMalformed", "Destination amount/currency/issuer is malformed.", 400;
    DstAmtMissing = 52, "dstAmtMissing", "Destination amount/currency/issuer is missing.", 400;
    DstIsrMalformed = 53, "dstIsrMalformed", "Destination issuer is malformed.", 400;
    LgrIdxsInvalid = 57, "lgrIdxsInvalid", "Ledger indexes invalid.", 400;
    LgrIdxMalformed = 58, "lgrIdxMalformed", "Ledger index malformed.", 400;
    PublicMalformed = 62, "publicMalformed", "Public key is malformed.", 400;
    SigningMalformed = 63, "signingMalformed", "Signing of transaction is malformed.", 400;
    SendMaxMalformed = 64, "sendMaxMalformed", "SendMax amount malformed.", 400;
    SrcActMalformed = 65, "srcActMalformed", "Source account is malformed.", 400;
    SrcActMissing = 66, "srcActMissing", "Source account not provided.", 400;
    SrcActNotFound = 67, "srcActNotFound", "Source account not found.", 404;
    SrcCurMalformed = 69, "srcCurMalformed", "Source currency is malformed.", 400;
    SrcIsrMalformed = 70, "srcIsrMalformed", "Source issuer is malformed.", 400;
    StreamMalformed = 71, "malformedStream", "Stream malformed.", 400;
    AtxDeprecated = 72, "deprecated", "Use the new API or specify a ledger range.", 400;
    Internal = 73, "internal", "Internal error.", 500;
    NotImpl = 74, "notImpl", "Not implemented.", 501;
    NotSupported = 75, "notSupported", "Operation not supported.", 501;
    BadKeyType = 76, "badKeyType", "Bad key type.", 400;
    DbDeserialization = 77, "dbDeserialization", "Database deserialization error.", 502;
    ExcessiveLgrRange = 78, "excessiveLgrRange", "Ledger range exceeds 1000.", 400;
    InvalidLgrRange = 79, "invalidLgrRange", "Ledger range is invalid.", 400;
    ExpiredValidatorList = 80, "unlBlocked", "Validator list expired.", 503;
    ObjectNotFound = 92, "objectNotFound", "The requested object was not found.", 404;
    IssueMalformed = 93, "issueMalformed", "Issue is malformed.", 400;
    OracleMalformed = 94, "oracleMalformed", "Oracle request is malformed.", 400;
    BadCredentials = 95, "badCredentials", "Credentials do not exist, are not accepted, or have expired.", 400;
    TxSigned = 96, "transactionSigned", "Transaction should not be signed.", 400;
    DomainMalformed = 97, "domainMalformed", "Domain is malformed.", 400;
    EntryNotFound = 98, "entryNotFound", "Entry not found.", 400;
    UnexpectedLedgerType = 99, "unexpectedLedgerType", "Unexpected ledger type.", 400;
    DelegateActNotFound = 68, "delegateActNotFound", "Delegated account not found.", 404;
}

/// What kind of error token a reply carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A row of the table: `error`, `error_code` and `error_message` are all set.
    Table(ErrorCode),
    /// rippled's "bare" errors: only the `error` string (e.g. `notStandAlone`).
    Bare(&'static str),
    /// A custom `error` token with a table row's number (ledger_entry's
    /// `malformedRequest` / `malformedAddress` ... carry `error_code` 31).
    Named(&'static str, ErrorCode),
}

/// An error a handler (or the dispatcher) returns. It becomes `error`, `error_code`,
/// `error_message` plus any fields the handler had already put into its result (rippled
/// injects errors into partially built results, e.g. `ledger_current_index`).
#[derive(Clone, Debug, PartialEq)]
pub struct RpcError {
    /// The token and number.
    pub kind: ErrorKind,
    /// A custom `error_message`; `None` means the table's default.
    pub message: Option<Cow<'static, str>>,
    /// Fields the handler had already built (kept in the reply next to the error).
    pub fields: Map<String, Value>,
}

impl RpcError {
    /// The table's error with its default message.
    pub fn new(code: ErrorCode) -> RpcError {
        RpcError {
            kind: ErrorKind::Table(code),
            message: None,
            fields: Map::new(),
        }
    }

    /// The table's error with a custom message (rippled's `RPC::make_error(code, msg)`).
    pub fn with_message(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> RpcError {
        RpcError {
            kind: ErrorKind::Table(code),
            message: Some(message.into()),
            fields: Map::new(),
        }
    }

    /// A bare error: only the `error` token.
    pub fn bare(token: &'static str) -> RpcError {
        RpcError {
            kind: ErrorKind::Bare(token),
            message: None,
            fields: Map::new(),
        }
    }

    /// A custom token with `code`'s number and the message `message` (rippled's
    /// `LedgerEntryHelpers` errors).
    pub fn named(
        token: &'static str,
        code: ErrorCode,
        message: impl Into<Cow<'static, str>>,
    ) -> RpcError {
        RpcError {
            kind: ErrorKind::Named(token, code),
            message: Some(message.into()),
            fields: Map::new(),
        }
    }

    /// A history database read that failed: `dbDeserialization` when the database is
    /// damaged (rippled answers it when a stored transaction does not read back), else
    /// `internal`. The database's own text (file names, SQLite's words) goes to the log,
    /// not to the client.
    pub fn history_read(e: &crate::store::StoreError) -> RpcError {
        if e.is_history_damage() {
            return RpcError::history_damaged(e);
        }
        tracing::error!("history database read failed: {e}");
        RpcError::with_message(
            ErrorCode::Internal,
            "Internal error: the history database cannot be read.",
        )
    }

    /// `dbDeserialization`: what the history database returned does not read back
    /// (`detail`, logged).
    pub fn history_damaged(detail: impl std::fmt::Display) -> RpcError {
        tracing::error!("history database damaged: {detail}");
        RpcError::with_message(
            ErrorCode::DbDeserialization,
            "Database deserialization error: the history database is damaged.",
        )
    }

    /// `invalidParams` "Missing field '<name>'." (`RPC::missing_field_error`).
    pub fn missing_field(name: &str) -> RpcError {
        RpcError::with_message(ErrorCode::InvalidParams, format!("Missing field '{name}'."))
    }

    /// `invalidParams` "Invalid field '<name>'." (`RPC::invalid_field_error`).
    pub fn invalid_field(name: &str) -> RpcError {
        RpcError::with_message(ErrorCode::InvalidParams, format!("Invalid field '{name}'."))
    }

    /// `invalidParams` "Invalid field '<name>', not <type>." (`RPC::expected_field_error`).
    pub fn expected_field(name: &str, kind: &str) -> RpcError {
        RpcError::with_message(
            ErrorCode::InvalidParams,
            format!("Invalid field '{name}', not {kind}."),
        )
    }

    /// Keep `fields` (already built result members) in the error reply.
    pub fn with_fields(mut self, fields: Map<String, Value>) -> RpcError {
        self.fields = fields;
        self
    }

    /// The `error` token.
    pub fn token(&self) -> &'static str {
        match &self.kind {
            ErrorKind::Table(code) => code.token(),
            ErrorKind::Bare(token) => token,
            ErrorKind::Named(token, _) => token,
        }
    }

    /// The table row, if this is not a bare error.
    pub fn code(&self) -> Option<ErrorCode> {
        match &self.kind {
            ErrorKind::Table(code) | ErrorKind::Named(_, code) => Some(*code),
            ErrorKind::Bare(_) => None,
        }
    }

    /// The object rippled builds: the handler's fields, then `error`, `error_code`,
    /// `error_message` (the last two only for table errors).
    pub fn into_object(self) -> Map<String, Value> {
        let mut out = self.fields;
        match self.kind {
            ErrorKind::Table(code) => {
                out.insert("error".into(), Value::from(code.token()));
                out.insert("error_code".into(), Value::from(code.code()));
                let message = match self.message {
                    Some(m) => m.into_owned(),
                    None => code.message().to_owned(),
                };
                out.insert("error_message".into(), Value::from(message));
            }
            ErrorKind::Bare(token) => {
                out.insert("error".into(), Value::from(token));
            }
            ErrorKind::Named(token, code) => {
                out.insert("error".into(), Value::from(token));
                out.insert("error_code".into(), Value::from(code.code()));
                let message = self.message.map(Cow::into_owned).unwrap_or_default();
                out.insert("error_message".into(), Value::from(message));
            }
        }
        out
    }
}

impl From<ErrorCode> for RpcError {
    fn from(code: ErrorCode) -> RpcError {
        RpcError::new(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn tokens_and_codes_are_unique() {
        let mut codes = HashSet::new();
        let mut tokens = HashSet::new();
        for e in ErrorCode::ALL {
            assert!(codes.insert(e.code()), "duplicate code {}", e.code());
            assert!(tokens.insert(e.token()), "duplicate token {}", e.token());
        }
    }

    #[test]
    fn rows_match_rippled() {
        assert_eq!(ErrorCode::BadKeyType.code(), 76);
        assert_eq!(ErrorCode::UnknownCommand.token(), "unknownCmd");
        assert_eq!(ErrorCode::ExpiredValidatorList.token(), "unlBlocked");
        assert_eq!(ErrorCode::Forbidden.message(), "Bad credentials.");
        let e = RpcError::missing_field("channel_id").into_object();
        assert_eq!(e["error"], "invalidParams");
        assert_eq!(e["error_code"], 31);
        assert_eq!(e["error_message"], "Missing field 'channel_id'.");
        let bare = RpcError::bare("notStandAlone").into_object();
        assert_eq!(bare.len(), 1);
    }
}
