//! TCP/IPv4 GSO super-packets: how many wire packets one stands for, and cutting one into the runs of segments that
//! survive a loss draw. Pure and bounded: every length is checked against the frame before it is used, and a frame
//! that is not a well-formed TCPv4 super-packet is never cut (the caller treats it as one packet).
//!
//! A run is what the kernel's own segmentation (tcp_gso_segment) would have produced for those segments, glued back
//! into one super-packet when it has several: sequence number advanced by the payload before it, IP id advanced by
//! the segments before it, IP total length and header checksum for its size, CWR only on the run holding the first
//! segment, FIN and PSH only on the run holding the last, and the TCP checksum field holding the pseudo-header sum for
//! its length (the checksum stays partial: NEEDS_CSUM, completed by whoever finally transmits it).

use crate::vnet::{VnetHeader, FLAG_NEEDS_CSUM, GSO_NONE, GSO_TCPV4, VNET_HEADER_BYTES};

const IPPROTO_TCP: u8 = 6;
/// Offset of the checksum in the TCP header.
const TCP_CHECK_OFFSET: usize = 16;
const TCP_FIN: u8 = 0x01;
const TCP_PSH: u8 = 0x08;
const TCP_CWR: u8 = 0x80;
/// Most segments a super-packet may be cut into (64 KB at a 536-byte MSS is 123); beyond it the frame is treated
/// as one packet, so hostile input cannot make the emulator allocate per byte.
pub const MAX_SEGMENTS: usize = 256;

/// The wire packets a frame stands for: what the counters count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wire {
    pub packets: u64,
    /// IP bytes on the wire (every segment's headers counted).
    pub bytes: u64,
}

/// A validated TCPv4 super-packet's layout (offsets into the IP packet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub ip_header_bytes: usize,
    /// IP + TCP header bytes; the payload starts here.
    pub headers_bytes: usize,
    pub payload_bytes: usize,
    pub segment_bytes: usize,
    pub segments: usize,
}

/// The layout of a frame that can be cut, or why it cannot.
pub fn tcp4_layout(header: &VnetHeader, packet: &[u8]) -> Result<Layout, &'static str> {
    if header.gso_kind() != GSO_TCPV4 {
        return Err("not a TCPv4 GSO frame");
    }
    if header.flags & FLAG_NEEDS_CSUM == 0 {
        return Err("GSO frame without a partial checksum");
    }
    if packet.len() < 20 || packet[0] >> 4 != 4 {
        return Err("not IPv4");
    }
    let ip_header_bytes = usize::from(packet[0] & 0x0f) * 4;
    if ip_header_bytes < 20 || ip_header_bytes > packet.len() {
        return Err("bad IPv4 header length");
    }
    if usize::from(u16::from_be_bytes([packet[2], packet[3]])) != packet.len() {
        return Err("IPv4 total length is not the frame's");
    }
    // More-fragments flag or a fragment offset: never a GSO frame.
    if u16::from_be_bytes([packet[6], packet[7]]) & 0x3fff != 0 {
        return Err("IPv4 fragment");
    }
    if packet[9] != IPPROTO_TCP {
        return Err("not TCP");
    }
    if packet.len() < ip_header_bytes + 20 {
        return Err("truncated TCP header");
    }
    let tcp_header_bytes = usize::from(packet[ip_header_bytes + 12] >> 4) * 4;
    let headers_bytes = ip_header_bytes + tcp_header_bytes;
    if tcp_header_bytes < 20 || headers_bytes > packet.len() {
        return Err("bad TCP header length");
    }
    if usize::from(header.csum_start) != ip_header_bytes
        || usize::from(header.csum_offset) != TCP_CHECK_OFFSET
    {
        return Err("checksum not at the TCP header");
    }
    let segment_bytes = usize::from(header.gso_size);
    let payload_bytes = packet.len() - headers_bytes;
    if segment_bytes == 0 || payload_bytes == 0 {
        return Err("no segment size or no payload");
    }
    let segments = payload_bytes.div_ceil(segment_bytes);
    if segments > MAX_SEGMENTS {
        return Err("too many segments");
    }
    Ok(Layout {
        ip_header_bytes,
        headers_bytes,
        payload_bytes,
        segment_bytes,
        segments,
    })
}

/// The wire packets and bytes behind a frame: a super-packet's segments, else one packet.
pub fn wire_of(layout: Option<&Layout>, packet: &[u8]) -> Wire {
    match layout {
        Some(l) => Wire {
            packets: l.segments as u64,
            bytes: (packet.len() + (l.segments - 1) * l.headers_bytes) as u64,
        },
        None => Wire {
            packets: 1,
            bytes: packet.len() as u64,
        },
    }
}

