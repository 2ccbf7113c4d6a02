//! Every tuned bound of ledgerd, in one place. Prose elsewhere names the constant, never
//! the number. Units and qualifiers come last in the names (`frame_bytes_max`).
