//! What an engine printed, on its way from the thread that reads its pipe
//! to the thread that plays: a queue bounded in bytes. An engine printing
//! faster than it is read waits, its pipe full, instead of filling the
//! referee's (or the board's) memory; its clock runs on meanwhile, since
//! moves are timed from `go` to the arrival of `bestmove`.

use super::process::Event;
use std::collections::VecDeque;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Bytes of lines the queue holds before the reader waits. With lines of
/// at most `MAX_LINE` (1 MiB), it never holds more than 5 MiB.
pub const BUDGET: usize = 4 << 20;

/// What one event weighs: the memory of its text and its own size.
fn weight(ev: &Event) -> usize {
    let text = match ev {
        Event::Line(_, s) => s.capacity(),
        _ => 0,
    };
    text + std::mem::size_of::<Event>()
}

#[derive(Default)]
struct State {
    events: VecDeque<Event>,
    bytes: usize,
    /// The reader waits for room (until the queue is down to half).
    reader_waits: bool,
    /// The player waits for an event.
    player_waits: bool,
    sender_gone: bool,
    receiver_gone: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    room: Condvar,
    ready: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The reading end's handle.
pub struct Sender(Arc<Shared>);

/// The playing end's handle.
pub struct Receiver(Arc<Shared>);

/// A new, empty queue.
pub fn inbox() -> (Sender, Receiver) {
    let shared = Arc::new(Shared::default());
    (Sender(shared.clone()), Receiver(shared))
}

impl Sender {
    /// Queues `ev`, first waiting while the queue is full; `Err` when the
    /// receiver is gone (the engine is being dropped).
    pub fn send(&self, ev: Event) -> Result<(), Event> {
        let mut st = self.0.lock();
        if st.bytes >= BUDGET {
            // Wait for half the budget, not one line's room: the two
            // threads then take turns in long runs, not line by line.
            while st.bytes > BUDGET / 2 && !st.receiver_gone {
                st.reader_waits = true;
                st = self.0.room.wait(st).unwrap_or_else(|e| e.into_inner());
            }
            st.reader_waits = false;
        }
        if st.receiver_gone {
            return Err(ev);
        }
        st.bytes += weight(&ev);
        st.events.push_back(ev);
        if st.player_waits {
            self.0.ready.notify_one();
        }
        Ok(())
    }
}

impl Drop for Sender {
    fn drop(&mut self) {
        self.0.lock().sender_gone = true;
        self.0.ready.notify_all();
    }
}

impl Receiver {
    /// The next event, waiting `wait` at most; `Disconnected` once the
    /// sender is gone and every event has been taken.
    pub fn recv_timeout(&self, wait: Duration) -> Result<Event, RecvTimeoutError> {
        let end = Instant::now().checked_add(wait);
        let mut st = self.0.lock();
        loop {
            if let Some(ev) = st.events.pop_front() {
                st.bytes -= weight(&ev);
                if st.reader_waits && st.bytes <= BUDGET / 2 {
                    self.0.room.notify_one();
                }
                return Ok(ev);
            }
            if st.sender_gone {
                return Err(RecvTimeoutError::Disconnected);
            }
            let left = match end {
                Some(e) => e.saturating_duration_since(Instant::now()),
                None => Duration::from_secs(3600),
            };
            if left.is_zero() {
                return Err(RecvTimeoutError::Timeout);
            }
            st.player_waits = true;
            st = match self.0.ready.wait_timeout(st, left) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
            st.player_waits = false;
        }
    }

    /// Bytes queued now (for tests).
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.0.lock().bytes
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.0.lock().receiver_gone = true;
        self.0.room.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: usize) -> Event {
        Event::Line(Instant::now(), "x".repeat(n))
    }

    #[test]
    fn a_reader_far_ahead_waits_and_the_queue_stays_within_its_budget() {
        let (tx, rx) = inbox();
        let sent = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = sent.clone();
        let reader = std::thread::spawn(move || {
            for _ in 0..10_000 {
                tx.send(line(4096)).unwrap();
                count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        });
        // Nobody reads yet: the reader stops once the budget is full.
        let full = BUDGET.div_ceil(weight(&line(4096)));
        let end = Instant::now() + Duration::from_secs(60);
        while sent.load(std::sync::atomic::Ordering::SeqCst) < full {
            assert!(Instant::now() < end, "the reader never filled the queue");
            std::thread::yield_now();
        }
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(sent.load(std::sync::atomic::Ordering::SeqCst), full);
        assert!(rx.bytes() <= BUDGET + weight(&line(4096)));
        let mut got = 0;
        while let Ok(Event::Line(_, s)) = rx.recv_timeout(Duration::from_secs(60)) {
            assert_eq!(s.len(), 4096);
            assert!(rx.bytes() <= BUDGET + weight(&line(4096)));
            got += 1;
        }
        reader.join().unwrap();
        assert_eq!(got, 10_000);
    }

    #[test]
    fn a_dropped_receiver_releases_a_waiting_reader() {
        let (tx, rx) = inbox();
        let reader = std::thread::spawn(move || {
            let mut n = 0;
            while tx.send(line(1 << 20)).is_ok() {
                n += 1;
            }
            n
        });
        assert!(matches!(
            rx.recv_timeout(Duration::from_secs(60)),
            Ok(Event::Line(..))
        ));
        drop(rx);
        assert!(reader.join().unwrap() >= 1);
    }

    #[test]
    fn an_empty_queue_times_out_then_reports_the_end() {
        let (tx, rx) = inbox();
        assert_eq!(
            rx.recv_timeout(Duration::from_millis(10)).unwrap_err(),
            RecvTimeoutError::Timeout
        );
        tx.send(Event::Closed(Instant::now())).unwrap();
        drop(tx);
        assert!(matches!(
            rx.recv_timeout(Duration::ZERO),
            Ok(Event::Closed(_))
        ));
        assert_eq!(
            rx.recv_timeout(Duration::ZERO).unwrap_err(),
            RecvTimeoutError::Disconnected
        );
    }
}
