//! When each packet of one direction leaves: the delay line. Pure (time is passed in, in ns from any fixed origin),
//! so delay, jitter and ordering are unit-tested without a clock or a device.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use crate::config::{DirectionConfig, LossConfig};
use crate::loss::LossModel;
use crate::rng::Rng;
use crate::segment::Wire;

/// A packet waiting for its departure time.
#[derive(Debug)]
struct Scheduled {
    due_ns: u64,
    /// Arrival order, to keep FIFO order among equal departure times.
    sequence: u64,
    packet: Vec<u8>,
    /// The wire packets this frame stands for (a GSO super-packet stands for several).
    wire: Wire,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scheduled {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.due_ns, self.sequence).cmp(&(other.due_ns, other.sequence))
    }
}

/// Counters of one direction since start (they accumulate across reconfigurations), in wire packets and IP bytes:
/// a GSO super-packet counts as the segments it stands for.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DirectionStats {
    pub packets_in: u64,
    pub bytes_in: u64,
    pub dropped: u64,
    pub packets_out: u64,
    pub bytes_out: u64,
}

/// One direction of the link: loss decision, departure time, and the packets in flight.
#[derive(Debug)]
pub struct DelayLine {
    config: DirectionConfig,
    loss: LossModel,
    queue: BinaryHeap<Reverse<Scheduled>>,
    next_sequence: u64,
    /// Departure time of the last admitted packet, for the no-reordering rule.
    last_due_ns: u64,
    pub stats: DirectionStats,
}

impl DelayLine {
    pub fn new(config: DirectionConfig) -> Self {
        Self {
            config,
            loss: LossModel::new(config.loss),
            queue: BinaryHeap::new(),
            next_sequence: 0,
            last_due_ns: 0,
            stats: DirectionStats::default(),
        }
    }

    /// New conditions from now on; packets already in flight keep their departure times, counters carry on.
    pub fn reconfigure(&mut self, config: DirectionConfig) {
        self.config = config;
        self.loss = LossModel::new(config.loss);
    }

    /// Whether this direction drops nothing (its frames need not be cut into segments).
    pub fn is_lossless(&self) -> bool {
        match self.config.loss {
            LossConfig::None => true,
            LossConfig::Bernoulli { p } => p == 0.0,
            LossConfig::GilbertElliott {
                loss_good,
                loss_bad,
                ..
            } => loss_good == 0.0 && loss_bad == 0.0,
        }
    }

    /// Counts a frame arriving (before the loss draw).
    pub fn count_in(&mut self, wire: Wire) {
        self.stats.packets_in += wire.packets;
        self.stats.bytes_in += wire.bytes;
    }

    /// Steps the loss process for one wire packet: true = it survives. Drops are counted.
    pub fn survives_next(&mut self, rng: &mut Rng) -> bool {
        let dropped = self.loss.drops_next(rng);
        self.stats.dropped += u64::from(dropped);
        !dropped
    }

    /// The departure time for a frame arriving at `now_ns` (delay, jitter, and the FIFO rule unless reordering is
    /// allowed). All the runs cut from one super-packet share one departure: they arrived together.
    pub fn departure_ns(&mut self, now_ns: u64, rng: &mut Rng) -> u64 {
        let mut delay_ns = self.config.delay_ns;
        if self.config.jitter_ns > 0 {
            // Uniform in [delay − jitter, delay + jitter]; parse_direction guarantees jitter ≤ delay.
            let span = 2 * self.config.jitter_ns + 1;
            let offset = (rng.next_unit() * span as f64) as u64;
            delay_ns = delay_ns - self.config.jitter_ns + offset.min(span - 1);
        }
        let mut due_ns = now_ns + delay_ns;
        if !self.config.reorder {
            // A FIFO path: a packet that drew a short delay waits behind the one before it.
            due_ns = due_ns.max(self.last_due_ns);
        }
        self.last_due_ns = self.last_due_ns.max(due_ns);
        due_ns
    }

    /// Queues a frame to leave at `due_ns` (frames with equal departures leave in the order they were queued).
    pub fn enqueue(&mut self, packet: Vec<u8>, wire: Wire, due_ns: u64) {
        let sequence = self.next_sequence;
        self.next_sequence += 1;
        self.queue.push(Reverse(Scheduled {
            due_ns,
            sequence,
            packet,
            wire,
        }));
    }

    /// Admits a frame that is one wire packet of `packet.len()` bytes, arriving at `now_ns`: counts it, draws its
    /// loss, and queues it or drops it. Returns whether it was queued.
    #[cfg(test)]
    pub fn admit(&mut self, packet: Vec<u8>, now_ns: u64, rng: &mut Rng) -> bool {
        let wire = Wire {
            packets: 1,
            bytes: packet.len() as u64,
        };
        self.admit_frame(packet, wire, now_ns, rng)
    }

    /// Admits a frame standing for `wire` as one unit: one loss draw decides all of it (a lossless direction, or a
    /// frame that cannot be cut).
    pub fn admit_frame(&mut self, packet: Vec<u8>, wire: Wire, now_ns: u64, rng: &mut Rng) -> bool {
        self.count_in(wire);
        if !self.survives_next(rng) {
            return false;
        }
        let due_ns = self.departure_ns(now_ns, rng);
        self.enqueue(packet, wire, due_ns);
        true
    }

    /// Departure time of the next packet to leave, if any.
    pub fn next_due_ns(&self) -> Option<u64> {
        self.queue.peek().map(|Reverse(s)| s.due_ns)
    }

