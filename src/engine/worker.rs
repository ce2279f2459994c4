//! The engine's two threads, leader and follower. The one holding the
//! protocol loop reads input; at a search (perft, bench) it runs the search
//! itself and hands the loop to the idle one: a perft or bench at once, a
//! search once it has run `HAND_OVER_AFTER` (`Parked`), so that a short
//! search (a depth-1 move under a runner) wakes no other thread at all.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a search runs on the thread that read its `go` before the
/// protocol loop goes to the other thread: the longest a line sent during a
/// search (`stop`, `isready`) waits to be read.
pub const HAND_OVER_AFTER: Duration = Duration::from_millis(1);

/// A job for a thread: a search, perft or bench, or the protocol loop to
/// take up.
pub type Task = Box<dyn FnOnce() + Send>;

/// The second thread, and what the two share: cloned by whatever runs on
/// either thread.
#[derive(Clone)]
pub struct Worker {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    /// Signalled when the idle thread is given something, and at the end.
    given: Condvar,
    /// Signalled when a search ends. Apart from `given`, so that the end of
    /// a search no thread waits for wakes nobody.
    ended: Condvar,
}

#[derive(Default)]
struct State {
    /// Given to the idle thread, not yet taken up by it.
    given: Option<Task>,
    /// From `begin` until the search has ended and been dropped (with
    /// whatever it held, such as the hash table).
    busy: bool,
    ended: bool,
    thread: Option<JoinHandle<()>>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits on `cv`, one of the two above.
    fn wait<'a>(&'a self, cv: &Condvar, s: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        (cv.wait(s)).unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until no search runs.
    fn idle(&self) -> MutexGuard<'_, State> {
        let mut s = self.lock();
        while s.busy {
            s = self.wait(&self.ended, s);
        }
        s
    }
}

impl Worker {
    /// Starts the second thread, named `name`, idle until it is given
    /// something; the error when it cannot be started.
    pub fn new(name: &str) -> std::io::Result<Worker> {
        let worker = Worker {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
                given: Condvar::new(),
                ended: Condvar::new(),
            }),
        };
        let theirs = worker.clone();
        let thread = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || theirs.serve())?;
        worker.shared.lock().thread = Some(thread);
        Ok(worker)
    }

    /// Marks a search as running, once the last one has ended (the engine
    /// stops it first): from now `join` waits for `run` to end it.
    pub fn begin(&self) {
        self.shared.idle().busy = true;
    }

    /// Runs the search marked by `begin` on this thread, then marks it
    /// ended. A search that panics must not take the thread with it: the
    /// engine would wait for it for ever. (Searches catch their own panics
    /// and still answer `bestmove`.)
    pub fn run(&self, task: Task) {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(task));
        self.shared.lock().busy = false;
        self.shared.ended.notify_all();
    }

    /// Gives `task` to the idle thread, which is waiting in `serve`.
    pub fn give(&self, task: Task) {
        let mut s = self.shared.lock();
        debug_assert!(s.given.is_none(), "one thing given at a time");
        s.given = Some(task);
        drop(s);
        self.shared.given.notify_all();
    }

    /// Runs what this thread is given until the end.
    pub fn serve(&self) {
        let mut s = self.shared.lock();
        loop {
            if let Some(task) = s.given.take() {
                drop(s);
                // A panic here is the loop's, outside any line (a line's is
                // caught by the loop): the engine it held is dropped, which
                // ends both threads.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(task));
                s = self.shared.lock();
            } else if s.ended {
                return;
            } else {
                s = self.shared.wait(&self.shared.given, s);
            }
        }
    }

    /// Whether the last search has ended.
    pub fn is_finished(&self) -> bool {
        !self.shared.lock().busy
    }

    /// Waits until the last search has ended.
    pub fn join(&self) {
        drop(self.shared.idle());
    }

    /// Tells both threads to end once they are idle, without waiting.
    pub fn end(&self) {
        self.shared.lock().ended = true;
        self.shared.given.notify_all();
    }

    /// After `end`, waits for the second thread to be gone (from any other
    /// thread).
    pub fn join_thread(&self) {
        let thread = self.shared.lock().thread.take();
        if let Some(t) = thread.filter(|t| t.thread().id() != std::thread::current().id()) {
            let _ = t.join();
        }
    }
}

/// A search's hold on the protocol loop (see `HAND_OVER_AFTER`): what hands
/// the loop over, set by the loop before the search runs and called by the
/// search, now and then, through `poll`.
pub struct Parked {
    since: Instant,
    hand_over: Mutex<Option<Task>>,
}

impl Parked {
    /// Counts from now: the search's start.
    pub fn new() -> Parked {
        Parked::since(Instant::now())
    }

