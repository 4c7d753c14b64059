//! link-emulator: forwards the IPv4 packets a router namespace hands to a TUN device, applying per-direction delay,
//! jitter and loss, so that TCP between two namespaces sees a real RTT and real loss (this kernel has no netem).
//!
//! ```text
//! link-emulator --tun skemu0 --client-net 10.99.1.0/24 --down delay=40ms,loss=0.5% --up delay=40ms [--seed 1]
//! ```
//! Prints `ready` once the device is open, then takes commands on stdin (see control.rs). Rate limiting is left to
//! `tc tbf` on the router's egress veths.

mod admit;
mod config;
mod control;
mod loss;
mod packet;
mod rng;
mod schedule;
mod segment;
mod timer;
mod tun;
mod vnet;

use std::io::{self, Write};
use std::process::ExitCode;

use config::{parse_direction, ConfigError, DirectionConfig};
use control::{parse_command, snapshot_json, Command, Snapshot};
use packet::{direction_of, Direction, Ipv4Net};
use rng::Rng;
use schedule::DelayLine;
use timer::{monotonic_ns, DepartureTimer};
use tun::Tun;
use vnet::VnetHeader;

/// Largest frame read from the device: a virtio header and a GSO super-packet of up to 64 KB (with room to spare,
/// so a read that fills the buffer is recognisably oversized).
const MAX_FRAME_BYTES: usize = 128 * 1024;
/// Packets read per wake-up before due packets are sent again, so one direction cannot starve the other's timing.
const READ_BATCH: usize = 64;
/// Largest control line accepted, bytes.
const MAX_CONTROL_LINE_BYTES: usize = 4096;

struct Options {
    tun: String,
    client: Ipv4Net,
    down: DirectionConfig,
    up: DirectionConfig,
    seed: u64,
    offload: bool,
}

fn parse_options(args: &[String]) -> Result<Options, ConfigError> {
    let mut tun = None;
    let mut client = None;
    let mut down = DirectionConfig::default();
    let mut up = DirectionConfig::default();
    let mut seed = 1u64;
    let mut offload = true;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest
            .next()
            .ok_or_else(|| ConfigError(format!("{flag} needs a value")))?;
        match flag.as_str() {
            "--tun" => tun = Some(value.clone()),
            "--client-net" => client = Some(Ipv4Net::parse(value)?),
            "--down" => down = parse_direction(value)?,
            "--up" => up = parse_direction(value)?,
            "--seed" => {
                seed = value
                    .parse()
                    .map_err(|_| ConfigError(format!("--seed takes an integer, got \"{value}\"")))?
            }
            "--offload" => {
                offload = match value.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => {
                        return Err(ConfigError(format!(
                            "--offload takes on or off, got \"{value}\""
                        )))
                    }
                }
            }
            other => return Err(ConfigError(format!("unknown option {other}"))),
        }
    }
    Ok(Options {
        tun: tun.ok_or_else(|| ConfigError("--tun NAME is required".into()))?,
        client: client.ok_or_else(|| ConfigError("--client-net A.B.C.D/LEN is required".into()))?,
        down,
        up,
        seed,
        offload,
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("usage: link-emulator --tun NAME --client-net A.B.C.D/LEN [--down COND] [--up COND] [--seed N] [--offload on|off]");
        println!("COND: delay=40ms,jitter=2ms,loss=0.5% | ge=ENTER%/EXIT%/LOSS_GOOD%/LOSS_BAD% | reorder=allow");
        return ExitCode::SUCCESS;
    }
    let options = match parse_options(&args) {
        Ok(options) => options,
        Err(error) => {
            eprintln!("link-emulator: {error}");
            return ExitCode::from(2);
        }
    };
    match run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("link-emulator: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Non-blocking reads of the control channel, split into lines.
struct Control {
    open: bool,
    pending: Vec<u8>,
}

impl Control {
    /// Reads what stdin has; returns complete lines. EOF closes the channel (the emulator keeps forwarding).
    fn read_lines(&mut self) -> Vec<String> {
        let mut chunk = [0u8; 1024];
        // SAFETY: a read of at most chunk.len() bytes from stdin into a local buffer.
        let n = unsafe { libc::read(0, chunk.as_mut_ptr().cast(), chunk.len()) };
        if n == 0 {
            self.open = false;
        } else if n > 0 {
            self.pending.extend_from_slice(&chunk[..n as usize]);
        }
        let mut lines = Vec::new();
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            lines.push(String::from_utf8_lossy(&line).into_owned());
        }
        if self.pending.len() > MAX_CONTROL_LINE_BYTES {
            self.pending.clear();
            lines.push("error: control line too long".into());
        }
        lines
    }
}

fn cpu_times_ms() -> (f64, f64) {
    // SAFETY: getrusage fills a zeroed struct we own.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return (f64::NAN, f64::NAN);
    }
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    (ms(usage.ru_utime), ms(usage.ru_stime))
}

