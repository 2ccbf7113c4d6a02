//! The amendment table: every amendment xrpld 3.4.1 knows (its `features.macro` with
//! fixBatchV1_2), each with its ID (the SHA-512-half of its name), xrpld's support and
//! default vote, whether xrpld has retired it, what ledgerd does with its rules, and when
//! the XRP Ledger mainnet enabled it. A [`FeatureSet`] is a set of amendments as a bitset over this table: the rules a
//! ledger is applied under read it once per check, at no cost to speak of.
//! docs/amendments.md gives the rule xrpld follows and its sources.

use std::sync::OnceLock;

use super::hash::sha512_half;
use super::time::parse_close_time;
use super::types::Hash256;

/// The xrpld release whose amendment table this is, as a literal (for `concat!`): every
/// preset follows its rule book, and `build_version` names it.
#[macro_export]
macro_rules! xrpld_release {
    () => {
        "3.4.1"
    };
}

/// The xrpld release whose amendment table this is ([`xrpld_release!`]).
pub const XRPLD_RELEASE: &str = xrpld_release!();

/// The last day the mainnet column records: the day its source, the XRPL Foundation's
/// validator history service as the xrpl.org documentation's `amendments-snapshot.json`
/// holds it, was read (docs/amendments.md). A later amendment may be missing.
pub const MAINNET_RECORDED_TO: &str = "2026-08-18";

/// xrpld's default vote for an amendment (`VoteBehavior`, plus `Supported::No`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vote {
    /// Voted for unless vetoed (`VoteBehavior::DefaultYes`).
    DefaultYes,
    /// Voted for only when up-voted (`VoteBehavior::DefaultNo`).
    DefaultNo,
    /// Never voted for, and no vote can change that (`VoteBehavior::Obsolete`; every
    /// retired amendment is registered so).
    Obsolete,
    /// Known but not supported by xrpld itself (`Supported::No`): never voted for.
    Unsupported,
}

/// What ledgerd does with an amendment's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Both ways: the engine reads the ledger's rules.
    Gated,
    /// The amendment's rules apply whether or not it is enabled (hard-wired on); xrpld has
    /// retired every such amendment it no longer gates, the rest are ledgerd's own debt.
    Applied,
    /// ledgerd lacks the amendment's rules (it applies the rules before it, or lacks the
    /// feature): the amendment cannot be enabled.
    Lacking,
}

macro_rules! amendments {
    ($( $variant:ident = $name:literal, $vote:ident, $retired:literal, $support:ident, $mainnet:expr; )*) => {
        /// An amendment in the table.
        #[allow(non_camel_case_types)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum Feature {
            $(
                #[doc = $name]
                $variant,
            )*
        }

        /// The table, in [`Feature`] order (xrpld's `features.macro` order: newest first,
        /// then the retired fixes and features alphabetically).
        pub const AMENDMENTS: &[Amendment] = &[
            $( Amendment {
                feature: Feature::$variant,
                name: $name,
                vote: Vote::$vote,
                retired: $retired,
                support: Support::$support,
                mainnet: $mainnet,
            }, )*
        ];
    };
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct Amendment {
    /// Its place in the table.
    pub feature: Feature,
    /// xrpld's name.
    pub name: &'static str,
    /// xrpld's default vote.
    pub vote: Vote,
    /// xrpld has retired it (`XRPL_RETIRE_*`): its rules apply unconditionally there.
    pub retired: bool,
    /// What ledgerd does with its rules.
    pub support: Support,
    /// When the XRP Ledger mainnet enabled it (`None`: not as of [`MAINNET_RECORDED_TO`]).
    pub mainnet: Option<Enabled>,
}

/// Where the XRP Ledger mainnet enabled an amendment: its `EnableAmendment`
/// pseudo-transaction and the ledger holding it (a flag ledger's successor), with that
/// ledger's close time. Source: the validator history service's record (docs/amendments.md),
/// matching xrpl.org's Known Amendments page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Enabled {
    /// The ledger whose transactions hold the `EnableAmendment`.
    pub ledger: u32,
    /// That ledger's close time, ISO 8601 UTC.
    pub time: &'static str,
    /// The `EnableAmendment` pseudo-transaction's hash.
    pub tx: &'static str,
}

impl Enabled {
    /// The close time in seconds since the ripple epoch.
    pub fn ripple_secs(&self) -> u32 {
        parse_close_time(self.time).unwrap_or(u32::MAX)
    }
}

/// A mainnet column entry.
const fn on(ledger: u32, time: &'static str, tx: &'static str) -> Option<Enabled> {
    Some(Enabled { ledger, time, tx })
}

