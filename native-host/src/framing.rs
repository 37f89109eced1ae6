//! Native-messaging framing: a 32-bit length in native byte order, then that many bytes of UTF-8 JSON.
//!
//! This module is the only writer of the host's stdout (the crate denies `print_stdout`): anything else
//! written there would corrupt the stream the browser reads.
//!
//! The decoder never gives up on a stream because of one bad frame. A frame over the input limit is
//! reported as [`Frame::Oversized`] and its bytes are skipped as they arrive, so the host can answer with
//! an error and keep serving. Whether the bytes are JSON is decided one layer up
//! ([`crate::connection`]); here a frame is just bytes.

use bytes::{Buf, BufMut, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

const HEADER_LEN: usize = 4;

/// One unit read from the browser.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A whole message body.
    Message(Bytes),
    /// A frame that announced `len` bytes, more than the limit; its body is being discarded.
    Oversized { len: usize },
}

/// What can go wrong with framing itself.
#[derive(Debug, thiserror::Error)]
pub enum FramingError {
    #[error("reading or writing the browser's pipe failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("the browser closed the pipe in the middle of a message ({got} of {expected} bytes)")]
    Truncated { got: usize, expected: usize },
    #[error("a message of {len} bytes is over the browser's limit of {limit} bytes; it was not sent")]
    TooLargeToSend { len: usize, limit: usize },
}

/// Encodes and decodes native-messaging frames, with separate limits for each direction.
#[derive(Debug)]
pub struct NativeMessagingCodec {
    max_in: usize,
    max_out: usize,
    /// Bytes of an oversized frame still to be thrown away.
    skipping: usize,
}

impl NativeMessagingCodec {
    pub fn new(max_in: usize, max_out: usize) -> Self {
        Self {
            max_in,
            max_out,
            skipping: 0,
        }
    }

    /// The limits the browser sets: 64 MiB in, 1 MiB out.
    pub fn for_browser() -> Self {
        Self::new(
            waymark_protocol::MAX_MESSAGE_FROM_BROWSER,
            waymark_protocol::MAX_MESSAGE_TO_BROWSER,
        )
    }
}

impl Decoder for NativeMessagingCodec {
    type Item = Frame;
    type Error = FramingError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Frame>, FramingError> {
        if self.skipping > 0 {
            let n = self.skipping.min(src.len());
            src.advance(n);
            self.skipping -= n;
            if self.skipping > 0 {
                return Ok(None);
            }
        }
        if src.len() < HEADER_LEN {
            return Ok(None);
        }
        let mut header = [0u8; HEADER_LEN];
        header.copy_from_slice(&src[..HEADER_LEN]);
        let len = u32::from_ne_bytes(header) as usize;
        if len > self.max_in {
            src.advance(HEADER_LEN);
            self.skipping = len;
            // Throw away what has already arrived; the rest goes on the next calls.
            let n = self.skipping.min(src.len());
            src.advance(n);
            self.skipping -= n;
            return Ok(Some(Frame::Oversized { len }));
        }
        if src.len() < HEADER_LEN + len {
            src.reserve(HEADER_LEN + len - src.len());
            return Ok(None);
        }
        src.advance(HEADER_LEN);
        Ok(Some(Frame::Message(src.split_to(len).freeze())))
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Frame>, FramingError> {
        match self.decode(src)? {
            Some(frame) => Ok(Some(frame)),
            None if src.is_empty() && self.skipping == 0 => Ok(None),
            None if self.skipping > 0 => {
                // End of input inside a frame we were discarding anyway: nothing is lost.
                self.skipping = 0;
                Ok(None)
            }
            None => {
                let got = src.len().saturating_sub(HEADER_LEN);
                let expected = if src.len() >= HEADER_LEN {
                    let mut header = [0u8; HEADER_LEN];
                    header.copy_from_slice(&src[..HEADER_LEN]);
                    u32::from_ne_bytes(header) as usize
                } else {
                    HEADER_LEN
                };
                src.clear();
                Err(FramingError::Truncated { got, expected })
            }
        }
    }
}

impl Encoder<Bytes> for NativeMessagingCodec {
    type Error = FramingError;

    fn encode(&mut self, body: Bytes, dst: &mut BytesMut) -> Result<(), FramingError> {
        if body.len() > self.max_out {
            return Err(FramingError::TooLargeToSend {
                len: body.len(),
                limit: self.max_out,
            });
        }
        // max_out is at most 1 MiB, far below u32::MAX.
        let len = u32::try_from(body.len()).map_err(|_| FramingError::TooLargeToSend {
            len: body.len(),
            limit: self.max_out,
        })?;
        dst.reserve(HEADER_LEN + body.len());
        dst.put_slice(&len.to_ne_bytes());
        dst.put_slice(&body);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut v = (body.len() as u32).to_ne_bytes().to_vec();
        v.extend_from_slice(body);
        v
    }

