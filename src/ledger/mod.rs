//! The pure ledger: entries, keylets, the DashMap-backed state, headers and close.
//! No tokio, no files, no sockets.
