//! The control channel: one command per line on stdin, one answer per line on stdout.
//!
//! `down <conditions>` / `up <conditions>` replace a direction's conditions (answer `ok` or `error: …`);
//! `stats` prints the counters as one JSON object; `quit` exits.

use crate::config::{parse_direction, ConfigError, DirectionConfig};
use crate::packet::Direction;
use crate::schedule::DirectionStats;

#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Set(Direction, DirectionConfig),
    Stats,
    Quit,
}

/// Parses one control line (surrounding whitespace ignored).
pub fn parse_command(line: &str) -> Result<Command, ConfigError> {
    let line = line.trim();
    let (verb, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    match verb {
        "down" => Ok(Command::Set(Direction::Down, parse_direction(rest)?)),
        "up" => Ok(Command::Set(Direction::Up, parse_direction(rest)?)),
        "stats" => Ok(Command::Stats),
        "quit" => Ok(Command::Quit),
        other => Err(ConfigError(format!(
            "unknown command \"{other}\" (down, up, stats, quit)"
        ))),
    }
}

/// Everything `stats` reports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Snapshot {
    pub down: DirectionStats,
    pub up: DirectionStats,
    pub down_queued: usize,
    pub up_queued: usize,
    pub other_packets: u64,
    pub write_errors: u64,
    /// Frames shorter than a virtio header or filling the read buffer (never seen from a real kernel).
    pub malformed: u64,
    /// GSO super-packets cut into runs because some of their segments were dropped.
    pub cut_frames: u64,
    pub cpu_user_ms: f64,
    pub cpu_system_ms: f64,
}

fn direction_json(stats: &DirectionStats, queued: usize) -> String {
    format!(
        "{{\"packets_in\":{},\"bytes_in\":{},\"dropped\":{},\"packets_out\":{},\"bytes_out\":{},\"queued\":{}}}",
        stats.packets_in, stats.bytes_in, stats.dropped, stats.packets_out, stats.bytes_out, queued
    )
}

/// One JSON line.
pub fn snapshot_json(s: &Snapshot) -> String {
    format!(
        "{{\"down\":{},\"up\":{},\"other_packets\":{},\"write_errors\":{},\"malformed\":{},\"cut_frames\":{},\"cpu_user_ms\":{:.1},\"cpu_system_ms\":{:.1}}}",
        direction_json(&s.down, s.down_queued),
        direction_json(&s.up, s.up_queued),
        s.other_packets,
        s.write_errors,
        s.malformed,
        s.cut_frames,
        s.cpu_user_ms,
        s.cpu_system_ms
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::LossConfig;

    #[test]
    fn set_commands_carry_a_direction_and_its_conditions() {
        match parse_command("down delay=40ms,loss=2%\n").unwrap() {
            Command::Set(Direction::Down, config) => {
                assert_eq!(config.delay_ns, 40_000_000);
                assert_eq!(config.loss, LossConfig::Bernoulli { p: 0.02 });
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(
            parse_command("up").unwrap(),
            Command::Set(Direction::Up, DirectionConfig::default())
        );
        assert_eq!(parse_command(" stats ").unwrap(), Command::Stats);
        assert_eq!(parse_command("quit").unwrap(), Command::Quit);
    }

    #[test]
    fn unknown_commands_and_bad_conditions_are_errors() {
        assert!(parse_command("sideways delay=1ms")
            .unwrap_err()
            .0
            .contains("unknown command"));
        assert!(parse_command("down delay=1")
            .unwrap_err()
            .0
            .contains("unit"));
    }

    #[test]
    fn the_snapshot_is_one_line_of_json() {
        let snapshot = Snapshot {
            down: DirectionStats {
                packets_in: 3,
                bytes_in: 300,
                dropped: 1,
                packets_out: 2,
                bytes_out: 200,
            },
            up: DirectionStats::default(),
            down_queued: 0,
            up_queued: 4,
            other_packets: 7,
            write_errors: 0,
            malformed: 0,
            cut_frames: 5,
            cpu_user_ms: 1.5,
            cpu_system_ms: 2.0,
        };
        let json = snapshot_json(&snapshot);
        assert!(!json.contains('\n'));
        assert!(json.starts_with("{\"down\":{\"packets_in\":3,\"bytes_in\":300,\"dropped\":1,"));
        assert!(json.contains("\"up\":{\"packets_in\":0,"));
        assert!(json.contains("\"cut_frames\":5,"));
        assert!(json.contains("\"queued\":4}"));
        assert!(json.ends_with("\"cpu_user_ms\":1.5,\"cpu_system_ms\":2.0}"));
    }
}
