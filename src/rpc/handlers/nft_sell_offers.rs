//! `nft_sell_offers` (rippled `NFTOffers.cpp` `doNFTSellOffers`): the offers to sell a
//! token.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};

/// Answer nft_sell_offers.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    crate::rpc::nft_offers::handle(ctx, params, true)
}
