//! Per-direction link conditions and their text form, used on the command line and on the control channel:
//! `delay=40ms,jitter=2ms,loss=0.5%` or `delay=100ms,ge=1%/30%/0%/100%`. The empty string means a perfect link.
//!
//! Keys: `delay` and `jitter` take a duration with its unit (`s`, `ms`, `us`); `loss` a percentage (independent,
//! Bernoulli loss); `ge` four percentages P(good→bad)/P(bad→good)/loss in good/loss in bad (Gilbert–Elliott bursty
//! loss, evaluated per packet); `reorder=allow` lets jitter reorder packets (default: never, a packet never leaves
//! before the one that arrived before it, as on a real FIFO path).

use std::fmt;

/// The loss process of one direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LossConfig {
    /// No packet is dropped.
    None,
    /// Each packet is dropped independently with probability `p` (0–1).
    Bernoulli { p: f64 },
    /// Two-state Markov chain; probabilities 0–1, the chain steps once per packet.
    GilbertElliott {
        enter_bad: f64,
        exit_bad: f64,
        loss_good: f64,
        loss_bad: f64,
    },
}

#[cfg(test)]
impl LossConfig {
    /// The long-run fraction of packets dropped (0–1).
    pub fn mean_loss(&self) -> f64 {
        match *self {
            LossConfig::None => 0.0,
            LossConfig::Bernoulli { p } => p,
            LossConfig::GilbertElliott {
                enter_bad,
                exit_bad,
                loss_good,
                loss_bad,
            } => {
                let total = enter_bad + exit_bad;
                if total <= 0.0 {
                    return loss_good;
                }
                let bad_share = enter_bad / total;
                bad_share * loss_bad + (1.0 - bad_share) * loss_good
            }
        }
    }
}

/// Conditions applied to the packets of one direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DirectionConfig {
    /// Fixed one-way delay, ns.
    pub delay_ns: u64,
    /// Half-width of the uniform jitter added to the delay, ns (delay varies in [delay − jitter, delay + jitter]).
    pub jitter_ns: u64,
    /// Whether jitter may reorder packets.
    pub reorder: bool,
    pub loss: LossConfig,
}

impl Default for DirectionConfig {
    fn default() -> Self {
        Self {
            delay_ns: 0,
            jitter_ns: 0,
            reorder: false,
            loss: LossConfig::None,
        }
    }
}

/// Why a condition string was rejected; the message names the offending part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

/// Longest accepted delay (60 s): bounds the memory a queue can hold.
const MAX_DELAY_NS: u64 = 60_000_000_000;

/// Parses `key=value[,key=value…]`; unknown keys, missing units and out-of-range values are errors.
pub fn parse_direction(text: &str) -> Result<DirectionConfig, ConfigError> {
    let mut config = DirectionConfig::default();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| ConfigError(format!("expected key=value, got \"{part}\"")))?;
        match key.trim() {
            "delay" => config.delay_ns = parse_duration_ns(value)?,
            "jitter" => config.jitter_ns = parse_duration_ns(value)?,
            "loss" => {
                config.loss = LossConfig::Bernoulli {
                    p: parse_percent(value)?,
                }
            }
            "ge" => {
                let parts: Vec<&str> = value.split('/').collect();
                let [enter_bad, exit_bad, loss_good, loss_bad] = parts.as_slice() else {
                    return Err(ConfigError(format!(
                        "ge needs four percentages enter/exit/loss_good/loss_bad, got \"{value}\""
                    )));
                };
                config.loss = LossConfig::GilbertElliott {
                    enter_bad: parse_percent(enter_bad)?,
                    exit_bad: parse_percent(exit_bad)?,
                    loss_good: parse_percent(loss_good)?,
                    loss_bad: parse_percent(loss_bad)?,
                };
            }
            "reorder" => {
                config.reorder = match value.trim() {
                    "allow" => true,
                    "never" => false,
                    other => {
                        return Err(ConfigError(format!(
                            "reorder is allow or never, got \"{other}\""
                        )))
                    }
                }
            }
            other => {
                return Err(ConfigError(format!(
                    "unknown key \"{other}\" (delay, jitter, loss, ge, reorder)"
                )))
            }
        }
    }
    if config.jitter_ns > config.delay_ns {
        // A delay cannot be negative: jitter beyond the delay would skew the mean instead of spreading it.
        return Err(ConfigError(format!(
            "jitter ({} us) must not exceed delay ({} us)",
            config.jitter_ns / 1000,
            config.delay_ns / 1000
        )));
    }
    Ok(config)
}

