// libFuzzer harness for the key-file and ID parsers (`--key FILE`, `--message`), built with
// ASan by Tests/Fuzz/run.sh. Any bytes must parse or give a WatermarkError, and what parses
// must be exactly the ASCII hex digits that spell it: no sign, no fullwidth digit, no
// combining mark let through.

@_cdecl("LLVMFuzzerTestOneInput")
public func keyFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    if let key = try? KeyFileText.keyBytes(text, subject: "fuzz") {
        let digits = text.unicodeScalars.filter { !$0.properties.isWhitespace }
        precondition(key.count == 16, "a key of \(key.count) bytes")
        precondition(String(digits).lowercased() == spelled(key), "key bytes differ from the text")
    }
    if case .success(let parsed) = HexDigits.bytes(Substring(text)) {
        precondition(text.lowercased() == spelled(parsed), "bytes differ from the text")
    }
    return 0
}

/// Lowercase hex of `bytes`, written out by hand so the check does not share the parser's code.
private func spelled(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
}
