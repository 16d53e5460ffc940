//! Serving a test's fake over real HTTP: an axum app on 127.0.0.1:0, from a
//! runtime on a thread of its own, so a test that blocks on the binary
//! does not block the server. Dropping the handle stops it.
#![allow(dead_code)]

use std::net::SocketAddr;

use axum::Router;
use axum::serve::ListenerExt;

/// A running server.
pub struct Served {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Serves `app` on a free port, calling `on_connect` with each accepted
/// connection (blocks until the server listens).
pub fn serve(
    app: Router,
    on_connect: impl FnMut(&mut tokio::net::TcpStream) + Send + 'static,
) -> Served {
    serve_on(0, app, on_connect)
}

/// [`serve`] on a given port (0: a free one); panics when it is taken.
pub fn serve_on(
    port: u16,
    app: Router,
    on_connect: impl FnMut(&mut tokio::net::TcpStream) + Send + 'static,
) -> Served {
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a server runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
                .await
                .unwrap_or_else(|e| panic!("bind 127.0.0.1:{port}: {e}"));
            addr_tx
                .send(listener.local_addr().expect("addr"))
                .expect("send addr");
            let listener = listener.tap_io(on_connect);
            tokio::select! {
                _ = axum::serve(listener, app) => {}
                _ = stopped => {}
            }
        });
    });
    let addr = addr_rx.recv().expect("the server's address");
    Served {
        addr,
        stop: Some(stop),
    }
}