amendments! {
    FixBatchV1_2 = "fixBatchV1_2", DefaultYes, false, Gated, None;
    FixPseudoAccountOwnership = "fixPseudoAccountOwnership", DefaultNo, false, Gated, None;
    FixCleanup3_4_0 = "fixCleanup3_4_0", DefaultNo, false, Gated, None;
    Sponsor = "Sponsor", DefaultNo, false, Gated, None;
    BatchV1_1 = "BatchV1_1", DefaultNo, false, Gated, None;
    LendingProtocolV1_1 = "LendingProtocolV1_1", DefaultNo, false, Gated, None;
    ConfidentialTransfer = "ConfidentialTransfer", DefaultNo, false, Gated, None;
    FixCleanup3_3_0 = "fixCleanup3_3_0", DefaultNo, false, Gated, None;
    FixCleanup3_2_0 = "fixCleanup3_2_0", DefaultNo, false, Gated, on(105928705, "2026-07-29T10:01:40Z", "350286C2517CBCA2D66FE785B115462ABCF947F8A3C69AB47EC7BF1E6CDFF862");
    MPTokensV2 = "MPTokensV2", Unsupported, false, Lacking, None;
    FixCleanup3_1_3 = "fixCleanup3_1_3", DefaultYes, false, Gated, on(104507137, "2026-05-27T03:51:20Z", "C8ADF2BC866F9C81C3ED020F51D437CD4FC8E2588EC815AD44C870AD77DD6227");
    LendingProtocol = "LendingProtocol", DefaultNo, false, Gated, None;
    PermissionDelegationV1_1 = "PermissionDelegationV1_1", DefaultNo, false, Gated, None;
    FixDirectoryLimit = "fixDirectoryLimit", DefaultNo, false, Gated, on(100961281, "2025-12-18T15:08:32Z", "602A29FE77442A18F56B6A63A5C25FFD1CBB6930BA37FAC712CE2561CA6EAF8E");
    FixIncludeKeyletFields = "fixIncludeKeyletFields", DefaultNo, false, Gated, on(101852417, "2026-01-27T22:20:10Z", "6D78BF96B28F2A16FF229227A0F0FD555AE25791C64EAAEF6DA0B1AB3D0BA1ED");
    DynamicMPT = "DynamicMPT", DefaultNo, false, Gated, None;
    FixTokenEscrowV1 = "fixTokenEscrowV1", DefaultNo, false, Gated, on(101852417, "2026-01-27T22:20:10Z", "E3B633906B8A9CA2BC9CB9DD832326001BDA02E5B336A640574E01ADD47058E3");
    FixPriceOracleOrder = "fixPriceOracleOrder", DefaultNo, false, Gated, on(101852417, "2026-01-27T22:20:10Z", "5BC2395E779502F3D0D90C26FA3D8AF52BE10BB203BD11830951B893B6C928A0");
    FixMPTDeliveredAmount = "fixMPTDeliveredAmount", DefaultNo, false, Gated, on(101852417, "2026-01-27T22:20:10Z", "56B9F029DD5D65888DD9997D690ED1E2AF46B80B7C9B41FE87CE6AFD9B0E6D08");
    FixAMMClawbackRounding = "fixAMMClawbackRounding", DefaultNo, false, Gated, on(101852417, "2026-01-27T22:20:10Z", "BF67E97DE11F775E9AEEBF3C7D1D20E5D16A35A0F27C2F4CBAF89C4AF2F9FB76");
    TokenEscrow = "TokenEscrow", DefaultNo, false, Gated, on(102204929, "2026-02-12T21:24:40Z", "90A1297408C5F76769626A94242BCBD671E3CCD02ABEF80D92D8C7D7623840D5");
    FixEnforceNFTokenTrustlineV2 = "fixEnforceNFTokenTrustlineV2", DefaultNo, false, Gated, on(98491905, "2025-08-29T14:50:31Z", "2532DC0E750FAA51CC11F58F742A1FB0CDC0F469DEA63EF903EC15D1E39667BE");
    FixAMMv1_3 = "fixAMMv1_3", DefaultNo, false, Gated, on(98491905, "2025-08-29T14:50:31Z", "A695CB5E52B1998193AF044CEDB05C1A68EB7F4F811482C85442E8E63EDA4026");
    PermissionedDEX = "PermissionedDEX", DefaultNo, false, Gated, on(102328065, "2026-02-18T10:58:10Z", "AE56481023FBF05BE5E6272F5D1E1D7BC5239D0A913B981FBE2E302C389A8002");
    SingleAssetVault = "SingleAssetVault", DefaultNo, false, Gated, None;
    FixPayChanCancelAfter = "fixPayChanCancelAfter", DefaultNo, false, Gated, on(98491905, "2025-08-29T14:50:31Z", "21842CFFCD51428997C78056F2EB9B707E2CED45FEFD302084B08C35965D7DB8");
    FixInvalidTxFlags = "fixInvalidTxFlags", DefaultNo, false, Gated, on(96126977, "2025-05-15T01:03:50Z", "D53E906A53C46A9AACFEB0093DF26EFD8634C3DAF50A18930D7910C51FFE3E9D");
    FixFrozenLPTokenTransfer = "fixFrozenLPTokenTransfer", DefaultNo, false, Gated, on(96126977, "2025-05-15T01:03:50Z", "34F11D09E15EC3FE78FFB238EB33030A9E2F2B6233716712A4B7A9D13C55C89A");
    DeepFreeze = "DeepFreeze", DefaultNo, false, Gated, on(95893505, "2025-05-04T12:09:01Z", "976281D793337FF5377A36409F2A1432DADAB64DB5064E12E71B1AC491EA3021");
    PermissionedDomains = "PermissionedDomains", DefaultNo, false, Gated, on(102017793, "2026-02-04T10:06:41Z", "CC30BAB4CDE71E2B07E73AC980D3464F2515E9FBA51489E0B2C89C39D1A51416");
    DynamicNFT = "DynamicNFT", DefaultNo, false, Gated, on(96724737, "2025-06-11T00:13:50Z", "CB5D27363B103D74F4018B5099EF9AD818AEB3634E8692D67F9FDF3CBBA778F5");
    Credentials = "Credentials", DefaultNo, false, Gated, on(98615297, "2025-09-04T03:55:30Z", "182C9331AB917370E9799C9A2946DE15F3E41D81522FBB55A1508829F8933A16");
    AMMClawback = "AMMClawback", DefaultNo, false, Gated, on(93814273, "2025-01-30T19:53:12Z", "8672DFD11FCF79F8E8F92E300187E8E533899ED8C8CF5AFB1A9C518195C16261");
    FixAMMv1_2 = "fixAMMv1_2", DefaultNo, false, Gated, on(93815809, "2025-01-30T21:31:41Z", "71D5031A5BD927BDFE424E51699E69F2784097D615D0852BF20C168BA9B5EA76");
    MPTokensV1 = "MPTokensV1", DefaultNo, false, Gated, on(99226369, "2025-10-01T13:13:10Z", "14853FF2D09D198B576A531C50883C59D71474BA9072C1F5C0ED1DD57882B922");
    FixNFTokenPageLinks = "fixNFTokenPageLinks", DefaultNo, false, Gated, on(93814529, "2025-01-30T20:09:41Z", "2D9A29768A7FA4BAC01DF1941380077E304785279E5E49267EC269F53ABADF5A");
    FixInnerObjTemplate2 = "fixInnerObjTemplate2", DefaultNo, false, Gated, on(93814529, "2025-01-30T20:09:41Z", "426314C8BC64BA339E97E53B278602ADC44F115056274BF7971F694C9A8AF946");
    FixEnforceNFTokenTrustline = "fixEnforceNFTokenTrustline", DefaultNo, false, Gated, on(93814529, "2025-01-30T20:09:41Z", "606FA84C4BA30F67582C11A39BBFC11A9D994E114CD515E9F63FC7D8701A8ED9");
    FixReducedOffersV2 = "fixReducedOffersV2", DefaultNo, false, Gated, on(93815809, "2025-01-30T21:31:41Z", "6D325D5EFF8230F1FECA3EE6418C9678637F3F56B0CA247013F70B3BDCFE75C8");
    NFTokenMintOffer = "NFTokenMintOffer", DefaultNo, false, Gated, on(94166785, "2025-02-15T16:33:20Z", "E74C0196A9D4F193DD2A1DB5CCC5E37D3D43A21E2CB6185F6797E9BF2EDBE36C");
    FixAMMv1_1 = "fixAMMv1_1", DefaultNo, false, Gated, on(90967553, "2024-09-24T12:18:31Z", "8C8F5566464097BF1BAF7C645BB9E1762986844A052BBA3B9769F6564EEFAB71");
    FixPreviousTxnID = "fixPreviousTxnID", DefaultNo, false, Gated, on(91038721, "2024-09-27T16:58:32Z", "C7A9804E1F499ABBF38D791BAD25B1479DB1CEA4E9B6C5C08D6D4EF13F41E171");
    FixXChainRewardRounding = "fixXChainRewardRounding", DefaultNo, false, Gated, None;
    FixEmptyDID = "fixEmptyDID", DefaultNo, false, Gated, on(91038721, "2024-09-27T16:58:32Z", "A858AE8832981D77A4C5038D633CC9CBD54C9764BD2A3F8CA174E02D1736F472");
    PriceOracle = "PriceOracle", DefaultNo, false, Gated, on(91831297, "2024-11-02T04:59:10Z", "05D03F7BF08BF4A915483F7B10EAC7016034656A54A8A6AD4A49A9AD362764A1");
    FixFillOrKill = "fixFillOrKill", DefaultNo, false, Gated, on(87236609, "2024-04-11T12:19:50Z", "3209D6B66D375C23EEBE7C3DD3058B361427148D80C570B8E791D4C76555FA7B");
    DID = "DID", DefaultNo, false, Gated, on(91778561, "2024-10-30T19:57:10Z", "7239CF04E6E1EEC606269135DA3C916B82D4B010F5315E7AEB3D5A3B6B5B343D");
    XChainBridge = "XChainBridge", DefaultNo, false, Gated, None;
    AMM = "AMM", DefaultNo, false, Gated, on(86795265, "2024-03-22T20:11:41Z", "75F52BB86416717288999523063D54E24290EFEA2E99DF78E80A12BD1C8FAC99");
    XRPFees = "XRPFees", DefaultNo, false, Gated, on(86860289, "2024-03-25T17:51:32Z", "4B6047F84B959B64FDD10E22D9E7CCC1EA0D228387462E8FF975B17F7C779021");
    FixRemoveNFTokenAutoTrustLine = "fixRemoveNFTokenAutoTrustLine", DefaultYes, false, Gated, on(75348737, "2022-10-27T16:09:30Z", "2A67DB4AC65D688281B76334C4B52038FD56931694A6DD873B5CCD9B970AD57C");
    Fix1201 = "fix1201", Obsolete, true, Applied, on(34256897, "2017-11-14T21:31:02Z", "B1157116DDDDA9D9B1C4A95C029AC335E05DB052CECCC5CA90118A4D46C77C5E");
    Fix1368 = "fix1368", Obsolete, true, Applied, on(28685313, "2017-03-31T06:27:20Z", "3D20DE5CD19D5966865A7D0405FAC7902A6F623659667D6CB872DF7A94B6EF3F");
    Fix1373 = "fix1373", Obsolete, true, Applied, on(31053825, "2017-07-07T05:28:10Z", "7EBA3852D111EA19D03469F6870FAAEBF84C64F1B9BAC13B041DDD26E28CA399");
    Fix1512 = "fix1512", Obsolete, true, Applied, on(34256897, "2017-11-14T21:31:02Z", "63F69F59BEFDC1D79DBF1E4060601E05960683AA784926FB74BC55074C4F6647");
    Fix1513 = "fix1513", Obsolete, true, Applied, on(37753345, "2018-04-06T01:44:42Z", "57FE540B8B8E2F26CE8B53D1282FEC55E605257E29F5B9EB49E15EA3989FCF6B");
    Fix1515 = "fix1515", Obsolete, true, Applied, on(42114049, "2018-10-09T20:01:11Z", "6DF60D9EC8AF3C39B173840F4D1C57F8A8AB51E7C6571483B4A5F1AA0A9AAEBF");
    Fix1523 = "fix1523", Obsolete, true, Applied, on(34256897, "2017-11-14T21:31:02Z", "97FD0E35654F4B6714010D3CBBAC4038F60D64AD0292693C28A1DF4B796D8469");
    Fix1528 = "fix1528", Obsolete, true, Applied, on(34256897, "2017-11-14T21:31:02Z", "27AEE02DA4FE22B6BB479F850FBBC873FDC7A09A8594753A91B53098D726397E");
    Fix1543 = "fix1543", Obsolete, true, Applied, on(39544065, "2018-06-21T17:37:11Z", "EA6054C9D256657014052F1447216CEA75FFDB1C9342D45EB0F9E372C0F879E6");
    Fix1571 = "fix1571", Obsolete, true, Applied, on(39498497, "2018-06-19T19:14:41Z", "920AA493E57D991414B614FB3C1D1E2F863211B48129D09BC8CB74C9813C38FC");
    Fix1578 = "fix1578", Obsolete, true, Applied, on(46000641, "2019-03-23T02:27:01Z", "7A80C87F59BCE6973CBDCA91E4DBDB0FC5461D3599A8BC8EAD02FA590A50005D");
    Fix1623 = "fix1623", Obsolete, true, Applied, on(39525377, "2018-06-20T22:20:20Z", "4D218D86A2B33E29F17AA9C25D8DFFEE5D2559F75F7C0B1D016D3F2C2220D3EB");
    Fix1781 = "fix1781", Obsolete, true, Applied, on(62759681, "2021-04-08T12:46:31Z", "DA59F10201D651B544F65896330AFACA8CA4198904265AD279D56781F655FAFB");
    FixAmendmentMajorityCalc = "fixAmendmentMajorityCalc", Obsolete, true, Applied, on(62759681, "2021-04-08T12:46:31Z", "5B3ACE6CAC9C56D2008410F1B0881A0A4A8866FB99D2C2B2261C86C760DC95EF");
    FixAMMOverflowOffer = "fixAMMOverflowOffer", Obsolete, true, Applied, on(87232257, "2024-04-11T07:41:50Z", "64144409D991726D108B89D79F9305438D61928A322EF1CD14DC3A5F24CE64BC");
    FixCheckThreading = "fixCheckThreading", Obsolete, true, Applied, on(55161089, "2020-05-01T08:51:01Z", "74AFEA8C17D25CA883D40F998757CA3B0DB1AC86794335BAA25FF20E00C2C30A");
    FixDisallowIncomingV1 = "fixDisallowIncomingV1", Obsolete, true, Applied, on(87236609, "2024-04-11T12:19:50Z", "50286B4B9C95331A48D3AD517E1FD3299308C6B696C85E096A73A445E9EB1BFB");
    FixInnerObjTemplate = "fixInnerObjTemplate", Obsolete, true, Applied, on(87172097, "2024-04-08T15:27:52Z", "EC67D9DF8D06067A76E8F8F43BC036B5E0267568F8D92624A658AC01A8186235");
    FixMasterKeyAsRegularKey = "fixMasterKeyAsRegularKey", Obsolete, true, Applied, on(50428929, "2019-10-02T07:37:50Z", "61096F8B5AFDD8F5BAF7FC7221BA4D1849C4E21B1BA79733E44B12FC8DA6EA20");
    FixNonFungibleTokensV1_2 = "fixNonFungibleTokensV1_2", Obsolete, true, Applied, on(81986305, "2023-08-21T05:59:11Z", "3AB0892CAB29F049B9D9E5D522701FD01469D0B97080626F8DD4B489D0B8784E");
    FixNFTokenRemint = "fixNFTokenRemint", Obsolete, true, Applied, on(84206081, "2023-11-27T14:44:30Z", "CA4562711E4679FE9317DD767871E90A404C7A8B84FAFD35EC2CF0231F1F6DAF");
    FixNFTokenReserve = "fixNFTokenReserve", Obsolete, true, Applied, on(87259137, "2024-04-12T12:21:20Z", "D708CF1799A27CB982F16FCE4762DD12738737A61E5850480BA51400280E06C4");
    FixPayChanRecipientOwnerDir = "fixPayChanRecipientOwnerDir", Obsolete, true, Applied, on(55161089, "2020-05-01T08:51:01Z", "D2F8E457D08ACB185CDE3BB9BB1989A9052344678566785BACFB9DFDBDEDCF09");
    FixQualityUpperBound = "fixQualityUpperBound", Obsolete, true, Applied, on(56691969, "2020-07-09T05:12:40Z", "5F8E9E9B175BB7B95F529BEFE3C84253E78DAF6076078EC450A480C861F6889E");
    FixReducedOffersV1 = "fixReducedOffersV1", Obsolete, true, Applied, on(84145409, "2023-11-24T22:24:21Z", "87723D9D01AFAD8E55C944D7D1598969A8FBD852FCACAE361A40CBF5D4CB3BB1");
    FixRmSmallIncreasedQOffers = "fixRmSmallIncreasedQOffers", Obsolete, true, Applied, on(67784193, "2021-11-18T17:31:01Z", "1F37BA0502576DD7B5464F47641FA95DEB55735EC2663269DFD47810505478E7");
    FixSTAmountCanonicalize = "fixSTAmountCanonicalize", Obsolete, true, Applied, on(67639553, "2021-11-11T23:08:00Z", "AFF17321A012C756B64FCC3BA0FDF79109F28E244D838A28D5AE8A0384C7C532");
    FixTakerDryOfferRemoval = "fixTakerDryOfferRemoval", Obsolete, true, Applied, on(46257665, "2019-04-02T21:17:41Z", "C42335E95F1BD2009A2C090EA57BD7FB026AD285B4B85BE15F669BA4F70D11AF");
    FixTrustLinesToSelf = "fixTrustLinesToSelf", Obsolete, true, Applied, on(81986305, "2023-08-21T05:59:11Z", "4F4C05142CA1DE257CD86513086F0C99FAF06D80932377C6B6C02B3D09623A43");
    FixUniversalNumber = "fixUniversalNumber", Obsolete, true, Applied, on(81986305, "2023-08-21T05:59:11Z", "EFE82B7155CE5B766AF343D98DAE6662C2713C99E760D610370D02338881B2F3");
    Checks = "Checks", Obsolete, true, Applied, on(56219905, "2020-06-18T00:23:20Z", "D88F2DCDFB10023F9F6CBA8DF34C18E321D655CAC8FDB962387A5DB1540242A6");
    CheckCashMakesTrustLine = "CheckCashMakesTrustLine", Obsolete, true, Applied, on(77310209, "2023-01-23T13:09:40Z", "4C8546305583F72E056120B136EB251E7F45E8DFAAE65FDA33B22181A9CA4557");
    Clawback = "Clawback", Obsolete, true, Applied, on(85829633, "2024-02-08T14:38:01Z", "C6BCCE60DFA4430A1F9097D774EA49E6FEFB1B535BA0EF9170DA0F2D08CDDB11");
    CryptoConditions = "CryptoConditions", Obsolete, true, Applied, on(26718721, "2017-01-03T22:47:40Z", "2ADDE791F38385F165EB656228BB117F20D9E8215C31CC9A6589936C1581A207");
    CryptoConditionsSuite = "CryptoConditionsSuite", Obsolete, true, Applied, None;
    DeletableAccounts = "DeletableAccounts", Obsolete, true, Applied, on(55313921, "2020-05-08T04:29:30Z", "47B90519D31E0CB376B5FEE5D9359FA65EEEB2289F1952F2A3EB71D623B945DE");
    DepositAuth = "DepositAuth", Obsolete, true, Applied, on(37753345, "2018-04-06T01:44:42Z", "902C51270B918B40CD23A622E18D48B4ABB86F0FF4E84D72D9E1907BF3BD4B25");
    DepositPreauth = "DepositPreauth", Obsolete, true, Applied, on(42114049, "2018-10-09T20:01:11Z", "AD27403CB840AE67CADDB084BC54249D7BD1B403885819B39CCF723DC671F927");
    DisallowIncoming = "DisallowIncoming", Obsolete, true, Applied, on(81986305, "2023-08-21T05:59:11Z", "8747EF67D8CC1CA72A88817FBDF454507C3D9E8F0702D8E2B614958AE27A1D4E");
    Escrow = "Escrow", Obsolete, true, Applied, on(28685313, "2017-03-31T06:27:20Z", "C581E0A3F3832FFFEEB13C497658F475566BD7695B0BBA531A774E6739801515");
    EnforceInvariants = "EnforceInvariants", Obsolete, true, Applied, on(31054081, "2017-07-07T05:42:12Z", "17593B03F7D3283966F3C0ACAF4984F26E9D884C9A202097DAED0523908E76C6");
    ExpandedSignerList = "ExpandedSignerList", Obsolete, true, Applied, on(75035393, "2022-10-13T15:34:42Z", "802E2446547BB86397217E32A78CB9857F21B048B91C81BCC6EF837BE9C72C87");
    FeeEscalation = "FeeEscalation", Obsolete, true, Applied, on(21225473, "2016-05-19T16:44:51Z", "5B1F1E8E791A9C243DD728680F108FEF1F28F21BA3B202B8F66E7833CA71D3C3");
    Flow = "Flow", Obsolete, true, Applied, on(24970753, "2016-10-21T19:47:22Z", "C06CE3CABA3907389E4DD296C5F31C73B1548CC20BD7B83416C78CD7D4CD38FC");
    FlowCross = "FlowCross", Obsolete, true, Applied, on(57286657, "2020-08-04T16:50:01Z", "44C4B040448D89B6C5A5DEC97C17FEDC2E590BA094BC7DB63B7FDC888B9ED78F");
    FlowSortStrands = "FlowSortStrands", Obsolete, true, Applied, on(67639809, "2021-11-11T23:25:10Z", "1C3D3BD2AFDAF326EBFEA54579A89B024856609DB4310F7140086AAB262D09A1");
    HardenedValidations = "HardenedValidations", Obsolete, true, Applied, on(62759681, "2021-04-08T12:46:31Z", "3A45DCF055B68DCBBFE034240F9359FB22E8A64B1BF7113304535BF5BB8144BF");
    ImmediateOfferKilled = "ImmediateOfferKilled", Obsolete, true, Applied, on(81986305, "2023-08-21T05:59:11Z", "65B8A4068B20696A866A07E5668B2AEB0451564E13B79421356FB962EC9A536B");
    MultiSign = "MultiSign", Obsolete, true, Applied, on(22178817, "2016-06-27T23:34:41Z", "168F8B15F643395E59B9977FC99D6310E8708111C85659A9BAF8B9222EEAC5A7");
    MultiSignReserve = "MultiSignReserve", Obsolete, true, Applied, on(46599937, "2019-04-17T10:09:00Z", "C421E1D08EFD78E6B8D06B085F52A34A681D0B51AE62A018527E1B8F54C108FB");
    NegativeUNL = "NegativeUNL", Obsolete, true, Applied, on(67849217, "2021-11-21T18:38:51Z", "1500FADB73E7148191216C53040990E829C7110788B26E7F3246CB3660769EBA");
    NonFungibleTokensV1_1 = "NonFungibleTokensV1_1", Obsolete, true, Applied, on(75443457, "2022-10-31T20:50:50Z", "251242639A640CD9287A14A476E7F7C20BA009FDE410570926BAAF29AA05CEDE");
    PayChan = "PayChan", Obsolete, true, Applied, on(28685313, "2017-03-31T06:27:20Z", "16135C0B4AB2419B89D4FB4569B8C37FF76B9EF9CE0DD99CCACB5734445AFD7E");
    RequireFullyCanonicalSig = "RequireFullyCanonicalSig", Obsolete, true, Applied, on(56564737, "2020-07-03T14:58:01Z", "94D8B158E948148B949CC3C35DD5DC4791D799E1FD5D3CE0E570160EDEF947D3");
    SortedDirectories = "SortedDirectories", Obsolete, true, Applied, on(34256897, "2017-11-14T21:31:02Z", "6E2309C156EBF94D03B83D282A3914671BF9168FB26463CFECD068C63FFFAB29");
    TicketBatch = "TicketBatch", Obsolete, true, Applied, on(67785985, "2021-11-18T19:30:22Z", "111B32EDADDE916206E7315FBEE2DA1521B229F207F65DD314829F13C8D9CA36");
    TickSize = "TickSize", Obsolete, true, Applied, on(27841793, "2017-02-21T23:02:52Z", "A12430E470BE5C846759EAE3C442FF03374D5D73ECE5815CF4906894B769565E");
    TrustSetAuth = "TrustSetAuth", Obsolete, true, Applied, on(22721281, "2016-07-19T22:10:32Z", "0E589DE43C38AED63B64FF3DA87D349A038F1821212D370E403EB304C76D70DF");
}

