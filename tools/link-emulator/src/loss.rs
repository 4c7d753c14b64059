//! The loss process of one direction, stepped once per packet.

use crate::config::LossConfig;
use crate::rng::Rng;

/// A loss process with its Markov state (Gilbert–Elliott) or none (Bernoulli, no loss).
#[derive(Debug, Clone)]
pub struct LossModel {
    config: LossConfig,
    in_bad_state: bool,
}

impl LossModel {
    /// Starts in the good state.
    pub fn new(config: LossConfig) -> Self {
        Self {
            config,
            in_bad_state: false,
        }
    }

    /// Decides the fate of the next packet: true = drop it.
    pub fn drops_next(&mut self, rng: &mut Rng) -> bool {
        match self.config {
            LossConfig::None => false,
            LossConfig::Bernoulli { p } => rng.chance(p),
            LossConfig::GilbertElliott {
                enter_bad,
                exit_bad,
                loss_good,
                loss_bad,
            } => {
                // Loss is drawn in the current state, then the chain moves: a burst starts with the packet after
                // the transition, and a bad period lasts 1 / exit_bad packets on average.
                let dropped = rng.chance(if self.in_bad_state {
                    loss_bad
                } else {
                    loss_good
                });
                let switch = if self.in_bad_state {
                    exit_bad
                } else {
                    enter_bad
                };
                if rng.chance(switch) {
                    self.in_bad_state = !self.in_bad_state;
                }
                dropped
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PACKETS: usize = 200_000;

    fn drop_pattern(config: LossConfig, seed: u64) -> Vec<bool> {
        let mut model = LossModel::new(config);
        let mut rng = Rng::new(seed);
        (0..PACKETS).map(|_| model.drops_next(&mut rng)).collect()
    }

    fn loss_rate(pattern: &[bool]) -> f64 {
        pattern.iter().filter(|&&d| d).count() as f64 / pattern.len() as f64
    }

    /// Mean length of runs of consecutive drops.
    fn mean_burst(pattern: &[bool]) -> f64 {
        let mut bursts = 0usize;
        let mut dropped = 0usize;
        let mut previous = false;
        for &d in pattern {
            if d {
                dropped += 1;
                if !previous {
                    bursts += 1;
                }
            }
            previous = d;
        }
        dropped as f64 / bursts.max(1) as f64
    }

    #[test]
    fn no_loss_drops_nothing() {
        assert_eq!(loss_rate(&drop_pattern(LossConfig::None, 1)), 0.0);
    }

    #[test]
    fn bernoulli_loss_matches_the_configured_rate_and_is_not_bursty() {
        for (p, seed) in [(0.005, 1), (0.02, 2), (0.1, 3)] {
            let pattern = drop_pattern(LossConfig::Bernoulli { p }, seed);
            let measured = loss_rate(&pattern);
            // Within four binomial standard errors (at 0.5 % and 2·10⁵ packets one is 3.5 % of p).
            let sigma = (p * (1.0 - p) / PACKETS as f64).sqrt();
            assert!(
                (measured - p).abs() < 4.0 * sigma,
                "p {p}: measured {measured}"
            );
            // Independent drops: mean run length 1 / (1 - p).
            assert!(
                (mean_burst(&pattern) - 1.0 / (1.0 - p)).abs() < 0.05,
                "p {p}"
            );
        }
    }

    #[test]
    fn gilbert_elliott_loss_matches_its_stationary_mean_and_burst_length() {
        let config = LossConfig::GilbertElliott {
            enter_bad: 0.005,
            exit_bad: 0.25,
            loss_good: 0.0,
            loss_bad: 1.0,
        };
        let pattern = drop_pattern(config, 9);
        let measured = loss_rate(&pattern);
        let expected = config.mean_loss();
        assert!((expected - 0.005 / 0.255).abs() < 1e-12);
        // Bursts make the estimate noisier than Bernoulli's: allow 12 % relative.
        assert!(
            (measured - expected).abs() / expected < 0.12,
            "measured {measured}, expected {expected}"
        );
        // With loss_bad = 100 %, a burst is a whole bad period: geometric with mean 1 / exit_bad = 4 packets.
        let burst = mean_burst(&pattern);
        assert!((burst - 4.0).abs() < 0.4, "mean burst {burst}");
    }

    #[test]
    fn the_same_seed_drops_the_same_packets() {
        let config = LossConfig::Bernoulli { p: 0.02 };
        assert_eq!(drop_pattern(config, 5), drop_pattern(config, 5));
        assert_ne!(drop_pattern(config, 5), drop_pattern(config, 6));
    }
}
