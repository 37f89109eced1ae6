//! Decoding what crosses into the wasm as text: base64 (an upload's file contents, a screenshot's data
//! address) and the size of a JPEG picture from its header.
//!
//! Must not: read more than it is given, or panic on damaged input (it answers an error or `None`).

/// Decodes standard base64 (with or without padding; whitespace is not expected). Done in Rust because
/// the text is already here, and a file of several megabytes would cost millions of calls through
/// `atob`'s binary string.
pub fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    fn value(c: u8) -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let text = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    for chunk in text.chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let v = value(*c).ok_or("the file's contents were damaged on the way (not base64)")?;
            n |= v << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        match chunk.len() {
            4 => out.extend_from_slice(&bytes),
            3 => out.extend_from_slice(&bytes[..2]),
            2 => out.push(bytes[0]),
            _ => return Err("the file's contents were damaged on the way (cut short)".into()),
        }
    }
    Ok(out)
}

/// The width and height of a JPEG image, from its frame header (the first SOFn segment).
pub fn jpeg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..2)? != [0xff, 0xd8] {
        return None;
    }
    let mut at = 2;
    while at + 4 <= bytes.len() {
        if bytes[at] != 0xff {
            return None;
        }
        let marker = bytes[at + 1];
        let length = usize::from(u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]));
        // SOF0..SOF15, except DHT (c4), JPG (c8) and DAC (cc), carry the frame's size.
        if (0xc0..=0xcf).contains(&marker) && ![0xc4, 0xc8, 0xcc].contains(&marker) {
            let height = u16::from_be_bytes([*bytes.get(at + 5)?, *bytes.get(at + 6)?]);
            let width = u16::from_be_bytes([*bytes.get(at + 7)?, *bytes.get(at + 8)?]);
            return Some((u32::from(width), u32::from(height)));
        }
        at += 2 + length;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(decode_base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode_base64("aGVsbG8").unwrap(), b"hello");
        assert_eq!(decode_base64("aGk=").unwrap(), b"hi");
        assert_eq!(decode_base64("").unwrap(), b"");
        assert_eq!(decode_base64("//79").unwrap(), [0xff, 0xfe, 0xfd]);
        assert!(decode_base64("a$==").is_err());
    }

    #[test]
    fn a_jpeg_says_its_size_in_its_frame_header() {
        // SOI, an APP0 segment of 16 bytes, then SOF0: 8-bit, height 600, width 1200.
        let mut jpeg = vec![0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10];
        jpeg.extend_from_slice(&[0; 14]);
        jpeg.extend_from_slice(&[0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x04, 0xb0]);
        assert_eq!(jpeg_size(&jpeg), Some((1200, 600)));
        assert_eq!(jpeg_size(b"\x89PNG"), None);
        assert_eq!(jpeg_size(&jpeg[..10]), None);
    }
}