const _: () = assert!(AMENDMENTS.len() <= 128, "a FeatureSet holds 128 amendments");

impl Feature {
    /// Its row.
    pub fn info(self) -> &'static Amendment {
        &AMENDMENTS[self as usize]
    }

    /// xrpld's name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Its ID: the SHA-512-half of its name (rippled's `registerFeature`).
    pub fn id(self) -> Hash256 {
        ids()[self as usize]
    }

    /// The amendment named `name` (exactly, as xrpld's `getRegisteredFeature`).
    pub fn by_name(name: &str) -> Option<Feature> {
        AMENDMENTS
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.feature)
    }

    /// The amendment whose ID is `id`.
    pub fn by_id(id: &Hash256) -> Option<Feature> {
        ids()
            .iter()
            .position(|x| x == id)
            .map(|i| AMENDMENTS[i].feature)
    }

    /// The amendment a name or a 64-digit hex ID names (case-insensitive hex).
    pub fn parse(s: &str) -> Option<Feature> {
        Feature::by_name(s).or_else(|| Feature::by_id(&Hash256::from_hex(s)?))
    }

    /// Every amendment, in table order.
    pub fn all() -> impl Iterator<Item = Feature> {
        AMENDMENTS.iter().map(|a| a.feature)
    }
}

fn ids() -> &'static [Hash256] {
    static IDS: OnceLock<Vec<Hash256>> = OnceLock::new();
    IDS.get_or_init(|| {
        AMENDMENTS
            .iter()
            .map(|a| sha512_half(&[a.name.as_bytes()]))
            .collect()
    })
}