/// Cuts a super-packet into one frame (virtio header + packet) per maximal run of kept segments, in order, each
/// with the wire packets it stands for. `keep` has one entry per segment (`layout.segments`).
pub fn split(
    header: &VnetHeader,
    packet: &[u8],
    layout: &Layout,
    keep: &[bool],
) -> Vec<(Vec<u8>, Wire)> {
    let mut runs = Vec::new();
    let mut index = 0;
    while index < layout.segments {
        if !keep.get(index).copied().unwrap_or(false) {
            index += 1;
            continue;
        }
        let first = index;
        while index < layout.segments && keep.get(index).copied().unwrap_or(false) {
            index += 1;
        }
        runs.push(run_frame(header, packet, layout, first, index));
    }
    runs
}

/// Every segment as its own frame, as the kernel would send them (the tests compare runs against it).
#[cfg(test)]
pub fn segments(header: &VnetHeader, packet: &[u8], layout: &Layout) -> Vec<(Vec<u8>, Wire)> {
    (0..layout.segments)
        .map(|i| run_frame(header, packet, layout, i, i + 1))
        .collect()
}

/// Segments `first..end` (end exclusive, 0 ≤ first < end ≤ segments) as one frame.
fn run_frame(
    header: &VnetHeader,
    packet: &[u8],
    layout: &Layout,
    first: usize,
    end: usize,
) -> (Vec<u8>, Wire) {
    let payload_start = layout.headers_bytes + first * layout.segment_bytes;
    let payload_end = (layout.headers_bytes + end * layout.segment_bytes).min(packet.len());
    let length = layout.headers_bytes + (payload_end - payload_start);
    let count = end - first;
    let run_header = VnetHeader {
        flags: FLAG_NEEDS_CSUM,
        gso_type: if count > 1 { header.gso_type } else { GSO_NONE },
        hdr_len: layout.headers_bytes as u16,
        gso_size: if count > 1 { header.gso_size } else { 0 },
        csum_start: header.csum_start,
        csum_offset: header.csum_offset,
    };
    let mut frame = Vec::with_capacity(VNET_HEADER_BYTES + length);
    frame.extend_from_slice(&run_header.to_bytes());
    frame.extend_from_slice(&packet[..layout.headers_bytes]);
    frame.extend_from_slice(&packet[payload_start..payload_end]);
    let ip = &mut frame[VNET_HEADER_BYTES..];

    // IPv4: total length, id advanced per segment (the kernel's GSO does the same), header checksum.
    ip[2..4].copy_from_slice(&(length as u16).to_be_bytes());
    let id = u16::from_be_bytes([ip[4], ip[5]]).wrapping_add(first as u16);
    ip[4..6].copy_from_slice(&id.to_be_bytes());
    ip[10..12].copy_from_slice(&[0, 0]);
    let ip_check = !fold(sum_be_words(&ip[..layout.ip_header_bytes], 0));
    ip[10..12].copy_from_slice(&ip_check.to_be_bytes());

    // TCP: sequence number, flags, pseudo-header sum for this length.
    let tcp = layout.ip_header_bytes;
    let sequence = u32::from_be_bytes([ip[tcp + 4], ip[tcp + 5], ip[tcp + 6], ip[tcp + 7]])
        .wrapping_add((first * layout.segment_bytes) as u32);
    ip[tcp + 4..tcp + 8].copy_from_slice(&sequence.to_be_bytes());
    if first > 0 {
        ip[tcp + 13] &= !TCP_CWR;
    }
    if end < layout.segments {
        ip[tcp + 13] &= !(TCP_FIN | TCP_PSH);
    }
    let pseudo = pseudo_header_sum(ip, (length - tcp) as u32);
    ip[tcp + TCP_CHECK_OFFSET..tcp + TCP_CHECK_OFFSET + 2].copy_from_slice(&pseudo.to_be_bytes());

    let wire = Wire {
        packets: count as u64,
        bytes: (length + (count - 1) * layout.headers_bytes) as u64,
    };
    (frame, wire)
}

/// One's-complement sum of big-endian 16-bit words (an odd last byte padded with zero), added to `sum`.
pub fn sum_be_words(bytes: &[u8], mut sum: u64) -> u64 {
    let mut pairs = bytes.chunks_exact(2);
    for pair in &mut pairs {
        sum += u64::from(u16::from_be_bytes([pair[0], pair[1]]));
    }
    if let [last] = pairs.remainder() {
        sum += u64::from(*last) << 8;
    }
    sum
}

