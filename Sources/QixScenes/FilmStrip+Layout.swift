import QixDynamics

extension FilmStrip {
    /// Where the panels, their captions and the legend go in the picture.
    struct Layout {
        /// The reference region each panel shows.
        var area: Rect
        /// Panel width and height in picture pixels.
        var panelWidth: Double, panelHeight: Double
        /// Picture pixels per point.
        var scale: Double
        /// Panels per row and rows.
        var columns: Int, rows: Int
        /// Space between panels, and above each panel for its caption.
        let gap = 12.0, caption = 18.0
        /// Height of the legend rows under the panels.
        var legendHeight: Double
        /// Width of one legend entry (symbol and word).
        static let legendEntryWidth = 100.0

        /// A layout of `panelCount` panels of `area`, `columns` to a row, with `legendEntries`
        /// entries wrapped under them.
        init(area: Rect, panelWidth: Double, columns: Int, panelCount: Int, legendEntries: Int) {
            self.area = area
            self.panelWidth = panelWidth
            // A degenerate region (zero width) still gives a finite picture.
            scale = area.size.x > 0 ? panelWidth / area.size.x : 1
            panelHeight = area.size.y * scale
            self.columns = max(1, min(columns, panelCount))
            rows = max(1, (panelCount + self.columns - 1) / self.columns)
            legendHeight = 0
            if legendEntries > 0 {
                let perRow = max(1, Int((width - 2 * gap) / Self.legendEntryWidth))
                legendHeight = Double((legendEntries + perRow - 1) / perRow) * 20 + 4
            }
        }

        /// The picture's width.
        var width: Double { Double(columns) * (panelWidth + gap) + gap }
        /// The picture's height, legend included.
        var height: Double { Double(rows) * (panelHeight + caption + gap) + gap + legendHeight }

        /// Panel `k`'s frame in picture pixels (below its caption).
        func panelBox(_ k: Int) -> Rect {
            let x = gap + Double(k % columns) * (panelWidth + gap)
            let y = gap + Double(k / columns) * (panelHeight + caption + gap) + caption
            return Rect(x: x, y: y, width: panelWidth, height: panelHeight)
        }
    }
}