fn set_nonblocking_stdin() {
    // SAFETY: fcntl on fd 0 with flag arithmetic only.
    unsafe {
        let flags = libc::fcntl(0, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(0, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
}

fn run(options: Options) -> io::Result<()> {
    let tun = Tun::open(&options.tun)?;
    tun.set_offload(options.offload)?;
    let mut timer = DepartureTimer::new()?;
    set_nonblocking_stdin();
    let mut rng = Rng::new(options.seed);
    let mut down = DelayLine::new(options.down);
    let mut up = DelayLine::new(options.up);
    let mut control = Control {
        open: true,
        pending: Vec::new(),
    };
    let mut other_packets = 0u64;
    let mut write_errors = 0u64;
    let mut malformed = 0u64;
    let mut cut_frames = 0u64;
    let mut buffer = vec![0u8; MAX_FRAME_BYTES];
    let now_ns = monotonic_ns;
    let mut stdout = io::stdout();
    writeln!(stdout, "ready")?;
    stdout.flush()?;

    loop {
        // 1. Send everything due.
        let now = now_ns();
        for line in [&mut down, &mut up] {
            while let Some(packet) = line.pop_due(now) {
                if tun.write(&packet).is_err() {
                    write_errors += 1;
                }
            }
        }

        // 2. Sleep until the next departure (an absolute timerfd deadline: poll's own timeout gets a slack of
        //    0.1-0.5 % of its length, which alone would add 0.4 ms to a 200 ms RTT), a packet or a command.
        let next_due = [down.next_due_ns(), up.next_due_ns()]
            .into_iter()
            .flatten()
            .min();
        timer.arm(next_due)?;
        let mut fds = [
            libc::pollfd {
                fd: tun.raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: if control.open { 0 } else { -1 },
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: timer.raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: poll on three pollfds we own, no timeout (the timerfd is the timeout).
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 3, -1) };
        if ready < 0 {
            let error = io::Error::last_os_error();
            if error.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(error);
        }
        if fds[2].revents & libc::POLLIN != 0 {
            timer.acknowledge();
        }

        // 3. Take in arriving packets, each stamped with its own arrival time.
        if fds[0].revents & libc::POLLIN != 0 {
            for _ in 0..READ_BATCH {
                let Some(length) = tun.read(&mut buffer)? else {
                    break;
                };
                let frame = &buffer[..length];
                let arrived = now_ns();
                let Some((_, packet)) =
                    VnetHeader::parse(frame).filter(|_| length < MAX_FRAME_BYTES)
                else {
                    // Shorter than its virtio header or possibly truncated: the kernel never hands over either.
                    malformed += 1;
                    continue;
                };
                let line = match direction_of(packet, &options.client) {
                    Direction::Down => &mut down,
                    Direction::Up => &mut up,
                    Direction::Other => {
                        other_packets += 1;
                        if tun.write(frame).is_err() {
                            write_errors += 1;
                        }
                        continue;
                    }
                };
                if let admit::Admitted::Cut(_) =
                    admit::admit(line, frame.to_vec(), arrived, &mut rng)
                {
                    cut_frames += 1;
                }
            }
        } else if fds[0].revents & (libc::POLLERR | libc::POLLHUP) != 0 {
            return Err(io::Error::other("the TUN device went away"));
        }

        // 4. Commands.
        if control.open && fds[1].revents != 0 {
            for line in control.read_lines() {
                if line.trim().is_empty() {
                    continue;
                }
                let answer = match parse_command(&line) {
                    Ok(Command::Set(Direction::Down, config)) => {
                        down.reconfigure(config);
                        "ok".to_string()
                    }
                    Ok(Command::Set(_, config)) => {
                        up.reconfigure(config);
                        "ok".to_string()
                    }
                    Ok(Command::Stats) => {
                        let (cpu_user_ms, cpu_system_ms) = cpu_times_ms();
                        snapshot_json(&Snapshot {
                            down: down.stats,
                            up: up.stats,
                            down_queued: down.queued(),
                            up_queued: up.queued(),
                            other_packets,
                            write_errors,
                            malformed,
                            cut_frames,
                            cpu_user_ms,
                            cpu_system_ms,
                        })
                    }
                    Ok(Command::Quit) => return Ok(()),
                    Err(error) => format!("error: {error}"),
                };
                writeln!(stdout, "{answer}")?;
                stdout.flush()?;
            }
        }
    }
}
