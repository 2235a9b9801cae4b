//! Slow clients, kept off the workers. `tiny_http` sets no timeout on a
//! connection's socket and gives no way to set one (the sockets it accepts
//! are its own; a timeout on the listening socket would end its accept
//! loop), so a client that announces a body and sends it slowly or never,
//! or that stops reading a long answer, would hold the worker reading or
//! writing for it. Here a POST's body is read, and every answer written,
//! on a thread of its own: a worker waits for a body at most
//! [`BODY_WAIT`] and never for a write. Those threads are bounded
//! ([`SLOTS`]): past the bound a body is refused (503) and an answer is
//! written on the worker.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Duration;

use tiny_http::Request;

use super::http::{self, Reply};

/// How long a worker waits for a request's body: on loopback a body of
/// the most bytes a request may have comes in milliseconds.
pub const BODY_WAIT: Duration = Duration::from_secs(5);
/// The most threads reading a body or writing an answer at once: each
/// held, at worst, until its client hangs up.
pub const SLOTS: usize = 32;

/// The threads reading a body or writing an answer, counted.
#[derive(Debug, Default, Clone)]
pub struct Slots(Arc<AtomicUsize>);

/// A slot taken, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Slots {
    /// A slot, when fewer than [`SLOTS`] are taken.
    fn take(&self) -> Option<Slot> {
        let counted = |n: usize| (n < SLOTS).then_some(n + 1);
        (self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, counted))
        .ok()
        .map(|_| Slot(self.0.clone()))
    }
}

/// The request and its body ([`http::body_text`]), read on a thread of
/// its own within [`BODY_WAIT`]; `None` when the body did not come in time
/// (that thread answers 408 once the client sends it or hangs up) or no
/// thread could be had (503, answered here).
pub fn body_in_time(slots: &Slots, request: Request) -> Option<(Request, Result<String, Reply>)> {
    let Some(slot) = slots.take() else {
        let busy = Reply::error(503, "the server is reading too many requests; try again");
        busy.send(request);
        return None;
    };
    // No buffer: a body sent is a body received, or the worker has gone.
    let (sender, receiver) = mpsc::sync_channel(0);
    let reader = move || {
        let _slot = slot;
        let mut request = request;
        let body = http::body_text(&mut request);
        if let Err(mpsc::SendError((request, _))) = sender.send((request, body)) {
            let late = Reply::error(
                408,
                format!(
                    "the request's body did not come within {} s",
                    BODY_WAIT.as_secs()
                ),
            );
            late.send(request);
        }
    };
    // A thread that cannot be made drops the request: tiny_http answers 500.
    thread::Builder::new()
        .name("body".into())
        .spawn(reader)
        .ok()?;
    receiver.recv_timeout(BODY_WAIT).ok()
}

/// Writes an answer on a thread of its own (a client that stops reading
/// holds that thread, not the worker); on the worker when every slot is
/// taken.
pub fn respond(slots: &Slots, request: Request, reply: Reply) {
    match slots.take() {
        Some(slot) => {
            let writer = move || {
                let _slot = slot;
                reply.send(request);
            };
            // A thread that cannot be made drops the request: tiny_http
            // answers 500.
            let _ = thread::Builder::new().name("answer".into()).spawn(writer);
        }
        None => reply.send(request),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_bounded_and_given_back() {
        let slots = Slots::default();
        let taken: Vec<Slot> = std::iter::from_fn(|| slots.take())
            .take(SLOTS + 5)
            .collect();
        assert_eq!(taken.len(), SLOTS);
        assert!(slots.take().is_none());
        drop(taken);
        assert!(slots.take().is_some());
        assert_eq!(slots.0.load(Ordering::SeqCst), 0);
    }
}
