//! One frame from the device into its direction's delay line: the loss process is stepped once per wire packet, so a
//! GSO super-packet standing for 40 segments meets 40 loss draws, exactly as its segments would have one by one.
//! When some segments are dropped, the survivors leave as runs cut from the super-packet (segment.rs); when none
//! is, the frame leaves whole. Delay and jitter are drawn once per frame: the segments of one super-packet arrive
//! at the emulator in the same instant and leave it together, and the bottleneck (tbf, after the emulator) spaces
//! them at the link rate as it would have had they arrived one by one.

use crate::rng::Rng;
use crate::schedule::DelayLine;
use crate::segment::{split, tcp4_layout, wire_of};
use crate::vnet::VnetHeader;

/// What became of an admitted frame (for counters and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admitted {
    /// Queued as it came.
    Whole,
    /// Cut into this many runs after some of its segments were dropped.
    Cut(usize),
    /// Every wire packet of it was dropped.
    Dropped,
}

/// Admits `frame` (virtio header + IP packet, as read) that arrived at `now_ns`.
pub fn admit(line: &mut DelayLine, frame: Vec<u8>, now_ns: u64, rng: &mut Rng) -> Admitted {
    let Some((header, ip)) = VnetHeader::parse(&frame) else {
        return Admitted::Dropped;
    };
    let layout = tcp4_layout(&header, ip).ok();
    let wire = wire_of(layout.as_ref(), ip);
    let Some(layout) = layout.filter(|l| l.segments > 1 && !line.is_lossless()) else {
        // One wire packet, a lossless direction, or a frame that cannot be cut: one decision for all of it.
        return if line.admit_frame(frame, wire, now_ns, rng) {
            Admitted::Whole
        } else {
            Admitted::Dropped
        };
    };
    line.count_in(wire);
    let keep: Vec<bool> = (0..layout.segments)
        .map(|_| line.survives_next(rng))
        .collect();
    let kept = keep.iter().filter(|&&k| k).count();
    if kept == 0 {
        return Admitted::Dropped;
    }
    let due_ns = line.departure_ns(now_ns, rng);
    if kept == layout.segments {
        line.enqueue(frame, wire, due_ns);
        return Admitted::Whole;
    }
    let runs = split(&header, ip, &layout, &keep);
    let count = runs.len();
    for (run, run_wire) in runs {
        line.enqueue(run, run_wire, due_ns);
    }
    Admitted::Cut(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_direction;
    use crate::segment::tests::super_packet;

    fn drain(line: &mut DelayLine) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        while let Some(frame) = line.pop_due(u64::MAX) {
            out.push(frame);
        }
        out
    }

    #[test]
    fn a_lossless_direction_passes_super_packets_whole() {
        let mut line = DelayLine::new(parse_direction("delay=10ms").unwrap());
        let mut rng = Rng::new(1);
        let frame = super_packet(44 * 1448, 1448, 0x10);
        assert_eq!(
            admit(&mut line, frame.clone(), 0, &mut rng),
            Admitted::Whole
        );
        assert_eq!(line.next_due_ns(), Some(10_000_000));
        assert_eq!(drain(&mut line), [frame]);
        assert_eq!(line.stats.packets_in, 44);
        assert_eq!(line.stats.packets_out, 44);
        assert_eq!(line.stats.bytes_out, (44 * 1448 + 44 * 52) as u64);
    }

    #[test]
    fn loss_is_drawn_per_segment_and_the_survivors_leave_in_order() {
        let mut line = DelayLine::new(parse_direction("delay=5ms,loss=2%").unwrap());
        let mut rng = Rng::new(7);
        let frames = 5_000u64;
        let mut cut = 0;
        for i in 0..frames {
            if let Admitted::Cut(_) =
                admit(&mut line, super_packet(40 * 1448, 1448, 0x10), i, &mut rng)
            {
                cut += 1;
            }
        }
        let stats = line.stats;
        assert_eq!(stats.packets_in, frames * 40);
        let rate = stats.dropped as f64 / stats.packets_in as f64;
        assert!((rate - 0.02).abs() < 0.002, "segment loss rate {rate}");
        // P(at least one of 40 dropped) = 1 − 0.98⁴⁰ ≈ 55 %: most frames are cut, not dropped whole.
        assert!(
            cut > frames * 45 / 100 && cut < frames * 65 / 100,
            "cut {cut}"
        );
        let out = drain(&mut line);
        assert_eq!(line.stats.packets_out, stats.packets_in - stats.dropped);
        // Every surviving segment leaves exactly once: payload out = survivors × MSS.
        let payload_out: usize = out.iter().map(|f| f.len() - 10 - 52).sum();
        assert_eq!(payload_out as u64, line.stats.packets_out * 1448);
        assert_eq!(line.stats.bytes_out, line.stats.packets_out * 1500);
    }

    #[test]
    fn short_frames_are_dropped_and_non_tcp_frames_are_one_packet() {
        let mut line = DelayLine::new(parse_direction("loss=100%").unwrap());
        let mut rng = Rng::new(1);
        assert_eq!(admit(&mut line, vec![0; 5], 0, &mut rng), Admitted::Dropped);
        let mut lossless = DelayLine::new(parse_direction("").unwrap());
        let mut udp = super_packet(100, 1448, 0);
        udp[10 + 9] = 17;
        assert_eq!(admit(&mut lossless, udp, 0, &mut rng), Admitted::Whole);
        assert_eq!(lossless.stats.packets_in, 1);
    }
}
