//! NPB's wall-clock timers (`c_timers.c`): start, stop, read in seconds, accumulating.

use std::time::{Duration, Instant};

#[derive(Default)]
pub struct Timer {
    elapsed: Duration,
    started: Option<Instant>,
}

impl Timer {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn start(&mut self) {
        self.started = Some(Instant::now());
    }

    pub fn stop(&mut self) {
        if let Some(t) = self.started.take() {
            self.elapsed += t.elapsed();
        }
    }

    /// Seconds accumulated between starts and stops.
    pub fn read(&self) -> f64 {
        self.elapsed.as_secs_f64()
    }
}
