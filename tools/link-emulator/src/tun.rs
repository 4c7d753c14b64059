//! The TUN device: the only unsafe code, kept to opening the device, its offload switch and non-blocking reads and
//! writes.
//!
//! The device is opened with IFF_VNET_HDR, so every frame read or written starts with a 10-byte `virtio_net_hdr`
//! (vnet.rs). With offloads on (TUNSETOFFLOAD: TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO_ECN) the kernel hands over a TCP
//! sender's GSO super-packets (up to 64 KB, one frame for up to ~45 segments) unsegmented and with the TCP checksum
//! left to do, and takes them back the same way: one read and one write per super-packet instead of per segment.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
const IFF_TUN: libc::c_short = 0x0001;
const IFF_NO_PI: libc::c_short = 0x1000;
const IFF_VNET_HDR: libc::c_short = 0x4000;
/// _IOW('T', 208, unsigned int).
const TUNSETOFFLOAD: libc::c_ulong = 0x4004_54d0;
const TUN_F_CSUM: libc::c_ulong = 0x01;
const TUN_F_TSO4: libc::c_ulong = 0x02;
const TUN_F_TSO_ECN: libc::c_ulong = 0x08;
const IFNAMSIZ: usize = 16;

/// An open TUN device in raw-IP mode with a virtio_net_hdr per frame (IFF_TUN | IFF_NO_PI | IFF_VNET_HDR),
/// non-blocking.
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
        request[IFNAMSIZ..IFNAMSIZ + 2]
            .copy_from_slice(&(IFF_TUN | IFF_NO_PI | IFF_VNET_HDR).to_ne_bytes());
        // SAFETY: TUNSETIFF reads (and may write back) a struct ifreq, which `request` is large enough to hold.
        let result = unsafe { libc::ioctl(fd.as_raw_fd(), TUNSETIFF as _, request.as_mut_ptr()) };
        if result < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Self { fd })
    }

    /// Turns checksum and TCPv4 segmentation offload on (the kernel passes GSO super-packets through) or off (it
    /// segments and checksums before the device, so every frame is one wire packet). Takes effect for packets the
    /// kernel queues from then on; frames already queued keep their form, which the reader handles either way.
    pub fn set_offload(&self, on: bool) -> io::Result<()> {
        let flags = if on {
            TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO_ECN
        } else {
            0
        };
        // SAFETY: TUNSETOFFLOAD takes its argument by value; no memory is passed.
        let result = unsafe { libc::ioctl(self.fd.as_raw_fd(), TUNSETOFFLOAD as _, flags) };
        if result < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
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
