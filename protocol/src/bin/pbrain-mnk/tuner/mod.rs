//! The tuner: SPSA over the search's tunables (`pbrain-mnk tune`, see [`crate::cli::tune`]),
//! its state and its update ([`spsa`]); the games it plays are refereed by the library's
//! match manager (`mnk_protocol::manager`).

pub(crate) mod spsa;
