//! The departure clock: CLOCK_MONOTONIC in ns, and a timerfd armed at an absolute departure time. An absolute
//! hrtimer fires at its deadline (plus wake-up latency), unlike a poll timeout, whose slack grows with its length.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// Now on CLOCK_MONOTONIC, ns (the clock the timer is armed on).
pub fn monotonic_ns() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec we own; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
}

pub struct DepartureTimer {
    fd: OwnedFd,
    armed_ns: Option<u64>,
}

impl DepartureTimer {
    pub fn new() -> io::Result<Self> {
        // SAFETY: timerfd_create with constant flags; the result is checked.
        let raw = unsafe {
            libc::timerfd_create(
                libc::CLOCK_MONOTONIC,
                libc::TFD_NONBLOCK | libc::TFD_CLOEXEC,
            )
        };
        if raw < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a fresh descriptor nothing else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        // Timer slack of 1 µs for this thread's other sleeps too (default 50 µs).
        // SAFETY: prctl with integer arguments.
        unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1_000 as libc::c_ulong, 0, 0, 0) };
        Ok(Self { fd, armed_ns: None })
    }

    pub fn raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }

    /// Arms the timer at `deadline_ns` (absolute, monotonic), or disarms it; a no-op when already set so.
    pub fn arm(&mut self, deadline_ns: Option<u64>) -> io::Result<()> {
        if self.armed_ns == deadline_ns {
            return Ok(());
        }
        // An all-zero it_value disarms; a deadline already past still fires at once (it is never zero here, since
        // the monotonic clock started long before).
        let at = deadline_ns
            .unwrap_or(0)
            .max(u64::from(deadline_ns.is_some()));
        let spec = libc::itimerspec {
            it_interval: libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            },
            it_value: libc::timespec {
                tv_sec: (at / 1_000_000_000) as libc::time_t,
                tv_nsec: (at % 1_000_000_000) as libc::c_long,
            },
        };
        // SAFETY: timerfd_settime reads one itimerspec we own.
        let result = unsafe {
            libc::timerfd_settime(
                self.fd.as_raw_fd(),
                libc::TFD_TIMER_ABSTIME,
                &spec,
                std::ptr::null_mut(),
            )
        };
        if result < 0 {
            return Err(io::Error::last_os_error());
        }
        self.armed_ns = deadline_ns;
        Ok(())
    }

    /// Reads the expiry count so the descriptor stops polling readable; the deadline is spent.
    pub fn acknowledge(&mut self) {
        let mut expirations = [0u8; 8];
        // SAFETY: reads 8 bytes into a local buffer; EAGAIN (nothing expired) is fine.
        unsafe { libc::read(self.fd.as_raw_fd(), expirations.as_mut_ptr().cast(), 8) };
        self.armed_ns = None;
    }
}
