/// The text form of a key, as `qix keygen` writes it and key files hold it: 32 ASCII hex
/// digits, white space around or between them ignored.
enum KeyFileText {
    /// The 16 key bytes `text` spells; `subject` names the source in errors.
    static func keyBytes(_ text: String, subject: String) throws(WatermarkError) -> [UInt8] {
        // White space is dropped scalar by scalar: a combining mark riding on a space is
        // not white space, and must not vanish with it.
        let digits = Substring(String(text.unicodeScalars.filter { !$0.properties.isWhitespace }))
        guard digits.count == 32 else {
            throw WatermarkError("invalid key", subject, "expected 32 hex digits, found \(digits.count) characters")
        }
        switch HexDigits.bytes(digits) {
        case .success(let bytes): return bytes
        case .failure(let bad): throw WatermarkError("invalid key", subject, "'\(bad.text)' is not a hex byte")
        }
    }
}
