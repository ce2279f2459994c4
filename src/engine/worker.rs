//! The thread that runs the engine's searches, perfts and benches, one at
//! a time, for the engine's whole life: a `go` wakes it rather than
//! creating a thread (a stack mapped, then unmapped, at every move).

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// A job for the thread.
pub type Task = Box<dyn FnOnce() + Send>;

pub struct Worker {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    /// Signalled when a task is given, when one ends, and at the end.
    changed: Condvar,
}

#[derive(Default)]
struct State {
    task: Option<Task>,
    /// From `start` until the task has ended and been dropped (with
    /// whatever it held, such as the hash table).
    busy: bool,
    quit: bool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Worker {
    /// The thread, named `name`; the error when it cannot be started.
    pub fn new(name: &str) -> std::io::Result<Worker> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        });
        let theirs = shared.clone();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || serve(&theirs))?;
        Ok(Worker { shared })
    }

    /// Runs `task` once the previous one has ended (the engine waits for
    /// it before it starts another).
    pub fn start(&self, task: Task) {
        let mut s = self.shared.lock();
        while s.busy {
            s = self.wait(s);
        }
        s.task = Some(task);
        s.busy = true;
        self.shared.changed.notify_all();
    }

    /// Whether the last task has ended.
    pub fn is_finished(&self) -> bool {
        !self.shared.lock().busy
    }

    /// Waits until the last task has ended.
    pub fn join(&self) {
        let mut s = self.shared.lock();
        while s.busy {
            s = self.wait(s);
        }
    }

    fn wait<'a>(&'a self, s: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        (self.shared.changed.wait(s)).unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Worker {
    /// Tells the thread to end after its task, without waiting for it (a
    /// held search ends only at `stop`, which the engine sends first).
    fn drop(&mut self) {
        self.shared.lock().quit = true;
        self.shared.changed.notify_all();
    }
}

fn serve(shared: &Shared) {
    let mut s = shared.lock();
    loop {
        if let Some(task) = s.task.take() {
            drop(s);
            // A task that panics must not take the thread with it: the
            // engine would wait for it for ever. (Searches catch their
            // own panics and still answer `bestmove`.)
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(task));
            s = shared.lock();
            s.busy = false;
            shared.changed.notify_all();
        } else if s.quit {
            return;
        } else {
            s = (shared.changed.wait(s)).unwrap_or_else(|e| e.into_inner());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn tasks_run_one_after_another_on_one_thread() {
        let w = Worker::new("test").unwrap();
        let ran = Arc::new(Mutex::new(Vec::new()));
        for i in 0..5 {
            let ran = ran.clone();
            w.start(Box::new(move || {
                ran.lock().unwrap().push((i, std::thread::current().id()));
            }));
        }
        w.join();
        assert!(w.is_finished());
        let ran = ran.lock().unwrap();
        assert_eq!(ran.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
        assert!(ran.iter().all(|r| r.1 == ran[0].1));
        assert_ne!(ran[0].1, std::thread::current().id());
    }

    #[test]
    fn what_a_task_held_is_dropped_when_it_is_joined() {
        let w = Worker::new("test").unwrap();
        let held = Arc::new(());
        let theirs = held.clone();
        w.start(Box::new(move || drop(theirs)));
        w.join();
        assert_eq!(Arc::strong_count(&held), 1);
    }

    #[test]
    fn a_task_that_panics_leaves_the_thread_serving() {
        let w = Worker::new("test").unwrap();
        w.start(Box::new(|| panic!("a bad task")));
        w.join();
        let n = Arc::new(AtomicUsize::new(0));
        let m = n.clone();
        w.start(Box::new(move || {
            m.fetch_add(1, Ordering::SeqCst);
        }));
        w.join();
        assert_eq!(n.load(Ordering::SeqCst), 1);
    }
}
