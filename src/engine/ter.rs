//! Transaction results: rippled's `TER` codes with their names, numbers (`TER.h`,
//! `definitions.json`) and messages (`TER.cpp`).

macro_rules! ters {
    ($($name:ident = $num:expr, $msg:expr;)*) => {
        /// A transaction result code.
        #[allow(non_camel_case_types)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Ter {
            $(
                #[doc = $msg]
                $name,
            )*
        }

        impl Ter {
            /// The number (`engine_result_code`).
            pub fn code(self) -> i32 {
                match self { $(Ter::$name => $num,)* }
            }
            /// The name (`engine_result`).
            pub fn name(self) -> &'static str {
                match self { $(Ter::$name => stringify!($name),)* }
            }
            /// The human message (`engine_result_message`).
            pub fn message(self) -> &'static str {
                match self { $(Ter::$name => $msg,)* }
            }
            /// The code with that number, if this subset knows it.
            pub fn from_code(code: i32) -> Option<Ter> {
                match code { $($num => Some(Ter::$name),)* _ => None }
            }
            /// Every code this subset knows.
            pub const ALL: &'static [Ter] = &[$(Ter::$name,)*];
        }
    };
}

ters! {
    telLOCAL_ERROR = -399, "Local failure.";
    telBAD_DOMAIN = -398, "Domain too long.";
    telBAD_PATH_COUNT = -397, "Malformed: Too many paths.";
    telBAD_PUBLIC_KEY = -396, "Public key is not valid.";
    telFAILED_PROCESSING = -395, "Failed to correctly process transaction.";
    telINSUF_FEE_P = -394, "Fee insufficient.";
    telNO_DST_PARTIAL = -393, "Partial payment to create account not allowed.";
    telCAN_NOT_QUEUE = -392, "Can not queue at this time.";
    telCAN_NOT_QUEUE_BALANCE = -391, "Can not queue at this time: insufficient balance to pay all queued fees.";
    telCAN_NOT_QUEUE_BLOCKS = -390, "Can not queue at this time: would block later queued transaction(s).";
    telCAN_NOT_QUEUE_BLOCKED = -389, "Can not queue at this time: blocking transaction in queue.";
    telCAN_NOT_QUEUE_FEE = -388, "Can not queue at this time: fee insufficient to replace queued transaction.";
    telCAN_NOT_QUEUE_FULL = -387, "Can not queue at this time: queue is full.";
    telWRONG_NETWORK = -386, "Transaction specifies a Network ID that differs from that of the local node.";
    telREQUIRES_NETWORK_ID = -385, "Transactions submitted to this node/network must include a correct NetworkID field.";
    telNETWORK_ID_MAKES_TX_NON_CANONICAL = -384, "Transactions submitted to this node/network must NOT include a NetworkID field.";

    temMALFORMED = -299, "Malformed transaction.";
    temBAD_AMOUNT = -298, "Malformed: Bad amount.";
    temBAD_CURRENCY = -297, "Malformed: Bad currency.";
    temBAD_EXPIRATION = -296, "Malformed: Bad expiration.";
    temBAD_FEE = -295, "Invalid fee, negative or not XRP.";
    temBAD_ISSUER = -294, "Malformed: Bad issuer.";
    temBAD_LIMIT = -293, "Limits must be non-negative.";
    temBAD_OFFER = -292, "Malformed: Bad offer.";
    temBAD_PATH = -291, "Malformed: Bad path.";
    temBAD_PATH_LOOP = -290, "Malformed: Loop in path.";
    temBAD_REGKEY = -289, "Malformed: Regular key cannot be same as master key.";
    temBAD_SEND_XRP_LIMIT = -288, "Malformed: Limit quality is not allowed for XRP to XRP.";
    temBAD_SEND_XRP_MAX = -287, "Malformed: Send max is not allowed for XRP to XRP.";
    temBAD_SEND_XRP_NO_DIRECT = -286, "Malformed: No Ripple direct is not allowed for XRP to XRP.";
    temBAD_SEND_XRP_PARTIAL = -285, "Malformed: Partial payment is not allowed for XRP to XRP.";
    temBAD_SEND_XRP_PATHS = -284, "Malformed: Paths are not allowed for XRP to XRP.";
    temBAD_SEQUENCE = -283, "Malformed: Sequence is not in the past.";
    temBAD_SIGNATURE = -282, "Malformed: Bad signature.";
    temBAD_SRC_ACCOUNT = -281, "Malformed: Bad source account.";
    temBAD_TRANSFER_RATE = -280, "Malformed: Transfer rate must be >= 1.0 and <= 2.0";
    temDST_IS_SRC = -279, "Destination may not be source.";
    temDST_NEEDED = -278, "Destination not specified.";
    temINVALID = -277, "The transaction is ill-formed.";
    temINVALID_FLAG = -276, "The transaction has an invalid flag.";
    temREDUNDANT = -275, "The transaction is redundant.";
    temRIPPLE_EMPTY = -274, "PathSet with no paths.";
    temDISABLED = -273, "The transaction requires logic that is currently disabled.";
    temBAD_SIGNER = -272, "Malformed: No signer may duplicate account or other signers.";
    temBAD_QUORUM = -271, "Malformed: Quorum is unreachable.";
    temBAD_WEIGHT = -270, "Malformed: Weight must be a positive value.";
    temBAD_TICK_SIZE = -269, "Malformed: Tick size out of range.";
    temINVALID_ACCOUNT_ID = -268, "Malformed: A field contains an invalid account ID.";
    temINVALID_COUNT = -266, "Malformed: Count field outside valid range.";
    temCANNOT_PREAUTH_SELF = -267, "Malformed: An account may not preauthorize itself.";
    temUNKNOWN = -264, "The transaction requires logic that is not implemented yet.";
    temSEQ_AND_TICKET = -263, "Transaction contains a TicketSequence and a non-zero Sequence.";
    temBAD_NFTOKEN_TRANSFER_FEE = -262, "Malformed: The NFToken transfer fee must be between 1 and 5000, inclusive.";
    temBAD_AMM_TOKENS = -261, "Malformed: Invalid LPTokens.";
    temXCHAIN_EQUAL_DOOR_ACCOUNTS = -260, "Malformed: Bridge must have unique door accounts.";
    temXCHAIN_BAD_PROOF = -259, "Malformed: Bad cross-chain claim proof.";
    temXCHAIN_BRIDGE_BAD_ISSUES = -258, "Malformed: Bad bridge issues.";
    temXCHAIN_BRIDGE_NONDOOR_OWNER = -257, "Malformed: Bridge owner must be one of the door accounts.";
    temXCHAIN_BRIDGE_BAD_MIN_ACCOUNT_CREATE_AMOUNT = -256, "Malformed: Bad min account create amount.";
    temXCHAIN_BRIDGE_BAD_REWARD_AMOUNT = -255, "Malformed: Bad reward amount.";
    temEMPTY_DID = -254, "Malformed: No DID data provided.";
    temARRAY_EMPTY = -253, "Malformed: Array is empty.";
    temARRAY_TOO_LARGE = -252, "Malformed: Array is too large.";
    temBAD_TRANSFER_FEE = -251, "Malformed: Transfer fee is outside valid range.";
    temINVALID_INNER_BATCH = -250, "Malformed: Invalid inner batch transaction.";
    temBAD_CIPHERTEXT = -248, "Malformed: Invalid ciphertext.";

    tefFAILURE = -199, "Failed to apply.";
    tefALREADY = -198, "The exact transaction was already in this ledger.";
    tefBAD_ADD_AUTH = -197, "Not authorized to add account.";
    tefBAD_AUTH = -196, "Transaction's public key is not authorized.";
    tefBAD_LEDGER = -195, "Ledger in unexpected state.";
    tefCREATED = -194, "Can't add an already created account.";
    tefEXCEPTION = -193, "Unexpected program state.";
    tefINTERNAL = -192, "Internal error.";
    tefNO_AUTH_REQUIRED = -191, "Auth is not required.";
    tefPAST_SEQ = -190, "This sequence number has already passed.";
    tefWRONG_PRIOR = -189, "This previous transaction does not match.";
    tefMASTER_DISABLED = -188, "Master key is disabled.";
    tefMAX_LEDGER = -187, "Ledger sequence too high.";
    tefBAD_SIGNATURE = -186, "A signature is provided for a non-signer.";
    tefBAD_QUORUM = -185, "Signatures provided do not meet the quorum.";
    tefNOT_MULTI_SIGNING = -184, "Account has no appropriate list of multi-signers.";
    tefBAD_AUTH_MASTER = -183, "Auth for unclaimed account needs correct master key.";
    tefINVARIANT_FAILED = -182, "Fee claim violated invariants for the transaction.";
    tefTOO_BIG = -181, "Transaction affects too many items.";
    tefNO_TICKET = -180, "Ticket is not in ledger.";
    tefNFTOKEN_IS_NOT_TRANSFERABLE = -179, "The specified NFToken is not transferable.";
    tefINVALID_LEDGER_FIX_TYPE = -178, "The LedgerFixType field has an invalid value.";

    terRETRY = -99, "Retry transaction.";
    terFUNDS_SPENT = -98, "DEPRECATED.";
    terINSUF_FEE_B = -97, "Account balance can't pay fee.";
    terNO_ACCOUNT = -96, "The source account does not exist.";
    terNO_AUTH = -95, "Not authorized to hold IOUs.";
    terNO_LINE = -94, "No such line.";
    terOWNERS = -93, "Non-zero owner count.";
    terPRE_SEQ = -92, "Missing/inapplicable prior transaction.";
    terLAST = -91, "DEPRECATED.";
    terNO_RIPPLE = -90, "Path does not permit rippling.";
    terQUEUED = -89, "Held until escalated fee drops.";
    terPRE_TICKET = -88, "Ticket is not yet in ledger.";
    terNO_AMM = -87, "AMM doesn't exist for the asset pair.";
    terNO_DELEGATE_PERMISSION = -85, "Delegated account lacks permission to perform this transaction.";
    terADDRESS_COLLISION = -86, "Failed to allocate an unique account address.";
    terNO_PERMISSION = -83, "No permission to perform requested operation.";

    tesSUCCESS = 0, "The transaction was applied. Only final in a validated ledger.";

    tecCLAIM = 100, "Fee claimed. Sequence used. No action.";
    tecPATH_PARTIAL = 101, "Path could not send full amount.";
    tecUNFUNDED_ADD = 102, "DEPRECATED.";
    tecUNFUNDED_OFFER = 103, "Insufficient balance to fund created offer.";
    tecUNFUNDED_PAYMENT = 104, "Insufficient XRP balance to send.";
    tecFAILED_PROCESSING = 105, "Failed to correctly process transaction.";
    tecDIR_FULL = 121, "Can not add entry to full directory.";
    tecINSUF_RESERVE_LINE = 122, "Insufficient reserve to add trust line.";
    tecINSUF_RESERVE_OFFER = 123, "Insufficient reserve to create offer.";
    tecNO_DST = 124, "Destination does not exist. Send XRP to create it.";
    tecNO_DST_INSUF_XRP = 125, "Destination does not exist. Too little XRP sent to create it.";
    tecNO_LINE_INSUF_RESERVE = 126, "No such line. Too little reserve to create it.";
    tecNO_LINE_REDUNDANT = 127, "Can't set non-existent line to default.";
    tecPATH_DRY = 128, "Path could not send partial amount.";
    tecUNFUNDED = 129, "Not enough XRP to satisfy the reserve requirement.";
    tecNO_ALTERNATIVE_KEY = 130, "The operation would remove the ability to sign transactions with the account.";
    tecNO_REGULAR_KEY = 131, "Regular key is not set.";
    tecOWNERS = 132, "Non-zero owner count.";
    tecNO_ISSUER = 133, "Issuer account does not exist.";
    tecNO_AUTH = 134, "Not authorized to hold asset.";
    tecNO_LINE = 135, "No such line.";
    tecINSUFF_FEE = 136, "Insufficient balance to pay fee.";
    tecFROZEN = 137, "Asset is frozen.";
    tecNO_TARGET = 138, "Target account does not exist.";
    tecNO_PERMISSION = 139, "No permission to perform requested operation.";
    tecNO_ENTRY = 140, "No matching entry found.";
    tecINSUFFICIENT_RESERVE = 141, "Insufficient reserve to complete requested operation.";
    tecNEED_MASTER_KEY = 142, "The operation requires the use of the Master Key.";
    tecDST_TAG_NEEDED = 143, "A destination tag is required.";
    tecINTERNAL = 144, "An internal error has occurred during processing.";
    tecOVERSIZE = 145, "Object exceeded serialization limits.";
    tecCRYPTOCONDITION_ERROR = 146, "Malformed, invalid, or mismatched conditional or fulfillment.";
    tecINVARIANT_FAILED = 147, "One or more invariants for the transaction were not satisfied.";
    tecEXPIRED = 148, "Expiration time is passed.";
    tecDUPLICATE = 149, "Ledger object already exists.";
    tecKILLED = 150, "No funds transferred and no offer created.";
    tecHAS_OBLIGATIONS = 151, "The account cannot be deleted since it has obligations.";
    tecTOO_SOON = 152, "It is too early to attempt the requested operation. Please wait.";
    tecMAX_SEQUENCE_REACHED = 154, "The maximum sequence number was reached.";
    tecNO_SUITABLE_NFTOKEN_PAGE = 155, "A suitable NFToken page could not be located.";
    tecNFTOKEN_BUY_SELL_MISMATCH = 156, "The 'Buy' and 'Sell' NFToken offers are mismatched.";
    tecNFTOKEN_OFFER_TYPE_MISMATCH = 157, "The type of NFToken offer is incorrect.";
    tecCANT_ACCEPT_OWN_NFTOKEN_OFFER = 158, "An NFToken offer cannot be claimed by its owner.";
    tecINSUFFICIENT_FUNDS = 159, "Not enough funds available to complete requested transaction.";
    tecOBJECT_NOT_FOUND = 160, "A requested object could not be located.";
    tecINSUFFICIENT_PAYMENT = 161, "The payment is not sufficient.";
    tecUNFUNDED_AMM = 162, "Insufficient balance to fund AMM.";
    tecAMM_BALANCE = 163, "AMM has invalid balance.";
    tecAMM_FAILED = 164, "AMM transaction failed.";
    tecAMM_INVALID_TOKENS = 165, "AMM invalid LP tokens.";
    tecAMM_EMPTY = 166, "AMM is in empty state.";
    tecAMM_NOT_EMPTY = 167, "AMM is not in empty state.";
    tecAMM_ACCOUNT = 168, "This operation is not allowed on an AMM Account.";
    tecINCOMPLETE = 169, "Some work was completed, but more submissions required to finish.";
    tecEMPTY_DID = 187, "The DID object did not have a URI or DIDDocument field.";
    tecINVALID_UPDATE_TIME = 188, "The Oracle object has invalid LastUpdateTime field.";
    tecTOKEN_PAIR_NOT_FOUND = 189, "Token pair is not found in Oracle object.";
    tecARRAY_EMPTY = 190, "Array is empty.";
    tecARRAY_TOO_LARGE = 191, "Array is too large.";
    tecLOCKED = 192, "Fund is locked.";
    tecBAD_CREDENTIALS = 193, "Bad credentials.";
    tecPSEUDO_ACCOUNT = 196, "This operation is not allowed against a pseudo-account.";
    tecWRONG_ASSET = 194, "Wrong asset given.";
    tecLIMIT_EXCEEDED = 195, "Limit exceeded.";
    tecPRECISION_LOSS = 197, "The amounts used by the transaction cannot interact.";
    tecBAD_PROOF = 199, "Proof cannot be verified.";
    tecNO_SPONSOR_PERMISSION = 200, "The sponsor has not given permission for this sponsorship.";
    tecXCHAIN_BAD_TRANSFER_ISSUE = 170, "Bad xchain transfer issue.";
    tecXCHAIN_NO_CLAIM_ID = 171, "No such xchain claim id.";
    tecXCHAIN_BAD_CLAIM_ID = 172, "Bad xchain claim id.";
    tecXCHAIN_CLAIM_NO_QUORUM = 173, "Quorum was not reached on the xchain claim.";
    tecXCHAIN_PROOF_UNKNOWN_KEY = 174, "Unknown key for the xchain proof.";
    tecXCHAIN_CREATE_ACCOUNT_NONXRP_ISSUE = 175, "Only XRP may be used for xchain create account.";
    tecXCHAIN_WRONG_CHAIN = 176, "XChain Transaction was submitted to the wrong chain.";
    tecXCHAIN_REWARD_MISMATCH = 177, "The reward amount must match the reward specified in the xchain bridge.";
    tecXCHAIN_NO_SIGNERS_LIST = 178, "The account did not have a signers list.";
    tecXCHAIN_SENDING_ACCOUNT_MISMATCH = 179, "The sending account did not match the expected sending account.";
    tecXCHAIN_INSUFF_CREATE_AMOUNT = 180, "Insufficient amount to create an account.";
    tecXCHAIN_ACCOUNT_CREATE_PAST = 181, "The account create count has already passed.";
    tecXCHAIN_ACCOUNT_CREATE_TOO_MANY = 182, "There are too many pending account create transactions to submit a new one.";
    tecXCHAIN_PAYMENT_FAILED = 183, "Failed to transfer funds in a xchain transaction.";
    tecXCHAIN_SELF_COMMIT = 184, "Account cannot commit funds to itself.";
    tecXCHAIN_BAD_PUBLIC_KEY_ACCOUNT_PAIR = 185, "Bad public key account pair in an xchain transaction.";
    tecXCHAIN_CREATE_ACCOUNT_DISABLED = 186, "This bridge does not support account creation.";
}