/// A set of amendments of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FeatureSet([u64; 2]);

impl FeatureSet {
    /// No amendment.
    pub const EMPTY: FeatureSet = FeatureSet([0, 0]);

    /// Whether `f` is in the set.
    #[inline]
    pub fn contains(&self, f: Feature) -> bool {
        let i = f as usize;
        self.0[i / 64] & (1u64 << (i % 64)) != 0
    }

    /// Adds `f`.
    pub fn insert(&mut self, f: Feature) {
        let i = f as usize;
        self.0[i / 64] |= 1u64 << (i % 64);
    }

    /// Removes `f`.
    pub fn remove(&mut self, f: Feature) {
        let i = f as usize;
        self.0[i / 64] &= !(1u64 << (i % 64));
    }

    /// Both sets' amendments.
    pub fn union(self, other: FeatureSet) -> FeatureSet {
        FeatureSet([self.0[0] | other.0[0], self.0[1] | other.0[1]])
    }

    /// True when it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.0 == [0, 0]
    }

    /// Its amendments, in table order.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::all().filter(move |f| self.contains(*f))
    }

    /// Its amendments' IDs in ascending order: how xrpld lists them (`getDesired` sorts,
    /// and an Amendments entry holds them so).
    pub fn sorted_ids(self) -> Vec<Hash256> {
        let mut v: Vec<Hash256> = self.iter().map(Feature::id).collect();
        v.sort();
        v
    }

    /// Its amendments' IDs in the order a mainnet ledger's Amendments entry holds them:
    /// xrpld appends each amendment as it is enabled (`Change::applyAmendment`), and the
    /// `EnableAmendment` pseudo-transactions of one ledger apply in canonical order, which
    /// for them (one account, sequence 0) is by transaction hash (`CanonicalTXSet`). So:
    /// by enabling ledger, then by that hash; amendments mainnet has not enabled last, by ID.
    pub fn mainnet_ordered_ids(self) -> Vec<Hash256> {
        let mut v: Vec<(u32, &str, Hash256)> = self
            .iter()
            .map(|f| match f.info().mainnet {
                Some(e) => (e.ledger, e.tx, f.id()),
                None => (u32::MAX, "", f.id()),
            })
            .collect();
        v.sort();
        v.into_iter().map(|(_, _, id)| id).collect()
    }

    /// The amendments the XRP Ledger mainnet had enabled at `ripple_secs` (seconds since
    /// the ripple epoch): those whose enabling ledger closed then or before.
    pub fn mainnet_at(ripple_secs: u32) -> FeatureSet {
        FeatureSet::filter(|a| a.mainnet.is_some_and(|e| e.ripple_secs() <= ripple_secs))
    }

    /// Every amendment whose row satisfies `pred`.
    pub fn filter(pred: impl Fn(&Amendment) -> bool) -> FeatureSet {
        AMENDMENTS
            .iter()
            .filter(|a| pred(a))
            .map(|a| a.feature)
            .collect()
    }

    /// Its amendments ledgerd lacks the rules of.
    pub fn lacking(self) -> Vec<&'static str> {
        self.iter()
            .filter(|f| f.info().support == Support::Lacking)
            .map(Feature::name)
            .collect()
    }
}

