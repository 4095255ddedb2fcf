//! The signals that ask a long tool to stop: Ctrl-C (SIGINT) and, on Unix, SIGTERM (what
//! `kill`, a job scheduler or a container's shutdown sends). Both end a proof, a match or
//! the web board the same way: it saves or reports what it has, then exits.

/// Resolves when one of the stop signals arrives; never, if no handler could be installed
/// (then the process ends only when killed, as it would without one).
pub(crate) async fn stop_requested() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        () = interrupt => {}
        () = terminate() => {}
    }
}

#[cfg(unix)]
async fn terminate() {
    use tokio::signal::unix::{SignalKind, signal};
    match signal(SignalKind::terminate()) {
        Ok(mut stream) => {
            stream.recv().await;
        }
        Err(_) => std::future::pending::<()>().await,
    }
}

#[cfg(not(unix))]
async fn terminate() {
    std::future::pending::<()>().await;
}