    #[test]
    fn decodes_a_whole_frame() {
        let mut codec = NativeMessagingCodec::new(100, 100);
        let mut buf = BytesMut::from(&frame(b"{\"a\":1}")[..]);
        assert_eq!(
            codec.decode(&mut buf).unwrap(),
            Some(Frame::Message(Bytes::from_static(b"{\"a\":1}")))
        );
        assert!(buf.is_empty());
        assert_eq!(codec.decode(&mut buf).unwrap(), None);
    }

    #[test]
    fn waits_for_partial_header_and_partial_body_byte_by_byte() {
        let mut codec = NativeMessagingCodec::new(100, 100);
        let bytes = frame(b"hello");
        let mut buf = BytesMut::new();
        for (i, b) in bytes.iter().enumerate() {
            buf.put_u8(*b);
            let out = codec.decode(&mut buf).unwrap();
            if i + 1 < bytes.len() {
                assert_eq!(out, None, "after {} bytes", i + 1);
            } else {
                assert_eq!(out, Some(Frame::Message(Bytes::from_static(b"hello"))));
            }
        }
    }

    #[test]
    fn decodes_several_frames_from_one_read() {
        let mut codec = NativeMessagingCodec::new(100, 100);
        let mut bytes = frame(b"one");
        bytes.extend(frame(b""));
        bytes.extend(frame(b"three"));
        let mut buf = BytesMut::from(&bytes[..]);
        assert_eq!(
            codec.decode(&mut buf).unwrap(),
            Some(Frame::Message(Bytes::from_static(b"one")))
        );
        assert_eq!(
            codec.decode(&mut buf).unwrap(),
            Some(Frame::Message(Bytes::new()))
        );
        assert_eq!(
            codec.decode(&mut buf).unwrap(),
            Some(Frame::Message(Bytes::from_static(b"three")))
        );
    }

    #[test]
    fn an_oversized_frame_is_reported_then_skipped_and_the_next_frame_is_read() {
        let mut codec = NativeMessagingCodec::new(10, 100);
        let big = vec![b'x'; 25];
        let mut buf = BytesMut::from(&frame(&big)[..12]); // header + 8 bytes of body so far
        assert_eq!(
            codec.decode(&mut buf).unwrap(),
            Some(Frame::Oversized { len: 25 })
        );
        assert_eq!(codec.decode(&mut buf).unwrap(), None);
        let mut rest = frame(&big)[12..].to_vec();
        rest.extend(frame(b"ok"));
        buf.extend_from_slice(&rest);
        assert_eq!(
            codec.decode(&mut buf).unwrap(),
            Some(Frame::Message(Bytes::from_static(b"ok")))
        );
    }

    #[test]
    fn the_input_limit_is_inclusive() {
        let mut codec = NativeMessagingCodec::new(4, 100);
        let mut buf = BytesMut::from(&frame(b"1234")[..]);
        assert_eq!(
            codec.decode(&mut buf).unwrap(),
            Some(Frame::Message(Bytes::from_static(b"1234")))
        );
        let mut buf = BytesMut::from(&frame(b"12345")[..]);
        assert_eq!(codec.decode(&mut buf).unwrap(), Some(Frame::Oversized { len: 5 }));
    }

    #[test]
    fn end_of_input_between_frames_is_clean_and_inside_a_frame_is_truncated() {
        let mut codec = NativeMessagingCodec::new(100, 100);
        assert_eq!(codec.decode_eof(&mut BytesMut::new()).unwrap(), None);
        let mut buf = BytesMut::from(&frame(b"hello")[..6]);
        match codec.decode_eof(&mut buf) {
            Err(FramingError::Truncated { got: 2, expected: 5 }) => {}
            other => panic!("expected Truncated, got {other:?}"),
        }
        let mut buf = BytesMut::from(&[1u8, 0][..]);
        assert!(matches!(
            codec.decode_eof(&mut buf),
            Err(FramingError::Truncated { .. })
        ));
    }

    #[test]
    fn encodes_with_native_endian_length() {
        let mut codec = NativeMessagingCodec::new(100, 100);
        let mut dst = BytesMut::new();
        codec.encode(Bytes::from_static(b"{}"), &mut dst).unwrap();
        assert_eq!(&dst[..], &frame(b"{}")[..]);
    }

    #[test]
    fn one_mebibyte_out_is_allowed_and_one_byte_more_is_refused() {
        let mut codec = NativeMessagingCodec::for_browser();
        let limit = waymark_protocol::MAX_MESSAGE_TO_BROWSER;
        let mut dst = BytesMut::new();
        codec.encode(Bytes::from(vec![b' '; limit]), &mut dst).unwrap();
        assert_eq!(dst.len(), limit + 4);
        let mut dst = BytesMut::new();
        match codec.encode(Bytes::from(vec![b' '; limit + 1]), &mut dst) {
            Err(FramingError::TooLargeToSend { len, limit: l }) => assert_eq!((len, l), (limit + 1, limit)),
            other => panic!("expected TooLargeToSend, got {other:?}"),
        }
        assert!(dst.is_empty(), "nothing is written for a refused message");
    }
}