/// `40ms`, `250us`, `1.5s`, `0` → ns.
pub fn parse_duration_ns(value: &str) -> Result<u64, ConfigError> {
    let value = value.trim();
    if value == "0" {
        return Ok(0);
    }
    let (number, scale) = if let Some(n) = value.strip_suffix("ms") {
        (n, 1e6)
    } else if let Some(n) = value.strip_suffix("us") {
        (n, 1e3)
    } else if let Some(n) = value.strip_suffix('s') {
        (n, 1e9)
    } else {
        return Err(ConfigError(format!(
            "duration needs a unit (s, ms, us): \"{value}\""
        )));
    };
    let amount: f64 = number
        .parse()
        .map_err(|_| ConfigError(format!("not a number: \"{value}\"")))?;
    let ns = amount * scale;
    if !ns.is_finite() || ns < 0.0 || ns > MAX_DELAY_NS as f64 {
        return Err(ConfigError(format!(
            "duration out of range 0-60s: \"{value}\""
        )));
    }
    Ok(ns.round() as u64)
}

/// `0.5%` → 0.005; the percent sign is required so 0.5 and 0.5 % cannot be confused.
pub fn parse_percent(value: &str) -> Result<f64, ConfigError> {
    let value = value.trim();
    let number = value
        .strip_suffix('%')
        .ok_or_else(|| ConfigError(format!("percentage needs a % sign: \"{value}\"")))?;
    let percent: f64 = number
        .parse()
        .map_err(|_| ConfigError(format!("not a number: \"{value}\"")))?;
    if !(0.0..=100.0).contains(&percent) {
        return Err(ConfigError(format!(
            "percentage out of range 0-100%: \"{value}\""
        )));
    }
    Ok(percent / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_string_is_a_perfect_link() {
        assert_eq!(parse_direction("").unwrap(), DirectionConfig::default());
        assert_eq!(parse_direction(" , ").unwrap(), DirectionConfig::default());
    }

    #[test]
    fn delay_jitter_and_loss_parse_with_their_units() {
        let config = parse_direction("delay=40ms, jitter=250us,loss=0.5%").unwrap();
        assert_eq!(config.delay_ns, 40_000_000);
        assert_eq!(config.jitter_ns, 250_000);
        assert!(!config.reorder);
        assert_eq!(config.loss, LossConfig::Bernoulli { p: 0.005 });
        assert_eq!(
            parse_direction("delay=1.5s").unwrap().delay_ns,
            1_500_000_000
        );
    }

    #[test]
    fn gilbert_elliott_takes_four_percentages() {
        let config = parse_direction("ge=1%/25%/0%/100%").unwrap();
        assert_eq!(
            config.loss,
            LossConfig::GilbertElliott {
                enter_bad: 0.01,
                exit_bad: 0.25,
                loss_good: 0.0,
                loss_bad: 1.0
            }
        );
        // Stationary share of the bad state is 0.01 / 0.26.
        assert!((config.loss.mean_loss() - 0.01 / 0.26).abs() < 1e-12);
        assert!(parse_direction("ge=1%/25%/0%").is_err());
    }

    #[test]
    fn reorder_is_never_unless_allowed() {
        assert!(
            parse_direction("delay=5ms,jitter=1ms,reorder=allow")
                .unwrap()
                .reorder
        );
        assert!(!parse_direction("reorder=never").unwrap().reorder);
        assert!(parse_direction("reorder=maybe").is_err());
    }

    #[test]
    fn bad_input_is_rejected_with_the_offending_part() {
        let cases = [
            ("delay=40", "unit"),
            ("delay=-1ms", "range"),
            ("delay=61s", "range"),
            ("loss=0.5", "%"),
            ("loss=101%", "range"),
            ("loss=abc%", "number"),
            ("speed=10", "unknown key"),
            ("delay", "key=value"),
            ("delay=1ms,jitter=2ms", "must not exceed"),
        ];
        for (input, expected) in cases {
            let error = parse_direction(input).unwrap_err();
            assert!(error.0.contains(expected), "{input}: {error}");
        }
    }
}
