// Buffers, resamplers and the shared error moved below the file layer into QixDSP; code
// that imports QixAudio alone keeps seeing them, as it did before the split.
@_exported import QixDSP