    /// Counts from `start`.
    pub fn since(start: Instant) -> Parked {
        Parked {
            since: start,
            hand_over: Mutex::new(None),
        }
    }

    pub fn set(&self, hand_over: Task) {
        *self.lock() = Some(hand_over);
    }

    /// Hands the loop over once the search has run long enough; at most
    /// once.
    pub fn poll(&self) {
        if self.since.elapsed() < HAND_OVER_AFTER {
            return;
        }
        let hand_over = self.lock().take();
        if let Some(f) = hand_over {
            f();
        }
    }

    /// Forgets the hand-over: the search ended before it.
    pub fn clear(&self) {
        drop(self.lock().take());
    }

    fn lock(&self) -> MutexGuard<'_, Option<Task>> {
        self.hand_over.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Default for Parked {
    fn default() -> Parked {
        Parked::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Gives `task` to the second thread as a search, as the engine does
    /// when it is driven line by line.
    fn start(w: &Worker, task: Task) {
        w.begin();
        let theirs = w.clone();
        w.give(Box::new(move || theirs.run(task)));
    }

    #[test]
    fn searches_given_run_one_after_another_on_the_second_thread() {
        let w = Worker::new("test").unwrap();
        let ran = Arc::new(Mutex::new(Vec::new()));
        for i in 0..5 {
            let ran = ran.clone();
            start(
                &w,
                Box::new(move || {
                    ran.lock().unwrap().push((i, std::thread::current().id()));
                }),
            );
        }
        w.join();
        assert!(w.is_finished());
        let ran = ran.lock().unwrap();
        assert_eq!(ran.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
        assert!(ran.iter().all(|r| r.1 == ran[0].1));
        assert_ne!(ran[0].1, std::thread::current().id());
        w.end();
        w.join_thread();
    }

    #[test]
    fn what_a_search_held_is_dropped_when_it_is_joined() {
        let w = Worker::new("test").unwrap();
        let held = Arc::new(());
        let theirs = held.clone();
        start(&w, Box::new(move || drop(theirs)));
        w.join();
        assert_eq!(Arc::strong_count(&held), 1);
        w.end();
        w.join_thread();
    }

    #[test]
    fn a_search_that_panics_leaves_both_threads_serving() {
        let w = Worker::new("test").unwrap();
        start(&w, Box::new(|| panic!("a bad task")));
        w.join();
        // And here, on the thread that did not start the second one.
        w.begin();
        w.run(Box::new(|| panic!("a bad task here")));
        assert!(w.is_finished());
        let n = Arc::new(AtomicUsize::new(0));
        let m = n.clone();
        start(
            &w,
            Box::new(move || {
                m.fetch_add(1, Ordering::SeqCst);
            }),
        );
        w.join();
        assert_eq!(n.load(Ordering::SeqCst), 1);
        w.end();
        w.join_thread();
    }

    #[test]
    fn what_is_given_is_taken_up_until_the_end() {
        // Whichever thread is idle takes up what is given, and gives it on,
        // `ROUNDS` times: the shape of the engine's loop.
        const ROUNDS: usize = 1000;
        fn pass(w: Worker, left: usize, seen: Arc<Mutex<Vec<std::thread::ThreadId>>>) {
            seen.lock().unwrap().push(std::thread::current().id());
            if left == 0 {
                w.end();
                return;
            }
            let theirs = w.clone();
            w.give(Box::new(move || pass(theirs, left - 1, seen)));
        }
        let w = Worker::new("test").unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        pass(w.clone(), ROUNDS, seen.clone());
        w.serve();
        w.join_thread();
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), ROUNDS + 1);
    }

    /// A hold on the loop whose search started long enough ago.
    fn due() -> Parked {
        Parked::since(Instant::now().checked_sub(2 * HAND_OVER_AFTER).unwrap())
    }

    /// A hand-over that counts calls to it.
    fn counting(p: &Parked) -> Arc<AtomicUsize> {
        let calls = Arc::new(AtomicUsize::new(0));
        let c = calls.clone();
        p.set(Box::new(move || {
            c.fetch_add(1, Ordering::SeqCst);
        }));
        calls
    }

    #[test]
    fn a_search_younger_than_the_hand_over_time_keeps_the_loop() {
        // Started in an hour: however slow the machine, it is not yet due.
        let p = Parked::since(Instant::now() + Duration::from_secs(3600));
        let calls = counting(&p);
        p.poll();
        p.poll();
        assert_eq!(calls.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn a_search_older_than_the_hand_over_time_hands_the_loop_over_once() {
        let p = due();
        let calls = counting(&p);
        p.poll();
        p.poll();
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_search_that_ends_first_forgets_the_hand_over() {
        let p = due();
        let calls = counting(&p);
        p.clear();
        p.poll();
        assert_eq!(calls.load(Ordering::SeqCst), 0);
    }
}
