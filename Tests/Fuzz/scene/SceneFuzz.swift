// libFuzzer harness for the scene loader (`qix sim SCENE`), built with ASan by
// Tests/Fuzz/run.sh: any bytes must load or give a JSONPathError, never trap.
import QixScenes

@_cdecl("LLVMFuzzerTestOneInput")
public func sceneFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = try? SceneLoader.load(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
