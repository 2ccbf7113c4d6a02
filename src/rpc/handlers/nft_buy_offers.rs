//! `nft_buy_offers` (rippled `NFTOffers.cpp` `doNFTBuyOffers`): the offers to buy a token.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};

/// Answer nft_buy_offers.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    crate::rpc::nft_offers::handle(ctx, params, false)
}