    /// Removes and returns the next packet if it is due at `now_ns`.
    pub fn pop_due(&mut self, now_ns: u64) -> Option<Vec<u8>> {
        if self.next_due_ns()? > now_ns {
            return None;
        }
        let Reverse(scheduled) = self.queue.pop()?;
        self.stats.packets_out += scheduled.wire.packets;
        self.stats.bytes_out += scheduled.wire.bytes;
        Some(scheduled.packet)
    }

    /// Packets in flight.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_direction;

    const MS: u64 = 1_000_000;

    fn line(spec: &str) -> DelayLine {
        DelayLine::new(parse_direction(spec).unwrap())
    }

    #[test]
    fn a_packet_leaves_exactly_one_delay_after_it_arrived() {
        let mut line = line("delay=40ms");
        let mut rng = Rng::new(1);
        assert!(line.admit(vec![1], 1_000 * MS, &mut rng));
        assert!(line.admit(vec![2], 1_003 * MS, &mut rng));
        assert_eq!(line.next_due_ns(), Some(1_040 * MS));
        assert_eq!(line.pop_due(1_040 * MS - 1), None);
        assert_eq!(line.pop_due(1_040 * MS), Some(vec![1]));
        assert_eq!(line.pop_due(1_042 * MS), None);
        assert_eq!(line.pop_due(1_043 * MS), Some(vec![2]));
        assert_eq!(line.queued(), 0);
        assert_eq!(line.stats.packets_out, 2);
    }

    #[test]
    fn without_delay_a_packet_is_due_at_once() {
        let mut line = line("");
        let mut rng = Rng::new(1);
        line.admit(vec![9; 1500], 5, &mut rng);
        assert_eq!(line.pop_due(5), Some(vec![9; 1500]));
        assert_eq!(line.stats.bytes_out, 1500);
    }

    #[test]
    fn jitter_spreads_delays_uniformly_within_its_bounds() {
        let mut line = line("delay=20ms,jitter=5ms,reorder=allow");
        let mut rng = Rng::new(3);
        let n = 20_000u64;
        let delays: Vec<u64> = (0..n)
            .map(|i| line.departure_ns(i * 10 * MS, &mut rng) - i * 10 * MS)
            .collect();
        assert!(delays.iter().all(|&d| (15 * MS..=25 * MS).contains(&d)));
        let mean = delays.iter().sum::<u64>() as f64 / n as f64;
        assert!((mean - 20e6).abs() < 0.05e6, "mean {mean}");
        // Uniform: a quarter of the draws in each quarter of the range.
        let low = delays.iter().filter(|&&d| d < 17_500_000).count() as f64 / n as f64;
        assert!(
            (low - 0.25).abs() < 0.015,
            "share in the lowest quarter {low}"
        );
    }

    #[test]
    fn jitter_never_reorders_packets_unless_allowed() {
        let mut rng = Rng::new(4);
        let mut fifo = line("delay=20ms,jitter=10ms");
        let mut reordering = line("delay=20ms,jitter=10ms,reorder=allow");
        // One packet every 100 µs: far closer than the jitter, so unordered draws would cross often.
        for i in 0..5_000u64 {
            fifo.admit(i.to_be_bytes().to_vec(), i * 100_000, &mut rng);
            reordering.admit(i.to_be_bytes().to_vec(), i * 100_000, &mut rng);
        }
        let drain = |line: &mut DelayLine| {
            let mut order = Vec::new();
            while let Some(packet) = line.pop_due(u64::MAX) {
                order.push(u64::from_be_bytes(packet.try_into().unwrap()));
            }
            order
        };
        let fifo_order = drain(&mut fifo);
        assert_eq!(fifo_order, (0..5_000).collect::<Vec<_>>());
        let reordered = drain(&mut reordering);
        assert_eq!(reordered.len(), 5_000);
        assert!(reordered.windows(2).filter(|w| w[1] < w[0]).count() > 100);
    }

    #[test]
    fn fifo_jitter_adds_no_delay_to_sparse_packets() {
        // One packet per 100 ms with ±5 ms: the FIFO rule never applies, the mean stays at the configured delay.
        let mut line = line("delay=40ms,jitter=5ms");
        let mut rng = Rng::new(8);
        let n = 5_000u64;
        let total: u64 = (0..n)
            .map(|i| line.departure_ns(i * 100 * MS, &mut rng) - i * 100 * MS)
            .sum();
        assert!((total as f64 / n as f64 - 40e6).abs() < 0.1e6);
    }

    #[test]
    fn dropped_packets_are_counted_and_never_leave() {
        let mut line = DelayLine::new(DirectionConfig {
            loss: LossConfig::Bernoulli { p: 1.0 },
            ..DirectionConfig::default()
        });
        let mut rng = Rng::new(1);
        assert!(!line.admit(vec![1, 2, 3], 0, &mut rng));
        assert_eq!(line.pop_due(u64::MAX), None);
        assert_eq!(line.stats.dropped, 1);
        assert_eq!(line.stats.packets_in, 1);
    }

    #[test]
    fn reconfiguring_keeps_packets_in_flight_on_their_old_schedule() {
        let mut line = line("delay=100ms");
        let mut rng = Rng::new(1);
        line.admit(vec![1], 0, &mut rng);
        line.reconfigure(parse_direction("delay=10ms").unwrap());
        line.admit(vec![2], MS, &mut rng);
        // FIFO: the second packet may not overtake the first.
        assert_eq!(line.pop_due(100 * MS), Some(vec![1]));
        assert_eq!(line.pop_due(100 * MS), Some(vec![2]));
    }
}
