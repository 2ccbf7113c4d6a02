//! Every tuned bound of ledgerd, in one place. Prose elsewhere names the constant, never
//! the number. Units and qualifiers come last in the names (`frame_bytes_max`).

/// Deepest nesting the binary decoder accepts: rippled's `STVar` and `STObject`
/// constructors throw "Maximum nesting depth" when a field sits deeper than 10 levels.
pub const CODEC_BINARY_DEPTH_MAX: usize = 10;

/// Deepest nesting the JSON parser accepts: rippled's `STParsedJSON` `maxDepth`
/// ("Field '...' exceeds nesting depth limit.").
pub const CODEC_JSON_DEPTH_MAX: usize = 64;
