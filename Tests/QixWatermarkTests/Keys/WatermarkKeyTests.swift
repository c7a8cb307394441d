import Testing
import QixWatermark

/// Keys: the hex file form, bad key files, fingerprints and keyed derivation.
@Suite("Watermark keys")
struct WatermarkKeyTests {
    @Test("hex round trip, case and white space tolerated")
    func hexRoundTrip() throws {
        let key = WatermarkKey.random()
        #expect(key.hex.count == 32)
        #expect(try WatermarkKey(hex: key.hex + "\n") == key)
        #expect(try WatermarkKey(hex: "  " + key.hex.uppercased()) == key)
        #expect(WatermarkKey.random() != key, "random keys differ")
    }

    @Test("malformed key text is refused with the source named", arguments: [
        "", "abc", String(repeating: "0", count: 31), String(repeating: "0", count: 33),
        String(repeating: "g", count: 32), "0123456789abcdef0123456789abcdeX",
        // A sign is not a digit, though UInt8("-0", radix: 16) is 0; nor is a fullwidth digit.
        String(repeating: "-0", count: 16), String(repeating: "+f", count: 16),
        String(repeating: "0", count: 31) + "\u{FF10}", String(repeating: "0", count: 30) + "e\u{301}0",
    ])
    func malformed(_ text: String) {
        let error = #expect(throws: WatermarkError.self) { try WatermarkKey(hex: text, subject: "campaign.key") }
        #expect(error?.subject == "campaign.key")
    }

    @Test("derivation is keyed, labelled and reproducible")
    func derivation() throws {
        let a = try WatermarkKey(hex: "000102030405060708090a0b0c0d0e0f")
        let b = try WatermarkKey(hex: "000102030405060708090a0b0c0d0e0e")
        #expect(a.derive("sync", count: 100) == a.derive("sync", count: 100))
        #expect(a.derive("sync", count: 100) != b.derive("sync", count: 100))
        #expect(a.derive("sync", count: 100) != a.derive("bins", count: 100))
        #expect(a.derive("sync", count: 10) == Array(a.derive("sync", count: 100).prefix(10)), "a prefix of the stream")
        // HMAC-SHA-256(key, "sync" || 0x00000000), checked against an independent computation
        // (Python: hmac.new(bytes(range(16)), b"sync\0\0\0\0", "sha256").hexdigest()[:16]).
        let first8 = a.derive("sync", count: 8).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        #expect(first8 == "fc7e05be61dbb22b")
    }

    @Test("the fingerprint identifies a key without revealing it")
    func fingerprint() throws {
        let key = WatermarkKey.random()
        #expect(key.fingerprint.count == 16)
        #expect(!key.hex.contains(key.fingerprint))
        #expect(WatermarkKey.publicTestKey.fingerprint != key.fingerprint)
    }
}
