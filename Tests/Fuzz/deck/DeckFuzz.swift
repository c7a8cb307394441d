// libFuzzer harness for the card-deck loader (`qix cards DECK`), built with ASan by
// Tests/Fuzz/run.sh: any bytes must load or give a JSONPathError, never trap.
import QixCards

@_cdecl("LLVMFuzzerTestOneInput")
public func deckFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = try? Deck.load(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
