//! Varnums as the BinaryAST multipart container writes them: 7-bit groups, least significant first, each byte
//! holding `group << 1 | more` so the continuation flag is the low bit.

use crate::prelude::*;
use crate::DecodeError;

/// Appends `value` to `out` as a varnum (1 to 5 bytes).
pub fn write_varnum(out: &mut Vec<u8>, value: u32) {
    let mut rest = value;
    loop {
        let group = (rest & 0x7f) as u8;
        rest >>= 7;
        let more = u8::from(rest != 0);
        out.push((group << 1) | more);
        if rest == 0 {
            return;
        }
    }
}

/// Reads one varnum starting at `*offset`, advancing `*offset` past it.
pub fn read_varnum(bytes: &[u8], offset: &mut usize) -> Result<u32, DecodeError> {
    let start = *offset;
    let mut value: u64 = 0;
    let mut shift = 0u32;
    loop {
        let byte = *bytes
            .get(*offset)
            .ok_or(DecodeError::UnexpectedEnd { offset: start })?;
        *offset += 1;
        value |= u64::from(byte >> 1) << shift;
        if value > u64::from(u32::MAX) {
            return Err(DecodeError::VarnumOverflow { offset: start });
        }
        if byte & 1 == 0 {
            // `value` was checked against u32::MAX above.
            return Ok(value as u32);
        }
        shift += 7;
        if shift >= 35 {
            return Err(DecodeError::VarnumOverflow { offset: start });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(value: u32) -> Vec<u8> {
        let mut out = Vec::new();
        write_varnum(&mut out, value);
        out
    }

    #[test]
    fn small_values_take_one_byte_with_the_flag_in_the_low_bit() {
        assert_eq!(encode(0), vec![0x00]);
        assert_eq!(encode(1), vec![0x02]);
        assert_eq!(encode(127), vec![0xfe]);
    }

    #[test]
    fn values_from_128_continue_into_a_second_byte() {
        // 128 = group 0 then group 1: (0 << 1) | 1, (1 << 1) | 0
        assert_eq!(encode(128), vec![0x01, 0x02]);
        assert_eq!(encode(300), vec![0x59, 0x04]);
    }

    #[test]
    fn u32_max_round_trips_in_five_bytes() {
        let bytes = encode(u32::MAX);
        assert_eq!(bytes.len(), 5);
        assert_eq!(read_varnum(&bytes, &mut 0), Ok(u32::MAX));
    }

    #[test]
    fn every_power_of_two_boundary_round_trips() {
        let mut out = Vec::new();
        let values: Vec<u32> = (0..32)
            .flat_map(|bit| {
                let v = 1u32 << bit;
                [v - 1, v, v.wrapping_add(1)]
            })
            .collect();
        for &value in &values {
            write_varnum(&mut out, value);
        }
        let mut offset = 0;
        for &value in &values {
            assert_eq!(read_varnum(&out, &mut offset), Ok(value));
        }
        assert_eq!(offset, out.len());
    }

    #[test]
    fn truncated_input_is_an_error_naming_where_the_value_began() {
        assert_eq!(
            read_varnum(&[0x02, 0x01], &mut 1),
            Err(DecodeError::UnexpectedEnd { offset: 1 })
        );
        assert_eq!(
            read_varnum(&[], &mut 0),
            Err(DecodeError::UnexpectedEnd { offset: 0 })
        );
    }

    #[test]
    fn values_over_32_bits_are_rejected_not_wrapped() {
        let too_big = [0xff, 0xff, 0xff, 0xff, 0x3f];
        assert_eq!(
            read_varnum(&too_big, &mut 0),
            Err(DecodeError::VarnumOverflow { offset: 0 })
        );
        let endless = [0x01; 16];
        assert!(read_varnum(&endless, &mut 0).is_err());
    }
}
