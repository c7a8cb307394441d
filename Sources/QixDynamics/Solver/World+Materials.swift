/// The shared material table: every body points at one entry, and bodies with the same
/// material share it (7 `Double`s a body otherwise: 0.28 MB on the 5050-box pyramid).
extension World {
    /// The material of body `index`.
    @inline(__always)
    func material(of index: Int) -> BodyMaterial { materials[Int(bodies[index].material)] }

    /// Gives body `index` the material `change` makes of its current one.
    func changeMaterial(of index: Int, _ change: (inout BodyMaterial) -> Void) {
        var m = material(of: index)
        change(&m)
        bodies[index].material = intern(m)
    }

    /// The index of `m` in the table, added if new.
    private func intern(_ m: BodyMaterial) -> Int32 {
        if let k = materialIndex[m] { return k }
        let k = Int32(materials.count)
        materials.append(m)
        materialIndex[m] = k
        return k
    }

    /// Drops the entries no body uses any more (left by changes made one field at a time),
    /// keeping the others in order of first use by body.
    func compactMaterials() {
        let old = materials
        materials = []
        materialIndex = [:]
        for i in 0..<bodies.count { bodies[i].material = intern(old[Int(bodies[i].material)]) }
    }
}