impl Ter {
    /// tes: success.
    pub fn is_tes(self) -> bool {
        self == Ter::tesSUCCESS
    }
    /// tec: failed, but the fee is claimed and the transaction is in the ledger.
    pub fn is_tec(self) -> bool {
        (100..=255).contains(&self.code())
    }
    /// tem: malformed.
    pub fn is_tem(self) -> bool {
        (-299..=-200).contains(&self.code())
    }
    /// tef: fails against the current state.
    pub fn is_tef(self) -> bool {
        (-199..=-100).contains(&self.code())
    }
    /// tel: local.
    pub fn is_tel(self) -> bool {
        (-399..=-300).contains(&self.code())
    }
    /// ter: might succeed later.
    pub fn is_ter(self) -> bool {
        (-99..=-1).contains(&self.code())
    }
    /// tes or tec: written to the ledger.
    pub fn is_applied(self) -> bool {
        self.is_tes() || self.is_tec()
    }
    /// `Ok(())` for tesSUCCESS, `Err(self)` for any other result: a step's result, to
    /// pass a failure up with `?` (rippled's `if (!isTesSuccess(ter)) return ter;`).
    pub fn into_result(self) -> Result<(), Ter> {
        if self == Ter::tesSUCCESS {
            Ok(())
        } else {
            Err(self)
        }
    }
}

