//! A compact binary form for what the build keeps between runs (the cache's
//! cards, the card index): numbers are LEB128 varints, strings and lists
//! are length-prefixed, enums are one byte. Reading never panics: any
//! malformed input reads as `None`.

use std::ops::Range;

pub(crate) struct Writer<'a>(pub(crate) &'a mut Vec<u8>);

impl Writer<'_> {
    /// A value as its place in the list of every value of its kind.
    pub(crate) fn choice<T: PartialEq>(&mut self, all: &[T], value: &T) {
        let at = all.iter().position(|v| v == value);
        self.0
            .push(at.expect("every value is in its ALL list") as u8);
    }

    /// A list: its length, then each item.
    pub(crate) fn list<T>(&mut self, items: &[T], mut item: impl FnMut(&mut Self, &T)) {
        self.number(items.len());
        for one in items {
            item(self, one);
        }
    }

    pub(crate) fn number(&mut self, mut n: usize) {
        while n >= 0x80 {
            self.0.push(n as u8 | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
    }

    pub(crate) fn text(&mut self, text: &str) {
        self.number(text.len());
        self.0.extend_from_slice(text.as_bytes());
    }

    pub(crate) fn optional_text(&mut self, text: Option<&str>) {
        match text {
            None => self.0.push(0),
            Some(text) => {
                self.0.push(1);
                self.text(text);
            }
        }
    }

    /// A span as its start and length.
    pub(crate) fn span(&mut self, span: &Range<usize>) {
        self.number(span.start);
        self.number(span.end.saturating_sub(span.start));
    }
}

pub(crate) struct Reader<'a>(pub(crate) &'a [u8]);

impl<'a> Reader<'a> {
    /// A value written by [`Writer::choice`] with the same list.
    pub(crate) fn choice<T: Copy>(&mut self, all: &[T]) -> Option<T> {
        all.get(usize::from(self.byte()?)).copied()
    }

    /// A list written by [`Writer::list`].
    pub(crate) fn list<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        let count = self.count()?;
        let mut items = Vec::with_capacity(count);
        for _ in 0..count {
            items.push(item(self)?);
        }
        Some(items)
    }

    pub(crate) fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }

    pub(crate) fn number(&mut self) -> Option<usize> {
        let mut n: usize = 0;
        for shift in (0..usize::BITS).step_by(7) {
            let byte = self.byte()?;
            n |= usize::from(byte & 0x7f).checked_shl(shift)?;
            if byte & 0x80 == 0 {
                return Some(n);
            }
        }
        None
    }

    /// A length of a list, bounded by the bytes left (each item takes one).
    pub(crate) fn count(&mut self) -> Option<usize> {
        self.number().filter(|&n| n <= self.0.len())
    }

    pub(crate) fn text(&mut self) -> Option<String> {
        self.str().map(str::to_owned)
    }

    /// A string written by [`Writer::text`], borrowed from the bytes.
    pub(crate) fn str(&mut self) -> Option<&'a str> {
        // Checked with SIMD: a command decodes every string of the index.
        simdutf8::basic::from_utf8(self.bytes()?).ok()
    }

    /// The bytes of a string written by [`Writer::text`], unchecked.
    pub(crate) fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = self.number()?;
        let (bytes, rest) = self.0.split_at_checked(len)?;
        self.0 = rest;
        Some(bytes)
    }

    /// [`Reader::str`] of a string written by [`Writer::optional_text`].
    pub(crate) fn optional_str(&mut self) -> Option<Option<&'a str>> {
        match self.byte()? {
            0 => Some(None),
            1 => self.str().map(Some),
            _ => None,
        }
    }

    pub(crate) fn optional_text(&mut self) -> Option<Option<String>> {
        match self.byte()? {
            0 => Some(None),
            1 => self.text().map(Some),
            _ => None,
        }
    }

    pub(crate) fn span(&mut self) -> Option<Range<usize>> {
        let start = self.number()?;
        let len = self.number()?;
        Some(start..start.checked_add(len)?)
    }
}

/// Holds a decoder to its promise: `bytes` cut short anywhere, or with a
/// byte more, is refused, and garbage never panics.
#[cfg(test)]
pub(crate) fn assert_refuses_damage<T>(bytes: &[u8], decode: impl Fn(&[u8]) -> Option<T>) {
    let step = (bytes.len() / 50).max(1);
    for len in (0..bytes.len()).step_by(step) {
        assert!(decode(&bytes[..len]).is_none(), "cut at {len}");
    }
    let mut longer = bytes.to_vec();
    longer.push(0);
    assert!(decode(&longer).is_none(), "a byte more");
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let _ = decode(&garbage);
}
