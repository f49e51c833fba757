//! Device memory kept for reuse: a freed allocation is kept, by its size, for the next
//! allocation of the same size, instead of going back to the driver.
//!
//! A region called in a loop with arrays that no data region holds allocates and frees their
//! device copies at every call (OpenACC's implicit `copy`), and `cuMemFree` waits for the
//! device. CuPy's memory pool keeps freed device memory the same way. The pool keeps the
//! bookkeeping only; the backend (`memory.rs`) makes the driver calls.
//!
//! Sizes are the bytes asked for, exactly: a kept allocation is handed only to a request of
//! the same size, so its padding past them (zeroed when it was made, written by no kernel)
//! is as a new one's, and compute-sanitizer still checks accesses against that size. At most
//! the pool's limit ([`DEFAULT_LIMIT`]) is kept; an allocation that fails for want of memory empties the
//! pool and is tried again (`memory.rs`).

use std::collections::HashMap;

/// The most bytes the pool keeps by default.
pub(crate) const DEFAULT_LIMIT: usize = 1 << 30;

/// The live allocations of a backend and the freed ones kept for reuse.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    /// Each live allocation's size, by address.
    live: HashMap<u64, usize>,
    /// Freed allocations, by size.
    kept: HashMap<usize, Vec<u64>>,
    /// The bytes of `kept`, all together.
    kept_bytes: usize,
    /// The most bytes kept (0: the pool keeps nothing).
    limit: usize,
}

impl Pool {
    /// A pool that keeps up to `limit` bytes.
    pub(crate) fn new(limit: usize) -> Self {
        Pool { limit, ..Pool::default() }
    }

    /// The pool of a new backend: [`DEFAULT_LIMIT`], or nothing kept with
    /// `ACC_CUDA_POOL=0` (every free goes to the driver at once, so compute-sanitizer sees
    /// each use of freed memory).
    pub(crate) fn from_env() -> Self {
        let off = std::env::var_os("ACC_CUDA_POOL").is_some_and(|v| v == "0");
        Pool::new(if off { 0 } else { DEFAULT_LIMIT })
    }

    /// A kept allocation of exactly `bytes` bytes, live again.
    pub(crate) fn take(&mut self, bytes: usize) -> Option<u64> {
        let list = self.kept.get_mut(&bytes)?;
        let p = list.pop()?;
        if list.is_empty() {
            self.kept.remove(&bytes);
        }
        self.kept_bytes -= cost(bytes);
        self.live.insert(p, bytes);
        Some(p)
    }

    /// Records `p`, a new allocation of `bytes` bytes.
    pub(crate) fn made(&mut self, p: u64, bytes: usize) {
        self.live.insert(p, bytes);
    }

    /// `p` is freed: whether the pool keeps it. `false`: the caller frees it (the pool is full,
    /// or does not know `p`).
    pub(crate) fn keep(&mut self, p: u64) -> bool {
        let Some(bytes) = self.live.remove(&p) else { return false };
        if self.kept_bytes + cost(bytes) > self.limit {
            return false;
        }
        self.kept.entry(bytes).or_default().push(p);
        self.kept_bytes += cost(bytes);
        true
    }

    /// Every kept allocation, which the caller frees; the pool keeps none after.
    pub(crate) fn drain(&mut self) -> Vec<u64> {
        self.kept_bytes = 0;
        self.kept.drain().flat_map(|(_, list)| list).collect()
    }

    /// The bytes kept.
    pub(crate) fn kept_bytes(&self) -> usize {
        self.kept_bytes
    }

    /// Keeps up to `limit` bytes from now on; the allocations kept past it, which the caller
    /// frees, are given back.
    pub(crate) fn set_limit(&mut self, limit: usize) -> Vec<u64> {
        self.limit = limit;
        if self.kept_bytes <= limit {
            return Vec::new();
        }
        self.drain()
    }
}

/// What an allocation of `bytes` counts against the limit: at least a byte, so that empty
/// allocations (which take memory too) are not kept without end.
pub(crate) fn cost(bytes: usize) -> usize {
    bytes.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_freed_allocation_serves_the_next_of_its_size_only() {
        let mut pool = Pool::new(1 << 20);
        pool.made(0x1000, 256);
        pool.made(0x2000, 4096);
        assert_eq!(pool.take(256), None, "nothing kept yet");
        assert!(pool.keep(0x1000));
        assert_eq!(pool.kept_bytes(), 256);
        assert_eq!(pool.take(255), None, "sizes match exactly");
        assert_eq!(pool.take(257), None);
        assert_eq!(pool.take(256), Some(0x1000));
        assert_eq!((pool.take(256), pool.kept_bytes()), (None, 0), "handed out once");
        assert!(pool.keep(0x1000), "live again, so kept again");
        assert!(pool.keep(0x2000));
        assert!(!pool.keep(0x2000), "freed twice: not kept twice");
        assert!(!pool.keep(0x3000), "not an allocation of the pool's");
        assert_eq!(pool.kept_bytes(), 4352);
        let mut all = pool.drain();
        all.sort();
        assert_eq!((all, pool.kept_bytes(), pool.take(256)), (vec![0x1000, 0x2000], 0, None));
    }

    #[test]
    fn the_pool_keeps_up_to_its_limit() {
        let mut pool = Pool::new(1000);
        for (p, bytes) in [(1, 600), (2, 300), (3, 200)] {
            pool.made(p, bytes);
        }
        assert!(pool.keep(1) && pool.keep(2));
        assert!(!pool.keep(3), "600 + 300 + 200 is over 1000: the caller frees it");
        assert_eq!(pool.kept_bytes(), 900);
        assert_eq!(pool.take(600), Some(1));
        assert_eq!(pool.set_limit(300), Vec::<u64>::new(), "within the new limit");
        assert_eq!(pool.set_limit(200), vec![2], "over the new limit: what is kept is given back");
        assert_eq!(pool.kept_bytes(), 0);
        let mut empties = Pool::new(3);
        for p in 1..=5 {
            empties.made(p, 0);
        }
        assert_eq!((1..=5).filter(|&p| empties.keep(p)).count(), 3, "empty allocations count a byte each");
        let mut off = Pool::new(0);
        off.made(7, 8);
        assert!(!off.keep(7), "a pool of limit 0 keeps nothing");
    }
}
