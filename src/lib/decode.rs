//! A read file's bytes as text: UTF-8 taken without a copy, a UTF-8
//! byte-order mark blanked (offsets kept), UTF-16 by its mark, binary by
//! a NUL in the first 8 KiB; bytes that are not UTF-8 told apart.

pub(crate) enum Decoded {
    Text(String),
    Utf16(String),
    Binary,
    /// Not UTF-8: where the first bad byte is, and the bytes.
    Invalid(usize, Vec<u8>),
}

/// Decode a file's bytes; UTF-8 text is taken without a copy.
pub(crate) fn decode(mut data: Vec<u8>) -> Decoded {
    if data.starts_with(&[0xEF, 0xBB, 0xBF]) {
        // A UTF-8 byte-order mark: blank it to keep offsets.
        data[..3].copy_from_slice(b"   ");
        return match String::from_utf8(data) {
            Ok(s) => Decoded::Text(s),
            Err(e) => {
                // (The offset as reported before: past the mark.)
                let at = e.utf8_error().valid_up_to() + 3;
                let mut data = e.into_bytes();
                data[..3].copy_from_slice(&[0xEF, 0xBB, 0xBF]);
                Decoded::Invalid(at, data)
            }
        };
    }
    let le = data.starts_with(&[0xFF, 0xFE]);
    let be = data.starts_with(&[0xFE, 0xFF]);
    if le || be {
        let units: Vec<u16> = data[2..]
            .chunks_exact(2)
            .map(|c| {
                if le {
                    u16::from_le_bytes([c[0], c[1]])
                } else {
                    u16::from_be_bytes([c[0], c[1]])
                }
            })
            .collect();
        return match String::from_utf16(&units) {
            Ok(s) => Decoded::Utf16(s),
            Err(_) => Decoded::Binary,
        };
    }
    let head = &data[..data.len().min(8192)];
    if memchr::memchr(0, head).is_some() {
        return Decoded::Binary;
    }
    match String::from_utf8(data) {
        Ok(s) => Decoded::Text(s),
        Err(e) => Decoded::Invalid(e.utf8_error().valid_up_to(), e.into_bytes()),
    }
}

/// The text of `data` with each byte that is not part of valid UTF-8
/// replaced by one `?`: as long as `data`, byte for byte.
pub(crate) fn placeholders(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len());
    for chunk in data.utf8_chunks() {
        out.push_str(chunk.valid());
        out.extend(std::iter::repeat_n('?', chunk.invalid().len()));
    }
    out
}
