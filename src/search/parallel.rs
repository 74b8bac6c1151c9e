//! One job over many sessions on every core, the results in the sessions'
//! order: the selection's head reads and the listing's reads
//! (docs/sessions.md, "How it is read"). Each thread takes the next session
//! not taken yet, so one large file does not hold back a share of others.

use std::sync::atomic::{AtomicUsize, Ordering};

/// `job` of each of `items` on `threads` threads (one: on this thread),
/// the results in the order of `items`.
pub(crate) fn map<T: Sync, U: Send>(
    items: &[T],
    threads: usize,
    job: impl Fn(&T) -> U + Sync,
) -> Vec<U> {
    let threads = threads.min(items.len()).max(1);
    if threads == 1 {
        return items.iter().map(job).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(index) else {
                return done;
            };
            done.push((index, job(item)));
        }
    };
    let parts: Vec<Vec<(usize, U)>> = std::thread::scope(|scope| {
        let spawned: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut parts = vec![work()];
        parts.extend(
            spawned
                .into_iter()
                .map(|thread| thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))),
        );
        parts
    });
    let mut slots: Vec<Option<U>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    for (index, result) in parts.into_iter().flatten() {
        slots[index] = Some(result);
    }
    slots.into_iter().flatten().collect()
}

/// How many threads a job over files runs on: one per core.
pub(crate) fn threads() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_order_of_the_items_on_any_number_of_threads() {
        let items: Vec<u64> = (0..1000).collect();
        for threads in [0, 1, 2, 7] {
            let squares = map(&items, threads, |n| n * n);
            assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
        }
        assert!(map(&[] as &[u8], 4, |b| *b).is_empty());
    }
}
