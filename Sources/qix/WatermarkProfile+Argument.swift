import ArgumentParser
import QixWatermark

/// `--profile broadcast|venue` on `qix embed` and `qix eval`.
extension WatermarkProfile: ExpressibleByArgument {}
