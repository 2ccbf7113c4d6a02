//! The pure transaction engine: the transactor pipeline and one file per transaction
//! type. No tokio, no files, no sockets.