/// Folds a wide sum to 16 bits with end-around carry (not complemented).
pub fn fold(mut sum: u64) -> u16 {
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    sum as u16
}

/// The folded (not complemented) TCP pseudo-header sum: what a partial checksum field holds before completion.
fn pseudo_header_sum(ip: &[u8], tcp_length: u32) -> u16 {
    let addresses = sum_be_words(&ip[12..20], 0);
    fold(addresses + u64::from(IPPROTO_TCP) + u64::from(tcp_length))
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::vnet::GSO_ECN;

    /// A TCPv4 super-packet as the kernel hands it over: `payload` bytes in `mss`-byte segments, 12 bytes of TCP
    /// options, partial checksum.
    pub fn super_packet(payload: usize, mss: u16, tcp_flags: u8) -> Vec<u8> {
        let headers = 20 + 32;
        let mut ip = vec![0u8; headers + payload];
        ip[0] = 0x45;
        ip[2..4].copy_from_slice(&((headers + payload) as u16).to_be_bytes());
        ip[4..6].copy_from_slice(&0xfffeu16.to_be_bytes()); // the id wraps inside the packet
        ip[6] = 0x40; // DF
        ip[8] = 64;
        ip[9] = IPPROTO_TCP;
        ip[12..16].copy_from_slice(&[10, 99, 0, 1]);
        ip[16..20].copy_from_slice(&[10, 99, 1, 2]);
        let check = !fold(sum_be_words(&ip[..20], 0));
        ip[10..12].copy_from_slice(&check.to_be_bytes());
        ip[20..22].copy_from_slice(&5201u16.to_be_bytes());
        ip[22..24].copy_from_slice(&40000u16.to_be_bytes());
        ip[24..28].copy_from_slice(&0xffff_f000u32.to_be_bytes()); // the sequence number wraps too
        ip[28..32].copy_from_slice(&77u32.to_be_bytes());
        ip[32] = 8 << 4;
        ip[33] = tcp_flags;
        ip[34..36].copy_from_slice(&512u16.to_be_bytes());
        ip[40..52].copy_from_slice(&[1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2]);
        for (i, byte) in ip[headers..].iter_mut().enumerate() {
            *byte = (i * 7 + i / 251) as u8;
        }
        let pseudo = pseudo_header_sum(&ip, (32 + payload) as u32);
        ip[36..38].copy_from_slice(&pseudo.to_be_bytes());
        let header = VnetHeader {
            flags: FLAG_NEEDS_CSUM,
            gso_type: GSO_TCPV4,
            hdr_len: headers as u16,
            gso_size: mss,
            csum_start: 20,
            csum_offset: 16,
        };
        let mut frame = header.to_bytes().to_vec();
        frame.extend_from_slice(&ip);
        frame
    }

    /// What the transmitting device finally does with a partial checksum: the complemented sum from csum_start.
    fn complete_checksum(frame: &[u8]) -> Vec<u8> {
        let (header, ip) = VnetHeader::parse(frame).unwrap();
        let mut ip = ip.to_vec();
        let start = usize::from(header.csum_start);
        let at = start + usize::from(header.csum_offset);
        let check = !fold(sum_be_words(&ip[start..], 0));
        ip[at..at + 2].copy_from_slice(&check.to_be_bytes());
        ip
    }

    /// An independent TCP checksum check: pseudo header + segment with its checksum sums to 0xffff.
    fn tcp_checksum_ok(ip: &[u8]) -> bool {
        let ihl = usize::from(ip[0] & 15) * 4;
        let sum = sum_be_words(&ip[12..20], 0) + 6 + (ip.len() - ihl) as u64;
        fold(sum_be_words(&ip[ihl..], sum)) == 0xffff
    }

    fn ip_checksum_ok(ip: &[u8]) -> bool {
        fold(sum_be_words(&ip[..usize::from(ip[0] & 15) * 4], 0)) == 0xffff
    }

    fn layout_of(frame: &[u8]) -> (VnetHeader, &[u8], Layout) {
        let (header, ip) = VnetHeader::parse(frame).unwrap();
        let layout = tcp4_layout(&header, ip).unwrap();
        (header, ip, layout)
    }

    #[test]
    fn a_super_packet_is_cut_into_segments_the_way_the_kernel_would() {
        let frame = super_packet(4000, 1448, 0x18 | TCP_CWR); // ACK|PSH|CWR
        let (header, ip, layout) = layout_of(&frame);
        assert_eq!(layout.segments, 3);
        assert_eq!(
            wire_of(Some(&layout), ip),
            Wire {
                packets: 3,
                bytes: (52 + 4000 + 2 * 52) as u64
            }
        );
        let pieces = segments(&header, ip, &layout);
        let sizes: Vec<usize> = pieces.iter().map(|(f, _)| f.len() - 10 - 52).collect();
        assert_eq!(sizes, [1448, 1448, 1104]);
        let mut payload = Vec::new();
        for (i, (piece, wire)) in pieces.iter().enumerate() {
            assert_eq!(
                *wire,
                Wire {
                    packets: 1,
                    bytes: (piece.len() - 10) as u64
                }
            );
            let (h, _) = VnetHeader::parse(piece).unwrap();
            assert_eq!((h.gso_type, h.gso_size, h.hdr_len), (GSO_NONE, 0, 52));
            let seg = complete_checksum(piece);
            assert!(ip_checksum_ok(&seg), "IP checksum of segment {i}");
            assert!(tcp_checksum_ok(&seg), "TCP checksum of segment {i}");
            assert_eq!(
                u16::from_be_bytes([seg[2], seg[3]]) as usize,
                seg.len(),
                "total length"
            );
            assert_eq!(
                u16::from_be_bytes([seg[4], seg[5]]),
                0xfffeu16.wrapping_add(i as u16)
            );
            let sequence = u32::from_be_bytes([seg[24], seg[25], seg[26], seg[27]]);
            assert_eq!(sequence, 0xffff_f000u32.wrapping_add(1448 * i as u32));
            let flags = seg[33];
            assert_eq!(flags & TCP_CWR != 0, i == 0, "CWR only on the first");
            assert_eq!(flags & TCP_PSH != 0, i == 2, "PSH only on the last");
            assert!(flags & 0x10 != 0, "ACK on every segment");
            assert_eq!(&seg[40..52], &ip[40..52], "options copied");
            payload.extend_from_slice(&seg[52..]);
        }
        assert_eq!(payload, &ip[52..]);
    }

    #[test]
    fn runs_of_kept_segments_are_super_packets_that_segment_like_the_original() {
        let frame = super_packet(20 * 1448 - 100, 1448, 0x19); // ACK|PSH|FIN
        let (header, ip, layout) = layout_of(&frame);
        assert_eq!(layout.segments, 20);
        let whole = segments(&header, ip, &layout);
        let mut keep = vec![true; 20];
        for dropped in [0, 5, 6, 12, 19] {
            keep[dropped] = false;
        }
        let runs = split(&header, ip, &layout, &keep);
        // Runs: 1-4, 7-11, 13-18.
        let counts: Vec<u64> = runs.iter().map(|(_, w)| w.packets).collect();
        assert_eq!(counts, [4, 5, 6]);
        let mut resegmented = Vec::new();
        for (run, wire) in &runs {
            let (h, run_ip, run_layout) = layout_of(run);
            assert_eq!(h.gso_size, 1448);
            assert_eq!(wire_of(Some(&run_layout), run_ip), *wire);
            assert!(ip_checksum_ok(run_ip));
            assert!(tcp_checksum_ok(&complete_checksum(run)));
            resegmented.extend(segments(&h, run_ip, &run_layout));
        }
        let expected: Vec<_> = (0..20).filter(|&i| keep[i]).map(|i| &whole[i]).collect();
        assert_eq!(resegmented.len(), expected.len());
        for ((got, _), (want, _)) in resegmented.iter().zip(expected) {
            // FIN/PSH sit on segment 19, which was dropped: the kernel would have sent them there, so no run has them.
            let mut want = want.clone();
            want[10 + 33] &= !(TCP_FIN | TCP_PSH);
            let mut want_check = complete_checksum(&want);
            let got_check = complete_checksum(got);
            want_check[33] = got_check[33];
            assert_eq!(got_check[..36], want_check[..36]);
            assert_eq!(got_check[38..], want_check[38..]);
            assert!(tcp_checksum_ok(&got_check));
        }
    }

    #[test]
    fn keeping_all_or_none_gives_the_whole_frame_or_nothing() {
        let frame = super_packet(3 * 1448, 1448, 0x10);
        let (header, ip, layout) = layout_of(&frame);
        let all = split(&header, ip, &layout, &[true; 3]);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].0, frame);
        assert!(split(&header, ip, &layout, &[false; 3]).is_empty());
        // A short mask keeps only the segments it names.
        assert_eq!(split(&header, ip, &layout, &[true]).len(), 1);
    }

    #[test]
    fn frames_that_are_not_tcpv4_super_packets_are_never_cut() {
        let good = super_packet(3000, 1448, 0x10);
        let (header, ip) = VnetHeader::parse(&good).unwrap();
        let reject = |h: VnetHeader, ip: &[u8]| tcp4_layout(&h, ip).is_err();
        assert!(reject(
            VnetHeader {
                gso_type: GSO_NONE,
                ..header
            },
            ip
        ));
        assert!(reject(VnetHeader { flags: 0, ..header }, ip));
        assert!(reject(
            VnetHeader {
                gso_size: 0,
                ..header
            },
            ip
        ));
        assert!(reject(
            VnetHeader {
                gso_size: 10,
                ..header
            },
            ip
        ));
        assert!(reject(
            VnetHeader {
                csum_start: 24,
                ..header
            },
            ip
        ));
        assert!(reject(header, &ip[..ip.len() - 1]));
        let mut udp = ip.to_vec();
        udp[9] = 17;
        assert!(reject(header, &udp));
        let mut fragment = ip.to_vec();
        fragment[6] = 0x20;
        assert!(reject(header, &fragment));
        assert!(tcp4_layout(
            &VnetHeader {
                gso_type: GSO_TCPV4 | GSO_ECN,
                ..header
            },
            ip
        )
        .is_ok());
        assert_eq!(wire_of(None, ip).packets, 1);
    }

    /// Hostile frames: valid super-packets with bytes flipped, ranges cut or grown, header fields replaced by
    /// interesting values, random keep masks. Nothing may panic, and whatever is cut must be well-formed and carry
    /// no more payload than the frame did.
    #[test]
    fn fuzz_hostile_frames_never_panic_and_cut_only_well_formed_runs() {
        let mut rng = Rng::new(0x5eed);
        let interesting: [u16; 9] = [0, 1, 2, 19, 20, 52, 1448, 0x7fff, 0xffff];
        let mut cut = 0;
        for round in 0..12_000u64 {
            // Mostly a few segments (cheap), one frame in 50 near the 64 KB limit.
            let largest = if round % 50 == 0 { 70_000 } else { 8_000 };
            let payload = (rng.next_u64() % largest) as usize;
            let mss = interesting[(rng.next_u64() % 9) as usize].max(1);
            let mss = if round % 2 == 0 { 1448 } else { mss };
            let mut frame = super_packet(payload.min(65_000), mss, rng.next_u64() as u8);
            for _ in 0..(rng.next_u64() % 4) {
                let at = (rng.next_u64() as usize) % frame.len();
                match rng.next_u64() % 4 {
                    0 => frame[at] ^= 1 << (rng.next_u64() % 8),
                    1 => frame[at] = rng.next_u64() as u8,
                    2 => frame.truncate(at),
                    _ => {
                        let value = interesting[(rng.next_u64() % 9) as usize].to_be_bytes();
                        if at + 2 <= frame.len() {
                            frame[at..at + 2].copy_from_slice(&value);
                        }
                    }
                }
                if frame.is_empty() {
                    break;
                }
            }
            let Some((header, ip)) = VnetHeader::parse(&frame) else {
                continue;
            };
            let Ok(layout) = tcp4_layout(&header, ip) else {
                assert_eq!(wire_of(None, ip).packets, 1);
                continue;
            };
            assert!(layout.segments <= MAX_SEGMENTS);
            let keep: Vec<bool> = (0..layout.segments + (rng.next_u64() % 3) as usize)
                .map(|_| !rng.next_u64().is_multiple_of(4))
                .collect();
            let runs = split(&header, ip, &layout, &keep);
            let mut payload_out = 0;
            for (run, wire) in &runs {
                let (h, run_ip) = VnetHeader::parse(run).unwrap();
                assert_eq!(
                    u16::from_be_bytes([run_ip[2], run_ip[3]]) as usize,
                    run_ip.len()
                );
                assert!(ip_checksum_ok(run_ip));
                assert!(usize::from(h.hdr_len) <= run_ip.len());
                assert!(wire.packets >= 1);
                if wire.packets > 1 {
                    let run_layout =
                        tcp4_layout(&h, run_ip).expect("a multi-segment run is a super-packet");
                    assert_eq!(run_layout.segments as u64, wire.packets);
                }
                payload_out += run_ip.len() - layout.headers_bytes;
            }
            assert!(payload_out <= layout.payload_bytes);
            cut += 1;
        }
        assert!(
            cut > 3_000,
            "too few valid frames reached the cutter: {cut}"
        );
    }
}
