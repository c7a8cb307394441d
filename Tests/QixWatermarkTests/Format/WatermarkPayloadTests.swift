import Testing
@testable import QixWatermark

struct WatermarkPayloadTests {
    @Test func parsesExactlyEightHexDigits() throws {
        #expect(try WatermarkPayload(hex: "DEADbeef").message == 0xdeadbeef)
        #expect(try WatermarkPayload(hex: "0000002a").hex == "0000002a")
        for bad in ["", "1234567", "123456789", "xyz12345", "+1234567", " 1234567", "1234-567", "-1234567", "1234567\u{FF10}", "1234567e\u{301}"] {
            #expect(throws: WatermarkError.self) { try WatermarkPayload(hex: bad) }
        }
    }

    @Test func checkIsKeyed() throws {
        let key = WatermarkKey.publicTestKey
        let other = try WatermarkKey(hex: "00112233445566778899aabbccddeeff")
        let payload = WatermarkPayload(message: 0x12345678)
        let bits = payload.bits(key: key)
        #expect(bits.count == WatermarkParameters.payloadBits)
        #expect(WatermarkPayload.verify(bits, key: key) == payload)
        #expect(WatermarkPayload.verify(bits, key: other) == nil)
        var flipped = bits
        flipped[3] ^= 1
        #expect(WatermarkPayload.verify(flipped, key: key) == nil)
    }

    @Test func randomBitsRarelyPassTheCheck() {
        let key = WatermarkKey.publicTestKey
        var state: UInt64 = 7
        var passed = 0
        for _ in 0..<2000 {
            let bits: [UInt8] = (0..<WatermarkParameters.payloadBits).map { _ in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(state >> 63)
            }
            if WatermarkPayload.verify(bits, key: key) != nil { passed += 1 }
        }
        #expect(passed == 0)
    }
}