impl FromIterator<Feature> for FeatureSet {
    fn from_iter<I: IntoIterator<Item = Feature>>(iter: I) -> FeatureSet {
        let mut s = FeatureSet::EMPTY;
        for f in iter {
            s.insert(f);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_the_hash_of_the_name() {
        // rippled's well-known IDs.
        assert_eq!(
            Feature::MultiSign.id().to_hex(),
            "4C97EBA926031A7CF7D7B36FDE3ED66DDA5421192D63DE53FFB46E43B9DC8373"
        );
        assert_eq!(
            Feature::AMM.id().to_hex(),
            "8CC0774A3BF66D1D22E76BBDA8E8A232E6B6313834301B3B23E8601196AE6455"
        );
        assert_eq!(
            Feature::FixBatchV1_2.id().to_hex(),
            "14A2B45E48A4A124D1BBA657AC7B0DC3D5EA8C256C89E8F0D8142D32960A7944"
        );
        let names: std::collections::HashSet<_> = AMENDMENTS.iter().map(|a| a.name).collect();
        assert_eq!(names.len(), AMENDMENTS.len(), "no duplicates");
        for (i, a) in AMENDMENTS.iter().enumerate() {
            assert_eq!(a.feature as usize, i, "{} in table order", a.name);
            assert_eq!(a.retired, a.vote == Vote::Obsolete, "{}", a.name);
        }
    }

    #[test]
    fn lookups_by_name_and_id() {
        assert_eq!(Feature::by_name("fixAMMv1_3"), Some(Feature::FixAMMv1_3));
        assert_eq!(Feature::by_name("fixammv1_3"), None, "names are exact");
        let hex = Feature::XRPFees.id().to_hex().to_lowercase();
        assert_eq!(Feature::parse(&hex), Some(Feature::XRPFees));
        assert_eq!(Feature::parse("nope"), None);
    }

    #[test]
    fn the_mainnet_column_reads_as_the_network_recorded_it() {
        let enabled: Vec<(&Amendment, Enabled)> = AMENDMENTS
            .iter()
            .filter_map(|a| Some((a, a.mainnet?)))
            .collect();
        assert_eq!(enabled.len(), 93, "as of {MAINNET_RECORDED_TO}");
        let mut by_ledger = enabled.clone();
        by_ledger.sort_by_key(|(_, e)| (e.ledger, e.tx));
        for w in by_ledger.windows(2) {
            let ((a, x), (b, y)) = (w[0], w[1]);
            assert!(x.ripple_secs() <= y.ripple_secs(), "{} {}", a.name, b.name);
            assert!(x.tx != y.tx, "{} {}", a.name, b.name);
        }
        for (a, e) in &enabled {
            // An EnableAmendment is in the ledger after a flag ledger (every 256th).
            assert_eq!(e.ledger % 256, 1, "{}", a.name);
            assert!(parse_close_time(e.time).is_some(), "{}", a.name);
            assert!(Hash256::from_hex(e.tx).is_some(), "{}", a.name);
        }
        // Every retired amendment but one was enabled on mainnet; xrpld retired
        // CryptoConditionsSuite without it ever being enabled.
        let never: Vec<&str> = AMENDMENTS
            .iter()
            .filter(|a| a.retired && a.mainnet.is_none())
            .map(|a| a.name)
            .collect();
        assert_eq!(never, vec!["CryptoConditionsSuite"]);
        assert_eq!(XRPLD_RELEASE, "3.4.1");
    }

    #[test]
    fn mainnet_as_of_a_time_in_its_append_order() {
        let at = |iso: &str| FeatureSet::mainnet_at(parse_close_time(iso).expect("time"));
        assert!(
            at("2016-05-19T16:44:50Z").is_empty(),
            "a second before the first"
        );
        let first = at("2016-05-19T16:44:51Z");
        assert_eq!(
            first.iter().collect::<Vec<_>>(),
            vec![Feature::FeeEscalation]
        );
        let amm = at("2024-03-22T20:11:41Z");
        assert!(amm.contains(Feature::AMM) && !amm.contains(Feature::XRPFees));
        // One ledger enabled PayChan, fix1368 and Escrow: they apply by transaction hash.
        let ids = at("2017-03-31T23:59:59Z").mainnet_ordered_ids();
        let names: Vec<&str> = ids
            .iter()
            .filter_map(|id| Feature::by_id(id).map(Feature::name))
            .collect();
        assert_eq!(
            names,
            [
                "FeeEscalation",
                "MultiSign",
                "TrustSetAuth",
                "Flow",
                "CryptoConditions",
                "TickSize",
                "PayChan",
                "fix1368",
                "Escrow"
            ]
        );
        // What mainnet never enabled comes last.
        let mut s: FeatureSet = [Feature::Sponsor, Feature::Flow].into_iter().collect();
        s.insert(Feature::FeeEscalation);
        let ids = s.mainnet_ordered_ids();
        assert_eq!(ids.last(), Some(&Feature::Sponsor.id()));
        assert_eq!(ids[0], Feature::FeeEscalation.id());
    }

    #[test]
    fn sets() {
        let mut s = FeatureSet::EMPTY;
        assert!(s.is_empty());
        s.insert(Feature::TrustSetAuth);
        s.insert(Feature::MPTokensV2);
        assert!(s.contains(Feature::TrustSetAuth) && s.contains(Feature::MPTokensV2));
        assert!(!s.contains(Feature::AMM));
        assert_eq!(s.iter().count(), 2);
        let ids = s.sorted_ids();
        assert!(ids[0] < ids[1]);
        assert_eq!(s.lacking(), vec!["MPTokensV2"]);
        s.remove(Feature::MPTokensV2);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![Feature::TrustSetAuth]);
    }
}
