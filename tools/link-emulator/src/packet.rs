//! Which direction an IP packet travels, from its addresses: toward the client network is "down", from it "up".

use crate::config::ConfigError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Server → client.
    Down,
    /// Client → server.
    Up,
    /// Anything else (IPv6, packets not involving the client network, truncated packets): forwarded untouched.
    Other,
}

/// An IPv4 network such as 10.99.1.0/24.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ipv4Net {
    address: u32,
    mask: u32,
}

impl Ipv4Net {
    /// Parses `a.b.c.d/len`.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let bad = || {
            ConfigError(format!(
                "expected an IPv4 network like 10.99.1.0/24, got \"{text}\""
            ))
        };
        let (address, length) = text.trim().split_once('/').ok_or_else(bad)?;
        let address: std::net::Ipv4Addr = address.parse().map_err(|_| bad())?;
        let length: u32 = length.parse().map_err(|_| bad())?;
        if length > 32 {
            return Err(bad());
        }
        let mask = if length == 0 {
            0
        } else {
            u32::MAX << (32 - length)
        };
        Ok(Self {
            address: u32::from(address) & mask,
            mask,
        })
    }

    pub fn contains(&self, address: u32) -> bool {
        address & self.mask == self.address
    }
}

/// The direction of a raw IP packet (no packet-information header) relative to the client network.
pub fn direction_of(packet: &[u8], client: &Ipv4Net) -> Direction {
    if packet.len() < 20 || packet[0] >> 4 != 4 {
        return Direction::Other;
    }
    let source = u32::from_be_bytes([packet[12], packet[13], packet[14], packet[15]]);
    let destination = u32::from_be_bytes([packet[16], packet[17], packet[18], packet[19]]);
    match (client.contains(source), client.contains(destination)) {
        (false, true) => Direction::Down,
        (true, false) => Direction::Up,
        _ => Direction::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ipv4(source: [u8; 4], destination: [u8; 4]) -> Vec<u8> {
        let mut packet = vec![0u8; 40];
        packet[0] = 0x45;
        packet[12..16].copy_from_slice(&source);
        packet[16..20].copy_from_slice(&destination);
        packet
    }

    #[test]
    fn packets_toward_the_client_network_go_down_and_from_it_up() {
        let client = Ipv4Net::parse("10.99.1.0/24").unwrap();
        assert_eq!(
            direction_of(&ipv4([10, 99, 0, 1], [10, 99, 1, 2]), &client),
            Direction::Down
        );
        assert_eq!(
            direction_of(&ipv4([10, 99, 1, 2], [10, 99, 0, 1]), &client),
            Direction::Up
        );
    }

    #[test]
    fn ipv6_truncated_and_unrelated_packets_are_other() {
        let client = Ipv4Net::parse("10.99.1.0/24").unwrap();
        let mut v6 = ipv4([10, 99, 0, 1], [10, 99, 1, 2]);
        v6[0] = 0x60;
        assert_eq!(direction_of(&v6, &client), Direction::Other);
        assert_eq!(direction_of(&[0x45; 19], &client), Direction::Other);
        assert_eq!(
            direction_of(&ipv4([10, 99, 0, 1], [10, 99, 0, 3]), &client),
            Direction::Other
        );
        assert_eq!(
            direction_of(&ipv4([10, 99, 1, 1], [10, 99, 1, 3]), &client),
            Direction::Other
        );
    }

    #[test]
    fn networks_parse_and_reject_garbage() {
        let net = Ipv4Net::parse("10.99.1.77/24").unwrap();
        assert!(net.contains(u32::from(std::net::Ipv4Addr::new(10, 99, 1, 200))));
        assert!(!net.contains(u32::from(std::net::Ipv4Addr::new(10, 99, 2, 1))));
        assert!(Ipv4Net::parse("0.0.0.0/0").unwrap().contains(12345));
        for bad in ["10.99.1.0", "10.99.1.0/33", "10.999.1.0/24", "x/24"] {
            assert!(Ipv4Net::parse(bad).is_err(), "{bad}");
        }
    }
}