/// Back from [`Ter::into_result`]: tesSUCCESS for `Ok(())`, the code for `Err`. A phase
/// or helper written with `?` returns `Result<(), Ter>`; where a plain `Ter` is wanted
/// (the registry's phase pointers) `Ter::from` gives it.
impl From<Result<(), Ter>> for Ter {
    fn from(r: Result<(), Ter>) -> Ter {
        match r {
            Ok(()) => Ter::tesSUCCESS,
            Err(t) => t,
        }
    }
}

impl std::fmt::Display for Ter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::definitions::defs;

    #[test]
    fn numbers_match_definitions_json() {
        let d = defs();
        for t in Ter::ALL {
            if let Some(n) = d.transaction_results.get(t.name()) {
                assert_eq!(*n, t.code(), "{}", t.name());
            }
            assert_eq!(Ter::from_code(t.code()), Some(*t));
        }
        assert_eq!(
            d.transaction_results["tecPATH_DRY"],
            Ter::tecPATH_DRY.code()
        );
        assert!(Ter::tecOWNERS.is_tec() && Ter::tecOWNERS.is_applied());
        assert!(!Ter::tefNO_AUTH_REQUIRED.is_applied());
    }

    #[test]
    fn result_form_round_trips() {
        assert_eq!(Ter::tesSUCCESS.into_result(), Ok(()));
        for t in Ter::ALL {
            assert_eq!(Ter::from(t.into_result()), *t);
            assert_eq!(t.into_result().is_ok(), t.is_tes());
        }
        fn steps(first: Ter, second: Ter) -> Result<(), Ter> {
            first.into_result()?;
            second.into_result()
        }
        assert_eq!(
            steps(Ter::tecNO_LINE, Ter::tesSUCCESS),
            Err(Ter::tecNO_LINE)
        );
        assert_eq!(
            steps(Ter::tesSUCCESS, Ter::temMALFORMED),
            Err(Ter::temMALFORMED)
        );
        assert_eq!(
            Ter::from(steps(Ter::tesSUCCESS, Ter::tesSUCCESS)),
            Ter::tesSUCCESS
        );
    }
}
