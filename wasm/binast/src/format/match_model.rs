//! Where the next item may repeat an earlier one: the search both of the context layout's match models share
//! (since format 5; the text model's over bytes of new string text, the value model's over kinds and integers). The
//! latest `min` items are hashed to where they last ended; once those items agree, the item that followed them then
//! is the guess for the next one, and the match follows along while the items keep agreeing (since format 6 a match
//! may also be started at a given place: `follow`). Encoder and decoder push the same items in the same order, so
//! both find the same matches.

use crate::prelude::*;

/// A history of items and the match being followed in it.
pub struct Repeats<T> {
    history: Vec<T>,
    /// Hash of the latest `min` items → the length of the history after their last occurrence (0 = none). Allocated
    /// on the first full window, so a file with little to match pays nothing for it.
    last_seen: Vec<u32>,
    /// log2 of `last_seen`'s length.
    bits: u32,
    /// Where the guessed next item is in `history`, while `length` > 0.
    at: usize,
    /// How many items before the next have matched (0 = no match).
    length: u32,
    /// Items that must agree before a match is taken.
    min: usize,
    /// A match at least this long survives one item that differs (`u32::MAX`: never).
    recover_from: u32,
    /// How far back a new match's length is measured (a longer one is a surer guess); `min` or less: not at all.
    measure_back: usize,
}

impl<T: Copy + Eq> Repeats<T> {
    /// An empty history with room for `capacity` items (a growing history would leave its old buffers behind
    /// under the decode-only build's bump allocator); `bits` sizes the table (2^bits slots).
    pub fn new(
        min: usize,
        bits: u32,
        recover_from: u32,
        measure_back: usize,
        capacity: usize,
    ) -> Repeats<T> {
        Repeats {
            history: Vec::with_capacity(capacity),
            last_seen: Vec::new(),
            bits,
            at: 0,
            length: 0,
            min,
            recover_from,
            measure_back,
        }
    }

    /// The items so far, oldest first.
    #[inline(always)]
    pub fn history(&self) -> &[T] {
        &self.history
    }

    /// How many items the current match has agreed on (0: none).
    #[inline(always)]
    pub fn length(&self) -> u32 {
        self.length
    }

    /// The guessed next item, if a match is being followed.
    #[inline(always)]
    pub fn expected(&self) -> Option<T> {
        if self.length == 0 {
            None
        } else {
            Some(self.history[self.at])
        }
    }

    /// Guesses that the next item is the one at `at` in the history (which must be below its length), as the first of
    /// a match of length 1, unless a match is being followed already.
    pub fn follow(&mut self, at: usize) {
        if self.length == 0 {
            self.at = at;
            self.length = 1;
        }
    }

    /// Adds the item just coded, `window` being a hash of the latest `min` items with it (unused while the history
    /// is shorter): follows the match, or looks for a new one.
    pub fn push(&mut self, item: T, window: u64) {
        if self.length > 0 && self.history[self.at] == item {
            self.length = self.length.saturating_add(1);
            self.at += 1;
        } else if self.length >= self.recover_from {
            // One item differed in a long run (another name, another number): the run often goes on after it.
            self.length = 1;
            self.at += 1;
        } else {
            self.length = 0;
        }
        self.history.push(item);
        let n = self.history.len();
        if n < self.min {
            return;
        }
        if self.last_seen.is_empty() {
            self.last_seen = vec![0; 1 << self.bits];
        }
        let slot = (window.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize;
        if self.length == 0 {
            let candidate = self.last_seen[slot] as usize;
            let min = self.min;
            if candidate >= min
                && self.history[candidate - min..candidate] == self.history[n - min..]
            {
                let longest = candidate.min(self.measure_back);
                let agreeing = (min..longest)
                    .take_while(|&back| {
                        self.history[candidate - 1 - back] == self.history[n - 1 - back]
                    })
                    .count();
                self.at = candidate;
                self.length = (min + agreeing) as u32;
            }
        }
        self.last_seen[slot] = n as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::Repeats;

    /// The window hash the text model uses: the latest four bytes packed.
    fn window(history: &[u8]) -> u64 {
        history[history.len().saturating_sub(4)..]
            .iter()
            .fold(0, |hash, &b| hash << 8 | u64::from(b))
    }

    fn push_all(repeats: &mut Repeats<u8>, bytes: &[u8]) {
        for &b in bytes {
            let mut next = repeats.history().to_vec();
            next.push(b);
            repeats.push(b, window(&next));
        }
    }

    #[test]
    fn follows_a_repeat_and_measures_its_length() {
        let mut repeats = Repeats::new(4, 10, u32::MAX, 32, 0);
        push_all(&mut repeats, b"the quick brown fox; ");
        assert_eq!(repeats.expected(), None);
        push_all(&mut repeats, b"the quick");
        // "the quick" (9 bytes) matched: the next byte guessed is the one after it the first time.
        assert_eq!(repeats.expected(), Some(b' '));
        assert_eq!(repeats.length(), 9);
        push_all(&mut repeats, b"!");
        assert_eq!(
            repeats.expected(),
            None,
            "a differing byte ends a match that does not recover"
        );
    }

    #[test]
    fn a_long_run_survives_one_differing_item() {
        let mut repeats = Repeats::new(4, 10, 5, 0, 0);
        push_all(&mut repeats, b"abcdefghij-");
        push_all(&mut repeats, b"abcdef");
        assert_eq!(repeats.length(), 6);
        push_all(&mut repeats, b"X");
        assert_eq!(
            repeats.expected(),
            Some(b'h'),
            "the guess moved past the differing byte"
        );
        assert_eq!(repeats.length(), 1);
    }

    #[test]
    fn follow_guesses_from_a_given_start_unless_a_match_runs() {
        let mut repeats = Repeats::new(4, 10, u32::MAX, 32, 0);
        push_all(&mut repeats, b"application/json|");
        repeats.follow(0);
        assert_eq!(repeats.expected(), Some(b'a'));
        push_all(&mut repeats, b"applic");
        assert_eq!(
            repeats.expected(),
            Some(b'a'),
            "the guess follows the earlier string"
        );
        assert_eq!(repeats.length(), 7);
        push_all(&mut repeats, b"X");
        assert_eq!(repeats.expected(), None);
        // A match found the usual way ("json" was seen before) is kept.
        push_all(&mut repeats, b"json");
        assert_eq!(repeats.expected(), Some(b'|'));
        repeats.follow(0);
        assert_eq!(repeats.expected(), Some(b'|'));
    }
}
