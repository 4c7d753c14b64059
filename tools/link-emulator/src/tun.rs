//! The TUN device: the only unsafe code, kept to opening the device and non-blocking reads and writes.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
const IFF_TUN: libc::c_short = 0x0001;
const IFF_NO_PI: libc::c_short = 0x1000;
const IFNAMSIZ: usize = 16;

/// An open TUN device in raw-IP mode (IFF_TUN | IFF_NO_PI), non-blocking.
pub struct Tun {
    fd: OwnedFd,
}

impl Tun {
    /// Attaches to the TUN device `name` (a persistent one made by `ip tuntap add dev NAME mode tun`, or a new one).
    pub fn open(name: &str) -> io::Result<Self> {
        if name.is_empty() || name.len() >= IFNAMSIZ || !name.is_ascii() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("TUN name must be 1-15 ASCII characters, got \"{name}\""),
            ));
        }
        // SAFETY: a plain open(2) of a constant, NUL-terminated path.
        let raw = unsafe {
            libc::open(
                c"/dev/net/tun".as_ptr(),
                libc::O_RDWR | libc::O_NONBLOCK | libc::O_CLOEXEC,
            )
        };
        if raw < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `raw` is a fresh descriptor that nothing else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        // struct ifreq: 16 bytes of name, then a union whose first member is the flags short; 40 bytes in all.
        let mut request = [0u8; 40];
        request[..name.len()].copy_from_slice(name.as_bytes());
        request[IFNAMSIZ..IFNAMSIZ + 2].copy_from_slice(&(IFF_TUN | IFF_NO_PI).to_ne_bytes());
        // SAFETY: TUNSETIFF reads (and may write back) a struct ifreq, which `request` is large enough to hold.
        let result = unsafe { libc::ioctl(fd.as_raw_fd(), TUNSETIFF as _, request.as_mut_ptr()) };
        if result < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Self { fd })
    }

    pub fn raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }

    /// Reads one packet; Ok(None) when none is waiting.
    pub fn read(&self, buffer: &mut [u8]) -> io::Result<Option<usize>> {
        // SAFETY: reads at most buffer.len() bytes into memory we own exclusively.
        let n = unsafe {
            libc::read(
                self.fd.as_raw_fd(),
                buffer.as_mut_ptr().cast(),
                buffer.len(),
            )
        };
        if n >= 0 {
            return Ok(Some(n as usize));
        }
        let error = io::Error::last_os_error();
        match error.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
            _ => Err(error),
        }
    }

    /// Writes one packet back into the kernel, which routes it on as if it arrived on the TUN device.
    pub fn write(&self, packet: &[u8]) -> io::Result<()> {
        // SAFETY: writes packet.len() bytes from memory we own.
        let n = unsafe { libc::write(self.fd.as_raw_fd(), packet.as_ptr().cast(), packet.len()) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}
