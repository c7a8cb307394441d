extension World {
    /// Last step's contacts as the warm start reads them: their pair keys, point ids and counts,
    /// and the impulses the solver left in its batches. A contact is looked for first where it
    /// would be if the contacts are last step's in the same order (its index, shifted by the
    /// offset of the last one found elsewhere): a pile at rest finds every contact there, and
    /// the pair table (140 kB on the 5050-box pyramid) is built only on the first miss, for
    /// this narrow phase alone, instead of being kept between steps. The answer is the same
    /// either way while each key occurs once; when the broad phase may have repeated a pair,
    /// every lookup goes through the table, which finds the first contact of the pair.
    struct OldContacts {
        let keys: UnsafeBufferPointer<UInt64>
        let keysMayRepeat: Bool
        let pointIDs: UnsafeBufferPointer<SIMD4<UInt32>>
        let impulses: ContactSolver.Impulses?
        let bodyCount: Int
        private var table: PairTable?
        /// The offset of the last contact found away from its index (where the next is guessed;
        /// the C narrow phase, which looks up contacts the same way, sets it when it returns).
        var shift = 0

        /// Last step's contacts with these keys, point ids and impulses, among `bodyCount` bodies.
        init(keys: UnsafeBufferPointer<UInt64>, keysMayRepeat: Bool, pointIDs: UnsafeBufferPointer<SIMD4<UInt32>>,
             impulses: ContactSolver.Impulses?, bodyCount: Int) {
            self.keys = keys
            self.keysMayRepeat = keysMayRepeat
            self.pointIDs = pointIDs
            self.impulses = impulses
            self.bodyCount = bodyCount
        }

        /// The index of last step's contact between `a` and `b` (pair key `key`), or nil;
        /// `index` is where this step's contact of the pair goes.
        @inline(__always)
        mutating func find(_ a: Int, _ b: Int, key: UInt64, index: Int) -> Int? {
            let guess = index + shift
            if !keysMayRepeat && guess >= 0 && guess < keys.count && keys[guess] == key { return guess }
            return findInTable(a, b, index: index)
        }

        /// Builds the pair table now if every lookup goes through it (repeated keys), so that the
        /// C narrow phase can look all its pairs up.
        mutating func prepareTableIfAlwaysUsed() {
            if keysMayRepeat && impulses != nil && table == nil { buildTable() }
        }

        /// Runs `body` with the pair table's arrays (start, start count, order, second), or with
        /// nils and 0 when it is not built.
        func withTable<R>(_ body: (UnsafePointer<Int32>?, Int, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R) -> R {
            guard let table else { return body(nil, 0, nil, nil) }
            return table.withArrays(body)
        }

        private mutating func buildTable() {
            var built = PairTable()
            built.rebuild(keys: keys, bodyCount: bodyCount)
            table = built
        }

        /// `find` through the pair table, built on first use.
        private mutating func findInTable(_ a: Int, _ b: Int, index: Int) -> Int? {
            if table == nil { buildTable() }
            guard let found = table?.find(a, b) else { return nil }
            shift = found - index
            return found
        }
    }
}
